//! The component layer: what is on the table, knowing no game.
//!
//! Decks of cards with fields of the designer's choosing, dice of the standard types with
//! number or symbol faces, tiles, tokens, boards of terrain cells, pieces, roll-and-write
//! sheets of sections, tracks and boxes (laid out by the shared sheet engine), and setups (what
//! goes where for each player count). A rules module (`rules::Rules`) gives them meaning; the
//! backends print and export them without knowing which game they belong to. Every value
//! keeps where it was written, so a module's check can point at it.

pub mod check;
pub mod format;
mod load;
pub mod params;
pub mod rules;
pub mod sheet;

pub use load::{Pictures, load};
pub use params::{Key, KeyKind, Param, ParamValue};
pub use sheet::{Sheet, SheetKey};

use std::collections::BTreeMap;

use safari_core::{diag, model, world};
use safari_layout as layout;

use crate::model::{CardSize, Located, Paper};
use crate::world::Origin;

/// A game made of components, loaded and resolved.
#[derive(Debug, Clone)]
pub struct Table {
    pub manifest: TableManifest,
    pub symbols: Vec<Symbol>,
    pub decks: Vec<Deck>,
    pub dice: Vec<DiceSet>,
    pub tiles: Vec<TileSet>,
    pub tokens: Vec<TokenSet>,
    pub boards: Vec<Board>,
    pub pieces: Vec<PieceSet>,
    pub sheets: Vec<Sheet>,
    pub setups: Vec<Setup>,
}

#[derive(Debug, Clone)]
pub struct TableManifest {
    pub id: String,
    pub name: String,
    pub rules: Located<String>,
    pub versions: Vec<(String, String)>,
    pub players: (u32, u32),
    /// Where game.toml gives the players (the manifest's start when it does not).
    pub players_origin: Origin,
    pub card_size: CardSize,
    pub paper: Paper,
    /// The rules module's `[play]` keys, resolved, by name (defaults filled in).
    pub params: BTreeMap<String, Param>,
    pub origin: Origin,
}

impl TableManifest {
    /// The content versions on one line: `cards v1 · tiles v2`.
    pub fn versions_line(&self) -> String {
        self.versions
            .iter()
            .map(|(part, version)| format!("{part} {version}"))
            .collect::<Vec<_>>()
            .join(" · ")
    }
}

/// A symbol's index in [`Table::symbols`].
pub(crate) type SymbolIx = usize;

#[derive(Debug, Clone)]
pub struct Symbol {
    pub id: Located<String>,
    pub label: String,
    pub color: Option<String>,
    pub glyph: Option<String>,
    pub art: Option<Located<String>>,
}

#[derive(Debug, Clone)]
pub struct Deck {
    pub id: Located<String>,
    pub name: String,
    pub card_size: CardSize,
    /// The game's own templates drawing the fronts and the back (`templates/<name>`).
    pub front: Option<Located<String>>,
    pub back: Option<Located<String>>,
    pub color: Option<String>,
    pub corner: Option<Located<String>>,
    pub size: Option<Located<u32>>,
    pub cards: Vec<Card>,
    pub origin: Origin,
}

impl Deck {
    /// Physical cards: every design's copies.
    pub fn physical(&self) -> u32 {
        self.cards.iter().map(|c| c.copies).sum()
    }
}

/// A card design; `copies` of it are printed.
#[derive(Debug, Clone)]
pub struct Card {
    pub id: Located<String>,
    pub title: String,
    pub text: String,
    pub symbol: Option<SymbolIx>,
    pub copies: u32,
    /// The designer's fields, as JSON values (text, numbers, true/false, lists).
    pub fields: BTreeMap<String, serde_json::Value>,
    pub origin: Origin,
}

impl Card {
    pub fn number(&self, field: &str) -> Option<i64> {
        self.fields.get(field).and_then(serde_json::Value::as_i64)
    }
}

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum DieType {
    D4,
    D6,
    D8,
    D10,
    D12,
    D20,
}

/// The lower-case word each of these is written as.
macro_rules! names {
    ($($ty:ident { $($variant:ident => $word:literal),* })*) => {$(
        impl $ty {
            pub fn word(self) -> &'static str {
                match self { $($ty::$variant => $word),* }
            }
        }
    )*};
}

names! {
    TileShape { Square => "square", Hex => "hex" }
    TokenShape { Round => "round", Square => "square" }
    Keep { Bag => "bag", Stack => "stack" }
    PieceKind { Standee => "standee", Figure => "figure", Disc => "disc" }
}

impl DieType {
    pub fn sides(self) -> usize {
        match self {
            DieType::D4 => 4,
            DieType::D6 => 6,
            DieType::D8 => 8,
            DieType::D10 => 10,
            DieType::D12 => 12,
            DieType::D20 => 20,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            DieType::D4 => "d4",
            DieType::D6 => "d6",
            DieType::D8 => "d8",
            DieType::D10 => "d10",
            DieType::D12 => "d12",
            DieType::D20 => "d20",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum DieFace {
    Number(i64),
    Symbol(SymbolIx),
}

#[derive(Debug, Clone)]
pub struct DiceSet {
    pub id: Located<String>,
    pub name: String,
    pub die: DieType,
    pub count: u32,
    /// Where `count` is written.
    pub count_origin: Origin,
    pub faces: Vec<Located<DieFace>>,
    pub origin: Origin,
}

#[derive(Debug, Clone)]
pub struct Kind {
    pub symbol: SymbolIx,
    pub count: u32,
    /// Where `count` is written.
    pub count_origin: Origin,
    pub back: Option<SymbolIx>,
    pub origin: Origin,
}

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum TileShape {
    Square,
    Hex,
}

#[derive(Debug, Clone)]
pub struct TileSet {
    pub id: Located<String>,
    pub name: String,
    pub shape: TileShape,
    pub size_mm: f64,
    pub back: Option<SymbolIx>,
    pub kinds: Vec<Kind>,
    pub origin: Origin,
}

impl TileSet {
    pub fn count(&self) -> u32 {
        self.kinds.iter().map(|k| k.count).sum()
    }
}

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum TokenShape {
    Round,
    Square,
}

#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Keep {
    #[default]
    Bag,
    Stack,
}

#[derive(Debug, Clone)]
pub struct TokenSet {
    pub id: Located<String>,
    pub name: String,
    pub shape: TokenShape,
    pub size_mm: f64,
    pub back: Option<SymbolIx>,
    pub keep: Keep,
    pub kinds: Vec<Kind>,
    pub origin: Origin,
}

impl TokenSet {
    pub fn count(&self) -> u32 {
        self.kinds.iter().map(|k| k.count).sum()
    }
}

#[derive(Debug, Clone)]
pub struct Board {
    pub id: Located<String>,
    pub name: String,
    pub columns: usize,
    pub rows: usize,
    pub cell_mm: f64,
    /// Row-major, top row first: the symbol of each cell.
    pub cells: Vec<SymbolIx>,
    pub origin: Origin,
}

impl Board {
    pub fn cell(&self, at: Cell) -> SymbolIx {
        self.cells[at.row * self.columns + at.column]
    }
    pub fn contains(&self, column: i64, row: i64) -> bool {
        (0..self.columns as i64).contains(&column) && (0..self.rows as i64).contains(&row)
    }
}

/// A board cell, from 0: column from the left, row from the top.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    pub column: usize,
    pub row: usize,
}

impl Cell {
    /// `c4`: the column's letter and the row's number from 1.
    pub fn name(self) -> String {
        format!("{}{}", (b'a' + self.column as u8) as char, self.row + 1)
    }

    /// Reads `c4` (columns a to z).
    pub fn parse(text: &str) -> Option<Cell> {
        let mut chars = text.chars();
        let letter = chars.next()?;
        if !letter.is_ascii_lowercase() {
            return None;
        }
        let row: usize = chars.as_str().parse().ok()?;
        (row >= 1).then(|| Cell {
            column: (letter as u8 - b'a') as usize,
            row: row - 1,
        })
    }
}

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Facing {
    North,
    East,
    South,
    West,
}

impl Facing {
    pub const ALL: [Facing; 4] = [Facing::North, Facing::East, Facing::South, Facing::West];

    pub fn name(self) -> &'static str {
        match self {
            Facing::North => "north",
            Facing::East => "east",
            Facing::South => "south",
            Facing::West => "west",
        }
    }

    /// One step this way: (columns, rows), rows growing down the board.
    pub fn step(self) -> (i64, i64) {
        match self {
            Facing::North => (0, -1),
            Facing::East => (1, 0),
            Facing::South => (0, 1),
            Facing::West => (-1, 0),
        }
    }

    pub fn left(self) -> Facing {
        Facing::ALL[(self as usize + 3) % 4]
    }
    pub fn right(self) -> Facing {
        Facing::ALL[(self as usize + 1) % 4]
    }
    pub fn back(self) -> Facing {
        Facing::ALL[(self as usize + 2) % 4]
    }
}

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum PieceKind {
    Standee,
    Figure,
    Disc,
}

#[derive(Debug, Clone)]
pub struct PieceSet {
    pub id: Located<String>,
    pub name: String,
    pub kind: PieceKind,
    pub size_mm: f64,
    pub pieces: Vec<Piece>,
    pub origin: Origin,
}

#[derive(Debug, Clone)]
pub struct Piece {
    pub id: Located<String>,
    pub symbol: SymbolIx,
    pub fields: BTreeMap<String, serde_json::Value>,
}

#[derive(Debug, Clone)]
pub struct Setup {
    pub players: Vec<u32>,
    pub origin: Origin,
    pub deals: Vec<Deal>,
    pub grids: Vec<Grid>,
    pub stacks: Vec<Stack>,
    pub removes: Vec<Remove>,
    pub places: Vec<Place>,
    pub gives: Vec<Give>,
}

#[derive(Debug, Clone)]
pub struct Deal {
    pub deck: usize,
    pub each: u32,
    pub origin: Origin,
}

#[derive(Debug, Clone)]
pub struct Grid {
    pub deck: usize,
    pub rows: u32,
    pub columns: u32,
    pub face_up: bool,
    pub origin: Origin,
}

#[derive(Debug, Clone)]
pub struct Stack {
    pub deck: usize,
    pub face_up: bool,
    pub origin: Origin,
}

#[derive(Debug, Clone)]
pub struct Remove {
    pub deck: usize,
    pub card: usize,
    pub origin: Origin,
}

#[derive(Debug, Clone)]
pub struct Place {
    /// (piece set, piece).
    pub piece: (usize, usize),
    pub board: usize,
    pub at: Cell,
    pub facing: Option<Facing>,
    pub origin: Origin,
}

#[derive(Debug, Clone)]
pub struct Give {
    pub tokens: usize,
    pub each_kind: bool,
    pub origin: Origin,
}

impl Table {
    pub fn symbol(&self, ix: SymbolIx) -> &Symbol {
        &self.symbols[ix]
    }

    /// The setup for `players`, if the content gives one.
    pub fn setup_for(&self, players: u32) -> Option<&Setup> {
        self.setups.iter().find(|s| s.players.contains(&players))
    }

    /// A resolved `[play]` key (present: defaults are filled in when loading).
    pub fn param(&self, name: &str) -> Option<&Param> {
        self.manifest.params.get(name)
    }
}
