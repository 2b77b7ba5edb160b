//! Safari Zone RNW: the Field Guide's semantics and the checks that follow from them
//! (docs/rules.md sets down the rulings both this checker and the engine follow), its outputs,
//! and the engine that plays it (`engine`), with the simulations (`sim`) and the comparison of
//! two versions (`diff`) built on it.

mod bounded;
mod budget;
pub mod build;
pub mod diff;
/// The rules engine, a crate of its own (`crates/engine`): the playtest page runs it too.
pub use safari_engine as engine;
mod evolutions;
mod explain;
pub mod exports;
pub mod formats;
pub mod graph;
pub mod load;
pub mod model;
pub mod module;
mod play;
pub mod playtest;
pub mod playtests;
pub mod print;
pub(crate) mod purpose;
mod reachability;
pub mod ruleset;
pub mod sheet;
pub mod sim;
mod structure;
pub mod template_data;
pub mod terms;
pub mod tts;

use crate::diag::Diagnostics;
use model::{BoxId, Game};

pub const RULES: &str = "safari-zone-rnw";

/// Everything the checker derives about a game, for checks, tests and (later) the ruleset.
pub struct Analysis {
    pub graph: graph::Graph,
    pub reach: graph::Reach,
    /// Whether the verdicts are exact: every order of play was tried, or order cannot matter.
    /// When the guide is too large to try them all, boxes are called reachable as the
    /// fixpoint finds them, which may include a box no order of play fills (never the other
    /// way round).
    pub exact: bool,
}

impl Analysis {
    pub fn of(game: &Game) -> Analysis {
        let mut graph = graph::Graph::build(game);
        let mut reach = graph::fixpoint(&graph, game, &[]);
        // The boxes no order of play fills, on a guide small enough to play every order of.
        let Some(mut left) = play::never_filled(game, &graph, &reach) else {
            return Analysis {
                graph,
                reach,
                exact: false,
            };
        };
        // Each run of them is marked at its first box, which is reported; those after it
        // follow in the fixpoint. A box still called reachable after that (it needs one that
        // follows) starts a run of its own in the next round: each round marks at least one.
        let mut late = std::collections::HashSet::new();
        while !left.is_empty() {
            let first = |b: &BoxId| game.guide.previous(*b).is_none_or(|p| !left.contains(&p));
            let before = late.len();
            late.extend(left.iter().copied().filter(first));
            if late.len() == before {
                break;
            }
            graph = graph::Graph::build_with(game, late.clone());
            reach = graph::fixpoint(&graph, game, &[]);
            left.retain(|b| reach.of(graph.box_node[b.index()]));
        }
        Analysis {
            graph,
            reach,
            exact: true,
        }
    }

    pub(crate) fn box_reachable(&self, b: BoxId) -> bool {
        self.reach.of(self.graph.box_node[b.index()])
    }

    pub fn unreachable_boxes(&self, game: &Game) -> Vec<BoxId> {
        game.guide
            .box_ids()
            .filter(|b| !self.box_reachable(*b))
            .collect()
    }
}

pub fn check(game: &Game) -> Diagnostics {
    let mut diagnostics = Diagnostics::default();
    structure::check(game, &mut diagnostics);
    evolutions::check(game, &mut diagnostics);
    purpose::check(game, &mut diagnostics);
    let analysis = Analysis::of(game);
    reachability::check(game, &analysis, &mut diagnostics);
    budget::check(game, &analysis, &mut diagnostics);
    diagnostics
}
