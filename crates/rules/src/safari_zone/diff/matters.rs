//! What a content change means to a player, which orders the changes: the game's totals
//! first, then what was added or removed, then what plays differently, and last what only
//! reads or sits differently (names, text, places on the sheet).

use serde::Serialize;
use serde_json::Value;

use super::content::{Change, FieldChange};

/// What a change means to a player, in the order changes are told.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Matters {
    /// The game's numbers and totals: players, turns, Safari Balls, rolls, the cards in the
    /// deck, the dice and their faces, the boxes on the sheet.
    Totals,
    /// Something added or removed: a card, species, item, box, track, section or dice set.
    Presence,
    /// How something plays: VP, what fills, opens or gives a box, a capture rate, a face.
    Play,
    /// Names, text and places on the sheet only: nothing plays differently.
    Cosmetic,
}

/// Fields whose change moves something on the sheet and nothing else.
const LAYOUT: &[(&str, &[&str])] = &[
    ("section", &["column", "row", "width", "height"]),
    ("track", &["section", "flow"]),
    ("box", &["section"]),
    ("sheet", &["columns"]),
];

/// Fields whose change rewords something and nothing else.
const TEXT: &[(&str, &[&str])] = &[
    ("game", &["name", "versions"]),
    ("section", &["title"]),
    ("track", &["title"]),
    ("box", &["label"]),
    ("card", &["flavor"]),
    ("dice", &["name"]),
    ("item", &["name"]),
    ("species", &["name", "dex"]),
    ("deck", &["name"]),
    ("sheet", &["title"]),
];

/// Fields that are totals of the game, whatever their values (besides every `parameter`:
/// players, turns, balls, rolls and hazards).
const TOTALS: &[(&str, &[&str])] = &[("deck", &["size"]), ("sheet", &["boxes"])];

fn listed(table: &[(&str, &[&str])], kind: &str, field: &str) -> bool {
    table
        .iter()
        .any(|(k, fields)| *k == kind && fields.contains(&field))
}

fn is_layout(kind: &str, field: &str) -> bool {
    listed(LAYOUT, kind, field)
}

fn is_text(kind: &str, field: &str) -> bool {
    listed(TEXT, kind, field)
}

/// The number of dice of a set and of each die's faces.
fn dice_shape(v: Option<&Value>) -> Option<Vec<usize>> {
    let dice = v?.as_array()?;
    dice.iter()
        .map(|die| die.as_array().map(Vec::len))
        .collect()
}

/// What one field's change means to a player.
pub fn field(kind: &str, f: &FieldChange) -> Matters {
    let field = f.field.as_str();
    if kind == "parameter" || listed(TOTALS, kind, field) {
        return Matters::Totals;
    }
    if (kind, field) == ("dice", "dice") && dice_shape(f.old.as_ref()) != dice_shape(f.new.as_ref())
    {
        return Matters::Totals;
    }
    // A track's number of boxes says boxes were added or removed.
    if (kind, field) == ("track", "boxes") {
        return Matters::Presence;
    }
    if is_layout(kind, field) || is_text(kind, field) {
        return Matters::Cosmetic;
    }
    Matters::Play
}

/// What a whole change means to a player: an entry added or removed is a presence, an entry
/// changed means what the most telling of its fields does.
pub fn change(kind: &str, change: &str, fields: &[FieldChange]) -> Matters {
    match change {
        "added" | "removed" => Matters::Presence,
        _ => fields
            .iter()
            .map(|f| field(kind, f))
            .min()
            .unwrap_or(Matters::Cosmetic),
    }
}

/// How a change is counted among those a summary leaves out: "moved", "reworded", "new"...
pub(crate) fn adjective(c: &Change) -> &'static str {
    match c.change {
        "added" => "new",
        "removed" => "removed",
        "renamed" => "renamed",
        "moved" => "moved",
        _ if c.fields.iter().all(|f| is_layout(c.kind, &f.field)) => "moved",
        _ if c.matters == Matters::Cosmetic => "reworded",
        _ => "changed",
    }
}

/// A kind of entry, one or many: ("box", "boxes").
pub(crate) fn noun(kind: &str) -> (&'static str, &'static str) {
    match kind {
        "game" => ("game", "games"),
        "parameter" => ("set of the game's numbers", "sets of the game's numbers"),
        "section" => ("section", "sections"),
        "track" => ("track", "tracks"),
        "box" => ("box", "boxes"),
        "card" => ("card", "cards"),
        "dice" => ("dice set", "dice sets"),
        "item" => ("item", "items"),
        "species" => ("species", "species"),
        "deck" => ("deck", "decks"),
        "sheet" => ("sheet", "sheets"),
        "file" => ("file", "files"),
        _ => ("entry", "entries"),
    }
}
