//! `out/<game>/sim/report.html`: the report as one page a designer opens in a browser, built
//! on the shared page parts of `crate::html` (inline CSS and SVG, nothing to fetch).
//!
//! It says what the terminal says, in the same order (findings, runs, seats, targets), and
//! adds what a terminal cannot show: the charts, and every box, card, species and item in
//! tables that fold away.

use crate::charts::{self, Interval, Series};
use crate::html::{self, Column, Markup, html};

use super::findings::Finding;
use super::report::{Report, SimReport};

fn percent(share: f64) -> String {
    format!("{:.1}%", share * 100.0)
}

fn cell(s: impl AsRef<str>) -> Markup {
    html! { (html::text(s.as_ref())) }
}

/// The whole page.
pub fn page(report: &SimReport) -> String {
    let games: u64 = report.runs.iter().map(|r| r.games).sum();
    let subtitle = format!(
        "{} run{} of {} games in all, seed {}: what safari sim found.",
        report.runs.len(),
        if report.runs.len() == 1 { "" } else { "s" },
        games,
        report.seed
    );
    let body = html! {
        (findings(&report.findings))
        (runs(&report.runs))
        @for run in report.runs.iter().filter(|r| r.players > 1) { (seats(run)) }
        (targets(&report.runs))
        (charts_section(&report.runs))
        (details(&report.runs))
    };
    html::page(&format!("How {} plays", report.game), &subtitle, body)
}

fn findings(findings: &[Finding]) -> Markup {
    html::section(
        "findings",
        "Findings",
        html! {
            ul.findings {
                @for f in findings {
                    li { (html::badge("neutral", &f.code)) " " (html::text(&f.text)) }
                }
            }
        },
    )
}

fn runs(runs: &[Report]) -> Markup {
    let columns = [
        Column::text("run").wide(24),
        Column::number("games").wide(8),
        Column::number("players").wide(7),
        Column::number("VP mean").wide(8),
        Column::number("95% interval").wide(13),
        Column::number("median").wide(7),
        Column::number("p10-p90").wide(9),
        Column::number("turns").wide(6),
        Column::number("out of balls").wide(9),
        Column::number("busts").wide(9),
    ];
    let rows = runs.iter().map(|r| {
        vec![
            cell(&r.policy),
            cell(r.games.to_string()),
            cell(r.players.to_string()),
            cell(format!("{:.1}", r.vp.mean)),
            cell(format!("{:.1}-{:.1}", r.vp.ci95[0], r.vp.ci95[1])),
            cell(format!("{:.0}", r.vp.median)),
            cell(format!("{:.0}-{:.0}", r.vp.p10, r.vp.p90)),
            cell(format!("{:.1}", r.length.mean)),
            cell(percent(r.ended_by_balls)),
            cell(percent(r.bust_rate)),
        ]
    });
    let ladder: Vec<Interval> = runs
        .iter()
        .map(|r| Interval {
            name: &r.policy,
            value: r.vp.mean,
            low: r.vp.ci95[0],
            high: r.vp.ci95[1],
        })
        .collect();
    html::section(
        "runs",
        "Runs",
        html! {
            (html::table(&columns, rows))
            @if runs.len() > 1 {
                (html::figure(
                    &charts::intervals("Mean final VP per run, with 95% intervals", "victory points", &ladder, None, false),
                    ladder_caption(runs),
                ))
            }
        },
    )
}

/// The runs chart's caption: a skill ladder only when every run is one policy playing its
/// best; a mixed table's mean mixes its policies' skill, and a target run plays for one box.
fn ladder_caption(runs: &[Report]) -> &'static str {
    if runs
        .iter()
        .all(|r| r.policies.is_empty() && r.target.is_none())
    {
        "The skill ladder: each run's mean VP and its 95% interval."
    } else {
        "Each run's mean VP and its 95% interval. A mixed table's mean mixes its policies, and a target run plays for one box, so neither is a rung of a skill ladder (the seats tables compare a mixed table's policies)."
    }
}

fn seats(run: &Report) -> Markup {
    let order = if run.rotate {
        "seats rotate between games"
    } else {
        "seat 1 plays first"
    };
    let columns = [
        Column::text("seat").wide(8),
        Column::text("policy").wide(28),
        Column::number("win rate").wide(12),
        Column::number("95% interval").wide(16),
        Column::number("advantage").wide(12),
        Column::number("95% interval").wide(14),
        Column::number("VP mean").wide(10),
    ];
    let rows = run.seats.iter().map(|s| {
        vec![
            cell(s.seat.to_string()),
            cell(&s.policy),
            cell(percent(s.win_rate)),
            cell(format!(
                "{}-{}",
                percent(s.win_rate_ci95[0]),
                percent(s.win_rate_ci95[1])
            )),
            cell(format!("{:+.1}%", s.advantage * 100.0)),
            cell(format!(
                "{:+.1}..{:+.1}%",
                s.advantage_ci95[0] * 100.0,
                s.advantage_ci95[1] * 100.0
            )),
            cell(format!("{:.1}", s.vp.mean)),
        ]
    });
    let names: Vec<String> = run
        .seats
        .iter()
        .map(|s| format!("seat {} {}", s.seat, s.policy))
        .collect();
    let bars: Vec<Interval> = run
        .seats
        .iter()
        .zip(&names)
        .map(|(s, name)| Interval {
            name,
            value: s.win_rate,
            low: s.win_rate_ci95[0],
            high: s.win_rate_ci95[1],
        })
        .collect();
    let fair = 1.0 / run.players as f64;
    let places = [
        Column::text("place in turn order").wide(36),
        Column::number("win rate").wide(12),
        Column::number("95% interval").wide(16),
        Column::number("advantage").wide(12),
        Column::number("95% interval").wide(14),
        Column::number("VP mean").wide(10),
    ];
    let place_rows = run.positions.iter().map(|p| {
        vec![
            cell(p.position.to_string()),
            cell(percent(p.win_rate)),
            cell(format!(
                "{}-{}",
                percent(p.win_rate_ci95[0]),
                percent(p.win_rate_ci95[1])
            )),
            cell(format!("{:+.1}%", p.advantage * 100.0)),
            cell(format!(
                "{:+.1}..{:+.1}%",
                p.advantage_ci95[0] * 100.0,
                p.advantage_ci95[1] * 100.0
            )),
            cell(format!("{:.1}", p.mean_vp)),
        ]
    });
    html::section(
        &format!("seats-{}", run.policy.replace([',', ':', '#'], "-")),
        &format!("{}: {} players, {order}", run.policy, run.players),
        html! {
            (html::table(&columns, rows))
            @if !run.positions.is_empty() { (html::table(&places, place_rows)) }
            (html::figure(
                &charts::intervals("Win rate per seat, with 95% intervals", "games won", &bars, Some(fair), true),
                &format!("The dashed line is a fair share of the wins: {}.", percent(fair)),
            ))
        },
    )
}

fn targets(runs: &[Report]) -> Markup {
    let targets: Vec<&Report> = runs.iter().filter(|r| r.target.is_some()).collect();
    if targets.is_empty() {
        return html! {};
    }
    let columns = [
        Column::text("target box").wide(40),
        Column::number("filled").wide(12),
        Column::number("earliest turn").wide(12),
        Column::number("median").wide(12),
        Column::number("p90").wide(12),
        Column::number("never").wide(12),
    ];
    let turn = |t: Option<f64>| t.map_or("-".to_string(), |t| format!("{t:.0}"));
    let rows = targets.iter().filter_map(|r| r.target.as_ref()).map(|t| {
        vec![
            cell(&t.r#box),
            cell(percent(t.filled)),
            cell(turn(t.earliest.map(f64::from))),
            cell(turn(t.median)),
            cell(turn(t.p90)),
            cell(percent(t.never)),
        ]
    });
    html::section("targets", "Target boxes", html::table(&columns, rows))
}

fn charts_section(runs: &[Report]) -> Markup {
    let game = runs.first().map_or("", |r| r.game.as_str());
    let series = |pick: fn(&Report) -> &[u32]| -> Vec<Series> {
        runs.iter()
            .map(|r| Series {
                name: &r.policy,
                values: pick(r),
            })
            .collect()
    };
    // Final VP, a mixed table's one series per policy: its peaks may be its players' skill.
    let names: Vec<(String, &[u32])> = runs
        .iter()
        .flat_map(|r| -> Vec<(String, &[u32])> {
            if r.policies.is_empty() {
                vec![(r.policy.clone(), r.scores.as_slice())]
            } else {
                r.policies
                    .iter()
                    .map(|p| (format!("{}: {}", r.policy, p.policy), p.scores.as_slice()))
                    .collect()
            }
        })
        .collect();
    let final_vp: Vec<Series> = names
        .iter()
        .map(|(name, values)| Series { name, values })
        .collect();
    let final_vp_caption = if runs.iter().any(|r| !r.policies.is_empty()) {
        "Final VP of every player-game, a mixed table's by policy: two peaks in one policy's games mean two kinds of games (see the findings); peaks of different policies are their skill."
    } else {
        "Final VP of every player-game: two peaks mean two kinds of games (see the findings)."
    };
    let over_turns: Vec<(&str, &[f64])> = runs
        .iter()
        .map(|r| (r.policy.as_str(), r.vp_by_turn.as_slice()))
        .collect();
    html::section(
        "charts",
        "Charts",
        html! {
            (html::figure(
                &charts::histogram(&format!("{game}: final VP"), "victory points", &final_vp, 5),
                final_vp_caption,
            ))
            (html::figure(
                &charts::histogram(&format!("{game}: turns played"), "turns", &series(|r| &r.lengths), 1),
                "Turns each player took before running out of turns or Safari Balls.",
            ))
            (html::figure(
                &charts::lines(&format!("{game}: mean VP after each turn"), "victory points", &over_turns),
                "Mean VP after each turn; a player who is out keeps their score.",
            ))
        },
    )
}

/// Every box, card, species and item, one column per run, folded away.
fn details(runs: &[Report]) -> Markup {
    let Some(first) = runs.first() else {
        return html! {};
    };
    let per_run = |what: &str| -> Vec<String> {
        runs.iter()
            .map(|r| format!("{what}: {}", r.policy))
            .collect()
    };
    let table =
        |title: &str, ids: Vec<&str>, what: &str, value: &dyn Fn(&Report, usize) -> String| {
            let headings = per_run(what);
            let mut columns = vec![Column::text(title)];
            columns.extend(headings.iter().map(|h| Column::number(h)));
            let rows = ids.iter().enumerate().map(|(i, id)| {
                let mut row = vec![cell(id)];
                row.extend(runs.iter().map(|r| cell(value(r, i))));
                row
            });
            let summary = format!("{} ({})", title, ids.len());
            html! {
                details {
                    summary { (html::text(&summary)) }
                    (html::table(&columns, rows))
                }
            }
        };
    let mean_turn = |r: &Report, i: usize| {
        let b = &r.boxes[i];
        match b.mean_turn {
            Some(t) => format!("{} (turn {t:.1})", percent(b.fill_rate)),
            None => percent(b.fill_rate),
        }
    };
    html::section(
        "details",
        "Every box, card, species and item",
        html! {
            (table("boxes", first.boxes.iter().map(|b| b.id.as_str()).collect(), "filled (mean turn)", &mean_turn))
            (table("cards", first.cards.iter().map(|c| c.id.as_str()).collect(), "caught per game, catch rate",
                &|r: &Report, i| {
                    let c = &r.cards[i];
                    format!("{:.2}, {}", c.catches as f64 / r.games.max(1) as f64, percent(c.catch_rate))
                }))
            (table("species", first.species.iter().map(|s| s.id.as_str()).collect(), "collected",
                &|r: &Report, i| percent(r.species[i].collected)))
            (table("items", first.items.iter().map(|s| s.id.as_str()).collect(), "obtained, uses per game",
                &|r: &Report, i| format!("{}, {:.2}", percent(r.items[i].obtained), r.items[i].uses_per_game)))
        },
    )
}
