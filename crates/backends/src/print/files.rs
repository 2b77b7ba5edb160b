//! What Typst may read while typesetting, served through the game folder's seam.
//!
//! Typst sees one virtual tree. `/templates/<name>.typ` is the game folder's own template of
//! that name when it ships one, else the built-in template; every other path is a file of the
//! game folder (`/rules.typ`, card art), read through [`FolderReader`], which refuses to
//! leave the folder. Sources are read up front into the [`GameFolder`]'s table so that a
//! Typst error can be reported with a label in the file, like any other diagnostic.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use typst::diag::{FileError, FileResult};
use typst::foundations::Bytes;
use typst::syntax::{FileId as TypstFileId, RootedPath, Source, VirtualPath, VirtualRoot};
use typst_as_lib::file_resolver::FileResolver;

use crate::world::{FileId, FolderReader, GameFolder};

/// The helpers built-in templates import, whatever the game: (name, text).
pub(crate) const COMMON: &[(&str, &str)] = &[
    ("lib.typ", include_str!("../../../../templates/lib.typ")),
    ("sheet.typ", include_str!("../../../../templates/sheet.typ")),
    (
        "deck-pages.typ",
        include_str!("../../../../templates/deck-pages.typ"),
    ),
    (
        "dice-pages.typ",
        include_str!("../../../../templates/dice-pages.typ"),
    ),
];

/// The component layer's templates: (name, text). A rules module's own are
/// [`crate::rules::templates`].
pub(crate) const COMPONENTS: &[(&str, &str)] = &[
    ("table.typ", include_str!("../../../../templates/table.typ")),
    (
        "table-deck.typ",
        include_str!("../../../../templates/table-deck.typ"),
    ),
    (
        "table-deck-designs.typ",
        include_str!("../../../../templates/table-deck-designs.typ"),
    ),
    (
        "table-deck-cards.typ",
        include_str!("../../../../templates/table-deck-cards.typ"),
    ),
    (
        "table-sheet.typ",
        include_str!("../../../../templates/table-sheet.typ"),
    ),
    (
        "table-pieces.typ",
        include_str!("../../../../templates/table-pieces.typ"),
    ),
    (
        "table-board.typ",
        include_str!("../../../../templates/table-board.typ"),
    ),
    (
        "table-dice.typ",
        include_str!("../../../../templates/table-dice.typ"),
    ),
    (
        "table-tts.typ",
        include_str!("../../../../templates/table-tts.typ"),
    ),
];

/// A Typst source of the game's own that a built-in template imports under a fixed path, when
/// the game has it: a rules module says which (for example its rules page).
#[derive(Debug, Clone)]
pub struct GameSource {
    /// The path the templates import it by (such as `/rules.typ`).
    pub typst_path: &'static str,
    /// Its file in the game folder, and where the manifest names it when it does (a file
    /// named there must exist; one left to its default may be absent).
    pub file: String,
    pub named_at: Option<crate::world::Origin>,
    /// The template that typesets it, and where that puts it, for messages.
    pub document: &'static str,
    pub placement: &'static str,
}

/// Every Typst source of a build, read once, and where each is in the folder's table.
pub struct TemplateFiles {
    sources: Arc<HashMap<TypstFileId, (Unparsed, FileId)>>,
    /// The game folder on disk (empty for a game in memory), where binary files are read.
    root: PathBuf,
    reader: FolderReader,
    /// The game's own sources found (typst path, the template that typesets it, where).
    present: Vec<(String, String, String)>,
}

/// A source's text, parsed the first time Typst asks for it: `check` reads every template a
/// build would (so that a missing or unreadable one is its fault too) but typesets none, and a
/// document parses only the templates it imports.
#[derive(Clone)]
struct Unparsed {
    id: TypstFileId,
    text: String,
    parsed: std::sync::OnceLock<Source>,
}

impl Unparsed {
    fn new(id: TypstFileId, text: String) -> Unparsed {
        Unparsed {
            id,
            text,
            parsed: std::sync::OnceLock::new(),
        }
    }

    fn source(&self) -> &Source {
        self.parsed
            .get_or_init(|| Source::new(self.id, self.text.clone()))
    }
}

/// [`TemplateFiles`] as data, for the typesetting worker: the same sources under the same
/// ids, so the worker's diagnostics point into the folder's table as this process's would.
#[derive(Debug, Serialize, Deserialize)]
pub struct TemplateSources {
    root: PathBuf,
    present: Vec<(String, String, String)>,
    /// (Typst path, text, index in the folder's source table).
    sources: Vec<(String, String, u32)>,
}

pub(crate) fn typst_id(path: &str) -> TypstFileId {
    let vpath = VirtualPath::new(path).expect("template paths are valid virtual paths");
    RootedPath::new(VirtualRoot::Project, vpath).intern()
}

impl TemplateFiles {
    /// Reads the templates (the folder's overrides, else the built-in ones: the shared ones,
    /// the component layer's and `templates`, the rules module's own) and the game's own
    /// sources its rules module names, registering each in the folder's source table. Typst
    /// sees each of those under its fixed path wherever the file is.
    pub fn load(
        folder: &mut GameFolder,
        templates: &[(&'static str, &'static str)],
        game_sources: &[GameSource],
    ) -> Result<TemplateFiles, crate::diag::Diagnostic> {
        let mut sources = HashMap::new();
        let built_in = COMMON.iter().chain(templates).chain(COMPONENTS);
        for (name, text) in built_in {
            let relative = format!("templates/{name}");
            let id = if folder.exists(&relative) {
                folder.read(&relative, None)?
            } else {
                // `check` loads the templates before `build` does: one source each.
                let name = format!("<built-in>/{relative}");
                match folder.find(&name) {
                    Some(id) => id,
                    None => folder.add_source(name, *text),
                }
            };
            let typst = typst_id(&format!("/{relative}"));
            let text = folder.source(id).text.clone();
            sources.insert(typst, (Unparsed::new(typst, text), id));
        }
        let mut present = Vec::new();
        for source in game_sources {
            if source.named_at.is_none() && !folder.exists(&source.file) {
                continue;
            }
            let id = folder.read(&source.file, source.named_at)?;
            let typst = typst_id(source.typst_path);
            let text = folder.source(id).text.clone();
            sources.insert(typst, (Unparsed::new(typst, text), id));
            present.push((
                source.typst_path.to_string(),
                source.document.to_string(),
                source.placement.to_string(),
            ));
        }
        Ok(TemplateFiles {
            sources: Arc::new(sources),
            root: folder.root().to_path_buf(),
            reader: folder.reader(),
            present,
        })
    }

    /// Adds a template of the game's own, `templates/<name>` (a deck's front, say), so that a
    /// fault in it is labelled in it.
    pub(crate) fn add_game_template(
        &mut self,
        folder: &mut GameFolder,
        name: &str,
    ) -> Result<(), crate::diag::Diagnostic> {
        let relative = format!("templates/{name}");
        let id = folder.read(&relative, None)?;
        let typst = typst_id(&format!("/{relative}"));
        let text = folder.source(id).text.clone();
        Arc::make_mut(&mut self.sources).insert(typst, (Unparsed::new(typst, text), id));
        Ok(())
    }

    pub(crate) fn to_sources(&self) -> TemplateSources {
        let mut sources: Vec<(String, String, u32)> = self
            .sources
            .iter()
            .map(|(id, (source, file))| {
                let path = id.vpath().get_with_slash().to_string();
                (path, source.text.clone(), file.0)
            })
            .collect();
        sources.sort();
        TemplateSources {
            root: self.root.clone(),
            present: self.present.clone(),
            sources,
        }
    }

    /// The files [`TemplateFiles::to_sources`] described; binary files are read from the
    /// same folder, through the same seam.
    pub(crate) fn from_sources(described: TemplateSources) -> TemplateFiles {
        let reader = if described.root.as_os_str().is_empty() {
            GameFolder::in_memory().reader()
        } else {
            GameFolder::open(&described.root)
                .unwrap_or_else(|_| GameFolder::in_memory())
                .reader()
        };
        let sources = described
            .sources
            .into_iter()
            .map(|(path, text, file)| {
                let typst = typst_id(&path);
                (typst, (Unparsed::new(typst, text), FileId(file)))
            })
            .collect();
        TemplateFiles {
            sources: Arc::new(sources),
            root: described.root,
            reader,
            present: described.present,
        }
    }

    /// Every source by its Typst path (`/templates/lib.typ`), for `build --emit-typst`.
    pub fn texts(&self) -> impl Iterator<Item = (String, &str)> {
        self.sources.iter().map(|(id, (source, _))| {
            (
                id.vpath().get_with_slash().to_string(),
                source.text.as_str(),
            )
        })
    }

    /// The key of where each source is in the folder's source table (diagnostics point there).
    pub(crate) fn table_key(&self) -> super::cache::Key {
        let mut places: Vec<(String, u32)> = self
            .sources
            .iter()
            .map(|(id, (_, file))| (id.vpath().get_with_slash().to_string(), file.0))
            .collect();
        places.sort();
        super::cache::key(&places)
    }

    /// Whether the game has its own source at this Typst path (such as `/rules.typ`).
    pub fn has(&self, typst_path: &str) -> bool {
        self.present.iter().any(|(path, _, _)| path == typst_path)
    }

    /// The game's own sources a template typesets: each one's place in the folder's source
    /// table, its file name, and where the template puts it.
    pub(crate) fn typeset_by(&self, template: &str) -> Vec<(FileId, String, &str)> {
        self.present
            .iter()
            .filter(|(_, document, _)| document == template)
            .filter_map(|(path, _, placement)| {
                let file = self.file_of(typst_id(path))?;
                let name = path.trim_start_matches('/').to_string();
                Some((file, name, placement.as_str()))
            })
            .collect()
    }

    /// Where a Typst file is in the folder's source table.
    pub fn file_of(&self, id: TypstFileId) -> Option<FileId> {
        self.sources.get(&id).map(|(_, file)| *file)
    }

    /// A resolver for the Typst engine: the sources read here, and binary files by reader.
    pub fn resolver(&self) -> Resolver {
        Resolver {
            sources: Arc::clone(&self.sources),
            reader: self.reader.clone(),
        }
    }
}

pub struct Resolver {
    sources: Arc<HashMap<TypstFileId, (Unparsed, FileId)>>,
    reader: FolderReader,
}

impl Resolver {
    fn relative(id: TypstFileId) -> FileResult<String> {
        if matches!(id.root(), VirtualRoot::Package(_)) {
            // Packages would need the network; a game's print files must build offline.
            return Err(FileError::Other(Some(
                "Typst packages are not available: copy what you need into the game folder".into(),
            )));
        }
        Ok(id.vpath().get_without_slash().to_string())
    }

    fn bytes(&self, id: TypstFileId) -> FileResult<Vec<u8>> {
        let relative = Self::relative(id)?;
        self.reader
            .read(&relative)
            .map_err(|diagnostic| FileError::Other(Some(diagnostic.message.into())))
    }
}

impl FileResolver for Resolver {
    fn resolve_binary(&self, id: TypstFileId) -> FileResult<Cow<'_, Bytes>> {
        if let Some((source, _)) = self.sources.get(&id) {
            return Ok(Cow::Owned(Bytes::from_string(source.text.clone())));
        }
        Ok(Cow::Owned(Bytes::new(self.bytes(id)?)))
    }

    fn resolve_source(&self, id: TypstFileId) -> FileResult<Cow<'_, Source>> {
        if let Some((source, _)) = self.sources.get(&id) {
            return Ok(Cow::Borrowed(source.source()));
        }
        let bytes = self.bytes(id)?;
        let text = String::from_utf8(bytes).map_err(|_| FileError::InvalidUtf8)?;
        Ok(Cow::Owned(Source::new(id, text)))
    }
}
