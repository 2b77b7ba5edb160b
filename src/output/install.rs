//! `build --install`: a Tabletop Simulator saved object copied into the program's own folder
//! of saved objects, among the user's own saves.
//!
//! The save's names come from the game's name, so they can be the names of a save the user
//! made (a table of theirs called "Chess", or one saved over the installed object after
//! playing with it). An install therefore records what it wrote in its folder of images
//! (`<Name> images/.safari-game`: the game folder, then each file it wrote beside that folder
//! with its SHA-256), and replaces a file there only when it is the one it wrote, byte for byte.
//! Anything else is refused (SZ0805), before anything is written.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::place::{self, Found};
use super::{Output, io_fault, replace_folder, write_atomically};
use crate::diag::{Code, Diagnostic};

/// What an earlier install wrote, as its mark records it.
#[derive(Debug, Default, PartialEq)]
struct Record {
    /// The game folder it was installed from.
    owner: String,
    /// Each file written beside the folder of images: its SHA-256 (hex) and its name.
    files: Vec<(String, String)>,
}

impl Record {
    fn parse(text: &str) -> Record {
        let mut lines = text.lines();
        let owner = lines.next().unwrap_or_default().trim().to_string();
        let files = lines
            .filter_map(|line| line.split_once(' '))
            .map(|(hash, name)| (hash.to_string(), name.to_string()))
            .collect();
        Record { owner, files }
    }

    fn text(&self) -> String {
        let mut text = format!("{}\n", self.owner);
        for (hash, name) in &self.files {
            text.push_str(&format!("{hash} {name}\n"));
        }
        text
    }

    fn wrote(&self, name: &str, hash: &str) -> bool {
        self.files.iter().any(|(h, n)| n == name && h == hash)
    }
}

/// The most of an existing save that is read to tell whether it is the one installed.
const MOST_READ: u64 = 256 << 20;

/// Installs into `saved` (Tabletop Simulator's `Saves/Saved Objects`) the folder
/// `<name> images` holding `images`, and `files` (the save and its thumbnail) beside it, for the
/// game folder `owner`; an install of another game folder under the same name is replaced
/// only when `take_over`. Returns the folder of images.
pub fn install(
    saved: &Path,
    name: &str,
    images: &[Output],
    files: &[Output],
    owner: &str,
    take_over: bool,
) -> Result<PathBuf, Diagnostic> {
    let folder = saved.join(format!("{name} images"));
    let earlier = match place::found_at(&folder)? {
        Found::Free => Record::default(),
        Found::Made(text) => Record::parse(&text),
    };
    if !take_over && !earlier.owner.is_empty() && earlier.owner != owner {
        return Err(Diagnostic::error(
            Code::OutputOfAnotherGame,
            format!(
                "{} holds the save installed from the game in {}, which has the same name",
                folder.display(),
                earlier.owner
            ),
        )
        .with_help(
            "give this game a name of its own in game.toml, or pass `--replace` to replace \
             that game's installed save with this one's",
        ));
    }
    for file in files {
        let path = saved.join(&file.path);
        if !replaceable(&path, &file.path, &earlier)? {
            return Err(Diagnostic::error(
                Code::OutputFolderNotSafaris,
                format!(
                    "{} is not the save safari installed there, or it changed since",
                    path.display()
                ),
            )
            .with_help(
                "nothing was installed: it may be a table of yours with the same name, or one \
                 saved over the installed object; rename it or move it away to install",
            ));
        }
    }
    super::create_dir_all(saved)?;
    let record = Record {
        owner: owner.to_string(),
        files: files
            .iter()
            .map(|file| (hex(&file.bytes), file.path.clone()))
            .collect(),
    };
    replace_folder(&folder, images, &record.text())?;
    for file in files {
        write_atomically(&saved.join(&file.path), &file.bytes)?;
    }
    Ok(folder)
}

/// Whether the file at `path` may be replaced: there is none, or it is the regular file an
/// earlier install recorded under `name`, unchanged.
fn replaceable(path: &Path, name: &str, earlier: &Record) -> Result<bool, Diagnostic> {
    let metadata = match std::fs::symlink_metadata(path) {
        Ok(metadata) => metadata,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(true),
        Err(err) => return Err(io_fault("read", path, &err)),
    };
    if !metadata.is_file() || metadata.len() > MOST_READ {
        return Ok(false);
    }
    let bytes = std::fs::read(path).map_err(|err| io_fault("read", path, &err))?;
    Ok(earlier.wrote(name, &hex(&bytes)))
}

fn hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
