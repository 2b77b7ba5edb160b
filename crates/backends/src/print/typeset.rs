//! Typst as a library: one engine per build (fonts parsed once), documents compiled from the
//! templates with the game's data as `sys.inputs`, and Typst's diagnostics turned into ours.
//!
//! In a session of builds (`watch`) a document whose inputs are the last build's, and whose
//! every file Typst read reads the same, is the document typeset then: after a card edit a
//! sheet, which receives no card's flavour text or art, is not typeset again. What was
//! read is recorded as Typst reads it (a [`World`] wrapped around the build's), so a template
//! that reads a file nobody foresaw is still held to it.

use std::sync::{Arc, Mutex};

use typst::diag::{FileResult, Severity as TypstSeverity, SourceDiagnostic};
use typst::foundations::{Bytes, Datetime, Dict, Duration};
use typst::syntax::{FileId as TypstFileId, Source};
use typst::text::{Font, FontBook};
use typst::utils::LazyHash;
use typst::{Library, World, WorldExt};
use typst_as_lib::TypstEngine;
use typst_layout::PagedDocument;

use super::cache::{self, Key, Reuse, Weigh};
use super::files::{TemplateFiles, typst_id};
use crate::diag::{Code, Diagnostic};
use crate::world::Origin;

pub(crate) struct Typesetter<'a> {
    engine: TypstEngine,
    files: &'a TemplateFiles,
    /// The key of where each source is in the folder's table: a kept document's warnings
    /// point into the table of the build that made them, so another table is another key.
    table: Key,
}

/// A typeset document and the warnings Typst gave on the way.
#[derive(Clone)]
pub(crate) struct Typeset {
    pub document: PagedDocument,
    pub warnings: Vec<Diagnostic>,
}

/// A document an earlier build of the session typeset, and what Typst read to make it.
struct Kept {
    typeset: Typeset,
    reads: Reads,
}

/// Every file a compilation read (as a source, or as bytes), with the key of what it got (the
/// error too). A compilation that asked for today's date, or read one file twice and got two
/// things (a save while it ran), is not one a later build can take.
#[derive(Default)]
struct Reads {
    files: std::collections::HashMap<(TypstFileId, bool), Key>,
    today: bool,
    torn: bool,
}

impl Weigh for Kept {
    /// An estimate: what the pages' frames hold, 64 bytes an item (the images and fonts they
    /// draw are shared with Typst's own caches).
    fn bytes(&self) -> usize {
        fn items(frame: &typst::layout::Frame) -> usize {
            // Groups nest as deep as a template's boxes do: counted on a stack.
            let (mut count, mut frames) = (0, vec![frame]);
            while let Some(frame) = frames.pop() {
                for (_, item) in frame.items() {
                    count += 1;
                    if let typst::layout::FrameItem::Group(group) = item {
                        frames.push(&group.frame);
                    }
                }
            }
            count
        }
        let pages: usize = self
            .typeset
            .document
            .pages()
            .iter()
            .map(|p| items(&p.frame))
            .sum();
        64 * (pages + self.reads.files.len()) + 4096
    }
}

impl<'a> Typesetter<'a> {
    pub fn new(files: &'a TemplateFiles) -> Typesetter<'a> {
        let engine = TypstEngine::builder()
            .fonts(
                crate::fonts::FILES
                    .iter()
                    .chain(crate::fonts::FALLBACK.iter())
                    .copied(),
            )
            .add_file_resolver(files.resolver())
            .build();
        Typesetter {
            engine,
            files,
            table: files.table_key(),
        }
    }

    /// Typesets `templates/<template>` with `inputs` as `sys.inputs`. With a cache (`reuse`),
    /// the document an earlier build made of the same template and inputs, when every file
    /// it read reads the same now.
    pub fn typeset(
        &self,
        template: &str,
        inputs: Dict,
        reuse: Reuse,
    ) -> Result<Typeset, Vec<Diagnostic>> {
        let main = typst_id(&format!("/templates/{template}"));
        let key = reuse
            .is_on()
            .then(|| cache::key(&("document", template, &inputs, self.table)));
        let world = self
            .engine
            .world_builder(main)
            .with_inputs(inputs)
            .build()
            .map_err(|err| {
                vec![Diagnostic::error(
                    Code::TemplateError,
                    format!("cannot prepare `{template}`: {err}"),
                )]
            })?;
        if let (Some(cache), Some(key)) = (reuse.0, key) {
            let kept = cache
                .peek::<Kept>(key)
                .filter(|kept| kept.reads.same_in(&world));
            cache.count(kept.is_some());
            if let Some(kept) = kept {
                return Ok(kept.typeset.clone());
            }
        }
        let recording = Recording {
            world: &world,
            reads: Mutex::default(),
        };
        let result = typst::compile::<PagedDocument>(&recording);
        let reads = recording
            .reads
            .into_inner()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let convert = |d: &SourceDiagnostic| self.diagnostic(&world, template, d);
        let warnings: Vec<Diagnostic> = result.warnings.iter().map(convert).collect();
        match result.output {
            Ok(document) => {
                let typeset = Typeset { document, warnings };
                if let (Some(cache), Some(key)) = (reuse.0, key)
                    && reads.keepable()
                {
                    let kept = Kept {
                        typeset: typeset.clone(),
                        reads,
                    };
                    cache.put(key, Arc::new(kept));
                }
                Ok(typeset)
            }
            Err(errors) => Err(errors.iter().map(convert).chain(warnings).collect()),
        }
    }

    fn diagnostic(
        &self,
        world: &impl typst::World,
        template: &str,
        source: &SourceDiagnostic,
    ) -> Diagnostic {
        let code = match source.severity {
            TypstSeverity::Error => Code::TemplateError,
            TypstSeverity::Warning => Code::TemplateWarning,
        };
        let text = format!("typesetting {template}: {}", source.message);
        let mut diagnostic = match source.severity {
            TypstSeverity::Error => Diagnostic::error(code, text),
            TypstSeverity::Warning => Diagnostic::warning(code, text),
        };
        if let Some(origin) = self.origin(world, source.span) {
            diagnostic = diagnostic.with_primary(origin, source.message.to_string());
        } else if let Some(id) = source.span.id() {
            diagnostic.message = format!(
                "{} (in {})",
                diagnostic.message,
                id.vpath().get_without_slash()
            );
        }
        for point in &source.trace {
            if let Some(origin) = self.origin(world, point.span) {
                diagnostic = diagnostic.with_secondary(origin, trace_words(&point.v));
            }
        }
        let mut help = Vec::new();
        for hint in &source.hints {
            match self.origin(world, hint.span) {
                Some(origin) => diagnostic = diagnostic.with_secondary(origin, hint.v.to_string()),
                None => help.push(hint.v.to_string()),
            }
        }
        if !help.is_empty() {
            diagnostic = diagnostic.with_help(help.join("\n"));
        }
        diagnostic
    }

    fn origin(
        &self,
        world: &impl typst::World,
        span: impl Into<typst::syntax::DiagSpan>,
    ) -> Option<Origin> {
        let span = span.into();
        let file = self.files.file_of(span.id()?)?;
        let range = world.range(span)?;
        Some(Origin::new(file, range))
    }
}

impl Reads {
    fn read(&mut self, file: (TypstFileId, bool), key: Key) {
        if self
            .files
            .insert(file, key)
            .is_some_and(|before| before != key)
        {
            self.torn = true;
        }
    }

    /// Whether a later build may take what was made from these reads.
    fn keepable(&self) -> bool {
        !self.today && !self.torn
    }

    /// Whether `world` gives every file read what it gave then.
    fn same_in(&self, world: &impl World) -> bool {
        self.keepable()
            && self.files.iter().all(|(&(id, source), &key)| {
                key == if source {
                    cache::key(&world.source(id))
                } else {
                    cache::key(&world.file(id))
                }
            })
    }
}

/// The build's world, noting every file Typst reads through it.
struct Recording<'w, W> {
    world: &'w W,
    reads: Mutex<Reads>,
}

impl<W> Recording<'_, W> {
    fn note(&self, read: impl FnOnce(&mut Reads)) {
        read(
            &mut self
                .reads
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner()),
        );
    }
}

impl<W: World> World for Recording<'_, W> {
    fn library(&self) -> &LazyHash<Library> {
        self.world.library()
    }

    fn book(&self) -> &LazyHash<FontBook> {
        self.world.book()
    }

    fn main(&self) -> TypstFileId {
        self.world.main()
    }

    fn source(&self, id: TypstFileId) -> FileResult<Source> {
        let source = self.world.source(id);
        let key = cache::key(&source);
        self.note(|reads| reads.read((id, true), key));
        source
    }

    fn file(&self, id: TypstFileId) -> FileResult<Bytes> {
        let bytes = self.world.file(id);
        let key = cache::key(&bytes);
        self.note(|reads| reads.read((id, false), key));
        bytes
    }

    fn font(&self, index: usize) -> Option<Font> {
        self.world.font(index)
    }

    fn today(&self, offset: Option<Duration>) -> Option<Datetime> {
        self.note(|reads| reads.today = true);
        self.world.today(offset)
    }
}

fn trace_words(point: &typst::diag::Tracepoint) -> String {
    use typst::diag::Tracepoint;
    match point {
        Tracepoint::Call(Some(name)) => format!("in this call of `{name}`"),
        Tracepoint::Call(None) => "in this call".to_string(),
        Tracepoint::Show(name) => format!("in this show rule for `{name}`"),
        Tracepoint::Import(_) => "imported here".to_string(),
        Tracepoint::Include(_) => "included here".to_string(),
    }
}
