//! `planner`: every choice valued by the VP it brings now and what the sheet it leaves is
//! worth for the turns left, with no playouts.
//!
//! `expected` plays as if the game ended with the turn: it throws at nearly every card it
//! meets until the card is caught, and runs out of Safari Balls after some 13 of 20 turns. What a
//! ball, a box or a species is worth depends on how many turns are left to use it, which is
//! what `search`'s model of a position's worth knows ([`Values`]: VP still to come, linear in
//! the sheet, one set of weights per turn). `search` finds what each choice leads to by
//! playing the rest of the turn out 50 times over; the planner works it out instead:
//!
//! - a box to fill (a face's track, a bonus box, an item to use) is worth the sheet after
//!   the fill and all that follows from it, played out once on a copy ([`Game::play_move`]);
//! - a card to meet, or a throw to make, is worth its throws: the chance a throw catches,
//!   the sheet after a catch and after each miss (a ball gone, the ball track filled), and
//!   whether to throw again after a miss, worked back from the last throw looked ahead
//!   (at most [`HORIZON`]). Letting the card go is worth the sheet as it is. So the planner
//!   passes up a hard card when balls are worth more than it, and spends its last balls on
//!   the last turns;
//! - re-rolls are `expected`'s (the dice's exact chances, hazards counted). Valuing the faces
//!   by the model as well (a face by the best box it fills, a Grass or Water face by the
//!   cards it may bring) played 1 to 4 VP better, at half the speed.
//!
//! The model is the planner's own: fitted as `search`'s is, from the same fixed seed, but
//! with its later rounds of games played by the planner ([`Values::for_planner`]), so that it
//! values positions as the planner goes on to play them. A game's dice alone decide its
//! play: the planner draws no random numbers.
//!
//! Measured with `examples/strength.rs` (one player, mean final VP): on the default game
//! `expected` 91, `search` 132, the planner 141; on its earlier version (v20240517) 88, 120
//! and 131. The planner plays some 9,000 to 10,000 games a second on one core, as many as
//! `expected` (`search` plays about 25), after fitting its model once per ruleset in about
//! 0.6 s on one core.

use std::sync::Arc;

use rand_pcg::Pcg64Mcg;

use crate::game::{Game, Move, Player, Scratch};
use crate::policy::{Choice, Choices, Decision, Policy, Rerolls, Stage, View};
use crate::rules::Rules;
use crate::search::playout::Playout;
use crate::search::value::{Dense, Values};

/// Throws looked ahead at an encounter: a miss seven times running is rare (looking 8 ahead
/// played no better than 5).
pub(crate) const HORIZON: usize = 6;

#[derive(Default, Clone)]
pub struct Planner {
    /// The compilation of the rules `values` was fitted to.
    prepared_for: Option<u64>,
    values: Option<Arc<Dense>>,
    /// `expected`'s re-rolls, and the choices inside a fill it tries (a bonus box's chain).
    playout: Playout,
    scratch: Scratch,
    misses: Misses,
}

/// The sheets after 0, 1, 2.. throws missed from one sheet, worked out once for the throws
/// at a card: each miss spends a ball and fills the next ball box. A throw after k misses
/// finds its sheet here, and the sheets after it, exactly as it would work them out, so a
/// choice is the same whatever was worked out before it.
#[derive(Debug, Clone, Default)]
struct Misses {
    /// The sheets, the first `len` of them (the others are buffers to reuse).
    sheets: Vec<Player>,
    len: usize,
    /// Their worths.
    worths: Vec<f64>,
    /// Per sheet (by its misses) and card, what catching the card on the next throw adds
    /// over missing it: to the worth, and to the VP.
    catches: Vec<(usize, usize, (f64, f64))>,
}

impl Misses {
    fn clear(&mut self) {
        self.len = 0;
        self.worths.clear();
        self.catches.clear();
    }

    fn push(&mut self, sheet: &Player) {
        match self.sheets.get_mut(self.len) {
            Some(buffer) => buffer.clone_from(sheet),
            None => self.sheets.push(sheet.clone()),
        }
        self.len += 1;
    }
}

/// Whether two sheets are one: the same turn, supplies and score, and the same boxes, items
/// and species.
fn same_sheet(a: &Player, b: &Player) -> bool {
    a.turns_taken == b.turns_taken
        && a.balls_thrown == b.balls_thrown
        && a.vp == b.vp
        && a.fills() == b.fills()
        && (a.bonus_grass, a.bonus_water, a.bonus_any)
            == (b.bonus_grass, b.bonus_water, b.bonus_any)
        && a.filled == b.filled
        && a.items == b.items
        && a.species == b.species
}

impl Planner {
    /// A planner that values positions with `values`, fitted to `rules`: the one its own
    /// model is fitted with.
    pub(crate) fn with_values(rules: &Rules, values: Arc<Values>) -> Planner {
        let mut planner = Planner {
            prepared_for: Some(rules.compilation),
            values: Some(Arc::new(values.dense(rules))),
            ..Planner::default()
        };
        planner.playout.prepare(rules);
        planner
    }

    fn values(&self) -> &Dense {
        self.values.as_deref().expect("a prepared planner")
    }

    /// What a sheet is worth: its VP and the VP still to come (none once the balls or the
    /// turns are spent: the game is over for the player).
    #[inline]
    fn worth(values: &Dense, rules: &Rules, player: &Player) -> f64 {
        let to_come = if player.balls_left(rules) == 0 || player.turns_left(rules) == 0 {
            0.0
        } else {
            values.of(rules, player)
        };
        f64::from(player.vp) + to_come
    }

    /// What the sheet is worth after `mv` on `player`'s, and all that follows from it.
    fn after(&mut self, rules: &Rules, player: &Player, mv: Move) -> f64 {
        let mut game = Game::scratch(rules, &mut self.scratch);
        game.play_move(player, mv, &mut self.playout);
        let worth = Self::worth(self.values(), rules, &game.players[0]);
        game.keep(&mut self.scratch);
        worth
    }

    /// Where `player`'s sheet is among the misses worked out (after how many), with the
    /// sheets after as many more misses as there are throws to look ahead; worked out from
    /// it when it is not there.
    fn misses_from(&mut self, rules: &Rules, player: &Player) -> usize {
        let throws = (player.balls_left(rules) as usize).min(HORIZON);
        let misses = &mut self.misses;
        let found = misses.sheets[..misses.len]
            .iter()
            .position(|sheet| same_sheet(sheet, player));
        let from = found.unwrap_or_else(|| {
            misses.clear();
            misses.push(player);
            0
        });
        let mut game = Game::scratch(rules, &mut self.scratch);
        while misses.len <= from + throws {
            game.players[0].clone_from(&misses.sheets[misses.len - 1]);
            game.make_move(Move::Throw, &mut self.playout);
            game.players[0].balls_thrown += 1;
            misses.push(&game.players[0]);
        }
        game.keep(&mut self.scratch);
        let values = self.values.as_deref().expect("a prepared planner");
        while misses.worths.len() < misses.len {
            let sheet = &misses.sheets[misses.worths.len()];
            misses.worths.push(Self::worth(values, rules, sheet));
        }
        from
    }

    /// What catching `card` on a throw from the sheet after `k` misses adds over missing it:
    /// to the worth, and to the VP.
    fn catch_gain(&mut self, rules: &Rules, k: usize, card: usize) -> (f64, f64) {
        let misses = &self.misses;
        if let Some((.., gain)) = misses
            .catches
            .iter()
            .find(|(at, c, _)| (*at, *c) == (k, card))
        {
            return *gain;
        }
        let (sheet, missed) = (&misses.sheets[k], &misses.sheets[k + 1]);
        // A species collected before adds nothing unless a box its collection fills is
        // open: the catch leaves the sheet a miss leaves.
        let species = rules.cards[card].species;
        let gain = if sheet.species[species]
            && !rules.collect_boxes[species]
                .iter()
                .any(|b| sheet.can_fill(rules, *b))
        {
            (0.0, 0.0)
        } else {
            let values = self.values.as_deref().expect("a prepared planner");
            let mut game = Game::scratch(rules, &mut self.scratch);
            game.play_move(sheet, Move::Catch(card), &mut self.playout);
            game.players[0].balls_thrown += 1;
            let caught = &game.players[0];
            let gain = (
                Self::worth(values, rules, caught) - misses.worths[k + 1],
                f64::from(caught.vp) - f64::from(missed.vp),
            );
            game.keep(&mut self.scratch);
            gain
        };
        self.misses.catches.push((k, card, gain));
        gain
    }

    /// What throwing at `card` is worth from `player`'s sheet, the throw catching with
    /// chance `first` and any after it with `chance`.
    fn throwing(
        &mut self,
        rules: &Rules,
        player: &Player,
        card: usize,
        first: f64,
        chance: f64,
    ) -> f64 {
        let from = self.misses_from(rules, player);
        let throws = (player.balls_left(rules) as usize).min(HORIZON);
        if throws == 0 {
            return self.misses.worths[from];
        }
        let gain = self.catch_gain(rules, from, card);
        let balls = player.balls_left(rules) as usize;
        throws_worth(
            &self.misses.worths[from..=from + throws],
            balls,
            gain,
            first,
            chance,
        )
    }
}

/// What throwing at a card is worth: `worths` the worths of the sheet after 0, 1, 2.. misses,
/// `balls` the balls left, `gain` what a catch adds over a miss (to the worth, and to the VP),
/// the throw catching with chance `first` and any after it with `chance`. After each miss
/// the player throws again if that is worth more than letting the card go, which is worked
/// back from the last throw looked ahead.
fn throws_worth(worths: &[f64], balls: usize, gain: (f64, f64), first: f64, chance: f64) -> f64 {
    let throws = worths.len() - 1;
    // The last ball ends the game: a catch with it adds its VP and nothing to come.
    let caught = |k: usize| worths[k] + if k == balls { gain.1 } else { gain.0 };
    // What the sheet after k misses is worth, throwing on while it pays.
    let mut missed = worths[throws];
    for k in (1..throws).rev() {
        let again = chance * caught(k + 1) + (1.0 - chance) * missed;
        missed = again.max(worths[k]);
    }
    first * caught(1) + (1.0 - first) * missed
}

impl Policy for Planner {
    fn name(&self) -> &'static str {
        "planner"
    }

    fn prepare(&mut self, rules: &Rules) {
        if self.prepared_for != Some(rules.compilation) {
            self.values = Some(Arc::new(Values::for_planner(rules).dense(rules)));
            self.prepared_for = Some(rules.compilation);
            self.misses = Misses::default();
        }
        self.playout.prepare(rules);
    }

    fn begin_turn(&mut self) {
        self.playout.begin_turn();
        self.misses.clear();
    }

    fn choose(
        &mut self,
        view: &View,
        decision: Decision,
        choices: Choices,
        rng: &mut Pcg64Mcg,
    ) -> usize {
        self.prepare(view.rules);
        if decision == Decision::Reroll {
            return self.playout.choose(view, decision, choices, rng);
        }
        if decision == Decision::Repel {
            return self.playout.choose(view, decision, choices, rng);
        }
        let (rules, player) = (view.rules, view.player);
        let now = Self::worth(self.values(), rules, player);
        let mut best = (f64::MIN, 0);
        for (i, choice) in choices.iter().enumerate() {
            let worth = match choice {
                Choice::Track(t) => match player.next_box(t as usize) {
                    Some(b) => self.after(rules, player, Move::Face(b)),
                    None => now,
                },
                Choice::Box(b) => self.after(rules, player, Move::Face(b as usize)),
                Choice::Use(item) => self.after(rules, player, Move::Use(item as usize)),
                Choice::Card(c) => match view.drawn.get(c as usize) {
                    Some(&card) => {
                        let chance = player.catch_chance(rules, card);
                        self.throwing(rules, player, card, chance, chance)
                    }
                    None => now,
                },
                Choice::Throw => match view.target {
                    Some(card) => {
                        // The Poké Doll's lock, once spent, changes this throw's chance.
                        let chance = player.catch_chance(rules, card);
                        let first = match view.stage {
                            Stage::Throwing { lock: Some(_), .. } => view.catch_chance,
                            _ => chance,
                        };
                        self.throwing(rules, player, card, first, chance)
                    }
                    None => now,
                },
                Choice::Lock(die, value) => match view.target {
                    Some(card) => {
                        // The die stays kept for every throw of the encounter.
                        let kept = player.locked_catch_chance(rules, card, (die as usize, value));
                        self.throwing(rules, player, card, kept, kept)
                    }
                    None => now,
                },
                Choice::Stop | Choice::Reroll(_) => now,
            };
            if worth > best.0 + 1e-9 {
                best = (worth, i);
            }
        }
        best.1
    }

    fn choose_reroll(&mut self, view: &View, rerolls: Rerolls, rng: &mut Pcg64Mcg) -> Choice {
        self.prepare(view.rules);
        self.playout.choose_reroll(view, rerolls, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::Expected;

    #[test]
    fn a_sure_catch_is_worth_the_sheet_after_it() {
        // Worth 10 now, 9 after each miss; a catch adds 5 (3 VP with the last ball).
        let worths = [10.0, 9.0, 8.0, 7.0];
        assert_eq!(throws_worth(&worths, 10, (5.0, 3.0), 1.0, 1.0), 14.0);
        assert_eq!(throws_worth(&worths, 1, (5.0, 3.0), 1.0, 1.0), 12.0);
    }

    #[test]
    fn after_a_miss_it_throws_again_only_when_that_pays() {
        let worths = [10.0, 9.0, 8.0, 7.0];
        // A catch adds little: after a miss, the card is let go.
        let half = throws_worth(&worths, 10, (0.5, 0.5), 0.5, 0.5);
        assert_eq!(half, 0.5 * 9.5 + 0.5 * 9.0);
        // A catch adds much: throwing on after every miss, to the last throw looked ahead.
        let on = throws_worth(&worths, 10, (20.0, 20.0), 0.5, 0.5);
        let expected = 0.5 * 29.0 + 0.5 * (0.5 * 28.0 + 0.5 * (0.5 * 27.0 + 0.5 * 7.0));
        assert_eq!(on, expected);
    }

    #[test]
    fn its_dense_model_values_positions_as_the_model_does() {
        let rules = crate::load(include_bytes!("../tests/tiny.json")).expect("a ruleset");
        let values = Values::for_planner(&rules);
        let dense = values.dense(&rules);
        let mut policies = [Expected::default()];
        let mut game = Game::new(&rules, 1, 0);
        let mut positions = 0;
        for seed in 0..50 {
            game.restart(1, seed);
            policies[0].prepare(&rules);
            while game.players[0].out.is_none() {
                game.turn(0, &mut policies[0]);
                let player = &game.players[0];
                let (model, fast) = (values.of(&rules, player), dense.of(&rules, player));
                assert!((model - fast).abs() < 1e-9, "{model} against {fast}");
                positions += 1;
            }
        }
        assert!(positions > 100);
    }
}
