//! Simulation: many seeded games of one ruleset, and what they say about how it plays.
//!
//! Games run in parallel (rayon), each with its own seed derived from the run's seed and the
//! game's index, so a run gives the same report on any number of cores.

mod findings;
mod page;
pub mod peaks;
mod render;
mod report;
mod totals;

use rayon::prelude::*;

pub use findings::{Finding, findings};
pub use page::page;
pub use render::{charts, render};
pub use report::*;

use crate::safari_zone::engine::{Game, Rules, policy};
use totals::Totals;

/// The policy `sim` and `diff` play when none is named: `planner`, which scores as well as
/// `search` (better, on the default game and its earlier version) at `expected`'s speed, so
/// that a report describes the game and not a weak player's throwing.
pub const DEFAULT_POLICY: &str = "planner";
/// Games per policy when no count is given: enough for a 95% interval of the mean
/// VP of about ±1.5 VP on the default game.
pub const DEFAULT_GAMES: u64 = 2000;

/// The seed of one game of a run.
pub fn game_seed(seed: u64, game: u64) -> u64 {
    // SplitMix64 of the pair: neighbouring games get unrelated seeds.
    let mut z = seed ^ game.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Who sits at a table: one policy per seat, in turn order unless seats rotate.
#[derive(Debug, Clone)]
pub struct Table {
    pub seats: Vec<String>,
    /// Whether seat order rotates between games: game `g` starts with seat `g % players`.
    pub rotate: bool,
}

impl Table {
    /// `players` seats of one policy.
    pub fn same(policy: &str, players: usize) -> Table {
        Table {
            seats: vec![policy.to_string(); players.max(1)],
            rotate: false,
        }
    }

    /// Whether its seats play more than one policy.
    pub(crate) fn is_mixed(&self) -> bool {
        self.seats.iter().any(|s| *s != self.seats[0])
    }

    /// The run's name: its policy, or its seats' policies joined by commas.
    pub fn name(&self) -> String {
        if self.is_mixed() {
            self.seats.join(",")
        } else {
            self.seats[0].clone()
        }
    }
}

/// One simulation's games, before any is played.
struct Run<'a> {
    rules: &'a Rules,
    games: u64,
    players: usize,
    rotate: bool,
    seed: u64,
    /// The box of a `target:BOX` policy, when every seat plays one.
    target: Option<usize>,
    progress: &'a (dyn Fn(u64) + Sync),
}

impl Run<'_> {
    /// Plays every game with the seats' policies, and sums what they show.
    fn totals(&self, seats: &policy::Seats) -> Totals {
        let (rules, players) = (self.rules, self.players);
        (0..self.games)
            .into_par_iter()
            .fold(
                || {
                    // One set of policies and one game per batch of games: policies hold no
                    // state between games beyond what they work out from the rules, and a
                    // restarted game is a new one that keeps its buffers.
                    let game = Game::new(rules, players, 0);
                    (Totals::new(rules, players), (seats.clone(), game, 0))
                },
                |(mut totals, (mut policies, mut game, mut rotation)), g| {
                    // The policies in turn order: place k holds seat (k + rotation) % players.
                    if self.rotate {
                        let wanted = (g % players as u64) as usize;
                        policies.rotate_left((wanted + players - rotation) % players);
                        rotation = wanted;
                    }
                    game.restart(players, game_seed(self.seed, g));
                    let winners = policies.play(&mut game);
                    totals.add_game(&game, g, rotation, &winners, self.target);
                    (self.progress)(1);
                    (totals, (policies, game, rotation))
                },
            )
            .map(|(totals, _)| totals)
            .reduce(|| Totals::new(rules, players), Totals::merge)
    }
}

/// Plays `games` games of `players` players, all with `policy_name`.
pub fn simulate(
    rules: &Rules,
    policy_name: &str,
    games: u64,
    players: usize,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Report {
    play(
        rules,
        &Table::same(policy_name, players),
        games,
        seed,
        progress,
    )
}

/// Plays `games` games at a table: every policy name must be one `policy::by_name` knows.
pub fn play(
    rules: &Rules,
    table: &Table,
    games: u64,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Report {
    let players = table.seats.len();
    let make = |name: &str| policy::by_name(name).expect("a known policy");
    let target = match make(&table.seats[0]) {
        policy::Builtin::Target(t) if !table.is_mixed() => {
            rules.box_ids.iter().position(|id| id == t.box_id())
        }
        _ => None,
    };
    let run = Run {
        rules,
        games,
        players,
        rotate: table.rotate && players > 1,
        seed,
        target,
        progress,
    };
    let seats = if table.is_mixed() {
        policy::Seats::mixed(table.seats.iter().map(|s| make(s)).collect())
    } else {
        policy::Seats::same(make(&table.seats[0]), players)
    };
    let totals = run.totals(&seats);
    report(rules, table, &run, totals)
}

/// A fair share of the wins at a table of `players`.
fn fair(players: usize) -> f64 {
    1.0 / players.max(1) as f64
}

fn report(rules: &Rules, table: &Table, run: &Run, mut totals: Totals) -> Report {
    let (games, players) = (run.games, run.players);
    let player_games = (games * players as u64).max(1) as f64;
    let games_f = games.max(1) as f64;
    let advantage = |rate: &Rate| {
        (
            rate.rate - fair(players),
            [rate.ci95[0] - fair(players), rate.ci95[1] - fair(players)],
        )
    };
    let seats: Vec<SeatStat> = totals
        .seats
        .iter_mut()
        .enumerate()
        .map(|(s, seat)| {
            let rate = Rate::of(seat.wins, seat.wins_squared, games);
            let (advantage, advantage_ci95) = advantage(&rate);
            SeatStat {
                seat: s + 1,
                policy: table.seats[s].clone(),
                win_rate: rate.rate,
                win_rate_ci95: rate.ci95,
                advantage,
                advantage_ci95,
                vp: Distribution::of(&mut seat.scores),
            }
        })
        .collect();
    let positions = if run.rotate {
        totals
            .positions
            .iter()
            .enumerate()
            .map(|(k, position)| {
                let rate = Rate::of(position.wins, position.wins_squared, games);
                let (advantage, advantage_ci95) = advantage(&rate);
                PositionStat {
                    position: k + 1,
                    win_rate: rate.rate,
                    win_rate_ci95: rate.ci95,
                    advantage,
                    advantage_ci95,
                    mean_vp: position.vp as f64 / games_f,
                }
            })
            .collect()
    } else {
        Vec::new()
    };
    let policies = if table.is_mixed() {
        let mut names: Vec<&String> = table.seats.iter().collect();
        names.sort();
        names.dedup();
        names
            .into_iter()
            .map(|name| {
                let held: Vec<usize> = (0..players).filter(|s| table.seats[*s] == *name).collect();
                let mut scores: Vec<u32> = held
                    .iter()
                    .flat_map(|s| totals.seats[*s].scores.iter().copied())
                    .collect();
                let wins: f64 = held.iter().map(|s| totals.seats[*s].wins).sum();
                PolicyStat {
                    policy: name.clone(),
                    seats: held.len(),
                    win_rate: wins / (games_f * held.len() as f64),
                    vp: Distribution::of(&mut scores),
                    scores,
                }
            })
            .collect()
    } else {
        Vec::new()
    };
    let target = run.target.map(|b| {
        let mut turns: Vec<u32> = totals
            .target_turns
            .iter()
            .filter(|t| **t > 0)
            .map(|t| *t as u32)
            .collect();
        turns.sort_unstable();
        let filled = turns.len() as f64 / player_games;
        TargetStat {
            r#box: rules.box_ids[b].clone(),
            filled,
            earliest: turns.first().copied(),
            median: (!turns.is_empty()).then(|| quantile(&turns, 0.5)),
            p90: (!turns.is_empty()).then(|| quantile(&turns, 0.9)),
            never: 1.0 - filled,
        }
    });
    totals
        .samples
        .sort_unstable_by_key(|s| (s.game, s.position));
    Report {
        game: rules.name.clone(),
        policy: table.name(),
        games,
        players,
        seed: run.seed,
        rotate: run.rotate,
        vp: Distribution::of(&mut totals.scores),
        length: Distribution::of(&mut totals.lengths),
        vp_by_turn: totals
            .vp_by_turn
            .iter()
            .map(|v| *v as f64 / player_games)
            .collect(),
        ended_by_turns: totals.ended_by_turns as f64 / player_games,
        ended_by_balls: totals.ended_by_balls as f64 / player_games,
        balls_out_turn: (totals.ended_by_balls > 0)
            .then(|| totals.balls_out_turns as f64 / totals.ended_by_balls as f64),
        bust_rate: totals.busts as f64 / totals.turns.max(1) as f64,
        idle_rate: totals.idle_turns as f64 / totals.turns.max(1) as f64,
        seats,
        positions,
        policies,
        target,
        boxes: rules
            .box_ids
            .iter()
            .enumerate()
            .map(|(b, id)| BoxStat {
                id: id.clone(),
                fill_rate: totals.box_fills[b] as f64 / player_games,
                mean_turn: (totals.box_fills[b] > 0)
                    .then(|| totals.box_turns[b] as f64 / totals.box_fills[b] as f64),
            })
            .collect(),
        cards: rules
            .cards
            .iter()
            .enumerate()
            .map(|(c, card)| CardStat {
                id: card.id.clone(),
                species: rules.species[card.species].clone(),
                capture_rate: card.capture_rate,
                encounters_per_game: totals.encounters[c] as f64 / games_f,
                catch_rate: totals.catches[c] as f64 / totals.throws[c].max(1) as f64,
                throws: totals.throws[c],
                catches: totals.catches[c],
            })
            .collect(),
        species: rules
            .species
            .iter()
            .enumerate()
            .map(|(s, id)| {
                let cards = || (0..rules.cards.len()).filter(move |c| rules.cards[*c].species == s);
                let sum = |counts: &[u64]| cards().map(|c| counts[c]).sum::<u64>();
                SpeciesStat {
                    id: id.clone(),
                    collected: totals.species[s] as f64 / player_games,
                    encounters_per_game: sum(&totals.encounters) as f64 / games_f,
                    catch_rate: sum(&totals.catches) as f64 / sum(&totals.throws).max(1) as f64,
                }
            })
            .collect(),
        items: rules
            .items
            .iter()
            .enumerate()
            .map(|(i, item)| ItemStat {
                id: item.id.clone(),
                obtained: totals.items[i] as f64 / player_games,
                uses_per_game: totals.uses[i] as f64 / player_games,
            })
            .collect(),
        scores: totals.scores,
        lengths: totals.lengths,
        samples: totals.samples,
        counters: (0..rules.boxes.len())
            .map(|b| rules.turn_boxes.contains(&b) || rules.ball_boxes.contains(&b))
            .collect(),
    }
}
