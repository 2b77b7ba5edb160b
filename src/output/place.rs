//! Where an output folder may be: the one rule every writer of `out/<game>/` obeys before it
//! writes, replaces or removes a file there.
//!
//! A build replaces its output folder whole, so the folder must be one whose every file is
//! safari's to lose. Three things make sure of it:
//!
//! - **The mark.** Every output folder safari makes carries a mark (`.safari-game`). A folder
//!   that is there, holds anything and carries no mark was not made by safari: nothing writes
//!   into it, replaces it or removes from it, whatever the command or its options.
//! - **The game's own files.** The output folder is never the game folder, never holds it, and
//!   never lies among its files: not directly in the game folder (beside `game.toml`), and not
//!   inside a folder of the game that holds files of its own (`templates/`, `art/`). Inside a
//!   folder that holds only output folders, such as the game's `out/`, it may.
//! - **Links.** The output root is resolved through its links, each held where it is, and the
//!   rules above are held against where it leads. A link inside a game folder never leads out
//!   of it (a game folder can ship `out -> ../elsewhere`: a game's content never chooses where
//!   outputs land outside it), and a root nobody named (the default `out`) follows no link:
//!   a link is followed only where `--out` names it.

use std::path::{Component, Path, PathBuf};

use super::{OWNER_MARK, io_fault};
use crate::diag::{Code, Diagnostic};

/// Where the output root `root` leads: every existing part resolved through its links (a `..`
/// after a link goes up from where the link leads, as the file system does), the parts that
/// do not exist yet kept as written. Each link on the way is held where it is: one inside a
/// game folder may not lead out of it, and a root the user did not name (`named` false: the
/// default `out`) follows no link at all. A link that leads nowhere is refused: creating a
/// folder there would fail, or create it wherever the link is later pointed.
pub(super) fn resolve(root: &Path, named: bool) -> Result<PathBuf, Diagnostic> {
    let absolute = std::path::absolute(root).map_err(|err| io_fault("resolve", root, &err))?;
    let mut resolved = PathBuf::new();
    for component in absolute.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                resolved.pop();
            }
            Component::Normal(name) => {
                let at = resolved.clone();
                resolved.push(name);
                let is_link = std::fs::symlink_metadata(&resolved)
                    .is_ok_and(|metadata| metadata.file_type().is_symlink());
                if is_link {
                    let link = resolved.clone();
                    resolved = std::fs::canonicalize(&link).map_err(|_| {
                        io_fault(
                            "write into",
                            &link,
                            &std::io::Error::other("it is a symbolic link that leads nowhere"),
                        )
                    })?;
                    follow(&link, &at, &resolved, named)?;
                }
            }
            other => resolved.push(other),
        }
    }
    Ok(resolved)
}

/// Refuses the link at `link` (in the folder `at`, resolved) to `target` on the way to an
/// output root, when the root was not named or the link leads out of the game folder it is in.
fn follow(link: &Path, at: &Path, target: &Path, named: bool) -> Result<(), Diagnostic> {
    let refuse = |message: String, help: String| {
        Err(Diagnostic::error(Code::OutputThroughLink, message).with_help(help))
    };
    if let Some(game) = game_folder_holding(at)
        && !target.starts_with(&game)
    {
        return refuse(
            format!(
                "{} is a link inside the game folder {} that leads out of it, to {}",
                link.display(),
                game.display(),
                target.display()
            ),
            format!(
                "a game folder cannot send outputs elsewhere: remove the link, or name the \
                 place on purpose with `--out {}`",
                target.display()
            ),
        );
    }
    if !named {
        return refuse(
            format!(
                "the output folder {} is a symbolic link, to {}",
                link.display(),
                target.display()
            ),
            format!(
                "outputs follow a link only where `--out` names it: pass `--out {}` to build \
                 there",
                link.display()
            ),
        );
    }
    Ok(())
}

/// The game folder `dir` is in (itself, or the nearest folder above it holding a manifest).
fn game_folder_holding(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .find(|folder| folder.join(crate::load::MANIFEST).is_file())
        .map(Path::to_path_buf)
}

/// Refuses the output folder `folder` (resolved) when it would be, hold or lie among the files
/// of the game folder `game` (canonical).
pub(super) fn keep_clear_of_game(folder: &Path, game: &Path) -> Result<(), Diagnostic> {
    let refuse = |message: String, help: String| {
        Err(Diagnostic::error(Code::OutputAmongSources, message).with_help(help))
    };
    let elsewhere = "build into a folder of its own: the game's `out/` (the default when you \
                     run safari in the game folder) or any folder outside it, with `--out`";
    if game.starts_with(folder) {
        let what = if game == folder {
            "is the game folder itself".to_string()
        } else {
            format!("holds the game folder {}", game.display())
        };
        return refuse(
            format!(
                "the output folder {} {what}: a build would replace the game's own files",
                folder.display()
            ),
            elsewhere.to_string(),
        );
    }
    let Ok(inside) = folder.strip_prefix(game) else {
        return Ok(());
    };
    // The folders between the game folder and the output folder: the output root and the
    // folders above it, inside the game.
    let mut between = game.to_path_buf();
    let parts: Vec<_> = inside.components().collect();
    if parts.len() == 1 {
        return refuse(
            format!(
                "the output folder {} would sit among the game's own files, beside its manifest",
                folder.display()
            ),
            elsewhere.to_string(),
        );
    }
    for part in &parts[..parts.len() - 1] {
        between.push(part);
        if let Some(file) = a_file_of_the_game(&between, folder) {
            return refuse(
                format!(
                    "the output folder {} would lie among the game's own files: {} holds {}",
                    folder.display(),
                    between.display(),
                    file.display()
                ),
                elsewhere.to_string(),
            );
        }
    }
    Ok(())
}

/// A file of the game's under `dir`, if there is one: any file or link not hidden, outside
/// `skip` (the output folder itself) and outside the output folders safari made (marked).
/// Looks at no more than a bounded number of entries; past it, `dir` is taken to hold the
/// game's files (an output root is a folder of a few output folders).
fn a_file_of_the_game(dir: &Path, skip: &Path) -> Option<PathBuf> {
    const LOOKED_AT: usize = 10_000;
    let mut looked = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&at) else {
            continue;
        };
        for entry in entries.flatten() {
            looked += 1;
            if looked > LOOKED_AT {
                return Some(at);
            }
            let path = entry.path();
            if entry.file_name().to_string_lossy().starts_with('.') || path == skip {
                continue;
            }
            match entry.file_type() {
                Ok(kind) if kind.is_dir() => {
                    if std::fs::symlink_metadata(path.join(OWNER_MARK)).is_err() {
                        stack.push(path);
                    }
                }
                Ok(_) => return Some(path.strip_prefix(dir).unwrap_or(&path).to_path_buf()),
                Err(_) => {}
            }
        }
    }
    None
}

/// What is at an output folder's place.
#[derive(Debug)]
pub(super) enum Found {
    /// Nothing, or an empty folder: safari may make its folder there.
    Free,
    /// A folder safari made: the game folder its mark names (empty when the writer knew none,
    /// as `sim` of a ruleset file).
    Made(String),
}

/// What is at `folder`: free, or a folder safari made; anything else (a folder of the user's,
/// a file, a link) is refused, with no way round it, since replacing it would lose it.
pub(super) fn found_at(folder: &Path) -> Result<Found, Diagnostic> {
    let metadata = match std::fs::symlink_metadata(folder) {
        Ok(metadata) => metadata,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Found::Free),
        Err(err) => return Err(io_fault("read", folder, &err)),
    };
    let not_ours = |what: &str| {
        Err(Diagnostic::error(
            Code::OutputFolderNotSafaris,
            format!(
                "{} {what}: safari writes only into output folders it made",
                folder.display()
            ),
        )
        .with_help(
            "nothing was written: move that away if it is yours, or build into another \
             folder with `--out`",
        ))
    };
    if metadata.file_type().is_symlink() {
        return not_ours("is a symbolic link, which outputs never follow");
    }
    if !metadata.is_dir() {
        return not_ours("is a file, not an output folder");
    }
    let mark = folder.join(OWNER_MARK);
    match std::fs::symlink_metadata(&mark) {
        Ok(metadata) if metadata.is_file() && metadata.len() <= 4096 => {
            let owner = std::fs::read_to_string(&mark).unwrap_or_default();
            return Ok(Found::Made(owner.trim().to_string()));
        }
        Ok(_) => return not_ours("has a mark that is not safari's (not a small file)"),
        Err(_) => {}
    }
    let mut entries = std::fs::read_dir(folder).map_err(|err| io_fault("read", folder, &err))?;
    match entries.next() {
        None => Ok(Found::Free),
        Some(entry) => {
            let first = entry
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .unwrap_or_default();
            not_ours(&format!(
                "holds files safari did not write (`{first}` among them) and no mark \
                 ({OWNER_MARK}) of a folder safari made"
            ))
        }
    }
}
