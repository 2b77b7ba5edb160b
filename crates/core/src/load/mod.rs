//! What every game's loader shares: recoverable TOML reading, the KDL reader of
//! roll-and-write sheets, symbol tables, the limits on content, and the manifest's `[print]`.
//!
//! Loading never stops at the first fault. Each file is read through the [`GameFolder`] seam,
//! parsed with recovery, and lowered into a model with names resolved; every fault becomes a
//! diagnostic and the rest of the content still loads, so one `safari check` shows them all.
//! A game's own files are read by its loader: a rules module's own (under `crates/rules/src/`) or
//! the component layer's (`components::load`).

pub mod formats;
pub mod guide;
pub mod kdl_fast;
mod kdl_slips;
pub mod limits;
pub mod names;
pub mod toml_read;

use formats::*;
pub use names::{check_id, dashed_id};

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::model::*;
use crate::world::{FileId, Origin};

pub const MANIFEST: &str = "game.toml";

/// Whether loading kept everything the content says: no file was missing or malformed and no
/// entry was dropped. Unknown and duplicate names do not count: the model marks them and the
/// checks work around them.
pub fn is_complete(diagnostics: &Diagnostics) -> bool {
    !diagnostics.lost_content_since(0)
}

/// A manifest's `id`, which names the output folder (SZ0105), and `name`, which heads the
/// sheets and names the export files.
pub fn check_identity(
    id: &toml::Spanned<String>,
    name: &str,
    file: FileId,
    text: &str,
    diagnostics: &mut Diagnostics,
) {
    if let Err(reason) = check_id(id.get_ref()) {
        diagnostics.push(
            Diagnostic::error(
                Code::BadId,
                format!("the game id `{}` is not a valid id: it {reason}", id.get_ref()),
            )
            .with_primary(Origin::new(file, id.span()), "this id")
            .with_help(
                "the id names the game's output folder (out/<id>/): use lower-case words joined by dashes, e.g. `id = \"my-safari\"`",
            ),
        );
    }
    if name.chars().count() > limits::MAX_GAME_NAME_CHARS {
        diagnostics.push(
            Diagnostic::error(
                Code::LimitExceeded,
                format!(
                    "the game's name is longer than {} characters",
                    limits::MAX_GAME_NAME_CHARS
                ),
            )
            .with_primary(Origin::new(file, find_key(text, "name")), "this name")
            .with_help(
                "the name heads the sheet and names the Tabletop Simulator files: keep it short",
            ),
        );
    }
}

/// The manifest's `[print]`: the card size and the paper (A4 and poker by default).
pub fn lower_print(
    print: &Print,
    file: FileId,
    text: &str,
    diagnostics: &mut Diagnostics,
) -> (CardSize, Paper) {
    let card_size = match &print.card_size {
        None => CardSize::NAMED[0],
        Some(value) => card_size(value, file, diagnostics),
    };
    let paper = match &print.paper {
        None => Paper::A4,
        Some(PaperValue::Named(named)) => match Paper::parse(named) {
            Ok(paper) => paper,
            Err(message) => {
                diagnostics.push(
                    Diagnostic::error(Code::InvalidValue, message)
                        .with_primary(Origin::new(file, find_key(text, "paper")), "here"),
                );
                Paper::A4
            }
        },
        Some(PaperValue::Custom(custom)) => {
            let (lo, hi) = Paper::CUSTOM_RANGE;
            let side = |n: f64| n.is_finite() && (lo..=hi).contains(&n);
            if side(custom.width_mm) && side(custom.height_mm) {
                Paper::Custom {
                    width: custom.width_mm,
                    height: custom.height_mm,
                }
            } else {
                diagnostics.push(
                    Diagnostic::error(
                        Code::InvalidValue,
                        format!("a custom paper's sides must be between {lo} and {hi} mm"),
                    )
                    .with_primary(Origin::new(file, find_key(text, "paper")), "here"),
                );
                Paper::A4
            }
        }
    };
    (card_size, paper)
}

pub fn card_size(
    value: &toml::Spanned<toml::Value>,
    file: FileId,
    diagnostics: &mut Diagnostics,
) -> CardSize {
    let origin = Origin::new(file, value.span());
    let names: Vec<&str> = CardSize::NAMED.iter().map(|c| c.name).collect();
    match value.get_ref() {
        toml::Value::String(name) => match CardSize::NAMED.iter().find(|c| c.name == name) {
            Some(size) => *size,
            None => {
                diagnostics.push(
                    Diagnostic::error(Code::InvalidValue, format!("unknown card size `{name}`"))
                        .with_primary(origin, format!("expected one of: {}", names.join(", ")))
                        .with_suggestion(crate::diag::similar_name(name, names.iter().copied())),
                );
                CardSize::NAMED[0]
            }
        },
        toml::Value::Table(table) => {
            let mm = |key: &str| {
                table
                    .get(key)
                    .and_then(|v| v.as_float().or(v.as_integer().map(|i| i as f64)))
            };
            let unknown: Vec<&String> = table
                .keys()
                .filter(|k| *k != "width-mm" && *k != "height-mm")
                .collect();
            match (mm("width-mm"), mm("height-mm")) {
                (Some(w), Some(h))
                    if unknown.is_empty()
                        && (10.0..=300.0).contains(&w)
                        && (10.0..=300.0).contains(&h) =>
                {
                    CardSize {
                        name: "custom",
                        width_mm: w,
                        height_mm: h,
                    }
                }
                _ => {
                    diagnostics.push(
                        Diagnostic::error(Code::InvalidValue, "a custom card size is `{ width-mm = ..., height-mm = ... }`, each 10 to 300 mm")
                            .with_primary(origin, "here"),
                    );
                    CardSize::NAMED[0]
                }
            }
        }
        _ => {
            diagnostics.push(
                Diagnostic::error(
                    Code::InvalidValue,
                    "card size is a name or `{ width-mm = ..., height-mm = ... }`",
                )
                .with_primary(
                    origin,
                    format!("expected one of: {}, or a table", names.join(", ")),
                ),
            );
            CardSize::NAMED[0]
        }
    }
}

/// The version part every printed page adds to the content's own: `content 1a2b3c4d`.
pub const CONTENT_VERSION: &str = "content";

/// Adds `content <id>` to `versions` (unless the designer names a part `content`): the id of
/// every file of the game folder read so far, so that printed copies of different content
/// can be told apart even when nobody bumped a version. The id is the first eight hex digits
/// of a SHA-256 over the files' names and texts (the built-in templates left out: the same
/// content printed by another safari keeps its id). `shown` stands in for one file's text
/// with what of it the pages print (a rules module's choice: when a sheet shows no card's
/// flavour text or art, editing those leaves its id, and the sheet, as they were).
pub fn add_content_version(
    folder: &crate::world::GameFolder,
    versions: &mut Vec<(String, String)>,
    shown: Option<(crate::world::FileId, &[u8])>,
) {
    if versions.iter().any(|(part, _)| part == CONTENT_VERSION) {
        return;
    }
    let digest = digest_of(folder, |name| !name.starts_with("<built-in>"), shown);
    push_content_version(versions, &digest);
}

/// [`add_content_version`] over the files `counts` takes alone: those the pages that print
/// the id show (a rules module's choice).
pub fn add_content_version_of(
    folder: &crate::world::GameFolder,
    versions: &mut Vec<(String, String)>,
    counts: impl Fn(crate::world::FileId) -> bool,
) {
    if versions.iter().any(|(part, _)| part == CONTENT_VERSION) {
        return;
    }
    let kept: std::collections::HashSet<&str> = folder
        .sources()
        .filter(|(id, _)| counts(*id))
        .map(|(_, source)| source.name.as_str())
        .collect();
    let digest = digest_of(folder, |name| kept.contains(name), None);
    push_content_version(versions, &digest);
}

fn push_content_version(versions: &mut Vec<(String, String)>, digest: &[u8; 32]) {
    let id: String = digest.iter().take(4).map(|b| format!("{b:02x}")).collect();
    versions.push((CONTENT_VERSION.to_string(), id));
}

/// SHA-256 over the folder's sources whose name `keep` takes, sorted by name (name, NUL,
/// text, NUL each): what the ruleset's `content_hash` and the printed content id are made of.
pub fn sources_digest(folder: &crate::world::GameFolder, keep: impl Fn(&str) -> bool) -> [u8; 32] {
    digest_of(folder, keep, None)
}

fn digest_of(
    folder: &crate::world::GameFolder,
    keep: impl Fn(&str) -> bool,
    shown: Option<(crate::world::FileId, &[u8])>,
) -> [u8; 32] {
    use sha2::{Digest, Sha256};
    let mut sources: Vec<_> = folder
        .sources()
        .filter(|(_, source)| keep(&source.name))
        .map(|(id, source)| match shown {
            Some((file, bytes)) if file == id => (source.name.as_str(), bytes),
            _ => (source.name.as_str(), source.text.as_bytes()),
        })
        .collect();
    sources.sort_by(|a, b| a.0.cmp(b.0));
    let mut hasher = Sha256::new();
    for (name, bytes) in sources {
        hasher.update(name.as_bytes());
        hasher.update([0]);
        hasher.update(bytes);
        hasher.update([0]);
    }
    hasher.finalize().into()
}

/// The span of `key` in a TOML text, for values serde does not locate: the key as the TOML
/// parser read it (never a word in a comment or a string), the top level's first, then the
/// tables' below it in order. `[players]` names the table `players`. The file's start when
/// the key is not there.
pub fn find_key(text: &str, key: &str) -> std::ops::Range<usize> {
    use toml::de::{DeTable, DeValue};
    let header = key.starts_with('[');
    let key = key.trim_start_matches('[').trim_end_matches(']');
    let (table, _) = DeTable::parse_recoverable(text);
    let mut level = vec![table.get_ref()];
    while !level.is_empty() {
        let mut below = Vec::new();
        for table in level {
            for (name, value) in table.iter() {
                if name.get_ref() == key {
                    let span = name.span();
                    // `[players]`: the header, brackets included.
                    let bracketed = span.start > 0
                        && text.as_bytes().get(span.start - 1) == Some(&b'[')
                        && text.as_bytes().get(span.end) == Some(&b']');
                    return if header && bracketed {
                        span.start - 1..span.end + 1
                    } else {
                        span
                    };
                }
                match value.get_ref() {
                    DeValue::Table(inner) => below.push(inner),
                    DeValue::Array(items) => {
                        below.extend(items.iter().filter_map(|item| match item.get_ref() {
                            DeValue::Table(inner) => Some(inner),
                            _ => None,
                        }))
                    }
                    _ => {}
                }
            }
        }
        level = below;
    }
    0..0
}

#[cfg(test)]
mod tests {
    use super::find_key;

    #[test]
    fn a_key_is_found_where_the_parser_read_it_not_in_a_comment_or_a_string() {
        let text = "# the name of the game, and its players\nid = \"name\"\nname = \"A\"\n\n[players]\n# max is four\nmax = 4\n";
        let at = |key: &str| &text[find_key(text, key)];
        assert_eq!(find_key(text, "name").start, text.find("name =").unwrap());
        assert_eq!(find_key(text, "max").start, text.find("max =").unwrap());
        assert_eq!(at("[players]"), "[players]");
        assert_eq!(at("max"), "max");
        assert_eq!(find_key(text, "paper"), 0..0);
    }
}
