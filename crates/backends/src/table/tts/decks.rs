//! A game of components' decks on the table: each deck's cards (a card per copy of a design,
//! on its sheets), dealt as the setup for a number of players says: hands to the seats
//! (placed there by the layout), grids beside the boards, cards set aside, and the rest as the
//! draw pile, face down unless the setup stacks it face up.

use super::layout::{Ctx, deck_sheets, hand_name, middle_at, sheet_stem, thing};
use super::{MM_PER_UNIT, What};
use crate::components::{Setup, Table};
use crate::tts::short_hash;
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
                    memo: String::new(),
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

/// Deck `ix` as `setup` deals it for `players`: its piles in the middle (a row below the
/// boards, the grids right of them), each seat's hand into `hands`.
pub(super) fn lay(
    ctx: &Ctx,
    ix: usize,
    players: u32,
    setup: Option<&Setup>,
    middle: &mut Vec<(Thing, Pose)>,
    hands: &mut [Vec<Thing>],
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
    let (x, z) = (-6.0 + 4.0 * ix as f64, -(boards.1 + 4.0));
    let mut place = |pile: Option<Thing>, at_x: f64, at_z: f64, face_up: bool| {
        if let Some(pile) = pile {
            let pose = Pose {
                face_down: !face_up,
                ..middle_at(at_x, 1.0, at_z)
            };
            middle.push((pile, pose));
        }
    };
    let dealt = setup.and_then(|setup| deal(ctx.table, setup, players, ix, &made.designs));
    let Some(dealt) = dealt else {
        let all: Vec<usize> = (0..made.cards.len()).collect();
        place(pile(ctx, ix, &made, &all, ("", &deck.name)), x, z, face_up);
        return;
    };
    for (seat, hand) in dealt.hands.iter().enumerate() {
        let role = format!("/hand/{}", seat + 1);
        let name = hand_name(&deck.name, seat);
        if let (Some(pile), Some(seat)) = (
            pile(ctx, ix, &made, hand, (&role, &name)),
            hands.get_mut(seat),
        ) {
            seat.push(pile);
        }
    }
    for (grid, rows, columns, grid_face_up) in &dealt.grids {
        let width = CARD_STEP.0 * *columns as f64;
        let height = CARD_STEP.1 * *rows as f64;
        let (left, top) = match ctx.data.boards.is_empty() {
            true => (-width / 2.0, height),
            false => (boards.0 + 3.0, height / 2.0),
        };
        for (k, card) in grid.iter().enumerate() {
            let (row, column) = (k / *columns as usize, k % *columns as usize);
            let card_x = left + CARD_STEP.0 * (column as f64 + 0.5);
            // Above the row of decks; beside the boards, level with them.
            let card_z = top - CARD_STEP.1 * (row as f64 + 0.5);
            let one = pile(ctx, ix, &made, &[*card], ("", &deck.name));
            place(one, card_x, card_z, *grid_face_up);
        }
    }
    let aside = format!("{}: set aside", deck.name);
    let set_aside = pile(ctx, ix, &made, &dealt.removed, ("/aside", &aside));
    place(set_aside, x + 3.0, z, true);
    let rest = pile(ctx, ix, &made, &dealt.rest, ("", &deck.name));
    place(rest, x, z, face_up);
}

struct Dealt {
    hands: Vec<Vec<usize>>,
    grids: Vec<(Vec<usize>, u32, u32, bool)>,
    removed: Vec<usize>,
    rest: Vec<usize>,
}

fn deal(
    table: &Table,
    setup: &crate::components::Setup,
    players: u32,
    deck: usize,
    designs: &[usize],
) -> Option<Dealt> {
    use rand::SeedableRng;
    use rand::seq::SliceRandom;
    let deals: Vec<_> = setup.deals.iter().filter(|d| d.deck == deck).collect();
    let grids: Vec<_> = setup.grids.iter().filter(|g| g.deck == deck).collect();
    let removes: Vec<_> = setup.removes.iter().filter(|r| r.deck == deck).collect();
    if deals.is_empty() && grids.is_empty() && removes.is_empty() {
        return None;
    }
    let seed = short_hash(format!("{}\0{deck}", table.manifest.id).as_bytes());
    let seed = u64::from_str_radix(&seed[..8], 16).unwrap_or(0);
    let mut order: Vec<usize> = (0..designs.len()).collect();
    order.shuffle(&mut rand_pcg::Pcg64Mcg::seed_from_u64(seed));
    let mut removed = Vec::new();
    for remove in removes {
        if let Some(k) = order.iter().position(|c| designs[*c] == remove.card) {
            removed.push(order.remove(k));
        }
    }
    let mut take = |n: usize| -> Vec<usize> { order.drain(..n.min(order.len())).collect() };
    let mut hands = vec![
        Vec::new();
        if deals.is_empty() {
            0
        } else {
            players as usize
        }
    ];
    for deal in &deals {
        for hand in &mut hands {
            hand.extend(take(deal.each as usize));
        }
    }
    let grids = grids
        .iter()
        .map(|g| {
            (
                take((g.rows * g.columns) as usize),
                g.rows,
                g.columns,
                g.face_up,
            )
        })
        .collect();
    Some(Dealt {
        hands,
        grids,
        removed,
        rest: order,
    })
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
