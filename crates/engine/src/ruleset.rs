//! The JSON ruleset: everything a playable build needs to run the game, in one file.
//!
//! The types here are the format (docs/ruleset.md): the compiler writes them, this engine and
//! every other playable build read them, and (with the `schema` feature) schemars derives
//! `schema/ruleset.schema.json` from them. Ids are the content's stable ids.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::vocabulary::{Action, DiceRole, Flow, Habitat, ItemKind, Shape, Step, Style};

/// The name of the format, so a file can say what it is.
pub const FORMAT: &str = "safari-ruleset";
/// Bumped on any change an older reader would misread (see docs/ruleset.md).
pub const FORMAT_VERSION: u32 = 3;

/// A game's rules, as data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Ruleset {
    /// Always "safari-ruleset".
    pub format: String,
    /// The format version this file follows.
    pub format_version: u32,
    pub game: GameInfo,
    /// SHA-256 of the content files this ruleset was built from (sorted by name).
    pub content_hash: String,
    pub parameters: Parameters,
    pub dice: Vec<DiceSet>,
    pub deck: Deck,
    pub species: Vec<Species>,
    pub items: Vec<Item>,
    pub field_guide: FieldGuide,
    pub scoring: Scoring,
    /// Where the Field Guide prints each section and box, for a front end to draw the sheet
    /// the players know; absent when the ruleset was made without laying the sheet out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sheet: Option<SheetPlaces>,
}

/// The Field Guide's printed page: its size, and each section's and box's rectangle on it,
/// in mm from the page's top left corner.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SheetPlaces {
    pub width_mm: f64,
    pub height_mm: f64,
    /// Every section, in the Field Guide's order.
    pub sections: Vec<Place>,
    /// Every box, in the Field Guide's order.
    pub boxes: Vec<Place>,
}

/// A section's or a box's rectangle, by its id, in mm.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Place {
    pub id: String,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct GameInfo {
    pub id: String,
    pub name: String,
    /// The rules module that gives the content its meaning ("safari-zone-rnw").
    pub rules: String,
    /// Content versions by component.
    pub versions: BTreeMap<String, String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Parameters {
    pub players_min: u32,
    pub players_max: u32,
    /// Turns per player (the Turn Tracker's boxes).
    pub turns: u32,
    /// Safari Balls per player (the Safari Balls' boxes).
    pub safari_balls: u32,
    /// Expedition rolls per turn: the first roll and the re-rolls.
    pub rolls_per_turn: u32,
    /// Hazards showing at once that end the turn.
    pub hazard_limit: u32,
    /// How many boxes of one section an event fills (the rulebook's one, by default).
    #[serde(default)]
    pub event_fills: crate::vocabulary::EventFills,
}

/// An expedition die face's action, or a capture die face's number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum Face {
    Number(u32),
    Action(Action),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct DiceSet {
    pub id: String,
    pub name: String,
    pub role: DiceRole,
    /// Each die's faces, in order (face 1 first).
    pub dice: Vec<Vec<Face>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Deck {
    pub name: String,
    /// Physical cards: the sum of every card's copies.
    pub size: u32,
    pub cards: Vec<Card>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Card {
    pub id: String,
    pub species: String,
    /// The capture dice total that catches it.
    pub capture_rate: u32,
    pub criteria: Criteria,
    pub copies: u32,
    pub flavor: String,
}

/// What a player must meet to choose the card in an encounter.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Criteria {
    /// Grass habitats counted this turn (rolled, plus habitat bonuses).
    pub grass: u32,
    /// Water habitats counted this turn.
    pub water: u32,
    /// A track with at least one filled box.
    pub area: Option<String>,
    /// An item the player has.
    pub item: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Species {
    pub id: String,
    pub name: String,
    pub dex: Option<u32>,
    pub evolutions: Vec<Evolution>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Evolution {
    pub into: String,
    /// The item that evolves it; none: collecting the species again.
    pub item: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Item {
    pub id: String,
    pub name: String,
    pub kind: ItemKind,
    /// What it does, step by step (docs/ruleset.md).
    pub effects: Vec<Step>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FieldGuide {
    pub title: String,
    /// Columns of the sheet's layout grid.
    pub columns: u32,
    pub sections: Vec<Section>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Section {
    pub id: String,
    pub title: String,
    /// Grid cells (1-based) the section covers on the sheet.
    pub column: u32,
    pub row: u32,
    pub width: u32,
    pub height: u32,
    pub tracks: Vec<Track>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Track {
    pub id: String,
    pub title: Option<String>,
    /// A one-box track written directly in its section: no order with other boxes.
    pub loose: bool,
    /// "row" (left to right) or "column" (top to bottom) on the sheet.
    pub flow: Flow,
    /// The boxes in fill order: a box is filled only after every box before it.
    pub boxes: Vec<GuideBox>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct GuideBox {
    pub id: String,
    pub shape: Shape,
    pub style: Style,
    /// What fills it (besides a bonus chain, which fills square boxes whose requirements are
    /// met and which carry no species or item label).
    pub fill: Fill,
    /// All must hold to fill it.
    pub requires: Vec<Requirement>,
    /// What filling it gives.
    pub rewards: Vec<Reward>,
    pub vp: u32,
    pub label: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Fill {
    /// Each expedition die showing this face fills the next box of one such track.
    Dice { face: Action },
    /// One box at the start of each turn.
    Turn,
    /// One box per Safari Ball thrown.
    Ball,
    /// Collecting any of these species.
    Collect { species: Vec<String> },
    /// Using this item (one Trainer face).
    Use { item: String },
    /// Obtaining any of these items.
    Obtain { items: Vec<String> },
    /// Any time once the boxes before it are filled.
    Free,
    /// Only a bonus chain fills it.
    Bonus,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Requirement {
    Item {
        item: String,
    },
    Species {
        species: String,
    },
    /// At least one box of this track filled.
    Area {
        track: String,
    },
    Box {
        #[serde(rename = "box")]
        id: String,
    },
    /// Victory points of filled boxes at least this.
    Vp {
        at_least: u32,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Reward {
    Item {
        item: String,
    },
    /// One extra habitat counted toward card criteria (any: the player's choice each time).
    Habitat {
        habitat: Habitat,
    },
    /// The collection process runs for this species.
    Species {
        species: String,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Scoring {
    /// The score: the sum of the victory points of filled boxes.
    pub score: String,
    /// Ties are broken by the number of unique species collected; then the players share it.
    pub tie_breaks: Vec<String>,
}
