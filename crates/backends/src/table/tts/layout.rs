//! Where a game of components' things lie on the table: the boards in the middle, the supplies
//! (bags, stacks, dice, pieces) beside them, the decks as the setup for a number of players
//! deals them, and each seat's sheets, hand, tokens and hand zone at its seat around the table
//! (`crate::tts::seats`), facing its player. The table is laid out for the smallest number of
//! players a setup names; the setup object lays it out again for the others.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::{MM_PER_UNIT, Picture, TILE_UNITS, What, stem};
use crate::components::{Keep, Setup, Table};
use crate::table::data::TableData;
use crate::tts::seats::{self, Seat, SeatSize};
use crate::tts::{Guids, Layout, object, seat_colour, setup_object, transform};

/// What the layout works from: the game, its pictures' addresses.
pub(super) struct Ctx<'a> {
    pub data: &'a TableData,
    pub table: &'a Table,
    pub pictures: &'a [Picture],
    pub url: &'a dyn Fn(&str) -> String,
}

/// The turn (rotY) of what lies in the middle: upright for White, whose seat is at −z
/// (docs/tabletop-simulator.md).
pub(super) const FACING_WHITE: f64 = 180.0;
/// Where the setup object, the rules object and a rules module's script lie along their row.
const CONTROLS_X: [f64; 3] = [-4.0, 0.0, 4.0];

pub(super) fn objects(ctx: &Ctx, guids: &mut Guids, ruleset_json: &str) -> Vec<Value> {
    let table = ctx.table;
    // The first setup is the one laid out (the smallest player count's).
    let laid_out = (table.manifest.players.0..=table.manifest.players.1)
        .find_map(|n| table.setup_for(n).map(|setup| (n, setup)));
    let players = laid_out.map_or(table.manifest.players.0, |(players, _)| players);
    let (mut objects, boards) = boards(ctx, guids);
    let right = boards.0 + 3.0;
    let (supplies, bags) = supplies(ctx, guids, right);
    objects.extend(supplies);
    // The table's own objects (the setup, the rules, the rules module's script) in a row
    // before the decks, on White's side.
    let controls = -(boards.1 + 8.0);
    let mut fixed = Extent::of(&objects)
        .with(boards)
        .with((CONTROLS_X[2].abs() + 2.0, controls.abs() + 2.0));
    // The room the rules module's script lays things out in, beyond the supplies (+z).
    let room_at = ctx.data.table_script.as_ref().map(|script| {
        let (width, depth) = script.room;
        let at = (0.0, fixed.1 + 1.0 + depth / 2.0);
        fixed = fixed.with((width / 2.0 + 1.0, fixed.1 + depth + 2.0));
        at
    });
    let before = guids.clone();
    let seated = at_the_table(ctx, players, laid_out.map(|(_, s)| s), guids, fixed);
    let (fewest, most) = table.manifest.players;
    if fewest < most {
        let layouts: BTreeMap<u32, Layout> = (fewest..=most)
            .map(|count| {
                if count == players {
                    return (count, Layout::default());
                }
                let setup = table.setup_for(count);
                let spawn = at_the_table(ctx, count, setup, &mut before.clone(), fixed);
                // Put out again, not moved: a deck of the same name holds other cards.
                let remove = seated.iter().map(guid_of).collect();
                let moves = Vec::new();
                (
                    count,
                    Layout {
                        remove,
                        moves,
                        spawn,
                    },
                )
            })
            .collect();
        objects.push(setup_object(
            guids.next("setup"),
            &ctx.data.name,
            players,
            layouts,
            transform(CONTROLS_X[0], controls, FACING_WHITE, 1.0),
        ));
    }
    objects.extend(seated);
    objects.extend(rules_objects(
        ctx,
        guids,
        ruleset_json,
        controls,
        (bags, room_at),
    ));
    objects
}

fn guid_of(object: &Value) -> String {
    object["GUID"].as_str().unwrap_or_default().to_string()
}

pub(super) fn at(object: &mut Value, x: f64, y: f64, z: f64) {
    object["Transform"]["posX"] = json!(x);
    object["Transform"]["posY"] = json!(y);
    object["Transform"]["posZ"] = json!(z);
}

fn turned(object: &mut Value, rot_y: f64, face_down: bool) {
    object["Transform"]["rotY"] = json!(rot_y);
    object["Transform"]["rotZ"] = json!(if face_down { 180.0 } else { 0.0 });
}

fn tile_image(front: &str, back: &str, kind: u32, stackable: bool) -> Value {
    json!({
        "ImageURL": front,
        "ImageSecondaryURL": back,
        "ImageScalar": 1.0,
        "WidthScale": 0.0,
        "CustomTile": { "Type": kind, "Thickness": 0.1, "Stackable": stackable, "Stretch": true },
    })
}

/// How far the middle reaches from the table's centre (x, z), so the seats sit clear of it.
#[derive(Debug, Clone, Copy, Default)]
struct Extent(f64, f64);

impl Extent {
    /// Around every object (a card or a piece reaches about two units from its centre).
    fn of(objects: &[Value]) -> Extent {
        objects.iter().fold(Extent::default(), |extent, o| {
            let at = |k: &str| o["Transform"][k].as_f64().unwrap_or(0.0).abs() + 2.0;
            extent.with((at("posX"), at("posZ")))
        })
    }

    fn with(self, (x, z): (f64, f64)) -> Extent {
        Extent(self.0.max(x), self.1.max(z))
    }
}

/// The boards at the centre, locked, upright for White; and half their largest extent (x, z).
fn boards(ctx: &Ctx, guids: &mut Guids) -> (Vec<Value>, (f64, f64)) {
    let mut objects = Vec::new();
    let mut half = (0.0f64, 0.0f64);
    for board in &ctx.data.boards {
        let (w, h) = (board.width / MM_PER_UNIT, board.height / MM_PER_UNIT);
        let mut object = object(
            "Custom_Board",
            guids.next(&format!("board/{}", board.id)),
            &board.name,
            "",
            transform(0.0, 0.0, FACING_WHITE, h / TILE_UNITS),
        );
        object["Locked"] = json!(true);
        object["CustomImage"] = json!({ "ImageURL": (ctx.url)(&format!("board-{}", board.id)), "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0 });
        objects.push(object);
        half = (half.0.max(w / 2.0), half.1.max(h / 2.0));
    }
    (objects, half)
}

/// Whether some setup hands a token set's kinds to the players.
fn given(table: &Table, token_ix: usize) -> bool {
    table
        .setups
        .iter()
        .any(|s| s.gives.iter().any(|g| g.tokens == token_ix && g.each_kind))
}

/// The supplies right of the boards: tiles in a bag; tokens in a bag or a stack per kind, as
/// the content keeps them (but those a setup hands to the seats); the dice; the pieces, on
/// their setup cells when placed. And the sets' bags by set, for the rules module's script.
fn supplies(
    ctx: &Ctx,
    guids: &mut Guids,
    right: f64,
) -> (Vec<Value>, serde_json::Map<String, Value>) {
    let (data, table) = (ctx.data, ctx.table);
    let mut objects = Vec::new();
    let mut bags = serde_json::Map::new();
    let mut z = 6.0;
    for (set_ix, set) in data.tiles.iter().chain(&data.tokens).enumerate() {
        let token = set_ix.checked_sub(data.tiles.len());
        if token.is_some_and(|t| given(table, t)) {
            continue;
        }
        let keep = token.map_or(Keep::Bag, |t| table.tokens[t].keep);
        let pieces = set
            .kinds
            .iter()
            .enumerate()
            .flat_map(|(kind, k)| (0..k.count).map(move |copy| (kind, copy)));
        match keep {
            Keep::Bag => {
                let contained: Vec<Value> = pieces
                    .map(|(kind, copy)| piece(ctx, set, kind, copy, guids))
                    .collect();
                let mut bag = object(
                    "Bag",
                    guids.next(&format!("bag/{}", set.id)),
                    &set.name,
                    &format!("{} pieces", contained.len()),
                    transform(right, z, FACING_WHITE, 1.0),
                );
                bag["ContainedObjects"] = Value::Array(contained);
                bags.insert(set.id.clone(), bag["GUID"].clone());
                objects.push(bag);
            }
            Keep::Stack => {
                for (kind, copy) in pieces {
                    let mut object = piece(ctx, set, kind, copy, guids);
                    at(
                        &mut object,
                        right + 2.5 * kind as f64,
                        1.0 + 0.15 * copy as f64,
                        z,
                    );
                    objects.push(object);
                }
            }
        }
        z -= 3.0;
    }
    let mut die_x = right;
    for set in &data.dice {
        for n in 0..set.count {
            objects.push(super::die(data, set, n, guids, ctx.url, die_x, z));
            die_x += 1.5;
        }
    }
    objects.extend(figures(ctx, guids, right, z - 3.0));
    (objects, bags)
}

/// The pieces: standing on their setup cells when the laid-out setup places them (facing their
/// way), else in a row at `row`.
fn figures(ctx: &Ctx, guids: &mut Guids, right: f64, row: f64) -> Vec<Value> {
    let data = ctx.data;
    let setup = (ctx.table.manifest.players.0..=ctx.table.manifest.players.1)
        .find_map(|n| ctx.table.setup_for(n));
    let mut objects = Vec::new();
    let mut loose_x = right;
    for (set_ix, set) in data.pieces.iter().enumerate() {
        let scale = set.size / MM_PER_UNIT / TILE_UNITS;
        for (piece_ix, piece) in set.pieces.iter().enumerate() {
            let picture = (ctx.url)(&format!("standee-{}-{}", set.id, piece.id));
            let back = (ctx.url)(&format!("standee-back-{}-{}", set.id, piece.id));
            let mut object = object(
                "Figurine_Custom",
                guids.next(&format!("figure/{}/{}", set.id, piece.id)),
                &data.symbols[&piece.symbol].label,
                &set.name,
                transform(0.0, 0.0, 0.0, scale),
            );
            // The front faces the way the piece does; the back shows that it is the back.
            object["CustomImage"] =
                json!({ "ImageURL": picture, "ImageSecondaryURL": back, "ImageScalar": 1.0 });
            let placed =
                setup.and_then(|s| s.places.iter().find(|p| p.piece == (set_ix, piece_ix)));
            match placed {
                Some(place) => {
                    // The board lies upright for White: its image's top toward +z, its left
                    // toward −x.
                    let board = &data.boards[place.board];
                    let x = (board.frame + (place.at.column as f64 + 0.5) * board.cell
                        - board.width / 2.0)
                        / MM_PER_UNIT;
                    let z = -(board.frame + (place.at.row as f64 + 0.5) * board.cell
                        - board.height / 2.0)
                        / MM_PER_UNIT;
                    at(&mut object, x, 1.5, z);
                    let facing = place.facing.map_or(0.0, |f| match f {
                        crate::components::Facing::North => 180.0,
                        crate::components::Facing::East => 270.0,
                        crate::components::Facing::South => 0.0,
                        crate::components::Facing::West => 90.0,
                    });
                    object["Transform"]["rotY"] = json!(facing);
                }
                None => {
                    at(&mut object, loose_x, 1.5, row);
                    loose_x += 1.5;
                }
            }
            objects.push(object);
        }
    }
    objects
}

/// One piece of a tile or token set: copy `copy` of its kind `kind_ix`.
fn piece(
    ctx: &Ctx,
    set: &crate::table::data::SetData,
    kind_ix: usize,
    copy: u32,
    guids: &mut Guids,
) -> Value {
    let kind = match set.shape {
        "hex" => 1,
        "round" => 2,
        _ => 0,
    };
    let shape = if set.shape == "hex" { "hex" } else { "square" };
    let scale = (set.size / MM_PER_UNIT) / TILE_UNITS;
    let face = |symbol: &str| (ctx.url)(&format!("{shape}-{symbol}-{}", set.size.round()));
    let k = &set.kinds[kind_ix];
    let label = &ctx.data.symbols[&k.symbol].label;
    let back = k.back.as_deref().map(face).unwrap_or_default();
    let mut object = object(
        "Custom_Tile",
        guids.next(&format!("piece/{}/{}/{copy}", set.id, k.symbol)),
        label,
        &set.name,
        transform(0.0, 0.0, FACING_WHITE, scale),
    );
    object["CustomImage"] = tile_image(&face(&k.symbol), &back, kind, true);
    object
}

/// Everything that depends on the number of players: the decks as that count's setup deals
/// them (in the middle), and the seats around the table with their hands, sheets, tokens and
/// hand zones, clear of the middle (`fixed`, and the decks laid now).
fn at_the_table(
    ctx: &Ctx,
    players: u32,
    setup: Option<&Setup>,
    guids: &mut Guids,
    fixed: Extent,
) -> Vec<Value> {
    let mut middle = Vec::new();
    let mut hands: Vec<Vec<Value>> = vec![Vec::new(); players as usize];
    for ix in 0..ctx.data.decks.len() {
        super::decks::lay(ctx, ix, players, setup, guids, &mut middle, &mut hands);
    }
    let extent = Extent::of(&middle);
    let seats = seats::around_the_table(
        players as usize,
        SeatSize {
            width: seat_width(ctx),
            middle: (fixed.0.max(extent.0) + 1.0, fixed.1.max(extent.1) + 1.0),
        },
    );
    let mut objects = middle;
    objects.extend(seated(ctx, &seats, hands, setup, guids));
    objects
}

/// The sheets' largest width and height, in units.
fn sheet_size(ctx: &Ctx) -> (f64, f64) {
    ctx.data.sheets.iter().fold((0.0f64, 0.0f64), |(w, h), s| {
        (
            w.max(s.paper.width / MM_PER_UNIT),
            h.max(s.paper.height / MM_PER_UNIT),
        )
    })
}

/// A seat: as wide as the widest sheet or a hand of cards, with room either side.
fn seat_width(ctx: &Ctx) -> f64 {
    sheet_size(ctx).0.max(7.0) + 2.0
}

/// Each seat's things, from its inner edge toward its player: its sheets (a pile, each upright
/// for the player), then its hands dealt face down in its hand zone, the token kinds the setup
/// hands it beside them. The kinds no seat takes lie beside the first seat.
fn seated(
    ctx: &Ctx,
    seats: &[Seat],
    hands: Vec<Vec<Value>>,
    setup: Option<&Setup>,
    guids: &mut Guids,
) -> Vec<Value> {
    let data = ctx.data;
    let (_, tallest) = sheet_size(ctx);
    let hand_back = if tallest > 0.0 { 2.0 + tallest } else { 0.0 } + 3.0;
    let mut objects = Vec::new();
    for (k, (seat, hand)) in seats.iter().zip(hands).enumerate() {
        for (j, sheet) in data.sheets.iter().enumerate() {
            let (x, z) = seat.place(0.0, 1.0 + tallest / 2.0);
            let height = sheet.paper.height / MM_PER_UNIT;
            let mut object = object(
                "Custom_Tile",
                guids.next(&format!("sheet/{}/{}", sheet.id, k + 1)),
                &format!("{}: {}", sheet.name, seat.colour),
                "",
                transform(x, z, seat.upright(), height / TILE_UNITS),
            );
            object["Transform"]["posY"] = json!(1.0 + 0.2 * j as f64);
            let picture = (ctx.url)(&format!("sheet-{}", sheet.id));
            object["CustomImage"] = tile_image(&picture, "", 0, false);
            objects.push(object);
        }
        let piles = hand.len() as f64;
        for (d, mut pile) in hand.into_iter().enumerate() {
            let (x, z) = seat.place((d as f64 - (piles - 1.0) / 2.0) * 2.6, hand_back);
            at(&mut pile, x, 1.0, z);
            turned(&mut pile, seat.upright(), true);
            objects.push(pile);
        }
        objects.push(seat.hand_zone(
            guids.next(&format!("hand/{}", k + 1)),
            hand_back,
            seat_width(ctx) - 1.0,
        ));
    }
    objects.extend(given_tokens(ctx, seats, setup, guids, hand_back));
    objects
}

/// The token sets the setups hand out: a kind to each seat, as this count's setup says, in a
/// stack to the right of the seat's hand; the kinds left over (or a set this count does not
/// hand out) in stacks beside the first seat, to its left.
fn given_tokens(
    ctx: &Ctx,
    seats: &[Seat],
    setup: Option<&Setup>,
    guids: &mut Guids,
    back: f64,
) -> Vec<Value> {
    let mut objects = Vec::new();
    let beside = seat_width(ctx) / 2.0 + 1.5;
    let mut aside = 0.0;
    for (token_ix, set) in ctx.data.tokens.iter().enumerate() {
        if !given(ctx.table, token_ix) {
            continue;
        }
        let each_kind =
            setup.is_some_and(|s| s.gives.iter().any(|g| g.tokens == token_ix && g.each_kind));
        for (kind_ix, k) in set.kinds.iter().enumerate() {
            let seat = seats.get(kind_ix).filter(|_| each_kind);
            let ((x, z), facing) = match seat {
                Some(seat) => (seat.place(beside - 1.5, back), seat.upright()),
                None => {
                    aside += 2.0;
                    let first = &seats[0];
                    (first.place(-beside - aside, back), first.upright())
                }
            };
            for copy in 0..k.count {
                let mut object = piece(ctx, set, kind_ix, copy, guids);
                at(&mut object, x, 1.0 + 0.15 * copy as f64, z);
                turned(&mut object, facing, false);
                if let Some(seat) = seat {
                    object["Description"] = json!(format!("{}: {}'s", set.name, seat.colour));
                }
                objects.push(object);
            }
        }
    }
    objects
}

/// The rules object, the ruleset in its saved state; and the rules module's own scripted
/// object, if it has one, wired to the rules object and the sets' bags.
fn rules_objects(
    ctx: &Ctx,
    guids: &mut Guids,
    ruleset_json: &str,
    controls: f64,
    (bags, room_at): (serde_json::Map<String, Value>, Option<(f64, f64)>),
) -> Vec<Value> {
    let data = ctx.data;
    let rules = crate::tts::rules_object(
        guids.next("ruleset"),
        &data.name,
        (
            crate::table::ruleset::FORMAT,
            "version",
            crate::table::ruleset::VERSION,
        ),
        ruleset_json,
        transform(CONTROLS_X[1], controls, FACING_WHITE, 1.0),
    );
    let mut objects = Vec::new();
    if let Some(script) = &data.table_script {
        let mut object = object(
            "BlockSquare",
            guids.next("rules-script"),
            &script.name,
            &script.description,
            transform(CONTROLS_X[2], controls, FACING_WHITE, 1.0),
        );
        object["LuaScript"] = json!(crate::tts::table_script(script.lua));
        object["LuaScriptState"] = json!(
            json!({
                "rules": rules["GUID"],
                "rules_name": rules["Nickname"],
                "format": crate::table::ruleset::FORMAT,
                "version": crate::table::ruleset::VERSION,
                "sets": bags,
                "mm_per_unit": MM_PER_UNIT,
                // The middle of the room the layout kept for it.
                "origin": room_at.map(|(x, z)| [x, z]),
            })
            .to_string()
        );
        object["Locked"] = json!(true);
        objects.push(object);
    }
    objects.push(rules);
    objects
}

/// The name of seat `seat` (from 0) for a pile dealt to it.
pub(super) fn hand_name(deck: &str, seat: usize) -> String {
    format!("{deck}: {}'s hand", seat_colour(seat))
}

/// The pictures of deck `ix`'s sheets.
pub(super) fn deck_sheets<'a>(ctx: &Ctx<'a>, ix: usize) -> Vec<&'a Picture> {
    ctx.pictures
        .iter()
        .filter(|p| matches!(p.what, What::DeckSheet { deck: d, .. } if d == ix))
        .collect()
}

pub(super) fn sheet_stem(picture: &Picture) -> &str {
    stem(&picture.file)
}
