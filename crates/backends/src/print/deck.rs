//! A deck's print documents, the same for every game: the card sheets for home printing (each
//! design typeset once, placed by reference on pages worked out in [`super::geometry`]), the
//! designs one per page (trim boxes for print shops, the card previews), a print-on-demand
//! service's pictures, and the quantity sheet the services ask for (`copies.csv`).
//!
//! What differs between games is what a card shows, which is the templates' business, and
//! where the files go; both are handed in ([`Deck`]). A rules module's deck and every deck of
//! a game made of components are planned here.

use serde_json::Value;

use super::geometry::{self, PaperSize};
use super::plan::{self, CardImages, Job, Previews, card_file, pages_showing_new_designs};
use super::{PREVIEW_DPI, PrintOptions};
use crate::Output;

/// One deck as print sees it.
pub struct Deck<'a> {
    /// Its files: `<name>.pdf` (the card sheets), `<name>-cards.pdf` (the designs), page
    /// previews `preview/<name>-<page>.png`.
    pub name: String,
    /// Where the card previews go (`preview/cards`), and the deck's folder under a
    /// print-on-demand service's (`printer/<service>/<folder>`; `""` for the service's own).
    pub card_previews: String,
    pub printer_folder: String,
    /// Its templates: the card sheets, the designs the sheets place, and the designs with
    /// trim boxes (which also gives the card pictures).
    pub templates: Templates<'a>,
    /// `sys.inputs` every document of the deck receives besides the game (which deck it is).
    pub inputs: Vec<(String, Value)>,
    /// The card's trim size in mm: width, height.
    pub card_size: (f64, f64),
    /// Each design's id and its copies, in deck order.
    pub designs: Vec<(String, u32)>,
    /// For each physical card in deck order, the index of its design.
    pub physical: Vec<usize>,
}

pub struct Templates<'a> {
    pub sheets: &'a str,
    pub designs: &'a str,
    pub cards: &'a str,
}

/// What of a deck a build asks for.
#[derive(Debug, Clone, Copy)]
pub struct Wanted {
    /// Its print documents (and, with `--printer`, the service's pictures).
    pub print: bool,
    /// The exports drawn from typeset pages read its designs.
    pub keep: bool,
}

impl Deck<'_> {
    /// The jobs that typeset what `wanted` asks for.
    pub fn jobs(&self, paper: PaperSize, options: &PrintOptions, wanted: Wanted) -> Vec<Job> {
        let mut jobs = Vec::new();
        let with = |extra: Vec<(String, Value)>| {
            let mut inputs = self.inputs.clone();
            inputs.extend(extra);
            inputs
        };
        if wanted.print {
            let (grid, pages) = geometry::card_pages(
                paper,
                self.card_size.0,
                self.card_size.1,
                &self.physical,
                options.layout,
                options.back_offset,
            );
            let shown = pages_showing_new_designs(&pages);
            jobs.push(Job {
                inputs: with(vec![
                    input("grid", plan::json(&grid)),
                    input("pages", plan::json(&pages)),
                    input(
                        "back_offset",
                        plan::json(&[options.back_offset.0, options.back_offset.1]),
                    ),
                ]),
                previews: options.page_previews.then(|| Previews {
                    name: self.name.clone(),
                    dpi: PREVIEW_DPI,
                    pages: Some(shown),
                }),
                designs: Some(self.templates.designs.to_string()),
                ..Job::new(self.templates.sheets, Some(&format!("{}.pdf", self.name)))
            });
        }
        if wanted.print || wanted.keep {
            let card_images = (options.card_previews && wanted.print).then(|| CardImages {
                folder: self.card_previews.clone(),
                designs: self.design_ids(),
            });
            let pdf = format!("{}-cards.pdf", self.name);
            jobs.push(Job {
                inputs: with(Vec::new()),
                card_images,
                keep: wanted.keep,
                ..Job::new(self.templates.cards, wanted.print.then_some(pdf.as_str()))
            });
        }
        if let Some(printer) = options.printer
            && wanted.print
        {
            // The designs again, with the service's bleed in place of the game's.
            jobs.push(Job {
                inputs: with(vec![input("bleed", plan::json(&printer.bleed_mm()))]),
                card_images: Some(CardImages {
                    folder: self.printer_folder(printer),
                    designs: self.design_ids(),
                }),
                ..Job::new(self.templates.cards, None)
            });
        }
        jobs
    }

    /// The files a build makes of the deck besides typeset pages: with `--printer`, how many
    /// copies of each picture to order (`copies.csv`).
    pub fn outputs(&self, options: &PrintOptions, wanted: Wanted) -> Vec<Output> {
        match options.printer {
            Some(printer) if wanted.print => vec![Output {
                path: format!("{}/copies.csv", self.printer_folder(printer)),
                bytes: self.copies_csv().into_bytes(),
            }],
            _ => Vec::new(),
        }
    }

    /// How many copies of each design the deck has, as CSV beside the pictures
    /// (`NN-<design>.png` in deck order, then the back, which is on every card): the services
    /// ask for a quantity per face when the deck is ordered.
    pub(crate) fn copies_csv(&self) -> String {
        let ids = self.design_ids();
        let copies = self.designs.iter().map(|(_, copies)| *copies);
        let copies = copies.chain(std::iter::once(self.physical.len() as u32));
        let mut csv = String::from("file,design,copies\n");
        for (index, copies) in copies.enumerate() {
            let design = ids.get(index).map_or("back", String::as_str);
            let file = card_file(&ids, index + 1);
            csv.push_str(&format!("{file},{design},{copies}\n"));
        }
        csv
    }

    fn design_ids(&self) -> Vec<String> {
        self.designs.iter().map(|(id, _)| id.clone()).collect()
    }

    fn printer_folder(&self, printer: super::printer::Printer) -> String {
        if self.printer_folder.is_empty() {
            printer.folder()
        } else {
            format!("{}/{}", printer.folder(), self.printer_folder)
        }
    }
}

fn input(name: &str, value: Value) -> (String, Value) {
    (name.to_string(), value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_quantity_sheet_counts_each_design_and_the_back_on_every_card() {
        let physical = [0, 0, 1, 0];
        let deck = Deck {
            name: "decks/ships".to_string(),
            card_previews: "preview/cards/ships".to_string(),
            printer_folder: "ships".to_string(),
            templates: Templates {
                sheets: "s.typ",
                designs: "d.typ",
                cards: "c.typ",
            },
            inputs: Vec::new(),
            card_size: (63.5, 88.9),
            designs: vec![("anchor".to_string(), 3), ("sail".to_string(), 1)],
            physical: physical.to_vec(),
        };
        assert_eq!(
            deck.copies_csv(),
            "file,design,copies\n01-anchor.png,anchor,3\n02-sail.png,sail,1\nback.png,back,4\n"
        );
        let options = PrintOptions {
            printer: Some(super::super::printer::Printer::Tgc),
            ..PrintOptions::default()
        };
        let wanted = Wanted {
            print: true,
            keep: false,
        };
        let paths: Vec<String> = deck
            .outputs(&options, wanted)
            .into_iter()
            .map(|o| o.path)
            .collect();
        assert_eq!(paths, ["printer/tgc/ships/copies.csv"]);
        let folders: Vec<String> = deck
            .jobs(PaperSize::of(crate::model::Paper::Letter), &options, wanted)
            .into_iter()
            .filter_map(|job| job.card_images.map(|images| images.folder))
            .collect();
        assert_eq!(folders, ["printer/tgc/ships"]);
    }
}
