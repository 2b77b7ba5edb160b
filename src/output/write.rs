//! Writing files so that a reader never sees half of one, and new folders whole or not at all.

use std::path::{Path, PathBuf};

use super::{confined_relative, io_fault};
use crate::diag::Diagnostic;

/// A folder and the folders above it, made where they are missing.
pub fn create_dir_all(path: &Path) -> Result<(), Diagnostic> {
    std::fs::create_dir_all(path).map_err(|err| io_fault("create", path, &err))
}

/// A new folder at `dir`, whole or not at all: `fill` writes its files, one at a time, into a
/// folder beside `dir`, which is renamed into place once every file is written; on a fault
/// (a file that cannot be read, a full disk) it is removed and nothing is made.
pub fn new_folder(
    dir: &Path,
    fill: impl FnOnce(&NewFolder) -> Result<(), String>,
) -> Result<(), String> {
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        create_dir_all(parent).map_err(|d| d.message)?;
    }
    let staging = NewFolder {
        root: create_staging(dir).map_err(|d| d.message)?,
    };
    let made = fill(&staging).and_then(|()| {
        // A rename over a folder that appeared meanwhile would replace it if empty, and fails
        // on anything else; over nothing is the only rename meant here.
        if std::fs::symlink_metadata(dir).is_ok() {
            return Err(format!(
                "cannot create {}: something is there now",
                dir.display()
            ));
        }
        std::fs::rename(&staging.root, dir)
            .map_err(|err| format!("cannot create {}: {err}", dir.display()))
    });
    if made.is_err() {
        let _ = std::fs::remove_dir_all(&staging.root);
    }
    made
}

/// A new, empty folder beside `dir` to fill before the rename: always created, never opened,
/// so a name already taken (a folder, or a link planted there to be written through) is passed
/// over for the next.
fn create_staging(dir: &Path) -> Result<PathBuf, Diagnostic> {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    for n in 0..TEMPORARY_NAMES {
        let staging = dir.with_file_name(format!(".{name}.new-{}-{n}", std::process::id()));
        match std::fs::create_dir(&staging) {
            Ok(()) => return Ok(staging),
            Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(err) => return Err(io_fault("create", &staging, &err)),
        }
    }
    Err(io_fault(
        "create",
        dir,
        &std::io::Error::other(format!(
            "the {TEMPORARY_NAMES} folder names tried beside it were all taken"
        )),
    ))
}

/// A folder being made by [`new_folder`].
pub struct NewFolder {
    root: PathBuf,
}

impl NewFolder {
    /// Writes a file at `relative` inside the new folder (making the folders it is in).
    pub fn write(&self, relative: &str, bytes: &[u8]) -> Result<(), String> {
        confined_relative(relative).map_err(|d| d.message)?;
        let path = self.root.join(relative);
        if let Some(parent) = path.parent() {
            create_dir_all(parent).map_err(|d| d.message)?;
        }
        write_atomically(&path, bytes).map_err(|d| d.message)
    }
}

/// Writes a file by writing a temporary file beside it and renaming it over the target, so a
/// reader never sees half a file and a failed write leaves the previous one.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), Diagnostic> {
    use std::io::Write;
    let (temporary, mut file) = create_temporary(path)?;
    let written = file.write_all(bytes).and_then(|()| file.flush());
    drop(file);
    if let Err(err) = written {
        let _ = std::fs::remove_file(&temporary);
        return Err(io_fault("write", path, &err));
    }
    std::fs::rename(&temporary, path).map_err(|err| {
        let _ = std::fs::remove_file(&temporary);
        io_fault("write", path, &err)
    })
}

/// A new, empty file beside `path` to write before the rename: always created, never opened.
/// A name already taken (a file, or a symbolic link planted there to be written through) is
/// passed over for the next, so the bytes never go where a link points.
fn create_temporary(path: &Path) -> Result<(PathBuf, std::fs::File), Diagnostic> {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    for _ in 0..TEMPORARY_NAMES {
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let temporary = path.with_file_name(format!(".{name}.tmp-{}-{n}", std::process::id()));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temporary)
        {
            Ok(file) => return Ok((temporary, file)),
            Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(err) => return Err(io_fault("write", path, &err)),
        }
    }
    Err(io_fault(
        "write",
        path,
        &std::io::Error::other(format!(
            "the {TEMPORARY_NAMES} temporary names tried beside it were all taken"
        )),
    ))
}

/// How many names [`create_temporary`] tries before it gives up.
const TEMPORARY_NAMES: usize = 64;
