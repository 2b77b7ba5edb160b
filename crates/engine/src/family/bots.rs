//! The bots every game of the family is played by, written once over [`Play`].
//!
//! - `random` takes any legal action.
//! - `greedy` takes the action after which its seat stands best, as [`Play::standing`]
//!   counts it, looking through the rest of its own turn; where the action meets something
//!   its seat cannot see (a face-down card), it averages over tables redrawn from what the
//!   seat has seen ([`Play::determinise`]).
//! - `search` is Monte Carlo tree search over redrawn tables (single-observer information
//!   set MCTS): each iteration redraws what its seat cannot see, walks one tree of actions
//!   shared by every redrawing (choosing by UCB1 among the actions legal in that
//!   redrawing), plays the rest out ([`Play::playout`]: a game's quick guess, else at
//!   random) and counts who won. `search:N` runs N iterations.
//!
//! A bot draws on random numbers the caller gives it, so a seeded game plays the same.

use rand::RngExt;
use rand_pcg::Pcg64Mcg;

use super::Play;

/// A bot by name, as `sim --policy` and a page's seats name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bot {
    Random,
    Greedy,
    Search { iterations: u32 },
}

/// The names of the bots, for messages.
pub const NAMES: &[&str] = &["random", "greedy", "search", "search:N"];

/// Iterations of `search` when the name gives none.
pub const SEARCH_ITERATIONS: u32 = 1_000;
/// The most iterations a name may ask for.
pub const MOST_ITERATIONS: u32 = 100_000;
/// Tables redrawn per action by `greedy`.
const GREEDY_SAMPLES: usize = 6;
/// UCB1's exploration constant, for rewards from 0 to 1.
const EXPLORATION: f64 = 0.7;
/// How much of a playout's reward is the win; the rest is the margin, up to
/// `MARGIN_SCALE / 2` points either way.
const WIN_WEIGHT: f64 = 0.8;
const MARGIN_SCALE: f64 = 40.0;
/// Actions a playout takes at most before it is scored as it stands: every game of the
/// family ends far sooner, so this only guards a broken ruleset from hanging a bot.
const MOST_PLAYOUT: usize = 10_000;

impl Bot {
    pub fn by_name(name: &str) -> Option<Bot> {
        match name {
            "random" => Some(Bot::Random),
            "greedy" => Some(Bot::Greedy),
            "search" => Some(Bot::Search {
                iterations: SEARCH_ITERATIONS,
            }),
            _ => {
                let digits = name.strip_prefix("search:")?;
                if digits.is_empty()
                    || !digits.bytes().all(|b| b.is_ascii_digit())
                    || digits.len() > 6
                {
                    return None;
                }
                let iterations: u32 = digits.parse().ok()?;
                (1..=MOST_ITERATIONS)
                    .contains(&iterations)
                    .then_some(Bot::Search { iterations })
            }
        }
    }

    /// The action this bot takes for the seat to move. The game must not be over.
    pub fn choose<G: Play>(&self, game: &G, rng: &mut Pcg64Mcg) -> G::Action {
        let mut legal = Vec::new();
        game.legal(&mut legal);
        assert!(!legal.is_empty(), "a game not over offers an action");
        if legal.len() == 1 {
            return legal[0];
        }
        match self {
            Bot::Random => legal[rng.random_range(0..legal.len())],
            Bot::Greedy => greedy(game, &legal, rng),
            Bot::Search { iterations } => search(game, &legal, *iterations, rng),
        }
    }
}

fn greedy<G: Play>(game: &G, legal: &[G::Action], rng: &mut Pcg64Mcg) -> G::Action {
    let seat = game.to_move().expect("the game is not over");
    let depth = game.lookahead();
    let tables: Vec<G> = (0..GREEDY_SAMPLES)
        .map(|_| game.determinise(seat, rng))
        .collect();
    let values: Vec<f64> = legal
        .iter()
        .map(|&action| {
            tables
                .iter()
                .map(|table| {
                    let mut after = table.clone();
                    after.apply(action);
                    best_of_turn(&after, seat, depth)
                })
                .sum::<f64>()
                / tables.len() as f64
        })
        .collect();
    // The best actions, equal within rounding; any legal one if no value is a number.
    let top = values
        .iter()
        .copied()
        .filter(|v| !v.is_nan())
        .fold(f64::NEG_INFINITY, f64::max);
    let tolerance = 1e-9 * top.abs().max(1.0);
    let best: Vec<G::Action> = legal
        .iter()
        .zip(&values)
        .filter(|(_, v)| **v >= top - tolerance)
        .map(|(a, _)| *a)
        .collect();
    let from = if best.is_empty() { legal } else { &best };
    from[rng.random_range(0..from.len())]
}

/// How well `seat` can stand by the end of its turn from here, looking `depth` actions on.
fn best_of_turn<G: Play>(game: &G, seat: usize, depth: u32) -> f64 {
    let mut best = f64::NEG_INFINITY;
    let mut open = vec![(game.clone(), depth)];
    let mut legal = Vec::new();
    while let Some((table, depth)) = open.pop() {
        legal.clear();
        if depth > 0 && table.to_move() == Some(seat) {
            table.legal(&mut legal);
        }
        if legal.is_empty() {
            best = best.max(table.standing(seat));
            continue;
        }
        for &action in &legal {
            let mut after = table.clone();
            after.apply(action);
            open.push((after, depth - 1));
        }
    }
    best
}

struct Node<A> {
    /// The action that led here, and the seat that took it.
    action: Option<(A, usize)>,
    visits: u32,
    /// Iterations in which this node's action was legal where its parent stood.
    available: u32,
    /// Wins of the seat that took the action, a shared win counted in part.
    reward: f64,
    children: Vec<usize>,
}

fn search<G: Play>(
    game: &G,
    legal: &[G::Action],
    iterations: u32,
    rng: &mut Pcg64Mcg,
) -> G::Action {
    let me = game.to_move().expect("the game is not over");
    let mut nodes: Vec<Node<G::Action>> = vec![Node {
        action: None,
        visits: 0,
        available: 0,
        reward: 0.0,
        children: Vec::new(),
    }];
    let mut actions = Vec::new();
    let mut path = Vec::new();
    for _ in 0..iterations {
        let mut table = game.determinise(me, rng);
        let mut at = 0;
        path.clear();
        path.push(0);
        // Down the tree while every legal action has been tried; then one new node.
        while let Some(seat) = table.to_move() {
            actions.clear();
            table.legal(&mut actions);
            let mut untried: Vec<G::Action> = Vec::new();
            let mut best: Option<(f64, usize)> = None;
            for &action in &actions {
                let child = nodes[at]
                    .children
                    .iter()
                    .copied()
                    .find(|&c| nodes[c].action.map(|(a, _)| a) == Some(action));
                match child {
                    None => untried.push(action),
                    Some(child) => {
                        nodes[child].available += 1;
                        let node = &nodes[child];
                        let score = node.reward / f64::from(node.visits)
                            + EXPLORATION
                                * (f64::from(node.available).ln() / f64::from(node.visits)).sqrt();
                        if best.is_none_or(|(b, _)| score > b) {
                            best = Some((score, child));
                        }
                    }
                }
            }
            if !untried.is_empty() {
                let action = untried[rng.random_range(0..untried.len())];
                nodes.push(Node {
                    action: Some((action, seat)),
                    visits: 0,
                    available: 1,
                    reward: 0.0,
                    children: Vec::new(),
                });
                let child = nodes.len() - 1;
                nodes[at].children.push(child);
                table.apply(action);
                path.push(child);
                break;
            }
            let (_, child) = best.expect("an action was legal");
            table.apply(nodes[child].action.expect("a child has its action").0);
            path.push(child);
            at = child;
        }
        // The rest as the game's playout plays it.
        let mut steps = 0;
        while table.to_move().is_some() && steps < MOST_PLAYOUT {
            actions.clear();
            table.legal(&mut actions);
            let action = table.playout(&actions, rng);
            table.apply(action);
            steps += 1;
        }
        let shares = shares(&table);
        for &node in &path {
            let node = &mut nodes[node];
            node.visits += 1;
            if let Some((_, seat)) = node.action {
                node.reward += shares[seat];
            }
        }
    }
    let root = &nodes[0];
    let chosen = root
        .children
        .iter()
        .filter(|&&c| legal.contains(&nodes[c].action.expect("a child has its action").0))
        .max_by_key(|&&c| nodes[c].visits)
        .copied();
    match chosen {
        Some(child) => nodes[child].action.expect("a child has its action").0,
        None => legal[0],
    }
}

/// Each seat's reward from a playout: mostly its share of the win (the winners split 1), and
/// a little for its margin over the best other seat, so that among moves that win (or lose)
/// alike the search prefers the wider margin. A game cut short counts its standings.
fn shares<G: Play>(table: &G) -> Vec<f64> {
    let seats = table.seats();
    let (winners, scores) = match table.outcome() {
        Some(outcome) => (
            outcome.winners,
            outcome.scores.iter().map(|&s| s as f64).collect(),
        ),
        None => {
            let standings: Vec<f64> = (0..seats).map(|s| table.standing(s)).collect();
            let best = standings.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            (
                (0..seats).filter(|&s| standings[s] == best).collect(),
                standings,
            )
        }
    };
    let mut shares = vec![0.0; seats];
    for &seat in &winners {
        shares[seat] = WIN_WEIGHT / winners.len() as f64;
    }
    for (seat, share) in shares.iter_mut().enumerate() {
        let best_other = (0..seats)
            .filter(|&s| s != seat)
            .map(|s| scores[s])
            .fold(f64::NEG_INFINITY, f64::max);
        let margin = if best_other.is_finite() {
            scores[seat] - best_other
        } else {
            0.0
        };
        *share += (1.0 - WIN_WEIGHT) * (0.5 + (margin / MARGIN_SCALE).clamp(-0.5, 0.5));
    }
    shares
}
