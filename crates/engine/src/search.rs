//! `search`: each decision tried out by playing the rest of the turn many times over.
//!
//! At every decision the policy plays the rest of the turn out from each choice, `budget`
//! times (`search:N`), in copies of the game, and picks the choice that did best on average:
//! the VP the turn brought plus what the position it ended in is worth ([`value`]). Playing on
//! to the end of the game instead would take thousands of playouts per choice to see through
//! a game's luck (its final score varies by some 35 VP), where a turn's luck is small; so
//! the rest of the game is left to a model of what positions are worth, fitted once per
//! ruleset to games played with this same search. The model's errors, not the rollouts' luck,
//! are what limit the search past some 50 rollouts per choice: the default.
//!
//! The copies are set up from what the player can see: their own sheet, the deck's cards
//! reshuffled (never the deck's order), the face-up discard pile, and fresh dice. Each choice
//! is played out with the same dice and the same deck order (common random numbers), so that
//! the differences between choices are the choices' and not the luck's. The rest of the turn
//! is played as `expected` would ([`playout`]). Re-rolls are many (up to 63 sets of dice),
//! so only the few `expected` scores best are tried: trying more played worse, the more
//! choices compared on estimates the likelier a poor one wins by its estimate's errors. A
//! decision's luck comes from a seed drawn from the game's own random numbers, so a game's
//! seed decides its play.

pub(crate) mod playout;
pub(crate) mod value;

use std::sync::Arc;

use rand::RngExt;
use rand_pcg::Pcg64Mcg;

use super::policy::{Choice, Choices, Decision, Policy, Rerolls, Stage, View};
use super::{Game, Rules};
use playout::Playout;
use value::Values;
pub use value::{Model, Round, Study};

/// The re-rolls tried at a roll besides stopping: those `expected` scores best. Measured on
/// the default game at 50 rollouts: 4 tried, 130 VP; 6, 134; 12, 132; all 31, 130.
const REROLLS_TRIED: usize = 6;

#[derive(Clone)]
pub struct Search {
    /// Rollouts per choice.
    budget: u32,
    /// The compilation of the rules `values` was fitted to.
    prepared_for: Option<u64>,
    values: Option<Arc<Values>>,
    playout: Playout,
    /// The deck's cards, in card order, at the decision being made.
    deck: Vec<usize>,
    /// The choices being tried.
    choices: Vec<Choice>,
    /// The re-rolls tried at a roll besides stopping.
    rerolls_tried: usize,
}

impl Default for Search {
    fn default() -> Search {
        Search::with_budget(Search::DEFAULT_BUDGET).expect("the default budget is in range")
    }
}

impl Search {
    /// Rollouts per choice when the name gives none.
    pub const DEFAULT_BUDGET: u32 = 50;
    /// The most rollouts per choice a name may ask for.
    pub const MOST_BUDGET: u32 = 10_000;

    /// A search with `budget` rollouts per choice, from 1 to [`Search::MOST_BUDGET`].
    pub(crate) fn with_budget(budget: u32) -> Option<Search> {
        (1..=Search::MOST_BUDGET).contains(&budget).then(|| Search {
            budget,
            prepared_for: None,
            values: None,
            playout: Playout::default(),
            deck: Vec::new(),
            choices: Vec::new(),
            rerolls_tried: REROLLS_TRIED,
        })
    }

    /// `search`, or `search:N` with N rollouts per choice in decimal digits.
    pub fn from_name(name: &str) -> Option<Search> {
        let budget = match name.strip_prefix("search")? {
            "" => return Some(Search::default()),
            budget => budget.strip_prefix(':')?,
        };
        if budget.is_empty() || !budget.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        Search::with_budget(budget.parse().ok()?)
    }

    pub fn budget(&self) -> u32 {
        self.budget
    }

    /// A search that values positions with `values`, fitted to `rules`: the one the model
    /// itself is fitted with.
    fn with_values(budget: u32, rules: &Rules, values: Arc<Values>) -> Search {
        let mut search = Search::with_budget(budget).expect("a budget in range");
        search.prepared_for = Some(rules.compilation);
        search.values = Some(values);
        search.playout.prepare(rules);
        // Half the re-rolls: the model is fitted in four fifths of the time, and as good.
        search.rerolls_tried = REROLLS_TRIED / 2;
        search
    }

    /// The choice among `self.choices` whose rollouts did best (the first of equals).
    fn best(&mut self, view: &View, rng: &mut Pcg64Mcg) -> Choice {
        let rules = view.rules;
        let values = self.values.clone().expect("a prepared search");
        let mut game = Game::new(rules, 1, 0);
        view.deck.sorted_into(&mut self.deck);
        let start = view.player.vp;
        // Inside a fill's consequences the rest of the turn is not known, and the fill is
        // certain: each choice's consequences are played once, and valued as they leave
        // the sheet.
        let rollouts = match view.stage {
            Stage::Cascade { .. } => 1,
            _ => self.budget,
        };
        let base: u64 = rng.random();
        let mut totals = vec![0.0; self.choices.len()];
        for rollout in 0..rollouts {
            let seed = mix(base, rollout as u64);
            for (choice, total) in self.choices.iter().zip(&mut totals) {
                game.set_position(view.player, &self.deck, view.discard, seed);
                self.playout.begin_turn();
                game.play_on(0, view, *choice, &mut self.playout);
                let player = &game.players[0];
                *total += (player.vp - start) as f64 + values.of(rules, player);
            }
        }
        let mut best = (f64::MIN, self.choices[0]);
        for (choice, total) in self.choices.iter().zip(&totals) {
            if *total > best.0 {
                best = (*total, *choice);
            }
        }
        best.1
    }
}

impl Policy for Search {
    fn name(&self) -> &'static str {
        "search"
    }

    fn prepare(&mut self, rules: &Rules) {
        if self.prepared_for != Some(rules.compilation) {
            self.values = Some(Values::for_rules(rules));
            self.prepared_for = Some(rules.compilation);
        }
        self.playout.prepare(rules);
    }

    fn begin_turn(&mut self) {
        self.playout.begin_turn();
    }

    fn choose(&mut self, view: &View, _: Decision, choices: Choices, rng: &mut Pcg64Mcg) -> usize {
        self.prepare(view.rules);
        self.choices.clear();
        self.choices.extend(choices.iter());
        let best = self.best(view, rng);
        choices.position(best).unwrap_or(0)
    }

    fn choose_reroll(&mut self, view: &View, rerolls: Rerolls, rng: &mut Pcg64Mcg) -> Choice {
        self.prepare(view.rules);
        let mut scored = Vec::with_capacity(rerolls.len());
        self.playout
            .score_rerolls(view, rerolls, |value, choice| scored.push((value, choice)));
        // Best first; the sort is stable, so equals keep the engine's order.
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        self.choices.clear();
        self.choices.push(Choice::Stop);
        self.choices.extend(
            scored
                .iter()
                .map(|(_, choice)| *choice)
                .filter(|choice| *choice != Choice::Stop)
                .take(self.rerolls_tried),
        );
        self.best(view, rng)
    }
}

/// The `index`th seed drawn from `seed` (SplitMix64): neighbouring indices, unrelated seeds.
pub(crate) fn mix(seed: u64, index: u64) -> u64 {
    let mut z = seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
