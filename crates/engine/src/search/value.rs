//! What a position at the end of a turn is worth: the victory points still to come.
//!
//! The model is linear in what the sheet shows (boxes filled, items held, species collected,
//! habitat bonuses, balls left, VP), with one set of weights per turn: what a box or a ball
//! is worth depends mostly on how many turns are left to use it. The weights are fitted by
//! ridge regression, from the last turn back, each position's target being the VP its next
//! turn brought plus what the model already fitted says the next position is worth
//! (temporal-difference targets: a target then carries one turn's luck, not the whole game's).
//!
//! The positions come from games played three times over: first by `expected` letting a card
//! go or a throw pass now and then (so that the first model has seen positions with balls to
//! spare), then twice by a search of one rollout per choice valuing positions with the model
//! fitted before, each new model's weights drawn towards the one before's. A search wastes no
//! balls the way `expected` does, and its positions are the ones a search needs valued: each
//! round brings the model closer to the worth of a position to the search that uses it. The
//! games are played from a fixed seed, so every thread and every run gets the same model; it
//! is fitted once per ruleset in a process, the games spread over the machine's cores with the
//! `threads` feature.
//!
//! The `planner` policy's model is fitted the same way, from the same seed, its two later
//! rounds played by the planner itself instead of a search: the planner values positions
//! the way it plays on from them, and its games are some four times faster than a search's
//! of one rollout, so its model is fitted in under half the time. [`Dense`] lays a model out
//! for the planner, which values hundreds of positions a game.

use std::ops::Range;
use std::sync::{Arc, Mutex};

use rand::RngExt;
use rand_pcg::Pcg64Mcg;

use super::Search;
use super::playout::Playout;
use crate::planner::Planner;
use crate::policy::{Choice, Choices, Decision, Policy, Rerolls, View};
use crate::{Game, Player, Rules};

/// At most this many features: a hostile ruleset's thousands of boxes keep only the first.
const MOST_FEATURES: usize = 256;
/// At most this many sets of weights; longer games share them between neighbouring turns.
const MOST_BUCKETS: usize = 24;
/// Turns played by the exploring games, and by each round of searching games, per feature:
/// a model of a small sheet needs fewer games to fit.
const EXPLORING_TURNS: u64 = 200;
const SEARCHING_TURNS: u64 = 130;
/// Rounds of searching games, each valuing positions with the model the round before fitted.
const SEARCHING_ROUNDS: usize = 2;
/// The ridge penalty: how many positions' worth of evidence it takes to move a weight.
const RIDGE: f64 = 100.0;
/// The seed the models' games are played from.
const SEED: u64 = 0x5EA2_C4ED;

/// The features that are not 0 or 1 come first: the constant, the VP, the turns left.
const CONSTANT: usize = 0;
const SCALARS: usize = 3;
/// Habitat bonuses told apart: at least 1, 2, 3 of each kind.
const HABITAT_LEVELS: u32 = 3;

/// Where each part of a position goes among the features.
#[derive(Debug)]
struct Layout {
    len: usize,
    /// The levels of balls left the ball features mark ("at least k left").
    ball_levels: Vec<u32>,
    first_ball: usize,
    /// Grass, water, any, each at its levels.
    first_habitat: usize,
    first_item: usize,
    items: usize,
    first_species: usize,
    species: usize,
    /// Each box's feature, if it has one: not the boxes a turn or a ball fills (the turns
    /// and balls left tell them).
    box_feature: Vec<Option<u16>>,
}

impl Layout {
    fn new(rules: &Rules) -> Layout {
        let ball_levels = levels(rules.balls);
        let first_ball = SCALARS;
        let first_habitat = first_ball + ball_levels.len();
        let first_item = first_habitat + 3 * HABITAT_LEVELS as usize;
        let items = rules.items.len().min(MOST_FEATURES / 4);
        let first_species = first_item + items;
        let species = rules.species.len().min(MOST_FEATURES / 4);
        let mut len = first_species + species;
        let mut box_feature = vec![None; rules.boxes.len()];
        let mut counted = vec![true; rules.boxes.len()];
        for b in rules.turn_boxes.iter().chain(&rules.ball_boxes) {
            counted[*b] = false;
        }
        for (b, feature) in box_feature.iter_mut().enumerate() {
            if len == MOST_FEATURES {
                break;
            }
            if counted[b] {
                *feature = Some(len as u16);
                len += 1;
            }
        }
        Layout {
            len,
            ball_levels,
            first_ball,
            first_habitat,
            first_item,
            items,
            first_species,
            species,
            box_feature,
        }
    }

    /// The features that are not 0 or 1, of a position with `vp` after `turns_taken` turns.
    #[inline]
    fn scalars(rules: &Rules, vp: u32, turns_taken: u32) -> [f64; SCALARS] {
        let turns = rules.turns.max(1);
        [
            1.0,
            f64::from(vp) / 100.0,
            f64::from(turns.saturating_sub(turns_taken)) / f64::from(turns),
        ]
    }

    /// Calls `each` with every feature of the position that is 1, in feature order.
    #[inline]
    fn ones(&self, rules: &Rules, player: &Player, mut each: impl FnMut(usize)) {
        let balls = player.balls_left(rules);
        for (k, level) in self.ball_levels.iter().enumerate() {
            if balls < *level {
                break;
            }
            each(self.first_ball + k);
        }
        let habitats = [player.bonus_grass, player.bonus_water, player.bonus_any];
        for (h, bonus) in habitats.into_iter().enumerate() {
            for level in 0..bonus.min(HABITAT_LEVELS) {
                each(self.first_habitat + (h * HABITAT_LEVELS as usize) + level as usize);
            }
        }
        for (i, held) in player.items.iter().take(self.items).enumerate() {
            if *held {
                each(self.first_item + i);
            }
        }
        for (s, collected) in player.species.iter().take(self.species).enumerate() {
            if *collected {
                each(self.first_species + s);
            }
        }
        for (filled, feature) in player.filled.iter().zip(&self.box_feature) {
            if let (true, Some(f)) = (*filled, feature) {
                each(*f as usize);
            }
        }
    }
}

/// The levels of a supply worth telling apart: each of the first ten, then sparser.
fn levels(most: u32) -> Vec<u32> {
    let mut levels = Vec::new();
    let mut level = 1;
    while level <= most && levels.len() < 24 {
        levels.push(level);
        level += if level < 10 { 1 } else { level / 5 };
    }
    levels
}

/// A fitted model of the VP still to come.
#[derive(Debug)]
pub struct Values {
    layout: Layout,
    /// Per bucket of turns taken, a weight per feature.
    weights: Vec<Vec<f64>>,
    turns_per_bucket: u32,
}

impl Values {
    /// The VP a player can still expect, from the end of one of their turns.
    #[inline]
    pub fn of(&self, rules: &Rules, player: &Player) -> f64 {
        if player.out.is_some() {
            return 0.0;
        }
        let weights = &self.weights[self.bucket(player.turns_taken)];
        let scalars = Layout::scalars(rules, player.vp, player.turns_taken);
        let mut value: f64 = (0..SCALARS).map(|f| weights[f] * scalars[f]).sum();
        self.layout.ones(rules, player, |f| value += weights[f]);
        value
    }

    fn bucket(&self, turns_taken: u32) -> usize {
        ((turns_taken / self.turns_per_bucket) as usize).min(self.weights.len() - 1)
    }

    /// The model laid out to value many positions fast ([`Dense::of`]).
    pub fn dense(&self, rules: &Rules) -> Dense {
        let layout = &self.layout;
        let buckets = self
            .weights
            .iter()
            .map(|weights| {
                let mut balls = vec![0.0];
                for k in 0..layout.ball_levels.len() {
                    balls.push(balls[k] + weights[layout.first_ball + k]);
                }
                let mut habitats = [[0.0; HABITAT_LEVELS as usize + 1]; 3];
                for (h, levels) in habitats.iter_mut().enumerate() {
                    for level in 0..HABITAT_LEVELS as usize {
                        let f = layout.first_habitat + h * HABITAT_LEVELS as usize + level;
                        levels[level + 1] = levels[level] + weights[f];
                    }
                }
                let of = |first: usize, len: usize, all: usize| {
                    (0..all)
                        .map(|i| if i < len { weights[first + i] } else { 0.0 })
                        .collect::<Vec<f64>>()
                };
                DenseBucket {
                    scalars: [weights[0], weights[1], weights[2]],
                    balls,
                    habitats,
                    items: of(layout.first_item, layout.items, rules.items.len()),
                    species: of(layout.first_species, layout.species, rules.species.len()),
                    boxes: layout
                        .box_feature
                        .iter()
                        .map(|f| f.map_or(0.0, |f| weights[f as usize]))
                        .collect(),
                }
            })
            .collect();
        let most = layout.ball_levels.last().copied().unwrap_or(0);
        Dense {
            turns_per_bucket: self.turns_per_bucket,
            ball_levels: (0..=most)
                .map(|balls| layout.ball_levels.partition_point(|level| *level <= balls) as u8)
                .collect(),
            buckets,
        }
    }

    /// The model for `rules` that `search` plays with, fitted the first time they are asked
    /// for.
    pub(crate) fn for_rules(rules: &Rules) -> Arc<Values> {
        // A process plays a ruleset or two (`diff` plays two versions of a game).
        static FITTED: Mutex<Vec<(u64, Arc<Values>)>> = Mutex::new(Vec::new());
        Values::cached(&FITTED, rules, |rules, values| {
            Search::with_values(1, rules, values)
        })
    }

    /// The model for `rules` that `planner` plays with, fitted the first time they are asked
    /// for: as `search`'s, but its later rounds of games played by `planner` itself.
    pub(crate) fn for_planner(rules: &Rules) -> Arc<Values> {
        static FITTED: Mutex<Vec<(u64, Arc<Values>)>> = Mutex::new(Vec::new());
        Values::cached(&FITTED, rules, Planner::with_values)
    }

    /// The model in `fitted` for `rules`, or else fitted (see [`Values::fit`]) and kept there.
    fn cached<P: Policy + Clone>(
        fitted: &Mutex<Vec<(u64, Arc<Values>)>>,
        rules: &Rules,
        player: fn(&Rules, Arc<Values>) -> P,
    ) -> Arc<Values> {
        let mut fitted = fitted
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some((_, values)) = fitted.iter().find(|(c, _)| *c == rules.compilation) {
            return values.clone();
        }
        let values = Arc::new(Values::fit(rules, player));
        if fitted.len() >= 4 {
            fitted.remove(0);
        }
        fitted.push((rules.compilation, values.clone()));
        values
    }

    /// The model fitted to games of `explorer`, then to rounds of games played by `player`
    /// with the model the round before fitted.
    fn fit<P: Policy + Clone>(rules: &Rules, player: fn(&Rules, Arc<Values>) -> P) -> Values {
        let turns = u64::from(rules.turns.max(1));
        let features = Layout::new(rules).len as u64;
        let mut explorer = Explorer::default();
        explorer.prepare(rules);
        let games = 0..(EXPLORING_TURNS * features / turns).max(50);
        let mut next_game = games.end;
        let exploring = Positions::play(rules, games, &explorer, Explorer::for_game);
        let mut values = Arc::new(Values::fit_to(rules, &exploring, None));
        for _ in 0..SEARCHING_ROUNDS {
            let searcher = player(rules, values.clone());
            let games = next_game..next_game + (SEARCHING_TURNS * features / turns).max(20);
            next_game = games.end;
            let searching = Positions::play(rules, games, &searcher, |_, _| {});
            values = Arc::new(Values::fit_to(rules, &searching, Some(&values)));
        }
        Arc::into_inner(values).expect("the players that held the model are gone")
    }

    /// Fits weights to the positions, bucket by bucket from the last; drawn towards
    /// `prior`'s weights, if given, instead of towards zero.
    fn fit_to(rules: &Rules, positions: &Positions, prior: Option<&Values>) -> Values {
        let layout = Layout::new(rules);
        let turns = rules.turns.max(1);
        let turns_per_bucket = turns.div_ceil(MOST_BUCKETS as u32);
        let buckets = turns.div_ceil(turns_per_bucket) as usize + 1;
        let bucket_of =
            |turns_taken: u32| ((turns_taken / turns_per_bucket) as usize).min(buckets - 1);
        let mut weights = vec![vec![0.0; layout.len]; buckets];
        // What each position's target said was still to come.
        let mut to_come = vec![0.0; positions.all.len()];
        let mut features = Vec::new();
        let mut normal = Normal::new(layout.len);
        for bucket in (0..buckets).rev() {
            normal.clear();
            // Backwards, so that a game's later positions in the bucket come first.
            for k in (0..positions.all.len()).rev() {
                let position = &positions.all[k];
                if bucket_of(position.turns_taken) != bucket {
                    continue;
                }
                let next = positions.all.get(k + 1).filter(|_| position.followed);
                to_come[k] = match next {
                    None => f64::from(position.end - position.vp),
                    Some(next) => {
                        let brought = f64::from(next.vp - position.vp);
                        match bucket_of(next.turns_taken) {
                            b if b == bucket => brought + to_come[k + 1],
                            b => brought + positions.value(rules, &weights[b], k + 1),
                        }
                    }
                };
                positions.features_of(rules, k, &mut features);
                normal.add(&features, to_come[k]);
            }
            let zero = vec![0.0; layout.len];
            let prior = prior.map_or(&zero, |prior| &prior.weights[bucket]);
            weights[bucket] = normal.solve(prior);
        }
        Values {
            layout,
            weights,
            turns_per_bucket,
        }
    }
}

/// A fitted model laid out to value many positions fast: per set of weights, a weight for
/// every box, item and species (0 for those without a feature), and each supply's level
/// weights summed up to each level. It values a position as [`Values::of`] does, in another
/// order of the sum (so within rounding).
#[derive(Debug)]
pub(crate) struct Dense {
    turns_per_bucket: u32,
    /// Per count of balls left, how many ball levels it reaches (the last for any more).
    ball_levels: Vec<u8>,
    buckets: Vec<DenseBucket>,
}

#[derive(Debug)]
struct DenseBucket {
    scalars: [f64; SCALARS],
    /// `balls[k]`: the weights of the first k ball levels, summed.
    balls: Vec<f64>,
    /// Per habitat bonus (grass, water, any), the weights of its first levels, summed.
    habitats: [[f64; HABITAT_LEVELS as usize + 1]; 3],
    items: Vec<f64>,
    species: Vec<f64>,
    boxes: Vec<f64>,
}

impl Dense {
    /// The VP a player can still expect, from the end of one of their turns.
    #[inline]
    pub fn of(&self, rules: &Rules, player: &Player) -> f64 {
        if player.out.is_some() {
            return 0.0;
        }
        let bucket =
            ((player.turns_taken / self.turns_per_bucket) as usize).min(self.buckets.len() - 1);
        let weights = &self.buckets[bucket];
        let scalars = Layout::scalars(rules, player.vp, player.turns_taken);
        let mut value = weights.scalars[0] * scalars[0]
            + weights.scalars[1] * scalars[1]
            + weights.scalars[2] * scalars[2];
        let balls = (player.balls_left(rules) as usize).min(self.ball_levels.len() - 1);
        value += weights.balls[usize::from(self.ball_levels[balls])];
        let habitats = [player.bonus_grass, player.bonus_water, player.bonus_any];
        for (levels, bonus) in weights.habitats.iter().zip(habitats) {
            value += levels[bonus.min(HABITAT_LEVELS) as usize];
        }
        value
            + masked_sum(&player.items, &weights.items)
            + masked_sum(&player.species, &weights.species)
            + masked_sum(&player.filled, &weights.boxes)
    }
}

/// The sum of the weights whose flag is set: without branches (a weight is masked to +0.0
/// when its flag is not set), in four lanes, which vectorise.
#[inline]
fn masked_sum(flags: &[bool], weights: &[f64]) -> f64 {
    #[inline(always)]
    fn masked(flag: bool, weight: f64) -> f64 {
        f64::from_bits(weight.to_bits() & 0u64.wrapping_sub(u64::from(flag)))
    }
    let mut lanes = [0.0; 4];
    let (flag_chunks, weight_chunks) = (flags.chunks_exact(4), weights.chunks_exact(4));
    let (flag_rest, weight_rest) = (flag_chunks.remainder(), weight_chunks.remainder());
    for (f, w) in flag_chunks.zip(weight_chunks) {
        for lane in 0..4 {
            lanes[lane] += masked(f[lane], w[lane]);
        }
    }
    let rest: f64 = flag_rest
        .iter()
        .zip(weight_rest)
        .map(|(f, w)| masked(*f, *w))
        .sum();
    (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]) + rest
}

/// One position at the end of a turn, of the games a model is fitted to.
struct Position {
    turns_taken: u32,
    vp: u32,
    /// The game's final VP.
    end: u32,
    /// Whether the next position is the same game's, a turn later.
    followed: bool,
    /// Where its features that are 1 are in [`Positions::ones`].
    features: Range<u32>,
}

/// The positions of the games a model is fitted to, their features kept in one buffer.
#[derive(Default)]
struct Positions {
    all: Vec<Position>,
    /// The features that are 1, of every position.
    ones: Vec<u16>,
}

impl Positions {
    /// The positions of one-player games `games` played by `policy`, set up for each game by
    /// `for_game`; with the `threads` feature the games shared out among threads, their
    /// positions put back in order, so the model is the same either way.
    fn play<P: Policy + Clone>(
        rules: &Rules,
        games: Range<u64>,
        policy: &P,
        for_game: fn(&mut P, u64),
    ) -> Positions {
        #[cfg(feature = "threads")]
        let parts = Positions::play_on_threads(rules, games, policy, for_game);
        #[cfg(not(feature = "threads"))]
        let parts = [Positions::play_on_one_thread(
            rules,
            games,
            &mut policy.clone(),
            for_game,
        )];
        let mut positions = Positions::default();
        for part in parts {
            let offset = positions.ones.len() as u32;
            positions.ones.extend(part.ones);
            positions.all.extend(part.all.into_iter().map(|p| Position {
                features: p.features.start + offset..p.features.end + offset,
                ..p
            }));
        }
        positions
    }

    /// The games shared out among the machine's cores (at most 8), each part's positions in
    /// game order.
    #[cfg(feature = "threads")]
    fn play_on_threads<P: Policy + Clone>(
        rules: &Rules,
        games: Range<u64>,
        policy: &P,
        for_game: fn(&mut P, u64),
    ) -> Vec<Positions> {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(8)) as u64;
        let per_thread = (games.end - games.start).div_ceil(threads);
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let start = (games.start + t * per_thread).min(games.end);
                    let end = (start + per_thread).min(games.end);
                    let mut policy = policy.clone();
                    scope.spawn(move || {
                        Positions::play_on_one_thread(rules, start..end, &mut policy, for_game)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a model's games do not panic"))
                .collect()
        })
    }

    fn play_on_one_thread<P: Policy>(
        rules: &Rules,
        games: Range<u64>,
        policy: &mut P,
        for_game: fn(&mut P, u64),
    ) -> Positions {
        let layout = Layout::new(rules);
        let mut positions = Positions::default();
        let mut game = Game::new(rules, 1, 0);
        for g in games {
            game.restart(1, super::mix(SEED, g));
            for_game(policy, g);
            let first = positions.all.len();
            for _ in 0..=rules.turns {
                game.turn(0, policy);
                let player = &game.players[0];
                if player.out.is_some() {
                    break;
                }
                let start = positions.ones.len() as u32;
                layout.ones(rules, player, |f| positions.ones.push(f as u16));
                positions.all.push(Position {
                    turns_taken: player.turns_taken,
                    vp: player.vp,
                    end: 0,
                    followed: true,
                    features: start..positions.ones.len() as u32,
                });
            }
            let end = game.players[0].vp;
            for position in &mut positions.all[first..] {
                position.end = end;
            }
            if let Some(last) = positions.all[first..].last_mut() {
                last.followed = false;
            }
        }
        positions
    }

    /// Position `k`'s features that are not 0, in feature order.
    fn features_of(&self, rules: &Rules, k: usize, into: &mut Vec<(usize, f64)>) {
        let position = &self.all[k];
        let scalars = Layout::scalars(rules, position.vp, position.turns_taken);
        into.clear();
        into.extend(scalars.into_iter().enumerate());
        into.extend(self.ones_of(k).iter().map(|f| (*f as usize, 1.0)));
    }

    fn ones_of(&self, k: usize) -> &[u16] {
        let range = &self.all[k].features;
        &self.ones[range.start as usize..range.end as usize]
    }

    /// Position `k`'s worth by `weights`.
    fn value(&self, rules: &Rules, weights: &[f64], k: usize) -> f64 {
        let position = &self.all[k];
        let scalars = Layout::scalars(rules, position.vp, position.turns_taken);
        let scaled: f64 = (0..SCALARS).map(|f| weights[f] * scalars[f]).sum();
        scaled
            + self
                .ones_of(k)
                .iter()
                .map(|f| weights[*f as usize])
                .sum::<f64>()
    }
}

/// The normal equations of a ridge regression, summed position by position.
struct Normal {
    len: usize,
    /// XᵀX, its upper triangle: features come in increasing order.
    gram: Vec<f64>,
    /// Xᵀy.
    moment: Vec<f64>,
    /// Room for the factorisation.
    factor: Vec<f64>,
}

impl Normal {
    fn new(len: usize) -> Normal {
        Normal {
            len,
            gram: vec![0.0; len * len],
            moment: vec![0.0; len],
            factor: vec![0.0; len * len],
        }
    }

    fn clear(&mut self) {
        self.gram.fill(0.0);
        self.moment.fill(0.0);
    }

    fn add(&mut self, features: &[(usize, f64)], target: f64) {
        for (k, &(i, x)) in features.iter().enumerate() {
            self.moment[i] += x * target;
            let row = &mut self.gram[i * self.len..(i + 1) * self.len];
            for &(j, y) in &features[k..] {
                row[j] += x * y;
            }
        }
    }

    /// The weights w minimising |Xw - y|² + λ|w - prior|² (the constant's weight free), by
    /// Cholesky.
    fn solve(&mut self, prior: &[f64]) -> Vec<f64> {
        let n = self.len;
        let a = &mut self.factor;
        let mut w = self.moment.clone();
        for i in 0..n {
            for j in i..n {
                a[i * n + j] = self.gram[i * n + j];
                a[j * n + i] = self.gram[i * n + j];
            }
            if i != CONSTANT {
                a[i * n + i] += RIDGE;
                w[i] += RIDGE * prior[i];
            }
        }
        // A game with no positions in a bucket leaves its constant undetermined.
        a[CONSTANT * n + CONSTANT] += 1e-6;
        // a = LLᵀ, L kept in the lower triangle.
        for j in 0..n {
            let d = (a[j * n + j] - (0..j).map(|k| a[j * n + k] * a[j * n + k]).sum::<f64>())
                .max(1e-12)
                .sqrt();
            a[j * n + j] = d;
            for i in j + 1..n {
                let s = a[i * n + j] - (0..j).map(|k| a[i * n + k] * a[j * n + k]).sum::<f64>();
                a[i * n + j] = s / d;
            }
        }
        for i in 0..n {
            w[i] = (w[i] - (0..i).map(|k| a[i * n + k] * w[k]).sum::<f64>()) / a[i * n + i];
        }
        for i in (0..n).rev() {
            w[i] = (w[i] - (i + 1..n).map(|k| a[k * n + i] * w[k]).sum::<f64>()) / a[i * n + i];
        }
        w
    }
}

/// `expected`, letting a card go or a throw pass now and then: never in one game in six, up
/// to half the time in another.
#[derive(Default, Clone)]
struct Explorer {
    playout: Playout,
    /// The chance it lets a card go or a throw pass, this game.
    thrift: f64,
}

impl Explorer {
    /// Sets up for game `g`.
    fn for_game(&mut self, g: u64) {
        self.thrift = (g % 6) as f64 * 0.1;
    }
}

impl Policy for Explorer {
    fn name(&self) -> &'static str {
        "explorer"
    }

    fn prepare(&mut self, rules: &Rules) {
        self.playout.prepare(rules);
    }

    fn begin_turn(&mut self) {
        self.playout.begin_turn();
    }

    fn choose(
        &mut self,
        view: &View,
        decision: Decision,
        choices: Choices,
        rng: &mut Pcg64Mcg,
    ) -> usize {
        let spare = matches!(decision, Decision::Card | Decision::Throw);
        if let Some(stop) = choices.position(Choice::Stop)
            && spare
            && rng.random::<f64>() < self.thrift
        {
            return stop;
        }
        self.playout.choose(view, decision, choices, rng)
    }

    fn choose_reroll(&mut self, view: &View, rerolls: Rerolls, rng: &mut Pcg64Mcg) -> Choice {
        self.playout.choose_reroll(view, rerolls, rng)
    }
}
