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

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;
use serde_json::{Value, json};

use super::data::TableData;
use crate::Output;
use crate::components::{Keep, Table};
use crate::print::geometry::PaperSize;
use crate::print::plan::{Images, Sprite, SpriteLayout};
use crate::tts::{
    D6_ROTATIONS, DIE_FACE_PX, DIE_TEXTURE_PX, Guids, Layout, hand_zone, object, rules_lua,
    save_name, seat_colour, setup_object, short_hash, transform,
};

/// Resolution of every picture.
pub(crate) const DPI: f64 = 150.0;
/// A deck sheet's and a picture's limits, every export's (`crate::tts`).
const MAX_SHEET_PX: f64 = crate::tts::MAX_SHEET_PX as f64;
const MAX_COLUMNS: usize = crate::tts::MAX_COLUMNS as usize;
const MAX_ROWS: usize = crate::tts::MAX_ROWS as usize;
const MM_PER_UNIT: f64 = 25.4;
/// A tile at scale 1 is this many units on its short side.
const TILE_UNITS: f64 = 2.0;

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
        let mut guids = Guids {
            game: data.id.clone(),
            taken: Default::default(),
        };
        let objects = objects(data, table, &self.pictures, &url, &mut guids, ruleset_json);
        let saved = json!({
            "SaveName": data.name,
            "GameMode": "", "Date": "", "VersionNumber": "", "GameType": "", "GameComplexity": "",
            "Tags": [], "Gravity": 0.5, "PlayArea": 0.5, "Table": "", "Sky": "", "Note": "",
            "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
            "ObjectStates": objects,
            "TabStates": {},
        });
        let mut json_bytes =
            serde_json::to_vec_pretty(&saved).expect("the saved object serialises");
        json_bytes.push(b'\n');
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

fn at(object: &mut Value, x: f64, y: f64, z: f64) {
    object["Transform"]["posX"] = json!(x);
    object["Transform"]["posY"] = json!(y);
    object["Transform"]["posZ"] = json!(z);
}

fn tile_image(front: &str, back: &str, kind: u32, stackable: bool) -> Value {
    json!({
        "ImageURL": front,
        "ImageSecondaryURL": back,
        "ImageScalar": 1.0,
        "WidthScale": 0.0,
        "CustomTile": { "Type": kind, "Thickness": 0.1, "Stackable": stackable, "Stretch": true },
    })
}

fn objects(
    data: &TableData,
    table: &Table,
    pictures: &[Picture],
    url: &dyn Fn(&str) -> String,
    guids: &mut Guids,
    ruleset_json: &str,
) -> Vec<Value> {
    let mut objects = Vec::new();
    // The first setup is the one laid out (the smallest player count's).
    let laid_out = (table.manifest.players.0..=table.manifest.players.1)
        .find_map(|n| table.setup_for(n).map(|setup| (n, setup)));
    let setup = laid_out.map(|(_, setup)| setup);

    // Boards at the centre, locked.
    let mut board_units = Vec::new();
    for board in &data.boards {
        let (w, h) = (board.width / MM_PER_UNIT, board.height / MM_PER_UNIT);
        let mut object = object(
            "Custom_Board",
            guids.next(&format!("board/{}", board.id)),
            &board.name,
            "",
            transform(0.0, 0.0, 0.0, w.min(h) / TILE_UNITS),
        );
        object["Locked"] = json!(true);
        object["CustomImage"] = json!({ "ImageURL": url(&format!("board-{}", board.id)), "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0 });
        objects.push(object);
        board_units.push((w, h));
    }
    let right = board_units.iter().map(|b| b.0 / 2.0).fold(0.0, f64::max) + 3.0;

    // Whether some setup hands a token set's kinds to the players.
    let given = |token_ix: usize| {
        table
            .setups
            .iter()
            .any(|s| s.gives.iter().any(|g| g.tokens == token_ix && g.each_kind))
    };
    // What depends on the number of players: the decks as that count's setup deals them, each
    // seat's sheets, and each seat's hand zone. The table is laid out for the smallest count
    // that has a setup; the setup object holds the others.
    let seat_layout = |players: u32,
                       setup: Option<&crate::components::Setup>,
                       guids: &mut Guids|
     -> Vec<Value> {
        let mut seated = Vec::new();
        // Decks in a row below the board: face down, or face up when a setup stacks them so.
        for (ix, deck) in data.decks.iter().enumerate() {
            let face_up = setup.is_some_and(|s| s.stacks.iter().any(|k| k.deck == ix && k.face_up));
            let sheets: Vec<&Picture> = pictures
                .iter()
                .filter(|p| matches!(p.what, What::DeckSheet { deck: d, .. } if d == ix))
                .collect();
            let back = url(&format!("deck-{}-back", deck.id));
            let mut custom = serde_json::Map::new();
            let mut cards = Vec::new();
            let mut designs = Vec::new();
            for (sheet_ix, sheet) in sheets.iter().enumerate() {
                let What::DeckSheet {
                    first,
                    count,
                    columns,
                    rows,
                    ..
                } = sheet.what
                else {
                    continue;
                };
                let deck_id = 100 * (ix + 1) + sheet_ix + 1;
                custom.insert(
                    deck_id.to_string(),
                    crate::tts::custom_deck(
                        &url(stem(&sheet.file)),
                        &back,
                        columns as u32,
                        rows as u32,
                    ),
                );
                for design in first..first + count {
                    let card = &deck.designs[design];
                    for copy in 0..card.copies {
                        let id = deck_id * 100 + (design - first);
                        let mut description = card.text.clone();
                        if let Some(caption) = &card.caption {
                            description = format!("{description}\n{caption}").trim().to_string();
                        }
                        cards.push(crate::tts::card(
                            guids.next(&format!("card/{}/{}/{copy}", deck.id, card.id)),
                            &card.title,
                            &description,
                            id as u32,
                            transform(0.0, 0.0, 0.0, 1.0),
                        ));
                        designs.push(design);
                    }
                }
            }
            let x = -6.0 + 4.0 * ix as f64;
            let z = -(board_units.iter().map(|b| b.1 / 2.0).fold(0.0, f64::max) + 4.0);
            let description = deck_description(table, ix);
            // A pile of some of the deck's cards (by index): a `DeckCustom`, or a lone `Card`.
            let mut pile =
                |which: &[usize], role: &str, name: &str, face_up: bool, at_x: f64, at_z: f64| {
                    let mut object = match which {
                        [] => return None,
                        [one] => {
                            let mut card = cards[*one].clone();
                            if role == "/aside" {
                                card["Nickname"] = json!(format!(
                                    "{} (set aside)",
                                    card["Nickname"].as_str().unwrap_or_default()
                                ));
                            }
                            crate::tts::with_its_sheet(&mut card, &custom);
                            card
                        }
                        _ => crate::tts::deck(
                            guids.next(&format!("deck/{}{role}", deck.id)),
                            name,
                            &description,
                            which.iter().map(|c| cards[*c].clone()).collect(),
                            custom.clone(),
                            transform(0.0, 0.0, 0.0, 1.0),
                        ),
                    };
                    at(&mut object, at_x, 1.0, at_z);
                    if !face_up {
                        object["Transform"]["rotZ"] = json!(180.0);
                    }
                    Some(object)
                };
            let dealt = setup.and_then(|setup| deal(table, setup, players, ix, &designs));
            let Some(dealt) = dealt else {
                let all: Vec<usize> = (0..cards.len()).collect();
                seated.extend(pile(&all, "", &deck.name, face_up, x, z));
                continue;
            };
            // Hands in front of the seats, the grid beside the boards, what the setup sets aside
            // face up, and the rest as the draw pile.
            let seats = dealt.hands.len() as f64;
            for (seat, hand) in dealt.hands.iter().enumerate() {
                let name = format!("{}: {}'s hand", deck.name, seat_colour(seat));
                let hand_x = (seat as f64 - (seats - 1.0) / 2.0) * 8.0;
                seated.extend(pile(
                    hand,
                    &format!("/hand/{}", seat + 1),
                    &name,
                    false,
                    hand_x,
                    z - 8.0,
                ));
            }
            for (grid, rows, columns, face_up) in &dealt.grids {
                let width = CARD_STEP.0 * *columns as f64;
                let height = CARD_STEP.1 * *rows as f64;
                let left = if board_units.is_empty() {
                    -width / 2.0
                } else {
                    right
                } + CARD_STEP.0 / 2.0;
                for (k, card) in grid.iter().enumerate() {
                    let (row, column) = (k / *columns as usize, k % *columns as usize);
                    let card_x = left + CARD_STEP.0 * column as f64;
                    // Above the row of decks; beside the boards, level with them.
                    let top = if board_units.is_empty() {
                        height
                    } else {
                        height / 2.0
                    };
                    let card_z = top - CARD_STEP.1 * (row as f64 + 0.5);
                    seated.extend(pile(&[*card], "", &deck.name, *face_up, card_x, card_z));
                }
            }
            let aside = format!("{}: set aside", deck.name);
            seated.extend(pile(&dealt.removed, "/aside", &aside, true, x + 3.0, z));
            seated.extend(pile(&dealt.rest, "", &deck.name, face_up, x, z));
        }

        // Each seat gets its sheets in a pile in front of it, below the hands (the boards,
        // without decks), the seats as far apart as the widest sheet: players write on them with
        // the game's drawing tools.
        let seats = players;
        let deck_row = -(board_units.iter().map(|b| b.1 / 2.0).fold(0.0, f64::max) + 4.0);
        let largest = |side: fn(&PaperSize) -> f64| {
            data.sheets
                .iter()
                .map(|s| side(&s.paper))
                .fold(0.0, f64::max)
                / MM_PER_UNIT
        };
        let (widest, tallest) = (largest(|p| p.width), largest(|p| p.height));
        let top = match data.decks.is_empty() {
            true => deck_row + 2.0,
            false => deck_row - 8.0 - CARD_STEP.1,
        };
        let sheet_z = top - tallest / 2.0;
        for (k, sheet) in data.sheets.iter().enumerate() {
            let (sheet_w, sheet_h) = (
                sheet.paper.width / MM_PER_UNIT,
                sheet.paper.height / MM_PER_UNIT,
            );
            for seat in 0..seats {
                let x = (seat as f64 - (seats as f64 - 1.0) / 2.0) * (widest + 1.0);
                let mut object = object(
                    "Custom_Tile",
                    guids.next(&format!("sheet/{}/{}", sheet.id, seat + 1)),
                    &format!("{}: {}", sheet.name, seat_colour(seat as usize)),
                    "",
                    transform(x, sheet_z, 0.0, sheet_w.min(sheet_h) / TILE_UNITS),
                );
                object["Transform"]["posY"] = json!(1.0 + 0.2 * k as f64);
                let picture = url(&format!("sheet-{}", sheet.id));
                object["CustomImage"] = tile_image(&picture, "", 0, false);
                seated.push(object);
            }
        }

        // A hand zone per seat, where its hand is dealt (or in front of its sheets).
        let hand_row = match data.decks.is_empty() {
            true => sheet_z - tallest / 2.0 - 3.0,
            false => deck_row - 8.0,
        };
        // The token sets the setups hand out: a kind to each seat, as this count's setup says,
        // in a stack by the seat's hand zone; the kinds left over (or a set this count does
        // not hand out) in stacks to the right of the seats.
        let mut aside_x = (players as f64 + 1.0) / 2.0 * 8.0;
        for (token_ix, set) in data.tokens.iter().enumerate() {
            if !given(token_ix) {
                continue;
            }
            let each_kind =
                setup.is_some_and(|s| s.gives.iter().any(|g| g.tokens == token_ix && g.each_kind));
            for (kind_ix, k) in set.kinds.iter().enumerate() {
                let seat = (each_kind && (kind_ix as u32) < players).then_some(kind_ix);
                let (x, z) = match seat {
                    Some(seat) => (
                        (seat as f64 - (players as f64 - 1.0) / 2.0) * 8.0 + 2.5,
                        hand_row + 3.5,
                    ),
                    None => {
                        aside_x += 2.0;
                        (aside_x, hand_row + 3.5)
                    }
                };
                for copy in 0..k.count {
                    let mut object = piece(data, set, kind_ix, copy, guids, url);
                    at(&mut object, x, 1.0 + 0.15 * copy as f64, z);
                    if let Some(seat) = seat {
                        object["Description"] =
                            json!(format!("{}: {}'s", set.name, seat_colour(seat)));
                    }
                    seated.push(object);
                }
            }
        }
        for seat in 0..players {
            let x = (seat as f64 - (players as f64 - 1.0) / 2.0) * 8.0;
            seated.push(hand_zone(
                guids.next(&format!("hand/{}", seat + 1)),
                seat_colour(seat as usize),
                x,
                hand_row,
                7.5,
            ));
        }
        seated
    };
    let players = laid_out.map_or(table.manifest.players.0, |(players, _)| players);
    let before = guids.clone();
    let seated = seat_layout(players, setup, guids);
    let laid_guids: Vec<String> = seated
        .iter()
        .map(|o| o["GUID"].as_str().unwrap_or_default().to_string())
        .collect();
    objects.extend(seated);

    // Tiles in a bag; tokens in a bag or a stack per kind, as the content keeps them.
    let mut set_guids = serde_json::Map::new();
    let mut z = 6.0;
    for (set_ix, set) in data.tiles.iter().chain(&data.tokens).enumerate() {
        let is_token = set_ix >= data.tiles.len();
        let keep = if is_token {
            table.tokens[set_ix - data.tiles.len()].keep
        } else {
            Keep::Bag
        };
        // A set whose kinds the setups hand to the players lies in front of the seats.
        if is_token && given(set_ix - data.tiles.len()) {
            continue;
        }
        let piece = |guids: &mut Guids, kind_ix: usize, copy: u32| {
            piece(data, set, kind_ix, copy, guids, url)
        };
        match keep {
            Keep::Bag => {
                let mut contained = Vec::new();
                for (kind_ix, k) in set.kinds.iter().enumerate() {
                    for copy in 0..k.count {
                        contained.push(piece(guids, kind_ix, copy));
                    }
                }
                let mut bag = object(
                    "Bag",
                    guids.next(&format!("bag/{}", set.id)),
                    &set.name,
                    &format!("{} pieces", contained.len()),
                    transform(right, z, 0.0, 1.0),
                );
                bag["ContainedObjects"] = Value::Array(contained);
                set_guids.insert(set.id.clone(), bag["GUID"].clone());
                objects.push(bag);
                z -= 3.0;
            }
            Keep::Stack => {
                for (kind_ix, k) in set.kinds.iter().enumerate() {
                    for copy in 0..k.count {
                        let mut object = piece(guids, kind_ix, copy);
                        at(
                            &mut object,
                            right + 2.5 * kind_ix as f64,
                            1.0 + 0.15 * copy as f64,
                            z,
                        );
                        objects.push(object);
                    }
                }
                z -= 3.0;
            }
        }
    }

    // Dice beside the bags.
    let mut die_x = right;
    for set in &data.dice {
        for n in 0..set.count {
            let object = die(data, set, n, guids, url, die_x, z);
            objects.push(object);
            die_x += 1.5;
        }
    }
    z -= 3.0;

    // Pieces: on their setup cells when placed, else in a row.
    let mut loose_x = right;
    for (set_ix, set) in data.pieces.iter().enumerate() {
        let scale = set.size / MM_PER_UNIT / TILE_UNITS;
        for (piece_ix, piece) in set.pieces.iter().enumerate() {
            let picture = url(&format!("standee-{}-{}", set.id, piece.id));
            let back = url(&format!("standee-back-{}-{}", set.id, piece.id));
            let mut object = object(
                "Figurine_Custom",
                guids.next(&format!("figure/{}/{}", set.id, piece.id)),
                &data.symbols[&piece.symbol].label,
                &set.name,
                transform(0.0, 0.0, 0.0, scale),
            );
            // The front faces the way the piece does; the back shows that it is the back.
            object["CustomImage"] =
                json!({ "ImageURL": picture, "ImageSecondaryURL": back, "ImageScalar": 1.0 });
            let placed =
                setup.and_then(|s| s.places.iter().find(|p| p.piece == (set_ix, piece_ix)));
            match placed {
                Some(place) => {
                    let board = &data.boards[place.board];
                    let x = (board.frame + (place.at.column as f64 + 0.5) * board.cell
                        - board.width / 2.0)
                        / MM_PER_UNIT;
                    let z = -(board.frame + (place.at.row as f64 + 0.5) * board.cell
                        - board.height / 2.0)
                        / MM_PER_UNIT;
                    at(&mut object, x, 1.5, z);
                    let facing = place.facing.map_or(0.0, |f| match f {
                        crate::components::Facing::North => 180.0,
                        crate::components::Facing::East => 270.0,
                        crate::components::Facing::South => 0.0,
                        crate::components::Facing::West => 90.0,
                    });
                    object["Transform"]["rotY"] = json!(facing);
                }
                None => {
                    at(&mut object, loose_x, 1.5, z);
                    loose_x += 1.5;
                }
            }
            objects.push(object);
        }
    }

    // The setup object: the table for every other number of players.
    let (fewest, most) = table.manifest.players;
    if fewest < most {
        let layouts = (fewest..=most)
            .map(|count| {
                if count == players {
                    return (count, Layout::default());
                }
                let mut guids = before.clone();
                let spawn = seat_layout(count, table.setup_for(count), &mut guids);
                (
                    count,
                    Layout {
                        remove: laid_guids.clone(),
                        spawn,
                    },
                )
            })
            .collect();
        objects.push(setup_object(
            guids.next("setup"),
            &data.name,
            players,
            layouts,
            transform(-right, 4.0, FACING_THE_SEATS, 1.0),
        ));
    }

    // The rules object: the ruleset in its saved state.
    let mut rules = object(
        "BlockSquare",
        guids.next("ruleset"),
        &format!("{} ruleset", data.name),
        "The game's rules as data, for scripts: call getRuleset() on this object.",
        transform(-right, 0.0, FACING_THE_SEATS, 1.0),
    );
    rules["LuaScript"] = json!(rules_lua(
        super::ruleset::FORMAT,
        "version",
        super::ruleset::VERSION,
    ));
    rules["LuaScriptState"] = json!(ruleset_json);
    rules["Locked"] = json!(true);
    // The rules module's own scripted object, wired to the rules object and the sets' bags.
    if let Some(script) = &data.table_script {
        let mut object = object(
            "BlockSquare",
            guids.next("rules-script"),
            &script.name,
            &script.description,
            transform(-right, 8.0, FACING_THE_SEATS, 1.0),
        );
        object["LuaScript"] = json!(crate::tts::table_script(script.lua));
        object["LuaScriptState"] = json!(
            json!({
                "rules": rules["GUID"],
                "rules_name": rules["Nickname"],
                "format": super::ruleset::FORMAT,
                "version": super::ruleset::VERSION,
                "sets": set_guids,
                "mm_per_unit": MM_PER_UNIT,
                // Left of the decks and above the sheets: where nothing else lies.
                "origin": [-10.0, 10.0],
            })
            .to_string()
        );
        object["Locked"] = json!(true);
        objects.push(object);
    }
    objects.push(rules);
    objects
}

/// One piece of a tile or token set: copy `copy` of its kind `kind_ix`.
fn piece(
    data: &TableData,
    set: &super::data::SetData,
    kind_ix: usize,
    copy: u32,
    guids: &mut Guids,
    url: &dyn Fn(&str) -> String,
) -> Value {
    let kind = match set.shape {
        "hex" => 1,
        "round" => 2,
        _ => 0,
    };
    let shape = if set.shape == "hex" { "hex" } else { "square" };
    let scale = (set.size / MM_PER_UNIT) / TILE_UNITS;
    let face = |symbol: &str| url(&format!("{shape}-{symbol}-{}", set.size.round()));
    let k = &set.kinds[kind_ix];
    let label = &data.symbols[&k.symbol].label;
    let back = k.back.as_deref().map(face).unwrap_or_default();
    let mut object = object(
        "Custom_Tile",
        guids.next(&format!("piece/{}/{}/{copy}", set.id, k.symbol)),
        label,
        &set.name,
        transform(0.0, 0.0, 0.0, scale),
    );
    object["CustomImage"] = tile_image(&face(&k.symbol), &back, kind, true);
    object
}

/// The turn (rotY) of an object read from the seats along the table's −z side: its image's top
/// and its buttons' labels away from them (docs/tabletop-simulator.md).
const FACING_THE_SEATS: f64 = 180.0;

/// The spacing of cards laid in a grid, in game units (a card at scale 1 is about 2.2 x 3.1).
const CARD_STEP: (f64, f64) = (2.6, 3.6);

/// A deck's cards as the laid-out setup deals them (indices into the deck's cards): each
/// player's hand, the grids, the cards set aside, and the rest. `None` when the setup does
/// not deal, lay or remove this deck's cards. The order is a shuffle seeded by the game and
/// the deck, so the save is the same from build to build.
struct Dealt {
    hands: Vec<Vec<usize>>,
    grids: Vec<(Vec<usize>, u32, u32, bool)>,
    removed: Vec<usize>,
    rest: Vec<usize>,
}

fn deal(
    table: &Table,
    setup: &crate::components::Setup,
    players: u32,
    deck: usize,
    designs: &[usize],
) -> Option<Dealt> {
    use rand::SeedableRng;
    use rand::seq::SliceRandom;
    let deals: Vec<_> = setup.deals.iter().filter(|d| d.deck == deck).collect();
    let grids: Vec<_> = setup.grids.iter().filter(|g| g.deck == deck).collect();
    let removes: Vec<_> = setup.removes.iter().filter(|r| r.deck == deck).collect();
    if deals.is_empty() && grids.is_empty() && removes.is_empty() {
        return None;
    }
    let seed = short_hash(format!("{}\0{deck}", table.manifest.id).as_bytes());
    let seed = u64::from_str_radix(&seed[..8], 16).unwrap_or(0);
    let mut order: Vec<usize> = (0..designs.len()).collect();
    order.shuffle(&mut rand_pcg::Pcg64Mcg::seed_from_u64(seed));
    let mut removed = Vec::new();
    for remove in removes {
        if let Some(k) = order.iter().position(|c| designs[*c] == remove.card) {
            removed.push(order.remove(k));
        }
    }
    let mut take = |n: usize| -> Vec<usize> { order.drain(..n.min(order.len())).collect() };
    let mut hands = vec![
        Vec::new();
        if deals.is_empty() {
            0
        } else {
            players as usize
        }
    ];
    for deal in &deals {
        for hand in &mut hands {
            hand.extend(take(deal.each as usize));
        }
    }
    let grids = grids
        .iter()
        .map(|g| {
            (
                take((g.rows * g.columns) as usize),
                g.rows,
                g.columns,
                g.face_up,
            )
        })
        .collect();
    Some(Dealt {
        hands,
        grids,
        removed,
        rest: order,
    })
}

/// A deck's description: how each player count's setup uses it.
fn deck_description(table: &Table, ix: usize) -> String {
    let mut lines = Vec::new();
    for setup in &table.setups {
        let mut what = Vec::new();
        for deal in setup.deals.iter().filter(|d| d.deck == ix) {
            what.push(format!("deal {} to each player", deal.each));
        }
        for grid in setup.grids.iter().filter(|g| g.deck == ix) {
            what.push(format!(
                "lay {} rows of {} face {}",
                grid.rows,
                grid.columns,
                if grid.face_up { "up" } else { "down" }
            ));
        }
        for stack in setup.stacks.iter().filter(|k| k.deck == ix) {
            what.push(format!(
                "stack face {}",
                if stack.face_up { "up" } else { "down" }
            ));
        }
        for remove in setup.removes.iter().filter(|r| r.deck == ix) {
            what.push(format!(
                "remove {}",
                table.decks[ix].cards[remove.card].title
            ));
        }
        if !what.is_empty() {
            let players: Vec<String> = setup.players.iter().map(u32::to_string).collect();
            lines.push(format!(
                "{} players: {}",
                players.join(", "),
                what.join(", ")
            ));
        }
    }
    lines.join("\n")
}

/// A die: a `Custom_Dice` d6 with its texture; other types are Tabletop Simulator's own dice
/// of that type, their faces listed in the description (there is no verified texture layout
/// for them).
fn die(
    data: &TableData,
    set: &super::data::DiceData,
    n: u32,
    guids: &mut Guids,
    url: &dyn Fn(&str) -> String,
    x: f64,
    z: f64,
) -> Value {
    let faces: Vec<String> = set
        .faces
        .iter()
        .map(|f| match f {
            super::data::FaceData::Number(n) => n.to_string(),
            super::data::FaceData::Symbol(s) => data.symbols[s].label.clone(),
        })
        .collect();
    let guid = guids.next(&format!("die/{}/{n}", set.id));
    let name = format!("{} {}", set.name, n + 1);
    if set.die == "d6" {
        let mut object = object("Custom_Dice", guid, &name, "", transform(x, z, 0.0, 1.0));
        object["CustomImage"] = json!({
            "ImageURL": url(&format!("die-{}", set.id)),
            "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0,
            "CustomDice": { "Type": 1 },
        });
        object["RotationValues"] = Value::Array(
            faces
                .iter()
                .zip(D6_ROTATIONS)
                .map(|(value, [x, y, z])| json!({ "Value": value, "Rotation": { "x": x, "y": y, "z": z } }))
                .collect(),
        );
        object
    } else {
        let builtin = format!("Die_{}", set.die.trim_start_matches('d'));
        let listed: Vec<String> = faces
            .iter()
            .enumerate()
            .map(|(i, f)| format!("{}: {f}", i + 1))
            .collect();
        object(
            &builtin,
            guid,
            &name,
            &format!("Faces: {}", listed.join(", ")),
            transform(x, z, 0.0, 1.0),
        )
    }
}
