//! Boxes never open when the bounded event they wait for happens.
//!
//! An event (obtaining an item, collecting a species) fills the boxes that wait for it and are
//! open at that moment; boxes opened by its own fills wait for the next one (docs/rules.md).
//! Some events happen only at set moments: an item is obtained once, when the first box giving
//! it is filled, and a species no card can be caught for is collected only when a box giving it
//! is filled, once per such box. A box waiting for such an event is filled only if it is open
//! at one of those moments. The least fixpoint, which has no moments, calls it reachable as
//! soon as each thing it needs can happen at all.
//!
//! So for each moment (a box `G` that gives the event, at its `k`th reward) this works out
//! what can hold at that moment, as a least fixpoint of the same graph with what cannot have
//! happened yet taken out:
//!
//! - what waits for `G` being filled, when `G`'s rewards before the `k`th are only habitats:
//!   nothing else happens between `G`'s fill and its reward (its users are not told);
//! - `G`'s rewards from the `k`th on;
//! - for an item: the item itself, and every other box that gives it (had one been filled,
//!   the item would be held already and `G` would not obtain it);
//! - the boxes the engine's order fills after `G`. When `G` is filled only by an event `E`
//!   that never happens inside a cascade of itself (an item, or a species no reachable box
//!   gives), and `G` is the `j`th of a run of boxes at the start of its track that wait for
//!   `E` and nothing else, with no other box of its section (and kind, trigger or not) naming
//!   `E` before it, then the `n`th occurrence of `E` fills the run's `n`th box, so `G` is
//!   filled exactly by the `j`th. A box filled only by `E`, with `m` boxes filled only by `E`
//!   before it in its track, is filled at the `m + 1`th occurrence or later. Those filled at a
//!   later occurrence than `G`, or at the same one but after `G` in the engine's order, are
//!   still empty when `G` gives its reward: an event fills its boxes in order, each with all
//!   that follows from it before the next.
//!
//! Every fact that holds at the moment was obtained by a fill before it, so the fixpoint holds
//! it too: the fixpoint over-approximates the moment. A box whose box before it, or one of
//! whose requirements (other than the event itself), is outside it at every moment of its
//! event is never filled, in any game. Each moment costs one fixpoint, and only events some
//! box could be closed at are looked at; a budget bounds the work on hostile content (past
//! it, boxes are left reachable, which is always sound).

use std::collections::HashMap;

use super::explain::Step;
use super::graph::{Edge, Fact, Graph, Kind, Moment, NodeId, Reach, earliest_occurrence, fixpoint_at};
use crate::model::*;
use crate::world::Origin;

/// Node visits all the moments of one check may cost together.
const BUDGET: usize = 200_000_000;

/// The moments explained per box in a report.
pub const SHOWN: usize = 3;

/// An event that happens at set moments: an item obtained, a species collected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Event {
    Item(ItemId),
    Species(SpeciesId),
}

/// A box never open when its event happens.
#[derive(Debug, Clone)]
pub struct Late {
    pub r#box: BoxId,
    /// The event, as a designer reads it: "collecting `beta`", "obtaining `key`".
    pub event: String,
    pub reason: Reason,
}

#[derive(Debug, Clone)]
pub enum Reason {
    /// Closed at every moment the event can happen at: how many moments in all (a moment no
    /// game reaches is not counted), and the first few explained.
    Closed {
        moments: usize,
        explained: Vec<Occasion>,
    },
    /// It can only be filled by the `nth` occurrence of its event or a later one, and the
    /// event happens at most `bound` times a game: once per card of the species (a caught
    /// card leaves the deck) and once per box giving it, or once for an item.
    Counted {
        nth: u32,
        bound: u32,
        cards: u32,
        gifts: u32,
        /// Boxes giving the species that can only be filled once the box is (their gifts
        /// come too late for it), not counted in `bound`.
        later: Vec<BoxId>,
        /// Boxes on the way whose occurrence competition sets: each with the first few boxes
        /// of its section that take the earlier ones.
        competed: Vec<(BoxId, Vec<BoxId>)>,
        /// From the box down to what sets its occurrence (raw steps, to be tidied).
        steps: Vec<Step>,
    },
}

/// One moment the event can happen at, and why the box is closed then.
#[derive(Debug, Clone)]
pub struct Occasion {
    /// The box whose reward makes the event.
    pub giver: BoxId,
    /// Where the reward is written.
    pub gift: Origin,
    pub closed: Closed,
    /// From what is missing down to the reason it is missing (raw steps, to be tidied).
    pub steps: Vec<Step>,
    pub root: Root,
}

/// What keeps the box closed.
#[derive(Debug, Clone, Copy)]
pub enum Closed {
    /// The box before it in its track is not filled yet.
    Before(BoxId),
    /// A requirement (written at the origin) does not hold yet.
    Needs(Origin, NodeId),
}

/// Why what the box needs is missing at the moment.
#[derive(Debug, Clone, Copy)]
pub enum Root {
    /// A box the engine fills after the giver: by the same occurrence of `event` (after it in
    /// the engine's order), or by a later one.
    Order {
        r#box: BoxId,
        giver: BoxId,
        event: EventName,
        same: bool,
    },
    /// It waits for a box whose gift this moment is inside (filled just before it, so what
    /// waits on it outside a cascade comes later).
    Within(BoxId),
    /// The event a box gave, inside whose cascade this moment is: it has only just happened.
    JustGiven(BoxId, Event),
    /// It waits for the giver itself, whose reward comes before anything its fill opens.
    Giver,
    /// It needs the item this very event gives.
    Item,
    /// Another box gives the item, so it is still empty when the giver gives it first.
    OtherGiver(BoxId),
    /// A count (victory points, habitats) not reached yet.
    Count(NodeId),
    /// The event that fills the giver (named by it) has only just happened, and what needs
    /// it outside a cascade comes later.
    Just(EventName),
    /// An event (named by the box) that would have filled `box`, which is still empty.
    Implied { r#box: BoxId, event: EventName },
    /// Something done only outside a cascade, before the game's first cascade is over.
    Start,
    /// A box giving an event that has not happened yet, so still empty.
    Ungiven { r#box: BoxId, event: Event },
}

/// An event named by a box's cause (the box filled only by it).
#[derive(Debug, Clone, Copy)]
pub struct EventName(BoxId);

impl EventName {
    pub fn text(&self, game: &Game) -> String {
        cause_text(game, &game.guide.get(self.0).cause.value)
    }
}

/// "collecting `a` or `b`", "obtaining `key`".
pub fn cause_text(game: &Game, cause: &Cause) -> String {
    let list = |names: Vec<&str>| {
        names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(" or ")
    };
    match cause {
        Cause::Collect(s) => format!(
            "collecting {}",
            list(s.iter().map(|s| game.species(*s).id.as_str()).collect())
        ),
        Cause::Obtain(i) => format!(
            "obtaining {}",
            list(i.iter().map(|i| game.item(*i).id.as_str()).collect())
        ),
        _ => "its event".to_string(),
    }
}

/// The events a box waits for, when it waits for events only.
fn events(cause: &Cause) -> Vec<Event> {
    match cause {
        Cause::Collect(s) => s.iter().map(|s| Event::Species(*s)).collect(),
        Cause::Obtain(i) => i.iter().map(|i| Event::Item(*i)).collect(),
        _ => Vec::new(),
    }
}

/// The one event a box waits for, when it names exactly one.
fn exact(cause: &Cause) -> Option<Event> {
    match cause {
        Cause::Collect(s) if s.len() == 1 => Some(Event::Species(s[0])),
        Cause::Obtain(i) if i.len() == 1 => Some(Event::Item(i[0])),
        _ => None,
    }
}

/// Whether a requirement is the event itself, which holds when the event happens.
fn is_event(requirement: &Requirement, event: Event) -> bool {
    matches!(
        (requirement, event),
        (Requirement::Item(a), Event::Item(b)) if *a == b
    ) || matches!(
        (requirement, event),
        (Requirement::Species(a), Event::Species(b)) if *a == b
    )
}

/// A moment: the `k`th reward of `giver`, making `event`.
struct Point {
    giver: BoxId,
    k: usize,
    event: Event,
}

/// What a box waiting at every moment has found so far.
struct Verdict {
    closed: bool,
    moments: usize,
    explained: Vec<Occasion>,
    /// The givers of its events that can only be filled once it is (their moments come too
    /// late to fill it), when worked out.
    after: Option<Vec<BoxId>>,
}

pub struct Budget(usize);

impl Default for Budget {
    fn default() -> Self {
        Budget(BUDGET)
    }
}

/// The boxes, reachable by `reach`, that are never open when their bounded event happens:
/// those that need more occurrences of it than can happen, then those closed at each moment
/// it can happen at.
pub fn late(game: &Game, graph: &Graph, reach: &Reach, budget: &mut Budget) -> Vec<Late> {
    let mut out = counted(game, graph, reach, budget);
    if out.is_empty() {
        out = closed(game, graph, reach, budget);
    }
    out
}

/// How many times an event can happen in a game: once for an item; for a species, once per
/// card of it that can be caught (a caught card leaves the deck) and once per box giving it.
/// Returns the bound, the cards and the gifts.
fn bound(game: &Game, graph: &Graph, reach: &Reach, event: Event) -> (u32, u32, u32) {
    match event {
        Event::Item(_) => (1, 0, 0),
        Event::Species(s) => {
            let cards: u32 = game
                .card_ids()
                .filter(|c| {
                    game.card(*c).species.value == Some(s) && reach.of(graph.catch_node[c.index()])
                })
                .map(|c| game.card(c).copies.value)
                .fold(0u32, u32::saturating_add);
            let gifts = game
                .guide
                .box_ids()
                .filter(|b| reach.of(graph.box_node[b.index()]))
                .map(|b| {
                    game.guide
                        .get(b)
                        .rewards
                        .iter()
                        .filter(|r| r.value == Reward::Species(s))
                        .count() as u32
                })
                .fold(0u32, u32::saturating_add);
            (cards.saturating_add(gifts), cards, gifts)
        }
    }
}

/// Boxes filled only by an event that need a later occurrence of it than can happen: each
/// box before them in their track filled only by it takes an earlier one, and what they need
/// may come only after the first (see [`earliest_occurrence`]).
fn counted(game: &Game, graph: &Graph, reach: &Reach, budget: &mut Budget) -> Vec<Late> {
    let guide = &game.guide;
    let mut only: HashMap<Event, Vec<BoxId>> = HashMap::new();
    for b in guide.box_ids() {
        if let Some(e) = exact(&guide.get(b).cause.value)
            && reach.of(graph.box_node[b.index()])
        {
            only.entry(e).or_default().push(b);
        }
    }
    let mut list: Vec<(Event, Vec<BoxId>)> = only.into_iter().collect();
    list.sort_by_key(|(_, boxes)| boxes[0]);
    let taken = super::bounded::competition(game).1;
    let cost = graph.nodes.len() * 8 + 64;
    let mut out = Vec::new();
    for (event, boxes) in list {
        let (limit, cards, gifts) = bound(game, graph, reach, event);
        // A box's occurrence is at most one more than the boxes filled only by the event,
        // counting the first, whose fills anything needing the event waits for; and each
        // card surely gives one.
        let surely = match event {
            Event::Item(_) => limit,
            Event::Species(_) => cards,
        };
        if boxes.len() as u64 + 1 <= surely as u64 {
            continue;
        }
        if budget.0 < cost {
            break;
        }
        budget.0 -= cost;
        let node = match event {
            Event::Item(i) => graph.item_node[i.index()],
            Event::Species(s) => graph.species_node[s.index()],
        };
        let mut marks = vec![false; guide.boxes.len()];
        for b in &boxes {
            marks[b.index()] = true;
        }
        let floor = |b: BoxId| taken.get(&b).map_or(0, |t| t.nth);
        let clock = earliest_occurrence(graph, game, reach, node, &marks, &floor);
        let time = |b: BoxId| clock[graph.box_node[b.index()].0 as usize];
        // The boxes giving a species, with their gifts of it.
        let givers: Vec<(BoxId, u32)> = match event {
            Event::Item(_) => Vec::new(),
            Event::Species(s) => guide
                .box_ids()
                .filter(|b| reach.of(graph.box_node[b.index()]))
                .filter_map(|b| {
                    let n = guide
                        .get(b)
                        .rewards
                        .iter()
                        .filter(|r| r.value == Reward::Species(s))
                        .count() as u32;
                    (n > 0).then_some((b, n))
                })
                .collect(),
        };
        let mut found: Vec<BoxId> = Vec::new();
        for w in boxes {
            let Some(at) = time(w) else {
                continue;
            };
            let nth = at - 1;
            if guide.previous(w).is_some_and(|p| found.contains(&p)) {
                continue;
            }
            // Gifts from boxes that can only be filled once `w` is come too late for it.
            let mut within = limit;
            let mut later: Vec<BoxId> = Vec::new();
            if nth <= limit {
                let surely_before: u32 = givers
                    .iter()
                    .filter(|(g, _)| time(*g).is_some_and(|t| t < at))
                    .map(|(_, n)| *n)
                    .sum();
                if nth <= cards + surely_before || budget.0 < cost {
                    continue;
                }
                budget.0 -= cost;
                let context = Context {
                    game,
                    graph,
                    reach,
                    order: &Order::empty(),
                    points: &HashMap::new(),
                };
                let without = without(&context, w);
                for (g, n) in &givers {
                    if !without.of(graph.box_node[g.index()]) {
                        within -= n;
                        later.push(*g);
                    }
                }
                if nth <= within {
                    continue;
                }
            }
            found.push(w);
            let steps = binding(graph, &clock, node, &marks, graph.box_node[w.index()]);
            let takers = |b: BoxId| taken.get(&b).map(|t| t.takers.clone()).unwrap_or_default();
            let competed: Vec<(BoxId, Vec<BoxId>)> = std::iter::once(graph.box_node[w.index()])
                .chain(steps.iter().map(|s| s.edge.to))
                .filter_map(|n| match graph.node(n).fact {
                    Fact::Box(b) if marks[b.index()] && time(b).map(|t| t - 1) == Some(floor(b)) => {
                        Some((b, takers(b)))
                    }
                    _ => None,
                })
                .collect();
            out.push(Late {
                r#box: w,
                event: cause_text(game, &guide.get(w).cause.value),
                reason: Reason::Counted {
                    nth,
                    bound: within,
                    cards,
                    gifts: gifts - (limit - within),
                    later,
                    competed,
                    steps,
                },
            });
        }
    }
    out
}

/// The way down from `start` to what sets its occurrence: at each node, the dependency whose
/// occurrence it takes.
fn binding(
    graph: &Graph,
    clock: &[Option<u32>],
    event: NodeId,
    only: &[bool],
    start: NodeId,
) -> Vec<Step> {
    let mut steps = Vec::new();
    let mut at = start;
    let only_box = |n: NodeId| match graph.node(n).fact {
        Fact::Box(b) => only[b.index()],
        _ => false,
    };
    for _ in 0..graph.nodes.len() {
        let Some(time) = clock[at.0 as usize] else {
            break;
        };
        if at == event || time <= 1 {
            break;
        }
        let node = graph.node(at);
        let wanted = match only_box(at) {
            true => time - 1,
            false => time,
        };
        let next = node.deps.iter().find(|e| {
            let counted = !(only_box(at) && (e.to == event || e.why == super::graph::Why::FilledBy));
            counted && clock[e.to.0 as usize] == Some(wanted)
        });
        match next {
            Some(edge) if matches!(node.kind, Kind::All | Kind::Any) => {
                steps.push(Step {
                    from: at,
                    edge: *edge,
                });
                at = edge.to;
            }
            _ => break,
        }
    }
    steps
}

/// Boxes closed at every moment their event can happen at (see the module's comment).
fn closed(game: &Game, graph: &Graph, reach: &Reach, budget: &mut Budget) -> Vec<Late> {
    let guide = &game.guide;
    let reachable = |b: BoxId| reach.of(graph.box_node[b.index()]);
    // Bounded species: no card of them can be caught.
    let mut caught = vec![false; game.species.len()];
    for c in game.card_ids() {
        if let Some(s) = game.card(c).species.value
            && reach.of(graph.catch_node[c.index()])
        {
            caught[s.index()] = true;
        }
    }
    let bounded = |e: Event| match e {
        Event::Item(_) => true,
        Event::Species(s) => !caught[s.index()],
    };
    // The boxes that could be closed: waiting for bounded events only, with something besides
    // the event to wait for.
    let mut waiting: HashMap<Event, Vec<BoxId>> = HashMap::new();
    let mut verdicts: HashMap<BoxId, Verdict> = HashMap::new();
    for b in guide.box_ids() {
        let def = guide.get(b);
        let list = events(&def.cause.value);
        if list.is_empty() || !reachable(b) || !list.iter().all(|e| bounded(*e)) {
            continue;
        }
        let other_needs = def
            .requires
            .iter()
            .any(|r| !list.iter().any(|e| is_event(&r.value, *e)));
        if guide.previous(b).is_none() && !other_needs {
            continue;
        }
        for e in &list {
            waiting.entry(*e).or_default().push(b);
        }
        verdicts.insert(
            b,
            Verdict {
                closed: true,
                moments: 0,
                explained: Vec::new(),
                after: None,
            },
        );
    }
    if waiting.is_empty() {
        return Vec::new();
    }
    // The moments of each event: the reachable boxes giving it.
    let mut points: HashMap<Event, Vec<Point>> = HashMap::new();
    let mut gives_species = vec![false; game.species.len()];
    for g in guide.box_ids() {
        if !reachable(g) {
            continue;
        }
        let def = guide.get(g);
        for (k, reward) in def.rewards.iter().enumerate() {
            let event = match reward.value {
                Reward::Item(i) => {
                    // Only the first reward of an item can obtain it.
                    if def.rewards[..k].iter().any(|r| r.value == reward.value) {
                        continue;
                    }
                    Event::Item(i)
                }
                Reward::Species(s) => {
                    gives_species[s.index()] = true;
                    Event::Species(s)
                }
                _ => continue,
            };
            if waiting.contains_key(&event) {
                points.entry(event).or_default().push(Point {
                    giver: g,
                    k,
                    event,
                });
            }
        }
    }
    let order = Order::of(game, graph, reach, &gives_species);
    let cost = graph.nodes.len() * 4 + 64;
    // Events in a fixed order: the first box waiting for each, in Field Guide order.
    let mut list: Vec<(Event, Vec<BoxId>)> = waiting.into_iter().collect();
    list.sort_by_key(|(_, boxes)| boxes[0]);
    let mut unfinished: Vec<Event> = Vec::new();
    for (event, boxes) in &list {
        for point in points.get(event).map(Vec::as_slice).unwrap_or_default() {
            if boxes.iter().all(|b| !verdicts[b].closed) {
                break;
            }
            if budget.0 < cost {
                unfinished.push(*event);
                break;
            }
            budget.0 -= cost;
            let context = Context {
                game,
                graph,
                reach,
                order: &order,
                points: &points,
            };
            moment(&context, point, boxes, &mut verdicts, budget);
        }
    }
    let mut out: Vec<Late> = verdicts
        .into_iter()
        .filter(|(b, v)| {
            v.closed
                && !events(&guide.get(*b).cause.value)
                    .iter()
                    .any(|e| unfinished.contains(e))
        })
        .map(|(b, v)| Late {
            r#box: b,
            event: cause_text(game, &guide.get(b).cause.value),
            reason: Reason::Closed {
                moments: v.moments,
                explained: v.explained,
            },
        })
        .collect();
    out.sort_by_key(|l| l.r#box);
    out
}

/// The engine's order, and which boxes an event fills at a known occurrence.
struct Order {
    /// Each box's place in the engine's order (sections, their tracks, their boxes).
    place: Vec<u32>,
    /// Per event filling boxes by itself: the reachable boxes filled only by it, with the
    /// earliest occurrence that can fill each (1-based).
    only: HashMap<Event, Vec<(BoxId, u32)>>,
    /// Per (section, trigger or not, event): the first reachable box in the engine's order
    /// that the event names.
    first: HashMap<(SectionId, bool, Event), BoxId>,
    /// Whether an event can never happen inside a cascade of itself.
    flat: HashMap<Event, bool>,
    /// Per box filled only by an event: the earliest occurrence that can fill it.
    lo: HashMap<BoxId, u32>,
    /// The reachable boxes giving each event.
    givers: HashMap<Event, Vec<BoxId>>,
    /// The reachable bonus boxes that can be filled inside an event's cascade (a chain from
    /// one may fill any square box but a collection's or an item's there).
    bonus: Vec<BoxId>,
}

impl Order {
    fn empty() -> Order {
        Order {
            place: Vec::new(),
            only: HashMap::new(),
            first: HashMap::new(),
            flat: HashMap::new(),
            lo: HashMap::new(),
            givers: HashMap::new(),
            bonus: Vec::new(),
        }
    }

    fn of(game: &Game, graph: &Graph, reach: &Reach, gives_species: &[bool]) -> Order {
        let guide = &game.guide;
        let mut place = vec![0u32; guide.boxes.len()];
        let mut only: HashMap<Event, Vec<(BoxId, u32)>> = HashMap::new();
        let mut first = HashMap::new();
        let mut n = 0;
        for t in guide.sections.iter().flat_map(|s| &s.tracks) {
            let mut before: HashMap<Event, u32> = HashMap::new();
            for b in &guide.track(*t).boxes {
                place[b.index()] = n;
                n += 1;
                let def = guide.get(*b);
                let reachable = reach.of(graph.box_node[b.index()]);
                for e in events(&def.cause.value) {
                    if reachable {
                        first
                            .entry((def.section, def.style == Style::Trigger, e))
                            .or_insert(*b);
                    }
                }
                if let Some(e) = exact(&def.cause.value) {
                    let count = before.entry(e).or_insert(0);
                    *count += 1;
                    if reachable {
                        only.entry(e).or_default().push((*b, *count));
                    }
                }
            }
        }
        let flat = only
            .keys()
            .map(|e| {
                let flat = match e {
                    Event::Item(_) => true,
                    Event::Species(s) => !gives_species[s.index()],
                };
                (*e, flat)
            })
            .collect();
        let bonus =
            super::bounded::cascade_bonus_boxes(guide, |b| reach.of(graph.box_node[b.index()]));
        let mut givers: HashMap<Event, Vec<BoxId>> = HashMap::new();
        for b in guide.box_ids() {
            if !reach.of(graph.box_node[b.index()]) {
                continue;
            }
            for reward in &guide.get(b).rewards {
                let event = match reward.value {
                    Reward::Item(i) => Event::Item(i),
                    Reward::Species(s) => Event::Species(s),
                    _ => continue,
                };
                let list = givers.entry(event).or_default();
                if list.last() != Some(&b) {
                    list.push(b);
                }
            }
        }
        let lo = only
            .values()
            .flatten()
            .map(|(b, from)| (*b, *from))
            .collect();
        Order {
            place,
            only,
            first,
            flat,
            lo,
            givers,
            bonus,
        }
    }

    /// The node of an event: its item or species.
    fn node(&self, graph: &Graph, event: Event) -> NodeId {
        match event {
            Event::Item(i) => graph.item_node[i.index()],
            Event::Species(s) => graph.species_node[s.index()],
        }
    }

    /// Whether a box is filled only outside the cascade of an event: by a die face, an item's
    /// use, the turn or a ball, and by no bonus chain that can start inside one.
    fn top_level(&self, game: &Game, b: BoxId) -> bool {
        super::bounded::outside_cascades(&game.guide, game.guide.get(b), &self.bonus)
    }

    /// Whether a box is open from the start and filled as soon as it opens (a free box with
    /// no requirement, after only such boxes in its track): the first cascade of the game,
    /// at the first Turn Tracker box, fills it.
    fn at_start(&self, game: &Game, b: BoxId) -> bool {
        let guide = &game.guide;
        let def = guide.get(b);
        guide.track(def.track).boxes[..=def.index].iter().all(|x| {
            let d = guide.get(*x);
            d.cause.value == Cause::Free && d.requires.is_empty()
        })
    }

    /// Whether a node, holding, stands for something done only outside a cascade: filling a
    /// box only that fills, meeting a card, using an item with a Trainer face.
    fn outside_cascades(&self, game: &Game, graph: &Graph, node: NodeId) -> bool {
        let n = graph.node(node);
        match n.fact {
            Fact::Box(b) => self.top_level(game, b),
            Fact::Encounter(_) | Fact::Catch(_) => true,
            Fact::Use(_) => n
                .deps
                .iter()
                .any(|e| matches!(graph.node(e.to).fact, Fact::Face(_))),
            _ => false,
        }
    }

    /// When `g` is filled exactly by the `j`th occurrence of one event: that event and `j`.
    fn pinned(&self, game: &Game, g: BoxId) -> Option<(Event, u32)> {
        let (event, j) = self.run(game, g)?;
        (self.flat.get(&event).copied().unwrap_or(false)).then_some((event, j))
    }

    /// When `g` is the first box of its track and waits for one event and nothing else, and no
    /// box of its slot names that event before it: that event, which it fills by the end of
    /// the event's first occurrence (the occurrence selects it, whatever happens within).
    fn first_of(&self, game: &Game, g: BoxId) -> Option<Event> {
        match self.run(game, g) {
            Some((event, 1)) => Some(event),
            _ => None,
        }
    }

    /// When `g` is the `j`th of a run of boxes at the start of its track that wait for one
    /// event and nothing else, the first boxes of its slot naming that event: the event, `j`.
    fn run(&self, game: &Game, g: BoxId) -> Option<(Event, u32)> {
        let guide = &game.guide;
        let def = guide.get(g);
        let event = exact(&def.cause.value)?;
        let trigger = def.style == Style::Trigger;
        let run = &guide.track(def.track).boxes[..=def.index];
        let pure = run.iter().all(|b| {
            let d = guide.get(*b);
            exact(&d.cause.value) == Some(event)
                && (d.style == Style::Trigger) == trigger
                && d.requires.iter().all(|r| is_event(&r.value, event))
        });
        let first = self.first.get(&(def.section, trigger, event)).copied();
        (pure && first == Some(run[0])).then_some((event, run.len() as u32))
    }
}

/// One cascade a moment is inside: `giver`'s fill, at its `k`th reward, which makes `given`.
struct Level {
    giver: BoxId,
    k: usize,
    given: Event,
}

/// The cascades a moment is inside, innermost first: the giver at its gift; then, while the
/// event filling a level's box comes from exactly one gift and no card, the box giving it, at
/// that gift.
struct Stack {
    levels: Vec<Level>,
    /// Whether the outermost cascade is known to start outside any other: at a box filled
    /// only outside cascades, or at a catch or a gift from such boxes.
    complete: bool,
    /// The events whose cascades may be in progress at the moment.
    enclosing: Vec<Event>,
    /// The boxes filled whose gifts may still be coming.
    pending: Vec<BoxId>,
}

impl Stack {
    fn of(context: &Context, point: &Point) -> Stack {
        let game = context.game;
        let mut stack = Stack {
            levels: vec![Level {
                giver: point.giver,
                k: point.k,
                given: point.event,
            }],
            complete: false,
            enclosing: Vec::new(),
            pending: vec![point.giver],
        };
        // The levels while each box's event comes from exactly one gift and no card.
        const DEPTH: usize = 32;
        while stack.levels.len() < DEPTH {
            let b = stack.levels.last().expect("a level").giver;
            let Some(event) = exact(&game.guide.get(b).cause.value) else {
                break;
            };
            match ways_in(context, point, event).as_slice() {
                [(p, k)] if !caught(context, event) && !stack.pending.contains(p) => {
                    stack.pending.push(*p);
                    stack.levels.push(Level {
                        giver: *p,
                        k: *k,
                        given: event,
                    });
                }
                _ => break,
            }
        }
        // Whether every way the outermost level's box can be filled starts outside any other
        // cascade, and which events' cascades it may be inside.
        let outermost = stack.levels.last().expect("a level").giver;
        let mut known: HashMap<BoxId, Option<Vec<Event>>> = HashMap::new();
        if let Some(events) = enclosed(context, point, outermost, &mut known, 0) {
            stack.complete = true;
            for level in &stack.levels {
                if let Some(e) = exact(&game.guide.get(level.giver).cause.value) {
                    stack.enclosing.push(e);
                }
            }
            for level in &stack.levels[1..] {
                stack.enclosing.push(level.given);
            }
            stack.enclosing.extend(events);
            // Every box whose gift may enclose the moment may still be giving.
            stack.pending.extend(known.keys().copied());
        }
        stack
    }
}

/// Whether a species can be caught (a card of it can be).
fn caught(context: &Context, event: Event) -> bool {
    let Context {
        game, graph, reach, ..
    } = *context;
    match event {
        Event::Species(s) => game.card_ids().any(|c| {
            game.card(c).species.value == Some(s) && reach.of(graph.catch_node[c.index()])
        }),
        Event::Item(_) => false,
    }
}

/// The gifts that can make an event (boxes and reward indices), but those of boxes that can
/// only be filled after the moment: a box that needs the item the moment obtains for the
/// first time (filled by obtaining or using it, or requiring it).
fn ways_in(context: &Context, point: &Point, event: Event) -> Vec<(BoxId, usize)> {
    let Context { game, order, .. } = *context;
    let guide = &game.guide;
    let after_first = |p: BoxId| match point.event {
        Event::Item(i) => {
            let d = guide.get(p);
            d.cause.value == Cause::Obtain(vec![i])
                || d.cause.value == Cause::Use(i)
                || d.requires.iter().any(|r| r.value == Requirement::Item(i))
        }
        Event::Species(_) => false,
    };
    let mut out = Vec::new();
    for p in order.givers.get(&event).map(Vec::as_slice).unwrap_or_default() {
        if after_first(*p) {
            continue;
        }
        let rewards = &guide.get(*p).rewards;
        for (k, r) in rewards.iter().enumerate() {
            let gives = match (&r.value, event) {
                (Reward::Item(i), Event::Item(e)) => {
                    *i == e && !rewards[..k].iter().any(|x| x.value == r.value)
                }
                (Reward::Species(s), Event::Species(e)) => *s == e,
                _ => false,
            };
            if gives {
                out.push((*p, k));
            }
        }
    }
    out
}

/// When every way `b` can be filled starts outside any cascade (at the top of a turn, at a
/// catch, or at gifts from such boxes): the events whose cascades its filling may be inside.
/// Each box is looked at once (`known`); a loop or a depth past the bound is unknown.
fn enclosed(
    context: &Context,
    point: &Point,
    b: BoxId,
    known: &mut HashMap<BoxId, Option<Vec<Event>>>,
    depth: usize,
) -> Option<Vec<Event>> {
    let Context { game, order, .. } = *context;
    if let Some(result) = known.get(&b) {
        return result.clone();
    }
    if order.top_level(game, b) {
        known.insert(b, Some(Vec::new()));
        return Some(Vec::new());
    }
    const DEPTH: usize = 16;
    if depth > DEPTH {
        return None;
    }
    // Unknown while being looked at: a loop stays unknown.
    known.insert(b, None);
    let event = exact(&game.guide.get(b).cause.value)?;
    let mut events = vec![event];
    for (p, _) in ways_in(context, point, event) {
        let inner = enclosed(context, point, p, known, depth + 1)?;
        for e in inner {
            if !events.contains(&e) {
                events.push(e);
            }
        }
    }
    known.insert(b, Some(events.clone()));
    Some(events)
}

/// What every moment reads.
struct Context<'a> {
    game: &'a Game,
    graph: &'a Graph,
    reach: &'a Reach,
    order: &'a Order,
    points: &'a HashMap<Event, Vec<Point>>,
}

/// What can hold in a game where `w` is never filled.
fn without(context: &Context, w: BoxId) -> Reach {
    let Context { game, graph, .. } = context;
    let mut never = vec![false; graph.nodes.len()];
    never[graph.box_node[w.index()].0 as usize] = true;
    fixpoint_at(
        graph,
        game,
        &Moment {
            never: &never,
            quiet: &[],
            muted: &|_, _| false,
        },
    )
}

/// The givers of `w`'s events that cannot be filled unless `w` is: a fixpoint without it.
fn after(context: &Context, w: BoxId) -> Vec<BoxId> {
    let Context {
        game,
        graph,
        points,
        ..
    } = context;
    let without = without(context, w);
    events(&game.guide.get(w).cause.value)
        .iter()
        .flat_map(|e| points.get(e).map(Vec::as_slice).unwrap_or_default())
        .map(|p| p.giver)
        .filter(|g| !without.of(graph.box_node[g.index()]))
        .collect()
}

/// Works out one moment, and which of `boxes` are closed at it.
fn moment(
    context: &Context,
    point: &Point,
    boxes: &[BoxId],
    verdicts: &mut HashMap<BoxId, Verdict>,
    budget: &mut Budget,
) {
    let Context {
        game,
        graph,
        reach,
        order,
        ..
    } = *context;
    let guide = &game.guide;
    let g = point.giver;
    let def = guide.get(g);
    let mut never = vec![false; graph.nodes.len()];
    let mut roots: Vec<(NodeId, Root)> = Vec::new();
    let put = |node: NodeId, root: Root, never: &mut Vec<bool>, roots: &mut Vec<(NodeId, Root)>| {
        if !never[node.0 as usize] {
            never[node.0 as usize] = true;
            roots.push((node, root));
        }
    };
    if let Event::Item(i) = point.event {
        put(graph.item_node[i.index()], Root::Item, &mut never, &mut roots);
        for (b, other) in guide.boxes.iter().enumerate() {
            let b = BoxId(b as u32);
            if b != g && other.rewards.iter().any(|r| r.value == Reward::Item(i)) {
                put(graph.box_node[b.index()], Root::OtherGiver(b), &mut never, &mut roots);
            }
        }
    }
    // A species given at this one gift and caught from no card has not been collected before.
    if let Event::Species(sp) = point.event
        && !caught(context, point.event)
        && ways_in(context, point, point.event).len() == 1
    {
        put(
            graph.species_node[sp.index()],
            Root::Item,
            &mut never,
            &mut roots,
        );
    }
    // A box open from the start and filled as soon as it opens gives in the game's first
    // cascade, at the first Turn Tracker box: nothing done outside a cascade (a die face, a
    // card, an item used, a later turn, a ball) has happened.
    if order.at_start(game, g) {
        let first_turn = guide
            .sections
            .iter()
            .flat_map(|s| &s.tracks)
            .flat_map(|t| &guide.track(*t).boxes)
            .copied()
            .find(|b| guide.get(*b).cause.value == Cause::Turn);
        for (i, _) in graph.nodes.iter().enumerate() {
            let node = NodeId(i as u32);
            let first = first_turn.is_some_and(|t| graph.box_node[t.index()] == node);
            if !first && order.outside_cascades(game, graph, node) && reach.holds[i] {
                put(node, Root::Start, &mut never, &mut roots);
            }
        }
    }
    let stack = Stack::of(context, point);
    // How a quiet node's users are muted: all of them, those done only outside a cascade,
    // and some gifts (the box's rewards from one on).
    let mut quiet = vec![false; graph.nodes.len()];
    let mut rules: HashMap<NodeId, (bool, bool, Vec<NodeId>)> = HashMap::new();
    let mut quieten = |node: NodeId, all: bool, outside: bool, cut: Vec<NodeId>| {
        quiet[node.0 as usize] = true;
        let rule = rules.entry(node).or_insert((false, false, Vec::new()));
        rule.0 |= all;
        rule.1 |= outside;
        rule.2.extend(cut);
    };
    let mut labels: HashMap<NodeId, Root> = HashMap::new();
    for (l, level) in stack.levels.iter().enumerate() {
        let b = level.giver;
        let bdef = guide.get(b);
        // Boxes the engine's order fills after this level's box, by the same event: by a
        // later occurrence, or by the same one after it. When the event may happen inside a
        // cascade of itself, only the first occurrence is known, and only while nothing the
        // box gives before this gift could make the event again.
        let earlier_gifts = bdef.rewards[..level.k]
            .iter()
            .any(|r| !matches!(r.value, Reward::Habitat(_)));
        if let Some((event, j)) = order.run(game, b) {
            let flat = order.flat.get(&event).copied().unwrap_or(false);
            let at = order.place[b.index()];
            for (x, from) in order.only.get(&event).map(Vec::as_slice).unwrap_or_default() {
                let later = *from > j && flat;
                let after = *from == j
                    && order.place[x.index()] > at
                    && (flat || (j == 1 && !earlier_gifts));
                if *x != b && (later || after) {
                    let root = Root::Order {
                        r#box: *x,
                        giver: b,
                        event: EventName(b),
                        same: !later,
                    };
                    put(graph.box_node[x.index()], root, &mut never, &mut roots);
                }
            }
        }
        // Filled by an event's first occurrence, the box is inside that occurrence's cascade:
        // the event has only just happened, and what needs it besides the boxes a cascade
        // can fill (boxes filled at the top of a turn, cards, items used with a Trainer
        // face) waits.
        if let Some(event) = order.first_of(game, b) {
            let node = order.node(graph, event);
            quieten(node, false, true, Vec::new());
            labels.entry(node).or_insert(Root::Just(EventName(b)));
        }
        // A gift the moment is inside happened first (the only one of its event).
        if l > 0 {
            let node = order.node(graph, level.given);
            quieten(node, false, true, Vec::new());
            labels.entry(node).or_insert(Root::JustGiven(b, level.given));
        }
        // What the box's fill leads to before this gift: nothing, unless an earlier reward
        // is an item or a species (whose events may fill what waits for it); its later gifts
        // have not come.
        let earlier = bdef.rewards[..level.k]
            .iter()
            .any(|r| !matches!(r.value, Reward::Habitat(_)));
        let reward_node = |r: &Reward| match r {
            Reward::Item(i) => Some(graph.item_node[i.index()]),
            Reward::Species(s) => Some(graph.species_node[s.index()]),
            _ => None,
        };
        let from = if l == 0 { level.k } else { level.k + 1 };
        let cut: Vec<NodeId> = bdef.rewards[from.min(bdef.rewards.len())..]
            .iter()
            .filter_map(|r| reward_node(&r.value))
            .filter(|n| {
                !bdef.rewards[..from.min(bdef.rewards.len())]
                    .iter()
                    .any(|r| reward_node(&r.value) == Some(*n))
            })
            .collect();
        let node = graph.box_node[b.index()];
        if l == 0 {
            quieten(node, !earlier, false, cut);
            labels.insert(node, Root::Giver);
        } else {
            quieten(node, false, true, cut);
            labels.entry(node).or_insert(Root::Within(b));
        }
    }
    // When the cascades the moment is inside are all known, every other event's cascade is
    // over: an event whose first occurrence always fills a box still empty now has not
    // happened, and an event that has not happened has not given anything either (each box
    // giving it, but those whose gifts may still be coming, is still empty). Each node is
    // marked once, so this is linear.
    if stack.complete {
        let mut next = 0;
        while next < roots.len() {
            let (node, _) = roots[next];
            next += 1;
            match graph.node(node).fact {
                Fact::Box(x) => {
                    if let Some(event) = order.first_of(game, x)
                        && !stack.enclosing.contains(&event)
                    {
                        let root = Root::Implied {
                            r#box: x,
                            event: EventName(x),
                        };
                        put(order.node(graph, event), root, &mut never, &mut roots);
                    }
                }
                Fact::Item(_) | Fact::Species(_) => {
                    let event = match graph.node(node).fact {
                        Fact::Item(i) => Event::Item(i),
                        Fact::Species(s) => Event::Species(s),
                        _ => unreachable!("an item or a species"),
                    };
                    for y in order.givers.get(&event).map(Vec::as_slice).unwrap_or_default() {
                        if !stack.pending.contains(y) {
                            let root = Root::Ungiven { r#box: *y, event };
                            put(graph.box_node[y.index()], root, &mut never, &mut roots);
                        }
                    }
                }
                _ => {}
            }
        }
    }
    // Boxes filled by then: at each level, the boxes its box's event (never inside a cascade
    // of itself) fills by an earlier occurrence, or by the same one before it. One of them
    // known empty means no game reaches this moment.
    for level in &stack.levels {
        let b = level.giver;
        let Some(event) = exact(&guide.get(b).cause.value) else {
            continue;
        };
        if !order.flat.get(&event).copied().unwrap_or(false) {
            continue;
        }
        let Some(lo) = order.lo.get(&b).copied() else {
            continue;
        };
        let at = order.place[b.index()];
        for (x, _) in order.only.get(&event).map(Vec::as_slice).unwrap_or_default() {
            if let Some((_, j)) = order.pinned(game, *x)
                && (j < lo || (j == lo && order.place[x.index()] < at))
                && never[graph.box_node[x.index()].0 as usize]
            {
                return;
            }
        }
    }
    let muted = |from: NodeId, user: NodeId| match rules.get(&from) {
        Some((all, outside, cut)) => {
            *all || cut.contains(&user) || (*outside && order.outside_cascades(game, graph, user))
        }
        None => false,
    };
    let at = fixpoint_at(
        graph,
        game,
        &Moment {
            never: &never,
            quiet: &quiet,
            muted: &muted,
        },
    );
    let quiet_giver = graph.box_node[g.index()];
    // A moment no game reaches: the giver cannot be filled then.
    if !at.of(quiet_giver) {
        return;
    }
    let quiet_nodes: Vec<NodeId> = rules.keys().copied().collect();
    let mut why: Option<(Vec<Option<NodeId>>, HashMap<NodeId, Root>)> = None;
    for w in boxes {
        let verdict = verdicts.get_mut(w).expect("a verdict per waiting box");
        if !verdict.closed {
            continue;
        }
        let Some(closed) = closed_at(game, graph, &at, *w, point.event) else {
            // Open then, unless the moment comes only once `w` is filled.
            let cost = graph.nodes.len() * 4 + 64;
            if g != *w && verdict.after.is_none() && budget.0 >= cost {
                budget.0 -= cost;
                verdict.after = Some(after(context, *w));
            }
            let late = g == *w || verdict.after.as_ref().is_some_and(|a| a.contains(&g));
            if !late {
                verdict.closed = false;
            }
            continue;
        };
        verdict.moments += 1;
        if verdict.explained.len() >= SHOWN {
            continue;
        }
        let (why, index) = why.get_or_insert_with(|| {
            let mut index: HashMap<NodeId, Root> = roots.iter().copied().collect();
            for (node, root) in &labels {
                index.entry(*node).or_insert(*root);
            }
            (why_not(graph, reach, &at, &roots, &quiet_nodes, &muted), index)
        });
        let start = match closed {
            Closed::Before(p) => graph.box_node[p.index()],
            Closed::Needs(_, node) => node,
        };
        let (steps, root) = chain(graph, why, index, start);
        verdict.explained.push(Occasion {
            giver: g,
            gift: def.rewards[point.k].origin,
            closed,
            steps,
            root,
        });
    }
}

/// Why `w` is closed at the moment `at` of `event`, if it is.
fn closed_at(game: &Game, graph: &Graph, at: &Reach, w: BoxId, event: Event) -> Option<Closed> {
    let guide = &game.guide;
    if let Some(p) = guide.previous(w)
        && !at.of(graph.box_node[p.index()])
    {
        return Some(Closed::Before(p));
    }
    let def = guide.get(w);
    let node = graph.box_node[w.index()];
    for requirement in &def.requires {
        if is_event(&requirement.value, event) {
            continue;
        }
        let missing = match requirement.value {
            Requirement::Item(i) => Some(graph.item_node[i.index()]),
            Requirement::Species(s) => Some(graph.species_node[s.index()]),
            // Access: the track's first box filled (the giver itself, perhaps).
            Requirement::Area(t) => match guide.track(t).boxes.first() {
                Some(first) => Some(graph.box_node[first.index()]),
                None => continue,
            },
            Requirement::Box(x) => Some(graph.box_node[x.index()]),
            Requirement::Vp(n) if at.max_vp < n => graph
                .node(node)
                .deps
                .iter()
                .find(|e| graph.node(e.to).fact == Fact::Vp(n))
                .map(|e| e.to),
            Requirement::Vp(_) | Requirement::Unknown => None,
        };
        if let Some(missing) = missing
            && !at.of(missing)
        {
            return Some(Closed::Needs(requirement.origin, missing));
        }
    }
    None
}

/// For each node that holds in `reach` but not at the moment, the dependency that keeps it
/// out (itself for a root): one pass from the roots along the users.
fn why_not(
    graph: &Graph,
    reach: &Reach,
    at: &Reach,
    roots: &[(NodeId, Root)],
    quiet: &[NodeId],
    muted: &dyn Fn(NodeId, NodeId) -> bool,
) -> Vec<Option<NodeId>> {
    let mut pointer: Vec<Option<NodeId>> = vec![None; graph.nodes.len()];
    let mut queue: std::collections::VecDeque<NodeId> = std::collections::VecDeque::new();
    for (node, _) in roots {
        pointer[node.0 as usize] = Some(*node);
        queue.push_back(*node);
    }
    // Counts not reached yet are roots too.
    for (i, node) in graph.nodes.iter().enumerate() {
        if matches!(node.kind, Kind::VpAtLeast(_) | Kind::HabitatsFor { .. })
            && reach.holds[i]
            && !at.holds[i]
        {
            pointer[i] = Some(NodeId(i as u32));
            queue.push_back(NodeId(i as u32));
        }
    }
    queue.extend(quiet.iter().copied());
    while let Some(m) = queue.pop_front() {
        for user in graph.users(m) {
            let u = user.0 as usize;
            if quiet.contains(&m) && !muted(m, *user) {
                continue;
            }
            if reach.holds[u] && !at.holds[u] && pointer[u].is_none() {
                pointer[u] = Some(m);
                queue.push_back(*user);
            }
        }
    }
    pointer
}

/// The steps from `start` to its root, and the root.
fn chain(
    graph: &Graph,
    why: &[Option<NodeId>],
    roots: &HashMap<NodeId, Root>,
    start: NodeId,
) -> (Vec<Step>, Root) {
    let mut steps = Vec::new();
    let mut at = start;
    for _ in 0..graph.nodes.len() {
        if let Some(root) = roots.get(&at) {
            return (steps, *root);
        }
        match why[at.0 as usize] {
            Some(next) if next == at => return (steps, Root::Count(at)),
            Some(next) => {
                let edge: Edge = *graph
                    .node(at)
                    .deps
                    .iter()
                    .find(|e| e.to == next)
                    .expect("a pointer follows a dependency");
                steps.push(Step { from: at, edge });
                at = next;
            }
            None => break,
        }
    }
    (steps, Root::Count(at))
}

/// A report of a late box, in words: its code, message, the text of its primary label (on the
/// box), the labels of its reasons, and its help.
pub struct Words {
    pub counted: bool,
    pub message: String,
    pub primary: String,
    pub labels: Vec<(Origin, String)>,
    pub help: String,
}

/// "1st", "2nd", "3rd", "4th", ...
fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// One link of a chain, said for a moment of play: what is missing then (`yet`), or what
/// comes first (otherwise).
fn say(game: &Game, graph: &Graph, step: &Step, yet: bool) -> String {
    use super::explain::{link_text, name};
    use super::graph::Why;
    let from = graph.node(step.from);
    let providers = matches!(
        step.edge.why,
        Why::CaughtFrom | Why::GivenBy | Why::GrantedBy
    );
    if providers && from.kind == Kind::Any && from.deps.len() > 1 {
        if !yet {
            return format!(
                "{} comes at the earliest from {}",
                name(game, from.fact),
                name(game, graph.node(step.edge.to).fact)
            );
        }
        const SHOWN: usize = 4;
        let mut names: Vec<String> = from
            .deps
            .iter()
            .take(SHOWN)
            .map(|e| name(game, graph.node(e.to).fact))
            .collect();
        if from.deps.len() > SHOWN {
            names.push(format!("{} more", from.deps.len() - SHOWN));
        }
        let last = names.pop().unwrap_or_default();
        return format!(
            "{} comes only from {} or {last}, none of them there yet",
            name(game, from.fact),
            names.join(", ")
        );
    }
    link_text(
        game,
        from.fact,
        step.edge.why,
        graph.node(step.edge.to).fact,
    )
}

/// Says why `late` is never filled; `what` names it with the boxes after it.
pub fn words(game: &Game, graph: &Graph, late: &Late, what: &str) -> Words {
    match &late.reason {
        Reason::Closed { moments, explained } => {
            closed_words(game, graph, late, *moments, explained, what)
        }
        Reason::Counted {
            nth,
            bound,
            cards,
            gifts,
            later,
            competed,
            steps,
        } => counted_words(
            game,
            graph,
            late,
            (*nth, *bound, *cards, *gifts),
            (later, competed),
            steps,
            what,
        ),
    }
}

fn counted_words(
    game: &Game,
    graph: &Graph,
    late: &Late,
    (nth, bound, cards, gifts): (u32, u32, u32, u32),
    (later, competed): (&[BoxId], &[(BoxId, Vec<BoxId>)]),
    steps: &[Step],
    what: &str,
) -> Words {
    use super::explain::tidy;
    let guide = &game.guide;
    let id = |b: BoxId| format!("`{}`", guide.get(b).id);
    let w = late.r#box;
    let event = &late.event;
    let times = match bound {
        1 => "once a game".to_string(),
        n => format!("at most {n} times a game"),
    };
    let plural = |n: u32, one: &str, many: &str| match n {
        1 => format!("1 {one}"),
        n => format!("{n} {many}"),
    };
    let sources = match (cards, gifts) {
        (0, 0) => String::new(),
        (0, g) => format!(": {} give{} it", plural(g, "box", "boxes"), if g == 1 { "s" } else { "" }),
        (c, 0) => format!(
            ": it has {}, and a caught card leaves the deck",
            plural(c, "card", "cards")
        ),
        (c, g) => format!(
            ": it has {} and {} giving it, and a caught card leaves the deck",
            plural(c, "card", "cards"),
            plural(g, "box", "boxes")
        ),
    };
    let before = match later.is_empty() {
        true => String::new(),
        false => format!(" before {} is filled", id(w)),
    };
    let message = format!(
        "{} can only be filled by the {} {event} or a later one, and {event} happens {times}{before}{sources}",
        id(w),
        ordinal(nth)
    );
    // The chain, cut at each box filled only by the event: each takes an earlier occurrence,
    // and the links after it say what it waits for.
    let cause = &guide.get(w).cause.value;
    let only = |n: NodeId| match graph.node(n).fact {
        Fact::Box(b) if guide.get(b).cause.value == *cause => Some(b),
        _ => None,
    };
    let steps = tidy(graph, steps);
    let mut segments: Vec<(BoxId, Vec<String>)> = vec![(w, Vec::new())];
    for step in &steps {
        if let Some(b) = only(step.from)
            && b != segments.last().expect("W's segment").0
        {
            segments.push((b, Vec::new()));
        }
        let text = say(game, graph, step, false);
        segments.last_mut().expect("a segment").1.push(text);
    }
    if let Some(b) = steps.last().and_then(|s| only(s.edge.to))
        && b != segments.last().expect("a segment").0
    {
        segments.push((b, Vec::new()));
    }
    let mut labels: Vec<(Origin, String)> = Vec::new();
    let mut own: Vec<String> = Vec::new();
    let mut taker_labels: Vec<(Origin, String)> = Vec::new();
    for (k, (b, mut links)) in segments.into_iter().enumerate() {
        if let Some((_, takers)) = competed.iter().find(|(c, _)| *c == b) {
            let names: Vec<String> = takers.iter().map(|t| id(*t)).collect();
            links.push(format!(
                "{} of its section take{} the earlier ones",
                names.join(", "),
                if names.len() == 1 { "s" } else { "" }
            ));
            for t in takers {
                let origin = guide.get(*t).origin;
                if !taker_labels.iter().any(|(o, _)| *o == origin) {
                    taker_labels.push((
                        origin,
                        format!("{} takes one {event} before {}", id(*t), id(b)),
                    ));
                }
            }
        }
        if k == 0 {
            own = links;
            continue;
        }
        let occurrence = nth.saturating_sub(k as u32).max(1);
        let mut text = format!(
            "{} is filled by the {} {event} at the earliest",
            id(b),
            ordinal(occurrence)
        );
        if !links.is_empty() {
            text = format!("{text}: {}", links.join(", "));
        }
        let origin = guide.get(b).origin;
        if !labels.iter().any(|(o, _)| *o == origin) {
            labels.push((origin, text));
        }
    }
    for (origin, text) in taker_labels {
        if !labels.iter().any(|(o, _)| *o == origin) && origin != guide.get(w).origin {
            labels.push((origin, text));
        }
    }
    for g in later.iter().take(SHOWN) {
        let gift = guide
            .get(*g)
            .rewards
            .iter()
            .find(|r| matches!(r.value, Reward::Species(_)))
            .map_or(guide.get(*g).origin, |r| r.origin);
        labels.push((
            gift,
            format!(
                "{} gives it too, but can only be filled once {} is",
                id(*g),
                id(w)
            ),
        ));
    }
    let primary = match own.is_empty() {
        true => format!(
            "so {what} can never be filled: {event} does not happen a {} time",
            ordinal(nth)
        ),
        false => format!(
            "so {what} can never be filled: {event} does not happen a {} time ({})",
            ordinal(nth),
            own.join(", ")
        ),
    };
    let help = format!(
        "each box filled only by {event} takes one occurrence of it, and an event fills only the boxes open when it happens: give {} another `fill`, or let {event} happen more often",
        id(w)
    );
    Words {
        counted: true,
        message,
        primary,
        labels,
        help,
    }
}

fn closed_words(
    game: &Game,
    graph: &Graph,
    late: &Late,
    moments: usize,
    explained: &[Occasion],
    what: &str,
) -> Words {
    use super::explain::{name, tidy};
    let guide = &game.guide;
    let id = |b: BoxId| format!("`{}`", guide.get(b).id);
    let w = late.r#box;
    let event = &late.event;
    let mut givers: Vec<String> = Vec::new();
    for o in explained {
        if !givers.contains(&id(o.giver)) {
            givers.push(id(o.giver));
        }
    }
    let more = moments.saturating_sub(explained.len());
    if more > 0 {
        givers.push(format!("{more} more"));
    }
    let message = match givers.len() {
        0 => format!(
            "{} waits for {event}, which never happens before it is filled",
            id(w)
        ),
        n => {
            let last = givers.pop().unwrap_or_default();
            let list = match givers.is_empty() {
                true => last,
                false => format!("{} or {last}", givers.join(", ")),
            };
            format!(
                "{} waits for {event}, which happens only when {list} {} filled, and it is never open then",
                id(w),
                if n == 1 { "is" } else { "are" }
            )
        }
    };
    let mut labels: Vec<(Origin, String)> = Vec::new();
    let add = |origin: Origin, text: String, labels: &mut Vec<(Origin, String)>| {
        if !labels.iter().any(|(o, _)| *o == origin) {
            labels.push((origin, text));
        }
    };
    for o in explained {
        let g = id(o.giver);
        add(
            o.gift,
            format!("{event} happens here, when {g} is filled"),
            &mut labels,
        );
        let (start, origin, mut text) = match o.closed {
            Closed::Before(p) => (
                Some(p),
                guide.get(p).origin,
                format!("{}, before {}, is still empty then", id(p), id(w)),
            ),
            Closed::Needs(origin, node) => (
                match graph.node(node).fact {
                    Fact::Box(b) => Some(b),
                    _ => None,
                },
                origin,
                format!(
                    "{} needs {}, not there yet then",
                    id(w),
                    name(game, graph.node(node).fact)
                ),
            ),
        };
        let steps = tidy(graph, &o.steps);
        if !steps.is_empty() {
            let links: Vec<String> = steps.iter().map(|s| say(game, graph, s, true)).collect();
            text = format!("{text}: {}", links.join(", "));
        }
        let (root_box, because) = match o.root {
            Root::Order {
                r#box,
                giver,
                event,
                same,
            } => (
                Some(r#box),
                match (same, Some(r#box) == start) {
                    (true, true) => format!(
                        "the same {} fills it after {o}, and an event fills its boxes in Field Guide order, each with all that follows from it before the next",
                        event.text(game),
                        o = id(giver)
                    ),
                    (true, false) => format!(
                        "{} is filled by the same {} as {o}, after it: an event fills its boxes in Field Guide order, each with all that follows from it before the next",
                        id(r#box),
                        event.text(game),
                        o = id(giver)
                    ),
                    (false, true) => format!(
                        "only a later {} than the one filling {o} can fill it",
                        event.text(game),
                        o = id(giver)
                    ),
                    (false, false) => format!(
                        "{} is filled only by a later {} than the one filling {o}",
                        id(r#box),
                        event.text(game),
                        o = id(giver)
                    ),
                },
            ),
            Root::Giver => (
                None,
                format!("it waits for {g} itself, and what filling {g} opens comes after its gift"),
            ),
            Root::Item => (None, format!("that is what {event} gives")),
            Root::OtherGiver(b) => (
                Some(b),
                format!(
                    "{} gives it too, so it is still empty when {g} gives it first",
                    id(b)
                ),
            ),
            Root::Count(node) => (
                None,
                format!("{} cannot be reached by then", name(game, graph.node(node).fact)),
            ),
            Root::Just(event) => (
                None,
                format!(
                    "{} fills {g} and has only just happened: what needs it outside the cascade of its fills comes later",
                    event.text(game)
                ),
            ),
            Root::Start => (
                None,
                format!("{g} is filled at the start of the game, as soon as it opens, before any die is rolled"),
            ),
            Root::Within(b) => (
                None,
                format!(
                    "it waits for {}, whose gift this happens inside: what filling {} opens outside a cascade comes later",
                    id(b),
                    id(b)
                ),
            ),
            Root::JustGiven(b, given) => (
                None,
                format!(
                    "{} has only just happened, given by {}: what needs it outside a cascade comes later",
                    match given {
                        Event::Item(i) => format!("obtaining `{}`", game.item(i).id),
                        Event::Species(s) => format!("collecting `{}`", game.species(s).id),
                    },
                    id(b)
                ),
            ),
            Root::Ungiven { r#box, event } => (
                Some(r#box),
                format!(
                    "{} gives {}, which has not happened yet",
                    id(r#box),
                    match event {
                        Event::Item(i) => format!("item `{}`", game.item(i).id),
                        Event::Species(s) => format!("species `{}`", game.species(s).id),
                    }
                ),
            ),
            Root::Implied { r#box, event } => (
                Some(r#box),
                format!(
                    "{} is filled as soon as {} first happens, and it is still empty then: {g} is filled outside any cascade, after every earlier one is over",
                    id(r#box),
                    event.text(game)
                ),
            ),
        };
        match root_box {
            Some(r) if Some(r) != start => {
                add(origin, text, &mut labels);
                add(guide.get(r).origin, because, &mut labels);
            }
            _ => add(origin, format!("{text}: {because}"), &mut labels),
        }
    }
    let help = match explained.first().map(|o| (o.giver, o.root)) {
        Some((g, Root::Order { r#box, same: true, .. }))
            if explained
                .iter()
                .all(|o| matches!(o.root, Root::Order { same: true, .. })) =>
        {
            format!(
                "an event fills only the boxes open when it happens: put {} before {} in the Field Guide (then the same event fills it first), or give {} another `fill`",
                id(r#box),
                id(g),
                id(w)
            )
        }
        _ => format!(
            "an event fills only the boxes open when it happens: give {} another `fill`, or let what it waits for come before {event}",
            id(w)
        ),
    };
    Words {
        counted: false,
        message,
        primary: format!("so {what} can never be filled: it is closed whenever {event} happens"),
        labels,
        help,
    }
}
