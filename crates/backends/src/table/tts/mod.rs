//! The Tabletop Simulator saved object of a game made of components, laid out as at the
//! start of a game: decks as `DeckCustom`, dealt into hands, grids and piles as the smallest
//! player count's setup says, tiles and tokens as `Custom_Tile`s in bags or
//! stacks as players keep them, boards as `Custom_Board`, dice as `Custom_Dice`, pieces as
//! `Figurine_Custom` standing on their setup cells, and the ruleset in a scripted object.
//!
//! The pictures are pages of one Typst document (`table-tts.typ`) at sizes planned here;
//! [`Export::finish`] names each by its content hash (the game caches images by URL) and
//! writes the JSON. Sizes: a game unit is an inch, and a tile at scale 1 is two units on its
//! short side (what public saves show; docs/components.md says to check it once in the game).

mod decks;
mod layout;
mod scripts;

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use super::data::TableData;
use crate::Output;
use crate::components::Table;
use crate::print::plan::{Images, Sprite, SpriteLayout};
use crate::tts::{DIE_FACE_PX, DIE_TEXTURE_PX, save_name, short_hash};

/// Resolution of every picture.
pub(crate) const DPI: f64 = 150.0;
/// A deck sheet's and a picture's limits, every export's (`crate::tts`).
const MAX_SHEET_PX: f64 = crate::tts::MAX_SHEET_PX as f64;
const MAX_COLUMNS: usize = crate::tts::MAX_COLUMNS as usize;
const MAX_ROWS: usize = crate::tts::MAX_ROWS as usize;
const MM_PER_UNIT: f64 = 25.4;

fn px_to_mm(px: f64) -> f64 {
    px / DPI * 25.4
}

/// One picture: a page of `table-tts.typ`.
#[derive(Debug, Clone, Serialize)]
pub struct Picture {
    /// Its file before hashing: `tts/images/<stem>.png`.
    pub file: String,
    pub width: f64,
    pub height: f64,
    #[serde(flatten)]
    pub what: What,
}

#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum What {
    /// Pasted together from its cards' faces, each a page of its own ([`Export::pages`]).
    DeckSheet {
        deck: usize,
        first: usize,
        count: usize,
        columns: usize,
        rows: usize,
        card_width: f64,
        card_height: f64,
    },
    DeckBack {
        deck: usize,
    },
    /// One card's face, at the size it has on its deck's sheet.
    CardFace {
        deck: usize,
        design: usize,
    },
    Face {
        shape: &'static str,
        symbol: String,
    },
    /// One side of a standee: its front, the way the piece faces, or its back.
    Standee {
        symbol: String,
        back: bool,
    },
    Board {
        board: usize,
        scale: f64,
    },
    /// Pasted together from its die's faces, each a page of its own ([`Export::pages`]).
    DieTexture {
        dice: usize,
        faces: usize,
    },
    /// One face of a die, the size it has on the die's texture.
    DieFace {
        dice: usize,
        face: usize,
    },
    Sheet {
        sheet: usize,
        scale: f64,
    },
    Title,
}

pub struct Export {
    pub pictures: Vec<Picture>,
}

fn stem(file: &str) -> &str {
    file.trim_start_matches("tts/images/")
        .trim_end_matches(".png")
}

impl Export {
    /// The pictures the export needs.
    pub fn plan(data: &TableData) -> Export {
        let mut pictures = Vec::new();
        let mut push = |stem: String, width: f64, height: f64, what: What| {
            pictures.push(Picture {
                file: format!("tts/images/{stem}.png"),
                width,
                height,
                what,
            });
        };
        plan_decks(data, &mut push);
        plan_pieces(data, &mut push);
        plan_the_rest(data, &mut push);
        Export { pictures }
    }

    /// The pages of `table-tts.typ`, and what to make of them: every picture but the deck
    /// sheets and die textures, a page each, written under its name; then each deck sheet's
    /// card faces and each die texture's faces, a page each, pasted together into the picture
    /// (as every game's are: `tts::sprite_sheet`, `tts::die_texture`).
    pub fn pages(&self) -> (Vec<Picture>, Images) {
        let mut pages: Vec<Picture> = self
            .pictures
            .iter()
            .filter(|p| !matches!(p.what, What::DeckSheet { .. } | What::DieTexture { .. }))
            .cloned()
            .collect();
        let names = pages.iter().map(|p| p.file.clone()).collect();
        let mut sprites = Vec::new();
        for picture in &self.pictures {
            let What::DeckSheet {
                deck,
                first,
                count,
                columns,
                rows,
                card_width,
                card_height,
            } = picture.what
            else {
                continue;
            };
            let faces = (first..first + count).map(|design| Picture {
                file: String::new(),
                width: card_width,
                height: card_height,
                what: What::CardFace { deck, design },
            });
            let start = pages.len() + 1;
            pages.extend(faces);
            sprites.push(Sprite {
                name: picture.file.clone(),
                pages: (start..start + count).collect(),
                layout: SpriteLayout::Grid {
                    columns: columns as u32,
                    rows: rows as u32,
                },
            });
        }
        for picture in &self.pictures {
            let What::DieTexture { dice, faces } = picture.what else {
                continue;
            };
            let side = px_to_mm(DIE_FACE_PX as f64);
            let start = pages.len() + 1;
            pages.extend((0..faces).map(|face| Picture {
                file: String::new(),
                width: side,
                height: side,
                what: What::DieFace { dice, face },
            }));
            sprites.push(Sprite {
                name: picture.file.clone(),
                pages: (start..start + faces).collect(),
                layout: SpriteLayout::D6,
            });
        }
        let images = Images {
            dpi: DPI,
            names,
            sprites,
        };
        (pages, images)
    }

    /// The export's files: the pictures renamed by their hashes, the saved object, its
    /// thumbnail. `outputs` are the build's files; the pictures among them are replaced.
    pub fn finish(
        self,
        data: &TableData,
        table: &Table,
        ruleset_json: &str,
        outputs: Vec<Output>,
        base: &str,
    ) -> Vec<Output> {
        let mut urls: HashMap<String, String> = HashMap::new();
        let mut kept = Vec::new();
        let mut thumbnail = None;
        let planned: std::collections::HashSet<&str> =
            self.pictures.iter().map(|p| p.file.as_str()).collect();
        for output in outputs {
            if !planned.contains(output.path.as_str()) {
                kept.push(output);
                continue;
            }
            let stem = stem(&output.path).to_string();
            if stem == "thumbnail" {
                thumbnail = Some(output.bytes);
                continue;
            }
            let file = format!("{stem}-{}.png", short_hash(&output.bytes));
            urls.insert(stem, format!("{base}/{file}"));
            kept.push(Output {
                path: format!("tts/images/{file}"),
                bytes: output.bytes,
            });
        }
        // A picture nothing drew gets an address no file answers, which the build refuses
        // (SZ0804) rather than a save with an empty image.
        let url = |stem: &str| {
            urls.get(stem)
                .cloned()
                .unwrap_or_else(|| format!("{base}/{stem}.png"))
        };
        let ctx = layout::Ctx {
            data,
            table,
            pictures: &self.pictures,
            url: &url,
        };
        let json_bytes = crate::tts::table::export(&layout::table(&ctx, ruleset_json));
        let name = save_name(&data.name);
        kept.push(Output {
            path: format!("tts/{name}.json"),
            bytes: json_bytes,
        });
        if let Some(bytes) = thumbnail {
            kept.push(Output {
                path: format!("tts/{name}.png"),
                bytes,
            });
        }
        kept
    }
}

/// What a plan adds a picture with: its stem, size in mm, and what it is.
type Push<'a> = dyn FnMut(String, f64, f64, What) + 'a;

/// Each deck's sheets of faces (at most 10 x 7, each as large as the sheet limit allows) and
/// its back.
fn plan_decks(data: &TableData, push: &mut Push) {
    for (ix, deck) in data.decks.iter().enumerate() {
        let (w, h) = (deck.card_size.width, deck.card_size.height);
        for (sheet, first) in (0..deck.designs.len())
            .step_by(MAX_COLUMNS * MAX_ROWS)
            .enumerate()
        {
            let count = (deck.designs.len() - first).min(MAX_COLUMNS * MAX_ROWS);
            let columns = count.min(MAX_COLUMNS);
            let rows = count.div_ceil(columns);
            // Cards as large as the sheet limit allows, at most at the picture resolution;
            // each face is a whole number of pixels, rounded up, so a pixel a card is
            // left for that.
            let k = (px_to_mm(MAX_SHEET_PX / columns as f64 - 1.0) / w)
                .min(px_to_mm(MAX_SHEET_PX / rows as f64 - 1.0) / h)
                .min(1.0);
            let (cw, ch) = (w * k, h * k);
            push(
                format!("deck-{}-{}", deck.id, sheet + 1),
                cw * columns as f64,
                ch * rows as f64,
                What::DeckSheet {
                    deck: ix,
                    first,
                    count,
                    columns,
                    rows,
                    card_width: cw,
                    card_height: ch,
                },
            );
        }
        push(
            format!("deck-{}-back", deck.id),
            w,
            h,
            What::DeckBack { deck: ix },
        );
    }
}

/// Each tile and token face (once per symbol, shape and size), and each standee's two sides.
fn plan_pieces(data: &TableData, push: &mut Push) {
    let mut faces: BTreeMap<(String, &'static str, u64), f64> = BTreeMap::new();
    for set in data.tiles.iter().chain(&data.tokens) {
        let shape = if set.shape == "hex" { "hex" } else { "square" };
        for kind in &set.kinds {
            for symbol in std::iter::once(&kind.symbol).chain(kind.back.as_ref()) {
                faces.insert((symbol.clone(), shape, set.size.to_bits()), set.size);
            }
        }
    }
    for ((symbol, shape, _), size) in faces {
        let w = if shape == "hex" {
            size * 2.0 / 3f64.sqrt()
        } else {
            size
        };
        push(
            format!("{shape}-{symbol}-{}", size.round()),
            w,
            size,
            What::Face { shape, symbol },
        );
    }
    for set in &data.pieces {
        for piece in &set.pieces {
            for (side, back) in [("", false), ("back-", true)] {
                push(
                    format!("standee-{side}{}-{}", set.id, piece.id),
                    set.size * 0.62,
                    set.size,
                    What::Standee {
                        symbol: piece.symbol.clone(),
                        back,
                    },
                );
            }
        }
    }
}

/// The boards, the d6 textures, the sheets and the thumbnail.
fn plan_the_rest(data: &TableData, push: &mut Push) {
    for (ix, board) in data.boards.iter().enumerate() {
        // As large as the game loads reliably, at most at the picture resolution.
        let k = (px_to_mm(MAX_SHEET_PX) / board.width.max(board.height)).min(1.0);
        push(
            format!("board-{}", board.id),
            board.width * k,
            board.height * k,
            What::Board {
                board: ix,
                scale: k,
            },
        );
    }
    for (ix, set) in data.dice.iter().enumerate() {
        if set.die == "d6" {
            let side = px_to_mm(DIE_TEXTURE_PX as f64);
            push(
                format!("die-{}", set.id),
                side,
                side,
                What::DieTexture {
                    dice: ix,
                    faces: set.faces.len(),
                },
            );
        }
    }
    for (ix, sheet) in data.sheets.iter().enumerate() {
        let (w, h) = (sheet.paper.width, sheet.paper.height);
        let k = (px_to_mm(MAX_SHEET_PX) / w.max(h)).min(1.0);
        push(
            format!("sheet-{}", sheet.id),
            w * k,
            h * k,
            What::Sheet {
                sheet: ix,
                scale: k,
            },
        );
    }
    push(
        "thumbnail".to_string(),
        px_to_mm(256.0),
        px_to_mm(256.0),
        What::Title,
    );
}

/// Die `n` of a set: a d6 with its texture; other types are Tabletop Simulator's own dice of
/// that type, their faces listed in the description (there is no verified texture layout for
/// them).
fn die(
    data: &TableData,
    set: &super::data::DiceData,
    n: u32,
    url: &dyn Fn(&str) -> String,
) -> crate::tts::things::Thing {
    use crate::tts::things::Die;
    let faces: Vec<String> = set
        .faces
        .iter()
        .map(|f| match f {
            super::data::FaceData::Number(n) => n.to_string(),
            super::data::FaceData::Symbol(s) => data.symbols[s].label.clone(),
        })
        .collect();
    let die = match set.die {
        "d6" => Die::D6 {
            texture: url(&format!("die-{}", set.id)),
            faces,
        },
        other => Die::Builtin {
            sides: other.trim_start_matches('d').parse().unwrap_or(6),
            faces,
        },
    };
    layout::thing(
        format!("die/{}/{n}", set.id),
        &format!("{} {}", set.name, n + 1),
        "",
        crate::tts::things::Kind::Die(die),
    )
}
