//! The three games made of components, built and read back as a printer, a Tabletop
//! Simulator player and a playable build would: every card, tile, token, die and piece the
//! rulebooks count is printed and exported, backs mirror their fronts, a board too large for
//! the paper is tiled with overlaps its alignment marks sit in, the save lays pieces on their
//! setup cells, a roll-and-write sheet is printed and handed to each player, and the ruleset
//! validates against its schema.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use safari::backends::table::{data, sheets};
use safari::backends::{BuildOptions, Target};
use safari::world::GameFolder;
use serde_json::Value;

use crate::common;

/// A pack in content/, or a game of tests/fixtures-components/.
fn pack(name: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    match root.join("content").join(name) {
        dir if dir.is_dir() => dir,
        _ => root.join("tests/fixtures-components").join(name),
    }
}

const PACKS: [&str; 3] = ["gamewright-safari", "diceafari", "tricky-safari"];

fn build(name: &str, configure: impl FnOnce(&mut BuildOptions)) -> HashMap<String, Vec<u8>> {
    let mut options = BuildOptions::default();
    options.print.page_previews = false;
    configure(&mut options);
    let mut folder = GameFolder::open(&pack(name)).unwrap();
    let built = safari::build(&mut folder, &options);
    let errors: Vec<&str> = built
        .checked
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert!(errors.is_empty(), "{name}: {errors:?}");
    built
        .outputs
        .expect("a clean build has outputs")
        .into_iter()
        .map(|o| (o.path, o.bytes))
        .collect()
}

/// The table and its template data, as the build sees them.
fn table(name: &str) -> (safari::components::Table, data::TableData) {
    let mut folder = GameFolder::open(&pack(name)).unwrap();
    let checked = safari::check(&mut folder);
    let table = checked.table.expect("a pack is made of components");
    let module = safari::rules::module(&table.manifest.rules.value).unwrap();
    let data = data::table_data(&table, module, table.manifest.paper, Default::default());
    (table, data)
}

fn pages_mm(bytes: &[u8]) -> Vec<(f64, f64)> {
    common::page_sizes_mm(&lopdf::Document::load_mem(bytes).expect("the PDF parses"))
}

fn save(built: &HashMap<String, Vec<u8>>) -> Value {
    let (_, bytes) = built
        .iter()
        .find(|(path, _)| path.starts_with("tts/") && path.ends_with(".json"))
        .expect("the export has a saved object");
    serde_json::from_slice(bytes).unwrap()
}

fn objects<'a>(save: &'a Value, name: &str) -> Vec<&'a Value> {
    save["ObjectStates"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["Name"] == name)
        .collect()
}

#[test]
fn every_pack_checks_clean() {
    for name in PACKS {
        let mut folder = GameFolder::open(&pack(name)).unwrap();
        let checked = safari::check(&mut folder);
        let found: Vec<String> = checked
            .diagnostics
            .iter()
            .map(|d| format!("{} {}", d.code, d.message))
            .collect();
        assert!(found.is_empty(), "{name}: {found:?}");
        assert!(checked.table.is_some() && checked.game.is_none());
    }
}

#[test]
fn the_component_counts_are_the_rulebooks() {
    let (gamewright, _) = table("gamewright-safari");
    let physical: Vec<u32> = gamewright.decks.iter().map(|d| d.physical()).collect();
    assert_eq!(physical, vec![56, 8]);
    let (dice, _) = table("diceafari");
    assert_eq!(dice.tiles[0].count(), 18);
    let tokens: Vec<u32> = dice.tokens.iter().map(|t| t.count()).collect();
    assert_eq!(tokens, vec![28, 72]);
    let counts: Vec<u32> = dice.dice.iter().map(|d| d.count).collect();
    assert_eq!(counts, vec![4, 1]);
    let (tricky, _) = table("tricky-safari");
    assert_eq!((tricky.boards[0].columns, tricky.boards[0].rows), (10, 10));
    let pieces: Vec<usize> = tricky.pieces.iter().map(|p| p.pieces.len()).collect();
    assert_eq!(pieces, vec![10, 2]);
}

#[test]
fn a_deck_prints_every_card_for_home_printers_and_print_shops() {
    let built = build("gamewright-safari", |_| {});
    // Home printing: fronts and their backs, then the duplex calibration.
    let home = pages_mm(&built["decks/animals.pdf"]);
    assert!(
        home.iter()
            .all(|&(w, h)| (w - 215.9).abs() < 0.1 && (h - 279.4).abs() < 0.1),
        "{home:?}"
    );
    let per_page = {
        let grid = safari::backends::print::geometry::CardGrid::fit(
            safari::backends::print::geometry::PaperSize::LETTER,
            63.5,
            88.9,
        );
        grid.per_page() as usize
    };
    assert_eq!(home.len(), 2 * 56usize.div_ceil(per_page) + 2);
    // Print shops: one design a page with bleed, then the back.
    let shop = pages_mm(&built["decks/animals-cards.pdf"]);
    assert_eq!(shop.len(), 57);
    assert!(
        shop.iter()
            .all(|&(w, h)| (w - 69.5).abs() < 0.1 && (h - 94.9).abs() < 0.1),
        "{shop:?}"
    );
    assert_eq!(pages_mm(&built["decks/safari-charlie-cards.pdf"]).len(), 2);
}

#[test]
fn hyena_cards_print_what_they_cost() {
    let (table, data) = table("gamewright-safari");
    let hyenas: Vec<&str> = data.decks[0]
        .designs
        .iter()
        .filter(|d| d.symbol.as_deref() == Some("hyena"))
        .filter_map(|d| d.caption.as_deref())
        .collect();
    assert_eq!(hyenas.len(), 7, "{hyenas:?}");
    assert_eq!(hyenas[0], "−1 point in your hand");
    assert!(
        data.decks[0]
            .designs
            .iter()
            .filter(|d| d.symbol.as_deref() != Some("hyena"))
            .all(|d| d.caption.is_none())
    );
    assert_eq!(table.decks[1].cards[0].copies, 8);
}

#[test]
fn cut_sheets_hold_every_tile_and_token_with_their_backs_mirrored() {
    let (_, data) = table("diceafari");
    let paper = data.paper;
    let pages = sheets::cut_pages(&data, paper);
    let count = |kind: &str| {
        pages
            .iter()
            .filter(|p| p.kind == kind)
            .map(|p| p.items.len())
            .sum::<usize>()
    };
    assert_eq!(count("fronts"), 18 + 28);
    assert_eq!(count("one-sided"), 72, "travel tokens have no backs");
    // Tiles and photo tokens have backs; travel tokens do not.
    assert_eq!(count("backs"), 18 + 28);
    for (i, page) in pages.iter().enumerate().filter(|(_, p)| p.kind == "backs") {
        let fronts = &pages[i - 1];
        assert_eq!(fronts.kind, "fronts");
        for (front, back) in fronts.items.iter().zip(&page.items) {
            assert!((back.x - (paper.width - front.x - front.w)).abs() < 1e-9 && back.y == front.y);
        }
    }
    for page in &pages {
        for a in &page.items {
            assert!(
                a.x >= 6.35
                    && a.x + a.w <= paper.width - 6.35 + 1e-9
                    && a.y + a.h <= paper.height - 6.35 + 1e-9
            );
            for b in &page.items {
                let apart =
                    a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
                assert!(
                    std::ptr::eq(a, b) || apart,
                    "pieces overlap on {:?}",
                    page.headings
                );
            }
        }
    }
    let built = build("diceafari", |o| o.targets = vec![Target::Tiles]);
    assert_eq!(pages_mm(&built["pieces.pdf"]).len(), pages.len());
}

#[test]
fn a_board_larger_than_the_paper_is_tiled_with_overlapping_pages() {
    let (_, data) = table("tricky-safari");
    let board = &data.boards[0];
    let pages = sheets::tiled_board(board, data.paper);
    assert!(pages.len() >= 2, "a 266 mm board needs two A4 pages");
    // The windows cover the board, and neighbours share an overlap.
    let mut covered_to = 0.0f64;
    for page in pages.iter().filter(|p| p.row == 1) {
        let [x, _, w, _] = page.window;
        assert!(
            x <= covered_to - sheets::OVERLAP_MM + 1e-9 || x == 0.0,
            "a gap before x = {x}"
        );
        covered_to = covered_to.max(x + w);
    }
    assert!((covered_to - board.width).abs() < 1e-9);
    // Each alignment mark is on every page whose window holds it, and on at least two.
    for page in &pages {
        for mark in &page.marks {
            let holders = pages
                .iter()
                .filter(|p| {
                    let [x, y, w, h] = p.window;
                    mark[0] >= x && mark[0] <= x + w && mark[1] >= y && mark[1] <= y + h
                })
                .count();
            assert!(holders >= 2, "mark {mark:?} is on one page only");
        }
    }
    let built = build("tricky-safari", |o| o.targets = vec![Target::Board]);
    assert_eq!(
        pages_mm(&built["boards/landscape-tiled.pdf"]).len(),
        pages.len()
    );
    let whole = pages_mm(&built["boards/landscape.pdf"]);
    assert_eq!(whole.len(), 1);
    assert!(
        (whole[0].0 - (board.width + 6.0)).abs() < 0.1
            && (whole[0].1 - (board.height + 6.0)).abs() < 0.1
    );
}

#[test]
fn every_die_has_its_stickers_and_a_paper_die() {
    let (_, data) = table("diceafari");
    let pages = sheets::dice_pages(&data, data.paper);
    // Each face of each die twice: its sticker and its face on the paper die.
    let mut seen: HashMap<(usize, usize), usize> = HashMap::new();
    for page in &pages {
        for face in &page.faces {
            *seen.entry((face.dice, face.face)).or_default() += 1;
        }
    }
    for (set, dice) in data.dice.iter().enumerate() {
        for face in 0..6 {
            assert_eq!(
                seen[&(set, face)],
                2 * dice.count as usize,
                "{} face {face}",
                dice.name
            );
        }
    }
    // One heading for each set's stickers and one for its paper dice, and one glue tab fewer
    // per die than the cube has cut edges (12 edges, 5 folds: 7 tabs).
    let headings = pages
        .iter()
        .flat_map(|p| &p.headings)
        .filter(|h| !h.text.ends_with("(continued)"))
        .count();
    assert_eq!(headings, 2 * data.dice.len());
    let tabs: usize = pages.iter().map(|p| p.tabs.len()).sum();
    assert_eq!(tabs, 7 * 5);
    // Nothing leaves the printable area.
    for page in &pages {
        for face in &page.faces {
            for p in &face.outline {
                assert!(
                    p.x >= 6.35 - 1e-9
                        && p.x <= data.paper.width - 6.35 + 1e-9
                        && p.y <= data.paper.height - 6.35 + 1e-9
                );
            }
        }
    }
}

#[test]
fn the_save_lays_the_decks_out_and_its_setup_deals_them_as_each_count_says() {
    let built = build("gamewright-safari", |o| o.targets = vec![Target::Tts]);
    let save = save(&built);
    let decks = objects(&save, "DeckCustom");
    // The animals in one pile face down, for the setup object to shuffle and deal when the
    // number of players is chosen (every load deals anew); the Safari Charlie pile face up.
    let animals = decks
        .iter()
        .find(|d| d["Nickname"] == "Animal Cards")
        .expect("the animal deck");
    assert_eq!(animals["Transform"]["rotZ"], 180.0);
    let charlie = decks
        .iter()
        .find(|d| d["Nickname"] == "Safari Charlie")
        .unwrap();
    assert_eq!(charlie["ContainedObjects"].as_array().unwrap().len(), 8);
    assert_eq!(charlie["Transform"]["rotZ"], 0.0);
    assert!(
        objects(&save, "Card").is_empty(),
        "nothing dealt in the save"
    );
    assert!(
        animals["Description"]
            .as_str()
            .unwrap()
            .contains("5 players: deal 6 to each player, lay 5 rows of 5 face down, remove Hyena")
    );
    let setup = objects(&save, "BlockSquare")
        .into_iter()
        .find(|o| {
            o["Nickname"]
                .as_str()
                .unwrap()
                .ends_with("how many players?")
        })
        .expect("a setup object");
    let state: Value = serde_json::from_str(setup["LuaScriptState"].as_str().unwrap()).unwrap();
    // Two players: a hand of 7 each, then the jungle of 6 rows of 7 face down.
    let deals = state["layouts"]["2"]["deal"].as_array().unwrap();
    assert_eq!(deals.len(), 1, "{deals:?}");
    assert_eq!(deals[0]["deck"], animals["GUID"]);
    assert_eq!(deals[0]["each"], 7);
    assert_eq!(deals[0]["colours"], serde_json::json!(["White", "Red"]));
    let cells = deals[0]["cells"].as_array().unwrap();
    let places: std::collections::BTreeSet<(i64, i64)> = cells
        .iter()
        .map(|c| {
            assert_eq!(c["rotation"][2], 180.0);
            let at = |k: usize| (c["position"][k].as_f64().unwrap() * 10.0).round() as i64;
            (at(0), at(2))
        })
        .collect();
    assert_eq!(places.len(), 42);
    let columns: std::collections::BTreeSet<i64> = places.iter().map(|p| p.0).collect();
    let rows: std::collections::BTreeSet<i64> = places.iter().map(|p| p.1).collect();
    assert_eq!((rows.len(), columns.len()), (6, 7));
    // 2 x 7 + 42 = the whole deck: every animal card once, each by a slot of a sheet the
    // save exports.
    let cards: Vec<&Value> = animals["ContainedObjects"]
        .as_array()
        .unwrap()
        .iter()
        .collect();
    assert_eq!(cards.len(), 2 * 7 + 42);
    let mut ids: Vec<u64> = cards
        .iter()
        .map(|c| c["CardID"].as_u64().unwrap())
        .collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 56, "each animal card once");
    let mut sheets = serde_json::Map::new();
    sheets.extend(animals["CustomDeck"].as_object().unwrap().clone());
    for id in &ids {
        let sheet = &sheets[&(id / 100).to_string()];
        let slots = sheet["NumWidth"].as_u64().unwrap() * sheet["NumHeight"].as_u64().unwrap();
        assert!(id % 100 < slots && slots <= 70);
        for url in [&sheet["FaceURL"], &sheet["BackURL"]] {
            let file = url.as_str().unwrap().rsplit('/').next().unwrap();
            assert!(
                built.contains_key(&format!("tts/images/{file}")),
                "{file} is not exported"
            );
        }
    }
}

#[test]
fn the_save_keeps_tiles_and_tokens_as_players_do_and_dice_of_their_type() {
    let built = build("diceafari", |o| o.targets = vec![Target::Tts]);
    let save = save(&built);
    let bags = objects(&save, "Bag");
    let bagged: Vec<(String, usize)> = bags
        .iter()
        .map(|b| {
            (
                b["Nickname"].as_str().unwrap().to_string(),
                b["ContainedObjects"].as_array().unwrap().len(),
            )
        })
        .collect();
    assert_eq!(
        bagged,
        vec![
            ("Safari Tiles".to_string(), 18),
            ("Photo Tokens".to_string(), 28)
        ]
    );
    // Travel tokens are stacked by colour on the table.
    let loose = objects(&save, "Custom_Tile");
    assert_eq!(loose.len(), 72);
    assert!(
        loose
            .iter()
            .all(|t| t["CustomImage"]["CustomTile"]["Type"] == 2)
    );
    let dice = objects(&save, "Custom_Dice");
    assert_eq!(dice.len(), 5);
    for die in dice {
        assert_eq!(die["CustomImage"]["CustomDice"]["Type"], 1);
        assert_eq!(die["RotationValues"].as_array().unwrap().len(), 6);
    }
    let bonus: Vec<&str> = objects(&save, "Custom_Dice")[4]["RotationValues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["Value"].as_str().unwrap())
        .collect();
    assert_eq!(bonus, vec!["1", "2", "2", "3", "3", "4"]);
}

#[test]
fn the_save_stands_each_piece_on_its_setup_cell() {
    let built = build("tricky-safari", |o| o.targets = vec![Target::Tts]);
    let save = save(&built);
    assert_eq!(objects(&save, "Custom_Board").len(), 1);
    let figures = objects(&save, "Figurine_Custom");
    assert_eq!(figures.len(), 12);
    let (_, data) = table("tricky-safari");
    let board = &data.boards[0];
    // The lion starts on f2 facing south: column 5, row 1 from the top left.
    let lion = figures.iter().find(|f| f["Nickname"] == "Lion").unwrap();
    let x = (board.frame + 5.5 * board.cell - board.width / 2.0) / 25.4;
    let z = -(board.frame + 1.5 * board.cell - board.height / 2.0) / 25.4;
    assert!((lion["Transform"]["posX"].as_f64().unwrap() - x).abs() < 1e-9);
    assert!((lion["Transform"]["posZ"].as_f64().unwrap() - z).abs() < 1e-9);
    assert_eq!(lion["Transform"]["rotY"], 0.0);
    // Cameras in opposite corners.
    let yellow = figures
        .iter()
        .find(|f| f["Nickname"] == "Yellow camera")
        .unwrap();
    assert!(
        yellow["Transform"]["posX"].as_f64().unwrap() < 0.0
            && yellow["Transform"]["posZ"].as_f64().unwrap() < 0.0
    );
}

#[test]
fn every_pack_ruleset_validates_and_reads_back() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/components-ruleset.schema.json"),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&serde_json::from_str(&text).unwrap()).unwrap();
    for name in PACKS {
        let built = build(name, |o| o.targets = vec![Target::Ruleset]);
        let value: Value = serde_json::from_slice(&built["ruleset.json"]).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&value)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:?}");
        let read: safari::backends::table::ruleset::TableRuleset =
            serde_json::from_value(value.clone()).unwrap();
        assert_eq!(read.format, "safari-components");
        assert_eq!(read.game.rules, value["game"]["rules"]);
        assert!(value["rules"].is_object() && !value["rules"].as_object().unwrap().is_empty());
    }
}

#[test]
fn two_builds_give_identical_bytes() {
    for name in ["diceafari", "tricky-safari"] {
        let first = build(name, |o| o.print.page_previews = true);
        let second = build(name, |o| o.print.page_previews = true);
        assert_eq!(first.len(), second.len());
        for (path, bytes) in &first {
            assert!(
                &second[path] == bytes,
                "{name}: {path} differs between builds"
            );
        }
    }
}

/// Every line of every pack file deleted, doubled, its numbers made 0, huge or negative and
/// its strings emptied: checking never panics, and what checks clean is planned for print and
/// export (everything short of typesetting) without a panic either.
#[test]
fn mutated_packs_never_panic() {
    let mut variants = 0;
    for name in PACKS {
        let dir = pack(name);
        let files: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|f| f.ends_with(".toml"))
            .collect();
        for file in &files {
            let text = std::fs::read_to_string(dir.join(file)).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            for i in 0..lines.len() {
                let mut edits: Vec<String> = Vec::new();
                let with = |line: String| {
                    let mut changed = lines.clone();
                    changed[i] = Box::leak(line.into_boxed_str());
                    changed.join("\n")
                };
                edits.push(
                    lines
                        .iter()
                        .enumerate()
                        .filter(|(j, _)| *j != i)
                        .map(|(_, l)| *l)
                        .collect::<Vec<_>>()
                        .join("\n"),
                );
                edits.push(with(format!("{}\n{}", lines[i], lines[i])));
                for number in ["0", "1000000", "-1", "4294967296"] {
                    let replaced: String = lines[i]
                        .split(|c: char| c.is_ascii_digit())
                        .collect::<Vec<_>>()
                        .join(number);
                    if replaced != lines[i] {
                        edits.push(with(replaced));
                    }
                }
                if lines[i].contains('"') {
                    let mut parts = lines[i].splitn(3, '"');
                    let (head, _, tail) = (
                        parts.next().unwrap(),
                        parts.next(),
                        parts.next().unwrap_or(""),
                    );
                    edits.push(with(format!("{head}\"\"{tail}")));
                    edits.push(with(format!("{head}\"zz-unknown\"{tail}")));
                }
                for edited in edits {
                    variants += 1;
                    let mut folder = GameFolder::in_memory();
                    for other in &files {
                        let body = if other == file {
                            edited.clone()
                        } else {
                            std::fs::read_to_string(dir.join(other)).unwrap()
                        };
                        folder.add_source(other.clone(), body);
                    }
                    let checked = safari::check(&mut folder);
                    if let Some(table) = checked
                        .table
                        .as_ref()
                        .filter(|_| !checked.diagnostics.has_errors())
                    {
                        let module = safari::rules::module(&table.manifest.rules.value).unwrap();
                        let data = data::table_data(
                            table,
                            module,
                            table.manifest.paper,
                            Default::default(),
                        );
                        sheets::cut_pages(&data, data.paper);
                        sheets::dice_pages(&data, data.paper);
                        for board in &data.boards {
                            sheets::tiled_board(board, data.paper);
                        }
                        safari::backends::table::ruleset::ruleset(table, module);
                        safari::backends::table::tts::Export::plan(&data);
                    }
                }
            }
        }
    }
    assert!(variants > 1000, "{variants} variants");
}

#[test]
fn a_deck_is_drawn_by_the_games_own_templates() {
    let built = build("custom-front", |o| o.targets = vec![Target::Deck]);
    let text = common::pdf_text(&built["decks/animals-cards.pdf"]);
    for id in ["red-1", "red-3", "hyena-2"] {
        assert!(
            text.contains(&format!("HOUSE STYLE {id}")),
            "{id} is not drawn by the game's front: {text}"
        );
    }
    assert!(text.contains("PLAIN BACK Numbers"));
    // The deck without templates of its own keeps the built-in ones.
    assert!(!common::pdf_text(&built["decks/safari-charlie-cards.pdf"]).contains("HOUSE STYLE"));
}

#[test]
fn a_fault_in_a_games_template_stops_the_build_with_a_label_in_it() {
    let mut options = BuildOptions::default();
    options.print.page_previews = false;
    options.targets = vec![Target::Deck];
    let mut folder = GameFolder::open(&pack("broken-front")).unwrap();
    let built = safari::build(&mut folder, &options);
    assert!(built.outputs.is_none());
    let fault = built
        .checked
        .diagnostics
        .iter()
        .find(|d| d.code.as_str() == "SZ0701")
        .expect("SZ0701");
    let file = folder
        .source(fault.primary().expect("a label").origin.file)
        .name
        .clone();
    assert!(file.ends_with("number-front.typ"), "{file}");
}

#[test]
fn every_kind_of_component_prints_and_exports() {
    let built = build("every-kind", |_| {});
    for pdf in [
        "decks/sky.pdf",
        "decks/sky-cards.pdf",
        "pieces.pdf",
        "dice.pdf",
        "boards/field.pdf",
        "boards/field-tiled.pdf",
    ] {
        assert!(!pages_mm(&built[pdf]).is_empty(), "{pdf}");
    }
    let save = save(&built);
    // d6 dice are textured; the other types are the game's own dice with their faces listed.
    assert_eq!(objects(&save, "Custom_Dice").len(), 2);
    for builtin in ["Die_4", "Die_8", "Die_10", "Die_12", "Die_20"] {
        let dice = objects(&save, builtin);
        assert_eq!(dice.len(), 1, "{builtin}");
        assert!(
            dice[0]["Description"]
                .as_str()
                .unwrap()
                .starts_with("Faces: 1: ")
        );
    }
    // Hex tiles are hex tiles, round coins circles, square chits boxes.
    let bags = objects(&save, "Bag");
    let kind = |bag: &str| {
        let bag = bags.iter().find(|b| b["Nickname"] == bag).unwrap();
        bag["ContainedObjects"][0]["CustomImage"]["CustomTile"]["Type"]
            .as_u64()
            .unwrap()
    };
    assert_eq!(
        (kind("Hex Tiles"), kind("Square Tiles"), kind("Coins")),
        (1, 0, 2)
    );
    assert_eq!(
        objects(&save, "Custom_Tile").len(),
        12,
        "the chits, stacked"
    );
    // A game with no rules module has an empty rules part.
    let ruleset: Value = serde_json::from_slice(&built["ruleset.json"]).unwrap();
    assert_eq!(ruleset["rules"], serde_json::json!({}));
}

#[test]
fn a_roll_and_write_sheet_prints_one_page_and_gives_each_player_one() {
    let built = build("roll-and-write", |_| {});
    // One A4 page, with the designer's words: the sheet's title, the name field's label, the
    // tags as written and the key's own words.
    let sizes = pages_mm(&built["sheets/log.pdf"]);
    assert_eq!(sizes.len(), 1);
    assert!((sizes[0].0 - 210.0).abs() < 0.5 && (sizes[0].1 - 297.0).abs() < 0.5);
    let text = common::pdf_text(&built["sheets/log.pdf"]);
    for words in [
        "HIKER",
        "Hiker",
        "map",
        "lantern",
        "Summit",
        "open it first",
        "then take this",
        "bonus: fill any box",
    ] {
        assert!(
            text.contains(words),
            "`{words}` is not on the sheet: {text}"
        );
    }
    assert!(!text.contains("Trainer"), "{text}");
    // A sheet in front of each seat of the smallest game, each showing the sheet's picture.
    let save = save(&built);
    let sheets: Vec<&Value> = objects(&save, "Custom_Tile")
        .into_iter()
        .filter(|o| o["Nickname"].as_str().unwrap().starts_with("Trail Log: "))
        .collect();
    assert_eq!(sheets.len(), 2);
    let picture = sheets[0]["CustomImage"]["ImageURL"].as_str().unwrap();
    assert!(picture.contains("sheet-log-"), "{picture}");
    assert!(
        built
            .keys()
            .any(|k| picture.ends_with(k.trim_start_matches("tts/images")))
    );
    let at = |o: &Value| {
        (
            o["Transform"]["posX"].clone(),
            o["Transform"]["posZ"].clone(),
        )
    };
    assert_ne!(at(sheets[0]), at(sheets[1]), "each at its own seat");
    // The ruleset keeps every box with its terms as written, inherited `fill` included.
    let ruleset: Value = serde_json::from_slice(&built["ruleset.json"]).unwrap();
    let sheet = &ruleset["sheets"][0];
    assert_eq!(sheet["title"], "Hiker's Log");
    let boxes: Vec<&Value> = sheet["sections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["tracks"].as_array().unwrap())
        .flat_map(|t| t["boxes"].as_array().unwrap())
        .collect();
    assert_eq!(boxes.len(), 6 + 5 + 4 + 1 + 7 + 1);
    let dawn = boxes.iter().find(|b| b["id"] == "dawn").unwrap();
    assert_eq!(
        dawn["gives"],
        serde_json::json!(["rest: 2 / 3"]),
        "as written"
    );
    let summit = boxes.iter().find(|b| b["id"] == "summit").unwrap();
    assert_eq!(summit["needs"], serde_json::json!(["a map", "a lantern"]));
    assert_eq!(summit["fill"], "roll:double");
    assert_eq!(summit["vp"], 10);
    assert!(
        boxes
            .iter()
            .filter(|b| b["style"] == "free")
            .all(|b| b["fill"].is_null())
    );
    // A symbol's id in brackets is the symbol's icon on the sheet, and stays a word in the
    // ruleset.
    let star = boxes.iter().find(|b| b["id"] == "ridge.ridge#4").unwrap();
    assert_eq!(star["gives"], serde_json::json!(["[sun]"]));
    let (_, data) = table("roll-and-write");
    let layout = serde_json::to_string(&data.sheets[0].layout).unwrap();
    assert!(layout.contains(r#""kind":"icon","#) && layout.contains(r#""icon":"sun""#));
    // Inside a word too: `2x[sun]` is the word `2x`, then the icon; no bracket is printed.
    assert_eq!(layout.matches(r#""icon":"sun""#).count(), 2, "{layout}");
    assert!(layout.contains(r#""text":"2x""#) && !layout.contains("[sun]"));
}

#[test]
fn a_sheet_of_its_own_paper_is_printed_and_pictured_at_that_size() {
    // Tricky Safari's photo log is an A5 pad, whatever the game's paper.
    let built = build("tricky-safari", |o| {
        o.targets = vec![Target::Sheet, Target::Tts]
    });
    let sizes = pages_mm(&built["sheets/photo-log.pdf"]);
    assert_eq!(sizes.len(), 1);
    assert!((sizes[0].0 - 148.0).abs() < 0.5 && (sizes[0].1 - 210.0).abs() < 0.5);
    let save = save(&built);
    let logs: Vec<&Value> = objects(&save, "Custom_Tile")
        .into_iter()
        .filter(|o| o["Nickname"].as_str().unwrap().starts_with("Photo Log: "))
        .collect();
    assert_eq!(logs.len(), 2, "one for each of the two players");
    // A tile at scale 1 is two units deep (docs/tabletop-simulator.md): the pad's height.
    let scale = logs[0]["Transform"]["scaleX"].as_f64().unwrap();
    assert!((scale - 210.0 / 25.4 / 2.0).abs() < 1e-6, "{scale}");
}

#[test]
fn the_built_in_packs_are_the_content_packs() {
    for (pack_name, files) in safari::embedded::PACKS {
        let dir = pack(pack_name);
        let mut on_disk: Vec<String> = GameFolder::open(&dir).unwrap().files().unwrap();
        on_disk.sort();
        let mut built_in: Vec<String> = files.iter().map(|(name, _)| name.to_string()).collect();
        built_in.sort();
        assert_eq!(
            on_disk, built_in,
            "{pack_name}: every file of the pack is built in"
        );
        for (name, text) in *files {
            assert_eq!(
                std::fs::read_to_string(dir.join(name)).unwrap(),
                *text,
                "{pack_name}/{name}"
            );
        }
    }
    let names: Vec<&str> = safari::embedded::PACKS
        .iter()
        .map(|(name, _)| *name)
        .collect();
    assert_eq!(names, PACKS);
}

#[test]
fn a_card_too_large_for_the_layout_is_refused_not_printed() {
    use safari::backends::print::geometry::{DeckLayout, PaperSize, card_pages};
    // Geometry alone never divides by an empty grid.
    let (_, pages) = card_pages(
        PaperSize::A4,
        300.0,
        300.0,
        &[0, 0],
        DeckLayout::GutterFold,
        (0.0, 0.0),
    );
    assert!(pages.is_empty());
    // Duplex fits poker cards on 150 x 210 mm; half of it, for gutter-fold, does not.
    for layout in [DeckLayout::Duplex, DeckLayout::GutterFold] {
        let mut options = BuildOptions::default();
        options.print.page_previews = false;
        options.print.layout = layout;
        options.print.paper = Some(safari::model::Paper::Custom {
            width: 150.0,
            height: 210.0,
        });
        options.targets = vec![Target::Deck];
        let mut folder = GameFolder::open(&pack("gamewright-safari")).unwrap();
        let built = safari::build(&mut folder, &options);
        let codes: Vec<&str> = built
            .checked
            .diagnostics
            .iter()
            .map(|d| d.code.as_str())
            .collect();
        match layout {
            DeckLayout::Duplex => assert!(codes.is_empty() && built.outputs.is_some(), "{codes:?}"),
            DeckLayout::GutterFold => assert!(
                codes == ["SZ0313", "SZ0313"] && built.outputs.is_none(),
                "{codes:?}"
            ),
        }
    }
}

/// `watch` rebuilds what an edit affects: for a game of components, what the edited file
/// defines, whatever it is named (a file holding symbols, which show everywhere, rebuilds
/// everything, as does a file the game does not read); for Safari Zone RNW, its own files.
#[test]
fn watch_rebuilds_what_the_edited_file_of_a_game_of_components_defines() {
    use Target::*;
    use safari::rules::rebuild::affected;
    let all: BTreeSet<Target> = Target::ALL.into_iter().collect();
    let cases: &[(&str, &str, &[Target])] = &[
        ("diceafari", "deck.toml", &Target::ALL),
        ("diceafari", "components.toml", &Target::ALL),
        ("diceafari", "game.toml", &Target::ALL),
        // The playtest page holds the ruleset: stale with it.
        ("diceafari", "maps.toml", &[Deck, Ruleset, Tts, Play]),
        ("diceafari", "templates/map-front.typ", &[Deck, Tts]),
        (
            "tricky-safari",
            "photo-log.kdl",
            &[Sheet, Board, Ruleset, Tts, Play],
        ),
        ("safari-zone", "deck.toml", &[Deck, Ruleset, Tts, Play]),
    ];
    for (game, file, expected) in cases {
        let mut folder = GameFolder::open(&pack(game)).unwrap();
        let module = safari::rules_of(&mut folder);
        let stale = affected(module, &mut folder, &[file]);
        let expected: BTreeSet<Target> = expected.iter().copied().collect();
        assert_eq!(stale, expected, "{game}: {file}");
    }
    // Two files of one save: what either makes stale.
    let mut folder = GameFolder::open(&pack("diceafari")).unwrap();
    let module = safari::rules_of(&mut folder);
    let both = affected(module, &mut folder, &["maps.toml", "components.toml"]);
    assert_eq!(both, all);
}

/// A pack's files, one of them edited, as an in-memory game folder; what checking it finds.
fn check_edited(
    name: &str,
    file: &str,
    edit: impl Fn(&str) -> String,
) -> Vec<safari::diag::Diagnostic> {
    fn files(dir: &Path, under: &str, found: &mut Vec<(String, PathBuf)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = format!("{under}{}", path.file_name().unwrap().to_string_lossy());
            if path.is_dir() {
                files(&path, &format!("{name}/"), found);
            } else {
                found.push((name, path));
            }
        }
    }
    let mut found = Vec::new();
    files(&pack(name), "", &mut found);
    let mut folder = GameFolder::in_memory();
    for (relative, path) in found {
        let text = std::fs::read_to_string(&path).unwrap();
        let text = if relative == file { edit(&text) } else { text };
        folder.add_source(relative, text);
    }
    safari::check(&mut folder).diagnostics.into_vec()
}

/// What a DiceAFARI turn claims follows the Safari Dice: with one die no turn claims the two
/// tiles a turn needs and the game never ends; with fewer than a route's four tiles no turn
/// claims a whole route, and the Bonus Die's faces above the dice are never earned; with four
/// or more the pack plays as the rulebook's game.
#[test]
fn the_diceafari_checks_follow_the_number_of_safari_dice() {
    let dice = "id = \"safari-dice\"\nname = \"Safari Dice\"\ntype = \"d6\"\ncount = 4\n";
    for (count, codes, dead_faces) in [
        (1, vec!["SZ1104"], ""),
        (
            2,
            vec!["SZ1105"],
            "the Bonus Die's 3 and 4 are never earned",
        ),
        (3, vec!["SZ1105"], "the Bonus Die's 4 is never earned"),
        (4, vec![], ""),
        (5, vec![], ""),
    ] {
        let found = check_edited("diceafari", "components.toml", |text| {
            assert!(text.contains(dice));
            text.replace(
                dice,
                &dice.replace("count = 4", &format!("count = {count}")),
            )
        });
        let found_codes: Vec<&str> = found.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(found_codes, codes, "{count} dice: {found:?}");
        assert!(
            found.iter().all(|d| d.message.contains(dead_faces)),
            "{found:?}"
        );
    }
}

/// However each animal of the Tricky Safari pack faces at the start, even into the edge or a
/// forest, its walk brings it where a camera photographs it.
#[test]
fn every_tricky_safari_animal_is_photographed_whichever_way_it_starts() {
    let text = std::fs::read_to_string(pack("tricky-safari").join("components.toml")).unwrap();
    let animals: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("piece = \"animals/"))
        .collect();
    assert_eq!(animals.len(), 10);
    for line in animals {
        let facing = line
            .split("facing = \"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        for way in ["north", "east", "south", "west"] {
            let turned = line.replace(
                &format!("facing = \"{facing}\""),
                &format!("facing = \"{way}\""),
            );
            let found = check_edited("tricky-safari", "components.toml", |text| {
                text.replace(line, &turned)
            });
            assert!(found.is_empty(), "{turned}: {found:?}");
        }
    }
}

#[test]
fn diceafari_ruleset_names_every_component_it_uses() {
    // Each component key of the rules names a component the ruleset lists: the Bonus Die's
    // id once sat under a key the rule's text then overwrote.
    let built = build("diceafari", |o| o.targets = vec![Target::Ruleset]);
    let ruleset: Value = serde_json::from_slice(&built["ruleset.json"]).unwrap();
    let rules = &ruleset["rules"];
    let ids: Vec<&str> = ["tiles", "tokens", "decks", "dice"]
        .iter()
        .filter_map(|kind| ruleset[kind].as_array())
        .flatten()
        .filter_map(|c| c["id"].as_str())
        .collect();
    for key in ["tiles", "photos", "travel", "maps", "dice", "bonus"] {
        let id = rules[key]
            .as_str()
            .unwrap_or_else(|| panic!("rules.{key}: {}", rules[key]));
        assert!(ids.contains(&id), "rules.{key} = {id} is none of {ids:?}");
    }
    // The turn is data a second program plays from.
    assert_eq!(rules["turn"]["route"]["tiles"], 4);
    assert_eq!(
        rules["turn"]["route"]["shapes"],
        serde_json::json!(["line", "square"])
    );
    assert_eq!(rules["turn"]["claim"]["needs_claimable"], 2);
    assert_eq!(rules["first_player"]["most_of"], "mountain");
    for variant in [
        "photo-surprise",
        "exclusive-coverage",
        "wetlands",
        "map:elephant",
    ] {
        assert!(
            rules["variants"][variant].is_object(),
            "no variant {variant}"
        );
    }
}
