//! The JSON ruleset's writer: Safari Zone RNW's model as the format the engine reads
//! (`safari_engine::ruleset`, docs/ruleset.md).

use std::collections::HashMap;

use super::build::Context;
use super::model::{self, Game};
use crate::backends::Output;
use crate::layout::{Rect, SheetLayout};
pub use safari_engine::ruleset::*;

/// The ruleset backend: `ruleset.json`.
pub fn output(context: &Context) -> Output {
    let ruleset = build_laid_out(context.game, &content_hash(context.folder), context.layout);
    let mut bytes = serde_json::to_vec_pretty(&ruleset).expect("rulesets serialise");
    bytes.push(b'\n');
    Output {
        path: "ruleset.json".to_string(),
        bytes,
    }
}

/// SHA-256 over the content sources read (TOML and KDL, not the Typst of the print files),
/// sorted by name (name, NUL, text, NUL each).
pub fn content_hash(folder: &crate::world::GameFolder) -> String {
    let digest = crate::load::sources_digest(folder, |name| !name.ends_with(".typ"));
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// The ruleset of a game that checked without errors.
pub fn build(game: &Game, content_hash: &str) -> Ruleset {
    let item = |id: model::ItemId| game.item(id).id.clone();
    let species = |id: model::SpeciesId| game.species(id).id.clone();
    let guide = &game.guide;
    let manifest = &game.manifest;
    Ruleset {
        format: FORMAT.to_string(),
        format_version: FORMAT_VERSION,
        game: GameInfo {
            id: manifest.id.clone(),
            name: manifest.name.clone(),
            rules: manifest.rules.clone(),
            // The designer's versions: `content_hash` identifies the content itself.
            versions: manifest
                .versions
                .iter()
                .filter(|(part, _)| part != crate::load::CONTENT_VERSION)
                .cloned()
                .collect(),
        },
        content_hash: content_hash.to_string(),
        parameters: Parameters {
            players_min: manifest.players.0,
            players_max: manifest.players.1,
            turns: manifest.turns.as_ref().map_or(0, |t| t.value),
            safari_balls: manifest.safari_balls.as_ref().map_or(0, |b| b.value),
            rolls_per_turn: manifest.rolls_per_turn,
            hazard_limit: manifest.hazard_limit,
            event_fills: manifest.event_fills,
        },
        dice: game
            .dice
            .iter()
            .map(|set| DiceSet {
                id: set.id.clone(),
                name: set.name.clone(),
                role: set.role,
                dice: set
                    .dice
                    .iter()
                    .map(|die| die.faces.iter().filter_map(|f| face(&f.value)).collect())
                    .collect(),
            })
            .collect(),
        deck: Deck {
            name: game.deck.name.clone(),
            size: game.deck.physical_cards(),
            cards: game
                .deck
                .cards
                .iter()
                .map(|card| Card {
                    id: card.id.clone(),
                    species: card.species.value.map(species).unwrap_or_default(),
                    capture_rate: card.capture_rate.value,
                    criteria: Criteria {
                        grass: card.grass,
                        water: card.water,
                        area: card
                            .area
                            .as_ref()
                            .and_then(|a| a.value)
                            .map(|t| guide.track(t).id.clone()),
                        item: card.item.as_ref().and_then(|i| i.value).map(item),
                    },
                    copies: card.copies.value,
                    flavor: card.flavor.clone(),
                })
                .collect(),
        },
        species: game
            .species
            .iter()
            .map(|s| Species {
                id: s.id.clone(),
                name: s.name.clone(),
                dex: s.dex,
                evolutions: s
                    .evolutions
                    .iter()
                    .filter_map(|e| {
                        Some(Evolution {
                            into: species(e.into?),
                            item: e.by?.map(item),
                        })
                    })
                    .collect(),
            })
            .collect(),
        items: game
            .items
            .iter()
            .map(|i| Item {
                id: i.id.clone(),
                name: i.name.clone(),
                kind: i.kind,
                effects: i.effects.iter().map(|s| s.value).collect(),
            })
            .collect(),
        field_guide: FieldGuide {
            title: guide.title.clone(),
            columns: guide.columns,
            sections: guide
                .sections
                .iter()
                .map(|section| Section {
                    id: section.id.clone(),
                    title: section.title.clone(),
                    column: section.placement.column,
                    row: section.placement.row,
                    width: section.placement.width,
                    height: section.placement.height,
                    tracks: section
                        .tracks
                        .iter()
                        .map(|t| {
                            let track = guide.track(*t);
                            Track {
                                id: track.id.clone(),
                                title: track.title.clone(),
                                loose: track.loose,
                                flow: track.flow,
                                boxes: track
                                    .boxes
                                    .iter()
                                    .map(|b| guide_box(game, guide.get(*b)))
                                    .collect(),
                            }
                        })
                        .collect(),
                })
                .collect(),
        },
        scoring: Scoring {
            score: "sum of the victory points of filled boxes".to_string(),
            tie_breaks: vec!["unique species collected".to_string()],
        },
        sheet: None,
    }
}

/// [`build`], with where the sheet `layout` prints each section and box.
pub(crate) fn build_laid_out(
    game: &Game,
    content_hash: &str,
    layout: Option<&SheetLayout>,
) -> Ruleset {
    let mut ruleset = build(game, content_hash);
    ruleset.sheet = layout.map(|layout| places(&ruleset, layout));
    ruleset
}

/// The layout's rectangles of the ruleset's sections and boxes, in its order, in mm to a
/// hundredth (what a screen or a pen can tell apart).
fn places(ruleset: &Ruleset, layout: &SheetLayout) -> SheetPlaces {
    let mm = |value: f64| (value * 100.0).round() / 100.0;
    let place = |id: &str, rect: &Rect| Place {
        id: id.to_string(),
        x: mm(rect.x),
        y: mm(rect.y),
        width: mm(rect.w),
        height: mm(rect.h),
    };
    let boxes: HashMap<&str, &Rect> = layout
        .items()
        .filter_map(|(_, item)| match item {
            crate::layout::Item::Box { rect, id, .. } => Some((id.as_str(), rect)),
            _ => None,
        })
        .collect();
    let sections: HashMap<&str, &Rect> = layout
        .sections
        .iter()
        .map(|s| (s.id.as_str(), &s.rect))
        .collect();
    let guide = &ruleset.field_guide;
    SheetPlaces {
        width_mm: mm(layout.width),
        height_mm: mm(layout.height),
        sections: guide
            .sections
            .iter()
            .filter_map(|s| sections.get(s.id.as_str()).map(|rect| place(&s.id, rect)))
            .collect(),
        boxes: guide
            .sections
            .iter()
            .flat_map(|s| &s.tracks)
            .flat_map(|t| &t.boxes)
            .filter_map(|b| boxes.get(b.id.as_str()).map(|rect| place(&b.id, rect)))
            .collect(),
    }
}

fn face(face: &model::Face) -> Option<Face> {
    match face {
        model::Face::Action(a) => Some(Face::Action(*a)),
        model::Face::Number(n) => Some(Face::Number(*n)),
        model::Face::Invalid => None,
    }
}

fn guide_box(game: &Game, def: &model::BoxDef) -> GuideBox {
    let item = |id: model::ItemId| game.item(id).id.clone();
    let species = |id: model::SpeciesId| game.species(id).id.clone();
    GuideBox {
        id: def.id.clone(),
        shape: def.shape,
        style: def.style,
        fill: match &def.terms.cause.value {
            model::Cause::Dice(a) => Fill::Dice { face: *a },
            model::Cause::Turn => Fill::Turn,
            model::Cause::Ball => Fill::Ball,
            model::Cause::Collect(list) => Fill::Collect {
                species: list.iter().map(|s| species(*s)).collect(),
            },
            model::Cause::Use(i) => Fill::Use { item: item(*i) },
            model::Cause::Obtain(list) => Fill::Obtain {
                items: list.iter().map(|i| item(*i)).collect(),
            },
            model::Cause::Free => Fill::Free,
            model::Cause::Bonus | model::Cause::Unknown => Fill::Bonus,
        },
        requires: def
            .terms
            .requires
            .iter()
            .filter_map(|r| match r.value {
                model::Requirement::Item(i) => Some(Requirement::Item { item: item(i) }),
                model::Requirement::Species(s) => Some(Requirement::Species {
                    species: species(s),
                }),
                model::Requirement::Area(t) => Some(Requirement::Area {
                    track: game.guide.track(t).id.clone(),
                }),
                model::Requirement::Box(b) => Some(Requirement::Box {
                    id: game.guide.get(b).id.clone(),
                }),
                model::Requirement::Vp(n) => Some(Requirement::Vp { at_least: n }),
                model::Requirement::Unknown => None,
            })
            .collect(),
        rewards: def
            .terms
            .rewards
            .iter()
            .filter_map(|r| match r.value {
                model::Reward::Item(i) => Some(Reward::Item { item: item(i) }),
                model::Reward::Species(s) => Some(Reward::Species {
                    species: species(s),
                }),
                model::Reward::Habitat(habitat) => Some(Reward::Habitat { habitat }),
                model::Reward::Unknown => None,
            })
            .collect(),
        vp: def.vp,
        label: def.label.clone(),
    }
}
