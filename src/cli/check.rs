//! `safari check`: load and check a game, print the diagnostics, write nothing.

use std::path::PathBuf;

use clap::ValueEnum;

use super::exit;
use crate::diag::{Diagnostics, RenderOptions, render_human, render_json, summary};
use crate::world::GameFolder;

#[derive(clap::Args)]
pub struct Args {
    /// The game folder (holding game.toml).
    #[arg(value_name = "GAME_DIR")]
    game: Option<PathBuf>,

    /// How to print diagnostics.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum Format {
    /// Annotated source snippets, for people.
    Human,
    /// A JSON array, one object per diagnostic, for tools.
    Json,
}

pub fn run(args: Args, render: RenderOptions) -> u8 {
    let dir = super::game_dir(args.game);
    match checked(&dir) {
        Ok((folder, checked)) => {
            report(&folder, &checked.diagnostics, args.format, render);
            if checked.diagnostics.has_errors() {
                exit::ERRORS
            } else {
                exit::OK
            }
        }
        Err(code) => code,
    }
}

/// Opens and checks a game folder; prints and returns the exit code when it cannot be read.
pub fn checked(dir: &std::path::Path) -> Result<(GameFolder, crate::Checked), u8> {
    let mut folder = match GameFolder::open(dir) {
        Ok(folder) => folder,
        Err(diagnostic) => {
            let empty = GameFolder::in_memory();
            eprint!(
                "{}",
                render_human(&[diagnostic], &empty, RenderOptions::default())
            );
            return Err(exit::FAILURE);
        }
    };
    let checked = crate::check(&mut folder);
    if checked.game.is_none() {
        eprint!(
            "{}",
            render_human(
                &checked.diagnostics.into_vec(),
                &folder,
                RenderOptions::default()
            )
        );
        return Err(exit::FAILURE);
    }
    Ok((folder, checked))
}

pub fn report(
    folder: &GameFolder,
    diagnostics: &Diagnostics,
    format: Format,
    render: RenderOptions,
) {
    let list: Vec<_> = diagnostics.iter().cloned().collect();
    match format {
        Format::Json => print!("{}", render_json(&list, folder)),
        Format::Human => {
            eprint!("{}", render_human(&list, folder, render));
            eprintln!("{}: {}", folder.root().display(), summary(&list));
        }
    }
}
