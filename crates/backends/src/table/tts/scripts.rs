//! The scripted objects a game of components has besides its setup and rules objects: each
//! seat's sheets, marked as on paper (`tts/marks.lua`), and the rules module's own blocks
//! (`components::rules::TableScript`), wired to the rules object, the bags and the seats.

use serde_json::json;

use super::MM_PER_UNIT;
use super::layout::{Ctx, bagged, thing};
use crate::tts::seat_colour;
use crate::tts::things::{Kind, Script, Thing};

/// What a sheet's marks script starts from (`tts/marks.lua`): its seat's colour, its page and
/// every box's place on it (mm, to a hundredth), named as the sheet names it; nothing marked.
pub(super) fn marks_state(
    ctx: &Ctx,
    sheet: &crate::table::data::SheetPageData,
) -> serde_json::Value {
    let mm = |value: f64| (value * 100.0).round() / 100.0;
    let labels: std::collections::HashMap<&str, &str> = ctx
        .table
        .sheets
        .iter()
        .filter(|s| s.id.value == sheet.id)
        .flat_map(|s| &s.guide.boxes)
        .filter_map(|b| Some((b.id.as_str(), b.label.as_deref()?)))
        .collect();
    let boxes: Vec<serde_json::Value> = sheet
        .layout
        .items()
        .filter_map(|(_, item)| match item {
            crate::layout::Item::Box { rect, id, .. } => Some(json!({
                "id": id,
                "label": labels.get(id.as_str()).copied().unwrap_or(id),
                "x": mm(rect.x), "y": mm(rect.y), "width": mm(rect.w), "height": mm(rect.h),
            })),
            _ => None,
        })
        .collect();
    json!({
        "colour": { "$seat": "colour" },
        "page": [mm(sheet.layout.width), mm(sheet.layout.height)],
        "boxes": boxes,
        "marked": [],
    })
}

/// The rules module's own scripted objects, wired to the rules object, the sets' bags and the
/// seats (`components::rules::TableScript` says what each finds in its state).
pub(super) fn rules_scripts(ctx: &Ctx, room_at: Option<(f64, f64)>) -> Vec<Thing> {
    let data = ctx.data;
    let bags: serde_json::Map<String, serde_json::Value> = data
        .tiles
        .iter()
        .chain(&data.tokens)
        .enumerate()
        .filter(|&(set_ix, _)| bagged(ctx, set_ix))
        .map(|(_, set)| {
            (
                set.id.clone(),
                json!({ "$guid": format!("bag/{}", set.id) }),
            )
        })
        .collect();
    let seats: Vec<serde_json::Value> = (0..ctx.table.manifest.players.1 as usize)
        .map(|k| {
            let sheets: serde_json::Map<String, serde_json::Value> = data
                .sheets
                .iter()
                .map(|sheet| {
                    let role = format!("sheet/{}/{}", sheet.id, k + 1);
                    (sheet.id.clone(), json!({ "$guid": role }))
                })
                .collect();
            json!({
                "colour": seat_colour(k),
                "hand": { "$guid": format!("hand/{}", k + 1) },
                "sheets": sheets,
            })
        })
        .collect();
    data.table_scripts
        .iter()
        .map(|script| {
            let mut block = thing(
                format!("rules-script/{}", script.id),
                &script.name,
                &script.description,
                Kind::Block,
            );
            block.locked = true;
            block.script = Some(Script {
                lua: crate::tts::rules_module_script(script.lua),
                state: json!({
                    "rules": { "$guid": "ruleset" },
                    "rules_name": crate::tts::rules_name(&data.name),
                    "format": crate::table::ruleset::FORMAT,
                    "version": crate::table::ruleset::VERSION,
                    "sets": bags,
                    "seats": seats,
                    "mm_per_unit": MM_PER_UNIT,
                    // The middle of the room the layout kept for it.
                    "origin": script.room.and(room_at).map(|(x, z)| [x, z]),
                }),
            });
            block
        })
        .collect()
}
