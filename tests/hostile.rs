//! Hostile input, through the binary as an attacker would run it: content that tries to write
//! outside the output folder, to crash, hang or exhaust the process, and file-system faults in
//! the middle of a build. Each must end in a coded diagnostic, with the process alive and the
//! outputs whole.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

/// Runs the binary in `dir`; a run that takes more than a minute is a hang and fails the test.
fn safari_in(dir: &Path, args: &[&str]) -> Output {
    let child = Command::new(env!("CARGO_BIN_EXE_safari"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("COLUMNS", "100")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let pid = child.id();
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || sender.send(child.wait_with_output()));
    match receiver.recv_timeout(Duration::from_secs(60)) {
        Ok(output) => output.expect("output"),
        Err(_) => {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            panic!("safari {args:?} hung");
        }
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("hostile-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// A copy of the fixture `clean-tiny` at `dir/game`, with `edit` applied to its files.
fn tiny_game(dir: &Path, edit: impl FnOnce(&Path)) -> PathBuf {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/clean-tiny");
    let game = dir.join("game");
    std::fs::create_dir_all(&game).expect("game folder");
    for entry in std::fs::read_dir(from).expect("fixture") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "toml" || e == "kdl") {
            std::fs::copy(&path, game.join(path.file_name().unwrap())).expect("copy");
        }
    }
    edit(&game);
    game
}

fn replace_in(file: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(file).expect("readable");
    assert!(text.contains(from), "{} has no `{from}`", file.display());
    std::fs::write(file, text.replacen(from, to, 1)).expect("writable");
}

fn append(file: &Path, more: &str) {
    let text = std::fs::read_to_string(file).expect("readable");
    std::fs::write(file, text + more).expect("writable");
}

/// Every file under `dir`, relative, sorted.
fn files(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(
                    path.strip_prefix(dir)
                        .unwrap()
                        .to_string_lossy()
                        .into_owned(),
                );
            }
        }
    }
    out.sort();
    out
}

#[test]
fn a_game_id_cannot_lead_a_build_outside_the_output_folder() {
    for id in [
        "../../escaped",
        "/tmp/escaped-absolute",
        "a/b",
        "..",
        "Tiny",
    ] {
        let dir = scratch("id-escape");
        let game = tiny_game(&dir, |g| {
            replace_in(
                &g.join("game.toml"),
                "id = \"tiny\"",
                &format!("id = \"{id}\""),
            )
        });
        let out = safari_in(
            &dir,
            &["build", game.to_str().unwrap(), "--only", "ruleset"],
        );
        assert_eq!(out.status.code(), Some(1), "{id}: {}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains("SZ0105"),
            "{}",
            text(&out.stderr)
        );
        assert_eq!(
            files(&dir)
                .iter()
                .filter(|f| !f.starts_with("game"))
                .count(),
            0
        );
    }
    assert!(!Path::new("/tmp/escaped-absolute").exists());
}

#[test]
fn a_ruleset_id_cannot_lead_sim_outside_the_output_folder() {
    let dir = scratch("sim-escape");
    let game = tiny_game(&dir, |_| {});
    let built = safari_in(
        &dir,
        &[
            "build",
            game.to_str().unwrap(),
            "--only",
            "ruleset",
            "--out",
            "out",
        ],
    );
    assert_eq!(built.status.code(), Some(0), "{}", text(&built.stderr));
    let ruleset = dir.join("out/tiny/ruleset.json");
    let mut value: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&ruleset).unwrap()).unwrap();
    value["game"]["id"] = "../../escaped".into();
    std::fs::write(&ruleset, serde_json::to_vec(&value).unwrap()).unwrap();
    let out = safari_in(&dir, &["sim", "out/tiny/ruleset.json", "--games", "5"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("game.id"),
        "{}",
        text(&out.stderr)
    );
    assert!(!dir.join("escaped").exists() && !dir.parent().unwrap().join("escaped").exists());
}

#[test]
fn a_build_replaces_its_outputs_whole_and_keeps_what_it_does_not_make() {
    let dir = scratch("replace");
    let game = tiny_game(&dir, |_| {});
    let game = game.to_str().unwrap();
    let first = safari_in(
        &dir,
        &["build", game, "--only", "ruleset,tts", "--out", "out"],
    );
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    let target = dir.join("out/tiny");
    // A simulation's report, and an image an earlier export made that this one will not.
    std::fs::create_dir_all(target.join("sim")).unwrap();
    std::fs::write(target.join("sim/report.json"), "{}").unwrap();
    std::fs::write(target.join("tts/images/stale-0123abcd.png"), "old").unwrap();

    let ruleset_only = safari_in(&dir, &["build", game, "--only", "ruleset", "--out", "out"]);
    assert_eq!(ruleset_only.status.code(), Some(0));
    let kept = files(&target);
    assert!(kept.contains(&"sim/report.json".to_string()), "{kept:?}");
    assert!(
        kept.iter().any(|f| f.starts_with("tts/")),
        "--only ruleset keeps tts/: {kept:?}"
    );

    let again = safari_in(
        &dir,
        &["build", game, "--only", "ruleset,tts", "--out", "out"],
    );
    assert_eq!(again.status.code(), Some(0));
    let after = files(&target);
    assert!(!after.iter().any(|f| f.contains("stale-")), "{after:?}");
    assert!(after.contains(&"sim/report.json".to_string()), "{after:?}");
    // Nothing of the swap is left beside the output folder, only the game's lock.
    assert_eq!(
        files(&dir.join("out"))
            .iter()
            .filter(|f| f.starts_with('.') && *f != ".tiny.lock")
            .count(),
        0
    );
}

#[test]
fn a_build_that_cannot_write_reports_a_code_and_leaves_the_old_outputs() {
    let dir = scratch("unwritable");
    let game = tiny_game(&dir, |_| {});
    // Where the output root should be, a file: no folder can be made in it. (A file where
    // the game's own folder goes is a folder safari did not make: tests/output_folders.rs.)
    // It is refused before any work (SZ0808), rather than failing at the first write.
    std::fs::write(dir.join("out"), "precious").unwrap();
    let out = safari_in(&dir, &["build", game.to_str().unwrap(), "--out", "out"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("SZ0808"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("out")).unwrap(),
        "precious"
    );
    // Nothing beside it.
    assert_eq!(
        files(&dir),
        vec![
            "game/deck.toml".to_string(),
            "game/dice.toml".to_string(),
            "game/field-guide.kdl".to_string(),
            "game/game.toml".to_string(),
            "game/items.toml".to_string(),
            "game/species.toml".to_string(),
            "out".to_string()
        ]
    );
    // A fault met while writing (here a folder where the game's lock file goes) is SZ0801,
    // and the outputs built before are left as they were.
    let built = safari_in(&dir, &["build", game.to_str().unwrap(), "--out", "built"]);
    assert_eq!(built.status.code(), Some(0), "{}", text(&built.stderr));
    let before = files(&dir.join("built/tiny"));
    std::fs::remove_file(dir.join("built/.tiny.lock")).unwrap();
    std::fs::create_dir(dir.join("built/.tiny.lock")).unwrap();
    let out = safari_in(&dir, &["build", game.to_str().unwrap(), "--out", "built"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("SZ0801"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(files(&dir.join("built/tiny")), before);
}

#[cfg(unix)]
#[test]
fn files_linked_from_outside_the_game_are_refused_as_such() {
    let dir = scratch("symlinks");
    std::fs::write(dir.join("secret.typ"), "= Secret").unwrap();
    for link in ["park-rules.typ", "templates/card.typ"] {
        let game = tiny_game(&dir, |g| {
            std::fs::create_dir_all(g.join("templates")).unwrap();
            std::os::unix::fs::symlink(dir.join("secret.typ"), g.join(link)).unwrap();
        });
        // `check` refuses what `build` refuses.
        let game = game.to_str().unwrap();
        for args in [vec!["check", game], vec!["build", game, "--only", "deck"]] {
            let out = safari_in(&dir, &args);
            assert_eq!(
                out.status.code(),
                Some(1),
                "{args:?}: {}",
                text(&out.stderr)
            );
            assert!(
                text(&out.stderr).contains("SZ0004"),
                "{args:?}: {}",
                text(&out.stderr)
            );
        }
        std::fs::remove_dir_all(game).unwrap();
    }
}

/// A name that leads out of the folder by an absolute path is refused at the name, and so is a
/// file past its size limit: content (1 MiB) before it is read, a picture (16 MiB) before it
/// is decoded; the files are sparse, so nothing of their size is written.
#[test]
fn absolute_paths_and_files_past_their_size_are_refused_at_the_name() {
    let dir = scratch("bounds");
    let game = dir.join("game");
    std::fs::create_dir_all(game.join("art")).unwrap();
    std::fs::write(
        game.join("game.toml"),
        "id = \"bounds\"\nname = \"Bounds\"\nrules = \"none\"\n\
         components = [\"/etc/hostname\", \"symbols.toml\", \"huge.toml\"]\n\
         [players]\nmin = 1\nmax = 2\n",
    )
    .unwrap();
    std::fs::write(
        game.join("symbols.toml"),
        "[[symbol]]\nid = \"sun\"\nlabel = \"Sun\"\ncolor = \"#d19a0b\"\nart = \"art/sun.png\"\n",
    )
    .unwrap();
    let sparse = |path: PathBuf, bytes: u64| {
        std::fs::File::create(path).unwrap().set_len(bytes).unwrap();
    };
    sparse(game.join("huge.toml"), (1 << 20) + 1);
    sparse(game.join("art/sun.png"), (16 << 20) + 1);
    let out = safari_in(&dir, &["check", game.to_str().unwrap(), "--format", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let refused: Vec<(&str, &str)> = report
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["code"].as_str().unwrap(), d["message"].as_str().unwrap()))
        .collect();
    for (file, code) in [
        ("`/etc/hostname`", "SZ0004"),
        ("`huge.toml`", "SZ0005"),
        ("`art/sun.png`", "SZ0005"),
    ] {
        assert!(
            refused.iter().any(|(c, m)| *c == code && m.contains(file)),
            "{file} is not refused with {code}: {refused:?}"
        );
    }
}

#[cfg(unix)]
#[test]
fn a_pipe_in_place_of_a_file_is_refused_without_waiting() {
    let dir = scratch("fifo");
    let game = tiny_game(&dir, |g| {
        std::fs::remove_file(g.join("deck.toml")).unwrap();
        let made = Command::new("mkfifo").arg(g.join("deck.toml")).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo works");
    });
    let out = safari_in(&dir, &["check", game.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("not a regular file"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn blocks_nested_thousands_deep_are_refused_not_a_crash() {
    let dir = scratch("nesting");
    let game = tiny_game(&dir, |g| {
        let deep = "{ n ".repeat(5000) + &"}".repeat(5000);
        append(&g.join("field-guide.kdl"), &format!("\n/-note {deep}\n"));
    });
    let out = safari_in(&dir, &["check", game.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("SZ0005"));

    // A roll-and-write sheet of a game made of components is read by the same reader.
    let sheet = scratch("nesting-sheet");
    std::fs::write(
        sheet.join("game.toml"),
        "id = \"deep\"\nname = \"Deep\"\nrules = \"none\"\n",
    )
    .unwrap();
    std::fs::write(
        sheet.join("components.toml"),
        "[[sheet]]\nid = \"log\"\nname = \"Log\"\nlayout = \"log.kdl\"\n",
    )
    .unwrap();
    let deep = "{ n ".repeat(100_000) + &"}".repeat(100_000);
    std::fs::write(sheet.join("log.kdl"), format!("section \"s\" {deep}\n")).unwrap();
    let out = safari_in(&sheet, &["check", sheet.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("SZ0005"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn many_sheets_of_many_boxes_are_refused_past_one_field_guide() {
    // Sixteen sheets naming one layout of 10,000 boxes: `check` would lay out 160,000 boxes.
    // The sheets together hold at most as many boxes as one Field Guide, so it stops at the
    // second, once.
    let dir = scratch("many-sheets");
    std::fs::write(
        dir.join("game.toml"),
        "id = \"many\"\nname = \"Many\"\nrules = \"none\"\n",
    )
    .unwrap();
    let sheets: String = (0..16)
        .map(|i| format!("[[sheet]]\nid = \"s{i}\"\nname = \"S\"\nlayout = \"log.kdl\"\n\n"))
        .collect();
    std::fs::write(dir.join("components.toml"), sheets).unwrap();
    let sections: String = (0..10)
        .map(|i| format!("section \"s{i}\" {{ track \"t{i}\" {{ box repeat=1000; }} }}\n"))
        .collect();
    std::fs::write(dir.join("log.kdl"), sections).unwrap();
    let out = safari_in(&dir, &["check", dir.to_str().unwrap()]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(
        stderr
            .matches("the game's sheets hold more than 10000 boxes")
            .count(),
        1,
        "{stderr}"
    );
}

#[test]
fn long_chains_of_consequences_play_without_recursion() {
    // 9,000 free boxes in one track (each opens the next) and an evolution line of 900
    // species, each collected by the Evolutions box of the one before.
    let dir = scratch("cascades");
    let game = tiny_game(&dir, |g| {
        let species: String = (0..900)
            .map(|i| format!("[[species]]\nid = \"line-{i}\"\nname = \"Line {i}\"\n\n"))
            .collect();
        append(&g.join("species.toml"), &format!("\n{species}"));
        let evolutions: String = (0..899)
            .map(|i| {
                format!("        box style=\"trigger\" fill=\"collect:line-{i}\" gives=\"species:line-{}\"\n", i + 1)
            })
            .collect();
        append(
            &g.join("field-guide.kdl"),
            &format!(
                "\nsection \"free\" title=\"Free\" {{\n    track \"free\" {{\n{}    }}\n}}\n\
                 section \"line\" title=\"Line\" {{\n    track \"line\" {{\n        box fill=\"turn\" gives=\"species:line-0\"\n{evolutions}    }}\n}}\n",
                "        box style=\"free\" repeat=1000\n".repeat(9)
            ),
        );
        // The line's first box is filled by a turn: the Turn Tracker has one more turn.
        replace_in(&g.join("game.toml"), "turns = 6", "turns = 7");
    });
    let sheet = "[print]\npaper = { width-mm = 2000, height-mm = 2000 }\n";
    append(&game.join("game.toml"), sheet);
    let check = safari_in(&dir, &["check", game.to_str().unwrap(), "--format", "json"]);
    let errors: Vec<serde_json::Value> =
        serde_json::from_slice::<Vec<serde_json::Value>>(&check.stdout)
            .expect("JSON")
            .into_iter()
            .filter(|d| d["severity"] == "error")
            .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let out = safari_in(&dir, &["sim", game.to_str().unwrap(), "--games", "3"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn an_unreachable_chain_is_reported_in_linear_space() {
    // Each box in its own track, each needing the one before: every track is blocked, and
    // each label names only the box it waits for.
    let dir = scratch("chain");
    let n = 3000;
    let game = tiny_game(&dir, |g| {
        let tracks: String = (1..n)
            .map(|i| {
                format!(
                    "    track \"t{i}\" {{ box \"c{i}\" needs=\"box:c{}\" }}\n",
                    i - 1
                )
            })
            .collect();
        append(
            &g.join("field-guide.kdl"),
            &format!(
                "\nsection \"chain\" fill=\"dice:item\" {{\n    track \"t0\" {{ box \"c0\" needs=\"vp:9000\" }}\n{tracks}}}\n"
            ),
        );
    });
    let out = safari_in(&dir, &["check", game.to_str().unwrap(), "--format", "json"]);
    let list: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).expect("JSON");
    let report = list
        .iter()
        .find(|d| d["code"] == "SZ0401")
        .expect("an SZ0401");
    let labels = report["labels"].as_array().unwrap();
    assert!(labels.len() >= n, "every blocked track is labelled");
    let longest = labels
        .iter()
        .map(|l| l["message"].as_str().unwrap().len())
        .max();
    assert!(
        longest < Some(120),
        "labels name their immediate blocker: {longest:?}"
    );
}

#[test]
fn sim_refuses_counts_beyond_the_game_and_the_limits() {
    for (args, said) in [
        (&["--games", "10000000000"][..], "10000000000"),
        (&["--players", "1000"][..], "1000"),
        (&["--players", "7"][..], "1 to 4 players"),
    ] {
        let mut all = vec!["sim"];
        all.extend_from_slice(args);
        let out = safari_in(Path::new(env!("CARGO_MANIFEST_DIR")), &all);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains(said),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn the_ruleset_loader_refuses_what_no_build_writes() {
    let dir = scratch("rulesets");
    let game = tiny_game(&dir, |_| {});
    let built = safari_in(
        &dir,
        &[
            "build",
            game.to_str().unwrap(),
            "--only",
            "ruleset",
            "--out",
            "out",
        ],
    );
    assert_eq!(built.status.code(), Some(0), "{}", text(&built.stderr));
    let good: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("out/tiny/ruleset.json")).unwrap()).unwrap();
    assert!(safari::rules::safari_zone::engine::load(&serde_json::to_vec(&good).unwrap()).is_ok());
    type Edit = fn(&mut serde_json::Value);
    let cases: [(&str, Edit, &str); 8] = [
        (
            "a duplicate box id",
            |r| {
                let boxes = &mut r["field_guide"]["sections"][0]["tracks"][0]["boxes"];
                let first = boxes[0]["id"].clone();
                boxes[1]["id"] = first;
            },
            "used twice",
        ),
        (
            "no turns",
            |r| r["parameters"]["turns"] = 0.into(),
            "parameters.turns",
        ),
        (
            "no dice",
            |r| r["dice"] = serde_json::json!([]),
            "no expedition die",
        ),
        (
            "a malformed hash",
            |r| r["content_hash"] = "sha256:xyz".into(),
            "content_hash",
        ),
        (
            "a version as text",
            |r| r["format_version"] = "1".into(),
            "whole number",
        ),
        (
            "a huge player count",
            |r| r["parameters"]["players_max"] = 4_000_000_000u32.into(),
            "players",
        ),
        (
            "a name of ten million characters",
            |r| r["game"]["name"] = "x".repeat(10_000_000).into(),
            "game.name",
        ),
        (
            "a flavour text past the limit",
            |r| r["deck"]["cards"][0]["flavor"] = "y".repeat(1001).into(),
            "deck.cards[0].flavor",
        ),
    ];
    for (what, edit, said) in cases {
        let mut ruleset = good.clone();
        edit(&mut ruleset);
        let err = safari::rules::safari_zone::engine::load(&serde_json::to_vec(&ruleset).unwrap())
            .err()
            .unwrap_or_else(|| panic!("{what} was accepted"));
        assert!(err.to_string().contains(said), "{what}: {err}");
    }
}

#[test]
fn a_closed_pipe_ends_output_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_safari"))
        .args(["explain"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("output");
    assert!(
        !text(&out.stderr).contains("panicked"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn boxes_competing_for_a_bounded_event_are_reported_in_linear_space() {
    // 2,000 free boxes each give Beta (no card shows it) and 4,000 Pokédex-like boxes of one
    // section collect it: half of them can never be filled, each reported once, each report
    // naming a few of the boxes that take the event rather than all 2,000.
    let dir = scratch("bounded");
    let n = 2000;
    let game = tiny_game(&dir, |g| {
        let givers = "        box style=\"free\" gives=\"species:beta\"\n".repeat(n);
        let takers: String = (0..2 * n)
            .map(|i| format!("    box \"t{i}\" fill=\"collect:beta\"\n"))
            .collect();
        append(
            &g.join("field-guide.kdl"),
            &format!(
                "\nsection \"givers\" {{\n    track \"g\" {{\n{givers}    }}\n}}\nsection \"takers\" {{\n{takers}}}\n"
            ),
        );
        append(
            &g.join("game.toml"),
            "\n[print]\npaper = { width-mm = 2000, height-mm = 2000 }\n",
        );
    });
    let out = safari_in(&dir, &["check", game.to_str().unwrap(), "--format", "json"]);
    let list: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).expect("JSON");
    let bounded: Vec<_> = list.iter().filter(|d| d["code"] == "SZ0405").collect();
    assert!(bounded.len() >= n - 2, "{} SZ0405 reports", bounded.len());
    let most_labels = bounded
        .iter()
        .map(|d| d["labels"].as_array().unwrap().len())
        .max();
    assert!(most_labels <= Some(5), "labels per report: {most_labels:?}");
}

/// A guide the layout fuzz target found (tests/hostile-inputs/forking-chains.kdl, on A3 beside
/// the default game's other files): its bonus chains fork at every choice, and the search for
/// boxes no play fills (`play::never_filled`) played one cascade's every branch out before it
/// looked at its budget: 88 s and 9 GB for `check`. It gives up within its budget now, and the
/// check finishes in a bounded address space.
#[test]
fn bonus_chains_that_fork_without_end_are_checked_within_the_search_budget() {
    let dir = scratch("forking-chains");
    let game = dir.join("game");
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("content/safari-zone");
    std::fs::create_dir_all(&game).unwrap();
    for name in [
        "game.toml",
        "items.toml",
        "species.toml",
        "dice.toml",
        "deck.toml",
    ] {
        std::fs::copy(from.join(name), game.join(name)).unwrap();
    }
    std::fs::write(
        game.join("field-guide.kdl"),
        include_str!("hostile-inputs/forking-chains.kdl"),
    )
    .unwrap();
    replace_in(&game.join("game.toml"), "paper = \"a4\"", "paper = \"a3\"");
    // 2 GiB of address space: the check's own needs are a few hundred megabytes at most.
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 2097152; exec \"$0\" check \"$1\" --format json")
        .arg(env!("CARGO_BIN_EXE_safari"))
        .arg(&game)
        .output()
        .expect("the binary runs");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let list: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).expect("JSON");
    assert!(list.iter().any(|d| d["severity"] == "error"), "{list:?}");
}

/// `fix`, `sim`, `init` and `watch` write a temporary file beside each file they replace. A
/// symbolic link planted under a temporary's name must never be written through: the bytes
/// would land wherever it points, outside the game or output folder.
#[test]
fn a_temporary_file_is_never_written_through_a_planted_link() {
    let dir = scratch("temporary-links");
    let outside = dir.join("outside.txt");
    std::fs::write(&outside, "precious").unwrap();
    let game = dir.join("game");
    std::fs::create_dir_all(&game).unwrap();
    let target = game.join("field-guide.kdl");
    std::fs::write(&target, "old").unwrap();
    let pid = std::process::id();
    let plant = |name: String| std::os::unix::fs::symlink(&outside, game.join(name)).unwrap();
    // Every name a writer in this process could pick, the earlier scheme's among them.
    plant(format!(".field-guide.kdl.tmp-{pid}"));
    for n in 0..1000 {
        plant(format!(".field-guide.kdl.tmp-{pid}-{n}"));
    }
    let refused = safari::output::write_atomically(&target, b"new");
    assert!(refused.is_err(), "it wrote with every name taken");
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "precious");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "old");
    // With names free past the links, it writes there, and only there.
    for n in 80..1000 {
        std::fs::remove_file(game.join(format!(".field-guide.kdl.tmp-{pid}-{n}"))).unwrap();
    }
    safari::output::write_atomically(&target, b"new").unwrap();
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "precious");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
    assert!(
        !std::fs::symlink_metadata(&target)
            .unwrap()
            .file_type()
            .is_symlink(),
        "the target became a link"
    );
}

/// `sim`, `diff` and `watch` write into a game's output folder as a build does: never through
/// a symbolic link planted for the game's folder or for their own, and never by reading a file
/// there first when it is a pipe (which would hang them) or of another size (a huge sparse
/// file would cost its size in memory).
#[test]
fn writers_never_follow_a_planted_link_nor_read_a_pipe_or_a_huge_file() {
    let dir = scratch("planted-out");
    let victim = dir.join("victim");
    std::fs::create_dir_all(&victim).unwrap();
    std::fs::write(victim.join("field-guide.pdf"), "precious").unwrap();
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let game = Path::new(env!("CARGO_MANIFEST_DIR")).join("content/safari-zone");
    let game = game.to_str().unwrap();
    let sim = |dir: &Path| {
        safari_in(
            dir,
            &["sim", game, "--games", "20", "--out", "out", "--quiet"],
        )
    };
    let untouched = |victim: &Path| {
        assert_eq!(files(victim), vec!["field-guide.pdf".to_string()]);
        assert_eq!(
            std::fs::read_to_string(victim.join("field-guide.pdf")).unwrap(),
            "precious"
        );
    };
    // The game's folder is a link to elsewhere.
    std::os::unix::fs::symlink(&victim, out.join("safari-zone")).unwrap();
    let refused = sim(&dir);
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused.stderr));
    assert!(
        text(&refused.stderr).contains("symbolic link"),
        "{}",
        text(&refused.stderr)
    );
    let diffed = safari_in(&dir, &["diff", game, game, "--games", "0", "--out", "out"]);
    assert_ne!(diffed.status.code(), Some(0), "{}", text(&diffed.stderr));
    untouched(&victim);
    // Its `sim/` is, in a folder safari made (marked: tests/output_folders.rs has the ones
    // it did not).
    std::fs::remove_file(out.join("safari-zone")).unwrap();
    std::fs::create_dir_all(out.join("safari-zone")).unwrap();
    std::fs::write(out.join("safari-zone").join(safari::output::OWNER_MARK), "").unwrap();
    std::os::unix::fs::symlink(&victim, out.join("safari-zone/sim")).unwrap();
    let refused = sim(&dir);
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused.stderr));
    untouched(&victim);
    // A pipe and a 5 GB sparse file where the report goes: replaced, never read.
    std::fs::remove_file(out.join("safari-zone/sim")).unwrap();
    std::fs::create_dir_all(out.join("safari-zone/sim")).unwrap();
    let made = Command::new("mkfifo")
        .arg(out.join("safari-zone/sim/report.json"))
        .status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo works");
    let huge = std::fs::File::create(out.join("safari-zone/sim/report.html")).unwrap();
    huge.set_len(5 << 30).unwrap();
    drop(huge);
    let done = sim(&dir);
    assert_eq!(done.status.code(), Some(0), "{}", text(&done.stderr));
    for file in ["report.json", "report.html"] {
        let metadata = std::fs::metadata(out.join("safari-zone/sim").join(file)).unwrap();
        assert!(
            metadata.is_file() && metadata.len() < 1 << 24,
            "{file}: {metadata:?}"
        );
    }
}

/// Builds at once into one output folder: each holds the game's lock while it writes, so none
/// deletes what another made, and the first to hold it clears what a killed build left.
#[test]
fn concurrent_builds_keep_every_output_and_clear_what_a_killed_one_left() {
    let dir = scratch("concurrent");
    let game = tiny_game(&dir, |_| {});
    let game = game.to_str().unwrap().to_string();
    let first = safari_in(
        &dir,
        &["build", &game, "--only", "ruleset,tts", "--out", "out"],
    );
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    let target = dir.join("out/tiny");
    std::fs::create_dir_all(target.join("sim")).unwrap();
    std::fs::write(target.join("sim/report.json"), "{}").unwrap();
    let before = files(&target);
    // What a build killed in the middle of its swap leaves.
    for left in [".tiny.staging-999999", ".tiny.old-999998"] {
        std::fs::create_dir_all(dir.join("out").join(left).join("tts")).unwrap();
        std::fs::write(dir.join("out").join(left).join("ruleset.json"), "{}").unwrap();
        // Marked from its start, as every folder safari makes.
        std::fs::write(
            dir.join("out").join(left).join(safari::output::OWNER_MARK),
            "",
        )
        .unwrap();
    }
    let builds: Vec<_> = (0..8)
        .map(|_| {
            let (dir, game) = (dir.clone(), game.clone());
            std::thread::spawn(move || {
                safari_in(
                    &dir,
                    &["build", &game, "--only", "ruleset,tts", "--out", "out"],
                )
            })
        })
        .collect();
    for build in builds {
        let out = build.join().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    }
    assert_eq!(files(&target), before, "outputs lost or gained");
    let left: Vec<String> = std::fs::read_dir(dir.join("out"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with('.') && name != ".tiny.lock")
        .collect();
    assert!(left.is_empty(), "left beside the output folder: {left:?}");
}

/// A game's name is content: whatever it holds, `sim` reports on the game, and no control or
/// direction-changing character reaches the report or its charts raw.
#[test]
fn a_games_name_reaches_the_report_and_its_charts_as_visible_escapes() {
    let dir = scratch("sim-name");
    let game = tiny_game(&dir, |_| {});
    let built = safari_in(
        &dir,
        &[
            "build",
            game.to_str().unwrap(),
            "--only",
            "ruleset",
            "--out",
            "out",
        ],
    );
    assert_eq!(built.status.code(), Some(0), "{}", text(&built.stderr));
    let ruleset = dir.join("out/tiny/ruleset.json");
    let mut value: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&ruleset).unwrap()).unwrap();
    value["game"]["name"] = "Tiny\u{7} \u{202e}reversed\u{1b}[2J".into();
    std::fs::write(&ruleset, serde_json::to_vec(&value).unwrap()).unwrap();
    let out = safari_in(
        &dir,
        &["sim", "out/tiny/ruleset.json", "--games", "20", "--quiet"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = dir.join("out/tiny/sim");
    let written = files(&report);
    assert!(written.iter().any(|f| f.ends_with(".png")), "{written:?}");
    for file in written {
        let bytes = std::fs::read(report.join(&file)).unwrap();
        let Ok(content) = std::str::from_utf8(&bytes) else {
            continue;
        };
        if file.ends_with(".json") || file.ends_with(".jsonl") {
            continue;
        }
        for raw in ['\u{7}', '\u{1b}', '\u{202e}'] {
            assert!(!content.contains(raw), "{file} holds {raw:?} raw");
        }
    }
}

/// `explain` repeats a code it does not know; an escape sequence in it is shown, not obeyed.
#[test]
fn explain_shows_a_control_character_in_its_argument_as_an_escape() {
    let dir = scratch("explain-escape");
    let out = safari_in(&dir, &["explain", "SZ\u{1b}]0;owned\u{7}"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(!err.contains('\u{1b}') && !err.contains('\u{7}'), "{err:?}");
    assert!(err.contains("\\u{1b}]0;owned\\u{7}"), "{err}");
}

/// A picture the content names (a card's art, a symbol's art) must be one the templates can
/// draw: `check` says so at the name, as `build` would refuse it.
#[test]
fn check_refuses_art_that_build_cannot_draw() {
    let dir = scratch("art");
    let cards = |art: &str| {
        let art = art.to_string();
        tiny_game(&dir, move |g| {
            let deck = std::fs::read_to_string(g.join("deck.toml")).unwrap();
            let at = deck.find("[[card]]").expect("a card");
            let end = deck[at..].find("\n\n").map_or(deck.len(), |e| at + e);
            let mut edited = deck.clone();
            edited.insert_str(end, &format!("\nart = \"{art}\""));
            std::fs::write(g.join("deck.toml"), edited).unwrap();
            std::fs::write(g.join("not-a-picture.png"), "hello").unwrap();
            std::fs::write(g.join("broken.svg"), "<svg").unwrap();
        })
    };
    for (art, says) in [
        ("missing.png", "does not exist"),
        ("not-a-picture.png", "cannot be drawn"),
        ("broken.svg", "cannot be drawn"),
    ] {
        let game = cards(art);
        let out = safari_in(&dir, &["check", game.to_str().unwrap()]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{art}: {err}");
        assert!(
            err.contains(says) && err.contains("deck.toml"),
            "{art}: {err}"
        );
        std::fs::remove_dir_all(&game).unwrap();
    }
    // A symbol's art in a game of components.
    let game = dir.join("tricky");
    copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("content/tricky-safari"),
        &game,
    );
    replace_in(
        &game.join("components.toml"),
        "label = \"Open ground\"",
        "label = \"Open ground\"\nart = \"open.png\"",
    );
    std::fs::write(game.join("open.png"), "hello").unwrap();
    let out = safari_in(&dir, &["check", game.to_str().unwrap()]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("open.png") && err.contains("cannot be drawn"),
        "{err}"
    );
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.path().is_dir() {
            copy_tree(&entry.path(), &to.join(entry.file_name()));
        } else {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}
