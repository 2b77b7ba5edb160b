//! `safari diff` reports an id renamed as a rename, not as one thing removed and another added,
//! for any kind: here a species, and the card whose id follows the species'.

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
    assert!(
        card["words"].as_str().unwrap().contains("species"),
        "{card}"
    );
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
    let _ = std::fs::remove_dir_all(&old);
    let _ = std::fs::remove_dir_all(&new);
}
