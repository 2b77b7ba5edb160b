//! Numbers and lists in words for people: a count with its noun in the right number ("1
//! card", "2 boxes"), a list as prose ("a, b and c"), a rate and a duration as a progress line
//! shows them. One helper for every message, so that no message says `1 items` or `card(s)`.

use std::time::Duration;

/// Items as prose: "", "a", "a and b", "a, b and c".
pub fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// `n` and `word`, the word in the plural unless `n` is 1: "1 card", "0 cards", "2 boxes",
/// "3 copies". The plural is English's regular one (`-s`; `-es` after s, x, z, ch and sh;
/// `-ies` after a consonant and y); for any other, [`plural_of`] takes the plural as written.
pub fn plural(n: impl TryInto<u64>, word: &str) -> String {
    let n = count(n);
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {}", plural_word(word))
    }
}

/// `n` and `one` or `many` as written: "1 person", "2 people".
pub fn plural_of(n: impl TryInto<u64>, one: &str, many: &str) -> String {
    let n = count(n);
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Any count as a `u64` (a `usize`, a `u32`...).
fn count(n: impl TryInto<u64>) -> u64 {
    n.try_into().unwrap_or(u64::MAX)
}

/// The regular plural of `word` (see [`plural`]).
pub fn plural_word(word: &str) -> String {
    if let Some(stem) = word.strip_suffix('y')
        && !stem.ends_with(['a', 'e', 'i', 'o', 'u'])
        && !stem.is_empty()
    {
        return format!("{stem}ies");
    }
    if word.ends_with(['s', 'x', 'z']) || word.ends_with("ch") || word.ends_with("sh") {
        return format!("{word}es");
    }
    format!("{word}s")
}

/// A rate of things a second as a person reads it: whole numbers from ten up (with thousands
/// separated: "1,250/s"), one decimal below ("2.5/s"), and "one every N s" below one a second.
pub fn rate(per_second: f64) -> String {
    if !per_second.is_finite() || per_second <= 0.0 {
        return "0/s".to_string();
    }
    if per_second >= 10.0 {
        format!("{}/s", thousands(per_second.round() as u64))
    } else if per_second >= 1.0 {
        format!("{per_second:.1}/s")
    } else {
        format!(
            "one every {}",
            duration(Duration::from_secs_f64(1.0 / per_second))
        )
    }
}

/// A duration in at most two units: "45 s", "3 min 20 s", "2 h 5 min".
pub fn duration(d: Duration) -> String {
    let seconds = d.as_secs_f64().round() as u64;
    match seconds {
        0..60 => format!("{} s", seconds.max(1)),
        60..3600 => match seconds % 60 {
            0 => format!("{} min", seconds / 60),
            s => format!("{} min {s} s", seconds / 60),
        },
        _ => match (seconds % 3600) / 60 {
            0 => format!("{} h", seconds / 3600),
            m => format!("{} h {m} min", seconds / 3600),
        },
    }
}

/// `n` with its thousands separated by commas: "1,234,567".
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// What a progress line says of its pace once the pace means something: the rate and the time
/// left, from the work done since the first unit finished (the setup before it, and the first
/// unit's own start-up, would make the first estimate wrong by far). `None` until at least
/// [`PACE_AFTER_UNITS`] more units and [`PACE_AFTER`] have passed since then.
pub fn pace(since_first: Duration, done_since_first: u64, left: u64) -> Option<String> {
    if done_since_first < PACE_AFTER_UNITS || since_first < PACE_AFTER {
        return None;
    }
    let per_second = done_since_first as f64 / since_first.as_secs_f64();
    let remaining = Duration::from_secs_f64(left as f64 / per_second);
    Some(format!(
        "{}, {} left",
        rate(per_second),
        duration(remaining)
    ))
}

/// How many units after the first a pace is estimated from, at least.
pub const PACE_AFTER_UNITS: u64 = 3;
/// How long after the first unit a pace is estimated from, at least.
pub const PACE_AFTER: Duration = Duration::from_secs(1);

#[cfg(test)]
mod tests {
    use super::and_list;

    #[test]
    fn lists_read_as_prose() {
        let list =
            |items: &[&str]| and_list(&items.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(list(&[]), "");
        assert_eq!(list(&["3"]), "3");
        assert_eq!(list(&["3", "4"]), "3 and 4");
        assert_eq!(list(&["a", "b", "c"]), "a, b and c");
    }
}
