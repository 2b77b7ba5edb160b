//! The Tabletop Simulator export, read as the game would read it: a saved object whose cards,
//! dice, sheets and rules object hold together, images of the sizes its grids imply, a rules
//! object that carries the ruleset, and the same bytes from build to build.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common;

const BASE: &str = "https://example.org/safari";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn games() -> Vec<PathBuf> {
    vec![
        root().join("content/safari-zone"),
        root().join("tests/fixtures-print/mini-odd-deck"),
    ]
}

fn export(dir: &Path) -> HashMap<String, Vec<u8>> {
    common::tts_export(dir, BASE)
}

fn saved_object(files: &HashMap<String, Vec<u8>>) -> (String, Value) {
    let (path, bytes) = files
        .iter()
        .find(|(p, _)| p.starts_with("tts/") && p.ends_with(".json"))
        .expect("a saved object");
    (
        path.clone(),
        serde_json::from_slice(bytes).expect("the saved object is JSON"),
    )
}

/// (width, height, colour type) of a PNG.
fn png_info(bytes: &[u8]) -> (u32, u32, png::ColorType) {
    let reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .expect("a PNG");
    let info = reader.info();
    (info.width, info.height, info.color_type)
}

/// The image an URL names, from the build's outputs.
fn image<'a>(files: &'a HashMap<String, Vec<u8>>, url: &str) -> &'a [u8] {
    let file = url
        .strip_prefix(&format!("{BASE}/"))
        .unwrap_or_else(|| panic!("{url} is not under the asset base"));
    files
        .get(&format!("tts/images/{file}"))
        .unwrap_or_else(|| panic!("{url}: no such image"))
}

fn all_objects(objects: &[Value]) -> Vec<&Value> {
    let mut all = Vec::new();
    for object in objects {
        all.push(object);
        if let Some(contained) = object["ContainedObjects"].as_array() {
            all.extend(all_objects(contained));
        }
    }
    all
}

#[test]
fn the_saved_object_holds_together() {
    for dir in games() {
        let files = export(&dir);
        let (path, saved) = saved_object(&files);
        let ruleset: Value = serde_json::from_slice(&files["ruleset.json"]).unwrap();
        let objects = saved["ObjectStates"].as_array().expect("ObjectStates");

        // GUIDs: six hex digits, unique.
        let mut guids = HashSet::new();
        for object in all_objects(objects) {
            let guid = object["GUID"].as_str().expect("a GUID");
            assert!(
                guid.len() == 6 && guid.chars().all(|c| c.is_ascii_hexdigit()),
                "{guid}"
            );
            assert!(guids.insert(guid.to_string()), "duplicate GUID {guid}");
        }

        // The deck: one Card per physical card, IDs within their sheet's grid.
        let deck = objects
            .iter()
            .find(|o| o["Name"] == "DeckCustom")
            .expect("a deck");
        let cards = deck["ContainedObjects"].as_array().unwrap();
        let physical: u64 = ruleset["deck"]["cards"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["copies"].as_u64().unwrap())
            .sum();
        assert_eq!(cards.len() as u64, physical, "{path}");
        let ids: Vec<u64> = cards
            .iter()
            .map(|c| c["CardID"].as_u64().unwrap())
            .collect();
        let deck_ids: Vec<u64> = deck["DeckIDs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        assert_eq!(ids, deck_ids, "DeckIDs match the cards, in order");
        let custom = deck["CustomDeck"].as_object().unwrap();
        for card in cards {
            let id = card["CardID"].as_u64().unwrap();
            let sheet = &custom[&(id / 100).to_string()];
            let slots = sheet["NumWidth"].as_u64().unwrap() * sheet["NumHeight"].as_u64().unwrap();
            assert!(id % 100 < slots, "card {id} outside its sheet");
            let memo: Value = serde_json::from_str(card["Memo"].as_str().unwrap()).unwrap();
            assert!(ruleset["deck"]["cards"].as_array().unwrap().contains(&memo));
            assert!(card["Description"].as_str().unwrap().contains("Catch on"));
        }
        // Copies: each design appears as many times as it has copies.
        for design in ruleset["deck"]["cards"].as_array().unwrap() {
            let count = cards
                .iter()
                .filter(|c| {
                    serde_json::from_str::<Value>(c["Memo"].as_str().unwrap()).unwrap() == *design
                })
                .count() as u64;
            assert_eq!(count, design["copies"].as_u64().unwrap());
        }
        let (card_w, card_h) = {
            let size = ruleset_card_size(&dir);
            (size.0, size.1)
        };
        for sheet in custom.values() {
            let (columns, rows) = (
                sheet["NumWidth"].as_u64().unwrap() as u32,
                sheet["NumHeight"].as_u64().unwrap() as u32,
            );
            assert!(columns <= 10 && rows <= 7, "grid {columns} x {rows}");
            let (w, h, colour) = png_info(image(&files, sheet["FaceURL"].as_str().unwrap()));
            assert!(w <= 4096 && h <= 4096, "sheet {w} x {h}");
            assert_eq!(colour, png::ColorType::Rgb);
            assert!(
                w % columns == 0 && h % rows == 0,
                "{w} x {h} for {columns} x {rows}"
            );
            let aspect = (w / columns) as f64 / (h / rows) as f64;
            assert!(
                (aspect - card_w / card_h).abs() < 0.01,
                "card aspect {aspect}"
            );
            let (bw, bh, _) = png_info(image(&files, sheet["BackURL"].as_str().unwrap()));
            assert_eq!((bw, bh), (w / columns, h / rows), "the back is one card");
        }

        // Dice: one per die, six named faces, a 2048 px texture.
        let dice: Vec<&Value> = objects
            .iter()
            .filter(|o| o["Name"] == "Custom_Dice")
            .collect();
        let expected: usize = ruleset["dice"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["dice"].as_array().unwrap().len())
            .sum();
        assert_eq!(dice.len(), expected);
        for die in dice {
            assert_eq!(die["CustomImage"]["CustomDice"]["Type"], 1, "a d6");
            assert_eq!(die["RotationValues"].as_array().unwrap().len(), 6);
            let (w, h, colour) = png_info(image(
                &files,
                die["CustomImage"]["ImageURL"].as_str().unwrap(),
            ));
            assert_eq!((w, h, colour), (2048, 2048, png::ColorType::Rgb));
        }

        // A Field Guide per player, with the Park Rules on its back: unlocked, as it says to
        // flip it.
        let tiles: Vec<&Value> = objects
            .iter()
            .filter(|o| o["Name"] == "Custom_Tile")
            .collect();
        assert_eq!(
            tiles.len() as u64,
            ruleset["parameters"]["players_max"].as_u64().unwrap()
        );
        let mut colours = std::collections::HashSet::new();
        for tile in tiles {
            // Its script's wiring names the table's own objects (tests/tts_lua.rs plays it).
            let wiring: Value =
                serde_json::from_str(tile["LuaScriptState"].as_str().unwrap()).unwrap();
            let wiring = &wiring["table"];
            let named = |guid: &Value| {
                objects
                    .iter()
                    .find(|o| &o["GUID"] == guid)
                    .unwrap_or_else(|| panic!("no object {guid}"))
            };
            assert!(
                named(&wiring["rules"])["Nickname"]
                    .as_str()
                    .unwrap()
                    .ends_with(" ruleset")
            );
            assert_eq!(named(&wiring["deck"])["Name"], "DeckCustom");
            assert_eq!(named(&wiring["deck"])["Nickname"], wiring["deck_name"]);
            for guid in wiring["dice"]["expedition"]
                .as_array()
                .unwrap()
                .iter()
                .chain(wiring["dice"]["capture"].as_array().unwrap())
            {
                assert_eq!(named(guid)["Name"], "Custom_Dice");
            }
            assert!(colours.insert(wiring["colour"].as_str().unwrap().to_string()));
            assert_eq!(tile["Locked"], false);
            assert!(tile["Description"].as_str().unwrap().contains("Flip it"));
            image(&files, tile["CustomImage"]["ImageURL"].as_str().unwrap());
            image(
                &files,
                tile["CustomImage"]["ImageSecondaryURL"].as_str().unwrap(),
            );
        }

        // The rules object: the ruleset in its state (tests/tts_lua.rs runs its script).
        let rules = objects
            .iter()
            .find(|o| {
                o["Nickname"]
                    .as_str()
                    .is_some_and(|n| n.ends_with(" ruleset"))
            })
            .expect("a rules object");
        let state: Value = serde_json::from_str(rules["LuaScriptState"].as_str().unwrap()).unwrap();
        assert_eq!(state, ruleset, "LuaScriptState decodes to the ruleset");

        // The thumbnail.
        let thumbnail = path.replace(".json", ".png");
        assert_eq!(
            png_info(&files[&thumbnail]),
            (256, 256, png::ColorType::Rgb)
        );
    }
}

fn ruleset_card_size(dir: &Path) -> (f64, f64) {
    let mut folder = safari::world::GameFolder::open(dir).unwrap();
    let game = safari::check(&mut folder).game.unwrap();
    (
        game.manifest.card_size.width_mm,
        game.manifest.card_size.height_mm,
    )
}

#[test]
fn image_names_carry_their_content_hash() {
    use sha2::Digest;
    let files = export(&games()[0]);
    let mut images = 0;
    for (path, bytes) in &files {
        if let Some(name) = path.strip_prefix("tts/images/") {
            images += 1;
            let hash = name.rsplit_once('-').unwrap().1.trim_end_matches(".png");
            let digest: String = sha2::Sha256::digest(bytes)
                .iter()
                .take(5)
                .map(|b| format!("{b:02x}"))
                .collect();
            assert_eq!(hash, digest, "{name} is not named by its bytes");
        }
    }
    assert!(
        images >= 5,
        "sheet, back, dice, Field Guide and Park Rules: {images}"
    );
}

/// The saved object, with the asset base, image hashes and the embedded ruleset and card
/// entries (checked above) cut out: what the game loads, as a reviewable snapshot.
#[test]
fn the_saved_object_matches_its_snapshot() {
    let first = export(&games()[0]);
    let second = export(&games()[0]);
    let (path, _) = saved_object(&first);
    assert_eq!(first[&path], second[&path], "two builds give the same JSON");
    let mut text = String::from_utf8(first[&path].clone()).unwrap();
    text = text.replace(BASE, "<asset-base>");
    let mut value: Value = serde_json::from_str(&text).unwrap();
    fn scrub(value: &mut Value) {
        match value {
            Value::Object(map) => {
                for (key, v) in map.iter_mut() {
                    match key.as_str() {
                        "LuaScriptState"
                            if v.as_str().is_some_and(|s| s.contains("\"format_version\"")) =>
                        {
                            *v = Value::String("<ruleset.json>".into())
                        }
                        "LuaScript"
                            if v.as_str().is_some_and(|s| {
                                s == safari::rules::safari_zone::tts::field_guide_lua()
                            }) =>
                        {
                            *v = Value::String("<field_guide_rules.lua, field_guide.lua>".into())
                        }
                        "Memo" if v.as_str().is_some_and(|s| !s.is_empty()) => {
                            *v = Value::String("<card entry>".into())
                        }
                        _ => scrub(v),
                    }
                }
            }
            Value::Array(list) => list.iter_mut().for_each(scrub),
            Value::String(s) if s.starts_with("<asset-base>/") => {
                if let Some((stem, _)) = s.rsplit_once('-') {
                    *s = format!("{stem}-<hash>.png");
                }
            }
            _ => {}
        }
    }
    scrub(&mut value);
    insta::with_settings!({
        snapshot_path => root().join("tests/snapshots"),
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::assert_json_snapshot!("tts-saved-object", value);
    });
}

/// Cards, decks and tokens can be held in a hand and hide their face (name and tooltip too)
/// when face down, in every game's save; sheets, tiles, dice and the rules object stay out of
/// hands.
#[test]
fn cards_go_into_hands_and_hide_face_down() {
    let packs = ["gamewright-safari", "diceafari", "tricky-safari"]
        .map(|pack| root().join("content").join(pack));
    for dir in games().into_iter().chain(packs) {
        let files = export(&dir);
        let (path, saved) = saved_object(&files);
        let objects = saved["ObjectStates"].as_array().expect("ObjectStates");
        let ruleset: Value = serde_json::from_slice(&files["ruleset.json"]).unwrap();
        let token_sets: Vec<&Value> = ruleset["tokens"]
            .as_array()
            .map(|sets| sets.iter().map(|set| &set["id"]).collect())
            .unwrap_or_default();
        let mut cards = 0;
        for object in all_objects(objects) {
            let memo: Value =
                serde_json::from_str(object["Memo"].as_str().unwrap_or("null")).unwrap_or_default();
            let token = token_sets.contains(&&memo["set"]);
            let held = token || matches!(object["Name"].as_str(), Some("Card" | "DeckCustom"));
            cards += usize::from(held);
            assert_eq!(
                object["Hands"], held,
                "{path}: {} {}",
                object["Name"], object["Nickname"]
            );
            assert_eq!(
                object["HideWhenFaceDown"], held,
                "{path}: {} {}",
                object["Name"], object["Nickname"]
            );
        }
        // Tricky Safari has no cards; every other game has a deck.
        assert!(
            cards > 0 || dir.ends_with("tricky-safari"),
            "{path}: no cards"
        );
    }
}

/// Every image the save names is the asset base and a file the same build writes under
/// `tts/images/`, the folder a designer uploads; a save naming any other is caught.
#[test]
fn every_image_the_save_names_is_in_the_folder_to_upload() {
    use safari::backends::Output;
    use safari::backends::tts::images_not_written;
    for dir in games() {
        let files = export(&dir);
        let outputs: Vec<Output> = files
            .iter()
            .map(|(path, bytes)| Output {
                path: path.clone(),
                bytes: bytes.clone(),
            })
            .collect();
        assert_eq!(images_not_written(&outputs, BASE), Vec::<String>::new());
        // Another base, or an image left out of the folder, is named.
        assert!(!images_not_written(&outputs, "https://elsewhere.example").is_empty());
        let image = outputs
            .iter()
            .position(|o| o.path.starts_with("tts/images/"))
            .unwrap();
        let mut without = outputs.clone();
        let gone = without.remove(image);
        let missing = images_not_written(&without, BASE);
        assert_eq!(
            missing,
            vec![format!("{BASE}/{}", &gone.path["tts/images/".len()..])]
        );
    }
}

/// `--asset-base` is refused (SZ0803) when the images could not be found there: not a web
/// address, a space, a share link's query.
#[test]
fn an_asset_base_the_table_cannot_load_from_is_refused() {
    use safari::backends::tts::asset_base_fault;
    for good in [
        "https://example.org/safari",
        "https://example.org/safari/",
        "http://localhost:8000/images",
        "file:///home/me/out/images",
    ] {
        assert_eq!(asset_base_fault(good), None, "{good}");
    }
    assert_eq!(asset_base_fault("HTTPS://Example.org/Safari"), None);
    assert_eq!(asset_base_fault("https://[::1]:8443/a%20b"), None);
    for bad in [
        "https:///images",
        "example.org/safari",
        "images",
        "https://",
        "ftp://example.org/x",
        "https://example.org/my images",
        "https://www.dropbox.com/s/abc/images?dl=0",
        "https://example.org/images#top",
    ] {
        assert!(asset_base_fault(bad).is_some(), "{bad}");
    }
    let out = std::env::temp_dir().join(format!("safari-asset-base-{}", std::process::id()));
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_safari"))
        .args(["build", "--asset-base", "www.example.org/images", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success());
    assert!(stderr.contains("SZ0803"), "{stderr}");
    assert!(!out.exists(), "nothing is built");
}

/// A standee shows which way it faces from either side: its front and its back are different
/// pictures, in the save as on the printed sheet (Tricky Safari's animals move the way they
/// face).
#[test]
fn standees_show_their_front_and_their_back() {
    let files = export(&root().join("content/tricky-safari"));
    let (path, saved) = saved_object(&files);
    let objects = saved["ObjectStates"].as_array().expect("ObjectStates");
    let standees: Vec<&Value> = all_objects(objects)
        .into_iter()
        .filter(|o| o["Name"] == "Figurine_Custom" && o["Description"] == "Animals")
        .collect();
    assert_eq!(standees.len(), 10, "{path}: the ten animals");
    for standee in standees {
        let front = standee["CustomImage"]["ImageURL"].as_str().unwrap();
        let back = standee["CustomImage"]["ImageSecondaryURL"]
            .as_str()
            .unwrap();
        assert_ne!(front, back, "{}", standee["Nickname"]);
        assert_ne!(image(&files, front), image(&files, back));
    }
}

/// A d6's texture shows each face on the middle of its cell of Tabletop Simulator's layout, for
/// the default game's dice and a game of components' alike: the ink of a face (whatever is not
/// its background) is as far from the cell's left as from its right, give or take a tenth of
/// the face. (Up and down a face's own design may set its icon above its word; a face drawn
/// off its cell, as a game of components' once were, is out by a fifth both ways.)
#[test]
fn die_faces_sit_centred_on_their_cells() {
    use safari::backends::tts::{DIE_CELLS, DIE_FACE_PX};
    for game in ["content/safari-zone", "content/diceafari"] {
        let files = export(&root().join(game));
        let (_, saved) = saved_object(&files);
        let objects = saved["ObjectStates"].as_array().expect("ObjectStates");
        let textures: HashSet<&str> = all_objects(objects)
            .into_iter()
            .filter(|o| o["Name"] == "Custom_Dice")
            .map(|o| o["CustomImage"]["ImageURL"].as_str().unwrap())
            .collect();
        assert!(!textures.is_empty(), "{game}: no d6");
        for url in textures {
            let mut reader = png::Decoder::new(std::io::Cursor::new(image(&files, url)))
                .read_info()
                .expect("a PNG");
            let mut rgb = vec![0; reader.output_buffer_size().unwrap()];
            let info = reader.next_frame(&mut rgb).unwrap();
            assert_eq!(info.color_type, png::ColorType::Rgb);
            let pixel = |x: u32, y: u32| {
                let at = ((y * info.width + x) * 3) as usize;
                [rgb[at], rgb[at + 1], rgb[at + 2]]
            };
            for (face, &(left, top, _)) in DIE_CELLS.iter().enumerate() {
                let background = pixel(left + 2, top + 2);
                let (mut x0, mut y0, mut x1, mut y1) = (u32::MAX, u32::MAX, 0, 0);
                for y in top + 4..top + DIE_FACE_PX - 4 {
                    for x in left + 4..left + DIE_FACE_PX - 4 {
                        if pixel(x, y) != background {
                            (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
                        }
                    }
                }
                assert!(x1 > x0, "{game} {url}: face {} is blank", face + 1);
                let off = |low: u32, high: u32, start: u32| {
                    (low - start).abs_diff(start + DIE_FACE_PX - 1 - high)
                };
                let across = off(x0, x1, left);
                assert!(
                    across <= DIE_FACE_PX / 10,
                    "{game} {url}: face {} is {across} px off centre across (rows {y0}-{y1})",
                    face + 1
                );
            }
        }
    }
}

/// The size check: every save stays within what Tabletop Simulator loads comfortably (no limit
/// is documented; public mods carry scripts of several hundred kB and sheets of hundreds of
/// buttons). Budgets, against the sizes measured in docs/tabletop-simulator.md: at most 400
/// objects (contained ones too), a script of at most 100 kB and a saved state of at most
/// 256 kB on any object, and a save of at most 1 MB without its images.
#[test]
fn every_save_stays_within_its_size_budget() {
    let packs =
        ["gamewright-safari", "diceafari", "tricky-safari"].map(|g| root().join("content").join(g));
    for dir in games().into_iter().chain(packs) {
        let files = export(&dir);
        let (path, saved) = saved_object(&files);
        let mut count = 0;
        let mut stack: Vec<&Value> = saved["ObjectStates"].as_array().unwrap().iter().collect();
        while let Some(object) = stack.pop() {
            count += 1;
            let script = object["LuaScript"].as_str().unwrap_or_default().len();
            let state = object["LuaScriptState"].as_str().unwrap_or_default().len();
            assert!(script <= 100_000, "{path}: {} script", object["Nickname"]);
            assert!(state <= 256_000, "{path}: {} state", object["Nickname"]);
            if let Some(inner) = object["ContainedObjects"].as_array() {
                stack.extend(inner);
            }
        }
        assert!(count <= 400, "{path}: {count} objects");
        assert!(
            files[&path].len() <= 1_000_000,
            "{path}: {} bytes",
            files[&path].len()
        );
    }
}
