//! What a build typesets, as plain data: each document's template, its inputs as JSON, and
//! what to make of its pages.
//!
//! A plan is the whole of what typesetting needs besides the template sources, so the same
//! plan runs in this process or in the bounded worker (`print::worker`), which receives it
//! over a pipe. Working it out needs the model; carrying it out needs only Typst.

use serde::{Deserialize, Serialize};

use super::geometry::CardPage;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Plan {
    /// The game's id, from which each PDF's stable identifier is derived.
    pub game_id: String,
    /// `sys.inputs.game` of every document whose `inputs` do not give its own.
    pub game: serde_json::Value,
    pub jobs: Vec<Job>,
    /// The exports drawn from typeset pages (the Tabletop Simulator save, the playtest page),
    /// made from the documents jobs keep.
    pub export: Option<ExportPlan>,
}

/// One document to typeset: its template, its inputs, and what to make of its pages.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Job {
    pub template: String,
    /// The PDF to write, or none when the document is only a source for another export.
    pub pdf: Option<String>,
    /// `sys.inputs` besides the plan's `game`; a `game` here replaces the plan's (the Field
    /// Guide's, without what only cards print).
    pub inputs: Vec<(String, serde_json::Value)>,
    pub previews: Option<Previews>,
    /// Each page a card to render at print resolution (the page after the last design is
    /// the back): the card previews, or a print-on-demand service's pictures.
    pub card_images: Option<CardImages>,
    /// Whether the exports draw on this document.
    pub keep: bool,
    /// A template typeset first, whose PDF this one receives as `sys.inputs.designs`: the
    /// card designs, drawn once and placed by reference however many copies are printed.
    pub designs: Option<String>,
    /// Pages rendered to PNG files by name (page `n` to `names[n - 1]`): pictures for the
    /// Tabletop Simulator export of a game made of components.
    #[serde(default)]
    pub images: Option<Images>,
}

/// Pages as PNG files at `dpi`, one per name, in page order; then sprite sheets pasted
/// together from the pages after those.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Images {
    pub dpi: f64,
    pub names: Vec<String>,
    #[serde(default)]
    pub sprites: Vec<Sprite>,
}

/// A PNG file pasted together from pages, each a face: a deck's sheet or a die's texture for
/// Tabletop Simulator.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Sprite {
    pub name: String,
    /// The faces' pages, numbered from 1, in the sheet's order.
    pub pages: Vec<usize>,
    pub layout: SpriteLayout,
}

/// How a sprite's faces are laid out.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub enum SpriteLayout {
    /// Card faces, `columns` to a row (`tts::sprite_sheet`: with a cache, each face is kept
    /// apart).
    Grid { columns: u32, rows: u32 },
    /// A d6's faces in Tabletop Simulator's texture (`tts::die_texture`).
    D6,
}

/// PNG previews of a document's pages: `preview/<name>-<page>.png` ([`preview_name`]).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Previews {
    pub name: String,
    pub dpi: f64,
    /// The pages to preview, numbered from 1; every page when `None`.
    pub pages: Option<Vec<usize>>,
}

/// One PNG per card design and one for the back: `<folder>/NN-<design>.png`, `<folder>/back.png`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CardImages {
    pub folder: String,
    /// Card designs' ids, in page order.
    pub designs: Vec<String>,
}

/// The exports a rules module draws from typeset pages, run where the pages are.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ExportPlan {
    /// The rules module whose exports these are, by id (the runner is handed how to find its
    /// export: [`super::PageExports`]).
    pub rules: String,
    /// The ruleset as written to ruleset.json; the exports read it back from this text.
    pub ruleset_json: String,
    /// The Tabletop Simulator save, whose image URLs are `<asset_base>/<file>`.
    pub tts: Option<TtsSettings>,
    /// The playtest page (`play/index.html`).
    #[serde(default)]
    pub playtest: bool,
    /// The sheet's pictures may be the last export's (see `BuildOptions::last_sheet`).
    #[serde(default)]
    pub last_sheet: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TtsSettings {
    /// Image URLs are `<asset_base>/<file>`.
    pub asset_base: String,
}

impl Job {
    /// A job typesetting `template` into `pdf` (none: only a source for another export), with
    /// no inputs, previews or pictures: callers set what they need with `..Job::new(...)`.
    pub fn new(template: &str, pdf: Option<&str>) -> Job {
        Job {
            template: template.to_string(),
            pdf: pdf.map(str::to_string),
            inputs: Vec::new(),
            previews: None,
            card_images: None,
            keep: false,
            designs: None,
            images: None,
        }
    }
}

impl Plan {
    /// The name a document goes by in messages and timings: its PDF, or its template.
    pub(crate) fn document_name(job: &Job) -> &str {
        job.pdf.as_deref().unwrap_or(&job.template)
    }
}

/// The pages of a deck's PDF worth a preview: every card page that shows a design for
/// the first time, the backs printed behind it, and the calibration pages after the cards.
/// Further copies only repeat a drawing already previewed, so the previews (and the time and
/// memory they take) grow with the designs, not with the copies.
pub(crate) fn pages_showing_new_designs(pages: &[CardPage]) -> Vec<usize> {
    let mut seen = std::collections::HashSet::new();
    let mut shown = Vec::new();
    let mut fronts_shown = false;
    for (index, page) in pages.iter().enumerate() {
        let show = if page.kind == "backs" {
            fronts_shown
        } else {
            let mut new = false;
            for card in &page.cards {
                new |= seen.insert(card.design);
            }
            fronts_shown = new;
            new
        };
        if show {
            shown.push(index + 1);
        }
    }
    // The duplex calibration: its front and back follow the cards.
    shown.extend([pages.len() + 1, pages.len() + 2]);
    shown
}

/// A value as the JSON a plan carries.
pub fn json(value: &impl Serialize) -> serde_json::Value {
    serde_json::to_value(value).expect("print data serialises")
}

/// A page's preview: `preview/<name>-<page>.png`, the page's number padded with zeros to the
/// width of the `last` page previewed (`-01` … `-12`), so that the files sort in page order.
pub fn preview_name(name: &str, page: usize, last: usize) -> String {
    let width = last.max(page).to_string().len();
    format!("preview/{name}-{page:0width$}.png")
}

/// A card picture's path, by its page: `<folder>/NN-<design>.png`, then the back.
pub(crate) fn card_image_name(images: &CardImages, page: usize) -> String {
    format!("{}/{}", images.folder, card_file(&images.designs, page))
}

/// A card picture's file name in its folder, by its page (from 1): `NN-<design>.png` for
/// the designs in order, then `back.png`.
pub(crate) fn card_file(designs: &[String], page: usize) -> String {
    match designs.get(page - 1) {
        Some(design) => format!("{page:02}-{design}.png"),
        None => "back.png".to_string(),
    }
}
