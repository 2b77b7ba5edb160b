//! A diff as one HTML page (`out/<game>/diff/report.html`): the summary of the terminal at the
//! top, the two versions side by side in each chart, then every change in tables.
//!
//! The page is built from the same [`Diff`] and [`super::summary`] as the text, with the
//! shared shell and tables of [`crate::html`]; it only makes bytes.

use crate::html::{self, Column, Markup, html, text};
use crate::safari_zone::sim::Report;

use super::summary::{self, BalanceSummary};
use super::text::{effect, mean_change, shape_lines, signed, value};
use super::{Balance, Change, Diff, Group, Shift};

/// The badge of a shift's direction.
fn direction(s: &Shift) -> Markup {
    match s.presence {
        "added" => html::badge("new", "new"),
        "removed" => html::badge("gone", "removed"),
        _ if !s.significant => html::badge("neutral", "no significant change"),
        _ if s.new >= s.old => html::badge("up", "more"),
        _ => html::badge("down", "less"),
    }
}

/// How large a shift is: a mean's by how a player would feel it, the others' by Cohen's scale.
fn size(s: &Shift) -> Markup {
    match &s.change {
        Some(c) => html::badge(tone(c.magnitude), c.magnitude),
        None => html::badge(s.effect.size, s.effect.size),
    }
}

/// The stylesheet's tone of a mean's magnitude.
fn tone(magnitude: &str) -> &'static str {
    match magnitude {
        "large" => "large",
        "noticeable" => "medium",
        "small" => "small",
        _ => "negligible",
    }
}

/// The badge of a whole-game figure: its change in words.
fn figure_badge(s: &Shift) -> Markup {
    match &s.change {
        Some(c) => html::badge(tone(c.magnitude), &mean_change(c)),
        None => html::badge(s.effect.size, &effect(s)),
    }
}

/// The difference of a shift: points of percentage, or the change of a mean.
fn difference(s: &Shift) -> String {
    let (old, new) = (s.old.unwrap_or(0.0), s.new.unwrap_or(0.0));
    if s.proportion {
        format!("{:+.1} pts", (new - old) * 100.0)
    } else {
        format!("{:+.2}", new - old)
    }
}

fn p_value(s: &Shift) -> String {
    match s.p {
        Some(p) if p < 0.001 => "< 0.001".to_string(),
        Some(p) => format!("{p:.3}"),
        None => "–".to_string(),
    }
}

/// A bar as long as the effect (capped at 2), in the direction's colour.
fn bar(s: &Shift) -> Markup {
    let width = (s.effect.value.abs().min(2.0) * 60.0).round() as u32;
    let tone = if s.effect.value >= 0.0 { "up" } else { "down" };
    html! { span class={ "bar " (tone) } style={ "width:" (width.max(2)) "px" } {} }
}

/// A table of shifts; `directions` adds each one's direction to its name (for a table that
/// mixes them: a group's heading says its own).
fn shifts_table(shifts: &[&Shift], directions: bool) -> Markup {
    let columns = [
        Column::text("what").wide(34),
        Column::number("old").wide(9),
        Column::number("new").wide(9),
        Column::number("difference").wide(11),
        Column::text("").wide(13),
        Column::number("effect").wide(9),
        Column::text("size").wide(8),
        Column::number("p").wide(7),
    ];
    let rows = shifts.iter().map(|s| {
        vec![
            html! { (text(&s.label)) @if directions { " " (direction(s)) } },
            html! { (value(s, s.old)) },
            html! { (value(s, s.new)) },
            html! { (difference(s)) },
            bar(s),
            html! { (s.effect.measure) " " (signed(s.effect.value)) },
            size(s),
            html! { (p_value(s)) },
        ]
    });
    html::table(&columns, rows)
}

/// The three whole-game figures as large numbers.
fn figures(b: &Balance) -> Markup {
    html! {
        div.figures {
            @for s in b.headline() {
                div.figure {
                    div.name { (s.label) }
                    div.value {
                        (value(s, s.new)) " "
                        span.from { "from " (value(s, s.old)) }
                    }
                    div { (direction(s)) " " (figure_badge(s)) }
                }
            }
        }
        (html::lines("shape", shape_lines(b).iter().map(String::as_str)))
    }
}

fn group_heading(g: &Group) -> Markup {
    html! { h3 { (text(&g.title)) ": " span.where { (g.words) } } }
}

fn summary_balance(bs: &BalanceSummary) -> Markup {
    html! {
        h3 { "Balance" }
        (figures(bs.balance))
        @for (group, members) in &bs.groups {
            div.group {
                (group_heading(group))
                (shifts_table(members, false))
            }
        }
        @if bs.shifts_hidden > 0 {
            p.note {
                (bs.shifts_hidden) " more shifts"
                @if bs.groups_hidden > 0 { " (" (bs.groups_hidden) " more groups)" }
                " are in the balance tables below."
            }
        }
    }
}

fn summary_section(diff: &Diff) -> Markup {
    let s = summary::summary(diff, summary::FIRST_SCREEN_LINES);
    html::section(
        "summary",
        "Summary",
        html! {
            h3 { "Content" }
            @if s.content.is_empty() { p { "No change." } }
            (html::lines("changes", s.content.iter().map(String::as_str)))
            @if s.content_hidden > 0 {
                p.note {
                    (s.content_hidden) " more in the content table below: " (s.content_left_out) "."
                }
            }
            h3 { "Reachability" }
            (html::lines("verdicts", s.reachability.iter().map(String::as_str)))
            @if let Some(bs) = &s.balance { (summary_balance(bs)) }
        },
    )
}

fn charts_section(game: &str, old: &Report, new: &Report) -> Markup {
    use crate::charts::{Series, histogram, lines};
    let both = |pick: fn(&Report) -> &[u32]| {
        [
            Series {
                name: "old",
                values: pick(old),
            },
            Series {
                name: "new",
                values: pick(new),
            },
        ]
    };
    let vp = histogram(
        &format!("{game}: final VP"),
        "victory points",
        &both(|r| &r.scores),
        5,
    );
    let turns = histogram(
        &format!("{game}: turns played"),
        "turns",
        &both(|r| &r.lengths),
        1,
    );
    let over_turns = lines(
        &format!("{game}: mean VP after each turn"),
        "victory points",
        &[("old", &old.vp_by_turn), ("new", &new.vp_by_turn)],
    );
    html::section(
        "charts",
        "Charts",
        html! {
            div.charts {
                (html::figure(&vp, "Final VP of every player-game: old and new side by side."))
                (html::figure(&turns, "Turns each player took."))
                (html::figure(&over_turns, "Mean VP at the end of each turn."))
            }
        },
    )
}

fn change_badge(c: &Change) -> Markup {
    let tone = match c.change {
        "added" => "new",
        "removed" => "gone",
        _ => "neutral",
    };
    html::badge(tone, c.change)
}

fn content_section(changes: &[Change]) -> Markup {
    let columns = [
        Column::text("change").wide(11),
        Column::text("kind").wide(10),
        Column::text("what changed").wide(79),
    ];
    let rows = changes.iter().map(|c| {
        vec![
            change_badge(c),
            html! { (c.kind) },
            html! { (text(&c.words)) },
        ]
    });
    html::section(
        "content",
        "Content changes",
        html! {
            @if changes.is_empty() { p { "No change." } } @else { (html::table(&columns, rows)) }
        },
    )
}

fn reachability_section(diff: &Diff) -> Markup {
    let lines = summary::reachability_lines(&diff.reachability, usize::MAX);
    html::section(
        "reachability",
        "Reachability",
        html::lines("verdicts", lines.iter().map(String::as_str)),
    )
}

fn balance_section(b: &Balance) -> Markup {
    html::section(
        "balance",
        "Balance",
        html! {
            p.note {
                "Means: the change with its 95% interval from the games of both versions; "
                "within the noise when the interval includes 0, else small from 1% of the old "
                "mean, noticeable from 5%, large from 10%. "
                "Effect sizes are Cohen's: d for means, h for shares (0.2 small, 0.5 medium, "
                "0.8 large). Listed: shifts significant at p < 0.05 (Bonferroni-corrected per "
                "kind), and content only one version has, compared with nothing."
            }
            h3 { "Whole games" }
            (shifts_table(&b.headline(), true))
            @for group in &b.groups {
                div.group {
                    (group_heading(group))
                    (shifts_table(&b.members(group).collect::<Vec<_>>(), false))
                }
            }
            p.note {
                "No significant change: " (b.unchanged.boxes) " boxes, " (b.unchanged.cards)
                " cards, " (b.unchanged.species) " species."
            }
        },
    )
}

/// The report page of `diff`; `reports` are the two simulations, for the charts.
pub fn page(diff: &Diff, game: &str, reports: Option<(&Report, &Report)>) -> String {
    let subtitle = match &diff.balance {
        Some(b) => format!(
            "{} → {} · {} games of each version, {}, policy {}, seed {}",
            diff.old,
            diff.new,
            b.games,
            crate::words::plural(b.players, "player"),
            b.policy,
            b.seed
        ),
        None => format!("{} → {} · balance not compared", diff.old, diff.new),
    };
    let body = html! {
        nav.toc {
            a href="#summary" { "Summary" }
            @if reports.is_some() { a href="#charts" { "Charts" } }
            a href="#content" { "Content" }
            a href="#reachability" { "Reachability" }
            @if diff.balance.is_some() { a href="#balance" { "Balance" } }
        }
        (summary_section(diff))
        @if let Some((old, new)) = reports { (charts_section(game, old, new)) }
        (content_section(&diff.content))
        (reachability_section(diff))
        @if let Some(b) = &diff.balance { (balance_section(b)) }
    };
    html::page(&format!("What changed in {game}"), &subtitle, body)
}
