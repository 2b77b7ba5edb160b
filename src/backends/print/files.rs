//! What Typst may read while typesetting, served through the game folder's seam.
//!
//! Typst sees one virtual tree. `/templates/<name>.typ` is the game folder's own template of
//! that name when it ships one, else the built-in template; every other path is a file of the
//! game folder (`/park-rules.typ`, card art), read through [`FolderReader`], which refuses to
//! leave the folder. Sources are read up front into the [`GameFolder`]'s table so that a
//! Typst error can be reported with a label in the file, like any other diagnostic.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use typst::diag::{FileError, FileResult};
use typst::foundations::Bytes;
use typst::syntax::{FileId as TypstFileId, RootedPath, Source, VirtualPath, VirtualRoot};
use typst_as_lib::file_resolver::FileResolver;

use crate::world::{FileId, FolderReader, GameFolder};

/// The built-in templates: (name, text).
pub const BUILT_IN: &[(&str, &str)] = &[
    ("lib.typ", include_str!("../../../templates/lib.typ")),
    ("card.typ", include_str!("../../../templates/card.typ")),
    (
        "field-guide.typ",
        include_str!("../../../templates/field-guide.typ"),
    ),
    (
        "encounter-deck.typ",
        include_str!("../../../templates/encounter-deck.typ"),
    ),
    ("cards.typ", include_str!("../../../templates/cards.typ")),
    (
        "card-designs.typ",
        include_str!("../../../templates/card-designs.typ"),
    ),
    ("dice.typ", include_str!("../../../templates/dice.typ")),
    (
        "die-faces.typ",
        include_str!("../../../templates/die-faces.typ"),
    ),
    (
        "park-rules-page.typ",
        include_str!("../../../templates/park-rules-page.typ"),
    ),
    ("table.typ", include_str!("../../../templates/table.typ")),
    (
        "table-deck.typ",
        include_str!("../../../templates/table-deck.typ"),
    ),
    (
        "table-deck-designs.typ",
        include_str!("../../../templates/table-deck-designs.typ"),
    ),
    (
        "table-deck-cards.typ",
        include_str!("../../../templates/table-deck-cards.typ"),
    ),
    (
        "table-pieces.typ",
        include_str!("../../../templates/table-pieces.typ"),
    ),
    (
        "table-board.typ",
        include_str!("../../../templates/table-board.typ"),
    ),
    (
        "table-dice.typ",
        include_str!("../../../templates/table-dice.typ"),
    ),
    (
        "table-tts.typ",
        include_str!("../../../templates/table-tts.typ"),
    ),
];

/// The game's Park Rules, typeset on the back of the Field Guide: its path as the templates
/// import it (and its default name in the game folder).
pub const PARK_RULES: &str = "park-rules.typ";

/// Every Typst source of a build, read once, and where each is in the folder's table.
pub struct TemplateFiles {
    sources: HashMap<TypstFileId, (Source, FileId)>,
    /// The game folder on disk (empty for a game in memory), where binary files are read.
    root: PathBuf,
    reader: FolderReader,
    pub has_park_rules: bool,
}

/// [`TemplateFiles`] as data, for the typesetting worker: the same sources under the same
/// ids, so the worker's diagnostics point into the folder's table as this process's would.
#[derive(Debug, Serialize, Deserialize)]
pub struct TemplateSources {
    root: PathBuf,
    has_park_rules: bool,
    /// (Typst path, text, index in the folder's source table).
    sources: Vec<(String, String, u32)>,
}

pub fn typst_id(path: &str) -> TypstFileId {
    let vpath = VirtualPath::new(path).expect("template paths are valid virtual paths");
    RootedPath::new(VirtualRoot::Project, vpath).intern()
}

impl TemplateFiles {
    /// Reads the templates (the folder's overrides, else the built-in ones) and the Park
    /// Rules (`park_rules`: the manifest's file, and where it names one), registering each in
    /// the folder's source table. Typst sees the Park Rules as `/park-rules.typ` wherever the
    /// file is.
    pub fn load(
        folder: &mut GameFolder,
        park_rules: &(String, Option<crate::world::Origin>),
    ) -> Result<TemplateFiles, crate::diag::Diagnostic> {
        let mut sources = HashMap::new();
        for (name, text) in BUILT_IN {
            let relative = format!("templates/{name}");
            let id = if folder.exists(&relative) {
                folder.read(&relative, None)?
            } else {
                folder.add_source(format!("<built-in>/{relative}"), *text)
            };
            let typst = typst_id(&format!("/{relative}"));
            let text = folder.source(id).text.clone();
            sources.insert(typst, (Source::new(typst, text), id));
        }
        let (path, named_at) = park_rules;
        let has_park_rules = named_at.is_some() || folder.exists(path);
        if has_park_rules {
            let id = folder.read(path, *named_at)?;
            let typst = typst_id(&format!("/{PARK_RULES}"));
            let text = folder.source(id).text.clone();
            sources.insert(typst, (Source::new(typst, text), id));
        }
        Ok(TemplateFiles {
            sources,
            root: folder.root().to_path_buf(),
            reader: folder.reader(),
            has_park_rules,
        })
    }

    /// Adds a template of the game's own, `templates/<name>` (a deck's front, say), so that a
    /// fault in it is labelled in it.
    pub fn add_game_template(
        &mut self,
        folder: &mut GameFolder,
        name: &str,
    ) -> Result<(), crate::diag::Diagnostic> {
        let relative = format!("templates/{name}");
        let id = folder.read(&relative, None)?;
        let typst = typst_id(&format!("/{relative}"));
        let text = folder.source(id).text.clone();
        self.sources.insert(typst, (Source::new(typst, text), id));
        Ok(())
    }

    pub fn to_sources(&self) -> TemplateSources {
        let mut sources: Vec<(String, String, u32)> = self
            .sources
            .iter()
            .map(|(id, (source, file))| {
                let path = id.vpath().get_with_slash().to_string();
                (path, source.text().to_string(), file.0)
            })
            .collect();
        sources.sort();
        TemplateSources {
            root: self.root.clone(),
            has_park_rules: self.has_park_rules,
            sources,
        }
    }

    /// The files [`TemplateFiles::to_sources`] described; binary files are read from the
    /// same folder, through the same seam.
    pub fn from_sources(described: TemplateSources) -> TemplateFiles {
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
                (typst, (Source::new(typst, text), FileId(file)))
            })
            .collect();
        TemplateFiles {
            sources,
            root: described.root,
            reader,
            has_park_rules: described.has_park_rules,
        }
    }

    /// Every source by its Typst path (`/templates/field-guide.typ`), for `build --emit-typst`.
    pub fn texts(&self) -> impl Iterator<Item = (String, &str)> {
        self.sources
            .iter()
            .map(|(id, (source, _))| (id.vpath().get_with_slash().to_string(), source.text()))
    }

    /// Where a Typst file is in the folder's source table, and its Typst source.
    pub fn lookup(&self, id: TypstFileId) -> Option<&(Source, FileId)> {
        self.sources.get(&id)
    }

    /// A resolver for the Typst engine: the sources read here, and binary files by reader.
    pub fn resolver(&self) -> Resolver {
        Resolver {
            sources: self
                .sources
                .iter()
                .map(|(id, (source, _))| (*id, source.clone()))
                .collect(),
            reader: self.reader.clone(),
        }
    }
}

pub struct Resolver {
    sources: HashMap<TypstFileId, Source>,
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
        if let Some(source) = self.sources.get(&id) {
            return Ok(Cow::Owned(Bytes::from_string(source.text().to_string())));
        }
        Ok(Cow::Owned(Bytes::new(self.bytes(id)?)))
    }

    fn resolve_source(&self, id: TypstFileId) -> FileResult<Cow<'_, Source>> {
        if let Some(source) = self.sources.get(&id) {
            return Ok(Cow::Borrowed(source));
        }
        let bytes = self.bytes(id)?;
        let text = String::from_utf8(bytes).map_err(|_| FileError::InvalidUtf8)?;
        Ok(Cow::Owned(Source::new(id, text)))
    }
}
