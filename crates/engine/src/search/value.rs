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
//!
//! A caller that must not wait fits a model a few games at a time ([`Study`]: the playtest
//! page's worker, which says how far it has got), to the same model, since each game plays the
//! same whatever was played before it. A planner's model fitted where a page is built travels
//! with the page ([`Model`], its weights as bits), so that the page's planner needs no study of
//! the page's own ruleset.

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
        Values::cached(&SEARCH_MODELS, rules, search_player)
    }

    /// The model for `rules` that `planner` plays with, fitted the first time they are asked
    /// for: as `search`'s, but its later rounds of games played by `planner` itself.
    pub(crate) fn for_planner(rules: &Rules) -> Arc<Values> {
        Values::cached(&PLANNER_MODELS, rules, Planner::with_values)
    }

    /// The model in `fitted` for `rules`, or else fitted (see [`Values::fit`]) and kept there.
    fn cached<P: Policy + Clone>(
        fitted: &Models,
        rules: &Rules,
        player: fn(&Rules, Arc<Values>) -> P,
    ) -> Arc<Values> {
        let mut fitted = fitted
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(values) = kept(&fitted, rules) {
            return values;
        }
        let values = Arc::new(Values::fit(rules, player));
        keep(&mut fitted, rules, values.clone());
        values
    }

    /// The model fitted to games of `explorer`, then to rounds of games played by `player`
    /// with the model the round before fitted.
    fn fit<P: Policy + Clone>(rules: &Rules, player: fn(&Rules, Arc<Values>) -> P) -> Values {
        let mut fitting = Fitting::new(rules, player);
        loop {
            if let Some(values) = fitting.play(rules, u64::MAX) {
                return values;
            }
        }
    }

    /// The weights per bucket of turns a model of `rules` has: how many buckets, and how
    /// many turns each covers.
    fn buckets(rules: &Rules) -> (usize, u32) {
        let turns = rules.turns.max(1);
        let turns_per_bucket = turns.div_ceil(MOST_BUCKETS as u32);
        (
            turns.div_ceil(turns_per_bucket) as usize + 1,
            turns_per_bucket,
        )
    }
}

/// Weights being fitted to positions, bucket by bucket from the last, each drawn towards the
/// weights of the model the round before fitted, if there is one, instead of towards zero: a
/// bucket at a time, so that a caller that must not wait can fit a few at a time.
struct Fit {
    layout: Layout,
    weights: Vec<Vec<f64>>,
    turns_per_bucket: u32,
    /// The buckets still to fit: the next is the last of them.
    left: usize,
    /// What each position's target said was still to come.
    to_come: Vec<f64>,
    features: Vec<(usize, f64)>,
    normal: Normal,
}

impl Fit {
    fn new(rules: &Rules, positions: &Positions) -> Fit {
        let layout = Layout::new(rules);
        let (buckets, turns_per_bucket) = Values::buckets(rules);
        Fit {
            weights: vec![vec![0.0; layout.len]; buckets],
            turns_per_bucket,
            left: buckets,
            to_come: vec![0.0; positions.all.len()],
            features: Vec::new(),
            normal: Normal::new(layout.len),
            layout,
        }
    }

    /// Fits the next bucket: whether every bucket is fitted now.
    fn step(&mut self, rules: &Rules, positions: &Positions, prior: Option<&Values>) -> bool {
        let Some(bucket) = self.left.checked_sub(1) else {
            return true;
        };
        let buckets = self.weights.len();
        let turns_per_bucket = self.turns_per_bucket;
        let bucket_of =
            |turns_taken: u32| ((turns_taken / turns_per_bucket) as usize).min(buckets - 1);
        let to_come = &mut self.to_come;
        let normal = &mut self.normal;
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
                        b => brought + positions.value(rules, &self.weights[b], k + 1),
                    }
                }
            };
            positions.features_of(rules, k, &mut self.features);
            normal.add(&self.features, to_come[k]);
        }
        let zero = vec![0.0; self.layout.len];
        let prior = prior.map_or(&zero, |prior| &prior.weights[bucket]);
        self.weights[bucket] = normal.solve(prior);
        self.left = bucket;
        bucket == 0
    }

    /// The buckets of weights, and how many of them are fitted.
    fn progress(&self) -> (u64, u64) {
        let buckets = self.weights.len();
        (buckets as u64, (buckets - self.left) as u64)
    }

    /// The model, once every bucket is fitted.
    fn values(self) -> Values {
        debug_assert_eq!(self.left, 0);
        Values {
            layout: self.layout,
            weights: self.weights,
            turns_per_bucket: self.turns_per_bucket,
        }
    }
}

/// The models fitted in this process, each with the compilation of the rules it was fitted
/// to: a process plays a ruleset or two (`diff` plays two versions of a game).
type Models = Mutex<Vec<(u64, Arc<Values>)>>;
static SEARCH_MODELS: Models = Mutex::new(Vec::new());
static PLANNER_MODELS: Models = Mutex::new(Vec::new());

fn kept(models: &[(u64, Arc<Values>)], rules: &Rules) -> Option<Arc<Values>> {
    models
        .iter()
        .find(|(compilation, _)| *compilation == rules.compilation)
        .map(|(_, values)| values.clone())
}

fn keep(models: &mut Vec<(u64, Arc<Values>)>, rules: &Rules, values: Arc<Values>) {
    models.retain(|(compilation, _)| *compilation != rules.compilation);
    if models.len() >= 4 {
        models.remove(0);
    }
    models.push((rules.compilation, values));
}

fn keep_in(models: &Models, rules: &Rules, values: Values) {
    let mut models = models
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    keep(&mut models, rules, Arc::new(values));
}

fn is_kept(models: &Models, rules: &Rules) -> bool {
    let models = models
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    kept(&models, rules).is_some()
}

/// The search that plays the later rounds of games `search`'s model is fitted to.
fn search_player(rules: &Rules, values: Arc<Values>) -> Search {
    Search::with_values(1, rules, values)
}

/// A model being fitted a few steps at a time (a step is a game played, or a bucket of
/// weights fitted), for a caller that says how far it has got (the playtest page's worker): it
/// ends in the model [`Values::fit`] makes, since each game plays the same whatever was played
/// before it.
struct Fitting<P> {
    player: fn(&Rules, Arc<Values>) -> P,
    explorer: Explorer,
    /// Each round's games: the exploring games, then each round of `player`'s.
    rounds: Vec<Range<u64>>,
    /// Each round's fitting work on the positions of its games played so far.
    work: Vec<u64>,
    /// The round being played, and its next game.
    round: usize,
    next: u64,
    /// The positions of the round's games played so far.
    positions: Positions,
    /// The round's weights being fitted, once its games are played.
    fit: Option<Fit>,
    /// The model the round before fitted, and the player of this round, who values positions
    /// with it (none in the exploring round).
    values: Option<Arc<Values>>,
    playing: Option<P>,
}

/// How far a round of a study has got: its games and how many are played, the buckets of
/// weights fitted to them and how many are fitted, and the fitting's work on the positions of
/// the games played so far (the sum of the squares of their features that are not 0: what
/// fitting them takes is about in proportion).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Round {
    pub games: u64,
    pub played: u64,
    pub buckets: u64,
    pub fitted: u64,
    pub work: u64,
}

impl<P: Policy + Clone> Fitting<P> {
    fn new(rules: &Rules, player: fn(&Rules, Arc<Values>) -> P) -> Fitting<P> {
        let turns = u64::from(rules.turns.max(1));
        let features = Layout::new(rules).len as u64;
        let exploring = (EXPLORING_TURNS * features / turns).max(50);
        let searching = (SEARCHING_TURNS * features / turns).max(20);
        let rounds: Vec<Range<u64>> = std::iter::once(0..exploring)
            .chain((0..SEARCHING_ROUNDS as u64).map(|r| {
                let start = exploring + r * searching;
                start..start + searching
            }))
            .collect();
        let mut explorer = Explorer::default();
        explorer.prepare(rules);
        Fitting {
            player,
            explorer,
            work: vec![0; rounds.len()],
            rounds,
            round: 0,
            next: 0,
            positions: Positions::default(),
            fit: None,
            values: None,
            playing: None,
        }
    }

    /// Takes at most `most` more steps of the round, all of one kind: games while some are
    /// left to play, then buckets of its weights fitted to them. The model, once the last
    /// round's is fitted.
    fn play(&mut self, rules: &Rules, most: u64) -> Option<Values> {
        let most = most.max(1);
        let round = self.rounds[self.round].clone();
        if self.next < round.end {
            let end = round.end.min(self.next.saturating_add(most));
            let games = self.next..end;
            let played = match &self.playing {
                Some(player) => Positions::play(rules, games, player, |_, _| {}),
                None => Positions::play(rules, games, &self.explorer, Explorer::for_game),
            };
            self.work[self.round] += played.work();
            self.positions.extend(played);
            self.next = end;
            if end == round.end {
                self.fit = Some(Fit::new(rules, &self.positions));
            }
            return None;
        }
        let fit = self
            .fit
            .as_mut()
            .expect("a round's games played are fitted");
        let prior = self.values.as_deref();
        let mut fitted = false;
        for _ in 0..most {
            fitted = fit.step(rules, &self.positions, prior);
            if fitted {
                break;
            }
        }
        if !fitted {
            return None;
        }
        let values = self.fit.take().expect("fitted").values();
        self.positions = Positions::default();
        self.playing = None;
        self.round += 1;
        if self.round == self.rounds.len() {
            self.values = None;
            return Some(values);
        }
        self.next = self.rounds[self.round].start;
        let values = Arc::new(values);
        self.playing = Some((self.player)(rules, values.clone()));
        self.values = Some(values);
        None
    }

    /// How far each round has got.
    fn progress(&self, rules: &Rules) -> Vec<Round> {
        let (buckets, _) = Values::buckets(rules);
        let buckets = buckets as u64;
        self.rounds
            .iter()
            .enumerate()
            .map(|(r, games)| {
                let (played, fitted) = match r.cmp(&self.round) {
                    std::cmp::Ordering::Less => (games.end, buckets),
                    std::cmp::Ordering::Equal => (
                        self.next,
                        self.fit.as_ref().map_or(0, |fit| fit.progress().1),
                    ),
                    std::cmp::Ordering::Greater => (games.start, 0),
                };
                Round {
                    games: games.end - games.start,
                    played: played - games.start,
                    buckets,
                    fitted,
                    work: self.work[r],
                }
            })
            .collect()
    }
}

/// The model a bot plays a ruleset with, fitted a few games at a time, so that a caller that
/// cannot wait (the playtest page) can say how far it has got: once fitted it is kept for the
/// ruleset's `planner` or `search` bots, as if they had fitted it themselves.
pub struct Study(Studying);

enum Studying {
    Planner(Fitting<Planner>),
    Search(Fitting<Search>),
}

impl Study {
    /// The study the bot named `bot` needs before it plays `rules`: none when its policy
    /// fits no model, or the model is fitted already.
    pub fn of(bot: &str, rules: &Rules) -> Option<Study> {
        if bot == "planner" && !is_kept(&PLANNER_MODELS, rules) {
            let fitting = Fitting::new(rules, Planner::with_values);
            return Some(Study(Studying::Planner(fitting)));
        }
        if Search::from_name(bot).is_some() && !is_kept(&SEARCH_MODELS, rules) {
            let fitting = Fitting::new(rules, search_player);
            return Some(Study(Studying::Search(fitting)));
        }
        None
    }

    /// Whether this is the study the bot named `bot` needs.
    pub fn is_for(&self, bot: &str) -> bool {
        match self.0 {
            Studying::Planner(_) => bot == "planner",
            Studying::Search(_) => Search::from_name(bot).is_some(),
        }
    }

    fn models(&self) -> &'static Models {
        match self.0 {
            Studying::Planner(_) => &PLANNER_MODELS,
            Studying::Search(_) => &SEARCH_MODELS,
        }
    }

    /// Takes at most `steps` more of the study's steps (games played, or buckets of weights
    /// fitted; see [`Round`]): whether the model is fitted now, and kept for `rules`.
    pub fn play(&mut self, rules: &Rules, steps: u64) -> bool {
        let models = self.models();
        // A bot that could not wait fitted the model itself meanwhile.
        if is_kept(models, rules) {
            return true;
        }
        let fitted = match &mut self.0 {
            Studying::Planner(fitting) => fitting.play(rules, steps),
            Studying::Search(fitting) => fitting.play(rules, steps),
        };
        fitted
            .map(|values| keep_in(models, rules, values))
            .is_some()
    }

    /// How far each round of the study has got, in order. The rounds after the first are
    /// slower per game (a bot plays them, where `expected` plays the first).
    pub fn progress(&self, rules: &Rules) -> Vec<Round> {
        match &self.0 {
            Studying::Planner(fitting) => fitting.progress(rules),
            Studying::Search(fitting) => fitting.progress(rules),
        }
    }
}

/// The planner's model of a ruleset, as a page carries it (fitted once where the page is
/// built, so the page's planner plays its first move at once): the weights per bucket of
/// turns, each as the bits of its `f64` (JSON's decimals would not read back to the same
/// number, and the planner must play as the one that fitted them), and the features and
/// buckets they were fitted with.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Model {
    features: usize,
    turns_per_bucket: u32,
    weights: Vec<Vec<u64>>,
}

/// The largest weight a carried model may hold: fitted ones are VP, a few hundred at most.
const MOST_WEIGHT: f64 = 1e9;

impl Model {
    /// The planner's model of `rules`, fitted if no model of them is kept yet.
    pub fn planner(rules: &Rules) -> Model {
        let values = Values::for_planner(rules);
        Model {
            features: values.layout.len,
            turns_per_bucket: values.turns_per_bucket,
            weights: values
                .weights
                .iter()
                .map(|bucket| bucket.iter().map(|w| w.to_bits()).collect())
                .collect(),
        }
    }

    /// Keeps this model for the planner's games of `rules`, as if it had been fitted here;
    /// refused (with the reason) when it is not a model of rules of their size.
    pub fn carry_for_planner(self, rules: &Rules) -> Result<(), String> {
        let layout = Layout::new(rules);
        let (buckets, turns_per_bucket) = Values::buckets(rules);
        if self.features != layout.len || self.turns_per_bucket != turns_per_bucket {
            return Err(format!(
                "a model of {} features and {} turns per bucket, where these rules have {} and {}",
                self.features, self.turns_per_bucket, layout.len, turns_per_bucket
            ));
        }
        if self.weights.len() != buckets || self.weights.iter().any(|w| w.len() != layout.len) {
            return Err(format!(
                "the model does not have {buckets} buckets of {} weights",
                layout.len
            ));
        }
        let weights: Vec<Vec<f64>> = self
            .weights
            .iter()
            .map(|bucket| bucket.iter().map(|w| f64::from_bits(*w)).collect())
            .collect();
        let sound = |w: &f64| w.is_finite() && w.abs() <= MOST_WEIGHT;
        if !weights.iter().flatten().all(sound) {
            return Err("the model holds a weight that is no number of VP".to_string());
        }
        let values = Values {
            layout,
            weights,
            turns_per_bucket,
        };
        keep_in(&PLANNER_MODELS, rules, values);
        Ok(())
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
            positions.extend(part);
        }
        positions
    }

    /// The work of fitting weights to these positions: the sum of the squares of their
    /// features that are not 0.
    fn work(&self) -> u64 {
        self.all
            .iter()
            .map(|p| {
                let features = u64::from(p.features.end - p.features.start) + SCALARS as u64;
                features * features
            })
            .sum()
    }

    /// Adds `later`'s positions after these.
    fn extend(&mut self, later: Positions) {
        let offset = self.ones.len() as u32;
        self.ones.extend(later.ones);
        self.all.extend(later.all.into_iter().map(|p| Position {
            features: p.features.start + offset..p.features.end + offset,
            ..p
        }));
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

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Rules {
        crate::load(include_bytes!("../../tests/tiny.json")).expect("a ruleset")
    }

    #[test]
    fn a_study_a_few_steps_at_a_time_fits_the_model_fitted_at_once() {
        let rules = tiny();
        let whole = Values::fit(&rules, Planner::with_values);
        let mut study = Study::of("planner", &rules).expect("nothing fitted yet");
        let (buckets, _) = Values::buckets(&rules);
        let mut before = study.progress(&rules);
        assert!(before.iter().all(|r| r.played == 0 && r.fitted == 0));
        let mut calls = 0;
        while !study.play(&rules, 7) {
            calls += 1;
            let progress = study.progress(&rules);
            assert_eq!(progress.len(), 1 + SEARCHING_ROUNDS);
            let (mut games, mut fits) = (0, 0);
            for (now, was) in progress.iter().zip(&before) {
                assert!(
                    now.played <= now.games && now.fitted <= now.buckets,
                    "{now:?}"
                );
                assert_eq!(now.buckets, buckets as u64);
                assert!(now.played >= was.played && now.fitted >= was.fitted);
                assert!(
                    now.fitted == 0 || now.played == now.games,
                    "fitted before played"
                );
                games += now.played - was.played;
                fits += now.fitted - was.fitted;
                assert_eq!(now.work > 0, now.played > 0, "{now:?}");
            }
            // Each call takes steps of one kind, at most 7 of them.
            assert!((1..=7).contains(&(games + fits)) && (games == 0 || fits == 0));
            before = progress;
        }
        assert!(calls > 10, "{calls} calls");
        assert!(Study::of("planner", &rules).is_none(), "the model is kept");
        assert_eq!(Values::for_planner(&rules).weights, whole.weights);
    }

    #[test]
    fn a_carried_model_is_the_planners_and_one_of_other_rules_is_refused() {
        let rules = tiny();
        let model = Model::planner(&rules);
        let text = serde_json::to_string(&model).unwrap();
        let again = tiny();
        let carried: Model = serde_json::from_str(&text).unwrap();
        carried.carry_for_planner(&again).unwrap();
        assert!(
            Study::of("planner", &again).is_none(),
            "nothing left to study"
        );
        let bits = |values: &Values| -> Vec<Vec<u64>> {
            values
                .weights
                .iter()
                .map(|b| b.iter().map(|w| w.to_bits()).collect())
                .collect()
        };
        assert_eq!(bits(&Values::for_planner(&again)), model.weights);
        let mut short = model.clone();
        short.weights.pop();
        assert!(short.carry_for_planner(&tiny()).is_err());
        let mut wild = model.clone();
        wild.weights[0][0] = f64::INFINITY.to_bits();
        assert!(wild.carry_for_planner(&tiny()).is_err());
        let mut other = model;
        other.features += 1;
        assert!(other.carry_for_planner(&tiny()).is_err());
    }

    #[test]
    fn only_the_planner_and_search_study() {
        let rules = tiny();
        for bot in ["random", "greedy", "expected", "target:x"] {
            assert!(Study::of(bot, &rules).is_none(), "{bot}");
        }
        let search = Study::of("search:8", &rules).unwrap();
        assert!(search.is_for("search") && !search.is_for("planner"));
    }
}
