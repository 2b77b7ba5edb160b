//! What a ruleset must be before the engine plays it.
//!
//! A ruleset.json may come from anywhere (an older build, another tool, a hand edit), and
//! the engine's indices and loops trust what compiles. So a ruleset is held to what the
//! checker guarantees of every ruleset `build` writes: ids that are unique and, for the game,
//! safe as a folder name; counts within the content limits; dice to roll. Each fault names
//! its place in the JSON.

use std::collections::HashSet;

use super::LoadError;
use crate::limits::{
    MAX_BOXES, MAX_COUNT, MAX_DECK_SIZE, MAX_ENTRIES, MAX_GAME_NAME_CHARS, MAX_PLAYERS,
    MAX_TEXT_CHARS, MAX_VP,
};
use crate::ruleset::Ruleset;
use crate::vocabulary::DiceRole;

pub(crate) fn validate(ruleset: &Ruleset) -> Result<(), LoadError> {
    let fault = |path: &str, message: String| LoadError {
        path: path.to_string(),
        message,
    };
    crate::ids::check_id(&ruleset.game.id).map_err(|reason| {
        fault(
            "game.id",
            format!("`{}` is not a valid id: it {reason}", ruleset.game.id),
        )
    })?;
    let hash = ruleset.content_hash.strip_prefix("sha256:");
    if !hash
        .is_some_and(|h| h.len() == 64 && h.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')))
    {
        return Err(fault(
            "content_hash",
            "must be `sha256:` and 64 lower-case hexadecimal digits".to_string(),
        ));
    }
    let p = &ruleset.parameters;
    if p.players_min == 0 || p.players_min > p.players_max || p.players_max > MAX_PLAYERS {
        return Err(fault(
            "parameters",
            format!(
                "players must be a range within 1 to {MAX_PLAYERS}, not {} to {}",
                p.players_min, p.players_max
            ),
        ));
    }
    for (value, name) in [
        (p.turns, "turns"),
        (p.safari_balls, "safari_balls"),
        (p.rolls_per_turn, "rolls_per_turn"),
        (p.hazard_limit, "hazard_limit"),
    ] {
        if !(1..=MAX_COUNT).contains(&value) {
            return Err(fault(
                &format!("parameters.{name}"),
                format!("must be from 1 to {MAX_COUNT}, not {value}"),
            ));
        }
    }
    for (role, name) in [
        (DiceRole::Expedition, "expedition"),
        (DiceRole::Capture, "capture"),
    ] {
        let dice = ruleset
            .dice
            .iter()
            .filter(|set| set.role == role)
            .map(|set| set.dice.len())
            .sum::<usize>();
        if dice == 0 {
            return Err(fault("dice", format!("there is no {name} die")));
        }
    }
    let guide = &ruleset.field_guide;
    let tracks = guide.sections.iter().flat_map(|s| &s.tracks);
    let boxes = || tracks.clone().flat_map(|t| &t.boxes);
    let lists: [(&str, Vec<&str>); 7] = [
        ("dice", ruleset.dice.iter().map(|d| d.id.as_str()).collect()),
        (
            "deck.cards",
            ruleset.deck.cards.iter().map(|c| c.id.as_str()).collect(),
        ),
        (
            "species",
            ruleset.species.iter().map(|s| s.id.as_str()).collect(),
        ),
        (
            "items",
            ruleset.items.iter().map(|i| i.id.as_str()).collect(),
        ),
        (
            "field_guide.sections",
            guide.sections.iter().map(|s| s.id.as_str()).collect(),
        ),
        (
            "field_guide tracks",
            tracks.clone().map(|t| t.id.as_str()).collect(),
        ),
        (
            "field_guide boxes",
            boxes().map(|b| b.id.as_str()).collect(),
        ),
    ];
    for (path, ids) in &lists {
        let most = if path.ends_with("boxes") {
            MAX_BOXES
        } else {
            MAX_ENTRIES
        };
        if ids.len() > most {
            return Err(fault(
                path,
                format!("{} entries: at most {most}", ids.len()),
            ));
        }
        let mut seen = HashSet::new();
        if let Some(twice) = ids.iter().find(|id| !seen.insert(**id)) {
            return Err(fault(path, format!("the id `{twice}` is used twice")));
        }
    }
    for (i, item) in ruleset.items.iter().enumerate() {
        if let Some(k) = item
            .effects
            .iter()
            .position(|s| matches!(s, crate::vocabulary::Step::CaptureBonus(n) if *n > MAX_COUNT))
        {
            return Err(fault(
                &format!("items[{i}].effects[{k}]"),
                format!("a capture bonus is at most {MAX_COUNT}"),
            ));
        }
    }
    if let Some(b) = boxes().find(|b| b.vp > MAX_VP) {
        return Err(fault(
            "field_guide",
            format!("box `{}` gives {} VP: at most {MAX_VP}", b.id, b.vp),
        ));
    }
    texts(ruleset)?;
    let copies: u64 = ruleset.deck.cards.iter().map(|c| u64::from(c.copies)).sum();
    if copies > u64::from(MAX_DECK_SIZE) {
        return Err(fault(
            "deck",
            format!("{copies} cards: at most {MAX_DECK_SIZE}"),
        ));
    }
    Ok(())
}

/// Names and texts within the lengths content may have: a ruleset's text ends up on a page and
/// in a report's charts, and no build writes a longer one.
fn texts(ruleset: &Ruleset) -> Result<(), LoadError> {
    let fault = |path: String, most: usize| LoadError {
        path,
        message: format!("a text of more than {most} characters: no build writes one"),
    };
    if ruleset.game.name.chars().count() > MAX_GAME_NAME_CHARS {
        return Err(fault("game.name".to_string(), MAX_GAME_NAME_CHARS));
    }
    let guide = &ruleset.field_guide;
    let mut texts: Vec<(String, &str)> = vec![
        ("deck.name".to_string(), &ruleset.deck.name),
        ("field_guide.title".to_string(), &guide.title),
        ("scoring.score".to_string(), &ruleset.scoring.score),
    ];
    for (key, value) in &ruleset.game.versions {
        texts.push(("game.versions".to_string(), key));
        texts.push((format!("game.versions.{key}"), value));
    }
    texts.extend(
        ruleset
            .dice
            .iter()
            .enumerate()
            .map(|(i, d)| (format!("dice[{i}].name"), d.name.as_str())),
    );
    texts.extend(
        ruleset
            .species
            .iter()
            .enumerate()
            .map(|(i, s)| (format!("species[{i}].name"), s.name.as_str())),
    );
    texts.extend(
        ruleset
            .items
            .iter()
            .enumerate()
            .map(|(i, s)| (format!("items[{i}].name"), s.name.as_str())),
    );
    texts.extend(
        ruleset
            .deck
            .cards
            .iter()
            .enumerate()
            .map(|(i, c)| (format!("deck.cards[{i}].flavor"), c.flavor.as_str())),
    );
    texts.extend(
        ruleset
            .scoring
            .tie_breaks
            .iter()
            .enumerate()
            .map(|(i, t)| (format!("scoring.tie_breaks[{i}]"), t.as_str())),
    );
    for (s, section) in guide.sections.iter().enumerate() {
        texts.push((format!("field_guide.sections[{s}].title"), &section.title));
        for (t, track) in section.tracks.iter().enumerate() {
            if let Some(title) = &track.title {
                texts.push((
                    format!("field_guide.sections[{s}].tracks[{t}].title"),
                    title,
                ));
            }
            for (b, guide_box) in track.boxes.iter().enumerate() {
                if let Some(label) = &guide_box.label {
                    texts.push((
                        format!("field_guide.sections[{s}].tracks[{t}].boxes[{b}].label"),
                        label,
                    ));
                }
            }
        }
    }
    match texts
        .into_iter()
        .find(|(_, text)| text.chars().count() > MAX_TEXT_CHARS)
    {
        Some((path, _)) => Err(fault(path, MAX_TEXT_CHARS)),
        None => Ok(()),
    }
}
