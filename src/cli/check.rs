//! `safari check`: load and check a game, print the diagnostics, write nothing.

use std::path::PathBuf;

use clap::ValueEnum;

use super::{Ui, exit};
use crate::diag::{Diagnostics, RenderOptions, printable, render_human, render_json, summary};
use crate::world::GameFolder;

#[derive(clap::Args)]
pub struct Args {
    /// The game folder (holding game.toml).
    #[arg(value_name = "GAME_DIR")]
    game: Option<PathBuf>,

    /// How to print diagnostics.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,

    /// Check the Field Guide's fit on this paper instead of the manifest's: a5, a4, letter, a3,
    /// tabloid (any case), or WIDTHxHEIGHT in millimetres (300x420).
    #[arg(long, value_parser = crate::model::Paper::parse)]
    paper: Option<crate::model::Paper>,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum Format {
    /// Annotated source snippets, for people.
    Human,
    /// A JSON array, one object per diagnostic, for tools.
    Json,
}

pub fn run(args: Args, ui: Ui) -> u8 {
    match checked_on(args.game.as_deref(), args.paper, ui) {
        Ok((folder, checked)) => {
            report(&folder, &checked.diagnostics, args.format, ui);
            if checked.diagnostics.has_errors() {
                exit::ERRORS
            } else {
                exit::OK
            }
        }
        Err(code) => code,
    }
}

/// Opens a game folder; without one, the game the command is run in: the current folder or
/// the nearest above it that holds a `game.toml` (as cargo finds its manifest), else the
/// default game of a checkout (`content/safari-zone`), else the built-in copy, saying which.
/// Prints and returns the exit code when it cannot be opened.
pub(crate) fn open_game(dir: Option<&std::path::Path>, ui: Ui) -> Result<GameFolder, u8> {
    let opened = match dir {
        Some(dir) => GameFolder::open(dir),
        None => match lost_manifest() {
            Some(lost) => Err(lost),
            None => nearest_game(ui),
        },
    };
    opened.map_err(|diagnostic| {
        let empty = GameFolder::in_memory();
        eprint!(
            "{}",
            render_human(&[diagnostic], &empty, RenderOptions::default())
        );
        exit::FAILURE
    })
}

/// The game of the working folder or the nearest above it, else the checkout's default game,
/// else the built-in copy, saying which.
fn nearest_game(ui: Ui) -> Result<GameFolder, crate::diag::Diagnostic> {
    match enclosing_game() {
        Some(found) => {
            ui.info(format!(
                "using the game in {} (the nearest folder with a {})",
                found.display(),
                crate::load::MANIFEST
            ));
            GameFolder::open(&found)
        }
        None if std::path::Path::new(super::DEFAULT_GAME).is_dir() => {
            ui.info(format!("using the default game in {}", super::DEFAULT_GAME));
            GameFolder::open(std::path::Path::new(super::DEFAULT_GAME))
        }
        None => {
            ui.info(format!(
                "using Safari Zone RNW as built into safari (no {} here or above)",
                crate::load::MANIFEST
            ));
            Ok(crate::embedded::default_game())
        }
    }
}

/// Files only a game folder holds: one of them in a folder without a manifest is a game
/// that lost its `game.toml`, not a reason to fall back to another game.
const GAME_FILES: [&str; 6] = [
    "field-guide.kdl",
    "deck.toml",
    "species.toml",
    "items.toml",
    "dice.toml",
    "components.toml",
];

/// Why the working folder cannot be checked when it holds a game's files but no manifest.
fn lost_manifest() -> Option<crate::diag::Diagnostic> {
    let here = std::path::Path::new(".");
    if here.join(crate::load::MANIFEST).exists() {
        return None;
    }
    let found: Vec<&str> = GAME_FILES
        .into_iter()
        .filter(|name| here.join(name).is_file())
        .collect();
    if found.is_empty() {
        return None;
    }
    Some(
        crate::diag::Diagnostic::error(
            crate::diag::Code::NotAGame,
            format!(
                "this folder holds a game's files ({}) but no {}: the game lost its manifest",
                found.join(", "),
                crate::load::MANIFEST
            ),
        )
        .with_help(format!(
            "restore {} (`git checkout {}` if the folder is in git), or `safari init NAME` for a \
             new game; to use another game, name its folder (`safari check content/safari-zone`)",
            crate::load::MANIFEST,
            crate::load::MANIFEST
        )),
    )
}

/// The current folder, or the nearest folder above it, that holds a game's manifest.
fn enclosing_game() -> Option<std::path::PathBuf> {
    let here = std::env::current_dir().ok()?;
    here.ancestors()
        .find(|dir| dir.join(crate::load::MANIFEST).is_file())
        .map(|dir| match dir.strip_prefix(&here) {
            Ok(relative) if relative.as_os_str().is_empty() => std::path::PathBuf::from("."),
            _ => dir.to_path_buf(),
        })
}

/// Opens and checks a game folder; prints and returns the exit code when it cannot be read.
pub fn checked(dir: Option<&std::path::Path>, ui: Ui) -> Result<(GameFolder, crate::Checked), u8> {
    checked_on(dir, None, ui)
}

/// The same, laying the Field Guide out on `paper` (the manifest's when `None`).
pub(crate) fn checked_on(
    dir: Option<&std::path::Path>,
    paper: Option<crate::model::Paper>,
    ui: Ui,
) -> Result<(GameFolder, crate::Checked), u8> {
    let mut folder = open_game(dir, ui)?;
    let checked = crate::check_with(&mut folder, &crate::CheckOptions { paper, sheet: true });
    if no_game(&checked) {
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

/// Whether the folder is no game at all (no manifest, or one that cannot be read): a usage
/// fault, printed for people. A manifest with faults in it (unknown rules, an unknown key) is
/// content, reported as `--format` asks: its diagnostics point into the file.
pub(crate) fn no_game(checked: &crate::Checked) -> bool {
    checked.identity().is_none() && checked.diagnostics.iter().all(|d| d.labels.is_empty())
}

pub fn report(folder: &GameFolder, diagnostics: &Diagnostics, format: Format, ui: Ui) {
    let list: Vec<_> = diagnostics
        .iter()
        .filter(|d| !ui.quiet || d.is_error())
        .cloned()
        .collect();
    match format {
        Format::Json => super::print_out(render_json(&list, folder)),
        Format::Human => {
            eprint!("{}", render_human(&list, folder, ui.render));
            if !ui.quiet || !list.is_empty() {
                let name = folder.display_name();
                eprintln!("{}: {}", printable(&name), summary(&list));
            }
        }
    }
}
