//! The id rule: what the compiler accepts as an id in content, and the engine in a ruleset.

use crate::limits::MAX_ID_LEN;

/// Whether `text` is an id: lower-case ASCII letters and digits, in words joined by single
/// dashes, at most [`MAX_ID_LEN`] characters. The error says what is wrong, to follow "it".
pub fn check_id(text: &str) -> Result<(), String> {
    if text.is_empty() {
        return Err("is empty".to_string());
    }
    if let Some(c) = text
        .chars()
        .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-'))
    {
        return Err(match c {
            'A'..='Z' => "has capital letters".to_string(),
            ' ' => "contains a space".to_string(),
            '\'' | '"' => format!("contains the quote mark `{c}`"),
            _ => format!("contains `{c}`"),
        });
    }
    if text.starts_with('-') || text.ends_with('-') {
        return Err("starts or ends with a dash".to_string());
    }
    if text.contains("--") {
        return Err("has two dashes in a row".to_string());
    }
    if text.chars().count() > MAX_ID_LEN {
        return Err(format!("is longer than {MAX_ID_LEN} characters"));
    }
    Ok(())
}
