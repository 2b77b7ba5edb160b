//! The playtest pages of the games made of components that have an engine (Gamewright's
//! Safari, Tricky Safari): built with the game, the WebAssembly engine held to the native one
//! over 1,000 seeded games of each, and a whole hot-seat game of each clicked through in
//! Chromium (Gamewright's hands hidden between seats), whose downloaded log the native engine
//! replays to the same end.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use safari::backends::{BuildOptions, Target};
use safari::world::GameFolder;
use safari_engine::family::any;

use crate::browser;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

struct Built {
    dir: PathBuf,
    ruleset: String,
}

impl Built {
    fn page(&self) -> PathBuf {
        self.dir.join("play/index.html")
    }
}

const GAMEWRIGHT: usize = 0;
const TRICKY: usize = 1;
const DICEAFARI: usize = 2;
const PACKS: [&str; 3] = ["gamewright-safari", "tricky-safari", "diceafari"];

fn built(pack: usize) -> &'static Built {
    static BUILT: [OnceLock<Built>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    BUILT[pack].get_or_init(|| {
        let name = PACKS[pack];
        let mut folder = GameFolder::open(&Path::new(ROOT).join("content").join(name)).unwrap();
        let options = BuildOptions {
            targets: vec![Target::Ruleset, Target::Play],
            ..BuildOptions::default()
        };
        let outputs = safari::build(&mut folder, &options)
            .outputs
            .expect("the pack builds");
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("family-page-{name}"));
        let _ = std::fs::remove_dir_all(&dir);
        for output in &outputs {
            let path = dir.join(&output.path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, &output.bytes).unwrap();
        }
        let ruleset = outputs.iter().find(|o| o.path == "ruleset.json").unwrap();
        Built {
            ruleset: String::from_utf8(ruleset.bytes.clone()).unwrap(),
            dir,
        }
    })
}

fn script() -> PathBuf {
    Path::new(ROOT).join("tests/browser/family.mjs")
}

#[test]
fn the_page_is_one_file_holding_the_engine_and_the_ruleset() {
    for pack in [GAMEWRIGHT, TRICKY, DICEAFARI] {
        one_file(built(pack));
    }
}

fn one_file(built: &Built) {
    let html = std::fs::read_to_string(built.page()).unwrap();
    assert!(html.contains("<script id=\"ruleset\" type=\"application/json\">"));
    assert!(html.contains("<script id=\"engine\""));
    assert!(html.contains("Content-Security-Policy"));
    assert!(
        !html.contains("src=\"http"),
        "the page loads nothing from outside"
    );
    assert!(html.len() < 1 << 20, "the page is {} bytes", html.len());
    let wasm = safari_playtest::FAMILY_ENGINE_WASM;
    assert!(
        wasm.starts_with(b"\0asm") && wasm.len() < 1 << 20,
        "the engine is {} bytes",
        wasm.len()
    );
}

#[test]
fn the_webassembly_engine_plays_1000_seeded_games_as_the_native_engine() {
    same_games(GAMEWRIGHT, &[vec![], vec!["diagonal"], vec!["swapping"]]);
}

#[test]
fn the_webassembly_engine_plays_1000_seeded_games_of_tricky_safari_as_the_native_engine() {
    same_games(TRICKY, &[vec![], vec!["fixed-layout"]]);
}

#[test]
fn the_webassembly_engine_plays_1000_seeded_games_of_diceafari_as_the_native_engine() {
    same_games(
        DICEAFARI,
        &[
            vec![],
            vec!["photo-surprise"],
            vec!["exclusive-coverage", "wetlands"],
            vec!["map:snake"],
        ],
    );
}

/// 1,000 games of bots with the standard rules, 100 with each variant, the page's engine in
/// Node against the native one, action for action.
fn same_games(pack: usize, variant_sets: &[Vec<&str>]) {
    let Some(node) = browser::node() else { return };
    let built = built(pack);
    let (fewest, most) = match pack {
        GAMEWRIGHT => (2, 5),
        DICEAFARI => (2, 4),
        _ => (2, 2),
    };
    let mut requests = Vec::new();
    for variants in variant_sets {
        requests.push(
            serde_json::json!({ "op": "open", "ruleset": built.ruleset, "variants": variants }),
        );
        let games = if variants.is_empty() { 1000 } else { 100 };
        for game in 0..games as u64 {
            let players = fewest + (game as usize % (most - fewest + 1));
            let seats: Vec<&str> = (0..players)
                .map(|seat| {
                    if (game as usize + seat).is_multiple_of(10) {
                        "greedy"
                    } else {
                        "random"
                    }
                })
                .collect();
            requests
                .push(serde_json::json!({ "op": "selfplay", "seats": seats, "seed": game * 7919 }));
        }
    }
    requests
        .push(serde_json::json!({ "op": "selfplay", "seats": ["search:50", "greedy"], "seed": 5 }));
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("family-engine-{}", PACKS[pack]));
    std::fs::create_dir_all(&dir).unwrap();
    let lines: Vec<String> = requests.iter().map(|r| r.to_string()).collect();
    std::fs::write(dir.join("requests.jsonl"), lines.join("\n")).unwrap();
    let status = Command::new(node)
        .arg(script())
        .arg("engine")
        .arg(built.page())
        .arg(dir.join("requests.jsonl"))
        .arg(dir.join("answers.jsonl"))
        .status()
        .unwrap();
    assert!(status.success());
    let answers = std::fs::read_to_string(dir.join("answers.jsonl")).unwrap();
    let wasm: Vec<&str> = answers.lines().collect();
    assert_eq!(wasm.len(), lines.len());
    let mut native = safari_engine_wasm::family::FamilySession::default();
    let mut differ = Vec::new();
    for (line, (request, wasm)) in lines.iter().zip(&wasm).enumerate() {
        let here = native.handle(request.as_bytes());
        let value: serde_json::Value = serde_json::from_str(&here).unwrap();
        assert!(value.get("ok").is_some(), "request {line}: {here}");
        if request.contains("selfplay") {
            assert!(
                value["ok"]["outcome"]["winners"].is_array(),
                "request {line}: {here}"
            );
        }
        if here != *wasm {
            let actions = |text: &str| -> Vec<serde_json::Value> {
                let value: serde_json::Value = serde_json::from_str(text).unwrap();
                value["ok"]["log"].as_array().cloned().unwrap_or_default()
            };
            let (a, b) = (actions(&here), actions(wasm));
            let first = a
                .iter()
                .zip(&b)
                .position(|(x, y)| x != y)
                .unwrap_or(a.len().min(b.len()));
            differ.push(format!("request {line} ({request:.80}): first differs at action {first}: native {:?}, wasm {:?}", a.get(first), b.get(first)));
        }
    }
    assert!(
        differ.is_empty(),
        "{} games differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
}

#[test]
fn a_hot_seat_game_is_clicked_through_in_the_browser_with_hands_hidden_between_seats() {
    let mut broken: serde_json::Value = serde_json::from_str(&built(GAMEWRIGHT).ruleset).unwrap();
    broken["rules"]["turn"]["distinct_in"] = serde_json::json!(["row", "sideways"]);
    let Some(result) = play(GAMEWRIGHT, "person,person,greedy", "", &broken) else {
        return;
    };
    assert!(
        result["passes"].as_u64().unwrap() > 10,
        "two people took turns: {result}"
    );
    assert_eq!(
        result["hidden_while_passing"], true,
        "a hand showed while the device was passed"
    );
    // Undo stops at a face-down card taken: the first click took one, and Undo says why it
    // cannot take it back; the card put down next can be taken back.
    let undo = &result["undo_states"];
    assert_eq!(undo[0]["disabled"], true, "{undo}");
    assert!(
        undo[0]["title"].as_str().unwrap().contains("shown"),
        "{undo}"
    );
    assert_eq!(undo[1]["disabled"], false, "{undo}");
    let message = result["broken_message"].as_str().unwrap();
    assert!(
        message.contains("rules.turn.distinct_in") && message.contains("sideways"),
        "{message}"
    );
}

#[test]
fn a_game_of_tricky_safari_is_clicked_through_in_the_browser() {
    let mut broken: serde_json::Value = serde_json::from_str(&built(TRICKY).ruleset).unwrap();
    broken["rules"]["camera_move"]["lines"] = serde_json::json!("sideways");
    let Some(result) = play(TRICKY, "person,person", "", &broken) else {
        return;
    };
    // Nothing is hidden in Tricky Safari: the board stays on screen between the two people,
    // and every move can be taken back.
    assert_eq!(result["passes"], 0, "{result}");
    assert_eq!(result["undo_states"][0]["disabled"], false, "{result}");
    let message = result["broken_message"].as_str().unwrap();
    assert!(
        message.contains("rules.camera_move.lines") && message.contains("sideways"),
        "{message}"
    );
}

#[test]
fn a_game_of_diceafari_with_photo_surprise_is_clicked_through_with_photos_hidden_between_seats() {
    let mut broken: serde_json::Value = serde_json::from_str(&built(DICEAFARI).ruleset).unwrap();
    broken["rules"]["turn"]["route"]["shapes"] = serde_json::json!(["line", "zigzag"]);
    let Some(result) = play(DICEAFARI, "person,greedy,person", "photo-surprise", &broken) else {
        return;
    };
    // Photos are face down and seen by their takers alone: the table is hidden between the
    // two people.
    assert!(
        result["passes"].as_u64().unwrap() > 3,
        "two people took turns: {result}"
    );
    assert_eq!(
        result["hidden_while_passing"], true,
        "the map showed while the device was passed"
    );
    let log = result["log"].as_array().unwrap();
    for said in ["re-rolls", "claims", "takes the face-down photo"] {
        assert!(
            log.iter().any(|l| l.as_str().unwrap().contains(said)),
            "no `{said}` in the log: {log:?}"
        );
    }
    let message = result["broken_message"].as_str().unwrap();
    assert!(
        message.contains("rules.turn.route.shapes") && message.contains("zigzag"),
        "{message}"
    );
}

/// Plays `seats` on the pack's page by clicks to the game's end: checks what every game's page
/// must do (undo, the log downloaded and loaded back, the broken ruleset refused with the
/// game kept, a reload keeping the game, the native engine replaying the log to the page's
/// scores) and returns the scenario's result for the game's own checks.
fn play(
    pack: usize,
    seats: &str,
    variants: &str,
    broken: &serde_json::Value,
) -> Option<serde_json::Value> {
    let node = browser::node()?;
    let chromium = browser::chromium()?;
    let built = built(pack);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("family-play-{}", PACKS[pack]));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let broken_file = dir.join("broken.json");
    std::fs::write(&broken_file, broken.to_string()).unwrap();
    let output = Command::new(node)
        .arg(script())
        .arg("play")
        .arg(built.page())
        .arg(&dir)
        .arg(&broken_file)
        .arg(seats)
        .arg(variants)
        .env("CHROMIUM", chromium)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "the scenario failed:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("result.json")).unwrap()).unwrap();
    assert_eq!(
        report["problems"],
        serde_json::json!([]),
        "the page complained"
    );
    let result = report["result"].clone();
    println!("screenshots: {}", dir.display());
    assert!(
        result["over"].is_string(),
        "the game did not end: {}",
        result["status"]
    );
    // A hint says what the greedy bot would do, and lights it on the table.
    let hint = &result["hint"];
    assert!(
        hint["message"]
            .as_str()
            .unwrap()
            .contains("lit on the table"),
        "{hint}"
    );
    assert!(hint["lit"].as_u64().unwrap() >= 1, "nothing lit: {hint}");
    // Undo takes something back, or is off and says why (a card or a roll shown since).
    let undo = &result["undo"];
    if undo["disabled"] == true {
        assert!(undo["title"].as_str().unwrap().contains("shown"), "{undo}");
        assert_eq!(undo["after"], undo["before"], "{undo}");
    } else {
        assert!(
            undo["after"].as_u64() < undo["before"].as_u64(),
            "undo took nothing back: {undo}"
        );
    }
    assert_eq!(
        result["log"], result["reloaded_log"],
        "the downloaded log loads back as another game"
    );
    let length = result["log"].as_array().map(|l| l.len() as u64);
    assert_eq!(
        result["log_after_broken"].as_u64(),
        length,
        "the broken ruleset cost the game"
    );
    assert_eq!(
        result["log_after_reload"].as_u64(),
        length,
        "a reload lost the game"
    );

    // The native engine replays the downloaded log to the page's end.
    let saved: serde_json::Value =
        serde_json::from_slice(&std::fs::read(result["saved"].as_str().unwrap()).unwrap()).unwrap();
    let variants: Vec<String> = serde_json::from_value(saved["variants"].clone()).unwrap();
    let rules = any::open(saved["ruleset"].to_string().as_bytes(), &variants).unwrap();
    let seats: Vec<Option<String>> = serde_json::from_value(saved["seats"].clone()).unwrap();
    let game = rules
        .session(
            seats.clone(),
            saved["seed"].as_u64().unwrap(),
            &saved["actions"],
        )
        .unwrap();
    let outcome = game.outcome().expect("the replayed game is over");
    let status = result["status"].as_str().unwrap();
    for (seat, score) in outcome.scores.iter().enumerate() {
        let name = match &seats[seat] {
            None => format!("Player {}", seat + 1),
            Some(bot) => format!("Bot {} ({bot})", seat + 1),
        };
        assert!(
            status.contains(&format!("{name} {score}")),
            "{status} lacks {name} {score}"
        );
    }
    Some(result)
}

/// Every leaf of the rules, setups, boards, pieces and the first card of each ruleset
/// replaced by hostile values, and each mutant opened, started, played by bots, acted on with
/// nonsense and resumed from a bad log: the engine answers every request, an error or a game,
/// and never panics (in WebAssembly a panic would end the page's engine).
#[test]
fn no_request_makes_the_family_engine_panic() {
    use std::panic::{AssertUnwindSafe, catch_unwind};
    fn leaves(value: &serde_json::Value, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
        match value {
            serde_json::Value::Object(map) => {
                for (key, child) in map {
                    path.push(key.clone());
                    leaves(child, path, out);
                    path.pop();
                }
            }
            serde_json::Value::Array(items) => {
                out.push(path.clone());
                for (i, child) in items.iter().enumerate().take(3) {
                    path.push(i.to_string());
                    leaves(child, path, out);
                    path.pop();
                }
            }
            _ => out.push(path.clone()),
        }
    }
    fn at<'a>(value: &'a mut serde_json::Value, path: &[String]) -> &'a mut serde_json::Value {
        path.iter().fold(value, |v, key| match v {
            serde_json::Value::Array(items) => &mut items[key.parse::<usize>().unwrap()],
            other => &mut other[key.as_str()],
        })
    }
    let hostile = [
        serde_json::json!(0),
        serde_json::json!(-1),
        serde_json::json!(4_294_967_296u64),
        serde_json::json!(1e300),
        serde_json::json!(""),
        serde_json::json!("zz"),
        serde_json::json!([]),
        serde_json::json!(null),
    ];
    let mut requests = 0;
    let mut panics = Vec::new();
    for pack in [GAMEWRIGHT, TRICKY, DICEAFARI] {
        let ruleset: serde_json::Value = serde_json::from_str(&built(pack).ruleset).unwrap();
        let mut paths = Vec::new();
        for part in [
            "rules", "setups", "boards", "pieces", "game", "dice", "tiles", "tokens",
        ] {
            if let Some(value) = ruleset.get(part) {
                leaves(value, &mut vec![part.to_string()], &mut paths);
            }
        }
        if ruleset["decks"][0]["cards"][0].is_object() {
            let first_card = vec!["decks".into(), "0".into(), "cards".into(), "0".into()];
            leaves(
                &ruleset["decks"][0]["cards"][0],
                &mut first_card.clone(),
                &mut paths,
            );
        }
        for path in &paths {
            for value in &hostile {
                let mut mutant = ruleset.clone();
                *at(&mut mutant, path) = value.clone();
                let mut session = safari_engine_wasm::family::FamilySession::default();
                let script = [
                    serde_json::json!({ "op": "open", "ruleset": mutant.to_string() }),
                    serde_json::json!({ "op": "selfplay", "seats": ["random", "random"], "seed": 3 }),
                    serde_json::json!({ "op": "start", "seats": [null, "random"], "seed": 9 }),
                    serde_json::json!({ "op": "act", "action": { "do": "take", "cell": 250 } }),
                    serde_json::json!({ "op": "act", "action": { "do": "move", "to": 255 } }),
                    serde_json::json!({ "op": "why", "actions": [
                        { "do": "take", "cell": 250 }, { "do": "put", "card": 255 },
                        { "do": "trade", "card": 255, "cell": 255 }, { "do": "charlie" },
                        { "do": "move", "to": 255 }, { "do": "pass" },
                        { "do": "claim", "tiles": [63] }, { "do": "claim", "tiles": [] },
                        { "do": "bonus", "tile": 255 }, { "do": "photo", "space": 255 },
                        { "do": "reroll", "dice": 255 }, { "do": "no_photo" }, { "do": "fly" },
                    ] }),
                    serde_json::json!({ "op": "hint", "bot": "greedy" }),
                    serde_json::json!({ "op": "resume", "seats": [null, null], "seed": 1, "log": [{ "seat": 7, "action": { "do": "pass" } }] }),
                    serde_json::json!({ "op": "undo" }),
                    serde_json::json!({ "op": "state", "seat": 99 }),
                ];
                for request in script {
                    requests += 1;
                    let answer = catch_unwind(AssertUnwindSafe(|| {
                        session.handle(request.to_string().as_bytes())
                    }));
                    match answer {
                        Ok(text) => assert!(
                            text.starts_with("{\"ok\"") || text.starts_with("{\"error\""),
                            "{text}"
                        ),
                        Err(_) => panics.push(format!(
                            "{} {}={value}: {}",
                            PACKS[pack],
                            path.join("."),
                            request["op"]
                        )),
                    }
                }
            }
        }
    }
    assert!(
        panics.is_empty(),
        "{} of {requests} requests panicked:\n{}",
        panics.len(),
        panics.join("\n")
    );
    assert!(requests > 2000, "{requests} requests");
}

/// One request to a native engine of the family's page: its `ok` answer.
fn ask(
    session: &mut safari_engine_wasm::family::FamilySession,
    request: serde_json::Value,
) -> serde_json::Value {
    let answer: serde_json::Value =
        serde_json::from_str(&session.handle(request.to_string().as_bytes())).unwrap();
    assert!(answer["error"].is_null(), "{request}: {answer}");
    answer["ok"].clone()
}

/// A saved game of Gamewright's Safari (`ruleset`), made by the page's engine natively:
/// `seats` from `seed`, the first legal action taken for each person and the bots' own, until
/// `stop` says the game is where the log should end.
fn saved_game(
    ruleset: &serde_json::Value,
    seats: serde_json::Value,
    seed: u64,
    stop: impl Fn(&serde_json::Value, usize) -> bool,
) -> serde_json::Value {
    let mut session = safari_engine_wasm::family::FamilySession::default();
    ask(
        &mut session,
        serde_json::json!({ "op": "open", "ruleset": ruleset.to_string() }),
    );
    let mut state = ask(
        &mut session,
        serde_json::json!({ "op": "start", "seats": seats, "seed": seed }),
    );
    let mut taken = 0;
    while !stop(&state, taken) {
        let mover = state["to_move"].as_u64().expect("the game goes on") as usize;
        state = if state["bots"][mover] == true {
            ask(&mut session, serde_json::json!({ "op": "bot" }))
        } else {
            let action = state["legal"][0]["action"].clone();
            ask(
                &mut session,
                serde_json::json!({ "op": "act", "action": action, "seat": mover }),
            )
        };
        taken += 1;
    }
    ask(&mut session, serde_json::json!({ "op": "save" }))
}

/// Runs `family.mjs hostile` on Gamewright's Safari's page: a game in progress, then `file`,
/// of an attacker's `kind`; what the page was seen to do, after checking that it logged
/// nothing and that the scenario went through.
fn hostile(kind: &str, file: &Path) -> Option<serde_json::Value> {
    let node = browser::node()?;
    let chromium = browser::chromium()?;
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("family-hostile-{kind}"));
    let _ = std::fs::remove_dir_all(&dir);
    let output = Command::new(node)
        .arg(script())
        .args(["hostile"])
        .arg(built(GAMEWRIGHT).page())
        .arg(&dir)
        .arg(kind)
        .arg(file)
        .env("CHROMIUM", chromium)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "the {kind} scenario failed:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("result.json")).unwrap()).unwrap();
    assert_eq!(
        report["problems"],
        serde_json::json!([]),
        "the page complained"
    );
    let result = report["result"].clone();
    assert!(result["error"].is_null(), "{kind}: {result}");
    println!("screenshot of {kind}: {}", dir.display());
    Some(result)
}

fn hostile_file(name: &str, contents: &serde_json::Value) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("family-hostile-files");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(name);
    std::fs::write(&file, contents.to_string()).unwrap();
    file
}

/// A saved game seating `search:100000` (a move of many seconds), where that bot is to move:
/// refused before anything changes, naming the bot, and the page answers a click at once.
#[test]
fn a_log_seating_a_bot_the_page_does_not_offer_is_refused_and_the_page_answers_at_once() {
    let ruleset: serde_json::Value = serde_json::from_str(&built(GAMEWRIGHT).ruleset).unwrap();
    let log = saved_game(
        &ruleset,
        serde_json::json!([null, "search:100000"]),
        5,
        |state, _| state["to_move"] == 1,
    );
    let file = hostile_file("bot-log.json", &log);
    let Some(result) = hostile("bot-log", &file) else {
        return;
    };
    let message = result["message"].as_str().unwrap();
    assert!(
        message.contains("not loaded") && message.contains("search:100000"),
        "{message}"
    );
    assert_eq!(
        result["unchanged"], true,
        "the game in progress changed: {result}"
    );
    // Had the bot been seated it would be thinking now, for many seconds: the page answers a
    // click as soon as a page does.
    assert!(result["pause_ms"].as_u64().unwrap() < 1000, "{result}");
}

/// The same saved game, kept in the browser's storage as the game in progress (the page kept
/// its game before a bot's move, so a reload used to freeze it again): not picked up, naming
/// the bot, and the page answers a click at once.
#[test]
fn a_stored_game_seating_a_bot_the_page_does_not_offer_is_not_picked_up() {
    let ruleset: serde_json::Value = serde_json::from_str(&built(GAMEWRIGHT).ruleset).unwrap();
    let log = saved_game(
        &ruleset,
        serde_json::json!([null, "search:100000"]),
        5,
        |state, _| state["to_move"] == 1,
    );
    let file = hostile_file("bot-stored.json", &log);
    let Some(result) = hostile("bot-stored", &file) else {
        return;
    };
    let message = result["message"].as_str().unwrap();
    assert!(
        message.contains("not picked up") && message.contains("search:100000"),
        "{message}"
    );
    assert!(result["pause_ms"].as_u64().unwrap() < 1000, "{result}");
    assert!(
        !result["status"].as_str().unwrap().contains("search:100000"),
        "{result}"
    );
}

/// A saved game of another version whose fourth action is not legal: refused with what is
/// wrong, the game in progress exactly as it was, and played on.
#[test]
fn a_log_that_does_not_replay_leaves_the_game_in_progress_untouched() {
    let mut ruleset: serde_json::Value = serde_json::from_str(&built(GAMEWRIGHT).ruleset).unwrap();
    ruleset["game"]["name"] = "Gamewright's Safari (another version)".into();
    let mut log = saved_game(
        &ruleset,
        serde_json::json!([null, "greedy"]),
        9,
        |_, taken| taken == 6,
    );
    log["actions"][3]["action"] = serde_json::json!({ "do": "take", "cell": 40 });
    let file = hostile_file("broken-log.json", &log);
    let Some(result) = hostile("broken-log", &file) else {
        return;
    };
    let message = result["message"].as_str().unwrap();
    assert!(
        message.contains("not loaded")
            && message.contains("log entry 3")
            && message.contains("not legal"),
        "{message}"
    );
    assert_eq!(
        result["unchanged"], true,
        "the game in progress changed: {result}"
    );
    assert_eq!(result["played_on"], true, "{result}");
}

/// A ruleset whose symbol colour is CSS of an attacker's (`red;position:fixed;inset:0`): every
/// card is drawn in its place on the table, and the page says the colour was ignored.
#[test]
fn a_symbol_colour_that_is_no_colour_draws_nothing_out_of_its_place() {
    let mut ruleset: serde_json::Value = serde_json::from_str(&built(GAMEWRIGHT).ruleset).unwrap();
    let symbols = ruleset["symbols"].as_array_mut().unwrap();
    for symbol in symbols.iter_mut() {
        symbol["color"] = "red;position:fixed;inset:0;z-index:9".into();
    }
    let file = hostile_file("coloured.json", &ruleset);
    let Some(result) = hostile("coloured", &file) else {
        return;
    };
    assert!(result["cards"].as_u64().unwrap() > 20, "{result}");
    assert_eq!(
        result["outside"], 0,
        "cards drawn outside the table: {result}"
    );
    assert_eq!(
        result["positions"],
        serde_json::json!(["relative"]),
        "{result}"
    );
    assert_eq!(result["header_clickable"], true, "{result}");
    assert!(
        result["message"].as_str().unwrap().contains("no colour"),
        "{result}"
    );
}

/// Runs `family.mjs explain` on the pack's page: what the page was seen to do, after checking
/// that it logged nothing and that the scenario went through.
fn explained(pack: usize) -> Option<serde_json::Value> {
    let node = browser::node()?;
    let chromium = browser::chromium()?;
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("family-explain-{}", PACKS[pack]));
    let _ = std::fs::remove_dir_all(&dir);
    let output = Command::new(node)
        .arg(script())
        .arg("explain")
        .arg(built(pack).page())
        .arg(&dir)
        .env("CHROMIUM", chromium)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "the scenario failed:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("result.json")).unwrap()).unwrap();
    assert_eq!(
        report["problems"],
        serde_json::json!([]),
        "the page complained"
    );
    let result = report["result"].clone();
    assert!(result["error"].is_null(), "{result}");
    println!("screenshots: {}", dir.display());
    Some(result)
}

/// Everything a refused click would have taken says why: on hover, and in the message line
/// when clicked or tapped (a touch screen has no hover), in the engine's words.
fn says_why(refused: &serde_json::Value, what: &str) {
    assert!(
        refused["count"].as_u64().unwrap() > 0,
        "{what}: nothing refused: {refused}"
    );
    assert_eq!(
        refused["said"], refused["count"],
        "{what}: refused things that do not say why: {refused}"
    );
    assert_eq!(refused["disabled"], 0, "{what}: {refused}");
}

/// A refused thing clicked: the message line says what its title says, a sentence naming the
/// reason.
fn click_says(clicked: &serde_json::Value, words: &[&str]) {
    let message = clicked["message"]
        .as_str()
        .unwrap_or_else(|| panic!("{clicked}"));
    assert_eq!(clicked["title"].as_str(), Some(message), "{clicked}");
    assert_eq!(clicked["kind"], "refusal", "{clicked}");
    assert!(
        words.iter().any(|w| message.contains(w)),
        "`{message}` says none of {words:?}"
    );
}

/// The rules in play are on the page, from the engine's reading of the ruleset, and the
/// ruleset's rulings beside them.
fn shows_rules(result: &serde_json::Value, words: &[&str]) {
    let rules: Vec<&str> = result["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    assert!(rules.len() >= 4, "{rules:?}");
    let text = rules.join(" ");
    for word in words {
        assert!(text.contains(word), "the rules lack `{word}`: {text}");
    }
    assert!(result["rulings"].as_u64().unwrap() > 0, "{result}");
    assert_eq!(result["rules_visible"], true, "{result}");
}

#[test]
fn tricky_safaris_page_says_why_a_cell_is_refused_labels_its_board_and_logs_every_move() {
    let Some(result) = explained(TRICKY) else {
        return;
    };
    says_why(&result["start"], "the first move");
    says_why(&result["after"], "later");
    click_says(&result["forest"], &["Forest covers"]);
    click_says(&result["animal"], &["stands on"]);
    click_says(&result["stay"], &["must"]);
    shows_rules(
        &result,
        &["first move", "photographs", "placed anew every game"],
    );
    // The board drawn is this game's landscape, the rulebook's, not the board as printed.
    let rules = any::open(built(TRICKY).ruleset.as_bytes(), &[]).unwrap();
    let game = rules
        .session(vec![None, None], 42, &serde_json::json!([]))
        .unwrap();
    assert_eq!(result["terrain"], game.view(None)["terrain"]);
    let ruleset: serde_json::Value = serde_json::from_str(&built(TRICKY).ruleset).unwrap();
    let printed: Vec<&serde_json::Value> = ruleset["boards"][0]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row.as_array().unwrap())
        .collect();
    assert_ne!(
        result["terrain"],
        serde_json::json!(printed),
        "the page drew the board as printed"
    );
    // The board carries the log's names of its cells: a to j above its columns, 1 to 10
    // beside its rows, each centred on its column or row.
    let labels = &result["labels"];
    let columns: Vec<&str> = labels["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["label"].as_str().unwrap())
        .collect();
    assert_eq!(columns, ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]);
    let rows: Vec<&str> = labels["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["label"].as_str().unwrap())
        .collect();
    assert_eq!(rows, ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]);
    for label in labels["columns"].as_array().unwrap() {
        assert!(label["off"].as_f64().unwrap() < 2.0, "{label}");
        assert_eq!(label["above"], true, "{label}");
    }
    for label in labels["rows"].as_array().unwrap() {
        assert!(label["off"].as_f64().unwrap() < 2.0, "{label}");
        assert_eq!(label["left"], true, "{label}");
    }
    // The log lists the cameras' moves, the photographs they take and the animals' steps.
    let log = result["log"].as_array().unwrap();
    let text: Vec<&str> = log.iter().map(|l| l.as_str().unwrap()).collect();
    for said in ["moves to", "photographs the", "The animals step:", "→"] {
        assert!(
            text.iter().any(|l| l.contains(said)),
            "no `{said}` in the log: {text:#?}"
        );
    }
}

#[test]
fn gamewrights_page_says_why_a_card_is_refused_and_shows_its_rules() {
    let Some(result) = explained(GAMEWRIGHT) else {
        return;
    };
    says_why(&result["start"], "the first turn");
    says_why(&result["after"], "a card taken");
    click_says(&result["hand"], &["Take a card from the jungle first"]);
    click_says(&result["jungle"], &["You have taken a card this turn"]);
    shows_rules(&result, &["jungle", "Safari Charlie", "Scoring"]);
}

#[test]
fn diceafaris_page_says_why_a_tile_is_refused_shows_its_rules_and_plays_one_map_at_a_time() {
    let Some(result) = explained(DICEAFARI) else {
        return;
    };
    says_why(&result["start"], "the first roll");
    click_says(&result["tile"], &["dice", "route", "Travel Token", "claim"]);
    click_says(&result["claim_button"], &["first"]);
    shows_rules(&result, &["Safari Dice", "Bonus", "Travel Token"]);
    // Two map variants ticked one after the other: the second unticks the first, and a
    // variant of another rule stays ticked.
    let offered: Vec<&str> = result["variants_offered"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let maps: Vec<&str> = offered
        .iter()
        .copied()
        .filter(|v| v.starts_with("map:"))
        .collect();
    let mut ticked: Vec<&str> = result["ticked"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    ticked.sort_unstable();
    assert_eq!(ticked, [maps[1], "photo-surprise"], "{result}");
    // The engine refuses the two together, wherever they come from (a log, `sim`).
    let variants = vec![maps[0].to_string(), maps[1].to_string()];
    let refused = any::open(built(DICEAFARI).ruleset.as_bytes(), &variants)
        .err()
        .expect("two maps at once are refused");
    assert!(
        refused.message.contains(maps[0]) && refused.message.contains(maps[1]),
        "{refused}"
    );
    assert_eq!(refused.path, format!("rules.variants.{}", maps[1]));
}
