//! Loading a Safari Zone RNW game folder into its model: game.toml, items, species, dice,
//! the Field Guide and the Encounter Deck, in that order, so each file's names are known to
//! the files that use them.
//!
//! Loading never stops at the first fault. Each file is read through the [`GameFolder`] seam,
//! parsed with recovery, and lowered into the model with names resolved; every fault becomes a
//! diagnostic and the rest of the content still loads, so one `safari check` shows them all.

use super::formats::*;
use super::model::*;
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::load::limits::{self, MAX_COPIES, MAX_FACE_VALUE, MAX_SIDES};
use crate::load::names::Names;
use crate::load::{MANIFEST, check_identity, find_key, lower_print, toml_read};
use crate::world::{FileId, GameFolder, Origin};

pub use safari_engine::limits::{MAX_CAPTURE_DICE, MAX_EXPEDITION_DICE};

/// The Park Rules' file when `[files]` names none.
pub(crate) const DEFAULT_PARK_RULES: &str = "park-rules.typ";

/// Loads the game in `folder`. `None` only when there is no manifest to start from.
pub fn load(folder: &mut GameFolder, diagnostics: &mut Diagnostics) -> Option<Game> {
    let manifest_file = match folder.read(MANIFEST, None) {
        Ok(file) => file,
        Err(diagnostic) if diagnostic.code == Code::FileUnreadable => {
            diagnostics.push(
                Diagnostic::error(
                    Code::NotAGame,
                    format!(
                        "`{}` is not a game folder: it has no {MANIFEST}",
                        folder.root().display()
                    ),
                )
                .with_help(
                    "a game folder holds game.toml and the files it names; see docs/content.md",
                ),
            );
            return None;
        }
        Err(diagnostic) => {
            diagnostics.push(diagnostic);
            return None;
        }
    };
    let text = folder.source(manifest_file).text.clone();
    let raw = toml_read::read_whole::<ManifestFile>(manifest_file, &text, diagnostics);
    let mut manifest = lower_manifest(raw.as_ref(), manifest_file, &text, diagnostics);
    let files = match raw {
        Some(manifest) => manifest.files,
        // The manifest did not load, but its `[files]` may still say where the files are.
        None => {
            #[derive(serde::Deserialize)]
            struct FilesOnly {
                #[serde(default)]
                files: Files,
            }
            toml::from_str::<FilesOnly>(&text)
                .map(|f| f.files)
                .unwrap_or_default()
        }
    };
    let named_at = |spanned: &toml::Spanned<String>| {
        let span = spanned.span();
        (span != (0..0)).then(|| Origin::new(manifest_file, span))
    };
    manifest.park_rules = (
        files.park_rules.get_ref().clone(),
        named_at(&files.park_rules),
    );
    // A Park Rules file game.toml names must be there (the default one may be left out: the
    // back of the sheet is then left empty), and `check` says so, not only `build`.
    if let (path, Some(at)) = &manifest.park_rules
        && let Err(diagnostic) = folder.read(path, Some(*at))
    {
        diagnostics.push(diagnostic);
    }

    let mut read =
        |path: &toml::Spanned<String>, diagnostics: &mut Diagnostics| -> Option<(FileId, String)> {
            match folder.read(path.get_ref(), named_at(path)) {
                Ok(file) => Some((file, folder.source(file).text.clone())),
                Err(diagnostic) => {
                    diagnostics.push(diagnostic);
                    None
                }
            }
        };

    let start = diagnostics.len();
    let (items, mut item_names) = match read(&files.items, diagnostics) {
        Some((file, text)) => load_items(file, &text, diagnostics),
        None => (Vec::new(), item_names()),
    };
    item_names.complete = !diagnostics.lost_content_since(start);
    let start = diagnostics.len();
    let (species, mut species_names) = match read(&files.species, diagnostics) {
        Some((file, text)) => load_species(file, &text, &item_names, diagnostics),
        None => (Vec::new(), species_names()),
    };
    species_names.complete = !diagnostics.lost_content_since(start);
    let (dice, dice_names) = match read(&files.dice, diagnostics) {
        Some((file, text)) => load_dice(file, &text, diagnostics),
        None => (Vec::new(), Names::new("dice set")),
    };
    let start = diagnostics.len();
    let (guide, mut guide_names) = match read(&files.field_guide, diagnostics) {
        Some((file, text)) => match limits::kdl_nesting_past(&text, limits::MAX_KDL_DEPTH) {
            None => super::terms::read_field_guide(
                file,
                &text,
                &item_names,
                &species_names,
                diagnostics,
            ),
            Some(at) => {
                diagnostics.push(limits::too_deep(file, at));
                super::terms::no_field_guide()
            }
        },
        None => super::terms::no_field_guide(),
    };
    guide_names.tracks.complete =
        !diagnostics.lost_content_since(start) && !guide.sections.is_empty();
    let (deck, card_names) = match read(&files.deck, diagnostics) {
        Some((file, text)) => load_deck(
            file,
            &text,
            &species_names,
            &item_names,
            &guide_names.tracks,
            diagnostics,
        ),
        None => (
            Deck {
                name: String::new(),
                size: None,
                cards: Vec::new(),
                origin: Origin::file_start(manifest_file),
            },
            Names::new("card"),
        ),
    };
    // Every file that may name something has loaded: what is named and undefined, and which
    // defined names nothing names, are known now.
    item_names.report(folder, diagnostics);
    species_names.report(folder, diagnostics);
    dice_names.report(folder, diagnostics);
    guide_names.report(folder, diagnostics);
    card_names.report(folder, diagnostics);
    Some(Game {
        manifest,
        items,
        species,
        dice,
        deck,
        guide,
    })
}

fn lower_manifest(
    raw: Option<&ManifestFile>,
    file: FileId,
    text: &str,
    diagnostics: &mut Diagnostics,
) -> Manifest {
    let origin = Origin::new(file, 0..text.len().min(1));
    let located = |s: &toml::Spanned<u32>| Located::new(*s.get_ref(), Origin::new(file, s.span()));
    let Some(raw) = raw else {
        return Manifest {
            id: String::new(),
            name: String::new(),
            rules: String::new(),
            versions: Vec::new(),
            players: (1, 1),
            turns: None,
            safari_balls: None,
            rolls_per_turn: 3,
            hazard_limit: 3,
            event_fills: Default::default(),
            card_size: CardSize::NAMED[0],
            paper: Paper::A4,
            card_size_at: None,
            paper_at: None,
            park_rules: (DEFAULT_PARK_RULES.to_string(), None),
            origin,
        };
    };
    check_identity(&raw.id, &raw.name, file, text, diagnostics);
    let too_many = |what: &str, limit: u32, at: std::ops::Range<usize>| {
        Diagnostic::error(Code::LimitExceeded, format!("`{what}` is at most {limit}"))
            .with_primary(Origin::new(file, at), "too many")
    };
    if raw.players.max > limits::MAX_PLAYERS {
        diagnostics.push(too_many(
            "players.max",
            limits::MAX_PLAYERS,
            find_key(text, "max"),
        ));
    }
    for (value, what) in [
        (&raw.play.turns, "turns"),
        (&raw.play.safari_balls, "safari-balls"),
    ] {
        if *value.get_ref() > limits::MAX_COUNT {
            diagnostics.push(too_many(what, limits::MAX_COUNT, value.span()));
        }
    }
    for (value, what) in [
        (raw.play.rolls_per_turn, "rolls-per-turn"),
        (raw.play.hazard_limit, "hazard-limit"),
    ] {
        if value > limits::MAX_COUNT {
            diagnostics.push(too_many(what, limits::MAX_COUNT, find_key(text, what)));
        }
    }
    if raw.players.min > raw.players.max || raw.players.min == 0 {
        diagnostics.push(
            Diagnostic::error(
                Code::InvalidValue,
                format!(
                    "players: min {} and max {} do not make a range",
                    raw.players.min, raw.players.max
                ),
            )
            .with_primary(Origin::new(file, find_key(text, "players")), "here"),
        );
    }
    let (card_size, paper) = lower_print(&raw.print, file, text, diagnostics);
    if raw.play.hazard_limit == 0 {
        diagnostics.push(
            Diagnostic::error(Code::InvalidValue, "`hazard-limit` must be at least 1")
                .with_primary(Origin::new(file, find_key(text, "hazard-limit")), "here"),
        );
    }
    for (value, what) in [
        (&raw.play.turns, "turns"),
        (&raw.play.safari_balls, "safari-balls"),
    ] {
        if *value.get_ref() == 0 {
            diagnostics.push(
                Diagnostic::error(Code::InvalidValue, format!("`{what}` must be at least 1"))
                    .with_primary(Origin::new(file, value.span()), "here"),
            );
        }
    }
    if raw.play.rolls_per_turn == 0 {
        diagnostics.push(
            Diagnostic::error(Code::InvalidValue, "`rolls-per-turn` must be at least 1")
                .with_primary(Origin::new(file, find_key(text, "rolls-per-turn")), "here"),
        );
    }
    Manifest {
        id: raw.id.get_ref().clone(),
        name: raw.name.clone(),
        rules: raw.rules.clone(),
        versions: raw
            .versions
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
        players: (raw.players.min, raw.players.max),
        turns: Some(located(&raw.play.turns)),
        safari_balls: Some(located(&raw.play.safari_balls)),
        rolls_per_turn: raw.play.rolls_per_turn.max(1),
        hazard_limit: raw.play.hazard_limit,
        event_fills: raw.play.event_fills,
        card_size,
        paper,
        card_size_at: raw
            .print
            .card_size
            .as_ref()
            .map(|value| Origin::new(file, value.span())),
        paper_at: raw
            .print
            .paper
            .is_some()
            .then(|| Origin::new(file, find_key(text, "paper"))),
        park_rules: (DEFAULT_PARK_RULES.to_string(), None),
        origin,
    }
}

/// The items' table: how an unknown item's help says to define one.
fn item_names() -> Names<ItemId> {
    Names::new("item").defined_by(
        "define it in the items file as `[[item]]` with `id = \"{id}\"`, a `name` and a `kind` \
         (usable or passive)",
    )
}

fn species_names() -> Names<SpeciesId> {
    Names::new("species").defined_by(
        "define it in the species file as `[[species]]` with `id = \"{id}\"` and a `name`",
    )
}

fn define<T: Copy>(
    names: &mut Names<T>,
    id: &toml::Spanned<String>,
    value: T,
    file: FileId,
    diagnostics: &mut Diagnostics,
) {
    if let Err(d) = names.define_written(id.get_ref(), value, Origin::new(file, id.span())) {
        diagnostics.push(d);
    }
}

fn resolve<T: Copy>(names: &Names<T>, name: &toml::Spanned<String>, file: FileId) -> Option<T> {
    names.resolve(name.get_ref(), Origin::new(file, name.span()))
}

fn load_items(
    file: FileId,
    text: &str,
    diagnostics: &mut Diagnostics,
) -> (Vec<Item>, Names<ItemId>) {
    let mut names = item_names();
    let mut items = Vec::new();
    let (_, entries) = toml_read::read::<ItemsFile, ItemEntry>(file, text, "item", diagnostics);
    for (entry, origin) in entries {
        define(
            &mut names,
            &entry.id,
            ItemId(items.len() as u32),
            file,
            diagnostics,
        );
        names.call(entry.id.get_ref(), &entry.name);
        let effects = match &entry.effect {
            Some(value) => super::terms::item_effects(value, file, diagnostics),
            None => Vec::new(),
        };
        items.push(Item {
            id: entry.id.into_inner(),
            name: entry.name,
            kind: entry.kind,
            effects,
            origin,
        });
    }
    (items, names)
}

fn load_species(
    file: FileId,
    text: &str,
    items: &Names<ItemId>,
    diagnostics: &mut Diagnostics,
) -> (Vec<Species>, Names<SpeciesId>) {
    let mut names = species_names();
    let mut species = Vec::new();
    let (_, entries) =
        toml_read::read::<SpeciesFile, SpeciesEntry>(file, text, "species", diagnostics);
    for (entry, _) in &entries {
        define(
            &mut names,
            &entry.id,
            SpeciesId(species.len() as u32),
            file,
            diagnostics,
        );
        names.call(entry.id.get_ref(), &entry.name);
        species.push(Species {
            id: entry.id.get_ref().clone(),
            name: entry.name.clone(),
            dex: entry.dex,
            evolutions: Vec::new(),
            origin: Origin::new(file, entry.id.span()),
        });
    }
    // Evolutions name species defined anywhere in the file: resolve once all are known.
    for (index, (entry, _)) in entries.iter().enumerate() {
        for evolution in &entry.evolutions {
            let e = evolution.get_ref();
            species[index].evolutions.push(Evolution {
                into: resolve(&names, &e.into, file),
                by: match &e.item {
                    None => Some(None),
                    Some(item) => resolve(items, item, file).map(Some),
                },
                origin: Origin::new(file, evolution.span()),
            });
        }
    }
    (species, names)
}

fn load_dice(
    file: FileId,
    text: &str,
    diagnostics: &mut Diagnostics,
) -> (Vec<DiceSet>, Names<DiceSetId>) {
    let mut names: Names<DiceSetId> = Names::new("dice set");
    let mut sets = Vec::new();
    let (_, entries) = toml_read::read::<DiceFile, DiceSetEntry>(file, text, "set", diagnostics);
    for (entry, origin) in entries {
        define(
            &mut names,
            &entry.id,
            DiceSetId(sets.len() as u32),
            file,
            diagnostics,
        );
        let role = entry.role;
        let face = |value: &toml::Spanned<FaceValue>, diagnostics: &mut Diagnostics| {
            let at = Origin::new(file, value.span());
            let face = match (role, value.get_ref()) {
                (DiceRole::Capture, FaceValue::Number(n))
                    if (0..=MAX_FACE_VALUE as i64).contains(n) =>
                {
                    Face::Number(*n as u32)
                }
                (DiceRole::Expedition, FaceValue::Action(name)) => match Action::from_name(name) {
                    Some(action) => Face::Action(action),
                    None => {
                        let known: Vec<&str> = Action::ALL.iter().map(|a| a.name()).collect();
                        diagnostics.push(super::terms::unknown_face(text, name, at, &known));
                        Face::Invalid
                    }
                },
                (DiceRole::Capture, _) => {
                    diagnostics.push(
                        Diagnostic::error(
                            Code::InvalidValue,
                            format!(
                                "capture dice faces must be numbers from 0 to {MAX_FACE_VALUE}"
                            ),
                        )
                        .with_primary(at, "here"),
                    );
                    Face::Invalid
                }
                (DiceRole::Expedition, FaceValue::Number(_)) => {
                    diagnostics.push(
                        Diagnostic::error(
                            Code::InvalidValue,
                            "expedition dice faces must be action names",
                        )
                        .with_primary(at, "a number here")
                        .with_help("use area, trainer, item, grass, water or hazard"),
                    );
                    Face::Invalid
                }
            };
            Located::new(face, at)
        };
        // Limits that keep every decision of play enumerable: a re-roll chooses among 2^dice
        // subsets of the expedition dice.
        let (most_dice, most_sides) = match role {
            DiceRole::Expedition => (MAX_EXPEDITION_DICE, MAX_SIDES),
            DiceRole::Capture => (MAX_CAPTURE_DICE, MAX_SIDES),
        };
        if *entry.count.get_ref() > most_dice {
            diagnostics.push(
                Diagnostic::error(
                    Code::InvalidValue,
                    format!(
                        "an {} set has at most {most_dice} dice",
                        if role == DiceRole::Expedition {
                            "expedition"
                        } else {
                            "capture"
                        }
                    ),
                )
                .with_primary(Origin::new(file, entry.count.span()), "too many"),
            );
        }
        if *entry.sides.get_ref() > most_sides {
            diagnostics.push(
                Diagnostic::error(
                    Code::InvalidValue,
                    format!("a die has at most {most_sides} sides"),
                )
                .with_primary(Origin::new(file, entry.sides.span()), "too many"),
            );
        }
        let mut dice = Vec::new();
        match (&entry.faces, &entry.dice) {
            (Some(faces), None) => {
                for _ in 0..(*entry.count.get_ref()).min(most_dice) {
                    dice.push(Die {
                        faces: faces
                            .get_ref()
                            .iter()
                            .map(|f| face(f, diagnostics))
                            .collect(),
                        origin: Origin::new(file, faces.span()),
                    });
                }
            }
            (None, Some(each)) => {
                for die in each {
                    dice.push(Die {
                        faces: die.get_ref().iter().map(|f| face(f, diagnostics)).collect(),
                        origin: Origin::new(file, die.span()),
                    });
                }
            }
            (Some(_), Some(each)) => diagnostics.push(
                Diagnostic::error(
                    Code::InvalidValue,
                    "a dice set has either `faces` or `dice`, not both",
                )
                .with_primary(
                    each.first().map_or(origin, |d| Origin::new(file, d.span())),
                    "`dice` here",
                )
                .with_help("`faces` gives every die the same faces; `dice` lists each die's faces"),
            ),
            (None, None) => diagnostics.push(
                Diagnostic::error(
                    Code::EmptyGroup,
                    format!("dice set `{}` has no faces", entry.id.get_ref()),
                )
                .with_primary(Origin::new(file, entry.id.span()), "this set")
                .with_help("add `faces = [...]` (the same for every die) or `dice = [[...], ...]`"),
            ),
        }
        sets.push(DiceSet {
            id: entry.id.get_ref().clone(),
            name: entry.name,
            role,
            count: Located::new(
                *entry.count.get_ref(),
                Origin::new(file, entry.count.span()),
            ),
            sides: Located::new(
                *entry.sides.get_ref(),
                Origin::new(file, entry.sides.span()),
            ),
            dice,
            origin,
        });
    }
    for (role, most, what) in [
        (DiceRole::Expedition, MAX_EXPEDITION_DICE, "expedition"),
        (DiceRole::Capture, MAX_CAPTURE_DICE, "capture"),
    ] {
        let total: usize = sets
            .iter()
            .filter(|s| s.role == role)
            .map(|s| s.dice.len())
            .sum();
        if total > most as usize
            && let Some(last) = sets.iter().rev().find(|s| s.role == role)
        {
            diagnostics.push(
                Diagnostic::error(
                    Code::InvalidValue,
                    format!("a game has at most {most} {what} dice in all its sets"),
                )
                .with_primary(last.count.origin, format!("{total} {what} dice in all")),
            );
        }
    }
    (sets, names)
}

fn load_deck(
    file: FileId,
    text: &str,
    species: &Names<SpeciesId>,
    items: &Names<ItemId>,
    tracks: &Names<TrackId>,
    diagnostics: &mut Diagnostics,
) -> (Deck, Names<CardId>) {
    let mut deck = Deck {
        name: String::new(),
        size: None,
        cards: Vec::new(),
        origin: Origin::new(file, 0..0),
    };
    let (header, entries) = toml_read::read::<DeckFile, CardEntry>(file, text, "card", diagnostics);
    if let Some(header) = header {
        deck.name = header.name;
        deck.size = header
            .size
            .map(|s| Located::new(*s.get_ref(), Origin::new(file, s.span())));
    }
    let mut names: Names<CardId> = Names::new("card");
    let (mut physical, mut deck_too_big) = (0u32, false);
    for (entry, origin) in entries {
        let card_id = CardId(deck.cards.len() as u32);
        let id = match &entry.id {
            Some(id) => {
                define(&mut names, id, card_id, file, diagnostics);
                id.get_ref().clone()
            }
            None => {
                let base = entry.species.get_ref().clone();
                let id = (1..)
                    .map(|n| {
                        if n == 1 {
                            base.clone()
                        } else {
                            format!("{base}-{n}")
                        }
                    })
                    .find(|candidate| names.get(candidate).is_none())
                    .expect("some suffix is free");
                let _ = names.define(&id, card_id, Origin::new(file, entry.species.span()));
                id
            }
        };
        let (grass, water) = match &entry.habitats {
            Some(h) => parse_habitats(h, file, diagnostics),
            None => (0, 0),
        };
        let mut copies = entry.copies.as_ref().map_or(Located::new(1, origin), |c| {
            Located::new(*c.get_ref(), Origin::new(file, c.span()))
        });
        if copies.value > MAX_COPIES {
            diagnostics.push(
                Diagnostic::error(
                    Code::LimitExceeded,
                    format!("a card has at most {MAX_COPIES} copies"),
                )
                .with_primary(copies.origin, "too many"),
            );
            copies.value = MAX_COPIES;
        }
        physical += copies.value;
        if physical > limits::MAX_DECK_SIZE && !deck_too_big {
            deck_too_big = true;
            diagnostics.push(
                Diagnostic::error(
                    Code::LimitExceeded,
                    format!("the deck holds more than {} cards", limits::MAX_DECK_SIZE),
                )
                .with_primary(copies.origin, "the deck passes the limit here"),
            );
        }
        deck.cards.push(Card {
            id,
            species: Located::new(
                resolve(species, &entry.species, file),
                Origin::new(file, entry.species.span()),
            ),
            capture_rate: Located::new(
                *entry.capture_rate.get_ref(),
                Origin::new(file, entry.capture_rate.span()),
            ),
            grass,
            water,
            habitats_origin: entry.habitats.as_ref().map(|h| Origin::new(file, h.span())),
            area: entry
                .area
                .as_ref()
                .map(|a| Located::new(resolve(tracks, a, file), Origin::new(file, a.span()))),
            item: entry
                .item
                .as_ref()
                .map(|i| Located::new(resolve(items, i, file), Origin::new(file, i.span()))),
            copies,
            flavor: entry.flavor,
            art: entry
                .art
                .map(|a| Located::new(a.get_ref().clone(), Origin::new(file, a.span()))),
            origin,
        });
    }
    (deck, names)
}

/// Reads `"[G][W][W]"` into grass and water counts.
fn parse_habitats(
    value: &toml::Spanned<String>,
    file: FileId,
    diagnostics: &mut Diagnostics,
) -> (u32, u32) {
    let text = value.get_ref();
    let (mut grass, mut water) = (0, 0);
    let mut rest = text.as_str();
    let mut offset = 0;
    while !rest.is_empty() {
        let trimmed = rest.trim_start();
        offset += rest.len() - trimmed.len();
        rest = trimmed;
        if rest.is_empty() {
            break;
        }
        let token = if rest.len() >= 3 { rest.get(..3) } else { None };
        match token.map(|t| t.to_ascii_uppercase()).as_deref() {
            Some("[G]") => grass += 1,
            Some("[W]") => water += 1,
            _ => {
                // Point at the bad text when the source spells the string as read (a plain
                // quoted string); otherwise at the whole value.
                let span = value.span();
                let (start, len) = if span.len() == text.len() + 2 {
                    (
                        span.start + 1 + offset,
                        rest.chars().next().map_or(1, char::len_utf8),
                    )
                } else {
                    (span.start, span.len())
                };
                diagnostics.push(
                    Diagnostic::error(
                        Code::InvalidValue,
                        "habitats are written `[G]` (grass) and `[W]` (water)",
                    )
                    .with_primary(Origin::new(file, start..start + len), "not a habitat")
                    .with_help("for example `habitats = \"[W][W][W]\"` for three water habitats"),
                );
                return (grass, water);
            }
        }
        rest = &rest[3..];
        offset += 3;
    }
    (grass, water)
}
