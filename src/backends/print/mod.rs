//! The print backend: the Field Guide, the Encounter Deck and the dice as print-ready PDFs,
//! and PNG previews of their pages.
//!
//! Layout is Typst's: each document is a template in `templates/` compiled with the game's
//! data (see [`data`]) and exported with typst-pdf; previews are the same pages rendered by
//! typst-render, so what the designer looks at is what prints. Card placement on the page is
//! worked out in [`geometry`], where the tests can hold it to the printed marks.

pub mod data;
pub mod files;
pub mod geometry;
mod typeset;

use rayon::prelude::*;
use typst::foundations::{Dict, IntoValue, Smart};
use typst_layout::PagedDocument;

use super::Output;
use crate::diag::{Code, Diagnostic};
use crate::layout::SheetLayout;
use crate::model::{Game, Paper};
use files::TemplateFiles;
use geometry::{DeckLayout, PaperSize};
use typeset::{Typesetter, to_value};

/// Preview pages are rendered at this resolution: enough to read 7 pt text on screen.
pub const PREVIEW_DPI: f64 = 100.0;
/// Card previews are rendered at print resolution.
pub const CARD_DPI: f64 = 300.0;

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
    /// Also typeset what the Tabletop Simulator export draws from, and hand it back.
    pub tts_sources: bool,
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
            tts_sources: false,
        }
    }
}

/// The print files and the warnings typesetting gave; or the errors that stopped it.
pub struct Printed {
    pub outputs: Vec<Output>,
    pub warnings: Vec<Diagnostic>,
    /// Per document: milliseconds spent in Typst (compile), in PDF export and in previews.
    pub timings: Vec<Timing>,
    /// The typeset documents, by template, when `tts_sources` asked for them.
    pub documents: Vec<(&'static str, PagedDocument)>,
}

#[derive(Debug, Clone)]
pub struct Timing {
    pub document: &'static str,
    pub typeset_ms: f64,
    pub pdf_ms: f64,
    pub previews_ms: f64,
}

/// One document to typeset: its template, its inputs, and what to make of its pages.
struct Job {
    template: &'static str,
    /// The PDF to write, or none when the document is only a source for another export.
    pdf: Option<&'static str>,
    inputs: Dict,
    previews: Option<(&'static str, f64)>,
    card_previews: bool,
    keep: bool,
}

/// Typesets what `options` ask for. `layout` is the Field Guide as `check` laid it out on
/// the same paper; it is needed when the sheet (or the export's sheet tiles) is made.
pub fn print(
    game: &Game,
    layout: Option<&SheetLayout>,
    files: &TemplateFiles,
    options: &PrintOptions,
) -> Result<Printed, Vec<Diagnostic>> {
    let paper = options.paper.unwrap_or(game.manifest.paper);
    let data = data::game_data(game, paper, layout, files.has_park_rules);
    let game_value = to_value(&data);
    let inputs = |extra: &[(&str, typst::foundations::Value)]| {
        let mut dict = Dict::new();
        dict.insert("game".into(), game_value.clone());
        for (key, value) in extra {
            dict.insert((*key).into(), value.clone());
        }
        dict
    };
    let previews = |name| options.page_previews.then_some((name, PREVIEW_DPI));
    let wants = |document| options.documents.contains(&document);
    let tts = options.tts_sources;
    let mut jobs = Vec::new();
    if wants(Document::Sheet) || tts {
        jobs.push(Job {
            template: "field-guide.typ",
            pdf: wants(Document::Sheet).then_some("field-guide.pdf"),
            inputs: inputs(&[]),
            previews: previews("field-guide").filter(|_| wants(Document::Sheet)),
            card_previews: false,
            keep: tts,
        });
    }
    if wants(Document::Deck) {
        let size = game.manifest.card_size;
        let (grid, pages) = geometry::card_pages(
            PaperSize::of(paper),
            size.width_mm,
            size.height_mm,
            &data.deck.physical,
            options.layout,
            options.back_offset,
        );
        jobs.push(Job {
            template: "encounter-deck.typ",
            pdf: Some("encounter-deck.pdf"),
            inputs: inputs(&[
                ("grid", to_value(&grid)),
                ("pages", to_value(&pages)),
                (
                    "back_offset",
                    vec![options.back_offset.0, options.back_offset.1].into_value(),
                ),
            ]),
            previews: previews("encounter-deck"),
            card_previews: false,
            keep: false,
        });
    }
    if wants(Document::Deck) || tts {
        jobs.push(Job {
            template: "cards.typ",
            pdf: wants(Document::Deck).then_some("encounter-deck-cards.pdf"),
            inputs: inputs(&[]),
            previews: None,
            card_previews: options.card_previews && wants(Document::Deck),
            keep: tts,
        });
    }
    if wants(Document::Dice) {
        jobs.push(Job {
            template: "dice.typ",
            pdf: Some("dice.pdf"),
            inputs: inputs(&[]),
            previews: previews("dice"),
            card_previews: false,
            keep: false,
        });
    }
    if tts {
        jobs.push(Job {
            template: "die-faces.typ",
            pdf: None,
            inputs: inputs(&[]),
            previews: None,
            card_previews: false,
            keep: true,
        });
    }

    let typesetter = Typesetter::new(files);
    type JobResult = Result<
        (
            Vec<Output>,
            Vec<Diagnostic>,
            Timing,
            Option<(&'static str, PagedDocument)>,
        ),
        Vec<Diagnostic>,
    >;
    let results: Vec<JobResult> = jobs
        .into_par_iter()
        .map(|job| {
            let clock = std::time::Instant::now();
            let typeset = typesetter.typeset(job.template, job.inputs)?;
            let typeset_ms = clock.elapsed().as_secs_f64() * 1e3;
            let mut outputs = Vec::new();
            if let Some(name) = job.pdf {
                outputs.push(Output {
                    path: name.to_string(),
                    bytes: pdf(&typeset.document, &data.id, name)?,
                });
            }
            let pdf_ms = clock.elapsed().as_secs_f64() * 1e3 - typeset_ms;
            if let Some((name, dpi)) = job.previews {
                outputs.extend(page_pngs(&typeset.document, dpi, false, |page| {
                    format!("preview/{name}-{page}.png")
                }));
            }
            if job.card_previews {
                let designs = &data.deck.designs;
                outputs.extend(page_pngs(
                    &typeset.document,
                    CARD_DPI,
                    true,
                    |page| match designs.get(page - 1) {
                        Some(design) => format!("preview/cards/{page:02}-{}.png", design.id),
                        None => "preview/cards/back.png".to_string(),
                    },
                ));
            }
            let timing = Timing {
                document: job.pdf.unwrap_or(job.template),
                typeset_ms,
                pdf_ms,
                previews_ms: clock.elapsed().as_secs_f64() * 1e3 - typeset_ms - pdf_ms,
            };
            let kept = job.keep.then_some((job.template, typeset.document));
            Ok((outputs, typeset.warnings, timing, kept))
        })
        .collect();

    let mut outputs = Vec::new();
    let mut warnings = Vec::new();
    let mut errors = Vec::new();
    let mut timings = Vec::new();
    let mut documents = Vec::new();
    for result in results {
        match result {
            Ok((made, warned, timing, kept)) => {
                outputs.extend(made);
                warnings.extend(warned);
                timings.push(timing);
                documents.extend(kept);
            }
            Err(failed) => errors.extend(failed),
        }
    }
    if !files.has_park_rules && (wants(Document::Sheet) || tts) {
        warnings.push(
            Diagnostic::warning(
                Code::NoParkRules,
                "the game has no park-rules.typ: the back of the Field Guide is a generated reference page",
            )
            .with_help("write the Park Rules as Typst markup in park-rules.typ in the game folder"),
        );
    }
    if errors.iter().any(Diagnostic::is_error) {
        errors.extend(warnings);
        return Err(errors);
    }
    Ok(Printed {
        outputs,
        warnings,
        timings,
        documents,
    })
}

fn pdf(document: &PagedDocument, game: &str, name: &str) -> Result<Vec<u8>, Vec<Diagnostic>> {
    let options = typst_pdf::PdfOptions {
        // A stable identifier keeps the PDF's /ID the same from build to build.
        ident: Smart::Custom(format!("{game}/{name}")),
        timestamp: None,
        tagged: std::env::var_os("SAFARI_TAGGED").is_some(),
        ..Default::default()
    };
    typst_pdf::pdf(document, &options).map_err(|errors| {
        errors
            .iter()
            .map(|e| {
                Diagnostic::error(
                    Code::TemplateError,
                    format!("cannot write {name}: {}", e.message),
                )
            })
            .collect()
    })
}

/// Every page of a document as PNG, named by `name(page number from 1)`.
fn page_pngs(
    document: &PagedDocument,
    dpi: f64,
    bleed: bool,
    name: impl Fn(usize) -> String + Sync,
) -> Vec<Output> {
    document
        .pages()
        .par_iter()
        .enumerate()
        .map(|(index, page)| Output {
            path: name(index + 1),
            bytes: crate::raster::Image::of_page(page, dpi / 72.0, bleed).png(),
        })
        .collect()
}
