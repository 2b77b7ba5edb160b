//! Rules modules: what the components of a game mean.
//!
//! The model says what is on the table; a rules module says how it plays and so what can be
//! wrong with it. The manifest's `rules` key picks one. Safari Zone RNW is the first; a new
//! game is content plus, at most, one module here.

pub mod safari_zone;

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::model::Game;

pub const KNOWN: &[&str] = &[safari_zone::RULES];

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
                    .with_help(format!("known rules: {}", KNOWN.join(", "))),
            );
            diagnostics
        }
    }
}
