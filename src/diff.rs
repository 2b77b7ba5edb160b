//! What changed between two versions of a game: content (by stable id), reachability (the
//! checker's verdicts), and balance (the same seeded simulation of both, with the changes
//! that are statistically significant).

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

use crate::backends::ruleset::Ruleset;
use crate::diag::Diagnostic;
use crate::sim::Report;

/// One version of a game, checked.
pub struct Version<'a> {
    pub label: String,
    pub ruleset: &'a Ruleset,
    pub diagnostics: &'a [Diagnostic],
    /// Ids of the boxes the checker calls unreachable.
    pub unreachable: BTreeSet<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Change {
    /// box, track, section, card, dice, item, species, parameter
    pub kind: &'static str,
    pub id: String,
    /// added, removed, changed, moved, renamed
    pub change: &'static str,
    /// For `renamed`: the id it had before.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub renamed_from: Option<String>,
    /// For `changed`, `moved` and `renamed`: `field: old -> new`.
    pub details: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Verdicts {
    pub became_unreachable: Vec<String>,
    pub became_reachable: Vec<String>,
    /// Diagnostics of the new version that the old one did not have (code: message).
    pub new_diagnostics: Vec<String>,
    /// Diagnostics of the old version that the new one no longer has.
    pub resolved_diagnostics: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Shift {
    pub what: String,
    pub old: f64,
    pub new: f64,
    /// Two-sided p-value of the difference.
    pub p: f64,
    /// Whether p is below the threshold (Bonferroni-corrected for families of tests).
    pub significant: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct Balance {
    pub policy: String,
    pub games: u64,
    pub players: usize,
    pub seed: u64,
    pub mean_vp: Shift,
    pub mean_turns: Shift,
    pub ended_by_balls: Shift,
    /// Boxes (in both versions) whose fill rate changed significantly.
    pub boxes: Vec<Shift>,
    /// Cards (in both versions) whose catch rate changed significantly.
    pub cards: Vec<Shift>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Diff {
    pub old: String,
    pub new: String,
    pub content: Vec<Change>,
    pub reachability: Verdicts,
    pub balance: Option<Balance>,
}

fn fields<T: Serialize>(value: &T) -> BTreeMap<String, serde_json::Value> {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::Object(map)) => map.into_iter().collect(),
        _ => BTreeMap::new(),
    }
}

fn compact(value: &serde_json::Value) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// Field-by-field differences of two serialisable values, skipping `skip`.
fn field_changes<T: Serialize>(old: &T, new: &T, skip: &[&str]) -> Vec<String> {
    let (a, b) = (fields(old), fields(new));
    let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    keys.into_iter()
        .filter(|k| !skip.contains(&k.as_str()))
        .filter_map(|k| {
            let (x, y) = (a.get(k), b.get(k));
            (x != y).then(|| {
                let show = |v: Option<&serde_json::Value>| v.map_or("(none)".to_string(), compact);
                format!("{k}: {} -> {}", show(x), show(y))
            })
        })
        .collect()
}

/// The share of fields (ids aside) at which an entry gone and an entry new are taken for one
/// entry renamed.
const RENAME_LIKENESS: f64 = 0.6;

/// The share of two entries' fields, other than ids and `skip`, that are equal (1 when there
/// are none to compare).
fn likeness<T: Serialize>(old: &T, new: &T, skip: &[&str]) -> f64 {
    let (a, b) = (fields(old), fields(new));
    let keys: BTreeSet<&String> = a
        .keys()
        .chain(b.keys())
        .filter(|k| k.as_str() != "id" && !skip.contains(&k.as_str()))
        .collect();
    if keys.is_empty() {
        return 1.0;
    }
    let same = keys.iter().filter(|k| a.get(**k) == b.get(**k)).count();
    same as f64 / keys.len() as f64
}

/// Pairs entries gone with entries new that are most likely the same ones renamed: alike in
/// most fields, the most alike first (then the ids spelled most alike). A rename seen in one
/// kind shows in those that refer to it (a species renamed changes its cards' `species`), so
/// near-same content counts, not only the same.
fn renames<'a, T: Serialize>(
    gone: &[(&'a String, &T)],
    new: &[(&'a String, &T)],
    skip: &[&str],
) -> Vec<(&'a String, &'a String)> {
    let mut pairs: Vec<(f64, f64, &String, &String)> = gone
        .iter()
        .flat_map(|(old_id, old)| {
            new.iter().map(move |(new_id, now)| {
                (
                    likeness(*old, *now, skip),
                    strsim::normalized_damerau_levenshtein(old_id, new_id),
                    *old_id,
                    *new_id,
                )
            })
        })
        .filter(|(score, ..)| *score >= RENAME_LIKENESS)
        .collect();
    pairs.sort_by(|a, b| {
        b.0.total_cmp(&a.0)
            .then(b.1.total_cmp(&a.1))
            .then_with(|| (a.2, a.3).cmp(&(b.2, b.3)))
    });
    let mut taken: Vec<(&String, &String)> = Vec::new();
    for (_, _, old_id, new_id) in pairs {
        if !taken.iter().any(|(o, n)| *o == old_id || *n == new_id) {
            taken.push((old_id, new_id));
        }
    }
    taken
}

/// Compares keyed lists: added, removed, changed and renamed entries.
fn keyed<T: Serialize>(
    kind: &'static str,
    old: Vec<(String, T)>,
    new: Vec<(String, T)>,
    skip: &[&str],
    out: &mut Vec<Change>,
) {
    let old_map: BTreeMap<String, &T> = old.iter().map(|(k, v)| (k.clone(), v)).collect();
    let new_map: BTreeMap<String, &T> = new.iter().map(|(k, v)| (k.clone(), v)).collect();
    let gone: Vec<(&String, &T)> = old_map
        .iter()
        .filter(|(id, _)| !new_map.contains_key(*id))
        .map(|(id, v)| (id, *v))
        .collect();
    let added: Vec<(&String, &T)> = new_map
        .iter()
        .filter(|(id, _)| !old_map.contains_key(*id))
        .map(|(id, v)| (id, *v))
        .collect();
    let renamed = renames(&gone, &added, skip);
    for (id, value) in &old_map {
        match new_map.get(id) {
            None if renamed.iter().any(|(from, _)| *from == id) => {}
            None => out.push(Change {
                kind,
                id: id.clone(),
                change: "removed",
                renamed_from: None,
                details: Vec::new(),
            }),
            Some(now) => {
                let details = field_changes(*value, *now, skip);
                if !details.is_empty() {
                    out.push(Change {
                        kind,
                        id: id.clone(),
                        change: "changed",
                        renamed_from: None,
                        details,
                    });
                }
            }
        }
    }
    for (from, to) in &renamed {
        let mut skip_ids = skip.to_vec();
        skip_ids.push("id");
        out.push(Change {
            kind,
            id: (*to).clone(),
            change: "renamed",
            renamed_from: Some((*from).clone()),
            details: field_changes(old_map[*from], new_map[*to], &skip_ids),
        });
    }
    for (id, _) in added
        .iter()
        .filter(|(id, _)| !renamed.iter().any(|(_, to)| to == id))
    {
        out.push(Change {
            kind,
            id: (*id).clone(),
            change: "added",
            renamed_from: None,
            details: Vec::new(),
        });
    }
}

fn by_id<T>(items: &[T], id: impl Fn(&T) -> &String) -> Vec<(String, &T)> {
    items.iter().map(|item| (id(item).clone(), item)).collect()
}

pub fn content(old: &Ruleset, new: &Ruleset) -> Vec<Change> {
    let mut out = Vec::new();
    let parameters = field_changes(&old.parameters, &new.parameters, &[]);
    if !parameters.is_empty() {
        out.push(Change {
            kind: "parameter",
            id: "parameters".to_string(),
            change: "changed",
            renamed_from: None,
            details: parameters,
        });
    }
    keyed(
        "section",
        by_id(&old.field_guide.sections, |s| &s.id),
        by_id(&new.field_guide.sections, |s| &s.id),
        &["tracks"],
        &mut out,
    );
    #[derive(Serialize)]
    struct TrackSummary {
        section: String,
        title: Option<String>,
        boxes: usize,
    }
    fn tracks(r: &Ruleset) -> Vec<(String, TrackSummary)> {
        r.field_guide
            .sections
            .iter()
            .flat_map(|s| {
                s.tracks.iter().map(move |t| {
                    let summary = TrackSummary {
                        section: s.id.clone(),
                        title: t.title.clone(),
                        boxes: t.boxes.len(),
                    };
                    (t.id.clone(), summary)
                })
            })
            .collect()
    }
    keyed("track", tracks(old), tracks(new), &[], &mut out);
    // Boxes: fields, and where they sit (section, track, position).
    #[derive(Serialize)]
    struct Placed<'a> {
        section: &'a str,
        track: &'a str,
        position: usize,
        #[serde(flatten)]
        def: &'a crate::backends::ruleset::GuideBox,
    }
    fn placed(r: &Ruleset) -> Vec<(String, serde_json::Value)> {
        r.field_guide
            .sections
            .iter()
            .flat_map(|s| {
                s.tracks.iter().flat_map(move |t| {
                    t.boxes.iter().enumerate().map(move |(i, b)| {
                        (
                            b.id.clone(),
                            serde_json::to_value(Placed {
                                section: &s.id,
                                track: &t.id,
                                position: i + 1,
                                def: b,
                            })
                            .unwrap_or_default(),
                        )
                    })
                })
            })
            .collect()
    }
    let mut box_changes = Vec::new();
    keyed("box", placed(old), placed(new), &[], &mut box_changes);
    for change in box_changes.iter_mut().filter(|c| c.change == "changed") {
        let moved = change.details.iter().any(|d| {
            d.starts_with("section:") || d.starts_with("track:") || d.starts_with("position:")
        });
        if moved
            && change.details.iter().all(|d| {
                d.starts_with("section:") || d.starts_with("track:") || d.starts_with("position:")
            })
        {
            change.change = "moved";
        }
    }
    out.extend(box_changes);
    keyed(
        "card",
        by_id(&old.deck.cards, |c| &c.id),
        by_id(&new.deck.cards, |c| &c.id),
        &["id"],
        &mut out,
    );
    keyed(
        "dice",
        by_id(&old.dice, |d| &d.id),
        by_id(&new.dice, |d| &d.id),
        &["id"],
        &mut out,
    );
    keyed(
        "item",
        by_id(&old.items, |i| &i.id),
        by_id(&new.items, |i| &i.id),
        &["id"],
        &mut out,
    );
    keyed(
        "species",
        by_id(&old.species, |s| &s.id),
        by_id(&new.species, |s| &s.id),
        &["id"],
        &mut out,
    );
    out
}

pub fn verdicts(old: &Version, new: &Version) -> Verdicts {
    let all_old: BTreeSet<&str> = old
        .ruleset
        .field_guide
        .sections
        .iter()
        .flat_map(|s| &s.tracks)
        .flat_map(|t| &t.boxes)
        .map(|b| b.id.as_str())
        .collect();
    let all_new: BTreeSet<&str> = new
        .ruleset
        .field_guide
        .sections
        .iter()
        .flat_map(|s| &s.tracks)
        .flat_map(|t| &t.boxes)
        .map(|b| b.id.as_str())
        .collect();
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
            .difference(&old.unreachable)
            .filter(in_both)
            .cloned()
            .collect(),
        became_reachable: old
            .unreachable
            .difference(&new.unreachable)
            .filter(in_both)
            .cloned()
            .collect(),
        new_diagnostics: is.difference(&was).cloned().collect(),
        resolved_diagnostics: was.difference(&is).cloned().collect(),
    }
}

const ALPHA: f64 = 0.05;

fn two_sided_normal(z: f64) -> f64 {
    let normal = Normal::new(0.0, 1.0).expect("the standard normal");
    2.0 * (1.0 - normal.cdf(z.abs()))
}

/// Welch's t-test on two samples of integers.
fn welch(what: &str, a: &[u32], b: &[u32]) -> Shift {
    let stats = |x: &[u32]| {
        let n = x.len().max(1) as f64;
        let mean = x.iter().map(|v| *v as f64).sum::<f64>() / n;
        let var = x.iter().map(|v| (*v as f64 - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
        (n, mean, var)
    };
    let ((na, ma, va), (nb, mb, vb)) = (stats(a), stats(b));
    let se2 = va / na + vb / nb;
    let p = if se2 <= 0.0 {
        if ma == mb { 1.0 } else { 0.0 }
    } else {
        let t = (mb - ma) / se2.sqrt();
        let df = se2.powi(2)
            / ((va / na).powi(2) / (na - 1.0).max(1.0) + (vb / nb).powi(2) / (nb - 1.0).max(1.0));
        match StudentsT::new(0.0, 1.0, df.max(1.0)) {
            Ok(dist) => 2.0 * (1.0 - dist.cdf(t.abs())),
            Err(_) => two_sided_normal(t),
        }
    };
    Shift {
        what: what.to_string(),
        old: ma,
        new: mb,
        p,
        significant: p < ALPHA,
    }
}

/// Two-proportion z-test.
fn proportions(what: String, (xa, na): (f64, f64), (xb, nb): (f64, f64), alpha: f64) -> Shift {
    let (pa, pb) = (xa / na.max(1.0), xb / nb.max(1.0));
    let pooled = (xa + xb) / (na + nb).max(1.0);
    let se = (pooled * (1.0 - pooled) * (1.0 / na.max(1.0) + 1.0 / nb.max(1.0))).sqrt();
    let p = if se == 0.0 {
        if pa == pb { 1.0 } else { 0.0 }
    } else {
        two_sided_normal((pb - pa) / se)
    };
    Shift {
        what,
        old: pa,
        new: pb,
        p,
        significant: p < alpha,
    }
}

pub fn balance(old: &Report, new: &Report) -> Balance {
    let (na, nb) = (
        (old.games * old.players as u64) as f64,
        (new.games * new.players as u64) as f64,
    );
    let shared_boxes: Vec<(&crate::sim::BoxStat, &crate::sim::BoxStat)> = old
        .boxes
        .iter()
        .filter_map(|a| new.boxes.iter().find(|b| b.id == a.id).map(|b| (a, b)))
        .collect();
    let box_alpha = ALPHA / shared_boxes.len().max(1) as f64;
    let boxes = shared_boxes
        .into_iter()
        .map(|(a, b)| {
            proportions(
                a.id.clone(),
                (a.fill_rate * na, na),
                (b.fill_rate * nb, nb),
                box_alpha,
            )
        })
        .filter(|s| s.significant)
        .collect();
    let shared_cards: Vec<(&crate::sim::CardStat, &crate::sim::CardStat)> = old
        .cards
        .iter()
        .filter_map(|a| new.cards.iter().find(|b| b.id == a.id).map(|b| (a, b)))
        .collect();
    let card_alpha = ALPHA / shared_cards.len().max(1) as f64;
    let cards = shared_cards
        .into_iter()
        .map(|(a, b)| {
            proportions(
                a.id.clone(),
                (a.catches as f64, a.throws as f64),
                (b.catches as f64, b.throws as f64),
                card_alpha,
            )
        })
        .filter(|s| s.significant)
        .collect();
    Balance {
        policy: new.policy.clone(),
        games: new.games,
        players: new.players,
        seed: new.seed,
        mean_vp: welch("mean VP", &old.scores, &new.scores),
        mean_turns: welch("mean turns played", &old.lengths, &new.lengths),
        ended_by_balls: proportions(
            "share out of Safari Balls".to_string(),
            (old.ended_by_balls * na, na),
            (new.ended_by_balls * nb, nb),
            ALPHA,
        ),
        boxes,
        cards,
    }
}

/// The diff for people.
pub fn render(diff: &Diff) -> String {
    let mut out = format!("safari diff: {} -> {}\n\n", diff.old, diff.new);
    out.push_str(&format!("Content ({} changes)\n", diff.content.len()));
    for change in &diff.content {
        let id = match &change.renamed_from {
            Some(from) => format!("{from} -> {}", change.id),
            None => change.id.clone(),
        };
        out.push_str(&format!("  {:<8} {:<9} {id}\n", change.change, change.kind));
        for detail in &change.details {
            out.push_str(&format!("                       {detail}\n"));
        }
    }
    let r = &diff.reachability;
    out.push_str("\nReachability\n");
    let list = |out: &mut String, title: &str, items: &[String]| {
        if !items.is_empty() {
            out.push_str(&format!("  {title}:\n"));
            for item in items {
                out.push_str(&format!("    {item}\n"));
            }
        }
    };
    list(&mut out, "became unreachable", &r.became_unreachable);
    list(&mut out, "became reachable", &r.became_reachable);
    list(&mut out, "new diagnostics", &r.new_diagnostics);
    list(&mut out, "resolved diagnostics", &r.resolved_diagnostics);
    if r.became_unreachable.is_empty()
        && r.became_reachable.is_empty()
        && r.new_diagnostics.is_empty()
        && r.resolved_diagnostics.is_empty()
    {
        out.push_str("  no change\n");
    }
    if let Some(b) = &diff.balance {
        out.push_str(&format!(
            "\nBalance ({} games x {} player(s), policy {}, seed {}; * = significant, p < 0.05, Bonferroni-corrected per list)\n",
            b.games, b.players, b.policy, b.seed
        ));
        let line = |out: &mut String, s: &Shift, percent: bool| {
            let (old, new) = if percent {
                (s.old * 100.0, s.new * 100.0)
            } else {
                (s.old, s.new)
            };
            let unit = if percent { "%" } else { "" };
            out.push_str(&format!(
                "  {} {:<40} {:>8.2}{unit} -> {:>8.2}{unit}  (p = {:.3})\n",
                if s.significant { "*" } else { " " },
                s.what,
                old,
                new,
                s.p
            ));
        };
        line(&mut out, &b.mean_vp, false);
        line(&mut out, &b.mean_turns, false);
        line(&mut out, &b.ended_by_balls, true);
        if !b.boxes.is_empty() {
            out.push_str("  fill rate:\n");
            for s in &b.boxes {
                line(&mut out, s, true);
            }
        }
        if !b.cards.is_empty() {
            out.push_str("  catch rate:\n");
            for s in &b.cards {
                line(&mut out, s, true);
            }
        }
    }
    out
}
