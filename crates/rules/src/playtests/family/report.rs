//! What `safari playtests` found of the family's logs, as `report.json` holds it: per ruleset
//! and variants, the people's games beside the family's bots' at tables of the same size
//! (docs/playtest-logs.md says what each part means).

use std::collections::BTreeMap;

use serde::Serialize;

use safari_engine::family::sim::TableReport;

use crate::playtests::{KindStat, Pattern};

/// How a log that stops before the end of its game ended.
pub const UNFINISHED: &str = "unfinished";

/// The logs of one ruleset of a game of the family played with one set of variants.
#[derive(Debug, Clone, Serialize)]
pub struct FamilyReport {
    /// The game's id (its output folder) and name.
    pub game_id: String,
    pub game: String,
    /// The version for people: the content's versions and the variants played.
    pub version: String,
    pub variants: Vec<String>,
    /// The logs played with it, by file name.
    pub logs: Vec<String>,
    /// Logs that ran to the end of their game, and logs downloaded before it (not counted).
    pub finished: usize,
    pub unfinished: usize,
    /// Every seat of every log, people's and bots', in the order the logs were read.
    pub seats: Vec<SeatGame>,
    /// One per table size the logs had, fewest players first.
    pub tables: Vec<TableCompare>,
    pub components: Components,
    /// The people's decisions by the kind of action they took, and how many the advisor
    /// would have taken otherwise.
    pub decisions: Vec<KindStat>,
    /// How people's actions differ from the advisor's, the most frequent first.
    pub disagreements: Vec<Pattern>,
}

/// One seat of one log.
#[derive(Debug, Clone, Serialize)]
pub struct SeatGame {
    pub file: String,
    /// 1 for the first seat.
    pub seat: usize,
    pub players: usize,
    /// The bot that played the seat, `None` for a person.
    pub bot: Option<String>,
    /// The score at the end; `None` while the game goes on.
    pub score: Option<i64>,
    /// The seat's share of the win (1 alone, 1/n shared, 0), once the game is over.
    pub won: Option<f64>,
    /// Actions the seat took, and its turns (its actions in a row make a turn).
    pub actions: u32,
    pub turns: u32,
    /// Actions in the whole log.
    pub log_actions: u32,
    /// Why the game ended, as the rules name it (`jungle_face_up`), or [`UNFINISHED`].
    pub end: String,
    /// Whether a bot sat at the table.
    pub with_bots: bool,
}

/// People's finished games at tables of one size, beside each bot's own table of that size.
#[derive(Debug, Clone, Serialize)]
pub struct TableCompare {
    pub players: usize,
    pub people: PeopleAt,
    pub bots: Vec<BotTable>,
}

/// The people's finished games at tables of one size.
#[derive(Debug, Clone, Serialize)]
pub struct PeopleAt {
    /// Finished logs with a person at the table, and the people's seats in them.
    pub logs: usize,
    pub seats: usize,
    /// The people's mean, lowest and highest score.
    pub score: Option<f64>,
    pub lowest: Option<i64>,
    pub highest: Option<i64>,
    /// Each seat's share of the wins in those logs, whoever sat in it (a shared win split),
    /// as `sim` counts a bots' table's.
    pub wins_by_seat: Vec<f64>,
    /// Logs with more than one winner.
    pub shared: usize,
    /// Actions per game, and per person.
    pub actions: Option<f64>,
    pub decisions: Option<f64>,
    /// Logs ending for each reason the rules name.
    pub ends: BTreeMap<String, u64>,
    /// People's seats at tables with a bot, and their mean share of the wins there.
    pub seats_at_bots: usize,
    pub wins_at_bots: Option<f64>,
}

/// A bot's own games at a table of one size: `safari sim`'s table report, or why none was
/// played.
#[derive(Debug, Clone, Serialize)]
pub struct BotTable {
    pub policy: String,
    pub players: usize,
    pub table: Option<TableReport>,
    /// Components no game of this table used.
    pub never_used: Vec<String>,
    pub refused: Option<String>,
}

/// The components that played a part (`sim`'s measure: cards in hands, maps and Bonus
/// numbers, animals photographed), in people's games and in the bots'.
#[derive(Debug, Clone, Serialize)]
pub struct Components {
    /// Finished logs with a person at the table.
    pub people_games: usize,
    /// Per component, in how many of them it played a part.
    pub used_by_people: BTreeMap<String, u32>,
    /// Components no bot's game used, at any table.
    pub never_by_bots: Vec<String>,
    /// Components in the game that no rule reads (the ruleset's `unread`), by name.
    pub unread: Vec<String>,
}
