//! Rules modules: what the components of a game mean.
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

pub mod diceafari;
pub mod gamewright;
pub mod none;
pub mod safari_zone;
pub mod tricky_safari;

use std::collections::BTreeSet;

use crate::backends::print::{PageExport, Typesetting};
use crate::backends::{BuildOptions, Built, Target};
pub use crate::components::rules::{Rules, TableScript};
use crate::diag::{Diagnostic, Diagnostics};
use crate::world::{FileId, GameFolder};
use crate::{CheckOptions, Checked};

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
    ) -> Result<Built, Vec<Diagnostic>>;
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
            crate::backends::table::sheets::fits(table, paper, &mut diagnostics);
            crate::components::sheet::check(table, paper, &mut diagnostics);
            self.0.check(table, &mut diagnostics);
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
    ) -> Result<Built, Vec<Diagnostic>> {
        let table = table_of(checked);
        let printed = crate::backends::table::build(table, self.0, folder, options, typesetting)?;
        Ok(Built {
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
