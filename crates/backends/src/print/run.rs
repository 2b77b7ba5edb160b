//! Carrying a [`Plan`] out: each document compiled by Typst, exported to PDF and rasterised
//! into previews, the documents in parallel (rayon); then the Tabletop Simulator export from
//! the documents it draws on.
//!
//! Files are handed to `progress` as soon as each is made, not gathered here: in the bounded
//! worker they leave the process at once, so its memory holds one document's work at a time
//! rather than every file of the build.

use rayon::prelude::*;
use typst::foundations::{Bytes, Dict, Smart, Value};
use typst_layout::PagedDocument;

use super::cache::{self, Designs, Reuse};
use super::files::TemplateFiles;
use super::plan::{self, Job, Plan, SpriteLayout};
use super::typeset::Typesetter;
use super::{CARD_DPI, PageExports, Timing};
use crate::Output;
use crate::diag::{Code, Diagnostic};

/// The name the exports drawn from pages (the Tabletop Simulator save, the playtest page) go
/// by in progress and timings.
pub(crate) const EXPORTS: &str = "exports";

/// What typesetting reports on the way.
pub enum Progress<'a> {
    /// Work on a document (named by its template) or the exports ([`EXPORTS`]) began.
    Started(&'a str),
    Finished(&'a str),
    /// A file is made.
    Output(Output),
}

/// What a successful run leaves besides its files.
#[derive(Debug, Default)]
pub struct Done {
    pub warnings: Vec<Diagnostic>,
    pub timings: Vec<Timing>,
}

/// Runs `plan` here, handing files to `progress`. Errors (a template that does not compile)
/// come with the warnings found on the way. With a cache (`reuse`), pages, images and PDFs
/// made by earlier builds are taken from it rather than made again.
pub fn run(
    plan: &Plan,
    files: &TemplateFiles,
    exports: PageExports,
    reuse: Reuse,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Done, Vec<Diagnostic>> {
    let game = to_typst(&plan.game);
    let typesetter = Typesetter::new(files);
    // The export (a rules module's, run here where the pages are) may draw on what an earlier
    // build of the session kept of a document it needs, which is then not typeset at all when
    // nothing else wants it.
    let export = plan
        .export
        .as_ref()
        .and_then(|export| exports(&export.rules));
    let reused = export.and_then(|export| export.reusable(plan, reuse));
    let only_for_the_export = |job: &Job| job.pdf.is_none() && job.previews.is_none();
    let jobs: Vec<&Job> = plan
        .jobs
        .iter()
        .filter(|job| {
            !reused
                .as_ref()
                .is_some_and(|(template, _)| *template == job.template && only_for_the_export(job))
        })
        .collect();
    let results: Vec<JobResult> = jobs
        .par_iter()
        .map(|job| {
            progress(Progress::Started(&job.template));
            let result = run_job(&typesetter, &game, &plan.game_id, job, reuse, progress);
            progress(Progress::Finished(&job.template));
            result
        })
        .collect();

    let mut done = Done::default();
    let mut errors = Vec::new();
    let mut kept = Vec::new();
    for result in results {
        match result {
            Ok((warnings, timing, document)) => {
                done.warnings.extend(warnings);
                done.timings.push(timing);
                kept.extend(document);
            }
            Err(failed) => errors.extend(failed),
        }
    }
    if !errors.is_empty() {
        errors.extend(done.warnings);
        return Err(errors);
    }
    if let (Some(exports), Some(export)) = (&plan.export, export) {
        progress(Progress::Started(EXPORTS));
        let clock = std::time::Instant::now();
        let outputs = export.export(exports, &kept, reused.map(|(_, kept)| kept), reuse);
        for output in outputs {
            progress(Progress::Output(output));
        }
        done.timings.push(Timing {
            document: EXPORTS.to_string(),
            typeset_ms: 0.0,
            pdf_ms: 0.0,
            previews_ms: clock.elapsed().as_secs_f64() * 1e3,
        });
        progress(Progress::Finished(EXPORTS));
    }
    Ok(done)
}

type JobResult =
    Result<(Vec<Diagnostic>, Timing, Option<(String, PagedDocument)>), Vec<Diagnostic>>;

fn run_job(
    typesetter: &Typesetter,
    game: &Value,
    game_id: &str,
    job: &Job,
    reuse: Reuse,
    progress: &(dyn Fn(Progress) + Sync),
) -> JobResult {
    let clock = std::time::Instant::now();
    let mut inputs = Dict::new();
    inputs.insert("game".into(), game.clone());
    for (key, value) in &job.inputs {
        inputs.insert(key.as_str().into(), to_typst(value));
    }
    let mut warnings = Vec::new();
    // With a cache, what the designs' pages are, for the keys of the pages that place them.
    let mut design_keys = None;
    if let Some(template) = &job.designs {
        let mut design_inputs = inputs.clone();
        design_inputs.insert("game".into(), game.clone());
        let mut designs = typesetter.typeset(template, design_inputs, reuse)?;
        let bytes = Bytes::new(cache::owned(pdf(
            &mut designs.document,
            game_id,
            template,
            reuse,
        )?));
        if reuse.is_on() {
            design_keys = Some(Designs {
                document: cache::key(&bytes),
                pages: designs.document.pages().iter().map(cache::key).collect(),
            });
        }
        inputs.insert("designs".into(), Value::Bytes(bytes));
        warnings = designs.warnings;
    }
    let mut typeset = typesetter.typeset(&job.template, inputs, reuse)?;
    typeset.warnings.extend(warnings);
    let typeset_ms = clock.elapsed().as_secs_f64() * 1e3;
    if let Some(name) = &job.pdf {
        progress(Progress::Output(Output {
            path: name.clone(),
            bytes: cache::owned(pdf(&mut typeset.document, game_id, name, reuse)?),
        }));
    }
    let pdf_ms = clock.elapsed().as_secs_f64() * 1e3 - typeset_ms;
    if let Some(previews) = &job.previews {
        let pages = previews.pages.as_deref();
        let count = typeset.document.pages().len();
        let last = pages.map_or(count, |pages| {
            pages
                .iter()
                .copied()
                .filter(|&n| n <= count)
                .max()
                .unwrap_or(0)
        });
        page_pngs(
            &typeset.document,
            (previews.dpi, false),
            pages,
            (reuse, design_keys.as_ref()),
            progress,
            |page| plan::preview_name(&previews.name, page, last),
        );
    }
    if let Some(images) = &job.card_images {
        page_pngs(
            &typeset.document,
            (CARD_DPI, true),
            None,
            (reuse, None),
            progress,
            |page| plan::card_image_name(images, page),
        );
    }
    if let Some(images) = &job.images {
        let pages: Vec<usize> = (1..=images.names.len()).collect();
        page_pngs(
            &typeset.document,
            (images.dpi, false),
            Some(&pages),
            (reuse, None),
            progress,
            |page| images.names[page - 1].clone(),
        );
        let all = typeset.document.pages();
        images.sprites.par_iter().for_each(|sprite| {
            let faces: Vec<&typst_layout::Page> = sprite
                .pages
                .iter()
                .filter_map(|&number| all.get(number.wrapping_sub(1)))
                .collect();
            if faces.is_empty() {
                return;
            }
            let png = match sprite.layout {
                SpriteLayout::Grid { columns, rows } => {
                    let scale = images.dpi / 72.0;
                    crate::tts::sprite_sheet(&faces, scale, (columns, rows), reuse)
                }
                SpriteLayout::D6 => crate::tts::die_texture(&faces, reuse),
            };
            let bytes = match std::sync::Arc::try_unwrap(png) {
                Ok(png) => png.bytes,
                Err(shared) => shared.bytes.clone(),
            };
            progress(Progress::Output(Output {
                path: sprite.name.clone(),
                bytes,
            }));
        });
    }
    let timing = Timing {
        document: Plan::document_name(job).to_string(),
        typeset_ms,
        pdf_ms,
        previews_ms: clock.elapsed().as_secs_f64() * 1e3 - typeset_ms - pdf_ms,
    };
    let kept = job.keep.then(|| (job.template.clone(), typeset.document));
    Ok((typeset.warnings, timing, kept))
}

/// The document as PDF; with a cache, the bytes exported before for the same pages (and
/// metadata), as `watch`'s second pass makes the PDFs of its first again.
fn pdf(
    document: &mut PagedDocument,
    game: &str,
    name: &str,
    reuse: Reuse,
) -> Result<std::sync::Arc<Vec<u8>>, Vec<Diagnostic>> {
    let options = typst_pdf::PdfOptions {
        // A stable identifier keeps the PDF's /ID the same from build to build.
        ident: Smart::Custom(format!("{game}/{name}")),
        timestamp: None,
        // Untagged, always: the bytes depend on the content and the options alone.
        tagged: false,
        ..Default::default()
    };
    let export = |document: &PagedDocument| {
        typst_pdf::pdf(document, &options).map_err(|errors| {
            errors
                .iter()
                .map(|e| {
                    Diagnostic::error(
                        Code::TemplateError,
                        format!("cannot write {name}: {}", e.message),
                    )
                })
                .collect::<Vec<_>>()
        })
    };
    match reuse.0 {
        None => export(document).map(std::sync::Arc::new),
        Some(cache) => {
            let info = cache::key(&*document.info_mut());
            let key = cache::key(&("pdf", game, name, document.pages(), info));
            cache.try_get(key, || export(document))
        }
    }
}

/// Pages of a document as PNG at (dpi, with bleed) (`pages` numbered from 1, every page when
/// `None`), named by `name(page number)`. With a cache, a page whose key was rasterised
/// before is not rasterised again (pages placing the card designs are keyed by the designs
/// they show).
fn page_pngs(
    document: &PagedDocument,
    (dpi, bleed): (f64, bool),
    pages: Option<&[usize]>,
    (reuse, designs): (Reuse, Option<&Designs>),
    progress: &(dyn Fn(Progress) + Sync),
    name: impl Fn(usize) -> String + Sync,
) {
    let all = document.pages();
    let numbers: Vec<usize> = match pages {
        Some(pages) => pages.iter().copied().filter(|&n| n <= all.len()).collect(),
        None => (1..=all.len()).collect(),
    };
    numbers.par_iter().for_each(|&number| {
        let page = &all[number - 1];
        let bytes = reuse.get(
            || {
                cache::key(&(
                    "preview",
                    cache::page_key(page, designs),
                    dpi.to_bits(),
                    bleed,
                ))
            },
            || crate::raster::Image::of_page(page, dpi / 72.0, bleed).png(),
        );
        progress(Progress::Output(Output {
            path: name(number),
            bytes: cache::owned(bytes),
        }));
    });
}

/// A JSON value as a Typst value (Typst reads any JSON value).
fn to_typst(json: &serde_json::Value) -> Value {
    serde::Deserialize::deserialize(json).expect("Typst reads any JSON value")
}
