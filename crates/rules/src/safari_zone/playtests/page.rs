//! A ruleset of Safari Zone RNW in `out/<game>/playtests/report.html` (`crate::playtests::page`):
//! what the terminal says, in the same order, with a chart of the mean scores and every box,
//! folded away.

use crate::charts::{self, Interval};
use crate::html::{self, Column, Markup, html};

use super::LISTED_BOXES;
use super::render::{HEADINGS, kind_words, listed_boxes, percent, rows, run_name};
use super::report::{BoxCompare, End, RulesetReport};
use crate::playtests::cell;

pub(crate) fn ruleset_section(index: usize, ruleset: &RulesetReport, advisor: &str) -> Markup {
    let people = &ruleset.people;
    let columns = [
        Column::text(HEADINGS[0]).wide(22),
        Column::number(HEADINGS[1]).wide(8),
        Column::number(HEADINGS[2]).wide(9),
        Column::number(HEADINGS[3]).wide(8),
        Column::number(HEADINGS[4]).wide(10),
        Column::number(HEADINGS[5]).wide(8),
        Column::number(HEADINGS[6]).wide(10),
        Column::number(HEADINGS[7]).wide(10),
        Column::number(HEADINGS[8]).wide(15),
    ];
    let table = rows(ruleset).into_iter().map(|r| {
        vec![
            cell(r.name),
            cell(r.games),
            cell(r.mean),
            cell(r.median),
            cell(r.range),
            cell(r.turns),
            cell(r.decisions),
            cell(r.all_turns),
            cell(r.balls),
        ]
    });
    let mut ladder: Vec<(String, f64, f64, f64)> = Vec::new();
    if let Some(vp) = &people.vp {
        ladder.push(("people".to_string(), vp.mean, vp.ci95[0], vp.ci95[1]));
    }
    for run in &ruleset.bots {
        ladder.push((
            run_name(&run.policy, run.players),
            run.vp.mean,
            run.vp.ci95[0],
            run.vp.ci95[1],
        ));
    }
    let bars: Vec<Interval> = ladder
        .iter()
        .map(|(name, value, low, high)| Interval {
            name,
            value: *value,
            low: low.max(0.0),
            high: *high,
        })
        .collect();
    let seats = [
        Column::text("log").wide(30),
        Column::number("seat").wide(6),
        Column::text("who").wide(13),
        Column::number("VP").wide(11),
        Column::number("turns").wide(8),
        Column::number("decisions").wide(10),
        Column::text("end").wide(22),
    ];
    let person_rows = people.games.iter().map(|g| {
        vec![
            cell(&g.file),
            cell(g.seat.to_string()),
            cell("person"),
            cell(if g.end == End::Unfinished {
                format!("{} so far", g.vp)
            } else {
                g.vp.to_string()
            }),
            cell(g.turns.to_string()),
            cell(g.decisions.to_string()),
            cell(g.end.words()),
        ]
    });
    let bot_rows = ruleset.bot_seats.iter().map(|s| {
        vec![
            cell(&s.file),
            cell(s.seat.to_string()),
            cell(format!("bot {}", s.policy)),
            cell(s.vp.to_string()),
            cell(s.turns.to_string()),
            cell("-"),
            cell(s.end.words()),
        ]
    });
    let heading = format!("{}: {}", ruleset.game, ruleset.version);
    html::section(
        &format!("ruleset-{}", index + 1),
        &heading,
        html! {
            p.note {
                (html::text(&format!(
                    "{} logs; {} finished games of people, {} unfinished (not counted); the bots' games are their own, at a table of {}.",
                    ruleset.logs.len(), people.finished, people.unfinished,
                    ruleset.bots.first().map_or(1, |r| r.players)
                )))
            }
            (html::table(&columns, table))
            @if bars.len() > 1 {
                (html::figure(
                    &charts::intervals("Mean final VP, with 95% intervals", "victory points", &bars, None, false),
                    "People's finished games beside each bot's: a wide interval is few games.",
                ))
            }
            h3 { "Every seat of the logs" }
            (html::table(&seats, person_rows.chain(bot_rows)))
            (boxes(ruleset))
            (crate::playtests::choices_section(&ruleset.decisions, &ruleset.disagreements, advisor, kind_words))
            (every_box(ruleset))
        },
    )
}

fn box_table(listed: &[&BoxCompare], bot: &str) -> Markup {
    let columns = [
        Column::text("box").wide(50),
        Column::number("people").wide(15),
        Column::number(bot).wide(15),
        Column::number("difference").wide(20),
    ];
    html::table(
        &columns,
        listed.iter().map(|b| {
            vec![
                html! { (html::text(&b.name)) " " span.note { (html::text(&b.id)) } },
                cell(percent(b.people)),
                cell(percent(b.bots)),
                cell(format!("{:+.0} pts", b.difference * 100.0)),
            ]
        }),
    )
}

/// What a list of `listed` boxes cut at [`LISTED_BOXES`] leaves out.
fn more_boxes(listed: usize) -> Markup {
    html! {
        @if listed > LISTED_BOXES {
            p.note { (html::text(&format!("... and {} more: every box is under Every box, below.", listed - LISTED_BOXES))) }
        }
    }
}

fn boxes(ruleset: &RulesetReport) -> Markup {
    let Some(first) = ruleset.bots.first() else {
        return html! {};
    };
    let (more, less) = (listed_boxes(ruleset, true), listed_boxes(ruleset, false));
    html! {
        @if !more.is_empty() {
            h3 { (html::text(&format!("Boxes people fill more often than {}", first.policy))) }
            (box_table(&more[..more.len().min(LISTED_BOXES)], &first.policy))
            (more_boxes(more.len()))
        }
        @if !less.is_empty() {
            h3 { (html::text(&format!("Boxes {} fills more often than people", first.policy))) }
            (box_table(&less[..less.len().min(LISTED_BOXES)], &first.policy))
            (more_boxes(less.len()))
        }
    }
}

fn every_box(ruleset: &RulesetReport) -> Markup {
    let Some(first) = ruleset.bots.first() else {
        return html! {};
    };
    let all: Vec<&BoxCompare> = ruleset.boxes.iter().collect();
    html! {
        details {
            summary { (html::text(&format!("Every box ({})", all.len()))) }
            (box_table(&all, &first.policy))
        }
    }
}
