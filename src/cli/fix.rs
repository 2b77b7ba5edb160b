//! `safari fix [GAME_DIR]`: apply the fixes the check is sure of, and say what changed.
//!
//! Only machine-applicable fixes are applied (see `diag::fix`): guesses stay in `check`'s help
//! for a person to judge. Files are written only where the loader read them, inside the game
//! folder and not through a symbolic link, each atomically (a temporary file beside it, then a
//! rename), so an interrupted fix leaves every file whole.

use std::path::PathBuf;

use super::{Ui, exit};
use crate::diag::{Diagnostic, Edit, Fix, fix};
use crate::words::{plural, plural_of};
use crate::world::{FileId, GameFolder};

#[derive(clap::Args)]
pub struct Args {
    /// The game folder (holding game.toml).
    #[arg(value_name = "GAME_DIR")]
    game: Option<PathBuf>,

    /// Show the edits without writing them.
    #[arg(long)]
    dry_run: bool,
}

pub fn run(args: Args, ui: Ui) -> u8 {
    let (folder, checked) = match super::check::checked(args.game.as_deref(), ui) {
        Ok(checked) => checked,
        Err(code) => return code,
    };
    let diagnostics: Vec<&Diagnostic> = checked.diagnostics.iter().collect();
    let (chosen, left_out) = choose(&diagnostics);
    let guesses = left_for_a_person(&diagnostics, &chosen);
    if chosen.is_empty() {
        ui.info(format!(
            "{}: nothing to fix with certainty{}",
            folder.display_name(),
            guesses_note(guesses)
        ));
        return exit::OK;
    }
    let mut files = Vec::new();
    for (file, edits) in fix::by_file(chosen.iter().flat_map(|(_, f)| &f.edits)) {
        let Some(path) = folder.path_on_disk(file) else {
            super::error(format_args!(
                "{} is not a file of the game folder on disk; nothing was written",
                folder.source(file).name
            ));
            return exit::FAILURE;
        };
        let Some(text) = fix::apply(&folder.source(file).text, &edits) else {
            super::error(format_args!(
                "the fixes for {} overlap; nothing was written",
                folder.source(file).name
            ));
            return exit::FAILURE;
        };
        files.push((path, text));
    }
    super::print_out(crate::diag::printable(&listing(&folder, &chosen)));
    if args.dry_run {
        ui.info(format!(
            "{} in {} would be applied (dry run: nothing written){}",
            plural_of(chosen.len(), "fix", "fixes"),
            plural(files.len(), "file"),
            guesses_note(guesses)
        ));
        return exit::OK;
    }
    for (path, text) in &files {
        if let Err(err) = crate::output::write_atomically(path, text.as_bytes()) {
            super::error(&err.message);
            return exit::FAILURE;
        }
    }
    // What a person has left to choose is what the check finds in the files as now written.
    let guesses = match super::check::checked(args.game.as_deref(), ui) {
        Ok((_, after)) => {
            let after: Vec<&Diagnostic> = after.diagnostics.iter().collect();
            left_for_a_person(&after, &[])
        }
        Err(_) => guesses,
    };
    ui.info(format!(
        "applied {} in {}{}{}; run `safari check` to see what remains",
        plural_of(chosen.len(), "fix", "fixes"),
        plural(files.len(), "file"),
        if left_out > 0 {
            format!(
                ", {} for another run (touching the same text)",
                plural_of(left_out, "fix left", "fixes left")
            )
        } else {
            String::new()
        },
        guesses_note(guesses)
    ));
    exit::OK
}

fn guesses_note(guesses: usize) -> String {
    match guesses {
        0 => String::new(),
        1 => "; 1 suggestion needs a person to choose (see `safari check`)".to_string(),
        n => format!("; {n} suggestions need a person to choose (see `safari check`)"),
    }
}

/// How many diagnostics leave a person a suggestion to choose once the `chosen` fixes are
/// applied, each counted once however many alternatives it offers. A diagnostic is gone when
/// one of its sure fixes is chosen (by it, or by another diagnostic offering the same edits),
/// or when a chosen edit rewrites the text its suggestions would (a rename reaching the name
/// a guess would have replaced).
fn left_for_a_person(diagnostics: &[&Diagnostic], chosen: &[(&Diagnostic, &Fix)]) -> usize {
    let taken: Vec<&Edit> = chosen.iter().flat_map(|(_, f)| &f.edits).collect();
    diagnostics
        .iter()
        .filter(|d| d.fixes.iter().any(|f| !f.is_machine_applicable()))
        .filter(|d| {
            !d.fixes.iter().any(|f| {
                let chosen_itself =
                    f.is_machine_applicable() && chosen.iter().any(|(_, c)| c.edits == f.edits);
                let overtaken = !f.is_machine_applicable()
                    && f.edits.iter().any(|e| taken.iter().any(|t| overlap(t, e)));
                chosen_itself || overtaken
            })
        })
        .count()
}

/// The machine-applicable fixes to apply together: each whole or not at all, none touching
/// text another already changes. Also how many were left out for touching the same text.
fn choose<'a>(diagnostics: &[&'a Diagnostic]) -> (Vec<(&'a Diagnostic, &'a Fix)>, usize) {
    let mut chosen: Vec<(&Diagnostic, &Fix)> = Vec::new();
    let mut left_out = 0;
    for diagnostic in diagnostics {
        for candidate in diagnostic
            .fixes
            .iter()
            .filter(|f| f.is_machine_applicable())
        {
            // The same fix offered by two diagnostics (an id named in two places) counts once.
            if chosen.iter().any(|(_, f)| f.edits == candidate.edits) {
                continue;
            }
            let taken: Vec<&Edit> = chosen.iter().flat_map(|(_, f)| &f.edits).collect();
            let clashes = candidate
                .edits
                .iter()
                .any(|edit| taken.iter().any(|t| overlap(t, edit)));
            if clashes {
                left_out += 1;
            } else {
                chosen.push((diagnostic, candidate));
            }
        }
    }
    (chosen, left_out)
}

fn overlap(a: &Edit, b: &Edit) -> bool {
    let (a, b) = (a.origin, b.origin);
    a.file == b.file && a.start < b.end.max(b.start + 1) && b.start < a.end.max(a.start + 1)
}

/// Each fix as its file and line, what it does, and the lines before and after.
fn listing(folder: &GameFolder, chosen: &[(&Diagnostic, &Fix)]) -> String {
    let mut out = String::new();
    let mut indexes = crate::diag::LineIndexes::new(folder);
    for (diagnostic, fix) in chosen {
        for edit in &fix.edits {
            let source = folder.source(edit.origin.file);
            let (line, column) = indexes.get(edit.origin.file).line_column(edit.origin.start);
            let (line, column) = (line + 1, column + 1);
            out.push_str(&format!(
                "{}:{line}:{column}: {} ({})\n",
                source.name, fix.message, diagnostic.code
            ));
            let (before, after) = lines_around(folder, edit.origin.file, edit);
            for l in before.lines() {
                out.push_str(&format!("  - {l}\n"));
            }
            for l in after.lines() {
                out.push_str(&format!("  + {l}\n"));
            }
        }
    }
    out
}

/// The whole lines an edit touches, before and after it.
fn lines_around(folder: &GameFolder, file: FileId, edit: &Edit) -> (String, String) {
    let text = &folder.source(file).text;
    let range = edit.origin.range();
    let start = text[..range.start].rfind('\n').map_or(0, |n| n + 1);
    let end = text[range.end..]
        .find('\n')
        .map_or(text.len(), |n| range.end + n);
    let before = text[start..end].to_string();
    let after = format!(
        "{}{}{}",
        &text[start..range.start],
        edit.replacement,
        &text[range.end..end]
    );
    (before, after)
}
