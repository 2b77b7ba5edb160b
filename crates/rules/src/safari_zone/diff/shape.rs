//! The shape of the final VP: whether a version gains or loses a peak.
//!
//! Both versions' final VP are binned alike (about 40 bins over both ranges) and smoothed, and
//! each one's peaks found as `sim` finds them ([`crate::safari_zone::sim::peaks`]).
//! A version's clear peaks are paired with the other version's hints of peaks (laxer
//! thresholds, so that a peak just under the bar in one version and just over it in the
//! other is no change), the nearest first. A clear peak of the new version left unpaired
//! appears when its stretch of the histogram holds at least [`MODE_MIN_MASS`] of the new
//! games and significantly more of them than of the old (a two-proportion z-test at
//! [`ALPHA`]); a clear peak of the old version left unpaired disappears likewise.

use serde::Serialize;

use super::balance::{ALPHA, two_sided_normal};
use crate::safari_zone::sim::peaks::{Bins, MODE_MIN_MASS, hints, peaks, stretches};

/// Player-games each version needs for its shape to be compared.
pub(crate) const MIN_PLAYER_GAMES: usize = 200;

/// A peak that one version has and the other does not.
#[derive(Debug, Clone, Serialize)]
pub struct PeakChange {
    /// appeared (only the new version has it) or disappeared (only the old one had it)
    pub change: &'static str,
    /// Where it is, in VP (the middle of its highest bin).
    pub at: f64,
    /// The stretch of final VP it holds: from `from` up to (not including) `to`; no bound
    /// where the stretch reaches the end of the histogram.
    pub from: Option<f64>,
    pub to: Option<f64>,
    /// The share of the old and of the new version's games in that stretch.
    pub old_share: f64,
    pub new_share: f64,
    /// Two-sided p-value of the difference of those shares.
    pub p: f64,
    /// "a second peak appears near 149 VP (128 VP or more: 16% of games, was 7%)".
    pub words: String,
}

/// The peaks of both versions' final VP, and those only one of them has.
#[derive(Debug, Clone, Serialize)]
pub struct Shape {
    /// The old version's peaks, in VP, lowest first.
    pub old_peaks: Vec<f64>,
    pub new_peaks: Vec<f64>,
    pub changes: Vec<PeakChange>,
}

/// One version's final VP and its peaks, as bins: the clear ones, each with the bins it
/// holds, and the hints.
struct Version<'a> {
    scores: &'a [u32],
    clear: Vec<usize>,
    stretches: Vec<(usize, usize)>,
    hints: Vec<usize>,
}

impl Version<'_> {
    fn of<'a>(bins: &Bins, scores: &'a [u32]) -> Version<'a> {
        let smooth = bins.smoothed(scores);
        let clear = peaks(&smooth);
        Version {
            scores,
            stretches: stretches(&smooth, &clear),
            hints: hints(&smooth),
            clear,
        }
    }

    /// The places in `clear` of the peaks no hint of `other` pairs with, pairing the nearest
    /// first.
    fn unpaired(&self, other: &Version) -> Vec<usize> {
        let mut pairs: Vec<(usize, usize, usize)> = self
            .clear
            .iter()
            .enumerate()
            .flat_map(|(k, mine)| {
                other
                    .hints
                    .iter()
                    .enumerate()
                    .map(move |(j, theirs)| (mine.abs_diff(*theirs), k, j))
            })
            .collect();
        pairs.sort_unstable();
        let (mut mine_taken, mut theirs_taken) = (Vec::new(), Vec::new());
        for (_, k, j) in pairs {
            if !mine_taken.contains(&k) && !theirs_taken.contains(&j) {
                mine_taken.push(k);
                theirs_taken.push(j);
            }
        }
        (0..self.clear.len())
            .filter(|k| !mine_taken.contains(k))
            .collect()
    }
}

/// The share of `scores` whose bin lies in `from..=to`.
fn share_within(bins: &Bins, scores: &[u32], (from, to): (usize, usize)) -> f64 {
    let within = scores
        .iter()
        .filter(|s| (from..=to).contains(&bins.of(**s)))
        .count();
    within as f64 / scores.len().max(1) as f64
}

/// Two-sided p-value of two shares of `n_a` and `n_b` games.
fn shares_differ(a: f64, n_a: usize, b: f64, n_b: usize) -> f64 {
    let (n_a, n_b) = (n_a.max(1) as f64, n_b.max(1) as f64);
    let pooled = (a * n_a + b * n_b) / (n_a + n_b);
    let se = (pooled * (1.0 - pooled) * (1.0 / n_a + 1.0 / n_b)).sqrt();
    if se == 0.0 {
        return if a == b { 1.0 } else { 0.0 };
    }
    two_sided_normal((b - a) / se)
}

fn ordinal(n: usize) -> String {
    match n {
        2 => "second".to_string(),
        3 => "third".to_string(),
        4 => "fourth".to_string(),
        n => format!("{n}th"),
    }
}

fn percent(share: f64) -> String {
    format!("{:.0}%", share * 100.0)
}

/// "145 VP or more", "below 60 VP", "60 to 145 VP".
fn stretch_words(from: Option<f64>, to: Option<f64>) -> String {
    match (from, to) {
        (Some(from), None) => format!("{from:.0} VP or more"),
        (None, Some(to)) => format!("below {to:.0} VP"),
        (Some(from), Some(to)) => format!("{from:.0} to {to:.0} VP"),
        (None, None) => "every game".to_string(),
    }
}

/// The peaks of `mine` that `theirs` lacks, as changes: `appeared` when `mine` is the new
/// version, `disappeared` when it is the old one.
fn lacking(bins: &Bins, mine: &Version, theirs: &Version, change: &'static str) -> Vec<PeakChange> {
    let last = bins.count() - 1;
    let mut out = Vec::new();
    for k in mine.unpaired(theirs) {
        let stretch = mine.stretches[k];
        let (mass, before) = (
            share_within(bins, mine.scores, stretch),
            share_within(bins, theirs.scores, stretch),
        );
        let p = shares_differ(before, theirs.scores.len(), mass, mine.scores.len());
        if mass < MODE_MIN_MASS || mass <= before || p >= ALPHA {
            continue;
        }
        let (old_share, new_share) = match change {
            "appeared" => (before, mass),
            _ => (mass, before),
        };
        out.push(PeakChange {
            change,
            at: bins.centre(mine.clear[k]),
            from: (stretch.0 > 0).then(|| bins.start(stretch.0)),
            to: (stretch.1 < last).then(|| bins.start(stretch.1 + 1)),
            old_share,
            new_share,
            p,
            words: String::new(),
        });
    }
    out
}

fn words(c: &PeakChange, peaks_after: usize, appeared: usize) -> String {
    let place = stretch_words(c.from, c.to);
    match c.change {
        "appeared" => {
            let which = if appeared == 1 && peaks_after >= 2 {
                format!("a {} peak", ordinal(peaks_after))
            } else {
                "a new peak".to_string()
            };
            format!(
                "{which} appears near {:.0} VP ({place}: {} of games, was {})",
                c.at,
                percent(c.new_share),
                percent(c.old_share)
            )
        }
        _ => format!(
            "the peak near {:.0} VP disappears ({place}: {} of games, was {})",
            c.at,
            percent(c.new_share),
            percent(c.old_share)
        ),
    }
}

/// The peaks of both versions' final VP (one value per player-game) and those only one has;
/// none when a version has fewer than [`MIN_PLAYER_GAMES`].
pub fn shape(old: &[u32], new: &[u32]) -> Option<Shape> {
    if old.len() < MIN_PLAYER_GAMES || new.len() < MIN_PLAYER_GAMES {
        return None;
    }
    let bins = Bins::over(old.iter().chain(new))?;
    let (was, is) = (Version::of(&bins, old), Version::of(&bins, new));
    let appeared = lacking(&bins, &is, &was, "appeared");
    let disappeared = lacking(&bins, &was, &is, "disappeared");
    let count = appeared.len();
    let mut changes: Vec<PeakChange> = appeared.into_iter().chain(disappeared).collect();
    for c in &mut changes {
        c.words = words(c, is.clear.len(), count);
    }
    let centres = |v: &Version| v.clear.iter().map(|b| bins.centre(*b)).collect();
    Some(Shape {
        old_peaks: centres(&was),
        new_peaks: centres(&is),
        changes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::safari_zone::sim::peaks::tests::lump;

    #[test]
    fn a_second_lump_is_a_peak_that_appears_and_back_again_disappears() {
        let old = lump(130, 30, 2000);
        let mut new = lump(140, 30, 1640);
        new.extend(lump(40, 12, 360));
        let s = shape(&old, &new).unwrap();
        assert_eq!((s.old_peaks.len(), s.new_peaks.len()), (1, 2));
        let [c] = s.changes.as_slice() else {
            panic!("{s:?}")
        };
        assert_eq!(c.change, "appeared");
        assert!((c.at - 40.0).abs() < 8.0, "{c:?}");
        assert!(c.words.starts_with("a second peak appears near "), "{c:?}");
        assert!(c.words.ends_with("18% of games, was 0%)"), "{c:?}");
        let back = shape(&new, &old).unwrap();
        assert_eq!(back.changes.len(), 1);
        assert_eq!(back.changes[0].change, "disappeared");
        assert!(back.changes[0].words.starts_with("the peak near "));
    }

    #[test]
    fn the_same_shape_moved_a_little_changes_no_peak() {
        let old = lump(130, 30, 2000);
        let new = lump(124, 30, 2000);
        assert!(shape(&old, &new).unwrap().changes.is_empty());
        let mut twin = lump(60, 10, 600);
        twin.extend(lump(160, 10, 1400));
        let mut moved = lump(64, 10, 600);
        moved.extend(lump(156, 10, 1400));
        let s = shape(&twin, &moved).unwrap();
        assert_eq!((s.old_peaks.len(), s.new_peaks.len()), (2, 2));
        assert!(s.changes.is_empty(), "{s:?}");
    }

    #[test]
    fn too_few_games_are_not_compared() {
        assert!(shape(&lump(100, 10, 150), &lump(50, 10, 150)).is_none());
    }
}
