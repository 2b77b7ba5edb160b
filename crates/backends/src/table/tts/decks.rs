//! A game of components' decks on the table: each deck's cards (a card per copy of a design,
//! on its sheets), dealt as the setup for a number of players says: hands to the seats
//! (placed there by the layout), grids beside the boards, cards set aside, and the rest as the
//! draw pile, face down unless the setup stacks it face up.

use super::layout::{Ctx, deck_sheets, middle_at, sheet_stem, thing};
use super::{MM_PER_UNIT, What};
use crate::components::{Setup, Table};
use crate::tts::table::Deal;
use crate::tts::things::{self, Kind, Pose, Thing};

/// The spacing of cards laid in a grid, in game units (a card at scale 1 is about 2.2 x 3.1).
const CARD_STEP: (f64, f64) = (2.6, 3.6);

/// One deck's cards on its sheets, and the design of each.
struct Cards {
    cards: Vec<things::Card>,
    designs: Vec<usize>,
    sheets: serde_json::Map<String, serde_json::Value>,
}

fn cards(ctx: &Ctx, ix: usize) -> Cards {
    let deck = &ctx.data.decks[ix];
    let back = (ctx.url)(&format!("deck-{}-back", deck.id));
    let mut made = Cards {
        cards: Vec::new(),
        designs: Vec::new(),
        sheets: serde_json::Map::new(),
    };
    for (sheet_ix, sheet) in deck_sheets(ctx, ix).iter().enumerate() {
        let What::DeckSheet {
            first,
            count,
            columns,
            rows,
            ..
        } = sheet.what
        else {
            continue;
        };
        let deck_id = 100 * (ix + 1) + sheet_ix + 1;
        made.sheets.insert(
            deck_id.to_string(),
            crate::tts::custom_deck(
                &(ctx.url)(sheet_stem(sheet)),
                &back,
                columns as u32,
                rows as u32,
            ),
        );
        for design in first..first + count {
            let card = &deck.designs[design];
            let mut description = card.text.clone();
            if let Some(caption) = &card.caption {
                description = format!("{description}\n{caption}").trim().to_string();
            }
            for copy in 0..card.copies {
                made.cards.push(things::Card {
                    role: format!("card/{}/{}/{copy}", deck.id, card.id),
                    name: card.title.clone(),
                    description: description.clone(),
                    id: (deck_id * 100 + (design - first)) as u32,
                    memo: serde_json::json!({ "deck": deck.id, "card": card.id }).to_string(),
                });
                made.designs.push(design);
            }
        }
    }
    made
}

/// A pile of some of the deck's cards (by index): a deck, or a lone card.
fn pile(
    ctx: &Ctx,
    ix: usize,
    made: &Cards,
    which: &[usize],
    (role, name): (&str, &str),
) -> Option<Thing> {
    let deck = &ctx.data.decks[ix];
    let mut cards: Vec<things::Card> = which.iter().map(|c| made.cards[*c].clone()).collect();
    match cards.as_mut_slice() {
        [] => return None,
        [one] if role == "/aside" => one.name = format!("{} (set aside)", one.name),
        _ => {}
    }
    let kind = Kind::Cards(things::Cards {
        cards,
        sheets: made.sheets.clone(),
    });
    let description = deck_description(ctx.table, ix);
    Some(thing(
        format!("deck/{}{role}", deck.id),
        name,
        &description,
        kind,
    ))
}

/// Deck `ix` as `setup` lays it out: its draw pile with the cards it sets aside beside it (in
/// a row below the boards, a deck every 6 units so that neither touches the next deck), and
/// what the setup object deals from it once the number of players is chosen (shuffled then:
/// every load deals anew): the hands, then the grids' cards beside the boards.
pub(super) fn lay(
    ctx: &Ctx,
    ix: usize,
    setup: Option<&Setup>,
    middle: &mut Vec<(Thing, Pose)>,
    deals: &mut Vec<Deal>,
) {
    let deck = &ctx.data.decks[ix];
    let made = cards(ctx, ix);
    let face_up = setup.is_some_and(|s| s.stacks.iter().any(|k| k.deck == ix && k.face_up));
    let boards = ctx.data.boards.iter().fold((0.0f64, 0.0f64), |(w, h), b| {
        (
            w.max(b.width / MM_PER_UNIT / 2.0),
            h.max(b.height / MM_PER_UNIT / 2.0),
        )
    });
    let (x, z) = (-6.0 + 6.0 * ix as f64, -(boards.1 + 4.0));
    let mut place = |pile: Option<Thing>, at_x: f64, at_z: f64, face_up: bool| {
        if let Some(pile) = pile {
            let pose = Pose {
                face_down: !face_up,
                ..middle_at(at_x, 1.0, at_z)
            };
            middle.push((pile, pose));
        }
    };
    let mut rest: Vec<usize> = (0..made.cards.len()).collect();
    let mut removed = Vec::new();
    for remove in setup
        .iter()
        .flat_map(|s| &s.removes)
        .filter(|r| r.deck == ix)
    {
        if let Some(k) = rest.iter().position(|c| made.designs[*c] == remove.card) {
            removed.push(rest.remove(k));
        }
    }
    let aside = format!("{}: set aside", deck.name);
    let set_aside = pile(ctx, ix, &made, &removed, ("/aside", &aside));
    place(set_aside, x + 3.0, z, true);
    let draw_pile = pile(ctx, ix, &made, &rest, ("", &deck.name));
    place(draw_pile, x, z, face_up);
    let Some(setup) = setup else {
        return;
    };
    let each = setup
        .deals
        .iter()
        .filter(|d| d.deck == ix)
        .map(|d| d.each)
        .sum();
    let cells: Vec<Pose> = setup
        .grids
        .iter()
        .filter(|g| g.deck == ix)
        .flat_map(|g| grid_cells(ctx, boards, g))
        .collect();
    if each > 0 || !cells.is_empty() {
        deals.push(Deal {
            deck: format!("deck/{}", deck.id),
            each,
            cells,
        });
    }
}

/// Where a grid's cards lie, row by row: beside the boards, level with them (above the row of
/// decks when there is no board).
fn grid_cells(ctx: &Ctx, boards: (f64, f64), grid: &crate::components::Grid) -> Vec<Pose> {
    let (rows, columns) = (grid.rows as usize, grid.columns as usize);
    let width = CARD_STEP.0 * columns as f64;
    let height = CARD_STEP.1 * rows as f64;
    let (left, top) = match ctx.data.boards.is_empty() {
        true => (-width / 2.0, height),
        false => (boards.0 + 3.0, height / 2.0),
    };
    (0..rows * columns)
        .map(|k| {
            let (row, column) = (k / columns, k % columns);
            Pose {
                face_down: !grid.face_up,
                ..middle_at(
                    left + CARD_STEP.0 * (column as f64 + 0.5),
                    1.0,
                    top - CARD_STEP.1 * (row as f64 + 0.5),
                )
            }
        })
        .collect()
}

/// A deck's description: how each player count's setup uses it.
fn deck_description(table: &Table, ix: usize) -> String {
    let mut lines = Vec::new();
    for setup in &table.setups {
        let mut what = Vec::new();
        for deal in setup.deals.iter().filter(|d| d.deck == ix) {
            what.push(format!("deal {} to each player", deal.each));
        }
        for grid in setup.grids.iter().filter(|g| g.deck == ix) {
            what.push(format!(
                "lay {} rows of {} face {}",
                grid.rows,
                grid.columns,
                if grid.face_up { "up" } else { "down" }
            ));
        }
        for stack in setup.stacks.iter().filter(|k| k.deck == ix) {
            what.push(format!(
                "stack face {}",
                if stack.face_up { "up" } else { "down" }
            ));
        }
        for remove in setup.removes.iter().filter(|r| r.deck == ix) {
            what.push(format!(
                "remove {}",
                table.decks[ix].cards[remove.card].title
            ));
        }
        if !what.is_empty() {
            let players: Vec<String> = setup.players.iter().map(u32::to_string).collect();
            lines.push(format!(
                "{} players: {}",
                players.join(", "),
                what.join(", ")
            ));
        }
    }
    lines.join("\n")
}
