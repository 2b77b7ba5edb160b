//! `safari diff` as a designer meets it: on fixture pairs (tests/diff-fixtures, each the
//! changes that make a new version of a base game), on the shipped earlier Field Guide, and its
//! HTML report in a real browser.

use crate::browser;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::Deserialize;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
/// The first screen's length, as the issue asks.
const FIRST_SCREEN: usize = 60;

/// A fixture pair: `changes.toml`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Spec {
    /// The old version, a game folder relative to the repository.
    base: String,
    /// Games of each version to simulate (0: content and reachability only).
    games: u64,
    /// The policy both versions are played with (the default's when absent).
    #[serde(default)]
    policy: Option<String>,
    #[serde(default)]
    edit: Vec<Edit>,
    /// Files of the repository copied into the new version.
    #[serde(default)]
    copy: Vec<Copy>,
    #[serde(default)]
    expect: Expect,
    /// Which outputs are kept as snapshots: "summary", "full".
    #[serde(default = "summary_only")]
    snapshots: Vec<String>,
}

fn summary_only() -> Vec<String> {
    vec!["summary".to_string()]
}

/// One edit of the base that makes the new version: `find` occurs exactly once in `file`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Edit {
    file: String,
    find: String,
    replace: String,
}

/// A file the new version gains: `from` (relative to the repository) copied to `file`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Copy {
    file: String,
    from: String,
}

/// What a designer would notice.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Expect {
    /// Lines of the summary (whole, after the indentation).
    #[serde(default)]
    summary_contains: Vec<String>,
    /// Lines of `--full` (whole, after the indentation).
    #[serde(default)]
    full_contains: Vec<String>,
    /// Words anywhere in the summary.
    #[serde(default)]
    summary_mentions: Vec<String>,
    /// Words nowhere in `--full` (nor, so, in the summary).
    #[serde(default)]
    full_lacks: Vec<String>,
    /// Lines of the summary (whole, after the indentation) that come in this order.
    #[serde(default)]
    summary_order: Vec<String>,
    /// How the change of the mean VP is worded (`balance.mean_vp.change.magnitude`).
    #[serde(default)]
    mean_vp_magnitude: Option<String>,
    /// Ids of boxes, cards or species only the new version has, which balance must show.
    #[serde(default)]
    new_in_balance: Vec<String>,
    /// Ids only the old version has, which balance must show as removed.
    #[serde(default)]
    removed_in_balance: Vec<String>,
}

/// A pair made on disk: `<work>/old` and `<work>/new`, run from `<work>`.
struct Pair {
    name: String,
    dir: PathBuf,
    work: PathBuf,
    spec: Spec,
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

fn pair(name: &str) -> Pair {
    let dir = Path::new(ROOT).join("tests/diff-fixtures").join(name);
    let text = std::fs::read_to_string(dir.join("changes.toml")).unwrap();
    let spec: Spec = toml::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    // Tests run in parallel, each on its own copy.
    static MADE: AtomicUsize = AtomicUsize::new(0);
    let work = std::env::temp_dir().join(format!(
        "safari-diff-{name}-{}-{}",
        std::process::id(),
        MADE.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&work);
    let base = Path::new(ROOT).join(&spec.base);
    copy_dir(&base, &work.join("old"));
    copy_dir(&base, &work.join("new"));
    for edit in &spec.edit {
        let path = work.join("new").join(&edit.file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            text.matches(&edit.find).count(),
            1,
            "{name}: `{}` must occur once in {}",
            edit.find,
            edit.file
        );
        std::fs::write(&path, text.replace(&edit.find, &edit.replace)).unwrap();
    }
    for copy in &spec.copy {
        let to = work.join("new").join(&copy.file);
        assert!(!to.exists(), "{name}: {} exists already", copy.file);
        std::fs::copy(Path::new(ROOT).join(&copy.from), to).unwrap();
    }
    Pair {
        name: name.to_string(),
        dir,
        work,
        spec,
    }
}

fn pairs() -> Vec<Pair> {
    let mut names: Vec<String> = std::fs::read_dir(Path::new(ROOT).join("tests/diff-fixtures"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("changes.toml").is_file())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names.iter().map(|n| pair(n)).collect()
}

impl Pair {
    /// `safari diff old new` with the fixture's game count and `extra` arguments.
    fn diff(&self, extra: &[&str]) -> Output {
        let out = Command::new(env!("CARGO_BIN_EXE_safari"))
            .args(["diff", "old", "new", "--out", "out", "--seed", "1"])
            .args(["--games", &self.spec.games.to_string()])
            .args(
                self.spec
                    .policy
                    .iter()
                    .flat_map(|p| ["--policy", p.as_str()]),
            )
            .args(extra)
            .current_dir(&self.work)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}: {}",
            self.name,
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }

    fn text(&self, extra: &[&str]) -> String {
        String::from_utf8(self.diff(extra).stdout).unwrap()
    }

    fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.diff(&["--format", "json"]).stdout).unwrap()
    }
}

impl Drop for Pair {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.work);
    }
}

fn snapshot(pair: &Pair, name: &str, text: &str) {
    insta::with_settings!({
        snapshot_path => &pair.dir,
        prepend_module_to_snapshot => false,
        omit_expression => true,
        input_file => pair.dir.join("changes.toml"),
    }, {
        insta::assert_snapshot!(name, text);
    });
}

/// Words a designer reads must not be JSON: no braces, brackets or quoted keys.
fn reads_as_words(words: &str) -> bool {
    !words.contains('{') && !words.contains('[') && !words.contains("\":")
}

#[test]
fn each_pair_leads_with_a_summary_that_fits_one_screen() {
    for pair in pairs() {
        let text = pair.text(&[]);
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines.len() <= FIRST_SCREEN,
            "{}: the summary has {} lines:\n{text}",
            pair.name,
            lines.len()
        );
        assert!(
            lines.last().unwrap().contains("--full"),
            "{}: the last line says how to see everything:\n{text}",
            pair.name
        );
        // Content first, then reachability, then balance.
        let at = |heading: &str| lines.iter().position(|l| l.starts_with(heading));
        assert!(at("Content") < at("Reachability"), "{text}");
        if pair.spec.games > 0 {
            assert!(at("Reachability") < at("Balance"), "{text}");
        }
        for expected in &pair.spec.expect.summary_contains {
            assert!(
                lines.iter().any(|l| l.trim() == expected),
                "{}: no line `{expected}` in the summary:\n{text}",
                pair.name
            );
        }
        for expected in &pair.spec.expect.summary_mentions {
            assert!(
                text.contains(expected.as_str()),
                "{}: the summary does not say `{expected}`:\n{text}",
                pair.name
            );
        }
        let places: Vec<Option<usize>> = (pair.spec.expect.summary_order.iter())
            .map(|expected| lines.iter().position(|l| l.trim() == expected))
            .collect();
        assert!(
            places.iter().all(Option::is_some) && places.windows(2).all(|w| w[0] < w[1]),
            "{}: the summary does not have {:?} in this order:\n{text}",
            pair.name,
            pair.spec.expect.summary_order
        );
        let full = pair.text(&["--full"]);
        for expected in &pair.spec.expect.full_contains {
            assert!(
                full.lines().any(|l| l.trim() == expected),
                "{}: no line `{expected}` in --full:\n{full}",
                pair.name
            );
        }
        for unwanted in &pair.spec.expect.full_lacks {
            assert!(
                !full.contains(unwanted.as_str()),
                "{}: --full says `{unwanted}`:\n{full}",
                pair.name
            );
        }
        if pair.spec.snapshots.iter().any(|s| s == "summary") {
            snapshot(&pair, "summary", &text);
        }
        if pair.spec.snapshots.iter().any(|s| s == "full") {
            snapshot(&pair, "full", &full);
        }
    }
}

#[test]
fn content_changes_read_as_words_in_every_output() {
    for pair in pairs() {
        let value = pair.json();
        let full = pair.text(&["--full"]);
        for change in value["content"].as_array().unwrap() {
            let words = change["words"].as_str().unwrap();
            assert!(reads_as_words(words), "{}: {words}", pair.name);
            assert!(
                full.contains(words),
                "{}: --full lacks `{words}`",
                pair.name
            );
            for field in change["fields"].as_array().unwrap() {
                let words = field["words"].as_str().unwrap();
                assert!(reads_as_words(words), "{}: {field}", pair.name);
            }
        }
    }
}

#[test]
fn new_and_removed_content_takes_part_in_balance() {
    for pair in pairs().into_iter().filter(|p| p.spec.games > 0) {
        let value = pair.json();
        let balance = &value["balance"];
        if let Some(expected) = &pair.spec.expect.mean_vp_magnitude {
            assert_eq!(
                balance["mean_vp"]["change"]["magnitude"],
                expected.as_str(),
                "{}: {}",
                pair.name,
                balance["mean_vp"]
            );
        }
        let shifts: Vec<&serde_json::Value> = ["boxes", "cards", "species"]
            .iter()
            .flat_map(|family| balance[family].as_array().unwrap())
            .collect();
        let presence = |id: &str| {
            shifts
                .iter()
                .find(|s| s["what"] == id)
                .map(|s| s["presence"].as_str().unwrap().to_string())
        };
        for id in &pair.spec.expect.new_in_balance {
            assert_eq!(
                presence(id).as_deref(),
                Some("added"),
                "{}: {id}",
                pair.name
            );
        }
        for id in &pair.spec.expect.removed_in_balance {
            assert_eq!(
                presence(id).as_deref(),
                Some("removed"),
                "{}: {id}",
                pair.name
            );
        }
        // Every shift has an effect size, and every one is in exactly one group.
        let grouped: Vec<&str> = balance["groups"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|g| g["members"].as_array().unwrap())
            .map(|m| m.as_str().unwrap())
            .collect();
        assert_eq!(grouped.len(), shifts.len(), "{}", pair.name);
        for s in &shifts {
            assert!(s["effect"]["value"].is_f64(), "{s}");
            assert!(grouped.contains(&s["what"].as_str().unwrap()), "{s}");
        }
        // The groups come largest effect first.
        let largest: Vec<f64> = balance["groups"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["largest"].as_f64().unwrap())
            .collect();
        assert!(largest.windows(2).all(|w| w[0] >= w[1]), "{largest:?}");
    }
}

#[test]
fn full_prints_every_shift() {
    let pair = pair("fewer-balls");
    let value = pair.json();
    let full = pair.text(&["--full"]);
    let balance = &value["balance"];
    for family in ["boxes", "cards", "species"] {
        for s in balance[family].as_array().unwrap() {
            let label = s["label"].as_str().unwrap();
            assert!(
                full.lines().any(|l| l.trim_start().starts_with(label)),
                "--full lacks {label}"
            );
        }
    }
    // More than the summary, which lists the largest shifts of each family only.
    let summary = pair.text(&[]);
    assert!(
        full.lines().count() > summary.lines().count(),
        "--full:\n{full}\nsummary:\n{summary}"
    );
}

/// The ruleset's fields, by kind as `diff` names them, less ids and what is compared apart.
fn ruleset_fields() -> Vec<(&'static str, Vec<String>)> {
    let dir = Path::new(ROOT).join("content/safari-zone");
    let mut folder = safari::world::GameFolder::open(&dir).unwrap();
    let checked = safari::check(&mut folder);
    let ruleset = safari::rules::safari_zone::ruleset::build(&checked.game.unwrap(), "");
    let value = serde_json::to_value(&ruleset).unwrap();
    let keys = |v: &serde_json::Value, less: &[&str]| -> Vec<String> {
        v.as_object()
            .unwrap()
            .keys()
            .filter(|k| !less.contains(&k.as_str()))
            .cloned()
            .collect()
    };
    let section = &value["field_guide"]["sections"][0];
    let track = &section["tracks"][0];
    let mut guide_box = keys(&track["boxes"][0], &["id"]);
    guide_box.extend(["section", "track", "position"].map(String::from));
    vec![
        ("game", keys(&value["game"], &["id", "rules"])),
        ("parameter", keys(&value["parameters"], &[])),
        ("sheet", keys(&value["field_guide"], &["sections"])),
        ("deck", keys(&value["deck"], &["cards"])),
        ("section", keys(section, &["id", "tracks"])),
        ("track", {
            let mut k = keys(track, &["id"]);
            k.push("section".to_string());
            k
        }),
        ("box", guide_box),
        ("card", keys(&value["deck"]["cards"][0], &["id"])),
        ("dice", keys(&value["dice"][0], &["id"])),
        ("item", keys(&value["items"][0], &["id"])),
        ("species", keys(&value["species"][0], &["id"])),
    ]
}

#[test]
fn every_field_of_the_ruleset_has_its_words() {
    for (kind, fields) in ruleset_fields() {
        let known = safari::rules::safari_zone::diff::words::KNOWN_FIELDS
            .iter()
            .find(|(k, _)| *k == kind)
            .map(|(_, f)| *f)
            .unwrap_or_else(|| panic!("no words for {kind}"));
        for field in fields {
            assert!(
                known.contains(&field.as_str()),
                "{kind}.{field} has no words in crates/rules/src/safari_zone/diff/words.rs"
            );
        }
    }
}

#[test]
fn the_html_report_renders_in_a_browser() {
    let pair = pair("fewer-balls");
    let text = pair.text(&[]);
    let page = pair.work.join("out/safari-zone/diff/report.html");
    let html = std::fs::read_to_string(&page).expect("diff writes its report");
    // Self-contained: no scripts, nothing to fetch.
    assert!(!html.contains("<script"), "a script in the report");
    let outside = html
        .match_indices("://")
        .filter(|(at, _)| {
            !html[..*at].ends_with("http") || !html[*at..].starts_with("://www.w3.org/")
        })
        .count();
    assert_eq!(outside, 0, "the report links outside itself");
    // The summary's words are on the page, as the terminal shows them.
    for line in ["Safari Balls per player: 30 -&gt; 25", "5 boxes removed"] {
        let said = line.replace("&gt;", ">");
        assert!(text.contains(&said) && html.contains(line), "{line}");
    }
    let Some(chromium) = browser::chromium() else {
        return;
    };
    let screenshot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("diff-report.png");
    let rendered = browser::open(&chromium, &page, &screenshot, (1280, 2400));
    for expected in [
        "What changed in Safari Zone RNW",
        "Safari Balls per player: 30 -&gt; 25",
        "<svg",
        "id=\"balance\"",
    ] {
        assert!(
            rendered.dom.contains(expected),
            "the page shows no {expected}"
        );
    }
    println!("screenshot: {}", rendered.screenshot.display());
}

#[test]
fn the_browser_check_fails_on_a_page_that_tries_to_load_from_outside() {
    let Some(chromium) = browser::chromium() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("safari-browser-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("bad.html");
    let html = format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{}\"><title>bad</title></head>\
         <body><p>hello</p><img src=\"http://example.invalid/x.png\"></body></html>",
        safari::html::CONTENT_SECURITY_POLICY
    );
    std::fs::write(&page, html).unwrap();
    let shot = dir.join("bad.png");
    let caught = std::panic::catch_unwind(|| browser::open(&chromium, &page, &shot, (400, 300)));
    let _ = std::fs::remove_dir_all(&dir);
    assert!(caught.is_err(), "a blocked load must fail the check");
}

/// `safari diff` of two folders of the repository, as JSON.
fn diff_json(args: &[&str]) -> serde_json::Value {
    let out_dir = std::env::temp_dir().join(format!("safari-diff-out-{}", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_safari"))
        .arg("diff")
        .args(args)
        .args(["--format", "json", "--out"])
        .arg(&out_dir)
        .current_dir(ROOT)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|_| {
        panic!(
            "not JSON: {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

fn has_change(value: &serde_json::Value, kind: &str, id: &str, change: &str) -> bool {
    value["content"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["kind"] == kind && c["id"] == id && c["change"] == change)
}

#[test]
fn the_earlier_field_guide_differs_in_content_and_balance() {
    let value = diff_json(&[
        "content/safari-zone-v20240517",
        "content/safari-zone",
        "--games",
        "1500",
        "--seed",
        "3",
    ]);
    assert!(has_change(&value, "track", "rare-sightings", "added"));
    assert!(has_change(&value, "box", "areas.area-3#1", "changed"));
    let area_3 = value["content"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "areas.area-3#1")
        .unwrap();
    assert_eq!(
        area_3["words"],
        "areas.area-3#1 now needs 100 VP (was 120 VP)"
    );
    assert_eq!(
        value["reachability"]["became_unreachable"]
            .as_array()
            .unwrap()
            .len(),
        0
    );
    // Opening Area 3 at 100 VP instead of 120 makes it filled far more often.
    let boxes = value["balance"]["boxes"].as_array().unwrap();
    let first = boxes
        .iter()
        .find(|b| b["what"] == "areas.area-3#1")
        .expect("a significant shift");
    assert!(first["new"].as_f64().unwrap() > first["old"].as_f64().unwrap());
    assert_eq!(first["significant"], true);
    assert!(first["effect"]["value"].as_f64().unwrap() > 0.0);
    // The new Rare Sightings boxes take part, as new.
    let rare = boxes
        .iter()
        .find(|b| b["what"] == "rare.rare-sightings#1")
        .expect("new boxes take part");
    assert_eq!(rare["presence"], "added");
    assert!(rare["old"].is_null());
}

#[test]
fn a_version_that_breaks_a_box_shows_it_as_unreachable_and_its_new_diagnostic() {
    let value = diff_json(&[
        "tests/fixtures/clean-tiny",
        "tests/fixtures/sz0401-vp-threshold",
        "--games",
        "0",
    ]);
    let became: Vec<&str> = value["reachability"]["became_unreachable"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(became, ["areas.far#1", "areas.far#2"]);
    let new = value["reachability"]["new_diagnostics"].as_array().unwrap();
    assert!(
        new.iter()
            .any(|d| d.as_str().unwrap().starts_with("SZ0401"))
    );
    assert!(value["balance"].is_null());
    // And back again: the same change, resolved.
    let back = diff_json(&[
        "tests/fixtures/sz0401-vp-threshold",
        "tests/fixtures/clean-tiny",
        "--games",
        "0",
    ]);
    assert_eq!(
        back["reachability"]["became_reachable"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    assert_eq!(
        back["reachability"]["resolved_diagnostics"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[test]
fn a_version_compared_with_itself_has_no_changes() {
    let value = diff_json(&[
        "content/safari-zone",
        "content/safari-zone",
        "--games",
        "300",
    ]);
    assert!(value["content"].as_array().unwrap().is_empty());
    assert_eq!(value["balance"]["mean_vp"]["significant"], false);
    assert!(value["balance"]["boxes"].as_array().unwrap().is_empty());
    assert!(value["balance"]["groups"].as_array().unwrap().is_empty());
}

#[test]
fn the_earlier_field_guide_moves_boxes_rather_than_changing_them_and_gains_its_park_rules() {
    let out = Command::new(env!("CARGO_BIN_EXE_safari"))
        .args([
            "diff",
            "content/safari-zone-v20240517",
            "content/safari-zone",
        ])
        .args(["--games", "0", "--full", "--out"])
        .arg(std::env::temp_dir().join(format!("safari-diff-moves-{}", std::process::id())))
        .current_dir(ROOT)
        .output()
        .unwrap();
    let full = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = full.lines().map(str::trim).collect();
    for expected in [
        "the Super Rod box moved from rods #5 to #6",
        "new file park-rules.typ: the Park Rules",
        "areas.area-3#1 now needs 100 VP (was 120 VP)",
    ] {
        assert!(lines.contains(&expected), "no `{expected}`:\n{full}");
    }
    assert!(!full.contains("no longer gives Super Rod"), "{full}");
}
