//! Reports of what can never happen: impossible loops, unreachable boxes, uncatchable cards.
//!
//! Each report starts at a fault a designer can see (the first blocked box of a track, a card)
//! and follows the chain of reasons down to its root. Roots already reported elsewhere (an
//! unknown name, a die face no die has, a loop) are not reported again through every box that
//! depends on them: one fault, one report.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use petgraph::algo::tarjan_scc;
use petgraph::graphmap::DiGraphMap;

use super::Analysis;
use super::explain::{Step, blockers, folded, name, step_text, tidy};
use super::graph::{Fact, Graph, Kind, NodeId, fixpoint};
use super::model::*;
use crate::diag::{Code, Diagnostic, Diagnostics};

pub fn check(game: &Game, analysis: &Analysis, diagnostics: &mut Diagnostics) {
    let loops = Loops::find(game, analysis);
    let Loops { members, reports } = &loops;
    let reporter = Reporter {
        game,
        analysis,
        in_loop: members,
        known: RefCell::new(HashMap::new()),
    };
    let mut subjects: Vec<Subject> = heads(game, analysis)
        .into_iter()
        .map(|b| reporter.box_subject(b))
        .collect();
    subjects.extend(
        game.card_ids()
            .filter(|c| !analysis.reach.of(analysis.graph.catch_node[c.index()]))
            .map(|c| reporter.card_subject(c)),
    );
    // One report per root cause, listing everything it blocks.
    let mut by_root: Vec<(NodeId, Vec<Subject>)> = Vec::new();
    let mut root_index: HashMap<NodeId, usize> = HashMap::new();
    let mut by_loop: HashMap<usize, Vec<Subject>> = HashMap::new();
    for subject in subjects {
        match subject.root {
            Ending::Root(node) => match root_index.get(&node) {
                Some(&i) => by_root[i].1.push(subject),
                None => {
                    root_index.insert(node, by_root.len());
                    by_root.push((node, vec![subject]));
                }
            },
            Ending::Loop(index) => by_loop.entry(index).or_default().push(subject),
            Ending::Reported => {}
        }
    }
    for (root, list) in by_root {
        if let Some(d) = reporter.root_report(root, &list) {
            diagnostics.push(d);
        }
    }
    for (index, mut d) in reports.iter().cloned().enumerate() {
        for subject in by_loop.remove(&index).unwrap_or_default() {
            if !members.contains_key(&subject.node)
                && !d.labels.iter().any(|l| l.origin == subject.origin)
            {
                d = d.with_secondary(
                    subject.origin,
                    format!("so {} can never be {}", subject.what, subject.verb),
                );
            }
        }
        diagnostics.push(d);
    }
}

/// The first unreachable box of each track, in Field Guide order.
fn heads(game: &Game, analysis: &Analysis) -> Vec<BoxId> {
    game.guide
        .track_ids()
        .filter_map(|t| {
            game.guide
                .track(t)
                .boxes
                .iter()
                .copied()
                .find(|b| !analysis.box_reachable(*b))
        })
        .collect()
}

struct Loops {
    /// Node -> index of the loop report it belongs to.
    members: HashMap<NodeId, usize>,
    reports: Vec<Diagnostic>,
}

impl Loops {
    fn find(game: &Game, analysis: &Analysis) -> Loops {
        let graph = &analysis.graph;
        let reach = &analysis.reach;
        let mut edges: DiGraphMap<u32, ()> = DiGraphMap::new();
        for (i, node) in graph.nodes.iter().enumerate() {
            let id = NodeId(i as u32);
            if reach.of(id) {
                continue;
            }
            edges.add_node(id.0);
            for edge in &node.deps {
                if !reach.of(edge.to) {
                    edges.add_edge(id.0, edge.to.0, ());
                }
            }
        }
        let mut members = HashMap::new();
        let mut reports = Vec::new();
        let mut components = tarjan_scc(&edges);
        components.iter_mut().for_each(|c| c.sort());
        components.sort();
        for component in components {
            let single = component.len() == 1;
            if single && !edges.contains_edge(component[0], component[0]) {
                continue;
            }
            // A loop that something outside it would unlock is not a loop's fault: assume all
            // outside holds, and keep what still cannot.
            let inside: HashSet<u32> = component.iter().copied().collect();
            let outside: Vec<NodeId> = edges
                .nodes()
                .filter(|n| !inside.contains(n))
                .map(NodeId)
                .collect();
            let restricted = fixpoint(graph, game, &outside);
            let stuck: Vec<u32> = component
                .iter()
                .copied()
                .filter(|n| !restricted.of(NodeId(*n)))
                .collect();
            if stuck.is_empty() {
                continue;
            }
            let Some(cycle) = cycle(&edges, &stuck, graph) else {
                continue;
            };
            let index = reports.len();
            for n in &stuck {
                members.insert(NodeId(*n), index);
            }
            reports.push(loop_report(game, graph, &cycle));
        }
        Loops { members, reports }
    }
}

/// A shortest cycle through the first box of the stuck set (or its first node).
fn cycle(edges: &DiGraphMap<u32, ()>, stuck: &[u32], graph: &Graph) -> Option<Vec<NodeId>> {
    let set: HashSet<u32> = stuck.iter().copied().collect();
    let start = stuck
        .iter()
        .copied()
        .find(|n| matches!(graph.node(NodeId(*n)).fact, Fact::Box(_)))
        .unwrap_or(stuck[0]);
    let mut parent: HashMap<u32, u32> = HashMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(at) = queue.pop_front() {
        for next in edges.neighbors(at) {
            if !set.contains(&next) {
                continue;
            }
            if next == start {
                let mut path = vec![at];
                let mut back = at;
                while back != start {
                    back = parent[&back];
                    path.push(back);
                }
                path.reverse();
                return Some(path.into_iter().map(NodeId).collect());
            }
            if let std::collections::hash_map::Entry::Vacant(e) = parent.entry(next) {
                e.insert(at);
                queue.push_back(next);
            }
        }
    }
    None
}

fn loop_report(game: &Game, graph: &Graph, cycle: &[NodeId]) -> Diagnostic {
    let steps: Vec<Step> = (0..cycle.len())
        .map(|i| {
            let from = cycle[i];
            let to = cycle[(i + 1) % cycle.len()];
            let edge = *graph
                .node(from)
                .deps
                .iter()
                .find(|e| e.to == to)
                .expect("cycle follows edges");
            Step { from, edge }
        })
        .collect();
    let steps = tidy(graph, &steps);
    let mut names: Vec<String> = steps
        .iter()
        .map(|s| name(game, graph.node(s.from).fact))
        .collect();
    if let Some(first) = names.first().cloned() {
        names.push(first);
    }
    let mut d = Diagnostic::error(
        Code::ImpossibleLoop,
        format!("impossible loop: {}", names.join(" -> ")),
    );
    for (i, step) in steps.iter().enumerate() {
        let text = step_text(game, graph, step);
        d = if i == 0 {
            d.with_primary(step.edge.origin, text)
        } else {
            d.with_secondary(step.edge.origin, text)
        };
    }
    d.with_help("nothing outside the loop can start it; break one of its links (grant the item earlier, move the box, drop a requirement)")
}

/// Something a designer will look for in a report: a blocked box (the first of its track)
/// or an uncatchable card, with the chain of reasons that ends at its root.
struct Subject {
    node: NodeId,
    what: String,
    verb: &'static str,
    origin: crate::world::Origin,
    steps: Vec<Step>,
    /// Whether the steps end at the root itself, rather than at a fact an earlier subject's
    /// chain passed through (whose report already shows the way on to the root).
    to_root: bool,
    root: Ending,
}

#[derive(Debug, Clone, Copy)]
enum Ending {
    Root(NodeId),
    Loop(usize),
    /// Blocked by a fault reported elsewhere (an unknown name, a missing die face).
    Reported,
}

struct Reporter<'a> {
    game: &'a Game,
    analysis: &'a Analysis,
    in_loop: &'a HashMap<NodeId, usize>,
    /// Facts a walk has passed through: the step it took from each (none at the root) and
    /// where the walk ended. A later walk stops at the first of them, so every fact is walked
    /// through once and a report stays linear in the size of the sheet.
    known: RefCell<HashMap<NodeId, (Option<Step>, Ending)>>,
}

/// Folded facts followed past when a walk reaches a fact walked through already: a fill and a
/// "collecting one of" come at most a few in a row.
const MAX_FOLDED: usize = 4;

/// Links of a chain shown in one label; longer chains are shortened in the middle.
const MAX_LINKS: usize = 4;

impl Reporter<'_> {
    fn graph(&self) -> &Graph {
        &self.analysis.graph
    }

    /// Follows the most telling blocker from `start` until a node that blocks by itself.
    /// Depth first through the blockers, most telling first, never through a node twice:
    /// the first node that blocks by itself is the root. A blocker that leads only back into
    /// the path is left for the next one.
    /// Returns the steps (tidied), whether they reach the root, and the ending.
    fn walk(&self, start: NodeId) -> (Vec<Step>, bool, Ending) {
        let graph = self.graph();
        let reach = &self.analysis.reach;
        let mut known = self.known.borrow_mut();
        let mut steps: Vec<Step> = Vec::new();
        let mut seen = HashSet::from([start]);
        let mut stack = vec![(start, 0usize)];
        let finish = |known: &mut HashMap<NodeId, (Option<Step>, Ending)>,
                      steps: Vec<Step>,
                      end: Option<NodeId>,
                      to_root: bool,
                      ending: Ending| {
            for step in &steps {
                known.insert(step.from, (Some(*step), ending));
            }
            if let Some(end) = end {
                known.entry(end).or_insert((None, ending));
            }
            (tidy(graph, &steps), to_root, ending)
        };
        while let Some(&(at, tried)) = stack.last() {
            if let Some(&(step, ending)) = known.get(&at) {
                if steps.is_empty() {
                    // Walked through already: name the fact it waits for, not the whole way;
                    // but past the facts a sentence folds away (a box's fill, "collecting
                    // one of"), or the step would name the box as what fills it.
                    let mut next = step;
                    while let Some(step) = next.take() {
                        steps.push(step);
                        if folded(graph.node(step.edge.to).fact) && steps.len() < MAX_FOLDED {
                            next = known.get(&step.edge.to).and_then(|(s, _)| *s);
                        }
                    }
                    // A step that reaches the root is the whole way.
                    let to_root = matches!(ending, Ending::Root(root)
                        if steps.last().is_some_and(|s| s.edge.to == root));
                    return (tidy(graph, &steps), to_root, ending);
                }
                return finish(&mut known, steps, None, false, ending);
            }
            if let Some(index) = self.in_loop.get(&at) {
                return finish(&mut known, steps, None, true, Ending::Loop(*index));
            }
            let node = graph.node(at);
            let options = blockers(graph, reach, at);
            if !matches!(node.kind, Kind::All | Kind::Any) || options.is_empty() {
                let reported = matches!(
                    node.fact,
                    Fact::Never | Fact::Face(_) | Fact::Area(_) | Fact::Always
                );
                let ending = if reported {
                    Ending::Reported
                } else {
                    Ending::Root(at)
                };
                return finish(&mut known, steps, Some(at), true, ending);
            }
            match options
                .iter()
                .skip(tried)
                .position(|e| !seen.contains(&e.to))
            {
                Some(offset) => {
                    let edge = *options[tried + offset];
                    stack.last_mut().expect("not empty").1 = tried + offset + 1;
                    seen.insert(edge.to);
                    steps.push(Step { from: at, edge });
                    stack.push((edge.to, 0));
                }
                None => {
                    stack.pop();
                    steps.pop();
                }
            }
        }
        (Vec::new(), true, Ending::Reported)
    }

    fn box_subject(&self, head: BoxId) -> Subject {
        let def = self.game.guide.get(head);
        let after = self.game.guide.track(def.track).boxes.len() - def.index - 1;
        let what = match after {
            0 => format!("`{}`", def.id),
            1 => format!("`{}` and the box after it", def.id),
            n => format!("`{}` and the {n} boxes after it", def.id),
        };
        let node = self.graph().box_node[head.index()];
        let (steps, to_root, root) = self.walk(node);
        Subject {
            node,
            what,
            verb: "filled",
            origin: def.origin,
            steps,
            to_root,
            root,
        }
    }

    fn card_subject(&self, c: CardId) -> Subject {
        let card = self.game.card(c);
        let node = self.graph().catch_node[c.index()];
        let (steps, to_root, root) = self.walk(node);
        Subject {
            node,
            what: format!("card `{}`", card.id),
            verb: "caught",
            origin: card.origin,
            steps,
            to_root,
            root,
        }
    }

    fn link(&self, step: &Step) -> String {
        step_text(self.game, self.graph(), step)
    }

    /// The chain of a subject, as one sentence: up to the root (without the last link, which
    /// the report's primary label shows), or up to a fact another label already explains.
    fn chain(&self, subject: &Subject) -> Option<String> {
        let shown = match subject.to_root {
            true => subject.steps.len().saturating_sub(1),
            false => subject.steps.len(),
        };
        let links = &subject.steps[..shown];
        if links.is_empty() {
            return None;
        }
        let mut parts: Vec<String> = links.iter().map(|s| self.link(s)).collect();
        if parts.len() > MAX_LINKS {
            let tail = parts.split_off(parts.len() - 1);
            parts.truncate(MAX_LINKS - 1);
            parts.push("...".to_string());
            parts.extend(tail);
        }
        Some(parts.join(", "))
    }

    fn root_report(&self, root: NodeId, subjects: &[Subject]) -> Option<Diagnostic> {
        let game = self.game;
        let graph = self.graph();
        let reach = &self.analysis.reach;
        let first = subjects.first()?;
        let last = first.steps.last()?;
        let holder = name(game, graph.node(last.from).fact);
        let mut code = Code::Unreachable;
        let mut extra: Vec<(crate::world::Origin, String)> = Vec::new();
        let mut primary = (last.edge.origin, self.link(last));
        let (message, help) = match graph.node(root).fact {
            Fact::Vp(n) => (
                format!(
                    "{holder} needs {n} VP, but all the boxes that can be filled give {} VP together",
                    reach.max_vp
                ),
                format!(
                    "lower the threshold to at most {}, or add victory points to boxes players can fill",
                    reach.max_vp
                ),
            ),
            Fact::Item(i) => {
                let id = &game.item(i).id;
                (
                    format!("{holder} needs item `{id}`, but no box grants it"),
                    format!("add `gives=\"item:{id}\"` to a box players can fill"),
                )
            }
            Fact::Species(s) => {
                let id = &game.species(s).id;
                (
                    format!("{holder} needs species `{id}`, but no card and no box provides it"),
                    format!(
                        "add a card of `{id}` to the deck, or `gives=\"species:{id}\"` to a box"
                    ),
                )
            }
            Fact::Bonus(None) => (
                format!(
                    "{holder} can only be filled by a bonus chain, and no bonus box can be filled"
                ),
                "add a bonus box (`style=\"bonus\"`) players can fill, or give it another `fill`"
                    .to_string(),
            ),
            Fact::Bonus(Some(s)) => {
                let section = &game.guide.section(s).id;
                extra = game
                    .guide
                    .boxes
                    .iter()
                    .filter(|b| {
                        b.section == s
                            && b.style == Style::Bonus
                            && b.terms.cause.value != Cause::Bonus
                    })
                    .map(|b| {
                        (
                            b.origin,
                            format!(
                                "a chain from `{}` cannot continue into its own section",
                                b.id
                            ),
                        )
                    })
                    .collect();
                if extra.is_empty() {
                    (
                        format!(
                            "{holder} can only be filled by a bonus chain from outside section `{section}`, and no bonus box there can be filled"
                        ),
                        "add a bonus box in another section, or give it another `fill`".to_string(),
                    )
                } else {
                    code = Code::BonusConfined;
                    (
                        format!("{holder} can only be filled by a bonus chain, and every bonus box that could start one is in its own section `{section}`"),
                        "a chain never passes through two bonus boxes of one section in a row: add a bonus box in another section, or give it another `fill`".to_string(),
                    )
                }
            }
            Fact::Exhausted(b) => {
                code = Code::BoundedEvent;
                let exhausted = &graph.exhausted[&b];
                let times = match exhausted.bound {
                    1 => "once a game".to_string(),
                    n => format!("at most {n} times a game"),
                };
                // The first few takers: a bound of thousands would label thousands of boxes
                // in each of thousands of reports.
                const SHOWN: usize = 3;
                let mut takers: Vec<String> = exhausted
                    .takers
                    .iter()
                    .take(SHOWN)
                    .map(|t| format!("`{}`", game.guide.get(*t).id))
                    .collect();
                if exhausted.takers.len() > SHOWN {
                    takers.push(format!("{} more", exhausted.takers.len() - SHOWN));
                }
                extra = exhausted
                    .takers
                    .iter()
                    .take(SHOWN)
                    .map(|t| {
                        let def = game.guide.get(*t);
                        (
                            def.origin,
                            format!(
                                "`{}` takes {} first: it waits for nothing else",
                                def.id, exhausted.event
                            ),
                        )
                    })
                    .collect();
                let def = game.guide.get(b);
                (
                    format!(
                        "`{}` waits for {}, which happens {times}, and {} of its section always take{} it first",
                        def.id,
                        exhausted.event,
                        takers.join(", "),
                        if takers.len() == 1 { "s" } else { "" }
                    ),
                    format!(
                        "{}: move `{}` to another section, or give it another `fill`",
                        match game.manifest.event_fills {
                            EventFills::OnePerSection => "an event fills one box of a section",
                            EventFills::OnePlusTriggerPerSection =>
                                "an event fills one box of a section and one trigger box",
                        },
                        def.id
                    ),
                )
            }
            Fact::Late(b) => {
                // Filled by a face no die has (SZ0304, already reported), only chains remain.
                if let Cause::Dice(face) = game.guide.get(b).terms.cause.value
                    && graph.face_dice[face as usize] == 0
                {
                    return None;
                }
                code = Code::ClosedAtEvent;
                let late = super::play::explain(game, b);
                primary = (game.guide.get(b).origin, late.primary);
                extra = late.labels;
                (late.message, late.help)
            }
            Fact::ObtainedOnce(b) => {
                let def = game.guide.get(b);
                (
                    format!(
                        "`{}` is filled by obtaining an item, which happens once a game, and the boxes before it in its track take every such event",
                        def.id
                    ),
                    "shorten the track, or give its later boxes another `fill`".to_string(),
                )
            }
            Fact::AnyEncounter => (
                format!(
                    "{holder} is filled by throwing a Safari Ball, but no card can ever be encountered"
                ),
                "fix the deck's cards (see their reports)".to_string(),
            ),
            Fact::Habitats(c) => {
                code = Code::UncatchableCard;
                let card = game.card(c);
                let dice = graph.habitat_dice;
                let bonus = reach.bonuses;
                let most = |h| dice.most(h, bonus);
                let message = match (card.grass, card.water) {
                    (0, 0) => format!(
                        "card `{}` is drawn only when a habitat is rolled, but no expedition die has a grass or water face",
                        card.id
                    ),
                    (g, 0) => format!(
                        "card `{}` needs {g} grass habitats in one turn, but at most {} can count",
                        card.id,
                        most(Habitat::Grass)
                    ),
                    (0, w) => format!(
                        "card `{}` needs {w} water habitats in one turn, but at most {} can count",
                        card.id,
                        most(Habitat::Water)
                    ),
                    (g, w) => format!(
                        "card `{}` needs {g} grass and {w} water habitats in one turn, but the dice and bonuses cannot show both",
                        card.id
                    ),
                };
                (
                    message,
                    format!(
                        "{} expedition dice can show grass, {} water, and {} can be reached: lower the criteria, or add habitat faces or bonuses",
                        dice.grass,
                        dice.water,
                        crate::words::plural_of(
                            bonus.grass + bonus.water + bonus.any,
                            "habitat bonus",
                            "habitat bonuses"
                        )
                    ),
                )
            }
            Fact::Capture(c) => {
                code = Code::CaptureOutOfReach;
                let most = graph.max_capture + reach.capture_bonus;
                let bonus = match reach.capture_bonus {
                    0 => String::new(),
                    n => format!(
                        " and the capture bonuses of the items that can be obtained add {n}"
                    ),
                };
                (
                    format!(
                        "card `{}` has capture rate {}, but the capture dice total at most {}{bonus}",
                        game.card(c).id,
                        game.card(c).capture_rate.value,
                        graph.max_capture
                    ),
                    format!("set a capture rate of at most {most}"),
                )
            }
            _ => return None,
        };
        if code == Code::Unreachable && subjects.iter().all(|s| s.verb == "caught") {
            code = Code::UncatchableCard;
        }
        let boxes = subjects.iter().filter(|s| s.verb == "filled").count();
        let cards = subjects.len() - boxes;
        use crate::words::plural;
        let blocked = match (boxes, cards) {
            (b, 0) => plural(b, "blocked track"),
            (0, c) => plural(c, "dead card"),
            (b, c) => format!("{}, {}", plural(b, "blocked track"), plural(c, "dead card")),
        };
        let mut d = Diagnostic::error(code, format!("{message} ({blocked})"))
            .with_primary(primary.0, primary.1);
        for subject in subjects {
            let text = match self.chain(subject) {
                Some(chain) => {
                    format!("so {} can never be {}: {chain}", subject.what, subject.verb)
                }
                None => format!("so {} can never be {}", subject.what, subject.verb),
            };
            if subject.origin != last.edge.origin && subject.origin != primary.0 {
                d = d.with_secondary(subject.origin, text);
            }
        }
        for (origin, text) in extra {
            d = d.with_secondary(origin, text);
        }
        Some(d.with_help(help))
    }
}

#[cfg(test)]
mod tests;
