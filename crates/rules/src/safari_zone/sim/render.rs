//! A set of runs for people: the findings in words, then the tables, and the charts as files.

use super::report::{Report, SimReport};

/// Terminal width the findings wrap at.
const WIDTH: usize = 100;

fn percent(share: f64) -> String {
    format!("{:.1}%", share * 100.0)
}

/// The report as terminal text: findings first, then one table per question.
pub fn render(report: &SimReport) -> String {
    let mut out = String::new();
    if !report.findings.is_empty() {
        out.push_str("Findings\n");
        let options = textwrap::Options::new(WIDTH)
            .initial_indent("- ")
            .subsequent_indent("  ")
            .break_words(false)
            .word_splitter(textwrap::WordSplitter::NoHyphenation);
        for finding in &report.findings {
            out.push_str(&textwrap::fill(&finding.text, &options));
            out.push('\n');
        }
        out.push('\n');
    }
    runs_table(&mut out, &report.runs);
    for run in report.runs.iter().filter(|r| r.players > 1) {
        seats_table(&mut out, run);
    }
    let targets: Vec<&Report> = report.runs.iter().filter(|r| r.target.is_some()).collect();
    if !targets.is_empty() {
        out.push_str(&format!(
            "\n{:<40} {:>8} {:>8} {:>8} {:>8} {:>8}\n",
            "target box", "filled", "earliest", "median", "p90", "never"
        ));
        for run in targets {
            let t = run.target.as_ref().expect("filtered");
            let turn = |t: Option<f64>| t.map_or("-".to_string(), |t| format!("{t:.0}"));
            out.push_str(&format!(
                "{:<40} {:>8} {:>8} {:>8} {:>8} {:>8}\n",
                t.r#box,
                percent(t.filled),
                turn(t.earliest.map(f64::from)),
                turn(t.median),
                turn(t.p90),
                percent(t.never)
            ));
        }
    }
    out
}

fn runs_table(out: &mut String, runs: &[Report]) {
    let width = runs
        .iter()
        .map(|r| r.policy.len())
        .max()
        .unwrap_or(0)
        .max(10);
    out.push_str(&format!(
        "{:<width$} {:>7} {:>7} {:>7} {:>15} {:>6} {:>5} {:>5} {:>6} {:>8} {:>6}\n",
        "run",
        "games",
        "players",
        "VP mean",
        "95% CI",
        "median",
        "p10",
        "p90",
        "turns",
        "by balls",
        "busts"
    ));
    for r in runs {
        out.push_str(&format!(
            "{:<width$} {:>7} {:>7} {:>7.1} {:>15} {:>6.0} {:>5.0} {:>5.0} {:>6.1} {:>8} {:>6}\n",
            r.policy,
            r.games,
            r.players,
            r.vp.mean,
            format!("{:.1}-{:.1}", r.vp.ci95[0], r.vp.ci95[1]),
            r.vp.median,
            r.vp.p10,
            r.vp.p90,
            r.length.mean,
            percent(r.ended_by_balls),
            percent(r.bust_rate),
        ));
    }
}

fn seats_table(out: &mut String, run: &Report) {
    let order = if run.rotate {
        "seats rotate between games"
    } else {
        "seat 1 plays first"
    };
    out.push_str(&format!(
        "\n{} ({}; {order})\n",
        run.policy,
        crate::words::plural(run.players, "player")
    ));
    out.push_str(&format!(
        "  {:<6} {:<12} {:>9} {:>15} {:>10} {:>17} {:>8}\n",
        "seat", "policy", "win rate", "95% CI", "advantage", "95% CI", "VP mean"
    ));
    let range = |ci: [f64; 2]| format!("{:.1}-{:.1}%", ci[0] * 100.0, ci[1] * 100.0);
    let signed = |ci: [f64; 2]| format!("{:+.1}..{:+.1}%", ci[0] * 100.0, ci[1] * 100.0);
    for seat in &run.seats {
        out.push_str(&format!(
            "  {:<6} {:<12} {:>9} {:>15} {:>+9.1}% {:>17} {:>8.1}\n",
            seat.seat,
            seat.policy,
            percent(seat.win_rate),
            range(seat.win_rate_ci95),
            seat.advantage * 100.0,
            signed(seat.advantage_ci95),
            seat.vp.mean
        ));
    }
    if !run.positions.is_empty() {
        out.push_str(&format!(
            "  {:<19} {:>9} {:>15} {:>10} {:>17} {:>8}\n",
            "place in turn order", "win rate", "95% CI", "advantage", "95% CI", "VP mean"
        ));
        for p in &run.positions {
            out.push_str(&format!(
                "  {:<19} {:>9} {:>15} {:>+9.1}% {:>17} {:>8.1}\n",
                p.position,
                percent(p.win_rate),
                range(p.win_rate_ci95),
                p.advantage * 100.0,
                signed(p.advantage_ci95),
                p.mean_vp
            ));
        }
    }
}

/// The charts of a run, as files for `<out>/<game>/sim/`: SVG and PNG of the VP histogram,
/// the game-length histogram and mean VP over turns, one colour per policy.
pub fn charts(reports: &[Report]) -> Result<Vec<(String, Vec<u8>)>, String> {
    use crate::charts::{Series, histogram, lines, png};
    let game = reports.first().map_or("", |r| r.game.as_str());
    let series = |pick: fn(&Report) -> &[u32]| -> Vec<Series> {
        reports
            .iter()
            .map(|r| Series {
                name: &r.policy,
                values: pick(r),
            })
            .collect()
    };
    let svgs = [
        (
            "vp-histogram",
            histogram(
                &format!("{game}: final VP"),
                "victory points",
                &series(|r| &r.scores),
                5,
            ),
        ),
        (
            "length-histogram",
            histogram(
                &format!("{game}: turns played"),
                "turns",
                &series(|r| &r.lengths),
                1,
            ),
        ),
        (
            "vp-over-turns",
            lines(
                &format!("{game}: mean VP after each turn"),
                "victory points",
                &reports
                    .iter()
                    .map(|r| (r.policy.as_str(), r.vp_by_turn.as_slice()))
                    .collect::<Vec<_>>(),
            ),
        ),
    ];
    let mut files = Vec::new();
    for (name, svg) in svgs {
        files.push((format!("{name}.png"), png(&svg)?));
        files.push((format!("{name}.svg"), svg.into_bytes()));
    }
    Ok(files)
}
