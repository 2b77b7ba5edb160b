//! The turn budget: reachable boxes that even the best game cannot fill in time.
//!
//! A warning goes to each box whose own bound is too late (its die faces or its place in the
//! Turn Tracker); boxes that are late only because they wait on such a box are listed in its
//! warning rather than warned about again.

use super::Analysis;
use super::graph::{Earliest, Fact, Kind, NodeId, earliest_turns};
use super::model::*;
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::world::Origin;

pub fn check(game: &Game, analysis: &Analysis, diagnostics: &mut Diagnostics) {
    let Some(turns) = &game.manifest.turns else {
        return;
    };
    let graph = &analysis.graph;
    let earliest = earliest_turns(graph, game, &analysis.reach);
    let guide = &game.guide;
    // The first late box of each track, and the root it waits on.
    let mut roots: Vec<(NodeId, Vec<(BoxId, u32)>)> = Vec::new();
    for t in guide.track_ids() {
        let late = guide.track(t).boxes.iter().copied().find_map(|b| {
            let turn = earliest.turn[graph.box_node[b.index()].0 as usize]?;
            (turn > turns.value).then_some((b, turn))
        });
        let Some((b, turn)) = late else { continue };
        let mut root = binding_root(analysis, &earliest, graph.box_node[b.index()]);
        // A late box waiting on a later box of a late track belongs to that track's warning.
        if let Fact::Box(r) = graph.node(root).fact {
            let track = guide.track(guide.get(r).track);
            if let Some(head) = track.boxes.iter().find(|x| {
                earliest.turn[graph.box_node[x.index()].0 as usize].is_some_and(|t| t > turns.value)
            }) {
                root = graph.box_node[head.index()];
            }
        }
        match roots.iter_mut().find(|(r, _)| *r == root) {
            Some((_, list)) => list.push((b, turn)),
            None => roots.push((root, vec![(b, turn)])),
        }
    }
    for (root, late) in roots {
        diagnostics.push(warning(game, analysis, &earliest, turns, root, &late));
    }
}

/// Follows the dependency that sets a node's earliest turn down to what sets it by itself.
fn binding_root(analysis: &Analysis, earliest: &Earliest, start: NodeId) -> NodeId {
    let graph = &analysis.graph;
    let turn_of = |n: NodeId| earliest.turn[n.0 as usize];
    let mut at = start;
    for _ in 0..graph.nodes.len() {
        let index = at.0 as usize;
        let Some(turn) = turn_of(at) else { return at };
        let node = graph.node(at);
        if matches!(node.fact, Fact::Box(_)) && earliest.own[index] == turn {
            return at;
        }
        if !matches!(node.kind, Kind::All | Kind::Any) {
            return at;
        }
        match node.deps.iter().find(|e| turn_of(e.to) == Some(turn)) {
            Some(edge) => at = edge.to,
            None => return at,
        }
    }
    at
}

fn warning(
    game: &Game,
    analysis: &Analysis,
    earliest: &Earliest,
    turns: &Located<u32>,
    root: NodeId,
    late: &[(BoxId, u32)],
) -> Diagnostic {
    let graph = &analysis.graph;
    let guide = &game.guide;
    let root_turn = earliest.turn[root.0 as usize].unwrap_or(0);
    let (subject, origin, reason): (String, Origin, String) = match graph.node(root).fact {
        Fact::Box(b) => {
            let def = guide.get(b);
            let reason = match def.terms.cause.value {
                Cause::Dice(action) => {
                    let dice = graph.face_dice[action as usize];
                    let before = guide.track(def.track).boxes[..=def.index]
                        .iter()
                        .filter(|x| guide.get(**x).terms.cause.value == Cause::Dice(action))
                        .count();
                    format!(
                        "it is box {before} of its track filled by `{}` faces, and at most {dice} dice show one each turn",
                        action.name()
                    )
                }
                Cause::Turn => format!("it is turn {}", def.index + 1),
                _ => format!("it cannot be filled before turn {root_turn}"),
            };
            (format!("box `{}`", def.id), def.origin, reason)
        }
        Fact::Vp(n) => {
            let (b, _) = late[0];
            let def = guide.get(b);
            let origin = def
                .terms
                .requires
                .iter()
                .find(|r| r.value == Requirement::Vp(n))
                .map_or(def.origin, |r| r.origin);
            (
                format!("{n} VP"),
                origin,
                format!("no game can have {n} VP before turn {root_turn}"),
            )
        }
        other => {
            let (b, _) = late[0];
            let def = guide.get(b);
            (
                super::explain::name(game, other),
                def.origin,
                format!("it cannot be had before turn {root_turn}"),
            )
        }
    };
    let mut d = Diagnostic::warning(
        Code::TurnBudget,
        format!(
            "{subject} cannot come before turn {root_turn} even in the best case, but the game has {} turns",
            turns.value
        ),
    )
    .with_primary(origin, reason);
    for (b, turn) in late {
        let def = guide.get(*b);
        let after = guide.track(def.track).boxes.len() - def.index - 1;
        let rest = match after {
            0 => String::new(),
            1 => " and the box after it".to_string(),
            n => format!(" and the {n} boxes after it"),
        };
        if def.origin == origin {
            if after > 0 {
                let primary = d
                    .labels
                    .iter_mut()
                    .find(|l| l.primary)
                    .expect("primary label");
                primary.message =
                    format!("{}; so are the{rest}", primary.message).replace("the and the", "the");
            }
        } else {
            d = d.with_secondary(
                def.origin,
                format!("so `{}`{rest} cannot be filled before turn {turn}", def.id),
            );
        }
    }
    d = d.with_secondary(turns.origin, format!("the game has {} turns", turns.value));
    d.with_help("shorten the track, move the box earlier, or add turns (if this is by design, say so in a comment)")
}
