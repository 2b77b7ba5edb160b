//! Boxes that wait for an event that happens a bounded number of times.
//!
//! An event (obtaining an item, collecting a species) fills, in each section, the first open
//! box it names (docs/rules.md; a variant, the first open box that is not a trigger box and the
//! first open trigger box). Some events happen a bounded
//! number of times a game: each item is obtained once, and a species that no card shows is
//! collected only when a box gives it, so at most once per such box. Boxes of one section that
//! wait for such an event compete for it, and the least fixpoint, which assumes every event
//! can happen as often as needed, calls them all reachable.
//!
//! For each competing group (one section, or in the variant its trigger boxes or the others, one
//! cause, no other box
//! of the section answering the same events) this plays the events as the engine does, with
//! the group's *eager* boxes only: those that wait for nothing but the event (no requirement,
//! and every box before them in their track is eager too). An eager box is open as soon as
//! the one before it is filled, so at every event some eager box no later (in the engine's
//! order) than the one this play fills is open, whatever else happened: no event can ever
//! reach a box of the group past the one the last event fills here. Those boxes are
//! exhausted: never filled, in any game. The play is exact for eager boxes and leaves every
//! other box alone, so no box that some game fills is called exhausted. A track filled by
//! collecting any of several species is bounded too, by the cards of those species and the
//! boxes giving them, less what the boxes before it take ([`shared_tracks`]).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::model::*;

/// A box no event of its cause can ever reach.
#[derive(Debug, Clone)]
pub struct Exhausted {
    pub r#box: BoxId,
    /// The event, as a designer reads it: "obtaining `key`", "collecting `golduck`".
    pub event: String,
    /// How many times the event can happen in a game.
    pub bound: usize,
    /// The boxes of the group that take those events when nothing else is open (shared by
    /// every box of the group).
    pub takers: Arc<[BoxId]>,
}

pub(crate) fn exhausted(game: &Game) -> Vec<Exhausted> {
    let guide = &game.guide;
    // The engine's order: sections, their tracks, their boxes.
    let order: Vec<BoxId> = guide
        .sections
        .iter()
        .flat_map(|s| &s.tracks)
        .flat_map(|t| &guide.track(*t).boxes)
        .copied()
        .collect();
    let mut caught = vec![false; game.species.len()];
    for card in &game.deck.cards {
        if let Some(s) = card.species.value {
            caught[s.index()] = true;
        }
    }
    let mut givers = vec![0usize; game.species.len()];
    for def in &guide.boxes {
        for reward in &def.terms.rewards {
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
                [s] if !caught[s.index()] => Some((
                    givers[s.index()],
                    format!("collecting `{}`", game.species(*s).id),
                )),
                _ => None,
            },
            _ => None,
        }
    };
    // Groups by section (and trigger or not, in the variant), in the engine's order.
    let beside = game.manifest.event_fills.trigger_beside();
    let mut slots: HashMap<(SectionId, bool), Vec<BoxId>> = HashMap::new();
    let mut slot_order: Vec<(SectionId, bool)> = Vec::new();
    for b in &order {
        let def = guide.get(*b);
        let key = (def.section, beside && def.style == Style::Trigger);
        slots
            .entry(key)
            .or_insert_with(|| {
                slot_order.push(key);
                Vec::new()
            })
            .push(*b);
    }
    let mut out = Vec::new();
    for key in slot_order {
        let boxes = &slots[&key];
        let mut causes: Vec<&Cause> = Vec::new();
        for b in boxes {
            let cause = &guide.get(*b).terms.cause.value;
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
                .filter(|b| shares_an_event(&guide.get(*b).terms.cause.value, cause))
                .collect();
            if group
                .iter()
                .any(|b| guide.get(*b).terms.cause.value != *cause)
            {
                continue;
            }
            let (times, event) = bound(cause).expect("a bounded cause");
            out.extend(play(guide, &group, times, &event));
        }
        out.extend(shared_tracks(game, boxes, &givers));
    }
    out.sort_by_key(|e| e.r#box);
    out.dedup_by_key(|e| e.r#box);
    out
}

/// The boxes of a track filled by collecting any of several species (the default game's Rare
/// Sightings) that no collection can reach: each species is collected at most once per card of
/// it and once per box that gives it, and an event fills one box of the slot, so every box of
/// the slot before the track that waits for nothing but collecting some of those species takes
/// one of those collections first. The track's boxes past what is left are exhausted.
fn shared_tracks(game: &Game, slot: &[BoxId], givers: &[usize]) -> Vec<Exhausted> {
    let guide = &game.guide;
    let times = |s: SpeciesId| -> usize {
        let copies: u32 = game
            .deck
            .cards
            .iter()
            .filter(|c| c.species.value == Some(s))
            .map(|c| c.copies.value)
            .sum();
        copies as usize + givers[s.index()]
    };
    let mut out = Vec::new();
    let mut tracks_seen: Vec<TrackId> = Vec::new();
    for (at, b) in slot.iter().enumerate() {
        let def = guide.get(*b);
        if tracks_seen.contains(&def.track) {
            continue;
        }
        tracks_seen.push(def.track);
        let Cause::Collect(set) = &def.terms.cause.value else {
            continue;
        };
        let track = &guide.track(def.track).boxes;
        // A track that spans two slots (in the variant, trigger boxes beside others) takes
        // events of the other slot too: left alone.
        let shared = track.len() > 1
            && set.len() > 1
            && track.iter().all(|x| {
                guide.get(*x).terms.cause.value == def.terms.cause.value && slot.contains(x)
            });
        if !shared {
            continue;
        }
        let events: usize = set.iter().map(|s| times(*s)).sum();
        // Boxes before the track, open from the start, each taking the first collection of
        // one of its species, all of them among the track's. Two that wait for a species in
        // common may take one collection between them: only the first of such is counted,
        // so that each counted stands for a collection of its own the track never gets.
        let mut counted: Vec<SpeciesId> = Vec::new();
        let takers: Vec<BoxId> = slot[..at]
            .iter()
            .copied()
            .filter(|x| {
                let taker = guide.get(*x);
                let takes = taker.track != def.track
                    && taker.terms.requires.is_empty()
                    && guide.previous(*x).is_none()
                    && matches!(&taker.terms.cause.value, Cause::Collect(own)
                        if own.iter().all(|s| set.contains(s))
                            && own.iter().any(|s| times(*s) > 0)
                            && own.iter().all(|s| !counted.contains(s)));
                if takes && let Cause::Collect(own) = &taker.terms.cause.value {
                    counted.extend(own.iter().copied());
                }
                takes
            })
            .collect();
        let left = events.saturating_sub(takers.len());
        if left >= track.len() || events == 0 {
            continue;
        }
        let event = format!(
            "collecting {}",
            set.iter()
                .map(|s| format!("`{}`", game.species(*s).id))
                .collect::<Vec<_>>()
                .join(" or ")
        );
        let takers: Arc<[BoxId]> = takers.into();
        out.extend(track[left..].iter().map(|x| Exhausted {
            r#box: *x,
            event: event.clone(),
            bound: events,
            takers: Arc::clone(&takers),
        }));
    }
    out
}

/// Whether two causes answer some event in common.
fn shares_an_event(a: &Cause, b: &Cause) -> bool {
    match (a, b) {
        (Cause::Obtain(x), Cause::Obtain(y)) => x.iter().any(|i| y.contains(i)),
        (Cause::Collect(x), Cause::Collect(y)) => x.iter().any(|s| y.contains(s)),
        _ => false,
    }
}

/// Plays `times` events on the eager boxes of `group` (in the engine's order); the boxes past
/// the last one filled are exhausted, if every event found an eager box open. Each fill opens
/// only boxes after it in the engine's order, so the play moves forward: one pass.
fn play(guide: &FieldGuide, group: &[BoxId], times: usize, event: &str) -> Vec<Exhausted> {
    // No event at all is the fixpoint's to report (nothing provides it).
    if times == 0 || group.len() <= times {
        return Vec::new();
    }
    let mut eager: HashMap<BoxId, bool> = HashMap::new();
    for b in group {
        let def = guide.get(*b);
        let before_is_eager = guide
            .previous(*b)
            .is_none_or(|p| eager.get(&p).copied().unwrap_or(false));
        eager.insert(*b, def.terms.requires.is_empty() && before_is_eager);
    }
    let mut filled: HashSet<BoxId> = HashSet::new();
    let mut takers: Vec<BoxId> = Vec::new();
    let mut next = 0;
    for _ in 0..times {
        let open = group[next..]
            .iter()
            .position(|b| eager[b] && guide.previous(*b).is_none_or(|p| filled.contains(&p)));
        match open {
            Some(offset) => {
                let at = next + offset;
                filled.insert(group[at]);
                takers.push(group[at]);
                next = at + 1;
            }
            // Events left over may go to boxes that wait for more than the event.
            None => return Vec::new(),
        }
    }
    let takers: Arc<[BoxId]> = takers.into();
    group[next..]
        .iter()
        .map(|b| Exhausted {
            r#box: *b,
            event: event.to_string(),
            bound: times,
            takers: Arc::clone(&takers),
        })
        .collect()
}
