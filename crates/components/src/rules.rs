//! What a rules module over the component layer gives it: the interface is the layer's, so
//! that the layer and the backends that print and export its games depend on it and never on
//! the modules (`crates/rules/src/`) that implement it.

use super::{Key, Table};
use crate::diag::Diagnostics;

/// A game's rules over the component layer.
pub trait Rules: Sync {
    /// The manifest's `rules` value that picks this module.
    fn id(&self) -> &'static str;
    /// The game's name, for messages and docs.
    fn title(&self) -> &'static str;
    /// The `[play]` keys it reads; the loader resolves them before any check.
    fn keys(&self) -> &'static [Key];
    /// The checks that need the game's rules. They run on a table that loaded whole.
    fn check(&self, table: &Table, diagnostics: &mut Diagnostics);
    /// The rules part of ruleset.json (`rules`), also given to templates as `game.rules`:
    /// what a playable build needs besides the components.
    fn ruleset(&self, table: &Table) -> serde_json::Value;
    /// A line a card prints besides its fields (a score, a map's size), if any.
    fn card_caption(&self, _table: &Table, _deck: usize, _card: usize) -> Option<String> {
        None
    }
    /// The scripted objects of the Tabletop Simulator table, where the rules do something a
    /// table of components cannot: lay out a map drawn from a card, count the score from the
    /// table as the rulebook does.
    fn table_scripts(&self, _table: &Table) -> Vec<TableScript> {
        Vec::new()
    }
}

/// A rules module's scripted object on the table, its Lua placed after the table's shared
/// script (the backends' `tts/common.lua`). It reads the ruleset from the rules object and finds
/// what it reads or moves from its saved state, the table's wiring: `rules` (the rules
/// object's GUID), `rules_name`, `format` and `version` (the ruleset it reads), `sets` (each
/// tile and token set's bag GUID), `seats` (for every seat the game has, in order: its
/// `colour`, its `hand` zone's GUID and its `sheets`' GUIDs by sheet id; a seat not in play
/// has no hand zone on the table), `mm_per_unit` and `origin` (the middle of its room). Every
/// card, tile, token and piece carries what it is in its memo, as JSON: `{"deck", "card"}`,
/// `{"set", "kind"}` or `{"pieces", "piece"}`.
#[derive(Debug, Clone)]
pub struct TableScript {
    pub name: String,
    pub description: String,
    /// What the object is for, in its role on the table (`rules-script/<id>`).
    pub id: &'static str,
    pub lua: &'static str,
    /// The room (width, depth in table units) the script lays things out in, if any: the
    /// table keeps it clear in its middle, and tells the script where it is (`origin` in its
    /// state).
    pub room: Option<(f64, f64)>,
}
