//! Content changes in the designer's words, from what the ruleset means rather than how it is
//! written in JSON: "areas.area-1#6 now gives Area 4 Key", "card nidoran-m: capture rate 11 ->
//! 12", "Safari Balls per player: 30 -> 25".
//!
//! Items and species are called by their display names, tracks by their titles, die faces and
//! fills by what happens at the table. Every field of the ruleset format has its wording here
//! ([`KNOWN_FIELDS`] lists them, and a test holds the format to it); a field added to the
//! format later reads `field: old -> new` until it gets one.

use std::collections::BTreeMap;

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::content::FieldChange;
use crate::safari_zone::model::Step;
use crate::safari_zone::ruleset::{
    Card, Criteria, DiceSet, Evolution, Face, Fill, GuideBox, Item, Requirement, Reward, Ruleset,
    Species,
};

/// The fields of each kind of entry that have their own wording.
pub const KNOWN_FIELDS: &[(&str, &[&str])] = &[
    ("game", &["name", "versions"]),
    (
        "parameter",
        &[
            "players_min",
            "players_max",
            "turns",
            "safari_balls",
            "rolls_per_turn",
            "hazard_limit",
            "event_fills",
        ],
    ),
    ("sheet", &["title", "columns", "boxes"]),
    ("section", &["title", "column", "row", "width", "height"]),
    ("track", &["section", "title", "loose", "flow", "boxes"]),
    (
        "box",
        &[
            "section", "track", "position", "shape", "style", "fill", "requires", "rewards", "vp",
            "label",
        ],
    ),
    ("deck", &["name", "size"]),
    (
        "card",
        &["species", "capture_rate", "criteria", "copies", "flavor"],
    ),
    ("dice", &["name", "role", "dice"]),
    ("item", &["name", "kind", "effects"]),
    ("species", &["name", "dex", "evolutions"]),
];

/// Names of things, from both versions (the new one's when they differ), and the entries
/// themselves, to describe what was added or removed.
pub struct Glossary<'a> {
    old: &'a Ruleset,
    new: &'a Ruleset,
    items: BTreeMap<&'a str, &'a str>,
    species: BTreeMap<&'a str, &'a str>,
    tracks: BTreeMap<&'a str, &'a str>,
}

impl<'a> Glossary<'a> {
    pub fn of(old: &'a Ruleset, new: &'a Ruleset) -> Glossary<'a> {
        let mut g = Glossary {
            old,
            new,
            items: BTreeMap::new(),
            species: BTreeMap::new(),
            tracks: BTreeMap::new(),
        };
        for r in [old, new] {
            for i in &r.items {
                g.items.insert(&i.id, &i.name);
            }
            for s in &r.species {
                g.species.insert(&s.id, &s.name);
            }
            for t in r.field_guide.sections.iter().flat_map(|s| &s.tracks) {
                if let Some(title) = &t.title {
                    g.tracks.insert(&t.id, title);
                }
            }
        }
        g
    }

    pub fn item(&self, id: &str) -> String {
        self.items.get(id).map_or(id, |n| n).to_string()
    }

    pub fn species(&self, id: &str) -> String {
        self.species.get(id).map_or(id, |n| n).to_string()
    }

    /// A track by its title when it has one ("Area 1 (East)"), else by its id.
    pub fn track(&self, id: &str) -> String {
        self.tracks.get(id).map_or(id, |n| n).to_string()
    }

    fn requirement(&self, r: &Requirement) -> String {
        match r {
            Requirement::Item { item } => self.item(item),
            Requirement::Species { species } => self.species(species),
            Requirement::Area { track } => format!("a box of {} filled", self.track(track)),
            Requirement::Box { id } => format!("box {id} filled"),
            Requirement::Vp { at_least } => format!("{at_least} VP"),
        }
    }

    fn reward(&self, r: &Reward) -> String {
        match r {
            Reward::Item { item } => self.item(item),
            Reward::Species { species } => self.species(species),
            Reward::Habitat { habitat } => match word(habitat).as_str() {
                "any" => "a habitat of either kind".to_string(),
                kind => format!("a {kind} habitat"),
            },
        }
    }

    fn fill(&self, f: &Fill) -> String {
        match f {
            Fill::Dice { face } => {
                let face = capitalised(&word(face));
                let article = if face.starts_with(['A', 'E', 'I', 'O', 'U']) {
                    "an"
                } else {
                    "a"
                };
                format!("{article} {face} face")
            }
            Fill::Turn => "the start of each turn".to_string(),
            Fill::Ball => "each Safari Ball thrown".to_string(),
            Fill::Collect { species } => format!(
                "collecting {}",
                either(species.iter().map(|s| self.species(s)))
            ),
            Fill::Use { item } => format!("using {}", self.item(item)),
            Fill::Obtain { items } => {
                format!("obtaining {}", either(items.iter().map(|i| self.item(i))))
            }
            Fill::Free => "nothing (free once the boxes before it are filled)".to_string(),
            Fill::Bonus => "a bonus chain only".to_string(),
        }
    }

    fn criteria(&self, c: &Criteria) -> String {
        let mut needs = Vec::new();
        if c.grass > 0 {
            needs.push(format!("{} grass", c.grass));
        }
        if c.water > 0 {
            needs.push(format!("{} water", c.water));
        }
        if let Some(area) = &c.area {
            needs.push(format!("{} entered", self.track(area)));
        }
        if let Some(item) = &c.item {
            needs.push(self.item(item));
        }
        if needs.is_empty() {
            "nothing".to_string()
        } else {
            both(needs.into_iter())
        }
    }

    fn evolution(&self, e: &Evolution) -> String {
        match &e.item {
            Some(item) => format!("into {} with {}", self.species(&e.into), self.item(item)),
            None => format!("into {} (collected again)", self.species(&e.into)),
        }
    }

    fn guide_box(&self, r: &Ruleset, id: &str) -> Option<String> {
        let (track, b) = r
            .field_guide
            .sections
            .iter()
            .flat_map(|s| &s.tracks)
            .find_map(|t| t.boxes.iter().find(|b| b.id == id).map(|b| (t, b)))?;
        let mut parts = Vec::new();
        if !track.loose {
            parts.push(format!("in {}", self.track(&track.id)));
        }
        parts.extend(self.box_parts(b));
        Some(parts.join(", "))
    }

    fn box_parts(&self, b: &GuideBox) -> Vec<String> {
        let mut parts = vec![format!("filled by {}", self.fill(&b.fill))];
        if !b.requires.is_empty() {
            parts.push(format!(
                "needs {}",
                both(b.requires.iter().map(|r| self.requirement(r)))
            ));
        }
        if !b.rewards.is_empty() {
            parts.push(format!(
                "gives {}",
                both(b.rewards.iter().map(|r| self.reward(r)))
            ));
        }
        if b.vp > 0 {
            parts.push(format!("{} VP", b.vp));
        }
        parts
    }

    /// A box as a player knows it: by its label, what it gives, its VP or its style ("the
    /// Super Rod box", "the "Summit" box", "the 2 VP box").
    fn box_name(&self, b: &GuideBox) -> String {
        let gives = |r: &Reward| match r {
            Reward::Item { item } => self.item(item),
            Reward::Species { species } => self.species(species),
            Reward::Habitat { habitat } => format!("{} habitat", word(habitat)),
        };
        let name = match (&b.label, b.rewards.as_slice(), b.vp) {
            (Some(label), ..) => format!("\"{label}\""),
            (None, [], 0) => match word(&b.style).as_str() {
                "plain" => return "the box".to_string(),
                style => style.to_string(),
            },
            (None, [], vp) => format!("{vp} VP"),
            (None, rewards, _) => both(rewards.iter().map(gives)),
        };
        format!("the {name} box")
    }

    /// What an entry added (or removed) is, in a few words.
    fn describe(&self, kind: &str, id: &str, r: &Ruleset) -> Option<String> {
        match kind {
            "box" => self.guide_box(r, id),
            "track" => {
                let t = r
                    .field_guide
                    .sections
                    .iter()
                    .flat_map(|s| &s.tracks)
                    .find(|t| t.id == id)?;
                let title = t
                    .title
                    .as_deref()
                    .map(|t| format!("\"{t}\", "))
                    .unwrap_or_default();
                Some(format!("{title}{}", count(t.boxes.len(), "box", "boxes")))
            }
            "section" => {
                let s = r.field_guide.sections.iter().find(|s| s.id == id)?;
                Some(format!(
                    "\"{}\", {}",
                    s.title,
                    count(s.tracks.len(), "track", "tracks")
                ))
            }
            "card" => {
                let c: &Card = r.deck.cards.iter().find(|c| c.id == id)?;
                Some(format!(
                    "{}, capture rate {}, {}, needs {}",
                    self.species(&c.species),
                    c.capture_rate,
                    count(c.copies as usize, "copy", "copies"),
                    self.criteria(&c.criteria)
                ))
            }
            "dice" => {
                let d: &DiceSet = r.dice.iter().find(|d| d.id == id)?;
                Some(format!(
                    "\"{}\", {} {}",
                    d.name,
                    count(d.dice.len(), "die", "dice"),
                    word(&d.role)
                ))
            }
            "item" => {
                let i: &Item = r.items.iter().find(|i| i.id == id)?;
                let effect = match i.effects.as_slice() {
                    [] => String::new(),
                    steps => format!(", {}", effects(steps)),
                };
                Some(format!("{} ({}{effect})", i.name, word(&i.kind)))
            }
            "species" => {
                let s: &Species = r.species.iter().find(|s| s.id == id)?;
                let evolves = if s.evolutions.is_empty() {
                    String::new()
                } else {
                    format!(
                        ", evolves {}",
                        either(s.evolutions.iter().map(|e| self.evolution(e)))
                    )
                };
                Some(format!("{}{evolves}", s.name))
            }
            _ => None,
        }
    }
}

/// A serialised enum value as a word: `reroll-hazard` reads "reroll hazard".
/// An item's steps in words: "lock capture die, +1 to capture rolls".
fn effects(steps: &[Step]) -> String {
    let words: Vec<String> = steps
        .iter()
        .map(|step| match step {
            Step::CaptureBonus(n) => format!("+{n} to capture rolls"),
            Step::Habitat(h) => format!("{} habitat", word(h)),
            other => other.name().replace('-', " "),
        })
        .collect();
    words.join(", ")
}

fn word<T: serde::Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(Value::String(s)) => s.replace(['-', '_'], " "),
        Ok(other) => plain(&other),
        Err(_) => String::new(),
    }
}

fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    chars.next().map_or(String::new(), |c| {
        c.to_uppercase().chain(chars).collect::<String>()
    })
}

fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// "a, b or c".
fn either(parts: impl Iterator<Item = String>) -> String {
    joined(parts, "or")
}

/// "a, b and c".
fn both(parts: impl Iterator<Item = String>) -> String {
    joined(parts, "and")
}

fn joined(parts: impl Iterator<Item = String>, last: &str) -> String {
    let parts: Vec<String> = parts.collect();
    match parts.as_slice() {
        [] => "nothing".to_string(),
        [one] => one.clone(),
        [init @ .., end] => format!("{} {last} {end}", init.join(", ")),
    }
}

/// A JSON value for people: strings without quotes, lists comma-separated, objects as
/// `key value` pairs, nothing for null.
fn plain(v: &Value) -> String {
    match v {
        Value::Null => "none".to_string(),
        Value::String(s) => s.clone(),
        Value::Array(a) => a.iter().map(plain).collect::<Vec<_>>().join(", "),
        Value::Object(o) => o
            .iter()
            .map(|(k, v)| format!("{k} {}", plain(v)))
            .collect::<Vec<_>>()
            .join(", "),
        other => other.to_string(),
    }
}

fn typed<T: DeserializeOwned>(v: Option<&Value>) -> Option<T> {
    serde_json::from_value(v?.clone()).ok()
}

fn quoted(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => format!("\"{s}\""),
        Some(Value::Null) | None => "none".to_string(),
        Some(other) => plain(other),
    }
}

fn number(v: Option<&Value>) -> String {
    v.map_or("none".to_string(), plain)
}

/// `old -> new` of two plain values after `what`.
fn arrow(what: &str, old: String, new: String) -> String {
    format!("{what} {old} -> {new}")
}

/// Changes of a list: what it now has that it had not, what it no longer has.
fn list_change<T: DeserializeOwned + PartialEq>(
    old: Option<&Value>,
    new: Option<&Value>,
    now: &str,
    no_longer: &str,
    say: impl Fn(&T) -> String,
) -> Option<String> {
    let old: Vec<T> = typed(old).unwrap_or_default();
    let new: Vec<T> = typed(new).unwrap_or_default();
    let gained: Vec<String> = new.iter().filter(|x| !old.contains(x)).map(&say).collect();
    let lost: Vec<String> = old.iter().filter(|x| !new.contains(x)).map(&say).collect();
    if let ([one_gained], [one_lost]) = (gained.as_slice(), lost.as_slice()) {
        return Some(format!("{now} {one_gained} (was {one_lost})"));
    }
    let mut parts = Vec::new();
    if !gained.is_empty() {
        parts.push(format!("{now} {}", both(gained.into_iter())));
    }
    if !lost.is_empty() {
        parts.push(format!("{no_longer} {}", both(lost.into_iter())));
    }
    if parts.is_empty() {
        // The same entries in another order.
        parts.push(format!(
            "{now} {} in another order",
            both(new.iter().map(&say))
        ));
    }
    Some(parts.join(", and "))
}

fn parameter(field: &str, old: Option<&Value>, new: Option<&Value>) -> Option<String> {
    if field == "event_fills" {
        // A ruleset written before the field fills as the rulebook does.
        let reading = |v: Option<&Value>| match v.and_then(Value::as_str) {
            Some("one-plus-trigger-per-section") => "one box and one trigger box",
            _ => "one box (the rulebook's)",
        };
        return Some(format!(
            "what an event fills in each section: {} -> {}",
            reading(old),
            reading(new)
        ));
    }
    let what = match field {
        "players_min" => "fewest players",
        "players_max" => "most players",
        "turns" => "turns per player",
        "safari_balls" => "Safari Balls per player",
        "rolls_per_turn" => "expedition rolls per turn",
        "hazard_limit" => "hazards that end a turn",
        _ => return None,
    };
    Some(format!("{what}: {} -> {}", number(old), number(new)))
}

fn criteria_change(old: &Criteria, new: &Criteria, g: &Glossary) -> String {
    let mut parts = Vec::new();
    for (what, a, b) in [
        ("grass", old.grass, new.grass),
        ("water", old.water, new.water),
    ] {
        if a != b {
            let habitats = if b == 1 { "habitat" } else { "habitats" };
            parts.push(format!("needs {b} {what} {habitats} (was {a})"));
        }
    }
    let optional =
        |a: &Option<String>, b: &Option<String>, say: &dyn Fn(&str) -> String| match (a, b) {
            (None, Some(b)) => Some(format!("now needs {}", say(b))),
            (Some(a), None) => Some(format!("no longer needs {}", say(a))),
            (Some(a), Some(b)) if a != b => Some(format!("needs {} instead of {}", say(b), say(a))),
            _ => None,
        };
    parts.extend(optional(&old.area, &new.area, &|t| {
        format!("{} entered", g.track(t))
    }));
    parts.extend(optional(&old.item, &new.item, &|i| g.item(i)));
    parts.join(", ")
}

fn dice_change(old: &[Vec<Face>], new: &[Vec<Face>]) -> String {
    let face = |f: &Face| match f {
        Face::Number(n) => n.to_string(),
        Face::Action(a) => word(a),
    };
    let faces = |die: &[Face]| die.iter().map(face).collect::<Vec<_>>().join(", ");
    // What changed on each die: the faces that differ by position, or all its faces when it
    // has another number of them.
    let die_change = |a: &[Face], b: &[Face]| -> String {
        if a.len() != b.len() {
            return format!(
                "{} -> {} faces: {} -> {}",
                a.len(),
                b.len(),
                faces(a),
                faces(b)
            );
        }
        let differ: Vec<String> = a
            .iter()
            .zip(b)
            .enumerate()
            .filter(|(_, (x, y))| x != y)
            .map(|(i, (x, y))| format!("face {} {} -> {}", i + 1, face(x), face(y)))
            .collect();
        differ.join(", ")
    };
    let mut parts = Vec::new();
    if old.len() != new.len() {
        parts.push(format!("{} -> {} dice", old.len(), new.len()));
    }
    // Dice changed alike are named together: "every die: face 6 hazard -> water".
    let mut alike: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, (a, b)) in old.iter().zip(new).enumerate().filter(|(_, (a, b))| a != b) {
        let change = die_change(a, b);
        match alike.iter_mut().find(|(c, _)| *c == change) {
            Some((_, dice)) => dice.push(i + 1),
            None => alike.push((change, vec![i + 1])),
        }
    }
    let shared = old.len().min(new.len());
    for (change, dice) in alike {
        let which = match dice.as_slice() {
            [one] if shared > 1 => format!("die {one}"),
            _ if dice.len() == shared => "every die".to_string(),
            many => format!(
                "dice {}",
                many.iter()
                    .map(|d| d.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        parts.push(format!("{which}: {change}"));
    }
    for (i, b) in new.iter().enumerate().skip(old.len()) {
        parts.push(format!("new die {}: faces {}", i + 1, faces(b)));
    }
    parts.join("; ")
}

/// The order fields are told in: as [`KNOWN_FIELDS`] lists them (the game's own order),
/// unknown fields last.
pub(crate) fn field_order(kind: &str, field: &str) -> usize {
    KNOWN_FIELDS
        .iter()
        .find(|(k, _)| *k == kind)
        .and_then(|(_, fields)| fields.iter().position(|f| *f == field))
        .unwrap_or(usize::MAX)
}

/// One field's change in words.
pub fn field(
    kind: &str,
    field: &str,
    old: Option<&Value>,
    new: Option<&Value>,
    g: &Glossary,
) -> String {
    meaning(kind, field, old, new, g)
        .unwrap_or_else(|| arrow(&format!("{field}:"), number(old), number(new)))
}

/// A known field's change in words; none for a field this module does not know, or values
/// that are not of the format's types.
fn meaning(
    kind: &str,
    field: &str,
    old: Option<&Value>,
    new: Option<&Value>,
    g: &Glossary,
) -> Option<String> {
    match (kind, field) {
        ("game", "name") => Some(arrow("name", quoted(old), quoted(new))),
        ("game", "versions") => {
            let a: BTreeMap<String, String> = typed(old).unwrap_or_default();
            let b: BTreeMap<String, String> = typed(new).unwrap_or_default();
            // The content's id differs whenever anything does: the changes below say what.
            let keys: std::collections::BTreeSet<&String> = a
                .keys()
                .chain(b.keys())
                .filter(|k| k.as_str() != crate::load::CONTENT_VERSION)
                .collect();
            let none = "none".to_string();
            Some(
                keys.into_iter()
                    .filter(|k| a.get(*k) != b.get(*k))
                    .map(|k| {
                        format!(
                            "{k} version {} -> {}",
                            a.get(k).unwrap_or(&none),
                            b.get(k).unwrap_or(&none)
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(", "),
            )
        }
        ("parameter", f) => parameter(f, old, new),
        ("section", "title")
        | ("track", "title")
        | ("box", "label")
        | ("dice", "name")
        | ("item", "name")
        | ("species", "name")
        | ("deck", "name")
        | ("sheet", "title") => Some(arrow(field, quoted(old), quoted(new))),
        ("deck", "size") => Some(format!(
            "{} -> {} cards, counting copies",
            number(old),
            number(new)
        )),
        ("sheet", "boxes") => Some(format!("{} -> {} boxes", number(old), number(new))),
        ("sheet", "columns") => Some(arrow("grid columns", number(old), number(new))),
        ("section", "column" | "row" | "width" | "height") => {
            Some(arrow(&format!("grid {field}"), number(old), number(new)))
        }
        ("track", "section") | ("box", "section") => Some(format!(
            "now in section {} (was {})",
            number(new),
            number(old)
        )),
        ("box", "track") => {
            let say = |v: Option<&Value>| g.track(&number(v));
            Some(format!("now in track {} (was {})", say(new), say(old)))
        }
        ("box", "position") => Some(arrow("position in its track", number(old), number(new))),
        ("track", "boxes") => Some(format!("{} -> {} boxes", number(old), number(new))),
        ("track", "loose") => Some(match typed::<bool>(new) {
            Some(true) => "now a loose box, filled in any order".to_string(),
            _ => "now a track, filled in order".to_string(),
        }),
        ("track", "flow")
        | ("box", "shape")
        | ("box", "style")
        | ("dice", "role")
        | ("item", "kind") => Some(arrow(
            field,
            old.map_or("none".to_string(), word),
            new.map_or("none".to_string(), word),
        )),
        ("item", "effects") => {
            let say = |v: Option<&Value>| match typed::<Vec<Step>>(v) {
                Some(steps) if !steps.is_empty() => effects(&steps),
                _ => "none".to_string(),
            };
            Some(arrow("effect", say(old), say(new)))
        }
        ("box", "fill") => {
            let (a, b) = (typed::<Fill>(old)?, typed::<Fill>(new)?);
            Some(format!("now filled by {} (was {})", g.fill(&b), g.fill(&a)))
        }
        ("box", "requires") => {
            list_change::<Requirement>(old, new, "now needs", "no longer needs", |r| {
                g.requirement(r)
            })
        }
        ("box", "rewards") => {
            list_change::<Reward>(old, new, "now gives", "no longer gives", |r| g.reward(r))
        }
        ("box", "vp") => Some(arrow("VP", number(old), number(new))),
        ("card", "species") => {
            let say = |v: Option<&Value>| g.species(&number(v));
            Some(arrow("species", say(old), say(new)))
        }
        ("card", "capture_rate") => Some(arrow("capture rate", number(old), number(new))),
        ("card", "copies") => Some(arrow("copies", number(old), number(new))),
        ("card", "flavor") => Some("flavour text rewritten".to_string()),
        ("card", "criteria") => {
            let (a, b) = (typed::<Criteria>(old)?, typed::<Criteria>(new)?);
            Some(criteria_change(&a, &b, g))
        }
        ("dice", "dice") => {
            let (a, b) = (typed::<Vec<Vec<Face>>>(old)?, typed::<Vec<Vec<Face>>>(new)?);
            Some(dice_change(&a, &b))
        }
        ("species", "dex") => Some(arrow("dex number", number(old), number(new))),
        ("species", "evolutions") => {
            list_change::<Evolution>(old, new, "now evolves", "no longer evolves", |e| {
                g.evolution(e)
            })
        }
        _ => None,
    }
}

/// How a kind of entry is named at the start of a line: a box by its id alone (ids of boxes
/// say where they are), the deck and the sheet by their names (a game has one of each), the
/// others by kind and id.
fn subject(kind: &str, id: &str, g: &Glossary) -> String {
    match kind {
        "box" => id.to_string(),
        "game" => format!("game {id}"),
        "deck" => g.new.deck.name.clone(),
        "sheet" => g.new.field_guide.title.clone(),
        _ => format!("{kind} {id}"),
    }
}

/// Whether two values of a field read alike in words although they differ (two ids a person
/// knows by one name, "Old Rod" and "Old Rod"): for a reader that is no change.
pub fn reads_same(
    kind: &str,
    field: &str,
    old: Option<&Value>,
    new: Option<&Value>,
    g: &Glossary,
) -> bool {
    let lines = |parts: Vec<String>| parts.join("\n");
    let say = |v: Option<&Value>| -> Option<String> {
        match (kind, field) {
            ("box", "fill") => typed::<Fill>(v).map(|f| g.fill(&f)),
            ("box", "requires") => typed::<Vec<Requirement>>(v)
                .map(|list| lines(list.iter().map(|r| g.requirement(r)).collect())),
            ("box", "rewards") => typed::<Vec<Reward>>(v)
                .map(|list| lines(list.iter().map(|r| g.reward(r)).collect())),
            ("box", "track") => Some(g.track(&number(v))),
            ("card", "species") => Some(g.species(&number(v))),
            ("card", "criteria") => typed::<Criteria>(v).map(|c| g.criteria(&c)),
            ("species", "evolutions") => typed::<Vec<Evolution>>(v)
                .map(|list| lines(list.iter().map(|e| g.evolution(e)).collect())),
            _ => None,
        }
    };
    matches!((say(old), say(new)), (Some(a), Some(b)) if a == b)
}

/// `prefix#n` of an id made from a place, as the place's last part and the number:
/// `bag.rods#5` is ("rods", "5").
fn place(id: &str) -> (&str, &str) {
    let (prefix, n) = id.rsplit_once('#').unwrap_or((id, ""));
    (prefix.rsplit('.').next().unwrap_or(prefix), n)
}

/// A box or card whose id is made from its place, moved: "the Super Rod box moved from rods
/// #5 to #6", "card magikarp is now magikarp-2".
fn moved(kind: &str, id: &str, from: &str, phrases: &[&str], g: &Glossary) -> String {
    let rest = if phrases.is_empty() {
        String::new()
    } else {
        format!("; {}", phrases.join("; "))
    };
    if kind == "card" {
        let what = g
            .describe(kind, id, g.new)
            .map(|w| format!(" ({w})"))
            .unwrap_or_default();
        return format!("card {from} is now {id}{what}{rest}");
    }
    let name = g
        .new
        .field_guide
        .sections
        .iter()
        .flat_map(|s| &s.tracks)
        .flat_map(|t| &t.boxes)
        .find(|b| b.id == id)
        .map_or_else(|| format!("box {from}"), |b| g.box_name(b));
    let ((was_in, was), (now_in, now)) = (place(from), place(id));
    let to = if was_in == now_in {
        format!("#{now}")
    } else {
        format!("{now_in} #{now}")
    };
    format!("{name} moved from {was_in} #{was} to {to}")
}

/// A phrase that reads on from the subject ("X now gives Y") rather than after a colon ("X:
/// VP 3 -> 5").
fn reads_on(phrase: &str) -> bool {
    ["now ", "no longer ", "needs "]
        .iter()
        .any(|p| phrase.starts_with(p))
}

/// The whole change of an entry in one line; `renamed_from` is the id it had before, when it
/// was renamed or moved.
pub fn change(
    kind: &str,
    id: &str,
    change: &str,
    renamed_from: Option<&str>,
    fields: &[FieldChange],
    g: &Glossary,
) -> String {
    let phrases: Vec<&str> = fields.iter().map(|f| f.words.as_str()).collect();
    match change {
        "added" => match g.describe(kind, id, g.new) {
            Some(what) => format!("new {}: {what}", subject(kind, id, g)),
            None => format!("new {}", subject(kind, id, g)),
        },
        "removed" => match g.describe(kind, id, g.old) {
            Some(what) => format!("{} removed (was: {what})", subject(kind, id, g)),
            None => format!("{} removed", subject(kind, id, g)),
        },
        "renamed" => {
            let from = renamed_from.unwrap_or_default();
            let head = format!("{} renamed to {id}", subject(kind, from, g));
            if phrases.is_empty() {
                head
            } else {
                format!("{head}; {}", phrases.join("; "))
            }
        }
        "moved" if renamed_from.is_some() => {
            let placement = ["section", "track", "position"];
            let others: Vec<&str> = fields
                .iter()
                .filter(|f| !placement.contains(&f.field.as_str()))
                .map(|f| f.words.as_str())
                .collect();
            moved(kind, id, renamed_from.unwrap_or_default(), &others, g)
        }
        _ if kind == "parameter" => phrases.join("; "),
        _ => {
            let subject = match renamed_from {
                Some(from) => format!("{} (was {from})", subject(kind, id, g)),
                None => subject(kind, id, g),
            };
            match phrases.first() {
                Some(first) if reads_on(first) => format!("{subject} {}", phrases.join("; ")),
                _ => format!("{subject}: {}", phrases.join("; ")),
            }
        }
    }
}
