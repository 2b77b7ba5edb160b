//! What a simulation run found, as `report.json` holds it (its schema is
//! `schema/sim-report.schema.json`).

use schemars::JsonSchema;
use serde::Serialize;

use super::findings::Finding;

/// `out/<game>/sim/report.json`: the findings first, then every run's numbers.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SimReport {
    pub game: String,
    pub seed: u64,
    /// What the runs say, in words, each with its numbers (docs/simulation.md).
    pub findings: Vec<Finding>,
    pub runs: Vec<Report>,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
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
    pub fn of(values: &mut [u32]) -> Distribution {
        values.sort_unstable();
        let n = values.len().max(1) as f64;
        let mean = values.iter().map(|v| *v as f64).sum::<f64>() / n;
        let variance = values
            .iter()
            .map(|v| (*v as f64 - mean).powi(2))
            .sum::<f64>()
            / (n - 1.0).max(1.0);
        let half = 1.96 * (variance / n).sqrt();
        Distribution {
            mean,
            median: quantile(values, 0.5),
            p10: quantile(values, 0.1),
            p90: quantile(values, 0.9),
            ci95: [mean - half, mean + half],
            min: values.first().copied().unwrap_or(0),
            max: values.last().copied().unwrap_or(0),
        }
    }
}

/// The value at quantile `q` of sorted values (0 when there are none).
pub(crate) fn quantile(sorted: &[u32], q: f64) -> f64 {
    sorted
        .get(((sorted.len().max(1) - 1) as f64 * q).round() as usize)
        .copied()
        .unwrap_or(0) as f64
}

/// A share of games with its 95% confidence interval.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
pub(crate) struct Rate {
    pub rate: f64,
    pub ci95: [f64; 2],
}

impl Rate {
    /// From the sum and the sum of squares of a per-game value in 0..=1 (a win, or a share of
    /// a shared win) over `n` games.
    pub fn of(sum: f64, sum_of_squares: f64, n: u64) -> Rate {
        let n = n.max(1) as f64;
        let mean = sum / n;
        let variance = ((sum_of_squares - n * mean * mean) / (n - 1.0).max(1.0)).max(0.0);
        let half = 1.96 * (variance / n).sqrt();
        Rate {
            rate: mean,
            ci95: [(mean - half).max(0.0), (mean + half).min(1.0)],
        }
    }
}

/// One seat at the table, as `--seats` lists them.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SeatStat {
    /// 1 for the first seat listed (the first player, unless seats rotate).
    pub seat: usize,
    pub policy: String,
    /// Games won, a shared victory counting as a share.
    pub win_rate: f64,
    pub win_rate_ci95: [f64; 2],
    /// The win rate above a fair share (1 / players), with its interval: how much this seat
    /// (its policy, and its place in turn order unless seats rotate) is worth.
    pub advantage: f64,
    pub advantage_ci95: [f64; 2],
    pub vp: Distribution,
}

/// One place in turn order, when seats rotate: the seat advantage with skill taken out.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct PositionStat {
    /// 1 for the first player.
    pub position: usize,
    pub win_rate: f64,
    pub win_rate_ci95: [f64; 2],
    pub advantage: f64,
    pub advantage_ci95: [f64; 2],
    pub mean_vp: f64,
}

/// One policy at a mixed table, over the seats it holds.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct PolicyStat {
    pub policy: String,
    pub seats: usize,
    /// Per seat it holds: games won, a shared victory counting as a share.
    pub win_rate: f64,
    pub vp: Distribution,
    /// Every player-game's final VP at the seats it holds, for histograms.
    #[serde(skip)]
    pub scores: Vec<u32>,
}

/// When the `target:BOX` policy filled its box.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct TargetStat {
    pub r#box: String,
    /// Share of player-games that filled it.
    pub filled: f64,
    /// The turn it was filled on: earliest, median and 90th percentile of the games that
    /// filled it (absent when none did).
    pub earliest: Option<u32>,
    pub median: Option<f64>,
    pub p90: Option<f64>,
    /// Share of player-games that never filled it.
    pub never: f64,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct BoxStat {
    pub id: String,
    /// Share of player-games in which it was filled.
    pub fill_rate: f64,
    /// The mean turn it was filled on, in the games that filled it.
    pub mean_turn: Option<f64>,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
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

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SpeciesStat {
    pub id: String,
    /// Share of player-games in which the player collected it (caught, evolved or given).
    pub collected: f64,
    /// Encounters of its cards per game (all players).
    pub encounters_per_game: f64,
    /// Catches per throw at its cards.
    pub catch_rate: f64,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ItemStat {
    pub id: String,
    pub obtained: f64,
    pub uses_per_game: f64,
}

/// One run: many games at one table.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Report {
    pub game: String,
    /// The run's name: its policy, or its seats' policies joined by commas.
    pub policy: String,
    pub games: u64,
    pub players: usize,
    pub seed: u64,
    /// Whether seat order rotated between games.
    pub rotate: bool,
    pub vp: Distribution,
    /// Turns each player took.
    pub length: Distribution,
    /// Share of players whose game ended by running out of turns, and of balls.
    pub ended_by_turns: f64,
    pub ended_by_balls: f64,
    /// Mean turns taken by the players who ran out of Safari Balls.
    pub balls_out_turn: Option<f64>,
    /// Share of turns taken that hazards ended.
    pub bust_rate: f64,
    /// Share of turns taken that filled nothing but their Turn Tracker box.
    pub idle_rate: f64,
    /// Mean VP at the end of each turn.
    pub vp_by_turn: Vec<f64>,
    pub seats: Vec<SeatStat>,
    /// Places in turn order, when seats rotate.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub positions: Vec<PositionStat>,
    /// Policies, at a table of several.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub policies: Vec<PolicyStat>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<TargetStat>,
    pub boxes: Vec<BoxStat>,
    pub cards: Vec<CardStat>,
    pub species: Vec<SpeciesStat>,
    pub items: Vec<ItemStat>,
    /// Every player-game's final VP, for histograms.
    #[serde(skip)]
    pub scores: Vec<u32>,
    /// Every player-game's turns taken.
    #[serde(skip)]
    pub lengths: Vec<u32>,
    /// What the first player-games filled and held, for the findings.
    #[serde(skip)]
    pub samples: Vec<Sample>,
    /// Per box, whether it counts turns or throws (a Turn Tracker or Safari Ball box): how
    /// long a game lasts, not something a player fills by choice.
    #[serde(skip)]
    pub counters: Vec<bool>,
}

/// One player-game, as the findings read it.
#[derive(Debug, Clone)]
pub struct Sample {
    pub game: u64,
    pub position: u32,
    /// The seat it held, 0-based as `--seats` lists them (its policy is that seat's).
    pub seat: u32,
    pub vp: u32,
    pub turns: u32,
    /// Boxes filled, then items held, then species collected: one bit each.
    pub bits: Box<[u64]>,
}

impl Sample {
    #[inline]
    pub fn has(&self, bit: usize) -> bool {
        self.bits[bit / 64] >> (bit % 64) & 1 == 1
    }
}
