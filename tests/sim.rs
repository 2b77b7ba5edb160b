//! `safari sim`: reports repeat for a seed whatever the number of threads, and the command
//! plays a game folder or a ruleset.json.

use crate::browser;

use std::path::Path;
use std::process::Command;

use safari::rules::safari_zone::engine;
use safari::rules::safari_zone::ruleset;
use safari::world::GameFolder;

fn rules() -> engine::Rules {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("content/safari-zone");
    let mut folder = GameFolder::open(&dir).unwrap();
    let game = safari::check(&mut folder).game.unwrap();
    engine::load(
        &serde_json::to_vec(&ruleset::build(&game, &ruleset::content_hash(&folder))).unwrap(),
    )
    .unwrap()
}

fn report_json(threads: usize, seed: u64) -> String {
    let rules = rules();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let report = pool.install(|| {
        safari::rules::safari_zone::sim::simulate(&rules, "greedy", 300, 2, seed, &|_| {})
    });
    serde_json::to_string(&report).unwrap()
}

#[test]
fn a_seed_gives_the_same_report_on_any_number_of_threads() {
    assert_eq!(report_json(1, 5), report_json(2, 5));
    assert_ne!(report_json(2, 5), report_json(2, 6));
}

#[test]
fn the_report_adds_up() {
    let rules = rules();
    let report = safari::rules::safari_zone::sim::simulate(&rules, "random", 200, 1, 3, &|_| {});
    assert!((report.ended_by_turns + report.ended_by_balls - 1.0).abs() < 1e-9);
    assert!(report.vp.p10 <= report.vp.median && report.vp.median <= report.vp.p90);
    assert!(report.vp.ci95[0] <= report.vp.mean && report.vp.mean <= report.vp.ci95[1]);
    let turn_tracker_first = report
        .boxes
        .iter()
        .find(|b| b.id == "turns.turn-tracker#1")
        .unwrap();
    assert_eq!(
        turn_tracker_first.fill_rate, 1.0,
        "every game fills the first turn"
    );
    assert!(
        report
            .boxes
            .iter()
            .all(|b| (0.0..=1.0).contains(&b.fill_rate))
    );
}

#[test]
fn the_command_plays_a_ruleset_file_and_writes_its_report() {
    let out = std::env::temp_dir().join(format!("safari-sim-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let safari = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_safari"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap()
    };
    let built = safari(&["build", "--out", &out.to_string_lossy()]);
    assert_eq!(built.status.code(), Some(0));
    let ruleset = out.join("safari-zone/ruleset.json");
    let log = out.join("game.jsonl");
    let result = safari(&[
        "sim",
        &ruleset.to_string_lossy(),
        "--games",
        "50",
        "--policy",
        "random,greedy",
        "--out",
        &out.to_string_lossy(),
        "--log",
        &log.to_string_lossy(),
    ]);
    assert_eq!(
        result.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let stdout = String::from_utf8_lossy(&result.stdout);
    assert!(
        stdout.contains("random") && stdout.contains("greedy"),
        "{stdout}"
    );
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("safari-zone/sim/report.json")).unwrap())
            .unwrap();
    assert_eq!(report["runs"].as_array().unwrap().len(), 2);
    assert!(!report["findings"].as_array().unwrap().is_empty());
    for chart in ["vp-histogram", "length-histogram", "vp-over-turns"] {
        let svg =
            std::fs::read_to_string(out.join(format!("safari-zone/sim/{chart}.svg"))).unwrap();
        assert!(
            svg.contains("<svg") && svg.contains("greedy"),
            "{chart}.svg names its series"
        );
        let png = std::fs::read(out.join(format!("safari-zone/sim/{chart}.png"))).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        let (width, height) = (
            u32::from_be_bytes(png[16..20].try_into().unwrap()),
            u32::from_be_bytes(png[20..24].try_into().unwrap()),
        );
        assert_eq!((width, height), (900, 500), "{chart}.png");
    }
    let lines = std::fs::read_to_string(&log).unwrap();
    assert!(lines.lines().count() > 20);
    for line in lines.lines() {
        let event: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(event.get("event").is_some());
    }
    assert!(lines.lines().last().unwrap().contains("\"end\""));
    let unknown = safari(&["sim", "--policy", "clever"]);
    assert_eq!(unknown.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn quiet_sim_prints_only_its_table() {
    let out = std::env::temp_dir().join(format!("safari-sim-quiet-{}", std::process::id()));
    let result = Command::new(env!("CARGO_BIN_EXE_safari"))
        .args([
            "sim",
            "--games",
            "20",
            "--quiet",
            "--out",
            &out.to_string_lossy(),
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(result.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&result.stderr), "");
    assert!(
        String::from_utf8_lossy(&result.stdout)
            .contains(safari::rules::safari_zone::sim::DEFAULT_POLICY)
    );
    let _ = std::fs::remove_dir_all(&out);
}

fn default_report(policies: &[&str], games: u64) -> safari::rules::safari_zone::sim::SimReport {
    let rules = rules();
    let runs: Vec<_> = policies
        .iter()
        .map(|p| safari::rules::safari_zone::sim::simulate(&rules, p, games, 1, 1, &|_| {}))
        .collect();
    safari::rules::safari_zone::sim::SimReport {
        game: rules.name.clone(),
        seed: 1,
        findings: safari::rules::safari_zone::sim::findings(&runs),
        runs,
    }
}

fn finding<'a>(
    report: &'a safari::rules::safari_zone::sim::SimReport,
    code: &str,
) -> &'a safari::rules::safari_zone::sim::Finding {
    report
        .findings
        .iter()
        .find(|f| f.code == code)
        .unwrap_or_else(|| panic!("no {code} finding in {:#?}", report.findings))
}

#[test]
fn the_findings_say_how_games_end_where_the_two_peaks_come_from_and_how_skill_pays() {
    let report = default_report(&["random", "expected"], 2000);
    let end = report
        .findings
        .iter()
        .find(|f| f.code == "game-end" && f.run.as_deref() == Some("expected"))
        .unwrap();
    assert!(end.numbers["ended_by_balls"] > 0.8, "{}", end.text);
    assert!(end.text.contains("out of Safari Balls"), "{}", end.text);

    // The upper peak is the games that open Area 3 (it needs 100 VP).
    let modes = finding(&report, "vp-modes");
    assert!(
        modes.subjects.iter().any(|s| s.starts_with("areas.area-3")),
        "{}",
        modes.text
    );
    assert!(modes.numbers["upper_peak"] > modes.numbers["split"]);
    assert!(modes.numbers["split"] > modes.numbers["lower_peak"]);

    let ladder = finding(&report, "skill-ladder");
    assert!(ladder.text.starts_with("Skill ladder"), "{}", ladder.text);
    assert!(ladder.numbers["expected over random"] > 20.0);

    let rare = finding(&report, "rarely-filled");
    assert!(
        rare.subjects.iter().any(|s| s == "dex-tauros"),
        "{}",
        rare.text
    );
    for f in &report.findings {
        assert!(
            !f.numbers.is_empty() || f.code == "seat-advantage",
            "{f:?} has its numbers"
        );
    }
}

#[test]
fn the_report_validates_against_its_schema() {
    let report = serde_json::to_value(default_report(&["greedy"], 100)).unwrap();
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/sim-report.schema.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&report)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn the_target_policy_fills_its_box_sooner_than_the_best_scorer() {
    let rules = rules();
    let filled = |policy: &str, id: &str| {
        let report = safari::rules::safari_zone::sim::simulate(&rules, policy, 1000, 1, 2, &|_| {});
        let b = report.boxes.iter().find(|b| b.id == id).unwrap();
        (b.fill_rate, b.mean_turn.unwrap_or(f64::MAX), report.target)
    };
    // Gyarados: Magikarp caught three times, through a deck with one Magikarp card.
    let (expected, _, _) = filled("expected", "dex-gyarados");
    let (aimed, _, target) = filled("target:dex-gyarados", "dex-gyarados");
    assert!(aimed > expected * 5.0, "{aimed} vs {expected}");
    let target = target.unwrap();
    assert_eq!(target.r#box, "dex-gyarados");
    assert!((target.filled + target.never - 1.0).abs() < 1e-12);
    let (earliest, median, p90) = (
        target.earliest.unwrap() as f64,
        target.median.unwrap(),
        target.p90.unwrap(),
    );
    assert!(
        earliest <= median && median <= p90,
        "{earliest} {median} {p90}"
    );

    // Area 2: its key is on Area 1's last box.
    let (_, expected_turn, _) = filled("expected", "areas.area-2#1");
    let (_, aimed_turn, _) = filled("target:areas.area-2#1", "areas.area-2#1");
    assert!(
        aimed_turn < expected_turn - 0.5,
        "{aimed_turn} vs {expected_turn}"
    );
}

#[test]
fn sim_refuses_a_target_that_is_not_a_box_and_names_the_closest() {
    let result = Command::new(env!("CARGO_BIN_EXE_safari"))
        .args(["sim", "--target", "areas.area-3#7x", "--games", "10"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(result.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(stderr.contains("has no box `areas.area-3#7x`"), "{stderr}");
    assert!(stderr.contains("did you mean"), "{stderr}");
    // A track's name gives its boxes; a box id without its section gives the box.
    for (written, named) in [
        ("area-3", "`areas.area-3#1` to `areas.area-3#"),
        ("area-3#1", "did you mean `areas.area-3#1`?"),
    ] {
        let result = Command::new(env!("CARGO_BIN_EXE_safari"))
            .args(["sim", "--target", written, "--games", "10"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        assert_eq!(result.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&result.stderr);
        assert!(stderr.contains(named), "{written}: {stderr}");
        assert!(!stderr.contains("bag."), "{written}: {stderr}");
    }
    let seats = Command::new(env!("CARGO_BIN_EXE_safari"))
        .args(["sim", "--seats", "greedy,expected", "--players", "3"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(seats.status.code(), Some(2));
}

#[test]
fn the_html_report_shows_findings_tables_and_charts_in_a_browser() {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sim-html");
    let _ = std::fs::remove_dir_all(&out);
    let result = Command::new(env!("CARGO_BIN_EXE_safari"))
        .args([
            "sim",
            "--games",
            "400",
            "--policy",
            "random,expected",
            "--seats",
            "greedy,expected",
            "--rotate",
            "--target",
            "dex-gyarados",
            "--out",
        ])
        .arg(&out)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(
        result.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let page = out.join("safari-zone/sim/report.html");
    let html = std::fs::read_to_string(&page).expect("sim writes its page");
    assert!(!html.contains("<script"), "a script in the report");
    // The findings the terminal printed are on the page, in the same words.
    let stdout = String::from_utf8_lossy(&result.stdout);
    let first = stdout.lines().nth(1).unwrap().trim_start_matches("- ");
    assert!(first.starts_with("Skill ladder"), "{stdout}");
    assert!(
        html.contains("Skill ladder (mean VP"),
        "the ladder is on the page"
    );
    let Some(chromium) = browser::chromium() else {
        return;
    };
    let screenshot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sim-report.png");
    let rendered = browser::open(&chromium, &page, &screenshot, (1280, 3000));
    for expected in [
        "How Safari Zone RNW plays",
        "id=\"findings\"",
        "id=\"runs\"",
        "id=\"targets\"",
        "Win rate per seat",
        "place in turn order",
        "<svg",
    ] {
        assert!(
            rendered.dom.contains(expected),
            "the page shows no {expected}"
        );
    }
    assert!(
        rendered.dom.matches("<svg").count() >= 6,
        "every chart is drawn"
    );
    println!("screenshot: {}", rendered.screenshot.display());
}

/// The default player plays close to the best: `planner` scores within 5% of `search`, and a
/// report of a weak player and a strong one says that how games end depends on who plays.
#[test]
fn the_default_policy_plays_well_and_findings_say_what_depends_on_the_policy() {
    assert_eq!(safari::rules::safari_zone::sim::DEFAULT_POLICY, "planner");
    let report = default_report(&["expected", "planner"], 2000);
    let mean = |policy: &str| {
        report
            .runs
            .iter()
            .find(|r| r.policy == policy)
            .unwrap()
            .vp
            .mean
    };
    assert!(mean("planner") > mean("expected") * 1.3);
    let depends = finding(&report, "depends-on-policy");
    assert!(depends.text.contains("expected") && depends.text.contains("planner"));
    assert!(
        depends.text.contains("strongest policy (planner)"),
        "{}",
        depends.text
    );
    let searched = default_report(&["search"], 300);
    let search = searched.runs[0].vp.mean;
    assert!(
        mean("planner") > search * 0.95,
        "planner {} against search {search}",
        mean("planner")
    );
}

/// A table of mixed policies whose final VP has two peaks because one seat plays at random:
/// the findings say where each policy's games fall and weigh boxes only among the games of
/// one policy, and the page calls no chart of it a skill ladder.
#[test]
fn a_mixed_table_compares_like_with_like_and_blames_no_box_for_a_skill_gap() {
    use safari::rules::safari_zone::sim;
    let rules = rules();
    let seats = ["random", "expected", "greedy"];
    let table = sim::Table {
        seats: seats.iter().map(|s| s.to_string()).collect(),
        rotate: true,
    };
    let mixed = sim::play(&rules, &table, 300, 4, &|_| {});
    let report_of = |runs: Vec<sim::Report>| sim::SimReport {
        game: rules.name.clone(),
        seed: 4,
        findings: sim::findings(&runs),
        runs,
    };
    let report = report_of(vec![mixed.clone()]);
    let name = "random,expected,greedy";
    let modes = finding(&report, "mixed-modes");
    assert_eq!(modes.run.as_deref(), Some(name));
    assert!(
        modes.numbers["random: upper_share"] < 0.05,
        "{}",
        modes.text
    );
    assert!(
        modes.numbers["expected: upper_share"] > 0.05,
        "{}",
        modes.text
    );
    assert!(modes.text.contains("mean VP: "), "{}", modes.text);
    assert!(modes.text.contains("random 0%"), "{}", modes.text);
    // Within one skilled policy's games, the upper peak is still the games that open Area 3.
    assert!(
        report
            .findings
            .iter()
            .any(|f| f.code == "vp-modes"
                && f.subjects.iter().any(|s| s.starts_with("areas.area-3"))),
        "{:#?}",
        report.findings
    );
    assert!(modes.subjects.iter().all(|s| seats.contains(&s.as_str())));
    // No box, item or species is named as what parts the table's peaks: the content is
    // weighed within one policy's games.
    for f in &report.findings {
        if f.code == "vp-modes" || f.code == "vp-drivers" {
            assert!(
                f.text.starts_with(&format!("{name} (")) && f.text.contains("'s games)"),
                "{}",
                f.text
            );
        }
    }
    assert!(
        report
            .findings
            .iter()
            .any(|f| f.code == "vp-drivers" && f.text.contains("'s games)")),
        "{:#?}",
        report.findings
    );
    // Beside a run of one policy, the runs' chart is no skill ladder.
    let one = sim::simulate(&rules, "greedy", 100, 1, 4, &|_| {});
    let page = sim::page(&report_of(vec![one, mixed]));
    assert!(
        !page.contains("The skill ladder"),
        "a mixed table on a ladder"
    );
    assert!(
        page.contains(&format!("{name}: random")),
        "the final VP per policy"
    );
}
