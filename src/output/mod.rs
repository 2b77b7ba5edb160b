//! The one seam through which outputs are written.
//!
//! Content is untrusted: a game's id names its output folder, and its design ids and name end
//! up in file names. So every write of a build, a rebuild or a simulation goes through
//! [`OutputRoot`], which refuses a game id or an output path that could leave the output root
//! (`..`, absolute paths, separators in an id, hidden names), never follows a symbolic link it
//! finds there, and turns every file-system fault into an SZ0801 diagnostic naming the path.
//!
//! Before it writes anything, every writer holds the output folder to one rule ([`place`]):
//! the folder is free or one safari made (its mark), it keeps clear of the game folder's own
//! files, and the links on the way to it are followed and held to the same. A user's folder is
//! never replaced, written into or removed from, by any command.
//!
//! A build replaces `<root>/<game>/` whole or not at all: the new folder is staged beside the
//! old one (this build's files, plus the files of outputs it did not make, such as `sim/` or
//! the targets left out by `--only`), and swapped in with two renames only once every file is
//! written. A fault before the swap leaves the old folder untouched; the swap itself puts the
//! old folder back if the second rename fails.
//!
//! Every writer of a game's folder (a build, `watch`, `sim`, `diff`) holds the game's lock
//! (`<root>/.<game>.lock`) while it writes, so that two commands at once never stage from, or
//! write into, a folder the other is swapping; and a writer holding it clears what a killed
//! one left beside the folder (its staging and retired folders), since no other writer can be
//! at work. A writer that finds a symbolic link where a folder or file of its own should be
//! refuses rather than write through it; it reads an existing file (to leave one that is
//! already right untouched) only when it is a regular file of the new bytes' length.

mod install;
mod place;
mod write;

use std::path::{Component, Path, PathBuf};

pub use install::install;
pub use write::{NewFolder, create_dir_all, new_folder, write_atomically};

use crate::backends::{DocumentNames, Output, Target};
use crate::diag::{Code, Diagnostic};
use place::Found;

/// A folder that holds one output folder per game (`out/`).
#[derive(Debug, Clone)]
pub struct OutputRoot {
    root: PathBuf,
    /// Whether the user named the root (`--out`): only then are links to it followed.
    named: bool,
    /// The game folder whose outputs a build writes, when it writes a game's own (`build`,
    /// `watch`): a folder marked as another's is refused unless `take_over`.
    owner: Option<String>,
    take_over: bool,
    /// The game folders (canonical) whose own files the output folder must keep clear of.
    games: Vec<PathBuf>,
}

/// The file in a game's output folder that says safari made it, naming the game folder the
/// outputs were built from (empty when the writer knew none). Two copies of a game keep one
/// `id`, so one output folder; without it, building the copy would silently replace the
/// other's outputs, and a folder of the user's would be taken for safari's.
pub const OWNER_MARK: &str = ".safari-game";

/// Where the folder `dir` leads, held to the output root's rule on links (`place::resolve`):
/// for a command that writes into a folder of its own choosing, as `schema` does.
pub fn resolve_folder(dir: &Path, named: bool) -> Result<PathBuf, Diagnostic> {
    place::resolve(dir, named)
}

/// The name of the output root when a command is given none.
pub const DEFAULT_ROOT: &str = "out";

/// The folder of a checkout that holds its games (`content/<game>/`).
const CONTENT: &str = "content";

/// Where a game's outputs go when no `--out` names a root: `out/` at the game's project,
/// whatever folder the command runs in (as cargo's `target/` sits at its workspace). A game in
/// `content/<game>/`, a checkout's layout, belongs to the folder above `content/`; any other
/// game folder is a project of its own. Without a game folder (the game built into safari, a
/// ruleset file), `out/` in the working folder. Said from the working folder when it lies
/// below it.
pub fn default_root(game: Option<&Path>) -> PathBuf {
    let Some(game) = game
        .filter(|game| game.is_dir())
        .and_then(|game| std::fs::canonicalize(game).ok())
    else {
        return PathBuf::from(DEFAULT_ROOT);
    };
    let project = match game.parent() {
        Some(parent) if parent.file_name() == Some(std::ffi::OsStr::new(CONTENT)) => {
            parent.parent().unwrap_or(parent)
        }
        _ => &game,
    };
    let root = project.join(DEFAULT_ROOT);
    let here = std::env::current_dir().and_then(std::fs::canonicalize);
    match here.as_ref().map(|here| root.strip_prefix(here)) {
        Ok(Ok(relative)) => relative.to_path_buf(),
        _ => root,
    }
}

/// What the owner mark says of the game built into safari, which has no folder.
pub const BUILT_IN: &str = "<built into safari>";

impl OutputRoot {
    /// The output root the user named (`--out DIR`).
    pub fn new(root: impl Into<PathBuf>) -> OutputRoot {
        OutputRoot {
            root: root.into(),
            named: true,
            owner: None,
            take_over: false,
            games: Vec::new(),
        }
    }

    /// The output root `--out` names, or when it names none the game's own ([`default_root`]),
    /// which follows no symbolic link.
    pub fn named_or_default(out: Option<&Path>, game: Option<&Path>) -> OutputRoot {
        match out {
            Some(out) => OutputRoot::new(out),
            None => OutputRoot::at(default_root(game), false),
        }
    }

    /// The output root `root`, named by the user or not.
    pub fn at(root: impl Into<PathBuf>, named: bool) -> OutputRoot {
        OutputRoot {
            named,
            ..OutputRoot::new(root)
        }
    }

    /// The writer of the outputs of the game in `folder` (`None` for the game built into
    /// safari): refuses a game's output folder built from another folder, unless `take_over`,
    /// and keeps clear of the game folder's own files.
    pub fn for_game(mut self, folder: Option<&Path>, take_over: bool) -> OutputRoot {
        self.owner = Some(match folder {
            Some(folder) => std::fs::canonicalize(folder)
                .unwrap_or_else(|_| folder.to_path_buf())
                .to_string_lossy()
                .into_owned(),
            None => BUILT_IN.to_string(),
        });
        self.take_over = take_over;
        if let Some(folder) = folder {
            self = self.keeping_clear_of(folder);
        }
        self
    }

    /// Keeps the output folder clear of the game folder at `folder` as well (a game `sim` or
    /// `diff` read); a path that is no folder (a ruleset file) adds nothing.
    pub fn keeping_clear_of(mut self, folder: &Path) -> OutputRoot {
        if let Ok(folder) = std::fs::canonicalize(folder)
            && folder.is_dir()
        {
            self.games.push(folder);
        }
        self
    }

    /// Refuses, before a command does any work, an output root that cannot hold folders: one
    /// that is a file, or lies under one (`--out notes.txt`), and one whose links may not be
    /// followed. A writer that gets past this may still meet a fault later (a full disk);
    /// one that does not would only have failed after all its work.
    pub fn usable(&self) -> Result<(), Diagnostic> {
        let root = place::resolve(&self.root, self.named)?;
        let Some(file) = root
            .ancestors()
            .find(|at| std::fs::metadata(at).is_ok())
            .filter(|at| !at.is_dir())
        else {
            return Ok(());
        };
        let (message, help) = if self.named {
            (
                if file == root {
                    format!("--out names a file, {}: give a folder", self.root.display())
                } else {
                    format!(
                        "--out names {}, inside the file {}: give a folder",
                        self.root.display(),
                        file.display()
                    )
                },
                "`--out DIR` is the folder that holds each game's outputs (`DIR/<id>/`): name a \
                 folder, or one safari may create, or leave it out to write into the game's `out/`",
            )
        } else {
            (
                format!(
                    "the output folder {} is a file, or lies inside one ({})",
                    self.root.display(),
                    file.display()
                ),
                "move the file away, or name another folder with `--out`",
            )
        };
        Err(Diagnostic::error(Code::OutputRootIsAFile, message).with_help(help))
    }

    /// Where the output root leads, its links followed: what `watch` tells its own writes by.
    pub fn resolved(&self) -> Result<PathBuf, Diagnostic> {
        place::resolve(&self.root, self.named)
    }

    /// Refuses `folder` when its mark names another game folder than this writer's.
    fn check_owner(&self, id: &str, folder: &Path, owner: &str) -> Result<(), Diagnostic> {
        let Some(game) = &self.owner else {
            return Ok(());
        };
        if self.take_over || owner.is_empty() || owner == game {
            return Ok(());
        }
        Err(Diagnostic::error(
            Code::OutputOfAnotherGame,
            format!(
                "{} holds the outputs of the game in {owner}, which has the same id `{id}`",
                folder.display()
            ),
        )
        .with_help(format!(
            "give this game an id of its own in game.toml (two games with one id share one output folder), build it into another folder with `--out`, or pass `--replace` to replace the outputs of {owner} with this game's"
        )))
    }

    /// Writes the mark into `folder`: this writer's game folder, or, from a writer that knows
    /// none, an empty mark where there is none yet.
    fn mark(&self, folder: &Path) -> Result<(), Diagnostic> {
        let mark = folder.join(OWNER_MARK);
        refuse_symlink(&mark)?;
        let owner = match &self.owner {
            Some(owner) => owner.as_str(),
            None if std::fs::symlink_metadata(&mark).is_ok() => return Ok(()),
            None => "",
        };
        if unchanged(&mark, owner.as_bytes()) {
            return Ok(());
        }
        write_atomically(&mark, owner.as_bytes())
    }

    /// The output folder of the game `id` inside the resolved root, held to the rule of
    /// [`place`] against the game folders: refused unless the id is a valid id (SZ0105), so
    /// that no manifest or ruleset can name a folder outside the root.
    fn game_folder(&self, id: &str) -> Result<(PathBuf, PathBuf), Diagnostic> {
        crate::load::check_id(id).map_err(|reason| {
            Diagnostic::error(
                Code::BadId,
                format!("the game id `{id}` cannot name an output folder: it {reason}"),
            )
            .with_help("set `id` in game.toml to lower-case words joined by dashes")
        })?;
        let root = place::resolve(&self.root, self.named)?;
        let folder = root.join(id);
        for game in &self.games {
            place::keep_clear_of_game(&folder, game)?;
        }
        Ok((root, folder))
    }

    /// Refuses the folder unless it is free or safari's (and, for a game's own writer, this
    /// game's), then holds the game's lock and looks again: a refused writer has made
    /// nothing, not even the lock, and what it found still holds while it writes.
    fn open(
        &self,
        root: &Path,
        id: &str,
        folder: &Path,
    ) -> Result<(std::fs::File, Found), Diagnostic> {
        let check = || {
            let found = place::found_at(folder)?;
            if let Found::Made(owner) = &found {
                self.check_owner(id, folder, owner)?;
            }
            Ok::<_, Diagnostic>(found)
        };
        check()?;
        create_dir_all(root)?;
        let lock = lock(root, id)?;
        Ok((lock, check()?))
    }

    /// Replaces the outputs of `built` in the game's folder with `outputs`, whole or not at
    /// all: files of other targets (and files no target makes, like `sim/`) are kept, every
    /// file `built` makes that this build did not make again is gone (a rules module's
    /// documents among them, by the names `documents` gives). Returns the folder.
    pub fn replace(
        &self,
        id: &str,
        outputs: &[Output],
        built: &[Target],
        documents: DocumentNames,
    ) -> Result<PathBuf, Diagnostic> {
        let (root, folder) = self.game_folder(id)?;
        for output in outputs {
            confined_relative(&output.path)?;
        }
        let (_lock, _) = self.open(&root, id, &folder)?;
        let staging = root.join(format!(".{id}.staging-{}", std::process::id()));
        let result = stage(&staging, Some(&folder), outputs, built, documents)
            .and_then(|()| self.mark(&staging))
            .and_then(|()| swap(&staging, &folder));
        if result.is_err() {
            let _ = std::fs::remove_dir_all(&staging);
        }
        result
            .map(|()| folder)
            .map_err(|d| d.with_help("nothing was replaced: the previous outputs are as they were"))
    }

    /// Writes `files` into `<game>/<sub>/`, each atomically, leaving what else is there: a
    /// rebuild by `watch` (so that a PDF viewer sees each file change in place) and a
    /// simulation's report. A file whose bytes are already on disk is not touched.
    pub fn update(&self, id: &str, sub: &str, files: &[Output]) -> Result<PathBuf, Diagnostic> {
        let (root, folder) = self.game_folder(id)?;
        let base = if sub.is_empty() {
            folder.clone()
        } else {
            confined_relative(sub)?;
            folder.join(sub)
        };
        for file in files {
            confined_relative(&file.path)?;
        }
        let (_lock, _) = self.open(&root, id, &folder)?;
        if files.is_empty() {
            return Ok(base);
        }
        // Marked before the first file, so that a writer killed half-way leaves a folder
        // the next one knows for safari's.
        create_dir_all(&folder)?;
        self.mark(&folder)?;
        for file in files {
            let path = base.join(&file.path);
            // Every folder from the game's down to the file's, and the file, is the
            // writer's own: none may be a link to elsewhere.
            let relative = path.strip_prefix(&root).unwrap_or(&path);
            let mut at = root.clone();
            for component in relative.components() {
                at.push(component);
                refuse_symlink(&at)?;
            }
            if unchanged(&path, &file.bytes) {
                continue;
            }
            if let Some(parent) = path.parent() {
                create_dir_all(parent)?;
            }
            write_atomically(&path, &file.bytes)?;
        }
        Ok(base)
    }

    /// Removes files `built` makes that the latest `update` of those targets did not make (a
    /// deck that lost a page, a card design renamed).
    pub fn remove_stale(
        &self,
        id: &str,
        outputs: &[Output],
        built: &[Target],
        documents: DocumentNames,
    ) -> Result<(), Diagnostic> {
        let (root, folder) = self.game_folder(id)?;
        let (_lock, found) = self.open(&root, id, &folder)?;
        if matches!(found, Found::Free) {
            return Ok(());
        }
        let made: std::collections::HashSet<&str> =
            outputs.iter().map(|o| o.path.as_str()).collect();
        for relative in files_under(&folder)? {
            if !made.contains(relative.as_str()) && owned_by(&relative, built, documents) {
                let path = folder.join(&relative);
                std::fs::remove_file(&path).map_err(|err| io_fault("remove", &path, &err))?;
            }
        }
        Ok(())
    }
}

/// Holds the lock of the game `id` in `root` until the guard is dropped, first clearing what
/// a killed writer left beside the game's folder (no writer can be at work while this one
/// holds it): its staging and retired folders, by their names and their mark (a folder of the
/// user's that happens to be named so is not safari's to remove), or empty.
fn lock(root: &Path, id: &str) -> Result<std::fs::File, Diagnostic> {
    let path = root.join(format!(".{id}.lock"));
    refuse_symlink(&path)?;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(|err| io_fault("lock", &path, &err))?;
    file.lock().map_err(|err| io_fault("lock", &path, &err))?;
    let left = [format!(".{id}.staging-"), format!(".{id}.old-")];
    if let Ok(entries) = std::fs::read_dir(root) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let is_dir = entry.file_type().is_ok_and(|kind| kind.is_dir());
            let ours = left.iter().any(|prefix| {
                name.strip_prefix(prefix.as_str())
                    .is_some_and(|pid| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()))
            });
            if !is_dir || !ours {
                continue;
            }
            match place::found_at(&entry.path()) {
                Ok(Found::Made(_)) => {
                    let _ = std::fs::remove_dir_all(entry.path());
                }
                // Empty: removed only while it stays so.
                Ok(Found::Free) => {
                    let _ = std::fs::remove_dir(entry.path());
                }
                Err(_) => {}
            }
        }
    }
    Ok(file)
}

/// Replaces `folder` (a folder of its own, outside any output root: the images installed into
/// Tabletop Simulator's) with exactly `files` and the mark `mark`, whole or not at all, as a
/// build replaces a game's folder: staged beside it and swapped in, so nothing an older
/// install wrote is left. As an output folder, it is refused unless it is free or safari made
/// it.
fn replace_folder(folder: &Path, files: &[Output], mark: &str) -> Result<(), Diagnostic> {
    for file in files {
        confined_relative(&file.path)?;
    }
    place::found_at(folder)?;
    let name = folder
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let staging = folder.with_file_name(format!(".{name}.staging-{}", std::process::id()));
    let result = stage(&staging, None, files, &[], &|_| Vec::new())
        .and_then(|()| write_atomically(&staging.join(OWNER_MARK), mark.as_bytes()))
        .and_then(|()| swap(&staging, folder));
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&staging);
    }
    result
}

/// Whether `relative` (a path inside a game's output folder) is made by one of `targets`.
fn owned_by(relative: &str, targets: &[Target], documents: DocumentNames) -> bool {
    targets
        .iter()
        .any(|target| target.owns(relative, documents))
}

/// Writes the new folder: this build's outputs, then the `old` folder's files that no target
/// of this build makes (hard links where the file system allows, copies elsewhere).
fn stage(
    staging: &Path,
    old: Option<&Path>,
    outputs: &[Output],
    built: &[Target],
    documents: DocumentNames,
) -> Result<(), Diagnostic> {
    // A staging folder of this process's number: one a killed writer left (safari's by its
    // mark, or empty) is cleared; anything else there is refused, never written through.
    match place::found_at(staging)? {
        Found::Made(_) => {
            std::fs::remove_dir_all(staging).map_err(|err| io_fault("clear", staging, &err))?
        }
        Found::Free if staging.exists() => {
            std::fs::remove_dir(staging).map_err(|err| io_fault("clear", staging, &err))?
        }
        Found::Free => {}
    }
    std::fs::create_dir(staging).map_err(|err| io_fault("create", staging, &err))?;
    // Marked first, so that what a killed build leaves is known for safari's.
    write_atomically(&staging.join(OWNER_MARK), b"")?;
    for output in outputs {
        let path = staging.join(&output.path);
        if let Some(parent) = path.parent() {
            create_dir_all(parent)?;
        }
        std::fs::write(&path, &output.bytes).map_err(|err| io_fault("write", &path, &err))?;
    }
    let made: std::collections::HashSet<&str> = outputs.iter().map(|o| o.path.as_str()).collect();
    let Some(old) = old else {
        return Ok(());
    };
    let kept = match std::fs::symlink_metadata(old) {
        Ok(metadata) if metadata.is_dir() => files_under(old)?,
        Ok(_) => {
            return Err(io_fault(
                "replace",
                old,
                &std::io::Error::other("it is not a folder"),
            ));
        }
        Err(_) => Vec::new(),
    };
    for relative in kept {
        if made.contains(relative.as_str()) || owned_by(&relative, built, documents) {
            continue;
        }
        let (from, to) = (old.join(&relative), staging.join(&relative));
        if let Some(parent) = to.parent() {
            create_dir_all(parent)?;
        }
        if std::fs::hard_link(&from, &to).is_err() {
            std::fs::copy(&from, &to).map_err(|err| io_fault("keep", &from, &err))?;
        }
    }
    Ok(())
}

/// Puts `staging` in place of `folder`, and removes the old folder.
fn swap(staging: &Path, folder: &Path) -> Result<(), Diagnostic> {
    let retired = folder.with_file_name(format!(
        ".{}.old-{}",
        folder
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        std::process::id()
    ));
    let had_old = folder.exists();
    if had_old {
        std::fs::rename(folder, &retired).map_err(|err| io_fault("replace", folder, &err))?;
    }
    if let Err(err) = std::fs::rename(staging, folder) {
        if had_old {
            let _ = std::fs::rename(&retired, folder);
        }
        return Err(io_fault("replace", folder, &err));
    }
    if had_old {
        // The new outputs are in place; an old file that cannot be removed is only litter.
        let _ = std::fs::remove_dir_all(&retired);
    }
    Ok(())
}

/// Every regular file under `folder`, as `/`-separated paths relative to it. Symbolic links
/// are not followed (nor kept): an output folder holds only what builds wrote.
fn files_under(folder: &Path) -> Result<Vec<String>, Diagnostic> {
    let mut files = Vec::new();
    let mut stack = vec![folder.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => continue,
            Err(err) => return Err(io_fault("read", &dir, &err)),
        };
        for entry in entries {
            let entry = entry.map_err(|err| io_fault("read", &dir, &err))?;
            let path = entry.path();
            let kind = entry
                .file_type()
                .map_err(|err| io_fault("read", &path, &err))?;
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_file()
                && let Ok(relative) = path.strip_prefix(folder)
            {
                files.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    files.sort();
    Ok(files)
}

/// Refuses an output path that could leave its folder or hide in it.
fn confined_relative(relative: &str) -> Result<(), Diagnostic> {
    let path = Path::new(relative);
    let fine = !relative.is_empty()
        && path.components().all(|c| match c {
            Component::Normal(name) => !name.to_string_lossy().starts_with('.'),
            _ => false,
        });
    if fine {
        Ok(())
    } else {
        Err(Diagnostic::error(
            Code::OutputUnwritable,
            format!("refused to write `{relative}`: outputs stay inside the game's output folder"),
        ))
    }
}

/// Whether `path` already holds exactly `bytes`: read only when it is a regular file of their
/// length (never a FIFO, a device, or a file of another size, however large).
fn unchanged(path: &Path, bytes: &[u8]) -> bool {
    match std::fs::symlink_metadata(path) {
        Ok(metadata) if metadata.is_file() && metadata.len() == bytes.len() as u64 => {
            std::fs::read(path).is_ok_and(|old| old == bytes)
        }
        _ => false,
    }
}

/// Refuses to write through a symbolic link found in the output folder.
fn refuse_symlink(path: &Path) -> Result<(), Diagnostic> {
    match std::fs::symlink_metadata(path) {
        Ok(metadata) if metadata.file_type().is_symlink() => Err(io_fault(
            "write",
            path,
            &std::io::Error::other("it is a symbolic link, which outputs never follow"),
        )),
        _ => Ok(()),
    }
}

/// An SZ0801 diagnostic: what could not be done to which path, and the system's reason.
pub(crate) fn io_fault(action: &str, path: &Path, err: &std::io::Error) -> Diagnostic {
    Diagnostic::error(
        Code::OutputUnwritable,
        format!("cannot {action} `{}`: {err}", path.display()),
    )
}
