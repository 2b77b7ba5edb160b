//! Balance: the same seeded simulation of both versions, compared.
//!
//! A test of significance says whether a shift is real; with thousands of games almost every
//! shift is, so it cannot say which matter. Each shift therefore also has an effect size on a
//! common scale (Cohen's d for means, Cohen's h for proportions: 0.2 small, 0.5 medium, 0.8
//! large), which ranks them. Content only one version has takes part as a proportion against
//! nothing: a new box filled in 35% of games is a shift from 0% (h = 1.27). Shifts of the same
//! kind, place and direction are grouped ("14 boxes of the Turn Tracker are filled less
//! often"), since one change to the rules moves many boxes together.
//!
//! Cohen's d measures how much two distributions overlap, not what a player notices: with a
//! wide spread of scores, a fall of 6 VP in 90 is "negligible" on its scale. The whole-game
//! means therefore also say their change in the game's units, with its 95% interval from both
//! versions' games, and a magnitude from the change's share of the old mean ([`MeanChange`]).

use std::collections::BTreeMap;

use serde::Serialize;
use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

use super::shape::{Shape, shape};
use crate::safari_zone::ruleset::Ruleset;
use crate::safari_zone::sim::Report;

/// The significance level, before Bonferroni's correction for the number of boxes, cards or
/// species compared.
pub const ALPHA: f64 = 0.05;

/// How big a shift is, on Cohen's scale.
#[derive(Debug, Clone, Serialize)]
pub struct Effect {
    /// "d" (difference of means over the pooled standard deviation) or "h" (difference of the
    /// arcsine-transformed proportions).
    pub measure: &'static str,
    /// Signed: positive when the new version's value is higher.
    pub value: f64,
    /// negligible (below 0.2), small, medium (0.5 and above) or large (0.8 and above).
    pub size: &'static str,
}

impl Effect {
    fn new(measure: &'static str, value: f64) -> Effect {
        // A difference with no spread at all (every game the same) is as large as it gets.
        let value = if value.is_finite() {
            value
        } else {
            value.signum() * 10.0
        };
        let size = match value.abs() {
            x if x >= 0.8 => "large",
            x if x >= 0.5 => "medium",
            x if x >= 0.2 => "small",
            _ => "negligible",
        };
        Effect {
            measure,
            value,
            size,
        }
    }
}

/// One quantity measured in both simulations.
#[derive(Debug, Clone, Serialize)]
pub struct Shift {
    /// What is measured: the id of a box, card or species, or the name of a whole-game figure.
    pub what: String,
    /// How people read it: "mean VP", "card nidoran-m (Nidoran ♂)".
    pub label: String,
    /// The value in the old version; absent when the thing is new.
    pub old: Option<f64>,
    /// The value in the new version; absent when the thing was removed.
    pub new: Option<f64>,
    /// Two-sided p-value of the difference (none for content only one version has).
    pub p: Option<f64>,
    /// Whether p is below the threshold (Bonferroni-corrected for families of tests). Content
    /// only one version has counts as significant when it was ever filled, caught or collected.
    pub significant: bool,
    pub effect: Effect,
    /// both, added (only in the new version) or removed (only in the old one).
    pub presence: &'static str,
    /// Whether the values are proportions (shown as percentages).
    pub proportion: bool,
    /// For a mean: its change in the game's own units.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change: Option<MeanChange>,
}

/// Shifts of one kind, in one place, in one direction.
#[derive(Debug, Clone, Serialize)]
pub struct Group {
    /// box, card or species
    pub family: &'static str,
    /// For boxes: the id of their section.
    pub scope: String,
    /// The place, as people read it: a section's title, the deck's name, "Species".
    pub title: String,
    /// more, less, added or removed
    pub direction: &'static str,
    /// "14 boxes are filled less often".
    pub words: String,
    /// The ids of its shifts, the largest effect first.
    pub members: Vec<String>,
    /// The largest effect's size (absolute).
    pub largest: f64,
    /// Where its members are in their family's list, in the order of `members`.
    #[serde(skip)]
    at: Vec<usize>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Balance {
    pub policy: String,
    pub games: u64,
    pub players: usize,
    pub seed: u64,
    pub mean_vp: Shift,
    /// Peaks of the final VP that one version has and the other does not (none when too few
    /// games were played to tell).
    pub vp_shape: Option<Shape>,
    pub mean_turns: Shift,
    pub ended_by_balls: Shift,
    /// Boxes whose fill rate changed significantly, and boxes only one version has; the
    /// largest effect first.
    pub boxes: Vec<Shift>,
    /// Cards whose catch rate (per throw) changed significantly, and cards only one version has.
    pub cards: Vec<Shift>,
    /// Species whose share of games collected changed significantly, and species only one
    /// version has.
    pub species: Vec<Shift>,
    /// The shifts of `boxes`, `cards` and `species` grouped, the group with the largest effect
    /// first.
    pub groups: Vec<Group>,
    /// Boxes, cards and species in both versions that did not change significantly.
    pub unchanged: Unchanged,
}

#[derive(Debug, Clone, Serialize)]
pub struct Unchanged {
    pub boxes: usize,
    pub cards: usize,
    pub species: usize,
}

pub(super) fn two_sided_normal(z: f64) -> f64 {
    let normal = Normal::new(0.0, 1.0).expect("the standard normal");
    2.0 * (1.0 - normal.cdf(z.abs()))
}

/// A mean's change, as a share of the old mean, from which it is small (below: too small to
/// notice)...
pub(crate) const SMALL: f64 = 0.01;
/// ...from which a player notices it...
pub(crate) const NOTICEABLE: f64 = 0.05;
/// ...and from which it is large.
pub(crate) const LARGE: f64 = 0.10;

/// A change of a mean in the game's own units: how much, how sure, and how much it matters.
#[derive(Debug, Clone, Serialize)]
pub struct MeanChange {
    /// VP, turns
    pub unit: &'static str,
    /// The new mean less the old one.
    pub difference: f64,
    /// The difference as a share of the old mean (none when the old mean is 0).
    pub relative: Option<f64>,
    /// The standard error of the difference, from both versions' games (Welch).
    pub standard_error: f64,
    /// The 95% confidence interval of the difference.
    pub ci95: [f64; 2],
    /// within the noise (the interval includes 0), or how a player would feel it: too small
    /// to notice (under 1% of the old mean), small, noticeable (5% and more), large (10%)
    pub magnitude: &'static str,
}

/// The mean, variance and count of a sample of integers.
struct Sample {
    n: f64,
    mean: f64,
    variance: f64,
}

impl Sample {
    fn of(x: &[u32]) -> Sample {
        let n = x.len().max(1) as f64;
        let mean = x.iter().map(|v| *v as f64).sum::<f64>() / n;
        let variance =
            x.iter().map(|v| (*v as f64 - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
        Sample { n, mean, variance }
    }

    /// The variance of its mean.
    fn error2(&self) -> f64 {
        self.variance / self.n
    }
}

/// Welch's test of two means: the difference's standard error, p-value and 95% interval.
struct Welch {
    standard_error: f64,
    p: f64,
    ci95: [f64; 2],
}

fn welch(a: &Sample, b: &Sample) -> Welch {
    let difference = b.mean - a.mean;
    let se2 = a.error2() + b.error2();
    if se2 <= 0.0 {
        let p = if difference == 0.0 { 1.0 } else { 0.0 };
        return Welch {
            standard_error: 0.0,
            p,
            ci95: [difference, difference],
        };
    }
    let se = se2.sqrt();
    let df = se2.powi(2)
        / (a.error2().powi(2) / (a.n - 1.0).max(1.0) + b.error2().powi(2) / (b.n - 1.0).max(1.0));
    let t = difference / se;
    let (p, quantile) = match StudentsT::new(0.0, 1.0, df.max(1.0)) {
        Ok(dist) => (2.0 * (1.0 - dist.cdf(t.abs())), dist.inverse_cdf(0.975)),
        Err(_) => (two_sided_normal(t), 1.96),
    };
    Welch {
        standard_error: se,
        p,
        ci95: [difference - quantile * se, difference + quantile * se],
    }
}

/// How a player would feel a change of a mean: by its share of the old mean, or, when the
/// old mean is 0, by Cohen's d; nothing to feel when the interval includes 0.
fn magnitude(significant: bool, relative: Option<f64>, effect: &Effect) -> &'static str {
    if !significant {
        return "within the noise";
    }
    let Some(relative) = relative.map(f64::abs) else {
        return match effect.size {
            "negligible" => "too small to notice",
            "small" => "small",
            "medium" => "noticeable",
            _ => "large",
        };
    };
    match relative {
        r if r >= LARGE => "large",
        r if r >= NOTICEABLE => "noticeable",
        r if r >= SMALL => "small",
        _ => "too small to notice",
    }
}

/// Welch's t-test on two samples of integers measured in `unit`, with Cohen's d and the
/// change in the game's own units.
fn means(what: &str, unit: &'static str, a: &[u32], b: &[u32]) -> Shift {
    let (a, b) = (Sample::of(a), Sample::of(b));
    let test = welch(&a, &b);
    let difference = b.mean - a.mean;
    let pooled = ((a.variance + b.variance) / 2.0).sqrt();
    let d = if difference == 0.0 {
        0.0
    } else {
        difference / pooled
    };
    let effect = Effect::new("d", d);
    let significant = test.p < ALPHA;
    let relative = (a.mean != 0.0).then(|| difference / a.mean);
    let change = MeanChange {
        unit,
        difference,
        relative,
        standard_error: test.standard_error,
        ci95: test.ci95,
        magnitude: magnitude(significant, relative, &effect),
    };
    Shift {
        what: what.to_string(),
        label: what.to_string(),
        old: Some(a.mean),
        new: Some(b.mean),
        p: Some(test.p),
        significant,
        effect,
        presence: "both",
        proportion: false,
        change: Some(change),
    }
}

/// Cohen's h between two proportions.
fn cohens_h(a: f64, b: f64) -> f64 {
    let phi = |p: f64| 2.0 * p.clamp(0.0, 1.0).sqrt().asin();
    phi(b) - phi(a)
}

/// A count of successes out of trials.
#[derive(Debug, Clone, Copy)]
struct Tally {
    successes: f64,
    trials: f64,
}

impl Tally {
    fn share(self) -> f64 {
        self.successes / self.trials.max(1.0)
    }
}

/// A two-proportion z-test with Cohen's h; or, when only one version has the thing, its
/// proportion against nothing.
fn proportions(what: &str, label: String, a: Option<Tally>, b: Option<Tally>, alpha: f64) -> Shift {
    let (old, new) = (a.map(Tally::share), b.map(Tally::share));
    let h = cohens_h(old.unwrap_or(0.0), new.unwrap_or(0.0));
    let (p, significant, presence) = match (a, b) {
        (Some(a), Some(b)) => {
            let pooled = (a.successes + b.successes) / (a.trials + b.trials).max(1.0);
            let se =
                (pooled * (1.0 - pooled) * (1.0 / a.trials.max(1.0) + 1.0 / b.trials.max(1.0)))
                    .sqrt();
            let p = if se == 0.0 {
                if a.share() == b.share() { 1.0 } else { 0.0 }
            } else {
                two_sided_normal((b.share() - a.share()) / se)
            };
            (Some(p), p < alpha, "both")
        }
        (None, Some(b)) => (None, b.successes > 0.0, "added"),
        (Some(a), None) => (None, a.successes > 0.0, "removed"),
        (None, None) => (None, false, "both"),
    };
    Shift {
        what: what.to_string(),
        label,
        old,
        new,
        p,
        significant,
        effect: Effect::new("h", h),
        presence,
        proportion: true,
        change: None,
    }
}

/// One thing a simulation measures as a proportion, keyed by id.
struct Measured {
    label: String,
    tally: Tally,
}

/// Compares two families of measured proportions (boxes, cards or species): the shifts that
/// are significant, and those of things only one version has, the largest first; and how many
/// compared did not change.
fn family(
    old: BTreeMap<String, Measured>,
    mut new: BTreeMap<String, Measured>,
) -> (Vec<Shift>, usize) {
    let shared = old.keys().filter(|id| new.contains_key(*id)).count();
    let alpha = ALPHA / shared.max(1) as f64;
    let mut shifts = Vec::new();
    let mut unchanged = 0;
    for (id, a) in old {
        let b = new.remove(&id);
        let label = b.as_ref().map_or(a.label.clone(), |b| b.label.clone());
        let shift = proportions(&id, label, Some(a.tally), b.map(|b| b.tally), alpha);
        if shift.presence == "both" && !shift.significant {
            unchanged += 1;
        } else {
            shifts.push(shift);
        }
    }
    for (id, b) in new {
        shifts.push(proportions(&id, b.label, None, Some(b.tally), alpha));
    }
    shifts.sort_by(|a, b| {
        b.effect
            .value
            .abs()
            .total_cmp(&a.effect.value.abs())
            .then_with(|| a.what.cmp(&b.what))
    });
    (shifts, unchanged)
}

/// The old version's measures by the ids their things have in the new version. Those it has
/// not keep their own, unless a thing matched now has that id (a box removed where another
/// moved up).
fn as_new(
    old: BTreeMap<String, Measured>,
    ids: &BTreeMap<String, String>,
) -> BTreeMap<String, Measured> {
    let taken: std::collections::BTreeSet<&String> = ids.values().collect();
    let mut out = BTreeMap::new();
    for (id, m) in old {
        let key = match ids.get(&id) {
            Some(now) => now.clone(),
            None if taken.contains(&id) => format!("{id} (removed)"),
            None => id,
        };
        out.insert(key, m);
    }
    out
}

fn player_games(r: &Report) -> f64 {
    (r.games * r.players as u64) as f64
}

fn boxes(r: &Report) -> BTreeMap<String, Measured> {
    let n = player_games(r);
    r.boxes
        .iter()
        .map(|b| {
            let measured = Measured {
                label: b.id.clone(),
                tally: Tally {
                    successes: (b.fill_rate * n).round(),
                    trials: n,
                },
            };
            (b.id.clone(), measured)
        })
        .collect()
}

fn cards(r: &Report, names: &BTreeMap<&str, &str>) -> BTreeMap<String, Measured> {
    r.cards
        .iter()
        .map(|c| {
            let species = names.get(c.species.as_str()).copied().unwrap_or(&c.species);
            let measured = Measured {
                label: format!("card {} ({species})", c.id),
                tally: Tally {
                    successes: c.catches as f64,
                    trials: c.throws as f64,
                },
            };
            (c.id.clone(), measured)
        })
        .collect()
}

fn species(r: &Report, names: &BTreeMap<&str, &str>) -> BTreeMap<String, Measured> {
    let n = player_games(r);
    r.species
        .iter()
        .map(|s| {
            let measured = Measured {
                label: names
                    .get(s.id.as_str())
                    .copied()
                    .unwrap_or(&s.id)
                    .to_string(),
                tally: Tally {
                    successes: (s.collected * n).round(),
                    trials: n,
                },
            };
            (s.id.clone(), measured)
        })
        .collect()
}

/// Where each box sits: its section's id and title, in either version (the new one's first).
fn sections_of_boxes(old: &Ruleset, new: &Ruleset) -> BTreeMap<String, (String, String)> {
    let mut map = BTreeMap::new();
    for r in [old, new] {
        for s in &r.field_guide.sections {
            for b in s.tracks.iter().flat_map(|t| &t.boxes) {
                map.insert(b.id.clone(), (s.id.clone(), s.title.clone()));
            }
        }
    }
    map
}

fn direction(s: &Shift) -> &'static str {
    match s.presence {
        "added" => "added",
        "removed" => "removed",
        _ if s.new >= s.old => "more",
        _ => "less",
    }
}

fn group_words(family: &str, direction: &str, n: usize) -> String {
    let (one, many) = match family {
        "box" => ("box", "boxes"),
        "card" => ("card", "cards"),
        _ => ("species", "species"),
    };
    let things = if n == 1 { one } else { many };
    let verb = if n == 1 { "is" } else { "are" };
    let how = match family {
        "box" => "filled",
        "card" => "caught (per throw)",
        _ => "collected",
    };
    let measured = match family {
        "box" => "share of games filled",
        "card" => "share of throws that catch it",
        _ => "share of games collected",
    };
    match direction {
        "added" => format!("{n} new {things} ({measured})"),
        "removed" => format!("{n} {things} removed ({measured} before)"),
        "more" => format!("{n} {things} {verb} {how} more often"),
        _ => format!("{n} {things} {verb} {how} less often"),
    }
}

/// Groups the shifts of a family by place (for boxes, their section) and direction.
fn group(
    family_name: &'static str,
    shifts: &[Shift],
    place: impl Fn(&Shift) -> (String, String),
    into: &mut Vec<Group>,
) {
    let mut groups: BTreeMap<(String, &'static str), Group> = BTreeMap::new();
    for (at, s) in shifts.iter().enumerate() {
        let (scope, title) = place(s);
        let direction = direction(s);
        let group = groups
            .entry((scope.clone(), direction))
            .or_insert_with(|| Group {
                family: family_name,
                scope,
                title,
                direction,
                words: String::new(),
                members: Vec::new(),
                largest: 0.0,
                at: Vec::new(),
            });
        group.members.push(s.what.clone());
        group.at.push(at);
        group.largest = group.largest.max(s.effect.value.abs());
    }
    for mut g in groups.into_values() {
        g.words = group_words(family_name, g.direction, g.members.len());
        into.push(g);
    }
}

/// The balance of two versions: the same seeded simulation of both, compared; each old box,
/// card and species with the one it is in the new version (`matching`).
pub fn balance(
    old: &Report,
    new: &Report,
    old_rules: &Ruleset,
    new_rules: &Ruleset,
    matching: &super::Matching,
) -> Balance {
    let mut names: BTreeMap<&str, &str> = BTreeMap::new();
    for r in [old_rules, new_rules] {
        for s in &r.species {
            names.insert(&s.id, &s.name);
        }
    }
    let tally = |share: f64, r: &Report| Tally {
        successes: (share * player_games(r)).round(),
        trials: player_games(r),
    };
    let ended_by_balls = proportions(
        "out of Safari Balls",
        "players out of Safari Balls".to_string(),
        Some(tally(old.ended_by_balls, old)),
        Some(tally(new.ended_by_balls, new)),
        ALPHA,
    );
    let (boxes, unchanged_boxes) = family(as_new(boxes(old), &matching.boxes), boxes(new));
    let (cards, unchanged_cards) = family(
        as_new(cards(old, &names), &matching.cards),
        cards(new, &names),
    );
    let (species, unchanged_species) = family(
        as_new(species(old, &names), &matching.species),
        species(new, &names),
    );
    let sections = sections_of_boxes(old_rules, new_rules);
    let deck = new_rules.deck.name.clone();
    let mut groups = Vec::new();
    group(
        "box",
        &boxes,
        |s| sections.get(&s.what).cloned().unwrap_or_default(),
        &mut groups,
    );
    group(
        "card",
        &cards,
        |_| ("deck".to_string(), deck.clone()),
        &mut groups,
    );
    group(
        "species",
        &species,
        |_| ("species".to_string(), "Species".to_string()),
        &mut groups,
    );
    groups.sort_by(|a, b| {
        b.largest
            .total_cmp(&a.largest)
            .then_with(|| a.title.cmp(&b.title))
            .then_with(|| a.direction.cmp(b.direction))
    });
    Balance {
        policy: new.policy.clone(),
        games: new.games,
        players: new.players,
        seed: new.seed,
        mean_vp: means("mean VP", "VP", &old.scores, &new.scores),
        vp_shape: shape(&old.scores, &new.scores),
        mean_turns: means("mean turns played", "turns", &old.lengths, &new.lengths),
        ended_by_balls,
        boxes,
        cards,
        species,
        groups,
        unchanged: Unchanged {
            boxes: unchanged_boxes,
            cards: unchanged_cards,
            species: unchanged_species,
        },
    }
}

impl Balance {
    /// The shifts of a group, the largest effect first.
    pub fn members<'a>(&'a self, group: &'a Group) -> impl Iterator<Item = &'a Shift> + 'a {
        let list = match group.family {
            "box" => &self.boxes,
            "card" => &self.cards,
            _ => &self.species,
        };
        group.at.iter().filter_map(|at| list.get(*at))
    }

    /// The three whole-game figures.
    pub(crate) fn headline(&self) -> [&Shift; 3] {
        [&self.mean_vp, &self.mean_turns, &self.ended_by_balls]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` scores: `mean` plus and minus `spread` in turn.
    fn scores(mean: u32, spread: u32, n: usize) -> Vec<u32> {
        (0..n)
            .map(|i| {
                if i % 2 == 0 {
                    mean + spread
                } else {
                    mean - spread
                }
            })
            .collect()
    }

    #[test]
    fn a_fall_players_notice_is_noticeable_whatever_cohen_says() {
        let shift = means(
            "mean VP",
            "VP",
            &scores(91, 36, 2000),
            &scores(85, 36, 2000),
        );
        let change = shift.change.clone().expect("a mean's change");
        assert_eq!(shift.effect.size, "negligible", "{shift:?}");
        assert_eq!(change.magnitude, "noticeable");
        assert_eq!(change.difference, -6.0);
        assert!(change.ci95[1] < 0.0 && change.ci95[0] > -9.0, "{change:?}");
    }

    #[test]
    fn a_change_the_noise_explains_is_within_it() {
        let shift = means("mean VP", "VP", &scores(91, 36, 100), &scores(89, 36, 100));
        let change = shift.change.clone().expect("a mean's change");
        assert!(change.ci95[0] < 0.0 && change.ci95[1] > 0.0, "{change:?}");
        assert_eq!(change.magnitude, "within the noise");
    }
}
