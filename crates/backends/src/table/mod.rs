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
pub mod stale;
pub mod tts;

use serde::Serialize;

use super::print::files::TemplateFiles;
use super::print::geometry::{self, PaperSize};
use super::print::plan::{Job, Plan, Previews};
use super::print::{PREVIEW_DPI, Printed, Typesetting};
use super::{BuildOptions, Output, Target, print};
use crate::components::Table;
use crate::components::rules::Rules;
use crate::diag::Diagnostic;
use crate::world::GameFolder;

/// What a build of a game of components makes: the documents to typeset, the export drawn
/// from their pictures, and the files made without typesetting.
pub struct Planned {
    pub data: data::TableData,
    pub plan: Plan,
    pub export: Option<tts::Export>,
    pub ruleset_json: String,
    /// Files made without typesetting (a service's `copies.csv`).
    pub outputs: Vec<Output>,
}

/// Works out what `options` ask for.
pub fn plan(table: &Table, module: &dyn Rules, options: &BuildOptions) -> Planned {
    let wants = |target| options.targets.contains(&target);
    let paper = options.print.paper.unwrap_or(table.manifest.paper);
    let data = data::table_data(table, module, paper, options.print.color_space);
    let paper = PaperSize::of(paper);
    let ruleset_json = ruleset::text(table, module);

    let mut jobs = Vec::new();
    let mut outputs = Vec::new();
    let deck_wanted = print::deck::Wanted {
        print: wants(Target::Deck),
        keep: false,
    };
    for (ix, data) in data.decks.iter().enumerate() {
        let deck = deck(ix, data);
        jobs.extend(deck.jobs(paper, &options.print, deck_wanted));
        outputs.extend(deck.outputs(&options.print, deck_wanted));
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
        let (pages, images) = export.pages();
        jobs.push(Job {
            inputs: vec![input("pictures", &pages)],
            images: Some(images),
            ..Job::new("table-tts.typ", None)
        });
    }

    let plan = Plan {
        game_id: data.id.clone(),
        game: serde_json::to_value(&data).expect("template data serialises"),
        jobs,
        export: None,
    };
    Planned {
        data,
        plan,
        export,
        ruleset_json,
        outputs,
    }
}

/// The templates a game of components is typeset with: the built-in ones, each replaced by
/// the game folder's own of that name, and the templates its decks name.
pub fn templates(table: &Table, folder: &mut GameFolder) -> Result<TemplateFiles, Diagnostic> {
    let mut files = TemplateFiles::load(folder, &[], &[])?;
    for deck in &table.decks {
        for template in deck.front.iter().chain(&deck.back) {
            files.add_game_template(folder, &template.value)?;
        }
    }
    Ok(files)
}

/// Builds what `options` ask for. Errors are template faults.
pub fn build(
    table: &Table,
    module: &dyn Rules,
    folder: &mut GameFolder,
    options: &BuildOptions,
    typesetting: &mut Typesetting,
) -> Result<Printed, Vec<Diagnostic>> {
    let wants = |target| options.targets.contains(&target);
    let Planned {
        data,
        plan,
        export,
        ruleset_json,
        mut outputs,
    } = plan(table, module, options);
    let mut printed = Printed {
        outputs: Vec::new(),
        warnings: Vec::new(),
        timings: Vec::new(),
    };
    if !plan.jobs.is_empty() {
        let files = templates(table, folder).map_err(|d| vec![d])?;
        let (made, done) = super::print::run_plan(&plan, &files, &|_| None, typesetting)?;
        outputs.extend(made);
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

/// The Typst projects of the documents `options` ask for (`build --emit-typst`), with the
/// pictures the symbols show: the only files of the folder besides the sources that the
/// built-in templates read.
pub fn emit(
    table: &Table,
    module: &dyn Rules,
    folder: &mut GameFolder,
    options: &BuildOptions,
) -> Result<Vec<Output>, Diagnostic> {
    let planned = plan(table, module, options);
    let files = templates(table, folder)?;
    let art = table
        .symbols
        .iter()
        .filter_map(|symbol| symbol.art.as_ref());
    let art = print::emit::folder_files(&folder.reader(), art.map(|art| art.value.as_str()))?;
    Ok(super::print::emit::emit(&planned.plan, &files, &art))
}

/// A deck of the table as the print backend's decks are planned: its files under `decks/`.
fn deck(ix: usize, deck: &data::DeckData) -> print::deck::Deck<'_> {
    print::deck::Deck {
        name: format!("decks/{}", deck.id),
        card_previews: format!("preview/cards/{}", deck.id),
        printer_folder: deck.id.clone(),
        templates: print::deck::Templates {
            sheets: "table-deck.typ",
            designs: "table-deck-designs.typ",
            cards: "table-deck-cards.typ",
        },
        inputs: vec![input("deck", &ix)],
        card_size: (deck.card_size.width, deck.card_size.height),
        designs: deck
            .designs
            .iter()
            .map(|design| (design.id.clone(), design.copies))
            .collect(),
        physical: deck.physical.clone(),
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
