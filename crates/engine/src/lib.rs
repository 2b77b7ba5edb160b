//! The rules engine: plays Safari Zone RNW from a JSON ruleset alone.
//!
//! It never sees the content model, only `ruleset.json` (read with [`load`]), so every game it
//! plays proves the ruleset is sufficient. The checker and the engine are two readings of the
//! same rules (docs/rules.md); the compiler's `tests/agreement.rs` holds them to agree.
//!
//! It is a crate of its own so that every playable build runs the same rules: the compiler's
//! `sim` and `diff`, and the playtest page, which runs it as WebAssembly
//! (`crates/engine-wasm`). So it reads no files, links no typesetting and starts no thread
//! (unless the `threads` feature asks it to fit the search policy's model on every core).

pub mod explain;
pub mod family;
pub mod game;
pub mod ids;
pub mod limits;
pub mod moment;
pub mod planner;
pub mod policy;
pub mod rules;
pub mod ruleset;
pub mod search;
pub mod step;
pub mod target;
mod validate;
pub mod vocabulary;

pub use game::{Event, Game, OutReason, Player, catch_chance};
pub use policy::{Choice, Choices, Decision, Deck, Policy, Rerolls, Stage, View};
pub use rules::Rules;

use crate::ruleset::{FORMAT, FORMAT_VERSION, Ruleset};

/// Why a ruleset could not be loaded, naming the place in the JSON where one is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    /// A JSON path such as `deck.cards[3].capture_rate`, or empty for the whole file.
    pub path: String,
    pub message: String,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "at `{}`: {}", self.path, self.message)
        }
    }
}

/// Reads and compiles a ruleset from JSON bytes.
pub fn load(bytes: &[u8]) -> Result<Rules, LoadError> {
    let value: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| LoadError {
        path: String::new(),
        message: format!("not JSON: {e}"),
    })?;
    let format = value.get("format").and_then(|v| v.as_str());
    if format != Some(FORMAT) {
        return Err(LoadError {
            path: "format".to_string(),
            message: format!("this is not a safari ruleset (`format` should be \"{FORMAT}\")"),
        });
    }
    let version = value.get("format_version");
    if version.and_then(|v| v.as_u64()) != Some(u64::from(FORMAT_VERSION)) {
        let found = match version {
            None => "it is missing".to_string(),
            Some(v) if v.is_u64() => format!("this file has version {v}"),
            Some(v) => format!("it must be a whole number, not {v}"),
        };
        return Err(LoadError {
            path: "format_version".to_string(),
            message: format!("this build reads ruleset format version {FORMAT_VERSION}: {found}"),
        });
    }
    let ruleset: Ruleset = serde_path_to_error::deserialize(value).map_err(|e| LoadError {
        path: e.path().to_string(),
        message: e.inner().to_string(),
    })?;
    validate::validate(&ruleset)?;
    Rules::compile(&ruleset).map_err(|e| LoadError {
        path: String::new(),
        message: e.0,
    })
}
