//! The JSON ruleset: everything a playable build needs to run the game, in one file.
//!
//! The types here are the format (docs/ruleset.md): serde writes and reads them, schemars
//! derives `schema/ruleset.schema.json` from them. The rules engine loads this file only,
//! never the content, so it proves the file is sufficient. Ids are the content's stable ids.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::build::Context;
use super::model::{self, Action, DiceRole, Flow, Game, Habitat, ItemKind, Shape, Step, Style};
use crate::backends::Output;

/// The name of the format, so a file can say what it is.
pub const FORMAT: &str = "safari-ruleset";
/// Bumped on any change an older reader would misread (see docs/ruleset.md).
pub const FORMAT_VERSION: u32 = 2;

/// A game's rules, as data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
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
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GameInfo {
    pub id: String,
    pub name: String,
    /// The rules module that gives the content its meaning ("safari-zone-rnw").
    pub rules: String,
    /// Content versions by component.
    pub versions: BTreeMap<String, String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
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
}

/// An expedition die face's action, or a capture die face's number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Face {
    Number(u32),
    Action(Action),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DiceSet {
    pub id: String,
    pub name: String,
    pub role: DiceRole,
    /// Each die's faces, in order (face 1 first).
    pub dice: Vec<Vec<Face>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Deck {
    pub name: String,
    /// Physical cards: the sum of every card's copies.
    pub size: u32,
    pub cards: Vec<Card>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Species {
    pub id: String,
    pub name: String,
    pub dex: Option<u32>,
    pub evolutions: Vec<Evolution>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Evolution {
    pub into: String,
    /// The item that evolves it; none: collecting the species again.
    pub item: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Item {
    pub id: String,
    pub name: String,
    pub kind: ItemKind,
    /// What it does, step by step (docs/ruleset.md).
    pub effects: Vec<Step>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FieldGuide {
    pub title: String,
    /// Columns of the sheet's layout grid.
    pub columns: u32,
    pub sections: Vec<Section>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scoring {
    /// The score: the sum of the victory points of filled boxes.
    pub score: String,
    /// Ties are broken by the number of unique species collected; then the players share it.
    pub tie_breaks: Vec<String>,
}

/// The ruleset backend: `ruleset.json`.
pub fn output(context: &Context) -> Output {
    let ruleset = build(context.game, &content_hash(context.folder));
    let mut bytes = serde_json::to_vec_pretty(&ruleset).expect("rulesets serialise");
    bytes.push(b'\n');
    Output {
        path: "ruleset.json".to_string(),
        bytes,
    }
}

/// SHA-256 over the content sources read (TOML and KDL, not the Typst of the print files),
/// sorted by name (name, NUL, text, NUL each).
pub fn content_hash(folder: &crate::world::GameFolder) -> String {
    let mut sources: Vec<_> = folder
        .sources()
        .map(|(_, s)| s)
        .filter(|s| !s.name.ends_with(".typ"))
        .collect();
    sources.sort_by(|a, b| a.name.cmp(&b.name));
    let mut hasher = Sha256::new();
    for source in sources {
        hasher.update(source.name.as_bytes());
        hasher.update([0]);
        hasher.update(source.text.as_bytes());
        hasher.update([0]);
    }
    let digest = hasher.finalize();
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// The ruleset of a game that checked without errors.
pub fn build(game: &Game, content_hash: &str) -> Ruleset {
    let item = |id: model::ItemId| game.item(id).id.clone();
    let species = |id: model::SpeciesId| game.species(id).id.clone();
    let guide = &game.guide;
    let manifest = &game.manifest;
    Ruleset {
        format: FORMAT.to_string(),
        format_version: FORMAT_VERSION,
        game: GameInfo {
            id: manifest.id.clone(),
            name: manifest.name.clone(),
            rules: manifest.rules.clone(),
            versions: manifest.versions.iter().cloned().collect(),
        },
        content_hash: content_hash.to_string(),
        parameters: Parameters {
            players_min: manifest.players.0,
            players_max: manifest.players.1,
            turns: manifest.turns.as_ref().map_or(0, |t| t.value),
            safari_balls: manifest.safari_balls.as_ref().map_or(0, |b| b.value),
            rolls_per_turn: manifest.rolls_per_turn,
            hazard_limit: manifest.hazard_limit,
        },
        dice: game
            .dice
            .iter()
            .map(|set| DiceSet {
                id: set.id.clone(),
                name: set.name.clone(),
                role: set.role,
                dice: set
                    .dice
                    .iter()
                    .map(|die| die.faces.iter().filter_map(|f| face(&f.value)).collect())
                    .collect(),
            })
            .collect(),
        deck: Deck {
            name: game.deck.name.clone(),
            size: game.deck.physical_cards(),
            cards: game
                .deck
                .cards
                .iter()
                .map(|card| Card {
                    id: card.id.clone(),
                    species: card.species.value.map(species).unwrap_or_default(),
                    capture_rate: card.capture_rate.value,
                    criteria: Criteria {
                        grass: card.grass,
                        water: card.water,
                        area: card
                            .area
                            .as_ref()
                            .and_then(|a| a.value)
                            .map(|t| guide.track(t).id.clone()),
                        item: card.item.as_ref().and_then(|i| i.value).map(item),
                    },
                    copies: card.copies.value,
                    flavor: card.flavor.clone(),
                })
                .collect(),
        },
        species: game
            .species
            .iter()
            .map(|s| Species {
                id: s.id.clone(),
                name: s.name.clone(),
                dex: s.dex,
                evolutions: s
                    .evolutions
                    .iter()
                    .filter_map(|e| {
                        Some(Evolution {
                            into: species(e.into?),
                            item: e.by?.map(item),
                        })
                    })
                    .collect(),
            })
            .collect(),
        items: game
            .items
            .iter()
            .map(|i| Item {
                id: i.id.clone(),
                name: i.name.clone(),
                kind: i.kind,
                effects: i.effects.iter().map(|s| s.value).collect(),
            })
            .collect(),
        field_guide: FieldGuide {
            title: guide.title.clone(),
            columns: guide.columns,
            sections: guide
                .sections
                .iter()
                .map(|section| Section {
                    id: section.id.clone(),
                    title: section.title.clone(),
                    column: section.placement.column,
                    row: section.placement.row,
                    width: section.placement.width,
                    height: section.placement.height,
                    tracks: section
                        .tracks
                        .iter()
                        .map(|t| {
                            let track = guide.track(*t);
                            Track {
                                id: track.id.clone(),
                                title: track.title.clone(),
                                loose: track.loose,
                                flow: track.flow,
                                boxes: track
                                    .boxes
                                    .iter()
                                    .map(|b| guide_box(game, guide.get(*b)))
                                    .collect(),
                            }
                        })
                        .collect(),
                })
                .collect(),
        },
        scoring: Scoring {
            score: "sum of the victory points of filled boxes".to_string(),
            tie_breaks: vec!["unique species collected".to_string()],
        },
    }
}

fn face(face: &model::Face) -> Option<Face> {
    match face {
        model::Face::Action(a) => Some(Face::Action(*a)),
        model::Face::Number(n) => Some(Face::Number(*n)),
        model::Face::Invalid => None,
    }
}

fn guide_box(game: &Game, def: &model::BoxDef) -> GuideBox {
    let item = |id: model::ItemId| game.item(id).id.clone();
    let species = |id: model::SpeciesId| game.species(id).id.clone();
    GuideBox {
        id: def.id.clone(),
        shape: def.shape,
        style: def.style,
        fill: match &def.terms.cause.value {
            model::Cause::Dice(a) => Fill::Dice { face: *a },
            model::Cause::Turn => Fill::Turn,
            model::Cause::Ball => Fill::Ball,
            model::Cause::Collect(list) => Fill::Collect {
                species: list.iter().map(|s| species(*s)).collect(),
            },
            model::Cause::Use(i) => Fill::Use { item: item(*i) },
            model::Cause::Obtain(list) => Fill::Obtain {
                items: list.iter().map(|i| item(*i)).collect(),
            },
            model::Cause::Free => Fill::Free,
            model::Cause::Bonus | model::Cause::Unknown => Fill::Bonus,
        },
        requires: def
            .terms
            .requires
            .iter()
            .filter_map(|r| match r.value {
                model::Requirement::Item(i) => Some(Requirement::Item { item: item(i) }),
                model::Requirement::Species(s) => Some(Requirement::Species {
                    species: species(s),
                }),
                model::Requirement::Area(t) => Some(Requirement::Area {
                    track: game.guide.track(t).id.clone(),
                }),
                model::Requirement::Box(b) => Some(Requirement::Box {
                    id: game.guide.get(b).id.clone(),
                }),
                model::Requirement::Vp(n) => Some(Requirement::Vp { at_least: n }),
                model::Requirement::Unknown => None,
            })
            .collect(),
        rewards: def
            .terms
            .rewards
            .iter()
            .filter_map(|r| match r.value {
                model::Reward::Item(i) => Some(Reward::Item { item: item(i) }),
                model::Reward::Species(s) => Some(Reward::Species {
                    species: species(s),
                }),
                model::Reward::Habitat(habitat) => Some(Reward::Habitat { habitat }),
                model::Reward::Unknown => None,
            })
            .collect(),
        vp: def.vp,
        label: def.label.clone(),
    }
}
