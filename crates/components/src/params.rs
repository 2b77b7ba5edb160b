//! The `[play]` keys a rules module declares, and their values resolved.
//!
//! A module says which keys it reads, of what kind (a count, or the id of a deck, a tile
//! set, a symbol...) and with what default; the loader holds game.toml to that, so a typo or a
//! deck that does not exist is reported at the key like any other fault, and the module reads
//! resolved values.

use crate::world::Origin;

/// One key of `[play]` a module reads.
#[derive(Debug, Clone, Copy)]
pub struct Key {
    pub name: &'static str,
    pub kind: KeyKind,
    /// Its value when game.toml does not give one: a count, or an id. `None`: the key may
    /// be left out, and the module then has no such parameter.
    pub default: Option<&'static str>,
    /// What it means, for docs and the help of a fault.
    pub doc: &'static str,
    /// The values a count may take (inclusive).
    pub range: (u32, u32),
}

/// The range of a count that is no more than a number of things.
pub const ANY_COUNT: (u32, u32) = (0, safari_core::load::limits::MAX_COUNT);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyKind {
    Count,
    Deck,
    Dice,
    Tiles,
    Tokens,
    Board,
    Pieces,
    Symbol,
    /// A list of symbols' ids, in an order that means something to the module (its default
    /// is written as the ids separated by spaces).
    Symbols,
    /// A card field's name.
    Field,
    Sheet,
}

impl KeyKind {
    pub fn describe(self) -> &'static str {
        match self {
            KeyKind::Count => "a whole number",
            KeyKind::Deck => "a deck's id",
            KeyKind::Dice => "a dice set's id",
            KeyKind::Tiles => "a tile set's id",
            KeyKind::Tokens => "a token set's id",
            KeyKind::Board => "a board's id",
            KeyKind::Pieces => "a piece set's id",
            KeyKind::Symbol => "a symbol's id",
            KeyKind::Symbols => "a list of symbols' ids",
            KeyKind::Field => "a card field's name",
            KeyKind::Sheet => "a sheet's id",
        }
    }
}

/// A key's value, resolved: ids are indices into the table's components.
#[derive(Debug, Clone, PartialEq)]
pub enum ParamValue {
    Count(u32),
    Deck(usize),
    Dice(usize),
    Tiles(usize),
    Tokens(usize),
    Board(usize),
    Pieces(usize),
    Symbol(usize),
    Symbols(Vec<usize>),
    Field(String),
    Sheet(usize),
}

#[derive(Debug, Clone)]
pub struct Param {
    pub value: ParamValue,
    /// Where game.toml gives it, or the manifest for a default.
    pub origin: Origin,
    /// As written (or the default), for the ruleset.
    pub written: serde_json::Value,
}

impl Param {
    pub fn count(&self) -> Option<u32> {
        match self.value {
            ParamValue::Count(n) => Some(n),
            _ => None,
        }
    }
    /// The index of the component it names, whatever its kind.
    pub fn index(&self) -> Option<usize> {
        match self.value {
            ParamValue::Deck(i)
            | ParamValue::Dice(i)
            | ParamValue::Tiles(i)
            | ParamValue::Tokens(i)
            | ParamValue::Board(i)
            | ParamValue::Pieces(i)
            | ParamValue::Symbol(i)
            | ParamValue::Sheet(i) => Some(i),
            ParamValue::Count(_) | ParamValue::Field(_) | ParamValue::Symbols(_) => None,
        }
    }
    pub fn symbols(&self) -> Option<&[usize]> {
        match &self.value {
            ParamValue::Symbols(ids) => Some(ids),
            _ => None,
        }
    }
    pub fn field(&self) -> Option<&str> {
        match &self.value {
            ParamValue::Field(name) => Some(name),
            _ => None,
        }
    }
}
