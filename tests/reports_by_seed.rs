//! `sim` and `diff` give the same reports for the same seeds, whatever the engine's code moves:
//! the snapshots beside this file were written by the engine before it became a crate of its
//! own (`crates/engine`), and every later change to the engine must keep them byte for byte
//! unless it means to change how a game plays (then the snapshot's change is the review).

use std::path::{Path, PathBuf};
use std::process::Command;

fn safari() -> Command {
    Command::new(env!("CARGO_BIN_EXE_safari"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("safari-reports-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn default_game() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("content/safari-zone")
}

/// The report `sim` writes for these arguments, as pretty JSON.
fn sim_report(name: &str, args: &[&str]) -> String {
    let out = scratch(name);
    let status = safari()
        .arg("sim")
        .arg(default_game())
        .args(args)
        .arg("--out")
        .arg(&out)
        .arg("--quiet")
        .status()
        .unwrap();
    assert!(status.success(), "sim {args:?} failed");
    let report = std::fs::read(out.join("safari-zone/sim/report.json")).unwrap();
    let value: serde_json::Value = serde_json::from_slice(&report).unwrap();
    let _ = std::fs::remove_dir_all(&out);
    serde_json::to_string_pretty(&value).unwrap()
}

#[test]
fn sim_reports_by_seed_are_unchanged() {
    let cases: [(&str, &[&str]); 3] = [
        (
            "policies",
            &[
                "--games",
                "300",
                "--players",
                "2",
                "--seed",
                "11",
                "--policy",
                "random,greedy,expected,search:3",
            ],
        ),
        (
            "mixed-seats",
            &[
                "--games",
                "300",
                "--seats",
                "random,expected,greedy",
                "--rotate",
                "--seed",
                "4",
            ],
        ),
        (
            "target",
            &[
                "--games",
                "200",
                "--target",
                "areas.area-3#1",
                "--seed",
                "9",
            ],
        ),
    ];
    let mut failed = Vec::new();
    for (name, args) in cases {
        let report = sim_report(name, args);
        let result = std::panic::catch_unwind(|| {
            insta::assert_snapshot!(format!("sim-{name}"), report);
        });
        if result.is_err() {
            failed.push(name);
        }
    }
    assert!(failed.is_empty(), "sim reports changed: {failed:?}");
}

#[test]
fn diff_report_by_seed_is_unchanged() {
    let dir = scratch("diff");
    let later = dir.join("later");
    std::fs::create_dir_all(&later).unwrap();
    for entry in std::fs::read_dir(default_game()).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), later.join(entry.file_name())).unwrap();
    }
    let manifest = later.join("game.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        text.replace("rolls-per-turn = 3", "rolls-per-turn = 2"),
    )
    .unwrap();
    let output = safari()
        .args(["diff"])
        .arg(default_game())
        .arg(&later)
        .args(["--games", "400", "--seed", "3", "--format", "json", "--out"])
        .arg(dir.join("out"))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "diff failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let report = serde_json::to_string_pretty(&value)
        .unwrap()
        .replace(&dir.display().to_string(), "[scratch]")
        .replace(env!("CARGO_MANIFEST_DIR"), "[checkout]");
    insta::assert_snapshot!("diff-fewer-rolls", report);
}
