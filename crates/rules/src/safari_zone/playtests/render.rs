//! A ruleset of Safari Zone RNW in the report's terminal text: the people beside the bots,
//! the boxes, and where people and the advisor choose differently.

use super::report::{BoxCompare, RulesetReport};
use super::{LISTED_BOXES, LISTED_SEATS};
pub(super) use crate::playtests::{percent, run_name};

/// What a person calls a kind of decision, as in "30 throw decisions".
pub(super) fn kind_words(kind: &str) -> String {
    match kind {
        "reroll" => "re-roll",
        "track" => "track",
        "bonus" => "bonus box",
        "use" => "item",
        "repel" => "Repel",
        "card" => "card",
        "throw" => "throw",
        other => other,
    }
    .to_string()
}

/// The table of people and bots: one row each.
pub(super) struct Row {
    pub name: String,
    pub games: String,
    pub mean: String,
    pub median: String,
    pub range: String,
    pub turns: String,
    pub decisions: String,
    pub all_turns: String,
    pub balls: String,
}

pub(super) const HEADINGS: [&str; 9] = [
    "",
    "games",
    "VP mean",
    "median",
    "range",
    "turns",
    "decisions",
    "all turns",
    "out of balls",
];

pub(super) fn rows(ruleset: &RulesetReport) -> Vec<Row> {
    let people = &ruleset.people;
    let mut rows = Vec::new();
    let games = people.finished.max(1) as f64;
    rows.push(match (&people.vp, &people.turns, &people.decisions) {
        (Some(vp), Some(turns), Some(decisions)) => Row {
            name: "people".to_string(),
            games: people.finished.to_string(),
            mean: format!("{:.1}", vp.mean),
            median: format!("{:.0}", vp.median),
            range: format!("{}-{}", vp.min, vp.max),
            turns: format!("{:.1}", turns.mean),
            decisions: format!("{:.1}", decisions.mean),
            all_turns: percent(people.ended_by_turns as f64 / games),
            balls: percent(people.ended_by_balls as f64 / games),
        },
        _ => Row {
            name: "people".to_string(),
            games: "0".to_string(),
            mean: "-".to_string(),
            median: "-".to_string(),
            range: "-".to_string(),
            turns: "-".to_string(),
            decisions: "-".to_string(),
            all_turns: "-".to_string(),
            balls: "-".to_string(),
        },
    });
    for run in &ruleset.bots {
        rows.push(Row {
            name: run_name(&run.policy, run.players),
            games: run.games.to_string(),
            mean: format!("{:.1}", run.vp.mean),
            median: format!("{:.0}", run.vp.median),
            range: format!("{}-{}", run.vp.min, run.vp.max),
            turns: format!("{:.1}", run.turns.mean),
            decisions: "-".to_string(),
            all_turns: percent(run.ended_by_turns),
            balls: percent(run.ended_by_balls),
        });
    }
    rows
}

/// The boxes people fill more often than the first bot (`more`), or less often, by at least
/// [`super::FILL_GAP`], the largest difference first.
pub(super) fn listed_boxes(ruleset: &RulesetReport, more: bool) -> Vec<&BoxCompare> {
    let wide = |b: &&BoxCompare| {
        if more {
            b.difference >= super::FILL_GAP
        } else {
            -b.difference >= super::FILL_GAP
        }
    };
    if more {
        ruleset.boxes.iter().filter(wide).collect()
    } else {
        ruleset.boxes.iter().rev().filter(wide).collect()
    }
}

pub(crate) fn render_ruleset(out: &mut String, ruleset: &RulesetReport, advisor: &str) {
    let people = &ruleset.people;
    out.push_str(&format!("{}: {}\n", ruleset.game, ruleset.version));
    out.push_str(&format!(
        "  {} log{}: {} finished game{} of people, {} unfinished; {} bot seat{} at people's tables\n",
        ruleset.logs.len(),
        if ruleset.logs.len() == 1 { "" } else { "s" },
        people.finished,
        if people.finished == 1 { "" } else { "s" },
        people.unfinished,
        ruleset.bot_seats.len(),
        if ruleset.bot_seats.len() == 1 { "" } else { "s" },
    ));
    let rows = rows(ruleset);
    let width = rows.iter().map(|r| r.name.len()).max().unwrap_or(0).max(6);
    out.push_str(&format!(
        "  {:<width$} {:>6} {:>8} {:>7} {:>9} {:>6} {:>10} {:>10} {:>13}\n",
        HEADINGS[0],
        HEADINGS[1],
        HEADINGS[2],
        HEADINGS[3],
        HEADINGS[4],
        HEADINGS[5],
        HEADINGS[6],
        HEADINGS[7],
        HEADINGS[8]
    ));
    for r in &rows {
        out.push_str(&format!(
            "  {:<width$} {:>6} {:>8} {:>7} {:>9} {:>6} {:>10} {:>10} {:>13}\n",
            r.name, r.games, r.mean, r.median, r.range, r.turns, r.decisions, r.all_turns, r.balls
        ));
    }
    let mut seats: Vec<String> = people
        .games
        .iter()
        .map(|game| {
            format!(
                "{} seat {}: {} VP, {}, {}, {}{}",
                game.file,
                game.seat,
                game.vp,
                crate::words::plural(game.turns, "turn"),
                crate::words::plural(game.decisions, "decision"),
                game.end.words(),
                match game.end {
                    super::End::Unfinished => " (so far: not counted)",
                    _ => "",
                }
            )
        })
        .collect();
    seats.extend(ruleset.bot_seats.iter().map(|seat| {
        format!(
            "{} seat {}: bot {}, {} VP, {}, {}",
            seat.file,
            seat.seat,
            seat.policy,
            seat.vp,
            crate::words::plural(seat.turns, "turn"),
            seat.end.words()
        )
    }));
    for seat in seats.iter().take(LISTED_SEATS) {
        out.push_str(&format!("  {seat}\n"));
    }
    if seats.len() > LISTED_SEATS {
        out.push_str(&format!(
            "  ... and {} more seats (report.html and report.json list every one)\n",
            seats.len() - LISTED_SEATS
        ));
    }
    if let Some(first) = ruleset.bots.first() {
        for more in [true, false] {
            let listed = listed_boxes(ruleset, more);
            if listed.is_empty() {
                continue;
            }
            out.push_str(&if more {
                format!(
                    "  Boxes people fill more often than {} (people, {}):\n",
                    first.policy, first.policy
                )
            } else {
                format!(
                    "  Boxes {} fills more often than people (people, {}):\n",
                    first.policy, first.policy
                )
            });
            for b in listed.iter().take(LISTED_BOXES) {
                out.push_str(&format!(
                    "    {:>+4.0} pts  {} ({}): {}, {}\n",
                    b.difference * 100.0,
                    b.name,
                    b.id,
                    percent(b.people),
                    percent(b.bots)
                ));
            }
            if listed.len() > LISTED_BOXES {
                out.push_str(&format!(
                    "    ... and {} more (report.json has every box)\n",
                    listed.len() - LISTED_BOXES
                ));
            }
        }
    }
    crate::playtests::render_choices(
        out,
        &ruleset.decisions,
        &ruleset.disagreements,
        advisor,
        kind_words,
    );
}
