//! Text from content made safe to print on a terminal.
//!
//! Names, labels and source lines come from files anyone may have written. A control character
//! in them (ESC, BEL, a C1 control such as CSI) would reach the terminal as a command: retitle
//! the window, move the cursor, hide or rewrite earlier lines. Bidirectional overrides reorder
//! what is shown without changing what is read. Every human output of `safari` passes content
//! through [`printable`], which writes such characters as visible escapes (`\u{1b}`), so what
//! the terminal shows is exactly what the file holds. The JSON output escapes the same
//! characters the JSON way (`\u001b`), as it may be read on a terminal too.

use std::borrow::Cow;
use std::fmt::Write;

/// `text` with every control character except line feed and tab, and every bidirectional
/// control, written as a Rust escape (`\u{1b}`). Borrows when there is nothing to escape.
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        push_printable(&mut out, c);
    }
    Cow::Owned(out)
}

/// Appends `c` to `out`, escaped when [`printable`] would escape it.
pub(super) fn push_printable(out: &mut String, c: char) {
    if needs_escape(c) {
        // Writing into a String cannot fail.
        let _ = write!(out, "\\u{{{:x}}}", c as u32);
    } else {
        out.push(c);
    }
}

/// The columns `c` takes once printable: its escape's length, up to four for a tab (the
/// snippet renderer expands tabs to the next multiple of four), else one.
pub(super) fn shown_width(c: char) -> usize {
    if needs_escape(c) {
        // `\u{` and `}` around the hexadecimal digits.
        4 + (32 - (c as u32).leading_zeros()).div_ceil(4).max(1) as usize
    } else if c == '\t' {
        4
    } else {
        1
    }
}

/// Whether [`printable`] escapes `c`.
pub(super) fn needs_escape(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || is_bidi_control(c)
}

/// The characters that change the direction text is displayed in (the "Trojan Source" set).
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::printable;

    #[test]
    fn escapes_controls_and_keeps_the_rest() {
        assert_eq!(
            printable("\u{1b}]0;PWNED\u{7}nidoran"),
            "\\u{1b}]0;PWNED\\u{7}nidoran"
        );
        assert_eq!(printable("a\u{9b}b\u{7f}\r"), "a\\u{9b}b\\u{7f}\\u{d}");
        assert_eq!(printable("abc\u{202e}"), "abc\\u{202e}");
        for c in ['\u{0}', '\u{1b}', '\u{9b}', '\u{202e}'] {
            assert_eq!(
                super::shown_width(c),
                printable(&c.to_string()).chars().count()
            );
        }
        assert!(matches!(
            printable("Nidoran ♀\n\tline"),
            std::borrow::Cow::Borrowed("Nidoran ♀\n\tline")
        ));
    }
}
