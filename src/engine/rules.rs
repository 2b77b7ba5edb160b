//! The ruleset compiled for play: names replaced by indices, and the lookups a turn needs
//! (which tracks a face fills, which boxes a species fills) built once.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::backends::ruleset::{Face, Fill, Requirement, Reward, Ruleset};
use crate::model::{Action, DiceRole, Effect, Habitat, ItemKind, Shape, Style};

#[derive(Debug, Clone)]
pub enum Need {
    Item(usize),
    Species(usize),
    Area(usize),
    Box(usize),
    Vp(u32),
}

#[derive(Debug, Clone)]
pub enum Gain {
    Item(usize),
    Habitat(Habitat),
    Species(usize),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Cause {
    Dice(Action),
    Turn,
    Ball,
    Collect(Vec<usize>),
    Use(usize),
    Obtain(Vec<usize>),
    Free,
    Bonus,
}

#[derive(Debug, Clone)]
pub struct BoxRule {
    pub id: String,
    pub section: usize,
    pub track: usize,
    /// Its place in its track's fill order.
    pub position: usize,
    /// The box before it in its track.
    pub previous: Option<usize>,
    /// The box after it in its track.
    pub following: Option<usize>,
    pub style: Style,
    pub square: bool,
    pub cause: Cause,
    pub needs: Vec<Need>,
    pub gains: Vec<Gain>,
    pub vp: u32,
    /// Whether filling it may open a free box (see [`Rules::link_free_boxes`]).
    pub may_open_free: bool,
}

impl BoxRule {
    /// Whether a face showing fills it.
    #[inline]
    pub fn filled_by(&self, face: Action) -> bool {
        matches!(self.cause, Cause::Dice(f) if f == face)
    }

    /// Bonus chains fill square boxes whose label is not a species or an item to obtain.
    pub fn bonus_can_fill(&self) -> bool {
        self.square && !matches!(self.cause, Cause::Collect(_) | Cause::Obtain(_))
    }
}

#[derive(Debug, Clone)]
pub struct TrackRule {
    pub id: String,
    pub section: usize,
    /// Box indices in fill order.
    pub boxes: Vec<usize>,
}

#[derive(Debug, Clone)]
pub struct CardRule {
    pub id: String,
    pub species: usize,
    pub capture_rate: u32,
    pub grass: u32,
    pub water: u32,
    pub area: Option<usize>,
    pub item: Option<usize>,
}

#[derive(Debug, Clone)]
pub struct ItemRule {
    pub id: String,
    pub kind: ItemKind,
    pub effect: Effect,
}

/// A game's rules, ready to play.
#[derive(Debug, Clone)]
pub struct Rules {
    /// Which compilation these rules came from, unique in the process: policies that work
    /// something out once per ruleset keep it for as long as they see the same rules.
    pub compilation: u64,
    pub id: String,
    pub name: String,
    pub turns: u32,
    pub balls: u32,
    pub rolls_per_turn: u32,
    pub hazard_limit: u32,
    pub players: (u32, u32),
    pub expedition: Vec<Vec<Action>>,
    pub capture: Vec<Vec<u32>>,
    pub items: Vec<ItemRule>,
    pub species: Vec<String>,
    pub cards: Vec<CardRule>,
    /// The physical deck: card indices, copies included.
    pub deck: Vec<usize>,
    pub sections: Vec<String>,
    pub tracks: Vec<TrackRule>,
    pub boxes: Vec<BoxRule>,
    /// Tracks whose boxes a face fills, by `Action as usize`.
    pub face_tracks: [Vec<usize>; 6],
    /// Boxes filled at the start of each turn, in order.
    pub turn_boxes: Vec<usize>,
    /// Boxes filled per ball thrown, in order.
    pub ball_boxes: Vec<usize>,
    /// Boxes filled by collecting each species.
    pub collect_boxes: Vec<Vec<usize>>,
    /// Boxes filled by obtaining each item.
    pub obtain_boxes: Vec<Vec<usize>>,
    /// Boxes filled by using each item.
    pub use_boxes: Vec<Vec<usize>>,
    pub free_boxes: Vec<usize>,
    /// The items with each effect, by `Effect as usize`.
    pub effect_items: Vec<Vec<usize>>,
    /// Whether obtaining each item may open a free box.
    pub item_opens_free: Vec<bool>,
    /// Whether collecting each species may open a free box.
    pub species_opens_free: Vec<bool>,
    /// Tracks holding a box a bonus chain can fill. A chain fills an open box, and only a
    /// track's next box can be open, so a chain looks at these tracks' next boxes.
    pub bonus_tracks: Vec<usize>,
    /// Each track's first box: where a blank sheet's track cursors start.
    pub first_boxes: Vec<Option<u32>>,
    /// `catch_table[rate]`: the chance one throw catches, for every rate up to the capture
    /// dice's highest total plus one.
    pub catch_table: Vec<f64>,
}

/// A ruleset whose ids do not hold together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inconsistent(pub String);

impl Rules {
    pub fn compile(ruleset: &Ruleset) -> Result<Rules, Inconsistent> {
        let index = |names: Vec<&str>| -> HashMap<String, usize> {
            names
                .into_iter()
                .enumerate()
                .map(|(i, n)| (n.to_string(), i))
                .collect()
        };
        let items = index(ruleset.items.iter().map(|i| i.id.as_str()).collect());
        let species = index(ruleset.species.iter().map(|s| s.id.as_str()).collect());
        let guide = &ruleset.field_guide;
        let tracks_by_id = index(
            guide
                .sections
                .iter()
                .flat_map(|s| &s.tracks)
                .map(|t| t.id.as_str())
                .collect(),
        );
        let boxes_by_id = index(
            guide
                .sections
                .iter()
                .flat_map(|s| &s.tracks)
                .flat_map(|t| &t.boxes)
                .map(|b| b.id.as_str())
                .collect(),
        );
        let find = |map: &HashMap<String, usize>, what: &str, id: &str| {
            map.get(id)
                .copied()
                .ok_or_else(|| Inconsistent(format!("unknown {what} `{id}`")))
        };

        let mut expedition = Vec::new();
        let mut capture = Vec::new();
        for set in &ruleset.dice {
            for die in &set.dice {
                match set.role {
                    DiceRole::Expedition => expedition.push(
                        die.iter()
                            .map(|f| match f {
                                Face::Action(a) => Ok(*a),
                                Face::Number(_) => Err(Inconsistent(format!(
                                    "dice set `{}`: a number on an expedition die",
                                    set.id
                                ))),
                            })
                            .collect::<Result<Vec<_>, _>>()?,
                    ),
                    DiceRole::Capture => capture.push(
                        die.iter()
                            .map(|f| match f {
                                Face::Number(n) => Ok(*n),
                                Face::Action(_) => Err(Inconsistent(format!(
                                    "dice set `{}`: an action on a capture die",
                                    set.id
                                ))),
                            })
                            .collect::<Result<Vec<_>, _>>()?,
                    ),
                }
            }
        }
        use crate::load::{
            MAX_CAPTURE_DICE, MAX_COPIES, MAX_EXPEDITION_DICE, MAX_FACE_VALUE, MAX_SIDES,
        };
        if expedition.len() > MAX_EXPEDITION_DICE as usize
            || capture.len() > MAX_CAPTURE_DICE as usize
        {
            return Err(Inconsistent(format!(
                "at most {MAX_EXPEDITION_DICE} expedition and {MAX_CAPTURE_DICE} capture dice"
            )));
        }
        if expedition.iter().any(|d| d.len() > MAX_SIDES as usize)
            || capture
                .iter()
                .any(|d| d.len() > MAX_SIDES as usize || d.iter().any(|f| *f > MAX_FACE_VALUE))
        {
            return Err(Inconsistent(format!(
                "dice have at most {MAX_SIDES} faces, and capture faces are at most {MAX_FACE_VALUE}"
            )));
        }
        if ruleset.deck.cards.iter().any(|c| c.copies > MAX_COPIES) {
            return Err(Inconsistent(format!(
                "a card has at most {MAX_COPIES} copies"
            )));
        }
        if expedition.iter().any(Vec::is_empty) || capture.iter().any(Vec::is_empty) {
            return Err(Inconsistent("a die has no faces".to_string()));
        }

        let mut cards = Vec::new();
        let mut deck = Vec::new();
        for card in &ruleset.deck.cards {
            let c = cards.len();
            cards.push(CardRule {
                id: card.id.clone(),
                species: find(&species, "species", &card.species)?,
                capture_rate: card.capture_rate,
                grass: card.criteria.grass,
                water: card.criteria.water,
                area: card
                    .criteria
                    .area
                    .as_deref()
                    .map(|t| find(&tracks_by_id, "track", t))
                    .transpose()?,
                item: card
                    .criteria
                    .item
                    .as_deref()
                    .map(|i| find(&items, "item", i))
                    .transpose()?,
            });
            deck.extend(std::iter::repeat_n(c, card.copies as usize));
        }

        static COMPILATIONS: AtomicU64 = AtomicU64::new(0);
        let mut rules = Rules {
            compilation: COMPILATIONS.fetch_add(1, Ordering::Relaxed),
            id: ruleset.game.id.clone(),
            name: ruleset.game.name.clone(),
            turns: ruleset.parameters.turns,
            balls: ruleset.parameters.safari_balls,
            rolls_per_turn: ruleset.parameters.rolls_per_turn.max(1),
            hazard_limit: ruleset.parameters.hazard_limit.max(1),
            players: (
                ruleset.parameters.players_min,
                ruleset.parameters.players_max,
            ),
            expedition,
            capture,
            items: ruleset
                .items
                .iter()
                .map(|i| ItemRule {
                    id: i.id.clone(),
                    kind: i.kind,
                    effect: i.effect,
                })
                .collect(),
            species: ruleset.species.iter().map(|s| s.id.clone()).collect(),
            cards,
            deck,
            sections: guide.sections.iter().map(|s| s.id.clone()).collect(),
            tracks: Vec::new(),
            boxes: Vec::new(),
            face_tracks: Default::default(),
            turn_boxes: Vec::new(),
            ball_boxes: Vec::new(),
            collect_boxes: vec![Vec::new(); ruleset.species.len()],
            obtain_boxes: vec![Vec::new(); ruleset.items.len()],
            use_boxes: vec![Vec::new(); ruleset.items.len()],
            free_boxes: Vec::new(),
            effect_items: {
                let mut by_effect: Vec<Vec<usize>> = Vec::new();
                for (i, item) in ruleset.items.iter().enumerate() {
                    let e = item.effect as usize;
                    by_effect.resize(by_effect.len().max(e + 1), Vec::new());
                    by_effect[e].push(i);
                }
                by_effect
            },
            item_opens_free: vec![false; ruleset.items.len()],
            species_opens_free: vec![false; ruleset.species.len()],
            bonus_tracks: Vec::new(),
            first_boxes: Vec::new(),
            catch_table: Vec::new(),
        };
        for (s, section) in guide.sections.iter().enumerate() {
            for track in &section.tracks {
                let t = rules.tracks.len();
                let mut boxes = Vec::new();
                for b in &track.boxes {
                    let index = rules.boxes.len();
                    let cause = match &b.fill {
                        Fill::Dice { face } => Cause::Dice(*face),
                        Fill::Turn => Cause::Turn,
                        Fill::Ball => Cause::Ball,
                        Fill::Collect { species: list } => Cause::Collect(
                            list.iter()
                                .map(|x| find(&species, "species", x))
                                .collect::<Result<_, _>>()?,
                        ),
                        Fill::Use { item } => Cause::Use(find(&items, "item", item)?),
                        Fill::Obtain { items: list } => Cause::Obtain(
                            list.iter()
                                .map(|x| find(&items, "item", x))
                                .collect::<Result<_, _>>()?,
                        ),
                        Fill::Free => Cause::Free,
                        Fill::Bonus => Cause::Bonus,
                    };
                    let cause = if b.style == Style::Free {
                        Cause::Free
                    } else {
                        cause
                    };
                    let needs = b
                        .requires
                        .iter()
                        .map(|r| {
                            Ok(match r {
                                Requirement::Item { item } => {
                                    Need::Item(find(&items, "item", item)?)
                                }
                                Requirement::Species { species: x } => {
                                    Need::Species(find(&species, "species", x)?)
                                }
                                Requirement::Area { track } => {
                                    Need::Area(find(&tracks_by_id, "track", track)?)
                                }
                                Requirement::Box { id } => {
                                    Need::Box(find(&boxes_by_id, "box", id)?)
                                }
                                Requirement::Vp { at_least } => Need::Vp(*at_least),
                            })
                        })
                        .collect::<Result<_, Inconsistent>>()?;
                    let gains = b
                        .rewards
                        .iter()
                        .map(|r| {
                            Ok(match r {
                                Reward::Item { item } => Gain::Item(find(&items, "item", item)?),
                                Reward::Habitat { habitat } => Gain::Habitat(*habitat),
                                Reward::Species { species: x } => {
                                    Gain::Species(find(&species, "species", x)?)
                                }
                            })
                        })
                        .collect::<Result<_, Inconsistent>>()?;
                    match &cause {
                        Cause::Turn => rules.turn_boxes.push(index),
                        Cause::Ball => rules.ball_boxes.push(index),
                        Cause::Collect(list) => list
                            .iter()
                            .for_each(|x| rules.collect_boxes[*x].push(index)),
                        Cause::Obtain(list) => {
                            list.iter().for_each(|x| rules.obtain_boxes[*x].push(index))
                        }
                        Cause::Use(item) => rules.use_boxes[*item].push(index),
                        Cause::Free => rules.free_boxes.push(index),
                        Cause::Dice(_) | Cause::Bonus => {}
                    }
                    if let Cause::Dice(face) = cause
                        && !rules.face_tracks[face as usize].contains(&t)
                    {
                        rules.face_tracks[face as usize].push(t);
                    }
                    let rule = BoxRule {
                        id: b.id.clone(),
                        section: s,
                        track: t,
                        position: boxes.len(),
                        previous: boxes.last().copied(),
                        following: None,
                        style: b.style,
                        square: b.shape == Shape::Square,
                        cause,
                        needs,
                        gains,
                        vp: b.vp,
                        may_open_free: false,
                    };
                    if let Some(previous) = boxes.last() {
                        rules.boxes[*previous].following = Some(index);
                    }
                    rules.boxes.push(rule);
                    boxes.push(index);
                }
                if boxes.iter().any(|b| rules.boxes[*b].bonus_can_fill()) {
                    rules.bonus_tracks.push(t);
                }
                rules.first_boxes.push(boxes.first().map(|b| *b as u32));
                rules.tracks.push(TrackRule {
                    id: track.id.clone(),
                    section: s,
                    boxes,
                });
            }
        }
        rules.link_free_boxes();
        rules.catch_table = super::game::at_least_table(rules.capture.iter().map(Vec::as_slice));
        Ok(rules)
    }

    /// Marks what may open a free box: filling the box before it, a box or the first box of
    /// an area it requires, any box worth VP when it requires VP; obtaining an item or
    /// collecting a species it requires. Whatever else happens leaves every closed free box
    /// closed, so the engine looks for open free boxes only after one of these.
    fn link_free_boxes(&mut self) {
        let mut opens = vec![false; self.boxes.len()];
        let mut needs_vp = false;
        for &f in &self.free_boxes {
            let rule = &self.boxes[f];
            if let Some(previous) = rule.previous {
                opens[previous] = true;
            }
            for need in &rule.needs {
                match *need {
                    Need::Item(i) => self.item_opens_free[i] = true,
                    Need::Species(s) => self.species_opens_free[s] = true,
                    Need::Area(t) => {
                        if let Some(first) = self.tracks[t].boxes.first() {
                            opens[*first] = true;
                        }
                    }
                    Need::Box(b) => opens[b] = true,
                    Need::Vp(_) => needs_vp = true,
                }
            }
        }
        for (rule, opens) in self.boxes.iter_mut().zip(opens) {
            rule.may_open_free = opens || (needs_vp && rule.vp > 0);
        }
    }

    pub fn box_id(&self, b: usize) -> &str {
        &self.boxes[b].id
    }
}
