//! Many games of the family played by bots, and what they say about the game: who wins from
//! which seat, how much a better bot wins, how games end, which components never played a
//! part. `safari sim` and `safari diff` print it.

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use serde::Serialize;

use super::bots::Bot;
use super::{Play, Start};
use crate::search::mix;

/// One table of bots, a bot per seat in turn order.
#[derive(Debug, Clone, Serialize)]
pub struct TableReport {
    pub seats: Vec<String>,
    /// Whether the bots moved one seat on between games, so that the seats' and the bots'
    /// advantages can be told apart.
    pub rotate: bool,
    pub games: u64,
    /// Each seat's share of the wins (a shared win split), in turn order.
    pub wins_by_seat: Vec<f64>,
    /// Each bot's share of the wins, over the seats it sat in.
    pub wins_by_bot: BTreeMap<String, f64>,
    /// Each seat's mean score.
    pub mean_score_by_seat: Vec<f64>,
    /// Games ending for each reason the rules name.
    pub ends: BTreeMap<String, u64>,
    /// Games with more than one winner.
    pub shared: u64,
    pub mean_actions: f64,
    pub most_actions: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub game: String,
    pub players: usize,
    pub seed: u64,
    pub tables: Vec<TableReport>,
    /// Components that played no part in any game of any table.
    pub never_used: Vec<String>,
}

/// The seed of game `index` of a run.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    mix(seed, index) & super::session::MAX_SEED
}

/// Plays `games` games at a table of `seats` (bot names, checked by the caller).
pub fn play_table<S: Start>(
    start: &S,
    seats: &[String],
    rotate: bool,
    games: u64,
    seed: u64,
    used: &mut BTreeMap<String, u64>,
    progress: &dyn Fn(u64),
) -> Result<TableReport, String> {
    let players = seats.len();
    let bots: Vec<Bot> = seats
        .iter()
        .map(|name| Bot::by_name(name).ok_or_else(|| format!("unknown bot `{name}`")))
        .collect::<Result<_, _>>()?;
    let mut report = TableReport {
        seats: seats.to_vec(),
        rotate,
        games,
        wins_by_seat: vec![0.0; players],
        wins_by_bot: seats.iter().map(|s| (s.clone(), 0.0)).collect(),
        mean_score_by_seat: vec![0.0; players],
        ends: BTreeMap::new(),
        shared: 0,
        mean_actions: 0.0,
        most_actions: 0,
    };
    for game in 0..games {
        let game_seed = game_seed(seed, game);
        let mut table = start.start(players, game_seed)?;
        let shift = if rotate { game as usize % players } else { 0 };
        let mut rng = Pcg64Mcg::seed_from_u64(mix(game_seed, u64::MAX));
        let mut actions = 0;
        while let Some(seat) = table.to_move() {
            let bot = bots[(seat + shift) % players];
            let action = bot.choose(&table, &mut rng);
            table.apply(action);
            actions += 1;
        }
        let outcome = table.outcome().expect("the game is over");
        for component in table.used() {
            *used.entry(component).or_default() += 1;
        }
        *report.ends.entry(outcome.reason.to_string()).or_default() += 1;
        if outcome.winners.len() > 1 {
            report.shared += 1;
        }
        let share = 1.0 / outcome.winners.len() as f64;
        for &winner in &outcome.winners {
            report.wins_by_seat[winner] += share;
            *report
                .wins_by_bot
                .get_mut(&seats[(winner + shift) % players])
                .expect("every bot is counted") += share;
        }
        for (seat, score) in outcome.scores.iter().enumerate() {
            report.mean_score_by_seat[seat] += *score as f64;
        }
        report.mean_actions += actions as f64;
        report.most_actions = report.most_actions.max(actions);
        progress(1);
    }
    let n = games.max(1) as f64;
    for value in report
        .wins_by_seat
        .iter_mut()
        .chain(report.mean_score_by_seat.iter_mut())
        .chain(report.wins_by_bot.values_mut())
    {
        *value /= n;
    }
    report.mean_actions /= n;
    Ok(report)
}

/// Plays every table and names the components no game used.
pub fn run<S: Start>(
    start: &S,
    tables: &[(Vec<String>, bool)],
    games: u64,
    seed: u64,
    progress: &dyn Fn(u64),
) -> Result<Report, String> {
    let players = tables.first().map_or(0, |t| t.0.len());
    let mut used = BTreeMap::new();
    let reports = tables
        .iter()
        .map(|(seats, rotate)| play_table(start, seats, *rotate, games, seed, &mut used, progress))
        .collect::<Result<Vec<_>, _>>()?;
    let all = start.start(players, game_seed(seed, 0))?.components();
    let mut never_used: Vec<String> = all.into_iter().filter(|c| !used.contains_key(c)).collect();
    never_used.dedup();
    Ok(Report {
        game: start.name().to_string(),
        players,
        seed,
        tables: reports,
        never_used,
    })
}
