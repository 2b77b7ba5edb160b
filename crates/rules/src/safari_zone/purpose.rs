//! Content that is legal and reachable but does nothing a designer meant: a species whose
//! cards fill no box, a Bag track whose item other boxes give too, a way of filling boxes the
//! Park Rules never tell players about. Each is a warning: the game plays, but a part of it
//! stops mattering.

use super::model::*;
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::world::FileId;

pub fn check(game: &Game, diagnostics: &mut Diagnostics) {
    species_without_boxes(game, diagnostics);
    bag_gifts_given_elsewhere(game, diagnostics);
    effects_on_faces_no_die_has(game, diagnostics);
}

/// The die face a step of an item's effect acts on, if it acts on one.
fn face_acted_on(step: Step) -> Option<Action> {
    match step {
        Step::RerollHazard => Some(Action::Hazard),
        _ => None,
    }
}

/// An item whose effect acts on a face no expedition die has (a re-roll of hazards with every
/// hazard face gone): the step never does anything, and whatever the item was for is lost.
fn effects_on_faces_no_die_has(game: &Game, diagnostics: &mut Diagnostics) {
    // A face that did not read is reported already; what the dice hold is not known.
    let unread = game
        .expedition_dice()
        .any(|die| die.faces.iter().any(|f| f.value == Face::Invalid));
    if unread {
        return;
    }
    for item in &game.items {
        for step in &item.effects {
            let Some(face) = face_acted_on(step.value) else {
                continue;
            };
            if game.expedition_dice().any(|die| die.has(face)) {
                continue;
            }
            diagnostics.push(
                Diagnostic::warning(
                    Code::EffectOnMissingFace,
                    format!(
                        "{}'s `{}` acts on `{}` faces, and no expedition die has one: the item does nothing",
                        item.name,
                        step.value.name(),
                        face.name()
                    ),
                )
                .with_primary(step.origin, format!("never happens: no die shows `{}`", face.name()))
                .with_secondary(item.origin, "the item")
                .with_help(format!(
                    "give an expedition die a `{}` face in dice.toml, or give {} another effect",
                    face.name(),
                    item.name
                )),
            );
        }
    }
}

/// Whether collecting `species` fills or opens any box: a box filled by collecting it, a box
/// that needs it, or (through its evolutions, which collect the species they lead to) the same
/// for a species it evolves into.
fn species_matters(game: &Game, species: SpeciesId) -> bool {
    let mut seen = vec![false; game.species.len()];
    let mut next = vec![species];
    while let Some(s) = next.pop() {
        if std::mem::replace(&mut seen[s.index()], true) {
            continue;
        }
        let fills = game.guide.boxes.iter().any(|def| {
            matches!(&def.terms.cause.value, Cause::Collect(list) if list.contains(&s))
                || def
                    .terms
                    .requires
                    .iter()
                    .any(|r| r.value == Requirement::Species(s))
        });
        if fills {
            return true;
        }
        next.extend(game.species(s).evolutions.iter().filter_map(|e| e.into));
    }
    false
}

/// A species the deck holds that fills no box when caught: catching it only counts toward the
/// tie-break.
fn species_without_boxes(game: &Game, diagnostics: &mut Diagnostics) {
    let mut reported = vec![false; game.species.len()];
    for card in &game.deck.cards {
        let Some(species) = card.species.value else {
            continue;
        };
        if std::mem::replace(&mut reported[species.index()], true) || species_matters(game, species)
        {
            continue;
        }
        let name = &game.species(species).name;
        let cards = game
            .deck
            .cards
            .iter()
            .filter(|c| c.species.value == Some(species))
            .map(|c| c.copies.value)
            .sum::<u32>();
        diagnostics.push(
            Diagnostic::warning(
                Code::SpeciesFillsNothing,
                format!(
                    "catching {name} fills no box: no box of the Field Guide is filled by collecting it, or needs it"
                ),
            )
            .with_primary(
                card.species.origin,
                crate::words::plural_of(
                    cards,
                    "card of the deck shows it",
                    "cards of the deck show it",
                ),
            )
            .with_secondary(game.species(species).origin, "the species")
            .with_help(format!(
                "give it a box (`box fill=\"collect:{}\" vp=1` in the Pokédex), or take its cards out of the deck; as it is, catching it spends balls for the tie-break alone",
                game.species(species).id
            )),
        );
    }
}

/// An item a Bag track gives that other boxes give too: an item is obtained once, so whichever
/// box gives it first makes the others give nothing.
fn bag_gifts_given_elsewhere(game: &Game, diagnostics: &mut Diagnostics) {
    fn gives(def: &BoxDef, item: ItemId) -> Option<&Located<Reward>> {
        def.terms
            .rewards
            .iter()
            .find(|r| r.value == Reward::Item(item))
    }
    for (ix, item) in game.items.iter().enumerate() {
        let id = ItemId(ix as u32);
        let givers: Vec<&BoxDef> = game
            .guide
            .boxes
            .iter()
            .filter(|def| gives(def, id).is_some())
            .collect();
        let in_bag = |def: &&&BoxDef| def.terms.cause.value == Cause::Dice(Action::Item);
        let Some(bag_box) = givers.iter().find(in_bag) else {
            continue;
        };
        let elsewhere: Vec<&&BoxDef> = givers
            .iter()
            .filter(|def| def.track != bag_box.track)
            .collect();
        if elsewhere.is_empty() {
            continue;
        }
        let track = &game.guide.tracks[bag_box.track.index()];
        let mut d = Diagnostic::warning(
            Code::GiftGivenElsewhere,
            format!(
                "the Bag's `{}` track gives {}, which {} too: once a player has it, the track's gift is nothing",
                track.id,
                item.name,
                match elsewhere.len() {
                    1 => "another box gives".to_string(),
                    n => format!("{n} other boxes give"),
                },
            ),
        )
        .with_primary(
            gives(bag_box, id).expect("it gives the item").origin,
            "the Bag track gives it here",
        );
        for def in &elsewhere {
            d = d.with_secondary(
                gives(def, id).expect("it gives the item").origin,
                "and this box gives it",
            );
        }
        diagnostics.push(d.with_help(
            "give each item in one place, or make the other boxes give something else (VP, another item, a habitat)",
        ));
    }
}

/// A way of filling boxes the Park Rules never name: players read the rules, not the KDL.
/// A mention is any word of the cause (its die face, item, species, `turn`, `ball`, `collect`,
/// `obtain`, `free`, `bonus`) in the Park Rules' source outside comments, or the page
/// helpers that write its rule (`face-rule("area")`, `item-rule("evolve")`, `box-rule("free")`).
pub(crate) fn causes_the_rules_never_mention(
    game: &Game,
    park_rules: FileId,
    text: &str,
    diagnostics: &mut Diagnostics,
) {
    let plain = outside_comments(text).to_lowercase();
    // A cause's own word, then the ids and names of what it names.
    let with = |word: &str, named: Vec<(&String, &String)>| -> Vec<String> {
        std::iter::once(word.to_string())
            .chain(
                named
                    .into_iter()
                    .flat_map(|(id, name)| [id.clone(), name.clone()]),
            )
            .collect()
    };
    let mut reported: Vec<String> = Vec::new();
    for def in &game.guide.boxes {
        let (key, names): (String, Vec<String>) = match &def.terms.cause.value {
            Cause::Dice(action) => (
                format!("dice:{}", action.name()),
                with(action.name(), vec![]),
            ),
            Cause::Turn => ("turn".into(), with("turn", vec![])),
            Cause::Ball => ("ball".into(), with("ball", vec![])),
            Cause::Free => ("free".into(), with("free", vec![])),
            Cause::Bonus => ("bonus".into(), with("bonus", vec![])),
            Cause::Collect(species) => {
                let named = species
                    .iter()
                    .map(|s| game.species(*s))
                    .map(|s| (&s.id, &s.name));
                ("collect".into(), with("collect", named.collect()))
            }
            Cause::Obtain(items) => {
                let named = items
                    .iter()
                    .map(|i| game.item(*i))
                    .map(|i| (&i.id, &i.name));
                ("obtain".into(), with("obtain", named.collect()))
            }
            Cause::Use(item) => {
                let item = game.item(*item);
                let mut names = vec![item.id.clone(), item.name.clone()];
                for step in &item.effects {
                    names.push(step.value.name().to_string());
                    if step.value == Step::FillLabelled {
                        // The name the Park Rules' helpers know this effect by.
                        names.push("evolve".into());
                    }
                }
                (format!("use:{}", item.id), names)
            }
            Cause::Unknown => continue,
        };
        if reported.contains(&key) {
            continue;
        }
        if names
            .iter()
            .any(|name| mentioned(&plain, &name.to_lowercase()))
        {
            continue;
        }
        reported.push(key.clone());
        diagnostics.push(
            Diagnostic::warning(
                Code::CauseNotInRules,
                format!("boxes are filled by `{key}`, which the Park Rules never mention"),
            )
            .with_primary(def.terms.cause.origin, "filled this way")
            .with_secondary(
                crate::world::Origin::file_start(park_rules),
                "players learn the game from this page",
            )
            .with_help(format!(
                "say in park-rules.typ when a box is filled by `{key}` (naming {})",
                names
                    .iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(" or ")
            )),
        );
    }
}

/// Typst source with its `//` and `/* */` comments left out.
fn outside_comments(text: &str) -> String {
    let mut plain = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find('/') {
        plain.push_str(&rest[..start]);
        let after = &rest[start..];
        if let Some(comment) = after.strip_prefix("//") {
            rest = comment.find('\n').map_or("", |end| &comment[end..]);
        } else if let Some(comment) = after.strip_prefix("/*") {
            rest = comment.find("*/").map_or("", |end| &comment[end + 2..]);
        } else {
            plain.push('/');
            rest = &after[1..];
        }
    }
    plain.push_str(rest);
    plain
}

/// Whether `name` starts a word of `text` ("area" in `face-rule("area")` and in "Areas", not
/// "turn" in "return").
fn mentioned(text: &str, name: &str) -> bool {
    !name.is_empty()
        && text.match_indices(name).any(|(at, _)| {
            !text[..at]
                .chars()
                .next_back()
                .is_some_and(char::is_alphanumeric)
        })
}
