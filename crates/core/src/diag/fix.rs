//! Suggested edits: the part of a diagnostic's help a tool can carry out.
//!
//! Modelled on rustc's suggestions: a fix is a set of replacements of byte ranges of source
//! files, with how sure the checker is that it is what the designer meant. Only a fix with one
//! right answer (straight quotes for single ones, an id in its canonical form everywhere it is
//! written) is machine-applicable, and only those are applied by `safari fix`; a guess (a name
//! spelled alike, where a missing `}` most likely goes, which of two numbers to change) is
//! kept as "maybe incorrect", for an editor to offer and a person to accept. The JSON output
//! carries both.

use serde::Serialize;

use crate::world::{FileId, GameFolder, Origin};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Applicability {
    /// The edit is what the content means; `safari fix` applies it.
    MachineApplicable,
    /// The edit removes the fault but may not be what the designer meant.
    MaybeIncorrect,
}

/// One replacement: the text at `origin` becomes `replacement` (an insertion when empty).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Edit {
    pub origin: Origin,
    pub replacement: String,
}

impl Edit {
    pub fn new(origin: Origin, replacement: impl Into<String>) -> Self {
        Edit {
            origin,
            replacement: replacement.into(),
        }
    }
}

/// A suggested change: what it does, in words, and its edits (possibly in several files).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    pub message: String,
    pub edits: Vec<Edit>,
    pub applicability: Applicability,
}

impl Fix {
    pub fn new(message: impl Into<String>, edits: Vec<Edit>, applicability: Applicability) -> Self {
        Fix {
            message: message.into(),
            edits,
            applicability,
        }
    }

    pub fn is_machine_applicable(&self) -> bool {
        self.applicability == Applicability::MachineApplicable
    }
}

/// The sure fix of a name written in another case than the one it means (`Grass` for the
/// name `grass`): the name as it is known, written where the source writes it, bare or in
/// quotes. `None` unless the two differ in case alone and the source at `origin` spells the
/// name exactly as `written` (an escape would make the edit unsure).
pub fn case_fix(text: &str, origin: Origin, written: &str, known: &str) -> Option<Fix> {
    if written == known || written.to_lowercase() != known.to_lowercase() {
        return None;
    }
    let at = text.get(origin.range())?;
    let range = if at == written {
        origin.range()
    } else if at.len() == written.len() + 2
        && at.starts_with('"')
        && at.ends_with('"')
        && &at[1..at.len() - 1] == written
    {
        origin.start + 1..origin.end - 1
    } else {
        return None;
    };
    Some(Fix::new(
        format!("write `{known}`"),
        vec![Edit::new(Origin::new(origin.file, range), known)],
        Applicability::MachineApplicable,
    ))
}

/// Applies edits to one file's text, last first so earlier offsets stay valid. Identical edits
/// count once; `None` when two edits overlap or one falls outside the text.
pub fn apply(text: &str, edits: &[&Edit]) -> Option<String> {
    let mut sorted: Vec<&Edit> = edits.to_vec();
    sorted.sort();
    sorted.dedup();
    for pair in sorted.windows(2) {
        let (a, b) = (pair[0].origin, pair[1].origin);
        // Two insertions at one place, or a replacement reaching into the next, are ambiguous.
        if b.start < a.end || (a.start == b.start && a.start == a.end) {
            return None;
        }
    }
    let mut out = text.to_string();
    for edit in sorted.iter().rev() {
        let range = edit.origin.range();
        if range.end > out.len()
            || !out.is_char_boundary(range.start)
            || !out.is_char_boundary(range.end)
        {
            return None;
        }
        out.replace_range(range, &edit.replacement);
    }
    Some(out)
}

/// The files a set of edits touches, each with its edits.
pub fn by_file<'a>(edits: impl IntoIterator<Item = &'a Edit>) -> Vec<(FileId, Vec<&'a Edit>)> {
    let mut files: Vec<(FileId, Vec<&Edit>)> = Vec::new();
    for edit in edits {
        match files.iter_mut().find(|(file, _)| *file == edit.origin.file) {
            Some((_, list)) => list.push(edit),
            None => files.push((edit.origin.file, vec![edit])),
        }
    }
    files.sort_by_key(|(file, _)| *file);
    files
}

#[derive(Serialize)]
pub(super) struct JsonFix<'a> {
    message: &'a str,
    applicability: Applicability,
    edits: Vec<JsonEdit<'a>>,
}

#[derive(Serialize)]
struct JsonEdit<'a> {
    file: &'a str,
    line: usize,
    column: usize,
    start: usize,
    end: usize,
    replacement: &'a str,
}

/// A diagnostic's fixes as the JSON output gives them.
pub(super) fn to_json<'a>(
    fixes: &'a [Fix],
    folder: &'a GameFolder,
    indexes: &mut super::lines::LineIndexes,
) -> Vec<JsonFix<'a>> {
    fixes
        .iter()
        .map(|fix| JsonFix {
            message: &fix.message,
            applicability: fix.applicability,
            edits: fix
                .edits
                .iter()
                .map(|edit| {
                    let source = folder.source(edit.origin.file);
                    let (line, column) =
                        indexes.get(edit.origin.file).line_column(edit.origin.start);
                    let (line, column) = (line + 1, column + 1);
                    JsonEdit {
                        file: &source.name,
                        line,
                        column,
                        start: edit.origin.start,
                        end: edit.origin.end,
                        replacement: &edit.replacement,
                    }
                })
                .collect(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(start: usize, end: usize) -> Origin {
        Origin::new(FileId(0), start..end)
    }

    #[test]
    fn edits_apply_from_the_end_and_overlaps_are_refused() {
        let a = Edit::new(at(0, 1), "\"");
        let b = Edit::new(at(6, 7), "\"");
        assert_eq!(apply("'lucky'", &[&b, &a]).as_deref(), Some("\"lucky\""));
        let c = Edit::new(at(0, 3), "x");
        assert_eq!(apply("'lucky'", &[&a, &c]), None);
        assert_eq!(apply("'lucky'", &[&a, &a]).as_deref(), Some("\"lucky'"));
    }
}
