//! A diff as text for the terminal: the summary (the default), or everything (`--full`).
//!
//! The callers pass the text through `diag::printable`, as every human output of content.

use super::summary::{self, Summary};
use super::{Balance, Diff, MeanChange, Shift};
use crate::words::plural;

/// A value as the shift measures it: a percentage or a mean; "absent" when the version
/// does not have the thing.
pub fn value(s: &Shift, v: Option<f64>) -> String {
    match v {
        None => "absent".to_string(),
        Some(v) if s.proportion => format!("{:.1}%", v * 100.0),
        Some(v) => format!("{v:.2}"),
    }
}

/// An effect size to two decimals, signed, with no "-0.00".
pub(crate) fn signed(value: f64) -> String {
    let value = if value.abs() < 0.005 { 0.0 } else { value };
    format!("{value:+.2}")
}

/// A number with its sign, to `decimals` places, with no "-0.0".
fn with_sign(value: f64, decimals: usize) -> String {
    let shown = format!("{value:+.decimals$}");
    if shown
        .trim_start_matches(['-', '+'])
        .chars()
        .all(|c| c == '0' || c == '.')
    {
        format!("{:+.decimals$}", 0.0)
    } else {
        shown
    }
}

/// A mean's change in the game's units: "-5.90 VP (-6.5%), 95% CI -7.61 to -4.19: noticeable".
pub(crate) fn mean_change(c: &MeanChange) -> String {
    let relative = c
        .relative
        .map(|r| format!(" ({}%)", with_sign(r * 100.0, 1)))
        .unwrap_or_default();
    format!(
        "{} {}{relative}, 95% CI {} to {}: {}",
        with_sign(c.difference, 2),
        c.unit,
        with_sign(c.ci95[0], 2),
        with_sign(c.ci95[1], 2),
        c.magnitude
    )
}

/// The effect, or that there is no significant change; a mean's in the game's units first.
pub fn effect(s: &Shift) -> String {
    let (measure, value) = (s.effect.measure, signed(s.effect.value));
    if let Some(change) = &s.change {
        return format!("{}; {measure} {value}", mean_change(change));
    }
    if !s.significant && s.presence == "both" {
        return format!("{measure} {value}, not significant");
    }
    format!("{measure} {value} {}", s.effect.size)
}

/// One shift on one line, its label padded to `width`.
fn shift_line(s: &Shift, width: usize, indent: &str) -> String {
    format!(
        "{indent}{:<width$}  {:>7} -> {:<7}  {}",
        s.label,
        value(s, s.old),
        value(s, s.new),
        effect(s)
    )
}

fn run_line(diff: &Diff) -> String {
    match &diff.balance {
        Some(b) => format!(
            "balance: {} games of each version, {} player{}, policy {}, seed {}",
            b.games,
            b.players,
            if b.players == 1 { "" } else { "s" },
            b.policy,
            b.seed
        ),
        None => "balance: not compared (no games played, or a version has errors)".to_string(),
    }
}

/// What the balance lines mean, one line each.
pub(crate) const LEGEND: [&str; 2] = [
    "  means: the change with its 95% interval; within the noise if that holds 0, else small from 1% \
     of the old mean, noticeable from 5%, large from 10%",
    "  d, h: Cohen's effect sizes (0.2 small, 0.5 medium, 0.8 large); \
     listed: significant at p < 0.05 (Bonferroni), and content only one version has",
];

/// The whole-game figures, each peak of the final VP gained or lost after the mean VP.
fn headline(out: &mut Vec<String>, b: &Balance) {
    let width = b
        .headline()
        .iter()
        .map(|s| s.label.chars().count())
        .max()
        .unwrap_or(0);
    for s in b.headline() {
        out.push(shift_line(s, width, "  "));
        if std::ptr::eq(s, &b.mean_vp) {
            out.extend(shape_lines(b).into_iter().map(|l| format!("  {l}")));
        }
    }
}

/// The peaks of the final VP one version has and the other does not, as lines.
pub(crate) fn shape_lines(b: &Balance) -> Vec<String> {
    b.vp_shape
        .iter()
        .flat_map(|shape| &shape.changes)
        .map(|c| format!("final VP: {}", c.words))
        .collect()
}

fn content_heading(diff: &Diff) -> String {
    match diff.content.len() {
        0 => "Content: no change".to_string(),
        1 => "Content: 1 change".to_string(),
        n => format!("Content: {n} changes"),
    }
}

/// The first screen (see [`summary`]): at most `max_lines` lines.
pub fn summary(diff: &Diff, max_lines: usize) -> String {
    let s: Summary = summary::summary(diff, max_lines);
    let mut out = vec![
        format!("safari diff: {} -> {}", diff.old, diff.new),
        run_line(diff),
        String::new(),
        content_heading(diff),
    ];
    if s.content.is_empty() {
        out.push("  no change".to_string());
    }
    out.extend(s.content.iter().map(|l| format!("  {l}")));
    if s.content_hidden > 0 {
        out.push(format!(
            "  … and {} more: {}",
            s.content_hidden, s.content_left_out
        ));
    }
    out.push(String::new());
    out.push("Reachability".to_string());
    out.extend(s.reachability.iter().map(|l| format!("  {l}")));
    if s.reachability_hidden > 0 {
        out.push(format!("  … and {} more", s.reachability_hidden));
    }
    if let Some(bs) = &s.balance {
        out.push(String::new());
        out.push("Balance, the largest effects first".to_string());
        out.extend(LEGEND.map(String::from));
        headline(&mut out, bs.balance);
        let width = bs
            .groups
            .iter()
            .flat_map(|(_, members)| members.iter().map(|m| m.label.chars().count()))
            .max()
            .unwrap_or(0);
        for (group, members) in &bs.groups {
            let largest = if group.members.len() > members.len() {
                ", the largest:"
            } else {
                ":"
            };
            out.push(format!("  {}: {}{largest}", group.title, group.words));
            out.extend(members.iter().map(|m| shift_line(m, width, "    ")));
        }
    }
    out.push(String::new());
    out.push(closing(diff, &s));
    out.join("\n") + "\n"
}

/// The last line: what was left out, and how to see everything.
fn closing(diff: &Diff, s: &Summary) -> String {
    let mut left_out = Vec::new();
    if s.content_hidden > 0 {
        left_out.push(plural(s.content_hidden, "content line"));
    }
    if s.reachability_hidden > 0 {
        left_out.push(plural(s.reachability_hidden, "reachability line"));
    }
    if let Some(b) = &s.balance
        && b.shifts_hidden > 0
    {
        let groups = if b.groups_hidden > 0 {
            format!(" ({} not shown)", plural(b.groups_hidden, "group"))
        } else {
            String::new()
        };
        left_out.push(format!(
            "{}{groups}",
            plural(b.shifts_hidden, "balance shift")
        ));
    }
    let command = format!("safari diff {} {} --full", diff.old, diff.new);
    if left_out.is_empty() {
        format!("Everything is shown; with every field and number: {command}")
    } else {
        format!("Not shown: {}. Everything: {command}", left_out.join(", "))
    }
}

/// Everything: every content change on its own line, every verdict, every shift.
pub fn full(diff: &Diff) -> String {
    let mut out = vec![
        format!("safari diff: {} -> {}", diff.old, diff.new),
        run_line(diff),
        String::new(),
        content_heading(diff),
    ];
    out.extend(diff.content.iter().map(|c| format!("  {}", c.words)));
    out.push(String::new());
    out.push("Reachability".to_string());
    out.extend(
        summary::reachability_lines(&diff.reachability, usize::MAX)
            .iter()
            .map(|l| format!("  {l}")),
    );
    if let Some(b) = &diff.balance {
        out.push(String::new());
        out.push("Balance, the largest effects first".to_string());
        out.extend(LEGEND.map(String::from));
        headline(&mut out, b);
        let width = b
            .boxes
            .iter()
            .chain(&b.cards)
            .chain(&b.species)
            .map(|s| s.label.chars().count())
            .max()
            .unwrap_or(0);
        for group in &b.groups {
            out.push(format!("  {}: {}:", group.title, group.words));
            for s in b.members(group) {
                out.push(shift_line(s, width, "    "));
            }
        }
        out.push(format!(
            "  No significant change: {}, {} and {}.",
            count(b.unchanged.boxes, "box", "boxes"),
            count(b.unchanged.cards, "card", "cards"),
            count(b.unchanged.species, "species", "species"),
        ));
    }
    out.join("\n") + "\n"
}

fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
