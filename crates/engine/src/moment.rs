//! A game stopped at a decision: who decides what, among which choices, and the table as it
//! stands. The engine keeps one when a policy pauses it ([`crate::Policy::pause`]); the step
//! API ([`crate::step`]) shows it to a person and takes their answer.

use crate::game::Player;
use crate::policy::{Choice, Decision, Rerolls, Stage};
use crate::vocabulary::Action;

#[derive(Debug, Clone)]
pub struct Moment {
    /// The seat deciding.
    pub seat: usize,
    pub decision: Decision,
    /// The choices, in the engine's order; empty for a re-roll, whose choices are `rerolls`.
    pub choices: Vec<Choice>,
    pub rerolls: Option<Rerolls>,
    /// What is left of the turn.
    pub stage: Stage,
    /// The expedition dice showing, as a re-roll, a face's track or an item's use is decided
    /// (empty in the encounter).
    pub faces: Vec<Action>,
    /// The expedition dice on the table this turn, as last rolled: what a player sees at any
    /// decision of the turn (with a log kept; else `faces`).
    pub dice: Vec<Action>,
    /// Re-rolls left this turn (in a re-roll decision).
    pub rolls_left: u32,
    /// The cards drawn this turn (card indices), in an encounter decision.
    pub drawn: Vec<usize>,
    /// The card thrown at, in a throw decision.
    pub target: Option<usize>,
    /// The chance one throw at the target catches it, with what the player holds.
    pub catch_chance: f64,
    /// Every player's sheet and supplies.
    pub players: Vec<Player>,
    /// Cards left in the deck (its order is hidden), and the discard pile, face up.
    pub deck: usize,
    pub discard: Vec<usize>,
    /// Rounds played before this one.
    pub rounds: u32,
    /// How many of the game's events happened before it.
    pub events: usize,
}

impl Moment {
    /// Whether `choice` is one of this decision's.
    pub fn allows(&self, choice: Choice) -> bool {
        match self.rerolls {
            Some(rerolls) => rerolls.allows(choice),
            None => self.choices.contains(&choice),
        }
    }
}
