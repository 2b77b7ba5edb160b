//! The playtest page (`play/index.html`): Safari Zone RNW to play in a browser, from its
//! ruleset alone, with the sheet, the cards and the dice drawn as the print files draw them.
//!
//! The page itself (the engine as WebAssembly, its script) is `safari_playtest`'s; this module
//! hands it the ruleset, the planner's model of it (fitted here, while the pictures are drawn)
//! and the typeset pages as SVG: the Field Guide's two sides, each card design and its back,
//! each die face. The boxes' places on the sheet are in the ruleset (`field_guide.page`), so
//! the page marks a box where the paper has it.

use std::collections::HashMap;
use std::sync::Arc;

use rayon::prelude::*;
use typst_layout::{Page, PagedDocument};

use crate::backends::Output;
use crate::backends::print::cache::{self, Reuse};
use crate::safari_zone::ruleset::Ruleset;

/// A typeset page as an SVG document, at its trim size.
fn svg(page: &Page) -> String {
    typst_svg::svg(
        page,
        &typst_svg::SvgOptions {
            render_bleed: false,
            pretty: false,
        },
    )
}

/// The Field Guide's two sides as SVG, and its size in mm.
pub struct SheetPictures {
    front: String,
    back: String,
    size_mm: (f64, f64),
}

impl SheetPictures {
    /// The sheet's first two pages (the Field Guide and the Park Rules).
    pub fn of(document: &PagedDocument) -> SheetPictures {
        let pages = document.pages();
        let (front, back) = rayon::join(
            || pages.first().map(svg).unwrap_or_default(),
            || pages.get(1).map(svg).unwrap_or_default(),
        );
        let size_mm = pages.first().map_or((0.0, 0.0), |page| {
            let size = page.frame.size();
            (size.x.to_mm(), size.y.to_mm())
        });
        SheetPictures {
            front,
            back,
            size_mm,
        }
    }
}

impl cache::Weigh for SheetPictures {
    fn bytes(&self) -> usize {
        self.front.len() + self.back.len()
    }
}

/// The page, from the ruleset and the typeset sheet, cards (each design, then the back) and
/// die faces (every face of every die, in the ruleset's order).
pub fn page(
    ruleset: &Ruleset,
    ruleset_json: &str,
    sheet: &SheetPictures,
    cards: &PagedDocument,
    die_faces: &PagedDocument,
    reuse: Reuse,
) -> Output {
    // The planner's model is fitted while the pictures are drawn.
    let (pictures, model) = rayon::join(
        || pictures(ruleset, sheet, cards, die_faces),
        || planner_model(ruleset_json, reuse),
    );
    Output {
        path: "play/index.html".to_string(),
        bytes: safari_playtest::page(&ruleset.game.name, ruleset_json, &pictures, &model),
    }
}

/// The pictures the page draws with: the sheet, each card design and the back, each die face
/// once, and where each die's faces are among them.
fn pictures(
    ruleset: &Ruleset,
    sheet: &SheetPictures,
    cards: &PagedDocument,
    die_faces: &PagedDocument,
) -> safari_playtest::Pictures {
    let card_pages = cards.pages();
    let (designs, back) = card_pages.split_at(card_pages.len().saturating_sub(1));
    let mut faces: Vec<String> = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    let drawn: Vec<String> = die_faces.pages().par_iter().map(svg).collect();
    let mut face_pages = drawn.into_iter();
    let dice = ruleset
        .dice
        .iter()
        .map(|set| {
            set.dice
                .iter()
                .map(|die| {
                    die.iter()
                        .filter_map(|_| face_pages.next())
                        .map(|svg| {
                            *seen.entry(svg.clone()).or_insert_with(|| {
                                faces.push(svg);
                                faces.len() - 1
                            })
                        })
                        .collect()
                })
                .collect()
        })
        .collect();
    safari_playtest::Pictures {
        sheet: vec![sheet.front.clone(), sheet.back.clone()],
        sheet_mm: sheet.size_mm,
        cards: ruleset
            .deck
            .cards
            .par_iter()
            .zip(designs)
            .map(|(card, page)| (card.id.clone(), svg(page)))
            .collect(),
        card_back: back.first().map(svg),
        faces,
        dice,
    }
}

/// The planner's model of the ruleset, fitted here once so that the page's planner plays its
/// first move at once (the page's engine would take seconds to fit it, on one thread); none
/// (empty) for a ruleset the engine would not play, which the page refuses anyway. A session
/// (`watch`) keeps it for the rules it was fitted to, so that an edit of what only people read
/// fits no new one.
fn planner_model(ruleset_json: &str, reuse: Reuse) -> String {
    let key = cache::key(&("planner model", rules_of_play(ruleset_json)));
    if let Some(kept) = reuse.0.and_then(|cache| cache.peek::<Vec<u8>>(key)) {
        return String::from_utf8_lossy(&kept).into_owned();
    }
    let model = match safari_engine::load(ruleset_json.as_bytes()) {
        Ok(rules) => serde_json::to_string(&safari_engine::search::Model::planner(&rules))
            .expect("a model serialises"),
        Err(_) => String::new(),
    };
    if let Some(cache) = reuse.0 {
        cache.put(key, Arc::new(model.clone().into_bytes()));
    }
    model
}

/// What only people read of a ruleset: its content's hash, the game's name and versions, where
/// the sheet prints each box, and every name, title, label and flavour text.
const READ_ONLY_BY_PEOPLE: [&str; 4] = ["name", "title", "label", "flavor"];
const TOP_LEVEL_READ_ONLY_BY_PEOPLE: [&str; 3] = ["content_hash", "game", "sheet"];

/// The ruleset without what only people read: what the rules play, and the planner's model
/// is fitted to.
fn rules_of_play(ruleset_json: &str) -> String {
    let Ok(mut ruleset) = serde_json::from_str::<serde_json::Value>(ruleset_json) else {
        return ruleset_json.to_string();
    };
    if let Some(top) = ruleset.as_object_mut() {
        top.retain(|key, _| !TOP_LEVEL_READ_ONLY_BY_PEOPLE.contains(&key.as_str()));
    }
    let mut values = vec![&mut ruleset];
    while let Some(value) = values.pop() {
        match value {
            serde_json::Value::Object(fields) => {
                fields.retain(|key, _| !READ_ONLY_BY_PEOPLE.contains(&key.as_str()));
                values.extend(fields.values_mut());
            }
            serde_json::Value::Array(items) => values.extend(items.iter_mut()),
            _ => {}
        }
    }
    ruleset.to_string()
}

#[cfg(test)]
mod tests {
    use super::rules_of_play;

    const RULESET: &str = r#"{"content_hash":"sha256:1","game":{"name":"A"},"sheet":{"width_mm":210},
        "species":[{"id":"a","name":"Ay"}],"deck":{"cards":[{"id":"c","flavor":"Hm","capture_rate":4}]},
        "field_guide":{"title":"T","sections":[{"title":"S","tracks":[{"boxes":[{"id":"b","label":"L","vp":1}]}]}]}}"#;

    #[test]
    fn what_only_people_read_leaves_the_rules_of_play_as_they_are() {
        let plain = rules_of_play(RULESET);
        for (read, by_people) in [
            ("sha256:1", "sha256:2"),
            (r#""name":"A""#, r#""name":"B""#),
            (r#""width_mm":210"#, r#""width_mm":1e9"#),
            (r#""name":"Ay""#, r#""name":"Bee""#),
            (r#""flavor":"Hm""#, r#""flavor":"Ho""#),
            (r#""label":"L""#, r#""label":"M""#),
            (r#""title":"S""#, r#""title":"U""#),
        ] {
            assert_eq!(
                rules_of_play(&RULESET.replace(read, by_people)),
                plain,
                "{by_people}"
            );
        }
        for (played, otherwise) in [
            (r#""vp":1"#, r#""vp":2"#),
            (r#""capture_rate":4"#, r#""capture_rate":5"#),
        ] {
            assert_ne!(
                rules_of_play(&RULESET.replace(played, otherwise)),
                plain,
                "{otherwise}"
            );
        }
    }
}
