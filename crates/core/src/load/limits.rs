//! How large content may be.
//!
//! A game folder is input from anyone (a shared game, a download), so every size that costs
//! memory or time is bounded: a check or a build finishes, in bounded memory, whatever the
//! folder holds. The bounds are far above what a printed game holds (a few dozen cards, a
//! sheet of a few KB), and docs/content.md lists them; content past one is refused
//! with SZ0005 at the place at fault. The loader, the ruleset reader and the simulator share
//! these numbers, so a ruleset `build` writes is always one `sim` reads.

pub use safari_engine::limits::{
    MAX_BOXES, MAX_COPIES, MAX_COUNT, MAX_DECK_SIZE, MAX_ENTRIES, MAX_FACE_VALUE,
    MAX_GAME_NAME_CHARS, MAX_PLAYERS, MAX_SIDES, MAX_TEXT_CHARS, MAX_VP,
};

use crate::diag::{Code, Diagnostic};
use crate::world::{FileId, Origin};

/// Bytes of one content file (TOML, KDL, Typst).
pub(crate) const MAX_FILE_BYTES: u64 = 1 << 20;
/// Bytes of one image or other file a template reads.
pub(crate) const MAX_ASSET_BYTES: u64 = 16 << 20;
/// Files `safari init --from` copies from a game folder (its content, templates and art).
pub(crate) const MAX_GAME_FILES: usize = 1000;
/// Bytes of all the files `safari init --from` copies.
pub const MAX_GAME_BYTES: u64 = 256 << 20;
/// Bytes of a ruleset.json read by `sim` or `diff`.
pub const MAX_RULESET_BYTES: u64 = 16 << 20;
/// How deeply KDL blocks may nest (a sheet needs four: sheet, section, track, box).
pub const MAX_KDL_DEPTH: usize = 16;
/// Games one `sim` plays per policy.
pub const MAX_GAMES: u64 = 1_000_000;

/// A byte count for a message: "1 MiB".
pub fn bytes(count: u64) -> String {
    match count {
        n if n >= 1 << 20 && n % (1 << 20) == 0 => format!("{} MiB", n >> 20),
        n if n >= 1 << 10 && n % (1 << 10) == 0 => format!("{} KiB", n >> 10),
        n => format!("{n} bytes"),
    }
}

/// Where `{ }` blocks of a KDL document first nest deeper than `limit`: the offset of the
/// brace that opens one block too many. Read without parsing, because the parser recurses on
/// blocks. Strings, raw strings and comments are skipped as KDL 2 reads them; where this
/// reading and the parser's could differ (malformed input), it never sees less nesting than
/// the braces outside strings show.
pub fn kdl_nesting_past(text: &str, limit: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let (mut depth, mut i) = (0usize, 0usize);
    while i < bytes.len() {
        match bytes[i] {
            b'{' => {
                depth += 1;
                if depth > limit {
                    return Some(i);
                }
                i += 1;
            }
            b'}' => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => i = skip_block_comment(bytes, i),
            b'"' => i = skip_string(bytes, i, 0),
            b'#' => {
                let hashes = bytes[i..].iter().take_while(|b| **b == b'#').count();
                if bytes.get(i + hashes) == Some(&b'"') {
                    i = skip_string(bytes, i + hashes, hashes);
                } else {
                    i += hashes;
                }
            }
            _ => i += 1,
        }
    }
    None
}

/// The report of blocks nested past [`MAX_KDL_DEPTH`], at the brace at `offset`.
pub fn too_deep(file: FileId, offset: usize) -> Diagnostic {
    Diagnostic::error(
        Code::LimitExceeded,
        format!(
            "blocks nest more than {MAX_KDL_DEPTH} deep, and a sheet's layout needs four (sheet, section, track, box)"
        ),
    )
    .with_primary(Origin::new(file, offset..offset + 1), "one block too deep")
    .with_help(
        "look for a `{` that is never closed, or blocks inside blocks; nothing of this file is read",
    )
}

/// Past a `/* */` comment starting at `start` (they nest in KDL).
fn skip_block_comment(bytes: &[u8], start: usize) -> usize {
    let (mut level, mut i) = (0usize, start);
    while i < bytes.len() {
        if bytes[i..].starts_with(b"/*") {
            level += 1;
            i += 2;
        } else if bytes[i..].starts_with(b"*/") {
            level -= 1;
            i += 2;
            if level == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    i
}

/// Past a string whose opening quote is at `start`: `"..."` with escapes, `"""..."""`, or a
/// raw string closed by a quote and `hashes` hash signs (raw strings have no escapes).
fn skip_string(bytes: &[u8], start: usize, hashes: usize) -> usize {
    let multi_line = bytes[start..].starts_with(b"\"\"\"");
    let quotes = if multi_line { 3 } else { 1 };
    let mut i = start + quotes;
    while i < bytes.len() {
        if hashes == 0 && bytes[i] == b'\\' {
            i += 2;
            continue;
        }
        let closes = bytes[i..].starts_with(&b"\"\"\""[..quotes])
            && bytes[i + quotes..]
                .iter()
                .take(hashes)
                .filter(|b| **b == b'#')
                .count()
                == hashes;
        if closes {
            return i + quotes + hashes;
        }
        i += 1;
    }
    i
}
