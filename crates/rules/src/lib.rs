//! safari-rules: the rules modules, which say what the components of a game mean, and the
//! pipeline that reaches them.
//!
//! The model says what is on the table; a rules module says how it plays and so what can be
//! wrong with it. The manifest's `rules` key picks one, and the pipeline reaches it through
//! [`Module`]: how a game of those rules is checked and built, and what the game-free backends
//! need from it (its templates, its documents' names, the export it draws from typeset pages).
//! Safari Zone RNW's module reads its own files (the Field Guide, species, items) into its own
//! model and plans its own outputs; every other game is made of the component layer's parts
//! (`components::Table`), and its module is [`OnComponents`] over a [`Rules`]: the `[play]`
//! keys it reads, the checks that need reasoning about play, the rules part of the ruleset and
//! of the data templates receive, and the captions its cards print. A new game is content
//! plus, at most, one module here.
//!
//! The pipeline is load -> model -> check -> backends (see ARCHITECTURE.md): [`check`] picks the
//! module the manifest names and has it load and check the game; [`build`] then has the module
//! hand the game-free backends what they need, and gives back the files in memory. Nothing here
//! writes: the command layer (the `safari` binary) writes through its output seam.

pub mod charts;
pub mod html;
/// The readers every game's loader shares (`safari_core::load`), and the pictures a game names,
/// decoded as Typst will draw them.
pub mod load {
    pub use safari_core::load::*;
    pub mod picture;
}
pub mod diceafari;
pub mod gamewright;
pub mod none;
pub mod playtests;
pub mod rebuild;
pub mod safari_zone;
pub mod tricky_safari;

use std::collections::BTreeSet;

use safari_backends as backends;
use safari_components as components;
use safari_core::{diag, model, words, world};
use safari_layout as layout;

use backends::raster;
use safari_zone::model::Game;

use crate::backends::print::{PageExport, Typesetting};
use crate::backends::{BuildOptions, Target};
pub use crate::components::rules::{Rules, TableScript};
use crate::diag::{Diagnostic, Diagnostics};
use crate::world::{FileId, GameFolder};

/// A game's rules as the pipeline sees them. Every `rules` id a manifest may name is one
/// module, and `check` and `build` go through it: Safari Zone RNW's
/// (`safari_zone::module::SafariZone`, over its own model), and one per module over the
/// component layer ([`OnComponents`], over a [`Rules`]).
pub trait Module: Sync {
    /// The manifest's `rules` value that picks this module.
    fn id(&self) -> &'static str;
    /// The game's name, for messages and docs.
    fn title(&self) -> &'static str;
    /// Loads and checks the game in `folder` (its manifest, when it could be read, at
    /// `manifest`): everything `build` does short of making files.
    fn check(
        &self,
        folder: &mut GameFolder,
        manifest: Option<FileId>,
        options: &CheckOptions,
    ) -> Checked;
    /// The files of a game `check` passed without errors, or the errors that stopped them.
    fn build(
        &self,
        checked: &Checked,
        folder: &mut GameFolder,
        options: &BuildOptions,
        typesetting: &mut Typesetting,
    ) -> Result<backends::Built, Vec<Diagnostic>>;
    /// The print documents `options` ask for, of a game `check` passed, as Typst projects
    /// (`build --emit-typst`, `backends::print::emit`); or why they cannot be made.
    fn emit_typst(
        &self,
        checked: &Checked,
        folder: &mut GameFolder,
        options: &BuildOptions,
    ) -> Result<Vec<crate::backends::Output>, Diagnostic>;
    /// Built-in templates of its own: (name, text).
    fn templates(&self) -> &'static [(&'static str, &'static str)] {
        &[]
    }
    /// The print documents a build of `target` writes, by name, besides the component
    /// layer's (`<name>.pdf` and `preview/<name>-<page>.png`).
    fn documents(&self, _target: Target) -> &'static [&'static str] {
        &[]
    }
    /// The export it draws from typeset pages, where they are typeset.
    fn page_export(&self) -> Option<&'static dyn PageExport> {
        None
    }
    /// What an edit of the game folder's files at `edited` (`deck.toml`,
    /// `templates/cards.typ`) makes stale, for `watch`, when the module knows every one of
    /// them (`folder` is the game as it is now). `None`: anything may show one of the files, so
    /// everything is rebuilt.
    fn stale_after_edit(
        &self,
        _folder: &mut GameFolder,
        _edited: &[&str],
    ) -> Option<BTreeSet<Target>> {
        None
    }
    /// Whether a build may give the export the sheet pictures the session's last export drew
    /// (`BuildOptions::last_sheet`) rather than typeset the sheet, for `watch`'s quick pass
    /// after an edit that the sheet shows only in part.
    fn reuses_last_sheet(&self) -> bool {
        false
    }
    /// The component layer's [`Rules`] it runs, for a game made of components.
    fn on_components(&self) -> Option<&'static dyn Rules> {
        None
    }
}

/// A module over the component layer: the layer's loader and checks, then its [`Rules`];
/// built by `backends::table`.
pub(crate) struct OnComponents(pub &'static dyn Rules);

impl Module for OnComponents {
    fn id(&self) -> &'static str {
        self.0.id()
    }

    fn title(&self) -> &'static str {
        self.0.title()
    }

    fn check(
        &self,
        folder: &mut GameFolder,
        manifest: Option<FileId>,
        options: &CheckOptions,
    ) -> Checked {
        let mut diagnostics = Diagnostics::default();
        let mut table = manifest.and_then(|manifest| {
            let pictures = crate::load::picture::read_picture;
            crate::components::load(folder, manifest, self.0, pictures, &mut diagnostics)
        });
        // Every file is read: the printed pages name the content that made them, as far as
        // they show it.
        if let Some(table) = &mut table {
            let counted = crate::backends::table::stale::files_the_content_id_counts(table, folder);
            crate::load::add_content_version_of(folder, &mut table.manifest.versions, |file| {
                counted.contains(&file)
            });
        }
        if let Some(table) = &table
            && !diagnostics.lost_content_since(0)
        {
            crate::components::check::check(table, &mut diagnostics);
            let paper = options.paper.unwrap_or(table.manifest.paper);
            let from_flag = options.paper.is_some();
            crate::backends::table::sheets::fits(table, paper, from_flag, &mut diagnostics);
            crate::components::sheet::check(table, paper, &mut diagnostics);
            self.0.check(table, &mut diagnostics);
            crate::components::rules::check_unread(table, self.0, &mut diagnostics);
        }
        diagnostics.sort();
        Checked {
            game: None,
            table,
            diagnostics,
            layout: None,
        }
    }

    fn build(
        &self,
        checked: &Checked,
        folder: &mut GameFolder,
        options: &BuildOptions,
        typesetting: &mut Typesetting,
    ) -> Result<backends::Built, Vec<Diagnostic>> {
        let table = table_of(checked);
        let mut printed =
            crate::backends::table::build(table, self.0, folder, options, typesetting)?;
        // A game whose rules have an engine is also a page to play.
        if options.targets.contains(&Target::Play)
            && safari_engine::family::ENGINES.contains(&self.0.id())
        {
            let ruleset = crate::backends::table::ruleset::text(table, self.0);
            printed.outputs.push(crate::backends::Output {
                path: "play/index.html".to_string(),
                bytes: safari_playtest::family_page(&table.manifest.name, &ruleset),
            });
            printed.outputs.sort_by(|a, b| a.path.cmp(&b.path));
        }
        Ok(backends::Built {
            outputs: printed.outputs,
            warnings: printed.warnings,
            timings: printed.timings,
        })
    }

    fn stale_after_edit(
        &self,
        folder: &mut GameFolder,
        edited: &[&str],
    ) -> Option<BTreeSet<Target>> {
        // The game as it is now: loaded again, quietly (the build reports what is wrong).
        let manifest = folder.read(crate::load::MANIFEST, None).ok()?;
        // Where things are written is all this needs: pictures are not read or decoded.
        let unread: crate::components::Pictures = |_, _| Ok(Vec::new());
        let table = crate::components::load(
            folder,
            manifest,
            self.0,
            unread,
            &mut Diagnostics::default(),
        )?;
        let mut stale = BTreeSet::new();
        for relative in edited {
            stale.extend(crate::backends::table::stale::after_edit(
                &table, folder, relative,
            )?);
        }
        Some(stale)
    }

    fn emit_typst(
        &self,
        checked: &Checked,
        folder: &mut GameFolder,
        options: &BuildOptions,
    ) -> Result<Vec<crate::backends::Output>, Diagnostic> {
        let table = table_of(checked);
        crate::backends::table::emit(table, self.0, folder, options)
    }

    fn on_components(&self) -> Option<&'static dyn Rules> {
        Some(self.0)
    }
}

/// The table of a game a module over the components checked: the pipeline builds only what
/// `check` loaded.
fn table_of(checked: &Checked) -> &crate::components::Table {
    checked
        .table
        .as_ref()
        .expect("a checked game of components has its table")
}

/// Every module, Safari Zone RNW's first (a manifest that names no rules is its game).
pub const ALL: &[&dyn Module] = &[
    &safari_zone::module::SafariZone,
    &OnComponents(&gamewright::Gamewright),
    &OnComponents(&diceafari::DiceAfari),
    &OnComponents(&tricky_safari::TrickySafari),
    &OnComponents(&none::NoRules),
];

/// The module a manifest's `rules` value names.
pub fn named(id: &str) -> Option<&'static dyn Module> {
    ALL.iter().copied().find(|m| m.id() == id)
}

/// Every rules id a manifest may name.
pub fn known() -> Vec<&'static str> {
    ALL.iter().map(|m| m.id()).collect()
}

/// The component-layer module with this id.
pub fn module(id: &str) -> Option<&'static dyn Rules> {
    named(id).and_then(|m| m.on_components())
}

/// The built-in templates of the rules modules: (name, text).
pub fn templates() -> impl Iterator<Item = &'static (&'static str, &'static str)> {
    ALL.iter().flat_map(|m| m.templates())
}

/// The print documents rules modules write for a build target, by name (`<name>.pdf`, and
/// previews `preview/<name>-<page>.png`), besides the component layer's: a build of the target
/// replaces them, a build without it keeps them.
pub fn documents(target: Target) -> impl Iterator<Item = &'static str> {
    ALL.iter()
        .flat_map(move |m| m.documents(target).iter().copied())
}

/// The export a module runs on its typeset pages (its Tabletop Simulator save), by its id.
pub fn page_export(id: &str) -> Option<&'static dyn PageExport> {
    named(id).and_then(|m| m.page_export())
}

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
) -> (Option<&'static dyn Module>, Checked) {
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
pub fn rules_of(folder: &mut GameFolder) -> Option<&'static dyn Module> {
    rules_module(folder).ok().map(|(module, _)| module)
}

/// The rules module the manifest names, and the manifest when it could be read: Safari Zone
/// RNW's for a manifest that names none or cannot be read (its loader reports why).
fn rules_module(
    folder: &mut GameFolder,
) -> Result<(&'static dyn Module, Option<world::FileId>), Diagnostic> {
    #[derive(serde::Deserialize)]
    struct RulesOnly {
        rules: Option<toml::Spanned<String>>,
    }
    let default = &safari_zone::module::SafariZone;
    let Ok(file) = folder.read(load::MANIFEST, None) else {
        return Ok((default, None));
    };
    let Ok(RulesOnly { rules: Some(given) }) = toml::from_str(&folder.source(file).text) else {
        return Ok((default, Some(file)));
    };
    match named(given.get_ref()) {
        Some(module) => Ok((module, Some(file))),
        // Not one of the modules: reading the content as Safari Zone's would report its
        // files missing rather than the name.
        None => {
            let known = known();
            Err(Diagnostic::error(
                diag::Code::UnknownName,
                format!("unknown rules `{}`", diag::printable(given.get_ref())),
            )
            .with_primary(
                world::Origin::new(file, given.span()),
                "no rules module has this id",
            )
            .with_help(
                match diag::similar_name(given.get_ref(), known.iter().copied()) {
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
    pub fn identity(&self) -> Option<(&str, &str)> {
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
pub fn emit_typst(folder: &mut GameFolder, options: &backends::BuildOptions) -> Built {
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
) -> (Option<&'static dyn Module>, Checked) {
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
            "the Tabletop Simulator save names {} the build does not write under {base}/: {}{more}",
            words::plural(missing.len(), "image"),
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
    let from_flag = options.print.paper.is_some();
    let mut decks: Vec<(String, model::CardSize, model::Paper, Option<world::Origin>)> = Vec::new();
    if let Some(game) = &checked.game {
        decks.push((
            "the deck".to_string(),
            game.manifest.card_size,
            game.manifest.paper,
            game.manifest.print_origin(from_flag),
        ));
    }
    if let Some(table) = &checked.table {
        for deck in &table.decks {
            decks.push((
                format!("the deck `{}`", deck.id.value),
                deck.card_size,
                table.manifest.paper,
                Some(deck.id.origin),
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
                from_flag,
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
            one::<safari_zone::formats::ManifestFile>(),
        ),
        ("deck.schema.json", one::<safari_zone::formats::DeckFile>()),
        ("dice.schema.json", one::<safari_zone::formats::DiceFile>()),
        (
            "species.schema.json",
            one::<safari_zone::formats::SpeciesFile>(),
        ),
        (
            "items.schema.json",
            one::<safari_zone::formats::ItemsFile>(),
        ),
        (
            "ruleset.schema.json",
            one::<safari_zone::ruleset::Ruleset>(),
        ),
        (
            "sim-report.schema.json",
            one::<safari_zone::sim::SimReport>(),
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
