//! Many games of the family played by bots, and what they say about the game: who wins from
//! which seat, how much a better bot wins, how games end, which components never played a
//! part. `safari sim` and `safari diff` print it.
//!
//! Rules the engine accepts may still leave games that never end by the rules, which the
//! engine ends at its limit of turns ([`MOST_TURNS`]), or that end only after thousands of
//! turns: such a game is tens of thousands of moves, a minute or more of `greedy`. So a run
//! first plays a few games of random bots (cheap), and plays no table when the rules end none
//! of them; a table stops when its first games all run to the limit; a table's work is
//! bounded by the games asked for ([`table_work`]), and it stops, saying how many games would
//! fit, as soon as its games look set to pass that; and the report counts the games the rules
//! did not end and the moves a bot's bound of work cut short, so that a run says what
//! happened rather than spending days.

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use serde::Serialize;

use super::bots::{self, Bot};
use super::ruleset::thousands;
use super::{MOST_TURNS, Play, Start};
use crate::search::mix;

/// Games of random bots a run plays first, and of each table before it stops when every one
/// of them ran to the engine's limit of turns.
pub const PROBE_GAMES: u64 = 2;

/// The work a table may do for each game asked for, on average, in actions looked at as a bot
/// counts them (listed and applied, and [`Play::work`]). A game of the rulebooks' does at
/// most about 5 million on average (DiceAFARI's `greedy` at 4 players; `random` thousands),
/// so this is met by rules whose games run hundreds of turns, or by a `search` table of many
/// games (some 40 million a game of DiceAFARI, 1,400 million of Swappin' Safari).
pub const WORK_PER_GAME: u64 = 20_000_000;

/// The work any table may do, however few the games asked for: 2,000 games' worth, `sim`'s
/// default count (some minutes).
pub const TABLE_WORK: u64 = 2_000 * WORK_PER_GAME;

/// How many times its share of what is left of a table's bound of work a game may look at
/// (never more than is left) before the table stops in the middle of it.
const SHARE_PAST: u64 = 4;

/// The work a table of `games` games may do in all.
pub fn table_work(games: u64) -> u64 {
    games.saturating_mul(WORK_PER_GAME).max(TABLE_WORK)
}

/// One table of bots, a bot per seat in turn order.
#[derive(Debug, Clone, Serialize)]
pub struct TableReport {
    pub seats: Vec<String>,
    /// Whether the bots moved one seat on between games, so that the seats' and the bots'
    /// advantages can be told apart.
    pub rotate: bool,
    /// Games played: those asked for, unless the table stopped early.
    pub games: u64,
    /// Why the table stopped before playing every game asked for.
    pub stopped: Option<String>,
    /// Actions looked at, as a bot counts its work, in all the table's games (one its bound
    /// cut off included): at most [`table_work`] and a move.
    pub work: u64,
    /// Games the rules did not end, which the engine ended at its limit of turns.
    pub at_turn_limit: u64,
    /// Bots' moves that their bound of work cut short (`bots::Decision::cut_short`).
    pub moves_cut_short: u64,
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
    /// Components in the game that no rule reads, by name: the ruleset's `unread`
    /// ([`super::ruleset::unread`]), which the caller that holds the ruleset gives.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unread: Vec<String>,
}

/// What a report says of the components in the game that no rule reads (`unread`, by name),
/// if there are any: no game could have played them.
pub fn unread_words(unread: &[String]) -> Option<String> {
    let named: Vec<String> = unread.iter().map(|name| format!("the {name}")).collect();
    let (last, rest) = named.split_last()?;
    let mut said = if rest.is_empty() {
        format!("{last} is in the game but no rule reads it, so no game played it.")
    } else {
        format!(
            "{} and {last} are in the game but no rule reads them, so no game played them.",
            rest.join(", ")
        )
    };
    said[..1].make_ascii_uppercase();
    Some(said)
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
        games: 0,
        stopped: None,
        work: 0,
        at_turn_limit: 0,
        moves_cut_short: 0,
        wins_by_seat: vec![0.0; players],
        wins_by_bot: seats.iter().map(|s| (s.clone(), 0.0)).collect(),
        mean_score_by_seat: vec![0.0; players],
        ends: BTreeMap::new(),
        shared: 0,
        mean_actions: 0.0,
        most_actions: 0,
    };
    let bound = table_work(games);
    for game in 0..games {
        let game_seed = game_seed(seed, game);
        let mut table = start.start(players, game_seed)?;
        let shift = if rotate { game as usize % players } else { 0 };
        let mut rng = Pcg64Mcg::seed_from_u64(mix(game_seed, u64::MAX));
        let (mut actions, mut work, mut cut_short) = (0, 0u64, 0);
        let left = games - report.games;
        let rest = bound.saturating_sub(report.work);
        let allowed = (rest / left).saturating_mul(SHARE_PAST).min(rest);
        while let Some(seat) = table.to_move() {
            // A game far past its share stops the table at once, so that a game of tens of
            // thousands of moves is not played out to find that games run long; short of
            // that, the mean of the games played decides.
            if work > allowed {
                report.stopped = Some(past_the_bound(&report, games, work, false));
                report.work += work;
                progress(left);
                return Ok(averaged(report));
            }
            let bot = bots[(seat + shift) % players];
            let decision = bot.decide(&table, &mut rng);
            cut_short += u64::from(decision.cut_short.is_some());
            let before = table.work();
            table.apply(decision.action);
            work += decision.work + bots::STEP_WORK + table.work().saturating_sub(before);
            actions += 1;
        }
        let outcome = table.outcome().expect("the game is over");
        for component in table.used() {
            *used.entry(component).or_default() += 1;
        }
        report.games += 1;
        report.work += work;
        report.moves_cut_short += cut_short;
        report.at_turn_limit += u64::from(!outcome.by_the_rules());
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
        let left = games - report.games;
        if left == 0 {
            break;
        }
        if report.games == PROBE_GAMES && report.at_turn_limit == report.games {
            report.stopped = Some(format!(
                "stopped after {}: {}",
                games_in_words(report.games),
                at_the_limit(report.games, report.most_actions)
            ));
        } else if report.work + report.work / report.games * left > bound {
            report.stopped = Some(past_the_bound(
                &report,
                games,
                report.work / report.games,
                true,
            ));
        }
        if report.stopped.is_some() {
            progress(left);
            break;
        }
    }
    Ok(averaged(report))
}

/// Why a table stopped before its games passed its bound of work: a game looked at `each`
/// actions, on average over those played (`played`) or so far in the game being played, so
/// the games asked for would pass [`table_work`]; and how many games fit in the least bound.
fn past_the_bound(report: &TableReport, games: u64, each: u64, played: bool) -> String {
    let fit = TABLE_WORK / each.max(1);
    let bound = format!(
        "a table's bound of {} ({} a game asked for, and {} at least)",
        in_words(table_work(games)),
        in_words(WORK_PER_GAME),
        in_words(TABLE_WORK),
    );
    if played {
        format!(
            "stopped after {} of {}: a game here looked at {} actions, so {} would pass {bound}; about {} fit",
            thousands(report.games),
            games_in_words(games),
            in_words(each),
            games_in_words(games),
            games_in_words(fit),
        )
    } else {
        format!(
            "stopped during game {} of {}: the game being played had already looked at {} actions, far past its share of {bound}; {}",
            thousands(report.games + 1),
            thousands(games),
            in_words(each),
            match fit {
                0 => "not even one game fits".to_string(),
                n => format!("fewer than {} fit", games_in_words(n + 1)),
            },
        )
    }
}

/// The table's sums as means over the games played.
fn averaged(mut report: TableReport) -> TableReport {
    let n = report.games.max(1) as f64;
    for value in report
        .wins_by_seat
        .iter_mut()
        .chain(report.mean_score_by_seat.iter_mut())
        .chain(report.wins_by_bot.values_mut())
    {
        *value /= n;
    }
    report.mean_actions /= n;
    report
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
    probe(start, players, seed)?;
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
        unread: Vec::new(),
    })
}

/// Plays [`PROBE_GAMES`] games of random bots, and refuses to play the tables when the rules
/// ended none of them: every game would run to the engine's limit of turns, tens of thousands
/// of moves each.
fn probe<S: Start>(start: &S, players: usize, seed: u64) -> Result<(), String> {
    let mut longest = 0;
    for game in 0..PROBE_GAMES {
        let game_seed = game_seed(seed, game);
        let mut table = start.start(players, game_seed)?;
        let mut rng = Pcg64Mcg::seed_from_u64(mix(game_seed, u64::MAX - 1));
        let mut actions = 0;
        while table.to_move().is_some() {
            let action = Bot::Random.choose(&table, &mut rng);
            table.apply(action);
            actions += 1;
        }
        if table.outcome().expect("the game is over").by_the_rules() {
            return Ok(());
        }
        longest = longest.max(actions);
    }
    Err(format!(
        "no table was played: of {} of random bots, {}",
        games_in_words(PROBE_GAMES),
        at_the_limit(PROBE_GAMES, longest)
    ))
}

/// `1 game`, `2 games`.
fn games_in_words(n: u64) -> String {
    match n {
        1 => "1 game".to_string(),
        n => format!("{} games", thousands(n)),
    }
}

/// A large number as people read it: `12,345`, `4,010 million`.
fn in_words(n: u64) -> String {
    if n >= 10_000_000 {
        format!("{} million", thousands(n / 1_000_000))
    } else {
        thousands(n)
    }
}

/// That every one of `games` ran to the engine's limit of turns, the longest `actions` long.
fn at_the_limit(games: u64, actions: usize) -> String {
    let (each, longest) = match games {
        1 => ("it", ""),
        _ => ("each", " at most"),
    };
    format!(
        "{each} ran to the engine's limit of {} turns ({} actions{longest}) without the rules ending it: something the rules need for a game to end never happens, or seldom does",
        thousands(MOST_TURNS.into()),
        thousands(actions as u64),
    )
}
