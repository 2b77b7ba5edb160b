//! Simulation: many seeded games of one ruleset, and what they say about how it plays.
//!
//! Games run in parallel (rayon), each with its own seed derived from the run's seed and the
//! game's index, so a run gives the same report on any number of cores.

use rayon::prelude::*;
use serde::Serialize;

use crate::engine::{Game, OutReason, Rules, policy};

/// The policy `sim` and `diff` play when none is named: the strongest of the fast ones.
pub const DEFAULT_POLICY: &str = "expected";
/// Games per policy when no count is given: enough for a 95% interval of about ±1 VP.
pub const DEFAULT_GAMES: u64 = 2000;

/// The seed of one game of a run.
pub fn game_seed(seed: u64, game: u64) -> u64 {
    // SplitMix64 of the pair: neighbouring games get unrelated seeds.
    let mut z = seed ^ game.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Sums over games, merged across threads.
#[derive(Debug, Clone, Default)]
struct Totals {
    scores: Vec<u32>,
    lengths: Vec<u32>,
    /// Sum over player-games of VP at the end of turn t (a player who is out keeps their VP).
    vp_by_turn: Vec<u64>,
    ended_by_turns: u64,
    ended_by_balls: u64,
    box_fills: Vec<u64>,
    encounters: Vec<u64>,
    throws: Vec<u64>,
    catches: Vec<u64>,
    species: Vec<u64>,
    items: Vec<u64>,
    uses: Vec<u64>,
}

impl Totals {
    fn new(rules: &Rules) -> Totals {
        Totals {
            vp_by_turn: vec![0; rules.turns as usize],
            box_fills: vec![0; rules.boxes.len()],
            encounters: vec![0; rules.cards.len()],
            throws: vec![0; rules.cards.len()],
            catches: vec![0; rules.cards.len()],
            species: vec![0; rules.species.len()],
            items: vec![0; rules.items.len()],
            uses: vec![0; rules.items.len()],
            ..Totals::default()
        }
    }

    fn add_game(&mut self, game: &Game) {
        for player in &game.players {
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
                Some(OutReason::Balls) => self.ended_by_balls += 1,
                _ => self.ended_by_turns += 1,
            }
            add(&mut self.box_fills, player.filled.iter().map(|f| *f as u64));
            add(&mut self.species, player.species.iter().map(|f| *f as u64));
            add(&mut self.items, player.items.iter().map(|f| *f as u64));
            add(&mut self.uses, player.uses.iter().map(|u| *u as u64));
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

    fn merge(mut self, other: Totals) -> Totals {
        self.scores.extend(other.scores);
        self.lengths.extend(other.lengths);
        self.ended_by_turns += other.ended_by_turns;
        self.ended_by_balls += other.ended_by_balls;
        for (a, b) in [
            (&mut self.vp_by_turn, other.vp_by_turn),
            (&mut self.box_fills, other.box_fills),
            (&mut self.encounters, other.encounters),
            (&mut self.throws, other.throws),
            (&mut self.catches, other.catches),
            (&mut self.species, other.species),
            (&mut self.items, other.items),
            (&mut self.uses, other.uses),
        ] {
            add(a, b.into_iter());
        }
        self
    }
}

fn add(into: &mut [u64], values: impl Iterator<Item = u64>) {
    for (slot, value) in into.iter_mut().zip(values) {
        *slot += value;
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Distribution {
    pub mean: f64,
    pub median: f64,
    pub p10: f64,
    pub p90: f64,
    /// 95% confidence interval of the mean (normal approximation).
    pub ci95: [f64; 2],
    pub min: u32,
    pub max: u32,
}

impl Distribution {
    fn of(values: &mut [u32]) -> Distribution {
        values.sort_unstable();
        let n = values.len().max(1) as f64;
        let mean = values.iter().map(|v| *v as f64).sum::<f64>() / n;
        let variance = values
            .iter()
            .map(|v| (*v as f64 - mean).powi(2))
            .sum::<f64>()
            / (n - 1.0).max(1.0);
        let half = 1.96 * (variance / n).sqrt();
        let at = |q: f64| {
            values
                .get(((values.len().max(1) - 1) as f64 * q).round() as usize)
                .copied()
                .unwrap_or(0) as f64
        };
        Distribution {
            mean,
            median: at(0.5),
            p10: at(0.1),
            p90: at(0.9),
            ci95: [mean - half, mean + half],
            min: values.first().copied().unwrap_or(0),
            max: values.last().copied().unwrap_or(0),
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct BoxStat {
    pub id: String,
    /// Share of player-games in which it was filled.
    pub fill_rate: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct CardStat {
    pub id: String,
    pub species: String,
    pub capture_rate: u32,
    /// Encounters per game (all players).
    pub encounters_per_game: f64,
    /// Catches per throw at it.
    pub catch_rate: f64,
    pub throws: u64,
    pub catches: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct SpeciesStat {
    pub id: String,
    /// Share of player-games in which the player collected it (caught, evolved or given).
    pub collected: f64,
    /// Encounters of its cards per game (all players).
    pub encounters_per_game: f64,
    /// Catches per throw at its cards.
    pub catch_rate: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct ItemStat {
    pub id: String,
    pub obtained: f64,
    pub uses_per_game: f64,
}

/// What a simulation run found.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub game: String,
    pub policy: String,
    pub games: u64,
    pub players: usize,
    pub seed: u64,
    pub vp: Distribution,
    /// Turns each player took.
    pub length: Distribution,
    /// Share of players whose game ended by running out of turns, and of balls.
    pub ended_by_turns: f64,
    pub ended_by_balls: f64,
    /// Mean VP at the end of each turn.
    pub vp_by_turn: Vec<f64>,
    /// Every player-game's final VP, for histograms.
    #[serde(skip)]
    pub scores: Vec<u32>,
    /// Every player-game's turns taken.
    #[serde(skip)]
    pub lengths: Vec<u32>,
    pub boxes: Vec<BoxStat>,
    pub cards: Vec<CardStat>,
    pub species: Vec<SpeciesStat>,
    pub items: Vec<ItemStat>,
}

/// One simulation's games, before any is played.
struct Run<'a> {
    rules: &'a Rules,
    games: u64,
    players: usize,
    seed: u64,
    progress: &'a (dyn Fn(u64) + Sync),
}

impl Run<'_> {
    /// Plays every game, each player with a policy made by `policy`, and sums what they show.
    fn totals<P: policy::Policy>(&self, policy: impl Fn() -> P + Sync) -> Totals {
        let (rules, players) = (self.rules, self.players);
        (0..self.games)
            .into_par_iter()
            .fold(
                || {
                    // One set of policies and one game per batch of games: policies hold no
                    // state between games beyond what they work out from the rules, and a
                    // restarted game is a new one that keeps its buffers.
                    let policies: Vec<P> = (0..players).map(|_| policy()).collect();
                    (Totals::new(rules), (policies, Game::new(rules, players, 0)))
                },
                |(mut totals, (mut policies, mut game)), g| {
                    game.restart(players, game_seed(self.seed, g));
                    game.play(&mut policies);
                    totals.add_game(&game);
                    (self.progress)(1);
                    (totals, (policies, game))
                },
            )
            .map(|(totals, _)| totals)
            .reduce(|| Totals::new(rules), Totals::merge)
    }
}

/// Plays `games` games of `players` players, all with `policy_name`.
pub fn simulate(
    rules: &Rules,
    policy_name: &str,
    games: u64,
    players: usize,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Report {
    // Each policy plays in its own copy of the engine, so no decision dispatches on which
    // policy is deciding.
    let run = Run {
        rules,
        games,
        players,
        seed,
        progress,
    };
    let totals = match policy::by_name(policy_name).expect("a known policy") {
        policy::Builtin::Random(policy) => run.totals(|| policy.clone()),
        policy::Builtin::Greedy(policy) => run.totals(|| policy.clone()),
        policy::Builtin::Expected(policy) => run.totals(|| policy.clone()),
        policy::Builtin::Search(policy) => run.totals(|| policy.clone()),
    };
    let player_games = (games * players as u64).max(1) as f64;
    let games_f = games.max(1) as f64;
    let mut totals = totals;
    Report {
        game: rules.name.clone(),
        policy: policy_name.to_string(),
        games,
        players,
        seed,
        vp: Distribution::of(&mut totals.scores),
        length: Distribution::of(&mut totals.lengths),
        vp_by_turn: totals
            .vp_by_turn
            .iter()
            .map(|v| *v as f64 / player_games)
            .collect(),
        ended_by_turns: totals.ended_by_turns as f64 / player_games,
        ended_by_balls: totals.ended_by_balls as f64 / player_games,
        boxes: rules
            .box_ids
            .iter()
            .zip(&totals.box_fills)
            .map(|(id, n)| BoxStat {
                id: id.clone(),
                fill_rate: *n as f64 / player_games,
            })
            .collect(),
        cards: rules
            .cards
            .iter()
            .enumerate()
            .map(|(c, card)| CardStat {
                id: card.id.clone(),
                species: rules.species[card.species].clone(),
                capture_rate: card.capture_rate,
                encounters_per_game: totals.encounters[c] as f64 / games_f,
                catch_rate: totals.catches[c] as f64 / totals.throws[c].max(1) as f64,
                throws: totals.throws[c],
                catches: totals.catches[c],
            })
            .collect(),
        species: rules
            .species
            .iter()
            .enumerate()
            .map(|(s, id)| {
                let cards = || (0..rules.cards.len()).filter(move |c| rules.cards[*c].species == s);
                let sum = |counts: &[u64]| cards().map(|c| counts[c]).sum::<u64>();
                SpeciesStat {
                    id: id.clone(),
                    collected: totals.species[s] as f64 / player_games,
                    encounters_per_game: sum(&totals.encounters) as f64 / games_f,
                    catch_rate: sum(&totals.catches) as f64 / sum(&totals.throws).max(1) as f64,
                }
            })
            .collect(),
        items: rules
            .items
            .iter()
            .enumerate()
            .map(|(i, item)| ItemStat {
                id: item.id.clone(),
                obtained: totals.items[i] as f64 / player_games,
                uses_per_game: totals.uses[i] as f64 / player_games,
            })
            .collect(),
        scores: totals.scores,
        lengths: totals.lengths,
    }
}

/// The report as a terminal table.
pub fn render(reports: &[Report]) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "{:<10} {:>8} {:>8} {:>8} {:>8} {:>8} {:>17} {:>8} {:>8}\n",
        "policy", "games", "VP mean", "median", "p10", "p90", "95% CI", "turns", "by balls"
    ));
    for r in reports {
        out.push_str(&format!(
            "{:<10} {:>8} {:>8.1} {:>8.0} {:>8.0} {:>8.0} {:>8.1}-{:<8.1} {:>8.1} {:>7.0}%\n",
            r.policy,
            r.games,
            r.vp.mean,
            r.vp.median,
            r.vp.p10,
            r.vp.p90,
            r.vp.ci95[0],
            r.vp.ci95[1],
            r.length.mean,
            r.ended_by_balls * 100.0
        ));
    }
    if let Some(r) = reports.first() {
        let mut rare: Vec<&BoxStat> = r.boxes.iter().collect();
        rare.sort_by(|a, b| a.fill_rate.total_cmp(&b.fill_rate).then(a.id.cmp(&b.id)));
        out.push_str(&format!("\nleast filled boxes ({}):\n", r.policy));
        for b in rare.iter().take(8) {
            out.push_str(&format!("  {:<40} {:>6.1}%\n", b.id, b.fill_rate * 100.0));
        }
    }
    out
}

/// The charts of a run, as files for `<out>/<game>/sim/`: SVG and PNG of the VP histogram,
/// the game-length histogram and mean VP over turns, one colour per policy.
pub fn charts(reports: &[Report]) -> Result<Vec<(String, Vec<u8>)>, String> {
    use crate::charts::{Series, histogram, lines, png};
    let game = reports.first().map_or("", |r| r.game.as_str());
    let series = |pick: fn(&Report) -> &[u32]| -> Vec<Series> {
        reports
            .iter()
            .map(|r| Series {
                name: &r.policy,
                values: pick(r),
            })
            .collect()
    };
    let svgs = [
        (
            "vp-histogram",
            histogram(
                &format!("{game}: final VP"),
                "victory points",
                &series(|r| &r.scores),
                5,
            ),
        ),
        (
            "length-histogram",
            histogram(
                &format!("{game}: turns played"),
                "turns",
                &series(|r| &r.lengths),
                1,
            ),
        ),
        (
            "vp-over-turns",
            lines(
                &format!("{game}: mean VP after each turn"),
                "victory points",
                &reports
                    .iter()
                    .map(|r| (r.policy.as_str(), r.vp_by_turn.as_slice()))
                    .collect::<Vec<_>>(),
            ),
        ),
    ];
    let mut files = Vec::new();
    for (name, svg) in svgs {
        files.push((format!("{name}.png"), png(&svg)?));
        files.push((format!("{name}.svg"), svg.into_bytes()));
    }
    Ok(files)
}
