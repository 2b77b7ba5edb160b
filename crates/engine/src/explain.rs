//! Why the rules refuse a choice, in a player's words: the box's need, the track's order, the
//! hazard rule. A front end asks when a person clicks something the waiting decision does
//! not offer, so the answer is as exact as the engine's own test of the choice.

use crate::game::Player;
use crate::moment::Moment;
use crate::policy::{Choice, Decision, Stage};
use crate::rules::{Need, Rules};
use crate::vocabulary::{Action, Shape, Style};

/// What the waiting decision asks, as an instruction.
pub fn asks(rules: &Rules, moment: &Moment) -> String {
    match (moment.decision, moment.stage) {
        (Decision::Reroll, _) => format!(
            "choose dice to re-roll ({} re-roll{} left), or keep what shows",
            moment.rolls_left,
            plural(moment.rolls_left)
        ),
        (Decision::Track, Stage::Faces { face, .. }) => {
            format!("choose the track your {} face fills", face_name(face))
        }
        (Decision::Track, _) => "choose the track this face fills".to_string(),
        (Decision::Bonus, _) => "choose the box your bonus fills".to_string(),
        (Decision::Use, Stage::AfterEncounter { .. }) => {
            "choose an item to use with a Trainer face left, or end your turn".to_string()
        }
        (Decision::Use, _) => "choose an item to use with a Trainer face, or none".to_string(),
        (Decision::Repel, _) => "choose a species among the cards you drew for your Repel to \
                                 send away (a Trainer face), or keep them"
            .to_string(),
        (Decision::Card, _) => "choose the card to encounter, or let them all go".to_string(),
        (Decision::Throw, _) => {
            let doll = if moment.choices.iter().any(|c| matches!(c, Choice::Lock(..))) {
                ", keep a capture die with your Poké Doll (a Trainer face) and throw"
            } else {
                ""
            };
            match moment.target {
                Some(card) => format!(
                    "throw a Safari Ball at {} ({:.0}% to catch){doll}, or let it go",
                    rules.names.species[rules.cards[card].species],
                    moment.catch_chance * 100.0
                ),
                None => format!("throw a Safari Ball{doll}, or let it go"),
            }
        }
    }
}

/// Why `choice` is not one the waiting decision offers.
pub fn refusal(rules: &Rules, moment: &Moment, choice: Choice) -> String {
    let player = &moment.players[moment.seat];
    let wrong_kind = || format!("not now: {}", asks(rules, moment));
    match (moment.decision, choice) {
        (Decision::Reroll, Choice::Reroll(mask)) => reroll_refusal(rules, moment, mask),
        (Decision::Track, Choice::Track(t)) => match rules.tracks.get(t as usize) {
            None => "there is no such track".to_string(),
            Some(_) => match player.next_box(t as usize) {
                None => format!("every box of {} is filled", rules.names.tracks[t as usize]),
                Some(b) => why_box(rules, moment, b).unwrap_or_else(wrong_kind),
            },
        },
        (Decision::Bonus, Choice::Box(b)) if (b as usize) < rules.boxes.len() => {
            why_box(rules, moment, b as usize).unwrap_or_else(wrong_kind)
        }
        (Decision::Use, Choice::Use(i)) => match rules.items.get(i as usize) {
            None => "there is no such item".to_string(),
            Some(_) => use_refusal(rules, moment, i as usize),
        },
        (Decision::Card, Choice::Card(i)) => match moment.drawn.get(i as usize) {
            None => "no such card was drawn".to_string(),
            Some(card) => card_refusal(rules, moment, *card),
        },
        (Decision::Repel, Choice::Card(i)) => match moment.drawn.get(i as usize) {
            None => "no such card was drawn".to_string(),
            // Only the first card of a species names it.
            Some(_) => "choose the species by the first of its cards you drew".to_string(),
        },
        (Decision::Throw, Choice::Lock(die, value)) => lock_refusal(rules, moment, die, value),
        _ => wrong_kind(),
    }
}

/// Why a click on box `b` does nothing now, or `None` when the waiting decision offers it (a
/// face's track whose next box it is, or a bonus's box): then [`choice_for_box`] is the
/// choice it makes.
pub fn why_box(rules: &Rules, moment: &Moment, b: usize) -> Option<String> {
    if choice_for_box(rules, moment, b).is_some() {
        return None;
    }
    let player = &moment.players[moment.seat];
    let rule = &rules.boxes[b];
    let name = box_name(rules, b);
    if player.filled[b] {
        return Some(format!("{name} is already filled"));
    }
    let unmet: Vec<String> = rule
        .needs
        .iter()
        .filter(|n| !player.meets(**n))
        .map(|n| need_text(rules, player, *n))
        .collect();
    let before = rule.previous.filter(|p| !player.filled[*p as usize]);
    let order = before.map(|p| {
        format!(
            "the boxes of {} fill in order: {} comes first",
            rules.names.tracks[rule.track as usize],
            box_name(rules, p as usize)
        )
    });
    let needs = (!unmet.is_empty()).then(|| format!("{name} needs {}", unmet.join(" and ")));
    match (moment.decision, moment.stage) {
        (Decision::Track, Stage::Faces { face, .. }) if rule.face != Some(face) => Some(format!(
            "{name} is filled by {}, not by your {} face",
            cause_text(rules, b),
            face_name(face)
        )),
        (Decision::Track, _) => Some(
            order
                .or(needs)
                .unwrap_or_else(|| format!("not now: {}", asks(rules, moment))),
        ),
        (Decision::Bonus, _) => Some(
            bonus_refusal(rules, moment, b)
                .or(order)
                .or(needs)
                .unwrap_or_else(|| format!("not now: {}", asks(rules, moment))),
        ),
        _ => Some(format!(
            "{name} is filled by {}; now {}",
            cause_text(rules, b),
            asks(rules, moment)
        )),
    }
}

/// The choice a click on box `b` makes, when the waiting decision offers one.
pub fn choice_for_box(rules: &Rules, moment: &Moment, b: usize) -> Option<Choice> {
    let player = &moment.players[moment.seat];
    let choice = match moment.decision {
        Decision::Track => {
            let track = rules.boxes.get(b)?.track;
            (player.next_box(track as usize) == Some(b)).then_some(Choice::Track(track))?
        }
        Decision::Bonus => Choice::Box(b as u32),
        _ => return None,
    };
    moment.allows(choice).then_some(choice)
}

/// Why a die cannot be chosen for a re-roll, or `None` when it can.
pub fn why_die(rules: &Rules, moment: &Moment, die: usize) -> Option<String> {
    if moment.decision != Decision::Reroll {
        return Some(format!("not now: {}", asks(rules, moment)));
    }
    let rerolls = moment.rerolls?;
    if die >= moment.faces.len() {
        return Some("there is no such die".to_string());
    }
    if rerolls.dice() & (1 << die) != 0 {
        return None;
    }
    Some(reroll_refusal(rules, moment, 1 << die))
}

fn reroll_refusal(rules: &Rules, moment: &Moment, mask: u32) -> String {
    let Some(rerolls) = moment.rerolls else {
        return format!("not now: {}", asks(rules, moment));
    };
    if mask == 0 {
        return "choose at least one die to re-roll, or keep what shows".to_string();
    }
    if mask >> moment.faces.len() != 0 {
        return "there is no such die".to_string();
    }
    let hazards: Vec<usize> = (0..moment.faces.len())
        .filter(|i| mask & (1 << i) != 0 && moment.faces[*i] == Action::Hazard)
        .collect();
    match rerolls.hazard {
        // The engine's ruling: the re-roll a hazard item allows is the first die showing one.
        Some(allowed) => format!(
            "of the dice showing a Hazard, only the first (die {}) may be re-rolled with each \
             re-roll",
            allowed.trailing_zeros() + 1
        ),
        None if !hazards.is_empty() => {
            let bicycle = rules
                .item_steps
                .reroll_hazard
                .first()
                .map(|i| {
                    format!(
                        " (holding the {} would let you re-roll one)",
                        rules.names.items[*i]
                    )
                })
                .unwrap_or_default();
            format!("a die showing a Hazard cannot be re-rolled{bicycle}")
        }
        None => "those dice cannot be re-rolled".to_string(),
    }
}

fn use_refusal(rules: &Rules, moment: &Moment, i: usize) -> String {
    let player = &moment.players[moment.seat];
    let name = &rules.names.items[i];
    if !player.items[i] {
        return format!("you do not hold the {name}");
    }
    if !rules.usable_items.contains(&i) {
        return format!("the {name} is never used: it counts while you hold it");
    }
    if rules.item_steps.reshuffle_discard.contains(&i) && moment.discard.is_empty() {
        return format!("the discard pile is empty: the {name} would shuffle nothing back");
    }
    format!("using the {name} now would change nothing: no box it fills is open")
}

fn lock_refusal(rules: &Rules, moment: &Moment, die: u32, value: u32) -> String {
    let player = &moment.players[moment.seat];
    let doll = rules
        .item_steps
        .lock_capture_die
        .iter()
        .find(|i| player.items[**i]);
    let Stage::Throwing { trainers, lock } = moment.stage else {
        return format!("not now: {}", asks(rules, moment));
    };
    let Some(&doll) = doll.or(rules.item_steps.lock_capture_die.first()) else {
        return "no item in these rules keeps a capture die".to_string();
    };
    let name = &rules.names.items[doll];
    if !player.items[doll] {
        return format!("you do not hold the {name}");
    }
    if lock.is_some() {
        return format!("the {name} already keeps a die for this encounter");
    }
    if trainers == 0 {
        return format!("using the {name} takes a Trainer face, and you have none left");
    }
    let shown = moment.choices.iter().find_map(|c| match c {
        Choice::Lock(d, v) if *d == die => Some(*v),
        _ => None,
    });
    match shown {
        Some(v) => format!("capture die {} shows {v}, not {value}", die + 1),
        None if die as usize >= rules.capture.len() => format!(
            "there is no capture die {} (a throw rolls {})",
            die + 1,
            rules.capture.len()
        ),
        None => format!(
            "the {name} keeps a die of the last throw at this card: choose the first die \
             showing its value"
        ),
    }
}

fn card_refusal(rules: &Rules, moment: &Moment, card: usize) -> String {
    let player = &moment.players[moment.seat];
    let rule = &rules.cards[card];
    let species = &rules.names.species[rule.species];
    let (grass, water) = moment.dice.iter().fold((0, 0), |(g, w), face| match face {
        Action::Grass => (g + 1, w),
        Action::Water => (g, w + 1),
        _ => (g, w),
    });
    let mut unmet = Vec::new();
    if let Some(need) = rule.area
        && !player.meets(need)
    {
        unmet.push(need_text(rules, player, need));
    }
    if let Some(item) = rule.item
        && !player.items[item]
    {
        unmet.push(format!("the {}", rules.names.items[item]));
    }
    if !player.meets_habitats(rules, card, grass, water) {
        unmet.push(format!(
            "{} Grass and {} Water habitats (your dice show {grass} and {water}, and your \
             habitat bonuses count toward them)",
            rule.grass, rule.water
        ));
    }
    if unmet.is_empty() {
        return format!("not now: {}", asks(rules, moment));
    }
    format!(
        "{species} can be encountered only with {}",
        unmet.join(" and ")
    )
}

/// Why a bonus cannot fill box `b`, as far as the bonus's own rules go.
fn bonus_refusal(rules: &Rules, moment: &Moment, b: usize) -> Option<String> {
    let player = &moment.players[moment.seat];
    let rule = &rules.boxes[b];
    let name = box_name(rules, b);
    if !rule.bonus_can_fill {
        return Some(if rules.shapes[b] != Shape::Square {
            format!("a bonus fills only square boxes, and {name} is not square")
        } else {
            format!("{name} waits for its own event ({})", cause_text(rules, b))
        });
    }
    if let Some(i) = rule.used_item
        && !player.items[i as usize]
    {
        return Some(format!(
            "{name} is filled by using the {}, which you do not hold",
            rules.names.items[i as usize]
        ));
    }
    if let Stage::Cascade { from } = moment.stage
        && rule.style == Style::Bonus
        && rule.section == from
    {
        return Some(format!(
            "a bonus chain never goes on to a bonus box of the section it came from ({})",
            rules.names.sections[from as usize]
        ));
    }
    None
}

/// "box 3 of Area 2 (North)", or a one-box track's name ("Pokédex: Psyduck").
pub fn box_name(rules: &Rules, b: usize) -> String {
    let rule = &rules.boxes[b];
    let track = &rules.tracks[rule.track as usize];
    if track.boxes.len() == 1 {
        rules.names.tracks[rule.track as usize].clone()
    } else {
        format!(
            "box {} of {}",
            rule.position + 1,
            rules.names.tracks[rule.track as usize]
        )
    }
}

fn need_text(rules: &Rules, player: &Player, need: Need) -> String {
    match need {
        Need::Item(i) => format!("the {}", rules.names.items[i as usize]),
        Need::Species(s) => format!("{} collected", rules.names.species[s as usize]),
        Need::Box(b) => {
            let rule = &rules.boxes[b as usize];
            if rule.position == 0 {
                format!(
                    "access to {} (its first box filled)",
                    rules.names.tracks[rule.track as usize]
                )
            } else {
                format!("{} filled", box_name(rules, b as usize))
            }
        }
        Need::Vp(n) => format!("at least {n} VP (you have {})", player.vp),
        Need::Never => "an area with no boxes, which no one can reach".to_string(),
    }
}

/// What fills box `b`, besides a bonus chain.
pub(crate) fn cause_text(rules: &Rules, b: usize) -> String {
    let rule = &rules.boxes[b];
    if let Some(face) = rule.face {
        return format!("a die showing {}", face_name(face));
    }
    if let Some(i) = rule.used_item {
        return format!(
            "using the {} (with a Trainer face)",
            rules.names.items[i as usize]
        );
    }
    if rules.turn_boxes.contains(&b) {
        return "the start of a turn".to_string();
    }
    if rules.ball_boxes.contains(&b) {
        return "a Safari Ball thrown".to_string();
    }
    if rule.style == Style::Free || rules.free_boxes.contains(&b) {
        return "itself, as soon as it is open".to_string();
    }
    let collected: Vec<&str> = (0..rules.species.len())
        .filter(|s| rules.collect_boxes[*s].contains(&b))
        .map(|s| rules.names.species[s].as_str())
        .collect();
    if !collected.is_empty() {
        return format!("collecting {}", collected.join(" or "));
    }
    let obtained: Vec<&str> = (0..rules.items.len())
        .filter(|i| rules.obtain_boxes[*i].contains(&b))
        .map(|i| rules.names.items[i].as_str())
        .collect();
    if !obtained.is_empty() {
        return format!("obtaining the {}", obtained.join(" or the "));
    }
    "a bonus box's chain only".to_string()
}

pub(crate) fn face_name(face: Action) -> &'static str {
    match face {
        Action::Area => "Area",
        Action::Trainer => "Trainer",
        Action::Item => "Item",
        Action::Grass => "Grass",
        Action::Water => "Water",
        Action::Hazard => "Hazard",
    }
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}
