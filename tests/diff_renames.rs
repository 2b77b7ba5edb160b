//! `safari diff` reports an id renamed as a rename, not as one thing removed and another added,
//! for any kind: here a species, and the card whose id follows the species'; and applies it
//! before comparing, so what refers to the renamed entry reads unchanged. `safari check`, on a
//! rename that missed a place, suggests the id that replaced the unknown one.

use std::path::{Path, PathBuf};
use std::process::Command;

fn copy_of(from: &Path, name: &str) -> PathBuf {
    let to = std::env::temp_dir().join(format!("safari-rename-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&to);
    std::fs::create_dir_all(&to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml" || e == "kdl") {
            std::fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
        }
    }
    to
}

#[test]
fn a_species_renamed_everywhere_is_a_rename() {
    let tiny = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/clean-tiny");
    let old = copy_of(&tiny, "old");
    let new = copy_of(&tiny, "new");
    for file in ["species.toml", "deck.toml", "field-guide.kdl"] {
        let text = std::fs::read_to_string(new.join(file)).unwrap();
        let renamed = text
            .replace("\"fish\"", "\"trout\"")
            .replace("collect:fish", "collect:trout");
        std::fs::write(new.join(file), renamed).unwrap();
    }
    let out = Command::new(env!("CARGO_BIN_EXE_safari"))
        .args(["diff", old.to_str().unwrap(), new.to_str().unwrap()])
        .args(["--games", "0", "--format", "json", "--out"])
        .arg(old.join("out"))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let changes = value["content"].as_array().unwrap();
    let find = |kind: &str| {
        changes
            .iter()
            .find(|c| c["kind"] == kind)
            .unwrap_or_else(|| panic!("no {kind} change in {changes:?}"))
    };
    let species = find("species");
    assert_eq!(species["change"], "renamed");
    assert_eq!(species["renamed_from"], "fish");
    assert_eq!(species["id"], "trout");
    let card = find("card");
    assert_eq!(card["change"], "renamed");
    assert_eq!(card["renamed_from"], "fish");
    assert_eq!(card["words"], "card fish renamed to trout", "{card}");
    assert!(
        !changes
            .iter()
            .any(|c| c["change"] == "removed" || c["change"] == "added"),
        "{changes:?}"
    );
    let human = Command::new(env!("CARGO_BIN_EXE_safari"))
        .args(["diff", old.to_str().unwrap(), new.to_str().unwrap()])
        .args(["--games", "0", "--out"])
        .arg(old.join("out"))
        .output()
        .unwrap();
    let human = String::from_utf8_lossy(&human.stdout);
    assert!(human.contains("species fish renamed to trout"), "{human}");
    // What names the species reads as before: no line says "Fish (was Fish)".
    assert_eq!(changes.len(), 2, "{changes:?}");
    assert!(!human.contains("(was collecting Fish)"), "{human}");
    let _ = std::fs::remove_dir_all(&old);
    let _ = std::fs::remove_dir_all(&new);
}

#[test]
fn check_suggests_the_id_that_replaced_an_unknown_name() {
    let game = Path::new(env!("CARGO_MANIFEST_DIR")).join("content/safari-zone");
    let copy = copy_of(&game, "partial");
    // `old-rod` renamed `fishing-rod` everywhere but the Magikarp card.
    for file in ["items.toml", "field-guide.kdl"] {
        let text = std::fs::read_to_string(copy.join(file)).unwrap();
        let renamed = text
            .replace("id = \"old-rod\"", "id = \"fishing-rod\"")
            .replace("item:old-rod", "item:fishing-rod");
        std::fs::write(copy.join(file), renamed).unwrap();
    }
    let out = Command::new(env!("CARGO_BIN_EXE_safari"))
        .args(["check", copy.to_str().unwrap(), "--format", "json"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let _ = std::fs::remove_dir_all(&copy);
    assert!(text.contains("unknown item `old-rod`"), "{text}");
    assert!(
        text.contains("was `old-rod` renamed to `fishing-rod`?"),
        "{text}"
    );
    assert!(!text.contains("`good-rod`"), "{text}");
}
