//! What a rules module over the component layer gives it: the interface is the layer's, so
//! that the layer and the backends that print and export its games depend on it and never on
//! the modules (`crates/rules/src/`) that implement it.

use super::{Key, KeyKind, ParamValue, Table};
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::model::Located;

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

/// A component of the table that no rule reads: no key of the rules module names it.
#[derive(Debug, Clone)]
pub struct Unread<'a> {
    /// The kind of key that would name it.
    pub kind: KeyKind,
    pub id: &'a Located<String>,
    pub name: &'a str,
}

/// The components of `table` that `rules` never reads. A module reads the components its
/// keys name (`[play]`, or the keys' defaults); one whose keys name no component (a table of
/// components alone, `none`) reads the table as people play it, and leaves nothing unread.
pub fn unread<'a>(table: &'a Table, rules: &dyn Rules) -> Vec<Unread<'a>> {
    let component_keys = rules.keys().iter().any(|k| {
        matches!(
            k.kind,
            KeyKind::Deck
                | KeyKind::Dice
                | KeyKind::Tiles
                | KeyKind::Tokens
                | KeyKind::Board
                | KeyKind::Pieces
                | KeyKind::Sheet
        )
    });
    if !component_keys {
        return Vec::new();
    }
    let read: Vec<&ParamValue> = rules
        .keys()
        .iter()
        .filter_map(|k| table.param(k.name))
        .map(|p| &p.value)
        .collect();
    let is_read = |value: ParamValue| read.contains(&&value);
    let mut unread = Vec::new();
    let mut each = |kind: KeyKind, id: &'a Located<String>, name: &'a str, value| {
        if !is_read(value) {
            unread.push(Unread { kind, id, name });
        }
    };
    for (i, c) in table.decks.iter().enumerate() {
        each(KeyKind::Deck, &c.id, &c.name, ParamValue::Deck(i));
    }
    for (i, c) in table.dice.iter().enumerate() {
        each(KeyKind::Dice, &c.id, &c.name, ParamValue::Dice(i));
    }
    for (i, c) in table.tiles.iter().enumerate() {
        each(KeyKind::Tiles, &c.id, &c.name, ParamValue::Tiles(i));
    }
    for (i, c) in table.tokens.iter().enumerate() {
        each(KeyKind::Tokens, &c.id, &c.name, ParamValue::Tokens(i));
    }
    for (i, c) in table.boards.iter().enumerate() {
        each(KeyKind::Board, &c.id, &c.name, ParamValue::Board(i));
    }
    for (i, c) in table.pieces.iter().enumerate() {
        each(KeyKind::Pieces, &c.id, &c.name, ParamValue::Pieces(i));
    }
    for (i, c) in table.sheets.iter().enumerate() {
        each(KeyKind::Sheet, &c.id, &c.name, ParamValue::Sheet(i));
    }
    unread
}

/// SZ0319: a component no rule reads is named, where its file declares it.
pub fn check_unread(table: &Table, rules: &dyn Rules, diagnostics: &mut Diagnostics) {
    for c in unread(table, rules) {
        let keys: Vec<String> = rules
            .keys()
            .iter()
            .filter(|k| k.kind == c.kind)
            .map(|k| format!("`{}`", k.name))
            .collect();
        let help = match keys.as_slice() {
            [] => format!(
                "the `{}` rules read no {}: remove it, or give the rules module a rule that reads it",
                rules.id(),
                noun(c.kind)
            ),
            keys => format!(
                "the `{}` rules read {} only as [play] {}: remove it, or give the rules module a rule that reads it",
                rules.id(),
                noun(c.kind),
                safari_core::words::and_list(keys)
            ),
        };
        diagnostics.push(
            Diagnostic::warning(
                Code::ComponentUnread,
                format!(
                    "no rule reads the {} ({} `{}`): it is in the game, but the `{}` rules never use it",
                    c.name,
                    noun(c.kind),
                    c.id.value,
                    rules.id(),
                ),
            )
            .with_primary(c.id.origin, "no rule reads it")
            .with_help(help),
        );
    }
}

/// A component of `kind`, in words.
pub fn noun(kind: KeyKind) -> &'static str {
    match kind {
        KeyKind::Deck => "deck",
        KeyKind::Dice => "dice",
        KeyKind::Tiles => "tiles",
        KeyKind::Tokens => "tokens",
        KeyKind::Board => "board",
        KeyKind::Pieces => "pieces",
        KeyKind::Sheet => "sheet",
        KeyKind::Count | KeyKind::Symbol | KeyKind::Symbols | KeyKind::Field => "value",
    }
}
