//! The playtest page (`play/index.html`): Safari Zone RNW to play in a browser, from its
//! ruleset alone, with the sheet, the cards and the dice drawn as the print files draw them.
//!
//! The page itself (the engine as WebAssembly, its script) is `safari_playtest`'s; this module
//! hands it the ruleset and the typeset pages as SVG: the Field Guide's two sides, each card
//! design and its back, each die face. The boxes' places on the sheet are in the ruleset
//! (`field_guide.page`), so the page marks a box where the paper has it.

use std::collections::HashMap;

use rayon::prelude::*;
use typst_layout::{Page, PagedDocument};

use crate::backends::Output;
use crate::backends::print::cache;
use crate::safari_zone::ruleset::Ruleset;

/// A typeset page as an SVG document, at its trim size.
fn svg(page: &Page) -> String {
    typst_svg::svg(
        page,
        &typst_svg::SvgOptions {
            render_bleed: false,
            pretty: false,
        },
    )
}

/// The Field Guide's two sides as SVG, and its size in mm.
pub struct SheetPictures {
    front: String,
    back: String,
    size_mm: (f64, f64),
}

impl SheetPictures {
    /// The sheet's first two pages (the Field Guide and the Park Rules).
    pub fn of(document: &PagedDocument) -> SheetPictures {
        let pages = document.pages();
        let (front, back) = rayon::join(
            || pages.first().map(svg).unwrap_or_default(),
            || pages.get(1).map(svg).unwrap_or_default(),
        );
        let size_mm = pages.first().map_or((0.0, 0.0), |page| {
            let size = page.frame.size();
            (size.x.to_mm(), size.y.to_mm())
        });
        SheetPictures {
            front,
            back,
            size_mm,
        }
    }
}

impl cache::Weigh for SheetPictures {
    fn bytes(&self) -> usize {
        self.front.len() + self.back.len()
    }
}

/// The page, from the ruleset and the typeset sheet, cards (each design, then the back) and
/// die faces (every face of every die, in the ruleset's order).
pub fn page(
    ruleset: &Ruleset,
    ruleset_json: &str,
    sheet: &SheetPictures,
    cards: &PagedDocument,
    die_faces: &PagedDocument,
) -> Output {
    let card_pages = cards.pages();
    let (designs, back) = card_pages.split_at(card_pages.len().saturating_sub(1));
    let mut faces: Vec<String> = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    let drawn: Vec<String> = die_faces.pages().par_iter().map(svg).collect();
    let mut face_pages = drawn.into_iter();
    let dice = ruleset
        .dice
        .iter()
        .map(|set| {
            set.dice
                .iter()
                .map(|die| {
                    die.iter()
                        .filter_map(|_| face_pages.next())
                        .map(|svg| {
                            *seen.entry(svg.clone()).or_insert_with(|| {
                                faces.push(svg);
                                faces.len() - 1
                            })
                        })
                        .collect()
                })
                .collect()
        })
        .collect();
    let pictures = safari_playtest::Pictures {
        sheet: vec![sheet.front.clone(), sheet.back.clone()],
        sheet_mm: sheet.size_mm,
        cards: ruleset
            .deck
            .cards
            .par_iter()
            .zip(designs)
            .map(|(card, page)| (card.id.clone(), svg(page)))
            .collect(),
        card_back: back.first().map(svg),
        faces,
        dice,
    };
    Output {
        path: "play/index.html".to_string(),
        bytes: safari_playtest::page(&ruleset.game.name, ruleset_json, &pictures),
    }
}
