//! The Field Guide on the paper: Safari Zone RNW's words for the sheet's title band and key,
//! handed to the game-free layout (`crate::layout`) with the sheet its template data reads.

use super::model::{Game, Paper};
use crate::backends::print::geometry::PaperSize;
use crate::diag::Diagnostic;
use crate::layout::{KeyWords, SheetLayout, Titles, lay_out};

use super::template_data as data;

/// What the Field Guide's key says its marks mean.
pub(crate) const KEY: KeyWords<'static> = KeyWords {
    needs: "needs this first",
    gives: "gives this",
    bonus: "bonus: fill another square box",
    trigger: "trigger: filled by its event",
    free: "free: fill any time",
};

/// The Field Guide of `game` laid out on `paper`, or the diagnostic saying why it does not fit.
pub fn field_guide(game: &Game, paper: Paper) -> Result<SheetLayout, Diagnostic> {
    let sheet = data::sheet_data(game);
    let versions = data::versions(game);
    let titles = Titles {
        name: &game.manifest.name,
        versions: &versions,
        player: "Trainer",
        score: "Score",
        key: &KEY,
        own_paper: false,
    };
    lay_out(&sheet, &titles, PaperSize::of(paper)).map_err(|overflow| {
        let sections: Vec<_> = game.guide.sections.iter().map(|s| s.origin).collect();
        overflow.diagnostic("the Field Guide", &sections)
    })
}
