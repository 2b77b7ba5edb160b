//! Two slips in KDL that the parser reports in its own terms, far from where they are, or not
//! at all, found here so that the sheet reader can say what happened in plain words.
//!
//! - **Single and curly quotes.** KDL strings take straight double quotes. KDL 2 reads `'Lucky`
//!   (or `“Lucky`, as a word processor or a phone types it) as a bare word, so
//!   `label='Lucky Chansey'` is a property `'Lucky` and a stray argument `Chansey'`, and
//!   `box “guest-chansey”` an id with quote marks in it. Both are found in the parsed document
//!   and straightened (each quote mark swapped in place for `"`, padded with spaces outside
//!   the string where the mark took more bytes, so every offset stays true), and the reader
//!   goes on with what was meant.
//! - **A missing `"`.** A one-line string runs to the end of its line, and the parser
//!   reports what it makes of the rest ("expected quoted string", a newline in a string) at the
//!   next quote or line. The line tells where the `"` most likely belongs: before a
//!   `name=` the string swallowed (`title="Bag fill="dice:item"`), or at the end of the words
//!   before the line's `{`.
//! - **A missing `}`.** The parser notices only when the enclosing block or the file ends, and
//!   says so there. Indentation tells where the block most likely should have closed: before
//!   the first line after its opening line that is indented no deeper than that line.

use std::ops::Range;

use kdl::{KdlDocument, KdlEntry, KdlValue};

use crate::diag::{Applicability, Code, Diagnostic, Edit, Fix};
use crate::world::{FileId, Origin};

/// The byte range of an entry's value in `text` (after `name=` for a property).
pub(crate) fn value_range(text: &str, entry: &KdlEntry) -> Range<usize> {
    let start = entry.span().offset().min(text.len());
    let end = (start + entry.span().len()).min(text.len());
    let raw = &text[start..end];
    let offset = match entry.name() {
        Some(_) => raw.find('=').map_or(0, |i| i + 1),
        None => 0,
    };
    let value = raw[offset..].trim_start();
    let value_start = start + (raw.len() - value.len());
    value_start..value_start + value.trim_end().len()
}

/// Marks that open a quotation in place of `"`: the single quote, and the curly quotes word
/// processors type.
const OPENING: [char; 5] = ['\'', '\u{2018}', '\u{201c}', '\u{201e}', '\u{201a}'];
/// Marks that close one.
const CLOSING: [char; 4] = ['\'', '\u{2019}', '\u{201d}', '\u{201c}'];

/// Words written in single or curly quotes: `'Lucky Chansey'` (one run of entries), or a
/// quote opened and never closed on its node.
#[derive(Debug, Clone)]
pub(crate) struct SingleQuoted {
    pub range: Range<usize>,
    pub closed: bool,
}

/// Every single-quoted run of string values in a parsed document.
pub(crate) fn single_quoted(document: &KdlDocument, text: &str) -> Vec<SingleQuoted> {
    let mut found = Vec::new();
    let mut stack = vec![document];
    while let Some(document) = stack.pop() {
        for node in document.nodes() {
            found.extend(in_entries(node.entries(), text));
            stack.extend(node.children());
        }
    }
    found.sort_by_key(|q| q.range.start);
    found
}

fn in_entries(entries: &[KdlEntry], text: &str) -> Vec<SingleQuoted> {
    let raw = |entry: &KdlEntry| match entry.value() {
        KdlValue::String(_) => Some(value_range(text, entry)),
        _ => None,
    };
    let mut found = Vec::new();
    let mut i = 0;
    while i < entries.len() {
        let Some(first) = raw(&entries[i]).filter(|r| text[r.clone()].starts_with(OPENING)) else {
            i += 1;
            continue;
        };
        let word = &text[first.clone()];
        if word.chars().count() >= 2 && word.ends_with(CLOSING) {
            found.push(SingleQuoted {
                range: first,
                closed: true,
            });
            i += 1;
            continue;
        }
        // The words after `'Lucky` are arguments until the one that ends the quote.
        let closing = entries[i + 1..]
            .iter()
            .take_while(|e| e.name().is_none())
            .map_while(raw)
            .position(|r| text[r].ends_with(CLOSING));
        match closing {
            Some(n) => {
                let last = raw(&entries[i + 1 + n]).expect("a string entry");
                found.push(SingleQuoted {
                    range: first.start..last.end,
                    closed: true,
                });
                i += n + 2;
            }
            None => {
                found.push(SingleQuoted {
                    range: first,
                    closed: false,
                });
                i += 1;
            }
        }
    }
    found
}

/// The diagnostic for one single-quoted run, with the edit that double-quotes it.
pub(crate) fn single_quoted_diagnostic(
    file: FileId,
    text: &str,
    quoted: &SingleQuoted,
) -> Diagnostic {
    let origin = Origin::new(file, quoted.range.clone());
    let written = &text[quoted.range.clone()];
    let diagnostic = Diagnostic::error(Code::KdlSyntax, "KDL strings take straight double quotes");
    let curly = !written.starts_with('\'');
    let kind = if curly { "curly" } else { "single" };
    if !quoted.closed {
        return diagnostic
            .with_primary(origin, format!("a {kind} quote, never closed on this line"))
            .with_help("write the text in straight double quotes: `\"...\"`");
    }
    let open = written.chars().next().map_or(0, char::len_utf8);
    let close = written.chars().next_back().map_or(0, char::len_utf8);
    let inner = &written[open..written.len() - close];
    let escaped = inner.replace('\\', "\\\\").replace('"', "\\\"");
    let double = format!("\"{escaped}\"");
    let why = if inner.contains(char::is_whitespace) {
        format!("KDL reads {kind}-quoted words as separate bare words, quote marks included")
    } else {
        format!("KDL reads the {kind} quote marks as part of the word")
    };
    diagnostic
        .with_primary(origin, format!("written in {kind} quotes"))
        .with_help(format!("write `{double}`: {why}"))
        .with_fix(Fix::new(
            format!("write `{double}`"),
            vec![Edit::new(origin, double)],
            Applicability::MachineApplicable,
        ))
}

/// The text with each closed quoted run in straight double quotes, when that keeps every
/// offset (nothing inside needs escaping): what the designer meant, to read on from. A curly
/// mark (three bytes) becomes `"` and two spaces outside the string.
pub(crate) fn straightened(text: &str, quoted: &[SingleQuoted]) -> Option<String> {
    let mut bytes = text.as_bytes().to_vec();
    for q in quoted.iter().filter(|q| q.closed) {
        let written = &text[q.range.clone()];
        let open = written.chars().next()?.len_utf8();
        let close = written.chars().next_back()?.len_utf8();
        let inner = &written[open..written.len() - close];
        if inner.contains(['"', '\\']) {
            return None;
        }
        // `  "` before the words and `"  ` after them: the spaces fall outside the string.
        bytes[q.range.start..q.range.start + open].fill(b' ');
        bytes[q.range.start + open - 1] = b'"';
        bytes[q.range.end - close..q.range.end].fill(b' ');
        bytes[q.range.end - close] = b'"';
    }
    String::from_utf8(bytes).ok()
}

/// A one-line string with no closing `"`: where it opens, and where its `"` most likely
/// belongs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct UnclosedString {
    pub open: usize,
    pub close_at: usize,
}

/// The one-line strings that run to the end of their line, with where each most likely ends.
pub(crate) fn unclosed_strings(text: &str) -> Vec<UnclosedString> {
    let mut found = Vec::new();
    // Strings closed on the current line: one may have swallowed a property.
    let mut closed_on_line: Vec<Range<usize>> = Vec::new();
    scan(text, |at, mark| match mark {
        Mark::LineEnd => closed_on_line.clear(),
        Mark::String { end, closed: true } => closed_on_line.push(at..end),
        Mark::String { end, closed: false } => {
            let swallowed = closed_on_line
                .iter()
                .find_map(|s| swallowed_property(text, s));
            found.push(match swallowed {
                Some((open, close_at)) => UnclosedString { open, close_at },
                None => UnclosedString {
                    open: at,
                    close_at: end_of_words(text, at, end),
                },
            });
        }
        Mark::Open | Mark::Close => {}
    });
    found
}

/// What [`scan`] finds outside comments: line ends, braces and quoted strings.
enum Mark {
    LineEnd,
    Open,
    Close,
    /// A quoted string (raw and multi-line ones included) ending at `end`; one-line strings
    /// with no closing `"` end at their line's end.
    String {
        end: usize,
        closed: bool,
    },
}

/// Walks `text` as the KDL lexer would, handing each mark and its offset to `visit`.
fn scan(text: &str, mut visit: impl FnMut(usize, Mark)) {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                visit(i, Mark::LineEnd);
                i += 1;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i = text[i..].find('\n').map_or(bytes.len(), |n| i + n);
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => i = after_block_comment(bytes, i),
            b'#' if bytes[i..].iter().find(|b| **b != b'#') == Some(&b'"') => {
                let hashes = bytes[i..].iter().take_while(|b| **b == b'#').count();
                let closing = format!("\"{}", "#".repeat(hashes));
                let body = i + hashes + 1;
                let end = text[body..]
                    .find(&closing)
                    .map_or(bytes.len(), |n| body + n + closing.len());
                visit(i, Mark::String { end, closed: true });
                i = end;
            }
            b'"' => {
                let (end, closed) = after_string(bytes, i);
                visit(i, Mark::String { end, closed });
                i = end;
            }
            b'{' => {
                visit(i, Mark::Open);
                i += 1;
            }
            b'}' => {
                visit(i, Mark::Close);
                i += 1;
            }
            _ => i += 1,
        }
    }
}

/// A closed string that ends in ` name=` (`"Bag fill="`): the one left open, its `"` most
/// likely missing before the space, the rest being the next property. Where it opens, and
/// where it should end.
fn swallowed_property(text: &str, string: &Range<usize>) -> Option<(usize, usize)> {
    let inner = text.get(string.start + 1..string.end - 1)?;
    let name = inner.strip_suffix('=')?;
    let space = name.rfind(char::is_whitespace)?;
    let key = &name[space + 1..];
    let is_key = key.starts_with(|c: char| c.is_ascii_alphabetic())
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    let before = name[..space].trim_end();
    (is_key && !before.is_empty()).then(|| (string.start, string.start + 1 + before.len()))
}

/// Where a string opened at `open` and running to `end` (its line's end) most likely ends:
/// before the first ` name=` it runs into (`"Score Sheet columns=3`), else after its last
/// word, before a `{` that opens the node's children.
fn end_of_words(text: &str, open: usize, end: usize) -> usize {
    let rest = &text[open + 1..end];
    let property = rest
        .char_indices()
        .filter(|(_, c)| c.is_whitespace())
        .map(|(i, _)| i)
        .find(|&i| {
            let word = rest[i..].trim_start();
            let key_len = word
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
                .unwrap_or(word.len());
            word.starts_with(|c: char| c.is_ascii_alphabetic()) && word[key_len..].starts_with('=')
        })
        .filter(|&i| !rest[..i].trim_end().is_empty());
    if let Some(i) = property {
        return open + 1 + rest[..i].trim_end().len();
    }
    let rest = rest.trim_end();
    let rest = match rest.strip_suffix('{') {
        Some(words) if !words.trim_end().is_empty() => words.trim_end(),
        _ => rest,
    };
    open + 1 + rest.len()
}

/// The diagnostic for a string with no closing `"`, with the edit that closes it where it most
/// likely ends.
pub(crate) fn unclosed_string_diagnostic(
    file: FileId,
    text: &str,
    string: &UnclosedString,
) -> Diagnostic {
    let line = text[..string.open].matches('\n').count() + 1;
    let start = string.open;
    let written = &text[start..string.close_at];
    let closed = format!("{written}\"");
    Diagnostic::error(
        Code::KdlSyntax,
        format!("a `\"` is missing: the string opened on line {line} is never closed"),
    )
    .with_primary(
        Origin::new(file, start..string.close_at.max(start + 1)),
        "this string has no closing `\"`",
    )
    .with_help(format!(
        "close it where its text ends: `{closed}` (a string in KDL stays on one line)"
    ))
    .with_fix(Fix::new(
        format!("write `{closed}`"),
        vec![Edit::new(
            Origin::new(file, string.close_at..string.close_at),
            "\"".to_string(),
        )],
        Applicability::MaybeIncorrect,
    ))
}

/// A `{` never closed, and the offset of the line before which its `}` most likely belongs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unclosed {
    pub open: usize,
    pub close_before: usize,
}

/// The blocks whose `}` is missing, matching braces by indentation: a `}` alone on its line
/// closes the innermost open block whose opening line is indented as deep as it, and the
/// blocks opened deeper in between are the ones left open.
pub(crate) fn unclosed_blocks(text: &str) -> Vec<Unclosed> {
    braces(text).0
}

/// A node whose children were written without the `{` that opens them: the parser reports
/// the `}` that closes them, often many lines below, as "expected end of document".
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unopened {
    /// The node's line: its content, without indentation or the line end.
    pub node: Range<usize>,
    /// The `}` that has no `{`.
    pub close: usize,
}

/// The `}`s alone on their line, deeper than every block open there (so closing none), each
/// with the node above it at its indentation whose children it closes.
pub(crate) fn unopened_blocks(text: &str) -> Vec<Unopened> {
    braces(text).1
}

/// The node whose children the `}` at `close` closes when its `{` is missing: the nearest line
/// above with content at the `}`'s indentation, not ending in `{`, with deeper lines (its
/// children) between it and the `}`.
fn node_without_brace(text: &str, close: usize) -> Option<Range<usize>> {
    let depth = indent_of(text, close);
    let mut end = line_start(text, close).checked_sub(1)?;
    let mut children = false;
    loop {
        let start = line_start(text, end);
        let line = &text[start..end];
        let content = line.trim_start_matches([' ', '\t']);
        let indent = line.len() - content.len();
        let blank = content.trim().is_empty() || content.starts_with("//");
        if !blank && indent <= depth {
            let content = content.trim_end();
            return (indent == depth && children && !content.ends_with('{'))
                .then(|| start + indent..start + indent + content.len());
        }
        children |= !blank;
        end = start.checked_sub(1)?;
    }
}

/// Matches braces by indentation: the blocks left open, and the `}`s whose `{` is missing.
fn braces(text: &str) -> (Vec<Unclosed>, Vec<Unopened>) {
    let mut open: Vec<(usize, usize)> = Vec::new();
    let mut unclosed = Vec::new();
    let mut stray = Vec::new();
    scan(text, |i, mark| match mark {
        Mark::Open => open.push((i, indent_of(text, i))),
        Mark::Close => {
            let line = line_start(text, i);
            if text[line..i].trim().is_empty() {
                let depth = i - line;
                // Deeper than the innermost open block, below a node with children and no
                // `{`: it closes the children that node never opened.
                if open.last().is_none_or(|&(_, indent)| indent < depth)
                    && let Some(node) = node_without_brace(text, i)
                {
                    stray.push(Unopened { node, close: i });
                    return;
                }
                while let Some(&(at, indent)) = open.last()
                    && indent > depth
                {
                    unclosed.push(at);
                    open.pop();
                }
            }
            open.pop();
        }
        Mark::LineEnd | Mark::String { .. } => {}
    });
    unclosed.extend(open.into_iter().map(|(at, _)| at));
    unclosed.sort_unstable();
    let unclosed = unclosed
        .into_iter()
        .map(|at| Unclosed {
            open: at,
            close_before: close_before(text, at),
        })
        .collect();
    (unclosed, stray)
}

/// The diagnostic for a node whose children have no `{`, at the node, with the edit that adds
/// it.
pub(crate) fn unopened_diagnostic(file: FileId, text: &str, block: &Unopened) -> Diagnostic {
    let node = &text[block.node.clone()];
    let closed_on = text[..block.close].matches('\n').count() + 1;
    let end = Origin::new(file, block.node.end..block.node.end);
    Diagnostic::error(Code::KdlSyntax, "a block of children has no `{`")
        .with_primary(
            Origin::new(file, block.node.clone()),
            "the lines below this one are its children, but it has no `{`",
        )
        .with_secondary(
            Origin::new(file, block.close..block.close + 1),
            "and this `}` closes them",
        )
        .with_help(format!(
            "end the line with ` {{`: `{} {{` (the `}}` on line {closed_on} closes it)",
            node.trim_end()
        ))
        .with_fix(Fix::new(
            "add ` {` at the end of the line",
            vec![Edit::new(end, " {".to_string())],
            Applicability::MaybeIncorrect,
        ))
}

fn after_block_comment(bytes: &[u8], start: usize) -> usize {
    let mut depth = 0;
    let mut i = start;
    while i + 1 < bytes.len() {
        match (bytes[i], bytes[i + 1]) {
            (b'/', b'*') => {
                depth += 1;
                i += 2;
            }
            (b'*', b'/') => {
                depth -= 1;
                i += 2;
                if depth == 0 {
                    return i;
                }
            }
            _ => i += 1,
        }
    }
    bytes.len()
}

/// The end of the string opening at `start`, and whether it is closed: a one-line string that
/// runs to the end of its line ends there, unclosed.
fn after_string(bytes: &[u8], start: usize) -> (usize, bool) {
    let multiline = bytes[start..].starts_with(b"\"\"\"");
    let mut i = start + if multiline { 3 } else { 1 };
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' if !multiline => return (i + 1, true),
            b'"' if bytes[i..].starts_with(b"\"\"\"") => return (i + 3, true),
            b'\n' if !multiline => return (i, false),
            _ => i += 1,
        }
    }
    (bytes.len(), false)
}

fn line_start(text: &str, at: usize) -> usize {
    text[..at].rfind('\n').map_or(0, |n| n + 1)
}

fn indent_of(text: &str, at: usize) -> usize {
    let line = &text[line_start(text, at)..];
    line.len() - line.trim_start_matches([' ', '\t']).len()
}

/// The start of the first line after the one holding `open` that has content (not only a
/// comment) and is indented no deeper than that line; the end of the text when none is.
fn close_before(text: &str, open: usize) -> usize {
    let indent = indent_of(text, open);
    let mut start = text[open..].find('\n').map_or(text.len(), |n| open + n + 1);
    while start < text.len() {
        let end = text[start..].find('\n').map_or(text.len(), |n| start + n);
        let line = &text[start..end];
        let content = line.trim_start_matches([' ', '\t']);
        let blank = content.trim().is_empty() || content.starts_with("//");
        if !blank && line.len() - content.len() <= indent {
            return start;
        }
        start = end + 1;
    }
    text.len()
}

/// The diagnostic for a block left open, pointing where its `}` most likely belongs, with the
/// edit that puts it there (a guess from indentation).
pub(crate) fn unclosed_diagnostic(file: FileId, text: &str, block: &Unclosed) -> Diagnostic {
    let opener_line = line_start(text, block.open);
    let opener = text[opener_line..block.open].trim();
    let opened_on = text[..block.open].matches('\n').count() + 1;
    let what = if opener.is_empty() {
        "a block".to_string()
    } else {
        format!("the block of `{opener}`")
    };
    let indent = &text[opener_line..opener_line + indent_of(text, block.open)];
    // The `}` goes on its own line after the block's last line of content.
    let after_content = text[..block.close_before]
        .trim_end()
        .len()
        .max(block.open + 1);
    let closer = format!("\n{indent}}}");
    let last_line = text[..after_content].matches('\n').count() + 1;
    let next = &text[block.close_before..];
    let next_line = next.split('\n').next().unwrap_or_default();
    let content = next_line.trim_start();
    let at = block.close_before + (next_line.len() - content.len());
    let where_to = if content.is_empty() {
        Origin::new(file, text.len()..text.len())
    } else {
        Origin::new(file, at..at + content.trim_end().len())
    };
    let label = if content.is_empty() {
        "the file ends with this block still open".to_string()
    } else {
        format!("{what} most likely ends before this line")
    };
    Diagnostic::error(
        Code::KdlSyntax,
        format!("{what}, opened on line {opened_on}, has no closing `}}`"),
    )
    .with_primary(where_to, label)
    .with_secondary(Origin::new(file, block.open..block.open + 1), "opened here")
    .with_help(format!(
        "add `}}` on a line of its own after line {last_line}, indented like the line that opened the block"
    ))
    .with_fix(Fix::new(
        format!("close the block after line {last_line}"),
        vec![Edit::new(
            Origin::new(file, after_content..after_content),
            closer,
        )],
        Applicability::MaybeIncorrect,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_brace_belongs_before_the_next_line_as_shallow_as_its_opener() {
        let text = "section \"a\" {\n    track \"t\" {\n        box\n\n    track \"u\" {\n        box\n    }\n}\n";
        let found = unclosed_blocks(text);
        assert_eq!(found.len(), 1);
        assert_eq!(&text[found[0].open - 10..found[0].open], "track \"t\" ");
        assert!(text[found[0].close_before..].starts_with("    track \"u\""));
    }

    #[test]
    fn a_missing_open_brace_is_found_at_the_node_whose_children_it_opens() {
        let track = "section \"a\" {\n    track \"t\"\n        box\n    }\n    track \"u\" {\n        box\n    }\n}\n";
        let found = unopened_blocks(track);
        assert_eq!(found.len(), 1);
        assert_eq!(&track[found[0].node.clone()], "track \"t\"");
        assert!(unclosed_blocks(track).is_empty());
        let section =
            "section \"a\"\n    track \"t\" {\n        box\n    }\n\n    track \"u\" {\n    }\n}\n";
        let found = unopened_blocks(section);
        assert_eq!(found.len(), 1);
        assert_eq!(&section[found[0].node.clone()], "section \"a\"");
        // A `}` indented deeper than its opener, below no childless node, closes its block.
        let deep = "section \"a\" {\n    box\n    }\n";
        assert!(unopened_blocks(deep).is_empty() && unclosed_blocks(deep).is_empty());
    }

    #[test]
    fn a_string_left_open_ends_before_the_property_it_swallowed_or_after_its_words() {
        let swallowed = "section \"bag\" title=\"Bag fill=\"dice:item\" {\n}\n";
        let found = unclosed_strings(swallowed);
        assert_eq!(found.len(), 1);
        assert_eq!(
            &swallowed[found[0].open..found[0].close_at],
            "\"Bag",
            "the string left open is the one that swallowed `fill=`"
        );
        let at_end = "section \"bag\" title=\"Bag {\n    box\n}\n";
        let found = unclosed_strings(at_end);
        assert_eq!(found.len(), 1);
        assert_eq!(&at_end[found[0].open..found[0].close_at], "\"Bag");
        let inside = "sheet title=\"Score Sheet columns=3\n";
        let found = unclosed_strings(inside);
        assert_eq!(&inside[found[0].open..found[0].close_at], "\"Score Sheet");
        let fine = "a \"x\" \"\"\"\nlong\n\"\"\" #\"raw \"\"# // \"\n";
        assert!(unclosed_strings(fine).is_empty());
    }

    #[test]
    fn braces_in_strings_and_comments_do_not_count() {
        let text = "a \"{\" /* { */ #\"}\"# {\n    // {\n    b\n}\n";
        assert!(unclosed_blocks(text).is_empty());
    }
}
