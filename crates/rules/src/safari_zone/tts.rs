//! Safari Zone RNW's Tabletop Simulator export: the whole game as one saved object, with the
//! images it references.
//!
//! The images are the print pages rasterised (one design, two outputs): card faces from
//! `cards.typ` laid out on sprite sheets, die faces from `die-faces.typ` laid out on the d6
//! texture template, the Field Guide and Park Rules as the two sides of a tile per player. It
//! runs where the pages were typeset (the bounded worker, for the command line), through
//! [`super::exports::Export`].

use serde_json::{Value, json};
use typst_layout::{Page, PagedDocument};

use crate::backends::Output;
use crate::backends::print::cache::{self, Key, Reuse};
use crate::backends::tts::table::{AtSeat, FACING_WHITE, Rules, SeatShape, Seating, Table};
use crate::backends::tts::things::{self, Kind, Pose, Script, Shape, Thing, Tile};
use crate::backends::tts::{
    self, MAX_COLUMNS, MAX_ROWS, Png, card_scale, custom_deck, encoded, page_key, save_name,
    sprite_sheet,
};
use crate::raster::Image;
use crate::safari_zone::ruleset::Ruleset;

/// Safari Zone RNW's rules in Lua, for the Field Guide's script: the second reading of the
/// rules beside the engine, held to it by `tests/tts_replay.rs`.
pub const FIELD_GUIDE_RULES_LUA: &str = include_str!("field_guide_rules.lua");
/// The Field Guide's script on the table: the rules above, then the marks and buttons.
pub fn field_guide_lua() -> String {
    crate::backends::tts::table_script(&format!(
        "{FIELD_GUIDE_RULES_LUA}\n{}",
        include_str!("field_guide.lua")
    ))
}

/// The middle of the table, between the seats (x, z; as White sees it, x to the right and z
/// away): the Encounter Deck with the discard pile before it, the dice in a row a set, the
/// row of the setup and rules objects.
const DECK_AT: [f64; 3] = [-4.5, 1.0, 2.0];
const DISCARD_SPOT: [f64; 3] = [-4.5, 1.5, -2.0];
const DICE_AT: (f64, f64) = (-1.5, 3.0);
const CONTROLS_AT: (f64, f64) = (1.0, -3.0);
/// The Field Guide at the table: a tile of this scale is this many units deep (two a unit of
/// scale, docs/tabletop-simulator.md), about the printed sheet's size in inches.
const SHEET_SCALE: f64 = 6.0;
/// A seat: the sheet, with room either side, from the seat's inner edge the sheet (a unit in),
/// its controls and the cards its turns draw below it, and the hand zone behind them.
const SEAT_WIDTH_BESIDE_SHEET: f64 = 4.0;
const SHEET_BACK: f64 = 1.0 + SHEET_SCALE;
const HAND_BACK: f64 = SHEET_BACK + 3.0 * SHEET_SCALE + 4.5;

/// The Field Guide tile's resolution: sharp enough to read every label when zoomed in.
const SHEET_DPI: f64 = 150.0;

pub struct TtsOptions {
    /// Image URLs are `<asset_base>/<file>`.
    pub asset_base: String,
}

/// The documents the export draws from.
pub struct TtsSources<'a> {
    pub cards: &'a PagedDocument,
    pub sheet: Sheet<'a>,
    pub die_faces: &'a PagedDocument,
}

/// Where the Field Guide tiles come from.
pub enum Sheet<'a> {
    /// The Field Guide as typeset for this build.
    Pages(&'a PagedDocument),
    /// The tiles the session's last export drew from it (`BuildOptions::last_sheet`).
    Last(std::sync::Arc<SheetTiles>),
}

/// The Field Guide's two sides as the export last drew them, kept in a session's cache under
/// [`last_sheet_key`].
pub struct SheetTiles {
    front: std::sync::Arc<Png>,
    back: std::sync::Arc<Png>,
    /// Height over width of the front.
    aspect: f64,
}

impl cache::Weigh for SheetTiles {
    fn bytes(&self) -> usize {
        // The images are weighed under their own keys.
        0
    }
}

/// Where a session's cache keeps the last export's Field Guide tiles of a game.
pub(crate) fn last_sheet_key(game_id: &str) -> Key {
    cache::key(&("last sheet tiles", game_id))
}

/// The export's images as files under `tts/images/`, each named by its hash, and their URLs.
struct Published<'a> {
    outputs: Vec<Output>,
    base: &'a str,
}

impl Published<'_> {
    /// `png` as a file named `<stem>-<hash>.png`; its URL.
    fn publish(&mut self, stem: &str, png: std::sync::Arc<Png>) -> String {
        let file = format!("{stem}-{}.png", png.hash);
        let bytes = match std::sync::Arc::try_unwrap(png) {
            Ok(png) => png.bytes,
            Err(shared) => shared.bytes.clone(),
        };
        self.outputs.push(Output {
            path: format!("tts/images/{file}"),
            bytes,
        });
        format!("{}/{file}", self.base)
    }
}

/// The saved object, its thumbnail and its images, under `tts/`. With a cache (`reuse`),
/// images whose pages are as in an earlier build are not rasterised or encoded again: a
/// one-card edit redraws that card's face and encodes its sprite sheet, nothing else.
pub fn export(
    ruleset: &Ruleset,
    ruleset_json: &str,
    sources: &TtsSources,
    options: &TtsOptions,
    reuse: Reuse,
) -> Vec<Output> {
    let mut images = Published {
        outputs: Vec::new(),
        base: &options.asset_base,
    };
    let sheets = card_sheets(sources, reuse, &mut images);
    let face_down = Pose {
        face_down: true,
        ..middle_at(DECK_AT[0], DECK_AT[2])
    };
    let mut middle = vec![(encounter_deck(ruleset, &sheets), face_down)];
    let (dice, dice_roles) = dice(ruleset, sources, reuse, &mut images);
    middle.extend(dice);
    let (fewest, most) = (
        ruleset.parameters.players_min.max(1),
        ruleset.parameters.players_max.max(1),
    );
    let mut table = Table {
        game: ruleset.game.id.clone(),
        name: ruleset.game.name.clone(),
        players: (fewest.min(most), most),
        laid_out: most,
        middle,
        keep_clear: (0.0, 0.0),
        controls: CONTROLS_AT,
        blocks: Vec::new(),
        seat: SeatShape {
            width: SEAT_WIDTH_BESIDE_SHEET,
            hand_back: HAND_BACK,
            hand_width: SEAT_WIDTH_BESIDE_SHEET - 1.0,
        },
        seating: Default::default(),
        rules: Rules {
            format: safari_engine::ruleset::FORMAT.to_string(),
            version_key: "format_version",
            version: safari_engine::ruleset::FORMAT_VERSION,
            json: ruleset_json.to_string(),
        },
    };
    if let Some(tiles) = sheet_tiles(ruleset, sources, reuse) {
        let sheet = SeatSheet {
            front_url: images.publish("field-guide", std::sync::Arc::clone(&tiles.front)),
            back_url: images.publish("park-rules", std::sync::Arc::clone(&tiles.back)),
            aspect: tiles.aspect,
            wiring: json!({
                "rules": { "$guid": "ruleset" },
                "rules_name": tts::rules_name(&ruleset.game.name),
                "deck": { "$guid": "deck" },
                "deck_name": ruleset.deck.name,
                "deck_at": DECK_AT,
                "discard": DISCARD_SPOT,
                "dice": dice_roles,
                "colour": { "$seat": "colour" },
            }),
        };
        let width = 2.0 * SHEET_SCALE / sheet.aspect + SEAT_WIDTH_BESIDE_SHEET;
        table.seat.width = width;
        table.seat.hand_width = width - 1.0;
        table.seating = (fewest..=most)
            .map(|players| (players, seated(players, &sheet)))
            .collect();
    }
    let name = save_name(&ruleset.game.name);
    let mut outputs = images.outputs;
    outputs.push(Output {
        path: format!("tts/{name}.json"),
        bytes: tts::table::export(&table),
    });
    if let Some(bytes) = sheets.back.map(|back| thumbnail(back, reuse)) {
        outputs.push(Output {
            path: format!("tts/{name}.png"),
            bytes,
        });
    }
    outputs
}

/// A place in the middle, facing White.
fn middle_at(x: f64, z: f64) -> Pose {
    Pose {
        x,
        y: 1.0,
        z,
        turn: FACING_WHITE,
        face_down: false,
    }
}

/// The deck's faces on sprite sheets (one slot per design, copies share it; 70 to a sheet at
/// most) and its back, published; each design's card id.
struct CardSheets<'a> {
    custom: serde_json::Map<String, Value>,
    slot_of_design: Vec<u32>,
    back: Option<&'a Page>,
}

fn card_sheets<'a>(
    sources: &TtsSources<'a>,
    reuse: Reuse,
    images: &mut Published,
) -> CardSheets<'a> {
    let pages = sources.cards.pages();
    let (design_pages, back_page) = pages.split_at(pages.len().saturating_sub(1));
    let per_sheet = (MAX_COLUMNS * MAX_ROWS) as usize;
    let mut sheets = CardSheets {
        custom: serde_json::Map::new(),
        slot_of_design: Vec::new(),
        back: back_page.first(),
    };
    // One resolution for every sheet and the back: the one the fullest (first) sheet allows.
    let grid = |cards: usize| {
        let columns = (cards as u32).clamp(1, MAX_COLUMNS);
        (columns, (cards as u32).div_ceil(columns).clamp(1, MAX_ROWS))
    };
    let scale = sheets.back.map_or(1.0, |back| {
        let (columns, rows) = grid(design_pages.len().min(per_sheet));
        let size = back.frame.size();
        card_scale(size.x.to_pt(), size.y.to_pt(), columns, rows)
    });
    let back_url = sheets.back.map(|page| {
        let png = encoded(reuse, &|| page_key(page, scale), &|| {
            Image::of_page(page, scale, false)
        });
        images.publish("card-back", png)
    });
    for (sheet, chunk) in design_pages.chunks(per_sheet).enumerate() {
        let deck_id = sheet as u32 + 1;
        let (columns, rows) = grid(chunk.len());
        let faces: Vec<&Page> = chunk.iter().collect();
        let sprite = sprite_sheet(&faces, scale, (columns, rows), reuse);
        let face_url = images.publish(&format!("card-faces-{deck_id}"), sprite);
        sheets
            .slot_of_design
            .extend((0..chunk.len() as u32).map(|index| deck_id * 100 + index));
        sheets.custom.insert(
            deck_id.to_string(),
            custom_deck(
                &face_url,
                back_url.as_deref().unwrap_or_default(),
                columns,
                rows,
            ),
        );
    }
    sheets
}

/// The Encounter Deck: one Card per physical card, in deck order (each sheet shuffles it before
/// its first draw), face down and facing White: a card drawn with `flip` comes out face up.
fn encounter_deck(ruleset: &Ruleset, sheets: &CardSheets) -> Thing {
    let capture_dice: usize = ruleset
        .dice
        .iter()
        .filter(|set| set.role == super::model::DiceRole::Capture)
        .map(|set| set.dice.len())
        .sum();
    let mut cards = Vec::new();
    for (design, card) in ruleset.deck.cards.iter().enumerate() {
        let Some(&card_id) = sheets.slot_of_design.get(design) else {
            continue;
        };
        let species = ruleset
            .species
            .iter()
            .find(|s| s.id == card.species)
            .map_or(card.species.as_str(), |s| s.name.as_str());
        let description = card_description(ruleset, card, capture_dice);
        let memo = serde_json::to_string(card).expect("cards serialise");
        cards.extend((0..card.copies).map(|copy| things::Card {
            role: format!("card/{}/{copy}", card.id),
            name: species.to_string(),
            description: description.clone(),
            id: card_id,
            memo: memo.clone(),
        }));
    }
    Thing {
        role: "deck".to_string(),
        name: ruleset.deck.name.clone(),
        description: format!(
            "{} cards: shuffle, and draw one per habitat rolled.",
            cards.len()
        ),
        kind: Kind::Cards(things::Cards {
            cards,
            sheets: sheets.custom.clone(),
        }),
        locked: false,
        memo: String::new(),
        script: None,
    }
}

/// The dice, a row a set in the middle: a texture per die (dice alike share one), faces named
/// by their rotation values; and their roles by what they roll, for the Field Guides' scripts
/// to show what they roll.
fn dice(
    ruleset: &Ruleset,
    sources: &TtsSources,
    reuse: Reuse,
    images: &mut Published,
) -> (Vec<(Thing, Pose)>, serde_json::Map<String, Value>) {
    let faces_per_page: Vec<&Page> = sources.die_faces.pages().iter().collect();
    let mut next_face = 0;
    let mut textures: std::collections::HashMap<String, String> = Default::default();
    let mut placed = Vec::new();
    let mut by_role = serde_json::Map::new();
    for (set_index, set) in ruleset.dice.iter().enumerate() {
        for (die_index, die) in set.dice.iter().enumerate() {
            let pages =
                &faces_per_page[next_face..(next_face + die.len()).min(faces_per_page.len())];
            next_face += die.len();
            let key = format!("{die:?}");
            let url = match textures.get(&key) {
                Some(url) => String::clone(url),
                None => {
                    let texture = tts::die_texture(pages, reuse);
                    let url = images.publish(&format!("die-{}", set.id), texture);
                    textures.insert(key, url.clone());
                    url
                }
            };
            let role = format!("die/{}/{die_index}", set.id);
            let rolls = match set.role {
                super::model::DiceRole::Expedition => "expedition",
                super::model::DiceRole::Capture => "capture",
            };
            by_role
                .entry(rolls)
                .or_insert_with(|| Value::Array(Vec::new()))
                .as_array_mut()
                .expect("a list")
                .push(json!({ "$guid": role }));
            let thing = Thing {
                role,
                name: format!("{} {}", set.name, die_index + 1),
                description: String::new(),
                kind: Kind::Die(things::Die::D6 {
                    texture: url,
                    faces: die.iter().take(6).map(face_value).collect(),
                }),
                locked: false,
                memo: String::new(),
                script: None,
            };
            let at = middle_at(
                DICE_AT.0 + 1.6 * die_index as f64,
                DICE_AT.1 - 2.0 * set_index as f64,
            );
            placed.push((thing, at));
        }
    }
    (placed, by_role)
}

/// The Field Guide's two sides as tiles: the session's last ones, or drawn from the pages
/// (both at once; a side the cache has is not drawn again) and kept for the next build.
fn sheet_tiles(
    ruleset: &Ruleset,
    sources: &TtsSources,
    reuse: Reuse,
) -> Option<std::sync::Arc<SheetTiles>> {
    let document = match &sources.sheet {
        Sheet::Last(tiles) => return Some(std::sync::Arc::clone(tiles)),
        Sheet::Pages(document) => document,
    };
    let pages = document.pages();
    let (front, back) = pages.first().zip(pages.get(1))?;
    let scale = SHEET_DPI / 72.0;
    let side = |page: &Page| {
        encoded(reuse, &|| page_key(page, scale), &|| {
            Image::of_page(page, scale, false)
        })
    };
    let (front_png, back_png) = rayon::join(|| side(front), || side(back));
    let tiles = std::sync::Arc::new(SheetTiles {
        front: front_png,
        back: back_png,
        aspect: front.frame.height().to_pt() / front.frame.width().to_pt(),
    });
    if let Some(cache) = reuse.0 {
        cache.put(
            last_sheet_key(&ruleset.game.id),
            std::sync::Arc::clone(&tiles),
        );
    }
    Some(tiles)
}

/// The thumbnail: the card back, centred on a 256 px square.
fn thumbnail(back: &Page, reuse: Reuse) -> Vec<u8> {
    let size = back.frame.size();
    let scale = 256.0 / size.x.to_pt().max(size.y.to_pt());
    let png = reuse.get(
        || cache::key(&("thumbnail", page_key(back, scale))),
        || {
            let card = Image::of_page(back, scale, false);
            let mut square = Image::blank(256, 256);
            square.paste(
                &card,
                (256 - card.width.min(256)) / 2,
                (256 - card.height.min(256)) / 2,
                false,
            );
            square.png()
        },
    );
    cache::owned(png)
}

/// What every seat's Field Guide shows and is wired to.
struct SeatSheet {
    front_url: String,
    back_url: String,
    /// Height over width of the front.
    aspect: f64,
    /// The objects the sheet's script works with (the rules, the deck, the dice, where the
    /// discard pile goes, the seat's colour).
    wiring: Value,
}

/// Each of `players` seats' Field Guide, its script wired to the table and to its seat.
fn seated(players: u32, sheet: &SeatSheet) -> Seating {
    let seats = (0..players)
        .map(|player| {
            let tile = Thing {
                role: format!("field-guide/{player}"),
                name: format!("Field Guide ({})", tts::seat_colour(player as usize)),
                description: format!(
                    "Click a box to fill it when the rules let you; the buttons below play your turn. Flip it (F) for the Park Rules. ({:.3}:1)",
                    sheet.aspect
                ),
                // Unlocked, so that a player can flip it to the Park Rules and back.
                kind: Kind::Tile(Tile {
                    front: sheet.front_url.clone(),
                    back: sheet.back_url.clone(),
                    shape: Shape::Square,
                    height: 2.0 * SHEET_SCALE,
                    stackable: false,
                    held: false,
                }),
                locked: false,
                memo: String::new(),
                // The script marks the boxes; its state is the table's wiring, and then every
                // answer the game was given (field_guide.lua).
                script: Some(Script {
                    lua: field_guide_lua(),
                    state: json!({ "table": sheet.wiring }),
                }),
            };
            let at = AtSeat {
                across: 0.0,
                back: SHEET_BACK,
                y: 1.0,
                face_down: false,
            };
            vec![(tile, at)]
        })
        .collect();
    Seating {
        middle: Vec::new(),
        seats,
        deals: Vec::new(),
    }
}

fn face_value(face: &crate::safari_zone::ruleset::Face) -> String {
    match face {
        crate::safari_zone::ruleset::Face::Action(action) => {
            let name = action.name();
            let mut chars = name.chars();
            match chars.next() {
                Some(first) => first.to_uppercase().chain(chars).collect(),
                None => String::new(),
            }
        }
        crate::safari_zone::ruleset::Face::Number(n) => n.to_string(),
    }
}

fn card_description(
    ruleset: &Ruleset,
    card: &crate::safari_zone::ruleset::Card,
    capture_dice: usize,
) -> String {
    let mut parts = vec![format!(
        "Catch on {}+ ({capture_dice} capture dice)",
        card.capture_rate
    )];
    let habitats =
        "[G]".repeat(card.criteria.grass as usize) + &"[W]".repeat(card.criteria.water as usize);
    if !habitats.is_empty() {
        parts.push(format!("Found with {habitats}"));
    }
    if let Some(area) = &card.criteria.area {
        let title = ruleset
            .field_guide
            .sections
            .iter()
            .flat_map(|s| s.tracks.iter())
            .find(|t| &t.id == area)
            .and_then(|t| t.title.clone())
            .unwrap_or_else(|| area.clone());
        parts.push(format!("In {title}"));
    }
    if let Some(item) = &card.criteria.item {
        let name = ruleset
            .items
            .iter()
            .find(|i| &i.id == item)
            .map_or(item.as_str(), |i| i.name.as_str());
        parts.push(format!("With {name}"));
    }
    parts.join(" · ")
}
