//! `safari build`: check a game, then run the backends and write their files into
//! `out/<game>/`. Nothing is written when the check finds errors; each file is written
//! atomically, so a failed build leaves the previous outputs whole.

use std::path::{Path, PathBuf};

use super::check::{Format, checked, report};
use super::exit;
use crate::backends::{self, Context, Output};
use crate::diag::RenderOptions;

#[derive(clap::Args)]
pub struct Args {
    /// The game folder (holding game.toml).
    #[arg(value_name = "GAME_DIR")]
    game: Option<PathBuf>,

    /// Where outputs go: a folder per game inside it.
    #[arg(long, default_value = "out")]
    out: PathBuf,
}

pub fn run(args: Args, render: RenderOptions) -> u8 {
    let dir = super::game_dir(args.game);
    let (folder, checked) = match checked(&dir) {
        Ok(result) => result,
        Err(code) => return code,
    };
    report(&folder, &checked.diagnostics, Format::Human, render);
    let game = match checked.game {
        Some(game) if !checked.diagnostics.has_errors() => game,
        _ => {
            eprintln!("build stopped: fix the errors above; nothing was written");
            return exit::ERRORS;
        }
    };
    let outputs = backends::run_all(&Context {
        game: &game,
        folder: &folder,
    });
    let target = args.out.join(&game.manifest.id);
    match write_all(&target, &outputs) {
        Ok(()) => {
            for output in &outputs {
                eprintln!("wrote {}", target.join(&output.path).display());
            }
            exit::OK
        }
        Err(err) => {
            eprintln!("error: cannot write into {}: {err}", target.display());
            exit::FAILURE
        }
    }
}

fn write_all(target: &Path, outputs: &[Output]) -> std::io::Result<()> {
    for output in outputs {
        let path = target.join(&output.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        crate::write_atomically(&path, &output.bytes)?;
    }
    Ok(())
}
