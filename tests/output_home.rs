//! A game's outputs live with the game, whatever folder a command runs in (as cargo's
//! `target/` sits at its workspace): `out/` in the game folder, or above `content/` for a game
//! in a checkout's `content/<game>/`; `--out` still names another. `init --from` copies a game,
//! never its outputs, and a folder of game files whose `game.toml` is gone is said to be one,
//! not checked as another game.
//!
//! Each case lays out a folder, runs one command in one of its folders and names the one
//! file the command must write; nothing else may appear in an `out/` elsewhere. Every case
//! runs and every failure is reported.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn safari_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_safari"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The fixture `clean-tiny` (id `tiny`) copied to `to`.
fn tiny_game(to: &Path) {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/clean-tiny");
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        if entry.file_type().unwrap().is_file() {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}

/// Every `out` folder under `dir`, by path relative to it.
fn out_folders(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at).into_iter().flatten().flatten() {
            if entry.file_type().unwrap().is_dir() {
                if entry.file_name() == "out" {
                    let path = entry.path();
                    found.push(path.strip_prefix(dir).unwrap().display().to_string());
                } else {
                    stack.push(entry.path());
                }
            }
        }
    }
    found.sort();
    found
}

struct Case {
    name: &'static str,
    /// Lays the case out in the fresh folder it is given.
    setup: fn(&Path),
    /// Where the command runs, from the case's folder.
    run_in: &'static str,
    args: &'static [&'static str],
    /// The file the command writes, from the case's folder; its `out` folder is the only one.
    writes: &'static str,
}

fn game_with_a_subfolder(dir: &Path) {
    tiny_game(&dir.join("my-game"));
    std::fs::create_dir_all(dir.join("my-game/schema")).unwrap();
}

fn checkout(dir: &Path) {
    tiny_game(&dir.join("project/content/tiny"));
}

fn two_versions(dir: &Path) {
    tiny_game(&dir.join("v1"));
    tiny_game(&dir.join("v2"));
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "build from a folder inside the game",
            setup: game_with_a_subfolder,
            run_in: "my-game/schema",
            args: &["build", "--only", "ruleset"],
            writes: "my-game/out/tiny/ruleset.json",
        },
        Case {
            name: "build of a game named from the folder above it",
            setup: game_with_a_subfolder,
            run_in: "",
            args: &["build", "my-game", "--only", "ruleset"],
            writes: "my-game/out/tiny/ruleset.json",
        },
        Case {
            name: "build in the game folder",
            setup: game_with_a_subfolder,
            run_in: "my-game",
            args: &["build", "--only", "ruleset"],
            writes: "my-game/out/tiny/ruleset.json",
        },
        Case {
            name: "build of a game in a checkout's content/, from the checkout",
            setup: checkout,
            run_in: "project",
            args: &["build", "content/tiny", "--only", "ruleset"],
            writes: "project/out/tiny/ruleset.json",
        },
        Case {
            name: "build in a game of a checkout's content/",
            setup: checkout,
            run_in: "project/content/tiny",
            args: &["build", "--only", "ruleset"],
            writes: "project/out/tiny/ruleset.json",
        },
        Case {
            name: "build of a checkout's game from elsewhere",
            setup: checkout,
            run_in: "",
            args: &["build", "project/content/tiny", "--only", "ruleset"],
            writes: "project/out/tiny/ruleset.json",
        },
        Case {
            name: "--out still names the output root, from the working folder",
            setup: game_with_a_subfolder,
            run_in: "my-game/schema",
            args: &["build", "--only", "ruleset", "--out", "../../elsewhere/out"],
            writes: "elsewhere/out/tiny/ruleset.json",
        },
        Case {
            name: "sim of a game named from the folder above it",
            setup: game_with_a_subfolder,
            run_in: "",
            args: &["sim", "my-game", "--games", "2"],
            writes: "my-game/out/tiny/sim/report.json",
        },
        Case {
            name: "diff of two versions from the folder above them: with the later one",
            setup: two_versions,
            run_in: "",
            args: &["diff", "v1", "v2", "--games", "0"],
            writes: "v2/out/tiny/diff/report.html",
        },
    ]
}

#[test]
fn outputs_go_with_their_game_whatever_the_working_folder() {
    let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("output-home");
    let _ = std::fs::remove_dir_all(&base);
    let mut failures = Vec::new();
    for (n, case) in cases().into_iter().enumerate() {
        let dir = base.join(n.to_string());
        std::fs::create_dir_all(&dir).unwrap();
        (case.setup)(&dir);
        let run_in: PathBuf = dir.join(case.run_in);
        let out = safari_in(&run_in, case.args);
        let mut fail =
            |what: String| failures.push(format!("{}: {what}\n{}", case.name, text(&out.stderr)));
        if out.status.code() != Some(0) {
            fail(format!("exit {:?}, not 0", out.status.code()));
            continue;
        }
        if !dir.join(case.writes).is_file() {
            fail(format!("{} was not written", case.writes));
        }
        let expected = Path::new(case.writes)
            .ancestors()
            .find(|p| p.file_name().is_some_and(|n| n == "out"))
            .unwrap()
            .display()
            .to_string();
        let found = out_folders(&dir);
        if found != [expected.clone()] {
            fail(format!("out folders {found:?}, not only {expected}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn a_copy_of_a_game_takes_its_files_not_its_outputs() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("output-home-init");
    let _ = std::fs::remove_dir_all(&dir);
    tiny_game(&dir.join("g"));
    for args in [
        &["build", "g", "--only", "ruleset"][..],
        &["sim", "g", "--games", "2"],
        &["build", "g", "--only", "ruleset", "--out", "g/builds"],
    ] {
        let out = safari_in(&dir, args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
    // A file of the designer's own beside the outputs is theirs, and goes with the copy.
    std::fs::write(dir.join("g/out/notes.txt"), "what to try next").unwrap();
    let out = safari_in(&dir, &["init", "g2", "--from", "g"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let copied = |p: &str| dir.join("g2").join(p).exists();
    assert!(
        copied("game.toml") && copied("field-guide.kdl"),
        "the game was not copied"
    );
    for outputs in ["out/tiny", "builds/tiny"] {
        assert!(
            !copied(outputs),
            "init --from copied the outputs in {outputs}"
        );
    }
    assert!(
        copied("out/notes.txt"),
        "the designer's own file was left behind"
    );
}

#[test]
fn a_folder_of_game_files_without_its_manifest_is_said_to_be_one() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("output-home-lost");
    let _ = std::fs::remove_dir_all(&dir);
    tiny_game(&dir);
    std::fs::remove_file(dir.join("game.toml")).unwrap();
    for command in ["check", "build"] {
        let out = safari_in(&dir, &[command]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{command}: {stderr}");
        assert!(
            stderr.contains("SZ0003") && stderr.contains("lost its manifest"),
            "{command}: {stderr}"
        );
        assert!(
            !stderr.contains("using"),
            "{command} fell back to another game: {stderr}"
        );
        assert!(!dir.join("out").exists(), "{command} wrote outputs");
    }
}
