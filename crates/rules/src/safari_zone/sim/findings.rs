//! Findings: what a set of runs says about the game, in sentences a designer reads first,
//! each with the numbers behind it. The thresholds are constants here and documented in
//! docs/simulation.md; a finding is only made when its numbers carry it.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

use super::peaks::{Bins, MODE_MIN_MASS, peaks, valley};
use super::report::{PolicyStat, Report, Sample};

/// A best rate below this share of games is "rarely".
pub(crate) const RARELY: f64 = 0.05;
/// Features filled in fewer (or more) games than this share are left out of the drivers:
/// their lift rests on too few games.
pub(crate) const DRIVER_MIN_RATE: f64 = 0.05;
/// A feature separates two peaks when its rate differs by at least this much between them.
pub(crate) const SEPARATOR_MIN_GAP: f64 = 0.25;
/// Runs smaller than this many player-games make no findings about shapes and drivers.
pub(crate) const MIN_PLAYER_GAMES: usize = 200;
/// A feature that agrees with one already named in this share of games or more says
/// nothing new (the next box of the same track, the item that box gives).
pub(crate) const SAME_STORY: f64 = 0.9;
/// Names listed in one finding; the rest are counted.
const LISTED: usize = 8;

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Finding {
    /// What kind of finding: `game-end`, `turns`, `never-filled`, `rarely-filled`,
    /// `vp-modes`, `mixed-modes`, `vp-drivers`, `skill-ladder`, `depends-on-policy`,
    /// `seat-advantage`, `mixed-table`, `target`.
    pub code: String,
    /// The run it is about, when it is about one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<String>,
    pub text: String,
    pub numbers: BTreeMap<String, f64>,
    /// The boxes, items, species, cards or policies it names, as ids.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subjects: Vec<String>,
}

impl Finding {
    fn new(code: &str, run: Option<&Report>, text: String) -> Finding {
        Finding {
            code: code.to_string(),
            run: run.map(|r| r.policy.clone()),
            text,
            numbers: BTreeMap::new(),
            subjects: Vec::new(),
        }
    }

    fn number(mut self, name: &str, value: f64) -> Finding {
        self.numbers.insert(name.to_string(), value);
        self
    }

    fn subjects(mut self, subjects: Vec<String>) -> Finding {
        self.subjects = subjects;
        self
    }
}

fn percent(share: f64) -> String {
    let p = share * 100.0;
    if p > 0.0 && p < 1.0 {
        format!("{p:.1}%")
    } else {
        format!("{p:.0}%")
    }
}

/// Names, the first few listed and the rest counted.
fn listing(names: &[String]) -> String {
    let shown = names
        .iter()
        .take(LISTED)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    match names.len().saturating_sub(LISTED) {
        0 => shown,
        more => format!("{shown} and {more} more"),
    }
}

/// Every finding the runs support, the most general first.
pub fn findings(runs: &[Report]) -> Vec<Finding> {
    let mut found = Vec::new();
    let Some(best) = runs.iter().max_by(|a, b| a.vp.mean.total_cmp(&b.vp.mean)) else {
        return found;
    };
    found.extend(skill_ladder(runs));
    for run in runs {
        found.push(game_end(run));
    }
    found.extend(depends_on_the_policy(runs, best));
    found.push(turns(best));
    found.extend(never_and_rarely(runs));
    if best.policies.is_empty() {
        found.extend(vp_modes(best));
        found.extend(vp_drivers(best));
    } else {
        // A table of mixed policies: its peaks may be its players' skill, so the content is
        // weighed only among the games of one policy (like with like).
        let views: Vec<Report> = best
            .policies
            .iter()
            .map(|p| of_policy(best, &p.policy))
            .collect();
        found.extend(mixed_modes(best, &views));
        for view in &views {
            found.extend(vp_modes(view).map(|f| as_of_table(f, best)));
        }
        let strongest = views
            .iter()
            .filter(|v| !v.samples.is_empty())
            .max_by(|a, b| mean_vp(&a.samples).total_cmp(&mean_vp(&b.samples)));
        found.extend(strongest.and_then(vp_drivers).map(|f| as_of_table(f, best)));
    }
    // Turn order at tables of one policy: the strongest's; at mixed tables, each.
    let strongest_table = runs
        .iter()
        .filter(|r| r.players > 1 && r.policies.is_empty() && r.target.is_none())
        .max_by(|a, b| a.vp.mean.total_cmp(&b.vp.mean));
    found.extend(strongest_table.and_then(seat_advantage));
    for run in runs.iter().filter(|r| !r.policies.is_empty()) {
        found.extend(seat_advantage(run));
        found.extend(mixed_table(run));
    }
    for run in runs {
        found.extend(target(run));
    }
    found
}

fn game_end(run: &Report) -> Finding {
    let turns = run.vp_by_turn.len();
    let text = match run.balls_out_turn {
        Some(at) if run.ended_by_balls >= 0.5 => format!(
            "{}: {} of games end out of Safari Balls, after {at:.1} turns on average (of {turns}); {} play every turn.",
            run.policy,
            percent(run.ended_by_balls),
            percent(run.ended_by_turns)
        ),
        Some(at) => format!(
            "{}: {} of games play all {turns} turns; {} end out of Safari Balls first, after {at:.1} turns on average.",
            run.policy,
            percent(run.ended_by_turns),
            percent(run.ended_by_balls)
        ),
        None => format!(
            "{}: every game plays all {turns} turns; none runs out of Safari Balls.",
            run.policy
        ),
    };
    let mut finding = Finding::new("game-end", Some(run), text)
        .number("ended_by_balls", run.ended_by_balls)
        .number("ended_by_turns", run.ended_by_turns)
        .number("turns", turns as f64)
        .number("mean_turns_played", run.length.mean);
    if let Some(at) = run.balls_out_turn {
        finding = finding.number("balls_out_turn", at);
    }
    finding
}

/// How games end, when the policies played disagree on it by more than a fifth of games: a
/// designer must not change the Safari Balls or the turns because of how a weak player plays.
/// Tables of one policy each, with the same number of players, are compared.
fn depends_on_the_policy(runs: &[Report], best: &Report) -> Option<Finding> {
    let tables: Vec<&Report> = runs
        .iter()
        .filter(|r| r.policies.is_empty() && r.target.is_none() && r.players == best.players)
        .collect();
    let lowest = tables
        .iter()
        .min_by(|a, b| a.ended_by_balls.total_cmp(&b.ended_by_balls))?;
    let highest = tables
        .iter()
        .max_by(|a, b| a.ended_by_balls.total_cmp(&b.ended_by_balls))?;
    if highest.ended_by_balls - lowest.ended_by_balls <= 0.2 {
        return None;
    }
    let each: Vec<String> = tables
        .iter()
        .map(|r| format!("{} with {}", percent(r.ended_by_balls), r.policy))
        .collect();
    let text = format!(
        "How games end depends on the policy: the share of games that end out of Safari Balls is {}. Judge the balls and the turns by the strongest policy ({}), not by the others' throwing.",
        each.join(", "),
        best.policy
    );
    let mut finding = Finding::new("depends-on-policy", Some(best), text);
    for run in &tables {
        finding = finding.number(
            &format!("{}: ended_by_balls", run.policy),
            run.ended_by_balls,
        );
    }
    Some(finding.subjects(tables.iter().map(|r| r.policy.clone()).collect()))
}

fn turns(run: &Report) -> Finding {
    Finding::new(
        "turns",
        Some(run),
        format!(
            "{}: {} of turns end on hazards, and {} fill nothing but the Turn Tracker (no face, item or card was of use).",
            run.policy,
            percent(run.bust_rate),
            percent(run.idle_rate)
        ),
    )
    .number("bust_rate", run.bust_rate)
    .number("idle_rate", run.idle_rate)
}

/// The highest rate any run reaches for each entry, and the run reaching it.
/// Each entry's id and rate in a run.
type Rates = Box<dyn Fn(&Report) -> Vec<(String, f64)>>;

fn best_rates(
    runs: &[Report],
    rates: impl Fn(&Report) -> Vec<(String, f64)>,
) -> Vec<(String, f64, &str)> {
    let mut best: Vec<(String, f64, &str)> = Vec::new();
    for run in runs {
        for (i, (id, rate)) in rates(run).into_iter().enumerate() {
            match best.get_mut(i) {
                Some(slot) if rate > slot.1 => *slot = (id, rate, run.policy.as_str()),
                Some(_) => {}
                None => best.push((id, rate, run.policy.as_str())),
            }
        }
    }
    best
}

fn never_and_rarely(runs: &[Report]) -> Vec<Finding> {
    let kinds: [(&str, &str, Rates); 4] = [
        (
            "boxes",
            "filled",
            Box::new(|r: &Report| {
                r.boxes
                    .iter()
                    .map(|b| (b.id.clone(), b.fill_rate))
                    .collect()
            }),
        ),
        (
            "items",
            "obtained",
            Box::new(|r: &Report| r.items.iter().map(|i| (i.id.clone(), i.obtained)).collect()),
        ),
        (
            "species",
            "collected",
            Box::new(|r: &Report| {
                r.species
                    .iter()
                    .map(|s| (s.id.clone(), s.collected))
                    .collect()
            }),
        ),
        (
            "cards",
            "caught",
            Box::new(|r: &Report| {
                let games = r.games.max(1) as f64;
                r.cards
                    .iter()
                    .map(|c| (c.id.clone(), c.catches as f64 / games))
                    .collect()
            }),
        ),
    ];
    let policies = if runs.len() == 1 {
        format!("by {}", runs[0].policy)
    } else {
        "by any policy".to_string()
    };
    let mut found = Vec::new();
    for (kind, verb, rates) in kinds {
        let one = match kind {
            "boxes" => "box",
            "items" => "item",
            "cards" => "card",
            other => other,
        };
        let count = |n: usize| crate::words::plural_of(n, one, kind);
        let best = best_rates(runs, rates);
        let never: Vec<String> = best
            .iter()
            .filter(|(_, rate, _)| *rate == 0.0)
            .map(|(id, _, _)| id.clone())
            .collect();
        if !never.is_empty() {
            found.push(
                Finding::new(
                    "never-filled",
                    None,
                    format!(
                        "{} never {verb} {policies}: {}.",
                        count(never.len()),
                        listing(&never)
                    ),
                )
                .number("count", never.len() as f64)
                .subjects(never),
            );
        }
        let mut rare: Vec<&(String, f64, &str)> = best
            .iter()
            .filter(|(_, rate, _)| *rate > 0.0 && *rate < RARELY)
            .collect();
        rare.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        if !rare.is_empty() {
            let named: Vec<String> = rare
                .iter()
                .map(|(id, rate, by)| {
                    if runs.len() == 1 {
                        format!("{id} ({})", percent(*rate))
                    } else {
                        format!("{id} ({}, {by})", percent(*rate))
                    }
                })
                .collect();
            let per = if kind == "cards" {
                " per game"
            } else {
                " of games"
            };
            let mut finding = Finding::new(
                "rarely-filled",
                None,
                format!(
                    "{} {verb} in under {}{per} even at best: {}.",
                    count(rare.len()),
                    percent(RARELY),
                    listing(&named)
                ),
            )
            .number("count", rare.len() as f64)
            .subjects(rare.iter().map(|(id, _, _)| id.clone()).collect());
            for (id, rate, _) in rare.iter().take(LISTED) {
                finding = finding.number(id, *rate);
            }
            found.push(finding);
        }
    }
    found
}

/// The name of a sample bit: a box, an item or a species.
fn feature(run: &Report, bit: usize) -> String {
    let (boxes, items) = (run.boxes.len(), run.items.len());
    if bit < boxes {
        run.boxes[bit].id.clone()
    } else if bit < boxes + items {
        format!("item {}", run.items[bit - boxes].id)
    } else {
        format!("species {}", run.species[bit - boxes - items].id)
    }
}

/// The sample bits the findings weigh: every box but the Turn Tracker's and the Safari Balls'
/// (they say how long a game lasted, which `game-end` tells), every item and species.
fn features(run: &Report) -> impl Iterator<Item = usize> + '_ {
    (0..run.boxes.len() + run.items.len() + run.species.len())
        .filter(|bit| !run.counters.get(*bit).copied().unwrap_or(false))
}

/// The first `k` of the ranked features, each telling something the ones before it do not:
/// a feature that agrees with an earlier one in most games is passed over.
fn distinct<T: Copy>(samples: &[Sample], ranked: &[(usize, T)], k: usize) -> Vec<(usize, T)> {
    let mut chosen: Vec<(usize, T)> = Vec::new();
    for &(bit, value) in ranked {
        if chosen.len() == k {
            break;
        }
        let repeats = chosen.iter().any(|(other, _)| {
            let agree = samples
                .iter()
                .filter(|s| s.has(bit) == s.has(*other))
                .count();
            agree as f64 >= SAME_STORY * samples.len() as f64
        });
        if !repeats {
            chosen.push((bit, value));
        }
    }
    chosen
}

/// The peaks of a VP distribution, smoothed, and where it splits between the two highest:
/// `(lower peak, upper peak, split)` in VP.
fn two_peaks(scores: &[u32]) -> Option<(f64, f64, f64)> {
    let bins = Bins::over(scores.iter())?;
    let smooth = bins.smoothed(scores);
    let mut by_height = peaks(&smooth);
    if by_height.len() < 2 {
        return None;
    }
    by_height.sort_by(|a, b| smooth[*b].total_cmp(&smooth[*a]));
    let (a, b) = (
        by_height[0].min(by_height[1]),
        by_height[0].max(by_height[1]),
    );
    let split = bins.start(valley(&smooth, a, b) + 1);
    let below = scores.iter().filter(|s| (**s as f64) < split).count() as f64;
    let share = below / scores.len() as f64;
    (MODE_MIN_MASS..=1.0 - MODE_MIN_MASS)
        .contains(&share)
        .then_some((bins.centre(a), bins.centre(b), split))
}

fn vp_modes(run: &Report) -> Option<Finding> {
    if run.scores.len() < MIN_PLAYER_GAMES {
        return None;
    }
    let (low, high, split) = two_peaks(&run.scores)?;
    let (upper, lower): (Vec<&Sample>, Vec<&Sample>) =
        run.samples.iter().partition(|s| s.vp as f64 >= split);
    if upper.is_empty() || lower.is_empty() {
        return None;
    }
    let rate = |group: &[&Sample], bit: usize| {
        group.iter().filter(|s| s.has(bit)).count() as f64 / group.len() as f64
    };
    let mut ranked: Vec<(usize, (f64, f64))> = features(run)
        .map(|bit| (bit, (rate(&upper, bit), rate(&lower, bit))))
        .filter(|(_, (u, l))| (u - l).abs() >= SEPARATOR_MIN_GAP)
        .collect();
    let gap = |(u, l): (f64, f64)| (u - l).abs();
    ranked.sort_by(|a, b| gap(b.1).total_cmp(&gap(a.1)).then(a.0.cmp(&b.0)));
    let gaps: Vec<(usize, f64, f64)> = distinct(&run.samples, &ranked, 3)
        .into_iter()
        .map(|(bit, (u, l))| (bit, u, l))
        .collect();
    let upper_share = upper.len() as f64 / run.samples.len() as f64;
    let mean_turns =
        |group: &[&Sample]| group.iter().map(|s| s.turns as f64).sum::<f64>() / group.len() as f64;
    let (upper_turns, lower_turns) = (mean_turns(&upper), mean_turns(&lower));
    let mut text = format!(
        "{}: final VP has two peaks, near {low:.0} and {high:.0} VP; {} of games end at {split:.0} VP or more. The upper games last {upper_turns:.1} turns on average, the lower {lower_turns:.1}.",
        run.policy,
        percent(upper_share)
    );
    if !gaps.is_empty() {
        let reasons: Vec<String> = gaps
            .iter()
            .map(|(bit, u, l)| {
                let verb = if *bit < run.boxes.len() {
                    "filled"
                } else {
                    "held"
                };
                format!(
                    "{} {verb} in {} of the upper games and {} of the lower",
                    feature(run, *bit),
                    percent(*u),
                    percent(*l)
                )
            })
            .collect();
        text.push_str(&format!(" What separates them: {}.", reasons.join("; ")));
    }
    let mut finding = Finding::new("vp-modes", Some(run), text)
        .number("lower_peak", low)
        .number("upper_peak", high)
        .number("split", split)
        .number("upper_share", upper_share)
        .number("upper_turns", upper_turns)
        .number("lower_turns", lower_turns)
        .subjects(gaps.iter().map(|(bit, _, _)| feature(run, *bit)).collect());
    for (bit, u, l) in &gaps {
        let name = feature(run, *bit);
        finding = finding
            .number(&format!("{name}: upper"), *u)
            .number(&format!("{name}: lower"), *l);
    }
    Some(finding)
}

/// Mean final VP of some player-games.
fn mean_vp(samples: &[Sample]) -> f64 {
    samples.iter().map(|s| s.vp as f64).sum::<f64>() / samples.len().max(1) as f64
}

/// The games of one policy at a mixed table, as a run of their own: its sampled player-games,
/// named for the sentences that read them ("random,greedy (greedy's games)").
fn of_policy(run: &Report, policy: &str) -> Report {
    let held: Vec<u32> = run
        .seats
        .iter()
        .filter(|s| s.policy == policy)
        .map(|s| s.seat as u32 - 1)
        .collect();
    let samples: Vec<Sample> = run
        .samples
        .iter()
        .filter(|s| held.contains(&s.seat))
        .cloned()
        .collect();
    Report {
        policy: format!("{} ({policy}'s games)", run.policy),
        scores: samples.iter().map(|s| s.vp).collect(),
        samples,
        policies: Vec::new(),
        ..run.clone()
    }
}

/// A finding made from one policy's games ([`of_policy`]), as one about its table.
fn as_of_table(mut finding: Finding, run: &Report) -> Finding {
    finding.run = Some(run.policy.clone());
    finding
}

/// The peaks of a mixed table's final VP, said as what they are: where each policy's games
/// fall. Boxes are not weighed across them, since a skill gap between seats is no fault of
/// the content. `views` are the games of each of `run`'s policies, in its order
/// ([`of_policy`]).
fn mixed_modes(run: &Report, views: &[Report]) -> Option<Finding> {
    if run.scores.len() < MIN_PLAYER_GAMES || run.policies.is_empty() {
        return None;
    }
    let (low, high, split) = two_peaks(&run.scores)?;
    let mut shares: Vec<(String, f64)> = run
        .policies
        .iter()
        .zip(views)
        .map(|(p, view)| {
            let games = &view.samples;
            let upper = games.iter().filter(|s| s.vp as f64 >= split).count();
            (p.policy.clone(), upper as f64 / games.len().max(1) as f64)
        })
        .collect();
    shares.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let parts: Vec<String> = shares
        .iter()
        .enumerate()
        .map(|(i, (policy, share))| {
            if i == 0 {
                format!(
                    "{policy} has {} of its games at {split:.0} VP or more",
                    percent(*share)
                )
            } else {
                format!("{policy} {}", percent(*share))
            }
        })
        .collect();
    let mut means: Vec<&PolicyStat> = run.policies.iter().collect();
    means.sort_by(|a, b| {
        b.vp.mean
            .total_cmp(&a.vp.mean)
            .then(a.policy.cmp(&b.policy))
    });
    let means: Vec<String> = means
        .iter()
        .map(|p| format!("{} {:.1}", p.policy, p.vp.mean))
        .collect();
    let mut text = format!(
        "{}: final VP has two peaks, near {low:.0} and {high:.0} VP, at a table of different policies (mean VP: {}): {}.",
        run.policy,
        means.join(", "),
        parts.join(", ")
    );
    let spread = shares.first().map_or(0.0, |s| s.1) - shares.last().map_or(0.0, |s| s.1);
    if spread >= SEPARATOR_MIN_GAP {
        text.push_str(" The peaks part the policies: a gap in skill between seats, which is not the content's doing.");
    }
    text.push_str(" Boxes are compared only among the games of one policy.");
    let mut finding = Finding::new("mixed-modes", Some(run), text)
        .number("lower_peak", low)
        .number("upper_peak", high)
        .number("split", split)
        .subjects(shares.iter().map(|(p, _)| p.clone()).collect());
    for (policy, share) in &shares {
        finding = finding.number(&format!("{policy}: upper_share"), *share);
    }
    Some(finding)
}

fn vp_drivers(run: &Report) -> Option<Finding> {
    if run.samples.len() < MIN_PLAYER_GAMES {
        return None;
    }
    let n = run.samples.len() as f64;
    let mut ranked: Vec<(usize, (f64, f64))> = features(run)
        .filter_map(|bit| {
            let (mut with, mut with_vp, mut without_vp) = (0.0, 0.0, 0.0);
            for s in &run.samples {
                if s.has(bit) {
                    with += 1.0;
                    with_vp += s.vp as f64;
                } else {
                    without_vp += s.vp as f64;
                }
            }
            let share = with / n;
            (DRIVER_MIN_RATE..=1.0 - DRIVER_MIN_RATE)
                .contains(&share)
                .then(|| (bit, (with_vp / with - without_vp / (n - with), share)))
        })
        .collect();
    ranked.retain(|(_, (lift, _))| *lift > 0.0);
    ranked.sort_by(|a, b| b.1.0.total_cmp(&a.1.0).then(a.0.cmp(&b.0)));
    let lifts: Vec<(usize, f64, f64)> = distinct(&run.samples, &ranked, 3)
        .into_iter()
        .map(|(bit, (lift, share))| (bit, lift, share))
        .collect();
    if lifts.is_empty() {
        return None;
    }
    let parts: Vec<String> = lifts
        .iter()
        .map(|(bit, lift, share)| {
            format!(
                "{} ({:+.0} VP when it happens, in {} of games)",
                feature(run, *bit),
                lift,
                percent(*share)
            )
        })
        .collect();
    let mut finding = Finding::new(
        "vp-drivers",
        Some(run),
        format!(
            "{}: what goes with the most VP: {}.",
            run.policy,
            parts.join(", ")
        ),
    )
    .subjects(lifts.iter().map(|(bit, _, _)| feature(run, *bit)).collect());
    for (bit, lift, _) in &lifts {
        finding = finding.number(&format!("{}: lift", feature(run, *bit)), *lift);
    }
    Some(finding)
}

/// Half the width of the 95% interval of a mean, from its distribution.
fn half_interval(run: &Report) -> f64 {
    (run.vp.ci95[1] - run.vp.ci95[0]) / 2.0
}

fn skill_ladder(runs: &[Report]) -> Option<Finding> {
    let mut rungs: Vec<&Report> = runs
        .iter()
        .filter(|r| r.policies.is_empty() && r.target.is_none())
        .collect();
    if rungs.len() < 2 {
        return None;
    }
    rungs.sort_by(|a, b| a.vp.mean.total_cmp(&b.vp.mean));
    let mut steps = vec![format!("{} {:.1}", rungs[0].policy, rungs[0].vp.mean)];
    let mut finding = Finding::new("skill-ladder", None, String::new());
    for pair in rungs.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let gap = b.vp.mean - a.vp.mean;
        let half = (half_interval(a).powi(2) + half_interval(b).powi(2)).sqrt();
        let verdict = if gap > half { "" } else { ", not significant" };
        steps.push(format!(
            "{} {:.1} ({gap:+.1} ± {half:.1}{verdict})",
            b.policy, b.vp.mean
        ));
        finding = finding
            .number(&format!("{}: mean VP", b.policy), b.vp.mean)
            .number(&format!("{} over {}", b.policy, a.policy), gap)
            .number(
                &format!("{} over {}: ci95 half-width", b.policy, a.policy),
                half,
            );
    }
    let (weakest, strongest) = (rungs[0], rungs[rungs.len() - 1]);
    finding.text = format!(
        "Skill ladder (mean VP, 95% intervals): {}. The strongest policy scores {:.0}% more than the weakest.",
        steps.join(" → "),
        (strongest.vp.mean / weakest.vp.mean.max(1e-9) - 1.0) * 100.0
    );
    finding = finding.number(&format!("{}: mean VP", weakest.policy), weakest.vp.mean);
    Some(finding.subjects(rungs.iter().map(|r| r.policy.clone()).collect()))
}

fn seat_advantage(run: &Report) -> Option<Finding> {
    if run.players < 2 {
        return None;
    }
    // Place in turn order, when skill is not mixed into it: rotating seats, or one policy.
    let (rate, ci, advantage) = if let Some(first) = run.positions.first() {
        (first.win_rate, first.win_rate_ci95, first.advantage)
    } else if run.policies.is_empty() {
        let first = run.seats.first()?;
        (first.win_rate, first.win_rate_ci95, first.advantage)
    } else {
        return Some(Finding::new(
            "seat-advantage",
            Some(run),
            format!(
                "{}: seats do not rotate, so each seat's win rate mixes its policy's skill with its place in turn order; rerun with --rotate to tell them apart.",
                run.policy
            ),
        ));
    };
    let fair = 1.0 / run.players as f64;
    let verdict = if ci[0] > fair {
        "an advantage"
    } else if ci[1] < fair {
        "a disadvantage"
    } else {
        "no significant advantage"
    };
    Some(
        Finding::new(
            "seat-advantage",
            Some(run),
            format!(
                "{}: the first player wins {} of {}-player games (95% interval {}-{}; a fair share is {}): {verdict}.",
                run.policy,
                percent(rate),
                run.players,
                percent(ci[0]),
                percent(ci[1]),
                percent(fair)
            ),
        )
        .number("first_player_win_rate", rate)
        .number("ci95_low", ci[0])
        .number("ci95_high", ci[1])
        .number("fair_share", fair)
        .number("advantage", advantage),
    )
}

fn mixed_table(run: &Report) -> Option<Finding> {
    if run.policies.is_empty() {
        return None;
    }
    let mut policies: Vec<_> = run.policies.iter().collect();
    policies.sort_by(|a, b| b.win_rate.total_cmp(&a.win_rate));
    let parts: Vec<String> = policies
        .iter()
        .map(|p| {
            format!(
                "{} wins {} (mean {:.1} VP)",
                p.policy,
                percent(p.win_rate),
                p.vp.mean
            )
        })
        .collect();
    let mut finding = Finding::new(
        "mixed-table",
        Some(run),
        format!(
            "At a table of {} (win rates per seat held): {}.",
            run.policy,
            parts.join(", ")
        ),
    )
    .subjects(policies.iter().map(|p| p.policy.clone()).collect());
    for p in &policies {
        finding = finding.number(&format!("{}: win rate", p.policy), p.win_rate);
    }
    Some(finding)
}

fn target(run: &Report) -> Option<Finding> {
    let t = run.target.as_ref()?;
    let text = match (t.earliest, t.median, t.p90) {
        (Some(earliest), Some(median), Some(p90)) => format!(
            "Playing for {} above all, it is filled on turn {earliest} at the earliest, by turn {median:.0} in half the games and turn {p90:.0} in 90% of those that fill it; {} of games never fill it.",
            t.r#box,
            percent(t.never)
        ),
        _ => format!("Playing for {} above all, no game fills it.", t.r#box),
    };
    let mut finding = Finding::new("target", Some(run), text)
        .number("filled", t.filled)
        .number("never", t.never)
        .subjects(vec![t.r#box.clone()]);
    if let (Some(earliest), Some(median), Some(p90)) = (t.earliest, t.median, t.p90) {
        finding = finding
            .number("earliest", earliest as f64)
            .number("median", median)
            .number("p90", p90);
    }
    Some(finding)
}
