//! The ruleset compiled for play: names replaced by indices, and the lookups a turn needs
//! (which tracks a face fills, which boxes a species fills) built once.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::ruleset::{Face, Fill, Requirement, Reward, Ruleset, Section, Track};
use crate::vocabulary::{Action, DiceRole, Habitat, ItemKind, Shape, Step, Style};

/// A box's or a card's requirement, as the engine checks it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    Item(u32),
    Species(u32),
    /// A box filled. An area requirement is its track's first box filled.
    Box(u32),
    Vp(u32),
    /// What nothing meets: an area with no boxes.
    Never,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gain {
    Item(u32),
    Habitat(Habitat),
    Species(u32),
}

/// What fills a box, as the ruleset says; the engine keeps only what it asks at play
/// ([`BoxRule::face`], [`BoxRule::used_item`], [`BoxRule::bonus_can_fill`]) and the lists
/// of boxes filled per event.
#[derive(Debug, Clone, PartialEq)]
enum Cause {
    Dice(Action),
    Turn,
    Ball,
    Collect(Vec<usize>),
    Use(usize),
    Obtain(Vec<usize>),
    Free,
    Bonus,
}

/// A box as play reads it: small, because a turn reads dozens of boxes. Its id is in
/// [`Rules::box_ids`].
#[derive(Debug, Clone)]
pub struct BoxRule {
    pub section: u32,
    pub track: u32,
    /// Its place in its track's fill order.
    pub position: u32,
    pub vp: u32,
    /// The box before it in its track.
    pub previous: Option<u32>,
    /// The box after it in its track.
    pub following: Option<u32>,
    pub needs: Box<[Need]>,
    pub gains: Box<[Gain]>,
    /// The face whose showing fills it, when dice fill it.
    pub face: Option<Action>,
    /// The item whose use fills it, when using an item does.
    pub used_item: Option<u32>,
    pub style: Style,
    /// Whether a bonus chain can fill it: a square box whose label is not a species or an
    /// item to obtain.
    pub bonus_can_fill: bool,
    /// Whether filling it may open a free box (see [`Rules::link_free_boxes`]).
    pub may_open_free: bool,
}

impl BoxRule {
    /// Whether a face showing fills it.
    #[inline]
    pub(crate) fn filled_by(&self, face: Action) -> bool {
        self.face == Some(face)
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
    /// The area it is met in: that track's first box filled.
    pub area: Option<Need>,
    pub item: Option<usize>,
}

#[derive(Debug, Clone)]
pub struct ItemRule {
    pub id: String,
    pub kind: ItemKind,
    pub effects: Vec<Step>,
}

/// The items by what they do, so a turn asks "does the player hold one" rather than reading
/// every item's steps. An item with several steps is in several lists.
#[derive(Debug, Clone, Default)]
pub struct ItemSteps {
    /// Passive: re-roll one hazard with each re-roll.
    pub reroll_hazard: Vec<usize>,
    /// Passive: one more re-roll a turn, each.
    pub extra_roll: Vec<usize>,
    /// Passive: a habitat counted toward card criteria.
    pub habitat: Vec<(usize, Habitat)>,
    /// Passive: added to every capture roll.
    pub capture_bonus: Vec<(usize, u32)>,
    /// Usable: added to one capture roll, the largest first.
    pub capture_boost: Vec<(usize, u32)>,
    /// Usable: lock a capture die after a miss.
    pub lock_capture_die: Vec<usize>,
    /// Usable: shuffle the discard pile into the deck.
    pub reshuffle_discard: Vec<usize>,
    /// Usable: discard the drawn cards of one species and draw again.
    pub redraw_species: Vec<usize>,
}

impl ItemSteps {
    fn of(items: &[ItemRule]) -> ItemSteps {
        let mut steps = ItemSteps::default();
        for (i, item) in items.iter().enumerate() {
            for step in &item.effects {
                // A step that does not fit its item's kind is SZ0314 and never happens.
                if !step.fits(item.kind) {
                    continue;
                }
                let usable = item.kind == ItemKind::Usable;
                match *step {
                    Step::FillLabelled => {}
                    Step::RerollHazard => steps.reroll_hazard.push(i),
                    Step::ExtraRoll => steps.extra_roll.push(i),
                    Step::Habitat(h) => steps.habitat.push((i, h)),
                    Step::CaptureBonus(n) if usable => steps.capture_boost.push((i, n)),
                    Step::CaptureBonus(n) => steps.capture_bonus.push((i, n)),
                    Step::LockCaptureDie => steps.lock_capture_die.push(i),
                    Step::ReshuffleDiscard => steps.reshuffle_discard.push(i),
                    Step::RedrawSpecies => steps.redraw_species.push(i),
                }
            }
        }
        steps
            .capture_boost
            .sort_by_key(|(i, n)| (std::cmp::Reverse(*n), *i));
        steps
    }
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
    pub event_fills: crate::vocabulary::EventFills,
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
    /// Each box's id, by box.
    pub box_ids: Vec<String>,
    /// Each box's shape, by box (a bonus fills only square boxes).
    pub shapes: Vec<Shape>,
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
    /// The items some box is filled by using, in item order.
    pub used_items: Vec<usize>,
    /// The items a Trainer face spends, in item order.
    pub usable_items: Vec<usize>,
    pub free_boxes: Vec<usize>,
    /// The items by the steps of their effects.
    pub item_steps: ItemSteps,
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
    /// The highest total the capture dice roll.
    pub capture_max: u32,
    /// What people call things, for messages.
    pub names: Names,
}

/// The names a person reads, by index: items', species', tracks' (the title, else the id) and
/// sections' (titles).
#[derive(Debug, Clone, Default)]
pub struct Names {
    pub items: Vec<String>,
    pub species: Vec<String>,
    pub tracks: Vec<String>,
    pub sections: Vec<String>,
}

/// What a person calls a track: its title; an untitled one goes by its section's title, with
/// what its first box is labelled with (a Pokédex box's species) when the section has other
/// tracks; else by its id.
fn track_name(ruleset: &Ruleset, section: &Section, track: &Track) -> String {
    if let Some(title) = &track.title {
        return title.clone();
    }
    let first = track.boxes.first();
    let labelled = first
        .and_then(|b| b.label.clone())
        .or_else(|| match first.map(|b| &b.fill) {
            Some(Fill::Collect { species }) => Some(
                species
                    .iter()
                    .map(|id| {
                        ruleset
                            .species
                            .iter()
                            .find(|s| &s.id == id)
                            .map_or(id.as_str(), |s| s.name.as_str())
                    })
                    .collect::<Vec<_>>()
                    .join(" / "),
            ),
            _ => None,
        });
    match labelled {
        _ if section.tracks.len() == 1 => section.title.clone(),
        Some(label) => format!("{}: {label}", section.title),
        None if track.loose => section.title.clone(),
        None => track.id.clone(),
    }
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
        // An area requirement: the area track's first box filled.
        let mut area_needs = HashMap::new();
        let mut boxes_before = 0;
        for track in guide.sections.iter().flat_map(|s| &s.tracks) {
            let need = match track.boxes.is_empty() {
                true => Need::Never,
                false => Need::Box(boxes_before as u32),
            };
            area_needs.insert(track.id.as_str(), need);
            boxes_before += track.boxes.len();
        }
        let area = |track: &str| {
            area_needs
                .get(track)
                .copied()
                .ok_or_else(|| Inconsistent(format!("unknown track `{track}`")))
        };
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
        use crate::limits::{MAX_CAPTURE_DICE, MAX_EXPEDITION_DICE};
        use crate::limits::{MAX_COPIES, MAX_FACE_VALUE, MAX_SIDES};
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
                area: card.criteria.area.as_deref().map(area).transpose()?,
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
            event_fills: ruleset.parameters.event_fills,
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
                    effects: i.effects.clone(),
                })
                .collect(),
            species: ruleset.species.iter().map(|s| s.id.clone()).collect(),
            cards,
            deck,
            sections: guide.sections.iter().map(|s| s.id.clone()).collect(),
            tracks: Vec::new(),
            boxes: Vec::new(),
            box_ids: Vec::new(),
            shapes: Vec::new(),
            face_tracks: Default::default(),
            turn_boxes: Vec::new(),
            ball_boxes: Vec::new(),
            collect_boxes: vec![Vec::new(); ruleset.species.len()],
            obtain_boxes: vec![Vec::new(); ruleset.items.len()],
            use_boxes: vec![Vec::new(); ruleset.items.len()],
            used_items: Vec::new(),
            usable_items: (0..ruleset.items.len())
                .filter(|i| ruleset.items[*i].kind == ItemKind::Usable)
                .collect(),
            free_boxes: Vec::new(),
            item_steps: ItemSteps::default(),
            item_opens_free: vec![false; ruleset.items.len()],
            species_opens_free: vec![false; ruleset.species.len()],
            bonus_tracks: Vec::new(),
            first_boxes: Vec::new(),
            catch_table: Vec::new(),
            capture_max: 0,
            names: Names {
                items: ruleset.items.iter().map(|i| i.name.clone()).collect(),
                species: ruleset.species.iter().map(|s| s.name.clone()).collect(),
                tracks: guide
                    .sections
                    .iter()
                    .flat_map(|s| s.tracks.iter().map(move |t| (s, t)))
                    .map(|(s, t)| track_name(ruleset, s, t))
                    .collect(),
                sections: guide.sections.iter().map(|s| s.title.clone()).collect(),
            },
        };
        for (s, section) in guide.sections.iter().enumerate() {
            for track in &section.tracks {
                let t = rules.tracks.len();
                let mut boxes: Vec<usize> = Vec::new();
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
                                    Need::Item(find(&items, "item", item)? as u32)
                                }
                                Requirement::Species { species: x } => {
                                    Need::Species(find(&species, "species", x)? as u32)
                                }
                                Requirement::Area { track } => area(track)?,
                                Requirement::Box { id } => {
                                    Need::Box(find(&boxes_by_id, "box", id)? as u32)
                                }
                                Requirement::Vp { at_least } => Need::Vp(*at_least),
                            })
                        })
                        .collect::<Result<Vec<_>, Inconsistent>>()?;
                    let gains = b
                        .rewards
                        .iter()
                        .map(|r| {
                            Ok(match r {
                                Reward::Item { item } => {
                                    Gain::Item(find(&items, "item", item)? as u32)
                                }
                                Reward::Habitat { habitat } => Gain::Habitat(*habitat),
                                Reward::Species { species: x } => {
                                    Gain::Species(find(&species, "species", x)? as u32)
                                }
                            })
                        })
                        .collect::<Result<Vec<_>, Inconsistent>>()?;
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
                        section: s as u32,
                        track: t as u32,
                        position: boxes.len() as u32,
                        vp: b.vp,
                        previous: boxes.last().map(|p| *p as u32),
                        following: None,
                        needs: needs.into(),
                        gains: gains.into(),
                        face: match cause {
                            Cause::Dice(face) => Some(face),
                            _ => None,
                        },
                        used_item: match cause {
                            Cause::Use(item) => Some(item as u32),
                            _ => None,
                        },
                        style: b.style,
                        bonus_can_fill: b.shape == Shape::Square
                            && !matches!(cause, Cause::Collect(_) | Cause::Obtain(_)),
                        may_open_free: false,
                    };
                    if let Some(previous) = boxes.last() {
                        rules.boxes[*previous].following = Some(index as u32);
                    }
                    rules.boxes.push(rule);
                    rules.box_ids.push(b.id.clone());
                    rules.shapes.push(b.shape);
                    boxes.push(index);
                }
                if boxes.iter().any(|b| rules.boxes[*b].bonus_can_fill) {
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
        rules.item_steps = ItemSteps::of(&rules.items);
        rules.used_items = (0..rules.items.len())
            .filter(|i| !rules.use_boxes[*i].is_empty())
            .collect();
        rules.link_free_boxes();
        rules.catch_table = super::game::at_least_table(rules.capture.iter().map(Vec::as_slice));
        rules.capture_max = rules
            .capture
            .iter()
            .map(|d| d.iter().max().copied().unwrap_or(0))
            .fold(0, u32::saturating_add);
        Ok(rules)
    }

    /// The highest capture total a throw can reach with the items `held` says the player has:
    /// the dice's highest, every passive bonus, and every usable boost (each needs a Trainer
    /// face; this is an upper bound).
    pub(crate) fn capture_reach(&self, held: impl Fn(usize) -> bool) -> u32 {
        let steps = &self.item_steps;
        steps
            .capture_bonus
            .iter()
            .chain(&steps.capture_boost)
            .filter(|(i, _)| held(*i))
            .fold(self.capture_max, |sum, (_, n)| sum.saturating_add(*n))
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
                opens[previous as usize] = true;
            }
            for need in &rule.needs {
                match *need {
                    Need::Item(i) => self.item_opens_free[i as usize] = true,
                    Need::Species(s) => self.species_opens_free[s as usize] = true,
                    Need::Box(b) => opens[b as usize] = true,
                    Need::Vp(_) => needs_vp = true,
                    Need::Never => {}
                }
            }
        }
        for (rule, opens) in self.boxes.iter_mut().zip(opens) {
            rule.may_open_free = opens || (needs_vp && rule.vp > 0);
        }
    }

    pub fn box_id(&self, b: usize) -> &str {
        &self.box_ids[b]
    }
}
