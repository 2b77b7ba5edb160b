//! What an edit of one file of a game made of components makes stale, for `watch`: the
//! outputs that draw what the file defines, read from where each component was written
//! (its origin), whatever the files are called.
//!
//! Every output of the table draws on its own components and on the symbols, so a file that
//! defines a symbol, or that defines nothing this knows (the manifest, a picture, a template
//! every document imports), makes everything stale. The sheets and boards print the content's
//! id, which counts the files they show ([`files_the_content_id_counts`]), so an edit of a
//! sheet's or a board's file makes both stale; the decks, dice and cut sheets print the
//! designer's versions alone. The playtest page holds the ruleset, so it is stale whenever the
//! ruleset is (a game whose rules have no engine has no page, and the target makes nothing).

use std::collections::BTreeSet;

use crate::Target;
use crate::components::Table;
use crate::world::{FileId, GameFolder};

/// The outputs an edit of `relative` makes stale, or `None` when anything may show it.
pub fn after_edit(table: &Table, folder: &GameFolder, relative: &str) -> Option<BTreeSet<Target>> {
    use Target::*;
    if deck_template(table, relative) {
        return Some([Deck, Tts].into());
    }
    // A file the loader did not read (a picture, an included template) may show anywhere.
    let file = folder.find(relative)?;
    if file == table.manifest.origin.file || table.symbols.iter().any(|s| s.id.origin.file == file)
    {
        return None;
    }
    let in_file = |origin: &crate::world::Origin| origin.file == file;
    let mut stale = BTreeSet::new();
    let mut add = |defines: bool, targets: &[Target]| {
        if defines {
            stale.extend(targets.iter().copied().chain([Ruleset, Tts, Play]));
        }
    };
    add(
        table
            .decks
            .iter()
            .any(|d| in_file(&d.origin) || d.cards.iter().any(|c| in_file(&c.origin))),
        &[Deck],
    );
    add(table.dice.iter().any(|d| in_file(&d.origin)), &[Dice]);
    add(
        table.tiles.iter().any(|t| in_file(&t.origin))
            || table.tokens.iter().any(|t| in_file(&t.origin))
            || table.pieces.iter().any(|p| in_file(&p.origin)),
        &[Tiles],
    );
    add(
        table.boards.iter().any(|b| in_file(&b.origin)),
        &[Board, Sheet],
    );
    add(
        sheet_files(table, folder).any(|sheet_file| sheet_file == file),
        &[Sheet, Board],
    );
    add(table.setups.iter().any(|s| in_file(&s.origin)), &[]);
    (!stale.is_empty()).then_some(stale)
}

/// The files the printed `content <id>` counts: those of what prints it (the sheets, their
/// layouts, the boards), of the symbols they show, and the manifest. A file that holds only
/// decks, dice, tiles, tokens, pieces or setups is left out: the pages that show those print
/// the designer's versions alone, and a sheet is the same sheet whatever the deck holds.
pub fn files_the_content_id_counts(table: &Table, folder: &GameFolder) -> BTreeSet<FileId> {
    let mut files: BTreeSet<FileId> = sheet_files(table, folder).collect();
    files.insert(table.manifest.origin.file);
    files.extend(table.symbols.iter().map(|s| s.id.origin.file));
    files.extend(table.boards.iter().map(|b| b.origin.file));
    files
}

/// The files the sheets are written in: their entries and their layouts.
fn sheet_files<'a>(table: &'a Table, folder: &'a GameFolder) -> impl Iterator<Item = FileId> + 'a {
    table.sheets.iter().flat_map(move |sheet| {
        std::iter::once(sheet.origin.file).chain(folder.find(&sheet.layout.value))
    })
}

/// Whether `relative` is a template a deck names for its fronts or back.
fn deck_template(table: &Table, relative: &str) -> bool {
    let Some(name) = relative.strip_prefix("templates/") else {
        return false;
    };
    table
        .decks
        .iter()
        .flat_map(|deck| deck.front.iter().chain(&deck.back))
        .any(|template| template.value == name)
}
