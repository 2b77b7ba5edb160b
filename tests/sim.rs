//! `safari sim`: reports repeat for a seed whatever the number of threads, and the command
//! plays a game folder or a ruleset.json.

use std::path::Path;
use std::process::Command;

use safari::backends::ruleset;
use safari::engine;
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
    let report = pool.install(|| safari::sim::simulate(&rules, "greedy", 300, 2, seed, &|_| {}));
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
    let report = safari::sim::simulate(&rules, "random", 200, 1, 3, &|_| {});
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
    assert_eq!(report.as_array().unwrap().len(), 2);
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
    assert!(String::from_utf8_lossy(&result.stdout).contains("greedy"));
    let _ = std::fs::remove_dir_all(&out);
}
