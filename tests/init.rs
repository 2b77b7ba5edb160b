//! `safari init NAME`: the new game takes its id and name from the folder's name, so it builds
//! into its own `out/<id>/`, and an existing folder is never written into.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("safari-init-{name}-{}", std::process::id()));
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

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn manifest(game: &Path) -> toml::Table {
    std::fs::read_to_string(game.join("game.toml"))
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn a_new_game_is_named_after_its_folder_and_builds_into_its_own_out_folder() {
    let dir = temp_dir("named");
    let out = safari_in(&dir, &["init", "games/my-safari"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let game = dir.join("games/my-safari");
    let table = manifest(&game);
    assert_eq!(table["id"].as_str(), Some("my-safari"));
    assert_eq!(table["name"].as_str(), Some("My Safari"));
    // The rest of the manifest is the default game's.
    assert_eq!(table["rules"].as_str(), Some("safari-zone-rnw"));

    let out = safari_in(&dir, &["build", "games/my-safari", "--only", "ruleset"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(game.join("out/my-safari/ruleset.json").is_file());
    assert!(!dir.join("out").exists() && !game.join("out/safari-zone").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_name_written_as_words_keeps_its_words_and_gets_a_dashed_id() {
    let dir = temp_dir("words");
    let out = safari_in(&dir, &["init", "Lucky Pokémon Safari"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let table = manifest(&dir.join("Lucky Pokémon Safari"));
    assert_eq!(table["id"].as_str(), Some("lucky-pokemon-safari"));
    assert_eq!(table["name"].as_str(), Some("Lucky Pokémon Safari"));
    let out = safari_in(&dir, &["check", "Lucky Pokémon Safari"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_existing_folder_is_refused_even_when_empty() {
    let dir = temp_dir("exists");
    std::fs::create_dir(dir.join("taken")).unwrap();
    let out = safari_in(&dir, &["init", "taken"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("exists"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read_dir(dir.join("taken")).unwrap().count(), 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--from` starts from another game: a pack in `content/` by its name, or any game folder.
/// Everything is copied (templates, Park Rules, art) but the id and name, which come from the
/// new folder's name; the rest of game.toml, comments included, is the original's.
#[test]
fn init_from_copies_a_pack_or_a_game_folder_with_a_new_id_and_name() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = temp_dir("from");
    // A pack by its name, from a folder holding content/.
    std::fs::create_dir_all(dir.join("content")).unwrap();
    let pack = root.join("tests/fixtures-print/template-override");
    let copy = |from: &Path, to: &Path| {
        std::fs::create_dir_all(to.join("templates")).unwrap();
        for entry in walk(from) {
            let target = to.join(entry.strip_prefix(from).unwrap());
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            std::fs::copy(&entry, target).unwrap();
        }
    };
    copy(&pack, &dir.join("content/house-dice"));
    let out = safari_in(&dir, &["init", "games/my-dice", "--from", "house-dice"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let game = dir.join("games/my-dice");
    let table = manifest(&game);
    assert_eq!(table["id"].as_str(), Some("my-dice"));
    assert_eq!(table["name"].as_str(), Some("My Dice"));
    let original = std::fs::read_to_string(pack.join("game.toml")).unwrap();
    let copied = std::fs::read_to_string(game.join("game.toml")).unwrap();
    let comments = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.trim_start().starts_with('#'))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(comments(&copied), comments(&original));
    for file in [
        "templates/dice.typ",
        "park-rules.typ",
        "deck.toml",
        "field-guide.kdl",
    ] {
        assert_eq!(
            std::fs::read(game.join(file)).unwrap(),
            std::fs::read(pack.join(file)).unwrap(),
            "{file}"
        );
    }
    let out = safari_in(&dir, &["build", "games/my-dice", "--only", "dice"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(game.join("out/my-dice/dice.pdf").is_file());

    // A game folder by its path.
    let out = safari_in(&dir, &["init", "again", "--from", "games/my-dice"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(manifest(&dir.join("again"))["id"].as_str(), Some("again"));

    // Neither: the packs there are named.
    let out = safari_in(&dir, &["init", "nope", "--from", "no-such-pack"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("house-dice"), "{err}");
    assert!(!dir.join("nope").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every file under `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files
}

/// `init --from` copies what a game folder's links lead to (refusing a link that leads
/// outside it, rather than dropping it unsaid), bounds the whole copy before writing, and
/// leaves no half a game when it stops.
#[cfg(unix)]
#[test]
fn init_from_follows_links_inside_the_folder_and_bounds_the_copy() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = temp_dir("links");
    let game = dir.join("linked");
    std::fs::create_dir_all(game.join("real")).unwrap();
    for entry in walk(&root.join("tests/fixtures/clean-tiny")) {
        let name = entry.file_name().unwrap();
        if name == "game.toml" {
            // The manifest itself is a link, to a file inside the folder.
            std::fs::copy(&entry, game.join("real/game.toml")).unwrap();
            std::os::unix::fs::symlink("real/game.toml", game.join("game.toml")).unwrap();
        } else if !name.to_string_lossy().ends_with(".snap") {
            std::fs::copy(&entry, game.join(name)).unwrap();
        }
    }
    let out = safari_in(&dir, &["init", "copy", "--from", "linked"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let copied = dir.join("copy/game.toml");
    assert!(std::fs::symlink_metadata(&copied).unwrap().is_file());
    assert_eq!(manifest(&dir.join("copy"))["id"].as_str(), Some("copy"));
    let checked = safari_in(&dir, &["check", "copy"]);
    assert_eq!(checked.status.code(), Some(0), "{}", text(&checked.stderr));

    // A link out of the folder: refused, said, and nothing created.
    std::fs::write(dir.join("secret.txt"), "not the game's").unwrap();
    std::os::unix::fs::symlink(dir.join("secret.txt"), game.join("notes.txt")).unwrap();
    let out = safari_in(&dir, &["init", "leaked", "--from", "linked"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("outside"),
        "{}",
        text(&out.stderr)
    );
    assert!(!dir.join("leaked").exists());
    std::fs::remove_file(game.join("notes.txt")).unwrap();

    // Files past the bound, sparse so that the test costs no disk: refused before a byte is
    // written, without reading them.
    for i in 0..20 {
        let file = std::fs::File::create(game.join(format!("art-{i}.png"))).unwrap();
        file.set_len(15 << 20).unwrap();
    }
    let out = safari_in(&dir, &["init", "huge", "--from", "linked"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("256 MiB"),
        "{}",
        text(&out.stderr)
    );
    assert!(!dir.join("huge").exists());
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
