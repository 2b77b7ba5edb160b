//! What the templates of a game made of components receive as `sys.inputs.game`: the
//! components as plain data, the rules module's part, and the captions it prints.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::components::rules::Rules;
use crate::components::{DieFace, Table};
use crate::model::Paper;
use crate::print::ColorSpace;
use crate::print::geometry::{CARD_BLEED_MM, PaperSize};

#[derive(Debug, Clone, Serialize)]
pub struct TableData {
    pub id: String,
    pub name: String,
    /// One line: `cards v1 · tiles v2`.
    pub versions: String,
    pub players: [u32; 2],
    pub paper: PaperSize,
    pub color_space: ColorSpace,
    /// The rules module's part of the ruleset (`Rules::ruleset`).
    pub rules: serde_json::Value,
    pub symbols: BTreeMap<String, SymbolData>,
    pub decks: Vec<DeckData>,
    pub dice: Vec<DiceData>,
    pub tiles: Vec<SetData>,
    pub tokens: Vec<SetData>,
    pub boards: Vec<BoardData>,
    pub pieces: Vec<PiecesData>,
    pub sheets: Vec<SheetPageData>,
    /// The rules module's scripted objects for the Tabletop Simulator table.
    #[serde(skip)]
    pub table_scripts: Vec<crate::components::rules::TableScript>,
}

#[derive(Debug, Clone, Serialize)]
pub struct SymbolData {
    pub label: String,
    pub color: String,
    /// Text drawn dark or light, whichever reads on `color`.
    pub on: &'static str,
    pub glyph: Option<String>,
    pub art: Option<String>,
}

/// A deck's card size as every game's templates receive it (`card_size`), in mm, with the
/// bleed the print backend adds around each card.
#[derive(Debug, Clone, Serialize)]
pub struct CardSizeData {
    pub name: &'static str,
    pub width: f64,
    pub height: f64,
    pub bleed: f64,
}

impl CardSizeData {
    pub fn of(size: crate::model::CardSize) -> Self {
        CardSizeData {
            name: size.name,
            width: size.width_mm,
            height: size.height_mm,
            bleed: CARD_BLEED_MM,
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct DeckData {
    pub id: String,
    pub name: String,
    pub card_size: CardSizeData,
    pub color: String,
    pub corner: Option<String>,
    /// The game's own templates drawing fronts and backs (`/templates/<name>`).
    pub front: Option<String>,
    pub back: Option<String>,
    /// Physical cards.
    pub count: u32,
    pub designs: Vec<DesignData>,
    /// For each physical card in deck order, the index of its design.
    pub physical: Vec<usize>,
}

#[derive(Debug, Clone, Serialize)]
pub struct DesignData {
    pub id: String,
    pub title: String,
    pub text: String,
    pub symbol: Option<String>,
    pub fields: BTreeMap<String, serde_json::Value>,
    pub copies: u32,
    /// The physical cards it is: `"07-09"`.
    pub numbers: String,
    /// A line the rules module prints on it.
    pub caption: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct DiceData {
    pub id: String,
    pub name: String,
    #[serde(rename = "type")]
    pub die: &'static str,
    pub count: u32,
    pub faces: Vec<FaceData>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", content = "value", rename_all = "lowercase")]
pub enum FaceData {
    Number(i64),
    Symbol(String),
}

/// A tile or token set.
#[derive(Debug, Clone, Serialize)]
pub struct SetData {
    pub id: String,
    pub name: String,
    /// square, hex, round.
    pub shape: &'static str,
    pub size: f64,
    pub back: Option<String>,
    pub kinds: Vec<KindData>,
}

#[derive(Debug, Clone, Serialize)]
pub struct KindData {
    pub symbol: String,
    pub count: u32,
    pub back: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct BoardData {
    pub id: String,
    pub name: String,
    pub columns: usize,
    pub rows: usize,
    pub cell: f64,
    /// Row by row from the top: each cell's symbol.
    pub cells: Vec<Vec<String>>,
    /// The board's printed size, with its frame (mm).
    pub width: f64,
    pub height: f64,
    pub frame: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct PiecesData {
    pub id: String,
    pub name: String,
    pub kind: &'static str,
    pub size: f64,
    pub pieces: Vec<PieceData>,
}

#[derive(Debug, Clone, Serialize)]
pub struct PieceData {
    pub id: String,
    pub symbol: String,
}

/// A roll-and-write sheet: what `templates/sheet.typ` draws.
#[derive(Debug, Clone, Serialize)]
pub struct SheetPageData {
    pub id: String,
    pub name: String,
    /// Its page: its own paper, else the game's.
    pub paper: PaperSize,
    /// Every rectangle on the page, in mm (templates/README.md, `layout`).
    pub layout: crate::layout::SheetLayout,
}

/// The border around a board's cells, for its name and coordinates.
pub(crate) const BOARD_FRAME_MM: f64 = 8.0;

pub fn table_data(
    table: &Table,
    module: &dyn Rules,
    paper: Paper,
    color_space: ColorSpace,
) -> TableData {
    let symbol_id = |ix: usize| table.symbol(ix).id.value.clone();
    let symbols = table
        .symbols
        .iter()
        .map(|s| {
            let color = s.color.clone().unwrap_or_else(|| "#8a857a".to_string());
            let on = if luminance(&color) > 0.45 {
                "dark"
            } else {
                "light"
            };
            (
                s.id.value.clone(),
                SymbolData {
                    label: s.label.clone(),
                    color,
                    on,
                    glyph: s.glyph.clone(),
                    art: s.art.as_ref().map(|a| a.value.clone()),
                },
            )
        })
        .collect();
    let decks = table
        .decks
        .iter()
        .enumerate()
        .map(|(deck_ix, deck)| {
            let mut next = 1;
            let mut physical = Vec::new();
            let designs = deck
                .cards
                .iter()
                .enumerate()
                .map(|(card_ix, card)| {
                    let first = next;
                    next += card.copies as usize;
                    physical.extend(std::iter::repeat_n(card_ix, card.copies as usize));
                    let last = next - 1;
                    DesignData {
                        id: card.id.value.clone(),
                        title: card.title.clone(),
                        text: card.text.clone(),
                        symbol: card.symbol.map(symbol_id),
                        fields: card.fields.clone(),
                        copies: card.copies,
                        numbers: if first == last {
                            format!("{first:02}")
                        } else {
                            format!("{first:02}-{last:02}")
                        },
                        caption: module.card_caption(table, deck_ix, card_ix),
                    }
                })
                .collect();
            DeckData {
                id: deck.id.value.clone(),
                name: deck.name.clone(),
                card_size: CardSizeData::of(deck.card_size),
                color: deck.color.clone().unwrap_or_else(|| "#2f7d3b".to_string()),
                corner: deck.corner.as_ref().map(|c| c.value.clone()),
                front: deck
                    .front
                    .as_ref()
                    .map(|f| format!("/templates/{}", f.value)),
                back: deck
                    .back
                    .as_ref()
                    .map(|b| format!("/templates/{}", b.value)),
                count: deck.physical(),
                designs,
                physical,
            }
        })
        .collect();
    let set = |id: &str,
               name: &str,
               shape: &'static str,
               size: f64,
               back: Option<usize>,
               kinds: &[crate::components::Kind]| SetData {
        id: id.to_string(),
        name: name.to_string(),
        shape,
        size,
        back: back.map(symbol_id),
        kinds: kinds
            .iter()
            .map(|k| KindData {
                symbol: symbol_id(k.symbol),
                count: k.count,
                back: k.back.or(back).map(symbol_id),
            })
            .collect(),
    };
    TableData {
        id: table.manifest.id.clone(),
        name: table.manifest.name.clone(),
        versions: table.manifest.versions_line(),
        players: [table.manifest.players.0, table.manifest.players.1],
        paper: PaperSize::of(paper),
        color_space,
        rules: module.ruleset(table),
        table_scripts: module.table_scripts(table),
        symbols,
        decks,
        dice: table
            .dice
            .iter()
            .map(|d| DiceData {
                id: d.id.value.clone(),
                name: d.name.clone(),
                die: d.die.name(),
                count: d.count,
                faces: d
                    .faces
                    .iter()
                    .map(|f| match f.value {
                        DieFace::Number(n) => FaceData::Number(n),
                        DieFace::Symbol(s) => FaceData::Symbol(symbol_id(s)),
                    })
                    .collect(),
            })
            .collect(),
        tiles: table
            .tiles
            .iter()
            .map(|t| {
                let shape = t.shape.word();
                set(&t.id.value, &t.name, shape, t.size_mm, t.back, &t.kinds)
            })
            .collect(),
        tokens: table
            .tokens
            .iter()
            .map(|t| {
                let shape = t.shape.word();
                set(&t.id.value, &t.name, shape, t.size_mm, t.back, &t.kinds)
            })
            .collect(),
        boards: table
            .boards
            .iter()
            .map(|b| BoardData {
                id: b.id.value.clone(),
                name: b.name.clone(),
                columns: b.columns,
                rows: b.rows,
                cell: b.cell_mm,
                cells: b
                    .cells
                    .chunks(b.columns.max(1))
                    .map(|row| row.iter().map(|&s| symbol_id(s)).collect())
                    .collect(),
                width: b.columns as f64 * b.cell_mm + 2.0 * BOARD_FRAME_MM,
                height: b.rows as f64 * b.cell_mm + 2.0 * BOARD_FRAME_MM,
                frame: BOARD_FRAME_MM,
            })
            .collect(),
        pieces: table
            .pieces
            .iter()
            .map(|p| PiecesData {
                id: p.id.value.clone(),
                name: p.name.clone(),
                kind: p.kind.word(),
                size: p.size_mm,
                pieces: p
                    .pieces
                    .iter()
                    .map(|piece| PieceData {
                        id: piece.id.value.clone(),
                        symbol: symbol_id(piece.symbol),
                    })
                    .collect(),
            })
            .collect(),
        // `check` laid every sheet out on this paper before a build runs; one that does not
        // fit was reported there, and is left out here.
        sheets: table
            .sheets
            .iter()
            .filter_map(|sheet| {
                let layout = sheet
                    .lay_out(
                        &table.manifest.name,
                        &table.manifest.versions_line(),
                        &sheet.data(&table.symbols),
                        paper,
                    )
                    .ok()?;
                Some(SheetPageData {
                    id: sheet.id.value.clone(),
                    name: sheet.name.clone(),
                    paper: PaperSize::of(sheet.paper.unwrap_or(paper)),
                    layout,
                })
            })
            .collect(),
    }
}

/// Relative luminance of `#rrggbb` (0 black, 1 white).
fn luminance(hex: &str) -> f64 {
    let channel = |i: usize| {
        let v = u8::from_str_radix(&hex[i..i + 2], 16).unwrap_or(128) as f64 / 255.0;
        if v <= 0.03928 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5)
}
