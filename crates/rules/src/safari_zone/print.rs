//! Safari Zone RNW's print documents: the Field Guide, the Encounter Deck and the dice, planned
//! from its model for the print backend to typeset, with the data its templates receive
//! ([`super::template_data`]).

use serde::Serialize;

use super::model::Game;
use super::template_data::{self, GameData};
use crate::backends::Output;
use crate::backends::print::deck::{Deck, Templates, Wanted};
use crate::backends::print::files::{GameSource, TemplateFiles};
use crate::backends::print::geometry::PaperSize;
use crate::backends::print::plan::{self, ExportPlan, Job, Plan, Previews};
use crate::backends::print::{Document, PREVIEW_DPI, PrintOptions, Printed, Typesetting, run_plan};
use crate::backends::table::sheets::{DiceToPrint, dice_pages_of};
use crate::diag::{Code, Diagnostic};
use crate::layout::SheetLayout;
use crate::world::{FolderReader, GameFolder};

/// Safari Zone RNW's built-in templates: (name, text). A game folder's `templates/<name>`
/// replaces the one of that name.
pub const TEMPLATES: &[(&str, &str)] = &[
    ("card.typ", include_str!("../../../../templates/card.typ")),
    (
        "field-guide.typ",
        include_str!("../../../../templates/field-guide.typ"),
    ),
    (
        "encounter-deck.typ",
        include_str!("../../../../templates/encounter-deck.typ"),
    ),
    ("cards.typ", include_str!("../../../../templates/cards.typ")),
    (
        "card-designs.typ",
        include_str!("../../../../templates/card-designs.typ"),
    ),
    ("dice.typ", include_str!("../../../../templates/dice.typ")),
    (
        "die-faces.typ",
        include_str!("../../../../templates/die-faces.typ"),
    ),
    (
        "park-rules-page.typ",
        include_str!("../../../../templates/park-rules-page.typ"),
    ),
];

/// The documents a build of `target` prints, by name.
pub fn documents(target: crate::backends::Target) -> &'static [&'static str] {
    use crate::backends::Target;
    match target {
        Target::Sheet => &[template_data::FIELD_GUIDE],
        Target::Deck => &[template_data::ENCOUNTER_DECK, "encounter-deck-cards"],
        _ => &[],
    }
}

/// The Park Rules' path as the Field Guide's template imports it.
pub(crate) const PARK_RULES: &str = "/park-rules.typ";

/// The game's own Typst sources the templates import: its Park Rules (the manifest's file, and
/// where it names one), typeset on the back of the Field Guide.
pub(crate) fn game_sources(game: &Game) -> Vec<GameSource> {
    let (file, named_at) = &game.manifest.park_rules;
    vec![GameSource {
        typst_path: PARK_RULES,
        file: file.clone(),
        named_at: *named_at,
        document: "field-guide.typ",
        placement: "typeset on the back of the Field Guide",
    }]
}

/// The templates its documents are typeset with: the built-in ones, each replaced by the game
/// folder's own of that name, and its Park Rules.
pub(crate) fn template_files(
    folder: &mut GameFolder,
    game: &Game,
) -> Result<TemplateFiles, Diagnostic> {
    TemplateFiles::load(folder, TEMPLATES, &game_sources(game))
}

fn json(value: &impl Serialize) -> serde_json::Value {
    plan::json(value)
}

/// Typesets what `options` ask for, and the exports `export` asks for (the Tabletop Simulator
/// save, the playtest page).
/// `layout` is the Field Guide as `check` laid it out on the same paper; it is needed when
/// the sheet (or the export's sheet tiles) is made.
pub fn print(
    game: &Game,
    layout: Option<&SheetLayout>,
    files: &TemplateFiles,
    options: &PrintOptions,
    export: Option<ExportPlan>,
    typesetting: &mut Typesetting,
) -> Result<Printed, Vec<Diagnostic>> {
    let plan = plan(game, layout, files.has(PARK_RULES), options, export);
    let (outputs, done) = run_plan(&plan, files, &crate::page_export, typesetting)?;
    let mut outputs = outputs;
    let deck = encounter_deck(game);
    outputs.extend(deck.outputs(options, deck_wanted(options, false)));
    let mut warnings = done.warnings;
    let makes_sheet = plan
        .jobs
        .iter()
        .any(|job| job.template == "field-guide.typ");
    if !files.has(PARK_RULES) && makes_sheet {
        warnings.push(
            Diagnostic::warning(
                Code::NoParkRules,
                "the game has no park-rules.typ: the back of the Field Guide is a generated reference page",
            )
            .with_help("write the Park Rules as Typst markup in park-rules.typ in the game folder"),
        );
    }
    Ok(Printed {
        outputs,
        warnings,
        timings: done.timings,
    })
}

/// Works out the documents `options` ask for. `layout` is the Field Guide as `check` laid it
/// out on the same paper; it is needed when the sheet (or the export's sheet tiles) is made.
pub fn plan(
    game: &Game,
    layout: Option<&SheetLayout>,
    has_park_rules: bool,
    options: &PrintOptions,
    export: Option<ExportPlan>,
) -> Plan {
    let paper = options.paper.unwrap_or(game.manifest.paper);
    let mut data: GameData = template_data::game_data(game, paper, layout, has_park_rules);
    data.color_space = options.color_space;
    let game_json = json(&data);
    let previews = |name: &str, pages: Option<Vec<usize>>| {
        options.page_previews.then(|| Previews {
            name: name.to_string(),
            dpi: PREVIEW_DPI,
            pages,
        })
    };
    let wants = |document| options.documents.contains(&document);
    let keep = export.is_some();
    let mut jobs = Vec::new();
    if wants(Document::Sheet) || keep {
        let sheet = wants(Document::Sheet);
        jobs.push(Job {
            inputs: vec![(
                "game".to_string(),
                template_data::as_the_sheet_sees_it(&game_json),
            )],
            previews: previews("field-guide", None).filter(|_| sheet),
            keep,
            ..Job::new("field-guide.typ", sheet.then_some("field-guide.pdf"))
        });
    }
    let deck = encounter_deck(game);
    let deck_wanted = deck_wanted(options, keep);
    jobs.extend(deck.jobs(PaperSize::of(paper), options, deck_wanted));
    if wants(Document::Dice) {
        let pages = dice_pages_of(&dice_to_print(game), PaperSize::of(paper));
        jobs.push(Job {
            inputs: vec![("pages".to_string(), json(&pages))],
            previews: previews("dice", None),
            ..Job::new("dice.typ", Some("dice.pdf"))
        });
    }
    if keep {
        jobs.push(Job {
            keep,
            ..Job::new("die-faces.typ", None)
        });
    }
    Plan {
        game_id: data.id.clone(),
        game: game_json,
        jobs,
        export,
    }
}

/// The Encounter Deck as the print backend plans every deck: its files beside the Field
/// Guide's, drawn by Safari Zone RNW's card templates.
fn encounter_deck(game: &Game) -> Deck<'static> {
    Deck {
        name: template_data::ENCOUNTER_DECK.to_string(),
        card_previews: "preview/cards".to_string(),
        printer_folder: String::new(),
        templates: Templates {
            sheets: "encounter-deck.typ",
            designs: "card-designs.typ",
            cards: "cards.typ",
        },
        // Its index in `game.decks`, as a game of components' decks are told theirs.
        inputs: vec![("deck".to_string(), json(&0))],
        card_size: (
            game.manifest.card_size.width_mm,
            game.manifest.card_size.height_mm,
        ),
        designs: game
            .deck
            .cards
            .iter()
            .map(|card| (card.id.clone(), card.copies.value))
            .collect(),
        physical: game.deck.physical_order(),
    }
}

/// The dice as every game's dice sheets print them: stickers for each face of each die, and a
/// paper die for each die a regular solid has the sides of.
fn dice_to_print(game: &Game) -> Vec<DiceToPrint> {
    game.dice
        .iter()
        .map(|set| DiceToPrint {
            name: set.name.clone(),
            solid: DiceToPrint::solid_of(set.sides.value as usize),
            dice: set.dice.iter().map(|die| die.faces.len()).collect(),
        })
        .collect()
}

fn deck_wanted(options: &PrintOptions, keep: bool) -> Wanted {
    Wanted {
        print: options.documents.contains(&Document::Deck),
        keep,
    }
}

/// The Typst projects of the documents `options` ask for (`build --emit-typst`), with the card
/// art they show.
pub fn emit(
    game: &Game,
    layout: Option<&SheetLayout>,
    files: &TemplateFiles,
    reader: &FolderReader,
    options: &PrintOptions,
) -> Result<Vec<Output>, Diagnostic> {
    let plan = plan(game, layout, files.has(PARK_RULES), options, None);
    let art = card_art(game, reader)?;
    Ok(crate::backends::print::emit::emit(&plan, files, &art))
}

/// The card art the deck's designs show, by its path in the game folder: the only files of
/// the folder besides the sources that the built-in templates read.
fn card_art(game: &Game, reader: &FolderReader) -> Result<Vec<(String, Vec<u8>)>, Diagnostic> {
    let art = game.deck.cards.iter().filter_map(|card| card.art.as_ref());
    crate::backends::print::emit::folder_files(reader, art.map(|art| art.value.as_str()))
}
