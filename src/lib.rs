//! safari: a compiler for tabletop game content.
//!
//! The pipeline is load -> model -> check -> backends -> out/ (see ARCHITECTURE.md). This
//! crate is the library; `src/main.rs` is a thin shell over [`cli`].

pub mod charts;
pub mod cli;
pub mod embedded;
pub mod html;
/// The readers every game's loader shares (`safari_core::load`), and the pictures a game names,
/// decoded as Typst will draw them.
pub mod load {
    pub use safari_core::load::*;
    pub mod picture;
}
pub mod output;
pub mod rules;

pub use safari_backends::{self as backends, memory, raster};
pub use safari_components as components;
pub use safari_core::{diag, model, world};
pub use safari_layout::{self as layout, fonts};

use backends::print::Typesetting;
use diag::{Diagnostic, Diagnostics};
use rules::safari_zone::model::Game;
use world::GameFolder;

/// The result of checking a game: the model (when a manifest could be read) and every
/// diagnostic, sorted by file and position.
pub struct Checked {
    /// Safari Zone RNW's model, for a game of those rules.
    pub game: Option<Game>,
    /// The components, for a game of any other rules (its module: `rules::module`).
    pub table: Option<components::Table>,
    pub diagnostics: Diagnostics,
    /// The Field Guide laid out on the checked paper, when the check covered the sheet and it
    /// fits: what the print backend draws, so the layout is computed once per build.
    pub layout: Option<layout::SheetLayout>,
}

/// Loads and checks the game in `folder` on its own paper: everything `build` does short of
/// writing files.
pub fn check(folder: &mut GameFolder) -> Checked {
    check_with(folder, &CheckOptions::default())
}

/// What a check covers beyond the content itself.
#[derive(Debug, Clone, Copy)]
pub struct CheckOptions {
    /// The paper the Field Guide is laid out on: the manifest's when `None`.
    pub paper: Option<model::Paper>,
    /// Whether the Field Guide's fit is checked: always for `check`, and for a `build` that
    /// prints the sheet (a build of the deck alone does not need the sheet to fit).
    pub sheet: bool,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            paper: None,
            sheet: true,
        }
    }
}

/// Loads and checks the game in `folder` as `options` say.
pub fn check_with(folder: &mut GameFolder, options: &CheckOptions) -> Checked {
    check_by_module(folder, options).1
}

/// [`check_with`], and the rules module that checked (none when the manifest names no module).
fn check_by_module(
    folder: &mut GameFolder,
    options: &CheckOptions,
) -> (Option<&'static dyn rules::Module>, Checked) {
    match rules_module(folder) {
        Ok((module, manifest)) => (Some(module), module.check(folder, manifest, options)),
        Err(unknown) => {
            let mut diagnostics = Diagnostics::default();
            diagnostics.push(unknown);
            let checked = Checked {
                game: None,
                table: None,
                diagnostics,
                layout: None,
            };
            (None, checked)
        }
    }
}

/// The rules module the game in `folder` is checked by: the one its manifest names, Safari Zone
/// RNW's when it names none; `None` when it names one that does not exist.
pub fn rules_of(folder: &mut GameFolder) -> Option<&'static dyn rules::Module> {
    rules_module(folder).ok().map(|(module, _)| module)
}

/// The rules module the manifest names, and the manifest when it could be read: Safari Zone
/// RNW's for a manifest that names none or cannot be read (its loader reports why).
fn rules_module(
    folder: &mut GameFolder,
) -> Result<(&'static dyn rules::Module, Option<world::FileId>), Diagnostic> {
    #[derive(serde::Deserialize)]
    struct RulesOnly {
        rules: Option<toml::Spanned<String>>,
    }
    let default = &rules::safari_zone::module::SafariZone;
    let Ok(file) = folder.read(load::MANIFEST, None) else {
        return Ok((default, None));
    };
    let Ok(RulesOnly { rules: Some(named) }) = toml::from_str(&folder.source(file).text) else {
        return Ok((default, Some(file)));
    };
    match rules::named(named.get_ref()) {
        Some(module) => Ok((module, Some(file))),
        // Not one of the modules: reading the content as Safari Zone's would report its
        // files missing rather than the name.
        None => {
            let known = rules::known();
            Err(Diagnostic::error(
                diag::Code::UnknownName,
                format!("unknown rules `{}`", diag::printable(named.get_ref())),
            )
            .with_primary(
                world::Origin::new(file, named.span()),
                "no rules module has this id",
            )
            .with_help(
                match diag::similar_name(named.get_ref(), known.iter().copied()) {
                    Some(similar) => format!(
                        "a name with a similar spelling exists: `{similar}` (known rules: {})",
                        known.join(", ")
                    ),
                    None => format!("known rules: {}", known.join(", ")),
                },
            ))
        }
    }
}

impl Checked {
    /// The game's id and name, when its manifest could be read.
    pub(crate) fn identity(&self) -> Option<(&str, &str)> {
        match (&self.game, &self.table) {
            (Some(game), _) => Some((&game.manifest.id, &game.manifest.name)),
            (None, Some(table)) => Some((&table.manifest.id, &table.manifest.name)),
            (None, None) => None,
        }
    }
}

/// The result of a build: what `check` gives, and the files when there were no errors.
pub struct Built {
    pub checked: Checked,
    pub outputs: Option<Vec<backends::Output>>,
    /// How long each print document took (for `build --verbose` and benchmarks).
    pub timings: Vec<backends::print::Timing>,
}

/// Checks the game in `folder` and, when it has no errors, runs the backends `options` ask
/// for, typesetting in this process. Template diagnostics join the check's; any error means
/// no outputs at all.
pub fn build(folder: &mut GameFolder, options: &backends::BuildOptions) -> Built {
    build_with(folder, options, &mut Typesetting::InProcess)
}

/// [`build`], typesetting where `typesetting` says: the command line passes a bounded worker
/// (`backends::print::worker`), as content may hold a Typst program that never ends.
pub fn build_with(
    folder: &mut GameFolder,
    options: &backends::BuildOptions,
    typesetting: &mut Typesetting,
) -> Built {
    let (module, mut checked) = check_for_build(folder, options);
    let Some(module) = module else {
        return Built {
            checked,
            outputs: None,
            timings: Vec::new(),
        };
    };
    let (outputs, timings) = match module.build(&checked, folder, options, typesetting) {
        Ok(built) => {
            checked.diagnostics.extend(built.warnings);
            let id = checked.identity().map(|(id, _)| id.to_string());
            let base = options.asset_base.url(id.as_deref().unwrap_or_default());
            let missing = backends::tts::images_not_written(&built.outputs, &base);
            if missing.is_empty() {
                (Some(built.outputs), built.timings)
            } else {
                checked
                    .diagnostics
                    .push(images_not_written(&missing, &base));
                (None, built.timings)
            }
        }
        Err(errors) => {
            checked.diagnostics.extend(errors);
            (None, Vec::new())
        }
    };
    checked.diagnostics.sort();
    Built {
        checked,
        outputs,
        timings,
    }
}

/// `build --emit-typst`: checks the game as [`build`] does and, when it has no errors, gives
/// the print documents `options` ask for as Typst projects (`backends::print::emit`) in place
/// of the files a build writes.
pub(crate) fn emit_typst(folder: &mut GameFolder, options: &backends::BuildOptions) -> Built {
    let (module, mut checked) = check_for_build(folder, options);
    let outputs = module.and_then(|module| {
        module
            .emit_typst(&checked, folder, options)
            .map_err(|diagnostic| checked.diagnostics.push(diagnostic))
            .ok()
    });
    checked.diagnostics.sort();
    Built {
        checked,
        outputs,
        timings: Vec::new(),
    }
}

/// The check a build of `options` runs, and the module that builds the game when it passed
/// (none when the game has errors).
fn check_for_build(
    folder: &mut GameFolder,
    options: &backends::BuildOptions,
) -> (Option<&'static dyn rules::Module>, Checked) {
    // The sheet is laid out for what draws it, and for the ruleset, which says where each box
    // prints.
    let sheet = options.targets.iter().any(|t| t.lays_out_sheet());
    let check_options = CheckOptions {
        paper: options.print.paper,
        sheet,
    };
    let (module, mut checked) = check_by_module(folder, &check_options);
    checked
        .diagnostics
        .extend(cards_fit_the_layout(&checked, options));
    let loaded = checked.game.is_some() || checked.table.is_some();
    let module = module.filter(|_| loaded && !checked.diagnostics.has_errors());
    if module.is_none() {
        checked.diagnostics.sort();
    }
    (module, checked)
}

/// SZ0804: the save names images the build does not write under the folder to upload.
fn images_not_written(missing: &[String], base: &str) -> Diagnostic {
    let shown: Vec<&str> = missing.iter().take(3).map(String::as_str).collect();
    let more = match missing.len() - shown.len() {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    Diagnostic::error(
        diag::Code::ImageNotWritten,
        format!(
            "the Tabletop Simulator save names {} image(s) the build does not write under {base}/: {}{more}",
            missing.len(),
            shown.join(", ")
        ),
    )
    .with_help("this is a fault of safari; please report it with the game folder")
}

/// Cards a build prints in its deck layout fit the paper (`check` holds them to a duplex page;
/// gutter-fold has half of one).
fn cards_fit_the_layout(checked: &Checked, options: &backends::BuildOptions) -> Vec<Diagnostic> {
    use backends::print::geometry::{DeckLayout, PaperSize, card_fit};
    if options.print.layout == DeckLayout::Duplex
        || !options.targets.contains(&backends::Target::Deck)
    {
        return Vec::new();
    }
    let mut decks: Vec<(String, model::CardSize, model::Paper, world::Origin)> = Vec::new();
    if let Some(game) = &checked.game {
        decks.push((
            "the deck".to_string(),
            game.manifest.card_size,
            game.manifest.paper,
            game.manifest.origin,
        ));
    }
    if let Some(table) = &checked.table {
        for deck in &table.decks {
            decks.push((
                format!("the deck `{}`", deck.id.value),
                deck.card_size,
                table.manifest.paper,
                deck.id.origin,
            ));
        }
    }
    decks
        .into_iter()
        .filter_map(|(what, size, paper, origin)| {
            let page = PaperSize::of(options.print.paper.unwrap_or(paper));
            card_fit(
                &what,
                (size.width_mm, size.height_mm),
                page,
                DeckLayout::GutterFold,
                origin,
            )
        })
        .collect()
}

/// The JSON Schema of each TOML content file, and of the ruleset `build` writes, by file name.
pub fn schemas() -> Vec<(&'static str, String)> {
    fn one<T: schemars::JsonSchema>() -> String {
        let schema = schemars::schema_for!(T);
        serde_json::to_string_pretty(&schema).expect("schemas serialise") + "\n"
    }
    vec![
        (
            "game.schema.json",
            one::<rules::safari_zone::formats::ManifestFile>(),
        ),
        (
            "deck.schema.json",
            one::<rules::safari_zone::formats::DeckFile>(),
        ),
        (
            "dice.schema.json",
            one::<rules::safari_zone::formats::DiceFile>(),
        ),
        (
            "species.schema.json",
            one::<rules::safari_zone::formats::SpeciesFile>(),
        ),
        (
            "items.schema.json",
            one::<rules::safari_zone::formats::ItemsFile>(),
        ),
        (
            "ruleset.schema.json",
            one::<rules::safari_zone::ruleset::Ruleset>(),
        ),
        (
            "sim-report.schema.json",
            one::<rules::safari_zone::sim::SimReport>(),
        ),
        (
            "table-game.schema.json",
            one::<components::format::TableManifestFile>(),
        ),
        (
            "components.schema.json",
            one::<components::format::ComponentsFile>(),
        ),
        (
            "components-ruleset.schema.json",
            one::<backends::table::ruleset::TableRuleset>(),
        ),
    ]
}
