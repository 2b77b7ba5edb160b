//! Logs fed back: the games people played on the playtest page (its **Download log**, format
//! `safari-log`), each replayed and checked against the ruleset it carries, grouped by
//! ruleset and reported beside the bots' games on the same ruleset (`sim`'s machinery):
//! scores, lengths, how games end, the boxes people fill that bots do not, and where people
//! and the strongest bot choose differently. Each of the people's decisions is put to that
//! bot through the step API ([`Match`]): the game replayed to the decision with the bot in
//! the person's seat, and the bot asked.
//!
//! Reads no file: the command hands each log's bytes in ([`Reading::read`]), one at a time,
//! so that a folder of thousands of logs holds one in memory.

mod choices;
mod page;
mod render;
mod report;

use rayon::prelude::*;

pub use page::page;
pub use render::render;
pub use report::*;

use crate::safari_zone::engine::step::{Log, Match, Now, Seat, Taken};
use crate::safari_zone::engine::{OutReason, Player, Rules, explain, policy};
use crate::safari_zone::sim::{self, Distribution};

/// The bot every person's decision is put to: the strongest, `sim`'s default.
pub const ADVISOR: &str = sim::DEFAULT_POLICY;
/// The bots that play the ruleset when none are named: the strongest and `greedy`, a plain
/// player of the moment, so that people's scores fall somewhere on a ladder.
pub const DEFAULT_BOTS: &[&str] = &[sim::DEFAULT_POLICY, "greedy"];
/// The most bytes a log file may have: a log holds its ruleset whole, and a ruleset
/// `sim` reads may have 16 MiB.
pub const MAX_LOG_BYTES: u64 = crate::load::limits::MAX_RULESET_BYTES;
/// A box is listed as filled more often by people (or by bots) when its rates differ by this
/// much (the text report; the JSON has every box).
pub const FILL_GAP: f64 = 0.25;
/// Seats of the logs, boxes listed each way and patterns of disagreement, in the text report
/// (the HTML lists every seat and every box).
pub const LISTED_SEATS: usize = 12;
pub const LISTED_BOXES: usize = 8;
pub const LISTED_PATTERNS: usize = 8;
/// Examples kept of each pattern of disagreement (the text shows the first).
const EXAMPLES: usize = 3;

/// How the bots play each ruleset.
#[derive(Debug, Clone)]
pub struct Options {
    /// Policies `policy::by_name` knows (no `target:BOX`).
    pub bots: Vec<String>,
    pub games: u64,
    pub seed: u64,
}

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
    kinds: Vec<KindStat>,
    patterns: Vec<Pattern>,
}

/// The logs read so far, and the files refused.
#[derive(Default)]
pub struct Reading {
    groups: Vec<Group>,
    refused: Vec<Refused>,
    files: usize,
}

impl Reading {
    pub fn new() -> Reading {
        Reading::default()
    }

    /// Logs read.
    pub fn read_count(&self) -> usize {
        self.groups.iter().map(|g| g.logs.len()).sum()
    }

    /// Notes `file` as not read, and why.
    pub fn refuse(&mut self, file: &str, reason: impl Into<String>) {
        self.files += 1;
        self.refused.push(Refused {
            file: file.to_string(),
            reason: reason.into(),
        });
    }

    /// Reads the log `file` holds: replays it against its ruleset (refused, with why, when
    /// it does not replay), adds its people's and bots' seats to its ruleset's, and puts each
    /// of its people's decisions to the advisor.
    pub fn read(&mut self, file: &str, bytes: &[u8]) {
        let (log, game) = match Log::read(bytes) {
            Ok(read) => read,
            Err(err) => {
                let reason = not_a_log(bytes).unwrap_or(err.0);
                self.refuse(file, reason);
                return;
            }
        };
        self.files += 1;
        let ruleset = serde_json::to_vec(&log.ruleset).expect("a JSON value serialises");
        let at = match self.groups.iter().position(|g| g.ruleset == ruleset) {
            Some(at) => at,
            None => {
                self.groups
                    .push(Group::new(ruleset, &log.ruleset, game.rules()));
                self.groups.len() - 1
            }
        };
        self.groups[at].add(file, &log, &game);
    }

    /// Bot games the report will play: for a progress bar.
    pub fn bot_games(&self, options: &Options) -> u64 {
        self.groups.len() as u64 * options.bots.len() as u64 * options.games
    }

    /// The report: the bots play each ruleset (`progress` is told of every game played).
    pub fn report(
        self,
        folder: &str,
        options: &Options,
        progress: &(dyn Fn(u64) + Sync),
    ) -> PlaytestReport {
        let read = self.read_count();
        let rulesets = self
            .groups
            .into_iter()
            .map(|group| group.report(options, progress))
            .collect();
        PlaytestReport {
            folder: folder.to_string(),
            seed: options.seed,
            games: options.games,
            bots: options.bots.clone(),
            advisor: ADVISOR.to_string(),
            files: self.files,
            read,
            refused: self.refused,
            rulesets,
        }
    }
}

/// What a file that is not a log of this game is, when its `format` says.
fn not_a_log(bytes: &[u8]) -> Option<String> {
    let value: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    let format = value.get("format")?.as_str()?;
    Some(match format {
        "safari-log" => return None,
        "safari-family-log" => "a log of a game made of components (format `safari-family-log`): \
             `safari playtests` reads Safari Zone RNW's logs (`safari-log`) only"
            .to_string(),
        "safari-ruleset" => "a ruleset, not a game log: the logs carry their rulesets".to_string(),
        other => format!("not a game log (its `format` is `{other}`, not `safari-log`)"),
    })
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
            kinds: Vec::new(),
            patterns: Vec::new(),
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
            let kind = compared.kind.name();
            let stat = match self.kinds.iter().position(|s| s.kind == kind) {
                Some(at) => &mut self.kinds[at],
                None => {
                    self.kinds.push(KindStat {
                        kind: kind.to_string(),
                        decisions: 0,
                        differ: 0,
                    });
                    self.kinds.last_mut().expect("just pushed")
                }
            };
            stat.decisions += 1;
            let Some(text) = compared.pattern else {
                continue;
            };
            stat.differ += 1;
            let example = Example {
                file: file.to_string(),
                seat: compared.seat + 1,
                turn: compared.turn,
                person: compared.person,
                bot: compared.bot,
            };
            match self
                .patterns
                .iter_mut()
                .find(|p| p.kind == kind && p.text == text)
            {
                Some(pattern) => {
                    pattern.count += 1;
                    // Examples from different turns: a card thrown at three times is one.
                    let seen = pattern.examples.iter().any(|e| {
                        (&e.file, e.seat, e.turn) == (&example.file, example.seat, example.turn)
                    });
                    if pattern.examples.len() < EXAMPLES && !seen {
                        pattern.examples.push(example);
                    }
                }
                None => self.patterns.push(Pattern {
                    kind: kind.to_string(),
                    text,
                    count: 1,
                    of: 0,
                    examples: vec![example],
                }),
            }
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
        let mut patterns = self.patterns;
        for pattern in &mut patterns {
            pattern.of = self
                .kinds
                .iter()
                .find(|k| k.kind == pattern.kind)
                .map_or(0, |k| k.decisions);
        }
        // The most frequent first; a stable sort keeps the order they were met in.
        patterns.sort_by_key(|p| std::cmp::Reverse(p.count));
        let mut kinds = self.kinds;
        kinds.sort_by_key(|k| choices::KIND_ORDER.iter().position(|n| *n == k.kind));
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
