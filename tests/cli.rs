//! The `safari` binary as a user runs it: exit codes, output streams, help text.

use std::path::Path;
use std::process::{Command, Output};

fn safari(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_safari"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .env("COLUMNS", "100")
        .output()
        .expect("the binary runs")
}

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn check_of_the_default_game_succeeds() {
    let out = safari(&["check"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("no problems found"));
}

#[test]
fn check_with_errors_exits_1_and_shows_the_code() {
    let out = safari(&["check", &fixture("sz0402-key-behind-door")]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("SZ0402"), "{stderr}");
    assert!(stderr.contains("1 error"), "{stderr}");
}

#[test]
fn check_with_only_warnings_exits_0() {
    let out = safari(&["check", &fixture("sz0601-turn-budget")]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stderr).contains("1 warning"));
}

#[test]
fn json_output_is_one_object_per_diagnostic() {
    let out = safari(&["check", &fixture("sz0201-unknown-name"), "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    let list = value.as_array().expect("an array");
    assert_eq!(list.len(), 2);
    for d in list {
        for key in [
            "code", "severity", "message", "file", "line", "column", "span", "labels", "help",
        ] {
            assert!(d.get(key).is_some(), "missing {key} in {d}");
        }
        assert_eq!(d["code"], "SZ0201");
    }
    assert_eq!(
        list[0]["help"],
        "a name with a similar spelling exists: `key`"
    );
}

#[test]
fn a_folder_that_is_not_a_game_exits_2() {
    let out = safari(&["check", "tests"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("SZ0003"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_missing_folder_exits_2() {
    let out = safari(&["check", "no/such/game"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cannot open game folder"));
}

#[test]
fn usage_errors_exit_2() {
    let out = safari(&["check", "--format", "xml"]);
    assert_eq!(out.status.code(), Some(2));
    let out = safari(&["frobnicate"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn explain_prints_the_explanation_and_an_example() {
    let out = safari(&["explain", "sz0401"]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("SZ0401: a box can never be filled"),
        "{stdout}"
    );
    assert!(stdout.contains("Example:"));
    let flowing = stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flowing.contains("least fixpoint"), "{stdout}");
}

#[test]
fn explain_without_a_code_lists_every_code() {
    let out = safari(&["explain"]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    for code in safari::diag::Code::ALL {
        assert!(stdout.contains(code.as_str()), "{code} missing");
    }
}

#[test]
fn explain_of_an_unknown_code_exits_2() {
    let out = safari(&["explain", "SZ9999"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn build_with_errors_exits_1() {
    let out = safari(&["build", &fixture("sz0301-deck-size")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("build stopped"));
}

#[test]
fn help_shows_examples() {
    let out = safari(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains("Examples:"));
    let out = safari(&["check", "--help"]);
    assert!(text(&out.stdout).contains("--format"));
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("safari-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn safari_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_safari"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

#[test]
fn completions_are_printed_for_each_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = safari(&["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}");
        let script = text(&out.stdout);
        assert!(
            script.contains("safari") && script.contains("explain"),
            "{shell}: {script}"
        );
    }
}

#[test]
fn init_scaffolds_a_game_that_checks_clean_and_refuses_to_overwrite() {
    let dir = temp_dir("init");
    let game = dir.join("my-safari");
    let out = safari_in(&dir, &["init", "my-safari"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    for file in [
        "game.toml",
        "field-guide.kdl",
        "deck.toml",
        "dice.toml",
        "species.toml",
        "items.toml",
        "README.md",
        "schema/deck.schema.json",
    ] {
        assert!(game.join(file).is_file(), "{file}");
    }
    let deck = std::fs::read_to_string(game.join("deck.toml")).unwrap();
    assert!(deck.starts_with("#:schema schema/deck.schema.json"));
    let out = safari_in(&dir, &["check", "my-safari"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let again = safari_in(&dir, &["init", "my-safari"]);
    assert_eq!(again.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn outside_a_checkout_the_built_in_game_is_checked_and_built() {
    let dir = temp_dir("outside");
    let out = safari_in(&dir, &["check"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("the built-in Safari Zone RNW: no problems found"));
    let out = safari_in(&dir, &["build"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(dir.join("out/safari-zone/ruleset.json").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn quiet_keeps_errors_only_and_verbose_says_more() {
    let out = safari(&["check", "--quiet", &fixture("sz0601-turn-budget")]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stderr), "", "warnings are dropped with --quiet");
    let out = safari(&["check", "-q", &fixture("sz0301-deck-size")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("SZ0301"));
    let dir = temp_dir("verbose");
    let out = safari(&["build", "--verbose", "--out", &dir.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text(&out.stderr).contains("checked in"),
        "{}",
        text(&out.stderr)
    );
    let conflict = safari(&["check", "--quiet", "--verbose"]);
    assert_eq!(conflict.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}
