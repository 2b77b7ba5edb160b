//! The files of a game folder beside what the ruleset holds: a file one version has and the
//! other does not (the Park Rules written for the later one, a template overridden, a
//! picture), and, for those the ruleset does not hold, one whose text or picture changed. The
//! content files' changes are the ruleset's, told entry by entry.

use std::hash::{DefaultHasher, Hash, Hasher};

use super::content::Change;
use super::matters::Matters;
use crate::safari_zone::model::Game;
use crate::world::GameFolder;

/// A file a version of a game uses.
#[derive(Debug, Clone)]
pub struct GameFile {
    /// Its path in the game folder.
    pub name: String,
    /// What it is to the game: "the Park Rules", "a template", "a picture", "content".
    pub what: &'static str,
    /// Its bytes, hashed: two versions are hashed in one run.
    digest: u64,
}

const CONTENT: &str = "content";

fn digest(bytes: &[u8]) -> u64 {
    let mut hasher = DefaultHasher::new();
    bytes.hash(&mut hasher);
    hasher.finish()
}

/// The files the game of `folder` uses, once checked: those it read, and the pictures it names.
pub fn files_of(folder: &GameFolder, game: &Game) -> Vec<GameFile> {
    let park_rules = game.manifest.park_rules.0.as_str();
    let mut files: Vec<GameFile> = folder
        .sources()
        .map(|(_, source)| GameFile {
            what: match source.name.as_str() {
                name if name == park_rules => "the Park Rules",
                name if name.starts_with("templates/") => "a template",
                _ => CONTENT,
            },
            digest: digest(source.text.as_bytes()),
            name: source.name.clone(),
        })
        .collect();
    let reader = folder.reader();
    for art in game.deck.cards.iter().filter_map(|c| c.art.as_ref()) {
        if files.iter().all(|f| f.name != art.value) {
            let bytes = reader.read(&art.value).unwrap_or_default();
            files.push(GameFile {
                name: art.value.clone(),
                what: "a picture",
                digest: digest(&bytes),
            });
        }
    }
    files.sort_by(|a, b| a.name.cmp(&b.name));
    files
}

fn change(file: &GameFile, change: &'static str, words: String, matters: Matters) -> Change {
    Change {
        kind: "file",
        id: file.name.clone(),
        change,
        renamed_from: None,
        moved_from: None,
        track: None,
        fields: Vec::new(),
        words,
        matters,
    }
}

/// The files only one version uses, and those outside the ruleset that changed.
pub(super) fn changes(old: &[GameFile], new: &[GameFile]) -> Vec<Change> {
    let mut out = Vec::new();
    for f in old {
        match new.iter().find(|n| n.name == f.name) {
            None => out.push(change(
                f,
                "removed",
                format!("file {} removed (was: {})", f.name, f.what),
                Matters::Presence,
            )),
            Some(n) if n.digest != f.digest && n.what != CONTENT => out.push(change(
                n,
                "changed",
                format!("file {}: {} rewritten", n.name, n.what),
                Matters::Cosmetic,
            )),
            Some(_) => {}
        }
    }
    for f in new.iter().filter(|f| old.iter().all(|o| o.name != f.name)) {
        out.push(change(
            f,
            "added",
            format!("new file {}: {}", f.name, f.what),
            Matters::Presence,
        ));
    }
    out
}
