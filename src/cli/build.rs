//! `safari build`: check a game, then run its backends into out/<game>/.
//!
//! No backend exists yet (print, ruleset and Tabletop Simulator exports are to come), so a
//! build is a check that says so; it writes nothing.

use std::path::PathBuf;

use super::check::{Format, checked, report};
use super::exit;
use crate::diag::RenderOptions;

#[derive(clap::Args)]
pub struct Args {
    /// The game folder (holding game.toml).
    #[arg(value_name = "GAME_DIR")]
    game: Option<PathBuf>,

    /// Where outputs go (a folder per game inside it).
    #[arg(long, default_value = "out")]
    out: PathBuf,
}

pub fn run(args: Args, render: RenderOptions) -> u8 {
    let dir = super::game_dir(args.game);
    let (folder, diagnostics) = match checked(&dir) {
        Ok(result) => result,
        Err(code) => return code,
    };
    report(&folder, &diagnostics, Format::Human, render);
    if diagnostics.has_errors() {
        eprintln!("build stopped: fix the errors above; nothing was written");
        return exit::ERRORS;
    }
    eprintln!(
        "checked: the game is sound. No output backends exist yet, so nothing was written to {}",
        args.out.display()
    );
    exit::OK
}
