//! The playtest page of a game made of components (Gamewright's Safari): built with the game,
//! its WebAssembly engine held to the native one over 1,000 seeded games, and a whole
//! hot-seat game clicked through in Chromium, hands hidden between seats, whose downloaded log
//! the native engine replays to the same end.

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

fn built() -> &'static Built {
    static BUILT: OnceLock<Built> = OnceLock::new();
    BUILT.get_or_init(|| {
        let mut folder =
            GameFolder::open(&Path::new(ROOT).join("content/gamewright-safari")).unwrap();
        let options = BuildOptions {
            targets: vec![Target::Ruleset, Target::Play],
            ..BuildOptions::default()
        };
        let outputs = safari::build(&mut folder, &options)
            .outputs
            .expect("the pack builds");
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("family-page");
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

/// Node with playwright-core, or `None` when the test should be skipped (as tests/playtest.rs).
fn node() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    let node = std::env::split_paths(&path)
        .map(|dir| dir.join("node"))
        .find(|c| c.is_file());
    let playwright = Path::new(ROOT).join("tests/browser/node_modules/playwright-core");
    match node {
        Some(node) if playwright.is_dir() => Some(node),
        _ if std::env::var_os("SAFARI_REQUIRE_BROWSER").is_some() => {
            panic!(
                "SAFARI_REQUIRE_BROWSER is set but Node or playwright-core is missing (cd tests/browser && npm ci)"
            )
        }
        _ => {
            eprintln!("SKIPPED: no Node with playwright-core (cd tests/browser && npm ci)");
            None
        }
    }
}

fn script() -> PathBuf {
    Path::new(ROOT).join("tests/browser/family.mjs")
}

#[test]
fn the_page_is_one_file_holding_the_engine_and_the_ruleset() {
    let html = std::fs::read_to_string(built().page()).unwrap();
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
    let Some(node) = node() else { return };
    let built = built();
    let mut requests = Vec::new();
    for variants in [vec![], vec!["diagonal"], vec!["swapping"]] {
        requests.push(
            serde_json::json!({ "op": "open", "ruleset": built.ruleset, "variants": variants }),
        );
        let games = if variants.is_empty() { 1000 } else { 100 };
        for game in 0..games as u64 {
            let players = 2 + (game % 4) as usize;
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
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("family-engine");
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
    let Some(node) = node() else { return };
    let Some(chromium) = browser::chromium() else {
        return;
    };
    let built = built();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("family-play");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let broken = dir.join("broken.json");
    let mut ruleset: serde_json::Value = serde_json::from_str(&built.ruleset).unwrap();
    ruleset["rules"]["turn"]["distinct_in"] = serde_json::json!(["row", "sideways"]);
    std::fs::write(&broken, ruleset.to_string()).unwrap();
    let output = Command::new(node)
        .arg(script())
        .arg("play")
        .arg(built.page())
        .arg(&dir)
        .arg(&broken)
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
    let result = &report["result"];
    println!("screenshots: {}", dir.display());
    assert!(
        result["over"].is_string(),
        "the game did not end: {}",
        result["status"]
    );
    assert!(
        result["passes"].as_u64().unwrap() > 10,
        "two people took turns: {result}"
    );
    assert_eq!(
        result["hidden_while_passing"], true,
        "a hand showed while the device was passed"
    );
    let undo = &result["undo"];
    assert!(
        undo["after"].as_u64() < undo["before"].as_u64(),
        "undo took nothing back: {undo}"
    );
    assert_eq!(
        result["log"], result["reloaded_log"],
        "the downloaded log loads back as another game"
    );
    let message = result["broken_message"].as_str().unwrap();
    assert!(
        message.contains("rules.turn.distinct_in") && message.contains("sideways"),
        "{message}"
    );
    assert_eq!(
        result["log_after_broken"].as_u64(),
        result["log"].as_array().map(|l| l.len() as u64)
    );
    assert_eq!(
        result["log_after_reload"].as_u64(),
        result["log"].as_array().map(|l| l.len() as u64)
    );

    // The native engine replays the downloaded log to the page's end.
    let saved: serde_json::Value =
        serde_json::from_slice(&std::fs::read(result["saved"].as_str().unwrap()).unwrap()).unwrap();
    let rules = any::open(saved["ruleset"].to_string().as_bytes(), &[]).unwrap();
    let seats: Vec<Option<String>> = serde_json::from_value(saved["seats"].clone()).unwrap();
    let game = rules
        .session(seats, saved["seed"].as_u64().unwrap(), &saved["actions"])
        .unwrap();
    let outcome = game.outcome().expect("the replayed game is over");
    let status = result["status"].as_str().unwrap();
    for (seat, score) in outcome.scores.iter().enumerate() {
        let name = if saved["seats"][seat].is_null() {
            format!("Player {}", seat + 1)
        } else {
            format!("Bot {} (greedy)", seat + 1)
        };
        assert!(
            status.contains(&format!("{name} {score}")),
            "{status} lacks {name} {score}"
        );
    }
}
