//! Safari Zone RNW as the pipeline sees it: its own loader and model, its checks, and its
//! build over the game-free backends.

use std::collections::BTreeSet;

use crate::backends::print::{PageExport, Typesetting};
use crate::backends::{BuildOptions, Built, Target};
use crate::diag::{Diagnostic, Diagnostics};
use crate::world::{FileId, GameFolder};
use crate::{CheckOptions, Checked};

/// The module of the `safari-zone-rnw` rules (and of a game whose manifest names none).
pub struct SafariZone;

impl crate::Module for SafariZone {
    fn id(&self) -> &'static str {
        super::RULES
    }

    fn title(&self) -> &'static str {
        "Safari Zone RNW"
    }

    fn check(
        &self,
        folder: &mut GameFolder,
        _manifest: Option<FileId>,
        options: &CheckOptions,
    ) -> Checked {
        let mut diagnostics = Diagnostics::default();
        let mut game = super::load::load(folder, &mut diagnostics);
        // What a build reads besides the content files: the card art (each a picture the
        // templates can draw) and the game's own Typst sources (the Park Rules), each there
        // and inside the folder. `check` refuses what `build` would.
        if let Some(game) = &game {
            let reader = folder.reader();
            let mut seen = std::collections::HashSet::new();
            for art in game.deck.cards.iter().filter_map(|card| card.art.as_ref()) {
                if seen.insert(art.value.as_str())
                    && let Err(diagnostic) = crate::load::picture::read_picture(&reader, &art.value)
                {
                    diagnostics.push(diagnostic.with_primary(art.origin, "named here"));
                }
            }
            if let Err(diagnostic) = super::print::template_files(folder, game) {
                diagnostics.push(diagnostic);
            }
        }
        // Every file is read: the printed pages name the content that made them. The deck's
        // file counts as the Field Guide receives it (the only page that prints the id),
        // unless another part of the game is written in it too, or the sheet prints it whole
        // as its Park Rules.
        if let Some(game) = &mut game {
            let deck = game.deck.origin.file;
            let shared = game.manifest.origin.file == deck
                || game.items.iter().any(|item| item.origin.file == deck)
                || game
                    .species
                    .iter()
                    .any(|species| species.origin.file == deck)
                || game.dice.iter().any(|set| set.origin.file == deck)
                || folder.find(&game.manifest.park_rules.0) == Some(deck);
            let shown = (!shared)
                .then(|| {
                    super::template_data::deck_file_as_the_sheet_sees_it(&folder.source(deck).text)
                })
                .flatten();
            crate::load::add_content_version(
                folder,
                &mut game.manifest.versions,
                shown.as_deref().map(|shown| (deck, shown)),
            );
        }
        let mut sheet = None;
        // Rules checks reason about the whole game; on a partly loaded one they would report
        // the holes loading left (a skipped card, a missing file) as faults of their own.
        if let Some(game) = &game
            && crate::load::is_complete(&diagnostics)
            && !game.guide.sections.is_empty()
        {
            diagnostics.extend(super::check(game));
            if let Some(rules) = folder.find(&game.manifest.park_rules.0) {
                super::purpose::causes_the_rules_never_mention(
                    game,
                    rules,
                    &folder.source(rules).text,
                    &mut diagnostics,
                );
            }
            let paper = options.paper.unwrap_or(game.manifest.paper);
            let size = game.manifest.card_size;
            let from_flag = options.paper.is_some();
            use crate::backends::print::geometry::{DeckLayout, PaperSize, card_fit};
            diagnostics.extend(card_fit(
                "the deck",
                (size.width_mm, size.height_mm),
                PaperSize::of(paper),
                DeckLayout::Duplex,
                game.manifest.print_origin(from_flag),
                from_flag,
            ));
            // The sheet's fit is part of the check: a build never fails on a layout this
            // passed.
            if options.sheet {
                match super::sheet::field_guide(game, paper) {
                    Ok(laid_out) => sheet = Some(laid_out),
                    Err(overflow) => diagnostics.push(overflow),
                }
            }
        }
        diagnostics.sort();
        Checked {
            game,
            table: None,
            diagnostics,
            layout: sheet,
        }
    }

    fn build(
        &self,
        checked: &Checked,
        folder: &mut GameFolder,
        options: &BuildOptions,
        typesetting: &mut Typesetting,
    ) -> Result<Built, Vec<Diagnostic>> {
        let game = game_of(checked);
        let templates =
            super::print::template_files(folder, game).map_err(|diagnostic| vec![diagnostic])?;
        let context = super::build::Context {
            game,
            folder,
            layout: checked.layout.as_ref(),
        };
        super::build::run_all(&context, &templates, options, typesetting)
    }

    fn emit_typst(
        &self,
        checked: &Checked,
        folder: &mut GameFolder,
        options: &BuildOptions,
    ) -> Result<Vec<crate::backends::Output>, Diagnostic> {
        let game = game_of(checked);
        let files = super::print::template_files(folder, game)?;
        let print = crate::backends::print::PrintOptions {
            documents: options.documents(),
            ..options.print.clone()
        };
        super::print::emit(
            game,
            checked.layout.as_ref(),
            &files,
            &folder.reader(),
            &print,
        )
    }

    fn templates(&self) -> &'static [(&'static str, &'static str)] {
        super::print::TEMPLATES
    }

    fn documents(&self, target: Target) -> &'static [&'static str] {
        super::print::documents(target)
    }

    fn stale_after_edit(
        &self,
        _folder: &mut GameFolder,
        edited: &[&str],
    ) -> Option<BTreeSet<Target>> {
        let mut stale = BTreeSet::new();
        for relative in edited {
            stale.extend(stale_after_editing(relative)?);
        }
        Some(stale)
    }

    fn reuses_last_sheet(&self) -> bool {
        true
    }

    fn page_export(&self) -> Option<&'static dyn PageExport> {
        Some(&super::exports::Export)
    }
}

/// The model of a game this module checked: the pipeline builds only what `check` loaded.
fn game_of(checked: &Checked) -> &super::model::Game {
    checked
        .game
        .as_ref()
        .expect("a checked Safari Zone game has its model")
}

/// What an edit of the file at `relative` makes stale, when it is one of the game's own files
/// or templates.
fn stale_after_editing(relative: &str) -> Option<&'static [Target]> {
    use Target::*;
    let name = relative.rsplit('/').next().unwrap_or(relative);
    // The Tabletop Simulator export draws on the cards, the sheet, the dice and the
    // ruleset: whatever else changes, it is made again. Files under other names (card
    // art, an included Typst file, a file `[files]` renames) may show anywhere.
    Some(match (relative.starts_with("templates/"), name) {
        (true, "field-guide.typ" | "sheet.typ") => &[Sheet, Tts, Play],
        (true, "encounter-deck.typ") => &[Deck],
        (true, "cards.typ" | "card.typ" | "deck-pages.typ") => &[Deck, Tts, Play],
        (true, "dice.typ" | "dice-pages.typ") => &[Dice],
        (true, "die-faces.typ") => &[Tts, Play],
        (false, "park-rules.typ") => &[Sheet, Tts, Play],
        // Cards print area and item names and the capture dice's odds.
        (false, "deck.toml") => &[Deck, Ruleset, Tts, Play],
        (false, "dice.toml") => &[Dice, Deck, Sheet, Ruleset, Tts, Play],
        (false, "field-guide.kdl") => &[Sheet, Deck, Ruleset, Tts, Play],
        _ => return None,
    })
}
