//! The component files' TOML format, as designers write it.
//!
//! One format for every game made of components: a file may hold symbols, decks, dice, tiles,
//! tokens, boards, pieces and setups, in any mix, and the manifest lists the files. As for
//! every format safari reads, these types are the single definition of the format: serde
//! reads them and schemars writes `schema/components.schema.json`. Values a check may blame
//! are `Spanned`.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;
use toml::Spanned;

/// game.toml of a game made of components (any rules module without a loader of its own).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct TableManifestFile {
    /// Stable id of the game: lower-case words joined by dashes (it names the output folder).
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    /// The game's name as printed.
    pub name: String,
    /// The rules module that gives the components their meaning.
    #[schemars(with = "String")]
    pub rules: Spanned<String>,
    /// Content versions by component, e.g. `deck = "v2"`.
    #[serde(default)]
    pub versions: BTreeMap<String, String>,
    #[serde(default)]
    pub players: safari_core::load::formats::Players,
    /// The component files, relative to the game folder.
    #[serde(default = "default_components")]
    #[schemars(with = "Vec<String>")]
    pub components: Vec<Spanned<String>>,
    /// The rules module's parameters: the keys it declares (docs/content.md lists them).
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, serde_json::Value>")]
    pub play: BTreeMap<Spanned<String>, Spanned<toml::Value>>,
    #[serde(default)]
    pub print: safari_core::load::formats::Print,
}

fn default_components() -> Vec<Spanned<String>> {
    vec![Spanned::new(0..0, "components.toml".to_string())]
}

/// A component file.
#[derive(Debug, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ComponentsFile {
    /// The game's vocabulary: terrains, kinds, colours. Die faces, tiles, tokens, board
    /// cells and pieces show a symbol.
    #[serde(default)]
    pub symbol: Vec<SymbolEntry>,
    #[serde(default)]
    pub deck: Vec<DeckEntry>,
    #[serde(default)]
    pub dice: Vec<DiceEntry>,
    #[serde(default)]
    pub tiles: Vec<TilesEntry>,
    #[serde(default)]
    pub tokens: Vec<TokensEntry>,
    #[serde(default)]
    pub board: Vec<BoardEntry>,
    #[serde(default)]
    pub pieces: Vec<PiecesEntry>,
    /// Roll-and-write sheets, laid out in KDL as every sheet is.
    #[serde(default)]
    pub sheet: Vec<SheetEntry>,
    /// What goes where at the start, for each player count.
    #[serde(default)]
    pub setup: Vec<SetupEntry>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct SymbolEntry {
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    /// The word printed for it.
    pub label: String,
    /// Its colour, `#rrggbb`.
    #[schemars(with = "Option<String>", regex(pattern = r"^#[0-9a-fA-F]{6}$"))]
    pub color: Option<Spanned<String>>,
    /// A short mark drawn in place of a picture: one to three characters.
    pub glyph: Option<String>,
    /// A picture in the game folder (PNG, JPEG or SVG), drawn in place of the glyph.
    #[schemars(with = "Option<String>")]
    pub art: Option<Spanned<String>>,
}

/// A deck: cards with fields of the designer's choosing.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct DeckEntry {
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    pub name: String,
    /// The card size: a name (poker, standard, bridge, mini, tarot) or
    /// `{ width-mm = ..., height-mm = ... }`; the manifest's `[print] card-size` by default.
    #[schemars(with = "Option<safari_core::load::formats::CardSizeValue>")]
    pub card_size: Option<Spanned<toml::Value>>,
    /// A template in the game's `templates/` drawing the fronts (`front(card, deck, size)`).
    #[schemars(with = "Option<String>")]
    pub front: Option<Spanned<String>>,
    /// A template in the game's `templates/` drawing the back (`back(deck, size)`).
    #[schemars(with = "Option<String>")]
    pub back: Option<Spanned<String>>,
    /// The back's colour, `#rrggbb`.
    #[schemars(with = "Option<String>", regex(pattern = r"^#[0-9a-fA-F]{6}$"))]
    pub color: Option<Spanned<String>>,
    /// The field printed large in the corners of the built-in front (a number, a value).
    #[schemars(with = "Option<String>")]
    pub corner: Option<Spanned<String>>,
    /// The physical cards the deck must hold (the sum of every card's copies).
    #[schemars(with = "Option<u32>")]
    pub size: Option<Spanned<u32>>,
    #[serde(default)]
    pub card: Vec<CardEntry>,
}

/// A card design. Keys besides these are the card's fields (`kind = "lion"`, `value = 7`).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct CardEntry {
    /// Stable id; may name fields in braces (`"{kind}-{value}"`), as may `title` and `text`.
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    /// The card's name as printed.
    #[serde(default)]
    pub title: String,
    /// Text printed on the card.
    #[serde(default)]
    pub text: String,
    /// The symbol the card shows (its colour frames the built-in front).
    #[schemars(with = "Option<String>")]
    pub symbol: Option<Spanned<String>>,
    /// How many copies are printed.
    #[schemars(with = "Option<u32>", range(min = 1))]
    pub copies: Option<Spanned<u32>>,
    /// One card per value of each listed field (every combination when several are):
    /// `for-each = { value = [1, 2, 3] }`.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, Vec<serde_json::Value>>")]
    pub for_each: BTreeMap<String, Spanned<Vec<toml::Value>>>,
    /// Free-form fields.
    #[serde(flatten)]
    #[schemars(with = "BTreeMap<String, serde_json::Value>")]
    pub fields: BTreeMap<String, toml::Value>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct DiceEntry {
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    pub name: String,
    /// d4, d6, d8, d10, d12 or d20.
    #[serde(rename = "type")]
    pub die: super::DieType,
    /// How many dice the set has.
    #[schemars(with = "u32")]
    pub count: Spanned<u32>,
    /// The faces of every die of the set: numbers, or symbols by id.
    #[schemars(with = "Vec<FaceEntry>")]
    pub faces: Spanned<Vec<Spanned<toml::Value>>>,
}

/// A die face: a number, or a symbol's id (read by the loader, which says which face is
/// neither).
#[derive(Debug, Deserialize, JsonSchema, Clone)]
#[serde(untagged)]
pub enum FaceEntry {
    Number(i64),
    Symbol(String),
}

/// A kind of tile or token and how many of it there are.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct KindEntry {
    /// The symbol on its face.
    #[schemars(with = "String")]
    pub symbol: Spanned<String>,
    #[schemars(with = "u32", range(min = 1))]
    pub count: Spanned<u32>,
    /// The symbol on its back, when it differs from the set's.
    #[schemars(with = "Option<String>")]
    pub back: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct TilesEntry {
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    pub name: String,
    pub shape: super::TileShape,
    /// Across the flats, in millimetres.
    #[schemars(with = "f64")]
    pub size_mm: Spanned<f64>,
    /// The symbol on every tile's back; a tile without a back is printed one-sided.
    #[schemars(with = "Option<String>")]
    pub back: Option<Spanned<String>>,
    pub kind: Vec<KindEntry>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct TokensEntry {
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    pub name: String,
    pub shape: super::TokenShape,
    /// Diameter (round) or side (square), in millimetres.
    #[schemars(with = "f64")]
    pub size_mm: Spanned<f64>,
    #[schemars(with = "Option<String>")]
    pub back: Option<Spanned<String>>,
    /// How players keep them in Tabletop Simulator: in a bag, or stacked.
    #[serde(default)]
    pub keep: super::Keep,
    pub kind: Vec<KindEntry>,
}

/// A board: a grid of cells, each showing a terrain symbol.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct BoardEntry {
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    pub name: String,
    /// A cell's side, in millimetres.
    #[schemars(with = "f64")]
    pub cell_mm: Spanned<f64>,
    /// One string per row, top row first, one character per cell (see `legend`). Columns are
    /// named a, b, c... from the left and rows 1, 2, 3... from the top: `c4`.
    #[schemars(with = "Vec<String>")]
    pub cells: Spanned<Vec<Spanned<String>>>,
    /// What each character of `cells` is: a symbol id.
    #[schemars(with = "BTreeMap<String, String>")]
    pub legend: BTreeMap<Spanned<String>, Spanned<String>>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct PiecesEntry {
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    pub name: String,
    /// standee (a card in a stand), figure (a pawn or meeple) or disc.
    pub kind: super::PieceKind,
    /// The height of a standee or figure, in millimetres.
    #[serde(default = "default_piece_mm")]
    #[schemars(with = "f64")]
    pub size_mm: Spanned<f64>,
    pub piece: Vec<PieceEntry>,
}

fn default_piece_mm() -> Spanned<f64> {
    Spanned::new(0..0, 30.0)
}

/// One piece. Keys besides these are its fields (as a card's).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct PieceEntry {
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    #[schemars(with = "String")]
    pub symbol: Spanned<String>,
    #[serde(flatten)]
    #[schemars(with = "BTreeMap<String, serde_json::Value>")]
    pub fields: BTreeMap<String, toml::Value>,
}

/// A roll-and-write sheet: sections of tracks of boxes, written in a KDL file in the Field
/// Guide's language (docs/components.md). Each player gets one.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct SheetEntry {
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    /// The sheet's name; the KDL `sheet title=` is printed, this name when it has none.
    pub name: String,
    /// The KDL file of its sections, tracks and boxes, relative to the game folder.
    #[schemars(with = "String")]
    pub layout: Spanned<String>,
    /// Its own page size, when it is not the game's paper: a5 (for a pad of small logs), a4,
    /// letter, a3, tabloid (any case), or `WIDTHxHEIGHT` in mm (`"148x210"`).
    #[schemars(with = "Option<String>")]
    pub paper: Option<Spanned<String>>,
    /// The label of the line a player writes their name on.
    #[serde(default = "default_player_label")]
    pub player_label: String,
    /// The label of the score box.
    #[serde(default = "default_score_label")]
    pub score_label: String,
    /// What the key at the foot of the sheet says each mark means (`""` leaves one out).
    #[serde(default)]
    pub key: SheetKeyEntry,
}

fn default_player_label() -> String {
    "Player".to_string()
}

fn default_score_label() -> String {
    "Score".to_string()
}

/// The words of a sheet's key, for the marks the sheet uses.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case", default)]
pub struct SheetKeyEntry {
    /// A box's `needs` tag (on its left).
    pub needs: String,
    /// A box's `gives` tag (on its right).
    pub gives: String,
    /// A box of style `bonus` (gold border).
    pub bonus: String,
    /// A box of style `trigger` (blue border).
    pub trigger: String,
    /// A box of style `free` (dotted border).
    pub free: String,
}

impl Default for SheetKeyEntry {
    fn default() -> Self {
        SheetKeyEntry {
            needs: "needs this first".to_string(),
            gives: "gives this".to_string(),
            bonus: "bonus box".to_string(),
            trigger: "trigger box".to_string(),
            free: "fill any time".to_string(),
        }
    }
}

/// The start of a game for some player counts.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct SetupEntry {
    /// The player counts this setup is for: `2`, or `[2, 3, 4]`.
    #[schemars(with = "PlayersEntry")]
    pub players: Spanned<toml::Value>,
    /// Cards dealt to each player.
    #[serde(default)]
    pub deal: Vec<DealEntry>,
    /// Cards laid out in a grid on the table.
    #[serde(default)]
    pub grid: Vec<GridEntry>,
    /// Decks put on the table as a pile.
    #[serde(default)]
    pub stack: Vec<StackEntry>,
    /// Cards taken out of play.
    #[serde(default)]
    pub remove: Vec<RemoveEntry>,
    /// Pieces put on a board.
    #[serde(default)]
    pub place: Vec<PlaceEntry>,
    /// Tokens handed out: all of one kind to each player.
    #[serde(default)]
    pub give: Vec<GiveEntry>,
}

/// A player count, or a list of them (read by the loader).
#[derive(Debug, Deserialize, JsonSchema, Clone)]
#[serde(untagged)]
pub enum PlayersEntry {
    One(u32),
    Many(Vec<u32>),
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct DealEntry {
    #[schemars(with = "String")]
    pub deck: Spanned<String>,
    /// Cards to each player.
    #[schemars(with = "u32")]
    pub each: Spanned<u32>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct GridEntry {
    #[schemars(with = "String")]
    pub deck: Spanned<String>,
    #[schemars(with = "u32")]
    pub rows: Spanned<u32>,
    #[schemars(with = "u32")]
    pub columns: Spanned<u32>,
    /// up or down.
    #[serde(default)]
    pub face: FaceSide,
}

#[derive(Debug, Deserialize, JsonSchema, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
pub enum FaceSide {
    Up,
    #[default]
    Down,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct StackEntry {
    #[schemars(with = "String")]
    pub deck: Spanned<String>,
    #[serde(default)]
    pub face: FaceSide,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RemoveEntry {
    #[schemars(with = "String")]
    pub deck: Spanned<String>,
    /// A card id of the deck (one copy of it leaves play).
    #[schemars(with = "String")]
    pub card: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct PlaceEntry {
    /// The piece set and piece: `meeples/red`.
    #[schemars(with = "String")]
    pub piece: Spanned<String>,
    #[schemars(with = "String")]
    pub board: Spanned<String>,
    /// The cell: column letter and row number, `c4`.
    #[schemars(with = "String")]
    pub at: Spanned<String>,
    /// north, east, south or west (up the board is north).
    #[schemars(with = "Option<String>")]
    pub facing: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct GiveEntry {
    #[schemars(with = "String")]
    pub tokens: Spanned<String>,
    /// `each-kind`: a different kind to each player (a colour per player); `all`: every
    /// token stays in the common supply.
    #[serde(default)]
    pub to: GiveTo,
}

#[derive(Debug, Deserialize, JsonSchema, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum GiveTo {
    #[default]
    EachKind,
    Supply,
}
