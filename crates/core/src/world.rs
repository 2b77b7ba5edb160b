//! The one seam through which content is read.
//!
//! Every file the toolchain reads for a game (manifest, layout, deck, dice, templates) is
//! opened through [`GameFolder::read`]. It resolves paths against the game folder and refuses
//! any path that would leave it (absolute paths, `..`, symlinks pointing outside), so neither
//! content nor templates can read the rest of the disk. It also keeps the text of every file it
//! read, so diagnostics can point into any of them after loading is done.

use std::path::{Component, Path, PathBuf};

use crate::diag::{Code, Diagnostic};
use crate::load::limits::{MAX_ASSET_BYTES, MAX_FILE_BYTES};

/// Index of a file in a [`GameFolder`]'s source table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FileId(pub u32);

/// A byte range in one source file: where a value came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Origin {
    pub file: FileId,
    pub start: usize,
    pub end: usize,
}

impl Origin {
    pub fn new(file: FileId, range: std::ops::Range<usize>) -> Self {
        Origin {
            file,
            start: range.start,
            end: range.end.max(range.start),
        }
    }

    /// A zero-width origin at the start of a file, for faults that concern a whole file.
    pub fn file_start(file: FileId) -> Self {
        Origin {
            file,
            start: 0,
            end: 0,
        }
    }

    pub fn range(&self) -> std::ops::Range<usize> {
        self.start..self.end
    }
}

/// A file's text, as read (invalid UTF-8 replaced so that spans still point somewhere).
#[derive(Debug, Clone)]
pub struct Source {
    /// Path relative to the game folder, with `/` separators: what diagnostics print.
    pub name: String,
    pub text: String,
}

impl Source {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Source {
        Source {
            name: name.into(),
            text: text.into(),
        }
    }
}

/// A game folder on disk, and the table of sources read from it.
#[derive(Debug)]
pub struct GameFolder {
    root: PathBuf,
    /// What to call the folder when it has no path on disk.
    label: Option<String>,
    sources: Vec<Source>,
}

impl GameFolder {
    /// Opens a game folder. Fails with a diagnostic when the path is not a readable directory.
    pub fn open(root: &Path) -> Result<GameFolder, Diagnostic> {
        let root = root.canonicalize().map_err(|err| {
            Diagnostic::error(
                Code::NotAGame,
                format!("cannot open game folder `{}`: {err}", root.display()),
            )
            .with_help(
                "pass the folder that holds game.toml, e.g. `safari check content/safari-zone`",
            )
        })?;
        if !root.is_dir() {
            return Err(Diagnostic::error(
                Code::NotAGame,
                format!("`{}` is not a folder", root.display()),
            )
            .with_help("pass the folder that holds game.toml, not a file inside it"));
        }
        Ok(GameFolder {
            root,
            label: None,
            sources: Vec::new(),
        })
    }

    /// A folder with in-memory sources only, for tests, benchmarks and fuzzing.
    pub fn in_memory() -> GameFolder {
        GameFolder {
            root: PathBuf::new(),
            label: None,
            sources: Vec::new(),
        }
    }

    /// Names an in-memory folder for messages.
    pub fn with_label(mut self, label: impl Into<String>) -> GameFolder {
        self.label = Some(label.into());
        self
    }

    /// The folder as messages name it: its path, or its label.
    pub fn display_name(&self) -> String {
        match &self.label {
            Some(label) => label.clone(),
            None => self.root.display().to_string(),
        }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The folder on disk; `None` for an in-memory one (the game built into safari).
    pub fn on_disk(&self) -> Option<&Path> {
        (!self.root.as_os_str().is_empty()).then_some(self.root.as_path())
    }

    /// Adds a source that did not come from disk (generated or embedded content).
    pub fn add_source(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        let id = FileId(self.sources.len() as u32);
        self.sources.push(Source::new(name, text));
        id
    }

    pub fn source(&self, id: FileId) -> &Source {
        &self.sources[id.0 as usize]
    }

    pub fn sources(&self) -> impl Iterator<Item = (FileId, &Source)> {
        self.sources
            .iter()
            .enumerate()
            .map(|(i, s)| (FileId(i as u32), s))
    }

    /// Looks up a source already read, by its name in the folder.
    pub fn find(&self, name: &str) -> Option<FileId> {
        self.sources()
            .find(|(_, s)| s.name == name)
            .map(|(id, _)| id)
    }

    /// Whether the game folder has something at `relative` (in memory or on disk), even
    /// something [`GameFolder::read`] refuses, such as a link leading outside: a file that is
    /// there but refused is reported as refused, never taken for missing.
    pub fn exists(&self, relative: &str) -> bool {
        self.find(relative).is_some()
            || (!self.root.as_os_str().is_empty()
                && std::fs::symlink_metadata(self.root.join(relative)).is_ok())
    }

    /// Reads a file of the game folder. `referenced_at` is where the path was named (a manifest
    /// key), so that a missing file is reported at the reference.
    pub fn read(
        &mut self,
        relative: &str,
        referenced_at: Option<Origin>,
    ) -> Result<FileId, Diagnostic> {
        if let Some(id) = self.find(relative) {
            return Ok(id);
        }
        let at = |d: Diagnostic| match referenced_at {
            Some(origin) => d.with_primary(origin, "named here"),
            None => d,
        };
        if self.root.as_os_str().is_empty() {
            return Err(at(Diagnostic::error(
                Code::FileUnreadable,
                format!("file `{relative}` does not exist"),
            )));
        }
        let path = self.resolve(relative).map_err(at)?;
        let bytes = read_regular_file(&path, relative, MAX_FILE_BYTES).map_err(at)?;
        self.add_bytes(relative, bytes)
    }

    /// Adds a file's bytes as a source; invalid UTF-8 is reported at its first bad byte.
    pub fn add_bytes(&mut self, relative: &str, bytes: Vec<u8>) -> Result<FileId, Diagnostic> {
        match String::from_utf8(bytes) {
            Ok(text) => Ok(self.add_source(relative, text)),
            Err(err) => {
                let valid_up_to = err.utf8_error().valid_up_to();
                let text = String::from_utf8_lossy(err.as_bytes()).into_owned();
                let id = self.add_source(relative, text);
                // The replacement character is three bytes long in the lossy text.
                let end = (valid_up_to + 3).min(self.source(id).text.len());
                Err(Diagnostic::error(
                    Code::NotUtf8,
                    format!("file `{relative}` is not valid UTF-8"),
                )
                .with_primary(Origin::new(id, valid_up_to..end), "invalid byte here")
                .with_help("save the file with UTF-8 encoding"))
            }
        }
    }

    /// Where a file this folder read lives on disk, to write it back (`safari fix`): inside
    /// the folder, a regular file and not a symbolic link. `None` for in-memory sources.
    pub fn path_on_disk(&self, file: FileId) -> Option<PathBuf> {
        if self.root.as_os_str().is_empty() {
            return None;
        }
        let path = confined(&self.root, &self.source(file).name).ok()?;
        let metadata = std::fs::symlink_metadata(&path).ok()?;
        metadata.file_type().is_file().then_some(path)
    }

    /// A reader for binary files of this folder (images a template names), usable from
    /// other threads. It refuses the same paths [`GameFolder::read`] refuses.
    pub fn reader(&self) -> FolderReader {
        FolderReader {
            root: self.root.clone(),
        }
    }

    /// Every regular file of the folder by its relative path (`/`-separated, sorted): not
    /// hidden ones (`.git`), not what a symbolic link leads to, at most
    /// [`MAX_GAME_FILES`](crate::load::limits::MAX_GAME_FILES). For `safari init --from`,
    /// which copies a game; the files are then read through [`GameFolder::reader`].
    pub fn files(&self) -> Result<Vec<String>, Diagnostic> {
        use crate::load::limits::MAX_GAME_FILES;
        let mut files = Vec::new();
        // Folders still to list, an explicit stack: no recursion on a depth the disk sets.
        let mut folders = vec![String::new()];
        while let Some(folder) = folders.pop() {
            let path = self.root.join(&folder);
            let entries = std::fs::read_dir(&path).map_err(|err| {
                Diagnostic::error(
                    Code::FileUnreadable,
                    format!("folder `{}` cannot be read: {err}", path.display()),
                )
            })?;
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if name.starts_with('.') {
                    continue;
                }
                let relative = if folder.is_empty() {
                    name
                } else {
                    format!("{folder}/{name}")
                };
                match entry.file_type() {
                    Ok(kind) if kind.is_dir() => folders.push(relative),
                    Ok(kind) if kind.is_file() => files.push(relative),
                    // A link is listed as the file it leads to: reading it refuses one that
                    // leads outside the folder (SZ0004), rather than the link being skipped
                    // unsaid. A link to a folder is refused here.
                    Ok(kind) if kind.is_symlink() => match std::fs::metadata(entry.path()) {
                        Ok(target) if target.is_dir() => {
                            return Err(Diagnostic::error(
                                Code::FileUnreadable,
                                format!("`{relative}` is a link to a folder"),
                            )
                            .with_help("put the files themselves in the game folder"));
                        }
                        _ => files.push(relative),
                    },
                    _ => {}
                }
                if files.len() + folders.len() > MAX_GAME_FILES {
                    return Err(Diagnostic::error(
                        Code::LimitExceeded,
                        format!(
                            "the game folder has more than {MAX_GAME_FILES} files and folders"
                        ),
                    )
                    .with_help("a game is a few content files, templates and images: is this the right folder?"));
                }
            }
        }
        files.sort();
        Ok(files)
    }

    /// The size of one of [`GameFolder::files`] in bytes (0 when it cannot be known): what
    /// bounds a copy before a byte of it is read.
    pub fn size_of(&self, relative: &str) -> u64 {
        self.resolve(relative)
            .ok()
            .and_then(|path| std::fs::metadata(path).ok())
            .map_or(0, |m| m.len())
    }

    fn resolve(&self, relative: &str) -> Result<PathBuf, Diagnostic> {
        confined(&self.root, relative)
    }
}

/// The names of the folders in `dir` that are games (hold a manifest), sorted: the packs a
/// checkout's `content/` offers.
pub fn games_in(dir: &Path) -> Vec<String> {
    let mut games: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|entry| entry.path().join(crate::load::MANIFEST).is_file())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    games.sort();
    games
}

/// What a file looks like without reading it: its size and modification time, or `None`
/// when it is not there (`watch` compares them to tell an edit from a read).
pub fn file_state(path: &Path) -> Option<(u64, std::time::SystemTime)> {
    let metadata = std::fs::metadata(path).ok()?;
    Some((metadata.len(), metadata.modified().ok()?))
}

/// Every file under `root`, except under `skip` (an explicit stack: no recursion on a depth
/// the disk sets). A link to a folder is listed, not entered: a game's files never lie behind
/// one ([`GameFolder::files`] refuses it), and entering links that lead back up (`a -> .`)
/// would list paths without end.
pub fn files_under(root: &Path, skip: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.starts_with(skip) {
                continue;
            }
            if entry.file_type().is_ok_and(|kind| kind.is_dir()) {
                stack.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files
}

/// Read access to a game folder's files as bytes, for backends (a template's images).
#[derive(Debug, Clone)]
pub struct FolderReader {
    root: PathBuf,
}

impl FolderReader {
    /// The bytes of a file inside the folder; an error when it does not exist, cannot be
    /// read, or lies outside the folder.
    pub fn read(&self, relative: &str) -> Result<Vec<u8>, Diagnostic> {
        if self.root.as_os_str().is_empty() {
            return Err(Diagnostic::error(
                Code::FileUnreadable,
                format!("file `{relative}` does not exist"),
            ));
        }
        let path = confined(&self.root, relative)?;
        read_regular_file(&path, relative, MAX_ASSET_BYTES)
    }
}

/// Reads a regular file of at most `limit` bytes. Anything else is refused before it is
/// opened: a folder, a FIFO or a device (opening one can block for ever), or a file past the
/// limit (which could exhaust memory).
pub fn read_regular_file(path: &Path, relative: &str, limit: u64) -> Result<Vec<u8>, Diagnostic> {
    use std::io::Read;
    let unreadable =
        |what: String| Diagnostic::error(Code::FileUnreadable, format!("file `{relative}` {what}"));
    let metadata = std::fs::metadata(path).map_err(|err| match err.kind() {
        std::io::ErrorKind::NotFound => unreadable("does not exist".to_string()),
        _ => unreadable(format!("cannot be read: {err}")),
    })?;
    if metadata.is_dir() {
        return Err(Diagnostic::error(
            Code::FileUnreadable,
            format!("`{relative}` is a folder, not a file"),
        ));
    }
    if !metadata.is_file() {
        return Err(unreadable(
            "is not a regular file (a pipe, a socket or a device)".to_string(),
        ));
    }
    let too_big = || {
        Diagnostic::error(
            Code::LimitExceeded,
            format!(
                "file `{relative}` is larger than {}, the most a game file may be",
                crate::load::limits::bytes(limit)
            ),
        )
        .with_help("a file this size is not game content: check that it is the right file")
    };
    if metadata.len() > limit {
        return Err(too_big());
    }
    let file =
        std::fs::File::open(path).map_err(|err| unreadable(format!("cannot be read: {err}")))?;
    let mut bytes = Vec::with_capacity(metadata.len() as usize);
    // The file may have grown since it was measured.
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|err| unreadable(format!("cannot be read: {err}")))?;
    if bytes.len() as u64 > limit {
        return Err(too_big());
    }
    Ok(bytes)
}

/// Maps a path relative to the game folder onto disk, refusing to leave the folder.
fn confined(root: &Path, relative: &str) -> Result<PathBuf, Diagnostic> {
    let escape = || {
        Diagnostic::error(
            Code::OutsideGame,
            format!("path `{relative}` leads outside the game folder"),
        )
        .with_help("name files relative to the game folder, without `..` or a leading `/`")
    };
    let path = Path::new(relative);
    if path
        .components()
        .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return Err(escape());
    }
    let joined = root.join(path);
    match joined.canonicalize() {
        Ok(real) if !real.starts_with(root) => Err(escape()),
        _ => Ok(joined),
    }
}
