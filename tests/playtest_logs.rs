//! `safari playtests`: a folder of logs played through the playtest page, read back and
//! reported beside the bots' games. The logs in tests/fixtures-logs/ were played by clicks in
//! Chromium and saved with the page's Download log button (tests/fixtures-logs/make-logs.mjs;
//! its README lists them): four games of people to the end (one at a table with the planner),
//! one left unfinished, one of another version of the game (content/safari-zone-v20240517),
//! and two files that do not replay; and the family's (make-family-logs.mjs): games of
//! Gamewright's Safari (one with a variant, one against the greedy bot), DiceAFARI (one of
//! three players, one left unfinished) and Tricky Safari (one against the greedy bot), and two
//! family logs that cannot be read.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use super::browser;

fn tests() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}

fn logs() -> PathBuf {
    tests().join("fixtures-logs")
}

/// The fixtures as named from the folder the command runs in (tests/), so that the report
/// names them the same in any checkout.
const FIXTURES: &str = "fixtures-logs";

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("safari-playtests-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `safari playtests` on `logs` with few bot games, its report into `out`.
fn playtests(logs: &Path, out: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_safari"))
        .arg("playtests")
        .arg(logs)
        .args(["--games", "200", "--family-games", "30", "--quiet", "--out"])
        .arg(out)
        .args(extra)
        .current_dir(tests())
        .output()
        .unwrap()
}

/// The fixtures' report from seed 1, run once for the tests that read it (the family's logs
/// are each put to the search bot decision by decision: some seconds of work), and the
/// output root it was written to.
fn fixtures_report() -> &'static (Output, PathBuf) {
    static RUN: OnceLock<(Output, PathBuf)> = OnceLock::new();
    RUN.get_or_init(|| {
        let out = scratch("fixtures");
        (playtests(Path::new(FIXTURES), &out, &[]), out)
    })
}

fn text(output: &Output) -> (String, String) {
    (
        String::from_utf8(output.stdout.clone()).unwrap(),
        String::from_utf8(output.stderr.clone()).unwrap(),
    )
}

#[test]
fn people_are_reported_beside_the_bots_on_their_own_version() {
    let (run, out) = fixtures_report();
    let (stdout, stderr) = text(run);
    assert_eq!(run.status.code(), Some(0), "{stdout}\n{stderr}");
    // Every file that is no log of this game is named, with why; the others still count.
    for said in [
        "14 of 18 files read, 6 rulesets",
        "torn-download.json: this log is not JSON",
        "tampered-choice.json: choice 3 ",
        "is not one the game offered there",
    ] {
        assert!(stdout.contains(said), "no `{said}` in:\n{stdout}");
    }
    // Each version apart, named by its versions.
    let (today, old) = (
        stdout
            .find("field-guide v20240524; content sha256:")
            .expect("today's version"),
        stdout
            .find("field-guide v20240517; content sha256:")
            .expect("the earlier version"),
    );
    assert!(
        today < old,
        "the versions in the order their logs were read"
    );
    let current = &stdout[today..old];
    let old = &stdout[old..stdout.find("\nDiceAFARI: ").expect("the family after")];
    // The unfinished game is told apart and its score not counted; the bot's seat at a
    // people's table is apart too.
    assert!(current.contains("4 finished games of people, 1 unfinished; 1 bot seat"));
    assert!(current.contains("gary-left-early.json seat 1: 13 VP, 7 turns, 25 decisions, unfinished (so far: not counted)"));
    assert!(current.contains("dawn-vs-planner.json seat 2: bot planner, 147 VP"));
    let people = current
        .lines()
        .find(|l| l.trim_start().starts_with("people "))
        .expect("a row of people");
    let cells: Vec<&str> = people.split_whitespace().collect();
    // 4 games: 59, 46, 76 and 71 VP (the unfinished game's 13 left out).
    assert_eq!(&cells[..5], ["people", "4", "63.0", "71", "46-76"]);
    let planner = current
        .lines()
        .find(|l| l.trim_start().starts_with("planner (1 player)"))
        .expect("a row of the planner's games");
    let planner_mean: f64 = planner.split_whitespace().nth(4).unwrap().parse().unwrap();
    assert!(
        planner_mean > 100.0,
        "the planner outscores these people: {planner}"
    );
    // A box people filled in every game and the planner in fewer.
    assert!(current.contains("Boxes people fill more often than planner"));
    assert!(current.contains("box 2 of Poké Flute (bag.poke-flute#2): 100%,"));
    assert!(current.contains("Boxes planner fills more often than people"));
    // The people's decisions put to the planner.
    assert!(current.contains("Where people and the planner choose differently"));
    assert!(current.contains("- threw at a card the planner would have let go: "));

    // The report as JSON and HTML in each game's folder.
    for game in ["safari-zone", "safari-zone-v20240517"] {
        assert!(out.join(game).join("playtests/report.html").is_file());
    }
    let json: serde_json::Value = serde_json::from_slice(
        &std::fs::read(out.join("safari-zone/playtests/report.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(json["read"], 14);
    assert_eq!(json["refused"].as_array().unwrap().len(), 4);
    let first = &json["rulesets"][0];
    assert_eq!(first["people"]["finished"], 4);
    assert_eq!(first["people"]["unfinished"], 1);
    assert_eq!(first["people"]["vp"]["mean"], 63.0);
    assert_eq!(first["bots"][0]["policy"], "planner");
    assert_eq!(first["bots"][0]["games"], 200);
    let asked: u64 = first["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["decisions"].as_u64().unwrap())
        .sum();
    // Every decision the people took in the five logs (77 + 53 + 80 + 25 + 91).
    assert_eq!(asked, 326);

    let html = std::fs::read_to_string(out.join("safari-zone/playtests/report.html")).unwrap();
    assert!(!html.contains("<script"), "a script in the report");
    assert!(html.contains(safari::html::CONTENT_SECURITY_POLICY));
    assert!(old.contains("1 log: 1 finished game of people"), "{old}");
}

#[test]
fn the_text_report_is_as_reviewed() {
    let (stdout, _) = text(&fixtures_report().0);
    // The folder as named from the working folder (tests/), whatever the checkout's path.
    insta::with_settings!({
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::assert_snapshot!("playtest_logs__report", stdout);
    });
}

#[test]
fn the_same_logs_and_seed_give_the_same_report() {
    // The fixtures' run, named as from tests/, and another from the absolute path.
    let (first, b) = fixtures_report();
    let a = scratch("same-a");
    let second = playtests(&logs(), &a, &[]);
    assert_eq!(
        String::from_utf8_lossy(&first.stdout).replace("Logs in fixtures-logs:", ""),
        String::from_utf8_lossy(&second.stdout)
            .replace(&format!("Logs in {}:", logs().display()), "")
    );
    for game in ["safari-zone", "diceafari", "tricky-safari"] {
        let path = |root: &Path| root.join(game).join("playtests/report.json");
        let json = |root: &Path| {
            let mut value: serde_json::Value =
                serde_json::from_slice(&std::fs::read(path(root)).unwrap()).unwrap();
            value["folder"] = serde_json::Value::Null;
            value
        };
        assert!(
            json(&a) == json(b),
            "{game}'s report.json differs between two runs"
        );
    }
    // Another seed plays other bot games: the family's one log of Tricky Safari suffices.
    let tricky = logs().join("tricky-vs-greedy.json");
    let (one, other) = (
        playtests(&tricky, &a, &["--seed", "5"]),
        playtests(&tricky, &a, &["--seed", "6"]),
    );
    assert_ne!(one.stdout, other.stdout);
    assert_eq!(one.stdout, playtests(&tricky, &a, &["--seed", "5"]).stdout);
    let _ = std::fs::remove_dir_all(&a);
}

#[test]
fn a_folder_with_no_readable_log_fails_and_says_why_for_each_file() {
    let dir = scratch("unreadable");
    let logs = dir.join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    std::fs::copy(
        self::logs().join("torn-download.json"),
        logs.join("torn-download.json"),
    )
    .unwrap();
    // A file past the size a log may have is refused by its size, unread.
    let huge = std::fs::File::create(logs.join("huge.json")).unwrap();
    huge.set_len(17 << 20).unwrap();
    let run = playtests(&logs, &dir.join("out"), &[]);
    let (stdout, stderr) = text(&run);
    assert_eq!(run.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(stdout.contains("torn-download.json: this log is not JSON"));
    assert!(stdout.contains("huge.json: 17825792 bytes, more than the 16 MiB a log may have"));
    assert!(stderr.contains("no game log in"), "{stderr}");
    assert!(
        !dir.join("out").exists(),
        "nothing is written when nothing was read"
    );

    // With one good log beside them, the good one counts.
    std::fs::copy(
        self::logs().join("brock-bold.json"),
        logs.join("brock-bold.json"),
    )
    .unwrap();
    let run = playtests(&logs, &dir.join("out"), &[]);
    let (stdout, stderr) = text(&run);
    assert_eq!(run.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains("1 of 3 files read"));
    assert!(stdout.contains("brock-bold.json seat 1: 46 VP"));

    // An empty folder, a missing one and a bot that cannot play any ruleset: usage faults.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    for (folder, extra, said) in [
        (&empty, &[][..], "holds no `.json` file"),
        (
            &dir.join("missing"),
            &[][..],
            "is neither a folder of game logs nor a log file",
        ),
        (
            &logs,
            &["--bots", "target:areas.area-3#1"][..],
            "plays toward one box",
        ),
        (&logs, &["--bots", "grumpy"][..], "unknown bot `grumpy`"),
        (
            &logs,
            &["--family-bots", "planner"][..],
            "unknown bot `planner` of the games made of components",
        ),
    ] {
        let run = playtests(folder, &dir.join("out2"), extra);
        let (_, stderr) = text(&run);
        assert_eq!(run.status.code(), Some(2), "{said}: {stderr}");
        assert!(stderr.contains(said), "no `{said}` in {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn one_log_file_is_read_on_its_own() {
    let out = scratch("one");
    let run = playtests(&logs().join("dawn-vs-planner.json"), &out, &[]);
    let (stdout, stderr) = text(&run);
    assert_eq!(run.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains("1 of 1 file read, 1 ruleset"));
    assert!(stdout.contains("dawn-vs-planner.json seat 2: bot planner"));
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn the_html_report_renders_in_a_browser_with_no_console_message() {
    let (run, out) = fixtures_report();
    assert_eq!(run.status.code(), Some(0));
    let page = out.join("safari-zone/playtests/report.html");
    let Some(chromium) = browser::chromium() else {
        return;
    };
    let screenshot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("playtests-report.png");
    let rendered = browser::open(&chromium, &page, &screenshot, (1280, 2400));
    for expected in [
        "What people did",
        "Files not read",
        "torn-download.json",
        "Boxes people fill more often than planner",
        "bag.poke-flute#2",
        "Where people and the planner choose differently",
        "<svg",
        "id=\"ruleset-2\"",
        "Tricky Safari: board v1; no variant",
        "At tables of 3 players",
        "Where people and the search bot choose differently",
        "id=\"ruleset-6\"",
    ] {
        assert!(
            rendered.dom.contains(expected),
            "the page shows no {expected}"
        );
    }
    println!("screenshot: {}", rendered.screenshot.display());
}

/// The part of the text report about one ruleset: from its heading to the next.
fn section<'a>(stdout: &'a str, heading: &str) -> &'a str {
    let start = stdout
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("no `{heading}` in:\n{stdout}"));
    let rest = &stdout[start + 1..];
    &rest[..rest.find("\n\n").unwrap_or(rest.len())]
}

/// The cells of the row of `table` that starts with `name`.
fn row<'a>(table: &'a str, name: &str) -> Vec<&'a str> {
    table
        .lines()
        .find(|l| l.trim_start().starts_with(name))
        .unwrap_or_else(|| panic!("no row `{name}` in:\n{table}"))
        .split_whitespace()
        .collect()
}

#[test]
fn the_family_logs_are_reported_beside_the_family_bots() {
    let (run, out) = fixtures_report();
    let (stdout, stderr) = text(run);
    assert_eq!(run.status.code(), Some(0), "{stdout}\n{stderr}");
    // Two family logs that cannot be read, each named with why.
    for said in [
        "family-tampered.json: log entry 4: takes the face-up Giraffe 4 at row 2, column 1 is not legal now: ",
        "family-game.json: its ruleset cannot be played: ",
    ] {
        assert!(stdout.contains(said), "no `{said}` in:\n{stdout}");
    }
    // Gamewright's Safari: two logs, one against the greedy bot; the variant apart.
    let safari = section(&stdout, "Safari: cards v1; no variant");
    assert!(
        safari.contains(
            "2 logs: 2 finished, 0 unfinished (not counted); 1 bot seat at people's tables"
        ),
        "{safari}"
    );
    // The people's three seats (23, 8 and 1), the greedy bot's seat apart.
    assert_eq!(
        row(safari, "people"),
        ["people", "3", "10.7", "1-23", "50/50", "0", "85.0", "42.7"]
    );
    let greedy = row(safari, "greedy (2 players)");
    assert_eq!(greedy[3], "30", "{safari}");
    let greedy_score: f64 = greedy[4].parse().unwrap();
    assert!(
        greedy_score > 15.0,
        "greedy outscores these people: {safari}"
    );
    assert!(safari.contains("random (2 players)"));
    assert!(safari.contains("safari-vs-greedy.json seat 2 of 2: bot greedy, score 25, won"));
    assert!(safari.contains("people at tables with bots: 1 seat, 0% of the wins each on average"));
    assert!(safari.contains("how games end: people: jungle face up 2 of 2; greedy: "));
    let diagonal = section(&stdout, "Safari: cards v1; variants diagonal");
    assert!(diagonal.contains("1 log: 1 finished"), "{diagonal}");
    // DiceAFARI: the unfinished log apart, tables of two and of three players apart.
    let dice = section(&stdout, "DiceAFARI: maps v1, tiles v1; no variant");
    assert!(
        dice.contains("3 logs: 2 finished, 1 unfinished (not counted)"),
        "{dice}"
    );
    assert!(dice.contains(
        "diceafari-left-early.json seat 1 of 2: person, no score yet, 6 actions in 2 turns, unfinished (not counted)"
    ));
    let two = &dice[dice.find("2 players").unwrap()..dice.find("3 players").unwrap()];
    // The two-player people: diceafari-two-people.json's seats (23 and 32) alone.
    assert_eq!(
        &row(two, "people")[..5],
        ["people", "2", "27.5", "23-32", "0/100"]
    );
    assert!(dice[dice.find("3 players").unwrap()..].contains("greedy (3 players)"));
    // Each person's decision put to the search bot, counted by the action's kind, in the
    // game's own words.
    assert!(dice.contains("Where people and the search bot choose differently: "));
    assert!(dice.contains("- chose re-roll where the search bot would choose claim: "));
    assert!(dice.contains("e.g. diceafari-left-early.json seat 1, turn 1: re-rolls "));
    assert!(dice.contains("; the search bot: claims "));
    let tricky = section(&stdout, "Tricky Safari: board v1; no variant");
    assert!(tricky.contains("- chose another move than the search bot would: "));
    assert!(tricky.contains("tricky-vs-greedy.json seat 2 of 2: bot greedy, score 10, won"));

    // Each game's folder has the whole report.
    for game in ["gamewright-safari", "diceafari", "tricky-safari"] {
        assert!(
            out.join(game).join("playtests/report.html").is_file(),
            "{game}"
        );
    }
    let json: serde_json::Value = serde_json::from_slice(
        &std::fs::read(out.join("diceafari/playtests/report.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(json["families"].as_array().unwrap().len(), 4);
    assert_eq!(json["family_advisor"], "search");
    let dice = &json["families"][0];
    assert_eq!(dice["game_id"], "diceafari");
    assert_eq!(dice["unfinished"], 1);
    assert_eq!(dice["tables"][0]["players"], 2);
    assert_eq!(dice["tables"][0]["bots"][0]["policy"], "greedy");
    assert_eq!(dice["tables"][0]["bots"][0]["table"]["games"], 30);
    assert_eq!(dice["tables"][1]["players"], 3);
    let asked: u64 = dice["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["decisions"].as_u64().unwrap())
        .sum();
    assert!(
        asked > 100,
        "the people's decisions put to the search bot: {asked}"
    );
}
