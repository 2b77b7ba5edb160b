//! `safari init NAME [--from PACK]`: a new game folder, copied from the built-in default game
//! or from any game folder (a pack in `content/`), with its own id and name taken from the
//! folder's name (so its outputs go to their own `out/<id>/`).

use std::path::{Path, PathBuf};

use super::{Ui, exit};
use crate::embedded;

#[derive(clap::Args)]
pub struct Args {
    /// The folder to create; its last component names the game (`my-safari`: id
    /// `my-safari`, name "My Safari").
    name: PathBuf,

    /// Start from this game instead of Safari Zone RNW: a game folder, or a pack in
    /// `content/` by its name (`content/<PACK>`).
    #[arg(long, value_name = "PACK")]
    from: Option<PathBuf>,
}

pub fn run(args: Args, ui: Ui) -> u8 {
    let dir = &args.name;
    if dir.exists() {
        super::error(format_args!(
            "{} exists; choose a new folder",
            dir.display()
        ));
        return exit::FAILURE;
    }
    let given = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let id = crate::load::dashed_id(&given);
    if id.is_empty() {
        super::error(format_args!(
            "`{given}` has no letters or digits to make the game's id of; choose another name"
        ));
        return exit::FAILURE;
    }
    let title = title(&given);
    let (files, source) = match &args.from {
        None => (default_game_files(), "Safari Zone RNW".to_string()),
        Some(from) => match game_files(from) {
            Ok(found) => found,
            Err(message) => {
                super::error(&message);
                return exit::FAILURE;
            }
        },
    };
    let mut files: Files = files;
    for (name, bytes) in &mut files {
        if name == crate::load::MANIFEST
            && let Bytes::Here(manifest) = bytes
        {
            let text = String::from_utf8_lossy(manifest);
            match embedded::renamed(&text, &id, &title) {
                Ok(renamed) => *bytes = Bytes::Here(renamed.into_bytes()),
                Err(err) => {
                    super::error(format_args!("the game.toml to copy is not TOML: {err}"));
                    return exit::FAILURE;
                }
            }
        }
    }
    if !files.iter().any(|(name, _)| name == "README.md") {
        let made_of_components = manifest_text(&files, "rules")
            .is_some_and(|rules| crate::rules::module(&rules).is_some());
        let readme = if made_of_components {
            embedded::components_readme(&given, &source)
        } else {
            embedded::readme(&given)
        };
        files.push(("README.md".to_string(), Bytes::Here(readme.into_bytes())));
    }
    // A fault on the way (a file that cannot be read, a full disk) leaves no half a game.
    if let Err(message) = crate::output::new_folder(dir, |new| write_all(new, files)) {
        super::error(format_args!("{message}; nothing was created"));
        return exit::FAILURE;
    }
    ui.info(format!(
        "created {} (id `{id}`, name \"{title}\") from {source}; next: `safari check {}`",
        dir.display(),
        dir.display()
    ));
    exit::OK
}

/// Writes `files` and the content files' schemas into the new folder, one file at a time.
fn write_all(new: &crate::output::NewFolder, files: Files) -> Result<(), String> {
    // The schemas go beside the new game, so editors complete its TOML files anywhere.
    let schemas = crate::schemas()
        .into_iter()
        .map(|(name, text)| (format!("schema/{name}"), Bytes::Here(text.into_bytes())));
    for (name, source) in files.into_iter().chain(schemas) {
        let bytes = source.read(&name)?;
        // The TOML files name their schema beside the game, where the copy has it.
        let bytes = if name.ends_with(".toml") {
            String::from_utf8_lossy(&bytes)
                .replace("#:schema ../../schema/", "#:schema schema/")
                .into_bytes()
        } else {
            bytes
        };
        new.write(&name, &bytes)?;
    }
    Ok(())
}

/// A game's files: each path in the game folder, and where its bytes come from.
type Files = Vec<(String, Bytes)>;

/// A copied file's bytes: built into safari, or a file of the game folder copied from, read
/// only when the copy is written, one file at a time (a folder of large images never sits in
/// memory whole).
enum Bytes {
    Here(Vec<u8>),
    In(crate::world::FolderReader),
}

impl Bytes {
    fn read(self, relative: &str) -> Result<Vec<u8>, String> {
        match self {
            Bytes::Here(bytes) => Ok(bytes),
            Bytes::In(reader) => reader.read(relative).map_err(|d| d.message),
        }
    }
}

/// The built-in default game's files.
fn default_game_files() -> Files {
    embedded::DEFAULT_GAME
        .iter()
        .map(|(name, text)| (name.to_string(), Bytes::Here(text.as_bytes().to_vec())))
        .collect()
}

/// The files of the game `from` names (a folder holding game.toml, or `content/<from>`),
/// read through the game folder's seam, and the game's name; or why not.
fn game_files(from: &Path) -> Result<(Files, String), String> {
    let is_game = |dir: &Path| dir.join(crate::load::MANIFEST).is_file();
    let pack = Path::new("content").join(from);
    let dir = if is_game(from) {
        from.to_path_buf()
    } else if from.components().count() == 1 && is_game(&pack) {
        pack
    } else if let Some((_, files)) = crate::embedded::PACKS
        .iter()
        .find(|(name, _)| Path::new(name) == from)
    {
        let files: Files = files
            .iter()
            .map(|(name, text)| (name.to_string(), Bytes::Here(text.as_bytes().to_vec())))
            .collect();
        let name = manifest_text(&files, "name").unwrap_or_else(|| from.display().to_string());
        return Ok((files, name));
    } else {
        let packs = crate::world::games_in(Path::new("content"));
        let known = if packs.is_empty() {
            String::new()
        } else {
            format!(" (the packs in content/: {})", packs.join(", "))
        };
        return Err(format!(
            "`{}` is neither a game folder (with a game.toml) nor a pack in content/{known}",
            from.display()
        ));
    };
    let folder = crate::world::GameFolder::open(&dir).map_err(|d| d.message)?;
    let reader = folder.reader();
    // Outputs are no part of a game: a folder safari marked as a game's outputs (`out/<id>/`,
    // wherever an `--out` put it inside the game) is left behind.
    let listed: Vec<String> = folder
        .files()
        .map_err(|d| d.message)?
        .into_iter()
        .filter(|relative| !among_outputs(&dir, relative))
        .collect();
    // The whole copy is bounded before a byte is written.
    let mut total = 0u64;
    for relative in &listed {
        total += folder.size_of(relative);
    }
    if total > crate::load::limits::MAX_GAME_BYTES {
        return Err(format!(
            "the files of {} come to {}, more than the {} a game folder may hold; nothing was copied",
            dir.display(),
            crate::load::limits::bytes(total),
            crate::load::limits::bytes(crate::load::limits::MAX_GAME_BYTES)
        ));
    }
    let mut files: Files = Vec::new();
    for relative in listed {
        // The manifest is read now: the copy renames the game in it.
        let bytes = if relative == crate::load::MANIFEST {
            Bytes::Here(reader.read(&relative).map_err(|d| d.message)?)
        } else {
            Bytes::In(reader.clone())
        };
        files.push((relative, bytes));
    }
    let name = manifest_text(&files, "name").unwrap_or_else(|| dir.display().to_string());
    Ok((files, name))
}

/// Whether the file at `relative` in the game folder `dir` lies in a folder that carries the
/// mark of a game's outputs.
fn among_outputs(dir: &Path, relative: &str) -> bool {
    Path::new(relative)
        .ancestors()
        .skip(1)
        .filter(|folder| !folder.as_os_str().is_empty())
        .any(|folder| dir.join(folder).join(crate::output::OWNER_MARK).is_file())
}

/// A text value of the manifest among `files`.
fn manifest_text(files: &Files, key: &str) -> Option<String> {
    let (_, Bytes::Here(bytes)) = files
        .iter()
        .find(|(name, _)| name == crate::load::MANIFEST)?
    else {
        return None;
    };
    let manifest = toml::from_slice::<toml::Table>(bytes).ok()?;
    manifest.get(key)?.as_str().map(str::to_string)
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
