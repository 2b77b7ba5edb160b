//! The fact graph: what a player can obtain, and what each thing depends on.
//!
//! Every box, item, species, area access, card and die face is a node. A box is an AND node
//! (the box before it, its requirements, and something that fills it); an item, a species or
//! an area is an OR node (any box or card that provides it); victory-point thresholds and
//! habitat criteria are counting nodes over the boxes obtained so far. Reachability is the
//! least fixpoint of this graph from an empty sheet, computed with a worklist in linear time.
//! Because every reachable box is assumed filled together in one game, the fixpoint
//! over-approximates what play can reach: it never calls a fillable box unreachable.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::model::*;
use crate::world::Origin;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u32);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fact {
    Box(BoxId),
    /// What can fill a box: its cause, or a bonus chain.
    Fill(BoxId),
    Item(ItemId),
    Species(SpeciesId),
    /// Any one of several species (a guest box labelled "Psyduck / Slowpoke").
    AnySpecies(BoxId),
    /// Any one of several items (a trigger on obtaining one of them).
    AnyItem(BoxId),
    /// A box filled by obtaining items that the boxes before it in its track have used up
    /// (each item is obtained once a game).
    ObtainedOnce(BoxId),
    /// A box whose event happens a bounded number of times, all taken by other boxes of its
    /// section (see `bounded.rs`).
    Exhausted(BoxId),
    /// A box no order of play fills, though each thing it needs can happen (see `play.rs`).
    Late(BoxId),
    /// Using an item: having it, and a Trainer face to spend.
    Use(ItemId),
    Area(TrackId),
    /// A card's criteria can be met (it can be encountered).
    Encounter(CardId),
    /// A card can be caught: encountered, and its capture rate rolled.
    Catch(CardId),
    Habitats(CardId),
    Capture(CardId),
    Face(Action),
    Vp(u32),
    /// Some bonus box outside this section (for bonus boxes, which cannot chain within
    /// their own section), or any bonus box (`None`).
    Bonus(Option<SectionId>),
    /// Some card can be encountered, so a Safari Ball can be thrown.
    AnyEncounter,
    Always,
    /// A name that did not resolve: reported where it was written, never obtainable.
    Never,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    All,
    Any,
    Const(bool),
    /// Victory points of obtained boxes reach the threshold.
    VpAtLeast(u32),
    /// The card's habitat criteria can be met with the dice and obtained habitat bonuses.
    HabitatsFor {
        grass: u32,
        water: u32,
    },
    /// The capture dice, with the capture bonuses of the items obtained, reach this rate.
    CaptureAtLeast(u32),
}

/// Why a node depends on another: how to say the link, and where it was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why {
    After,
    Needs,
    FilledBy,
    GrantedBy,
    CaughtFrom,
    GivenBy,
    CardNeeds,
    AreaOpensWith,
    BonusFrom,
    Has,
}

#[derive(Debug, Clone, Copy)]
pub struct Edge {
    pub to: NodeId,
    pub why: Why,
    pub origin: Origin,
}

#[derive(Debug, Clone)]
pub struct Node {
    pub fact: Fact,
    pub kind: Kind,
    pub deps: Vec<Edge>,
}

/// What the expedition dice can show, for habitat criteria.
#[derive(Debug, Clone, Copy, Default)]
pub struct HabitatDice {
    pub grass: u32,
    pub water: u32,
    pub either: u32,
}

/// What items add to habitats and capture rolls, as their steps say (`Step::fits` drops the
/// steps that do not fit the item's kind, as the engine does).
#[derive(Debug, Clone, Default)]
pub struct ItemBonuses {
    /// Per item: the habitats it counts as while held.
    pub habitats: Vec<Bonuses>,
    /// Per item: what it adds to every capture roll while held.
    pub passive: Vec<u32>,
    /// Per item: what spending it adds to one roll (usable), when a Trainer face can show.
    pub boost: Vec<u32>,
    /// Dice with a Trainer face: at most this many boosts go into one roll.
    pub trainer_dice: u32,
    /// Whether any item counts as a habitat, or adds to a capture roll (most games: none).
    any_habitat: bool,
    any_capture: bool,
}

impl ItemBonuses {
    pub fn of(game: &Game, trainer_dice: u32) -> ItemBonuses {
        let mut bonuses = ItemBonuses {
            habitats: vec![Bonuses::default(); game.items.len()],
            passive: vec![0; game.items.len()],
            boost: vec![0; game.items.len()],
            trainer_dice,
            any_habitat: false,
            any_capture: false,
        };
        for (i, item) in game.items.iter().enumerate() {
            for step in item.effects.iter().filter(|s| s.value.fits(item.kind)) {
                match step.value {
                    Step::Habitat(Habitat::Grass) => bonuses.habitats[i].grass += 1,
                    Step::Habitat(Habitat::Water) => bonuses.habitats[i].water += 1,
                    Step::Habitat(Habitat::Any) => bonuses.habitats[i].any += 1,
                    Step::CaptureBonus(n) if item.kind == ItemKind::Passive => {
                        bonuses.passive[i] = bonuses.passive[i].saturating_add(n)
                    }
                    Step::CaptureBonus(n) if trainer_dice > 0 => {
                        bonuses.boost[i] = bonuses.boost[i].saturating_add(n)
                    }
                    _ => {}
                }
            }
        }
        bonuses.any_habitat = bonuses.habitats.iter().any(|b| *b != Bonuses::default());
        bonuses.any_capture = bonuses.passive.iter().chain(&bonuses.boost).any(|n| *n > 0);
        bonuses
    }

    /// The habitats the items `held` count as.
    pub(crate) fn habitats(&self, held: impl Fn(usize) -> bool) -> Bonuses {
        let mut total = Bonuses::default();
        if !self.any_habitat {
            return total;
        }
        for (i, b) in self.habitats.iter().enumerate() {
            if !held(i) {
                continue;
            }
            total.grass += b.grass;
            total.water += b.water;
            total.any += b.any;
        }
        total
    }

    /// What the items `held` can add to one capture roll: every passive bonus, and the largest
    /// boosts, one per Trainer face.
    pub fn capture(&self, held: impl Fn(usize) -> bool) -> u32 {
        if !self.any_capture {
            return 0;
        }
        let passive = (0..self.passive.len())
            .filter(|i| held(*i))
            .fold(0u32, |sum, i| sum.saturating_add(self.passive[i]));
        let mut boosts: Vec<u32> = (0..self.boost.len())
            .filter(|i| held(*i) && self.boost[*i] > 0)
            .map(|i| self.boost[i])
            .collect();
        boosts.sort_unstable_by(|a, b| b.cmp(a));
        boosts
            .into_iter()
            .take(self.trainer_dice as usize)
            .fold(passive, u32::saturating_add)
    }
}

/// Habitat bonuses obtained so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Bonuses {
    pub grass: u32,
    pub water: u32,
    pub any: u32,
}

impl HabitatDice {
    /// Whether `grass` and `water` habitats can count in one turn: dice showing habitats
    /// (each die shows one face, so grass and water dice must be distinct), plus bonuses.
    /// Drawing a card at all needs at least one habitat rolled.
    pub(crate) fn can_meet(&self, grass: u32, water: u32, bonus: Bonuses) -> bool {
        (0..=bonus.any).any(|to_grass| {
            let g = grass.saturating_sub(bonus.grass + to_grass);
            let w = water.saturating_sub(bonus.water + (bonus.any - to_grass));
            let rolled = (g + w).max(1);
            g <= self.grass && w <= self.water && rolled <= self.either
        })
    }

    /// The most habitats of one kind that can count, for explanations.
    pub fn most(&self, habitat: Habitat, bonus: Bonuses) -> u32 {
        match habitat {
            Habitat::Grass => self.grass + bonus.grass + bonus.any,
            Habitat::Water => self.water + bonus.water + bonus.any,
            Habitat::Any => self.either + bonus.grass + bonus.water + bonus.any,
        }
    }
}

pub struct Graph {
    pub nodes: Vec<Node>,
    pub box_node: Vec<NodeId>,
    pub fill_node: Vec<NodeId>,
    pub item_node: Vec<NodeId>,
    pub species_node: Vec<NodeId>,
    pub area_node: Vec<NodeId>,
    pub encounter_node: Vec<NodeId>,
    pub catch_node: Vec<NodeId>,
    pub habitat_dice: HabitatDice,
    /// Dice with each action face, by `Action as usize`.
    pub face_dice: [u32; 6],
    pub max_capture: u32,
    /// What items add to habitats and capture rolls.
    pub items: ItemBonuses,
    /// Boxes that wait for an event of bounded count that other boxes take first.
    pub exhausted: std::collections::HashMap<BoxId, super::bounded::Exhausted>,
    /// Boxes no order of play fills (see `play.rs`).
    pub late: std::collections::HashSet<BoxId>,
    /// Reverse edges in one flat array (`users[user_start[n]..user_start[n + 1]]` are the
    /// nodes that depend on node n), built once: the fixpoints walk them for every node.
    user_start: Vec<u32>,
    users: Vec<NodeId>,
}

impl Graph {
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.0 as usize]
    }

    /// The nodes that depend on `id`.
    pub(crate) fn users(&self, id: NodeId) -> &[NodeId] {
        let i = id.0 as usize;
        &self.users[self.user_start[i] as usize..self.user_start[i + 1] as usize]
    }

    fn index_users(&mut self) {
        let mut start = vec![0u32; self.nodes.len() + 1];
        for node in &self.nodes {
            for edge in &node.deps {
                start[edge.to.0 as usize + 1] += 1;
            }
        }
        for i in 1..start.len() {
            start[i] += start[i - 1];
        }
        let mut fill = start.clone();
        let mut users = vec![NodeId(0); *start.last().unwrap_or(&0) as usize];
        for (i, node) in self.nodes.iter().enumerate() {
            for edge in &node.deps {
                let slot = &mut fill[edge.to.0 as usize];
                users[*slot as usize] = NodeId(i as u32);
                *slot += 1;
            }
        }
        self.user_start = start;
        self.users = users;
    }

    pub fn build(game: &Game) -> Graph {
        Graph::build_with(game, Default::default())
    }

    /// The graph with the boxes `late` names never filled (no order of play fills them).
    pub fn build_with(game: &Game, late: std::collections::HashSet<BoxId>) -> Graph {
        let mut builder = Builder::new(game);
        builder.graph.late = late;
        builder.build();
        let mut graph = builder.graph;
        link_bonus_sections(&mut graph, game);
        graph.index_users();
        graph
    }
}

struct Builder<'g> {
    game: &'g Game,
    graph: Graph,
    face: [Option<NodeId>; 6],
    vp: std::collections::HashMap<u32, NodeId>,
    bonus: std::collections::HashMap<Option<SectionId>, NodeId>,
    use_item: std::collections::HashMap<ItemId, NodeId>,
    always: NodeId,
    never: NodeId,
    any_encounter: NodeId,
}

impl<'g> Builder<'g> {
    fn new(game: &'g Game) -> Self {
        let mut face_dice = [0u32; 6];
        let mut habitat_dice = HabitatDice::default();
        for die in game.expedition_dice() {
            for action in Action::ALL {
                if die.has(action) {
                    face_dice[action as usize] += 1;
                }
            }
            let (g, w) = (die.has(Action::Grass), die.has(Action::Water));
            habitat_dice.grass += g as u32;
            habitat_dice.water += w as u32;
            habitat_dice.either += (g || w) as u32;
        }
        let max_capture = game.capture_dice().map(Die::max_number).sum();
        let graph = Graph {
            nodes: Vec::new(),
            box_node: Vec::new(),
            fill_node: Vec::new(),
            item_node: Vec::new(),
            species_node: Vec::new(),
            area_node: Vec::new(),
            encounter_node: Vec::new(),
            catch_node: Vec::new(),
            habitat_dice,
            face_dice,
            max_capture,
            items: ItemBonuses::of(game, face_dice[Action::Trainer as usize]),
            late: Default::default(),
            exhausted: super::bounded::exhausted(game)
                .into_iter()
                .map(|e| (e.r#box, e))
                .collect(),
            user_start: Vec::new(),
            users: Vec::new(),
        };
        let mut builder = Builder {
            game,
            graph,
            face: [None; 6],
            vp: Default::default(),
            bonus: Default::default(),
            use_item: Default::default(),
            always: NodeId(0),
            never: NodeId(0),
            any_encounter: NodeId(0),
        };
        builder.always = builder.add(Fact::Always, Kind::Const(true));
        builder.never = builder.add(Fact::Never, Kind::Const(false));
        builder
    }

    fn add(&mut self, fact: Fact, kind: Kind) -> NodeId {
        let id = NodeId(self.graph.nodes.len() as u32);
        self.graph.nodes.push(Node {
            fact,
            kind,
            deps: Vec::new(),
        });
        id
    }

    fn edge(&mut self, from: NodeId, to: NodeId, why: Why, origin: Origin) {
        let deps = &mut self.graph.nodes[from.0 as usize].deps;
        if !deps.iter().any(|e| e.to == to) {
            deps.push(Edge { to, why, origin });
        }
    }

    fn face(&mut self, action: Action) -> NodeId {
        if let Some(id) = self.face[action as usize] {
            return id;
        }
        let exists = self.graph.face_dice[action as usize] > 0;
        let id = self.add(Fact::Face(action), Kind::Const(exists));
        self.face[action as usize] = Some(id);
        id
    }

    fn vp(&mut self, n: u32) -> NodeId {
        if let Some(id) = self.vp.get(&n) {
            return *id;
        }
        let id = self.add(Fact::Vp(n), Kind::VpAtLeast(n));
        self.vp.insert(n, id);
        id
    }

    fn build(&mut self) {
        let game = self.game;
        let guide = &game.guide;
        // One node per named thing first, so edges can point anywhere.
        for b in guide.box_ids() {
            let n = self.add(Fact::Box(b), Kind::All);
            self.graph.box_node.push(n);
        }
        for b in guide.box_ids() {
            let n = self.add(Fact::Fill(b), Kind::Any);
            self.graph.fill_node.push(n);
        }
        for i in game.item_ids() {
            let n = self.add(Fact::Item(i), Kind::Any);
            self.graph.item_node.push(n);
        }
        for s in game.species_ids() {
            let n = self.add(Fact::Species(s), Kind::Any);
            self.graph.species_node.push(n);
        }
        for t in guide.track_ids() {
            let n = self.add(Fact::Area(t), Kind::Any);
            self.graph.area_node.push(n);
        }
        for c in game.card_ids() {
            let n = self.add(Fact::Encounter(c), Kind::All);
            self.graph.encounter_node.push(n);
        }
        for c in game.card_ids() {
            let n = self.add(Fact::Catch(c), Kind::All);
            self.graph.catch_node.push(n);
        }
        self.any_encounter = self.add(Fact::AnyEncounter, Kind::Any);
        let any_bonus = self.add(Fact::Bonus(None), Kind::Any);
        self.bonus.insert(None, any_bonus);

        for c in game.card_ids() {
            self.card(c);
        }
        for b in guide.box_ids() {
            self.box_def(b);
        }
        // A card or reward whose name did not resolve may have been meant to provide any
        // species or item that nothing else provides: those are not reported again.
        let unresolved_species = game.deck.cards.iter().any(|c| c.species.value.is_none())
            || guide
                .boxes
                .iter()
                .any(|b| b.terms.rewards.iter().any(|r| r.value == Reward::Unknown));
        let unresolved_items = guide
            .boxes
            .iter()
            .any(|b| b.terms.rewards.iter().any(|r| r.value == Reward::Unknown));
        let orphan = |nodes: &[NodeId], graph: &Graph| -> Vec<NodeId> {
            nodes
                .iter()
                .copied()
                .filter(|n| graph.node(*n).deps.is_empty())
                .collect()
        };
        if unresolved_species {
            for n in orphan(&self.graph.species_node.clone(), &self.graph) {
                self.edge(n, self.never, Why::Has, game.deck.origin);
            }
        }
        if unresolved_items {
            for n in orphan(&self.graph.item_node.clone(), &self.graph) {
                self.edge(n, self.never, Why::Has, game.deck.origin);
            }
        }
        for t in guide.track_ids() {
            let area = self.graph.area_node[t.index()];
            if let Some(first) = guide.track(t).boxes.first() {
                let to = self.graph.box_node[first.index()];
                self.edge(area, to, Why::AreaOpensWith, guide.get(*first).origin);
            }
        }
    }

    fn card(&mut self, c: CardId) {
        let card = self.game.card(c);
        let encounter = self.graph.encounter_node[c.index()];
        let catch = self.graph.catch_node[c.index()];
        let habitats = self.add(
            Fact::Habitats(c),
            Kind::HabitatsFor {
                grass: card.grass,
                water: card.water,
            },
        );
        let habitat_origin = card.habitats_origin.unwrap_or(card.origin);
        self.edge(encounter, habitats, Why::CardNeeds, habitat_origin);
        if let Some(area) = &card.area {
            let to = area
                .value
                .map_or(self.never, |t| self.graph.area_node[t.index()]);
            self.edge(encounter, to, Why::CardNeeds, area.origin);
        }
        if let Some(item) = &card.item {
            let to = item
                .value
                .map_or(self.never, |i| self.graph.item_node[i.index()]);
            self.edge(encounter, to, Why::CardNeeds, item.origin);
        }
        let rate = card.capture_rate.value;
        let kind = if rate <= self.graph.max_capture {
            Kind::Const(true)
        } else if rate <= self.graph.max_capture + self.graph.items.capture(|_| true) {
            Kind::CaptureAtLeast(rate)
        } else {
            Kind::Const(false)
        };
        let capture = self.add(Fact::Capture(c), kind);
        self.edge(catch, encounter, Why::Has, card.origin);
        self.edge(catch, capture, Why::CardNeeds, card.capture_rate.origin);
        self.edge(self.any_encounter, encounter, Why::Has, card.origin);
        if let Some(species) = card.species.value {
            let to = self.graph.species_node[species.index()];
            self.edge(to, catch, Why::CaughtFrom, card.species.origin);
        }
    }

    fn bonus_source(&mut self, b: BoxId) -> NodeId {
        let guide = &self.game.guide;
        let target = guide.get(b);
        let key = (target.style == Style::Bonus).then_some(target.section);
        if let Some(id) = self.bonus.get(&key) {
            return *id;
        }
        let id = self.add(Fact::Bonus(key), Kind::Any);
        self.bonus.insert(key, id);
        id
    }

    fn box_def(&mut self, b: BoxId) {
        let game = self.game;
        let guide = &game.guide;
        let def = guide.get(b);
        let node = self.graph.box_node[b.index()];
        let fill = self.graph.fill_node[b.index()];
        if let Some(previous) = guide.previous(b) {
            let to = self.graph.box_node[previous.index()];
            self.edge(node, to, Why::After, def.origin);
        }
        for requirement in &def.terms.requires {
            let to = match requirement.value {
                Requirement::Item(i) => self.graph.item_node[i.index()],
                Requirement::Species(s) => self.graph.species_node[s.index()],
                Requirement::Area(t) => self.graph.area_node[t.index()],
                Requirement::Box(other) => self.graph.box_node[other.index()],
                Requirement::Vp(n) => self.vp(n),
                Requirement::Unknown => self.never,
            };
            self.edge(node, to, Why::Needs, requirement.origin);
        }
        self.edge(node, fill, Why::FilledBy, def.terms.cause.origin);
        let cause_origin = def.terms.cause.origin;
        let past_its_items = |items: &Vec<ItemId>| {
            guide.track(def.track).boxes[..=def.index]
                .iter()
                .filter(|x| guide.get(**x).terms.cause.value == def.terms.cause.value)
                .count()
                > items.len()
        };
        let cause = match &def.terms.cause.value {
            // Each item is obtained once a game, so the n-th box of a track filled by obtaining
            // one of k items can only fill when n <= k.
            Cause::Obtain(items) if past_its_items(items) => {
                Some(self.add(Fact::ObtainedOnce(b), Kind::Const(false)))
            }
            // Boxes of its section take every occurrence of its bounded event first.
            _ if self.graph.exhausted.contains_key(&b) => {
                Some(self.add(Fact::Exhausted(b), Kind::Const(false)))
            }
            _ if self.graph.late.contains(&b) => Some(self.add(Fact::Late(b), Kind::Const(false))),
            Cause::Dice(action) => Some(self.face(*action)),
            Cause::Turn | Cause::Free => Some(self.always),
            Cause::Ball => Some(self.any_encounter),
            Cause::Collect(species) => Some(match species.as_slice() {
                [one] => self.graph.species_node[one.index()],
                many => {
                    let any = self.add(Fact::AnySpecies(b), Kind::Any);
                    for s in many {
                        let to = self.graph.species_node[s.index()];
                        self.edge(any, to, Why::Has, cause_origin);
                    }
                    any
                }
            }),
            Cause::Obtain(items) => Some(match items.as_slice() {
                [one] => self.graph.item_node[one.index()],
                many => {
                    let any = self.add(Fact::AnyItem(b), Kind::Any);
                    for i in many {
                        let to = self.graph.item_node[i.index()];
                        self.edge(any, to, Why::Has, cause_origin);
                    }
                    any
                }
            }),
            Cause::Use(item) => Some(self.use_item(*item, cause_origin)),
            Cause::Bonus => None,
            Cause::Unknown => Some(self.never),
        };
        if let Some(cause) = cause {
            self.edge(fill, cause, Why::FilledBy, cause_origin);
        }
        // A bonus chain fills a square box whose requirements are met. The label on the left
        // of a collection box (a species) or an item box (an item) is a requirement too, and
        // a box so labelled is filled as soon as it is met; so bonus chains add a way in only
        // for unlabelled boxes, and for item-use boxes without a Trainer face to spend.
        // (A box no order of play fills is not filled by a chain either: play tried them.)
        if def.bonus_can_fill() && !self.graph.late.contains(&b) {
            let source = self.bonus_source(b);
            match &def.terms.cause.value {
                Cause::Collect(_) | Cause::Obtain(_) => {}
                Cause::Use(item) => {
                    let with_bonus = self.add(Fact::Use(*item), Kind::All);
                    let has = self.graph.item_node[item.index()];
                    self.edge(with_bonus, has, Why::Needs, cause_origin);
                    self.edge(with_bonus, source, Why::BonusFrom, cause_origin);
                    self.edge(fill, with_bonus, Why::BonusFrom, cause_origin);
                }
                _ => self.edge(fill, source, Why::BonusFrom, cause_origin),
            }
        }
        // What this box provides.
        if def.style == Style::Bonus {
            let any = self.bonus[&None];
            self.edge(any, node, Why::GivenBy, def.origin);
        }
        for reward in &def.terms.rewards {
            match reward.value {
                Reward::Item(i) => {
                    let to = self.graph.item_node[i.index()];
                    self.edge(to, node, Why::GrantedBy, reward.origin);
                }
                Reward::Species(s) => {
                    let to = self.graph.species_node[s.index()];
                    self.edge(to, node, Why::GivenBy, reward.origin);
                }
                Reward::Habitat(_) | Reward::Unknown => {}
            }
        }
    }

    fn use_item(&mut self, item: ItemId, origin: Origin) -> NodeId {
        if let Some(id) = self.use_item.get(&item) {
            return *id;
        }
        let id = self.add(Fact::Use(item), Kind::All);
        let has = self.graph.item_node[item.index()];
        let trainer = self.face(Action::Trainer);
        self.edge(id, has, Why::Needs, origin);
        self.edge(id, trainer, Why::Needs, origin);
        // A passive item is held, never used (reported by the structure checks).
        if self.game.item(item).kind == ItemKind::Passive {
            self.edge(id, self.never, Why::Needs, origin);
        }
        self.use_item.insert(item, id);
        id
    }
}

/// Links each "bonus box outside section S" node to the bonus boxes of other sections.
/// Done after all boxes exist, since the set of sections needing one is known only then.
fn link_bonus_sections(graph: &mut Graph, game: &Game) {
    let sections: Vec<(NodeId, SectionId)> = graph
        .nodes
        .iter()
        .enumerate()
        .filter_map(|(i, n)| match n.fact {
            Fact::Bonus(Some(s)) => Some((NodeId(i as u32), s)),
            _ => None,
        })
        .collect();
    for b in game.guide.box_ids() {
        let def = game.guide.get(b);
        if def.style != Style::Bonus {
            continue;
        }
        for (node, section) in &sections {
            if def.section != *section {
                graph.nodes[node.0 as usize].deps.push(Edge {
                    to: graph.box_node[b.index()],
                    why: Why::GivenBy,
                    origin: def.origin,
                });
            }
        }
    }
}

/// The result of the least fixpoint: which nodes can ever hold.
pub struct Reach {
    pub holds: Vec<bool>,
    /// Victory points of all reachable boxes together.
    pub max_vp: u32,
    pub bonuses: Bonuses,
    /// What the items that can be obtained add to a capture roll, at most.
    pub capture_bonus: u32,
}

impl Reach {
    pub fn of(&self, id: NodeId) -> bool {
        self.holds[id.0 as usize]
    }
}

/// The counting nodes (victory-point thresholds, habitat criteria) waiting to hold, and what
/// the boxes obtained so far add up to. Both fixpoints feed it boxes as they are obtained.
struct Counters<'g> {
    graph: &'g Graph,
    vp_pending: Vec<(u32, NodeId)>,
    vp_cursor: usize,
    vp_total: u32,
    /// The sheet's habitat bonuses obtained so far (the items' are added when counting).
    bonuses: Bonuses,
    habitat_pending: Vec<NodeId>,
    /// The items obtained so far.
    held: Vec<bool>,
    capture_pending: Vec<NodeId>,
}

impl<'g> Counters<'g> {
    /// Counting nodes among those `include` admits; those that hold from the start are
    /// passed to `ready`.
    fn new(
        graph: &'g Graph,
        include: impl Fn(usize) -> bool,
        mut ready: impl FnMut(NodeId),
    ) -> Self {
        let mut counters = Counters {
            graph,
            vp_pending: Vec::new(),
            vp_cursor: 0,
            vp_total: 0,
            bonuses: Bonuses::default(),
            habitat_pending: Vec::new(),
            held: vec![false; graph.item_node.len()],
            capture_pending: Vec::new(),
        };
        for (i, node) in graph.nodes.iter().enumerate() {
            let id = NodeId(i as u32);
            match node.kind {
                _ if !include(i) => {}
                Kind::VpAtLeast(0) => ready(id),
                Kind::VpAtLeast(v) => counters.vp_pending.push((v, id)),
                Kind::HabitatsFor { .. } => counters.habitat_pending.push(id),
                Kind::CaptureAtLeast(_) => counters.capture_pending.push(id),
                _ => {}
            }
        }
        counters.vp_pending.sort();
        counters.recheck_habitats(&mut ready);
        counters
    }

    /// Counts a box just obtained; passes the counting nodes that now hold to `ready`.
    fn obtained(&mut self, def: &BoxDef, mut ready: impl FnMut(NodeId)) {
        self.vp_total = self.vp_total.saturating_add(def.vp);
        while let Some((threshold, id)) = self.vp_pending.get(self.vp_cursor)
            && *threshold <= self.vp_total
        {
            ready(*id);
            self.vp_cursor += 1;
        }
        let before = self.bonuses;
        for reward in &def.terms.rewards {
            match reward.value {
                Reward::Habitat(Habitat::Grass) => self.bonuses.grass += 1,
                Reward::Habitat(Habitat::Water) => self.bonuses.water += 1,
                Reward::Habitat(Habitat::Any) => self.bonuses.any += 1,
                _ => {}
            }
        }
        if self.bonuses != before {
            self.recheck_habitats(&mut ready);
        }
    }

    /// Counts an item just obtained; passes the counting nodes that now hold to `ready`.
    fn obtained_item(&mut self, item: usize, mut ready: impl FnMut(NodeId)) {
        if std::mem::replace(&mut self.held[item], true) {
            return;
        }
        if self.graph.items.habitats[item] != Bonuses::default() {
            self.recheck_habitats(&mut ready);
        }
        let graph = self.graph;
        let reach = graph.max_capture + graph.items.capture(|i| self.held[i]);
        self.capture_pending
            .retain(|id| match graph.node(*id).kind {
                Kind::CaptureAtLeast(rate) if rate <= reach => {
                    ready(*id);
                    false
                }
                _ => true,
            });
    }

    /// The habitat bonuses counted: the sheet's and the items' obtained.
    fn habitat_bonuses(&self) -> Bonuses {
        let items = self.graph.items.habitats(|i| self.held[i]);
        Bonuses {
            grass: self.bonuses.grass + items.grass,
            water: self.bonuses.water + items.water,
            any: self.bonuses.any + items.any,
        }
    }

    fn recheck_habitats(&mut self, ready: &mut impl FnMut(NodeId)) {
        let (dice, bonuses, graph) = (self.graph.habitat_dice, self.habitat_bonuses(), self.graph);
        self.habitat_pending
            .retain(|id| match graph.node(*id).kind {
                Kind::HabitatsFor { grass, water } if dice.can_meet(grass, water, bonuses) => {
                    ready(*id);
                    false
                }
                _ => true,
            });
    }
}

/// Computes the least fixpoint, with the nodes in `assumed` taken to hold from the start.
pub fn fixpoint(graph: &Graph, game: &Game, assumed: &[NodeId]) -> Reach {
    let n = graph.nodes.len();
    let mut holds = vec![false; n];
    let mut waiting: Vec<u32> = graph
        .nodes
        .iter()
        .map(|node| node.deps.len() as u32)
        .collect();
    let mut queue: Vec<NodeId> = Vec::new();
    for (i, node) in graph.nodes.iter().enumerate() {
        match node.kind {
            Kind::Const(true) => queue.push(NodeId(i as u32)),
            Kind::All if node.deps.is_empty() => queue.push(NodeId(i as u32)),
            _ => {}
        }
    }
    queue.extend_from_slice(assumed);
    let mut counters = Counters::new(graph, |_| true, |id| queue.push(id));
    while let Some(id) = queue.pop() {
        let index = id.0 as usize;
        if holds[index] {
            continue;
        }
        holds[index] = true;
        match graph.nodes[index].fact {
            Fact::Box(b) => counters.obtained(game.guide.get(b), |id| queue.push(id)),
            Fact::Item(i) => counters.obtained_item(i.index(), |id| queue.push(id)),
            _ => {}
        }
        for user in graph.users(id) {
            let u = user.0 as usize;
            if holds[u] {
                continue;
            }
            match graph.nodes[u].kind {
                Kind::Any => queue.push(*user),
                Kind::All => {
                    waiting[u] -= 1;
                    if waiting[u] == 0 {
                        queue.push(*user);
                    }
                }
                _ => {}
            }
        }
    }
    Reach {
        holds,
        max_vp: counters.vp_total,
        bonuses: counters.habitat_bonuses(),
        capture_bonus: graph.items.capture(|i| counters.held[i]),
    }
}

/// Earliest turn (1-based) at which each reachable node can hold, as a lower bound.
///
/// Knuth's generalisation of Dijkstra to AND/OR graphs: nodes are settled in increasing
/// order; an OR node takes its first settled dependency, an AND node the last. A box also
/// waits for its die faces: the boxes of its track filled by the same face, fewer the bonus
/// fills the whole sheet can give, shared among the dice that show that face each turn.
pub(crate) struct Earliest {
    /// Earliest turn of each node (`None`: unreachable).
    pub turn: Vec<Option<u32>>,
    /// A box's own bound, from its die faces or its place in the Turn Tracker.
    pub own: Vec<u32>,
}

pub(crate) fn earliest_turns(graph: &Graph, game: &Game, reach: &Reach) -> Earliest {
    let n = graph.nodes.len();
    let guide = &game.guide;
    let bonus_boxes = guide
        .box_ids()
        .filter(|b| guide.get(*b).style == Style::Bonus && reach.of(graph.box_node[b.index()]))
        .count() as u32;
    // Own lower bound of each box, before its dependencies.
    let mut own = vec![1u32; n];
    for t in guide.track_ids() {
        let mut counts: [u32; 6] = [0; 6];
        let mut square: [u32; 6] = [0; 6];
        let mut turn_index = 0;
        for b in &guide.track(t).boxes {
            let def = guide.get(*b);
            let slot = graph.box_node[b.index()].0 as usize;
            match def.terms.cause.value {
                Cause::Dice(action) if def.style != Style::Free => {
                    let a = action as usize;
                    counts[a] += 1;
                    square[a] += def.bonus_can_fill() as u32;
                    let by_dice = counts[a] - square[a].min(bonus_boxes);
                    let per_turn = graph.face_dice[a].max(1);
                    own[slot] = by_dice.div_ceil(per_turn).max(1);
                }
                Cause::Turn => {
                    turn_index += 1;
                    own[slot] = turn_index;
                }
                _ => {}
            }
        }
    }
    let mut settled: Vec<Option<u32>> = vec![None; n];
    let mut waiting: Vec<u32> = graph
        .nodes
        .iter()
        .map(|node| node.deps.len() as u32)
        .collect();
    let mut best: Vec<u32> = own.clone();
    let mut heap: BinaryHeap<Reverse<(u32, NodeId)>> = BinaryHeap::new();
    for (i, node) in graph.nodes.iter().enumerate() {
        let id = NodeId(i as u32);
        match node.kind {
            _ if !reach.holds[i] => {}
            Kind::Const(true) => heap.push(Reverse((1, id))),
            Kind::All if node.deps.is_empty() => heap.push(Reverse((own[i], id))),
            _ => {}
        }
    }
    let mut counters = Counters::new(graph, |i| reach.holds[i], |id| heap.push(Reverse((1, id))));
    while let Some(Reverse((turn, id))) = heap.pop() {
        let index = id.0 as usize;
        if settled[index].is_some() {
            continue;
        }
        settled[index] = Some(turn);
        match graph.nodes[index].fact {
            Fact::Box(b) => counters.obtained(guide.get(b), |id| heap.push(Reverse((turn, id)))),
            Fact::Item(i) => counters.obtained_item(i.index(), |id| heap.push(Reverse((turn, id)))),
            _ => {}
        }
        for user in graph.users(id) {
            let u = user.0 as usize;
            if settled[u].is_some() || !reach.holds[u] {
                continue;
            }
            match graph.nodes[u].kind {
                Kind::Any => heap.push(Reverse((turn, *user))),
                Kind::All => {
                    best[u] = best[u].max(turn);
                    waiting[u] -= 1;
                    if waiting[u] == 0 {
                        heap.push(Reverse((best[u], *user)));
                    }
                }
                _ => {}
            }
        }
    }
    Earliest { turn: settled, own }
}
