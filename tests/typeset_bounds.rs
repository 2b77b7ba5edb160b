//! Hostile Typst in a game folder, as a user meets it through the command line: a Park Rules
//! page that loops, fills memory or takes forever ends the build with SZ0704 within its
//! bound, the process lives to say so, and nothing is written. A worker stopped that way is
//! started again for the next build (what `watch` relies on); and copies of a card do not
//! multiply the previews a build makes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use safari::backends::print::Typesetting;
use safari::backends::print::worker::{Bounds, Worker};
use safari::backends::{BuildOptions, Target};
use safari::world::GameFolder;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn safari(args: &[&str]) -> (Output, Duration) {
    let started = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_safari"))
        .args(args)
        .env("NO_COLOR", "1")
        // Wide enough that no message wraps.
        .env("COLUMNS", "1000")
        .output()
        .expect("the binary runs");
    (output, started.elapsed())
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("safari-bounds-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A copy of the mini game whose park-rules.typ ends with `bomb`.
fn game_with(name: &str, bomb: &str) -> PathBuf {
    let dir = temp_dir(name).join("game");
    std::fs::create_dir_all(&dir).unwrap();
    let mini = root().join("tests/fixtures-print/mini-odd-deck");
    for entry in std::fs::read_dir(&mini).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
    }
    let rules = std::fs::read_to_string(dir.join("park-rules.typ")).unwrap();
    std::fs::write(dir.join("park-rules.typ"), format!("{rules}\n{bomb}\n")).unwrap();
    dir
}

/// Builds the sheet of `game` (where the Park Rules are) with the given bounds and checks what
/// the user sees: exit 1 (not a crash), SZ0704 saying `says`, within `within`, and no out/
/// folder.
fn assert_stopped(game: &Path, timeout: &str, memory: &str, says: &str, within: Duration) {
    let out = game.parent().unwrap().join("out");
    let (output, took) = safari(&[
        "build",
        &game.to_string_lossy(),
        "--only",
        "sheet",
        "--out",
        &out.to_string_lossy(),
        "--typeset-timeout",
        timeout,
        "--typeset-memory",
        memory,
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("SZ0704"), "{stderr}");
    assert!(stderr.contains(says), "{stderr}");
    assert!(stderr.contains("field-guide.typ"), "{stderr}");
    assert!(stderr.contains("nothing was written"), "{stderr}");
    assert!(took < within, "took {took:?}: {stderr}");
    assert!(
        !out.exists(),
        "something was written into {}",
        out.display()
    );
}

#[test]
fn a_loop_in_the_park_rules_stops_at_the_time_bound() {
    let game = root().join("tests/fixtures-print/sz0704-park-rules-loop");
    let scratch = temp_dir("loop");
    let copy = scratch.join("game");
    std::fs::create_dir_all(&copy).unwrap();
    for entry in std::fs::read_dir(&game).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, copy.join(path.file_name().unwrap())).unwrap();
    }
    assert_stopped(
        &copy,
        "3",
        "1G",
        "did not finish within 3 s",
        Duration::from_secs(15),
    );
    let _ = std::fs::remove_dir_all(&scratch);
}

#[test]
fn a_memory_bomb_stops_at_the_memory_bound() {
    // Generous time, so that only the memory bound can stop it, and well before the time.
    let game = game_with("memory", "#let a = range(1000000000)");
    assert_stopped(
        &game,
        "60",
        "256M",
        "went over the memory bound of 256 MiB",
        Duration::from_secs(40),
    );
    let _ = std::fs::remove_dir_all(game.parent().unwrap());
}

#[test]
fn text_without_end_stops_at_the_time_bound() {
    let game = game_with("lorem", "#lorem(100000)");
    assert_stopped(
        &game,
        "3",
        "1G",
        "did not finish within 3 s",
        Duration::from_secs(15),
    );
    let _ = std::fs::remove_dir_all(game.parent().unwrap());
}

#[test]
fn a_worker_stopped_by_a_bound_is_started_again_for_the_next_build() {
    let bomb = game_with(
        "respawn",
        "#for i in range(100000) { for j in range(100000) { } }",
    );
    let good = root().join("tests/fixtures-print/mini-odd-deck");
    // Time enough for the good game's sheet on a busy machine, in a debug build.
    let bounds = Bounds {
        time: Duration::from_secs(8),
        ..Bounds::DEFAULT
    };
    let mut typesetting = Typesetting::Bounded(Worker::new(env!("CARGO_BIN_EXE_safari"), bounds));
    let options = BuildOptions {
        targets: vec![Target::Sheet],
        ..BuildOptions::default()
    };
    let build = |dir: &Path, typesetting: &mut Typesetting| {
        let mut folder = GameFolder::open(dir).unwrap();
        safari::build_with(&mut folder, &options, typesetting)
    };
    let stopped = build(&bomb, &mut typesetting);
    assert!(stopped.outputs.is_none());
    let codes: Vec<&str> = stopped
        .checked
        .diagnostics
        .iter()
        .map(|d| d.code.as_str())
        .collect();
    assert_eq!(codes, ["SZ0704"]);
    // The same worker (as `watch` keeps it) builds the good game, twice.
    for _ in 0..2 {
        let built = build(&good, &mut typesetting);
        assert!(built.outputs.is_some(), "{:?}", built.checked.diagnostics);
    }
    let _ = std::fs::remove_dir_all(bomb.parent().unwrap());
}

#[test]
fn copies_of_a_card_add_no_previews() {
    // The mini game's four designs, 20 and 100 copies of each: the deck's previews are the
    // pages where a design first shows, their backs and the two calibration pages.
    let count = |copies: u32| {
        let dir = temp_dir(&format!("copies-{copies}"));
        let game = dir.join("game");
        std::fs::create_dir_all(&game).unwrap();
        let mini = root().join("tests/fixtures-print/mini-odd-deck");
        for entry in std::fs::read_dir(&mini).unwrap() {
            let path = entry.unwrap().path();
            std::fs::copy(&path, game.join(path.file_name().unwrap())).unwrap();
        }
        let deck = std::fs::read_to_string(game.join("deck.toml")).unwrap();
        let designs = deck.matches("[[card]]").count() as u32;
        let deck: String = deck
            .lines()
            .filter(|l| !l.starts_with("copies"))
            .map(|l| match l {
                "[[card]]" => format!("{l}\ncopies = {copies}\n"),
                _ if l.starts_with("size") => format!("size = {}\n", designs * copies),
                _ => format!("{l}\n"),
            })
            .collect();
        std::fs::write(game.join("deck.toml"), deck).unwrap();
        let out = dir.join("out");
        let (output, _) = safari(&[
            "build",
            &game.to_string_lossy(),
            "--only",
            "deck",
            "--out",
            &out.to_string_lossy(),
        ]);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let previews = std::fs::read_dir(out.join("mini-odd/preview"))
            .unwrap()
            .count();
        let _ = std::fs::remove_dir_all(&dir);
        previews
    };
    assert_eq!(count(20), 4 * 2 + 2);
    assert_eq!(count(100), 4 * 2 + 2);
}

#[test]
fn a_game_without_templates_over_a_bound_is_not_told_to_fix_its_templates() {
    // 9,900 die faces (within the 10,000 a game may have), typeset by safari's own template
    // only, under a memory bound they do not fit in: the fault is the amount of content, and
    // the help must not send the designer looking for templates the game does not have.
    let dir = temp_dir("built-in");
    let game = dir.join("game");
    std::fs::create_dir_all(&game).unwrap();
    std::fs::write(
        game.join("game.toml"),
        "id = \"many-dice\"\nname = \"Many Dice\"\nrules = \"none\"\n\
         components = [\"components.toml\"]\n[players]\nmin = 1\nmax = 4\n",
    )
    .unwrap();
    let faces: Vec<String> = (1..=20).map(|f| f.to_string()).collect();
    let sets: String = (0..9)
        .map(|k| {
            format!(
                "[[dice]]\nid = \"d20-{k}\"\nname = \"Twenties {k}\"\ntype = \"d20\"\n\
                 count = 55\nfaces = [{}]\n",
                faces.join(", ")
            )
        })
        .collect();
    std::fs::write(game.join("components.toml"), sets).unwrap();
    let out = dir.join("out");
    let (output, _) = safari(&[
        "build",
        &game.to_string_lossy(),
        "--only",
        "dice",
        "--out",
        &out.to_string_lossy(),
        "--typeset-memory",
        "64M",
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("SZ0704"), "{stderr}");
    assert!(
        stderr.contains("safari's built-in templates alone"),
        "{stderr}"
    );
    assert!(!stderr.contains("the game's templates"), "{stderr}");
    assert!(!out.exists(), "something was written");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The game's own Typst gets a bound of its own, far below the whole build's: a Park Rules
/// page that takes minutes to lay out (a paragraph of 100,000 words, measured at every size)
/// or to rasterise (a box inset by 2^32 pt) is stopped at it, naming the document and the
/// file, while the whole build's bound (five minutes by default) is nowhere near; and the same
/// bounds build an ordinary game's sheet.
#[test]
fn the_games_own_typst_stops_at_its_own_bound_long_before_the_builds() {
    let bounds = Bounds {
        own_typst: Duration::from_secs(10),
        ..Bounds::DEFAULT
    };
    let options = BuildOptions {
        targets: vec![Target::Sheet],
        ..BuildOptions::default()
    };
    let build = |dir: &Path| {
        let worker = Worker::new(env!("CARGO_BIN_EXE_safari"), bounds);
        let mut folder = GameFolder::open(dir).unwrap();
        let started = Instant::now();
        let built = safari::build_with(&mut folder, &options, &mut Typesetting::Bounded(worker));
        (folder, built, started.elapsed())
    };
    let mut faults = Vec::new();
    for (name, bomb) in [
        ("own-lorem", "#lorem(100000)"),
        ("own-inset", "#box(inset: (x: 4294967296pt), [G])"),
    ] {
        let game = game_with(name, bomb);
        let (folder, built, took) = build(&game);
        let stopped: Vec<_> = built
            .checked
            .diagnostics
            .iter()
            .filter(|d| d.code.as_str() == "SZ0704")
            .collect();
        match stopped.as_slice() {
            [one] => {
                let blamed = one
                    .labels
                    .first()
                    .map(|label| folder.source(label.origin.file).name.clone());
                if !one.message.contains("field-guide.typ")
                    || !one.message.contains(
                        "within 10 s, the bound of a document that runs the game's own Typst",
                    )
                    || blamed.as_deref() != Some("park-rules.typ")
                {
                    faults.push(format!("{bomb}: {} (label in {blamed:?})", one.message));
                }
            }
            _ => faults.push(format!(
                "{bomb}: not stopped at its own bound after {took:?}: {:?}",
                built.checked.diagnostics
            )),
        }
        if built.outputs.is_some() {
            faults.push(format!("{bomb}: outputs were made"));
        }
        // Stopped near its own bound, nowhere near the build's five minutes.
        if took > Duration::from_secs(90) {
            faults.push(format!("{bomb}: took {took:?}"));
        }
        let _ = std::fs::remove_dir_all(game.parent().unwrap());
    }
    let (_, good, _) = build(&root().join("tests/fixtures-print/mini-odd-deck"));
    if good.outputs.is_none() {
        faults.push(format!("the mini game: {:?}", good.checked.diagnostics));
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}
