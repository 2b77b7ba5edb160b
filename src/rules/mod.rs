//! Rules modules: what the components of a game mean.
//!
//! The model says what is on the table; a rules module says how it plays and so what can be
//! wrong with it. The manifest's `rules` key picks one. Safari Zone RNW reads its own files
//! (the Field Guide, species, items) into its own model; every other game is made of the
//! component layer's parts (`components::Table`) and its module implements [`Rules`]: the
//! `[play]` keys it reads, the checks that need reasoning about play, the rules part of the
//! ruleset and of the data templates receive, and the captions its cards print. A new game is
//! content plus, at most, one module here.

pub mod diceafari;
pub mod gamewright;
pub mod none;
pub mod safari_zone;
pub mod tricky_safari;

use crate::components::{Key, Table};
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::model::Game;

/// A game's rules over the component layer.
pub trait Rules: Sync {
    /// The manifest's `rules` value that picks this module.
    fn id(&self) -> &'static str;
    /// The game's name, for messages and docs.
    fn title(&self) -> &'static str;
    /// The `[play]` keys it reads; the loader resolves them before any check.
    fn keys(&self) -> &'static [Key];
    /// The checks that need the game's rules. They run on a table that loaded whole.
    fn check(&self, table: &Table, diagnostics: &mut Diagnostics);
    /// The rules part of ruleset.json (`rules`), also given to templates as `game.rules`:
    /// what a playable build needs besides the components.
    fn ruleset(&self, table: &Table) -> serde_json::Value;
    /// A line a card prints besides its fields (a score, a map's size), if any.
    fn card_caption(&self, _table: &Table, _deck: usize, _card: usize) -> Option<String> {
        None
    }
}

/// The modules over the component layer.
pub const MODULES: &[&dyn Rules] = &[
    &gamewright::Gamewright,
    &diceafari::DiceAfari,
    &tricky_safari::TrickySafari,
    &none::NoRules,
];

/// Every rules id a manifest may name.
pub fn known() -> Vec<&'static str> {
    std::iter::once(safari_zone::RULES)
        .chain(MODULES.iter().map(|m| m.id()))
        .collect()
}

/// The component-layer module with this id.
pub fn module(id: &str) -> Option<&'static dyn Rules> {
    MODULES.iter().copied().find(|m| m.id() == id)
}

/// The built-in templates of the rules modules: (name, text).
pub fn templates() -> &'static [(&'static str, &'static str)] {
    safari_zone::print::TEMPLATES
}

/// The print documents rules modules write for a build target, by name (`<name>.pdf`, and
/// previews `preview/<name>-<page>.png`), besides the component layer's: a build of the target
/// replaces them, a build without it keeps them.
pub fn documents(target: crate::backends::Target) -> &'static [&'static str] {
    safari_zone::print::documents(target)
}

/// The export a module runs on its typeset pages (its Tabletop Simulator save), by its id.
pub fn page_export(id: &str) -> Option<&'static dyn crate::backends::print::PageExport> {
    match id {
        safari_zone::RULES => Some(&safari_zone::tts::Export),
        _ => None,
    }
}

/// Runs the checks of the game's rules module.
pub fn check(game: &Game) -> Diagnostics {
    match game.manifest.rules.as_str() {
        safari_zone::RULES => safari_zone::check(game),
        // A manifest that failed to load has already been reported.
        "" => Diagnostics::default(),
        other => {
            let mut diagnostics = Diagnostics::default();
            diagnostics.push(
                Diagnostic::error(Code::UnknownName, format!("unknown rules `{other}`"))
                    .with_primary(game.manifest.origin, "in this manifest")
                    .with_help(format!("known rules: {}", known().join(", "))),
            );
            diagnostics
        }
    }
}
