//! A ruleset of the family in `report.html` (`crate::playtests::page`): what the terminal
//! says, in the same order, with every seat.

use super::kind_words;
use super::render::{HEADINGS, components_words, notes, rows, seat_words};
use super::report::FamilyReport;
use crate::html::{self, Column, Markup, html};
use crate::playtests::{cell, count};

pub(crate) fn section(index: usize, report: &FamilyReport, advisor: &str) -> Markup {
    let columns = [
        Column::text(HEADINGS[0]).wide(22),
        Column::number(HEADINGS[1]).wide(8),
        Column::number(HEADINGS[2]).wide(9),
        Column::number(HEADINGS[3]).wide(9),
        Column::number(HEADINGS[4]).wide(16),
        Column::number(HEADINGS[5]).wide(9),
        Column::number(HEADINGS[6]).wide(12),
        Column::number(HEADINGS[7]).wide(15),
    ];
    let heading = format!("{}: {}", report.game, report.version);
    html::section(
        &format!("ruleset-{}", index + 1),
        &heading,
        html! {
            p.note {
                (html::text(&format!(
                    "{}: {} finished, {} unfinished (not counted). The bots' games are their own, each bot in every seat, at a table of as many players as the people's.",
                    count(report.logs.len(), "log"), report.finished, report.unfinished,
                )))
            }
            @for table in &report.tables {
                h3 { (html::text(&format!("At tables of {}", count(table.players, "player")))) }
                (html::table(&columns, rows(table).into_iter().map(|r| r.iter().map(cell).collect())))
                (html::lines("note", notes(table).iter().map(String::as_str)))
            }
            h3 { "Every seat of the logs" }
            (html::lines("seats", report.seats.iter().map(seat_words).collect::<Vec<_>>().iter().map(String::as_str)))
            h3 { "Components" }
            p { (html::text(&components_words(report))) }
            (crate::playtests::choices_section(&report.decisions, &report.disagreements, &format!("{advisor} bot"), kind_words))
        },
    )
}
