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
    assert!(dir.join("out/my-safari/ruleset.json").is_file());
    assert!(!dir.join("out/safari-zone").exists());
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
