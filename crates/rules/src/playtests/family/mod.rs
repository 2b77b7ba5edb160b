//! The family's logs (`safari-family-log`, the games made of components that have an engine:
//! Gamewright's Safari, DiceAFARI, Tricky Safari), as the family's playtest page saves them:
//! each read as the page's **Load log** reads it (`any::open` with its variants, then a
//! session replayed from its seats, seed and actions, every action checked against what the
//! table offered), grouped by ruleset and variants, and reported beside the family's bots'
//! games at tables of the same size, played by the family's simulation (`Rules::simulate`,
//! `safari sim`'s): scores, wins by seat, lengths, how games end, the components that played
//! a part; and each of the people's decisions put to the strongest bot (`search`) through the
//! session's hint, its difference counted by the kind of action, in the game's own words.

mod page;
mod render;
mod report;

use std::collections::BTreeMap;

use rayon::prelude::*;
use serde::Deserialize;
use serde_json::Value;

use safari_engine::family::{any, bots};

pub(crate) use page::section;
pub(crate) use render::render;
pub use report::*;

use super::{Example, Options, Tally};

/// The format of a saved game of the family.
pub const LOG_FORMAT: &str = "safari-family-log";
/// The format of a components ruleset.
pub const RULESET_FORMAT: &str = safari_engine::family::ruleset::FORMAT;
/// The bot every person's decision is put to: the strongest of the family's.
pub const ADVISOR: &str = "search";
/// The bots that play each ruleset when none are named: `safari sim`'s for the family.
pub const DEFAULT_BOTS: &[&str] = &["greedy", "random"];
/// Games each bot plays per ruleset and table size when none are asked for: a game of the
/// family's `greedy` takes some 40 ms (DiceAFARI), a thousand times a planner's game.
pub const DEFAULT_GAMES: u64 = 200;

/// Whether `names` are bots of the family.
pub fn check_bots(names: &[String]) -> Result<(), String> {
    for name in names {
        if bots::Bot::by_name(name).is_none() {
            return Err(format!(
                "unknown bot `{name}` of the games made of components; known: {}",
                bots::NAMES.join(", ")
            ));
        }
    }
    if names.is_empty() {
        return Err("name at least one bot of the games made of components".to_string());
    }
    Ok(())
}

/// A saved game as the page writes it (docs/ruleset.md, Saved games of the family).
#[derive(Deserialize)]
struct Saved {
    version: u64,
    ruleset: Value,
    #[serde(default)]
    variants: Vec<String>,
    seats: Vec<Option<String>>,
    seed: u64,
    actions: Vec<Value>,
}

/// One log, read.
struct Read {
    seats: Vec<Option<String>>,
    seed: u64,
    /// Each action as the replay says it (`seat`, `action`, `by_bot`, `says`).
    log: Vec<Value>,
    outcome: Option<safari_engine::family::Outcome>,
    used: Vec<String>,
}

/// The logs of one ruleset with one set of variants.
struct Group {
    /// The ruleset as the logs carry it, serialised, and the variants: logs go together when
    /// both are equal.
    ruleset: Vec<u8>,
    variants: Vec<String>,
    game_id: String,
    game: String,
    version: String,
    logs: Vec<String>,
    seats: Vec<SeatGame>,
    /// Per component, the finished logs with a person in which it played a part.
    used: BTreeMap<String, u32>,
    finished_with_people: usize,
    tally: Tally,
}

/// The family's logs read so far, by ruleset and variants.
#[derive(Default)]
pub(crate) struct Groups(Vec<Group>);

impl Groups {
    pub(crate) fn read_count(&self) -> usize {
        self.0.iter().map(|g| g.logs.len()).sum()
    }

    /// Reads the log `file` holds as the page's Load log does; refused, with why, when it
    /// cannot be read or does not replay.
    pub(crate) fn read(&mut self, file: &str, bytes: &[u8]) -> Result<(), String> {
        let saved: Saved = serde_json::from_slice(bytes).map_err(|e| {
            if e.is_syntax() || e.is_eof() {
                format!("this log is not JSON: {e}")
            } else {
                format!("not a saved game of the family as the page writes one: {e}")
            }
        })?;
        if saved.version != 1 {
            return Err(format!(
                "a log of format version {}: this build reads version 1",
                saved.version
            ));
        }
        let ruleset = serde_json::to_vec(&saved.ruleset).expect("a JSON value serialises");
        let rules = any::open(&ruleset, &saved.variants)
            .map_err(|e| format!("its ruleset cannot be played: {e}"))?;
        let game = rules
            .session(
                saved.seats.clone(),
                saved.seed,
                &Value::Array(saved.actions),
            )
            .map_err(|e| {
                format!("{e}: the log was played with other rules, variants, seats or seed")
            })?;
        let Value::Array(log) = game.log() else {
            unreachable!("a session's log is a list")
        };
        let read = Read {
            seats: saved.seats,
            seed: saved.seed,
            log,
            outcome: game.outcome(),
            used: game.used(),
        };
        let at = match self
            .0
            .iter()
            .position(|g| g.ruleset == ruleset && g.variants == saved.variants)
        {
            Some(at) => at,
            None => {
                let group = Group::new(ruleset, saved.variants, &saved.ruleset, rules.name());
                self.0.push(group);
                self.0.len() - 1
            }
        };
        self.0[at].add(file, read);
        Ok(())
    }

    /// Bot games the report will play: for a progress bar.
    pub(crate) fn bot_games(&self, options: &Options) -> u64 {
        let tables: usize = self.0.iter().map(|g| g.sizes().len()).sum();
        tables as u64 * options.family_bots.len() as u64 * options.family_games
    }

    pub(crate) fn report(
        self,
        options: &Options,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Vec<FamilyReport> {
        let mut reports: Vec<FamilyReport> = self
            .0
            .into_iter()
            .map(|group| group.report(options, progress))
            .collect();
        // Two rulesets of one version (content edited, versions not raised) are told apart.
        for i in 1..reports.len() {
            let same = reports[..i]
                .iter()
                .filter(|r| r.game_id == reports[i].game_id && r.version == reports[i].version)
                .count();
            if same > 0 {
                reports[i].version =
                    format!("{} (another ruleset, {})", reports[i].version, same + 1);
            }
        }
        reports
    }
}

/// "cards v1; variants diagonal".
fn version_of(ruleset: &Value, variants: &[String]) -> String {
    let versions: Vec<String> = ruleset
        .pointer("/game/versions")
        .and_then(|v| v.as_object())
        .map(|map| {
            map.iter()
                .map(|(part, v)| format!("{part} {}", v.as_str().unwrap_or("?")))
                .collect()
        })
        .unwrap_or_default();
    let variants = if variants.is_empty() {
        "no variant".to_string()
    } else {
        format!("variants {}", variants.join(", "))
    };
    if versions.is_empty() {
        variants
    } else {
        format!("{}; {variants}", versions.join(", "))
    }
}

/// Each action's turn, counted for its seat (1 for a seat's first): a turn is a seat's
/// actions in a row.
fn turns(log: &[Value]) -> Vec<u32> {
    let mut taken: BTreeMap<u64, u32> = BTreeMap::new();
    let mut last = None;
    log.iter()
        .map(|entry| {
            let seat = entry["seat"].as_u64().unwrap_or(0);
            let turn = taken.entry(seat).or_default();
            if last != Some(seat) {
                *turn += 1;
            }
            last = Some(seat);
            *turn
        })
        .collect()
}

/// The kind of an action: the engine's name of it (`take`, `claim`, `move`), its `do`.
fn kind_of(action: &Value) -> String {
    action["do"].as_str().unwrap_or("action").to_string()
}

/// What a person calls a kind of action, as in "30 re-roll decisions".
pub(crate) fn kind_words(kind: &str) -> String {
    match kind {
        "reroll" => "re-roll".to_string(),
        other => other.replace('_', " "),
    }
}

/// The kind of difference between a person's action and the advisor's, by their kinds, the
/// same words for every card, cell and die, so that differences of a kind are counted
/// together.
fn pattern(person: &str, bot: &str) -> String {
    let advisor = format!("the {ADVISOR} bot");
    if person == bot {
        format!("chose another {} than {advisor} would", kind_words(person))
    } else {
        format!(
            "chose {} where {advisor} would choose {}",
            kind_words(person),
            kind_words(bot)
        )
    }
}

impl Group {
    fn new(ruleset: Vec<u8>, variants: Vec<String>, value: &Value, name: &str) -> Group {
        Group {
            version: version_of(value, &variants),
            ruleset,
            variants,
            game_id: value
                .pointer("/game/id")
                .and_then(|v| v.as_str())
                .unwrap_or("game")
                .to_string(),
            game: name.to_string(),
            logs: Vec::new(),
            seats: Vec::new(),
            used: BTreeMap::new(),
            finished_with_people: 0,
            tally: Tally::default(),
        }
    }

    /// The table sizes of the logs, fewest players first.
    fn sizes(&self) -> Vec<usize> {
        let mut sizes: Vec<usize> = self.seats.iter().map(|s| s.players).collect();
        sizes.sort_unstable();
        sizes.dedup();
        sizes
    }

    fn add(&mut self, file: &str, read: Read) {
        self.logs.push(file.to_string());
        let players = read.seats.len();
        let turns = turns(&read.log);
        let people = read.seats.iter().any(Option::is_none);
        if read.outcome.is_some() && people {
            self.finished_with_people += 1;
            let mut used = read.used.clone();
            used.sort();
            used.dedup();
            for component in used {
                *self.used.entry(component).or_default() += 1;
            }
        }
        for (seat, bot) in read.seats.iter().enumerate() {
            let of_seat = |entry: &&Value| entry["seat"].as_u64() == Some(seat as u64);
            let (score, won) = match &read.outcome {
                Some(outcome) => (
                    outcome.scores.get(seat).copied(),
                    Some(if outcome.winners.contains(&seat) {
                        1.0 / outcome.winners.len() as f64
                    } else {
                        0.0
                    }),
                ),
                None => (None, None),
            };
            self.seats.push(SeatGame {
                file: file.to_string(),
                seat: seat + 1,
                players,
                bot: bot.clone(),
                score,
                won,
                actions: read.log.iter().filter(of_seat).count() as u32,
                turns: read
                    .log
                    .iter()
                    .zip(&turns)
                    .filter(|(entry, _)| of_seat(entry))
                    .map(|(_, t)| *t)
                    .max()
                    .unwrap_or(0),
                log_actions: read.log.len() as u32,
                end: read
                    .outcome
                    .as_ref()
                    .map_or(UNFINISHED.to_string(), |o| o.reason.to_string()),
                with_bots: read.seats.iter().any(Option::is_some),
            });
        }
        self.ask_the_advisor(file, &read, &turns);
    }

    /// Puts each of the people's decisions in the log (an action a person took where the
    /// table offered more than one) to the advisor, through a session replayed to it.
    fn ask_the_advisor(&mut self, file: &str, read: &Read, turns: &[u32]) {
        let (ruleset, variants) = (&self.ruleset, &self.variants);
        let asked: Vec<(usize, Value)> = (0..read.log.len())
            .into_par_iter()
            .filter(|k| read.log[*k]["by_bot"] != Value::Bool(true))
            .filter_map(|k| {
                // Each thread opens the rules it asks on: a game in progress stays on its thread.
                let rules = any::open(ruleset, variants).ok()?;
                let before = Value::Array(read.log[..k].to_vec());
                let game = rules.session(read.seats.clone(), read.seed, &before).ok()?;
                if game.legal().len() < 2 {
                    return None;
                }
                Some((k, game.hint(ADVISOR).ok()?))
            })
            .collect();
        for (k, hint) in asked {
            let entry = &read.log[k];
            let kind = kind_of(&entry["action"]);
            let differ = entry["action"] != hint["action"];
            let example = Example {
                file: file.to_string(),
                seat: entry["seat"].as_u64().unwrap_or(0) as usize + 1,
                turn: turns[k],
                person: entry["says"].as_str().unwrap_or("").to_string(),
                bot: hint["says"].as_str().unwrap_or("").to_string(),
            };
            let pattern = differ.then(|| pattern(&kind, &kind_of(&hint["action"])));
            self.tally.count(&kind, pattern, example);
        }
    }

    fn report(self, options: &Options, progress: &(dyn Fn(u64) + Sync)) -> FamilyReport {
        let sizes = self.sizes();
        let runs: Vec<(usize, String)> = sizes
            .iter()
            .flat_map(|&players| {
                options
                    .family_bots
                    .iter()
                    .map(move |b| (players, b.clone()))
            })
            .collect();
        let (ruleset, variants) = (&self.ruleset, &self.variants);
        let played: Vec<BotTable> = runs
            .par_iter()
            .map(|(players, bot)| {
                let simulated = any::open(ruleset, variants)
                    .map_err(|e| e.to_string())
                    .and_then(|rules| {
                        rules.simulate(
                            &[(vec![bot.clone(); *players], false)],
                            options.family_games,
                            options.seed,
                            &|n| progress(n),
                        )
                    });
                match simulated {
                    Ok(report) => BotTable {
                        policy: bot.clone(),
                        players: *players,
                        table: report.tables.into_iter().next(),
                        never_used: report.never_used,
                        refused: None,
                    },
                    Err(why) => {
                        progress(options.family_games);
                        BotTable {
                            policy: bot.clone(),
                            players: *players,
                            table: None,
                            never_used: Vec::new(),
                            refused: Some(why),
                        }
                    }
                }
            })
            .collect();
        // Never part of any bot's game: in every run's list (a run not played says nothing).
        let ran: Vec<&BotTable> = played.iter().filter(|t| t.table.is_some()).collect();
        let never_by_bots: Vec<String> = match ran.first() {
            Some(first) => first
                .never_used
                .iter()
                .filter(|c| ran.iter().all(|t| t.never_used.contains(c)))
                .cloned()
                .collect(),
            None => Vec::new(),
        };
        let tables = sizes
            .iter()
            .map(|&players| TableCompare {
                players,
                people: people_at(&self.seats, players),
                bots: played
                    .iter()
                    .filter(|t| t.players == players)
                    .cloned()
                    .collect(),
            })
            .collect();
        let (decisions, disagreements) = self.tally.finish(&[]);
        let finished = self
            .logs
            .iter()
            .filter(|log| {
                self.seats
                    .iter()
                    .any(|s| &s.file == *log && s.end != UNFINISHED)
            })
            .count();
        FamilyReport {
            game_id: self.game_id,
            game: self.game,
            version: self.version,
            variants: self.variants,
            finished,
            unfinished: self.logs.len() - finished,
            logs: self.logs,
            seats: self.seats,
            tables,
            components: Components {
                people_games: self.finished_with_people,
                used_by_people: self.used,
                never_by_bots,
                unread: safari_engine::family::ruleset::unread(&self.ruleset),
            },
            decisions,
            disagreements,
        }
    }
}

/// The people's finished games at tables of `players`.
fn people_at(seats: &[SeatGame], players: usize) -> PeopleAt {
    let finished: Vec<&SeatGame> = seats
        .iter()
        .filter(|s| s.players == players && s.end != UNFINISHED)
        .collect();
    let people: Vec<&&SeatGame> = finished.iter().filter(|s| s.bot.is_none()).collect();
    // Every seat of the finished logs with a person, for wins by seat.
    let logs: Vec<&str> = {
        let mut files: Vec<&str> = people.iter().map(|s| s.file.as_str()).collect();
        files.dedup();
        files
    };
    let mut wins_by_seat = vec![0.0; players];
    let mut ends: BTreeMap<String, u64> = BTreeMap::new();
    let mut actions = 0.0;
    for seat in finished.iter().filter(|s| logs.contains(&s.file.as_str())) {
        wins_by_seat[seat.seat - 1] += seat.won.unwrap_or(0.0) / logs.len() as f64;
        if seat.seat == 1 {
            *ends.entry(seat.end.clone()).or_default() += 1;
            actions += f64::from(seat.log_actions) / logs.len() as f64;
        }
    }
    let scores: Vec<i64> = people.iter().filter_map(|s| s.score).collect();
    let at_bots: Vec<&&&SeatGame> = people.iter().filter(|s| s.with_bots).collect();
    let mean = |values: &mut dyn Iterator<Item = f64>, n: usize| {
        (n > 0).then(|| values.sum::<f64>() / n as f64)
    };
    PeopleAt {
        logs: logs.len(),
        seats: people.len(),
        score: mean(&mut scores.iter().map(|s| *s as f64), scores.len()),
        lowest: scores.iter().min().copied(),
        highest: scores.iter().max().copied(),
        wins_by_seat: if logs.is_empty() {
            Vec::new()
        } else {
            wins_by_seat
        },
        shared: {
            let mut shared: Vec<&str> = finished
                .iter()
                .filter(|s| logs.contains(&s.file.as_str()))
                .filter(|s| s.won.is_some_and(|w| w > 0.0 && w < 1.0))
                .map(|s| s.file.as_str())
                .collect();
            shared.dedup();
            shared.len()
        },
        actions: (!logs.is_empty()).then_some(actions),
        decisions: mean(
            &mut people.iter().map(|s| f64::from(s.actions)),
            people.len(),
        ),
        ends,
        seats_at_bots: at_bots.len(),
        wins_at_bots: mean(
            &mut at_bots.iter().map(|s| s.won.unwrap_or(0.0)),
            at_bots.len(),
        ),
    }
}
