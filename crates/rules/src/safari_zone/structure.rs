//! Structural faults: counts that differ from what the content declares, causes that cannot
//! occur, styles that contradict how a box is filled.

use super::model::*;
use crate::diag::{Applicability, Code, Diagnostic, Diagnostics, Edit, Fix};
use crate::words::plural;

pub fn check(game: &Game, diagnostics: &mut Diagnostics) {
    deck(game, diagnostics);
    dice(game, diagnostics);
    counters(game, diagnostics);
    causes(game, diagnostics);
    effects(game, diagnostics);
    styles(game, diagnostics);
    game.guide.check_placement(diagnostics);
}

fn deck(game: &Game, diagnostics: &mut Diagnostics) {
    let deck = &game.deck;
    let physical = deck.physical_cards();
    if deck.cards.is_empty() {
        diagnostics.push(
            Diagnostic::error(Code::EmptyGroup, "the deck has no cards")
                .with_primary(deck.origin, "in this file")
                .with_help("add cards as `[[card]]` tables"),
        );
    }
    for card in &deck.cards {
        if card.copies.value == 0 {
            diagnostics.push(
                Diagnostic::error(
                    Code::InvalidValue,
                    format!("card `{}` has 0 copies", card.id),
                )
                .with_primary(card.copies.origin, "no copy would be printed")
                .with_help("remove the card, or give it at least 1 copy"),
            );
        }
    }
    if let Some(size) = &deck.size
        && size.value != physical
    {
        let mut d = Diagnostic::error(
            Code::DeckSize,
            format!(
                "the deck declares {} cards but its cards add up to {}",
                size.value, physical
            ),
        )
        .with_primary(size.origin, format!("declared {} here", size.value));
        let difference = physical.abs_diff(size.value);
        let copies = format!(
            "{difference} {}",
            if difference == 1 { "copy" } else { "copies" }
        );
        let change = if physical > size.value {
            format!("remove {copies}")
        } else {
            format!("add {copies}")
        };
        // A deck of no cards is reported as empty; its size is not the thing to change.
        if physical > 0 {
            d = d
                .with_help(format!("{change}, or set `size = {physical}`"))
                .with_fix(Fix::new(
                    format!("set `size = {physical}`"),
                    vec![Edit::new(size.origin, physical.to_string())],
                    Applicability::MaybeIncorrect,
                ));
        } else {
            d = d.with_help(format!("{change} as `[[card]]` tables"));
        }
        diagnostics.push(d);
    }
}

fn dice(game: &Game, diagnostics: &mut Diagnostics) {
    for set in &game.dice {
        let listed = set.dice.len() as u32;
        if listed != set.count.value && !set.dice.is_empty() {
            diagnostics.push(
                Diagnostic::error(
                    Code::DiceShape,
                    format!(
                        "dice set `{}` declares {} dice but lists {}",
                        set.id, set.count.value, listed
                    ),
                )
                .with_primary(
                    set.count.origin,
                    format!("declared {} here", set.count.value),
                )
                .with_help(format!(
                    "list {} dice, or set `count = {listed}`",
                    set.count.value
                )),
            );
        }
        let mut reported = Vec::new();
        for die in &set.dice {
            let faces = die.faces.len() as u32;
            if faces != set.sides.value && !reported.contains(&die.origin) {
                reported.push(die.origin);
                diagnostics.push(
                    Diagnostic::error(
                        Code::DiceShape,
                        format!(
                            "a die of set `{}` has {} faces, but the set declares {} sides",
                            set.id, faces, set.sides.value
                        ),
                    )
                    .with_primary(die.origin, format!("{faces} faces here"))
                    .with_secondary(set.sides.origin, "sides declared here")
                    .with_help(format!("give every die exactly {} faces", set.sides.value)),
                );
            }
        }
    }
    let has = |role| {
        game.dice
            .iter()
            .any(|s| s.role == role && !s.dice.is_empty())
    };
    let anchor = game.dice.first().map_or(game.manifest.origin, |s| s.origin);
    if !has(DiceRole::Expedition) {
        diagnostics.push(
            Diagnostic::error(Code::EmptyGroup, "the game has no expedition dice")
                .with_primary(anchor, "no set with `role = \"expedition\"`")
                .with_help("add a `[[set]]` with role = \"expedition\" and its faces"),
        );
    }
    if !has(DiceRole::Capture) {
        diagnostics.push(
            Diagnostic::error(Code::EmptyGroup, "the game has no capture dice")
                .with_primary(anchor, "no set with `role = \"capture\"`")
                .with_help("add a `[[set]]` with role = \"capture\" and faces 1 to 6"),
        );
    }
}

fn counters(game: &Game, diagnostics: &mut Diagnostics) {
    let guide = &game.guide;
    for (declared, cause, what, key) in [
        (&game.manifest.turns, Cause::Turn, "turns", "turns"),
        (
            &game.manifest.safari_balls,
            Cause::Ball,
            "Safari Balls",
            "safari-balls",
        ),
    ] {
        let Some(declared) = declared else { continue };
        let boxes: Vec<&BoxDef> = guide
            .boxes
            .iter()
            .filter(|b| b.terms.cause.value == cause)
            .collect();
        if boxes.len() as u32 != declared.value {
            let fill = if cause == Cause::Turn { "turn" } else { "ball" };
            let mut d = Diagnostic::error(
                Code::CounterMismatch,
                format!(
                    "the game has {} {what}, but the Field Guide has {} filled by `{fill}`",
                    declared.value,
                    plural(boxes.len(), "box")
                ),
            )
            .with_primary(declared.origin, format!("`{key}` declared here"));
            // With no such boxes, the count cannot follow the sheet: 0 is not a game.
            d = if boxes.is_empty() {
                d.with_help(format!(
                    "add {} filled by `{fill}` to the Field Guide, e.g. a section with \
                     `fill=\"{fill}\"` holding `track \"{key}\" {{ box repeat={} }}`",
                    plural(declared.value, "box"),
                    declared.value
                ))
            } else {
                d.with_help(format!(
                    "make it {} with `fill=\"{fill}\"`, or set `{key} = {}`",
                    plural(declared.value, "box"),
                    boxes.len()
                ))
                .with_fix(Fix::new(
                    format!("set `{key} = {}`", boxes.len()),
                    vec![Edit::new(declared.origin, boxes.len().to_string())],
                    Applicability::MaybeIncorrect,
                ))
            };
            if let Some(first) = boxes.first() {
                d = d.with_secondary(first.origin, format!("the `{fill}` boxes start here"));
            }
            diagnostics.push(d);
        }
    }
}

fn causes(game: &Game, diagnostics: &mut Diagnostics) {
    let guide = &game.guide;
    let face_exists = |action: Action| game.expedition_dice().any(|die| die.has(action));
    // Faces no die has, with the boxes waiting on them.
    let mut missing: Vec<(Action, Vec<&BoxDef>)> = Vec::new();
    for def in &guide.boxes {
        let action = match def.terms.cause.value {
            Cause::Dice(action) => action,
            Cause::Use(_) => Action::Trainer,
            _ => continue,
        };
        if face_exists(action) {
            continue;
        }
        match missing.iter_mut().find(|(a, _)| *a == action) {
            Some((_, boxes)) => boxes.push(def),
            None => missing.push((action, vec![def])),
        }
    }
    for (action, boxes) in missing {
        let first = boxes[0];
        let article = if matches!(action, Action::Area | Action::Item) {
            "an"
        } else {
            "a"
        };
        let (message, label) = if action == Action::Trainer {
            (
                "no expedition die has a `trainer` face, so no item can ever be used".to_string(),
                "filled by using an item".to_string(),
            )
        } else {
            (
                format!(
                    "no expedition die has {article} `{}` face, which fills these boxes",
                    action.name()
                ),
                format!("`dice:{}` can never happen", action.name()),
            )
        };
        let mut d = Diagnostic::error(Code::ImpossibleCause, message)
            .with_primary(first.terms.cause.origin, label);
        // One label per track, not per box.
        let mut tracks = vec![first.track];
        for def in &boxes[1..] {
            if !tracks.contains(&def.track) {
                tracks.push(def.track);
                d = d.with_secondary(def.terms.cause.origin, "also waits on it");
            }
        }
        let these = match boxes.len() {
            1 => "this box".to_string(),
            n => format!("these {n} boxes"),
        };
        d = d.with_help(format!(
            "add {article} `{}` face to an expedition die in dice.toml, or change what fills {these}",
            action.name(),
        ));
        diagnostics.push(d);
    }
    for def in &guide.boxes {
        if let Cause::Use(item) = def.terms.cause.value
            && game.item(item).kind == ItemKind::Passive
        {
            let item = game.item(item);
            diagnostics.push(
                Diagnostic::error(
                    Code::ImpossibleCause,
                    format!("box `{}` is filled by using `{}`, but it is a passive item", def.id, item.id),
                )
                .with_primary(def.terms.cause.origin, "a passive item is held, never used")
                .with_secondary(item.origin, "declared passive here")
                .with_help("make the item `kind = \"usable\"`, or fill the box another way (`obtain:` for when it is obtained)"),
            );
        }
    }
}

/// An item's steps must be ones its kind can do: a passive item is never spent, a usable one
/// only after the dice are rolled.
fn effects(game: &Game, diagnostics: &mut Diagnostics) {
    for item in &game.items {
        for located in item.effects.iter().filter(|s| !s.value.fits(item.kind)) {
            let step = located.value;
            let (kind, other, why) = match item.kind {
                ItemKind::Usable => (
                    "usable",
                    "passive",
                    "it works while dice are rolled and cards met, before any Trainer face is spent",
                ),
                ItemKind::Passive => (
                    "passive",
                    "usable",
                    "it is done by spending the item with a Trainer face, and a passive item is never spent",
                ),
            };
            diagnostics.push(
                Diagnostic::error(
                    Code::EffectMisfit,
                    format!(
                        "item `{}` is {kind}, but its step `{}` never happens for a {kind} item",
                        item.id,
                        step.name()
                    ),
                )
                .with_primary(located.origin, format!("`{}`: {why}", step.name()))
                .with_secondary(item.origin, format!("declared {kind} here"))
                .with_help(format!(
                    "make the item `kind = \"{other}\"`, or give it a step a {kind} item does (docs/content.md, items.toml)"
                )),
            );
        }
    }
}

fn styles(game: &Game, diagnostics: &mut Diagnostics) {
    for def in &game.guide.boxes {
        let event = matches!(
            def.terms.cause.value,
            Cause::Collect(_) | Cause::Obtain(_) | Cause::Unknown
        );
        if def.style == Style::Trigger && !event {
            diagnostics.push(
                Diagnostic::error(
                    Code::MisusedStyle,
                    format!("trigger box `{}` is not filled by an event", def.id),
                )
                .with_primary(def.terms.cause.origin, "a trigger box needs `collect:` or `obtain:` here")
                .with_help("trigger (blue) boxes fill as a side effect of collecting a species or obtaining an item"),
            );
        }
        if def.terms.cause.value == Cause::Bonus && !def.bonus_can_fill() {
            diagnostics.push(
                Diagnostic::error(
                    Code::MisusedStyle,
                    format!(
                        "box `{}` is filled only by bonus chains, but is not square",
                        def.id
                    ),
                )
                .with_primary(def.origin, "bonus chains fill square boxes only")
                .with_help("make it `shape=\"square\"`, or give it another `fill`"),
            );
        }
    }
}
