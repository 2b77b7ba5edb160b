//! Sums over games, kept while playing and merged across threads.

use crate::safari_zone::engine::{Game, OutReason, Rules};

use super::report::Sample;

/// Player-games whose sheets are kept whole for the findings: enough for rates of a few
/// percent to show, few enough that a million-game run stays small.
pub(crate) const SAMPLED_PLAYER_GAMES: u64 = 50_000;

#[derive(Debug, Clone, Default)]
pub(crate) struct SeatTotals {
    pub scores: Vec<u32>,
    pub wins: f64,
    pub wins_squared: f64,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct PositionTotals {
    pub wins: f64,
    pub wins_squared: f64,
    pub vp: u64,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct Totals {
    pub scores: Vec<u32>,
    pub lengths: Vec<u32>,
    /// Sum over player-games of VP at the end of turn t (a player who is out keeps their VP).
    pub vp_by_turn: Vec<u64>,
    pub ended_by_turns: u64,
    pub ended_by_balls: u64,
    /// Turns taken by the players who ran out of balls.
    pub balls_out_turns: u64,
    pub turns: u64,
    pub busts: u64,
    pub idle_turns: u64,
    pub box_fills: Vec<u64>,
    /// Sum of the turns each box was filled on.
    pub box_turns: Vec<u64>,
    pub encounters: Vec<u64>,
    pub throws: Vec<u64>,
    pub catches: Vec<u64>,
    pub species: Vec<u64>,
    pub items: Vec<u64>,
    pub uses: Vec<u64>,
    /// By seat, as listed.
    pub seats: Vec<SeatTotals>,
    /// By place in turn order.
    pub positions: Vec<PositionTotals>,
    pub samples: Vec<Sample>,
    /// The turn the target box was filled on, per player-game (0: never).
    pub target_turns: Vec<u16>,
}

fn add(into: &mut [u64], values: impl Iterator<Item = u64>) {
    for (slot, value) in into.iter_mut().zip(values) {
        *slot += value;
    }
}

impl Totals {
    pub fn new(rules: &Rules, players: usize) -> Totals {
        Totals {
            vp_by_turn: vec![0; rules.turns as usize],
            box_fills: vec![0; rules.boxes.len()],
            box_turns: vec![0; rules.boxes.len()],
            encounters: vec![0; rules.cards.len()],
            throws: vec![0; rules.cards.len()],
            catches: vec![0; rules.cards.len()],
            species: vec![0; rules.species.len()],
            items: vec![0; rules.items.len()],
            uses: vec![0; rules.items.len()],
            seats: vec![SeatTotals::default(); players],
            positions: vec![PositionTotals::default(); players],
            ..Totals::default()
        }
    }

    /// Adds game `index`, whose player at place `k` in turn order holds seat
    /// `(k + rotation) % players`, won by `winners` (places in turn order).
    pub(crate) fn add_game(
        &mut self,
        game: &Game,
        index: u64,
        rotation: usize,
        winners: &[usize],
        target: Option<usize>,
    ) {
        let players = game.players.len();
        let share = 1.0 / winners.len().max(1) as f64;
        for (k, player) in game.players.iter().enumerate() {
            let won = if winners.contains(&k) { share } else { 0.0 };
            let seat = &mut self.seats[(k + rotation) % players];
            seat.scores.push(player.vp);
            seat.wins += won;
            seat.wins_squared += won * won;
            let position = &mut self.positions[k];
            position.wins += won;
            position.wins_squared += won * won;
            position.vp += player.vp as u64;

            self.scores.push(player.vp);
            for (t, slot) in self.vp_by_turn.iter_mut().enumerate() {
                *slot += player
                    .history
                    .get(t)
                    .or(player.history.last())
                    .copied()
                    .unwrap_or(0) as u64;
            }
            self.lengths.push(player.turns_taken);
            match player.out {
                Some(OutReason::Balls) => {
                    self.ended_by_balls += 1;
                    self.balls_out_turns += player.turns_taken as u64;
                }
                _ => self.ended_by_turns += 1,
            }
            self.turns += player.turns_taken as u64;
            self.busts += player.busts as u64;
            self.idle_turns += player.idle_turns as u64;
            add(&mut self.box_fills, player.filled.iter().map(|f| *f as u64));
            add(
                &mut self.box_turns,
                player.filled_on.iter().map(|t| *t as u64),
            );
            add(&mut self.species, player.species.iter().map(|f| *f as u64));
            add(&mut self.items, player.items.iter().map(|f| *f as u64));
            add(&mut self.uses, player.uses.iter().map(|u| *u as u64));
            if let Some(b) = target {
                self.target_turns.push(player.filled_on[b]);
            }
            if index * (players as u64) < SAMPLED_PLAYER_GAMES {
                self.samples
                    .push(sample(player, index, k, (k + rotation) % players));
            }
        }
        add(
            &mut self.encounters,
            game.tally.encounters.iter().map(|n| *n as u64),
        );
        add(
            &mut self.throws,
            game.tally.throws.iter().map(|n| *n as u64),
        );
        add(
            &mut self.catches,
            game.tally.catches.iter().map(|n| *n as u64),
        );
    }

    pub(crate) fn merge(mut self, other: Totals) -> Totals {
        self.scores.extend(other.scores);
        self.lengths.extend(other.lengths);
        self.ended_by_turns += other.ended_by_turns;
        self.ended_by_balls += other.ended_by_balls;
        self.balls_out_turns += other.balls_out_turns;
        self.turns += other.turns;
        self.busts += other.busts;
        self.idle_turns += other.idle_turns;
        for (a, b) in [
            (&mut self.vp_by_turn, other.vp_by_turn),
            (&mut self.box_fills, other.box_fills),
            (&mut self.box_turns, other.box_turns),
            (&mut self.encounters, other.encounters),
            (&mut self.throws, other.throws),
            (&mut self.catches, other.catches),
            (&mut self.species, other.species),
            (&mut self.items, other.items),
            (&mut self.uses, other.uses),
        ] {
            add(a, b.into_iter());
        }
        for (a, b) in self.seats.iter_mut().zip(other.seats) {
            a.scores.extend(b.scores);
            a.wins += b.wins;
            a.wins_squared += b.wins_squared;
        }
        for (a, b) in self.positions.iter_mut().zip(other.positions) {
            a.wins += b.wins;
            a.wins_squared += b.wins_squared;
            a.vp += b.vp;
        }
        self.samples.extend(other.samples);
        self.target_turns.extend(other.target_turns);
        self
    }
}

/// A player's sheet as bits: boxes filled, items held, species collected.
fn sample(
    player: &crate::safari_zone::engine::Player,
    game: u64,
    position: usize,
    seat: usize,
) -> Sample {
    let flags = player
        .filled
        .iter()
        .chain(&player.items)
        .chain(&player.species);
    let mut bits =
        vec![0u64; (player.filled.len() + player.items.len() + player.species.len()).div_ceil(64)];
    for (i, set) in flags.enumerate() {
        bits[i / 64] |= (*set as u64) << (i % 64);
    }
    Sample {
        game,
        position: position as u32,
        seat: seat as u32,
        vp: player.vp,
        turns: player.turns_taken,
        bits: bits.into_boxed_slice(),
    }
}
