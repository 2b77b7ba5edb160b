//! safari: a compiler for tabletop game content.
//!
//! The pipeline is load -> model -> check -> backends -> out/ (see ARCHITECTURE.md). This
//! crate is the library; `src/main.rs` is a thin shell over [`cli`].

pub mod backends;
pub mod charts;
pub mod cli;
pub mod diag;
pub mod diff;
pub mod embedded;
pub mod engine;
pub mod load;
pub mod model;
pub mod rules;
pub mod sim;
pub mod world;

use diag::Diagnostics;
use model::Game;
use world::GameFolder;

/// The result of checking a game: the model (when a manifest could be read) and every
/// diagnostic, sorted by file and position.
pub struct Checked {
    pub game: Option<Game>,
    pub diagnostics: Diagnostics,
}

/// Loads and checks the game in `folder`: everything `build` does short of writing files.
pub fn check(folder: &mut GameFolder) -> Checked {
    let mut diagnostics = Diagnostics::default();
    let game = load::load(folder, &mut diagnostics);
    // Rules checks reason about the whole game; on a partly loaded one they would report the
    // holes loading left (a skipped card, a missing file) as faults of their own.
    if let Some(game) = &game
        && load::is_complete(&diagnostics)
        && !game.guide.sections.is_empty()
    {
        diagnostics.extend(rules::check(game));
    }
    diagnostics.sort();
    Checked { game, diagnostics }
}

/// Writes a file by writing a temporary file beside it and renaming it over the target, so a
/// reader never sees half a file and a failed write leaves the previous one.
pub fn write_atomically(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temporary = path.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
    std::fs::write(&temporary, bytes)?;
    std::fs::rename(&temporary, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&temporary);
    })
}
