//! The playtest page (`out/<game>/play/index.html`): one file, the engine in it plays the
//! native engine's games, and a person's clicks in a real browser play the native engine's
//! game too.
//!
//! The browser tests run `tests/browser/playtest.mjs` with Node and playwright-core (installed
//! by `.ci/run` with `npm ci`), driving Debian's Chromium. Where Node, playwright-core or
//! Chromium is missing they are skipped with a printed reason, unless `SAFARI_REQUIRE_BROWSER`
//! is set (CI sets it), when they fail. Screenshots are left in the target folder to look at.

use crate::browser;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use safari::backends::{BuildOptions, Target};
use safari::rules::safari_zone::engine::{
    self,
    step::{Log, Match, Now, Seat},
};
use safari::world::GameFolder;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The default game's ruleset.json and playtest page, built once.
struct Built {
    dir: PathBuf,
    ruleset: String,
}

impl Built {
    fn page(&self) -> PathBuf {
        self.dir.join("play/index.html")
    }

    fn ruleset_file(&self) -> PathBuf {
        self.dir.join("ruleset.json")
    }

    fn rules(&self) -> engine::Rules {
        engine::load(self.ruleset.as_bytes()).unwrap()
    }
}

fn built() -> &'static Built {
    static BUILT: OnceLock<Built> = OnceLock::new();
    BUILT.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("playtest-build");
        let _ = std::fs::remove_dir_all(&dir);
        let outputs = build_page();
        for output in &outputs {
            let path = dir.join(&output.path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, &output.bytes).unwrap();
        }
        let ruleset = std::fs::read_to_string(dir.join("ruleset.json")).unwrap();
        Built { dir, ruleset }
    })
}

fn build_page() -> Vec<safari::backends::Output> {
    let mut folder = GameFolder::open(&Path::new(ROOT).join("content/safari-zone")).unwrap();
    let options = BuildOptions {
        targets: vec![Target::Ruleset, Target::Play],
        ..BuildOptions::default()
    };
    let built = safari::build(&mut folder, &options);
    built.outputs.expect("the default game builds")
}

fn script() -> PathBuf {
    Path::new(ROOT).join("tests/browser/playtest.mjs")
}

/// Runs a scenario of `playtest.mjs` in Chromium: its result, after checking that the page
/// logged nothing and loaded nothing from outside.
fn play(scenario: &str, extra: Option<&Path>) -> Option<serde_json::Value> {
    let node = browser::node()?;
    let chromium = browser::chromium()?;
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("playtest-{scenario}"));
    let _ = std::fs::remove_dir_all(&dir);
    let mut command = Command::new(node);
    command
        .arg(script())
        .args(["play"])
        .arg(built().page())
        .arg(scenario)
        .arg(&dir)
        .env("CHROMIUM", chromium);
    if let Some(extra) = extra {
        command.arg(extra);
    }
    let output = command.output().unwrap();
    assert!(
        output.status.success(),
        "the {scenario} scenario failed:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("result.json")).unwrap()).unwrap();
    assert_eq!(
        report["problems"],
        serde_json::json!([]),
        "the page complained in {scenario}"
    );
    println!("screenshots of {scenario}: {}", dir.display());
    Some(report["result"].clone())
}

/// Each seat's filled boxes and VP at the end of a native match.
fn native_sheets(game: &Match) -> Vec<(BTreeSet<String>, u32)> {
    let Now::Over { players, .. } = game.now() else {
        panic!("the native game is not over")
    };
    let rules = game.rules();
    players
        .iter()
        .map(|player| {
            let filled = (0..rules.boxes.len())
                .filter(|b| player.filled[*b])
                .map(|b| rules.box_ids[b].clone())
                .collect();
            (filled, player.vp)
        })
        .collect()
}

fn page_sheets(result: &serde_json::Value) -> Vec<(BTreeSet<String>, u32)> {
    result["sheets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|sheet| {
            let filled = sheet["filled"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| b.as_str().unwrap().to_string())
                .collect();
            (filled, sheet["vp"].as_u64().unwrap() as u32)
        })
        .collect()
}

/// The game-over breakdown adds up: each seat's sections to its total, its total to its score.
fn assert_breakdown(result: &serde_json::Value) {
    let rows = result["breakdown"].as_array().unwrap();
    let cells = |row: &serde_json::Value| -> Vec<u32> {
        row["cells"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap().parse().unwrap())
            .collect()
    };
    let sections: Vec<Vec<u32>> = rows
        .iter()
        .filter(|r| !matches!(r["row"].as_str(), Some("bonus" | "total" | "species")))
        .map(cells)
        .collect();
    let Some(total) = rows.iter().find(|r| r["row"] == "total") else {
        panic!("no total in the breakdown: {rows:?}")
    };
    let total = cells(total);
    assert!(sections.len() >= 3, "{rows:?}");
    for (seat, score) in scores(result).into_iter().enumerate() {
        let sum: u32 = sections.iter().map(|s| s[seat]).sum();
        assert_eq!((sum, total[seat]), (score, score), "seat {seat}: {rows:?}");
    }
}

fn scores(result: &serde_json::Value) -> Vec<u32> {
    result["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_u64().unwrap() as u32)
        .collect()
}

#[test]
fn the_page_is_one_small_file_holding_the_engine_the_ruleset_and_the_pictures() {
    let html = std::fs::read_to_string(built().page()).unwrap();
    // The size targets (docs/performance.md): the page under 3 MB, the engine under 1 MB.
    assert!(html.len() < 3 << 20, "the page is {} bytes", html.len());
    let wasm = safari_playtest::ENGINE_WASM;
    assert!(wasm.len() < 1 << 20, "the engine is {} bytes", wasm.len());
    assert!(wasm.starts_with(b"\0asm"), "the engine is not WebAssembly");
    // Self-contained: a policy forbids loading anything, and nothing is linked.
    assert!(html.contains("Content-Security-Policy"));
    for outside in ["src=\"http", "href=\"http", "@import", "<link"] {
        assert!(
            !html.contains(outside),
            "the page loads from outside: {outside}"
        );
    }
    // The ruleset is the one build wrote, and it says where every box prints.
    let embedded = html
        .split_once("<script id=\"ruleset\" type=\"application/json\">")
        .and_then(|(_, rest)| rest.split_once("</script>"))
        .map(|(json, _)| json)
        .unwrap();
    let embedded: serde_json::Value = serde_json::from_str(embedded).unwrap();
    let written: serde_json::Value = serde_json::from_str(&built().ruleset).unwrap();
    assert_eq!(embedded, written);
    let places = written["sheet"]["boxes"].as_array().unwrap();
    let boxes: usize = written["field_guide"]["sections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["tracks"].as_array().unwrap())
        .map(|t| t["boxes"].as_array().unwrap().len())
        .sum();
    assert_eq!(places.len(), boxes, "a box with no place on the sheet");
    // The same content gives the same page.
    let again = build_page()
        .into_iter()
        .find(|o| o.path == "play/index.html")
        .unwrap();
    assert!(
        again.bytes == html.as_bytes(),
        "the page differs between two builds"
    );
}

#[test]
fn the_webassembly_engine_plays_1000_seeded_games_as_the_native_engine() {
    let Some(node) = browser::node() else { return };
    let built = built();
    let policies = ["random", "greedy", "expected"];
    let mut requests = Vec::new();
    for game in 0..1000u64 {
        let players = 1 + (game % 4) as usize;
        let seats: Vec<&str> = (0..players)
            .map(|seat| policies[(game as usize + seat) % policies.len()])
            .collect();
        requests.push(serde_json::json!({ "op": "selfplay", "seats": seats, "seed": game * 7919 }));
    }
    // A few games of the search policy, whose model the engine fits on one thread in a page.
    for seed in 0..3u64 {
        requests.push(serde_json::json!({ "op": "selfplay", "seats": ["search:8"], "seed": seed }));
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("playtest-engine");
    std::fs::create_dir_all(&dir).unwrap();
    let lines: Vec<String> = requests.iter().map(|r| r.to_string()).collect();
    std::fs::write(dir.join("requests.jsonl"), lines.join("\n")).unwrap();
    let status = Command::new(node)
        .arg(script())
        .arg("engine")
        .arg(built.page())
        .arg(built.ruleset_file())
        .arg(dir.join("requests.jsonl"))
        .arg(dir.join("answers.jsonl"))
        .status()
        .unwrap();
    assert!(status.success());
    let answers = std::fs::read_to_string(dir.join("answers.jsonl")).unwrap();
    let wasm: Vec<&str> = answers.lines().collect();
    assert_eq!(wasm.len(), lines.len());
    let mut native = safari_engine_wasm::Session::default();
    let opened = native.handle(
        serde_json::json!({ "op": "open", "ruleset": built.ruleset })
            .to_string()
            .as_bytes(),
    );
    assert!(opened.contains("\"ok\""), "{opened}");
    let mut differ = Vec::new();
    for (game, (request, wasm)) in lines.iter().zip(&wasm).enumerate() {
        let here = native.handle(request.as_bytes());
        if here != *wasm {
            let events = |text: &str| -> Vec<serde_json::Value> {
                let value: serde_json::Value = serde_json::from_str(text).unwrap();
                value["ok"]["events"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default()
            };
            let (a, b) = (events(&here), events(wasm));
            let first = a
                .iter()
                .zip(&b)
                .position(|(x, y)| x != y)
                .unwrap_or(a.len().min(b.len()));
            differ.push(format!(
                "game {game} ({request}): first differs at event {first}: native {:?}, wasm {:?}",
                a.get(first),
                b.get(first)
            ));
        }
        let value: serde_json::Value = serde_json::from_str(&here).unwrap();
        assert!(
            value["ok"]["events"]
                .as_array()
                .is_some_and(|e| !e.is_empty()),
            "game {game}: {here}"
        );
    }
    assert!(
        differ.is_empty(),
        "{} games differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
}

#[test]
fn a_game_played_by_clicks_in_the_browser_is_the_native_engines_game() {
    let Some(result) = play("clicks", None) else {
        return;
    };
    assert_eq!(result["state"], "over", "the game did not end: {result}");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("playtest-clicks");
    let (log, game) = Log::read(&std::fs::read(dir.join("clicks-log.json")).unwrap()).unwrap();
    assert_eq!(log.seats.len(), 2);
    assert!(log.actions.iter().all(|a| !a.bot), "people's choices only");
    assert!(log.actions.len() > 100, "{} choices", log.actions.len());
    // The page's final sheets and scores are the native engine's for the same choices.
    let native = native_sheets(&game);
    assert_eq!(page_sheets(&result), native);
    let Now::Over {
        scores: native_scores,
        ..
    } = game.now()
    else {
        unreachable!()
    };
    assert_eq!(&scores(&result), native_scores);
    // The people chose a species for the Repel and a die for the Poké Doll by the page's
    // buttons, and the log says which (the native game above took the same choices).
    let clicks = &result["itemClicks"];
    let page_log = result["log"].as_str().unwrap();
    for (clicked, said) in [("repel", "used the Repel on "), ("lock", "keeps its ")] {
        assert!(
            clicks[clicked].as_u64().unwrap() > 0,
            "no {clicked}: {clicks}"
        );
        assert!(page_log.contains(said), "the log never says `{said}`");
    }
    // The turns that ended are summed up until the person chooses again, into the next
    // turn's first decision, the dice drawn as dice; a throw's capture dice among them.
    let summaries = result["summaries"].as_array().unwrap();
    assert!(summaries.len() >= 3, "{summaries:?}");
    assert!(
        summaries
            .iter()
            .all(|s| s["dice"].as_u64().unwrap() > 0 && !s["deciding"].is_null()),
        "{summaries:?}"
    );
    assert!(
        summaries
            .iter()
            .any(|s| s["captureDice"].as_u64().unwrap() > 0),
        "no summary draws a throw: {summaries:?}"
    );
    // A hint says what the default bot would choose, and lights it.
    let hint = &result["hint"];
    assert!(
        hint["message"].as_str().unwrap().starts_with("Hint: "),
        "{hint}"
    );
    assert!(hint["lit"].as_u64().unwrap() >= 1, "{hint}");
    // A re-roll's line says which dice were re-rolled.
    assert!(page_log.contains("re-rolled di"), "no re-roll in the log");
    assert_breakdown(&result);
    // A reload in the middle of the game changed nothing.
    let reloaded = &result["reloaded"];
    assert_eq!(reloaded["before"], reloaded["after"]);
    assert!(
        reloaded["message"]
            .as_str()
            .unwrap()
            .contains("back where you left it")
    );
    // Undo at the end reopens the last decision, unless a roll, a draw or a throw came of the
    // last choice (undo stops there): the page offers it as the native engine does.
    let undoable = game.undoable();
    assert_eq!(result["undo"]["disabled"], !undoable, "{result}");
    if undoable {
        assert_eq!(result["afterUndo"], "playing");
    } else {
        assert_eq!(result["afterUndo"], "over");
        let title = result["undo"]["title"].as_str().unwrap();
        assert!(title.contains("roll, draw or throw"), "{title}");
    }
}

#[test]
fn bots_play_a_whole_game_in_the_browser_as_the_native_engine_does() {
    let Some(result) = play("bots", None) else {
        return;
    };
    let seats: Vec<Seat> = ["planner", "greedy", "expected"]
        .iter()
        .map(|bot| Seat {
            bot: Some(bot.to_string()),
        })
        .collect();
    let mut game = Match::new(built().rules(), seats, 777).unwrap();
    while game.play_bot().is_some() {}
    assert_eq!(page_sheets(&result), native_sheets(&game));
    let Now::Over { scores, .. } = game.now() else {
        unreachable!()
    };
    assert_eq!(&self::scores(&result), scores);
    assert_breakdown(&result);
    // The planner plays the page's own ruleset with the model the page carries: no study.
    let said = result["said"].as_array().unwrap();
    assert!(
        !said
            .iter()
            .any(|m| m.as_str().unwrap().contains("studying")),
        "{said:?}"
    );
}

#[test]
fn a_broken_ruleset_is_refused_with_a_message_and_the_game_goes_on() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("playtest-broken-rulesets");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let good: serde_json::Value = serde_json::from_str(&built().ruleset).unwrap();
    let edited = |edit: &dyn Fn(&mut serde_json::Value)| {
        let mut value = good.clone();
        edit(&mut value);
        value.to_string()
    };
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "1-not-json.json",
            "{\"format\": \"safari-ruleset\",".to_string(),
            "not JSON",
        ),
        (
            "2-other-format.json",
            r#"{"format":"safari-components","format_version":1}"#.to_string(),
            "not a safari ruleset",
        ),
        (
            "3-older-version.json",
            edited(&|v| v["format_version"] = 2.into()),
            "version",
        ),
        (
            "4-missing-deck.json",
            edited(&|v| {
                v.as_object_mut().unwrap().remove("deck");
            }),
            "deck",
        ),
        (
            "5-unknown-item.json",
            edited(&|v| v["deck"]["cards"][0]["criteria"]["item"] = "a-golden-key".into()),
            "a-golden-key",
        ),
        (
            "6-no-players.json",
            edited(&|v| v["parameters"]["players_max"] = 0.into()),
            "players",
        ),
        ("7-empty.json", String::new(), "not JSON"),
    ];
    for (name, text, _) in &cases {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let Some(result) = play("broken", Some(&dir)) else {
        return;
    };
    let refusals = result["refusals"].as_array().unwrap();
    assert_eq!(refusals.len(), cases.len());
    for ((name, _, says), refusal) in cases.iter().zip(refusals) {
        let message = refusal["message"].as_str().unwrap();
        assert!(
            message.contains(name) && message.contains(says),
            "{name}: {message}"
        );
        assert_eq!(refusal["state"], "playing", "{name} broke the game");
    }
    assert_eq!(result["played"], true);
}

#[test]
fn another_version_of_the_game_opens_from_its_ruleset_and_plays() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("playtest-other-rulesets");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut other: serde_json::Value = serde_json::from_str(&built().ruleset).unwrap();
    other["content_hash"] = format!("sha256:{}", "0".repeat(64)).into();
    other["game"]["name"] = "Safari Zone RNW (next)".into();
    let boxes = other["sheet"]["boxes"].as_array().unwrap().len();
    std::fs::write(dir.join("1-next.json"), other.to_string()).unwrap();
    // One made without laying the sheet out (as `sim` makes them): no places at all.
    other.as_object_mut().unwrap().remove("sheet");
    std::fs::write(dir.join("2-unplaced.json"), other.to_string()).unwrap();
    let Some(result) = play("other", Some(&dir)) else {
        return;
    };
    let opened = result["opened"].as_array().unwrap();
    assert_eq!(opened.len(), 2);
    for seen in opened {
        assert!(seen["title"].as_str().unwrap().contains("(next)"), "{seen}");
        assert!(
            seen["message"]
                .as_str()
                .unwrap()
                .contains("drawn from the ruleset"),
            "{seen}"
        );
        assert_eq!(seen["marks"], boxes, "every box can be marked: {seen}");
        assert_eq!(seen["played"], true);
        assert_eq!(seen["state"], "playing");
    }
    // Its sheet is drawn from the places in its ruleset; without them, track by track.
    assert_eq!(opened[0]["schematic"], 1);
    assert_eq!(opened[1]["schematic"], 0);
    // Drawn as a player reads the print: each box's species beside it, what boxes need and
    // give, no word over a box, the dice as dice.
    let drawn = &opened[0];
    let labels = drawn["labels"].as_array().unwrap();
    let named: BTreeSet<&str> = labels.iter().map(|l| l.as_str().unwrap()).collect();
    let species: serde_json::Value = serde_json::from_str(&built().ruleset).unwrap();
    let unlabelled: Vec<&str> = species["species"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .filter(|name| {
            !named
                .iter()
                .any(|l| l.split(" / ").any(|part| part == *name))
        })
        .collect();
    assert!(
        unlabelled.is_empty(),
        "species named by no box: {unlabelled:?}"
    );
    let tags = drawn["tags"].as_array().unwrap();
    assert!(
        tags.iter().any(|t| t.as_str().unwrap().contains("needs "))
            && tags.iter().any(|t| t.as_str().unwrap().contains("gives ")),
        "{tags:?}"
    );
    assert_eq!(drawn["overlaps"], serde_json::json!([]), "words over boxes");
    assert!(
        drawn["dice"].as_u64().unwrap() > 0,
        "dice drawn as text: {drawn}"
    );
    // The version opened stays through New game; one click brings the page's own back.
    assert_eq!(result["keptAfterNewGame"], 1);
    let back = &result["back"];
    assert!(
        back["message"].as_str().unwrap().contains("own version"),
        "{back}"
    );
    assert_eq!(back["button"], 0);
    assert_eq!(back["pictures"], 1, "the page's own pictures: {back}");
    assert!(
        !back["header"].as_str().unwrap().contains("(next)"),
        "{back}"
    );
    // A ruleset dropped on the page opens.
    let dropped = &result["dropped"];
    assert!(
        dropped["message"]
            .as_str()
            .unwrap()
            .contains("Opened 1-next.json"),
        "{dropped}"
    );
    assert_eq!(dropped["schematic"], 1);
}

#[test]
fn a_game_log_replays_step_by_step_in_the_browser() {
    let seats = vec![
        Seat { bot: None },
        Seat {
            bot: Some("expected".to_string()),
        },
    ];
    // A game with a person's choices (the first offered each time) and a bot's.
    let mut game = Match::new(built().rules(), seats, 31337).unwrap();
    loop {
        if game.play_bot().is_some() {
            continue;
        }
        let Some(moment) = game.moment() else { break };
        let choice = moment
            .choices
            .last()
            .copied()
            .unwrap_or(engine::policy::Choice::Stop);
        game.apply(choice).unwrap();
    }
    let log = Log::of(&game, serde_json::from_str(&built().ruleset).unwrap());
    let file = Path::new(env!("CARGO_TARGET_TMPDIR")).join("playtest-replay.json");
    std::fs::write(&file, serde_json::to_vec(&log).unwrap()).unwrap();
    let Some(result) = play("replay", Some(&file)) else {
        return;
    };
    let n = game.taken().len() as u64;
    assert_eq!(result["seen"], serde_json::json!([0, 1, 2, 3, 4, 5, 4, n]));
    // The replay buttons read as their glyphs, not as empty boxes.
    assert_eq!(result["undrawn"], serde_json::json!([]), "{result}");
    assert_eq!(page_sheets(&result["end"]), native_sheets(&game));
    // A log opened with Open ruleset is named a log, and replayed.
    let opened = &result["openedAsRuleset"];
    assert!(
        opened["message"]
            .as_str()
            .unwrap()
            .contains("is a game log, not a ruleset: replaying"),
        "{opened}"
    );
    assert_eq!(opened["at"], 0);
}

#[test]
fn the_page_plays_in_firefox() {
    let Some(node) = browser::node() else { return };
    let firefox = ["/usr/bin/firefox", "/usr/bin/firefox-esr"]
        .into_iter()
        .map(PathBuf::from)
        .find(|path| path.is_file());
    let Some(firefox) = firefox else {
        assert!(
            std::env::var_os("SAFARI_REQUIRE_BROWSER").is_none(),
            "SAFARI_REQUIRE_BROWSER is set but Firefox is missing (apt-get install firefox-esr)"
        );
        eprintln!("SKIPPED: no Firefox (apt-get install firefox-esr)");
        return;
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("playtest-firefox");
    let _ = std::fs::remove_dir_all(&dir);
    let output = Command::new(node)
        .arg(Path::new(ROOT).join("tests/browser/firefox.mjs"))
        .arg(built().page())
        .arg(&dir)
        .env("FIREFOX", firefox)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "Firefox failed:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("result.json")).unwrap()).unwrap();
    assert_eq!(
        report["problems"],
        serde_json::json!([]),
        "the page complained in Firefox"
    );
    let result = &report["result"];
    assert!(result["kinds"].as_array().unwrap().len() >= 10, "{result}");
    assert!(!result["before"].as_array().unwrap().is_empty(), "{result}");
    assert_eq!(result["before"], result["after"], "a reload lost the game");
    println!("screenshots of Firefox: {}", dir.display());
}

/// The page's engine dies with a panic (WebAssembly aborts), so no request, however hostile,
/// may make it panic: thousands of requests of every op with wrong, huge and odd values, and
/// of choices a game does not offer, each answered with `ok` or an `error`.
#[test]
fn no_request_makes_the_engine_panic() {
    let mut session = safari_engine_wasm::Session::default();
    let mut ask = |request: serde_json::Value| -> serde_json::Value {
        let bytes = request.to_string();
        let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            session.handle(bytes.as_bytes())
        }))
        .unwrap_or_else(|_| panic!("the engine panicked on {bytes}"));
        let value: serde_json::Value = serde_json::from_str(&answer).unwrap();
        assert!(
            value.get("ok").is_some() != value.get("error").is_some(),
            "{answer}"
        );
        value
    };
    // Before any ruleset or game.
    for op in [
        "start", "act", "bot", "undo", "state", "save", "box", "die", "back_to",
    ] {
        ask(serde_json::json!({ "op": op }));
    }
    ask(serde_json::json!({ "op": "open", "ruleset": built().ruleset }));
    let odd = [
        serde_json::json!(null),
        serde_json::json!(-1),
        serde_json::json!(u64::MAX),
        serde_json::json!(1e300),
        serde_json::json!("x"),
        serde_json::json!([]),
        serde_json::json!({}),
        serde_json::json!(4294967296u64),
        serde_json::json!(31),
        serde_json::json!(12),
    ];
    let acts = |i: usize| -> serde_json::Value {
        let value = odd[i % odd.len()].clone();
        match i % 9 {
            0 => serde_json::json!("stop"),
            1 => serde_json::json!("throw"),
            2 => serde_json::json!({ "reroll": [value] }),
            3 => serde_json::json!({ "reroll": [0, 1, 2, 3, 4, 5, 6, 31, 63] }),
            4 => serde_json::json!({ "track": value }),
            5 => serde_json::json!({ "box": "areas.area-3#1" }),
            6 => serde_json::json!({ "use": "poke-flute" }),
            7 => serde_json::json!({ "card": value }),
            _ => value,
        }
    };
    // A simple generator, the same every run.
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state as usize
    };
    for round in 0..3000 {
        let r = next();
        let value = odd[r % odd.len()].clone();
        let request = match r % 15 {
            0 => {
                serde_json::json!({ "op": "start", "seats": [{ "bot": null }, { "bot": "random" }], "seed": round })
            }
            1 => serde_json::json!({ "op": "start", "seats": value, "seed": value }),
            2..=4 => serde_json::json!({ "op": "act", "act": acts(next()) }),
            5 => serde_json::json!({ "op": "bot" }),
            6 => serde_json::json!({ "op": "undo" }),
            7 => serde_json::json!({ "op": "back_to", "count": value }),
            8 => serde_json::json!({ "op": "box", "box": value }),
            9 => serde_json::json!({ "op": "die", "die": value }),
            10 => {
                serde_json::json!({ "op": "resume", "seats": [{ "bot": "target:no-box" }], "seed": 1, "actions": [{ "seat": value, "act": acts(next()) }] })
            }
            11 => {
                serde_json::json!({ "op": "log", "log": "{\"format\":\"safari-log\",\"format_version\":1}" })
            }
            12 => serde_json::json!({ "op": "study", "bot": value, "games": value }),
            13 => {
                serde_json::json!({ "op": "open", "ruleset": built().ruleset, "model": "{\"features\":1,\"turns_per_bucket\":1,\"weights\":[[0]]}" })
            }
            _ => serde_json::json!({ "op": "state", "known": { "events": value, "actions": 3 } }),
        };
        ask(request);
        // And a legal choice now and then, so that games go on into every stage.
        let state = ask(serde_json::json!({ "op": "state" }));
        let acts = state["ok"]["deciding"]["acts"].as_array();
        if let Some(act) = acts.and_then(|a| a.get(next() % a.len().max(1))) {
            ask(serde_json::json!({ "op": "act", "act": act }));
        }
    }
}

/// A game log whose one seat is `search:10000`, a search two hundred times longer than the
/// menu's (many seconds a move in a page): refused when loaded, naming the bot, the game in
/// progress going on; and, kept in the browser's storage as the game in progress, not picked up
/// on a reload, the page answering Pause at once.
#[test]
fn a_log_or_stored_game_seating_a_bot_the_page_does_not_offer_is_refused() {
    let seats = vec![Seat {
        bot: Some("search:10000".to_string()),
    }];
    let game = Match::new(built().rules(), seats, 5).unwrap();
    let log = Log::of(&game, serde_json::from_str(&built().ruleset).unwrap());
    let file = Path::new(env!("CARGO_TARGET_TMPDIR")).join("unoffered.json");
    std::fs::write(&file, serde_json::to_vec(&log).unwrap()).unwrap();
    let Some(result) = play("unoffered", Some(&file)) else {
        return;
    };
    let loaded = &result["loaded"];
    let message = loaded["message"].as_str().unwrap();
    assert!(
        message.contains("not loaded") && message.contains("search:10000"),
        "{loaded}"
    );
    assert_eq!(loaded["state"], "playing", "{loaded}");
    assert_eq!(loaded["unchanged"], true, "{loaded}");
    let reloaded = &result["reloaded"];
    let message = reloaded["message"].as_str().unwrap();
    assert!(
        message.contains("not picked up") && message.contains("search:10000"),
        "{reloaded}"
    );
    assert!(reloaded["pause_ms"].as_u64().unwrap() < 1000, "{reloaded}");
    assert!(
        !reloaded["seats"].to_string().contains("10000"),
        "{reloaded}"
    );
}

/// Rulesets whose sheets would be drawn past any page (a box ten kilometres wide, a box a
/// hundred kilometres to the right, a page a micrometre wide): each opened, its boxes listed
/// track by track within the window, with the reason, and played.
#[test]
fn a_sheet_larger_than_the_page_can_draw_is_listed_within_the_window() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("playtest-geometry-rulesets");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut other: serde_json::Value = serde_json::from_str(&built().ruleset).unwrap();
    other["content_hash"] = format!("sha256:{}", "0".repeat(64)).into();
    let boxes = other["sheet"]["boxes"].as_array().unwrap().len();
    let edits = [
        ("1-wide-box.json", "/sheet/boxes/3/width", 1e7),
        ("2-far-box.json", "/sheet/boxes/3/x", 1e8),
        ("3-narrow-page.json", "/sheet/width_mm", 0.001),
    ];
    for (name, place, value) in edits {
        let mut ruleset = other.clone();
        *ruleset.pointer_mut(place).unwrap() = value.into();
        std::fs::write(dir.join(name), ruleset.to_string()).unwrap();
    }
    let Some(result) = play("geometry", Some(&dir)) else {
        return;
    };
    let opened = result["opened"].as_array().unwrap();
    assert_eq!(opened.len(), 3);
    for seen in opened {
        let window = seen["window"].as_f64().unwrap();
        assert!(seen["page"].as_f64().unwrap() <= window, "{seen}");
        assert!(seen["widest"].as_f64().unwrap() <= window, "{seen}");
        assert!(seen["rightmost"].as_f64().unwrap() <= window, "{seen}");
        let message = seen["message"].as_str().unwrap();
        assert!(message.contains("listed track by track"), "{seen}");
        assert_eq!(seen["marks"], boxes, "every box can be marked: {seen}");
        assert_eq!(seen["played"], true, "{seen}");
    }
    assert!(
        opened[0]["message"]
            .as_str()
            .unwrap()
            .contains("lies outside")
    );
    assert!(
        opened[2]["message"]
            .as_str()
            .unwrap()
            .contains("too narrow")
    );
}

/// The default game grown as large as a ruleset may grow it in turns and balls, with 8,910
/// boxes: a ruleset its planner takes a minute to study in a page.
fn huge_ruleset() -> serde_json::Value {
    let mut ruleset: serde_json::Value = serde_json::from_str(&built().ruleset).unwrap();
    ruleset["content_hash"] = format!("sha256:{}", "1".repeat(64)).into();
    ruleset["game"]["name"] = "Safari Zone RNW (huge)".into();
    ruleset["parameters"]["turns"] = 1000.into();
    ruleset["parameters"]["safari_balls"] = 1000.into();
    ruleset.as_object_mut().unwrap().remove("sheet");
    let sections = ruleset["field_guide"]["sections"].as_array_mut().unwrap();
    for section in sections.iter_mut() {
        if !matches!(section["id"].as_str(), Some("turns" | "balls")) {
            continue;
        }
        let track = &mut section["tracks"][0];
        let first = track["boxes"][0].clone();
        let prefix = first["id"]
            .as_str()
            .unwrap()
            .rsplit_once('#')
            .unwrap()
            .0
            .to_string();
        let boxes: Vec<serde_json::Value> = (1..=1000)
            .map(|n| {
                let mut repeat = first.clone();
                repeat["id"] = format!("{prefix}#{n}").into();
                repeat
            })
            .collect();
        track["boxes"] = boxes.into();
    }
    let faces = ["grass", "water", "area"];
    let tracks: Vec<serde_json::Value> = (0..68)
        .map(|t| {
            let boxes: Vec<serde_json::Value> = (1..=100)
                .map(|n| serde_json::json!({
                    "id": format!("extra.t{t}#{n}"), "shape": "square", "style": "plain",
                    "fill": { "kind": "dice", "face": faces[t % 3] },
                    "requires": [], "rewards": [], "vp": 1, "label": null
                }))
                .collect();
            serde_json::json!({ "id": format!("t{t}"), "title": format!("Extra {t}"), "loose": false, "flow": "row", "boxes": boxes })
        })
        .collect();
    sections.push(serde_json::json!({
        "id": "extra", "title": "Extra", "column": 1, "row": 20, "width": 3, "height": 1, "tracks": tracks
    }));
    ruleset
}

/// The planner's first move on a huge ruleset, which it must study first (in a page, for a
/// minute): the page says how far it has got, then how long the rest is likely to take, its
/// main thread is never busy for long meanwhile, and it answers Pause at once.
#[test]
fn a_long_study_says_how_long_it_takes_and_the_page_answers_meanwhile() {
    let ruleset = huge_ruleset();
    let rules = engine::load(ruleset.to_string().as_bytes()).expect("a ruleset the engine plays");
    assert!(rules.boxes.len() > 8000 && rules.turns == 1000);
    let file = Path::new(env!("CARGO_TARGET_TMPDIR")).join("playtest-huge.json");
    std::fs::write(&file, ruleset.to_string()).unwrap();
    let Some(result) = play("study", Some(&file)) else {
        return;
    };
    let first = result["first"].as_str().unwrap();
    assert!(
        first.contains("planner bot is studying") && first.contains("% done"),
        "{first}"
    );
    let studying = result["studying"].as_str().unwrap();
    let says_how_long = studying.split(", about ").nth(1).is_some_and(|rest| {
        let (number, unit) = rest.split_once(' ').unwrap_or_default();
        number.parse::<u32>().is_ok()
            && (unit.starts_with("s left") || unit.starts_with("min left"))
    });
    assert!(
        studying.contains("planner bot is studying") && says_how_long,
        "{studying}"
    );
    // Before, the study ran on the page's main thread: the page froze for the whole of it.
    assert!(
        result["longest_task_ms"].as_u64().unwrap() < 500,
        "{result}"
    );
    assert!(result["pause_ms"].as_u64().unwrap() < 1000, "{result}");
    assert!(
        !result["after"].as_str().unwrap().contains("studying"),
        "{result}"
    );
    assert_eq!(result["state"], "playing");
}
