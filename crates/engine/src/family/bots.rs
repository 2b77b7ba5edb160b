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
//! A ruleset can make a game run to the engine's limit of turns, or offer thousands of
//! actions a turn, so each move's work is bounded, counted in actions looked at (listed and
//! applied, and what the game counts besides: [`Play::work`]): `search:N` stops its
//! iterations, and a playout, at N × [`WORK_PER_ITERATION`], and `greedy` looks less far
//! through its turn past [`MOST_WORK`]. The rulebooks' games never reach the bounds; a move
//! that does says so ([`Decision::cut_short`]), and the page and `sim` pass it on.
//!
//! A bot draws on random numbers the caller gives it, so a seeded game plays the same.

use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;
use std::hash::BuildHasherDefault;

use rand::RngExt;
use rand_pcg::Pcg64Mcg;

use super::Play;
use super::ruleset::thousands;

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
/// What applying an action costs besides the actions listed, in actions listed: it copies and
/// changes a table, which takes about as long as listing eight actions.
pub(super) const STEP_WORK: u64 = 8;
/// The work `search` may do per iteration it is asked for, in actions looked at (listed and
/// applied, and what the game counts besides, [`Play::work`]): a move of `search:N` does at
/// most N times this, whatever the ruleset. An iteration of the rulebooks' games does at most
/// about 10,600 on average (the first moves of Swappin' Safari, whose playouts run 150 turns;
/// DiceAFARI's some 3,600), so this bound is reached only under rules whose games run far
/// longer (to the engine's limit of turns) or whose turns offer thousands of actions.
pub const WORK_PER_ITERATION: u64 = 15_000;
/// The work a move of `greedy` may do, as much as the default `search`'s: past it, greedy
/// weighs every action by the deepest look through its turn it finished for all of them.
pub const MOST_WORK: u64 = SEARCH_ITERATIONS as u64 * WORK_PER_ITERATION;

/// A bot's decision and what it cost.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision<A> {
    pub action: A,
    /// Actions looked at, as a bot counts its work (listed and applied, and [`Play::work`]).
    pub work: u64,
    /// Why the bot decided on less than it would have: it reached its bound of work.
    pub cut_short: Option<String>,
}

/// The work a bot has done this move and its bound.
struct Meter {
    done: u64,
    most: u64,
}

impl Meter {
    fn new(most: u64) -> Meter {
        Meter { done: 0, most }
    }

    fn spent(&self) -> bool {
        self.done >= self.most
    }

    /// One action applied to `table`, after `listed` legal actions were listed there: the
    /// listing, the action, and what the game counted doing it.
    fn step<G: Play>(&mut self, table: &mut G, action: G::Action, listed: usize) {
        let before = table.work();
        table.apply(action);
        self.done += STEP_WORK + listed as u64 + table.work().saturating_sub(before);
    }
}

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
        self.decide(game, rng).action
    }

    /// The action this bot takes for the seat to move, with the work it took and whether
    /// the bound of work cut the decision short. The game must not be over.
    pub fn decide<G: Play>(&self, game: &G, rng: &mut Pcg64Mcg) -> Decision<G::Action> {
        let mut legal = Vec::new();
        game.legal(&mut legal);
        assert!(!legal.is_empty(), "a game not over offers an action");
        let listed = legal.len() as u64;
        if legal.len() == 1 {
            return Decision {
                action: legal[0],
                work: listed,
                cut_short: None,
            };
        }
        match self {
            Bot::Random => Decision {
                action: legal[rng.random_range(0..legal.len())],
                work: listed,
                cut_short: None,
            },
            Bot::Greedy => greedy(game, &legal, rng),
            Bot::Search { iterations } => search(game, &legal, *iterations, rng),
        }
    }
}

fn greedy<G: Play>(game: &G, legal: &[G::Action], rng: &mut Pcg64Mcg) -> Decision<G::Action> {
    let seat = game.to_move().expect("the game is not over");
    let lookahead = game.lookahead();
    let tables: Vec<G> = (0..GREEDY_SAMPLES)
        .map(|_| game.determinise(seat, rng))
        .collect();
    let mut meter = Meter::new(MOST_WORK);
    meter.done += legal.len() as u64;
    // Looks one action further each pass, keeping the last pass finished for every action,
    // until the turn is seen through or the work runs out. The first pass, each action once
    // on each table, is always finished.
    let mut values = Vec::new();
    let mut cut_short = None;
    for depth in 0..=lookahead {
        match weigh(&tables, legal, seat, depth, &mut meter) {
            Some((weighed, further)) => {
                values = weighed;
                if !further {
                    break;
                }
            }
            None => {
                cut_short = Some(format!(
                    "it looked {} of {lookahead} actions ahead: a move's work is bounded",
                    depth - 1
                ));
                break;
            }
        }
    }
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
    Decision {
        action: from[rng.random_range(0..from.len())],
        work: meter.done,
        cut_short,
    }
}

/// Each action's value on average over `tables`, looking `depth` actions on through the
/// seat's turn, and whether some line of play was cut at that depth (a deeper look would see
/// more). `None` when the work ran out first; a look at depth 0 always finishes.
fn weigh<G: Play>(
    tables: &[G],
    legal: &[G::Action],
    seat: usize,
    depth: u32,
    meter: &mut Meter,
) -> Option<(Vec<f64>, bool)> {
    let mut further = false;
    let mut values = Vec::with_capacity(legal.len());
    for &action in legal {
        let mut sum = 0.0;
        for table in tables {
            let mut after = table.clone();
            meter.step(&mut after, action, 0);
            let (best, cut) = best_of_turn(&after, seat, depth, meter)?;
            sum += best;
            further |= cut;
        }
        values.push(sum / tables.len() as f64);
    }
    Some((values, further))
}

/// How well `seat` can stand by the end of its turn from here, looking `depth` actions on,
/// and whether the look stopped at that depth with the seat still to move. `None` when the
/// work ran out (a look at depth 0 needs none).
fn best_of_turn<G: Play>(
    game: &G,
    seat: usize,
    depth: u32,
    meter: &mut Meter,
) -> Option<(f64, bool)> {
    let mut best = f64::NEG_INFINITY;
    let mut further = false;
    let mut open = vec![(game.clone(), depth)];
    let mut legal = Vec::new();
    while let Some((table, depth)) = open.pop() {
        legal.clear();
        let seats_turn = table.to_move() == Some(seat);
        if depth > 0 && seats_turn {
            if meter.spent() {
                return None;
            }
            table.legal(&mut legal);
        }
        if legal.is_empty() {
            further |= depth == 0 && seats_turn;
            best = best.max(table.standing(seat));
            continue;
        }
        let listed = legal.len();
        for (i, &action) in legal.iter().enumerate() {
            let mut after = table.clone();
            meter.step(&mut after, action, if i == 0 { listed } else { 0 });
            open.push((after, depth - 1));
        }
    }
    Some((best, further))
}

/// Nodes' children by action, hashed alike on every platform.
type Children<A> = HashMap<A, usize, BuildHasherDefault<DefaultHasher>>;

struct Node<A> {
    /// The action that led here, and the seat that took it.
    action: Option<(A, usize)>,
    visits: u32,
    /// Iterations in which this node's action was legal where its parent stood.
    available: u32,
    /// Wins of the seat that took the action, a shared win counted in part.
    reward: f64,
    /// In the order they were first tried, and by action.
    children: Vec<usize>,
    by_action: Children<A>,
}

impl<A> Node<A> {
    fn new(action: Option<(A, usize)>, available: u32) -> Node<A> {
        Node {
            action,
            visits: 0,
            available,
            reward: 0.0,
            children: Vec::new(),
            by_action: Children::default(),
        }
    }
}

fn search<G: Play>(
    game: &G,
    legal: &[G::Action],
    iterations: u32,
    rng: &mut Pcg64Mcg,
) -> Decision<G::Action> {
    let me = game.to_move().expect("the game is not over");
    let mut nodes: Vec<Node<G::Action>> = vec![Node::new(None, 0)];
    let mut meter = Meter::new(u64::from(iterations) * WORK_PER_ITERATION);
    meter.done += legal.len() as u64;
    let mut actions = Vec::new();
    let mut path = Vec::new();
    let mut done = 0;
    while done < iterations && !meter.spent() {
        done += 1;
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
                match nodes[at].by_action.get(&action).copied() {
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
                nodes.push(Node::new(Some((action, seat)), 1));
                let child = nodes.len() - 1;
                nodes[at].children.push(child);
                nodes[at].by_action.insert(action, child);
                meter.step(&mut table, action, actions.len());
                path.push(child);
                break;
            }
            let (_, child) = best.expect("an action was legal");
            let action = nodes[child].action.expect("a child has its action").0;
            meter.step(&mut table, action, actions.len());
            path.push(child);
            at = child;
        }
        // The rest as the game's playout plays it, while the work allows: a playout cut short
        // is scored as the game stands.
        while table.to_move().is_some() && !meter.spent() {
            actions.clear();
            table.legal(&mut actions);
            let action = table.playout(&actions, rng);
            meter.step(&mut table, action, actions.len());
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
    let action = match chosen {
        Some(child) => nodes[child].action.expect("a child has its action").0,
        None => legal[0],
    };
    Decision {
        action,
        work: meter.done,
        cut_short: (done < iterations).then(|| {
            format!(
                "it searched {} of its {} playouts: a move's work is bounded",
                thousands(done.into()),
                thousands(iterations.into())
            )
        }),
    }
}

/// Each seat's reward from a playout: mostly its share of the win (the winners split 1), and
/// a little for its margin over the best other seat, so that among moves that win (or lose)
/// alike the search prefers the wider margin. A playout cut short counts its standings.
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
