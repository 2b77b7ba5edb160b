//! What a save makes stale, and the builds that remake it: `watch` rebuilds only what an edit
//! affects, as the game's rules module says of its own files, in passes that put the files a
//! designer looks at first (the PDFs, the ruleset) before the slower ones (previews, the
//! export). Here rather than in the command so that the tests and benchmarks time and check
//! the passes `watch` runs, without a file watcher.

use std::collections::BTreeSet;
use std::path::Path;

use crate::backends::{BuildOptions, Target};
use crate::world::GameFolder;

/// What an edit of files of the game folder (`edited`, relative to it) makes stale: what the
/// game's rules module says of them (`Module::stale_after_edit`), from the game in `folder` as
/// it is now. A file the module does not know (card art, an included Typst file) may show
/// anywhere, so it rebuilds everything; so does any file when the manifest names no module.
pub fn affected(
    module: Option<&dyn crate::Module>,
    folder: &mut GameFolder,
    edited: &[&str],
) -> BTreeSet<Target> {
    match module.and_then(|module| module.stale_after_edit(folder, edited)) {
        Some(stale) => stale,
        None => Target::ALL.into_iter().collect(),
    }
}

/// When the game's module can (`reuses_last_sheet`, Safari Zone RNW's), after a content edit
/// that `affected` does not count as the sheet's (a card), the second build gives the export the Field Guide tiles it drew last rather than typeset the sheet,
/// the slowest document, again; and a third build then typesets the sheet and the export, so
/// that what the Park Rules print of the deck (how many cards; the generated reference page
/// lists every design) shows in `field-guide.pdf`, its previews and the export. When it does
/// not, the third build writes nothing: its files are the bytes already written.
pub fn passes(
    targets: &BTreeSet<Target>,
    out: &Path,
    reuses_last_sheet: bool,
) -> Vec<BuildOptions> {
    let mut first = BuildOptions {
        targets: targets
            .iter()
            .copied()
            .filter(|t| *t != Target::Tts)
            .collect(),
        ..BuildOptions::default()
    };
    first.print.page_previews = false;
    let mut passes = vec![first.clone()];
    let prints = targets.iter().any(|t| {
        matches!(
            t,
            Target::Sheet | Target::Deck | Target::Dice | Target::Tiles | Target::Board
        )
    });
    if prints || targets.contains(&Target::Tts) {
        let mut second = first;
        second.targets = targets
            .iter()
            .copied()
            .filter(|t| *t != Target::Ruleset)
            .collect();
        second.print.page_previews = true;
        second.asset_base = crate::backends::tts::AssetBase::OutputFolder(out.to_path_buf());
        // Content changed (the ruleset is stale), the sheet is not rebuilt, the export is.
        let sheet_later = reuses_last_sheet
            && targets.contains(&Target::Ruleset)
            && !targets.contains(&Target::Sheet)
            && targets.contains(&Target::Tts);
        if sheet_later {
            second.last_sheet = true;
            let mut third = second.clone();
            third.last_sheet = false;
            third.targets = vec![Target::Sheet, Target::Tts];
            passes.push(second);
            passes.push(third);
        } else {
            passes.push(second);
        }
    }
    passes
}
