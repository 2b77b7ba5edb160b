//! Backends: pure functions from a checked game to files, as bytes in memory.
//!
//! Each backend gets the model (and the sources it was read from) and returns the files it
//! makes, with paths relative to the game's output folder. None of them touches the disk:
//! the `build` command writes what they return, atomically, and only when the check found no
//! errors. This keeps backends testable and the output folder consistent.

pub mod ruleset;

use crate::model::Game;
use crate::world::GameFolder;

/// A file a backend made: its path inside `out/<game>/`, and its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    pub path: String,
    pub bytes: Vec<u8>,
}

/// Everything a backend may read: the model and the sources behind it.
pub struct Context<'a> {
    pub game: &'a Game,
    pub folder: &'a GameFolder,
}

/// Runs every backend; outputs come sorted by path.
pub fn run_all(context: &Context) -> Vec<Output> {
    let mut outputs = vec![ruleset::output(context)];
    outputs.sort_by(|a, b| a.path.cmp(&b.path));
    outputs
}
