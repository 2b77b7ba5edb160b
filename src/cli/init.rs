//! `safari init NAME`: a new game folder, copied from the built-in default game.

use std::path::PathBuf;

use super::{Ui, exit};
use crate::embedded;

#[derive(clap::Args)]
pub struct Args {
    /// The folder to create.
    name: PathBuf,
}

pub fn run(args: Args, ui: Ui) -> u8 {
    let dir = &args.name;
    if dir.exists() && std::fs::read_dir(dir).map_or(true, |mut d| d.next().is_some()) {
        eprintln!(
            "error: {} exists and is not empty; choose a new folder",
            dir.display()
        );
        return exit::FAILURE;
    }
    let title = dir
        .file_name()
        .map_or("my-game".to_string(), |n| n.to_string_lossy().into_owned());
    let files = embedded::DEFAULT_GAME
        .iter()
        .map(|(name, text)| (name.to_string(), text.to_string()))
        .chain(std::iter::once((
            "README.md".to_string(),
            embedded::readme(&title),
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
        "created {} from Safari Zone RNW; next: `safari check {}`",
        dir.display(),
        dir.display()
    ));
    exit::OK
}
