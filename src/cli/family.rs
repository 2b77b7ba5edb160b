//! `sim` and `diff` for the games made of components that have an engine
//! (`safari_engine::family`): played by the family's bots from the ruleset `build` writes.

use safari_engine::family::bots::{self, Bot};
use safari_engine::family::ruleset::thousands;
use safari_engine::family::sim::{self, Report};
use safari_engine::family::{self, any};

use super::{Ui, exit};

/// A game of the family, read from its ruleset with the variants asked for.
fn read(bytes: &[u8], variants: &[String]) -> Result<Box<dyn any::Rules>, String> {
    any::open(bytes, variants).map_err(|e| e.to_string())
}

pub(crate) fn no_engine_message(rules: &str) -> String {
    format!(
        "`{rules}` rules have no engine yet, so there is nothing to simulate or compare by play (`safari check` and `safari build` work); engines: safari-zone, {}",
        family::ENGINES.join(", ")
    )
}

/// Whether a ruleset file is of a game made of components.
pub(crate) fn is_components_ruleset(bytes: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Value>(bytes)
        .ok()
        .and_then(|v| {
            v.get("format")
                .and_then(|f| f.as_str())
                .map(|f| f == family::ruleset::FORMAT)
        })
        .unwrap_or(false)
}

/// The ruleset of a checked game made of components with an engine; `None` when the game
/// is not made of components.
pub(crate) fn ruleset_of(checked: &crate::Checked) -> Option<Result<Vec<u8>, String>> {
    let table = checked.table.as_ref()?;
    let rules = table.manifest.rules.value.as_str();
    if !family::ENGINES.contains(&rules) {
        return Some(Err(no_engine_message(rules)));
    }
    let module = crate::rules::module(rules)?;
    Some(Ok(serde_json::to_vec(
        &crate::backends::table::ruleset::ruleset(table, module),
    )
    .expect("rulesets serialise")))
}

/// What `sim` asked for, as the family reads it.
pub(crate) struct Run<'a> {
    pub games: u64,
    pub players: Option<u32>,
    pub policies: Option<&'a [String]>,
    pub seats: Option<&'a [String]>,
    pub rotate: bool,
    pub seed: u64,
    pub variants: &'a [String],
    /// Where the report goes, kept clear of the game folder read.
    pub out: crate::output::OutputRoot,
}

/// The tables a run plays. Without `--policy` or `--seats`: random and greedy each at a
/// table of their own (the seats' advantage), and greedy against random, rotating (what
/// skill is worth).
fn tables(run: &Run, (fewest, most): (usize, usize)) -> Result<Vec<(Vec<String>, bool)>, String> {
    let players = match (run.players, run.seats) {
        (Some(p), Some(s)) if p as usize != s.len() => {
            return Err(format!(
                "--players {p} does not match the {} seats of --seats",
                s.len()
            ));
        }
        (Some(p), _) => p as usize,
        (None, Some(s)) => s.len(),
        (None, None) => fewest,
    };
    if !(fewest..=most).contains(&players) {
        return Err(format!(
            "this game is played by {fewest} to {most} players, not {players}"
        ));
    }
    let mut tables: Vec<(Vec<String>, bool)> = Vec::new();
    match (run.policies, run.seats) {
        (None, None) => {
            for bot in ["random", "greedy"] {
                tables.push((vec![bot.to_string(); players], run.rotate));
            }
            let mut mixed = vec!["greedy".to_string()];
            mixed.resize(players, "random".to_string());
            tables.push((mixed, true));
        }
        (policies, seats) => {
            for bot in policies.unwrap_or_default() {
                tables.push((vec![bot.clone(); players], run.rotate));
            }
            if let Some(seats) = seats {
                tables.push((seats.to_vec(), run.rotate));
            }
        }
    }
    for name in tables.iter().flat_map(|t| &t.0) {
        if Bot::by_name(name).is_none() {
            return Err(format!(
                "unknown policy `{name}`; this game's bots: {}",
                bots::NAMES.join(", ")
            ));
        }
    }
    Ok(tables)
}

pub(crate) fn sim(bytes: &[u8], run: &Run, ui: Ui) -> u8 {
    let game = match read(bytes, run.variants) {
        Ok(game) => game,
        Err(message) => {
            super::error(&message);
            return exit::FAILURE;
        }
    };
    let tables = match tables(run, game.players()) {
        Ok(tables) => tables,
        Err(message) => {
            super::error(&message);
            return exit::FAILURE;
        }
    };
    let bar = super::games_bar(run.games * tables.len() as u64, "games", ui);
    let report = match game.simulate(&tables, run.games, run.seed, &|n| bar.inc(n)) {
        Ok(report) => Report {
            unread: family::ruleset::unread(bytes),
            ..report
        },
        Err(message) => {
            bar.finish_and_clear();
            super::error(&message);
            return exit::FAILURE;
        }
    };
    bar.finish_and_clear();
    super::print_out(crate::diag::printable(&render(&report, run.variants)));
    let files = [crate::backends::Output {
        path: "report.json".to_string(),
        bytes: serde_json::to_vec_pretty(&report).expect("reports serialise"),
    }];
    let id = serde_json::from_slice::<serde_json::Value>(bytes)
        .ok()
        .and_then(|v| v["game"]["id"].as_str().map(str::to_string))
        .unwrap_or_else(|| "game".to_string());
    match run.out.update(&id, "sim", &files) {
        Ok(dir) => {
            ui.info(format!("wrote {}", dir.join("report.json").display()));
            exit::OK
        }
        Err(diagnostic) => {
            super::fault(diagnostic, ui);
            exit::FAILURE
        }
    }
}

fn percent(share: f64) -> String {
    format!("{:.0}%", share * 100.0)
}

/// The report in words: each table, then what the tables say together.
pub(crate) fn render(report: &Report, variants: &[String]) -> String {
    let mut out = format!(
        "{}{}, {} players, seed {}\n\n",
        report.game,
        if variants.is_empty() {
            String::new()
        } else {
            format!(" ({})", variants.join(", "))
        },
        report.players,
        report.seed
    );
    for table in &report.tables {
        if table.games == 0 {
            // Stopped in its first game: only why.
            out += &format!("{}: no game played\n", table.seats.join(", "));
            for line in bounds_met(table) {
                out += &format!("  {line}\n");
            }
            out += "\n";
            continue;
        }
        out += &format!(
            "{}{}: {} games, {:.0} actions on average (at most {})\n",
            table.seats.join(", "),
            if table.rotate {
                " (seats rotating)"
            } else {
                ""
            },
            table.games,
            table.mean_actions,
            table.most_actions
        );
        let seats: Vec<String> = table
            .wins_by_seat
            .iter()
            .zip(&table.mean_score_by_seat)
            .enumerate()
            .map(|(s, (w, m))| format!("seat {} {} (score {m:.1})", s + 1, percent(*w)))
            .collect();
        out += &format!("  wins by seat: {}\n", seats.join(", "));
        if table.wins_by_bot.len() > 1 {
            let bots: Vec<String> = table
                .wins_by_bot
                .iter()
                .map(|(b, w)| format!("{b} {}", percent(*w)))
                .collect();
            out += &format!("  wins by bot: {}\n", bots.join(", "));
        }
        let ends: Vec<String> = table
            .ends
            .iter()
            .map(|(reason, n)| {
                format!(
                    "{} {}",
                    reason.replace('_', " "),
                    percent(*n as f64 / table.games.max(1) as f64)
                )
            })
            .collect();
        out += &format!(
            "  ends: {}; {} shared wins\n",
            ends.join(", "),
            table.shared
        );
        for line in bounds_met(table) {
            out += &format!("  {line}\n");
        }
        out += "\n";
    }
    out += "Findings:\n";
    for line in findings(report) {
        out += &format!("- {line}\n");
    }
    out
}

/// What the engine's bounds did to a table's games: games the rules did not end, which the
/// engine ended at its limit of turns; bots' moves their bound of work cut short; and why the
/// table stopped early.
fn bounds_met(table: &sim::TableReport) -> Vec<String> {
    let mut lines = Vec::new();
    if table.at_turn_limit > 0 {
        lines.push(format!(
            "{} of {} games ran to the engine's limit of {} turns: the rules did not end them",
            table.at_turn_limit,
            table.games,
            thousands(family::MOST_TURNS.into())
        ));
    }
    if table.moves_cut_short > 0 {
        lines.push(format!(
            "{} bot moves were cut short by the bound on a move's work (a search of fewer playouts, a greedy look less far ahead)",
            table.moves_cut_short
        ));
    }
    if let Some(why) = &table.stopped {
        lines.push(format!("{why}."));
    }
    lines
}

/// What the tables say together: the first seat's edge between equal bots, what a better
/// bot is worth, and the components that never mattered.
pub(crate) fn findings(report: &Report) -> Vec<String> {
    let mut lines = Vec::new();
    let fair = 1.0 / report.players.max(1) as f64;
    for table in &report.tables {
        let same = table.seats.iter().all(|s| *s == table.seats[0]);
        if same && !table.rotate && table.games >= 100 {
            let first = table.wins_by_seat[0];
            lines.push(format!(
                "Between {} bots the first seat wins {} of games ({} would be even).",
                table.seats[0],
                percent(first),
                percent(fair)
            ));
        }
        if !same && table.rotate && table.games > 0 {
            let (best, share) = table
                .wins_by_bot
                .iter()
                .max_by(|a, b| a.1.total_cmp(b.1))
                .expect("a table has bots");
            let fair_share = fair * table.seats.iter().filter(|s| *s == best).count() as f64;
            lines.push(format!(
                "{best} wins {} of games at a table of {} with the seats rotating ({} would be luck alone).",
                percent(*share),
                table.seats.join(", "),
                percent(fair_share)
            ));
        }
    }
    let at_limit: u64 = report.tables.iter().map(|t| t.at_turn_limit).sum();
    if at_limit > 0 {
        let games: u64 = report.tables.iter().map(|t| t.games).sum();
        lines.push(format!(
            "The rules did not end {at_limit} of {games} games: the engine ended them at its limit of {} turns, so their scores and winners are not the game's.",
            thousands(family::MOST_TURNS.into())
        ));
    }
    let stopped = report.tables.iter().filter(|t| t.stopped.is_some()).count();
    match (stopped, report.tables.len()) {
        (0, _) => {}
        (1, 1) => lines.push(
            "The table stopped before playing every game asked for (said above): its numbers rest on fewer games.".to_string(),
        ),
        (stopped, tables) => lines.push(format!(
            "{stopped} of {tables} tables stopped before playing every game asked for (said above): their numbers rest on fewer games."
        )),
    }
    // With no game played, no component could have played a part.
    let played = report.tables.iter().any(|t| t.games > 0);
    lines.extend(sim::unread_words(&report.unread));
    if played && report.never_used.is_empty() && report.unread.is_empty() {
        lines.push("Every component played a part in some game.".to_string());
    } else if played && report.never_used.is_empty() {
        lines.push("Every component the rules read played a part in some game.".to_string());
    } else if played {
        lines.push(format!(
            "Never part of a game: {}.",
            report.never_used.join(", ")
        ));
    }
    lines
}

/// `diff` of two versions of a game of the family: both played at the same tables from the
/// same seeds, and what moved.
pub(crate) fn diff(
    old: (&str, &[u8]),
    new: (&str, &[u8]),
    run: &Run,
    json: bool,
) -> Result<String, String> {
    let play = |bytes: &[u8]| -> Result<Report, String> {
        let game = read(bytes, run.variants)?;
        let tables = tables(run, game.players())?;
        game.simulate(&tables, run.games, run.seed, &|_| {})
    };
    let (before, after) = (play(old.1)?, play(new.1)?);
    if json {
        return Ok(format!(
            "{}\n",
            serde_json::to_string_pretty(&serde_json::json!({ "old": before, "new": after }))
                .expect("reports serialise")
        ));
    }
    let mut out = format!(
        "{} → {}: {}, {} players, {} games a table, seed {}\n\n",
        old.0, new.0, after.game, after.players, run.games, run.seed
    );
    for (a, b) in before.tables.iter().zip(&after.tables) {
        out += &format!(
            "{}{}:\n",
            b.seats.join(", "),
            if b.rotate { " (seats rotating)" } else { "" }
        );
        let seats: Vec<String> = (0..b.wins_by_seat.len())
            .map(|s| {
                format!(
                    "seat {} {} → {}",
                    s + 1,
                    percent(a.wins_by_seat[s]),
                    percent(b.wins_by_seat[s])
                )
            })
            .collect();
        out += &format!("  wins by seat: {}\n", seats.join(", "));
        let scores: Vec<String> = (0..b.mean_score_by_seat.len())
            .map(|s| {
                format!(
                    "{:.1} → {:.1}",
                    a.mean_score_by_seat[s], b.mean_score_by_seat[s]
                )
            })
            .collect();
        out += &format!("  mean score by seat: {}\n", scores.join(", "));
        if b.wins_by_bot.len() > 1 {
            let bots: Vec<String> = b
                .wins_by_bot
                .iter()
                .map(|(bot, w)| {
                    format!(
                        "{bot} {} → {}",
                        percent(a.wins_by_bot.get(bot).copied().unwrap_or(0.0)),
                        percent(*w)
                    )
                })
                .collect();
            out += &format!("  wins by bot: {}\n", bots.join(", "));
        }
        let mut reasons: Vec<&String> = a.ends.keys().chain(b.ends.keys()).collect();
        reasons.sort();
        reasons.dedup();
        let ends: Vec<String> = reasons
            .iter()
            .map(|r| {
                let share = |t: &sim::TableReport| {
                    t.ends.get(*r).copied().unwrap_or(0) as f64 / t.games.max(1) as f64
                };
                format!(
                    "{} {} → {}",
                    r.replace('_', " "),
                    percent(share(a)),
                    percent(share(b))
                )
            })
            .collect();
        out += &format!("  ends: {}\n", ends.join(", "));
        out += &format!(
            "  actions per game: {:.0} → {:.0}\n",
            a.mean_actions, b.mean_actions
        );
        for (version, table) in [("old", a), ("new", b)] {
            if let Some(why) = &table.stopped {
                out += &format!("  {version}: {why}\n");
            }
        }
        out += "\n";
    }
    let newly: Vec<&String> = after
        .never_used
        .iter()
        .filter(|c| !before.never_used.contains(c))
        .collect();
    let again: Vec<&String> = before
        .never_used
        .iter()
        .filter(|c| !after.never_used.contains(c))
        .collect();
    if !newly.is_empty() {
        out += &format!(
            "No longer part of any game: {}\n",
            newly
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    if !again.is_empty() {
        out += &format!(
            "Part of games again: {}\n",
            again
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    Ok(out)
}
