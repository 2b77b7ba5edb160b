//! Safari Zone RNW's exports drawn from typeset pages: the Tabletop Simulator save
//! ([`super::tts`]) and the playtest page ([`super::playtest`]), run by the print backend
//! where the pages were typeset (the bounded worker, for the command line), after the
//! documents they draw on.

use std::any::Any;
use std::sync::Arc;

use typst_layout::PagedDocument;

use super::playtest::{self, SheetPictures};
use super::tts::{self, Sheet, SheetTiles, TtsOptions, TtsSources};
use crate::backends::Output;
use crate::backends::print::PageExport;
use crate::backends::print::cache::{self, Key, Reuse};
use crate::backends::print::plan::{ExportPlan, Job, Plan};
use crate::safari_zone::ruleset::Ruleset;

/// The exports as the print backend runs them, after the documents are typeset.
pub struct Export;

/// What the exports last drew of the sheet, for `watch`'s quick pass after an edit the sheet
/// does not show (`BuildOptions::last_sheet`): the Tabletop Simulator tiles and the page's
/// pictures, each when that export was made.
struct LastSheet {
    tiles: Option<Arc<SheetTiles>>,
    pictures: Option<Arc<SheetPictures>>,
}

/// Where a session's cache keeps the last export's sheet pictures of a game.
fn last_pictures_key(game_id: &str) -> Key {
    cache::key(&("last sheet pictures", game_id))
}

/// Whether a job is the Field Guide typeset only for the exports (no PDF, no previews).
fn only_for_the_export(job: &Job) -> bool {
    job.template == "field-guide.typ" && job.pdf.is_none() && job.previews.is_none()
}

impl PageExport for Export {
    fn reusable(&self, plan: &Plan, reuse: Reuse) -> Option<(String, Arc<dyn Any + Send + Sync>)> {
        let export = plan.export.as_ref()?;
        let cache = reuse.0?;
        if !export.last_sheet || !plan.jobs.iter().any(only_for_the_export) {
            return None;
        }
        let tiles = cache.peek::<SheetTiles>(tts::last_sheet_key(&plan.game_id));
        let pictures = cache.peek::<SheetPictures>(last_pictures_key(&plan.game_id));
        // Every export made must find what it draws of the sheet, or the sheet is typeset.
        if (export.tts.is_some() && tiles.is_none()) || (export.playtest && pictures.is_none()) {
            return None;
        }
        Some((
            "field-guide.typ".to_string(),
            Arc::new(LastSheet { tiles, pictures }) as Arc<dyn Any + Send + Sync>,
        ))
    }

    fn export(
        &self,
        plan: &ExportPlan,
        kept: &[(String, PagedDocument)],
        reused: Option<Arc<dyn Any + Send + Sync>>,
        reuse: Reuse,
    ) -> Vec<Output> {
        let document = |name: &str| {
            kept.iter()
                .find(|(template, _)| template == name)
                .map(|(_, document)| document)
                .expect("the plan keeps what the exports need")
        };
        // Read back from the text ruleset.json holds, in this process or the worker alike.
        let ruleset: Ruleset =
            serde_json::from_str(&plan.ruleset_json).expect("a ruleset reads back from its JSON");
        let last = reused.and_then(|last| last.downcast::<LastSheet>().ok());
        // The two exports draw on the same pages and nothing of each other's: side by side.
        let (tts, playtest) = rayon::join(
            || {
                let settings = plan.tts.as_ref()?;
                let sheet = match last.as_ref().and_then(|last| last.tiles.clone()) {
                    Some(tiles) => Sheet::Last(tiles),
                    None => Sheet::Pages(document("field-guide.typ")),
                };
                Some(tts::export(
                    &ruleset,
                    &plan.ruleset_json,
                    &TtsSources {
                        cards: document("cards.typ"),
                        sheet,
                        die_faces: document("die-faces.typ"),
                    },
                    &TtsOptions {
                        asset_base: settings.asset_base.clone(),
                    },
                    reuse,
                ))
            },
            || {
                if !plan.playtest {
                    return None;
                }
                let sheet = match last.as_ref().and_then(|last| last.pictures.clone()) {
                    Some(pictures) => pictures,
                    None => {
                        let pictures = Arc::new(SheetPictures::of(document("field-guide.typ")));
                        if let Some(cache) = reuse.0 {
                            cache.put(last_pictures_key(&ruleset.game.id), Arc::clone(&pictures));
                        }
                        pictures
                    }
                };
                Some(playtest::page(
                    &ruleset,
                    &plan.ruleset_json,
                    &sheet,
                    document("cards.typ"),
                    document("die-faces.typ"),
                    reuse,
                ))
            },
        );
        let mut outputs = tts.unwrap_or_default();
        outputs.extend(playtest);
        outputs
    }
}
