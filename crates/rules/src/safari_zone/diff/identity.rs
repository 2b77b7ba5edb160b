//! Which entry of the new version each entry of the old one is, so that content is compared
//! entry with entry whatever their ids.
//!
//! An id the content writes names its entry: such entries are matched by id, and an id gone
//! with a new one alike in most fields is a rename. An id made from a place (a box's
//! `bag.rods#5`, a card's `magikarp-2`) names the place, not the entry: a box inserted before
//! others shifts their ids. So boxes are matched by what they are (fill, needs, gives, VP,
//! shape, style, label) along each track, by the alignment that keeps the most alike boxes in
//! order, and a box left over is matched with one of the same signature elsewhere (moved);
//! cards are matched by their content before their ids. What is found is applied to the old
//! version's references before anything is compared, so an item renamed is one change, not
//! also every box that gives it.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use serde_json::Value;

use crate::safari_zone::ruleset::{Fill, GuideBox, Requirement, Reward, Ruleset};

pub(super) fn fields<T: Serialize>(value: &T) -> BTreeMap<String, Value> {
    match serde_json::to_value(value) {
        Ok(Value::Object(map)) => map.into_iter().collect(),
        _ => BTreeMap::new(),
    }
}

/// The share of fields (ids aside) at which an entry gone and an entry new are taken for one
/// entry renamed.
const RENAME_LIKENESS: f64 = 0.6;

/// The share of two entries' fields, other than ids and `skip`, that are equal (1 when there
/// are none to compare).
fn likeness_of(a: &BTreeMap<String, Value>, b: &BTreeMap<String, Value>, skip: &[&str]) -> f64 {
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
/// kind shows in those that refer to it only where it was not applied, so near-same content
/// counts, not only the same.
fn renames(gone: &[Entry], new: &[Entry], skip: &[&str]) -> Vec<(String, String)> {
    let mut pairs: Vec<(f64, f64, &str, &str)> = gone
        .iter()
        .flat_map(|(old_id, old)| {
            new.iter().map(move |(new_id, now)| {
                (
                    likeness_of(old, now, skip),
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
    let mut taken: Vec<(String, String)> = Vec::new();
    for (_, _, old_id, new_id) in pairs {
        if !taken.iter().any(|(o, n)| o == old_id || n == new_id) {
            taken.push((old_id.to_string(), new_id.to_string()));
        }
    }
    taken
}

/// Entries matched by their written ids: the same id, then renames among those left.
fn by_id<T: Serialize>(
    old: &[T],
    new: &[T],
    id: impl Fn(&T) -> &str,
    skip: &[&str],
) -> BTreeMap<String, String> {
    let new_ids: BTreeSet<&str> = new.iter().map(&id).collect();
    let old_ids: BTreeSet<&str> = old.iter().map(&id).collect();
    let mut pairs: BTreeMap<String, String> = old_ids
        .intersection(&new_ids)
        .map(|i| (i.to_string(), i.to_string()))
        .collect();
    let gone: Vec<Entry> = old
        .iter()
        .filter(|e| !new_ids.contains(id(e)))
        .map(|e| (id(e), fields(e)))
        .collect();
    let added: Vec<Entry> = new
        .iter()
        .filter(|e| !old_ids.contains(id(e)))
        .map(|e| (id(e), fields(e)))
        .collect();
    pairs.extend(renames(&gone, &added, skip));
    pairs
}

/// An entry by its id, with its fields but the id.
type Entry<'a> = (&'a str, BTreeMap<String, Value>);

fn signature<T: Serialize>(value: &T) -> BTreeMap<String, Value> {
    let mut f = fields(value);
    f.remove("id");
    f
}

/// Pairs each entry of `old` with the first of `new` that `same` accepts, and takes both out.
fn pair_off<'a>(
    old: &mut Vec<Entry<'a>>,
    new: &mut Vec<Entry<'a>>,
    pairs: &mut BTreeMap<String, String>,
    same: impl Fn(&Entry, &Entry) -> bool,
) {
    old.retain(|o| match new.iter().position(|n| same(o, n)) {
        Some(at) => {
            pairs.insert(o.0.to_string(), new.remove(at).0.to_string());
            false
        }
        None => true,
    });
}

/// Whether an id was made from a place rather than written: a box's `section.track#3` or
/// `section#3` (a written id has no `#`).
pub(super) fn is_placed(box_id: &str) -> bool {
    box_id.contains('#')
}

/// Old id -> new id of every entry found in both versions, by kind (the same id where it did
/// not change).
#[derive(Debug, Default, Clone)]
pub struct Matching {
    pub sections: BTreeMap<String, String>,
    /// Tracks, loose boxes' one-box tracks among them (which follow their box).
    pub tracks: BTreeMap<String, String>,
    pub boxes: BTreeMap<String, String>,
    pub cards: BTreeMap<String, String>,
    pub dice: BTreeMap<String, String>,
    pub items: BTreeMap<String, String>,
    pub species: BTreeMap<String, String>,
}

/// What a track is, apart from its boxes (which are matched one by one).
#[derive(Serialize)]
pub(super) struct TrackSummary {
    #[serde(skip)]
    pub id: String,
    pub section: String,
    pub title: Option<String>,
    pub loose: bool,
    pub flow: crate::safari_zone::model::Flow,
    pub boxes: usize,
}

/// Every track of a version with what it is, its section named through `section_of` (the old
/// version's as the new one names them).
pub(super) fn tracks(r: &Ruleset, section_of: impl Fn(&str) -> String) -> Vec<TrackSummary> {
    r.field_guide
        .sections
        .iter()
        .flat_map(|s| {
            let section = section_of(&s.id);
            s.tracks.iter().map(move |t| TrackSummary {
                id: t.id.clone(),
                section: section.clone(),
                title: t.title.clone(),
                loose: t.loose,
                flow: t.flow,
                boxes: t.boxes.len(),
            })
        })
        .collect()
}

fn renamed(map: &BTreeMap<String, String>, id: &mut String) {
    if let Some(to) = map.get(id.as_str()) {
        id.clone_from(to);
    }
}

impl Matching {
    pub fn of(old: &Ruleset, new: &Ruleset) -> Matching {
        let mut m = Matching {
            items: by_id(&old.items, &new.items, |i| &i.id, &[]),
            dice: by_id(&old.dice, &new.dice, |d| &d.id, &[]),
            sections: by_id(
                &old.field_guide.sections,
                &new.field_guide.sections,
                |s| &s.id,
                &["tracks"],
            ),
            ..Matching::default()
        };
        let applied = m.applied(old);
        m.species = by_id(&applied.species, &new.species, |s| &s.id, &[]);
        let section_of = |id: &str| m.sections.get(id).cloned().unwrap_or(id.to_string());
        let kept = |r: &Ruleset, f: &dyn Fn(&str) -> String| -> Vec<TrackSummary> {
            tracks(r, f).into_iter().filter(|t| !t.loose).collect()
        };
        let (old_tracks, new_tracks) = (kept(old, &section_of), kept(new, &str::to_string));
        m.tracks = by_id(&old_tracks, &new_tracks, |t| &t.id, &[]);
        let applied = m.applied(old);
        let (boxes, loose) = boxes(&applied, new, &m);
        m.boxes = boxes;
        m.tracks.extend(loose);
        let applied = m.applied(old);
        m.cards = cards(&applied, new);
        m
    }

    /// The old version with its references (to items, species, tracks and boxes) written as
    /// the new version names what they refer to; the entries keep their own ids.
    pub fn applied(&self, old: &Ruleset) -> Ruleset {
        let mut r = old.clone();
        let requirement = |q: &mut Requirement| match q {
            Requirement::Item { item } => renamed(&self.items, item),
            Requirement::Species { species } => renamed(&self.species, species),
            Requirement::Area { track } => renamed(&self.tracks, track),
            Requirement::Box { id } => renamed(&self.boxes, id),
            Requirement::Vp { .. } => {}
        };
        let reward = |w: &mut Reward| match w {
            Reward::Item { item } => renamed(&self.items, item),
            Reward::Species { species } => renamed(&self.species, species),
            Reward::Habitat { .. } => {}
        };
        let fill = |f: &mut Fill| match f {
            Fill::Collect { species } => species.iter_mut().for_each(|s| renamed(&self.species, s)),
            Fill::Use { item } => renamed(&self.items, item),
            Fill::Obtain { items } => items.iter_mut().for_each(|i| renamed(&self.items, i)),
            _ => {}
        };
        for b in r
            .field_guide
            .sections
            .iter_mut()
            .flat_map(|s| &mut s.tracks)
            .flat_map(|t| &mut t.boxes)
        {
            b.requires.iter_mut().for_each(requirement);
            b.rewards.iter_mut().for_each(reward);
            fill(&mut b.fill);
        }
        for c in &mut r.deck.cards {
            renamed(&self.species, &mut c.species);
            if let Some(area) = &mut c.criteria.area {
                renamed(&self.tracks, area);
            }
            if let Some(item) = &mut c.criteria.item {
                renamed(&self.items, item);
            }
        }
        for e in r.species.iter_mut().flat_map(|s| &mut s.evolutions) {
            renamed(&self.species, &mut e.into);
            if let Some(item) = &mut e.item {
                renamed(&self.items, item);
            }
        }
        r
    }
}

/// The sequences of boxes matched along: each track's boxes, and each section's loose boxes
/// in order; keyed by the track's or the section's id (`track` names the old version's as the
/// new one does).
fn sequences(
    r: &Ruleset,
    track: impl Fn(&str) -> String,
    section: impl Fn(&str) -> String,
) -> Vec<((bool, String), Vec<&GuideBox>)> {
    let mut out = Vec::new();
    for s in &r.field_guide.sections {
        let mut loose = Vec::new();
        for t in &s.tracks {
            if t.loose {
                loose.extend(&t.boxes);
            } else {
                out.push(((false, track(&t.id)), t.boxes.iter().collect()));
            }
        }
        out.push(((true, section(&s.id)), loose));
    }
    out
}

/// How much two boxes are one: 2 for the same written id, else the share of their signature
/// (fill, needs, gives, VP, shape, style, label) they have in common; none for a written id
/// and any other.
fn kinship(
    a: (&GuideBox, &BTreeMap<String, Value>),
    b: (&GuideBox, &BTreeMap<String, Value>),
) -> Option<f64> {
    if !is_placed(&a.0.id) || !is_placed(&b.0.id) {
        return (a.0.id == b.0.id).then_some(2.0);
    }
    Some(likeness_of(a.1, b.1, &[]))
}

/// The alignment of two sequences that keeps the most kinship in order: pairs of indices.
/// Of alignments as good, the one that pairs earliest (so of 30 like boxes and 25, the first
/// 25 are paired and the last 5 are left).
fn align(kin: &dyn Fn(usize, usize) -> Option<f64>, n: usize, m: usize) -> Vec<(usize, usize)> {
    // best[i][j]: the most kinship of old[i..] with new[j..].
    let mut best = vec![vec![0.0f64; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            let paired = kin(i, j).map_or(f64::NEG_INFINITY, |k| k + best[i + 1][j + 1]);
            best[i][j] = paired.max(best[i + 1][j]).max(best[i][j + 1]);
        }
    }
    const EPSILON: f64 = 1e-9;
    let (mut i, mut j, mut pairs) = (0, 0, Vec::new());
    while i < n && j < m {
        let paired = kin(i, j).map_or(f64::NEG_INFINITY, |k| k + best[i + 1][j + 1]);
        if paired >= best[i][j] - EPSILON {
            pairs.push((i, j));
            (i, j) = (i + 1, j + 1);
        } else if best[i + 1][j] >= best[i][j] - EPSILON {
            i += 1;
        } else {
            j += 1;
        }
    }
    pairs
}

type BoxPairs = (BTreeMap<String, String>, BTreeMap<String, String>);

/// Boxes matched: along each sequence both versions have, then those left over by written id,
/// by the same signature anywhere (a box moved), and written ids by likeness (a rename). Also
/// the loose boxes' one-box tracks, which follow their boxes.
fn boxes<'a>(old: &'a Ruleset, new: &'a Ruleset, m: &Matching) -> BoxPairs {
    let id_in = |map: &BTreeMap<String, String>, id: &str| map.get(id).cloned();
    let old_seqs = sequences(
        old,
        |t| id_in(&m.tracks, t).unwrap_or(t.to_string()),
        |s| id_in(&m.sections, s).unwrap_or(s.to_string()),
    );
    let new_seqs = sequences(new, str::to_string, str::to_string);
    let mut pairs: BTreeMap<String, String> = BTreeMap::new();
    let mut taken_new: BTreeSet<&str> = BTreeSet::new();
    for (key, olds) in &old_seqs {
        let Some((_, news)) = new_seqs.iter().find(|(k, _)| k == key) else {
            continue;
        };
        let (a, b): (Vec<_>, Vec<_>) = (
            olds.iter().map(signature).collect(),
            news.iter().map(signature).collect(),
        );
        let kin = |i: usize, j: usize| kinship((olds[i], &a[i]), (news[j], &b[j]));
        for (i, j) in align(&kin, olds.len(), news.len()) {
            pairs.insert(olds[i].id.clone(), news[j].id.clone());
            taken_new.insert(&news[j].id);
        }
    }
    let left = |seqs: &[((bool, String), Vec<&'a GuideBox>)],
                taken: &dyn Fn(&str) -> bool|
     -> Vec<Entry<'a>> {
        seqs.iter()
            .flat_map(|(_, boxes)| boxes.iter().copied())
            .filter(|b| !taken(&b.id))
            .map(|b| (b.id.as_str(), signature(b)))
            .collect()
    };
    let mut left_old = left(&old_seqs, &|id| pairs.contains_key(id));
    let mut left_new = left(&new_seqs, &|id| taken_new.contains(id));
    pair_off(&mut left_old, &mut left_new, &mut pairs, |o, n| {
        !is_placed(o.0) && o.0 == n.0
    });
    pair_off(&mut left_old, &mut left_new, &mut pairs, |o, n| o.1 == n.1);
    let written = |list: &[Entry<'a>]| -> Vec<Entry<'a>> {
        list.iter()
            .filter(|(id, _)| !is_placed(id))
            .cloned()
            .collect()
    };
    pairs.extend(renames(&written(&left_old), &written(&left_new), &[]));
    // Loose boxes' tracks are named as their boxes are.
    let loose_old: BTreeMap<&str, &str> = loose_track_of(old);
    let loose_new: BTreeMap<&str, &str> = loose_track_of(new);
    let tracks = pairs
        .iter()
        .filter_map(|(o, n)| {
            Some((
                loose_old.get(o.as_str())?.to_string(),
                loose_new.get(n.as_str())?.to_string(),
            ))
        })
        .collect();
    (pairs, tracks)
}

/// The one-box track of each loose box, by the box's id.
fn loose_track_of(r: &Ruleset) -> BTreeMap<&str, &str> {
    r.field_guide
        .sections
        .iter()
        .flat_map(|s| &s.tracks)
        .filter(|t| t.loose)
        .flat_map(|t| t.boxes.iter().map(move |b| (b.id.as_str(), t.id.as_str())))
        .collect()
}

/// Cards matched: the same id and content, then the same content (a card whose generated id
/// moved, `magikarp` to `magikarp-2`, when another of its species came before it), then the
/// same id, then renames among those left.
fn cards(old: &Ruleset, new: &Ruleset) -> BTreeMap<String, String> {
    let content = |c: &crate::safari_zone::ruleset::Card| signature(c);
    let mut left_old: Vec<Entry> = (old.deck.cards.iter())
        .map(|c| (c.id.as_str(), content(c)))
        .collect();
    let mut left_new: Vec<Entry> = (new.deck.cards.iter())
        .map(|c| (c.id.as_str(), content(c)))
        .collect();
    let mut pairs = BTreeMap::new();
    pair_off(&mut left_old, &mut left_new, &mut pairs, |o, n| o == n);
    pair_off(&mut left_old, &mut left_new, &mut pairs, |o, n| o.1 == n.1);
    pair_off(&mut left_old, &mut left_new, &mut pairs, |o, n| o.0 == n.0);
    pairs.extend(renames(&left_old, &left_new, &[]));
    pairs
}
