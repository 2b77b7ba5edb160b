//! What every Tabletop Simulator export shares: where its images are found, stable object
//! GUIDs, the fields every object has, the d6 texture's cells, the rules object's Lua. Each
//! game's export (a rules module's, or the component layer's `table::tts`) builds its saved
//! object from these.
//!
//! Every image is named by its content hash, since Tabletop Simulator caches images by URL.
//! Object GUIDs are derived from the game and the object's role, so the JSON is the same
//! from build to build.

use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use typst_layout::Page;

use super::print::cache::{self, Key};

pub mod seats;
pub mod table;
pub mod things;

/// The largest side of a sprite sheet Tabletop Simulator loads reliably.
pub(crate) const MAX_SHEET_PX: u32 = 4096;
/// A deck sheet holds at most 10 x 7 cards.
pub const MAX_COLUMNS: u32 = 10;
pub const MAX_ROWS: u32 = 7;
/// The d6 texture: 2048 px square, faces about 613 px, in the template's cells.
pub const DIE_TEXTURE_PX: u32 = 2048;
pub const DIE_FACE_PX: u32 = 613;
/// (x, y) of faces 1 to 6 in the texture, and whether the face is drawn upside down.
pub const DIE_CELLS: [(u32, u32, bool); 6] = [
    (27, 1408, true),
    (27, 717, false),
    (717, 1408, false),
    (717, 717, false),
    (1406, 717, false),
    (1406, 1408, true),
];
/// How Tabletop Simulator turns a d6 to show each face up (the built-in die's values).
pub const D6_ROTATIONS: [[i32; 3]; 6] = [
    [-90, 0, 0],
    [0, 0, 0],
    [0, 0, -90],
    [0, 0, 90],
    [0, 0, -180],
    [90, 0, 0],
];
/// Where the export's images are found by the game.
#[derive(Debug, Clone)]
pub enum AssetBase {
    /// Image URLs are `<url>/<file>` (a web host, the Steam Cloud).
    Url(String),
    /// The images stay where the build writes them, under this output folder:
    /// `file:///<folder>/<game>/tts/images/<file>`.
    OutputFolder(std::path::PathBuf),
}

impl AssetBase {
    /// The URL image file names are appended to, for the game with this id.
    pub fn url(&self, game_id: &str) -> String {
        match self {
            AssetBase::Url(url) => url.trim_end_matches('/').to_string(),
            AssetBase::OutputFolder(out) => file_url(&out.join(game_id).join("tts/images")),
        }
    }
}

/// A `file:///` URL for a folder (made absolute; it need not exist yet).
pub fn file_url(path: &std::path::Path) -> String {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let text = absolute.to_string_lossy().replace('\\', "/");
    let encoded: String = text
        .trim_start_matches('/')
        .chars()
        .map(|c| match c {
            ' ' => "%20".to_string(),
            '#' => "%23".to_string(),
            '?' => "%3F".to_string(),
            c => c.to_string(),
        })
        .collect();
    format!("file:///{encoded}")
}

/// The saved object's file name: the game's name, letters and digits only.
pub fn save_name(game_name: &str) -> String {
    let name: String = game_name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect();
    if name.is_empty() {
        "SafariGame".to_string()
    } else {
        name
    }
}

pub(crate) fn short_hash(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .take(5)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Stable 6-hex GUIDs for the objects of one game: a hash of the game and the object's role,
/// re-hashed in the rare case two roles meet on the same six digits.
#[derive(Clone)]
pub struct Guids {
    game: String,
    taken: std::collections::HashSet<String>,
    /// Each role's first GUID.
    named: std::collections::HashMap<String, String>,
}

impl Guids {
    pub fn new(game: &str) -> Guids {
        Guids {
            game: game.to_string(),
            taken: Default::default(),
            named: Default::default(),
        }
    }

    pub fn next(&mut self, role: &str) -> String {
        let mut salt = 0u32;
        loop {
            let digest = Sha256::digest(format!("{}\0{role}\0{salt}", self.game).as_bytes());
            let guid: String = digest.iter().take(3).map(|b| format!("{b:02x}")).collect();
            if self.taken.insert(guid.clone()) {
                self.named.entry(role.to_string()).or_insert(guid.clone());
                return guid;
            }
            salt += 1;
        }
    }

    /// The GUID the thing of `role` was given first.
    pub fn of(&self, role: &str) -> Option<String> {
        self.named.get(role).cloned()
    }

    /// Takes in the roles another `Guids` (a clone of this one) named.
    fn merge(&mut self, other: Guids) {
        self.taken.extend(other.taken);
        for (role, guid) in other.named {
            self.named.entry(role).or_insert(guid);
        }
    }
}

/// The fields every object has, filled in.
pub fn object(name: &str, guid: String, nickname: &str, description: &str, at: Value) -> Value {
    json!({
        "GUID": guid,
        "Name": name,
        "Transform": at,
        "Nickname": nickname,
        "Description": description,
        "GMNotes": "",
        "Memo": "",
        "Tags": [],
        "LuaScript": "",
        "LuaScriptState": "",
        "XmlUI": "",
        "Locked": false,
        "Grid": true,
        "Snap": true,
        "Autoraise": true,
        "Sticky": true,
        "Tooltip": true,
        "HideWhenFaceDown": false,
        "Hands": false,
    })
}

/// The seats' colours in Tabletop Simulator, in seat order.
pub(crate) const SEAT_COLOURS: [&str; 10] = [
    "White", "Red", "Yellow", "Green", "Blue", "Orange", "Purple", "Pink", "Teal", "Brown",
];

/// The colour of seat `seat` (from 0).
pub fn seat_colour(seat: usize) -> &'static str {
    SEAT_COLOURS[seat % SEAT_COLOURS.len()]
}

/// A hand zone of the seat of `colour`, centred at (`x`, `z`) and `width` units wide: cards in
/// it are that player's hand, hidden from the others. The first hand zone of a colour is also
/// where that player sits.
pub fn hand_zone(guid: String, colour: &str, x: f64, z: f64, width: f64) -> Value {
    let mut zone = object(
        "HandTrigger",
        guid,
        &format!("{colour}'s hand"),
        "",
        json!({
            "posX": x, "posY": 3.0, "posZ": z,
            "rotX": 0.0, "rotY": 0.0, "rotZ": 0.0,
            "scaleX": width, "scaleY": 6.0, "scaleZ": 4.5,
        }),
    );
    zone["FogColor"] = json!(colour);
    zone["Locked"] = json!(true);
    zone["Grid"] = json!(false);
    zone["Snap"] = json!(false);
    zone["LayoutGroupSortIndex"] = json!(0);
    zone["Value"] = json!(0);
    zone
}

/// What the setup object does for one number of players: the objects it takes away (by GUID),
/// the objects it moves (by GUID, to the place and turn of a `Transform`), the objects it
/// puts out, and the decks it shuffles and deals (`setup.lua`'s `deal`: `deck`, a GUID;
/// `each`, cards to every one of `colours`' hands; `cells`, a card to each place and turn).
#[derive(Debug, Default)]
pub struct Layout {
    pub remove: Vec<String>,
    pub moves: Vec<(String, Value)>,
    pub spawn: Vec<Value>,
    pub deals: Vec<Value>,
}

impl Layout {
    /// The table laid out as `objects` (objects with GUIDs) from a table laid out as `laid`:
    /// what both have alike but for its place is moved, what only `laid` has (or has otherwise:
    /// a deck of other cards) is taken away, what only `objects` has is put out.
    pub fn from_to(laid: &[Value], objects: Vec<Value>) -> Layout {
        let guid = |o: &Value| o["GUID"].as_str().unwrap_or_default().to_string();
        let unplaced = |o: &Value| {
            let mut o = o.clone();
            o["Transform"] = Value::Null;
            o
        };
        let before: std::collections::HashMap<String, &Value> =
            laid.iter().map(|o| (guid(o), o)).collect();
        let mut layout = Layout::default();
        let mut kept = std::collections::HashSet::new();
        for object in objects {
            match before.get(&guid(&object)) {
                Some(was) if unplaced(was) == unplaced(&object) => {
                    kept.insert(guid(&object));
                    layout
                        .moves
                        .push((guid(&object), object["Transform"].clone()));
                }
                _ => layout.spawn.push(object),
            }
        }
        layout.remove = laid
            .iter()
            .map(guid)
            .filter(|g| !kept.contains(g))
            .collect();
        layout
    }
}

/// The setup object: it asks how many play when the table loads and sets the table for that
/// many (`tts/setup.lua`), the save being laid out for `laid_out` players.
pub fn setup_object(
    guid: String,
    game_name: &str,
    laid_out: u32,
    layouts: std::collections::BTreeMap<u32, Layout>,
    at: Value,
) -> Value {
    let mut setup = object(
        "BlockSquare",
        guid,
        &format!("{game_name}: how many players?"),
        &format!(
            "Click the number of players: the table is laid out for {laid_out}, and is set for the number chosen."
        ),
        at,
    );
    let counts: Vec<u32> = layouts.keys().copied().collect();
    let layouts: serde_json::Map<String, Value> = layouts
        .into_iter()
        .map(|(players, layout)| {
            let moves: Vec<Value> = layout
                .moves
                .iter()
                .map(|(guid, at)| {
                    json!({
                        "guid": guid,
                        "position": [at["posX"], at["posY"], at["posZ"]],
                        "rotation": [at["rotX"], at["rotY"], at["rotZ"]],
                    })
                })
                .collect();
            (
                players.to_string(),
                json!({
                    "remove": layout.remove, "move": moves, "spawn": layout.spawn,
                    "deal": layout.deals,
                }),
            )
        })
        .collect();
    setup["LuaScript"] = json!(table_script(include_str!("setup.lua")));
    setup["LuaScriptState"] =
        json!(json!({ "counts": counts, "laid_out": laid_out, "layouts": layouts }).to_string());
    setup["Locked"] = json!(true);
    setup
}

/// The saved object's JSON: the save's own fields left empty (a saved object is spawned into
/// a table, not loaded as one), and `objects`.
pub fn saved_object(game_name: &str, objects: Vec<Value>) -> Vec<u8> {
    let saved = json!({
        "SaveName": game_name,
        "GameMode": "", "Date": "", "VersionNumber": "", "GameType": "", "GameComplexity": "",
        "Tags": [], "Gravity": 0.5, "PlayArea": 0.5, "Table": "", "Sky": "", "Note": "",
        "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
        "ObjectStates": objects,
        "TabStates": {},
    });
    let mut bytes = serde_json::to_vec_pretty(&saved).expect("the saved object serialises");
    bytes.push(b'\n');
    bytes
}

/// The rules object of a game named `game_name`: the ruleset (of `format`, whose
/// `version_key` is `version`) in its saved state, handed to the table's other scripts by
/// `rules.lua`; locked.
pub fn rules_object(
    guid: String,
    game_name: &str,
    (format, version_key, version): (&str, &str, u32),
    ruleset_json: &str,
    at: Value,
) -> Value {
    let mut rules = object(
        "BlockSquare",
        guid,
        &rules_name(game_name),
        "The game's rules as data, for scripts: call getRuleset() on this object.",
        at,
    );
    rules["LuaScript"] = json!(rules_lua(format, version_key, version));
    rules["LuaScriptState"] = json!(ruleset_json);
    rules["Locked"] = json!(true);
    rules
}

/// The rules object's name, by which scripts find it when its GUID was taken.
pub fn rules_name(game_name: &str) -> String {
    format!("{game_name} ruleset")
}

/// A six-sided `Custom_Dice` showing the texture at `url` (faces in the template's cells,
/// `die_texture`), its faces named `faces` in the template's order: the game shows the name of
/// the face that lands up.
pub fn custom_d6(guid: String, name: &str, url: &str, faces: &[String], at: Value) -> Value {
    let mut die = object("Custom_Dice", guid, name, "", at);
    die["CustomImage"] = json!({
        "ImageURL": url,
        "ImageSecondaryURL": "",
        "ImageScalar": 1.0,
        "WidthScale": 0.0,
        "CustomDice": { "Type": 1 },
    });
    die["RotationValues"] = Value::Array(
        faces
            .iter()
            .zip(D6_ROTATIONS)
            .map(|(value, [x, y, z])| {
                json!({ "Value": value, "Rotation": { "x": x, "y": y, "z": z } })
            })
            .collect(),
    );
    die
}

/// Makes a card or a deck what players expect of one: it can be held in a hand, and face down
/// it hides its face and name (Tabletop Simulator's own default for cards).
pub fn held_in_hands(object: &mut Value) {
    object["Hands"] = json!(true);
    object["HideWhenFaceDown"] = json!(true);
}

/// One sheet of a deck's faces, as a `CustomDeck` entry: its sprite sheet (`columns` by
/// `rows` faces) and the back every card of it shares.
pub fn custom_deck(face_url: &str, back_url: &str, columns: u32, rows: u32) -> Value {
    json!({
        "FaceURL": face_url,
        "BackURL": back_url,
        "NumWidth": columns,
        "NumHeight": rows,
        "BackIsHidden": true,
        "UniqueBack": false,
        "Type": 0,
    })
}

/// A card: the face at `card_id` (the sheet's id times 100, plus the face's place on it), held
/// in hands and hidden face down.
pub fn card(guid: String, name: &str, description: &str, card_id: u32, at: Value) -> Value {
    let mut card = object("Card", guid, name, description, at);
    card["CardID"] = json!(card_id);
    held_in_hands(&mut card);
    card
}

/// The sheet a card's face is on (`custom` holds every sheet of its deck) given to the card,
/// as a card alone on the table needs it.
pub fn with_its_sheet(card: &mut Value, custom: &serde_json::Map<String, Value>) {
    let sheet = (card["CardID"].as_u64().unwrap_or_default() / 100).to_string();
    card["CustomDeck"] =
        json!({ sheet.clone(): custom.get(&sheet).cloned().unwrap_or(Value::Null) });
}

/// A deck of `cards` (made by [`card`]) in that order, top first, over the sheets in `custom`.
pub fn deck(
    guid: String,
    name: &str,
    description: &str,
    cards: Vec<Value>,
    custom: serde_json::Map<String, Value>,
    at: Value,
) -> Value {
    let mut deck = object("DeckCustom", guid, name, description, at);
    let ids: Vec<Value> = cards.iter().map(|card| card["CardID"].clone()).collect();
    deck["DeckIDs"] = Value::Array(ids);
    deck["CustomDeck"] = Value::Object(custom);
    deck["ContainedObjects"] = Value::Array(cards);
    held_in_hands(&mut deck);
    deck
}

/// Why `base` cannot be where the save's images are found, if it cannot: Tabletop Simulator
/// loads images over HTTP(S) or from a `file:///` path, and each image's URL is `base/<file>`,
/// so a query or a fragment (a share link's `?dl=0`) would end up before the file's name.
pub fn asset_base_fault(base: &str) -> Option<String> {
    let lower = base.to_ascii_lowercase();
    // A web address names a host after its scheme; a file address a path after `file:///`.
    let scheme_ok = ["https://", "http://"].iter().any(|scheme| {
        lower
            .strip_prefix(scheme)
            .is_some_and(|rest| !rest.is_empty() && !rest.starts_with('/'))
    }) || lower
        .strip_prefix("file:///")
        .is_some_and(|rest| !rest.is_empty());
    if !scheme_ok {
        return Some(format!(
            "`{}` is not a web address: it must start with https:// (or http://) and a host",
            base
        ));
    }
    if let Some(c) = base.chars().find(|c| c.is_whitespace() || c.is_control()) {
        return Some(format!(
            "`{}` holds a space or a control character ({c:?}): write it as %20 and so on",
            base
        ));
    }
    if base.contains('?') || base.contains('#') {
        return Some(format!(
            "`{}` has a query or a fragment (`?`, `#`): each image's address is this one, `/`, \
             and the file's name, so it must be the folder's plain address",
            base
        ));
    }
    None
}

/// The image addresses the saved objects among `outputs` (`tts/*.json`) name that are not
/// `base/<file>` for a file the same outputs write under `tts/images/`: the folder a designer
/// is asked to upload must hold every image the table loads.
pub fn images_not_written(outputs: &[crate::Output], base: &str) -> Vec<String> {
    let written: std::collections::HashSet<&str> = outputs
        .iter()
        .filter_map(|o| o.path.strip_prefix("tts/images/"))
        .collect();
    let prefix = format!("{}/", base.trim_end_matches('/'));
    let mut missing = std::collections::BTreeSet::new();
    for save in outputs
        .iter()
        .filter(|o| o.path.starts_with("tts/") && o.path.ends_with(".json"))
    {
        let Ok(value) = serde_json::from_slice::<Value>(&save.bytes) else {
            missing.insert(format!("{} (not JSON)", save.path));
            continue;
        };
        let mut stack = vec![&value];
        while let Some(value) = stack.pop() {
            match value {
                Value::Object(fields) => {
                    for (key, field) in fields {
                        match field {
                            Value::String(url) if key.ends_with("URL") && !url.is_empty() => {
                                let named = url.strip_prefix(&prefix);
                                if !named.is_some_and(|file| written.contains(file)) {
                                    missing.insert(url.clone());
                                }
                            }
                            _ => stack.push(field),
                        }
                    }
                }
                Value::Array(items) => stack.extend(items),
                _ => {}
            }
        }
    }
    missing.into_iter().collect()
}

/// A script for an object of the table: `body` after what every such script shares
/// (`tts/common.lua`: reading a ruleset, finding the rules object, naming button functions).
pub fn table_script(body: &str) -> String {
    format!("{}\n{body}", include_str!("common.lua"))
}

/// The script of a rules module's object on a table of components (`components::rules::
/// TableScript`): `body` after what every table script shares and what reads a table of
/// components (`tts/table_reading.lua`: the ruleset, what an object is, the seats in play).
pub fn rules_module_script(body: &str) -> String {
    table_script(&format!("{}\n{body}", include_str!("table_reading.lua")))
}

/// The script of a sheet its player marks (`tts/marks.lua`): a button over every box, the
/// marks in its saved state.
pub fn marks_lua() -> String {
    table_script(include_str!("marks.lua"))
}

/// The Lua of the rules object (`tts/rules.lua`) for rulesets of `format` whose `version_key`
/// is `version`: the ruleset travels in its saved state, is decoded and checked once on load
/// (one of another format or version is refused in the chat), and other scripts ask for it.
pub fn rules_lua(format: &str, version_key: &str, version: u32) -> String {
    table_script(include_str!("rules.lua"))
        .replace("@FORMAT@", format)
        .replace("@VERSION_KEY@", version_key)
        .replace("@FORMAT_VERSION@", &version.to_string())
}

/// An encoded image and the hash it is named by.
pub struct Png {
    pub bytes: Vec<u8>,
    pub hash: String,
}

impl cache::Weigh for Png {
    fn bytes(&self) -> usize {
        self.bytes.len()
    }
}

/// An image made by `draw` and encoded, unless the cache has it under `key` (the key of what
/// the image is made from: hashed again with the word "png").
pub fn encoded(
    reuse: cache::Reuse,
    key: &dyn Fn() -> Key,
    draw: &dyn Fn() -> crate::raster::Image,
) -> std::sync::Arc<Png> {
    reuse.get(
        || cache::key(&("png", key())),
        || {
            let bytes = draw().png();
            let hash = short_hash(&bytes);
            Png { bytes, hash }
        },
    )
}

/// A deck's sprite sheet: `faces`, pages each a card face, rasterised at `scale` pixels per
/// point and laid `columns` to a row, encoded. With a cache, each face is kept apart, so that
/// a sheet with one card changed is made by rasterising that card alone and pasting the
/// others; and a sheet whose faces are all as before is not encoded again.
pub fn sprite_sheet(
    faces: &[&Page],
    scale: f64,
    (columns, rows): (u32, u32),
    reuse: cache::Reuse,
) -> std::sync::Arc<Png> {
    pasted(
        ("sprite sheet", columns, rows),
        faces,
        &|_| scale,
        &|first| (first.width * columns, first.height * rows),
        &|index, first| {
            let index = index as u32;
            (
                (index % columns) * first.width,
                (index / columns) * first.height,
                false,
            )
        },
        reuse,
    )
}

/// A d6's texture in Tabletop Simulator's layout: `faces`, pages each a face (the first six,
/// in the order of the die's faces), each rasterised to [`DIE_FACE_PX`] across and pasted at
/// its place in [`DIE_CELLS`], turned where the layout turns it; encoded. The same for every
/// game's dice, and kept in a cache as a deck's sheet is.
pub fn die_texture(faces: &[&Page], reuse: cache::Reuse) -> std::sync::Arc<Png> {
    pasted(
        ("die texture", DIE_TEXTURE_PX, DIE_TEXTURE_PX),
        &faces[..faces.len().min(DIE_CELLS.len())],
        &|page| DIE_FACE_PX as f64 / page.frame.width().to_pt(),
        &|_| (DIE_TEXTURE_PX, DIE_TEXTURE_PX),
        &|index, _| DIE_CELLS[index],
        reuse,
    )
}

/// Faces, pages each rasterised at `scale` of it, pasted into one picture of `size` (given
/// the first face drawn) each where `place` says (its index, the first face: x, y, turned),
/// and encoded. With a cache, each face is kept apart, and a picture whose faces are all as
/// before is not encoded again. `layout` tells pictures of the same faces apart.
fn pasted(
    layout: (&str, u32, u32),
    faces: &[&Page],
    scale: &(dyn Fn(&Page) -> f64 + Sync),
    size: &dyn Fn(&crate::raster::Image) -> (u32, u32),
    place: &dyn Fn(usize, &crate::raster::Image) -> (u32, u32, bool),
    reuse: cache::Reuse,
) -> std::sync::Arc<Png> {
    use rayon::prelude::*;
    let face_keys: Vec<Key> = if reuse.is_on() {
        faces.par_iter().map(|p| page_key(p, scale(p))).collect()
    } else {
        Vec::new()
    };
    let picture_key = || cache::key(&(layout, &face_keys));
    let draw = || {
        let drawn: Vec<std::sync::Arc<crate::raster::Image>> = faces
            .par_iter()
            .enumerate()
            .map(|(index, p)| {
                reuse.get(
                    || face_keys[index],
                    || crate::raster::Image::of_page(p, scale(p), false),
                )
            })
            .collect();
        let Some(first) = drawn.first() else {
            return crate::raster::Image::blank(1, 1);
        };
        let (width, height) = size(first);
        let mut picture = crate::raster::Image::blank(width, height);
        for (index, face) in drawn.iter().enumerate() {
            let (x, y, turned) = place(index, first);
            picture.paste(face, x, y, turned);
        }
        picture
    };
    encoded(reuse, &picture_key, &draw)
}

/// The key of a page rasterised at `scale` for the export.
pub fn page_key(page: &Page, scale: f64) -> Key {
    cache::key(&("tts page", page, scale.to_bits()))
}

/// Pixels per point for card faces so that `columns` x `rows` of them fit the sheet limit
/// (and no finer than print resolution).
pub fn card_scale(width_pt: f64, height_pt: f64, columns: u32, rows: u32) -> f64 {
    let limit = MAX_SHEET_PX as f64;
    // Rounding up a pixel per card must not push the sheet over the limit.
    let by_width = (limit / columns as f64 - 1.0) / width_pt;
    let by_height = (limit / rows as f64 - 1.0) / height_pt;
    by_width.min(by_height).min(300.0 / 72.0)
}
