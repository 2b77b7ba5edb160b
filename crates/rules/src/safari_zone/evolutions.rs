//! Evolutions: loops in the species data, and Evolutions boxes that disagree with it.

use petgraph::algo::tarjan_scc;
use petgraph::graphmap::DiGraphMap;

use super::model::*;
use crate::diag::{Code, Diagnostic, Diagnostics};

pub fn check(game: &Game, diagnostics: &mut Diagnostics) {
    loops(game, diagnostics);
    boxes_agree(game, diagnostics);
}

fn loops(game: &Game, diagnostics: &mut Diagnostics) {
    let mut graph: DiGraphMap<u32, ()> = DiGraphMap::new();
    for s in game.species_ids() {
        graph.add_node(s.0);
        for evolution in &game.species(s).evolutions {
            if let Some(into) = evolution.into {
                graph.add_edge(s.0, into.0, ());
            }
        }
    }
    for mut component in tarjan_scc(&graph) {
        let looped = component.len() > 1 || graph.contains_edge(component[0], component[0]);
        if !looped {
            continue;
        }
        component.sort();
        // The shortest loop through the component's first species, found breadth first.
        let start = component[0];
        let mut parent: std::collections::HashMap<u32, u32> = std::collections::HashMap::new();
        let mut queue = std::collections::VecDeque::from([start]);
        let mut last = None;
        'search: while let Some(at) = queue.pop_front() {
            for next in graph.neighbors(at) {
                if !component.contains(&next) {
                    continue;
                }
                if next == start {
                    last = Some(at);
                    break 'search;
                }
                if let std::collections::hash_map::Entry::Vacant(e) = parent.entry(next) {
                    e.insert(at);
                    queue.push_back(next);
                }
            }
        }
        let Some(mut back) = last else { continue };
        let mut path = vec![back];
        while back != start {
            back = parent[&back];
            path.push(back);
        }
        path.reverse();
        let name = |s: u32| game.species(SpeciesId(s)).id.clone();
        let mut chain: Vec<String> = path.iter().map(|s| name(*s)).collect();
        chain.push(name(start));
        let mut d = Diagnostic::error(
            Code::EvolutionLoop,
            format!("evolutions loop back: {}", chain.join(" -> ")),
        );
        for (i, from) in path.iter().enumerate() {
            let to = path.get(i + 1).copied().unwrap_or(start);
            let species = game.species(SpeciesId(*from));
            if let Some(e) = species
                .evolutions
                .iter()
                .find(|e| e.into == Some(SpeciesId(to)))
            {
                let text = format!("{} evolves into {}", species.id, name(to));
                d = if i == 0 {
                    d.with_primary(e.origin, text)
                } else {
                    d.with_secondary(e.origin, text)
                };
            }
        }
        diagnostics.push(d.with_help("remove the evolution that leads back to an earlier species"));
    }
}

fn boxes_agree(game: &Game, diagnostics: &mut Diagnostics) {
    let guide = &game.guide;
    for b in guide.box_ids() {
        let def = guide.get(b);
        for reward in &def.terms.rewards {
            let Reward::Species(into) = reward.value else {
                continue;
            };
            let (from, by) = match &def.terms.cause.value {
                Cause::Collect(species) if species.len() == 1 => (species[0], None),
                Cause::Use(item) => {
                    // "Moon Stone -> Nidoqueen" evolves what the box before it gave.
                    let previous = guide.previous(b).and_then(|p| {
                        guide
                            .get(p)
                            .terms
                            .rewards
                            .iter()
                            .find_map(|r| match r.value {
                                Reward::Species(s) => Some(s),
                                _ => None,
                            })
                    });
                    match previous {
                        Some(from) => (from, Some(*item)),
                        None => continue,
                    }
                }
                _ => continue,
            };
            let species = game.species(from);
            let listed = species
                .evolutions
                .iter()
                .any(|e| e.into == Some(into) && e.by == Some(by));
            if !listed {
                let how = match by {
                    Some(item) => format!("with {}", game.item(item).id),
                    None => "by collecting it".to_string(),
                };
                diagnostics.push(
                    Diagnostic::warning(
                        Code::EvolutionMismatch,
                        format!(
                            "box `{}` evolves {} into {} {how}, which species.toml does not list",
                            def.id,
                            species.id,
                            game.species(into).id
                        ),
                    )
                    .with_primary(reward.origin, "this evolution")
                    .with_secondary(species.origin, format!("{}'s evolutions", species.id))
                    .with_help("add it to the species' `evolutions`, or correct the box"),
                );
            }
        }
    }
}
