//! What an id may be. Ids name things across files, in the ruleset other builds load, and in
//! output file and folder names, so they are kept to a form that is safe in all of them.

/// The longest id.
pub const MAX_ID_LENGTH: usize = 64;

/// Checks that `id` is lower-case ASCII letters and digits in words joined by single dashes,
/// at most [`MAX_ID_LENGTH`] long; the error says what is wrong, in words for a designer.
pub fn check_id(id: &str) -> Result<(), String> {
    if id.is_empty() {
        return Err("an id cannot be empty".to_string());
    }
    if id.chars().count() > MAX_ID_LENGTH {
        return Err(format!("an id is at most {MAX_ID_LENGTH} characters long"));
    }
    if let Some(c) = id
        .chars()
        .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-'))
    {
        return Err(match c {
            '\'' | '"' => "it holds a quote mark (in KDL, strings take double quotes)".to_string(),
            c if c.is_ascii_uppercase() => format!("`{c}` is upper-case"),
            ' ' => "it holds a space".to_string(),
            c if c.is_control() => "it holds a control character".to_string(),
            c => format!("`{c}` is not a letter, a digit or a dash"),
        });
    }
    if id.starts_with('-') || id.ends_with('-') || id.contains("--") {
        return Err("dashes join words: not at the start or end, and one at a time".to_string());
    }
    Ok(())
}
