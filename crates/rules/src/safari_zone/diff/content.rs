//! Content compared by stable id, through the two rulesets: which entries were added, removed,
//! changed, moved or renamed, and which of their fields differ.
//!
//! The comparison itself is generic (every entry is compared field by field as the ruleset
//! serialises it, so a field added to the format is compared without code here); what the
//! fields mean is left to [`super::words`], which puts each change in the designer's terms.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use serde_json::Value;

use super::matters::{self, Matters};
use super::words::{self, Glossary};
use crate::safari_zone::ruleset::{GuideBox, Ruleset};

/// One field that differs, as values (for tools) and in words (for people).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct FieldChange {
    pub field: String,
    /// The value before; absent when the field is new.
    pub old: Option<Value>,
    /// The value after; absent when the field is gone.
    pub new: Option<Value>,
    /// What the change means: "now gives Area 4 Key", "capture rate 9 -> 11".
    pub words: String,
}

/// One entry of the content that changed.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Change {
    /// game, parameter, sheet, section, track, box, deck, card, dice, item, species
    pub kind: &'static str,
    pub id: String,
    /// added, removed, changed, moved, renamed
    pub change: &'static str,
    /// For `renamed`: the id it had before.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub renamed_from: Option<String>,
    /// For boxes: the track the box sits in (the old version's, when it was removed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub track: Option<String>,
    /// For `changed`, `moved` and `renamed`: the fields that differ.
    pub fields: Vec<FieldChange>,
    /// The whole change in one line of words: "areas.area-1#6 now gives Area 4 Key".
    pub words: String,
    /// What it means to a player (totals, presence, play, cosmetic): changes come in this
    /// order.
    pub matters: Matters,
}

fn fields<T: Serialize>(value: &T) -> BTreeMap<String, Value> {
    match serde_json::to_value(value) {
        Ok(Value::Object(map)) => map.into_iter().collect(),
        _ => BTreeMap::new(),
    }
}

/// The fields (but `skip`) whose values differ: name, old value, new value.
type RawField = (String, Option<Value>, Option<Value>);

fn differing<T: Serialize>(old: &T, new: &T, skip: &[&str]) -> Vec<RawField> {
    let (a, b) = (fields(old), fields(new));
    let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    keys.into_iter()
        .filter(|k| !skip.contains(&k.as_str()))
        .filter(|k| a.get(*k) != b.get(*k))
        .map(|k| (k.clone(), a.get(k).cloned(), b.get(k).cloned()))
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

/// The two versions' names, and where the changes go.
struct Comparison<'a> {
    glossary: Glossary<'a>,
    out: Vec<Change>,
}

impl Comparison<'_> {
    fn change(
        &mut self,
        kind: &'static str,
        id: &str,
        change: &'static str,
        renamed_from: Option<&str>,
        raw: Vec<RawField>,
    ) {
        let mut raw = raw;
        raw.sort_by_key(|(field, ..)| words::field_order(kind, field));
        let fields: Vec<FieldChange> = raw
            .into_iter()
            .map(|(field, old, new)| FieldChange {
                words: words::field(kind, &field, old.as_ref(), new.as_ref(), &self.glossary),
                field,
                old,
                new,
            })
            .collect();
        let words = words::change(kind, id, change, renamed_from, &fields, &self.glossary);
        self.out.push(Change {
            kind,
            id: id.to_string(),
            change,
            renamed_from: renamed_from.map(str::to_string),
            track: None,
            matters: matters::change(kind, change, &fields),
            fields,
            words,
        });
    }

    /// Compares keyed lists: added, removed, changed and renamed entries.
    fn keyed<T: Serialize>(
        &mut self,
        kind: &'static str,
        old: Vec<(String, T)>,
        new: Vec<(String, T)>,
        skip: &[&str],
    ) {
        let old_map: BTreeMap<&String, &T> = old.iter().map(|(k, v)| (k, v)).collect();
        let new_map: BTreeMap<&String, &T> = new.iter().map(|(k, v)| (k, v)).collect();
        let gone: Vec<(&String, &T)> = old_map
            .iter()
            .filter(|(id, _)| !new_map.contains_key(*id))
            .map(|(id, v)| (*id, *v))
            .collect();
        let added: Vec<(&String, &T)> = new_map
            .iter()
            .filter(|(id, _)| !old_map.contains_key(*id))
            .map(|(id, v)| (*id, *v))
            .collect();
        let renamed = renames(&gone, &added, skip);
        for (id, value) in &old_map {
            match new_map.get(id) {
                None if renamed.iter().any(|(from, _)| from == id) => {}
                None => self.change(kind, id, "removed", None, Vec::new()),
                Some(now) => {
                    let raw = differing(*value, *now, skip);
                    if !raw.is_empty() {
                        self.change(kind, id, "changed", None, raw);
                    }
                }
            }
        }
        for (from, to) in &renamed {
            let mut skip_ids = skip.to_vec();
            skip_ids.push("id");
            let raw = differing(old_map[from], new_map[to], &skip_ids);
            self.change(kind, to, "renamed", Some(from), raw);
        }
        for (id, _) in added
            .iter()
            .filter(|(id, _)| !renamed.iter().any(|(_, to)| to == id))
        {
            self.change(kind, id, "added", None, Vec::new());
        }
    }
}

fn by_id<T>(items: &[T], id: impl Fn(&T) -> &String) -> Vec<(String, &T)> {
    items.iter().map(|item| (id(item).clone(), item)).collect()
}

/// What a track is, apart from its boxes (which are compared one by one).
#[derive(Serialize)]
struct TrackSummary {
    section: String,
    title: Option<String>,
    loose: bool,
    flow: crate::safari_zone::model::Flow,
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
                    loose: t.loose,
                    flow: t.flow,
                    boxes: t.boxes.len(),
                };
                (t.id.clone(), summary)
            })
        })
        .collect()
}

/// A box with where it sits (section, track, position), so that a box moved is a change.
#[derive(Serialize)]
struct Placed<'a> {
    section: &'a str,
    track: &'a str,
    position: usize,
    #[serde(flatten)]
    def: &'a GuideBox,
}

fn placed(r: &Ruleset) -> Vec<(String, Placed<'_>)> {
    r.field_guide
        .sections
        .iter()
        .flat_map(|s| {
            s.tracks.iter().flat_map(move |t| {
                t.boxes.iter().enumerate().map(move |(i, b)| {
                    let placed = Placed {
                        section: &s.id,
                        track: &t.id,
                        position: i + 1,
                        def: b,
                    };
                    (b.id.clone(), placed)
                })
            })
        })
        .collect()
}

/// The track of each box of a track (not of a loose box), in either version (the new one's
/// first).
fn track_of_boxes<'a>(old: &'a Ruleset, new: &'a Ruleset) -> BTreeMap<&'a str, &'a str> {
    let mut map = BTreeMap::new();
    for r in [old, new] {
        for t in r.field_guide.sections.iter().flat_map(|s| &s.tracks) {
            for b in t.boxes.iter().filter(|_| !t.loose) {
                map.insert(b.id.as_str(), t.id.as_str());
            }
        }
    }
    map
}

/// Ids of loose boxes' tracks, in either version: a loose box added or removed is told as a
/// box, not also as a track.
fn loose_tracks(old: &Ruleset, new: &Ruleset) -> BTreeSet<String> {
    [old, new]
        .iter()
        .flat_map(|r| r.field_guide.sections.iter().flat_map(|s| &s.tracks))
        .filter(|t| t.loose)
        .map(|t| t.id.clone())
        .collect()
}

const PLACEMENT: [&str; 3] = ["section", "track", "position"];

/// The Field Guide as a whole: its title, its grid, and how many boxes it has.
#[derive(Serialize)]
struct SheetSummary<'a> {
    title: &'a str,
    columns: u32,
    boxes: usize,
}

fn sheet(r: &Ruleset) -> SheetSummary<'_> {
    let guide = &r.field_guide;
    SheetSummary {
        title: &guide.title,
        columns: guide.columns,
        boxes: guide
            .sections
            .iter()
            .flat_map(|s| &s.tracks)
            .map(|t| t.boxes.len())
            .sum(),
    }
}

/// The Encounter Deck as a whole: its name and its cards, counting copies.
#[derive(Serialize)]
struct DeckSummary<'a> {
    name: &'a str,
    size: u32,
}

fn deck(r: &Ruleset) -> DeckSummary<'_> {
    DeckSummary {
        name: &r.deck.name,
        size: r.deck.size,
    }
}

/// Every change of content from `old` to `new`, by what it means to a player ([`Matters`]:
/// totals, then what was added or removed, what plays differently, and what only reads or sits
/// differently), and within each in the order a designer reads a game: the game and its
/// numbers, the sheet (sections, tracks, boxes), the deck, the dice, the items and the
/// species.
pub fn content(old: &Ruleset, new: &Ruleset) -> Vec<Change> {
    let mut changes = in_reading_order(old, new);
    changes.sort_by_key(|c| c.matters);
    changes
}

fn in_reading_order(old: &Ruleset, new: &Ruleset) -> Vec<Change> {
    let mut c = Comparison {
        glossary: Glossary::of(old, new),
        out: Vec::new(),
    };
    let game = differing(&old.game, &new.game, &["id", "rules"]);
    if !game.is_empty() {
        c.change("game", &new.game.id, "changed", None, game);
    }
    let parameters = differing(&old.parameters, &new.parameters, &[]);
    if !parameters.is_empty() {
        c.change("parameter", "parameters", "changed", None, parameters);
    }
    let guide = differing(&sheet(old), &sheet(new), &[]);
    if !guide.is_empty() {
        c.change("sheet", "field-guide", "changed", None, guide);
    }
    c.keyed(
        "section",
        by_id(&old.field_guide.sections, |s| &s.id),
        by_id(&new.field_guide.sections, |s| &s.id),
        &["tracks"],
    );
    c.keyed("track", tracks(old), tracks(new), &[]);
    let loose = loose_tracks(old, new);
    c.out.retain(|change| {
        let whole = change.change == "added" || change.change == "removed";
        !(change.kind == "track" && whole && loose.contains(&change.id))
    });
    let first_box = c.out.len();
    c.keyed("box", placed(old), placed(new), &[]);
    let track_of = track_of_boxes(old, new);
    for change in &mut c.out[first_box..] {
        change.track = track_of.get(change.id.as_str()).map(|t| t.to_string());
        let moved_only = !change.fields.is_empty()
            && change
                .fields
                .iter()
                .all(|f| PLACEMENT.contains(&f.field.as_str()));
        if change.change == "changed" && moved_only {
            change.change = "moved";
        }
    }
    let totals = differing(&deck(old), &deck(new), &[]);
    if !totals.is_empty() {
        c.change("deck", "deck", "changed", None, totals);
    }
    c.keyed(
        "card",
        by_id(&old.deck.cards, |c| &c.id),
        by_id(&new.deck.cards, |c| &c.id),
        &["id"],
    );
    c.keyed(
        "dice",
        by_id(&old.dice, |d| &d.id),
        by_id(&new.dice, |d| &d.id),
        &["id"],
    );
    c.keyed(
        "item",
        by_id(&old.items, |i| &i.id),
        by_id(&new.items, |i| &i.id),
        &["id"],
    );
    c.keyed(
        "species",
        by_id(&old.species, |s| &s.id),
        by_id(&new.species, |s| &s.id),
        &["id"],
    );
    c.out
}
