//! DiceAFARI (Stratus Games): terrain tiles laid out in an animal's shape, photo tokens on
//! the spaces between them, and dice that claim routes of four tiles.
//!
//! A map card's `layout` is the shape: one string per row, `X` for a tile and `.` for none.
//! A photo token lies on every space between two tiles side by side. The checks hold each map
//! to the tiles and tokens there are, and every tile of it to some route, since the game ends
//! only when every tile is claimed (a tile on no route waits for a Bonus, which claims any
//! tile); the dice's faces to the tiles' terrains; and the dice, the route, the Bonus Die and
//! the Travel Tokens to what a turn claims (`claims`).

mod claims;

use std::collections::BTreeSet;

use serde_json::json;

use self::claims::{TURN_MINIMUM, Turn};
use super::Rules;
use crate::components::params::ANY_COUNT;
use crate::components::{DieFace, Key, KeyKind, Table};
use crate::diag::{Code, Diagnostic, Diagnostics};
use safari_engine::family::diceafari as diceafari_engine;

pub(crate) struct DiceAfari;

const KEYS: &[Key] = &[
    Key {
        name: "tiles",
        kind: KeyKind::Tiles,
        default: Some("safari-tiles"),
        doc: "the Safari Tiles: their kinds are the terrains",
        range: ANY_COUNT,
    },
    Key {
        name: "photos",
        kind: KeyKind::Tokens,
        default: Some("photo-tokens"),
        doc: "the Photo Tokens laid between tiles",
        range: ANY_COUNT,
    },
    Key {
        name: "travel",
        kind: KeyKind::Tokens,
        default: Some("travel-tokens"),
        doc: "the Travel Tokens: one kind (colour) per player",
        range: ANY_COUNT,
    },
    Key {
        name: "maps",
        kind: KeyKind::Deck,
        default: Some("maps"),
        doc: "the Map Cards: each card's `layout` field is its shape",
        range: ANY_COUNT,
    },
    Key {
        name: "dice",
        kind: KeyKind::Dice,
        default: Some("safari-dice"),
        doc: "the Safari Dice: each face a terrain",
        range: ANY_COUNT,
    },
    Key {
        name: "bonus",
        kind: KeyKind::Dice,
        default: Some("bonus-die"),
        doc: "the Bonus Die: each face a number of tiles",
        range: ANY_COUNT,
    },
    Key {
        name: "route",
        kind: KeyKind::Count,
        default: Some("4"),
        doc: "tiles in a route: a straight line of them, or a square when it is a square number",
        range: (1, 100),
    },
    Key {
        name: "rolls",
        kind: KeyKind::Count,
        default: Some("3"),
        doc: "rolls a turn: the first and the re-rolls",
        range: (1, 100),
    },
    Key {
        name: "min-turns",
        kind: KeyKind::Count,
        default: Some("3"),
        doc: "turns every player has before the game can end",
        range: (0, 100),
    },
    Key {
        name: "tourist-set",
        kind: KeyKind::Count,
        default: Some("10"),
        doc: "points for one photo of every animal",
        range: ANY_COUNT,
    },
    Key {
        name: "researcher-set",
        kind: KeyKind::Count,
        default: Some("5"),
        doc: "points for three photos of one animal",
        range: ANY_COUNT,
    },
    Key {
        name: "researcher-extra",
        kind: KeyKind::Count,
        default: Some("3"),
        doc: "points for each further photo of a researcher set's animal",
        range: ANY_COUNT,
    },
    Key {
        name: "single-photo",
        kind: KeyKind::Count,
        default: Some("1"),
        doc: "points for a photo in no set",
        range: ANY_COUNT,
    },
    Key {
        name: "travel-token",
        kind: KeyKind::Count,
        default: Some("1"),
        doc: "points for each Travel Token left on the map",
        range: ANY_COUNT,
    },
    Key {
        name: "first-player",
        kind: KeyKind::Symbol,
        default: Some("mountain"),
        doc: "the terrain counted when each player rolls the Safari Dice to see who goes first",
        range: ANY_COUNT,
    },
    Key {
        name: "exclusive-coverage",
        kind: KeyKind::Count,
        default: Some("5"),
        doc: "points, in the optional rule Exclusive Coverage, for each terrain whose every tile on the map a player holds",
        range: ANY_COUNT,
    },
    Key {
        name: "wetness",
        kind: KeyKind::Symbols,
        default: Some("marsh jungle savanna scrubland mountain desert"),
        doc: "the terrains from wettest to driest, for the optional rule Wetlands",
        range: ANY_COUNT,
    },
];

/// Where the rulebook is silent or unclear, what the engine does, and why.
const RULINGS: &[(&str, &str)] = &[
    (
        "How is the map chosen?",
        "At random among the Map Cards, from the game's seed; a variant `map:<card>` lays that card's map instead (the rulebook: maps are chosen deliberately or randomly).",
    ),
    (
        "How are the tiles and photos laid out?",
        "The Safari Tiles are shuffled and laid on the map's cells row by row from the top left, the rest set aside; the Photo Tokens are shuffled and laid one on each space between two tiles side by side, the rest set aside.",
    ),
    (
        "Who goes first, when players tie for the most mountains?",
        "Those tied roll again among themselves until one rolls the most (the terrain counted is `[play] first-player`); play then goes on in seat order, the rulebook's clockwise.",
    ),
    (
        "Which tiles may one turn claim together?",
        "Tiles side by side that all lie on one route of the map (a line of `route` tiles, or the square when `route` is a square number, the whole of it on the map) and hang together: a line of two or three, three of a square, or the whole route. Each takes a Safari Die showing its terrain. The rulebook lets a player reclaim his own tile \"to complete a valid route\", which is needed only if the tiles claimed may have no gap.",
    ),
    (
        "Must a turn claim, and how few tiles?",
        "A turn that can claim two tiles (the rulebook: \"if at least 2 tiles cannot be claimed after the 3 allowed dice rolls, the turn ends\") claims from one tile to a route, as the player chooses, or rolls again while rolls are left: claiming fewer than the dice allow is how the Bonus Die's number is met. Passing when a claim is possible is not a choice the rulebook offers.",
    ),
    (
        "Does reclaiming one's own tile take a die, and count for the Bonus?",
        "Yes to both: it is one of the route's tiles. Its Travel Token stays and no token is spent.",
    ),
    (
        "Where does a replaced Travel Token go, and what if a player has none left?",
        "Back to its owner. A claim needs a token for each tile the player does not hold already.",
    ),
    (
        "Which tile may the Bonus claim, and must it be taken?",
        "Any tile that has never held a Travel Token, on a route or not, and it must (\"he must claim the bonus\"); when every tile holds a token there is no Bonus. The Bonus Die is not used once every tile is claimed (overtime).",
    ),
    (
        "Is a photo taken on a turn that claimed nothing?",
        "Yes: at the end of every turn the player may take one Photo Token lying between two of his Travel Tokens; taking one is a choice.",
    ),
    (
        "Are the photos a player holds hidden?",
        "A photo taken face up was seen by every player and stays known; with Photo Surprise a photo is seen by its taker alone until the end.",
    ),
    (
        "When exactly does the game end?",
        "At the end of the first turn (its photo included) after which every tile holds a Travel Token and every player has had `min-turns` turns. The engine ends any game after 10,000 turns (`engine_turn_limit`), and refuses rules under which it can see that no game would end sooner.",
    ),
    (
        "How are photos grouped into sets?",
        "In the way that scores most for their holder: some Tourist Sets (one of each animal), then for each animal a Researcher Set of three with each further photo of it scoring as an extra, or single photos. Each photo counts in one group only.",
    ),
    (
        "What does Wetlands give, and how wet is each terrain?",
        "Each Photo Token left on the map after the photos owed are collected goes to the holder of the wetter of its two tiles; none when the two are equally wet or the wetter one is unclaimed. The rulebook's order is a picture; this pack reads it as marsh, jungle, savanna, scrubland, mountain, desert, wettest first (`[play] wetness`), and a terrain not listed is driest.",
    ),
    (
        "Which terrains count for Exclusive Coverage?",
        "Each terrain with a tile on the map: a player holding every one of its tiles scores `exclusive-coverage` points.",
    ),
];

impl Rules for DiceAfari {
    fn id(&self) -> &'static str {
        "diceafari"
    }
    fn title(&self) -> &'static str {
        "DiceAFARI"
    }
    fn keys(&self) -> &'static [Key] {
        KEYS
    }

    fn check(&self, table: &Table, diagnostics: &mut Diagnostics) {
        let Some(params) = Params::of(table) else {
            return;
        };
        let turn = Turn::of(table, &params);
        let route_played = route_within_the_engine(table, &params, diagnostics);
        let mut unclaimable = false;
        for card in 0..table.decks[params.maps].cards.len() {
            unclaimable |= map(table, &params, &turn, card, diagnostics);
            if route_played {
                map_within_the_engine(table, &params, card, diagnostics);
            }
        }
        terrains(table, &params, diagnostics);
        claims::check_claiming(table, &params, &turn, unclaimable, diagnostics);
        claims::check_travel_tokens(table, &params, diagnostics);
    }

    fn ruleset(&self, table: &Table) -> serde_json::Value {
        let Some(params) = Params::of(table) else {
            return json!({});
        };
        let written = |key: &str| table.param(key).map(|p| p.written.clone());
        let count = |key: &str| table.param(key).and_then(|p| p.count());
        let cards = &table.decks[params.maps].cards;
        let maps: Vec<serde_json::Value> = cards
            .iter()
            .filter_map(|card| {
                let shape = Shape::of(card)?;
                Some(json!({
                    "card": card.id.value,
                    "tiles": shape.tiles().iter().map(|c| [c.0, c.1]).collect::<Vec<_>>(),
                    "photo_spaces": shape.spaces().iter().map(|(a, b)| [[a.0, a.1], [b.0, b.1]]).collect::<Vec<_>>(),
                }))
            })
            .collect();
        let mut variants = serde_json::Map::new();
        variants.insert(
            "photo-surprise".into(),
            json!({ "setup": { "photos_face": "down" } }),
        );
        variants.insert(
            "exclusive-coverage".into(),
            json!({ "scoring": { "exclusive_coverage": count("exclusive-coverage") } }),
        );
        variants.insert(
            "wetlands".into(),
            json!({ "scoring": { "wetlands": written("wetness") } }),
        );
        for card in cards {
            variants.insert(
                format!("map:{}", card.id.value),
                json!({ "map": card.id.value }),
            );
        }
        json!({
            "tiles": written("tiles"),
            "photos": written("photos"),
            "travel": written("travel"),
            "maps": written("maps"),
            "dice": written("dice"),
            "bonus": written("bonus"),
            "map_layouts": maps,
            "map": "random",
            "setup": { "tiles": "shuffled_row_by_row", "photos": "shuffled_one_per_space", "photos_face": "up" },
            "first_player": { "most_of": written("first-player"), "ties": "roll_again" },
            "turn": {
                "rolls": count("rolls"),
                "reroll": "any_safari_dice",
                "route": {
                    "tiles": params.route,
                    "shapes": if square_side(params.route).is_some_and(|side| side > 1) { json!(["line", "square"]) } else { json!(["line"]) },
                },
                "claim": { "tiles_per_die": 1, "connected": true, "needs_claimable": TURN_MINIMUM },
                "reclaim": { "others": "replace_token", "own": "token_stays" },
                "bonus": { "earned_by": "exactly_its_number", "claims": "never_claimed_tile", "in_overtime": false },
                "photo": { "between_own_tokens": true, "per_turn": 1, "optional": true },
            },
            "end": { "every_tile_claimed": true, "min_turns": count("min-turns") },
            "scoring": {
                "tourist_set": count("tourist-set"),
                "researcher_set": count("researcher-set"),
                "researcher_extra": count("researcher-extra"),
                "single_photo": count("single-photo"),
                "travel_token_on_map": count("travel-token"),
                "owed_photos": "collected",
                "grouping": "best_for_holder",
                "exclusive_coverage": 0,
                "wetlands": null,
            },
            "tie_break": "least_recent_last_turn",
            "variants": variants,
            "rulings": RULINGS
                .iter()
                .map(|(question, ruling)| json!({ "question": question, "ruling": ruling }))
                .collect::<Vec<_>>(),
        })
    }

    fn table_scripts(&self, table: &Table) -> Vec<super::TableScript> {
        let Some(params) = Params::of(table) else {
            return Vec::new();
        };
        // The largest map, tiles a little apart as map.lua lays them (1.04 tiles a tile).
        let Some(tiles) = table.tiles.get(params.tiles) else {
            return Vec::new();
        };
        let step = tiles.size_mm / 25.4 * 1.04;
        let (columns, rows) = table.decks[params.maps]
            .cards
            .iter()
            .filter_map(Shape::of)
            .flat_map(|shape| shape.tiles().into_iter())
            .fold((0, 0), |(c, r), at| (c.max(at.0 + 1), r.max(at.1 + 1)));
        vec![
            super::TableScript {
                id: "map",
                name: format!("{}: lay out the map", table.manifest.name),
                description: "Click a Map Card's name: the Safari Tiles are laid in its shape, and a Photo Token face down on each space between two tiles.".to_string(),
                lua: include_str!("diceafari/map.lua"),
                room: Some((columns as f64 * step, rows as f64 * step)),
            },
            super::TableScript {
                id: "score",
                name: format!("{}: count the score", table.manifest.name),
                description: "At the end (or to see where everyone stands): each player's photos (in their hand, and those on the map between two of their Travel Tokens) and Travel Tokens on the map scored as the rulebook scores them, said in the chat.".to_string(),
                lua: include_str!("diceafari/score.lua"),
                room: None,
            },
        ]
    }

    fn card_caption(&self, table: &Table, deck: usize, card: usize) -> Option<String> {
        let params = Params::of(table)?;
        if deck != params.maps {
            return None;
        }
        let shape = Shape::of(&table.decks[deck].cards[card])?;
        Some(format!(
            "{} tiles · {} photos",
            shape.tiles().len(),
            shape.spaces().len()
        ))
    }
}

struct Params {
    tiles: usize,
    photos: usize,
    travel: usize,
    maps: usize,
    dice: usize,
    bonus: usize,
    route: u32,
}

impl Params {
    fn of(table: &Table) -> Option<Params> {
        let ix = |key: &str| table.param(key)?.index();
        Some(Params {
            tiles: ix("tiles")?,
            photos: ix("photos")?,
            travel: ix("travel")?,
            maps: ix("maps")?,
            dice: ix("dice")?,
            bonus: ix("bonus")?,
            route: table.param("route")?.count()?.max(1),
        })
    }
}

/// A map's tiles: (column, row) from the top left.
struct Shape(BTreeSet<(usize, usize)>);

impl Shape {
    fn of(card: &crate::components::Card) -> Option<Shape> {
        Shape::read(card).ok()
    }

    /// The card's `layout`, or what is wrong with it.
    fn read(card: &crate::components::Card) -> Result<Shape, String> {
        let rows = match card.fields.get("layout") {
            None => return Err("has no `layout`".to_string()),
            Some(serde_json::Value::Array(rows)) => rows,
            Some(_) => return Err("has a `layout` that is not a list of rows".to_string()),
        };
        let mut tiles = BTreeSet::new();
        for (row, line) in rows.iter().enumerate() {
            let line = line
                .as_str()
                .ok_or_else(|| format!("has a `layout` row {} that is not text", row + 1))?;
            for (column, c) in line.chars().enumerate() {
                match c {
                    'X' | 'x' => {
                        tiles.insert((column, row));
                    }
                    '.' | ' ' => {}
                    other => {
                        return Err(format!(
                            "has `{}` in `layout` row {}: a row is `X` for a tile and `.` for none",
                            crate::diag::printable(&other.to_string()),
                            row + 1
                        ));
                    }
                }
            }
        }
        Ok(Shape(tiles))
    }

    fn tiles(&self) -> Vec<(usize, usize)> {
        self.0.iter().copied().collect()
    }

    /// Spaces between two tiles side by side: where photo tokens go.
    fn spaces(&self) -> Vec<((usize, usize), (usize, usize))> {
        let mut spaces = Vec::new();
        for &(c, r) in &self.0 {
            if self.0.contains(&(c + 1, r)) {
                spaces.push(((c, r), (c + 1, r)));
            }
            if self.0.contains(&(c, r + 1)) {
                spaces.push(((c, r), (c, r + 1)));
            }
        }
        spaces
    }

    /// Whether the tile at `at` is part of some route of `length` tiles.
    fn on_route(&self, at: (usize, usize), length: usize) -> bool {
        let has = |c: i64, r: i64| c >= 0 && r >= 0 && self.0.contains(&(c as usize, r as usize));
        let (c, r) = (at.0 as i64, at.1 as i64);
        let n = length as i64;
        let line = |dc: i64, dr: i64| {
            (0..n).any(|start| (0..n).all(|k| has(c + (k - start) * dc, r + (k - start) * dr)))
        };
        if line(1, 0) || line(0, 1) {
            return true;
        }
        match square_side(length as u32) {
            Some(side) if side > 1 => {
                let s = side as i64;
                (0..s).any(|dc| {
                    (0..s).any(|dr| (0..s).all(|i| (0..s).all(|j| has(c - dc + i, r - dr + j))))
                })
            }
            _ => false,
        }
    }
}

fn square_side(n: u32) -> Option<u32> {
    let side = (n as f64).sqrt().round() as u32;
    (side * side == n).then_some(side)
}

fn cell_name((column, row): (usize, usize)) -> String {
    crate::components::Cell { column, row }.name()
}

/// SZ0005 when the route is longer than the engine plays (`safari_engine::family::diceafari`);
/// true when it is not.
fn route_within_the_engine(table: &Table, params: &Params, diagnostics: &mut Diagnostics) -> bool {
    let dice = table.dice[params.dice].count;
    let Some(why) = diceafari_engine::beyond_limits(&[], params.route, dice) else {
        return true;
    };
    diagnostics.push(
        Diagnostic::error(
            Code::LimitExceeded,
            format!("a route of {} tiles: {why}", params.route),
        )
        .with_primary(claims::route_origin(table), "this route")
        .with_help("shorten the route: the rulebook's is 4 tiles"),
    );
    false
}

/// SZ0005 when a map card is more than the engine plays: too many tiles, or too many ways
/// for one turn to claim tiles of it (every roll is tried against each), so that a map the
/// checker passes is one the playtest page and `sim` read.
fn map_within_the_engine(
    table: &Table,
    params: &Params,
    index: usize,
    diagnostics: &mut Diagnostics,
) {
    let card = &table.decks[params.maps].cards[index];
    let Some(shape) = Shape::of(card) else {
        return;
    };
    let tiles: Vec<[u32; 2]> = shape
        .tiles()
        .iter()
        .map(|&(c, r)| {
            [
                c.try_into().unwrap_or(u32::MAX),
                r.try_into().unwrap_or(u32::MAX),
            ]
        })
        .collect();
    let dice = table.dice[params.dice].count;
    if let Some(why) = diceafari_engine::beyond_limits(&tiles, params.route, dice) {
        diagnostics.push(
            Diagnostic::error(
                Code::LimitExceeded,
                format!(
                    "the map `{}` is more than the engine plays: {why}",
                    card.id.value
                ),
            )
            .with_primary(card.origin, "this map")
            .with_help("make the map smaller, or the route shorter"),
        );
    }
}

/// Checks one map card; true when it has a tile nothing can ever claim (SZ1108).
fn map(
    table: &Table,
    params: &Params,
    turn: &Turn,
    index: usize,
    diagnostics: &mut Diagnostics,
) -> bool {
    let card = &table.decks[params.maps].cards[index];
    let shape = match Shape::read(card) {
        Ok(shape) => shape,
        Err(fault) => {
            diagnostics.push(
                Diagnostic::error(Code::InvalidValue, format!("the map card `{}` {fault}", card.id.value))
                    .with_primary(card.origin, "this map")
                    .with_help("give the map's shape: `layout = [\"XXX.\", \".XXX\"]`, `X` a tile and `.` none"),
            );
            return false;
        }
    };
    let tiles = shape.tiles().len() as u64;
    let spaces = shape.spaces().len() as u64;
    let have_tiles = u64::from(table.tiles[params.tiles].count());
    let have_photos = u64::from(table.tokens[params.photos].count());
    let mut short = Vec::new();
    if tiles > have_tiles {
        short.push(format!("{tiles} tiles (the game has {have_tiles})"));
    }
    if spaces > have_photos {
        short.push(format!(
            "{spaces} photo tokens between its tiles (the game has {have_photos})"
        ));
    }
    if !short.is_empty() {
        diagnostics.push(
            Diagnostic::error(
                Code::MapOversize,
                format!("the map `{}` needs {}", card.id.value, short.join(" and ")),
            )
            .with_primary(card.origin, "this map")
            .with_secondary(
                table.tiles[params.tiles].id.origin,
                format!("{have_tiles} tiles"),
            )
            .with_secondary(
                table.tokens[params.photos].id.origin,
                format!("{have_photos} photo tokens"),
            )
            .with_help("shrink the map, or add tiles and photo tokens to the game"),
        );
    }
    for (field, computed) in [("tiles", tiles), ("photos", spaces)] {
        if let Some(printed) = card.number(field)
            && printed as u64 != computed
        {
            diagnostics.push(
                Diagnostic::error(
                    Code::MapOversize,
                    format!(
                        "the map `{}` prints {printed} {field} and its layout has {computed}",
                        card.id.value
                    ),
                )
                .with_primary(card.origin, "this map")
                .with_help(format!(
                    "write `{field} = {computed}`: players set the game up by the printed numbers"
                )),
            );
        }
    }
    let stranded: Vec<String> = shape
        .tiles()
        .into_iter()
        .filter(|&t| !shape.on_route(t, params.route as usize))
        .map(cell_name)
        .collect();
    if stranded.is_empty() {
        return false;
    }
    // A Bonus is earned by a claim, and a claim takes tiles of a route: on a map with no
    // route no turn earns one. (When no turn claims at all, SZ1104 is the one error.)
    let no_route = stranded.len() == shape.tiles().len();
    if no_route && turn.claiming.works() {
        diagnostics.push(no_route_at_all(card, params, &stranded));
        return true;
    }
    let claimed = turn.bonus_claims_any_tile();
    diagnostics.push(match claimed {
        true => off_route(card, params, &stranded),
        false => never_claimed(table, card, params, turn, &stranded),
    });
    !claimed
}

/// How to put tiles on a route, for help.
fn onto_a_route(route: u32, stranded: &[String]) -> String {
    let shapes = match square_side(route) {
        Some(side) if side > 1 => format!(
            "a straight line of {route} tiles side by side, or a square of {side} by {side}"
        ),
        _ => format!("a straight line of {route} tiles side by side"),
    };
    let (these, each, them) = match stranded.len() {
        1 => ("it", "it", "it"),
        _ => ("these", "each", "them"),
    };
    format!(
        "add tiles around {these} so that {each} lies on a route ({shapes}), or remove {them} (cells are named by column letter and row number from the top left)"
    )
}

/// SZ1102: the dice never claim a tile on no route; only a Bonus does, which claims any tile
/// not claimed before, so the game waits for one.
fn off_route(card: &crate::components::Card, params: &Params, stranded: &[String]) -> Diagnostic {
    Diagnostic::warning(
        Code::MapUnclaimable,
        format!(
            "the map `{}` has {} on no route of {} tiles, which only a Bonus can claim: {}",
            card.id.value,
            if stranded.len() == 1 { "a tile" } else { "tiles" },
            params.route,
            stranded.join(", ")
        ),
    )
    .with_primary(card.origin, "this map")
    .with_help(format!(
        "the game ends when every tile is claimed, and waits for a Bonus to claim what the dice never do: {}",
        onto_a_route(params.route, stranded)
    ))
}

/// SZ1108: a map with no route, where no turn claims a tile and so none earns a Bonus.
fn no_route_at_all(
    card: &crate::components::Card,
    params: &Params,
    stranded: &[String],
) -> Diagnostic {
    Diagnostic::error(
        Code::TileNeverClaimed,
        format!(
            "the map `{}` has no route of {} tiles, so no turn claims a tile of it and no Bonus is earned: {}",
            card.id.value,
            params.route,
            stranded.join(", ")
        ),
    )
    .with_primary(card.origin, "this map never ends")
    .with_help(format!(
        "the game ends when every tile is claimed; {}",
        onto_a_route(params.route, stranded)
    ))
}

/// SZ1108: a tile on no route when no Bonus Die face is ever earned.
fn never_claimed(
    table: &Table,
    card: &crate::components::Card,
    params: &Params,
    turn: &Turn,
    stranded: &[String],
) -> Diagnostic {
    Diagnostic::error(
        Code::TileNeverClaimed,
        format!(
            "the map `{}` has {} on no route of {} tiles, and no Bonus is ever earned to claim {}: {}",
            card.id.value,
            if stranded.len() == 1 { "a tile" } else { "tiles" },
            params.route,
            if stranded.len() == 1 { "it" } else { "them" },
            stranded.join(", ")
        ),
    )
    .with_primary(card.origin, "this map never ends")
    .with_secondary(
        table.dice[params.bonus].id.origin,
        "no face of this die is ever earned",
    )
    .with_help(format!(
        "number the Bonus Die's faces from 1 to {}, the most tiles a turn claims, so that a Bonus can claim any tile; or {}",
        turn.claiming.most(),
        onto_a_route(params.route, stranded)
    ))
}

/// The safari dice show the tiles' terrains, all of them, and nothing else.
fn terrains(table: &Table, params: &Params, diagnostics: &mut Diagnostics) {
    let dice = &table.dice[params.dice];
    let tiles = &table.tiles[params.tiles];
    let kinds: BTreeSet<usize> = tiles.kinds.iter().map(|k| k.symbol).collect();
    let mut shown = BTreeSet::new();
    for face in &dice.faces {
        match face.value {
            DieFace::Symbol(s) => {
                shown.insert(s);
                if !kinds.contains(&s) {
                    diagnostics.push(
                        Diagnostic::error(
                            Code::DieTerrain,
                            format!(
                                "the face `{}` names a terrain no tile has",
                                table.symbol(s).id.value
                            ),
                        )
                        .with_primary(face.origin, "claims no tile")
                        .with_secondary(tiles.id.origin, "these tiles"),
                    );
                }
            }
            DieFace::Number(_) => diagnostics.push(
                Diagnostic::error(
                    Code::DieTerrain,
                    "a safari die face is a number, not a terrain",
                )
                .with_primary(face.origin, "a number")
                .with_help("safari dice faces name tile terrains"),
            ),
        }
    }
    for kind in &tiles.kinds {
        if !shown.contains(&kind.symbol) {
            diagnostics.push(
                Diagnostic::error(
                    Code::DieTerrain,
                    format!(
                        "no safari die face shows `{}`: its tiles can never be claimed",
                        table.symbol(kind.symbol).id.value
                    ),
                )
                .with_primary(kind.origin, "never rolled")
                .with_secondary(dice.id.origin, "these dice")
                .with_help("give the terrain a face of the safari dice"),
            );
        }
    }
}
