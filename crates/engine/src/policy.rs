//! Decisions and the policies that make them.
//!
//! The engine enumerates the legal choices at each decision point; a policy picks one by
//! index. Policies see the rules and the deciding player's state, never the RNG.

use either::Either;
use enum_dispatch::enum_dispatch;
use rand::RngExt;
use rand_pcg::Pcg64Mcg;

use std::sync::Arc;

use super::game::Player;
pub use super::planner::Planner;
use super::rules::{Gain, Rules};
pub use super::search::Search;
use super::target::{Aim, Target};
use crate::vocabulary::Action;

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
    /// Which species among the cards drawn a Trainer face's Repel sends away (`Card`, the
    /// first drawn card of the species), or none (`Stop`).
    Repel,
    /// Which drawn card to encounter (or `Stop`).
    Card,
    /// Whether to throw a Safari Ball (`Throw`), to spend a Trainer face's Poké Doll keeping a
    /// capture die at what it shows and throw (`Lock`), or to give up (`Stop`).
    Throw,
}

impl Decision {
    /// The decision's name, as front ends and the table's Lua call it.
    pub fn name(self) -> &'static str {
        match self {
            Decision::Reroll => "reroll",
            Decision::Track => "track",
            Decision::Bonus => "bonus",
            Decision::Use => "use",
            Decision::Repel => "repel",
            Decision::Card => "card",
            Decision::Throw => "throw",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    /// Re-roll the dice whose bits are set.
    Reroll(u32),
    Track(u32),
    Box(u32),
    Use(u32),
    /// Index into the cards drawn this turn.
    Card(u32),
    Throw,
    /// Keep capture die `.0` at the value `.1` it shows for the rest of the encounter (the
    /// Poké Doll), then throw.
    Lock(u32, u32),
    Stop,
}

/// The legal choices of one decision, in the engine's order; a policy answers with an index.
///
/// Most decisions list their few choices. A re-roll may take any subset of the dice, up to
/// thousands of choices at every roll, so its choices are described by the dice that may be
/// re-rolled and counted out only when a policy asks for them.
#[derive(Debug, Clone, Copy)]
pub enum Choices<'a> {
    Listed(&'a [Choice]),
    Reroll(Rerolls),
}

/// A re-roll decision's choices: `Stop`; then every non-empty subset of the free dice in
/// counting order, each followed (with the Bicycle) by the same subset plus the hazard die;
/// then (with the Bicycle) the hazard die alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rerolls {
    /// The dice that may be re-rolled: those not showing a hazard.
    pub free: u32,
    /// The one hazard die the Bicycle lets the player re-roll, as a mask.
    pub hazard: Option<u32>,
}

impl Rerolls {
    fn subsets(&self) -> usize {
        (1usize << self.free.count_ones()) - 1
    }

    fn per_subset(&self) -> usize {
        1 + self.hazard.is_some() as usize
    }

    /// Never empty: `Stop` is always offered.
    pub fn is_empty(&self) -> bool {
        false
    }

    pub fn len(&self) -> usize {
        1 + self.subsets() * self.per_subset() + self.hazard.is_some() as usize
    }

    pub fn get(&self, index: usize) -> Choice {
        let Some(index) = index.checked_sub(1) else {
            return Choice::Stop;
        };
        let (subset, with_hazard) = (index / self.per_subset(), index % self.per_subset() == 1);
        match self.hazard {
            Some(hazard) if subset == self.subsets() => Choice::Reroll(hazard),
            Some(hazard) if with_hazard => Choice::Reroll(deposit(subset + 1, self.free) | hazard),
            _ => Choice::Reroll(deposit(subset + 1, self.free)),
        }
    }

    /// Every die that may be re-rolled: the free ones and the Bicycle's.
    pub fn dice(&self) -> u32 {
        self.free | self.hazard.unwrap_or(0)
    }

    /// Whether `choice` is one of these: `Stop`, or re-rolling a set of the dice that may be.
    /// (The Bicycle's die is the only hazard die, so any set of them will do.)
    pub fn allows(&self, choice: Choice) -> bool {
        match choice {
            Choice::Stop => true,
            Choice::Reroll(mask) => mask != 0 && mask & !self.dice() == 0,
            _ => false,
        }
    }

    pub fn position(&self, choice: Choice) -> Option<usize> {
        if !self.allows(choice) {
            return None;
        }
        let Choice::Reroll(mask) = choice else {
            return Some(0);
        };
        let hazard = self.hazard.unwrap_or(0);
        let dice = mask & !hazard;
        if dice == 0 {
            return Some(1 + self.subsets() * self.per_subset());
        }
        let subset = extract(dice, self.free) - 1;
        Some(1 + subset * self.per_subset() + (mask != dice) as usize)
    }
}

/// Each set bit of `within`, lowest first, as a one-bit mask.
fn set_bits(within: u32) -> impl Iterator<Item = u32> {
    let mut rest = within;
    std::iter::from_fn(move || {
        let lowest = rest & rest.wrapping_neg();
        rest ^= lowest;
        (lowest != 0).then_some(lowest)
    })
}

/// The mask whose set bits are the low bits of `rank` placed on the set bits of `within`
/// (the rank-th subset of `within` in counting order).
fn deposit(rank: usize, within: u32) -> u32 {
    set_bits(within)
        .enumerate()
        .filter(|(bit, _)| rank >> bit & 1 == 1)
        .fold(0, |mask, (_, lowest)| mask | lowest)
}

/// The inverse of [`deposit`]: the rank of `mask` among the subsets of `within`.
fn extract(mask: u32, within: u32) -> usize {
    set_bits(within)
        .enumerate()
        .filter(|(_, lowest)| mask & lowest != 0)
        .fold(0, |rank, (bit, _)| rank | 1 << bit)
}

impl Choices<'_> {
    pub fn len(&self) -> usize {
        match self {
            Choices::Listed(list) => list.len(),
            Choices::Reroll(rerolls) => rerolls.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The choice a policy's answer picks; an index past the end picks the last choice.
    pub fn answer(&self, index: usize) -> Choice {
        self.get(index.min(self.len() - 1))
    }

    pub fn get(&self, index: usize) -> Choice {
        match self {
            Choices::Listed(list) => list[index],
            Choices::Reroll(rerolls) => rerolls.get(index),
        }
    }

    pub fn position(&self, choice: Choice) -> Option<usize> {
        match self {
            Choices::Listed(list) => list.iter().position(|c| *c == choice),
            Choices::Reroll(rerolls) => rerolls.position(choice),
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = Choice> + '_ {
        match self {
            Choices::Listed(list) => Either::Left(list.iter().copied()),
            Choices::Reroll(rerolls) => Either::Right((0..rerolls.len()).map(|i| rerolls.get(i))),
        }
    }

    /// Every die some choice re-rolls.
    pub fn rerollable(&self) -> u32 {
        match self {
            Choices::Listed(list) => list.iter().fold(0, |all, choice| match choice {
                Choice::Reroll(mask) => all | mask,
                _ => all,
            }),
            Choices::Reroll(rerolls) => rerolls.dice(),
        }
    }
}

/// Where a turn stands when its player decides: with the view's faces, cards and target,
/// what is left of the turn, so that a policy can play the rest of it out in its head
/// ([`Game::play_on`](super::Game::play_on)). All of it is on the table for everyone to see.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Rolling the expedition dice (`Reroll`).
    Rolling,
    /// Each face showing fills a box (`Track`): `face` is being resolved, and `left` more of
    /// it are still to resolve after this one.
    Faces { face: Action, left: u32 },
    /// Spending Trainer faces on items (`Use`) before the encounter: `left` Trainer faces are
    /// unspent.
    Trainers { left: u32 },
    /// Choosing a species to send away among the cards drawn (`Repel`), with `trainers`
    /// Trainer faces unspent.
    Repel { trainers: u32 },
    /// Choosing the card to encounter (`Card`), with `trainers` Trainer faces unspent.
    Encounter { trainers: u32 },
    /// Throwing at the card (`Throw`), with `trainers` Trainer faces unspent and the Poké
    /// Doll's lock (which capture die, at what value) once it is spent.
    Throwing {
        trainers: u32,
        lock: Option<(usize, u32)>,
    },
    /// Spending the Trainer faces left after the encounter on items (`Use`): `left` are
    /// unspent.
    AfterEncounter { left: u32 },
    /// Inside the consequences of a fill (`Bonus`): the rest of the turn is not told; `from`
    /// is the section of the bonus box whose chain this is.
    Cascade { from: u32 },
}

/// The Encounter Deck as the players see it: which cards it holds, never in what order.
#[derive(Debug, Clone, Copy)]
pub struct Deck<'a> {
    cards: &'a [usize],
}

impl<'a> Deck<'a> {
    pub(super) fn new(cards: &'a [usize]) -> Deck<'a> {
        Deck { cards }
    }

    pub fn len(&self) -> usize {
        self.cards.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// The mean of `worth` over its cards (what the next card drawn is worth on average: no
    /// order is read), or `None` when it is empty.
    pub(crate) fn mean(&self, worth: impl Fn(usize) -> f64) -> Option<f64> {
        (!self.cards.is_empty())
            .then(|| self.cards.iter().map(|c| worth(*c)).sum::<f64>() / self.cards.len() as f64)
    }

    /// Its cards (card indices, copies repeated) in card order, into `into`.
    pub(crate) fn sorted_into(&self, into: &mut Vec<usize>) {
        into.clear();
        into.extend_from_slice(self.cards);
        into.sort_unstable();
    }
}

/// What a policy sees of the moment it decides in.
pub struct View<'a> {
    pub rules: &'a Rules,
    /// The deciding player's seat (0 for the first player), and their sheet and supplies.
    pub seat: usize,
    pub player: &'a Player,
    /// What is left of the turn.
    pub stage: Stage,
    /// The deck the cards are drawn from, and the discard pile (face up).
    pub deck: Deck<'a>,
    pub discard: &'a [usize],
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

#[enum_dispatch]
pub trait Policy: Send {
    fn name(&self) -> &'static str;
    /// Called before each game with its rules: what a policy can work out once per ruleset.
    fn prepare(&mut self, _rules: &Rules) {}
    /// Called as a player's turn begins. Nothing on the sheet changes while the dice are
    /// rolled, so what a policy works out at a turn's first re-roll decision holds for the
    /// turn's later ones.
    fn begin_turn(&mut self) {}
    /// Whether the game should stop before the decision the player at `seat` is about to
    /// make, and keep the moment for someone outside the game to decide in
    /// ([`Game::paused`](super::Game::paused)): how the step API hands a decision to a person.
    /// Never, for a policy that decides.
    #[inline(always)]
    fn pause(&mut self, _seat: usize) -> bool {
        false
    }
    fn choose(
        &mut self,
        view: &View,
        decision: Decision,
        choices: Choices,
        rng: &mut Pcg64Mcg,
    ) -> usize;
    /// Which dice to re-roll: `Stop`, or a `Reroll` of dice `rerolls` allows (the engine
    /// stops rolling on any other choice). By default the choice [`Policy::choose`] picks;
    /// a policy that knows the set of dice it wants names it, without the choices being
    /// counted out.
    fn choose_reroll(&mut self, view: &View, rerolls: Rerolls, rng: &mut Pcg64Mcg) -> Choice {
        let choices = Choices::Reroll(rerolls);
        choices.answer(self.choose(view, Decision::Reroll, choices, rng))
    }
}

/// The built-in policies as one type, for callers that choose a policy at run time (a logged
/// game, tests). `sim` plays a table of one kind through [`Seats`] instead, so that no decision
/// dispatches on which policy decides.
#[enum_dispatch(Policy)]
#[derive(Clone)]
pub enum Builtin {
    Random,
    Greedy,
    Expected,
    Planner,
    Search,
    Target,
}

/// A table's policies, ready for many games. Seats all of one kind play in that kind's own
/// copy of the game loop, so no decision dispatches on which policy decides; mixed seats
/// dispatch. Every copy is compiled here, in the engine's crate, whose one codegen unit
/// inlines the loop whole (Cargo.toml), whichever crate plays the games.
#[derive(Clone)]
pub enum Seats {
    Random(Vec<Random>),
    Greedy(Vec<Greedy>),
    Expected(Vec<Expected>),
    Planner(Vec<Planner>),
    Search(Vec<Search>),
    Target(Vec<Target>),
    Mixed(Vec<Builtin>),
}

impl Seats {
    /// Every one of `players` seats plays `policy`.
    pub fn same(policy: Builtin, players: usize) -> Seats {
        match policy {
            Builtin::Random(p) => Seats::Random(vec![p; players]),
            Builtin::Greedy(p) => Seats::Greedy(vec![p; players]),
            Builtin::Expected(p) => Seats::Expected(vec![p; players]),
            Builtin::Planner(p) => Seats::Planner(vec![p; players]),
            Builtin::Search(p) => Seats::Search(vec![p; players]),
            Builtin::Target(p) => Seats::Target(vec![p; players]),
        }
    }

    /// Seats in turn order, each with its own policy.
    pub fn mixed(policies: Vec<Builtin>) -> Seats {
        Seats::Mixed(policies)
    }

    /// Moves the first `n` seats to the end (rotating who plays first).
    pub fn rotate_left(&mut self, n: usize) {
        match self {
            Seats::Random(p) => p.rotate_left(n),
            Seats::Greedy(p) => p.rotate_left(n),
            Seats::Expected(p) => p.rotate_left(n),
            Seats::Planner(p) => p.rotate_left(n),
            Seats::Search(p) => p.rotate_left(n),
            Seats::Target(p) => p.rotate_left(n),
            Seats::Mixed(p) => p.rotate_left(n),
        }
    }

    /// Plays `game` to its end ([`Game::play`](super::Game::play)): the winners' places.
    pub fn play(&mut self, game: &mut super::Game<'_>) -> Vec<usize> {
        match self {
            Seats::Random(p) => game.play(p),
            Seats::Greedy(p) => game.play(p),
            Seats::Expected(p) => game.play(p),
            Seats::Planner(p) => game.play(p),
            Seats::Search(p) => game.play(p),
            Seats::Target(p) => game.play(p),
            Seats::Mixed(p) => game.play(p),
        }
    }
}

/// The policies `safari sim` knows, by name; `target:BOX` plays to fill the box `BOX` (its
/// id is resolved against the rules the policy plays).
pub fn by_name(name: &str) -> Option<Builtin> {
    match name {
        "random" => Some(Random.into()),
        "greedy" => Some(Greedy::default().into()),
        "expected" => Some(Expected::default().into()),
        "planner" => Some(Planner::default().into()),
        _ => match name.split_once(':') {
            Some(("target", id)) if !id.is_empty() => Some(Target::new(id).into()),
            _ => Search::from_name(name).map(Into::into),
        },
    }
}

/// The names of the policies: the fast ones weakest first, then `search`, a thousand times
/// slower than the others (`planner`, its equal or better on the games measured, is the
/// strongest fast one: `planner.rs`); `search:N` also names `search` with a budget of N
/// rollouts per choice.
pub const NAMES: &[&str] = &["random", "greedy", "expected", "planner", "search"];

/// Uniform among the legal choices: explores everything the rules allow.
#[derive(Clone)]
pub struct Random;

impl Policy for Random {
    fn name(&self) -> &'static str {
        "random"
    }

    fn choose(&mut self, _: &View, _: Decision, choices: Choices, rng: &mut Pcg64Mcg) -> usize {
        rng.random_range(0..choices.len())
    }
}

/// The choice worth most right now: victory points and progress toward rewards.
#[derive(Default, Clone)]
pub struct Greedy {
    /// The compilation of the rules `fixed_worth` was worked out for.
    prepared_for: Option<u64>,
    /// The part of each box's worth that does not depend on the player: its VP, a bonus
    /// box's chain, and what the next boxes of its track lead to.
    fixed_worth: Vec<f64>,
    /// The faces' worths this turn, once a re-roll decision has needed them.
    turn_worths: Option<[f64; 6]>,
    /// A box to play toward, above victory points (the `target` policy).
    aim: Option<Arc<Aim>>,
}

impl Greedy {
    #[cold]
    fn prepare_for(&mut self, rules: &Rules) {
        self.prepared_for = Some(rules.compilation);
        self.fixed_worth = (0..rules.boxes.len())
            .map(|b| Self::fixed_worth(rules, b))
            .collect();
    }

    fn fixed_worth(rules: &Rules, b: usize) -> f64 {
        let rule = &rules.boxes[b];
        let mut value = rule.vp as f64;
        if rule.style == crate::vocabulary::Style::Bonus {
            value += 3.0;
        }
        // Progress toward the rest of its track.
        let track = &rules.tracks[rule.track as usize].boxes;
        let after = rule.position as usize + 1;
        for (distance, next) in track.iter().skip(after).take(3).enumerate() {
            let later = rules.boxes[*next].vp as f64 + 3.0 * rules.boxes[*next].gains.len() as f64;
            value += later / (distance as f64 + 2.0);
        }
        value + 0.1
    }

    /// What filling a box is worth at once, with a little for what it leads to.
    #[inline(always)]
    fn box_value(&self, rules: &Rules, player: &Player, b: usize) -> f64 {
        let mut value = self.fixed_worth[b];
        for gain in &rules.boxes[b].gains {
            value += match gain {
                Gain::Item(i) if !player.items[*i as usize] => 4.0,
                Gain::Item(_) => 0.5,
                Gain::Habitat(_) => 2.0,
                Gain::Species(s) if !player.species[*s as usize] => 4.0,
                Gain::Species(_) => 2.0,
            };
        }
        if let Some(aim) = &self.aim {
            value += aim.box_worth(&player.filled, b);
        }
        value
    }

    /// What the aim adds to meeting a species' card.
    #[inline]
    fn species_aim(&self, player: &Player, s: usize) -> f64 {
        match &self.aim {
            Some(aim) => aim.species_worth(&player.filled, &player.species, s),
            None => 0.0,
        }
    }

    /// What a habitat face adds toward the aim: the share of the deck's cards of species on
    /// the path that the face helps meet, times their worth.
    fn habitat_aim(&self, rules: &Rules, player: &Player, grass: bool) -> f64 {
        if self.aim.is_none() {
            return 0.0;
        }
        let wanted = rules
            .deck
            .iter()
            .map(|c| &rules.cards[*c])
            .filter(|card| {
                if grass {
                    card.grass > 0
                } else {
                    card.water > 0
                }
            })
            .map(|card| self.species_aim(player, card.species))
            .sum::<f64>();
        wanted / rules.deck.len().max(1) as f64
    }

    /// Plays toward a box above victory points (`None`: for victory points alone).
    pub(crate) fn aim(&mut self, aim: Option<Arc<Aim>>) {
        self.aim = aim;
        self.turn_worths = None;
    }

    /// Worth of each face this turn, by `Action as usize`.
    pub(super) fn worths(&mut self, view: &View) -> [f64; 6] {
        if let Some(worth) = self.turn_worths {
            return worth;
        }
        // Face by face, as straight-line code (a loop over a match cost 1% more instructions
        // a game). A face added to `Action` fails this match until it is given a worth here.
        let _every_face_has_a_worth = |face: Action| match face {
            Action::Area | Action::Item | Action::Trainer => (),
            Action::Grass | Action::Water | Action::Hazard => (),
        };
        let mut worth = [0.0; 6];
        worth[Action::Area as usize] = self.next_value(view, Action::Area);
        worth[Action::Item as usize] = self.next_value(view, Action::Item);
        worth[Action::Grass as usize] = 2.5 + self.habitat_aim(view.rules, view.player, true);
        worth[Action::Water as usize] = 2.5 + self.habitat_aim(view.rules, view.player, false);
        worth[Action::Trainer as usize] = self.trainer_value(view);
        worth[Action::Hazard as usize] = -2.0;
        self.turn_worths = Some(worth);
        worth
    }

    /// The best box a face would fill now.
    fn next_value(&self, view: &View, face: Action) -> f64 {
        let (rules, player) = (view.rules, view.player);
        rules.face_tracks[face as usize]
            .iter()
            .filter_map(|t| player.open_next(rules, *t))
            .filter(|b| rules.boxes[*b].filled_by(face))
            .map(|b| self.box_value(rules, player, b))
            .fold(0.0, f64::max)
    }

    /// A Trainer face: worth much when an item held opens a box by its use.
    fn trainer_value(&self, view: &View) -> f64 {
        let (rules, player) = (view.rules, view.player);
        let usable = rules.used_items.iter().any(|i| {
            player.items[*i]
                && rules.use_boxes[*i]
                    .iter()
                    .any(|b| player.can_fill(rules, *b))
        });
        if usable { 4.0 } else { 0.3 }
    }
}

impl Greedy {
    /// Re-rolls every die showing less than a die's average worth, when that gains more than
    /// a little over stopping. Worths add up, so this is the best of all the re-roll choices
    /// without scoring each of them.
    fn reroll(&mut self, view: &View, rerollable: u32) -> Choice {
        let worth = self.worths(view);
        let average: f64 = worth.iter().sum::<f64>() / 6.0;
        let mut mask = 0;
        let mut gain = 0.0;
        for (i, face) in view.faces.iter().enumerate() {
            let better = average - worth[*face as usize];
            // Without branches: the faces are random, so a branch here is mispredicted often.
            let take = (rerollable >> i) & 1 == 1 && better > 1e-9;
            mask |= (take as u32) << i;
            gain += if take { better } else { 0.0 };
        }
        if gain > 0.01 + 1e-9 {
            Choice::Reroll(mask)
        } else {
            Choice::Stop
        }
    }
}

impl Policy for Greedy {
    fn name(&self) -> &'static str {
        "greedy"
    }

    #[inline]
    fn prepare(&mut self, rules: &Rules) {
        if self.prepared_for != Some(rules.compilation) {
            self.prepare_for(rules);
        }
    }

    fn begin_turn(&mut self) {
        self.turn_worths = None;
    }

    fn choose_reroll(&mut self, view: &View, rerolls: Rerolls, _: &mut Pcg64Mcg) -> Choice {
        self.prepare(view.rules);
        self.reroll(view, rerolls.dice())
    }

    fn choose(
        &mut self,
        view: &View,
        decision: Decision,
        choices: Choices,
        _: &mut Pcg64Mcg,
    ) -> usize {
        self.prepare(view.rules);
        if decision == Decision::Reroll {
            let wanted = self.reroll(view, choices.rerollable());
            return choices.position(wanted).unwrap_or(0);
        }
        match choices {
            Choices::Listed(list) => best(list.iter().copied(), |c| self.value(view, decision, c)),
            Choices::Reroll(_) => best(choices.iter(), |c| self.value(view, decision, c)),
        }
    }
}

impl Greedy {
    /// What a listed choice is worth now.
    #[inline(always)]
    fn value(&self, view: &View, decision: Decision, choice: Choice) -> f64 {
        let (rules, player) = (view.rules, view.player);
        match choice {
            Choice::Track(t) => match player.next_box(t as usize) {
                Some(b) => self.box_value(rules, player, b),
                None => 0.0,
            },
            Choice::Box(b) => self.box_value(rules, player, b as usize),
            Choice::Use(item) => rules.use_boxes[item as usize]
                .iter()
                .filter(|b| player.can_fill(rules, **b))
                .map(|b| self.box_value(rules, player, *b))
                .fold(0.5, f64::max),
            Choice::Card(i) if decision == Decision::Card => {
                self.card_value(view, view.drawn[i as usize])
            }
            Choice::Stop if decision == Decision::Repel => self.best_card_but(view, None),
            Choice::Card(i) if decision == Decision::Repel => {
                // The best card kept, or what a fresh card is worth on average, whichever is
                // more, less the Trainer face spent.
                let species = rules.cards[view.drawn[i as usize]].species;
                let fresh = self.fresh_card_value(view);
                self.best_card_but(view, Some(species)).max(fresh) - TRAINER_FACE
            }
            Choice::Throw if decision == Decision::Throw => {
                self.throw_value(view, view.catch_chance)
            }
            Choice::Lock(die, value) if decision == Decision::Throw => match view.target {
                Some(card) => {
                    let chance = player.locked_catch_chance(rules, card, (die as usize, value));
                    self.throw_value(view, chance) - TRAINER_FACE
                }
                None => 0.0,
            },
            _ => 0.0,
        }
    }

    /// What encountering a drawn card is worth: a catch's worth by the chance of it.
    fn card_value(&self, view: &View, card: usize) -> f64 {
        let (rules, player) = (view.rules, view.player);
        let species = rules.cards[card].species;
        let new = if player.species[species] { 1.0 } else { 6.0 };
        (new + self.species_aim(player, species)) * player.catch_chance(rules, card)
    }

    /// The best of the drawn cards the player can encounter, but those of `but`'s species.
    fn best_card_but(&self, view: &View, but: Option<usize>) -> f64 {
        let (rules, player) = (view.rules, view.player);
        let (grass, water) = habitats_showing(view.faces);
        view.drawn
            .iter()
            .filter(|c| Some(rules.cards[**c].species) != but)
            .filter(|c| player.meets_card(rules, **c, grass, water))
            .map(|c| self.card_value(view, *c))
            .fold(0.0, f64::max)
    }

    /// What the next card drawn is worth on average: the deck's cards (the discard pile's, once
    /// the deck is empty), each worth its encounter when the dice showing meet it.
    fn fresh_card_value(&self, view: &View) -> f64 {
        let (rules, player) = (view.rules, view.player);
        let (grass, water) = habitats_showing(view.faces);
        let worth = |c: usize| {
            if player.meets_card(rules, c, grass, water) {
                self.card_value(view, c)
            } else {
                0.0
            }
        };
        view.deck
            .mean(worth)
            .or_else(|| Deck::new(view.discard).mean(worth))
            .unwrap_or(0.0)
    }

    /// What a throw with this chance of a catch is worth.
    fn throw_value(&self, view: &View, chance: f64) -> f64 {
        let (rules, player) = (view.rules, view.player);
        let spare = player.balls_left(rules) as f64 / player.turns_left(rules).max(1) as f64;
        let wanted = view
            .target
            .map_or(0.0, |c| self.species_aim(player, rules.cards[c].species));
        chance * (6.0 + wanted) + spare.min(2.0) - 0.5
    }
}

/// The Grass and the Water faces among `faces`.
fn habitats_showing(faces: &[Action]) -> (u32, u32) {
    faces.iter().fold((0, 0), |(g, w), face| match face {
        Action::Grass => (g + 1, w),
        Action::Water => (g, w + 1),
        _ => (g, w),
    })
}

/// What keeping a Trainer face for later is worth, against spending it on a Repel or a Poké
/// Doll now.
const TRAINER_FACE: f64 = 0.3;

/// The index of the choice worth most (the first, among near ties).
#[inline(always)]
fn best(choices: impl Iterator<Item = Choice>, value: impl Fn(Choice) -> f64) -> usize {
    let mut best = 0;
    let mut best_value = f64::MIN;
    for (i, choice) in choices.enumerate() {
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
#[derive(Default, Clone)]
pub struct Expected {
    greedy: Greedy,
}

impl Expected {
    /// Plays toward a box above victory points (`None`: for victory points alone).
    pub(crate) fn aim(&mut self, aim: Option<Arc<Aim>>) {
        self.greedy.aim(aim);
    }

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

    fn prepare(&mut self, rules: &Rules) {
        self.greedy.prepare(rules);
    }

    fn begin_turn(&mut self) {
        self.greedy.begin_turn();
    }

    fn choose(
        &mut self,
        view: &View,
        decision: Decision,
        choices: Choices,
        rng: &mut Pcg64Mcg,
    ) -> usize {
        if decision != Decision::Reroll {
            return self.greedy.choose(view, decision, choices, rng);
        }
        self.greedy.prepare(view.rules);
        let worth = self.greedy.worths(view);
        best(choices.iter(), |choice| {
            let mask = match choice {
                Choice::Reroll(mask) => mask,
                _ => 0,
            };
            Self::after_reroll(view, &worth, mask)
        })
    }
}
