//! Tricky Safari played by its engine from the ruleset the compiler writes: the rulebook's six
//! cases of an animal's step and its four exceptions, the order the animals move in, the
//! photographs, the ends, the varying layout (the rulebook's, the default) and the fixed one,
//! seeded play, and the checker and the engine agreeing on which animals can be photographed
//! and which starts are allowed.

use std::path::Path;

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use safari::world::GameFolder;
use safari_engine::family::bots::Bot;
use safari_engine::family::tricky_safari::{Action, Game, Table};
use safari_engine::family::{Play, Start};
use serde_json::{Value, json};

const PACK: &str = "content/tricky-safari";

fn pack_ruleset() -> Value {
    let mut folder = GameFolder::open(&Path::new(env!("CARGO_MANIFEST_DIR")).join(PACK)).unwrap();
    let checked = safari::check(&mut folder);
    assert!(!checked.diagnostics.has_errors());
    let table = checked.table.unwrap();
    let module = safari::rules::module(&table.manifest.rules.value).unwrap();
    serde_json::from_str(&safari::backends::table::ruleset::text(&table, module)).unwrap()
}

/// The pack's ruleset on another board: `rows` of `.` (open), `F` (forest), `L` (lake); each
/// animal `(id, cell, facing)` (an id of the pack, whose `crosses` it keeps); the cameras.
fn ruleset(rows: &[&str], animals: &[(&str, &str, &str)], cameras: [&str; 2]) -> Value {
    let mut ruleset = pack_ruleset();
    let cells: Vec<Vec<&str>> = rows
        .iter()
        .map(|r| {
            r.chars()
                .map(|c| match c {
                    'F' => "forest",
                    'L' => "lake",
                    _ => "open",
                })
                .collect()
        })
        .collect();
    ruleset["boards"][0]["columns"] = json!(rows[0].len());
    ruleset["boards"][0]["rows"] = json!(rows.len());
    ruleset["boards"][0]["cells"] = json!(cells);
    let all = ruleset["pieces"][0]["pieces"].as_array().unwrap().clone();
    ruleset["pieces"][0]["pieces"] = json!(
        animals
            .iter()
            .map(|(id, _, _)| all.iter().find(|p| p["id"] == *id).unwrap().clone())
            .collect::<Vec<_>>()
    );
    let mut place: Vec<Value> = animals
        .iter()
        .map(|(id, at, facing)| json!({ "set": "animals", "piece": id, "board": "landscape", "at": at, "facing": facing }))
        .collect();
    for (camera, at) in ["yellow", "red"].iter().zip(cameras) {
        place.push(json!({ "set": "cameras", "piece": camera, "board": "landscape", "at": at, "facing": null }));
    }
    ruleset["setups"][0]["place"] = json!(place);
    // The worked examples are played on the board as drawn: the rulebook's varying layout
    // would move its forests and lakes.
    ruleset["rules"]["layout"]["vary"] = json!(false);
    ruleset
}

fn start(ruleset: &Value, variants: &[&str]) -> Table {
    let variants: Vec<String> = variants.iter().map(|v| v.to_string()).collect();
    Game::read(ruleset.to_string().as_bytes(), &variants)
        .unwrap()
        .start(2, 1)
        .unwrap()
}

/// Where each animal stands and faces after one round in which both cameras stay.
fn after_a_round(ruleset: &Value) -> Vec<(String, String)> {
    let mut table = start(ruleset, &[]);
    table.apply(Action::Pass);
    table.apply(Action::Pass);
    let view = table.view(None);
    let columns = view["columns"].as_u64().unwrap() as usize;
    view["animals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            let cell = a["cell"].as_u64().unwrap() as usize;
            let name = format!(
                "{}{}",
                (b'a' + (cell % columns) as u8) as char,
                cell / columns + 1
            );
            (name, a["facing"].as_str().unwrap().to_string())
        })
        .collect()
}

#[test]
fn an_animal_steps_by_the_rulebooks_six_cases() {
    let corners = ["a5", "e5"];
    let lion = |rows: &[&str]| {
        after_a_round(&ruleset(rows, &[("lion", "c3", "north")], corners))[0].clone()
    };
    let cases: [(&str, &[&str], (&str, &str)); 6] = [
        (
            "not blocked: one cell forward",
            &[".....", ".....", ".....", ".....", "....."],
            ("c2", "north"),
        ),
        (
            "blocked ahead and on the left: a quarter turn right",
            &[".....", "..L..", ".L...", ".....", "....."],
            ("d3", "east"),
        ),
        (
            "blocked ahead and on both sides: turn around and move",
            &[".....", "..L..", ".L.L.", ".....", "....."],
            ("c4", "south"),
        ),
        (
            "blocked on all four sides: turn around and stay",
            &[".....", "..L..", ".L.L.", "..L..", "....."],
            ("c3", "south"),
        ),
        (
            "forest ahead, both sides open: turn left",
            &[".....", "..F..", ".....", ".....", "....."],
            ("b3", "west"),
        ),
        (
            "lake ahead, both sides open: turn right",
            &[".....", "..L..", ".....", ".....", "....."],
            ("d3", "east"),
        ),
    ];
    let mut wrong = Vec::new();
    for (case, rows, (cell, facing)) in cases {
        let (got_cell, got_facing) = lion(rows);
        if (got_cell.as_str(), got_facing.as_str()) != (cell, facing) {
            wrong.push(format!(
                "{case}: at {got_cell} facing {got_facing}, not {cell} facing {facing}"
            ));
        }
    }
    // Blocked ahead by the edge, both sides open: turn right.
    let edge = after_a_round(&ruleset(
        &[".....", ".....", "....."],
        &[("lion", "c1", "north")],
        ["a3", "e3"],
    ));
    if edge[0] != ("d1".to_string(), "east".to_string()) {
        wrong.push(format!("the edge ahead: {:?}", edge[0]));
    }
    // A camera blocks: a camera ahead, both sides open: turn right. (A second animal keeps
    // the photograph of the lion from ending the game before the animals move.)
    let camera = after_a_round(&ruleset(
        &[".....", ".....", ".....", ".....", "....."],
        &[("lion", "c3", "north"), ("zebra", "a5", "north")],
        ["c2", "e5"],
    ));
    if camera[0] != ("d3".to_string(), "east".to_string()) {
        wrong.push(format!("a camera ahead: {:?}", camera[0]));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn turtle_crocodile_squirrel_and_ape_cross_their_terrain() {
    let corners = ["a5", "e5"];
    for (animal, rows, crosses) in [
        (
            "turtle",
            [".....", "..L..", ".....", ".....", "....."],
            true,
        ),
        (
            "crocodile",
            [".....", "..L..", ".....", ".....", "....."],
            true,
        ),
        (
            "squirrel",
            [".....", "..F..", ".....", ".....", "....."],
            true,
        ),
        ("ape", [".....", "..F..", ".....", ".....", "....."], true),
        (
            "turtle",
            [".....", "..F..", ".....", ".....", "....."],
            false,
        ),
        ("ape", [".....", "..L..", ".....", ".....", "....."], false),
    ] {
        let after = after_a_round(&ruleset(&rows, &[(animal, "c3", "north")], corners));
        assert_eq!(
            after[0].0 == "c2",
            crosses,
            "{animal} with {} ahead: {:?}",
            rows[1],
            after[0]
        );
    }
}

#[test]
fn the_animals_move_top_row_first_and_left_to_right() {
    // The lion (row 2) moves before the zebra (row 3) and takes d2; the zebra, facing north,
    // then finds d2 taken.
    let rows = [".....", ".....", ".....", ".....", "....."];
    let after = after_a_round(&ruleset(
        &rows,
        &[("zebra", "d3", "north"), ("lion", "c2", "east")],
        ["a5", "e5"],
    ));
    assert_eq!(after[1], ("d2".to_string(), "east".to_string()), "the lion");
    assert_eq!(
        after[0],
        ("e3".to_string(), "east".to_string()),
        "the zebra, blocked by the lion"
    );
    // Within a row, the leftmost first: the elephant takes c1 before the tiger can.
    let after = after_a_round(&ruleset(
        &rows,
        &[("tiger", "d1", "west"), ("elephant", "b1", "east")],
        ["a5", "e5"],
    ));
    assert_eq!(after[1].0, "c1", "the elephant");
    assert_eq!(
        after[0],
        ("d2".to_string(), "south".to_string()),
        "the tiger, blocked: a quarter turn to its open side"
    );
}

/// The seat to move moves its camera to `cell` (it must be offered).
fn go(table: &mut Table, cell: &str) {
    let mut legal = Vec::new();
    table.legal(&mut legal);
    let action = legal
        .iter()
        .copied()
        .find(|a| table.describe(*a) == format!("moves to {cell}"))
        .unwrap_or_else(|| panic!("no move to {cell} among {legal:?}"));
    table.apply(action);
}

#[test]
fn a_photograph_is_taken_from_the_front_or_a_side_never_from_behind() {
    // The lion at c3 faces east: its front is d3, its left c2, its right c4, its back b3.
    let open = [".....", ".....", ".....", ".....", "....."];
    for (from, to, photographed) in [
        ("d1", "d3", true),
        ("c1", "c2", true),
        ("c5", "c4", true),
        ("b1", "b3", false),
    ] {
        let red = if from == "c5" { "a1" } else { "a5" };
        let mut table = start(&ruleset(&open, &[("lion", "c3", "east")], [from, red]), &[]);
        go(&mut table, to);
        assert_eq!(
            table.view(None)["photos"][0] == 1,
            photographed,
            "a camera on {to}"
        );
    }
}

#[test]
fn the_game_ends_after_a_round_with_every_animal_photographed_and_equal_turns_may_draw() {
    // One lion at b2 facing east: its front is c2, its right (south) b3.
    let open = [".....", ".....", ".....", ".....", "....."];
    // Yellow photographs it on its first move; red, far off, still plays the round.
    let mut table = start(
        &ruleset(&open, &[("lion", "b2", "east")], ["b5", "e5"]),
        &[],
    );
    go(&mut table, "b3");
    assert_eq!(table.to_move(), Some(1), "red still plays the round");
    table.apply(Action::Pass);
    let outcome = table.outcome().expect("over after the round");
    assert_eq!(
        (outcome.reason, outcome.winners),
        ("all_photographed", vec![0])
    );
    // Both photograph it in the same round: a draw.
    let mut table = start(
        &ruleset(&open, &[("lion", "b2", "east")], ["b5", "e2"]),
        &[],
    );
    go(&mut table, "b3");
    go(&mut table, "c2");
    let outcome = table.outcome().expect("over after the round");
    assert_eq!(
        (outcome.reason, outcome.winners, outcome.scores),
        ("all_photographed", vec![0, 1], vec![1, 1])
    );
}

#[test]
fn the_animals_do_not_move_after_the_last_round() {
    let mut ruleset = ruleset(
        &[".....", ".....", ".....", ".....", "....."],
        &[("lion", "c3", "north")],
        ["a5", "e5"],
    );
    ruleset["rules"]["moves_per_player"] = json!(1);
    let mut table = start(&ruleset, &[]);
    table.apply(Action::Pass);
    table.apply(Action::Pass);
    let view = table.view(None);
    assert_eq!(
        view["animals"][0]["cell"], 12,
        "the lion moved after the last round"
    );
    assert_eq!(table.outcome().unwrap().reason, "moves_played");
    assert_eq!(
        table.outcome().unwrap().winners,
        vec![0, 1],
        "no photographs: a draw"
    );
}

#[test]
fn the_first_move_is_orthogonal_or_a_pass_and_later_moves_go_any_way_but_through_animals() {
    let table = start(
        &ruleset(
            &[".....", ".....", "..F..", ".....", "....."],
            &[("lion", "e3", "west")],
            ["a5", "e1"],
        ),
        &[],
    );
    let mut legal = Vec::new();
    table.legal(&mut legal);
    let cells: Vec<String> = legal.iter().map(|a| table.describe(*a)).collect();
    assert!(legal.contains(&Action::Pass), "{cells:?}");
    assert!(
        cells
            .iter()
            .all(|c| c == "stays where it is" || c.ends_with('5') || c.starts_with("moves to a")),
        "{cells:?}"
    );
    let mut table = table;
    table.apply(Action::Pass);
    table.apply(Action::Pass);
    legal.clear();
    table.legal(&mut legal);
    assert!(
        !legal.contains(&Action::Pass),
        "a camera that can move must"
    );
    assert!(
        legal.iter().any(|a| table.describe(*a) == "moves to b4"),
        "the diagonal"
    );
}

/// The rulebook's game is the pack's default: each game places the forests and lakes anew, so
/// two seeds start on different landscapes; the variant `fixed-layout` plays the board as
/// printed, the same every game.
#[test]
fn the_default_game_varies_its_landscape_and_fixed_layout_keeps_the_printed_board() {
    let pack = pack_ruleset();
    let printed: Vec<String> = pack["boards"][0]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row.as_array().unwrap().iter())
        .map(|cell| cell.as_str().unwrap().to_string())
        .collect();
    let landscape = |variants: &[String], seed: u64| -> Vec<String> {
        let game = Game::read(pack.to_string().as_bytes(), variants).unwrap();
        let view = game.start(2, seed).unwrap().view(None);
        view["terrain"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap().to_string())
            .collect()
    };
    let default: std::collections::BTreeSet<Vec<String>> =
        (0..10).map(|seed| landscape(&[], seed)).collect();
    assert!(
        default.len() >= 9,
        "the default game drew {} landscapes in 10 seeds",
        default.len()
    );
    assert!(
        !default.contains(&printed),
        "a default game was played on the printed board"
    );
    let fixed = vec!["fixed-layout".to_string()];
    for seed in 0..10 {
        assert_eq!(landscape(&fixed, seed), printed, "seed {seed}");
    }
}

#[test]
fn every_game_ends_and_a_seed_gives_the_same_game_with_the_layout_varying() {
    let pack = pack_ruleset();
    let game = Game::read(pack.to_string().as_bytes(), &[]).unwrap();
    let mut layouts = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let play = || {
            let mut table = game.start(2, seed).unwrap();
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            let mut log = Vec::new();
            while table.to_move().is_some() {
                let action = Bot::Random.choose(&table, &mut rng);
                table.apply(action);
                log.push(action);
                assert!(log.len() <= 80, "seed {seed}: more than 40 moves each");
            }
            (table.view(None), log)
        };
        let (first, second) = (play(), play());
        assert_eq!(first, second, "seed {seed}");
        let start = game.start(2, seed).unwrap().view(None);
        // No animal starts where it may not stand, and no terrain covers a camera.
        for animal in start["animals"].as_array().unwrap() {
            let cell = animal["cell"].as_u64().unwrap() as usize;
            assert_ne!(start["terrain"][cell], "forest", "seed {seed}: {animal}");
            assert_ne!(start["terrain"][cell], "lake", "seed {seed}: {animal}");
        }
        for camera in start["cameras"].as_array().unwrap() {
            assert_eq!(start["terrain"][camera.as_u64().unwrap() as usize], "open");
        }
        layouts.insert(start["terrain"].to_string());
    }
    assert!(layouts.len() > 30, "{} layouts in 40 games", layouts.len());
}

#[test]
fn greedy_beats_random_and_search_beats_greedy() {
    let game = Game::read(pack_ruleset().to_string().as_bytes(), &[]).unwrap();
    let greedy = crate::common::win_share(&game, "greedy", "random", 200);
    assert!(greedy > 0.9, "greedy won {greedy:.2}");
    // When this was written search won 75% of these 40 games (seats rotating).
    let search = crate::common::win_share(&game, "search", "greedy", 40);
    assert!(search > 0.6, "search won {search:.2}");
}

/// The checker follows every way the pieces could stand, so an animal it calls hidden
/// (SZ1202) no game photographs; and it refuses a start off open ground (SZ1201) exactly
/// when the engine does. Over generated landscapes and starts.
#[test]
fn the_checker_and_the_engine_agree_on_photographs_and_starts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(PACK);
    let manifest = std::fs::read_to_string(dir.join("game.toml")).unwrap();
    let log = std::fs::read_to_string(dir.join("photo-log.kdl")).unwrap();
    let components = std::fs::read_to_string(dir.join("components.toml")).unwrap();
    let board_at = components.find("cells = [").unwrap();
    let board_end = board_at + components[board_at..].find(']').unwrap() + 1;
    let setup_at = components.find("[[setup]]").unwrap();
    let animals = [
        "elephant",
        "lion",
        "tiger",
        "giraffe",
        "zebra",
        "buffalo",
        "ape",
        "squirrel",
        "crocodile",
        "turtle",
    ];
    let facings = ["north", "east", "south", "west"];
    let mut rng = Pcg64Mcg::seed_from_u64(11);
    let (mut hidden, mut refused, mut photographed_passing, mut passing) = (0, 0, 0, 0);
    let mut faults = Vec::new();
    for variant in 0..60 {
        let density = [0.15, 0.3, 0.45][variant % 3];
        let mut cells = vec![vec!['.'; 10]; 10];
        for (r, row) in cells.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                let corner = (r == 0 || r == 9) && (c == 0 || c == 9);
                if !corner && rng.random_bool(density) {
                    *cell = if rng.random_bool(0.5) { 'F' } else { 'L' };
                }
            }
        }
        let mut taken = std::collections::BTreeSet::from([(9usize, 0usize), (0, 9)]);
        let mut place = String::new();
        for animal in animals {
            let (r, c) = loop {
                let at = (rng.random_range(0..10usize), rng.random_range(0..10usize));
                if taken.insert(at) {
                    break at;
                }
            };
            // Most animals on open ground; now and then one off it, which both must refuse.
            if variant % 7 != 0 {
                cells[r][c] = '.';
            }
            let facing = facings[rng.random_range(0..4)];
            place += &format!(
                "  {{ piece = \"animals/{animal}\", board = \"landscape\", at = \"{}{}\", facing = \"{facing}\" }},\n",
                (b'a' + c as u8) as char,
                r + 1
            );
        }
        place += "  { piece = \"cameras/yellow\", board = \"landscape\", at = \"a10\" },\n  { piece = \"cameras/red\", board = \"landscape\", at = \"j1\" },\n";
        let board: Vec<String> = cells
            .iter()
            .map(|r| format!("  \"{}\",", r.iter().collect::<String>()))
            .collect();
        let text = format!(
            "{}cells = [\n{}\n]{}[[setup]]\nplayers = 2\nplace = [\n{place}]\n",
            &components[..board_at],
            board.join("\n"),
            &components[board_end..setup_at]
        );
        let mut folder = GameFolder::in_memory();
        folder.add_source("game.toml".to_string(), manifest.clone());
        folder.add_source("components.toml".to_string(), text);
        folder.add_source("photo-log.kdl".to_string(), log.clone());
        let checked = safari::check(&mut folder);
        let codes: Vec<String> = checked
            .diagnostics
            .iter()
            .map(|d| d.code.to_string())
            .collect();
        let unexpected: Vec<&String> = codes
            .iter()
            .filter(|c| !["SZ1201", "SZ1202", "SZ1204"].contains(&c.as_str()))
            .collect();
        assert!(unexpected.is_empty(), "variant {variant}: {codes:?}");
        let table = checked.table.as_ref().unwrap();
        let module = safari::rules::module(&table.manifest.rules.value).unwrap();
        let ruleset = safari::backends::table::ruleset::text(table, module);
        // The checker holds the board as printed: the engine plays it so in `fixed-layout`.
        let game = Game::read(ruleset.as_bytes(), &["fixed-layout".to_string()]);
        let off_ground = codes.iter().any(|c| c == "SZ1201");
        if off_ground != game.is_err() {
            faults.push(format!(
                "variant {variant}: the checker says {codes:?}, the engine {:?}",
                game.as_ref().err()
            ));
        }
        let Ok(game) = game else {
            refused += 1;
            continue;
        };
        // Which animals the checker calls hidden, by name in its messages.
        let hidden_here: Vec<&str> = checked
            .diagnostics
            .iter()
            .filter(|d| ["SZ1202", "SZ1204"].contains(&d.code.to_string().as_str()))
            .filter_map(|d| animals.iter().copied().find(|a| d.message.contains(a)))
            .collect();
        hidden += hidden_here.len();
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..30u64 {
            let bots = [Bot::Random, Bot::Greedy];
            let mut table = game.start(2, seed).unwrap();
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            while let Some(seat) = table.to_move() {
                let action = bots[(seat + seed as usize) % 2].choose(&table, &mut rng);
                table.apply(action);
            }
            seen.extend(table.used());
        }
        for animal in &hidden_here {
            if seen.contains(*animal) {
                faults.push(format!("variant {variant}: the {animal} was photographed, which the checker calls impossible"));
            }
        }
        for animal in animals.iter().filter(|a| !hidden_here.contains(a)) {
            passing += 1;
            photographed_passing += usize::from(seen.contains(*animal));
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
    assert!(
        hidden > 0 && refused > 0,
        "{hidden} hidden animals, {refused} refused starts: the corpus tests neither"
    );
    println!(
        "{photographed_passing} of {passing} animals the checker passes were photographed in 30 games"
    );
}

/// Why the rules refuse a camera's move, in the words a page shows for a click that cannot
/// move it, and the log's notes of what the rules did after a move: the photographs and the
/// animals' steps.
#[test]
fn a_refused_move_says_why_and_the_log_notes_photographs_and_steps() {
    let mut table = start(
        &ruleset(
            &[".....", ".....", "F....", ".....", "....."],
            &[("lion", "c3", "west")],
            ["a5", "e1"],
        ),
        &[],
    );
    let cell = |name: &str| {
        let column = name.as_bytes()[0] - b'a';
        let row: u8 = name[1..].parse().unwrap();
        (row - 1) * 5 + column
    };
    let why = |table: &Table, to: &str| table.why_not(Action::Move { to: cell(to) });
    assert!(why(&table, "b4").contains("not in a5's row or column"));
    assert!(why(&table, "a3").starts_with("forest covers a3"));
    assert!(why(&table, "a1").contains("blocked by forest on a3"));
    assert!(why(&table, "c3").starts_with("the Lion stands on c3"));
    assert!(why(&table, "e1").starts_with("the other camera stands on e1"));
    // The first camera moves to a4, where it photographs nothing; the second stays; then the
    // lion steps west, from c3 to b3.
    let before = table.clone();
    go(&mut table, "a4");
    assert!(
        table
            .aftermath(&before, Action::Move { to: cell("a4") })
            .is_empty()
    );
    let before = table.clone();
    table.apply(Action::Pass);
    let notes = table.aftermath(&before, Action::Pass);
    let said: Vec<&str> = notes.iter().map(|n| n.says.as_str()).collect();
    assert!(
        said.iter()
            .any(|s| s.starts_with("The animals step: Lion c3→b3")),
        "{said:?}"
    );
    // Later, a pass is refused while the camera can move; from b4 the camera stands at the
    // lion's left and photographs it.
    assert!(table.why_not(Action::Pass).contains("must"));
    let before = table.clone();
    go(&mut table, "b4");
    let notes = table.aftermath(&before, Action::Move { to: cell("b4") });
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert_eq!(notes[0].seat, Some(0));
    assert_eq!(notes[0].says, "photographs the Lion");
}
