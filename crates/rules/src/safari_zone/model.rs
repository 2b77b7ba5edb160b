//! Safari Zone RNW's model: the game as its content says it, with every name resolved and
//! every value located. The Field Guide is the shared sheet structure (`crate::model`) with
//! each box's terms in Safari Zone's vocabulary ([`Terms`]): what fills it, what it needs and
//! what it gives, resolved by `terms` against the game's items, species, tracks and boxes.

pub use crate::model::{
    BoxId, CardSize, Flow, Located, Paper, Placement, Section, SectionId, Shape, Style, Track,
    TrackId,
};
use crate::world::Origin;

crate::model::ids!(ItemId, SpeciesId, CardId, DiceSetId);

/// The Field Guide: the sheet with Safari Zone's terms on every box.
pub(crate) type FieldGuide = crate::model::SheetDef<Terms>;
/// A box of the Field Guide.
pub type BoxDef = crate::model::BoxDef<Terms>;

/// A box's terms as Safari Zone RNW reads them.
#[derive(Debug, Clone)]
pub struct Terms {
    pub cause: Located<Cause>,
    pub requires: Vec<Located<Requirement>>,
    pub rewards: Vec<Located<Reward>>,
}

/// What Safari Zone RNW's rules say of a box of the shared sheet model.
pub(crate) trait BoxRules {
    /// Bonus chains can fill square boxes only.
    fn bonus_can_fill(&self) -> bool;
}

impl BoxRules for BoxDef {
    fn bonus_can_fill(&self) -> bool {
        self.shape == Shape::Square
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
    pub fn item_ids(&self) -> impl Iterator<Item = ItemId> {
        (0..self.items.len() as u32).map(ItemId)
    }
    pub fn species_ids(&self) -> impl Iterator<Item = SpeciesId> {
        (0..self.species.len() as u32).map(SpeciesId)
    }
    pub(crate) fn card_ids(&self) -> impl Iterator<Item = CardId> {
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
    pub event_fills: EventFills,
    pub card_size: CardSize,
    pub paper: Paper,
    /// Where game.toml writes `card-size` and `paper`, when it does.
    pub card_size_at: Option<Origin>,
    pub paper_at: Option<Origin>,
    /// The Park Rules' file (`[files] park-rules`), and where game.toml names it when it does.
    pub park_rules: (String, Option<Origin>),
    pub origin: Origin,
}

impl Manifest {
    /// Where a card that does not fit its paper is written: the card size, or, for cards of
    /// the default size, the paper, unless the paper came from `--paper` (`from_flag`).
    pub fn print_origin(&self, from_flag: bool) -> Option<Origin> {
        self.card_size_at
            .or(if from_flag { None } else { self.paper_at })
    }
}

pub use safari_engine::vocabulary::{Action, DiceRole, EventFills, Habitat, ItemKind, Step};

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

    pub(crate) fn max_number(&self) -> u32 {
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

    /// For each physical card in deck order, the index of its design.
    pub(crate) fn physical_order(&self) -> Vec<usize> {
        let copies =
            |(index, card): (usize, &Card)| std::iter::repeat_n(index, card.copies.value as usize);
        self.cards.iter().enumerate().flat_map(copies).collect()
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
    pub art: Option<Located<String>>,
    pub origin: Origin,
}

/// A condition on the left of a box. `Unknown` holds a name that did not resolve: it is
/// reported once where it was written and otherwise treated as never met.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Requirement {
    Item(ItemId),
    Species(SpeciesId),
    Area(TrackId),
    Box(BoxId),
    Vp(u32),
    Unknown,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reward {
    Item(ItemId),
    Habitat(Habitat),
    /// An evolved (or gifted) species: the collection process runs for it.
    Species(SpeciesId),
    Unknown,
}

/// What fills a box (besides a bonus chain, which can fill any square box).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cause {
    /// Each expedition die showing this face fills the next box of one such track.
    Dice(Action),
    /// One box at the start of each turn.
    Turn,
    /// One box per Safari Ball thrown.
    Ball,
    /// Collecting any of these species.
    Collect(Vec<SpeciesId>),
    /// Using this item (with a Trainer face).
    Use(ItemId),
    /// Obtaining one of these items (trigger boxes).
    Obtain(Vec<ItemId>),
    /// Any time, once the earlier boxes of its track are filled.
    Free,
    /// Only a bonus chain fills it.
    Bonus,
    /// Not given, or did not resolve (already reported).
    Unknown,
}
