//! The policy a search plays the rest of a turn with: `expected`'s choices, made without
//! allocating. A search plays out millions of decisions a game, and `expected` spends most of
//! its time allocating for each of the up to 63 re-rolls it scores; this one scores them in
//! fixed arrays, with the same arithmetic, so it picks what `expected` picks.

use rand_pcg::Pcg64Mcg;

use crate::limits::MAX_EXPEDITION_DICE;
use crate::policy::{Choice, Choices, Decision, Greedy, Policy, Rerolls, View};
use crate::vocabulary::Action;

/// Room for every die, and for every count of hazards.
const MOST_DICE: usize = MAX_EXPEDITION_DICE as usize + 1;

#[derive(Default, Clone)]
pub(crate) struct Playout {
    greedy: Greedy,
    /// The worth after each re-roll, by the mask of dice re-rolled.
    after: Vec<f64>,
}

/// What a re-rolled die brings: the chance it shows a hazard, and the mean worth of its
/// other faces (a hazard is worth nothing).
#[derive(Clone, Copy, Default)]
struct Fresh {
    hazard: f64,
    other: f64,
}

/// The dice of a roll as the scoring of its re-rolls reads them.
struct Roll<'a> {
    faces: &'a [Action],
    worth: [f64; 6],
    fresh: [Fresh; MOST_DICE],
    /// The dice that may be re-rolled, as a mask.
    rerollable: u32,
    /// Hazards counted: up to the limit, as counts past it add nothing.
    limit: usize,
}

/// The dice scored so far: the chance of each count of hazards, and the worth they bring
/// with each count.
#[derive(Clone, Copy)]
struct Tally {
    probability: [f64; MOST_DICE],
    mass: [f64; MOST_DICE],
}

impl Tally {
    /// The tally with one more die, showing a hazard with chance `hazard` and worth `other`
    /// otherwise (`Expected::after_reroll`'s step, in the same arithmetic).
    #[inline(always)]
    fn and(&self, (hazard, other): (f64, f64), limit: usize) -> Tally {
        let mut next = *self;
        for h in (0..limit).rev() {
            let from_below = if h > 0 {
                (next.probability[h - 1], next.mass[h - 1])
            } else {
                (0.0, 0.0)
            };
            next.mass[h] =
                next.mass[h] * (1.0 - hazard) + next.probability[h] * other + from_below.1 * hazard;
            next.probability[h] = next.probability[h] * (1.0 - hazard) + from_below.0 * hazard;
        }
        next
    }
}

impl Roll<'_> {
    /// Scores every re-roll of the dice from `die` on, the dice before it being `tally` and
    /// `mask` re-rolled: the re-rolls share their first dice's arithmetic.
    fn score(&self, die: usize, mask: u32, tally: &Tally, after: &mut [f64]) {
        let Some(face) = self.faces.get(die) else {
            after[mask as usize] = tally.mass[..self.limit].iter().sum();
            return;
        };
        let kept = match face {
            Action::Hazard => (1.0, 0.0),
            _ => (0.0, self.worth[*face as usize]),
        };
        self.score(die + 1, mask, &tally.and(kept, self.limit), after);
        if self.rerollable & (1 << die) != 0 {
            let fresh = (self.fresh[die].hazard, self.fresh[die].other);
            self.score(
                die + 1,
                mask | 1 << die,
                &tally.and(fresh, self.limit),
                after,
            );
        }
    }
}

impl Playout {
    /// Calls `each` with every re-roll choice, in the engine's order of the choices, and the
    /// expected worth of the faces after it (zero when hazards reach the limit), as
    /// `expected` scores them.
    pub(crate) fn score_rerolls(
        &mut self,
        view: &View,
        rerolls: Rerolls,
        mut each: impl FnMut(f64, Choice),
    ) {
        self.greedy.prepare(view.rules);
        let worth = self.greedy.worths(view);
        let mut roll = Roll {
            faces: view.faces,
            worth,
            fresh: [Fresh::default(); MOST_DICE],
            rerollable: rerolls.dice(),
            limit: (view.rules.hazard_limit as usize).min(view.faces.len() + 1),
        };
        for (i, die) in view
            .rules
            .expedition
            .iter()
            .enumerate()
            .take(view.faces.len())
        {
            let n = die.len() as f64;
            roll.fresh[i] = Fresh {
                hazard: die.iter().filter(|f| **f == Action::Hazard).count() as f64 / n,
                other: die
                    .iter()
                    .filter(|f| **f != Action::Hazard)
                    .map(|f| worth[*f as usize])
                    .sum::<f64>()
                    / n,
            };
        }
        self.after.clear();
        self.after.resize(1 << view.faces.len(), 0.0);
        let mut start = Tally {
            probability: [0.0; MOST_DICE],
            mass: [0.0; MOST_DICE],
        };
        start.probability[0] = 1.0;
        roll.score(0, 0, &start, &mut self.after);
        for index in 0..rerolls.len() {
            let choice = rerolls.get(index);
            let mask = match choice {
                Choice::Reroll(mask) => mask,
                _ => 0,
            };
            each(self.after[mask as usize], choice);
        }
    }

    /// The re-roll `expected` picks: the first of the best (within a hair).
    fn best_reroll(&mut self, view: &View, rerolls: Rerolls) -> Choice {
        let mut best = (f64::MIN, Choice::Stop);
        self.score_rerolls(view, rerolls, |value, choice| {
            if value > best.0 + 1e-9 {
                best = (value, choice);
            }
        });
        best.1
    }
}

impl Policy for Playout {
    fn name(&self) -> &'static str {
        "expected"
    }

    fn prepare(&mut self, rules: &crate::Rules) {
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
        match (decision, choices) {
            (Decision::Reroll, Choices::Reroll(rerolls)) => {
                let best = self.best_reroll(view, rerolls);
                choices.position(best).unwrap_or(0)
            }
            _ => self.greedy.choose(view, decision, choices, rng),
        }
    }

    fn choose_reroll(&mut self, view: &View, rerolls: Rerolls, _: &mut Pcg64Mcg) -> Choice {
        self.best_reroll(view, rerolls)
    }
}
