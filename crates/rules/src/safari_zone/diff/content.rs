//! Content compared entry with entry, through the two rulesets: which entries were added,
//! removed, changed, moved or renamed, and which of their fields differ. Which entry is which
//! is [`super::identity`]'s to say; a file one version has and the other not is
//! [`super::files`]'.
//!
//! The comparison itself is generic (every entry is compared field by field as the ruleset
//! serialises it, so a field added to the format is compared without code here); what the
//! fields mean is left to [`super::words`], which puts each change in the designer's terms.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use serde_json::Value;

use super::Version;
use super::identity::{self, Matching, fields};
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
    /// For a box or card whose id is made from its place and changed with it (`moved`, or
    /// `changed` besides): the id it had before.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moved_from: Option<String>,
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
        before: Option<&str>,
        raw: Vec<RawField>,
    ) {
        let mut raw = raw;
        raw.sort_by_key(|(field, ..)| words::field_order(kind, field));
        // Two values that read alike (two ids a person knows by one name) are no change.
        raw.retain(|(field, old, new)| {
            !words::reads_same(kind, field, old.as_ref(), new.as_ref(), &self.glossary)
        });
        if raw.is_empty() && change == "changed" {
            return;
        }
        let renamed_from = before.filter(|_| change == "renamed");
        let moved_from = before.filter(|_| change != "renamed");
        let fields: Vec<FieldChange> = raw
            .into_iter()
            .map(|(field, old, new)| FieldChange {
                words: words::field(kind, &field, old.as_ref(), new.as_ref(), &self.glossary),
                field,
                old,
                new,
            })
            .collect();
        let words = words::change(kind, id, change, before, &fields, &self.glossary);
        self.out.push(Change {
            kind,
            id: id.to_string(),
            change,
            renamed_from: renamed_from.map(str::to_string),
            moved_from: moved_from.map(str::to_string),
            track: None,
            matters: matters::change(kind, change, &fields),
            fields,
            words,
        });
    }

    /// Compares keyed lists, each old entry with the new one `pairs` matches it with: added,
    /// removed, changed, moved and renamed entries.
    fn keyed<T: Serialize>(
        &mut self,
        kind: &'static str,
        old: Vec<(String, T)>,
        new: Vec<(String, T)>,
        pairs: &BTreeMap<String, String>,
        skip: &[&str],
    ) {
        let old_map: BTreeMap<&String, &T> = old.iter().map(|(k, v)| (k, v)).collect();
        let new_map: BTreeMap<&String, &T> = new.iter().map(|(k, v)| (k, v)).collect();
        let mut skip_ids = skip.to_vec();
        skip_ids.push("id");
        let mut matched = BTreeSet::new();
        let mut other_ids = Vec::new();
        for (id, value) in &old_map {
            let Some((to, now)) = pairs.get(*id).and_then(|to| new_map.get_key_value(to)) else {
                self.change(kind, id, "removed", None, Vec::new());
                continue;
            };
            matched.insert(*to);
            let raw = differing(*value, *now, &skip_ids);
            if id == to {
                self.change(kind, id, "changed", None, raw);
            } else {
                other_ids.push((*id, *to, raw));
            }
        }
        for (from, to, raw) in other_ids {
            let how = match kind {
                "box" if identity::is_placed(from) && identity::is_placed(to) => {
                    let placement = raw.iter().all(|(f, ..)| PLACEMENT.contains(&f.as_str()));
                    if placement { "moved" } else { "changed" }
                }
                "card" if new_map.contains_key(from) => "moved",
                _ => "renamed",
            };
            // A box whose id changed with its track's, in the same place, is no change.
            if kind == "box" && how != "renamed" && raw.is_empty() {
                continue;
            }
            self.change(kind, to, how, Some(from), raw);
        }
        for (id, _) in new_map.iter().filter(|(id, _)| !matched.contains(*id)) {
            self.change(kind, id, "added", None, Vec::new());
        }
    }
}

fn by_id<T>(items: &[T], id: impl Fn(&T) -> &String) -> Vec<(String, &T)> {
    items.iter().map(|item| (id(item).clone(), item)).collect()
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

/// Every box where it sits, its section and track as the new version names them.
fn placed<'a>(r: &'a Ruleset, m: Option<&'a Matching>) -> Vec<(String, Placed<'a>)> {
    let named = move |map: fn(&Matching) -> &BTreeMap<String, String>, id: &'a str| -> &'a str {
        m.and_then(|m| map(m).get(id)).map_or(id, String::as_str)
    };
    r.field_guide
        .sections
        .iter()
        .flat_map(move |s| {
            s.tracks.iter().flat_map(move |t| {
                t.boxes.iter().enumerate().map(move |(i, b)| {
                    let placed = Placed {
                        section: named(|m| &m.sections, &s.id),
                        track: named(|m| &m.tracks, &t.id),
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

/// Every change of content from `old` to `new`, renames first (one line each, before what
/// they would otherwise show up in), then by what it means to a player ([`Matters`]: totals,
/// then what was added or removed, what plays differently, and what only reads or sits
/// differently), and within each in the order a designer reads a game: the game and its
/// numbers, the sheet (sections, tracks, boxes), the deck, the dice, the items, the species
/// and the game's other files.
pub fn content(old: &Version, new: &Version, matching: &Matching) -> Vec<Change> {
    let applied = matching.applied(old.ruleset);
    let mut changes = in_reading_order(&applied, new.ruleset, matching);
    changes.extend(super::files::changes(&old.files, &new.files));
    changes.sort_by_key(|c| (c.change != "renamed", c.matters));
    changes
}

fn in_reading_order(old: &Ruleset, new: &Ruleset, m: &Matching) -> Vec<Change> {
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
        &m.sections,
        &["tracks"],
    );
    let section_of = |id: &str| m.sections.get(id).cloned().unwrap_or(id.to_string());
    let tracks = |r: &Ruleset, f: &dyn Fn(&str) -> String| {
        let all = identity::tracks(r, f);
        all.into_iter()
            .map(|t| (t.id.clone(), t))
            .collect::<Vec<_>>()
    };
    c.keyed(
        "track",
        tracks(old, &section_of),
        tracks(new, &str::to_string),
        &m.tracks,
        &[],
    );
    let loose = loose_tracks(old, new);
    c.out.retain(|change| {
        let whole = change.change == "added" || change.change == "removed";
        !(change.kind == "track" && whole && loose.contains(&change.id))
    });
    let first_box = c.out.len();
    c.keyed(
        "box",
        placed(old, Some(m)),
        placed(new, None),
        &m.boxes,
        &[],
    );
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
        &m.cards,
        &["id"],
    );
    c.keyed(
        "dice",
        by_id(&old.dice, |d| &d.id),
        by_id(&new.dice, |d| &d.id),
        &m.dice,
        &["id"],
    );
    c.keyed(
        "item",
        by_id(&old.items, |i| &i.id),
        by_id(&new.items, |i| &i.id),
        &m.items,
        &["id"],
    );
    c.keyed(
        "species",
        by_id(&old.species, |s| &s.id),
        by_id(&new.species, |s| &s.id),
        &m.species,
        &["id"],
    );
    c.out
}
