//! Boxes that wait for an event that happens a bounded number of times.
//!
//! An event (obtaining an item, collecting a species) fills, in each section, the first open
//! box it names and the first open trigger box (docs/rules.md). Some events happen a bounded
//! number of times a game: each item is obtained once, and a species is caught at most once
//! per card of it (a caught card leaves the deck) and given at most once per box giving it. Boxes of one section that
//! wait for such an event compete for it, and the least fixpoint, which assumes every event
//! can happen as often as needed, calls them all reachable.
//!
//! For each competing group (one section, trigger boxes or the others, one cause, no other box
//! of the section answering the same events) this plays the events as the engine does, with
//! the group's *eager* boxes only: those that wait for nothing but the event (no requirement
//! but the event itself, which holds whenever it happens, and every box before them in their
//! track is eager too). An eager box is open as soon as
//! the one before it is filled, so at every event some eager box no later (in the engine's
//! order) than the one this play fills is open, whatever else happened: no event can ever
//! reach a box of the group past the one the last event fills here. Those boxes are
//! exhausted: never filled, in any game. The play is exact for eager boxes and leaves every
//! other box alone, so no box that some game fills is called exhausted.

use std::collections::{HashMap, HashSet};

use crate::model::*;

/// The boxes a report names.
const SHOWN: usize = 3;

/// A box no event of its cause can ever reach.
#[derive(Debug, Clone)]
pub struct Exhausted {
    pub r#box: BoxId,
    /// The event, as a designer reads it: "obtaining `key`", "collecting `golduck`".
    pub event: String,
    /// How many times the event can happen in a game.
    pub bound: usize,
    /// Where that bound comes from, for a species (", its 2 cards ..."), or nothing.
    pub sources: String,
    /// How many occurrences the boxes before it take, and the first few of those boxes.
    pub taken: usize,
    pub takers: Vec<BoxId>,
}

pub fn exhausted(game: &Game) -> Vec<Exhausted> {
    competition(game).0
}

/// The exhausted boxes, and for each box of a group waiting for one event, how many
/// occurrences of it the boxes of its section take before it can be filled, itself included
/// (when more than one): the `n`th occurrence is the earliest that can fill it.
pub fn competition(game: &Game) -> (Vec<Exhausted>, HashMap<BoxId, Taken>) {
    let guide = &game.guide;
    // The engine's order: sections, their tracks, their boxes.
    let order: Vec<BoxId> = guide
        .sections
        .iter()
        .flat_map(|s| &s.tracks)
        .flat_map(|t| &guide.track(*t).boxes)
        .copied()
        .collect();
    // A caught card leaves the deck: a species is caught at most as many times as its
    // cards have copies.
    let mut copies = vec![0usize; game.species.len()];
    for card in &game.deck.cards {
        if let Some(s) = card.species.value {
            copies[s.index()] = copies[s.index()].saturating_add(card.copies.value as usize);
        }
    }
    let mut givers = vec![0usize; game.species.len()];
    for def in &guide.boxes {
        for reward in &def.rewards {
            if let Reward::Species(s) = reward.value {
                givers[s.index()] += 1;
            }
        }
    }
    let bound = |cause: &Cause| -> Option<(usize, String)> {
        match cause {
            Cause::Obtain(items) if !items.is_empty() => Some((
                items.len(),
                format!(
                    "obtaining {}",
                    items
                        .iter()
                        .map(|i| format!("`{}`", game.item(*i).id))
                        .collect::<Vec<_>>()
                        .join(" or ")
                ),
            )),
            Cause::Collect(species) => match species.as_slice() {
                [s] => Some((
                    copies[s.index()].saturating_add(givers[s.index()]),
                    format!("collecting `{}`", game.species(*s).id),
                )),
                _ => None,
            },
            _ => None,
        }
    };
    // Groups by (section, trigger or not), in the engine's order.
    let mut slots: HashMap<(SectionId, bool), Vec<BoxId>> = HashMap::new();
    let mut slot_order: Vec<(SectionId, bool)> = Vec::new();
    for b in &order {
        let def = guide.get(*b);
        let key = (def.section, def.style == Style::Trigger);
        slots
            .entry(key)
            .or_insert_with(|| {
                slot_order.push(key);
                Vec::new()
            })
            .push(*b);
    }
    // The first box naming each event in each slot; those that wait for nothing else from
    // the start of their track are filled by the event's first occurrence.
    let mut first_naming: HashMap<(SectionId, bool, Held), BoxId> = HashMap::new();
    for b in &order {
        let def = guide.get(*b);
        let named: Vec<Held> = match &def.cause.value {
            Cause::Collect(list) => list.iter().map(|s| Held::Species(*s)).collect(),
            Cause::Obtain(list) => list.iter().map(|i| Held::Item(*i)).collect(),
            _ => Vec::new(),
        };
        for r in named {
            first_naming
                .entry((def.section, def.style == Style::Trigger, r))
                .or_insert(*b);
        }
    }
    let mut first: HashMap<Held, Vec<BoxId>> = HashMap::new();
    for ((_, _, r), b) in &first_naming {
        let def = guide.get(*b);
        let single = matches!(&def.cause.value, Cause::Collect(l) if l.len() == 1)
            || matches!(&def.cause.value, Cause::Obtain(l) if l.len() == 1);
        if single
            && def.index == 0
            && def.requires.iter().all(|q| is_the_event(&q.value, &def.cause.value))
        {
            first.entry(*r).or_default().push(*b);
        }
    }
    let in_cascades = cascade_bonus_boxes(guide, |_| true);
    let top_level_box = |def: &BoxDef| outside_cascades(guide, def, &in_cascades);
    // A box that gives an item it needs held (filled by obtaining it, or requiring it) never
    // obtains it: the item is held already.
    let needs_item = |def: &BoxDef, i: ItemId| {
        def.cause.value == Cause::Obtain(vec![i])
            || def.requires.iter().any(|r| r.value == Requirement::Item(i))
    };
    let top_level = |cause: &Cause| {
        guide.boxes.iter().all(|def| {
            let gives = def.rewards.iter().any(|r| match (&r.value, cause) {
                (Reward::Item(i), Cause::Obtain(items)) => {
                    items.contains(i) && !needs_item(def, *i)
                }
                (Reward::Species(s), Cause::Collect(species)) => species.contains(s),
                _ => false,
            });
            !gives || top_level_box(def)
        })
    };
    let mut out = Vec::new();
    let mut needs = HashMap::new();
    let mut budget = COMPARISONS;
    for key in slot_order {
        let boxes = &slots[&key];
        let mut causes: Vec<&Cause> = Vec::new();
        for b in boxes {
            let cause = &guide.get(*b).cause.value;
            if bound(cause).is_some() && !causes.contains(&cause) {
                causes.push(cause);
            }
        }
        for cause in causes {
            // Another box of the slot answering one of the same events competes too; such
            // mixed groups are left to the fixpoint.
            let group: Vec<BoxId> = boxes
                .iter()
                .copied()
                .filter(|b| shares_an_event(&guide.get(*b).cause.value, cause))
                .collect();
            if group.iter().any(|b| guide.get(*b).cause.value != *cause) {
                continue;
            }
            let (times, event) = bound(cause).expect("a bounded cause");
            let sources = match cause {
                Cause::Collect(species) if copies[species[0].index()] > 0 => {
                    let s = species[0].index();
                    let cards = match copies[s] {
                        1 => "1 card".to_string(),
                        n => format!("{n} cards"),
                    };
                    let gifts = match givers[s] {
                        0 => String::new(),
                        1 => " and 1 box giving it".to_string(),
                        n => format!(" and {n} boxes giving it"),
                    };
                    format!(" (`{}` has {cards}{gifts}, and a caught card leaves the deck)", game.species(species[0]).id)
                }
                _ => String::new(),
            };
            let single = matches!(cause, Cause::Collect(x) if x.len() == 1)
                || matches!(cause, Cause::Obtain(x) if x.len() == 1);
            let implications = Implications {
                first: &first,
                top_level: top_level(cause),
            };
            let found = compete(guide, &group, cause, &implications, &mut budget);
            if single {
                for (b, taken, takers) in &found {
                    if *taken > 0 {
                        needs.insert(
                            *b,
                            Taken {
                                nth: *taken as u32 + 1,
                                takers: takers.clone(),
                            },
                        );
                    }
                }
            }
            let mut found: Vec<Exhausted> = found
                .into_iter()
                .filter(|(_, taken, _)| times > 0 && taken + 1 > times)
                .map(|(b, taken, takers)| Exhausted {
                    r#box: b,
                    event: event.clone(),
                    bound: times,
                    sources: String::new(),
                    takers,
                    taken,
                })
                .collect();
            // Only the first box of each track is reported: those after it follow.
            let mut seen: HashSet<TrackId> = HashSet::new();
            found.retain(|e| seen.insert(guide.get(e.r#box).track));
            for e in &mut found {
                e.sources.clone_from(&sources);
            }
            out.extend(found);
        }
    }
    (out, needs)
}

/// The earliest occurrence of its event that can fill a box, as competition sets it, and the
/// first few boxes that take the earlier ones.
#[derive(Debug, Clone)]
pub struct Taken {
    pub nth: u32,
    pub takers: Vec<BoxId>,
}

/// Whether a requirement holds whenever the one event of a cause happens: holding the item
/// obtained, having the species collected (both are held before the event fills its boxes).
fn is_the_event(requirement: &Requirement, cause: &Cause) -> bool {
    match (requirement, cause) {
        (Requirement::Item(i), Cause::Obtain(items)) => items.as_slice() == [*i],
        (Requirement::Species(s), Cause::Collect(species)) => species.as_slice() == [*s],
        _ => false,
    }
}

/// Whether two causes answer some event in common.
fn shares_an_event(a: &Cause, b: &Cause) -> bool {
    match (a, b) {
        (Cause::Obtain(x), Cause::Obtain(y)) => x.iter().any(|i| y.contains(i)),
        (Cause::Collect(x), Cause::Collect(y)) => x.iter().any(|s| y.contains(s)),
        _ => false,
    }
}

/// What holds whenever a box's requirements do, besides them: the boxes it needs, the first
/// box of each track it needs access to, and, when the competing event happens only outside
/// a cascade (so that every earlier event's consequences are complete), the box each event it
/// needs always fills first (see [`Implications`]).
fn filled_with(
    guide: &FieldGuide,
    requires: &[Located<Requirement>],
    implications: &Implications,
) -> HashSet<BoxId> {
    let mut filled = HashSet::new();
    for r in requires {
        match &r.value {
            Requirement::Box(x) => {
                filled.insert(*x);
            }
            Requirement::Area(t) => filled.extend(guide.track(*t).boxes.first().copied()),
            Requirement::Item(i) if implications.top_level => {
                let boxes = implications.first.get(&Held::Item(*i));
                filled.extend(boxes.into_iter().flatten().copied());
            }
            Requirement::Species(s) if implications.top_level => {
                let boxes = implications.first.get(&Held::Species(*s));
                filled.extend(boxes.into_iter().flatten().copied());
            }
            _ => {}
        }
    }
    filled
}

/// Whether a requirement holds whenever every one of `given` does (and the event happens),
/// with `filled` the boxes filled then.
fn implied(
    requirement: &Requirement,
    given: &[Located<Requirement>],
    filled: &HashSet<BoxId>,
    cause: &Cause,
) -> bool {
    is_the_event(requirement, cause)
        || match requirement {
            Requirement::Box(x) => filled.contains(x),
            Requirement::Unknown => false,
            _ => false,
        }
        || given.iter().any(|g| match (requirement, &g.value) {
            (Requirement::Vp(a), Requirement::Vp(b)) => a <= b,
            (Requirement::Unknown, _) => false,
            (a, b) => a == b,
        })
}

/// The bonus boxes (of those `reachable` admits) that can be filled inside the cascade of an
/// event: filled by an event or when they open, or by a chain from such a box of another
/// section. A chain from one of them may fill a box inside an event's cascade.
pub(super) fn cascade_bonus_boxes(
    guide: &FieldGuide,
    reachable: impl Fn(BoxId) -> bool,
) -> Vec<BoxId> {
    let bonus: Vec<BoxId> = guide
        .box_ids()
        .filter(|b| guide.get(*b).style == Style::Bonus && reachable(*b))
        .collect();
    let mut inside: Vec<BoxId> = bonus
        .iter()
        .copied()
        .filter(|b| {
            matches!(
                guide.get(*b).cause.value,
                Cause::Collect(_) | Cause::Obtain(_) | Cause::Free
            )
        })
        .collect();
    // A chain reaches a square bonus box from a bonus box of another section.
    loop {
        let more: Vec<BoxId> = bonus
            .iter()
            .copied()
            .filter(|b| {
                let def = guide.get(*b);
                !inside.contains(b)
                    && def.shape == Shape::Square
                    && inside.iter().any(|x| guide.get(*x).section != def.section)
            })
            .collect();
        if more.is_empty() {
            return inside;
        }
        inside.extend(more);
    }
}

/// Whether a box is filled only outside the cascade of an event: by a die face, an item's
/// use, the turn or a ball, and by no bonus chain that can start inside one.
pub(super) fn outside_cascades(guide: &FieldGuide, def: &BoxDef, in_cascades: &[BoxId]) -> bool {
    matches!(
        def.cause.value,
        Cause::Dice(_) | Cause::Use(_) | Cause::Turn | Cause::Ball
    ) && def.style != Style::Free
        && (def.shape != Shape::Square
            || in_cascades.iter().all(|x| {
                def.style == Style::Bonus && guide.get(*x).section == def.section
            }))
}

/// An item held or a species collected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Held {
    Item(ItemId),
    Species(SpeciesId),
}

/// Facts that hold whenever an event has happened, for competition.
struct Implications<'a> {
    /// Per held item or species (as a requirement), the boxes its first occurrence always
    /// fills: in their slot (section, trigger or not), the first box naming it, when that box
    /// is the first of its track and waits for this event and nothing else. It is open from
    /// the start until filled, so the first occurrence selects it, and it is filled once that
    /// occurrence's cascade is over.
    first: &'a HashMap<Held, Vec<BoxId>>,
    /// Whether the competing event happens only outside a cascade (its occurrences are
    /// catches, or the filling of boxes only a die face, an item's use, the turn or a ball
    /// fills), so that those facts hold at each of its occurrences.
    top_level: bool,
}

/// Work a check may spend comparing the requirements of competing boxes, past which a box
/// counts only the boxes that wait for nothing but the event (fewer, so always sound).
const COMPARISONS: usize = 20_000_000;

/// The boxes of `group` (one slot, in the engine's order) that the event never reaches.
///
/// A box `W` is filled by an occurrence at which it is open and no box of the slot before it
/// is. Then every box of the group in an earlier track that is open whenever `W` is must be
/// filled already: the first unfilled one of its track would be open. Such a box is open
/// whenever `W` is when its requirements hold whenever `W`'s do (the same ones, fewer victory
/// points, the event itself, a box that what `W` needs implies filled: [`filled_with`]), and
/// every box before it in its track either is such a box of the group too or is filled
/// whenever `W` is open. So must the boxes of the group before `W` in its own track be filled.
/// Each of those takes an occurrence of its own (an occurrence fills one box of a slot), and
/// `W` one more: when that is more than the event can happen, `W` is never filled.
/// Returns each box with the occurrences taken before it and the first few boxes taking
/// them.
fn compete(
    guide: &FieldGuide,
    group: &[BoxId],
    cause: &Cause,
    implications: &Implications,
    budget: &mut usize,
) -> Vec<(BoxId, usize, Vec<BoxId>)> {
    let in_group: HashSet<BoxId> = group.iter().copied().collect();
    // The group's tracks, in order, each with the run of group boxes its track starts with.
    let mut tracks: Vec<(TrackId, Vec<BoxId>)> = Vec::new();
    for b in group {
        let track = guide.get(*b).track;
        if tracks.last().is_none_or(|(t, _)| *t != track) {
            let run: Vec<BoxId> = guide
                .track(track)
                .boxes
                .iter()
                .copied()
                .take_while(|x| in_group.contains(x))
                .collect();
            tracks.push((track, run));
        }
    }
    let plain = |b: &BoxId| {
        guide
            .get(*b)
            .requires
            .iter()
            .all(|r| is_the_event(&r.value, cause))
    };
    let mut out = Vec::new();
    // Boxes open whenever the event happens, in the tracks before the current one.
    let mut plain_before = 0usize;
    let mut plain_takers: Vec<BoxId> = Vec::new();
    for (k, (track, run)) in tracks.iter().enumerate() {
        let mut own = 0usize;
        let mut own_takers: Vec<BoxId> = Vec::new();
        for b in guide.track(*track).boxes.iter().copied() {
            if !in_group.contains(&b) {
                continue;
            }
            let def = guide.get(b);
            let mut taken = plain_before + own;
            let mut takers: Vec<BoxId> = plain_takers.clone();
            // With requirements of its own, boxes that need no more than it does count too.
            let conditional = def
                .requires
                .iter()
                .any(|r| !is_the_event(&r.value, cause));
            if conditional && *budget > 0 {
                let filled = filled_with(guide, &def.requires, implications);
                taken = own;
                takers.clear();
                for (earlier, _) in &tracks[..k] {
                    for x in &guide.track(*earlier).boxes {
                        *budget = budget.saturating_sub(1);
                        let taker = in_group.contains(x)
                            && guide
                                .get(*x)
                                .requires
                                .iter()
                                .all(|r| implied(&r.value, &def.requires, &filled, cause));
                        if taker || (filled.contains(x) && in_group.contains(x)) {
                            taken += 1;
                            if takers.len() < SHOWN {
                                takers.push(*x);
                            }
                        } else if !filled.contains(x) {
                            break;
                        }
                    }
                }
            }
            for x in &own_takers {
                if takers.len() < SHOWN {
                    takers.push(*x);
                }
            }
            out.push((b, taken, takers));
            own += 1;
            if own_takers.len() < SHOWN {
                own_takers.push(b);
            }
        }
        let plain_run = run.iter().take_while(|x| plain(x));
        for x in plain_run {
            plain_before += 1;
            if plain_takers.len() < SHOWN {
                plain_takers.push(*x);
            }
        }
    }
    out
}
