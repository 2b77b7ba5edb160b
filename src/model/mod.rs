//! The game model: what the content says, with every name resolved and every value located.
//!
//! Two layers. The component layer (manifest, dice, deck, sheet of sections, tracks and boxes,
//! items, species) is what any roll-and-write or card game made of these parts is built from;
//! backends (print, export) read only that. The rules layer (`rules::safari_zone`) gives the
//! Field Guide its meaning: what fills a box, what a requirement needs. Loading never fails
//! outright: a fault is reported and the model holds the rest, so every check still runs.

mod guide;

pub use guide::*;

use crate::world::Origin;

macro_rules! ids {
    ($($name:ident),*) => {$(
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub u32);
        impl $name {
            pub fn index(self) -> usize { self.0 as usize }
        }
    )*};
}

ids!(
    ItemId, SpeciesId, SectionId, TrackId, BoxId, CardId, DiceSetId
);

/// A value and where it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located<T> {
    pub value: T,
    pub origin: Origin,
}

impl<T> Located<T> {
    pub fn new(value: T, origin: Origin) -> Self {
        Located { value, origin }
    }
}

#[derive(Debug, Clone)]
pub struct Game {
    pub manifest: Manifest,
    pub items: Vec<Item>,
    pub species: Vec<Species>,
    pub dice: Vec<DiceSet>,
    pub deck: Deck,
    pub guide: FieldGuide,
}

impl Game {
    pub fn item(&self, id: ItemId) -> &Item {
        &self.items[id.index()]
    }
    pub fn species(&self, id: SpeciesId) -> &Species {
        &self.species[id.index()]
    }
    pub fn card(&self, id: CardId) -> &Card {
        &self.deck.cards[id.index()]
    }
    pub fn dice_set(&self, id: DiceSetId) -> &DiceSet {
        &self.dice[id.index()]
    }
    pub fn item_ids(&self) -> impl Iterator<Item = ItemId> {
        (0..self.items.len() as u32).map(ItemId)
    }
    pub fn species_ids(&self) -> impl Iterator<Item = SpeciesId> {
        (0..self.species.len() as u32).map(SpeciesId)
    }
    pub fn card_ids(&self) -> impl Iterator<Item = CardId> {
        (0..self.deck.cards.len() as u32).map(CardId)
    }

    /// The expedition dice (the sets whose faces are actions).
    pub fn expedition_dice(&self) -> impl Iterator<Item = &Die> {
        self.dice
            .iter()
            .filter(|set| set.role == DiceRole::Expedition)
            .flat_map(|set| set.dice.iter())
    }

    /// The capture dice (the sets whose faces are numbers).
    pub fn capture_dice(&self) -> impl Iterator<Item = &Die> {
        self.dice
            .iter()
            .filter(|set| set.role == DiceRole::Capture)
            .flat_map(|set| set.dice.iter())
    }
}

#[derive(Debug, Clone)]
pub struct Manifest {
    pub id: String,
    pub name: String,
    pub rules: String,
    /// Content versions by component (`field-guide`, `deck`, `dice`, ...).
    pub versions: Vec<(String, String)>,
    pub players: (u32, u32),
    /// `None` when the manifest failed to load (already reported).
    pub turns: Option<Located<u32>>,
    pub safari_balls: Option<Located<u32>>,
    pub rolls_per_turn: u32,
    pub hazard_limit: u32,
    pub card_size: CardSize,
    pub paper: Paper,
    /// The Park Rules' file (`[files] park-rules`), and where game.toml names it when it does.
    pub park_rules: (String, Option<Origin>),
    pub origin: Origin,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CardSize {
    pub name: &'static str,
    pub width_mm: f64,
    pub height_mm: f64,
}

impl CardSize {
    pub const NAMED: &'static [CardSize] = &[
        CardSize {
            name: "poker",
            width_mm: 63.5,
            height_mm: 88.9,
        },
        CardSize {
            name: "standard",
            width_mm: 63.0,
            height_mm: 88.0,
        },
        CardSize {
            name: "bridge",
            width_mm: 57.15,
            height_mm: 88.9,
        },
        CardSize {
            name: "mini",
            width_mm: 44.45,
            height_mm: 63.5,
        },
        CardSize {
            name: "tarot",
            width_mm: 69.85,
            height_mm: 120.65,
        },
    ];
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Paper {
    A4,
    Letter,
    A3,
    Tabloid,
    /// Width and height in millimetres.
    Custom {
        width: f64,
        height: f64,
    },
}

impl Paper {
    /// The smallest and largest custom paper, in millimetres a side.
    pub const CUSTOM_RANGE: (f64, f64) = (50.0, 2000.0);

    /// `a4`, `letter`, `a3`, `tabloid`, or `WIDTHxHEIGHT` in millimetres (`300x420`).
    pub fn parse(text: &str) -> Result<Paper, String> {
        let lower = text.trim().to_ascii_lowercase();
        match lower.as_str() {
            "a4" => return Ok(Paper::A4),
            "letter" => return Ok(Paper::Letter),
            "a3" => return Ok(Paper::A3),
            "tabloid" | "ledger" => return Ok(Paper::Tabloid),
            _ => {}
        }
        let dims = lower.strip_suffix("mm").unwrap_or(&lower);
        let (w, h) = dims
            .split_once(['x', '×'])
            .ok_or_else(|| format!("`{text}` is not a paper: a4, letter, a3, tabloid, or WIDTHxHEIGHT in mm (`300x420`)"))?;
        let (lo, hi) = Paper::CUSTOM_RANGE;
        let number = |s: &str| {
            s.trim()
                .parse::<f64>()
                .ok()
                .filter(|n| n.is_finite() && (lo..=hi).contains(n))
                .ok_or_else(|| {
                    format!(
                        "`{}` is not a paper side between {lo} and {hi} mm",
                        s.trim()
                    )
                })
        };
        Ok(Paper::Custom {
            width: number(w)?,
            height: number(h)?,
        })
    }
}

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum ItemKind {
    /// Used with a Trainer face (Moon Stone, Poké Doll...).
    Usable,
    /// Held: it counts while the player has it (rods, keys, Bicycle).
    Passive,
}

/// One thing an item does, as data the checker and the engine both read. An item's effect is a
/// list of these, so a new item is a new combination, not new code. A passive item's steps
/// hold while the player has it; a usable item's happen when a Trainer face is spent on it. A
/// step that does not fit the item's kind never happens (SZ0314).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Step {
    /// Its use is for the boxes labelled with it (`use:<item>`, the Evolutions' stones): every
    /// use fills the next open one, and this step says the item does nothing else.
    #[serde(alias = "evolve")]
    FillLabelled,
    /// After a missed throw, one capture die keeps its value for the rest of the encounter.
    LockCaptureDie,
    /// Shuffles the discard pile into the deck.
    ReshuffleDiscard,
    /// Discards the drawn cards of one species and draws as many again.
    #[serde(alias = "repel")]
    RedrawSpecies,
    /// One die showing a hazard may be re-rolled with each re-roll.
    RerollHazard,
    /// One more re-roll each turn.
    ExtraRoll,
    /// Counts as one more habitat of this kind toward card criteria.
    Habitat(Habitat),
    /// Adds this much to a capture roll: every roll while held (passive), or one roll it turns
    /// into a catch (usable).
    CaptureBonus(u32),
}

impl Step {
    /// The step's name as content writes it.
    pub fn name(self) -> &'static str {
        match self {
            Step::FillLabelled => "fill-labelled",
            Step::LockCaptureDie => "lock-capture-die",
            Step::ReshuffleDiscard => "reshuffle-discard",
            Step::RedrawSpecies => "redraw-species",
            Step::RerollHazard => "reroll-hazard",
            Step::ExtraRoll => "extra-roll",
            Step::Habitat(_) => "habitat",
            Step::CaptureBonus(_) => "capture-bonus",
        }
    }

    /// Whether the step can happen for an item of this kind: re-rolls and habitats happen
    /// while dice are rolled and cards met, when no Trainer face has been spent yet, so only
    /// while held; the others are spent with a Trainer face, and a capture bonus is either.
    pub fn fits(self, kind: ItemKind) -> bool {
        match self {
            Step::RerollHazard | Step::ExtraRoll | Step::Habitat(_) => kind == ItemKind::Passive,
            Step::FillLabelled
            | Step::LockCaptureDie
            | Step::ReshuffleDiscard
            | Step::RedrawSpecies => kind == ItemKind::Usable,
            Step::CaptureBonus(_) => true,
        }
    }
}

#[derive(Debug, Clone)]
pub struct Item {
    pub id: String,
    pub name: String,
    pub kind: ItemKind,
    /// What it does, in order, each step where it is written; empty when it matters only as a
    /// requirement or card criterion.
    pub effects: Vec<Located<Step>>,
    pub origin: Origin,
}

#[derive(Debug, Clone)]
pub struct Species {
    pub id: String,
    pub name: String,
    pub dex: Option<u32>,
    pub evolutions: Vec<Evolution>,
    pub origin: Origin,
}

#[derive(Debug, Clone)]
pub struct Evolution {
    pub into: Option<SpeciesId>,
    /// `None`: by collecting the species again; `Some(item)`: by using the item.
    /// The outer `None`: the item did not resolve (already reported).
    pub by: Option<Option<ItemId>>,
    pub origin: Origin,
}

/// The actions an expedition die face can show.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    Area,
    Trainer,
    Item,
    Grass,
    Water,
    Hazard,
}

impl Action {
    pub const ALL: [Action; 6] = [
        Action::Area,
        Action::Trainer,
        Action::Item,
        Action::Grass,
        Action::Water,
        Action::Hazard,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Action::Area => "area",
            Action::Trainer => "trainer",
            Action::Item => "item",
            Action::Grass => "grass",
            Action::Water => "water",
            Action::Hazard => "hazard",
        }
    }

    pub fn from_name(name: &str) -> Option<Action> {
        Action::ALL.into_iter().find(|a| a.name() == name)
    }
}

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum DiceRole {
    Expedition,
    Capture,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Face {
    Action(Action),
    Number(u32),
    /// A face that failed to load (already reported).
    Invalid,
}

#[derive(Debug, Clone)]
pub struct Die {
    pub faces: Vec<Located<Face>>,
    pub origin: Origin,
}

impl Die {
    pub fn has(&self, action: Action) -> bool {
        self.faces.iter().any(|f| f.value == Face::Action(action))
    }

    pub fn max_number(&self) -> u32 {
        self.faces
            .iter()
            .filter_map(|f| match f.value {
                Face::Number(n) => Some(n),
                _ => None,
            })
            .max()
            .unwrap_or(0)
    }
}

#[derive(Debug, Clone)]
pub struct DiceSet {
    pub id: String,
    pub name: String,
    pub role: DiceRole,
    pub count: Located<u32>,
    pub sides: Located<u32>,
    pub dice: Vec<Die>,
    pub origin: Origin,
}

#[derive(Debug, Clone)]
pub struct Deck {
    pub name: String,
    pub size: Option<Located<u32>>,
    pub cards: Vec<Card>,
    pub origin: Origin,
}

impl Deck {
    pub fn physical_cards(&self) -> u32 {
        self.cards
            .iter()
            .fold(0u32, |total, c| total.saturating_add(c.copies.value))
    }
}

#[derive(Debug, Clone)]
pub struct Card {
    pub id: String,
    pub species: Located<Option<SpeciesId>>,
    pub capture_rate: Located<u32>,
    pub grass: u32,
    pub water: u32,
    pub habitats_origin: Option<Origin>,
    pub area: Option<Located<Option<TrackId>>>,
    pub item: Option<Located<Option<ItemId>>>,
    pub copies: Located<u32>,
    pub flavor: String,
    pub art: Option<String>,
    pub origin: Origin,
}
