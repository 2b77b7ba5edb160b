//! A ruleset of the family in the report's terminal text: per table size the people beside
//! the bots, every seat, the components, and where people and the advisor choose differently.

use super::kind_words;
use super::report::{FamilyReport, SeatGame, TableCompare, UNFINISHED};
use crate::playtests::{count, percent, run_name};

/// Seats of the logs listed in the text (the HTML and the JSON list every one).
pub const LISTED_SEATS: usize = 12;

/// A reason the rules name for an end, in words: `jungle_face_up` → "jungle face up".
pub(crate) fn end_words(reason: &str) -> String {
    reason.replace('_', " ")
}

/// Shares of the wins by seat: "55/45".
fn by_seat(shares: &[f64]) -> String {
    if shares.is_empty() {
        return "-".to_string();
    }
    shares
        .iter()
        .map(|s| format!("{:.0}", s * 100.0))
        .collect::<Vec<_>>()
        .join("/")
}

/// The widths of the text table's columns after the first.
const WIDTHS: [usize; 7] = [6, 7, 7, 14, 6, 8, 9];

pub(super) const HEADINGS: [&str; 8] = [
    "",
    "games",
    "score",
    "range",
    "wins by seat %",
    "shared",
    "actions",
    "decisions",
];

/// The table of people and bots at one size: one row each.
pub(super) fn rows(table: &TableCompare) -> Vec<[String; 8]> {
    let people = &table.people;
    let or_dash = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.1}"));
    let mut rows = vec![[
        "people".to_string(),
        people.seats.to_string(),
        or_dash(people.score),
        match (people.lowest, people.highest) {
            (Some(low), Some(high)) => format!("{low}-{high}"),
            _ => "-".to_string(),
        },
        by_seat(&people.wins_by_seat),
        if people.logs == 0 {
            "-".to_string()
        } else {
            people.shared.to_string()
        },
        or_dash(people.actions),
        or_dash(people.decisions),
    ]];
    for bot in &table.bots {
        let name = run_name(&bot.policy, bot.players);
        rows.push(match &bot.table {
            Some(t) if t.games > 0 => [
                name,
                t.games.to_string(),
                format!(
                    "{:.1}",
                    t.mean_score_by_seat.iter().sum::<f64>() / t.mean_score_by_seat.len() as f64
                ),
                "-".to_string(),
                by_seat(&t.wins_by_seat),
                t.shared.to_string(),
                format!("{:.1}", t.mean_actions),
                "-".to_string(),
            ],
            _ => [
                name,
                "0".to_string(),
                "-".to_string(),
                "-".to_string(),
                "-".to_string(),
                "-".to_string(),
                "-".to_string(),
                "-".to_string(),
            ],
        });
    }
    rows
}

/// How the games at one size ended, and what stopped a bots' table: lines of text.
pub(super) fn notes(table: &TableCompare) -> Vec<String> {
    let mut lines = Vec::new();
    let mut ends = Vec::new();
    if table.people.logs > 0 {
        let said: Vec<String> = table
            .people
            .ends
            .iter()
            .map(|(reason, n)| format!("{} {n} of {}", end_words(reason), table.people.logs))
            .collect();
        ends.push(format!("people: {}", said.join(", ")));
    }
    for bot in &table.bots {
        match (&bot.table, &bot.refused) {
            (Some(t), _) if t.games > 0 => {
                let said: Vec<String> = t
                    .ends
                    .iter()
                    .map(|(reason, n)| {
                        format!(
                            "{} {}",
                            end_words(reason),
                            percent(*n as f64 / t.games as f64)
                        )
                    })
                    .collect();
                ends.push(format!("{}: {}", bot.policy, said.join(", ")));
            }
            _ => {}
        }
        if let Some(why) = bot.table.as_ref().and_then(|t| t.stopped.as_ref()) {
            lines.push(format!("{}: {why}", bot.policy));
        }
        if let Some(why) = &bot.refused {
            lines.push(format!("{}: {why}", bot.policy));
        }
    }
    if !ends.is_empty() {
        lines.insert(0, format!("how games end: {}", ends.join("; ")));
    }
    if let Some(share) = table.people.wins_at_bots {
        lines.push(format!(
            "people at tables with bots: {}, {} of the wins each on average ({} would be even)",
            count(table.people.seats_at_bots, "seat"),
            percent(share),
            percent(1.0 / table.players as f64)
        ));
    }
    lines
}

/// One seat in words: "safari-two-people.json seat 1: person, score 12, won, 43 actions in 21
/// turns, jungle face up".
pub(super) fn seat_words(seat: &SeatGame) -> String {
    let who = match &seat.bot {
        Some(bot) => format!("bot {bot}"),
        None => "person".to_string(),
    };
    let result = match (seat.score, seat.won) {
        (Some(score), Some(won)) => format!(
            "score {score}, {}",
            if won >= 1.0 {
                "won".to_string()
            } else if won > 0.0 {
                "shared the win".to_string()
            } else {
                "lost".to_string()
            }
        ),
        _ => "no score yet".to_string(),
    };
    format!(
        "{} seat {} of {}: {who}, {result}, {} in {}, {}{}",
        seat.file,
        seat.seat,
        seat.players,
        count(seat.actions as usize, "action"),
        count(seat.turns as usize, "turn"),
        end_words(&seat.end),
        if seat.end == UNFINISHED {
            " (not counted)"
        } else {
            ""
        }
    )
}

/// The components no bot's game used, with the people's games that used them; or that the
/// bots used every one.
pub(super) fn components_words(report: &FamilyReport) -> String {
    let components = &report.components;
    let unread = safari_engine::family::sim::unread_words(&components.unread)
        .map(|said| format!("{said} "))
        .unwrap_or_default();
    if components.never_by_bots.is_empty() {
        let every = if components.unread.is_empty() {
            "Every component"
        } else {
            "Every component the rules read"
        };
        return format!("{unread}{every} played a part in some bot's game.");
    }
    let said: Vec<String> = components
        .never_by_bots
        .iter()
        .map(|c| match components.used_by_people.get(c) {
            Some(n) => format!("{c} (in {n} of the people's {})", components.people_games),
            None => c.clone(),
        })
        .collect();
    format!("{unread}Never part of a bot's game: {}.", said.join(", "))
}

pub(crate) fn render(out: &mut String, report: &FamilyReport, advisor: &str) {
    let bot_seats = report.seats.iter().filter(|s| s.bot.is_some()).count();
    out.push_str(&format!("{}: {}\n", report.game, report.version));
    out.push_str(&format!(
        "  {}: {} finished, {} unfinished (not counted); {} at people's tables\n",
        count(report.logs.len(), "log"),
        report.finished,
        report.unfinished,
        count(bot_seats, "bot seat"),
    ));
    for table in &report.tables {
        let rows = rows(table);
        let width = rows.iter().map(|r| r[0].len()).max().unwrap_or(0).max(9);
        // The first column names the table's size; the others are right-aligned.
        let mut heading = HEADINGS.map(str::to_string);
        heading[0] = count(table.players, "player");
        for cells in std::iter::once(&heading).chain(&rows) {
            let mut line = format!("  {:<width$}", cells[0]);
            for (cell, wide) in cells[1..].iter().zip(WIDTHS) {
                line.push_str(&format!(" {cell:>wide$}"));
            }
            out.push_str(&line);
            out.push('\n');
        }
        for line in notes(table) {
            out.push_str(&format!("    {line}\n"));
        }
    }
    for seat in report.seats.iter().take(LISTED_SEATS) {
        out.push_str(&format!("  {}\n", seat_words(seat)));
    }
    if report.seats.len() > LISTED_SEATS {
        out.push_str(&format!(
            "  ... and {} more seats (report.html and report.json list every one)\n",
            report.seats.len() - LISTED_SEATS
        ));
    }
    out.push_str(&format!("  {}\n", components_words(report)));
    crate::playtests::render_choices(
        out,
        &report.decisions,
        &report.disagreements,
        &format!("{advisor} bot"),
        kind_words,
    );
}
