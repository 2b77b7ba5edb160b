//! The backends of a game made of components: print files, ruleset.json and the Tabletop
//! Simulator export, from the component layer alone.
//!
//! Nothing here knows a game: what a card shows is its fields and its symbol, what the rules
//! add is the module's data (`Rules::ruleset`, `Rules::card_caption`). The print documents
//! are planned as data, as every game's are (`print::plan`), and carried out by the same
//! runner, in this process or the bounded worker.

pub mod data;
pub mod nets;
pub mod ruleset;
pub mod sheets;
pub mod tts;

use serde::Serialize;

use super::print::geometry::{self, PaperSize};
use super::print::plan::{CardImages, Images, Job, Plan, Previews};
use super::print::{PREVIEW_DPI, Printed, Typesetting};
use super::{BuildOptions, Output, Target};
use crate::components::Table;
use crate::components::rules::Rules;
use crate::diag::Diagnostic;
use crate::world::GameFolder;

/// Builds what `options` ask for. Errors are template faults.
pub fn build(
    table: &Table,
    module: &dyn Rules,
    folder: &mut GameFolder,
    options: &BuildOptions,
    typesetting: &mut Typesetting,
) -> Result<Printed, Vec<Diagnostic>> {
    let wants = |target| options.targets.contains(&target);
    let paper = options.print.paper.unwrap_or(table.manifest.paper);
    let data = data::table_data(table, module, paper, options.print.color_space);
    let paper = PaperSize::of(paper);
    let ruleset = ruleset::ruleset(table, module);
    let ruleset_json = serde_json::to_string_pretty(&ruleset).expect("rulesets serialise") + "\n";

    let mut jobs = Vec::new();
    if wants(Target::Deck) {
        for (ix, deck) in data.decks.iter().enumerate() {
            deck_jobs(&mut jobs, ix, deck, paper, options);
        }
    }
    if wants(Target::Sheet) {
        for (ix, sheet) in data.sheets.iter().enumerate() {
            jobs.push(Job {
                inputs: vec![input("sheet", &ix)],
                previews: previews(options, &format!("sheets/{}", sheet.id), None),
                ..Job::new("table-sheet.typ", Some(&format!("sheets/{}.pdf", sheet.id)))
            });
        }
    }
    if wants(Target::Tiles) {
        let pages = sheets::cut_pages(&data, paper);
        if !pages.is_empty() {
            jobs.push(Job {
                inputs: vec![input("pages", &pages)],
                previews: previews(options, "pieces", None),
                ..Job::new("table-pieces.typ", Some("pieces.pdf"))
            });
        }
    }
    if wants(Target::Board) {
        for (ix, board) in data.boards.iter().enumerate() {
            let tiled = sheets::tiled_board(board, paper);
            jobs.push(Job {
                inputs: vec![input("board", &ix), input("pages", &tiled)],
                previews: previews(options, &format!("boards/{}-tiled", board.id), None),
                ..Job::new(
                    "table-board.typ",
                    Some(&format!("boards/{}-tiled.pdf", board.id)),
                )
            });
            let whole = sheets::whole_board(board, geometry::CARD_BLEED_MM);
            jobs.push(Job {
                inputs: vec![input("board", &ix), input("pages", &[whole])],
                ..Job::new("table-board.typ", Some(&format!("boards/{}.pdf", board.id)))
            });
        }
    }
    if wants(Target::Dice) && !data.dice.is_empty() {
        jobs.push(Job {
            inputs: vec![input("pages", &sheets::dice_pages(&data, paper))],
            previews: previews(options, "dice", None),
            ..Job::new("table-dice.typ", Some("dice.pdf"))
        });
    }
    let export = wants(Target::Tts).then(|| tts::Export::plan(&data));
    if let Some(export) = &export {
        jobs.push(Job {
            inputs: vec![input("pictures", &export.pictures)],
            images: Some(Images {
                dpi: tts::DPI,
                names: export.pictures.iter().map(|p| p.file.clone()).collect(),
            }),
            ..Job::new("table-tts.typ", None)
        });
    }

    let mut outputs = Vec::new();
    let mut printed = Printed {
        outputs: Vec::new(),
        warnings: Vec::new(),
        timings: Vec::new(),
    };
    if !jobs.is_empty() {
        let mut files =
            super::print::files::TemplateFiles::load(folder, &[], &[]).map_err(|d| vec![d])?;
        for deck in &table.decks {
            for template in deck.front.iter().chain(&deck.back) {
                files
                    .add_game_template(folder, &template.value)
                    .map_err(|d| vec![d])?;
            }
        }
        let plan = Plan {
            game_id: data.id.clone(),
            game: serde_json::to_value(&data).expect("template data serialises"),
            jobs,
            export: None,
        };
        let (made, done) = super::print::run_plan(&plan, &files, &|_| None, typesetting)?;
        outputs = made;
        printed.warnings = done.warnings;
        printed.timings = done.timings;
    }
    if let Some(export) = export {
        outputs = export.finish(
            &data,
            table,
            &ruleset_json,
            outputs,
            &options.asset_base.url(&data.id),
        );
    }
    if wants(Target::Ruleset) {
        outputs.push(Output {
            path: "ruleset.json".to_string(),
            bytes: ruleset_json.into_bytes(),
        });
    }
    outputs.sort_by(|a, b| a.path.cmp(&b.path));
    printed.outputs = outputs;
    Ok(printed)
}

fn deck_jobs(
    jobs: &mut Vec<Job>,
    ix: usize,
    deck: &data::DeckData,
    paper: PaperSize,
    options: &BuildOptions,
) {
    let (grid, pages) = geometry::card_pages(
        paper,
        deck.card_size.width,
        deck.card_size.height,
        &deck.physical,
        options.print.layout,
        options.print.back_offset,
    );
    let shown = super::print::plan::pages_showing_new_designs(&pages);
    let designs: Vec<String> = deck.designs.iter().map(|d| d.id.clone()).collect();
    jobs.push(Job {
        inputs: vec![
            input("deck", &ix),
            input("grid", &grid),
            input("pages", &pages),
            input(
                "back_offset",
                &[options.print.back_offset.0, options.print.back_offset.1],
            ),
        ],
        previews: previews(options, &format!("decks/{}", deck.id), Some(shown)),
        designs: Some("table-deck-designs.typ".to_string()),
        ..Job::new("table-deck.typ", Some(&format!("decks/{}.pdf", deck.id)))
    });
    jobs.push(Job {
        inputs: vec![input("deck", &ix)],
        card_images: options.print.card_previews.then(|| CardImages {
            folder: format!("preview/cards/{}", deck.id),
            designs: designs.clone(),
        }),
        ..Job::new(
            "table-deck-cards.typ",
            Some(&format!("decks/{}-cards.pdf", deck.id)),
        )
    });
    if let Some(printer) = options.print.printer {
        jobs.push(Job {
            inputs: vec![input("deck", &ix), input("bleed", &printer.bleed_mm())],
            card_images: Some(CardImages {
                folder: format!("{}/{}", printer.folder(), deck.id),
                designs,
            }),
            ..Job::new("table-deck-cards.typ", None)
        });
    }
}

fn previews(options: &BuildOptions, name: &str, pages: Option<Vec<usize>>) -> Option<Previews> {
    options.print.page_previews.then(|| Previews {
        name: name.to_string(),
        dpi: PREVIEW_DPI,
        pages,
    })
}

fn input(name: &str, value: &impl Serialize) -> (String, serde_json::Value) {
    (
        name.to_string(),
        serde_json::to_value(value).expect("print data serialises"),
    )
}
