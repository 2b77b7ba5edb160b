//! Safari Zone RNW: the Field Guide's semantics and the checks that follow from them
//! (docs/rules.md sets down the rulings both this checker and the engine follow).

mod bounded;
mod budget;
mod evolutions;
mod explain;
pub mod graph;
mod reachability;
mod structure;
mod timing;

use crate::diag::Diagnostics;
use crate::model::{BoxId, Game};

pub const RULES: &str = "safari-zone-rnw";

/// Everything the checker derives about a game, for checks, tests and (later) the ruleset.
pub struct Analysis {
    pub graph: graph::Graph,
    pub reach: graph::Reach,
}

impl Analysis {
    pub fn of(game: &Game) -> Analysis {
        // Boxes found closed at every moment of their event are never filled; taking them
        // out may close others, so this repeats until nothing new is found (each round finds
        // at least one box, and a box once closed stays closed).
        let mut late = std::collections::HashMap::new();
        let mut budget = timing::Budget::default();
        loop {
            let graph = graph::Graph::build_with(game, late.clone());
            let reach = graph::fixpoint(&graph, game, &[]);
            let found = timing::late(game, &graph, &reach, &mut budget);
            if found.is_empty() {
                return Analysis { graph, reach };
            }
            late.extend(found.into_iter().map(|l| (l.r#box, l)));
        }
    }

    pub fn box_reachable(&self, b: BoxId) -> bool {
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
    let analysis = Analysis::of(game);
    reachability::check(game, &analysis, &mut diagnostics);
    budget::check(game, &analysis, &mut diagnostics);
    diagnostics
}
