//! The first screen of a diff: what a designer reads before deciding what to do next.
//!
//! It is ordered by cause: the content changes first (the causes, a track's added or removed
//! boxes folded into the track's line), then what they did to reachability, then to balance,
//! where the whole-game figures come first and then the groups of shifts with the largest
//! effects, each with its largest few members. It is cut to a number of lines (60 by default,
//! counted as [`super::text`] prints them) so it fits a terminal; what it leaves out is
//! counted, and `--full` shows it. The HTML page shows the same selection above its tables.

use std::collections::BTreeMap;

use super::matters::{self, Matters};
use super::{Balance, Change, Diff, Group, Shift, Verdicts};

/// The lines of the first screen, unless asked otherwise.
pub const FIRST_SCREEN_LINES: usize = 60;
/// Content lines shown at most (the rest are counted).
const CONTENT_LINES: usize = 12;
/// Reachability lines shown at most.
const REACHABILITY_LINES: usize = 8;
/// Members of a group shown at most.
pub(crate) const GROUP_MEMBERS: usize = 3;
/// Ids named in one line at most (as ranges where they are numbered alike).
const IDS_IN_A_LINE: usize = 6;

/// Lines each part of the text takes besides its items (see [`super::text::summary`]).
const HEADER_LINES: usize = 3; // title, run, blank
const CONTENT_FRAME: usize = 2; // heading, blank after
const REACHABILITY_FRAME: usize = 1; // heading
const BALANCE_FRAME: usize = 4 + 3; // blank, heading, legend (2), the three whole-game figures
const CLOSING_LINES: usize = 2; // blank, how to see everything

/// What the first screen shows.
pub struct Summary<'a> {
    pub content: Vec<String>,
    /// Content lines left out.
    pub content_hidden: usize,
    /// What they are: "3 moved sections, 2 reworded items".
    pub content_left_out: String,
    pub reachability: Vec<String>,
    pub reachability_hidden: usize,
    pub balance: Option<BalanceSummary<'a>>,
}

pub struct BalanceSummary<'a> {
    pub balance: &'a Balance,
    /// The groups shown, each with the members shown (its largest effects).
    pub groups: Vec<(&'a Group, Vec<&'a Shift>)>,
    pub groups_hidden: usize,
    /// Shifts left out: in groups not shown and beyond the members shown.
    pub shifts_hidden: usize,
}

/// `prefix#n` as its prefix and number.
fn numbered(id: &str) -> Option<(&str, u64)> {
    let (prefix, n) = id.rsplit_once('#')?;
    Some((prefix, n.parse().ok()?))
}

/// Ids with runs of numbered ids as ranges ("balls.safari-balls#26 to #30"), at most `limit`
/// parts, the rest counted ("and 4 more").
pub(crate) fn ranges(ids: &[&str], limit: usize) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < ids.len() {
        let mut j = i;
        if let Some((prefix, first)) = numbered(ids[i]) {
            while j + 1 < ids.len()
                && numbered(ids[j + 1]) == Some((prefix, first + (j + 1 - i) as u64))
            {
                j += 1;
            }
            if j > i {
                let last = numbered(ids[j]).map_or(0, |(_, n)| n);
                parts.push(format!("{} to #{last}", ids[i]));
            } else {
                parts.push(ids[i].to_string());
            }
        } else {
            parts.push(ids[i].to_string());
        }
        i = j + 1;
    }
    if parts.len() > limit {
        let more = parts.len() - (limit - 1);
        parts.truncate(limit - 1);
        parts.push(format!("and {more} more"));
    }
    parts.join(", ")
}

/// Sorts numbered ids by prefix and number (so `#9` comes before `#10`).
fn sorted(ids: &mut [&str]) {
    ids.sort_by(|a, b| match (numbered(a), numbered(b)) {
        (Some(x), Some(y)) => x.cmp(&y),
        _ => a.cmp(b),
    });
}

/// A line of the content changes: its words, what it means to a player, and how it is
/// counted when the summary leaves it out ("moved", "section").
pub(crate) struct ContentLine {
    pub words: String,
    pub matters: Matters,
    /// A rename, which comes first: what follows names things by their new ids.
    renamed: bool,
    adjective: &'static str,
    kind: &'static str,
}

impl ContentLine {
    fn of(c: &Change, words: String) -> ContentLine {
        ContentLine {
            words,
            matters: c.matters,
            renamed: c.change == "renamed",
            adjective: matters::adjective(c),
            kind: c.kind,
        }
    }
}

/// The content changes as lines, renames first and then by what they mean to a player (as
/// [`super::content`] orders them): boxes a track gained or lost are named in the track's line ("track
/// safari-balls: 30 -> 25 boxes; removed balls.safari-balls#26 to #30") rather than one line
/// each, and the line counts as boxes added or removed.
pub(crate) fn content_lines(changes: &[Change]) -> Vec<ContentLine> {
    let folded = |c: &Change| {
        c.kind == "box" && (c.change == "added" || c.change == "removed") && c.track.is_some()
    };
    let mut by_track: BTreeMap<&str, (Vec<&str>, Vec<&str>)> = BTreeMap::new();
    for c in changes.iter().filter(|c| folded(c)) {
        let entry = by_track
            .entry(c.track.as_deref().unwrap_or_default())
            .or_default();
        match c.change {
            "added" => entry.0.push(&c.id),
            _ => entry.1.push(&c.id),
        }
    }
    let boxes_of = |track: &str, whole: Option<&str>| -> String {
        let Some((added, removed)) = by_track.get(track) else {
            return String::new();
        };
        let mut parts = Vec::new();
        let (mut added, mut removed) = (added.clone(), removed.clone());
        sorted(&mut added);
        sorted(&mut removed);
        // A track added or removed whole says so already.
        if !added.is_empty() && whole != Some("added") {
            parts.push(format!("new {}", ranges(&added, IDS_IN_A_LINE)));
        }
        if !removed.is_empty() && whole != Some("removed") {
            parts.push(format!("removed {}", ranges(&removed, IDS_IN_A_LINE)));
        }
        parts.iter().map(|p| format!("; {p}")).collect()
    };
    let mut lines = Vec::new();
    let mut tracks_said = Vec::new();
    for c in changes.iter().filter(|c| !folded(c)) {
        if c.kind == "track" {
            tracks_said.push(c.id.as_str());
            let mut line =
                ContentLine::of(c, format!("{}{}", c.words, boxes_of(&c.id, Some(c.change))));
            if by_track.contains_key(c.id.as_str()) {
                line.matters = line.matters.min(Matters::Presence);
            }
            lines.push(line);
        } else {
            lines.push(ContentLine::of(c, c.words.clone()));
        }
    }
    for track in by_track.keys().filter(|t| !tracks_said.contains(t)) {
        lines.push(ContentLine {
            words: format!("track {track}{}", boxes_of(track, None)).replacen("; ", ": ", 1),
            matters: Matters::Presence,
            renamed: false,
            adjective: "changed",
            kind: "track",
        });
    }
    lines.sort_by_key(|l| (!l.renamed, l.matters));
    lines
}

/// What lines left out are, the most telling first, by how they changed and then by kind:
/// "4 reworded tracks", "2 changed (item, species), 3 moved (2 sections, box)".
fn left_out(lines: &[ContentLine]) -> String {
    let mut by_adjective: Vec<(&str, Vec<(&str, usize)>)> = Vec::new();
    for l in lines {
        let at = match by_adjective.iter().position(|(a, _)| *a == l.adjective) {
            Some(at) => at,
            None => {
                by_adjective.push((l.adjective, Vec::new()));
                by_adjective.len() - 1
            }
        };
        let kinds = &mut by_adjective[at].1;
        match kinds.iter_mut().find(|(kind, _)| *kind == l.kind) {
            Some((_, n)) => *n += 1,
            None => kinds.push((l.kind, 1)),
        }
    }
    let things = |kind: &str, n: usize| {
        let (one, many) = matters::noun(kind);
        if n == 1 { one } else { many }
    };
    let parts: Vec<String> = by_adjective
        .into_iter()
        .map(|(adjective, kinds)| {
            let total: usize = kinds.iter().map(|(_, n)| n).sum();
            match kinds.as_slice() {
                [(kind, n)] => format!("{n} {adjective} {}", things(kind, *n)),
                _ => {
                    let each: Vec<String> = kinds
                        .iter()
                        .map(|(kind, n)| match n {
                            1 => things(kind, 1).to_string(),
                            n => format!("{n} {}", things(kind, *n)),
                        })
                        .collect();
                    format!("{total} {adjective} ({})", each.join(", "))
                }
            }
        })
        .collect();
    parts.join(", ")
}

fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The checker's verdicts as lines: ids in ranges, each new or resolved diagnostic on its own.
pub(crate) fn reachability_lines(v: &Verdicts, ids_in_a_line: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut ids = |list: &[String], what: &str| {
        if !list.is_empty() {
            let mut ids: Vec<&str> = list.iter().map(String::as_str).collect();
            sorted(&mut ids);
            lines.push(format!(
                "{} {what}: {}",
                count(list.len(), "box", "boxes"),
                ranges(&ids, ids_in_a_line)
            ));
        }
    };
    ids(&v.became_unreachable, "became unreachable");
    ids(&v.became_reachable, "became reachable");
    ids(&v.new_unreachable, "(new) can never be filled");
    lines.extend(v.new_diagnostics.iter().map(|d| format!("new {d}")));
    lines.extend(
        v.resolved_diagnostics
            .iter()
            .map(|d| format!("resolved {d}")),
    );
    if lines.is_empty() {
        lines.push(
            "no box became reachable or unreachable; no diagnostic is new or resolved".into(),
        );
    }
    lines
}

/// Characters of a line of the first screen at most: a longer one (a box filled by any of a
/// hundred species) is cut with "…", so the screen stays one screen; `--full` has it whole.
const LINE_CHARS: usize = 200;

fn clipped(line: String) -> String {
    match line.char_indices().nth(LINE_CHARS - 1) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line,
    }
}

/// How many of `len` lines are shown under a cap of `cap` lines: all when they fit, else
/// one fewer than the cap, whose last line gives way to the count of the rest.
fn shown_of(len: usize, cap: usize) -> usize {
    if len <= cap { len } else { cap - 1 }
}

/// At most `cap` of `lines` (see [`shown_of`]), and how many were left out.
fn capped(lines: Vec<String>, cap: usize) -> (Vec<String>, usize) {
    let mut lines: Vec<String> = lines.into_iter().map(clipped).collect();
    let shown = shown_of(lines.len(), cap);
    let hidden = lines.len() - shown;
    lines.truncate(shown);
    (lines, hidden)
}

/// The first screen of `diff` in at most `max_lines` lines of text (no fewer than 30 are
/// needed for the fixed parts).
pub fn summary(diff: &Diff, max_lines: usize) -> Summary<'_> {
    let lines = content_lines(&diff.content);
    let content_left_out = left_out(&lines[shown_of(lines.len(), CONTENT_LINES)..]);
    let (content, content_hidden) =
        capped(lines.into_iter().map(|l| l.words).collect(), CONTENT_LINES);
    let (reachability, reachability_hidden) = capped(
        reachability_lines(&diff.reachability, IDS_IN_A_LINE),
        REACHABILITY_LINES,
    );
    let hidden_line = |hidden: usize| usize::from(hidden > 0);
    let used = HEADER_LINES
        + CONTENT_FRAME
        + content.len().max(1)
        + hidden_line(content_hidden)
        + REACHABILITY_FRAME
        + reachability.len()
        + hidden_line(reachability_hidden)
        + CLOSING_LINES;
    let balance = diff.balance.as_ref().map(|b| {
        let shape = super::text::shape_lines(b).len();
        let mut left = max_lines.saturating_sub(used + BALANCE_FRAME + shape);
        let mut groups = Vec::new();
        let mut shifts_hidden = 0;
        let mut groups_hidden = 0;
        for g in &b.groups {
            let shown = g.members.len().min(GROUP_MEMBERS);
            if groups_hidden == 0 && shown < left {
                left -= 1 + shown;
                let members = b.members(g).take(shown).collect();
                groups.push((g, members));
                shifts_hidden += g.members.len() - shown;
            } else {
                groups_hidden += 1;
                shifts_hidden += g.members.len();
            }
        }
        BalanceSummary {
            balance: b,
            groups,
            groups_hidden,
            shifts_hidden,
        }
    });
    Summary {
        content,
        content_hidden,
        content_left_out,
        reachability,
        reachability_hidden,
        balance,
    }
}
