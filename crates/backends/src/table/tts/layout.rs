//! Where a game of components' things lie on the table: the boards in the middle, the supplies
//! (bags, stacks, dice, pieces) beside them, the decks as the setup for a number of players
//! deals them, and each seat's sheets, hand and tokens at its seat. The table is laid out for
//! the smallest number of players a setup names; the exporter (`crate::tts::table`) seats the
//! players around the middle and lays the table out again for the others.

use serde_json::json;

use super::{MM_PER_UNIT, Picture, What, stem};
use crate::components::{Keep, Setup, Table};
use crate::table::data::TableData;
use crate::tts::seat_colour;
use crate::tts::table::{self, AtSeat, Extent, FACING_WHITE, Rules, SeatShape, Seating};
use crate::tts::things::{Kind, Pose, Script, Shape, Thing, Tile};

/// What the layout works from: the game, its pictures' addresses.
pub(super) struct Ctx<'a> {
    pub data: &'a TableData,
    pub table: &'a Table,
    pub pictures: &'a [Picture],
    pub url: &'a dyn Fn(&str) -> String,
}

/// The table the exporter saves.
pub(super) fn table(ctx: &Ctx, ruleset_json: &str) -> table::Table {
    let game = ctx.table;
    // The first setup is the one laid out (the smallest player count's).
    let laid_out = (game.manifest.players.0..=game.manifest.players.1)
        .find(|&n| game.setup_for(n).is_some())
        .unwrap_or(game.manifest.players.0);
    let (mut middle, boards) = boards(ctx);
    let right = boards.0 + 3.0;
    middle.extend(supplies(ctx, right));
    // The table's own objects (the setup, the rules, the rules module's script) in a row
    // before the decks, on White's side.
    let controls = (-4.0, -(boards.1 + 8.0));
    let mut fixed = Extent::of(middle.iter().map(|(_, pose)| pose))
        .with_extent(boards)
        .with_extent((6.0, controls.1.abs() + 2.0));
    // The room the rules module's script lays things out in, beyond the supplies (+z).
    let room_at = ctx
        .data
        .table_scripts
        .iter()
        .find_map(|s| s.room)
        .map(|(width, depth)| {
            let at = (0.0, fixed.1 + 1.0 + depth / 2.0);
            fixed = fixed.with_extent((width / 2.0 + 1.0, fixed.1 + depth + 2.0));
            at
        });
    let (fewest, most) = game.manifest.players;
    let seat_width = seat_width(ctx);
    table::Table {
        game: ctx.data.id.clone(),
        name: ctx.data.name.clone(),
        players: (fewest, most),
        laid_out,
        middle,
        keep_clear: (fixed.0, fixed.1),
        controls,
        blocks: super::scripts::rules_scripts(ctx, room_at),
        seat: SeatShape {
            width: seat_width,
            hand_back: hand_back(ctx),
            hand_width: seat_width - 1.0,
        },
        seating: (fewest..=most)
            .map(|count| (count, at_the_table(ctx, count, game.setup_for(count))))
            .collect(),
        rules: Rules {
            format: crate::table::ruleset::FORMAT.to_string(),
            version_key: "version",
            version: crate::table::ruleset::VERSION,
            json: ruleset_json.to_string(),
        },
    }
}

/// A place in the middle, upright for White.
pub(super) fn middle_at(x: f64, y: f64, z: f64) -> Pose {
    Pose {
        x,
        y,
        z,
        turn: FACING_WHITE,
        face_down: false,
    }
}

/// A thing of `role` with no script, unlocked.
pub(super) fn thing(role: String, name: &str, description: &str, kind: Kind) -> Thing {
    Thing {
        role,
        name: name.to_string(),
        description: description.to_string(),
        kind,
        locked: false,
        memo: String::new(),
        script: None,
    }
}

/// The boards at the centre, locked, upright for White; and half their largest extent (x, z).
fn boards(ctx: &Ctx) -> (Vec<(Thing, Pose)>, (f64, f64)) {
    let mut placed = Vec::new();
    let mut half = (0.0f64, 0.0f64);
    for board in &ctx.data.boards {
        let (w, h) = (board.width / MM_PER_UNIT, board.height / MM_PER_UNIT);
        let kind = Kind::Board {
            image: (ctx.url)(&format!("board-{}", board.id)),
            height: h,
        };
        let mut thing = thing(format!("board/{}", board.id), &board.name, "", kind);
        thing.locked = true;
        placed.push((thing, middle_at(0.0, 1.0, 0.0)));
        half = (half.0.max(w / 2.0), half.1.max(h / 2.0));
    }
    (placed, half)
}

/// Whether some setup hands a token set's kinds to the players.
fn given(table: &Table, token_ix: usize) -> bool {
    table
        .setups
        .iter()
        .any(|s| s.gives.iter().any(|g| g.tokens == token_ix && g.each_kind))
}

/// Whether the tile or token set `set_ix` (tiles first) lies in a bag: tiles do; tokens do
/// unless the content stacks them or a setup hands them to the seats.
pub(super) fn bagged(ctx: &Ctx, set_ix: usize) -> bool {
    match set_ix.checked_sub(ctx.data.tiles.len()) {
        None => true,
        Some(t) => !given(ctx.table, t) && ctx.table.tokens[t].keep == Keep::Bag,
    }
}

/// The supplies right of the boards: tiles in a bag; tokens in a bag or a stack per kind, as
/// the content keeps them (but those a setup hands to the seats); the dice; the pieces, on
/// their setup cells when placed. A set's bag has the role `bag/<set>`, for the rules
/// module's script.
fn supplies(ctx: &Ctx, right: f64) -> Vec<(Thing, Pose)> {
    let (data, table) = (ctx.data, ctx.table);
    let mut placed = Vec::new();
    let mut z = 6.0;
    for (set_ix, set) in data.tiles.iter().chain(&data.tokens).enumerate() {
        let token = set_ix.checked_sub(data.tiles.len());
        if token.is_some_and(|t| given(table, t)) {
            continue;
        }
        let pieces = set
            .kinds
            .iter()
            .enumerate()
            .flat_map(|(kind, k)| (0..k.count).map(move |copy| (kind, copy)));
        match bagged(ctx, set_ix) {
            true => {
                let contained: Vec<Thing> = pieces
                    .map(|(kind, copy)| piece(ctx, set, kind, copy))
                    .collect();
                let description = format!("{} pieces", contained.len());
                let bag = thing(
                    format!("bag/{}", set.id),
                    &set.name,
                    &description,
                    Kind::Bag(contained),
                );
                placed.push((bag, middle_at(right, 1.0, z)));
            }
            false => {
                for (kind, copy) in pieces {
                    let at = middle_at(right + 2.5 * kind as f64, 1.0 + 0.15 * copy as f64, z);
                    placed.push((piece(ctx, set, kind, copy), at));
                }
            }
        }
        z -= 3.0;
    }
    let mut die_x = right;
    for set in &data.dice {
        for n in 0..set.count {
            placed.push((super::die(data, set, n, ctx.url), middle_at(die_x, 1.0, z)));
            die_x += 1.5;
        }
    }
    placed.extend(figures(ctx, right, z - 3.0));
    placed
}

/// The pieces: standing on their setup cells when the laid-out setup places them (facing their
/// way), else in a row at `row`.
fn figures(ctx: &Ctx, right: f64, row: f64) -> Vec<(Thing, Pose)> {
    let data = ctx.data;
    let setup = (ctx.table.manifest.players.0..=ctx.table.manifest.players.1)
        .find_map(|n| ctx.table.setup_for(n));
    let mut placed = Vec::new();
    let mut loose_x = right;
    for (set_ix, set) in data.pieces.iter().enumerate() {
        for (piece_ix, piece) in set.pieces.iter().enumerate() {
            // The front faces the way the piece does; the back shows that it is the back.
            let kind = Kind::Figure {
                front: (ctx.url)(&format!("standee-{}-{}", set.id, piece.id)),
                back: (ctx.url)(&format!("standee-back-{}-{}", set.id, piece.id)),
                height: set.size / MM_PER_UNIT,
            };
            let mut figure = thing(
                format!("figure/{}/{}", set.id, piece.id),
                &data.symbols[&piece.symbol].label,
                &set.name,
                kind,
            );
            figure.memo = json!({ "pieces": set.id, "piece": piece.id }).to_string();
            let placed_at =
                setup.and_then(|s| s.places.iter().find(|p| p.piece == (set_ix, piece_ix)));
            let pose = match placed_at {
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
                    let turn = place.facing.map_or(0.0, |f| match f {
                        crate::components::Facing::North => 180.0,
                        crate::components::Facing::East => 270.0,
                        crate::components::Facing::South => 0.0,
                        crate::components::Facing::West => 90.0,
                    });
                    Pose {
                        turn,
                        ..middle_at(x, 1.5, z)
                    }
                }
                None => {
                    loose_x += 1.5;
                    Pose {
                        turn: 0.0,
                        ..middle_at(loose_x - 1.5, 1.5, row)
                    }
                }
            };
            placed.push((figure, pose));
        }
    }
    placed
}

/// One piece of a tile or token set: copy `copy` of its kind `kind_ix`.
fn piece(ctx: &Ctx, set: &crate::table::data::SetData, kind_ix: usize, copy: u32) -> Thing {
    let shape = match set.shape {
        "hex" => Shape::Hex,
        "round" => Shape::Round,
        _ => Shape::Square,
    };
    let set_is_token = ctx.data.tokens.iter().any(|t| t.id == set.id);
    let picture = if set.shape == "hex" { "hex" } else { "square" };
    let face = |symbol: &str| (ctx.url)(&format!("{picture}-{symbol}-{}", set.size.round()));
    let k = &set.kinds[kind_ix];
    let kind = Kind::Tile(Tile {
        front: face(&k.symbol),
        back: k.back.as_deref().map(face).unwrap_or_default(),
        shape,
        height: set.size / MM_PER_UNIT,
        stackable: true,
        // A token may be taken and kept in a hand; a tile lies on the table.
        held: set_is_token,
    });
    let mut piece = thing(
        format!("piece/{}/{}/{copy}", set.id, k.symbol),
        &ctx.data.symbols[&k.symbol].label,
        &set.name,
        kind,
    );
    piece.memo = json!({ "set": set.id, "kind": k.symbol }).to_string();
    piece
}

/// Everything that depends on the number of players: the decks as that count's setup lays
/// them out (in the middle) and deals them, and each seat's sheets and tokens.
fn at_the_table(ctx: &Ctx, players: u32, setup: Option<&Setup>) -> Seating {
    let mut middle = Vec::new();
    let mut deals = Vec::new();
    for ix in 0..ctx.data.decks.len() {
        super::decks::lay(ctx, ix, setup, &mut middle, &mut deals);
    }
    let mut seats = seated(ctx, players);
    given_tokens(ctx, &mut seats, setup);
    Seating {
        middle,
        seats,
        deals,
    }
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

/// How far from a seat's inner edge its hand lies: behind its sheets.
fn hand_back(ctx: &Ctx) -> f64 {
    let (_, tallest) = sheet_size(ctx);
    (if tallest > 0.0 { 2.0 + tallest } else { 0.0 }) + 3.0
}

/// Each seat's sheets, from its inner edge toward its player (a pile, each upright for the
/// player); its hand zone lies behind them.
fn seated(ctx: &Ctx, players: u32) -> Vec<Vec<(Thing, AtSeat)>> {
    let data = ctx.data;
    let (_, tallest) = sheet_size(ctx);
    let mut seats = Vec::new();
    for k in 0..players as usize {
        let mut things = Vec::new();
        for (j, sheet) in data.sheets.iter().enumerate() {
            let kind = Kind::Tile(Tile {
                front: (ctx.url)(&format!("sheet-{}", sheet.id)),
                back: String::new(),
                shape: Shape::Square,
                height: sheet.paper.height / MM_PER_UNIT,
                stackable: false,
                held: false,
            });
            let name = format!("{}: {}", sheet.name, seat_colour(k));
            let at = AtSeat {
                across: 0.0,
                back: 1.0 + tallest / 2.0,
                y: 1.0 + 0.2 * j as f64,
                face_down: false,
            };
            let mut marked = thing(format!("sheet/{}/{}", sheet.id, k + 1), &name, "", kind);
            marked.memo = json!({ "sheet": sheet.id }).to_string();
            marked.script = Some(Script {
                lua: crate::tts::marks_lua(),
                state: super::scripts::marks_state(ctx, sheet),
            });
            things.push((marked, at));
        }
        seats.push(things);
    }
    seats
}

/// The token sets the setups hand out: a kind to each seat, as this count's setup says, in a
/// stack to the right of the seat's hand; the kinds left over (or a set this count does not
/// hand out) in stacks beside the first seat, to its left.
fn given_tokens(ctx: &Ctx, seats: &mut [Vec<(Thing, AtSeat)>], setup: Option<&Setup>) {
    let back = hand_back(ctx);
    let beside = seat_width(ctx) / 2.0 + 1.5;
    let mut aside = 0.0;
    for (token_ix, set) in ctx.data.tokens.iter().enumerate() {
        if !given(ctx.table, token_ix) {
            continue;
        }
        let each_kind =
            setup.is_some_and(|s| s.gives.iter().any(|g| g.tokens == token_ix && g.each_kind));
        for (kind_ix, k) in set.kinds.iter().enumerate() {
            let to = Some(kind_ix).filter(|&seat| each_kind && seat < seats.len());
            let (seat, across) = match to {
                Some(seat) => (seat, beside - 1.5),
                None => {
                    aside += 2.0;
                    (0, -beside - aside)
                }
            };
            let Some(things) = seats.get_mut(seat) else {
                continue;
            };
            for copy in 0..k.count {
                let mut piece = piece(ctx, set, kind_ix, copy);
                if to.is_some() {
                    piece.description = format!("{}: {}'s", set.name, seat_colour(seat));
                }
                let at = AtSeat {
                    across,
                    back,
                    y: 1.0 + 0.15 * copy as f64,
                    face_down: false,
                };
                things.push((piece, at));
            }
        }
    }
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
