//! `safari playtests`: a folder of logs played through the playtest page, read back and
//! reported beside the bots' games. The logs in tests/fixtures-logs/ were played by clicks in
//! Chromium and saved with the page's Download log button (tests/fixtures-logs/make-logs.mjs;
//! its README lists them): four games of people to the end (one at a table with the planner),
//! one left unfinished, one of another version of the game (content/safari-zone-v20240517),
//! and three files that are no log of this game.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

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
        .args(["--games", "200", "--quiet", "--out"])
        .arg(out)
        .args(extra)
        .current_dir(tests())
        .output()
        .unwrap()
}

fn text(output: &Output) -> (String, String) {
    (
        String::from_utf8(output.stdout.clone()).unwrap(),
        String::from_utf8(output.stderr.clone()).unwrap(),
    )
}

#[test]
fn people_are_reported_beside_the_bots_on_their_own_version() {
    let out = scratch("fixtures");
    let run = playtests(Path::new(FIXTURES), &out, &[]);
    let (stdout, stderr) = text(&run);
    assert_eq!(run.status.code(), Some(0), "{stdout}\n{stderr}");
    // Every file that is no log of this game is named, with why; the others still count.
    for said in [
        "6 of 9 files read, 2 rulesets",
        "torn-download.json: this log is not JSON",
        "tampered-choice.json: choice 3 ",
        "is not one the game offered there",
        "family-game.json: a log of a game made of components",
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
    assert_eq!(json["read"], 6);
    assert_eq!(json["refused"].as_array().unwrap().len(), 3);
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
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn the_text_report_is_as_reviewed() {
    let out = scratch("snapshot");
    let run = playtests(Path::new(FIXTURES), &out, &["--seed", "3"]);
    let (stdout, _) = text(&run);
    let _ = std::fs::remove_dir_all(&out);
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
    let (a, b) = (scratch("same-a"), scratch("same-b"));
    let (first, second) = (
        playtests(&logs(), &a, &["--seed", "5"]),
        playtests(&logs(), &b, &["--seed", "5"]),
    );
    assert_eq!(first.stdout, second.stdout);
    for file in ["report.json", "report.html"] {
        let path = |root: &Path| root.join("safari-zone/playtests").join(file);
        assert!(
            std::fs::read(path(&a)).unwrap() == std::fs::read(path(&b)).unwrap(),
            "{file} differs between two runs"
        );
    }
    // Another seed plays other bot games.
    let other = playtests(&logs(), &a, &["--seed", "6"]);
    assert_ne!(first.stdout, other.stdout);
    let _ = std::fs::remove_dir_all(&a);
    let _ = std::fs::remove_dir_all(&b);
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
    let out = scratch("browser");
    let run = playtests(&logs(), &out, &[]);
    assert_eq!(run.status.code(), Some(0));
    let page = out.join("safari-zone/playtests/report.html");
    let Some(chromium) = browser::chromium() else {
        return;
    };
    let screenshot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("playtests-report.png");
    let rendered = browser::open(&chromium, &page, &screenshot, (1280, 2400));
    for expected in [
        "What people did in Safari Zone RNW",
        "Files not read",
        "torn-download.json",
        "Boxes people fill more often than planner",
        "bag.poke-flute#2",
        "Where people and the planner choose differently",
        "<svg",
        "id=\"ruleset-2\"",
    ] {
        assert!(
            rendered.dom.contains(expected),
            "the page shows no {expected}"
        );
    }
    println!("screenshot: {}", rendered.screenshot.display());
    let _ = std::fs::remove_dir_all(&out);
}
