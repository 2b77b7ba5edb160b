//! Where outputs may go, through the binary as a user (or a game folder's author) would run
//! it: no command replaces, writes into or removes from a folder safari did not make, the game
//! folder, or the folders of its own files, however the output folder is named or linked
//! (src/output/place.rs, docs/content.md "Where outputs go").
//!
//! Each case sets up a folder, runs one command and compares every path under the folder
//! before and after, by kind and content: a refused command must leave all of it as it was
//! (links, pipes and empty folders too). Every case runs and every failure is reported.

use std::collections::BTreeMap;
use std::os::unix::fs::{FileTypeExt, symlink};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

/// Runs the binary in `dir`; a run of more than two minutes is a hang (a `watch` that kept
/// watching a folder it may not write).
fn safari_in(dir: &Path, args: &[&str]) -> Output {
    let child = Command::new(env!("CARGO_BIN_EXE_safari"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("COLUMNS", "200")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let pid = child.id();
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || sender.send(child.wait_with_output()));
    match receiver.recv_timeout(Duration::from_secs(120)) {
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

/// Every path under `dir` (hidden ones too), with what it is: a file's bytes, a link's
/// target, a pipe, a folder. Links are not followed.
fn tree(dir: &Path) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at).into_iter().flatten().flatten() {
            let path = entry.path();
            let name = path
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let kind = std::fs::symlink_metadata(&path).unwrap().file_type();
            let what = if kind.is_symlink() {
                format!("link to {}", std::fs::read_link(&path).unwrap().display())
            } else if kind.is_dir() {
                stack.push(path);
                "folder".to_string()
            } else if kind.is_fifo() {
                "pipe".to_string()
            } else {
                format!(
                    "file {:?}",
                    String::from_utf8_lossy(&std::fs::read(&path).unwrap())
                )
            };
            found.insert(name, what);
        }
    }
    found
}

/// The fixture `clean-tiny` (id `tiny`) copied to `to`.
fn tiny_game(to: &Path) {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/clean-tiny");
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "toml" || e == "kdl") {
            std::fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
        }
    }
}

/// What a user keeps in a folder of their own: files, a link, a pipe, an empty folder, a
/// `.git` with a file in it.
fn belongings(dir: &Path) {
    for (file, text) in [
        ("notes.txt", "mine"),
        ("play/index.html", "my own page"),
        ("tts/save.json", "my table"),
        ("decks/mine.pdf", "my deck"),
        ("sheets/old.pdf", "an old sheet"),
        ("ruleset.json", "{\"mine\": true}"),
        (".git/HEAD", "ref: refs/heads/main"),
    ] {
        let path = dir.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    symlink("notes.txt", dir.join("link-to-notes")).unwrap();
    let made = Command::new("mkfifo").arg(dir.join("pipe")).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo works");
}

fn set_id(game: &Path, id: &str) {
    let manifest = game.join("game.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        text.replacen("id = \"tiny\"", &format!("id = \"{id}\""), 1),
    )
    .unwrap();
}

/// One case: a folder set up, a command run in one of its folders, and what must come of it.
struct Case {
    name: &'static str,
    /// Sets the case up in the fresh folder it is given; returns the folder to run in.
    setup: fn(&Path) -> PathBuf,
    args: &'static [&'static str],
    /// The code of the refusal; `None` when the command must succeed.
    refused_with: Option<&'static str>,
    /// The paths (relative to the case's folder) that must be exactly as they were.
    untouched: &'static [&'static str],
}

fn cases() -> Vec<Case> {
    vec![
        // The attack's first case: a game folder named after its id, built from the folder
        // above it into that folder: `out/<id>` is the game folder itself.
        Case {
            name: "the game folder itself, from the folder above",
            setup: |dir| {
                let game = dir.join("tiny");
                tiny_game(&game);
                belongings(&game);
                dir.to_path_buf()
            },
            args: &["build", "tiny", "--out", ".", "--only", "ruleset"],
            refused_with: Some("SZ0806"),
            untouched: &[""],
        },
        Case {
            name: "the game folder itself, even with --replace and a forged mark",
            setup: |dir| {
                let game = dir.join("tiny");
                tiny_game(&game);
                belongings(&game);
                std::fs::write(game.join(".safari-game"), "").unwrap();
                dir.to_path_buf()
            },
            args: &[
                "build",
                "tiny",
                "--out",
                ".",
                "--replace",
                "--only",
                "ruleset",
            ],
            refused_with: Some("SZ0806"),
            untouched: &[""],
        },
        Case {
            name: "the game folder, from inside it with --out ..",
            setup: |dir| {
                let game = dir.join("tiny");
                tiny_game(&game);
                belongings(&game);
                game
            },
            args: &["build", "--out", "..", "--only", "ruleset"],
            refused_with: Some("SZ0806"),
            untouched: &[""],
        },
        Case {
            name: "a folder holding the game folder",
            setup: |dir| {
                let game = dir.join("tiny/games/g");
                tiny_game(&game);
                dir.to_path_buf()
            },
            args: &["build", "tiny/games/g", "--out", ".", "--only", "ruleset"],
            refused_with: Some("SZ0806"),
            untouched: &[""],
        },
        Case {
            name: "beside the manifest, with --out . in the game folder",
            setup: |dir| {
                tiny_game(dir);
                dir.to_path_buf()
            },
            args: &["build", "--out", ".", "--only", "ruleset"],
            refused_with: Some("SZ0806"),
            untouched: &[""],
        },
        Case {
            name: "inside a folder of the game's own files",
            setup: |dir| {
                tiny_game(dir);
                std::fs::create_dir_all(dir.join("templates")).unwrap();
                std::fs::write(dir.join("templates/card.typ"), "// mine").unwrap();
                dir.to_path_buf()
            },
            args: &["build", "--out", "templates", "--only", "ruleset"],
            refused_with: Some("SZ0806"),
            untouched: &[""],
        },
        // The attack's second case: a game folder that ships `out -> ../victim-home` with the
        // id `bin`, built with no options from inside it.
        Case {
            name: "a planted out link, to a folder of the user's",
            setup: |dir| {
                let game = dir.join("game");
                tiny_game(&game);
                set_id(&game, "bin");
                belongings(&dir.join("victim-home/bin"));
                symlink("../victim-home", game.join("out")).unwrap();
                game
            },
            args: &["build", "--only", "ruleset"],
            refused_with: Some("SZ0807"),
            untouched: &["victim-home", "game"],
        },
        Case {
            name: "a planted out link, to where nothing is yet",
            setup: |dir| {
                let game = dir.join("game");
                tiny_game(&game);
                set_id(&game, "bin");
                std::fs::create_dir_all(dir.join("victim-home")).unwrap();
                symlink("../victim-home", game.join("out")).unwrap();
                game
            },
            args: &["build", "--only", "ruleset"],
            refused_with: Some("SZ0807"),
            untouched: &["victim-home"],
        },
        Case {
            name: "a planted link above the output root",
            setup: |dir| {
                let game = dir.join("game");
                tiny_game(&game);
                std::fs::create_dir_all(dir.join("victim-home/builds")).unwrap();
                symlink("../victim-home", game.join("up")).unwrap();
                game
            },
            args: &["build", "--out", "up/builds", "--only", "ruleset"],
            refused_with: Some("SZ0807"),
            untouched: &["victim-home"],
        },
        Case {
            name: "a planted link that leads nowhere",
            setup: |dir| {
                let game = dir.join("game");
                tiny_game(&game);
                symlink("../nowhere/at/all", game.join("out")).unwrap();
                game
            },
            args: &["build", "--only", "ruleset"],
            refused_with: Some("SZ0801"),
            untouched: &[""],
        },
        // The attack's third case: `watch` through a linked `--out` into a folder of the
        // user's with the game's id.
        Case {
            name: "watch through a linked --out into a folder of the user's",
            setup: |dir| {
                let game = dir.join("game");
                tiny_game(&game);
                set_id(&game, "w");
                belongings(&dir.join("victim/w"));
                symlink("victim", dir.join("linked")).unwrap();
                dir.to_path_buf()
            },
            args: &["watch", "game", "--out", "linked", "--only", "ruleset"],
            refused_with: Some("SZ0805"),
            untouched: &["victim", "linked"],
        },
        Case {
            name: "watch inside a game folder with a planted out link",
            setup: |dir| {
                let game = dir.join("game");
                tiny_game(&game);
                set_id(&game, "bin");
                std::fs::create_dir_all(dir.join("victim-home")).unwrap();
                symlink("../victim-home", game.join("out")).unwrap();
                game
            },
            args: &["watch", "--only", "ruleset"],
            refused_with: Some("SZ0807"),
            untouched: &["victim-home"],
        },
        Case {
            name: "build --replace into a folder of the user's",
            setup: |dir| {
                tiny_game(&dir.join("game"));
                belongings(&dir.join("game/out/tiny"));
                dir.to_path_buf()
            },
            args: &["build", "game", "--replace", "--only", "ruleset"],
            refused_with: Some("SZ0805"),
            untouched: &["game/out"],
        },
        Case {
            name: "sim into a folder of the user's",
            setup: |dir| {
                tiny_game(&dir.join("game"));
                belongings(&dir.join("game/out/tiny"));
                dir.to_path_buf()
            },
            args: &["sim", "game", "--games", "3"],
            refused_with: Some("SZ0805"),
            untouched: &["game/out"],
        },
        Case {
            name: "diff into a folder of the user's",
            setup: |dir| {
                tiny_game(&dir.join("game"));
                belongings(&dir.join("game/out/tiny"));
                dir.to_path_buf()
            },
            args: &["diff", "game", "game", "--games", "0"],
            refused_with: Some("SZ0805"),
            untouched: &["game/out"],
        },
        Case {
            name: "a file where the output folder goes",
            setup: |dir| {
                tiny_game(&dir.join("game"));
                std::fs::create_dir_all(dir.join("game/out")).unwrap();
                std::fs::write(dir.join("game/out/tiny"), "mine").unwrap();
                dir.to_path_buf()
            },
            args: &["build", "game", "--only", "ruleset"],
            refused_with: Some("SZ0805"),
            untouched: &["game/out"],
        },
        Case {
            name: "install into a folder of the user's with the images' name",
            setup: |dir| {
                tiny_game(&dir.join("game"));
                belongings(&dir.join("tts-home/Saves/Saved Objects/TinySafari images"));
                dir.to_path_buf()
            },
            args: &[
                "build",
                "game",
                "--only",
                "tts",
                "--install",
                "--tts-dir",
                "tts-home",
            ],
            refused_with: Some("SZ0805"),
            untouched: &["tts-home/Saves/Saved Objects/TinySafari images"],
        },
        // Links followed by a command no one pointed at them, found by a review of the fix:
        // a default `out` that is a link (a cloned folder can carry one), a game folder reached
        // through a link of the user's with a link out of it inside, `sim` of the game the
        // working folder is in, and of a ruleset file.
        Case {
            name: "the default out is a link, outside any game",
            setup: |dir| {
                tiny_game(&dir.join("repo/content/g"));
                std::fs::create_dir_all(dir.join("victim-home")).unwrap();
                symlink("../victim-home", dir.join("repo/out")).unwrap();
                dir.join("repo")
            },
            args: &["build", "content/g", "--only", "ruleset"],
            refused_with: Some("SZ0807"),
            untouched: &["victim-home"],
        },
        Case {
            name: "a game reached through the user's link, with a link out of it inside",
            setup: |dir| {
                let game = dir.join("lin/real/game");
                tiny_game(&game);
                set_id(&game, "bin");
                std::fs::create_dir_all(dir.join("victim-home")).unwrap();
                symlink("../../../victim-home", game.join("out")).unwrap();
                std::fs::create_dir_all(dir.join("work")).unwrap();
                symlink("../lin/real/game", dir.join("work/game")).unwrap();
                dir.join("work")
            },
            args: &["build", "game", "--out", "game/out", "--only", "ruleset"],
            refused_with: Some("SZ0807"),
            untouched: &["victim-home"],
        },
        Case {
            name: "sim of the game the working folder is in, with a planted out link",
            setup: |dir| {
                let game = dir.join("game");
                tiny_game(&game);
                set_id(&game, "bin");
                std::fs::create_dir_all(dir.join("victim-home")).unwrap();
                symlink("../victim-home", game.join("out")).unwrap();
                game
            },
            args: &["sim", "--games", "2"],
            refused_with: Some("SZ0807"),
            untouched: &["victim-home"],
        },
        Case {
            name: "sim of a ruleset file, in a game folder with a planted out link",
            setup: |dir| {
                let game = dir.join("game");
                tiny_game(&game);
                let built = safari_in(
                    dir,
                    &["build", "game", "--only", "ruleset", "--out", "built"],
                );
                assert_eq!(built.status.code(), Some(0), "{}", text(&built.stderr));
                std::fs::create_dir_all(dir.join("victim-home")).unwrap();
                symlink("../victim-home", game.join("out")).unwrap();
                game
            },
            args: &["sim", "../built/tiny/ruleset.json", "--games", "2"],
            refused_with: Some("SZ0807"),
            untouched: &["victim-home"],
        },
        Case {
            name: "the Typst projects into a folder of the user's",
            setup: |dir| {
                tiny_game(&dir.join("game"));
                belongings(&dir.join("game/out/tiny"));
                dir.to_path_buf()
            },
            args: &["build", "game", "--emit-typst"],
            refused_with: Some("SZ0805"),
            untouched: &["game/out"],
        },
        // The writer holding the lock clears what a killed one left beside the folder, by
        // name and mark: a folder of the user's named alike is not safari's to remove.
        Case {
            name: "folders of the user's named like a killed build's leftovers",
            setup: |dir| {
                tiny_game(&dir.join("game"));
                belongings(&dir.join("game/out/.tiny.old-backup"));
                belongings(&dir.join("game/out/.tiny.staging-123"));
                dir.to_path_buf()
            },
            args: &["build", "game", "--only", "ruleset"],
            refused_with: None,
            untouched: &["game/out/.tiny.old-backup", "game/out/.tiny.staging-123"],
        },
        // `--install` writes the save and its thumbnail beside the folder of images, named
        // after the game: a save of the user's by that name is not replaced.
        Case {
            name: "install over a saved table of the user's with the game's name",
            setup: |dir| {
                tiny_game(&dir.join("game"));
                let saved = dir.join("tts-home/Saves/Saved Objects");
                std::fs::create_dir_all(&saved).unwrap();
                std::fs::write(saved.join("TinySafari.json"), "{\"mine\": true}").unwrap();
                dir.to_path_buf()
            },
            args: &[
                "build",
                "game",
                "--only",
                "tts",
                "--install",
                "--tts-dir",
                "tts-home",
            ],
            refused_with: Some("SZ0805"),
            untouched: &["tts-home"],
        },
        // What stays allowed: the game's own `out/`, an empty folder, a folder safari made,
        // a link the user names that leads out of every game folder.
        Case {
            name: "the game's own out/, from inside it",
            setup: |dir| {
                tiny_game(dir);
                dir.to_path_buf()
            },
            args: &["build", "--only", "ruleset"],
            refused_with: None,
            untouched: &["game.toml"],
        },
        Case {
            name: "an empty folder with the game's id",
            setup: |dir| {
                tiny_game(&dir.join("game"));
                std::fs::create_dir_all(dir.join("out/tiny")).unwrap();
                dir.to_path_buf()
            },
            args: &["build", "game", "--out", "out", "--only", "ruleset"],
            refused_with: None,
            untouched: &["game"],
        },
        Case {
            name: "a linked --out the user names, outside the game",
            setup: |dir| {
                tiny_game(&dir.join("game"));
                std::fs::create_dir_all(dir.join("elsewhere")).unwrap();
                symlink("elsewhere", dir.join("linked")).unwrap();
                dir.to_path_buf()
            },
            args: &["build", "game", "--out", "linked", "--only", "ruleset"],
            refused_with: None,
            untouched: &["game"],
        },
    ]
}

#[test]
fn no_command_writes_into_a_folder_safari_did_not_make_or_among_a_games_files() {
    let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("output-folders");
    let _ = std::fs::remove_dir_all(&base);
    let mut failures = Vec::new();
    for (n, case) in cases().into_iter().enumerate() {
        let dir = base.join(n.to_string());
        std::fs::create_dir_all(&dir).unwrap();
        let run_in = (case.setup)(&dir);
        for path in case.untouched {
            // A path that is not there would be "as it was" whatever the command did.
            assert!(
                std::fs::symlink_metadata(dir.join(path)).is_ok(),
                "{}: `{path}` to keep does not exist",
                case.name
            );
        }
        let before: Vec<_> = case.untouched.iter().map(|p| tree(&dir.join(p))).collect();
        let out = safari_in(&run_in, case.args);
        let stderr = text(&out.stderr);
        let mut fail = |what: String| failures.push(format!("{}: {what}\n{stderr}", case.name));
        match case.refused_with {
            Some(code) => {
                if out.status.code() != Some(2) {
                    fail(format!("exit {:?}, not 2", out.status.code()));
                } else if !stderr.contains(code) {
                    fail(format!("refused without {code}"));
                }
            }
            None if out.status.code() != Some(0) => {
                fail(format!("exit {:?}, not 0", out.status.code()))
            }
            None => {}
        }
        for (path, before) in case.untouched.iter().zip(before) {
            let after = tree(&dir.join(path));
            if after != before {
                fail(format!(
                    "`{path}` changed:\n  before {before:?}\n  after  {after:?}"
                ));
            }
        }
        if case.refused_with.is_none() {
            let made = [
                "out/tiny/ruleset.json",
                "game/out/tiny/ruleset.json",
                "linked/tiny/ruleset.json",
            ]
            .iter()
            .any(|p| run_in.join(p).is_file() || dir.join(p).is_file());
            if !made {
                fail("no ruleset was written".to_string());
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// An output folder safari made is marked from its first file, so a writer killed before
/// its last leaves one the next writer takes for safari's; and `sim` of a ruleset file, which
/// knows no game folder, leaves a mark that any game's build accepts.
#[test]
fn every_output_folder_safari_makes_is_marked_from_the_start() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("output-folders-marked");
    let _ = std::fs::remove_dir_all(&dir);
    tiny_game(&dir.join("game"));
    let built = safari_in(
        &dir,
        &["build", "game", "--only", "ruleset", "--out", "first"],
    );
    assert_eq!(built.status.code(), Some(0), "{}", text(&built.stderr));
    let sim = safari_in(
        &dir,
        &[
            "sim",
            "first/tiny/ruleset.json",
            "--games",
            "3",
            "--out",
            "second",
        ],
    );
    assert_eq!(sim.status.code(), Some(0), "{}", text(&sim.stderr));
    let mark = dir.join("second/tiny/.safari-game");
    assert_eq!(std::fs::read_to_string(&mark).ok().as_deref(), Some(""));
    let built = safari_in(
        &dir,
        &["build", "game", "--only", "ruleset", "--out", "second"],
    );
    assert_eq!(built.status.code(), Some(0), "{}", text(&built.stderr));
    assert!(
        dir.join("second/tiny/sim/report.json").is_file(),
        "the report was kept"
    );
    let owner = std::fs::read_to_string(&mark).unwrap();
    assert!(owner.ends_with("/game"), "{owner}");
}

/// An install replaces what it installed before, and nothing else: installed twice, the
/// second replaces the first; once the user saves over the installed table (in Tabletop
/// Simulator), it is theirs, and the next install refuses to replace it; another game of the
/// same name does not replace the first's install without `--replace`.
#[test]
fn an_install_replaces_only_the_save_it_installed() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("output-folders-install");
    let _ = std::fs::remove_dir_all(&dir);
    tiny_game(&dir.join("game"));
    let install = |game: &str, more: &[&str]| {
        let mut args = vec![
            "build",
            game,
            "--only",
            "tts",
            "--install",
            "--tts-dir",
            "tts-home",
        ];
        args.extend_from_slice(more);
        safari_in(&dir, &args)
    };
    let saved = dir.join("tts-home/Saves/Saved Objects");
    for time in ["first", "second"] {
        let done = install("game", &[]);
        assert_eq!(
            done.status.code(),
            Some(0),
            "{time}: {}",
            text(&done.stderr)
        );
    }
    // Another folder of the same game, with the same name.
    let copy = dir.join("copy");
    tiny_game(&copy);
    let other = install("copy", &["--out", "out-copy"]);
    assert_eq!(other.status.code(), Some(2), "{}", text(&other.stderr));
    assert!(
        text(&other.stderr).contains("SZ0802"),
        "{}",
        text(&other.stderr)
    );
    let taken = install("copy", &["--out", "out-copy", "--replace"]);
    assert_eq!(taken.status.code(), Some(0), "{}", text(&taken.stderr));
    // Saved over by the user.
    let json = saved.join("TinySafari.json");
    std::fs::write(&json, "{\"saved\": \"by the user\"}").unwrap();
    let before = tree(&saved);
    let refused = install("copy", &["--out", "out-copy"]);
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused.stderr));
    assert!(
        text(&refused.stderr).contains("SZ0805"),
        "{}",
        text(&refused.stderr)
    );
    assert_eq!(
        tree(&saved),
        before,
        "a refused install changed the saved objects"
    );
}

/// `init` fills its new folder under a name no link was planted at, and writes nothing
/// through one.
#[test]
fn a_new_folder_is_never_filled_through_a_planted_link() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("output-folders-new");
    let _ = std::fs::remove_dir_all(&dir);
    let victim = dir.join("victim");
    belongings(&victim);
    let before = tree(&victim);
    let pid = std::process::id();
    for n in 0..10 {
        symlink(&victim, dir.join(format!(".made.new-{pid}-{n}"))).unwrap();
        symlink(&victim, dir.join(format!(".made.new-{pid}"))).ok();
    }
    safari::output::new_folder(&dir.join("made"), |new| {
        new.write("notes.txt", b"new")?;
        new.write("play/index.html", b"new")
    })
    .unwrap();
    assert_eq!(tree(&victim), before);
    let made = tree(&dir.join("made"));
    assert_eq!(
        made.get("notes.txt").map(String::as_str),
        Some("file \"new\"")
    );
    assert!(
        !std::fs::symlink_metadata(dir.join("made"))
            .unwrap()
            .file_type()
            .is_symlink(),
        "the new folder is a link"
    );
}

/// `schema` writes into the folder it is given; its default follows no link.
#[test]
fn schema_follows_a_link_only_where_it_is_named() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("output-folders-schema");
    let _ = std::fs::remove_dir_all(&dir);
    let victim = dir.join("victim");
    std::fs::create_dir_all(&victim).unwrap();
    std::fs::write(victim.join("deck.schema.json"), "{\"mine\": true}").unwrap();
    symlink("victim", dir.join("schema")).unwrap();
    let refused = safari_in(&dir, &["schema"]);
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused.stderr));
    assert_eq!(
        std::fs::read_to_string(victim.join("deck.schema.json")).unwrap(),
        "{\"mine\": true}"
    );
    let named = safari_in(&dir, &["schema", "schema"]);
    assert_eq!(named.status.code(), Some(0), "{}", text(&named.stderr));
    assert!(victim.join("game.schema.json").is_file());
}

/// What `watch` looks at in a game folder is listed without entering links to folders, so
/// links that lead back up (`a -> .`, `b -> .`) do not make the list endless.
#[test]
fn links_leading_back_up_do_not_make_a_game_folders_files_endless() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("output-folders-loops");
    let _ = std::fs::remove_dir_all(&dir);
    tiny_game(&dir);
    symlink(".", dir.join("a")).unwrap();
    symlink(".", dir.join("b")).unwrap();
    let (sender, receiver) = std::sync::mpsc::channel();
    let root = dir.clone();
    std::thread::spawn(move || {
        let _ = sender.send(safari::world::files_under(&root, &root.join("out")));
    });
    let files = receiver
        .recv_timeout(Duration::from_secs(60))
        .expect("the files of the folder are listed, not endlessly");
    assert_eq!(files.len(), 8, "{files:?}");
}
