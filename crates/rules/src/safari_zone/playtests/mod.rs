//! Logs fed back: the games people played on the playtest page (its **Download log**, format
//! `safari-log`), each replayed and checked against the ruleset it carries, grouped by
//! ruleset and reported beside the bots' games on the same ruleset (`sim`'s machinery):
//! scores, lengths, how games end, the boxes people fill that bots do not, and where people
//! and the strongest bot choose differently. Each of the people's decisions is put to that
//! bot through the step API ([`Match`]): the game replayed to the decision with the bot in
//! the person's seat, and the bot asked.
//!
//! `crate::playtests` reads the files and hands this module the logs of this game
//! ([`Groups::read`]); what every game's report shares (the head, the files refused, the
//! decisions counted by kind) is there.

mod choices;
mod page;
mod render;
mod report;

use rayon::prelude::*;

pub(crate) use page::ruleset_section;
pub(crate) use render::render_ruleset;
pub use report::*;

use crate::playtests::{Options, Tally};
use crate::safari_zone::engine::step::{Log, Match, Now, Seat, Taken};
use crate::safari_zone::engine::{OutReason, Player, Rules, explain, policy};
use crate::safari_zone::sim::{self, Distribution};

/// The bot every person's decision is put to: the strongest, `sim`'s default.
pub const ADVISOR: &str = sim::DEFAULT_POLICY;
/// The bots that play the ruleset when none are named: the strongest and `greedy`, a plain
/// player of the moment, so that people's scores fall somewhere on a ladder.
pub const DEFAULT_BOTS: &[&str] = &[sim::DEFAULT_POLICY, "greedy"];
/// A box is listed as filled more often by people (or by bots) when its rates differ by this
/// much (the text report; the JSON has every box).
pub const FILL_GAP: f64 = 0.25;
/// Seats of the logs and boxes listed each way in the text report (the HTML lists every seat
/// and every box).
pub const LISTED_SEATS: usize = 12;
pub const LISTED_BOXES: usize = 8;

/// Whether `names` are bots that can play any ruleset: known policies, none of them
/// `target:BOX` (a box of one ruleset).
pub fn check_bots(names: &[String]) -> Result<(), String> {
    for name in names {
        if name.starts_with("target:") {
            return Err(format!(
                "`{name}` plays toward one box of one ruleset; compare it with `safari sim --target`"
            ));
        }
        if policy::by_name(name).is_none() {
            return Err(format!(
                "unknown bot `{name}`; known: {}",
                policy::NAMES.join(", ")
            ));
        }
    }
    if names.is_empty() {
        return Err("name at least one bot".to_string());
    }
    Ok(())
}

/// The logs of one ruleset, as they are read.
struct Group {
    /// The ruleset as the logs carry it, serialised: logs go together when these are equal.
    ruleset: Vec<u8>,
    rules: Rules,
    game_id: String,
    game: String,
    version: String,
    content_hash: String,
    logs: Vec<String>,
    /// Players at each log's table.
    tables: Vec<usize>,
    people: Vec<PersonGame>,
    /// Per box, the finished person-games that filled it.
    fills: Vec<u32>,
    bot_seats: Vec<BotSeat>,
    tally: Tally,
}

/// The logs of this game read so far, by ruleset.
#[derive(Default)]
pub(crate) struct Groups(Vec<Group>);

impl Groups {
    /// Logs read.
    pub(crate) fn read_count(&self) -> usize {
        self.0.iter().map(|g| g.logs.len()).sum()
    }

    /// Reads the log `file` holds: replays it against its ruleset (refused, with why, when
    /// it does not replay), adds its people's and bots' seats to its ruleset's, and puts each
    /// of its people's decisions to the advisor.
    pub(crate) fn read(&mut self, file: &str, bytes: &[u8]) -> Result<(), String> {
        let (log, game) = Log::read(bytes).map_err(|err| err.0)?;
        let ruleset = serde_json::to_vec(&log.ruleset).expect("a JSON value serialises");
        let at = match self.0.iter().position(|g| g.ruleset == ruleset) {
            Some(at) => at,
            None => {
                self.0.push(Group::new(ruleset, &log.ruleset, game.rules()));
                self.0.len() - 1
            }
        };
        self.0[at].add(file, &log, &game);
        Ok(())
    }

    /// Bot games the report will play: for a progress bar.
    pub(crate) fn bot_games(&self, options: &Options) -> u64 {
        self.0.len() as u64 * options.bots.len() as u64 * options.games
    }

    /// Each ruleset's report: the bots play it (`progress` is told of every game played).
    pub(crate) fn report(
        self,
        options: &Options,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Vec<RulesetReport> {
        self.0
            .into_iter()
            .map(|group| group.report(options, progress))
            .collect()
    }
}

/// "deck v20240517, dice v20240517, field-guide v20240524; content sha256:f4c7bff048a5".
fn version_of(ruleset: &serde_json::Value) -> (String, String) {
    let hash = ruleset
        .get("content_hash")
        .and_then(|h| h.as_str())
        .unwrap_or("")
        .to_string();
    let versions: Vec<String> = ruleset
        .pointer("/game/versions")
        .and_then(|v| v.as_object())
        .map(|map| {
            map.iter()
                .map(|(part, v)| format!("{part} {}", v.as_str().unwrap_or("?")))
                .collect()
        })
        .unwrap_or_default();
    let short: String = hash.chars().take("sha256:".len() + 12).collect();
    let label = if versions.is_empty() {
        format!("content {short}")
    } else {
        format!("{}; content {short}", versions.join(", "))
    };
    (label, hash)
}

impl Group {
    fn new(ruleset: Vec<u8>, value: &serde_json::Value, rules: &Rules) -> Group {
        let (version, content_hash) = version_of(value);
        let text = |pointer: &str| {
            value
                .pointer(pointer)
                .and_then(|v| v.as_str())
                .unwrap_or("")
                .to_string()
        };
        Group {
            ruleset,
            rules: rules.clone(),
            game_id: text("/game/id"),
            game: text("/game/name"),
            version,
            content_hash,
            logs: Vec::new(),
            tables: Vec::new(),
            people: Vec::new(),
            fills: vec![0; rules.boxes.len()],
            bot_seats: Vec::new(),
            tally: Tally::default(),
        }
    }

    fn add(&mut self, file: &str, log: &Log, game: &Match) {
        self.logs.push(file.to_string());
        self.tables.push(log.seats.len());
        let (players, winners): (&[Player], Option<&[usize]>) = match game.now() {
            Now::Over {
                players, winners, ..
            } => (players, Some(winners)),
            Now::Deciding(moment) => (&moment.players, None),
        };
        for (seat, player) in players.iter().enumerate() {
            let end = match (winners, player.out) {
                (None, _) => End::Unfinished,
                (Some(_), Some(OutReason::Balls)) => End::Balls,
                (Some(_), _) => End::Turns,
            };
            match &log.seats[seat].bot {
                Some(policy) => self.bot_seats.push(BotSeat {
                    file: file.to_string(),
                    seat: seat + 1,
                    policy: policy.clone(),
                    vp: player.vp,
                    turns: player.turns_taken,
                    end,
                }),
                None => {
                    if end != End::Unfinished {
                        for (count, filled) in self.fills.iter_mut().zip(&player.filled) {
                            *count += u32::from(*filled);
                        }
                    }
                    self.people.push(PersonGame {
                        file: file.to_string(),
                        seat: seat + 1,
                        players: players.len(),
                        vp: player.vp,
                        turns: player.turns_taken,
                        decisions: game
                            .taken()
                            .iter()
                            .filter(|t| t.seat == seat && !t.by_bot)
                            .count() as u32,
                        end,
                        won: winners.map(|w| w.contains(&seat)),
                    });
                }
            }
        }
        self.ask_the_advisor(file, log.seed, &log.seats, game.taken());
    }

    /// Puts each of the people's decisions in `taken` to the advisor, and counts where it
    /// would have chosen otherwise.
    fn ask_the_advisor(&mut self, file: &str, seed: u64, seats: &[Seat], taken: &[Taken]) {
        let rules = &self.rules;
        let asked: Vec<choices::Compared> = (0..taken.len())
            .into_par_iter()
            .filter(|k| !taken[*k].by_bot)
            .filter_map(|k| {
                let mut seats = seats.to_vec();
                seats[taken[k].seat].bot = Some(ADVISOR.to_string());
                let mut game = Match::replay(rules.clone(), seats, seed, &taken[..k]).ok()?;
                let moment = game.moment()?.clone();
                let advice = game.play_bot()?;
                Some(choices::compare(rules, &moment, taken[k].choice, advice))
            })
            .collect();
        for compared in asked {
            let example = Example {
                file: file.to_string(),
                seat: compared.seat + 1,
                turn: compared.turn,
                person: compared.person,
                bot: compared.bot,
            };
            self.tally
                .count(compared.kind.name(), compared.pattern, example);
        }
    }

    fn report(self, options: &Options, progress: &(dyn Fn(u64) + Sync)) -> RulesetReport {
        let rules = &self.rules;
        let players = most_common(&self.tables);
        let runs: Vec<sim::Report> = options
            .bots
            .iter()
            .map(|bot| {
                sim::play(
                    rules,
                    &sim::Table::same(bot, players),
                    options.games,
                    options.seed,
                    progress,
                )
            })
            .collect();
        let finished: Vec<&PersonGame> = self
            .people
            .iter()
            .filter(|g| g.end != End::Unfinished)
            .collect();
        let distribution = |pick: fn(&PersonGame) -> u32| {
            let mut values: Vec<u32> = finished.iter().map(|g| pick(g)).collect();
            (!values.is_empty()).then(|| Distribution::of(&mut values))
        };
        let people = People {
            finished: finished.len(),
            unfinished: self.people.len() - finished.len(),
            vp: distribution(|g| g.vp),
            turns: distribution(|g| g.turns),
            decisions: distribution(|g| g.decisions),
            ended_by_turns: finished.iter().filter(|g| g.end == End::Turns).count(),
            ended_by_balls: finished.iter().filter(|g| g.end == End::Balls).count(),
            games: self.people.clone(),
        };
        let boxes = match runs.first() {
            Some(run) if !finished.is_empty() => {
                compare_boxes(rules, run, &self.fills, finished.len())
            }
            _ => Vec::new(),
        };
        let (kinds, patterns) = self.tally.finish(choices::KIND_ORDER);
        RulesetReport {
            game_id: self.game_id,
            game: self.game,
            version: self.version,
            content_hash: self.content_hash,
            logs: self.logs,
            people,
            bot_seats: self.bot_seats,
            bots: runs
                .into_iter()
                .map(|mut run| BotRun {
                    policy: run.policy,
                    games: run.games,
                    players: run.players,
                    turns: Distribution::of(&mut run.lengths),
                    vp: run.vp,
                    ended_by_turns: run.ended_by_turns,
                    ended_by_balls: run.ended_by_balls,
                })
                .collect(),
            boxes,
            decisions: kinds,
            disagreements: patterns,
        }
    }
}

/// The players most logs' tables had (the fewest among equals).
fn most_common(tables: &[usize]) -> usize {
    let mut best = (0, 1);
    for &players in tables {
        let count = tables.iter().filter(|t| **t == players).count();
        if count > best.0 || (count == best.0 && players < best.1) {
            best = (count, players);
        }
    }
    best.1
}

/// Every box but the counters, people's fill rate against the run's, the largest difference
/// first (people more often), then the box order.
fn compare_boxes(rules: &Rules, run: &sim::Report, fills: &[u32], games: usize) -> Vec<BoxCompare> {
    let mut boxes: Vec<BoxCompare> = run
        .boxes
        .iter()
        .enumerate()
        .filter(|(b, _)| !run.counters.get(*b).copied().unwrap_or(false))
        .map(|(b, stat)| {
            let people = f64::from(fills[b]) / games as f64;
            BoxCompare {
                id: stat.id.clone(),
                name: explain::box_name(rules, b),
                people,
                bots: stat.fill_rate,
                difference: people - stat.fill_rate,
            }
        })
        .collect();
    boxes.sort_by(|a, b| b.difference.total_cmp(&a.difference));
    boxes
}
