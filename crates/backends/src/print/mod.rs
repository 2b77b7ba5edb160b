//! The print backend: the documents a plan lists (a game's sheets, decks, boards and dice) as
//! print-ready PDFs, and PNG previews of their pages.
//!
//! Layout is Typst's: each document is a template in `templates/` compiled with the data its
//! plan gives it and exported with typst-pdf; previews are the same pages rendered by
//! typst-render, so what the designer looks at is what prints. Card placement on the page is
//! worked out in [`geometry`], where the tests can hold it to the printed marks.
//!
//! A build is planned here ([`plan`]: each document's template and inputs, as data) and
//! carried out by [`run`], in this process or, for the command line, in a worker process
//! bounded in time and memory ([`worker`]): a template is a program, and Typst can neither
//! be stopped nor limited from inside the process it runs in.

pub mod cache;
pub mod deck;
pub mod emit;
pub mod files;
pub mod geometry;
pub mod plan;
pub mod printer;
pub mod run;
mod typeset;
pub mod wire;
pub mod worker;

use super::Output;
use crate::diag::Diagnostic;
use crate::model::Paper;
pub use cache::RenderCache;
use files::TemplateFiles;
use geometry::DeckLayout;
pub use plan::{ExportPlan, TtsSettings};
use worker::Worker;

/// Preview pages are rendered at this resolution: enough to read 7 pt text on screen.
pub const PREVIEW_DPI: f64 = 100.0;
/// Card previews are rendered at print resolution.
pub(crate) const CARD_DPI: f64 = 300.0;

/// The print documents, for `build --only`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Document {
    Sheet,
    Deck,
    Dice,
}

#[derive(Debug, Clone)]
pub struct PrintOptions {
    /// Paper for every page; the manifest's when `None`.
    pub paper: Option<Paper>,
    pub layout: DeckLayout,
    /// Millimetres to move every back page by (x right, y down), for a printer's drift.
    pub back_offset: (f64, f64),
    pub documents: Vec<Document>,
    /// PNG previews of every page.
    pub page_previews: bool,
    /// One PNG per card design, at print resolution.
    pub card_previews: bool,
    /// One PNG per card face and back for a print-on-demand service, in `printer/<name>/`.
    pub printer: Option<printer::Printer>,
    /// The colour space the templates' palette is written in.
    pub color_space: ColorSpace,
}

/// The colour space of the print files' colours (`--color cmyk`): the templates read it as
/// `game.color_space` and convert their palette, which Typst writes as DeviceCMYK. Pictures
/// (card art) keep their own; Typst 0.15 cannot write PDF/X, nor attach an output profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ColorSpace {
    #[default]
    Rgb,
    Cmyk,
}

impl Default for PrintOptions {
    fn default() -> Self {
        PrintOptions {
            paper: None,
            layout: DeckLayout::Duplex,
            back_offset: (0.0, 0.0),
            documents: vec![Document::Sheet, Document::Deck, Document::Dice],
            page_previews: true,
            card_previews: false,
            printer: None,
            color_space: ColorSpace::Rgb,
        }
    }
}

/// The print files and the warnings typesetting gave; or the errors that stopped it.
pub struct Printed {
    pub outputs: Vec<Output>,
    pub warnings: Vec<Diagnostic>,
    /// Per document: milliseconds spent in Typst (compile), in PDF export and in previews.
    pub timings: Vec<Timing>,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Timing {
    pub document: String,
    pub typeset_ms: f64,
    pub pdf_ms: f64,
    pub previews_ms: f64,
}

/// Where typesetting runs.
pub enum Typesetting {
    /// In this process: nothing bounds a template's time or memory. For the library's
    /// callers (tests, benchmarks) that typeset content they trust.
    InProcess,
    /// In this process, keeping rasterised images and PDFs from build to build so that a
    /// rebuild makes only what changed (what `watch` does in its worker): for tests and
    /// benchmarks of that path.
    Session(RenderCache),
    /// In a worker process bounded in time and memory, reused from build to build (the
    /// command line's way).
    Bounded(Worker),
}

/// Exports drawn from typeset pages, run where they were typeset (in the bounded worker, for
/// the command line: pages do not cross the pipe): a rules module's Tabletop Simulator save
/// and playtest page. A plan names them by the module's id (`ExportPlan::rules`).
pub trait PageExport: Sync {
    /// What a session's cache kept of a document the export draws on, and that document's
    /// template: a job of that template typeset only for the export is then skipped.
    fn reusable(
        &self,
        plan: &plan::Plan,
        reuse: cache::Reuse,
    ) -> Option<(String, std::sync::Arc<dyn std::any::Any + Send + Sync>)>;

    /// The export's files, from the documents the plan kept (by template) and what
    /// [`PageExport::reusable`] found.
    fn export(
        &self,
        plan: &plan::ExportPlan,
        kept: &[(String, typst_layout::PagedDocument)],
        reused: Option<std::sync::Arc<dyn std::any::Any + Send + Sync>>,
        reuse: cache::Reuse,
    ) -> Vec<Output>;
}

/// The export a plan names, by its rules module's id: what only the rules modules know,
/// handed to the runner by the layer that knows them (`rules::page_export`), here or in the
/// typesetting worker.
pub(crate) type PageExports<'a> = &'a (dyn Fn(&str) -> Option<&'static dyn PageExport> + Sync);

/// Carries `plan` out where `typesetting` says: its files, and the warnings and timings. In
/// this process the plan's export is found with `exports`; the worker finds it with its own.
pub fn run_plan(
    plan: &plan::Plan,
    files: &TemplateFiles,
    exports: PageExports,
    typesetting: &mut Typesetting,
) -> Result<(Vec<Output>, run::Done), Vec<Diagnostic>> {
    let in_process = |reuse: cache::Reuse| {
        let outputs = std::sync::Mutex::new(Vec::new());
        let done = run::run(plan, files, exports, reuse, &|progress| {
            if let run::Progress::Output(output) = progress {
                outputs
                    .lock()
                    .expect("no panic holds the lock")
                    .push(output);
            }
        });
        done.map(|done| (outputs.into_inner().expect("no panic holds the lock"), done))
    };
    match typesetting {
        Typesetting::InProcess => in_process(cache::Reuse::NONE),
        Typesetting::Session(cache) => {
            let result = in_process(cache::Reuse(Some(cache)));
            cache.finish_build();
            result
        }
        Typesetting::Bounded(worker) => worker.run(plan, files),
    }
}

impl Typesetting {
    /// The same, for a session of rebuilds (`watch`): images and PDFs a build made are kept
    /// for the next, which rasterises and encodes only what changed. Outputs are the same
    /// bytes either way.
    pub fn for_session(self) -> Typesetting {
        match self {
            Typesetting::InProcess => Typesetting::Session(RenderCache::new(SESSION_BUDGET)),
            Typesetting::Bounded(worker) => Typesetting::Bounded(worker.reusing_renders()),
            session => session,
        }
    }
}

/// The bytes a session in this process keeps (the worker keeps an eighth of its memory
/// bound).
const SESSION_BUDGET: usize = 512 << 20;
