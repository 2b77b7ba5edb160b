//! The words of the ruleset format that the compiler's model shares: die faces, habitats, item
//! kinds and the steps of an item's effect, and a sheet's box shapes, styles and track flows.
//! The compiler reads content into them, the ruleset carries them, the engine plays them.

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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

/// How many boxes of one section one event (a species collected, an item obtained) fills.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum EventFills {
    /// The rulebook's: one box in each section, a box that names the event (a Pokédex box,
    /// the next Evolutions box) or else a trigger box.
    #[default]
    OnePerSection,
    /// In each section, one box that names the event and one trigger box beside it.
    OnePlusTriggerPerSection,
}

impl EventFills {
    /// The name content writes (`[play] event-fills`).
    pub fn name(self) -> &'static str {
        match self {
            EventFills::OnePerSection => "one-per-section",
            EventFills::OnePlusTriggerPerSection => "one-plus-trigger-per-section",
        }
    }

    /// Whether trigger boxes take an event's fill of their own in a section, beside the box
    /// that names the event there.
    pub fn trigger_beside(self) -> bool {
        self == EventFills::OnePlusTriggerPerSection
    }
}

/// The actions an expedition die face can show.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum DiceRole {
    Expedition,
    Capture,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Habitat {
    Grass,
    Water,
    /// The player chooses grass or water each time it counts.
    Any,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Flow {
    /// Boxes left to right, wrapping to the next row.
    Row,
    /// Boxes top to bottom.
    Column,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Shape {
    Square,
    Circle,
    Diamond,
    Hexagon,
    Star,
    Ball,
}

impl Shape {
    pub const NAMES: &'static [(&'static str, Shape)] = &[
        ("square", Shape::Square),
        ("circle", Shape::Circle),
        ("diamond", Shape::Diamond),
        ("hexagon", Shape::Hexagon),
        ("star", Shape::Star),
        ("ball", Shape::Ball),
    ];
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Style {
    Plain,
    /// Gold border: filling it lets the player fill another square box.
    Bonus,
    /// Blue border: filled as a side effect of its event.
    Trigger,
    /// Dotted border: fill it any time once the boxes before it are filled.
    Free,
}

impl Style {
    pub const NAMES: &'static [(&'static str, Style)] = &[
        ("plain", Style::Plain),
        ("bonus", Style::Bonus),
        ("trigger", Style::Trigger),
        ("free", Style::Free),
    ];
}
