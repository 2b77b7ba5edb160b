//! Decisions and the policies that make them.
//!
//! The engine enumerates the legal choices at each decision point; a policy picks one by
//! index. Policies see the rules and the deciding player's state, never the RNG.

use rand::RngExt;
use rand_pcg::Pcg64Mcg;

use super::game::Player;
use super::rules::{Cause, Gain, Rules};
use crate::model::Action;

/// What the player is deciding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Which dice to re-roll (a `Reroll` mask each), or `Stop` rolling.
    Reroll,
    /// Which track an Area or Item face fills.
    Track,
    /// Which box a bonus box lets the player fill (filling is never refused).
    Bonus,
    /// Which item a Trainer face uses (or `Stop`).
    Use,
    /// Which drawn card to encounter (or `Stop`).
    Card,
    /// Whether to throw a Safari Ball (`Throw`) or give up (`Stop`).
    Throw,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    /// Re-roll the dice whose bits are set.
    Reroll(u32),
    Track(usize),
    Box(usize),
    Use(usize),
    /// Index into the cards drawn this turn.
    Card(usize),
    Throw,
    Stop,
}

/// What a policy sees of the moment it decides in.
pub struct View<'a> {
    pub rules: &'a Rules,
    pub player: &'a Player,
    /// The expedition faces showing (for `Reroll`).
    pub faces: &'a [Action],
    /// Rolls left this turn (for `Reroll`).
    pub rolls_left: u32,
    /// The card being thrown at (for `Throw`) and the drawn cards (for `Card`).
    pub drawn: &'a [usize],
    pub target: Option<usize>,
    /// The capture dice total needed, and the chance one throw reaches it (for `Throw`).
    pub catch_chance: f64,
}

pub trait Policy: Send {
    fn name(&self) -> &'static str;
    fn choose(
        &mut self,
        view: &View,
        decision: Decision,
        choices: &[Choice],
        rng: &mut Pcg64Mcg,
    ) -> usize;
}

/// The policies `safari sim` knows, by name.
pub fn by_name(name: &str) -> Option<Box<dyn Policy>> {
    match name {
        "random" => Some(Box::new(Random)),
        "greedy" => Some(Box::new(Greedy)),
        "expected" => Some(Box::new(Expected)),
        _ => None,
    }
}

pub const NAMES: &[&str] = &["random", "greedy", "expected"];

/// Uniform among the legal choices: explores everything the rules allow.
pub struct Random;

impl Policy for Random {
    fn name(&self) -> &'static str {
        "random"
    }

    fn choose(&mut self, _: &View, _: Decision, choices: &[Choice], rng: &mut Pcg64Mcg) -> usize {
        rng.random_range(0..choices.len())
    }
}

/// The choice worth most right now: victory points and progress toward rewards.
pub struct Greedy;

impl Greedy {
    /// What filling a box is worth at once, with a little for what it leads to.
    fn box_value(rules: &Rules, player: &Player, b: usize) -> f64 {
        let rule = &rules.boxes[b];
        let mut value = rule.vp as f64;
        for gain in &rule.gains {
            value += match gain {
                Gain::Item(i) if !player.items[*i] => 4.0,
                Gain::Item(_) => 0.5,
                Gain::Habitat(_) => 2.0,
                Gain::Species(s) if !player.species[*s] => 4.0,
                Gain::Species(_) => 2.0,
            };
        }
        if rule.style == crate::model::Style::Bonus {
            value += 3.0;
        }
        // Progress toward the rest of its track.
        let track = &rules.tracks[rule.track].boxes;
        let at = track.iter().position(|x| *x == b).unwrap_or(0);
        for (distance, next) in track.iter().skip(at + 1).take(3).enumerate() {
            let next = &rules.boxes[*next];
            let later = next.vp as f64 + 3.0 * next.gains.len() as f64;
            value += later / (distance as f64 + 2.0);
        }
        value + 0.1
    }

    /// Worth of each face now, by `Action as usize`.
    fn worths(view: &View) -> [f64; 6] {
        let mut worth = [0.0; 6];
        for action in Action::ALL {
            worth[action as usize] = Self::face_value(view, action);
        }
        worth
    }

    fn face_value(view: &View, face: Action) -> f64 {
        let (rules, player) = (view.rules, view.player);
        let next_value = |face: Action| {
            rules.face_tracks[face as usize]
                .iter()
                .filter_map(|t| player.next_box(rules, *t))
                .filter(|b| {
                    rules.boxes[*b].cause == Cause::Dice(face) && player.can_fill(rules, *b)
                })
                .map(|b| Self::box_value(rules, player, b))
                .fold(0.0, f64::max)
        };
        match face {
            Action::Area | Action::Item => next_value(face),
            Action::Grass | Action::Water => 2.5,
            Action::Trainer => {
                let usable = (0..rules.items.len()).any(|i| {
                    player.items[i]
                        && rules.use_boxes[i]
                            .iter()
                            .any(|b| player.can_fill(rules, *b))
                });
                if usable { 4.0 } else { 0.3 }
            }
            Action::Hazard => -2.0,
        }
    }
}

impl Policy for Greedy {
    fn name(&self) -> &'static str {
        "greedy"
    }

    fn choose(
        &mut self,
        view: &View,
        decision: Decision,
        choices: &[Choice],
        _: &mut Pcg64Mcg,
    ) -> usize {
        let (rules, player) = (view.rules, view.player);
        // Worth of each face, once per decision (re-roll choices number up to 2^dice).
        let worth = if decision == Decision::Reroll {
            Self::worths(view)
        } else {
            [0.0; 6]
        };
        let average: f64 = worth.iter().sum::<f64>() / 6.0;
        let value = |choice: &Choice| -> f64 {
            match (decision, choice) {
                (Decision::Reroll, Choice::Reroll(mask)) => view
                    .faces
                    .iter()
                    .enumerate()
                    .map(|(i, f)| {
                        if mask & (1 << i) != 0 {
                            average
                        } else {
                            worth[*f as usize]
                        }
                    })
                    .sum(),
                (Decision::Reroll, Choice::Stop) => {
                    view.faces.iter().map(|f| worth[*f as usize]).sum::<f64>() + 0.01
                }
                (_, Choice::Track(t)) => player
                    .next_box(rules, *t)
                    .map_or(0.0, |b| Self::box_value(rules, player, b)),
                (_, Choice::Box(b)) => Self::box_value(rules, player, *b),
                (_, Choice::Use(item)) => rules.use_boxes[*item]
                    .iter()
                    .filter(|b| player.can_fill(rules, **b))
                    .map(|b| Self::box_value(rules, player, *b))
                    .fold(0.5, f64::max),
                (Decision::Card, Choice::Card(i)) => {
                    let card = &rules.cards[view.drawn[*i]];
                    let new = if player.species[card.species] {
                        1.0
                    } else {
                        6.0
                    };
                    new * super::game::catch_chance(rules, card.capture_rate)
                }
                (Decision::Throw, Choice::Throw) => {
                    let spare =
                        player.balls_left(rules) as f64 / player.turns_left(rules).max(1) as f64;
                    view.catch_chance * 6.0 + spare.min(2.0) - 0.5
                }
                _ => 0.0,
            }
        };
        best(choices, value)
    }
}

/// The index of the choice worth most (the first, among near ties).
fn best(choices: &[Choice], value: impl Fn(&Choice) -> f64) -> usize {
    let mut best = 0;
    let mut best_value = f64::MIN;
    for (i, choice) in choices.iter().enumerate() {
        let v = value(choice);
        if v > best_value + 1e-9 {
            best = i;
            best_value = v;
        }
    }
    best
}

/// Greedy, but re-rolls by the exact expected worth of the dice after the re-roll, counting
/// the chance that hazards end the turn (which greedy ignores).
pub struct Expected;

impl Expected {
    /// Expected worth of the faces after re-rolling `mask`, zero when hazards reach the limit.
    fn after_reroll(view: &View, worth: &[f64; 6], mask: u32) -> f64 {
        let rules = view.rules;
        let dice = view.faces.len();
        // probability[h] of h hazards so far, and mass[h] = E[worth; h hazards].
        let mut probability = vec![0.0; dice + 1];
        let mut mass = vec![0.0; dice + 1];
        probability[0] = 1.0;
        for (i, face) in view.faces.iter().enumerate() {
            let (hazard, other) = if mask & (1 << i) != 0 {
                let faces = &rules.expedition[i];
                let n = faces.len() as f64;
                let hazard = faces.iter().filter(|f| **f == Action::Hazard).count() as f64 / n;
                let other: f64 = faces
                    .iter()
                    .filter(|f| **f != Action::Hazard)
                    .map(|f| worth[*f as usize])
                    .sum::<f64>()
                    / n;
                (hazard, other)
            } else if *face == Action::Hazard {
                (1.0, 0.0)
            } else {
                (0.0, worth[*face as usize])
            };
            for h in (0..=dice).rev() {
                let from_below = if h > 0 {
                    (probability[h - 1], mass[h - 1])
                } else {
                    (0.0, 0.0)
                };
                mass[h] = mass[h] * (1.0 - hazard) + probability[h] * other + from_below.1 * hazard;
                probability[h] = probability[h] * (1.0 - hazard) + from_below.0 * hazard;
            }
        }
        let limit = (rules.hazard_limit as usize).min(dice + 1);
        mass[..limit].iter().sum()
    }
}

impl Policy for Expected {
    fn name(&self) -> &'static str {
        "expected"
    }

    fn choose(
        &mut self,
        view: &View,
        decision: Decision,
        choices: &[Choice],
        rng: &mut Pcg64Mcg,
    ) -> usize {
        if decision != Decision::Reroll {
            return Greedy.choose(view, decision, choices, rng);
        }
        let worth = Greedy::worths(view);
        best(choices, |choice| {
            let mask = match choice {
                Choice::Reroll(mask) => *mask,
                _ => 0,
            };
            Self::after_reroll(view, &worth, mask)
        })
    }
}
