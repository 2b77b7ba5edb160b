//! What changed between two versions of a game: content (by stable id, in words), reachability
//! (the checker's verdicts), and balance (the same seeded simulation of both, with effect sizes
//! and significance).
//!
//! A diff is for a designer deciding what to do next, so it is built to be read from the top:
//! [`summary`] picks the first screen (the causes, content changes, then what they did to
//! reachability and balance, the largest effects first), [`text`] prints it or everything,
//! and [`page`] writes both as one HTML page. The JSON of [`Diff`] is the complete diff.
//!
//! - `identity`: which entry of one version is which of the other (by written id, a box by
//!   what it is along its track, renames); `content`: the comparison, entry with entry;
//!   `files`: the game's other files; `words`: each change in the designer's terms;
//!   `matters`: what it means to a player, which orders the changes.
//! - `balance`: the statistics (tests, effect sizes, means in the game's units, groups);
//!   `shape`: the peaks of the final VP one version has and the other lacks.

mod balance;
mod content;
mod files;
mod identity;
pub mod matters;
pub mod page;
mod shape;
pub mod summary;
pub mod text;
pub mod words;

use std::collections::BTreeSet;

use serde::Serialize;

pub use balance::{ALPHA, Balance, Effect, Group, MeanChange, Shift, Unchanged, balance};
pub use content::{Change, FieldChange, content};
pub use files::{GameFile, files_of};
pub use identity::Matching;
pub use matters::Matters;
pub use shape::{PeakChange, Shape};

use crate::diag::Diagnostic;
use crate::safari_zone::ruleset::Ruleset;

/// One version of a game, checked.
pub struct Version<'a> {
    pub label: String,
    pub ruleset: &'a Ruleset,
    pub diagnostics: &'a [Diagnostic],
    /// Ids of the boxes the checker calls unreachable.
    pub unreachable: BTreeSet<String>,
    /// The files the game uses ([`files_of`]).
    pub files: Vec<GameFile>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Verdicts {
    /// Boxes of both versions that the new version's checker calls unreachable and the old
    /// one's did not.
    pub became_unreachable: Vec<String>,
    pub became_reachable: Vec<String>,
    /// Boxes only the new version has that its checker calls unreachable.
    pub new_unreachable: Vec<String>,
    /// Diagnostics of the new version that the old one did not have (code: message).
    pub new_diagnostics: Vec<String>,
    /// Diagnostics of the old version that the new one no longer has.
    pub resolved_diagnostics: Vec<String>,
}

impl Verdicts {
    pub fn is_empty(&self) -> bool {
        self.became_unreachable.is_empty()
            && self.became_reachable.is_empty()
            && self.new_unreachable.is_empty()
            && self.new_diagnostics.is_empty()
            && self.resolved_diagnostics.is_empty()
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Diff {
    pub old: String,
    pub new: String,
    pub content: Vec<Change>,
    pub reachability: Verdicts,
    pub balance: Option<Balance>,
}

fn box_ids(r: &Ruleset) -> BTreeSet<&str> {
    r.field_guide
        .sections
        .iter()
        .flat_map(|s| &s.tracks)
        .flat_map(|t| &t.boxes)
        .map(|b| b.id.as_str())
        .collect()
}

/// The checker's verdicts compared, each old box as the box it is in the new version.
pub fn verdicts(old: &Version, new: &Version, matching: &Matching) -> Verdicts {
    let now = |id: &str| matching.boxes.get(id).cloned();
    let all_old: BTreeSet<String> = box_ids(old.ruleset).into_iter().filter_map(now).collect();
    let all_new = box_ids(new.ruleset);
    let old_unreachable: BTreeSet<String> =
        old.unreachable.iter().filter_map(|id| now(id)).collect();
    let in_both = |id: &&String| all_old.contains(id.as_str()) && all_new.contains(id.as_str());
    let said = |d: &[Diagnostic]| {
        d.iter()
            .map(|d| format!("{}: {}", d.code, d.message))
            .collect::<BTreeSet<_>>()
    };
    let (was, is) = (said(old.diagnostics), said(new.diagnostics));
    Verdicts {
        became_unreachable: new
            .unreachable
            .difference(&old_unreachable)
            .filter(in_both)
            .cloned()
            .collect(),
        became_reachable: old_unreachable
            .difference(&new.unreachable)
            .filter(in_both)
            .cloned()
            .collect(),
        new_unreachable: new
            .unreachable
            .iter()
            .filter(|id| !all_old.contains(id.as_str()))
            .cloned()
            .collect(),
        new_diagnostics: is.difference(&was).cloned().collect(),
        resolved_diagnostics: was.difference(&is).cloned().collect(),
    }
}
