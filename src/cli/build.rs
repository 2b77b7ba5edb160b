//! `safari build`: check a game, then run the backends and write their files into
//! `out/<game>/`. Nothing is written when the check finds errors; each file is written
//! atomically, so a failed build leaves the previous outputs whole.

use std::path::{Path, PathBuf};

use super::check::{Format, checked, report};
use super::{Ui, exit};
use crate::backends::{self, Context, Output};

#[derive(clap::Args)]
pub struct Args {
    /// The game folder (holding game.toml).
    #[arg(value_name = "GAME_DIR")]
    game: Option<PathBuf>,

    /// Where outputs go: a folder per game inside it.
    #[arg(long, default_value = "out")]
    out: PathBuf,
}

pub fn run(args: Args, ui: Ui) -> u8 {
    let started = std::time::Instant::now();
    let (folder, checked) = match checked(args.game.as_deref()) {
        Ok(result) => result,
        Err(code) => return code,
    };
    report(&folder, &checked.diagnostics, Format::Human, ui);
    ui.detail(format!(
        "checked in {:.1} ms",
        started.elapsed().as_secs_f64() * 1e3
    ));
    let game = match checked.game {
        Some(game) if !checked.diagnostics.has_errors() => game,
        _ => {
            eprintln!("build stopped: fix the errors above; nothing was written");
            return exit::ERRORS;
        }
    };
    let backends_started = std::time::Instant::now();
    let outputs = backends::run_all(&Context {
        game: &game,
        folder: &folder,
    });
    ui.detail(format!(
        "backends made {} file(s) in {:.1} ms",
        outputs.len(),
        backends_started.elapsed().as_secs_f64() * 1e3
    ));
    let target = args.out.join(&game.manifest.id);
    match write_all(&target, &outputs) {
        Ok(()) => {
            for output in &outputs {
                ui.info(format!("wrote {}", target.join(&output.path).display()));
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
