//! What `safari playtests` found of Safari Zone RNW's logs, as `report.json` holds it: per
//! ruleset, the people's games beside the bots' (docs/playtest-logs.md says what each part
//! means).

use serde::Serialize;

pub use crate::playtests::{Example, KindStat, Pattern};
use crate::safari_zone::sim::Distribution;

/// The logs of one ruleset (one version of a game), and the bots on it.
#[derive(Debug, Clone, Serialize)]
pub struct RulesetReport {
    /// The game's id (its output folder) and name.
    pub game_id: String,
    pub game: String,
    /// The version for people: the content's versions and the start of its hash.
    pub version: String,
    /// The ruleset's `content_hash` (SHA-256 of the content it was built from).
    pub content_hash: String,
    /// The logs played with it, by file name.
    pub logs: Vec<String>,
    pub people: People,
    /// Bots seated at the people's tables, each seat of each log.
    pub bot_seats: Vec<BotSeat>,
    /// The bots' own games on this ruleset, one run per bot.
    pub bots: Vec<BotRun>,
    /// Every box but the Turn Tracker's and the Safari Balls', by how much more often people
    /// fill it than the first bot (negative: less often), the largest first.
    pub boxes: Vec<BoxCompare>,
    /// The people's decisions by kind, and how many the advisor would have taken otherwise.
    pub decisions: Vec<KindStat>,
    /// How people's choices differ from the advisor's, the most frequent first.
    pub disagreements: Vec<Pattern>,
}

/// The people's seats of the logs of one ruleset.
#[derive(Debug, Clone, Serialize)]
pub struct People {
    /// Every person's seat of every log, finished or not.
    pub games: Vec<PersonGame>,
    /// Games that ran to their end (the scores, lengths and fill rates are theirs).
    pub finished: usize,
    /// Games downloaded before their end: no score of theirs is final.
    pub unfinished: usize,
    /// Final VP of the finished games.
    pub vp: Option<Distribution>,
    /// Turns each finished game took.
    pub turns: Option<Distribution>,
    /// Decisions each person took in a finished game.
    pub decisions: Option<Distribution>,
    /// Finished games that ran out of turns, and of Safari Balls.
    pub ended_by_turns: usize,
    pub ended_by_balls: usize,
}

/// How a player's game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum End {
    /// Every turn was played.
    Turns,
    /// The Safari Balls ran out.
    Balls,
    /// The log stops before the end of the game.
    Unfinished,
}

impl End {
    pub fn words(self) -> &'static str {
        match self {
            End::Turns => "played every turn",
            End::Balls => "ran out of Safari Balls",
            End::Unfinished => "unfinished",
        }
    }
}

/// One person's seat in one log.
#[derive(Debug, Clone, Serialize)]
pub struct PersonGame {
    pub file: String,
    /// 1 for the first seat.
    pub seat: usize,
    pub players: usize,
    /// VP at the end, or so far when unfinished.
    pub vp: u32,
    /// Turns taken (so far).
    pub turns: u32,
    /// Decisions the person took.
    pub decisions: u32,
    pub end: End,
    /// Whether the seat won (shared wins count), once the game is over.
    pub won: Option<bool>,
}

/// A bot's seat at a people's table.
#[derive(Debug, Clone, Serialize)]
pub struct BotSeat {
    pub file: String,
    pub seat: usize,
    pub policy: String,
    pub vp: u32,
    pub turns: u32,
    pub end: End,
}

/// A bot's games on the ruleset.
#[derive(Debug, Clone, Serialize)]
pub struct BotRun {
    pub policy: String,
    pub games: u64,
    pub players: usize,
    pub vp: Distribution,
    pub turns: Distribution,
    /// Shares of player-games that played every turn, and that ran out of Safari Balls.
    pub ended_by_turns: f64,
    pub ended_by_balls: f64,
}

/// A box's fill rate among the people's finished games and the first bot's.
#[derive(Debug, Clone, Serialize)]
pub struct BoxCompare {
    pub id: String,
    /// What a person calls it ("box 3 of Rods").
    pub name: String,
    pub people: f64,
    pub bots: f64,
    /// `people - bots`.
    pub difference: f64,
}
