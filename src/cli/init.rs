//! `safari init NAME`: a new game folder, copied from the built-in default game, with its own
//! id and name taken from the folder's name (so its outputs go to their own `out/<id>/`).

use std::path::PathBuf;

use super::{Ui, exit};
use crate::embedded;

#[derive(clap::Args)]
pub struct Args {
    /// The folder to create; its last component names the game (`my-safari`: id
    /// `my-safari`, name "My Safari").
    name: PathBuf,
}

pub fn run(args: Args, ui: Ui) -> u8 {
    let dir = &args.name;
    if dir.exists() {
        eprintln!("error: {} exists; choose a new folder", dir.display());
        return exit::FAILURE;
    }
    let given = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let id = crate::load::dashed_id(&given);
    if id.is_empty() {
        eprintln!(
            "error: `{given}` has no letters or digits to make the game's id of; choose another name"
        );
        return exit::FAILURE;
    }
    let title = title(&given);
    let files = embedded::DEFAULT_GAME
        .iter()
        .map(|(name, text)| match *name {
            "game.toml" => (name.to_string(), embedded::manifest_for(&id, &title)),
            _ => (name.to_string(), text.to_string()),
        })
        .chain(std::iter::once((
            "README.md".to_string(),
            embedded::readme(&given),
        )));
    if let Err(err) = std::fs::create_dir_all(dir) {
        eprintln!("error: cannot create {}: {err}", dir.display());
        return exit::FAILURE;
    }
    // The schemas go beside the new game, so editors complete its TOML files anywhere.
    let schemas = crate::load::formats::schemas()
        .into_iter()
        .map(|(name, text)| (format!("schema/{name}"), text));
    if let Err(err) = std::fs::create_dir_all(dir.join("schema")) {
        eprintln!(
            "error: cannot create {}: {err}",
            dir.join("schema").display()
        );
        return exit::FAILURE;
    }
    for (name, text) in files.chain(schemas) {
        let text = text.replace("#:schema ../../schema/", "#:schema schema/");
        if let Err(err) = crate::output::write_atomically(&dir.join(&name), text.as_bytes()) {
            eprintln!("error: {}", err.message);
            return exit::FAILURE;
        }
    }
    ui.info(format!(
        "created {} (id `{id}`, name \"{title}\") from Safari Zone RNW; next: `safari check {}`",
        dir.display(),
        dir.display()
    ));
    exit::OK
}

/// The game's name: a folder name written as an id (`my-safari`, `my_safari`) as words with
/// capitals (`My Safari`); any other as given.
fn title(given: &str) -> String {
    let id_like = given
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
    if !id_like {
        return given.trim().to_string();
    }
    given
        .split(['-', '_'])
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut chars = w.chars();
            chars
                .next()
                .map(|first| first.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}
