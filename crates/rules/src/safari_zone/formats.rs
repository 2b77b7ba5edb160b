//! Safari Zone RNW's TOML file formats, as written by designers: game.toml, deck.toml,
//! dice.toml, species.toml and items.toml.
//!
//! These types are the single definition of each format: serde reads them and schemars turns
//! them into the JSON Schemas in `schema/` (see `safari schema`), so docs, editors and the
//! loader cannot drift apart. Values the checker may blame are `Spanned`.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;
use toml::Spanned;

use crate::load::formats::{Players, Print};

/// game.toml: the game manifest.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct ManifestFile {
    /// Stable id of the game: lower-case words joined by dashes, at most 64 characters (it
    /// names the output folder).
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    /// The game's name as printed.
    pub name: String,
    /// Which rules module gives the content its meaning.
    #[serde(default = "default_rules")]
    pub rules: String,
    /// Content versions by component, e.g. `field-guide = "v20240524"`.
    #[serde(default)]
    pub versions: BTreeMap<String, String>,
    #[serde(default)]
    pub players: Players,
    pub play: Play,
    #[serde(default)]
    pub print: Print,
    #[serde(default)]
    pub files: Files,
}

fn default_rules() -> String {
    "safari-zone-rnw".to_string()
}

/// Rules parameters.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Play {
    /// Turns per player: the Field Guide must have this many boxes filled by `turn`.
    #[schemars(with = "u32")]
    pub turns: Spanned<u32>,
    /// Safari Balls per player: the Field Guide must have this many boxes filled by `ball`.
    #[schemars(with = "u32")]
    pub safari_balls: Spanned<u32>,
    /// Expedition rolls per turn (the first roll and re-rolls).
    #[serde(default = "three")]
    pub rolls_per_turn: u32,
    /// Hazards showing at once that end the turn.
    #[serde(default = "three")]
    pub hazard_limit: u32,
    /// How many boxes of one section an event (a species collected, an item obtained) fills:
    /// `one-per-section` (the rulebook's, where the Pokédex or Evolutions box a catch fills is
    /// that section's trigger box), or `one-plus-trigger-per-section` (a trigger box beside
    /// it).
    #[serde(default)]
    pub event_fills: safari_engine::vocabulary::EventFills,
}

fn three() -> u32 {
    3
}

/// Where the other content files are, relative to the game folder (each has a default).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct Files {
    #[schemars(with = "String")]
    pub field_guide: Spanned<String>,
    #[schemars(with = "String")]
    pub deck: Spanned<String>,
    #[schemars(with = "String")]
    pub dice: Spanned<String>,
    #[schemars(with = "String")]
    pub species: Spanned<String>,
    #[schemars(with = "String")]
    pub items: Spanned<String>,
    #[schemars(with = "String")]
    pub park_rules: Spanned<String>,
}

impl Default for Files {
    fn default() -> Self {
        let at = |s: &str| Spanned::new(0..0, s.to_string());
        Files {
            field_guide: at("field-guide.kdl"),
            deck: at("deck.toml"),
            dice: at("dice.toml"),
            species: at("species.toml"),
            items: at("items.toml"),
            park_rules: at(super::load::DEFAULT_PARK_RULES),
        }
    }
}

/// deck.toml: the Encounter Deck.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct DeckFile {
    /// The deck's name as printed on card backs.
    pub name: String,
    /// The number of physical cards: the sum of every card's copies must equal it.
    #[schemars(with = "Option<u32>")]
    pub size: Option<Spanned<u32>>,
    /// The cards, one entry per design (copies say how many are printed).
    #[serde(default)]
    pub card: Vec<CardEntry>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct CardEntry {
    /// Stable id; defaults to the species id (then `-2`, `-3`... for later cards of it).
    #[schemars(with = "Option<String>")]
    pub id: Option<Spanned<String>>,
    /// The species on the card (an id from species.toml).
    #[schemars(with = "String")]
    pub species: Spanned<String>,
    /// The capture dice total needed to catch it.
    #[schemars(with = "u32")]
    pub capture_rate: Spanned<u32>,
    /// Habitats to have rolled this turn, as printed: `"[G][W]"`. Empty: none.
    #[schemars(with = "Option<String>", regex(pattern = r"^\s*(\[[GgWw]\]\s*)*$"))]
    pub habitats: Option<Spanned<String>>,
    /// An area track the player must have access to (a track id of the Field Guide).
    #[schemars(with = "Option<String>")]
    pub area: Option<Spanned<String>>,
    /// An item the player must have (an id from items.toml).
    #[schemars(with = "Option<String>")]
    pub item: Option<Spanned<String>>,
    /// How many copies are printed.
    #[schemars(with = "Option<u32>", range(min = 1))]
    pub copies: Option<Spanned<u32>>,
    /// Flavour text printed on the card.
    #[serde(default)]
    pub flavor: String,
    /// Artwork file in the game folder.
    #[schemars(with = "Option<String>")]
    pub art: Option<Spanned<String>>,
}

/// dice.toml: the dice sets.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct DiceFile {
    #[serde(default)]
    pub set: Vec<DiceSetEntry>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct DiceSetEntry {
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    pub name: String,
    /// expedition: faces are actions; capture: faces are numbers.
    pub role: super::model::DiceRole,
    /// How many dice the set has.
    #[schemars(with = "u32")]
    pub count: Spanned<u32>,
    /// Faces per die.
    #[schemars(with = "u32")]
    pub sides: Spanned<u32>,
    /// The faces of every die of the set (use `dice` for dice that differ).
    #[schemars(with = "Option<Vec<FaceValue>>")]
    pub faces: Option<Spanned<Vec<Spanned<FaceValue>>>>,
    /// The faces of each die, one list per die.
    #[schemars(with = "Option<Vec<Vec<FaceValue>>>")]
    pub dice: Option<Vec<Spanned<Vec<Spanned<FaceValue>>>>>,
}

/// A die face: an action name (expedition dice) or a number (capture dice).
#[derive(Debug, Deserialize, JsonSchema, Clone)]
#[serde(untagged)]
pub enum FaceValue {
    Number(i64),
    Action(String),
}

/// species.toml: the species that cards and boxes name.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct SpeciesFile {
    #[serde(default)]
    pub species: Vec<SpeciesEntry>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct SpeciesEntry {
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    pub name: String,
    /// National Pokédex number, for ordering and art.
    pub dex: Option<u32>,
    /// What it evolves into, and how.
    #[serde(default)]
    #[schemars(with = "Vec<EvolutionEntry>")]
    pub evolutions: Vec<Spanned<EvolutionEntry>>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct EvolutionEntry {
    /// The species it evolves into.
    #[schemars(with = "String")]
    pub into: Spanned<String>,
    /// The item that evolves it; without it, collecting the species again does.
    #[schemars(with = "Option<String>")]
    pub item: Option<Spanned<String>>,
}

/// items.toml: the items boxes grant and cards require.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ItemsFile {
    #[serde(default)]
    pub item: Vec<ItemEntry>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ItemEntry {
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    pub name: String,
    /// usable: spent with a Trainer face; passive: counts while held.
    pub kind: super::model::ItemKind,
    /// What it does: a step, or a list of steps done in order (docs/content.md).
    #[schemars(with = "Option<EffectSchema>")]
    pub effect: Option<Spanned<EffectSteps>>,
}

/// An item's `effect` as written, each step with its span: one step, or a list of them.
#[derive(Debug)]
pub enum EffectSteps {
    One(toml::Value),
    Many(Vec<Spanned<toml::Value>>),
}

impl<'de> Deserialize<'de> for EffectSteps {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = EffectSteps;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a step (a name or a table) or a list of steps")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<EffectSteps, E> {
                Ok(EffectSteps::One(toml::Value::String(v.to_string())))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<EffectSteps, E> {
                Ok(EffectSteps::One(toml::Value::Integer(v)))
            }
            fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<EffectSteps, E> {
                Ok(EffectSteps::One(toml::Value::Boolean(v)))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<EffectSteps, E> {
                Ok(EffectSteps::One(toml::Value::Float(v)))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<EffectSteps, A::Error> {
                let mut steps = Vec::new();
                while let Some(step) = seq.next_element::<Spanned<toml::Value>>()? {
                    steps.push(step);
                }
                Ok(EffectSteps::Many(steps))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<EffectSteps, A::Error> {
                let value =
                    toml::Value::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                Ok(EffectSteps::One(value))
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

/// The shape of an item's `effect`, for the schema: the loader reads each step itself, so that
/// a bad step is reported where it is written.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum EffectSchema {
    /// `"none"`: no effect of its own.
    None(NoEffect),
    One(super::model::Step),
    Many(Vec<super::model::Step>),
}

#[derive(JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[allow(dead_code)]
enum NoEffect {
    None,
}
