//! Reading TOML so that one fault does not hide the next.
//!
//! A file is parsed with recovery (every syntax error is kept), then deserialised piece by
//! piece: the top-level keys, and each entry of the file's main array on its own. A bad card
//! is reported and skipped, and the other 51 still load.

use serde::de::DeserializeOwned;
use toml::Spanned;
use toml::de::{DeTable, DeValue, ValueDeserializer};

use super::limits::{MAX_ENTRIES, MAX_TEXT_CHARS};
use crate::diag::{Applicability, Code, Diagnostic, Diagnostics, Edit, Fix};
use crate::words::and_list;
use crate::world::{FileId, Origin};

pub(crate) fn syntax_error(file: FileId, error: &toml::de::Error, text: &str) -> Diagnostic {
    let span = error.span().unwrap_or(text.len()..text.len());
    let word = text.get(span.clone()).unwrap_or_default();
    let diagnostic = Diagnostic::error(Code::TomlSyntax, first_line(error.message()))
        .with_primary(Origin::new(file, span.clone()), "here");
    let bare_word = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
        && !word.chars().all(|c| c.is_ascii_digit());
    if let Some(inner) = curly_quoted(word) {
        // As a word processor or a phone types quotes: “Tiny Safari”.
        let escaped = inner.replace('\\', "\\\\").replace('"', "\\\"");
        let straight = format!("\"{escaped}\"");
        let origin = Origin::new(file, span);
        diagnostic
            .with_help(format!(
                "write `{straight}`: TOML strings take straight quotes, not curly ones"
            ))
            .with_fix(Fix::new(
                format!("write `{straight}`"),
                vec![Edit::new(origin, straight)],
                Applicability::MachineApplicable,
            ))
    } else if bare_word {
        diagnostic.with_help(format!("text values need quotes: \"{word}\""))
    } else {
        diagnostic
    }
}

/// The words inside `word` when curly quotes enclose it (`“Tiny Safari”`, `‘Tiny’`).
fn curly_quoted(word: &str) -> Option<&str> {
    let inner = word.strip_prefix(['\u{201c}', '\u{2018}', '\u{201e}'])?;
    inner.strip_suffix(['\u{201d}', '\u{2019}', '\u{201c}'])
}

pub(crate) fn value_error(file: FileId, error: &toml::de::Error, fallback: Origin) -> Diagnostic {
    let origin = error
        .span()
        .map_or(fallback, |span| Origin::new(file, span));
    let message = first_line(error.message());
    let diagnostic = Diagnostic::error(Code::InvalidValue, message.clone());
    if let Some(key) = message.strip_prefix("missing field ") {
        return diagnostic
            .with_primary(origin, "in this table")
            .with_help(format!("add {key}; docs/content.md lists every key"));
    }
    let diagnostic = diagnostic.with_primary(origin, "here");
    match unknown_key(&message) {
        Some((unknown, known)) => {
            // Keys are words joined by dashes: `card_count` and `Card-Count` are slips.
            let dashed = unknown.replace(['_', ' '], "-").to_lowercase();
            if let Some(same) = known.iter().find(|k| **k == dashed) {
                let same = same.to_string();
                return diagnostic
                    .with_help(format!("keys are written with dashes: `{same}`"))
                    .with_fix(Fix::new(
                        format!("write `{same}`"),
                        vec![Edit::new(origin, same.clone())],
                        Applicability::MachineApplicable,
                    ));
            }
            match crate::diag::similar_name(&dashed, known.iter().copied()) {
                Some(similar) => diagnostic
                    .with_help(format!("a key with a similar spelling exists: `{similar}`")),
                None => diagnostic,
            }
        }
        None => diagnostic,
    }
}

/// The key serde names in "missing field `x`".
fn missing_field(message: &str) -> Option<&str> {
    message.strip_prefix("missing field `")?.split('`').next()
}

/// Keys a table lacks: the table's span and each key, with the keys a table written for it
/// would lack in turn (`[play]` with `turns` and `safari-balls`).
type Missing = Vec<(std::ops::Range<usize>, Vec<(String, Vec<String>)>)>;

/// Values tried in place of a missing key until one has the type the key takes, the last
/// first.
fn stand_ins() -> [DeValue<'static>; 6] {
    let parsed = |literal: &'static str| {
        DeValue::parse(literal).map_or(DeValue::Boolean(true), Spanned::into_inner)
    };
    [
        parsed("[]"),
        DeValue::Boolean(true),
        parsed("1.0"),
        parsed("1"),
        parsed("\"-\""),
        DeValue::Table(DeTable::new()),
    ]
}

/// The first word serde names in "unknown variant `x`, expected one of `a`, `b`" (or
/// "expected `a` or `b`"), as a string value.
fn first_variant(message: &str) -> Option<DeValue<'static>> {
    let expected = message.split_once("expected")?.1;
    let word = expected.split('`').nth(1)?;
    Some(DeValue::String(std::borrow::Cow::Owned(word.to_string())))
}

/// Deserialises `value` into `T`, finding every missing key at once: serde stops at the first,
/// so each is filled with a stand-in of the type the key takes and the value read again.
/// Returns the value when nothing was missing, the missing keys, and the first other fault.
fn every_missing_key<T: DeserializeOwned>(
    mut value: Spanned<DeValue<'_>>,
) -> (Option<T>, Missing, Option<toml::de::Error>) {
    /// Rounds of stand-ins: more than any table has keys.
    const MAX_ROUNDS: usize = 64;
    // Stand-ins get spans past any text, so the keys they lack are told apart.
    const PAST_THE_TEXT: usize = usize::MAX / 2;
    let stand_in_span = |n: usize| PAST_THE_TEXT + 2 * n..PAST_THE_TEXT + 1 + 2 * n;
    let mut missing: Missing = Vec::new();
    // Each stand-in written for a missing key: its span, and where that key is listed.
    let mut stood_in: Vec<(std::ops::Range<usize>, (usize, usize))> = Vec::new();
    let mut result = T::deserialize(ValueDeserializer::from(value.clone()));
    for round in 0..MAX_ROUNDS {
        let error = match result {
            Ok(header) => return (missing.is_empty().then_some(header), missing, None),
            Err(error) => error,
        };
        let Some(key) = missing_field(error.message()).map(str::to_string) else {
            return (None, missing, Some(error));
        };
        let span = error.span().unwrap_or_else(|| value.span());
        // The table the key is missing from; one that has it already was not the one meant.
        if table_at(&mut value, &span).is_none_or(|t| t.keys().any(|k| *k.get_ref() == key)) {
            return (None, missing, Some(error));
        }
        let new_span = stand_in_span(round);
        match stood_in.iter().find(|(s, _)| *s == span) {
            // A key the stand-in table lacks: one to write in the table the help asks for.
            Some((_, (t, k))) => missing[*t].1[*k].1.push(key.clone()),
            None if span.start >= PAST_THE_TEXT => {}
            None => {
                let t = missing
                    .iter()
                    .position(|(s, _)| *s == span)
                    .unwrap_or_else(|| {
                        missing.push((span.clone(), Vec::new()));
                        missing.len() - 1
                    });
                missing[t].1.push((key.clone(), Vec::new()));
                stood_in.push((new_span.clone(), (t, missing[t].1.len() - 1)));
            }
        }
        let name = Spanned::new(new_span.clone(), std::borrow::Cow::Owned(key));
        let mut typed = None;
        let mut candidates: Vec<DeValue<'static>> = stand_ins().into();
        // The stand-ins and a word of a fixed set, each tried once.
        let mut tries = candidates.len() + 1;
        while let Some(stand_in) = candidates.pop().filter(|_| tries > 0) {
            tries -= 1;
            if let Some(table) = table_at(&mut value, &span) {
                table.insert(name.clone(), Spanned::new(new_span.clone(), stand_in));
            }
            let again = T::deserialize(ValueDeserializer::from(value.clone()));
            let wrong = match &again {
                Err(e) if e.span() == Some(new_span.clone()) => match missing_field(e.message()) {
                    Some(_) => None,
                    None => Some(e.message().to_string()),
                },
                _ => None,
            };
            match wrong {
                // A word of a fixed set: the first word the key takes.
                Some(message) => candidates.extend(first_variant(&message)),
                None => {
                    typed = Some(again);
                    break;
                }
            }
        }
        match typed {
            Some(again) => result = again,
            // No stand-in fits the key: the keys found so far are the report.
            None => return (None, missing, None),
        }
    }
    (None, missing, None)
}

/// The table in `value` whose span is `span`.
fn table_at<'v, 'i>(
    value: &'v mut Spanned<DeValue<'i>>,
    span: &std::ops::Range<usize>,
) -> Option<&'v mut DeTable<'i>> {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        if value.span() == *span {
            if let DeValue::Table(table) = value.get_mut() {
                return Some(table);
            }
            continue;
        }
        match value.get_mut() {
            DeValue::Table(table) => stack.extend(table.iter_mut().map(|(_, v)| v)),
            DeValue::Array(array) => stack.extend(array.iter_mut()),
            _ => {}
        }
    }
    None
}

/// One report per table that lacks keys, naming them all, with the tables to write for the
/// keys that are tables.
fn missing_keys(file: FileId, missing: &Missing, whole: Origin) -> Vec<Diagnostic> {
    let quoted = |keys: &mut dyn Iterator<Item = &String>| -> Vec<String> {
        keys.map(|k| format!("`{k}`")).collect()
    };
    missing
        .iter()
        .map(|(span, keys)| {
            let origin = match span.end <= whole.range().end && *span != whole.range() {
                true => Origin::new(file, span.clone()),
                false => whole,
            };
            let names = quoted(&mut keys.iter().map(|(k, _)| k));
            let message = match names.len() {
                1 => format!("missing key {}", names[0]),
                _ => format!("missing keys {}", and_list(&names)),
            };
            let add: Vec<String> = keys
                .iter()
                .map(|(key, inner)| match inner.is_empty() {
                    true => format!("`{key}`"),
                    false => format!(
                        "a `[{key}]` table with {}",
                        and_list(&quoted(&mut inner.iter()))
                    ),
                })
                .collect();
            Diagnostic::error(Code::InvalidValue, message)
                .with_primary(origin, "in this table")
                .with_help(format!(
                    "add {}; docs/content.md lists every key",
                    and_list(&add)
                ))
        })
        .collect()
}

/// The key and the keys serde names in "unknown field `x`, expected one of `a`, `b`".
fn unknown_key(message: &str) -> Option<(&str, Vec<&str>)> {
    let rest = message.strip_prefix("unknown field `")?;
    let (unknown, rest) = rest.split_once('`')?;
    let known = rest.split('`').skip(1).step_by(2).collect::<Vec<_>>();
    Some((unknown, known))
}

fn first_line(message: &str) -> String {
    message.lines().next().unwrap_or(message).trim().to_string()
}

/// The longest string in a value (keys included): its length in characters and its span.
fn longest_text(value: &Spanned<DeValue>) -> Option<(usize, std::ops::Range<usize>)> {
    // (length in characters, span); iterative, as values nest as deep as the file says.
    let mut longest: Option<(usize, std::ops::Range<usize>)> = None;
    let mut consider = |chars: usize, span: std::ops::Range<usize>| {
        if longest.as_ref().is_none_or(|(n, _)| chars > *n) {
            longest = Some((chars, span));
        }
    };
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value.get_ref() {
            DeValue::String(text) => consider(text.chars().count(), value.span()),
            DeValue::Array(items) => stack.extend(items.iter()),
            DeValue::Table(table) => {
                for (key, item) in table.iter() {
                    consider(key.get_ref().chars().count(), key.span());
                    stack.push(item);
                }
            }
            _ => {}
        }
    }
    longest
}

fn text_too_long(file: FileId, span: std::ops::Range<usize>) -> Diagnostic {
    Diagnostic::error(
        Code::LimitExceeded,
        format!("a text longer than {MAX_TEXT_CHARS} characters"),
    )
    .with_primary(Origin::new(file, span.start..span.start + 1), "this text starts here")
    .with_help("shorten it: a text on a card or the sheet is at most a paragraph; the entry holding it is not read")
}

/// Parses a TOML file with recovery, reporting each syntax error: the table (owned) and the
/// spans the errors cover.
fn parse<'t>(
    file: FileId,
    text: &'t str,
    diagnostics: &mut Diagnostics,
) -> (Spanned<DeTable<'t>>, Vec<std::ops::Range<usize>>) {
    let (mut table, errors) = DeTable::parse_recoverable(text);
    for error in &errors {
        diagnostics.push(syntax_error(file, error, text));
    }
    table.get_mut().make_owned();
    let broken = errors.iter().filter_map(|e| e.span()).collect();
    (table, broken)
}

/// Whether `span` touches one of the syntax errors' spans (an empty span counts as one byte).
fn overlaps(broken: &[std::ops::Range<usize>], span: &std::ops::Range<usize>) -> bool {
    broken
        .iter()
        .any(|b| b.start < span.end.max(span.start + 1) && span.start < b.end.max(b.start + 1))
}

/// Parses a TOML file into `T`, deserialising each entry of the array `many` separately.
/// Returns the top-level value (without `many`), when it deserialised, and the entries that
/// did: a typo in a top-level key does not lose the entries.
pub fn read<T: DeserializeOwned, E: DeserializeOwned>(
    file: FileId,
    text: &str,
    many: &str,
    diagnostics: &mut Diagnostics,
) -> (Option<T>, Vec<(E, Origin)>) {
    let (table, broken) = parse(file, text, diagnostics);
    let had_syntax_errors = !broken.is_empty();
    let overlaps_syntax_error = |span: &std::ops::Range<usize>| overlaps(&broken, span);
    let whole = Origin::new(file, 0..text.len());
    let span = table.span();
    let mut inner = table.into_inner();
    let entries = inner
        .keys()
        .find(|k| k.get_ref() == many)
        .cloned()
        .and_then(|key| inner.remove(&key));
    let header: Option<T> = {
        let value = Spanned::new(span, DeValue::Table(inner));
        let long = longest_text(&value).filter(|(n, _)| *n > MAX_TEXT_CHARS);
        match long {
            Some((_, long)) => {
                diagnostics.push(text_too_long(file, long));
                None
            }
            None => {
                let (header, missing, error) = every_missing_key::<T>(value);
                // A syntax error usually explains a missing key: don't report both.
                if !had_syntax_errors {
                    diagnostics.extend(missing_keys(file, &missing, whole));
                    if let Some(error) = error {
                        diagnostics.push(value_error(file, &error, whole));
                    }
                }
                header
            }
        }
    };
    let mut parsed = Vec::new();
    if let Some(entries) = entries {
        each_entry(
            file,
            many,
            entries,
            &overlaps_syntax_error,
            diagnostics,
            &mut |entry, origin| {
                parsed.push((self::entry::<E>(entry)?, origin));
                Ok(())
            },
        );
    }
    (header, parsed)
}

/// A table entry as parsed, with its span.
pub type Entry<'a> = Spanned<DeValue<'a>>;
/// The outcome of deserialising one entry.
pub type Taken = Result<(), Fault>;

/// Why an entry did not deserialise: every key it lacks, and the first other fault.
#[derive(Debug)]
pub struct Fault {
    missing: Missing,
    error: Option<toml::de::Error>,
}

impl From<toml::de::Error> for Fault {
    fn from(error: toml::de::Error) -> Self {
        Fault {
            missing: Vec::new(),
            error: Some(error),
        }
    }
}

/// Deserialises one entry of a list, finding every key it lacks at once.
pub fn entry<E: DeserializeOwned>(entry: Entry<'_>) -> Result<E, Fault> {
    match every_missing_key::<E>(entry) {
        (Some(value), _, _) => Ok(value),
        (None, missing, error) => Err(Fault { missing, error }),
    }
}

/// Each entry of the array `many` handed to `take` on its own (at most `MAX_ENTRIES`, none
/// with a text past the limit); a fault `take` returns is reported unless a syntax error
/// (`broken`) already explains it.
fn each_entry(
    file: FileId,
    many: &str,
    entries: Spanned<DeValue<'_>>,
    broken: &dyn Fn(&std::ops::Range<usize>) -> bool,
    diagnostics: &mut Diagnostics,
    take: &mut dyn FnMut(Entry<'_>, Origin) -> Taken,
) {
    let entries_span = entries.span();
    let array = match entries.into_inner() {
        DeValue::Array(array) => array,
        other => {
            return diagnostics.push(
                Diagnostic::error(
                    Code::InvalidValue,
                    format!(
                        "`{many}` must be an array of tables, found {}",
                        other.type_str()
                    ),
                )
                .with_primary(Origin::new(file, entries_span), "here")
                .with_help(format!("write each entry as a `[[{many}]]` table")),
            );
        }
    };
    if array.len() > MAX_ENTRIES {
        let first_dropped = array[MAX_ENTRIES].span();
        diagnostics.push(
            Diagnostic::error(
                Code::LimitExceeded,
                format!(
                    "{} `[[{many}]]` entries: a file holds at most {MAX_ENTRIES}",
                    array.len()
                ),
            )
            .with_primary(
                Origin::new(file, first_dropped),
                "the first one past the limit",
            )
            .with_help("entries past the limit are not read"),
        );
    }
    for entry in array.into_iter().take(MAX_ENTRIES) {
        let span = entry.span();
        let origin = Origin::new(file, span.clone());
        if let Some((_, long)) = longest_text(&entry).filter(|(n, _)| *n > MAX_TEXT_CHARS) {
            diagnostics.push(text_too_long(file, long));
            continue;
        }
        let Err(fault) = take(entry, origin) else {
            continue;
        };
        // A syntax error already explains this entry.
        let explained = fault.error.as_ref().and_then(|e| e.span());
        if broken(&span) || explained.is_some_and(|s| broken(&s)) {
            continue;
        }
        diagnostics.extend(missing_keys(file, &fault.missing, origin));
        if let Some(error) = &fault.error {
            diagnostics.push(value_error(file, error, origin));
        }
    }
}

/// Parses a TOML file whose top level is arrays of tables only, once: each entry of the array
/// `key` (one of `lists`) is handed to `take(key, entry)` on its own; a key outside `lists`
/// goes to `unknown(key, span)`.
pub fn read_lists(
    file: FileId,
    text: &str,
    lists: &[&str],
    diagnostics: &mut Diagnostics,
    take: &mut dyn FnMut(&str, Entry<'_>) -> Taken,
    unknown: &mut dyn FnMut(&str, std::ops::Range<usize>, &mut Diagnostics),
) {
    let (table, broken) = parse(file, text, diagnostics);
    let overlaps_syntax_error = |span: &std::ops::Range<usize>| overlaps(&broken, span);
    for (key, value) in table.into_inner() {
        let name = key.get_ref().to_string();
        if lists.contains(&name.as_str()) {
            each_entry(
                file,
                &name,
                value,
                &overlaps_syntax_error,
                diagnostics,
                &mut |entry, _| take(&name, entry),
            );
        } else {
            unknown(&name, key.span(), diagnostics);
        }
    }
}

/// Parses a whole TOML file into `T` (for files with no main array, such as the manifest).
pub fn read_whole<T: DeserializeOwned>(
    file: FileId,
    text: &str,
    diagnostics: &mut Diagnostics,
) -> Option<T> {
    #[derive(serde::Deserialize)]
    struct Nothing {}
    read::<T, Nothing>(file, text, "\u{0}no-array", diagnostics).0
}
