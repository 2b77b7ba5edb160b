//! The JSON ruleset `build` writes: valid against its schema, complete enough to read back,
//! deterministic, and written only by a clean build.

use std::path::{Path, PathBuf};
use std::process::Command;

use safari::rules::safari_zone::build::Context;
use safari::rules::safari_zone::ruleset::{self, Ruleset};
use safari::world::GameFolder;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn ruleset_bytes(dir: &Path) -> Option<Vec<u8>> {
    let mut folder = GameFolder::open(dir).unwrap();
    let checked = safari::check(&mut folder);
    if checked.diagnostics.has_errors() {
        return None;
    }
    // A game of components (a fixture with only warnings) writes the components' ruleset.
    let game = checked.game?;
    // The build lays the sheet out, and the ruleset says where each box prints.
    let output = ruleset::output(&Context {
        game: &game,
        folder: &folder,
        layout: checked.layout.as_ref(),
    });
    Some(output.bytes)
}

fn schema() -> jsonschema::Validator {
    let text = std::fs::read_to_string(root().join("schema/ruleset.schema.json")).unwrap();
    jsonschema::validator_for(&serde_json::from_str(&text).unwrap()).unwrap()
}

/// The default game and every fixture game of Safari Zone RNW that builds.
fn buildable_games() -> Vec<PathBuf> {
    let mut dirs = vec![root().join("content/safari-zone")];
    for entry in std::fs::read_dir(root().join("tests/fixtures")).unwrap() {
        dirs.push(entry.unwrap().path());
    }
    dirs.retain(|d| ruleset_bytes(d).is_some());
    dirs
}

#[test]
fn every_ruleset_validates_against_the_schema() {
    let validator = schema();
    let games = buildable_games();
    assert!(games.len() >= 3, "{games:?}");
    for dir in games {
        let value: serde_json::Value =
            serde_json::from_slice(&ruleset_bytes(&dir).unwrap()).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&value)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}", dir.display());
    }
}

#[test]
fn the_ruleset_reads_back_as_written() {
    let bytes = ruleset_bytes(&root().join("content/safari-zone")).unwrap();
    let ruleset: Ruleset = serde_json::from_slice(&bytes).unwrap();
    let again = serde_json::to_vec_pretty(&ruleset).unwrap();
    assert_eq!(
        String::from_utf8(again).unwrap() + "\n",
        String::from_utf8(bytes).unwrap()
    );
}

#[test]
fn the_default_ruleset_holds_the_whole_game() {
    let bytes = ruleset_bytes(&root().join("content/safari-zone")).unwrap();
    let ruleset: Ruleset = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(ruleset.format, "safari-ruleset");
    assert_eq!(ruleset.parameters.turns, 20);
    assert_eq!(ruleset.deck.size, 52);
    assert_eq!(ruleset.deck.cards.iter().map(|c| c.copies).sum::<u32>(), 52);
    assert_eq!(ruleset.dice.iter().map(|s| s.dice.len()).sum::<usize>(), 8);
    let boxes: Vec<_> = ruleset
        .field_guide
        .sections
        .iter()
        .flat_map(|s| &s.tracks)
        .flat_map(|t| &t.boxes)
        .collect();
    let mut ids: Vec<&str> = boxes.iter().map(|b| b.id.as_str()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), boxes.len(), "box ids are unique");
    assert!(ruleset.content_hash.starts_with("sha256:") && ruleset.content_hash.len() == 71);
}

#[test]
fn the_ruleset_is_deterministic() {
    let dir = root().join("content/safari-zone");
    assert_eq!(ruleset_bytes(&dir), ruleset_bytes(&dir));
}

fn safari(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_safari"))
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

#[test]
fn build_writes_the_ruleset_and_a_failed_build_leaves_it_alone() {
    let out = std::env::temp_dir().join(format!("safari-ruleset-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let result = safari(&["build", "--out", &out.to_string_lossy()]);
    assert_eq!(
        result.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let written = out.join("safari-zone/ruleset.json");
    let first = std::fs::read(&written).unwrap();
    assert_eq!(
        Some(first.clone()),
        ruleset_bytes(&root().join("content/safari-zone"))
    );

    // A broken copy of the game with the same id: the build stops and writes nothing.
    let broken = out.join("broken-game");
    std::fs::create_dir_all(&broken).unwrap();
    for file in [
        "game.toml",
        "items.toml",
        "species.toml",
        "dice.toml",
        "field-guide.kdl",
        "deck.toml",
    ] {
        std::fs::copy(
            root().join("content/safari-zone").join(file),
            broken.join(file),
        )
        .unwrap();
    }
    let deck = std::fs::read_to_string(broken.join("deck.toml")).unwrap();
    std::fs::write(
        broken.join("deck.toml"),
        deck.replace("size = 52", "size = 53"),
    )
    .unwrap();
    let result = safari(&[
        "build",
        &broken.to_string_lossy(),
        "--out",
        &out.to_string_lossy(),
    ]);
    assert_eq!(result.status.code(), Some(1));
    assert_eq!(std::fs::read(&written).unwrap(), first);
    let leftovers: Vec<String> = std::fs::read_dir(out.join("safari-zone"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        // The mark naming the game folder the outputs are of is no temporary file.
        .filter(|name| name.starts_with('.') && name != safari::output::OWNER_MARK)
        .collect();
    assert!(
        leftovers.is_empty(),
        "temporary files left behind: {leftovers:?}"
    );
    let _ = std::fs::remove_dir_all(&out);
}

/// The fuzz targets start from the rulesets in fuzz/seeds/ruleset/ (and `page` opens three of
/// them): a seed the loader refuses starts a run where no game is ever played, which a run's
/// coverage shows only to someone who reads it. Each loads, in the format of today.
#[test]
fn the_fuzz_targets_seed_rulesets_load() {
    let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds/ruleset");
    let mut refused = Vec::new();
    let mut count = 0;
    for entry in std::fs::read_dir(&seeds).unwrap().flatten() {
        count += 1;
        let bytes = std::fs::read(entry.path()).unwrap();
        if let Err(e) = safari::rules::safari_zone::engine::load(&bytes) {
            refused.push(format!(
                "{}: {}: {}",
                entry.path().display(),
                e.path,
                e.message
            ));
        }
    }
    assert!(count >= 3, "{count} seeds");
    assert!(
        refused.is_empty(),
        "refreshed by fuzz/README.md's command:\n{}",
        refused.join("\n")
    );
}
