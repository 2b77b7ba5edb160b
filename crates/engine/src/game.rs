//! One game in play: the players' sheets, the shared deck, and the turn (docs/rules.md,
//! "A turn"), with every choice left to the players' policies.

use arrayvec::ArrayVec;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use serde::Serialize;
use smallvec::SmallVec;

use super::policy::{Choice, Choices, Decision, Deck, Policy, Rerolls, Stage, View};
use super::rules::{Gain, Need, Rules};
use crate::moment::Moment;
use crate::vocabulary::{Action, Habitat, Style};

/// The expedition faces showing.
type Faces = ArrayVec<Action, { crate::limits::MAX_EXPEDITION_DICE as usize }>;
/// Cards drawn this turn: one per Grass or Water face.
type Drawn = ArrayVec<usize, { crate::limits::MAX_EXPEDITION_DICE as usize }>;

/// The rules' lists of boxes filled by one cause, each scanned for its first open box.
#[derive(Debug, Clone, Copy)]
enum BoxList {
    Turn,
    Ball,
    Free,
}

impl BoxList {
    fn boxes(self, rules: &Rules) -> &[usize] {
        match self {
            BoxList::Turn => &rules.turn_boxes,
            BoxList::Ball => &rules.ball_boxes,
            BoxList::Free => &rules.free_boxes,
        }
    }
}

/// A player's sheet and supplies.
#[derive(Debug, Default)]
pub struct Player {
    /// Public to read; only the engine fills boxes, and the cursors below follow its fills.
    pub filled: Vec<bool>,
    /// Per track, its first unfilled box (`None` when full).
    next: Vec<Option<u32>>,
    /// Per [`BoxList`], how many of its first boxes are filled.
    filled_prefix: [u32; 3],
    /// Whether a free box may have opened since the last look found none open.
    free_pending: bool,
    pub items: Vec<bool>,
    pub species: Vec<bool>,
    pub bonus_grass: u32,
    pub bonus_water: u32,
    pub bonus_any: u32,
    pub vp: u32,
    pub unique_species: u32,
    pub turns_taken: u32,
    pub balls_thrown: u32,
    pub out: Option<OutReason>,
    /// Items used, by item.
    pub uses: Vec<u32>,
    /// Victory points at the end of each turn taken.
    pub history: Vec<u32>,
    /// Per box, the turn it was filled on (1 for the first turn), 0 while unfilled.
    pub filled_on: Vec<u16>,
    /// Turns ended by hazards.
    pub busts: u32,
    /// Turns that filled nothing but their Turn Tracker box: no face, item or card was of use.
    pub idle_turns: u32,
    /// Boxes filled so far, and when this turn's expedition began.
    fills: u32,
    turn_start_fills: u32,
    /// Whether hazards ended this turn.
    busted: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OutReason {
    Turns,
    Balls,
}

impl Clone for Player {
    fn clone(&self) -> Player {
        let mut player = Player::default();
        player.clone_from(self);
        player
    }

    /// Copies into this player's buffers: a search copies a player for every rollout.
    fn clone_from(&mut self, source: &Player) {
        let Player {
            filled,
            next,
            filled_prefix,
            free_pending,
            items,
            species,
            bonus_grass,
            bonus_water,
            bonus_any,
            vp,
            unique_species,
            turns_taken,
            balls_thrown,
            out,
            uses,
            history,
            filled_on,
            busts,
            idle_turns,
            fills,
            turn_start_fills,
            busted,
        } = source;
        self.filled.clone_from(filled);
        self.next.clone_from(next);
        self.filled_prefix = *filled_prefix;
        self.free_pending = *free_pending;
        self.items.clone_from(items);
        self.species.clone_from(species);
        self.bonus_grass = *bonus_grass;
        self.bonus_water = *bonus_water;
        self.bonus_any = *bonus_any;
        self.vp = *vp;
        self.unique_species = *unique_species;
        self.turns_taken = *turns_taken;
        self.balls_thrown = *balls_thrown;
        self.out = *out;
        self.uses.clone_from(uses);
        self.history.clone_from(history);
        self.filled_on.clone_from(filled_on);
        self.busts = *busts;
        self.idle_turns = *idle_turns;
        self.fills = *fills;
        self.turn_start_fills = *turn_start_fills;
        self.busted = *busted;
    }
}

impl Player {
    fn new(rules: &Rules) -> Player {
        let mut player = Player {
            filled: vec![false; rules.boxes.len()],
            next: Vec::with_capacity(rules.tracks.len()),
            items: vec![false; rules.items.len()],
            species: vec![false; rules.species.len()],
            uses: vec![0; rules.items.len()],
            history: Vec::with_capacity(rules.turns as usize),
            filled_on: vec![0; rules.boxes.len()],
            ..Player::default()
        };
        player.reset(rules);
        player
    }

    /// A blank sheet and full supplies, keeping the buffers.
    fn reset(&mut self, rules: &Rules) {
        self.filled.fill(false);
        self.next.clone_from(&rules.first_boxes);
        self.filled_prefix = [0; 3];
        self.free_pending = true;
        self.items.fill(false);
        self.species.fill(false);
        self.bonus_grass = 0;
        self.bonus_water = 0;
        self.bonus_any = 0;
        self.vp = 0;
        self.unique_species = 0;
        self.turns_taken = 0;
        self.balls_thrown = 0;
        self.out = None;
        self.uses.fill(0);
        self.history.clear();
        self.filled_on.fill(0);
        self.busts = 0;
        self.idle_turns = 0;
        self.fills = 0;
        self.turn_start_fills = 0;
        self.busted = false;
    }

    /// Boxes filled so far.
    #[inline]
    pub fn fills(&self) -> u32 {
        self.fills
    }

    /// The first unfilled box of a track.
    #[inline]
    pub fn next_box(&self, track: usize) -> Option<usize> {
        self.next[track].map(|b| b as usize)
    }

    #[inline(always)]
    fn mark_filled(&mut self, rules: &Rules, b: usize) {
        self.filled[b] = true;
        self.filled_on[b] = self.turns_taken.min(u16::MAX as u32) as u16;
        self.fills += 1;
        let next = &mut self.next[rules.boxes[b].track as usize];
        while let Some(n) = *next
            && self.filled[n as usize]
        {
            *next = rules.boxes[n as usize].following;
        }
    }

    /// The first open box of a list. Its filled first boxes are passed over once, not at
    /// every look: a Turn Tracker is scanned every turn, a ball track at every throw.
    #[inline]
    fn first_open(&mut self, rules: &Rules, list: BoxList) -> Option<usize> {
        let boxes = list.boxes(rules);
        let mut start = self.filled_prefix[list as usize] as usize;
        while boxes.get(start).is_some_and(|b| self.filled[*b]) {
            start += 1;
        }
        self.filled_prefix[list as usize] = start as u32;
        boxes[start..]
            .iter()
            .copied()
            .find(|b| self.can_fill(rules, *b))
    }

    #[inline(always)]
    pub fn meets(&self, need: Need) -> bool {
        match need {
            Need::Item(i) => self.items[i as usize],
            Need::Species(s) => self.species[s as usize],
            Need::Box(b) => self.filled[b as usize],
            Need::Vp(n) => self.vp >= n,
            Need::Never => false,
        }
    }

    /// Whether every requirement of a box is met.
    #[inline(always)]
    pub(crate) fn meets_needs(&self, rules: &Rules, b: usize) -> bool {
        rules.boxes[b].needs.iter().all(|n| self.meets(*n))
    }

    /// The next box of a track, if it is open: its requirements met (the box before it is
    /// filled, being the next).
    #[inline(always)]
    pub(crate) fn open_next(&self, rules: &Rules, track: usize) -> Option<usize> {
        match self.next_box(track) {
            Some(b) if self.meets_needs(rules, b) => Some(b),
            _ => None,
        }
    }

    /// Whether the box is open: unfilled, the box before it filled, its requirements met.
    #[inline(always)]
    pub fn can_fill(&self, rules: &Rules, b: usize) -> bool {
        let rule = &rules.boxes[b];
        !self.filled[b]
            && rule.previous.is_none_or(|p| self.filled[p as usize])
            && self.meets_needs(rules, b)
    }

    /// The first of these items (a list of `rules.item_steps`) the player holds.
    fn holding(&self, items: &[usize]) -> Option<usize> {
        items.iter().copied().find(|i| self.items[*i])
    }

    /// What the passive items held add to every capture roll.
    pub fn capture_bonus(&self, rules: &Rules) -> u32 {
        rules
            .item_steps
            .capture_bonus
            .iter()
            .filter(|(i, _)| self.items[*i])
            .fold(0u32, |sum, (_, n)| sum.saturating_add(*n))
    }

    /// The chance one throw at the card catches it, with the passive items held and no die
    /// locked (usable boosts left out: whether one is spent depends on the roll).
    pub fn catch_chance(&self, rules: &Rules, card: usize) -> f64 {
        catch_chance(
            rules,
            rules.cards[card]
                .capture_rate
                .saturating_sub(self.capture_bonus(rules)),
        )
    }

    /// The chance one throw at the card catches it with capture die `lock.0` kept at `lock.1`
    /// (the Poké Doll), the passive items held.
    pub fn locked_catch_chance(&self, rules: &Rules, card: usize, lock: (usize, u32)) -> f64 {
        let rate = rules.cards[card]
            .capture_rate
            .saturating_sub(self.capture_bonus(rules));
        locked_catch_chance(rules, rate, lock)
    }

    /// Re-rolls a turn gives this player: the rules' and one per extra-roll item held.
    fn rolls_per_turn(&self, rules: &Rules) -> u32 {
        let extra = rules
            .item_steps
            .extra_roll
            .iter()
            .filter(|i| self.items[**i])
            .count() as u32;
        rules.rolls_per_turn.saturating_add(extra)
    }

    /// Habitat bonuses (grass, water, either): the sheet's and the passive items' held.
    fn habitat_bonuses(&self, rules: &Rules) -> (u32, u32, u32) {
        let mut bonus = (self.bonus_grass, self.bonus_water, self.bonus_any);
        for (i, habitat) in &rules.item_steps.habitat {
            if self.items[*i] {
                match habitat {
                    Habitat::Grass => bonus.0 += 1,
                    Habitat::Water => bonus.1 += 1,
                    Habitat::Any => bonus.2 += 1,
                }
            }
        }
        bonus
    }

    pub fn balls_left(&self, rules: &Rules) -> u32 {
        rules.balls.saturating_sub(self.balls_thrown)
    }

    pub fn turns_left(&self, rules: &Rules) -> u32 {
        rules.turns.saturating_sub(self.turns_taken)
    }

    /// Whether a card's criteria hold with the habitats rolled this turn.
    #[inline(always)]
    pub fn meets_card(&self, rules: &Rules, card: usize, grass: u32, water: u32) -> bool {
        let rule = &rules.cards[card];
        self.meets_habitats(rules, card, grass, water)
            && rule.area.is_none_or(|need| self.meets(need))
            && rule.item.is_none_or(|i| self.items[i])
    }

    /// Whether `grass` and `water` faces, with the habitat bonuses held, give the card's
    /// habitats (an either-bonus counting as whichever it needs).
    #[inline]
    pub fn meets_habitats(&self, rules: &Rules, card: usize, grass: u32, water: u32) -> bool {
        let card = &rules.cards[card];
        let (bonus_grass, bonus_water, bonus_any) = self.habitat_bonuses(rules);
        (0..=bonus_any).any(|to_grass| {
            let g = card.grass.saturating_sub(bonus_grass + to_grass);
            let w = card
                .water
                .saturating_sub(bonus_water + (bonus_any - to_grass));
            g <= grass && w <= water
        })
    }
}

/// One line of a game log.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    Turn {
        player: usize,
        turn: u32,
    },
    Roll {
        player: usize,
        faces: Vec<Action>,
        /// The dice this roll re-rolled, by index; none for the turn's first roll.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        rerolled: Vec<usize>,
    },
    /// The roll showed the hazard limit of Hazards: the turn ends.
    Bust {
        player: usize,
    },
    Fill {
        player: usize,
        r#box: String,
        vp: u32,
    },
    Draw {
        player: usize,
        cards: Vec<String>,
    },
    Encounter {
        player: usize,
        card: String,
    },
    Throw {
        player: usize,
        /// What each capture die shows, in the dice's order (a locked die at its kept value).
        dice: Vec<u32>,
        /// The dice's sum, with the usable boosts spent on this throw.
        total: u32,
        needed: u32,
        caught: bool,
    },
    Collect {
        player: usize,
        species: String,
    },
    Use {
        player: usize,
        item: String,
        /// The species a Repel sent away.
        #[serde(skip_serializing_if = "Option::is_none")]
        species: Option<String>,
        /// The capture die a Poké Doll keeps, and at what.
        #[serde(skip_serializing_if = "Option::is_none")]
        keeps: Option<Kept>,
    },
    Out {
        player: usize,
        reason: OutReason,
    },
    End {
        scores: Vec<u32>,
        winners: Vec<usize>,
    },
}

impl Event {
    /// Whether the event shows what was left to chance or hidden until then: a roll of the
    /// dice, the cards drawn, a throw's capture dice.
    pub fn reveals(&self) -> bool {
        matches!(
            self,
            Event::Roll { .. } | Event::Draw { .. } | Event::Throw { .. }
        )
    }
}

/// A capture die the Poké Doll keeps for the rest of the encounter: which (from 0), and the
/// value it shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Kept {
    pub die: usize,
    pub value: u32,
}

/// Counts a simulation reports, kept while playing.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    pub encounters: Vec<u32>,
    pub catches: Vec<u32>,
    pub throws: Vec<u32>,
}

#[derive(Clone)]
pub struct Game<'r> {
    pub rules: &'r Rules,
    pub players: Vec<Player>,
    deck: Vec<usize>,
    discard: Vec<usize>,
    rng: Pcg64Mcg,
    pub tally: Tally,
    pub log: Option<Vec<Event>>,
    /// Rounds played.
    pub rounds: u32,
    choices: Vec<Choice>,
    /// The consequences of a fill still to play out (see [`Game::cascade`]).
    steps: Vec<Step>,
    /// The decision a policy paused the game at ([`Policy::pause`]), and the game as it stood.
    pub paused: Option<Box<Moment>>,
}

/// One consequence waiting in a cascade of fills.
#[derive(Debug, Clone, Copy)]
enum Step {
    Fill(u32),
    /// A box an event names, filled only if the steps before left it open.
    FillIfOpen(u32),
    /// The `k`th gain of a box filled.
    Gain(u32, u32),
    Collect(u32),
    /// A bonus chain from a bonus box of this section.
    Bonus(u32),
    /// Every open free box, one by one.
    Free,
}

/// A decision's own part of what its policy sees: the faces showing, the rolls left, the cards
/// drawn, the card thrown at, the chance a throw catches it, and what is left of the turn.
type Context<'a> = (&'a [Action], u32, &'a [usize], Option<usize>, f64, Stage);

/// What a player's policy sees when it decides.
#[inline]
fn view<'a>(
    rules: &'a Rules,
    (seat, player): (usize, &'a Player),
    deck: &'a [usize],
    discard: &'a [usize],
    context: Context<'a>,
) -> View<'a> {
    View {
        rules,
        seat,
        player,
        stage: context.5,
        deck: Deck::new(deck),
        discard,
        faces: context.0,
        rolls_left: context.1,
        drawn: context.2,
        target: context.3,
        catch_chance: context.4,
    }
}

/// P(capture dice total >= rate) for one throw with no die locked, from the rules' table.
pub fn catch_chance(rules: &Rules, rate: u32) -> f64 {
    rules.catch_table.get(rate as usize).copied().unwrap_or(0.0)
}

/// P(total >= rate) when the Poké Doll keeps die `lock.0` at `lock.1`.
pub(crate) fn locked_catch_chance(rules: &Rules, rate: u32, lock: (usize, u32)) -> f64 {
    let others = rules
        .capture
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != lock.0)
        .map(|(_, d)| d.as_slice());
    let table = at_least_table(others);
    table
        .get(rate.saturating_sub(lock.1) as usize)
        .copied()
        .unwrap_or(0.0)
}

/// `table[t]` = P(sum of the dice >= t), for t up to the highest total plus one.
pub fn at_least_table<'d>(dice: impl Iterator<Item = &'d [u32]>) -> Vec<f64> {
    let mut totals: Vec<f64> = vec![1.0];
    for die in dice {
        let mut next = vec![0.0; totals.len() + die.iter().max().copied().unwrap_or(0) as usize];
        for (total, p) in totals.iter().enumerate() {
            for face in die {
                next[total + *face as usize] += p / die.len() as f64;
            }
        }
        totals = next;
    }
    let mut at_least = vec![0.0; totals.len() + 1];
    for t in (0..totals.len()).rev() {
        at_least[t] = at_least[t + 1] + totals[t];
    }
    at_least
}

/// A move a player can make at any time, in the target policy's plans (`target.rs`) and the
/// planner's trials (`planner.rs`): a box filled by a face, an item used, a turn begun, a
/// ball thrown and missed, a card caught.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Move {
    Face(usize),
    Use(usize),
    Turn,
    Throw,
    Catch(usize),
}

impl Game<'_> {
    /// Makes a move on a copy of `player` as player 0, with all that follows from it, the
    /// choices in its cascade made by `policy`: the sheet it ends with is `self.players[0]`.
    pub(crate) fn play_move<P: Policy>(&mut self, player: &Player, mv: Move, policy: &mut P) {
        self.players[0].clone_from(player);
        self.make_move(mv, policy);
    }

    /// Makes a move on player 0's sheet as it stands, as [`Game::play_move`] does on a copy.
    pub(crate) fn make_move<P: Policy>(&mut self, mv: Move, policy: &mut P) {
        let rules = self.rules;
        match mv {
            Move::Face(b) => self.fill(0, b, policy),
            Move::Use(i) => self.use_item(0, i, policy),
            Move::Turn => {
                if let Some(b) = self.players[0].first_open(rules, BoxList::Turn) {
                    self.fill(0, b, policy);
                }
            }
            Move::Throw | Move::Catch(_) => {
                if let Some(b) = self.players[0].first_open(rules, BoxList::Ball) {
                    self.fill(0, b, policy);
                }
                if let Move::Catch(c) = mv {
                    self.collect(0, rules.cards[c].species, policy);
                }
            }
        }
    }
}

/// The buffers of a one-player game a policy tries moves in ([`Game::play_move`]), kept
/// between its decisions so that trying a move allocates nothing: a policy cannot keep a game,
/// which borrows the rules.
#[derive(Default, Clone)]
pub(crate) struct Scratch {
    players: Vec<Player>,
    steps: Vec<Step>,
    choices: Vec<Choice>,
}

impl<'r> Game<'r> {
    /// A one-player game for trying moves in, from `scratch`'s buffers (give them back with
    /// [`Game::keep`]): no deck, no discard pile, no tally, and no dice rolled.
    pub(crate) fn scratch(rules: &'r Rules, scratch: &mut Scratch) -> Game<'r> {
        let mut players = std::mem::take(&mut scratch.players);
        if players.is_empty() {
            players.push(Player::new(rules));
        }
        Game {
            rules,
            players,
            deck: Vec::new(),
            discard: Vec::new(),
            rng: Pcg64Mcg::seed_from_u64(0),
            tally: Tally::default(),
            log: None,
            rounds: 0,
            choices: std::mem::take(&mut scratch.choices),
            steps: std::mem::take(&mut scratch.steps),
            paused: None,
        }
    }

    /// Gives a scratch game's buffers back.
    pub(crate) fn keep(self, scratch: &mut Scratch) {
        scratch.players = self.players;
        scratch.steps = self.steps;
        scratch.choices = self.choices;
    }

    pub fn new(rules: &'r Rules, players: usize, seed: u64) -> Game<'r> {
        let mut game = Game {
            rules,
            players: Vec::with_capacity(players),
            deck: Vec::with_capacity(rules.deck.len()),
            discard: Vec::with_capacity(rules.deck.len()),
            rng: Pcg64Mcg::seed_from_u64(seed),
            tally: Tally {
                encounters: vec![0; rules.cards.len()],
                catches: vec![0; rules.cards.len()],
                throws: vec![0; rules.cards.len()],
            },
            log: None,
            rounds: 0,
            choices: Vec::new(),
            steps: Vec::new(),
            paused: None,
        };
        game.restart(players, seed);
        game
    }

    /// Sets up a new game in this one's place, as [`Game::new`] would, reusing its buffers:
    /// a simulation plays thousands of games on one thread. A log is kept on and emptied.
    pub fn restart(&mut self, players: usize, seed: u64) {
        let rules = self.rules;
        self.rng = Pcg64Mcg::seed_from_u64(seed);
        self.deck.clear();
        self.deck.extend_from_slice(&rules.deck);
        self.deck.shuffle(&mut self.rng);
        self.discard.clear();
        self.players.truncate(players);
        for player in &mut self.players {
            player.reset(rules);
        }
        while self.players.len() < players {
            self.players.push(Player::new(rules));
        }
        for counts in [
            &mut self.tally.encounters,
            &mut self.tally.catches,
            &mut self.tally.throws,
        ] {
            counts.fill(0);
        }
        if let Some(log) = &mut self.log {
            log.clear();
        }
        self.rounds = 0;
        self.paused = None;
    }

    /// The expedition dice as player `p`'s turn last rolled them, from the log (none without
    /// one, or before the turn's first roll).
    fn showing(&self, p: usize) -> Option<Vec<Action>> {
        let log = self.log.as_ref()?;
        let turn = log
            .iter()
            .rposition(|e| matches!(e, Event::Turn { player, .. } if *player == p))?;
        log[turn..].iter().rev().find_map(|e| match e {
            Event::Roll { player, faces, .. } if *player == p => Some(faces.clone()),
            _ => None,
        })
    }

    /// Cards left in the deck.
    pub(crate) fn deck_len(&self) -> usize {
        self.deck.len()
    }

    /// The discard pile, face up, the last discarded last.
    pub fn discard(&self) -> &[usize] {
        &self.discard
    }

    fn event(&mut self, event: impl FnOnce() -> Event) {
        if let Some(log) = &mut self.log {
            log.push(event());
        }
    }

    /// Plays until every player is out; returns the winners (ties share). Never inlined: it
    /// runs once a game, and profiles and benchmarks find the engine under its name. A policy
    /// that pauses the game ([`Policy::pause`]) stops it at the end of that turn, with the
    /// moment it paused at in [`Game::paused`] and no winners.
    #[inline(never)]
    pub fn play<P: Policy>(&mut self, policies: &mut [P]) -> Vec<usize> {
        // Every turn fills a Turn Tracker box, so a game ends within `turns` rounds; the
        // bound only guards against content with no Turn Tracker at all.
        let limit = self.rules.turns.max(1) + 1;
        for policy in policies.iter_mut() {
            policy.prepare(self.rules);
        }
        while self.players.iter().any(|p| p.out.is_none()) && self.rounds < limit {
            for p in 0..self.players.len() {
                self.turn(p, &mut policies[p % policies.len()]);
                if self.paused.is_some() {
                    return Vec::new();
                }
            }
            self.rounds += 1;
        }
        for p in 0..self.players.len() {
            if self.players[p].out.is_none() {
                self.players[p].out = Some(OutReason::Turns);
            }
        }
        let winners = self.winners();
        let scores = self.players.iter().map(|p| p.vp).collect();
        self.event(|| Event::End {
            scores,
            winners: winners.clone(),
        });
        winners
    }

    /// Keeps the game as it stands at a decision, the first time a policy pauses it: the
    /// rest of the turn is then played only to get out of it, and thrown away.
    #[cold]
    fn pause(&mut self, p: usize, decision: Decision, choices: Choices, context: Context) {
        if self.paused.is_some() {
            return;
        }
        let (faces, rolls_left, drawn, target, catch_chance, stage) = context;
        self.paused = Some(Box::new(Moment {
            seat: p,
            decision,
            choices: match choices {
                Choices::Listed(list) => list.to_vec(),
                Choices::Reroll(_) => Vec::new(),
            },
            rerolls: match choices {
                Choices::Reroll(rerolls) => Some(rerolls),
                Choices::Listed(_) => None,
            },
            stage,
            faces: faces.to_vec(),
            dice: self.showing(p).unwrap_or_else(|| faces.to_vec()),
            rolls_left,
            drawn: drawn.to_vec(),
            target,
            catch_chance,
            players: self.players.clone(),
            deck: self.deck.len(),
            discard: self.discard.clone(),
            rounds: self.rounds,
            events: self.log.as_ref().map_or(0, Vec::len),
        }));
    }

    fn winners(&self) -> Vec<usize> {
        let best = self
            .players
            .iter()
            .map(|p| (p.vp, p.unique_species))
            .max()
            .unwrap_or((0, 0));
        (0..self.players.len())
            .filter(|p| (self.players[*p].vp, self.players[*p].unique_species) == best)
            .collect()
    }

    /// The game's one choice buffer, emptied: decisions come thousands of times a game, so
    /// their choices are listed without allocating. [`Game::decide`] gives it back.
    fn take_choices(&mut self) -> Vec<Choice> {
        let mut choices = std::mem::take(&mut self.choices);
        choices.clear();
        choices
    }

    /// Asks the policy to pick among listed choices, and takes the list's buffer back.
    #[inline(always)]
    fn decide<P: Policy>(
        &mut self,
        p: usize,
        policy: &mut P,
        decision: Decision,
        choices: Vec<Choice>,
        context: Context,
    ) -> Choice {
        let choice = self.pick(p, policy, decision, Choices::Listed(&choices), context);
        self.choices = choices;
        choice
    }

    #[inline]
    fn pick<P: Policy>(
        &mut self,
        p: usize,
        policy: &mut P,
        decision: Decision,
        choices: Choices,
        context: Context,
    ) -> Choice {
        if choices.len() == 1 {
            return choices.get(0);
        }
        if policy.pause(p) {
            self.pause(p, decision, choices, context);
        }
        let view = view(
            self.rules,
            (p, &self.players[p]),
            &self.deck,
            &self.discard,
            context,
        );
        let index = policy.choose(&view, decision, choices, &mut self.rng);
        choices.answer(index)
    }

    /// Fills a box and everything that follows from it.
    fn fill<P: Policy>(&mut self, p: usize, b: usize, policy: &mut P) {
        self.cascade(p, Step::Fill(b as u32), policy);
    }

    /// The collection process.
    fn collect<P: Policy>(&mut self, p: usize, s: usize, policy: &mut P) {
        self.cascade(p, Step::Collect(s as u32), policy);
    }

    /// Runs `first` and every step it leads to, depth first, in the order the rules give.
    /// The steps wait on a stack rather than the call stack: a chain of consequences is as
    /// long as the content makes it (a track of free boxes, an evolution line), and content
    /// must never be able to overflow the call stack.
    fn cascade<P: Policy>(&mut self, p: usize, first: Step, policy: &mut P) {
        let base = self.steps.len();
        self.steps.push(first);
        while self.steps.len() > base {
            let step = self
                .steps
                .pop()
                .expect("the stack holds this cascade's steps");
            match step {
                Step::Fill(b) => self.fill_step(p, b as usize),
                Step::FillIfOpen(b) => {
                    if self.players[p].can_fill(self.rules, b as usize) {
                        self.fill_step(p, b as usize);
                    }
                }
                Step::Gain(b, k) => self.gain_step(p, b as usize, k as usize),
                Step::Collect(s) => self.collect_step(p, s as usize),
                Step::Bonus(section) => self.bonus_chain(p, section as usize, policy),
                Step::Free => {
                    if self.players[p].free_pending {
                        match self.players[p].first_open(self.rules, BoxList::Free) {
                            Some(b) => {
                                self.steps.push(Step::Free);
                                self.steps.push(Step::Fill(b as u32));
                            }
                            None => self.players[p].free_pending = false,
                        }
                    }
                }
            }
        }
    }

    /// Fills a box, and queues what follows: its gains, a bonus chain, free boxes.
    fn fill_step(&mut self, p: usize, b: usize) {
        let rules = self.rules;
        let rule = &rules.boxes[b];
        {
            let player = &mut self.players[p];
            player.mark_filled(rules, b);
            player.vp += rule.vp;
            player.free_pending |= rule.may_open_free;
        }
        self.event(|| Event::Fill {
            player: p,
            r#box: rules.box_ids[b].clone(),
            vp: rule.vp,
        });
        // Pushed last to first: the gains happen first, then the chain, then free boxes.
        self.steps.push(Step::Free);
        if rule.style == Style::Bonus {
            self.steps.push(Step::Bonus(rule.section));
        }
        for k in (0..rule.gains.len()).rev() {
            self.steps.push(Step::Gain(b as u32, k as u32));
        }
    }

    /// One thing filling a box gives: an item, a habitat, a species.
    fn gain_step(&mut self, p: usize, b: usize, k: usize) {
        let rules = self.rules;
        match rules.boxes[b].gains[k] {
            Gain::Item(i) => {
                let i = i as usize;
                if !self.players[p].items[i] {
                    self.players[p].items[i] = true;
                    self.players[p].free_pending |= rules.item_opens_free[i];
                    self.event_boxes(p, &rules.obtain_boxes[i]);
                }
            }
            Gain::Habitat(h) => {
                let player = &mut self.players[p];
                match h {
                    Habitat::Grass => player.bonus_grass += 1,
                    Habitat::Water => player.bonus_water += 1,
                    Habitat::Any => player.bonus_any += 1,
                }
            }
            Gain::Species(s) => self.steps.push(Step::Collect(s)),
        }
    }

    /// Queues the boxes an event fills: in each section, the first open box it fills there in
    /// the sheet's order (the Pokédex box, the next Evolutions box, a guest box or a trigger
    /// box); with [`crate::vocabulary::EventFills::OnePlusTriggerPerSection`], the first open box that is not a
    /// trigger box and the first open trigger box. Boxes opened by these fills wait for the
    /// next event.
    fn event_boxes(&mut self, p: usize, boxes: &[usize]) {
        let rules = self.rules;
        let beside = rules.event_fills.trigger_beside();
        let mut open: SmallVec<[u32; 16]> = SmallVec::new();
        // (section, is a trigger box taking its own fill) pairs already served by this event.
        let mut served: SmallVec<[(u32, bool); 16]> = SmallVec::new();
        for &b in boxes {
            if !self.players[p].can_fill(rules, b) {
                continue;
            }
            let rule = &rules.boxes[b];
            let slot = (rule.section, beside && rule.style == Style::Trigger);
            if !served.contains(&slot) {
                served.push(slot);
                open.push(b as u32);
            }
        }
        // Each is filled in turn if the fills before it left it open.
        self.steps
            .extend(open.into_iter().rev().map(Step::FillIfOpen));
    }

    /// The collection process: the species is collected, the boxes collecting it fills are
    /// filled, then the free boxes having it may open.
    fn collect_step(&mut self, p: usize, s: usize) {
        let player = &mut self.players[p];
        if !player.species[s] {
            player.species[s] = true;
            player.unique_species += 1;
            player.free_pending |= self.rules.species_opens_free[s];
        }
        let rules = self.rules;
        self.event(|| Event::Collect {
            player: p,
            species: rules.species[s].clone(),
        });
        self.steps.push(Step::Free);
        self.event_boxes(p, &rules.collect_boxes[s]);
    }

    fn bonus_chain<P: Policy>(&mut self, p: usize, from_section: usize, policy: &mut P) {
        let rules = self.rules;
        let mut choices = self.take_choices();
        let player = &self.players[p];
        choices.extend(
            rules
                .bonus_tracks
                .iter()
                .filter_map(|t| player.next_box(*t))
                .filter(|b| {
                    let rule = &rules.boxes[*b];
                    // An item-use box is labelled with its item: a chain opens it only for a holder.
                    let label_met = rule.used_item.is_none_or(|i| player.items[i as usize]);
                    rule.bonus_can_fill
                        && label_met
                        && player.can_fill(rules, *b)
                        && !(rule.style == Style::Bonus && rule.section as usize == from_section)
                })
                .map(|b| Choice::Box(b as u32)),
        );
        if choices.is_empty() {
            self.choices = choices;
            return;
        }
        if let Choice::Box(b) = self.decide(
            p,
            policy,
            Decision::Bonus,
            choices,
            (
                &[],
                0,
                &[],
                None,
                0.0,
                Stage::Cascade {
                    from: from_section as u32,
                },
            ),
        ) {
            self.steps.push(Step::Fill(b));
        }
    }

    /// One face of a die, at random.
    fn roll<T: Copy>(&mut self, faces: &[T]) -> T {
        faces[self.rng.random_range(0..faces.len())]
    }

    /// One player's turn.
    pub fn turn<P: Policy>(&mut self, p: usize, policy: &mut P) {
        let rules = self.rules;
        if self.players[p].out.is_some() {
            return;
        }
        let turn_box = self.players[p].first_open(rules, BoxList::Turn);
        if self.players[p].turns_left(rules) == 0 {
            self.players[p].out = Some(OutReason::Turns);
            self.event(|| Event::Out {
                player: p,
                reason: OutReason::Turns,
            });
            return;
        }
        policy.begin_turn();
        self.players[p].turns_taken += 1;
        let turn = self.players[p].turns_taken;
        self.event(|| Event::Turn { player: p, turn });
        if let Some(b) = turn_box {
            self.fill(p, b, policy);
        }
        let mut faces = Faces::new();
        for die in &rules.expedition {
            let face = self.roll(die);
            faces.push(face);
        }
        let player = &mut self.players[p];
        player.turn_start_fills = player.fills;
        player.busted = false;
        let rolls = self.players[p].rolls_per_turn(rules);
        let faces = self.keep_rolling(p, faces, rolls - 1, policy);
        if let Some(faces) = faces {
            self.resolve_faces(p, &faces, policy);
        }
        self.end_turn(p);
    }

    /// After the turn, a player with no balls left, or else no turns left, is out.
    fn end_turn(&mut self, p: usize) {
        let rules = self.rules;
        let player = &mut self.players[p];
        if player.busted {
            player.busts += 1;
        } else if player.fills == player.turn_start_fills {
            player.idle_turns += 1;
        }
        player.history.push(player.vp);
        if player.balls_left(rules) == 0 {
            player.out = Some(OutReason::Balls);
        } else if player.turns_left(rules) == 0 {
            player.out = Some(OutReason::Turns);
        }
        if let Some(reason) = self.players[p].out {
            self.event(|| Event::Out { player: p, reason });
        }
    }

    /// Plays the rest of player `p`'s turn from the moment `view` shows, with `choice` made
    /// there and `policy` making the turn's later choices: a search policy's rollouts, in a
    /// game set up by [`Game::set_position`] from what the view shows. Returns whether the
    /// turn was played to its end; in a [`Stage::Cascade`] only `choice`'s fill and its
    /// consequences are played, the view not telling what was left of the turn.
    pub(crate) fn play_on<P: Policy>(
        &mut self,
        p: usize,
        view: &View,
        choice: Choice,
        policy: &mut P,
    ) -> bool {
        match (view.stage, choice) {
            (Stage::Cascade { .. }, Choice::Box(b)) => {
                self.fill(p, b as usize, policy);
                return false;
            }
            (Stage::Cascade { .. }, _) => return false,
            (Stage::Rolling, _) => {
                let mut faces: Faces = view.faces.iter().copied().collect();
                let mut rolls_left = view.rolls_left;
                if let Choice::Reroll(mask) = choice {
                    self.reroll(&mut faces, mask);
                    rolls_left -= 1;
                }
                if let Some(faces) = self.keep_rolling(p, faces, rolls_left, policy) {
                    self.resolve_faces(p, &faces, policy);
                }
            }
            (Stage::Faces { face, left }, _) => {
                if let Choice::Track(t) = choice
                    && let Some(b) = self.players[p].next_box(t as usize)
                {
                    self.fill(p, b, policy);
                }
                let showing = showing(view.faces);
                let mut left_showing = showing;
                left_showing[face as usize] = left;
                let first = Action::ALL.iter().position(|f| *f == face).unwrap_or(0);
                self.face_fills(p, view.faces, left_showing, first, policy);
                let trainers = showing[Action::Trainer as usize];
                let trainers = self.spend_trainers(p, view.faces, trainers, false, policy);
                self.encounter(p, view.faces, trainers, policy);
            }
            (Stage::Trainers { left }, _) => {
                let mut trainers = left;
                if let Choice::Use(i) = choice {
                    trainers -= 1;
                    self.use_item(p, i as usize, policy);
                    trainers = self.spend_trainers(p, view.faces, trainers, false, policy);
                }
                self.encounter(p, view.faces, trainers, policy);
            }
            (Stage::Repel { mut trainers }, _) => {
                let mut drawn: Drawn = view.drawn.iter().copied().collect();
                if let Choice::Card(i) = choice {
                    trainers -= 1;
                    drawn = self.repel(p, drawn, i as usize, policy);
                    trainers = self.repels(p, view.faces, &mut drawn, trainers, policy);
                }
                self.choose_card(p, view.faces, drawn, trainers, policy);
            }
            (Stage::Encounter { trainers }, _) => {
                let chosen = match choice {
                    Choice::Card(i) => view.drawn.get(i as usize).copied(),
                    _ => None,
                };
                for (i, &card) in view.drawn.iter().enumerate() {
                    if choice != Choice::Card(i as u32) {
                        self.discard.push(card);
                    }
                }
                let trainers = match chosen {
                    Some(card) => self.meet(p, card, trainers, policy),
                    None => trainers,
                };
                self.spend_trainers(p, view.faces, trainers, true, policy);
            }
            (
                Stage::Throwing {
                    mut trainers,
                    mut lock,
                },
                _,
            ) => {
                let Some(card) = view.target else {
                    return false;
                };
                match choice {
                    Choice::Throw | Choice::Lock(..) => {
                        if let Choice::Lock(die, value) = choice {
                            trainers -= 1;
                            lock = Some((die as usize, value));
                            self.keep_die(p, die as usize, value, policy);
                        }
                        trainers = self.throw_at(p, card, trainers, lock, true, policy);
                    }
                    _ => self.discard.push(card),
                }
                self.spend_trainers(p, view.faces, trainers, true, policy);
            }
            (Stage::AfterEncounter { left }, _) => {
                if let Choice::Use(i) = choice {
                    self.use_item(p, i as usize, policy);
                    self.spend_trainers(p, view.faces, left - 1, true, policy);
                }
            }
        }
        self.end_turn(p);
        true
    }

    /// Sets this game up as a position to try decisions in, for search policies: one player
    /// with `player`'s sheet and supplies, a deck of `deck`'s cards shuffled with `seed`
    /// (so a position hides nothing the deck's order would tell), `discard` as the discard
    /// pile, and the game's dice rolled from `seed`. Keeps the buffers, and no log.
    pub(crate) fn set_position(
        &mut self,
        player: &Player,
        deck: &[usize],
        discard: &[usize],
        seed: u64,
    ) {
        self.rng = Pcg64Mcg::seed_from_u64(seed);
        self.deck.clear();
        self.deck.extend_from_slice(deck);
        self.deck.shuffle(&mut self.rng);
        self.discard.clear();
        self.discard.extend_from_slice(discard);
        self.players.truncate(1);
        match self.players.first_mut() {
            Some(first) => first.clone_from(player),
            None => self.players.push(player.clone()),
        }
        for counts in [
            &mut self.tally.encounters,
            &mut self.tally.catches,
            &mut self.tally.throws,
        ] {
            counts.fill(0);
        }
        self.log = None;
        self.rounds = 0;
        self.steps.clear();
        self.paused = None;
    }

    /// Rolls and re-rolls from `faces` showing with `rolls_left`; `None` when hazards end the
    /// turn.
    fn keep_rolling<P: Policy>(
        &mut self,
        p: usize,
        mut faces: Faces,
        mut rolls_left: u32,
        policy: &mut P,
    ) -> Option<Faces> {
        let rules = self.rules;
        let bicycle = self.players[p]
            .holding(&rules.item_steps.reroll_hazard)
            .is_some();
        // The dice the last re-roll rolled, as a mask; none before the first.
        let mut rerolled = 0u32;
        loop {
            self.event(|| Event::Roll {
                player: p,
                faces: faces.to_vec(),
                rerolled: (0..faces.len())
                    .filter(|i| rerolled & (1 << i) != 0)
                    .collect(),
            });
            // The dice showing a hazard, as a mask.
            let hazards: u32 = faces
                .iter()
                .enumerate()
                .map(|(i, f)| ((*f == Action::Hazard) as u32) << i)
                .fold(0, |mask, bit| mask | bit);
            if hazards.count_ones() >= rules.hazard_limit {
                self.players[p].busted = true;
                self.event(|| Event::Bust { player: p });
                return None;
            }
            if rolls_left == 0 {
                return Some(faces);
            }
            let all = (1u32 << faces.len()) - 1;
            let rerolls = Rerolls {
                free: all & !hazards,
                // The first die showing a hazard.
                hazard: (bicycle && hazards != 0).then(|| hazards & hazards.wrapping_neg()),
            };
            let choice = if rerolls.len() == 1 {
                Choice::Stop
            } else {
                let context = (&faces[..], rolls_left, &[][..], None, 0.0, Stage::Rolling);
                if policy.pause(p) {
                    self.pause(p, Decision::Reroll, Choices::Reroll(rerolls), context);
                }
                let view = view(
                    rules,
                    (p, &self.players[p]),
                    &self.deck,
                    &self.discard,
                    context,
                );
                policy.choose_reroll(&view, rerolls, &mut self.rng)
            };
            // A set of dice the roll does not allow stops rolling.
            let Choice::Reroll(mask) = choice else {
                return Some(faces);
            };
            if !rerolls.allows(choice) {
                return Some(faces);
            }
            self.reroll(&mut faces, mask);
            rerolled = mask;
            rolls_left -= 1;
        }
    }

    /// Re-rolls the dice whose bits `mask` sets.
    fn reroll(&mut self, faces: &mut Faces, mask: u32) {
        let rules = self.rules;
        for (i, face) in faces.iter_mut().enumerate() {
            if mask & (1 << i) != 0 {
                *face = self.roll(&rules.expedition[i]);
            }
        }
    }

    fn resolve_faces<P: Policy>(&mut self, p: usize, faces: &[Action], policy: &mut P) {
        let showing = showing(faces);
        self.face_fills(p, faces, showing, 0, policy);
        let trainers = showing[Action::Trainer as usize];
        let trainers = self.spend_trainers(p, faces, trainers, false, policy);
        self.encounter(p, faces, trainers, policy);
    }

    /// Each face showing fills the next box of one track it fills (Area and Item faces in the
    /// rulebook; a designer may give any face a track), face by face in the order of
    /// [`Action::ALL`] from its `first`th, `showing` counting the faces of each still to
    /// resolve.
    fn face_fills<P: Policy>(
        &mut self,
        p: usize,
        faces: &[Action],
        showing: [u32; 6],
        first: usize,
        policy: &mut P,
    ) {
        let rules = self.rules;
        for face in Action::ALL.into_iter().skip(first) {
            if rules.face_tracks[face as usize].is_empty() {
                continue;
            }
            for copy in 0..showing[face as usize] {
                let mut choices = self.take_choices();
                let player = &self.players[p];
                choices.extend(
                    rules.face_tracks[face as usize]
                        .iter()
                        .copied()
                        .filter(|t| {
                            player
                                .open_next(rules, *t)
                                .is_some_and(|b| rules.boxes[b].filled_by(face))
                        })
                        .map(|t| Choice::Track(t as u32)),
                );
                if choices.is_empty() {
                    self.choices = choices;
                    break;
                }
                let left = showing[face as usize] - copy - 1;
                let stage = Stage::Faces { face, left };
                if let Choice::Track(t) = self.decide(
                    p,
                    policy,
                    Decision::Track,
                    choices,
                    (faces, 0, &[], None, 0.0, stage),
                ) && let Some(b) = self.players[p].next_box(t as usize)
                {
                    self.fill(p, b, policy);
                }
            }
        }
    }

    /// Items used outside the encounter (evolution stones, the flute), one per Trainer face
    /// spent, before the encounter or `after` it; returns the Trainer faces left.
    fn spend_trainers<P: Policy>(
        &mut self,
        p: usize,
        faces: &[Action],
        mut trainers: u32,
        after: bool,
        policy: &mut P,
    ) -> u32 {
        let rules = self.rules;
        while trainers > 0 {
            let mut choices = self.take_choices();
            choices.push(Choice::Stop);
            let player = &self.players[p];
            for &i in &rules.usable_items {
                if !player.items[i] {
                    continue;
                }
                let opens_a_box = rules.use_boxes[i]
                    .iter()
                    .any(|b| player.can_fill(rules, *b));
                let useful = opens_a_box
                    || (rules.item_steps.reshuffle_discard.contains(&i)
                        && !self.discard.is_empty());
                if useful {
                    choices.push(Choice::Use(i as u32));
                }
            }
            if choices.len() == 1 {
                self.choices = choices;
                break;
            }
            let stage = if after {
                Stage::AfterEncounter { left: trainers }
            } else {
                Stage::Trainers { left: trainers }
            };
            let Choice::Use(i) = self.decide(
                p,
                policy,
                Decision::Use,
                choices,
                (faces, 0, &[], None, 0.0, stage),
            ) else {
                break;
            };
            trainers -= 1;
            self.use_item(p, i as usize, policy);
        }
        trainers
    }

    /// Uses an item: its effect, and the next open box filled by using it.
    fn use_item<P: Policy>(&mut self, p: usize, i: usize, policy: &mut P) {
        self.use_item_on(p, i, (None, None), policy);
    }

    /// Uses an item, on a species (the Repel) or a capture die (the Poké Doll).
    fn use_item_on<P: Policy>(
        &mut self,
        p: usize,
        i: usize,
        (species, keeps): (Option<usize>, Option<Kept>),
        policy: &mut P,
    ) {
        let rules = self.rules;
        self.players[p].uses[i] += 1;
        self.event(|| Event::Use {
            player: p,
            item: rules.items[i].id.clone(),
            species: species.map(|s| rules.species[s].clone()),
            keeps,
        });
        if rules.item_steps.reshuffle_discard.contains(&i) {
            self.deck.append(&mut self.discard);
            self.deck.shuffle(&mut self.rng);
        }
        if let Some(b) = rules.use_boxes[i]
            .iter()
            .copied()
            .find(|b| self.players[p].can_fill(rules, *b))
        {
            self.fill(p, b, policy);
        }
    }

    fn draw(&mut self) -> Option<usize> {
        if self.deck.is_empty() {
            std::mem::swap(&mut self.deck, &mut self.discard);
            self.deck.shuffle(&mut self.rng);
        }
        self.deck.pop()
    }

    /// The encounter, when Grass or Water faces show: the cards drawn, the Repels used on them,
    /// the one met, then the items used with the Trainer faces left.
    fn encounter<P: Policy>(&mut self, p: usize, faces: &[Action], trainers: u32, policy: &mut P) {
        let rules = self.rules;
        let showing = showing(faces);
        let habitats = showing[Action::Grass as usize] + showing[Action::Water as usize];
        if habitats == 0 {
            return;
        }
        let mut drawn: Drawn = (0..habitats).filter_map(|_| self.draw()).collect();
        self.event(|| Event::Draw {
            player: p,
            cards: drawn.iter().map(|c| rules.cards[*c].id.clone()).collect(),
        });
        let trainers = self.repels(p, faces, &mut drawn, trainers, policy);
        self.choose_card(p, faces, drawn, trainers, policy);
    }

    /// The Repels a player holding one spends on the cards drawn, a Trainer face each: every
    /// card of the species chosen goes to the discard pile and as many are drawn again.
    /// Returns the Trainer faces left.
    fn repels<P: Policy>(
        &mut self,
        p: usize,
        faces: &[Action],
        drawn: &mut Drawn,
        mut trainers: u32,
        policy: &mut P,
    ) -> u32 {
        let rules = self.rules;
        if self.players[p]
            .holding(&rules.item_steps.redraw_species)
            .is_none()
        {
            return trainers;
        }
        while trainers > 0 && !drawn.is_empty() {
            let mut choices = self.take_choices();
            choices.push(Choice::Stop);
            // A species is chosen by the first of its cards drawn.
            choices.extend(
                (0..drawn.len())
                    .filter(|i| {
                        let species = rules.cards[drawn[*i]].species;
                        drawn[..*i]
                            .iter()
                            .all(|c| rules.cards[*c].species != species)
                    })
                    .map(|i| Choice::Card(i as u32)),
            );
            let stage = Stage::Repel { trainers };
            let Choice::Card(i) = self.decide(
                p,
                policy,
                Decision::Repel,
                choices,
                (faces, 0, drawn, None, 0.0, stage),
            ) else {
                break;
            };
            trainers -= 1;
            *drawn = self.repel(p, std::mem::take(drawn), i as usize, policy);
        }
        trainers
    }

    /// Uses the Repel on the species of the `i`th card drawn: the cards of that species are
    /// discarded and as many drawn; returns the cards then in hand.
    fn repel<P: Policy>(&mut self, p: usize, drawn: Drawn, i: usize, policy: &mut P) -> Drawn {
        let rules = self.rules;
        let Some(item) = self.players[p].holding(&rules.item_steps.redraw_species) else {
            return drawn;
        };
        let Some(&card) = drawn.get(i) else {
            return drawn;
        };
        let species = rules.cards[card].species;
        self.use_item_on(p, item, (Some(species), None), policy);
        let (gone, mut kept): (Drawn, Drawn) = drawn
            .into_iter()
            .partition(|c| rules.cards[*c].species == species);
        self.discard.extend(&gone);
        let first_new = kept.len();
        kept.extend((0..gone.len()).filter_map(|_| self.draw()));
        self.event(|| Event::Draw {
            player: p,
            cards: kept[first_new..]
                .iter()
                .map(|c| rules.cards[*c].id.clone())
                .collect(),
        });
        kept
    }

    /// The card met among those drawn (the player may let them all go), the others
    /// discarded; then the items used with the Trainer faces left.
    fn choose_card<P: Policy>(
        &mut self,
        p: usize,
        faces: &[Action],
        mut drawn: Drawn,
        trainers: u32,
        policy: &mut P,
    ) {
        let rules = self.rules;
        let showing = showing(faces);
        let (grass, water) = (
            showing[Action::Grass as usize],
            showing[Action::Water as usize],
        );
        let mut choices = self.take_choices();
        choices.push(Choice::Stop);
        let player = &self.players[p];
        choices.extend(
            (0..drawn.len())
                .filter(|i| player.meets_card(rules, drawn[*i], grass, water))
                .map(|i| Choice::Card(i as u32)),
        );
        let stage = Stage::Encounter { trainers };
        let chosen = match self.decide(
            p,
            policy,
            Decision::Card,
            choices,
            (faces, 0, &drawn, None, 0.0, stage),
        ) {
            Choice::Card(i) => Some(drawn.remove(i as usize)),
            _ => None,
        };
        self.discard.extend(&drawn);
        let trainers = match chosen {
            Some(card) => self.meet(p, card, trainers, policy),
            None => trainers,
        };
        self.spend_trainers(p, faces, trainers, true, policy);
    }

    /// Encounters a card: a ball thrown at it at once, then more as the player chooses.
    /// Returns the Trainer faces left.
    fn meet<P: Policy>(&mut self, p: usize, card: usize, trainers: u32, policy: &mut P) -> u32 {
        let rules = self.rules;
        self.tally.encounters[card] += 1;
        self.event(|| Event::Encounter {
            player: p,
            card: rules.cards[card].id.clone(),
        });
        self.throw_at(p, card, trainers, None, true, policy)
    }

    /// Spends a Trainer face on the Poké Doll: capture die `die` keeps `value`.
    fn keep_die<P: Policy>(&mut self, p: usize, die: usize, value: u32, policy: &mut P) {
        let rules = self.rules;
        if let Some(doll) = self.players[p].holding(&rules.item_steps.lock_capture_die) {
            self.use_item_on(p, doll, (None, Some(Kept { die, value })), policy);
        }
    }

    /// Throws at an encountered card until it is caught, let go, or the balls run out; the
    /// first throw without asking when `at_once`. `locked` is the Poké Doll's lock: which
    /// capture die, and the value it keeps. Before each throw after a miss, a player holding
    /// the Poké Doll with a Trainer face left may keep one die of the last throw. Returns the
    /// Trainer faces left.
    fn throw_at<P: Policy>(
        &mut self,
        p: usize,
        card: usize,
        mut trainers: u32,
        mut locked: Option<(usize, u32)>,
        at_once: bool,
        policy: &mut P,
    ) -> u32 {
        let rules = self.rules;
        // Passive bonuses lower the total a throw needs; usable boosts are spent on a roll.
        let rate = rules.cards[card]
            .capture_rate
            .saturating_sub(self.players[p].capture_bonus(rules));
        let doll = self.players[p]
            .holding(&rules.item_steps.lock_capture_die)
            .is_some();
        let mut ask = !at_once;
        // The capture dice of the last throw at this card.
        let mut dice: ArrayVec<u32, { crate::limits::MAX_CAPTURE_DICE as usize }> = ArrayVec::new();
        loop {
            let player = &self.players[p];
            if player.balls_left(rules) == 0 {
                self.discard.push(card);
                return trainers;
            }
            if ask {
                let chance = match locked {
                    None => catch_chance(rules, rate),
                    Some(lock) => locked_catch_chance(rules, rate, lock),
                };
                let mut choices = self.take_choices();
                choices.extend([Choice::Throw, Choice::Stop]);
                if doll && locked.is_none() && trainers > 0 {
                    // One choice per value showing: the first die that shows it.
                    choices.extend(
                        (0..dice.len())
                            .filter(|i| !dice[..*i].contains(&dice[*i]))
                            .map(|i| Choice::Lock(i as u32, dice[i])),
                    );
                }
                let stage = Stage::Throwing {
                    trainers,
                    lock: locked,
                };
                match self.decide(
                    p,
                    policy,
                    Decision::Throw,
                    choices,
                    (&[], 0, &[], Some(card), chance, stage),
                ) {
                    Choice::Lock(die, value) => {
                        trainers -= 1;
                        locked = Some((die as usize, value));
                        self.keep_die(p, die as usize, value, policy);
                    }
                    Choice::Throw => {}
                    _ => {
                        self.discard.push(card);
                        return trainers;
                    }
                }
            }
            ask = true;
            if let Some(b) = self.players[p].first_open(rules, BoxList::Ball) {
                self.fill(p, b, policy);
            }
            self.players[p].balls_thrown += 1;
            self.tally.throws[card] += 1;
            let mut total = 0;
            dice.clear();
            for (i, die) in rules.capture.iter().enumerate() {
                let value = match locked {
                    Some((locked_die, value)) if locked_die == i => value,
                    _ => self.roll(die),
                };
                dice.push(value);
                total += value;
            }
            // Usable boosts the player holds, the largest first, spent one Trainer face each
            // when together they turn this miss into a catch.
            let boosts = self.boosts_to_catch(p, rate.saturating_sub(total), trainers);
            for &item in &boosts {
                trainers -= 1;
                total = total.saturating_add(rules.item_steps.capture_boost[item].1);
                self.use_item(p, rules.item_steps.capture_boost[item].0, policy);
            }
            let caught = total >= rate;
            self.event(|| Event::Throw {
                player: p,
                dice: dice.to_vec(),
                total,
                needed: rate,
                caught,
            });
            if caught {
                self.tally.catches[card] += 1;
                let species = rules.cards[card].species;
                self.collect(p, species, policy);
                return trainers;
            }
        }
    }
}

impl Game<'_> {
    /// The usable capture boosts (indices into `item_steps.capture_boost`) to spend so that a
    /// roll `short` of the rate catches: the largest first, no more than `trainers`; none when
    /// they cannot make up the difference.
    fn boosts_to_catch(&self, p: usize, short: u32, trainers: u32) -> Vec<usize> {
        let rules = self.rules;
        let mut chosen = Vec::new();
        let mut added = 0u32;
        for (k, (item, n)) in rules.item_steps.capture_boost.iter().enumerate() {
            if added >= short || chosen.len() as u32 >= trainers {
                break;
            }
            if self.players[p].items[*item] {
                chosen.push(k);
                added = added.saturating_add(*n);
            }
        }
        if added >= short && short > 0 {
            chosen
        } else {
            Vec::new()
        }
    }
}

/// How many of the faces show each face, by `Action as usize`.
fn showing(faces: &[Action]) -> [u32; 6] {
    let mut showing = [0u32; 6];
    for face in faces {
        showing[*face as usize] += 1;
    }
    showing
}
