//! ruleset.json of a game made of components: every component and setup as data, and the
//! rules module's part, enough for a playable build to set the game up and run it.
//! Its JSON Schema is `schema/components-ruleset.schema.json` (docs/ruleset.md).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::components::rules::Rules;
use crate::components::{Cell, DieFace, Kind, Table};
use crate::load::guide::Term;
use crate::model::{Flow, Located, Shape, Style};

/// The format's name, in every file.
pub const FORMAT: &str = "safari-components";
pub(crate) const VERSION: u32 = 3;

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct TableRuleset {
    /// Always `safari-components`.
    pub format: String,
    pub version: u32,
    pub game: GameInfo,
    pub symbols: Vec<SymbolRule>,
    pub decks: Vec<DeckRule>,
    pub dice: Vec<DiceRule>,
    pub tiles: Vec<SetRule>,
    pub tokens: Vec<SetRule>,
    pub boards: Vec<BoardRule>,
    pub pieces: Vec<PiecesRule>,
    /// Roll-and-write sheets: one per player.
    #[serde(default)]
    pub sheets: Vec<SheetRule>,
    pub setups: Vec<SetupRule>,
    /// The rules module's parameters and rules, by module (see docs/ruleset.md).
    pub rules: serde_json::Value,
    /// The components no rule of the module reads (SZ0319): in the game, never played.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unread: Vec<UnreadRule>,
}

/// A component no rule reads.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct UnreadRule {
    pub id: String,
    pub name: String,
    /// deck, dice, tiles, tokens, board, pieces or sheet.
    pub kind: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct GameInfo {
    pub id: String,
    pub name: String,
    /// The rules module's id (the manifest's `rules`).
    pub rules: String,
    pub players: [u32; 2],
    pub versions: std::collections::BTreeMap<String, String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SymbolRule {
    pub id: String,
    pub label: String,
    pub color: Option<String>,
    pub glyph: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct DeckRule {
    pub id: String,
    pub name: String,
    pub card_width_mm: f64,
    pub card_height_mm: f64,
    pub cards: Vec<CardRule>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct CardRule {
    pub id: String,
    pub title: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
    pub symbol: Option<String>,
    pub copies: u32,
    /// The designer's fields.
    pub fields: std::collections::BTreeMap<String, serde_json::Value>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct DiceRule {
    pub id: String,
    pub name: String,
    /// d4, d6, d8, d10, d12 or d20.
    #[serde(rename = "type")]
    pub die: String,
    pub count: u32,
    pub faces: Vec<FaceRule>,
}

/// A die face: a number, or a symbol's id.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum FaceRule {
    Number(i64),
    Symbol(String),
}

/// A tile or token set.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SetRule {
    pub id: String,
    pub name: String,
    /// square or hex (tiles); round or square (tokens).
    pub shape: String,
    pub size_mm: f64,
    pub kinds: Vec<KindRule>,
    /// Tokens: bag or stack.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keep: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct KindRule {
    pub symbol: String,
    pub count: u32,
    pub back: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct BoardRule {
    pub id: String,
    pub name: String,
    pub columns: usize,
    pub rows: usize,
    pub cell_mm: f64,
    /// Row by row from the top, each cell's symbol; cells are named `a1` (column letter
    /// from the left, row number from the top).
    pub cells: Vec<Vec<String>>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct PiecesRule {
    pub id: String,
    pub name: String,
    /// standee, figure or disc.
    pub kind: String,
    pub pieces: Vec<PieceRule>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct PieceRule {
    pub id: String,
    pub symbol: String,
    pub fields: std::collections::BTreeMap<String, serde_json::Value>,
}

/// A roll-and-write sheet: sections of tracks of boxes, filled in order along each track.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SheetRule {
    pub id: String,
    pub name: String,
    /// The title printed on it.
    pub title: String,
    pub sections: Vec<SheetSectionRule>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SheetSectionRule {
    pub id: String,
    pub title: String,
    /// Lines of text printed in the section.
    pub texts: Vec<String>,
    pub tracks: Vec<SheetTrackRule>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SheetTrackRule {
    pub id: String,
    pub title: Option<String>,
    pub flow: Flow,
    /// A box written directly in its section, not in a track.
    pub loose: bool,
    pub boxes: Vec<SheetBoxRule>,
}

/// A box. `fill`, `needs` and `gives` are the designer's terms as written
/// (`kind:name/name`): what they mean is the game's rules'.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SheetBoxRule {
    pub id: String,
    pub shape: Shape,
    pub style: Style,
    pub vp: u32,
    pub label: Option<String>,
    pub fill: Option<String>,
    pub needs: Vec<String>,
    pub gives: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SetupRule {
    pub players: Vec<u32>,
    /// Cards dealt to each player: deck id and count.
    pub deal: Vec<(String, u32)>,
    pub grid: Vec<GridRule>,
    /// Decks put on the table as piles: deck id and whether face up.
    pub stack: Vec<(String, bool)>,
    /// Cards out of play: deck id and card id.
    pub remove: Vec<(String, String)>,
    pub place: Vec<PlaceRule>,
    /// Token sets handed out a kind to each player (`true`) or kept as a supply.
    pub give: Vec<(String, bool)>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct GridRule {
    pub deck: String,
    pub rows: u32,
    pub columns: u32,
    pub face_up: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct PlaceRule {
    pub set: String,
    pub piece: String,
    pub board: String,
    /// The cell: `c4`.
    pub at: String,
    pub facing: Option<String>,
}

/// ruleset.json's text: the ruleset, pretty-printed.
pub fn text(table: &Table, module: &dyn Rules) -> String {
    serde_json::to_string_pretty(&ruleset(table, module)).expect("rulesets serialise") + "\n"
}

pub fn ruleset(table: &Table, module: &dyn Rules) -> TableRuleset {
    let symbol = |ix: usize| table.symbol(ix).id.value.clone();
    let deck_id = |ix: usize| table.decks[ix].id.value.clone();
    let set = |id: &Located<String>,
               name: &str,
               shape: &str,
               size: f64,
               kinds: &[Kind],
               back: Option<usize>,
               keep: Option<&str>| SetRule {
        id: id.value.clone(),
        name: name.to_string(),
        shape: shape.to_string(),
        size_mm: size,
        kinds: kinds
            .iter()
            .map(|k| KindRule {
                symbol: symbol(k.symbol),
                count: k.count,
                back: k.back.or(back).map(symbol),
            })
            .collect(),
        keep: keep.map(str::to_string),
    };
    TableRuleset {
        format: FORMAT.to_string(),
        version: VERSION,
        game: GameInfo {
            id: table.manifest.id.clone(),
            name: table.manifest.name.clone(),
            rules: table.manifest.rules.value.clone(),
            players: [table.manifest.players.0, table.manifest.players.1],
            // The designer's versions: the printed `content <id>` is no part of the rules.
            versions: table
                .manifest
                .versions
                .iter()
                .filter(|(part, _)| part != crate::load::CONTENT_VERSION)
                .cloned()
                .collect(),
        },
        symbols: table
            .symbols
            .iter()
            .map(|s| SymbolRule {
                id: s.id.value.clone(),
                label: s.label.clone(),
                color: s.color.clone(),
                glyph: s.glyph.clone(),
            })
            .collect(),
        decks: table
            .decks
            .iter()
            .map(|d| DeckRule {
                id: d.id.value.clone(),
                name: d.name.clone(),
                card_width_mm: d.card_size.width_mm,
                card_height_mm: d.card_size.height_mm,
                cards: d
                    .cards
                    .iter()
                    .map(|c| CardRule {
                        id: c.id.value.clone(),
                        title: c.title.clone(),
                        text: c.text.clone(),
                        symbol: c.symbol.map(symbol),
                        copies: c.copies,
                        fields: c.fields.clone(),
                    })
                    .collect(),
            })
            .collect(),
        dice: table
            .dice
            .iter()
            .map(|d| DiceRule {
                id: d.id.value.clone(),
                name: d.name.clone(),
                die: d.die.name().to_string(),
                count: d.count,
                faces: d
                    .faces
                    .iter()
                    .map(|f| match f.value {
                        DieFace::Number(n) => FaceRule::Number(n),
                        DieFace::Symbol(s) => FaceRule::Symbol(symbol(s)),
                    })
                    .collect(),
            })
            .collect(),
        tiles: table
            .tiles
            .iter()
            .map(|t| {
                let shape = t.shape.word();
                set(&t.id, &t.name, shape, t.size_mm, &t.kinds, t.back, None)
            })
            .collect(),
        tokens: table
            .tokens
            .iter()
            .map(|t| {
                let shape = t.shape.word();
                let keep = t.keep.word();
                set(
                    &t.id,
                    &t.name,
                    shape,
                    t.size_mm,
                    &t.kinds,
                    t.back,
                    Some(keep),
                )
            })
            .collect(),
        boards: table
            .boards
            .iter()
            .map(|b| BoardRule {
                id: b.id.value.clone(),
                name: b.name.clone(),
                columns: b.columns,
                rows: b.rows,
                cell_mm: b.cell_mm,
                cells: b
                    .cells
                    .chunks(b.columns.max(1))
                    .map(|r| r.iter().map(|&s| symbol(s)).collect())
                    .collect(),
            })
            .collect(),
        pieces: table
            .pieces
            .iter()
            .map(|p| PiecesRule {
                id: p.id.value.clone(),
                name: p.name.clone(),
                kind: p.kind.word().to_string(),
                pieces: p
                    .pieces
                    .iter()
                    .map(|piece| PieceRule {
                        id: piece.id.value.clone(),
                        symbol: symbol(piece.symbol),
                        fields: piece.fields.clone(),
                    })
                    .collect(),
            })
            .collect(),
        sheets: table.sheets.iter().map(sheet_rule).collect(),
        setups: table
            .setups
            .iter()
            .map(|s| SetupRule {
                players: s.players.clone(),
                deal: s.deals.iter().map(|d| (deck_id(d.deck), d.each)).collect(),
                grid: s
                    .grids
                    .iter()
                    .map(|g| GridRule {
                        deck: deck_id(g.deck),
                        rows: g.rows,
                        columns: g.columns,
                        face_up: g.face_up,
                    })
                    .collect(),
                stack: s
                    .stacks
                    .iter()
                    .map(|k| (deck_id(k.deck), k.face_up))
                    .collect(),
                remove: s
                    .removes
                    .iter()
                    .map(|r| {
                        (
                            deck_id(r.deck),
                            table.decks[r.deck].cards[r.card].id.value.clone(),
                        )
                    })
                    .collect(),
                place: s
                    .places
                    .iter()
                    .map(|p| {
                        let set = &table.pieces[p.piece.0];
                        PlaceRule {
                            set: set.id.value.clone(),
                            piece: set.pieces[p.piece.1].id.value.clone(),
                            board: table.boards[p.board].id.value.clone(),
                            at: Cell::name(p.at),
                            facing: p.facing.map(|f| f.name().to_string()),
                        }
                    })
                    .collect(),
                give: s
                    .gives
                    .iter()
                    .map(|g| (table.tokens[g.tokens].id.value.clone(), g.each_kind))
                    .collect(),
            })
            .collect(),
        rules: module.ruleset(table),
        unread: crate::components::rules::unread(table, module)
            .into_iter()
            .map(|c| UnreadRule {
                id: c.id.value.clone(),
                name: c.name.to_string(),
                kind: crate::components::rules::noun(c.kind).to_string(),
            })
            .collect(),
    }
}

fn sheet_rule(sheet: &crate::components::Sheet) -> SheetRule {
    let guide = &sheet.guide;
    SheetRule {
        id: sheet.id.value.clone(),
        name: sheet.name.clone(),
        title: sheet.title(),
        sections: guide
            .sections
            .iter()
            .map(|section| SheetSectionRule {
                id: section.id.clone(),
                title: section.title.clone(),
                texts: section.texts.clone(),
                tracks: section
                    .tracks
                    .iter()
                    .map(|&t| {
                        let track = guide.track(t);
                        SheetTrackRule {
                            id: track.id.clone(),
                            title: track.title.clone(),
                            flow: track.flow,
                            loose: track.loose,
                            boxes: track
                                .boxes
                                .iter()
                                .map(|&b| {
                                    let def = guide.get(b);
                                    let terms = sheet.terms_of(b);
                                    let written = |terms: &[Term]| {
                                        terms.iter().map(|t| t.written.clone()).collect()
                                    };
                                    SheetBoxRule {
                                        id: def.id.clone(),
                                        shape: def.shape,
                                        style: def.style,
                                        vp: def.vp,
                                        label: def.label.clone(),
                                        fill: terms.fill.as_ref().map(|t| t.written.clone()),
                                        needs: written(&terms.needs),
                                        gives: written(&terms.gives),
                                    }
                                })
                                .collect(),
                        }
                    })
                    .collect(),
            })
            .collect(),
    }
}
