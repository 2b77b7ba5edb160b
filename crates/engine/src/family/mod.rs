//! The family's step API: the games made of components, played one action at a time.
//!
//! Safari Zone RNW's engine plays a whole game in one call and asks a policy at each decision
//! (`crate::step` turns that into steps). The family's games are small, so each keeps its whole
//! table as a value instead: [`Play`] is that value's rules (who acts, what is legal, what an
//! action does, what a seat may see, who won), and everything else is written once over it:
//! a game in progress with its log and undo ([`Session`]), the bots ([`bots`]), many games
//! played for a report ([`sim`]). A game's randomness is drawn at setup from its seed, or
//! from a generator it carries, so the same seed and actions give the same game.
//!
//! Each game reads its rules from the `rules` part of its ruleset (docs/ruleset.md), a
//! variant being a patch over them ([`ruleset`]), never from its content files.
//!
//! A ruleset comes from anywhere (a page loads any saved game), so the engine bounds what any
//! rules cost: a game ends after [`MOST_TURNS`] turns whatever its rules say; rules that can
//! be seen to need more, or to never end a game at all, are refused as they are read, naming
//! the field ([`ruleset::past_most_turns`], [`ruleset::never_ends`]); a bot's move does a
//! bounded amount of work ([`Play::work`], [`bots::MOST_WORK`]), so that a move is answered
//! soon even under rules whose games run to the limit; and a table of [`sim`] does a bounded
//! amount for each game asked for ([`sim::table_work`]).

pub mod any;
pub mod bots;
pub mod diceafari;
pub mod gamewright;
pub mod ruleset;
pub mod session;
pub mod sim;
pub mod tricky_safari;

use serde::Serialize;
use serde::de::DeserializeOwned;

pub use session::{Session, Taken};

/// A game's table between two actions, and its rules.
///
/// `apply` is only ever given an action `legal` offered; a [`Session`] checks actions that
/// come from outside (a page, a log) before they reach it.
pub trait Play: Clone {
    /// One decision of one seat. Small and copied: a log is a list of them.
    type Action: Copy + Eq + std::hash::Hash + std::fmt::Debug + Serialize + DeserializeOwned;

    /// Players at the table.
    fn seats(&self) -> usize;
    /// The seat that acts next, or `None` once the game is over.
    fn to_move(&self) -> Option<usize>;
    /// The actions the seat to move may take, appended to `out` in a fixed order.
    fn legal(&self, out: &mut Vec<Self::Action>);
    fn apply(&mut self, action: Self::Action);
    /// The result, once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// How well `seat` stands now, as its score would count it: the greedy bot's measure.
    fn standing(&self, seat: usize) -> f64;
    /// This table as `seat` might believe it to be: everything it cannot see redrawn at
    /// random among the places it could be, and every chance still to come reseeded. The
    /// search bot plays in such copies, so that it never reads what its seat cannot see.
    fn determinise(&self, seat: usize, rng: &mut rand_pcg::Pcg64Mcg) -> Self;
    /// What `seat` may see, as JSON for a page (`None`: everything, once the game is over).
    fn view(&self, seat: Option<usize>) -> serde_json::Value;
    /// The action in words, as the log prints it.
    fn describe(&self, action: Self::Action) -> String;
    /// Why the seat to move may not take `action` now, in words for the person who clicked
    /// it (`"forest covers c4"`): asked only while the game goes on, of an action `legal` does
    /// not offer, which may name anything (a cell off the board, a card not held). Says
    /// nothing its seat cannot see.
    fn why_not(&self, action: Self::Action) -> String;
    /// What the rules did after `action`, taken at `before`, that the action's own words do
    /// not say (`self` is the table after it): each a note for the log, by a seat or by the
    /// game. Tricky Safari's photographs and the animals' steps; nothing by default. Says
    /// nothing a seat cannot see.
    fn aftermath(&self, _before: &Self, _action: Self::Action) -> Vec<Note> {
        Vec::new()
    }
    /// The action a playout of the search bot takes: at random unless the game knows a
    /// better quick guess (most programs that search a game play its playouts so).
    fn playout(&self, legal: &[Self::Action], rng: &mut rand_pcg::Pcg64Mcg) -> Self::Action {
        use rand::RngExt;
        legal[rng.random_range(0..legal.len())]
    }
    /// How many actions after the one it weighs `greedy` looks through its own turn. A game
    /// whose turn branches widely (dice to re-roll, then tiles to claim) looks less far, so
    /// that a decision stays quick.
    fn lookahead(&self) -> u32 {
        3
    }
    /// The components that played a part in the game so far (ids of cards, tiles, animals):
    /// a simulation names those that never did.
    fn used(&self) -> Vec<String> {
        Vec::new()
    }
    /// Every component a game could use, for the same report.
    fn components(&self) -> Vec<String> {
        Vec::new()
    }
    /// The work done on this table since it was set up that bots cannot see in the actions
    /// they list and apply, in the same unit (actions looked at): a game that tries many
    /// candidates for each one it offers (DiceAFARI tries every claim of its map against the
    /// dice) or passes turns without a decision counts them here, so that a bot's bound on
    /// its work is a bound on its time whatever the ruleset.
    fn work(&self) -> u64 {
        0
    }
}

/// Turns (every seat's turns together) after which the engine ends any game of the family,
/// whatever its rules say: rules under which a game never ends would otherwise play on for
/// ever. The rulebooks' games end within a hundred.
pub const MOST_TURNS: u32 = 10_000;

/// [`Outcome::reason`] of a game the engine ended at [`MOST_TURNS`] because its rules had not.
pub const ENGINE_TURN_LIMIT: &str = "engine_turn_limit";

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// Each seat's score.
    pub scores: Vec<i64>,
    /// The winning seats after the tie-breaks (more than one: they share the win).
    pub winners: Vec<usize>,
    /// Why the game ended, a short phrase the rules' `end` names (`jungle_face_up`), or
    /// [`ENGINE_TURN_LIMIT`].
    pub reason: &'static str,
}

impl Outcome {
    /// Whether the rules ended the game, rather than the engine at [`MOST_TURNS`].
    pub fn by_the_rules(&self) -> bool {
        self.reason != ENGINE_TURN_LIMIT
    }
}

/// Something the rules did after an action, for the log: by a seat (`seat`, named by the page)
/// or by the game (`None`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Note {
    pub seat: Option<usize>,
    pub says: String,
}

/// The games of the family that have an engine, by the ruleset's `game.rules`.
pub const ENGINES: &[&str] = &[gamewright::ID, diceafari::ID, tricky_safari::ID];

/// A game of the family ready to start: its rules, read from a ruleset.
pub trait Start: Sized {
    type Game: Play;
    /// The table set up for `players` from `seed`.
    fn start(&self, players: usize, seed: u64) -> Result<Self::Game, String>;
    /// The range of players.
    fn players(&self) -> (usize, usize);
    fn name(&self) -> &str;
    /// The rules in play in a few sentences, from the rules as read (variants applied): what
    /// a page shows beside the table.
    fn summary(&self) -> Vec<String>;
}
