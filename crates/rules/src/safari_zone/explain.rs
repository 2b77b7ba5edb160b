//! Saying why something can never happen: node names, links, and chains of reasons.

use super::graph::{Edge, Fact, Graph, Kind, NodeId, Reach, Why};
use super::model::*;

pub fn name(game: &Game, fact: Fact) -> String {
    let guide = &game.guide;
    match fact {
        Fact::Box(b) | Fact::Fill(b) => format!("`{}`", guide.get(b).id),
        Fact::Item(i) => format!("item `{}`", game.item(i).id),
        Fact::Species(s) => format!("species `{}`", game.species(s).id),
        Fact::AnySpecies(b) => match &guide.get(b).terms.cause.value {
            Cause::Collect(list) => format!(
                "collecting {}",
                list.iter()
                    .map(|s| format!("`{}`", game.species(*s).id))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
            _ => "collecting a species".to_string(),
        },
        Fact::AnyItem(b) => match &guide.get(b).terms.cause.value {
            Cause::Obtain(list) => format!(
                "obtaining {}",
                list.iter()
                    .map(|i| format!("`{}`", game.item(*i).id))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
            _ => "obtaining an item".to_string(),
        },
        Fact::Use(i) => format!("using item `{}`", game.item(i).id),
        Fact::Exhausted(_) => "an event that other boxes of its section take first".to_string(),
        Fact::Late(_) => "a moment it is never open at".to_string(),
        Fact::ObtainedOnce(b) => format!(
            "an event the boxes before `{}` already take",
            guide.get(b).id
        ),
        Fact::Area(t) => format!("access to `{}`", guide.track(t).id),
        Fact::Encounter(c) | Fact::Catch(c) => format!("card `{}`", game.card(c).id),
        Fact::Habitats(c) => {
            let card = game.card(c);
            match (card.grass, card.water) {
                (0, 0) => "a habitat rolled".to_string(),
                (g, 0) => format!("{g} grass habitats"),
                (0, w) => format!("{w} water habitats"),
                (g, w) => format!("{g} grass and {w} water habitats"),
            }
        }
        Fact::Capture(c) => format!("a capture roll of {}", game.card(c).capture_rate.value),
        Fact::Face(a) => {
            let article = if matches!(a, Action::Area | Action::Item) {
                "an"
            } else {
                "a"
            };
            format!("{article} `{}` face", a.name())
        }
        Fact::Vp(n) => format!("{n} VP"),
        Fact::Bonus(None) => "a bonus chain".to_string(),
        Fact::Bonus(Some(s)) => format!(
            "a bonus chain from outside section `{}`",
            guide.section(s).id
        ),
        Fact::AnyEncounter => "an encounter".to_string(),
        Fact::Always => "nothing".to_string(),
        Fact::Never => "a name that is not defined".to_string(),
    }
}

pub(crate) fn link_text(game: &Game, from: Fact, why: Why, to: Fact) -> String {
    let (a, b) = (name(game, from), name(game, to));
    match why {
        Why::After => format!("{a} comes after {b} in its track"),
        Why::Needs | Why::CardNeeds | Why::Has => format!("{a} needs {b}"),
        Why::FilledBy => match to {
            Fact::Species(_) | Fact::AnySpecies(_) => format!("{a} is filled by collecting {b}"),
            Fact::Item(_) | Fact::AnyItem(_) => format!("{a} is filled by obtaining {b}"),
            _ => format!("{a} is filled by {b}"),
        },
        Why::GrantedBy => format!("{a} is granted only by {b}"),
        Why::CaughtFrom => format!("{a} is caught only from {b}"),
        Why::GivenBy => format!("{a} is given only by {b}"),
        Why::AreaOpensWith => format!("{a} opens with {b}"),
        Why::BonusFrom => format!("{a} is filled only by {b}"),
    }
}

/// The sentence for one step of a chain. A fact that several things provide (a species
/// caught from a card and given by an Evolutions box, an item two boxes grant) is blocked only
/// when all of them are: the sentence names every provider, not just the one the chain
/// follows.
pub(crate) fn step_text(game: &Game, graph: &Graph, step: &Step) -> String {
    let from = graph.node(step.from);
    let providers = matches!(
        step.edge.why,
        Why::CaughtFrom | Why::GivenBy | Why::GrantedBy
    );
    if providers && from.kind == Kind::Any && from.deps.len() > 1 {
        const SHOWN: usize = 4;
        let mut names: Vec<String> = from
            .deps
            .iter()
            .take(SHOWN)
            .map(|e| name(game, graph.node(e.to).fact))
            .collect();
        if from.deps.len() > SHOWN {
            names.push(format!("{} more", from.deps.len() - SHOWN));
        }
        let last = names.pop().unwrap_or_default();
        return format!(
            "{} comes only from {} or {last}, and none of them can happen",
            name(game, from.fact),
            names.join(", ")
        );
    }
    link_text(
        game,
        from.fact,
        step.edge.why,
        graph.node(step.edge.to).fact,
    )
}

/// A step of an explanation: a link from one fact to the one it waits for.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Step {
    pub from: NodeId,
    pub edge: Edge,
}

/// The dependencies that keep an unreachable node from holding, most telling first.
pub(crate) fn blockers<'g>(graph: &'g Graph, reach: &Reach, node: NodeId) -> Vec<&'g Edge> {
    let n = graph.node(node);
    let mut out: Vec<&Edge> = n.deps.iter().filter(|e| !reach.of(e.to)).collect();
    let rank = |why: Why| match why {
        Why::After => 0,
        Why::Needs | Why::CardNeeds => 1,
        Why::FilledBy | Why::Has => 2,
        _ => 3,
    };
    if n.kind == Kind::All {
        out.sort_by_key(|e| rank(e.why));
    }
    out
}

/// Facts a sentence folds into the step before them: a box's fill, and "collecting (or
/// obtaining) one of" a list, which read as the box itself.
pub(crate) fn folded(fact: Fact) -> bool {
    matches!(fact, Fact::Fill(_) | Fact::AnySpecies(_) | Fact::AnyItem(_))
}

/// Makes a chain read as a person would say it: fills and "catching" steps fold into the
/// step before them, and a run of "comes after" links becomes one.
pub(crate) fn tidy(graph: &Graph, steps: &[Step]) -> Vec<Step> {
    let mut out: Vec<Step> = Vec::new();
    for step in steps {
        // "card c needs card c": catching a card waits on meeting its criteria.
        if matches!(graph.node(step.from).fact, Fact::Catch(_)) && step.edge.why == Why::Has {
            continue;
        }
        let from_fact = graph.node(step.from).fact;
        let transparent = folded(from_fact);
        match out.last_mut() {
            Some(last) if transparent && last.edge.to == step.from => {
                last.edge.to = step.edge.to;
                last.edge.origin = step.edge.origin;
                if matches!(from_fact, Fact::Fill(_)) && step.edge.why == Why::BonusFrom {
                    last.edge.why = Why::BonusFrom;
                }
            }
            Some(last)
                if step.edge.why == Why::After
                    && last.edge.why == Why::After
                    && last.edge.to == step.from =>
            {
                last.edge.to = step.edge.to;
            }
            _ => out.push(*step),
        }
    }
    out
}
