//! DiceAFARI (Stratus Games), played from its ruleset.
//!
//! Safari Tiles are laid in a map's shape with Photo Tokens on the spaces between them. A
//! turn rolls the Safari Dice and the Bonus Die, re-rolls any Safari Dice while rolls are
//! left, claims tiles of one route that the dice show (taking other players' tiles), may
//! claim a Bonus tile, and may take a photo lying between two of its own Travel Tokens. The
//! dice are the game's chance: the table carries the generator they are rolled from, seeded
//! by the game's seed, so the same seed and actions roll the same dice.
//!
//! Every rule read here is in the ruleset's `rules` (docs/ruleset.md, "diceafari"), with the
//! rulings where the rulebook is silent.

use std::sync::Arc;

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::json;

use super::ruleset::{self, Components, thousands};
use super::{ENGINE_TURN_LIMIT, MOST_TURNS, Outcome, Play, Start};
use crate::LoadError;

/// The module id in `game.rules`.
pub const ID: &str = "diceafari";

/// The most tiles a map has: a set of tiles is a 64-bit mask.
const MOST_TILES: usize = 64;
/// The most Safari Dice rolled.
const MOST_DICE: u32 = 8;
/// The longest route: a turn's claims are the parts of routes, enumerated at setup.
const MOST_ROUTE: u32 = 9;
/// The most terrains (kinds of tile) a game has.
const MOST_TERRAINS: usize = 64;
/// The most rolls a turn.
const MOST_ROLLS: u32 = 100;
/// The most tiles, photo tokens or die faces a game has, and the most maps.
const MOST_PARTS: u64 = 1_000;
/// The most claims (sets of tiles one turn may claim) a map allows: every roll is tried
/// against each, so this bounds what a roll costs. A whole map of 8 by 8 tiles with the
/// rulebook's routes allows 597; the rulebook's maps some 100.
const MOST_CLAIMS: usize = 2_000;
/// Rounds of rolling for the first player before the first of those still tied starts.
const MOST_FIRST_ROLLS: u32 = 100;
const NOBODY: u8 = u8::MAX;

/// The `rules` of the ruleset, as the engine reads them.
#[derive(Debug, Clone, Deserialize)]
struct Written {
    tiles: String,
    photos: String,
    travel: String,
    dice: String,
    bonus: String,
    map_layouts: Vec<LayoutWritten>,
    map: String,
    setup: SetupWritten,
    first_player: FirstPlayer,
    turn: TurnWritten,
    end: End,
    scoring: ScoringWritten,
    /// Read so that a value this engine does not play is refused.
    #[allow(dead_code)]
    tie_break: TieBreak,
}

#[derive(Debug, Clone, Deserialize)]
struct LayoutWritten {
    card: String,
    tiles: Vec<[u32; 2]>,
    photo_spaces: Vec<[[u32; 2]; 2]>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
struct SetupWritten {
    /// Read so that a value this engine does not play is refused.
    #[allow(dead_code)]
    tiles: TilesLaid,
    /// Read so that a value this engine does not play is refused.
    #[allow(dead_code)]
    photos: PhotosLaid,
    photos_face: PhotoFace,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum TilesLaid {
    ShuffledRowByRow,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum PhotosLaid {
    ShuffledOnePerSpace,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum PhotoFace {
    Up,
    Down,
}

#[derive(Debug, Clone, Deserialize)]
struct FirstPlayer {
    most_of: String,
    /// Read so that a value this engine does not play is refused.
    #[allow(dead_code)]
    ties: Ties,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Ties {
    RollAgain,
}

#[derive(Debug, Clone, Deserialize)]
struct TurnWritten {
    rolls: u32,
    /// Read so that a value this engine does not play is refused.
    #[allow(dead_code)]
    reroll: Reroll,
    route: RouteWritten,
    claim: ClaimWritten,
    /// Read so that a value this engine does not play is refused.
    #[allow(dead_code)]
    reclaim: ReclaimWritten,
    bonus: BonusWritten,
    photo: PhotoWritten,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Reroll {
    AnySafariDice,
}

#[derive(Debug, Clone, Deserialize)]
struct RouteWritten {
    tiles: u32,
    shapes: Vec<RouteShape>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum RouteShape {
    Line,
    Square,
}

#[derive(Debug, Clone, Copy, Deserialize)]
struct ClaimWritten {
    connected: bool,
    needs_claimable: u32,
}

#[derive(Debug, Clone, Copy, Deserialize)]
struct ReclaimWritten {
    /// Read so that a value this engine does not play is refused.
    #[allow(dead_code)]
    others: ReclaimOthers,
    /// Read so that a value this engine does not play is refused.
    #[allow(dead_code)]
    own: ReclaimOwn,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum ReclaimOthers {
    ReplaceToken,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum ReclaimOwn {
    TokenStays,
}

#[derive(Debug, Clone, Copy, Deserialize)]
struct BonusWritten {
    /// Read so that a value this engine does not play is refused.
    #[allow(dead_code)]
    earned_by: EarnedBy,
    /// Read so that a value this engine does not play is refused.
    #[allow(dead_code)]
    claims: BonusClaims,
    in_overtime: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum EarnedBy {
    ExactlyItsNumber,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum BonusClaims {
    NeverClaimedTile,
}

#[derive(Debug, Clone, Copy, Deserialize)]
struct PhotoWritten {
    per_turn: u32,
    optional: bool,
}

/// When the game ends, checked after every turn.
#[derive(Debug, Clone, Copy, Deserialize)]
pub struct End {
    /// Every tile must hold a Travel Token.
    pub every_tile_claimed: bool,
    /// Turns every player has had.
    pub min_turns: u32,
}

#[derive(Debug, Clone, Deserialize)]
struct ScoringWritten {
    tourist_set: i64,
    researcher_set: i64,
    researcher_extra: i64,
    single_photo: i64,
    travel_token_on_map: i64,
    /// Read so that a value this engine does not play is refused.
    #[allow(dead_code)]
    owed_photos: Owed,
    /// Read so that a value this engine does not play is refused.
    #[allow(dead_code)]
    grouping: Grouping,
    exclusive_coverage: i64,
    wetlands: Option<Vec<String>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Owed {
    Collected,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Grouping {
    BestForHolder,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum TieBreak {
    LeastRecentLastTurn,
}

/// Points at the end.
#[derive(Debug, Clone)]
pub struct Scoring {
    pub tourist_set: i64,
    pub researcher_set: i64,
    pub researcher_extra: i64,
    pub single_photo: i64,
    pub travel_token_on_map: i64,
    /// Points per terrain a player holds every tile of (0: the rule is not played).
    pub exclusive_coverage: i64,
    /// Each terrain's wetness rank, wettest 0, when Wetlands is played; a terrain not
    /// listed is driest.
    pub wetness: Option<Vec<u8>>,
}

/// A map: its tiles row by row from the top left, the spaces between them, and every set of
/// tiles one turn may claim.
#[derive(Debug, Clone)]
pub struct MapInfo {
    pub card: String,
    /// (column, row) of each tile.
    pub cells: Vec<(u8, u8)>,
    pub columns: u8,
    pub rows: u8,
    /// The two tiles (indexes into `cells`) each space lies between.
    pub spaces: Vec<(u8, u8)>,
    /// Every claim the route allows on this map, as masks of tiles.
    claims: Vec<u64>,
    /// The tiles that lie on some route.
    pub on_route: u64,
    /// The spaces beside each tile.
    beside: Vec<Vec<u8>>,
}

impl MapInfo {
    fn read(
        layout: &LayoutWritten,
        path: &str,
        route: u32,
        shapes: &[RouteShape],
        connected: bool,
        most_claimed: u32,
    ) -> Result<MapInfo, LoadError> {
        if layout.tiles.len() > MOST_TILES {
            return Err(ruleset::fault(
                path,
                format!("the engine plays maps of at most {MOST_TILES} tiles"),
            ));
        }
        let mut cells: Vec<(u8, u8)> = Vec::with_capacity(layout.tiles.len());
        for [column, row] in &layout.tiles {
            let (Ok(column), Ok(row)) = (u8::try_from(*column), u8::try_from(*row)) else {
                return Err(ruleset::fault(path, "a tile lies beyond column or row 255"));
            };
            if cells.contains(&(column, row)) {
                return Err(ruleset::fault(path, "two tiles lie on one cell"));
            }
            cells.push((column, row));
        }
        cells.sort_by_key(|&(column, row)| (row, column));
        let index = |at: (u8, u8)| cells.iter().position(|&c| c == at);
        let mut spaces = Vec::with_capacity(layout.photo_spaces.len());
        for pair in &layout.photo_spaces {
            let found = |[c, r]: [u32; 2]| {
                u8::try_from(c)
                    .ok()
                    .zip(u8::try_from(r).ok())
                    .and_then(index)
            };
            let (Some(a), Some(b)) = (found(pair[0]), found(pair[1])) else {
                return Err(ruleset::fault(
                    path,
                    "a photo space lies beside a cell with no tile",
                ));
            };
            let ((ca, ra), (cb, rb)) = (cells[a], cells[b]);
            if ca.abs_diff(cb) + ra.abs_diff(rb) != 1 {
                return Err(ruleset::fault(
                    path,
                    "a photo space lies between two tiles that are not side by side",
                ));
            }
            let space = (a.min(b) as u8, a.max(b) as u8);
            if spaces.contains(&space) {
                return Err(ruleset::fault(
                    path,
                    "two photo spaces lie between the same tiles",
                ));
            }
            spaces.push(space);
        }
        let routes = routes(&cells, route, shapes);
        let on_route = routes.iter().fold(0, |all, r| all | r);
        let mut claims: Vec<u64> = Vec::new();
        let neighbours: Vec<u64> = cells
            .iter()
            .map(|&(c, r)| {
                cells.iter().enumerate().fold(0u64, |mask, (i, &(c2, r2))| {
                    if c.abs_diff(c2) + r.abs_diff(r2) == 1 {
                        mask | (1 << i)
                    } else {
                        mask
                    }
                })
            })
            .collect();
        for &route in &routes {
            let members: Vec<u32> = bits(route).collect();
            for pick in 1u32..(1 << members.len()) {
                if pick.count_ones() > most_claimed {
                    continue;
                }
                let mask = members
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| pick & (1 << i) != 0)
                    .fold(0u64, |m, (_, &t)| m | (1 << t));
                if !connected || hangs_together(mask, &neighbours) {
                    claims.push(mask);
                }
            }
        }
        claims.sort_unstable_by_key(|m| (m.count_ones(), *m));
        claims.dedup();
        if claims.len() > MOST_CLAIMS {
            return Err(ruleset::fault(
                path,
                format!(
                    "the map allows {} claims (sets of tiles one turn may claim); the engine plays maps of at most {}",
                    thousands(claims.len() as u64),
                    thousands(MOST_CLAIMS as u64)
                ),
            ));
        }
        let columns = cells.iter().map(|c| c.0 + 1).max().unwrap_or(0);
        let rows = cells.iter().map(|c| c.1 + 1).max().unwrap_or(0);
        Ok(MapInfo {
            card: layout.card.clone(),
            columns,
            rows,
            claims,
            on_route,
            beside: (0..cells.len())
                .map(|tile| {
                    (0..spaces.len() as u8)
                        .filter(|&s| {
                            let (a, b) = spaces[s as usize];
                            usize::from(a) == tile || usize::from(b) == tile
                        })
                        .collect()
                })
                .collect(),
            cells,
            spaces,
        })
    }

    /// A cell's name: its column's letter and its row's number, `c4`.
    pub fn cell_name(&self, tile: u8) -> String {
        let (column, row) = self.cells[tile as usize];
        let letter = char::from(b'a' + column % 26);
        format!("{letter}{}", u32::from(row) + 1)
    }
}

/// Why the engine does not play a map, if it does not: more tiles than it plays, or a route
/// longer, or more claims (sets of tiles one turn may claim, with a route of `route` tiles,
/// lines and, when `route` is a square number, squares, and `dice` Safari Dice). The content
/// checker holds each map card to it, so that what it passes the engine reads.
pub fn beyond_limits(tiles: &[[u32; 2]], route: u32, dice: u32) -> Option<String> {
    if route > MOST_ROUTE {
        return Some(format!(
            "the engine plays routes of at most {MOST_ROUTE} tiles"
        ));
    }
    let layout = LayoutWritten {
        card: String::new(),
        tiles: tiles.to_vec(),
        photo_spaces: Vec::new(),
    };
    let shapes = [RouteShape::Line, RouteShape::Square];
    MapInfo::read(&layout, "", route, &shapes, true, dice.min(route))
        .err()
        .map(|e| e.message)
}

/// The tiles of a mask, lowest first.
fn bits(mut mask: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        let tile = (mask != 0).then(|| mask.trailing_zeros())?;
        mask &= mask - 1;
        Some(tile)
    })
}

/// Whether the tiles of `mask` are joined side by side.
fn hangs_together(mask: u64, neighbours: &[u64]) -> bool {
    let mut reached = mask & mask.wrapping_neg();
    loop {
        let grown = bits(reached).fold(reached, |r, t| r | (neighbours[t as usize] & mask));
        if grown == reached {
            return reached == mask;
        }
        reached = grown;
    }
}

/// The shapes of a route of `length` tiles, as offsets from its top left tile: a line across
/// and a line down, and a square when the length is a square number above 1.
fn route_patterns(length: u32, shapes: &[RouteShape]) -> Vec<Vec<(i32, i32)>> {
    let n = length as i32;
    let mut patterns: Vec<Vec<(i32, i32)>> = Vec::new();
    if n == 0 {
        return patterns;
    }
    if shapes.contains(&RouteShape::Line) {
        patterns.push((0..n).map(|k| (k, 0)).collect());
        patterns.push((0..n).map(|k| (0, k)).collect());
    }
    let side = (f64::from(length)).sqrt().round() as i32;
    if shapes.contains(&RouteShape::Square) && side > 1 && side * side == n {
        patterns.push(
            (0..side)
                .flat_map(|dc| (0..side).map(move |dr| (dc, dr)))
                .collect(),
        );
    }
    patterns
}

/// The map's routes: every route shape whole on the map.
fn routes(cells: &[(u8, u8)], length: u32, shapes: &[RouteShape]) -> Vec<u64> {
    let at = |c: i32, r: i32| {
        cells
            .iter()
            .position(|&cell| (i32::from(cell.0), i32::from(cell.1)) == (c, r))
    };
    let span = |c: i32, r: i32, offsets: &[(i32, i32)]| {
        offsets.iter().try_fold(0u64, |mask, &(dc, dr)| {
            at(c + dc, r + dr).map(|i| mask | (1 << i))
        })
    };
    let patterns = route_patterns(length, shapes);
    let mut found: Vec<u64> = Vec::new();
    for &(c, r) in cells {
        for pattern in &patterns {
            if let Some(mask) = span(i32::from(c), i32::from(r), pattern) {
                found.push(mask);
            }
        }
    }
    found.sort_unstable();
    found.dedup();
    found
}

/// A Travel Token colour: one per seat, in order.
#[derive(Debug, Clone)]
pub struct Colour {
    pub id: String,
    pub label: String,
    pub count: u32,
}

/// The rules of one game, ready to set up.
#[derive(Debug)]
pub struct Rules {
    pub name: String,
    pub players: (usize, usize),
    /// Terrain symbol ids, in the tile set's order, and their labels.
    pub terrains: Vec<String>,
    pub terrain_labels: Vec<String>,
    /// The terrain of every Safari Tile.
    tile_bag: Vec<u8>,
    pub animals: Vec<String>,
    pub animal_labels: Vec<String>,
    /// The animal of every Photo Token.
    photo_bag: Vec<u8>,
    pub colours: Vec<Colour>,
    /// Each Safari Die face's symbol id, and the terrain it claims.
    pub dice_faces: Vec<(String, Option<u8>)>,
    pub dice: u32,
    /// The Bonus Die's faces: a number of tiles, or none for a face that is not a number.
    pub bonus_faces: Vec<Option<u32>>,
    pub maps: Vec<MapInfo>,
    map_choice: Option<usize>,
    photos_face_down: bool,
    /// Faces of the Safari Dice that count for the first player.
    first_faces: Vec<bool>,
    pub rolls: u32,
    pub route: u32,
    needs_claimable: u32,
    bonus_in_overtime: bool,
    photos_per_turn: u32,
    photo_optional: bool,
    pub end: End,
    pub scoring: Scoring,
}

/// One kind set (tiles or tokens) expanded into a bag: each item its kind's index.
fn bag(
    components: &Components,
    tiles: bool,
    id: &str,
    key: &str,
) -> Result<(Vec<String>, Vec<u8>), LoadError> {
    let sets = if tiles {
        &components.tiles
    } else {
        &components.tokens
    };
    let set = sets.iter().find(|s| s.id == id).ok_or_else(|| {
        ruleset::fault(
            format!("rules.{key}"),
            format!(
                "no {} `{id}` in `{}`",
                if tiles { "tile set" } else { "token set" },
                if tiles { "tiles" } else { "tokens" }
            ),
        )
    })?;
    let total: u64 = set.kinds.iter().map(|k| u64::from(k.count)).sum();
    if total > MOST_PARTS || set.kinds.len() > MOST_TERRAINS {
        return Err(ruleset::fault(
            format!("rules.{key}"),
            format!(
                "the engine plays at most {MOST_PARTS} of `{id}`, of at most {MOST_TERRAINS} kinds"
            ),
        ));
    }
    let mut kinds = Vec::new();
    let mut items = Vec::new();
    for kind in &set.kinds {
        let index = match kinds.iter().position(|k| *k == kind.symbol) {
            Some(i) => i,
            None => {
                kinds.push(kind.symbol.clone());
                kinds.len() - 1
            }
        };
        items.extend(std::iter::repeat_n(index as u8, kind.count as usize));
    }
    Ok((kinds, items))
}

impl Rules {
    /// The rules of a components ruleset whose module is this game's, with `variants` applied.
    pub fn read(components: &Components, variants: &[String]) -> Result<Rules, LoadError> {
        let written: Written = ruleset::rules_for(components, ID, variants)?;
        let (terrains, tile_bag) = bag(components, true, &written.tiles, "tiles")?;
        let (animals, photo_bag) = bag(components, false, &written.photos, "photos")?;
        let travel = components
            .tokens
            .iter()
            .find(|s| s.id == written.travel)
            .ok_or_else(|| {
                ruleset::fault(
                    "rules.travel",
                    format!("no token set `{}` in `tokens`", written.travel),
                )
            })?;
        let colours: Vec<Colour> = travel
            .kinds
            .iter()
            .map(|k| Colour {
                id: k.symbol.clone(),
                label: components.label(&k.symbol),
                count: k.count,
            })
            .collect();
        let die_set = |id: &str, key: &str| {
            components.dice.iter().find(|d| d.id == id).ok_or_else(|| {
                ruleset::fault(format!("rules.{key}"), format!("no dice `{id}` in `dice`"))
            })
        };
        let safari = die_set(&written.dice, "dice")?;
        let bonus = die_set(&written.bonus, "bonus")?;
        if safari.count > MOST_DICE {
            return Err(ruleset::fault(
                "rules.dice",
                format!("the engine rolls at most {MOST_DICE} Safari Dice"),
            ));
        }
        if safari.faces.len() as u64 > MOST_PARTS || bonus.faces.len() as u64 > MOST_PARTS {
            return Err(ruleset::fault(
                "rules.dice",
                format!("a die has at most {MOST_PARTS} faces"),
            ));
        }
        let dice_faces: Vec<(String, Option<u8>)> = safari
            .faces
            .iter()
            .map(|face| {
                let id = match face {
                    serde_json::Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                let terrain = terrains.iter().position(|t| *t == id).map(|i| i as u8);
                (id, terrain)
            })
            .collect();
        let bonus_faces: Vec<Option<u32>> = if bonus.count == 0 {
            Vec::new()
        } else {
            bonus
                .faces
                .iter()
                .map(|f| f.as_u64().and_then(|n| u32::try_from(n).ok()))
                .collect()
        };
        let turn = &written.turn;
        if turn.route.tiles > MOST_ROUTE {
            return Err(ruleset::fault(
                "rules.turn.route.tiles",
                format!("the engine plays routes of at most {MOST_ROUTE} tiles"),
            ));
        }
        if turn.rolls > MOST_ROLLS {
            return Err(ruleset::fault(
                "rules.turn.rolls",
                format!("the engine plays at most {MOST_ROLLS} rolls a turn"),
            ));
        }
        if written.map_layouts.len() as u64 > MOST_PARTS {
            return Err(ruleset::fault(
                "rules.map_layouts",
                format!("the engine reads at most {MOST_PARTS} maps"),
            ));
        }
        let most_claimed = safari.count.min(turn.route.tiles);
        let maps = written
            .map_layouts
            .iter()
            .enumerate()
            .map(|(i, layout)| {
                MapInfo::read(
                    layout,
                    &format!("rules.map_layouts[{i}]"),
                    turn.route.tiles,
                    &turn.route.shapes,
                    turn.claim.connected,
                    most_claimed,
                )
            })
            .collect::<Result<Vec<_>, _>>()?;
        if maps.is_empty() {
            return Err(ruleset::fault("rules.map_layouts", "the game has no map"));
        }
        let map_choice = match written.map.as_str() {
            "random" => None,
            card => Some(maps.iter().position(|m| m.card == card).ok_or_else(|| {
                ruleset::fault(
                    "rules.map",
                    format!("no map card `{card}` in `map_layouts`"),
                )
            })?),
        };
        let scoring = &written.scoring;
        let wetness = scoring.wetlands.as_ref().map(|order| {
            terrains
                .iter()
                .map(|t| {
                    order
                        .iter()
                        .position(|w| w == t)
                        .map_or(u8::MAX, |i| i.min(254) as u8)
                })
                .collect()
        });
        let (min, max) = (
            components.game.players[0] as usize,
            components.game.players[1] as usize,
        );
        let rules = Rules {
            name: components.game.name.clone(),
            players: (min, max),
            terrain_labels: terrains.iter().map(|t| components.label(t)).collect(),
            terrains,
            tile_bag,
            animal_labels: animals.iter().map(|a| components.label(a)).collect(),
            animals,
            photo_bag,
            colours,
            first_faces: dice_faces
                .iter()
                .map(|(id, _)| *id == written.first_player.most_of)
                .collect(),
            dice_faces,
            dice: safari.count,
            bonus_faces,
            maps,
            map_choice,
            photos_face_down: written.setup.photos_face == PhotoFace::Down,
            rolls: turn.rolls.max(1),
            route: turn.route.tiles,
            needs_claimable: turn.claim.needs_claimable.max(1),
            bonus_in_overtime: turn.bonus.in_overtime,
            photos_per_turn: turn.photo.per_turn,
            photo_optional: turn.photo.optional,
            end: written.end,
            scoring: Scoring {
                tourist_set: scoring.tourist_set,
                researcher_set: scoring.researcher_set,
                researcher_extra: scoring.researcher_extra,
                single_photo: scoring.single_photo,
                travel_token_on_map: scoring.travel_token_on_map,
                exclusive_coverage: scoring.exclusive_coverage,
                wetness,
            },
        };
        rules.refuse_endless(&turn.route.shapes)?;
        Ok(rules)
    }

    /// Refuses rules under which no game can end by its rules, where the rules alone decide
    /// it: every player's turns past the engine's limit; and, when the game waits for every
    /// tile to be claimed, whatever leaves a tile of a map in play unclaimed in every game (no
    /// turn can claim, a map with no route, a tile on no route with no Bonus to claim it,
    /// fewer Travel Tokens than tiles). The content checker holds content to the same
    /// (SZ1104, SZ1107, SZ1108). What only play decides, the bots' bounds and `sim` meet.
    fn refuse_endless(&self, shapes: &[RouteShape]) -> Result<(), LoadError> {
        let Some((fewest, most)) = self.seatable() else {
            return Ok(());
        };
        let turns = most as u64 * u64::from(self.end.min_turns);
        if turns > u64::from(MOST_TURNS) {
            return Err(ruleset::past_most_turns(
                "rules.end.min_turns",
                format!(
                    "each of {most} players has had {} turns",
                    thousands(self.end.min_turns.into())
                ),
                turns,
            ));
        }
        if !self.end.every_tile_claimed {
            return Ok(());
        }
        let maps: Vec<(usize, &MapInfo)> = self
            .maps
            .iter()
            .enumerate()
            .filter(|&(i, map)| self.map_choice.is_none_or(|c| c == i) && !map.cells.is_empty())
            .collect();
        if maps.is_empty() {
            return Ok(());
        }
        self.refuse_turns_that_never_claim(shapes)?;
        let several = maps.len() > 1;
        for (i, map) in maps {
            // With several maps in play, games on the others may still end.
            let on_it = if several {
                format!(" on the map `{}`", map.card)
            } else {
                String::new()
            };
            self.refuse_map_never_claimed(&format!("rules.map_layouts[{i}]"), map, &on_it)?;
            let tokens: u64 = self.colours[..fewest]
                .iter()
                .map(|c| u64::from(c.count))
                .sum();
            if tokens < map.cells.len() as u64 {
                return Err(ruleset::never_ends(
                    "rules.travel",
                    format!(
                        "{fewest} players have {tokens} Travel Tokens in all, fewer than the {} tiles of the map `{}`, so its tiles are never all claimed",
                        map.cells.len(),
                        map.card
                    ),
                    &format!("no game of {fewest} players{on_it}"),
                ));
            }
        }
        Ok(())
    }

    /// The fewest and most players a game can start with: the range of players, as far as
    /// there are colours of Travel Tokens.
    fn seatable(&self) -> Option<(usize, usize)> {
        let fewest = self.players.0.max(1);
        let most = self
            .players
            .1
            .min(self.colours.len())
            .min(usize::from(NOBODY) - 1);
        (fewest <= most).then_some((fewest, most))
    }

    /// The most tiles one turn claims: one a Safari Die, all on one route.
    fn most_claimed(&self) -> u32 {
        self.dice.min(self.route)
    }

    /// Refuses rules under which no turn ever claims a tile: a turn may claim only when it
    /// could claim `needs_claimable` tiles, each on a Safari Die showing its terrain, all on
    /// one route.
    fn refuse_turns_that_never_claim(&self, shapes: &[RouteShape]) -> Result<(), LoadError> {
        let (needs, route, dice) = (self.needs_claimable, self.route, self.dice);
        let never = "no turn can claim a tile";
        if route == 0 {
            return Err(ruleset::never_ends(
                "rules.turn.route.tiles",
                format!("a route of 0 tiles holds none: {never}"),
                "no game",
            ));
        }
        if route_patterns(route, shapes).is_empty() {
            return Err(ruleset::never_ends(
                "rules.turn.route.shapes",
                format!(
                    "no shape of route holds {route} tiles (`line` does, and `square` when the number is a square above 1): {never}"
                ),
                "no game",
            ));
        }
        let most = self.most_claimed();
        if needs > most {
            let (path, why) = if needs > route && needs > dice {
                (
                    "rules.turn.claim.needs_claimable",
                    format!(
                        "a turn may claim only when it could claim {needs} tiles, and a turn claims at most {most} (a tile a Safari Die, of {dice}; a route's {route} tiles)"
                    ),
                )
            } else if route < needs {
                (
                    "rules.turn.route.tiles",
                    format!(
                        "a route of {route} tiles is fewer than the {needs} a turn must be able to claim"
                    ),
                )
            } else {
                (
                    "rules.dice",
                    format!(
                        "{dice} Safari Dice claim fewer than the {needs} tiles a turn must be able to claim (a tile a die)"
                    ),
                )
            };
            return Err(ruleset::never_ends(
                path,
                format!("{why}: {never}"),
                "no game",
            ));
        }
        let shown = self
            .tile_bag
            .iter()
            .filter(|&&terrain| self.dice_faces.iter().any(|(_, t)| *t == Some(terrain)))
            .count();
        if shown < needs as usize {
            return Err(ruleset::never_ends(
                "rules.dice",
                format!(
                    "the Safari Dice's faces show the terrains of {shown} Safari Tiles, fewer than the {needs} a turn must be able to claim: {never}"
                ),
                "no game",
            ));
        }
        Ok(())
    }

    /// Refuses a map some tile of which no turn ever claims: a map with no route; or, when no
    /// face of the Bonus Die is ever earned (a Bonus claims any tile), a tile on no route, or a
    /// tile of a terrain no Safari Die shows that every game lays on the map. `on_it` names
    /// the map when it is one of several in play.
    fn refuse_map_never_claimed(
        &self,
        path: &str,
        map: &MapInfo,
        on_it: &str,
    ) -> Result<(), LoadError> {
        let games = format!("no game{on_it}");
        if map.on_route == 0 {
            return Err(ruleset::never_ends(
                path,
                format!(
                    "the map `{}` has no route of {} tiles, so no turn claims a tile of it",
                    map.card, self.route
                ),
                &games,
            ));
        }
        let most = self.most_claimed();
        let bonus_earned = self
            .bonus_faces
            .iter()
            .flatten()
            .any(|&n| (1..=most).contains(&n));
        if bonus_earned {
            return Ok(());
        }
        let no_bonus = format!(
            "which only a Bonus claims, and no face of the Bonus Die is earned (a turn claims 1 to {most} tiles), so they are never claimed"
        );
        let all = if map.cells.len() == MOST_TILES {
            u64::MAX
        } else {
            (1u64 << map.cells.len()) - 1
        };
        let off_route = all & !map.on_route;
        if off_route != 0 {
            let cells: Vec<String> = bits(off_route).map(|t| map.cell_name(t as u8)).collect();
            return Err(ruleset::never_ends(
                path,
                format!(
                    "the map `{}` has tiles on no route ({}), {}",
                    map.card,
                    cells.join(", "),
                    no_bonus
                ),
                &games,
            ));
        }
        // The tiles laid are drawn from the bag; those left over are set aside.
        let set_aside = self.tile_bag.len().saturating_sub(map.cells.len());
        for (terrain, label) in self.terrain_labels.iter().enumerate() {
            let shown = self
                .dice_faces
                .iter()
                .any(|(_, t)| *t == Some(terrain as u8));
            let tiles = self
                .tile_bag
                .iter()
                .filter(|&&t| usize::from(t) == terrain)
                .count();
            if !shown && tiles > set_aside {
                return Err(ruleset::never_ends(
                    "rules.dice",
                    format!(
                        "no face of the Safari Dice shows {label}, and every game lays some of its {tiles} tiles on the map `{}` ({} of the {} Safari Tiles), {}",
                        map.card,
                        map.cells.len(),
                        self.tile_bag.len(),
                        no_bonus
                    ),
                    &games,
                ));
            }
        }
        Ok(())
    }

    /// What a collection of photos scores, grouped as best it can be: some Tourist Sets (one
    /// of each animal), then per animal a Researcher Set of three and extras, or singles.
    pub fn photo_points(&self, counts: &[u32]) -> i64 {
        let s = &self.scoring;
        let tourists = if counts.is_empty() {
            0
        } else {
            counts.iter().copied().min().unwrap_or(0)
        };
        let mut best = i64::MIN;
        for sets in 0..=tourists {
            let mut total = i64::from(sets) * s.tourist_set;
            for &count in counts {
                let left = i64::from(count - sets);
                let singles = left * s.single_photo;
                let researched = (1..=left / 3)
                    .map(|k| k * s.researcher_set + (left - 3 * k) * s.researcher_extra)
                    .max()
                    .unwrap_or(i64::MIN);
                total += singles.max(researched);
            }
            best = best.max(total);
        }
        best
    }

    pub fn tile_label(&self, terrain: u8) -> &str {
        &self.terrain_labels[terrain as usize]
    }

    /// The rules in a few sentences, as read.
    pub fn summary(&self) -> Vec<String> {
        let plural = |n: u32, one: &str, many: &str| match n {
            1 => format!("1 {one}"),
            n => format!("{n} {many}"),
        };
        let mut summary = vec![format!(
            "On your turn roll the {} and the Bonus Die; re-roll any of the Safari Dice, {} in all.",
            plural(self.dice, "Safari Die", "Safari Dice"),
            plural(self.rolls, "roll", "rolls")
        )];
        summary.push(format!(
            "Then claim tiles of one route of {} that your dice show, a die for each tile, putting a Travel Token on each (a token of another player's goes back to them); dice that claim fewer than {} of a route claim nothing.",
            plural(self.route, "tile", "tiles"),
            plural(self.needs_claimable, "tile", "tiles")
        ));
        if !self.bonus_faces.is_empty() {
            summary.push("A claim of as many tiles as the Bonus Die shows earns the Bonus: claim any tile no token has been on.".to_string());
        }
        summary.push(format!(
            "Then take {} lying between two of your Travel Tokens{}{}.",
            plural(self.photos_per_turn, "photo", "photos"),
            if self.photo_optional { ", or none" } else { "" },
            if self.photos_face_down {
                " (face down: only its taker sees it)"
            } else {
                ""
            }
        ));
        let scoring = &self.scoring;
        let mut scores = vec![
            format!("{} a set of one photo of each animal", scoring.tourist_set),
            format!(
                "{} a set of three of one animal ({} each further photo of it)",
                scoring.researcher_set, scoring.researcher_extra
            ),
            format!("{} any other photo", scoring.single_photo),
            format!(
                "{} each Travel Token on the map",
                scoring.travel_token_on_map
            ),
        ];
        if scoring.exclusive_coverage != 0 {
            scores.push(format!(
                "{} each terrain whose every tile holds your tokens",
                scoring.exclusive_coverage
            ));
        }
        summary.push(format!("Points: {}.", scores.join("; ")));
        if scoring.wetness.is_some() {
            summary.push("Wetlands: each photo left on the map goes to the holder of the wetter of its two tiles.".to_string());
        }
        summary.push(format!(
            "The game ends once every player has had {}{}.",
            plural(self.end.min_turns, "turn", "turns"),
            if self.end.every_tile_claimed {
                " and every tile holds a Travel Token"
            } else {
                ""
            }
        ));
        summary
    }
}

/// The rules with the variants a table chose, as a game to start.
#[derive(Clone)]
pub struct Game {
    pub rules: Arc<Rules>,
}

impl Game {
    pub fn read(bytes: &[u8], variants: &[String]) -> Result<Game, LoadError> {
        let components = ruleset::read(bytes)?;
        Ok(Game {
            rules: Arc::new(Rules::read(&components, variants)?),
        })
    }
}

impl Start for Game {
    type Game = Table;

    fn start(&self, players: usize, seed: u64) -> Result<Table, String> {
        let rules = &self.rules;
        if players == 0 {
            return Err("a game has at least one player".to_string());
        }
        if players > rules.colours.len() || players >= usize::from(NOBODY) {
            return Err(format!(
                "{players} players need {players} colours of Travel Tokens; the game has {}",
                rules.colours.len()
            ));
        }
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let map = match rules.map_choice {
            Some(map) => map,
            None => rng.random_range(0..rules.maps.len()),
        };
        let info = &rules.maps[map];
        if info.cells.len() > rules.tile_bag.len() {
            return Err(format!(
                "the map `{}` has {} tiles; the game has {} Safari Tiles",
                info.card,
                info.cells.len(),
                rules.tile_bag.len()
            ));
        }
        if info.spaces.len() > rules.photo_bag.len() {
            return Err(format!(
                "the map `{}` has {} spaces for Photo Tokens; the game has {}",
                info.card,
                info.spaces.len(),
                rules.photo_bag.len()
            ));
        }
        let mut tiles = rules.tile_bag.clone();
        tiles.shuffle(&mut rng);
        tiles.truncate(info.cells.len());
        let mut photos = rules.photo_bag.clone();
        photos.shuffle(&mut rng);
        photos.truncate(info.spaces.len());
        let first = first_player(rules, players, &mut rng);
        let mut table = Table {
            rules: rules.clone(),
            map,
            terrain: tiles,
            owner: vec![NOBODY; info.cells.len()],
            photos: photos.into_iter().map(Some).collect(),
            held: vec![Vec::new(); players],
            supply: rules.colours[..players].iter().map(|c| c.count).collect(),
            seat: first,
            first,
            turn: 0,
            turns: vec![0; players],
            last_turn: vec![None; players],
            phase: Phase::Rolling,
            rolls: 0,
            dice: Vec::new(),
            bonus: None,
            claimed: 0,
            bonuses: Vec::new(),
            rng,
            over: None,
            work: 0,
        };
        table.begin_turn();
        Ok(table)
    }

    fn players(&self) -> (usize, usize) {
        self.rules.players
    }

    fn name(&self) -> &str {
        &self.rules.name
    }

    fn summary(&self) -> Vec<String> {
        self.rules.summary()
    }
}

/// Each player rolls the Safari Dice; the most faces of the counted terrain goes first, those
/// tied rolling again among themselves.
fn first_player(rules: &Rules, players: usize, rng: &mut Pcg64Mcg) -> usize {
    let mut tied: Vec<usize> = (0..players).collect();
    if !rules.first_faces.contains(&true) || rules.dice == 0 {
        return 0;
    }
    for _ in 0..MOST_FIRST_ROLLS {
        let counts: Vec<u32> = tied
            .iter()
            .map(|_| {
                (0..rules.dice)
                    .filter(|_| rules.first_faces[rng.random_range(0..rules.first_faces.len())])
                    .count() as u32
            })
            .collect();
        let most = counts.iter().copied().max().unwrap_or(0);
        tied = tied
            .iter()
            .zip(&counts)
            .filter(|&(_, &c)| c == most)
            .map(|(&s, _)| s)
            .collect();
        if tied.len() == 1 {
            break;
        }
    }
    tied[0]
}

/// Where a turn stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// The dice are rolled: re-roll, or claim.
    Rolling,
    /// The claim met the Bonus Die: claim a tile never claimed.
    Bonus,
    /// Photos the player may still take this turn.
    Photo { left: u32 },
}

/// A photo a player holds, and whether every seat saw it taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Held {
    animal: u8,
    public: bool,
}

/// A set of tiles of the map, written as the list of their indexes (row by row from the top
/// left).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Tiles(pub u64);

impl Serialize for Tiles {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(bits(self.0))
    }
}

impl<'de> Deserialize<'de> for Tiles {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Tiles, D::Error> {
        let list: Vec<u32> = Vec::deserialize(deserializer)?;
        list.into_iter()
            .try_fold(0u64, |mask, tile| {
                (tile < 64)
                    .then(|| mask | (1 << tile))
                    .ok_or_else(|| serde::de::Error::custom("a tile index is below 64"))
            })
            .map(Tiles)
    }
}

/// One decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case")]
pub enum Action {
    /// Roll again the Safari Dice of this mask (positions in the dice as they lie, sorted by
    /// face); the others are held.
    Reroll { dice: u8 },
    /// Claim these tiles (reclaiming those of other players, and one's own).
    Claim { tiles: Tiles },
    /// Claim this tile, never claimed, as the Bonus.
    Bonus { tile: u8 },
    /// Take the Photo Token on this space.
    Photo { space: u8 },
    /// Take no (more) photo this turn.
    NoPhoto,
}

/// The table between two decisions.
#[derive(Debug, Clone)]
pub struct Table {
    rules: Arc<Rules>,
    map: usize,
    /// Each tile's terrain, and the seat whose Travel Token lies on it.
    terrain: Vec<u8>,
    owner: Vec<u8>,
    /// Each space's Photo Token, until it is taken.
    photos: Vec<Option<u8>>,
    held: Vec<Vec<Held>>,
    /// Travel Tokens each seat has left.
    supply: Vec<u32>,
    seat: usize,
    first: usize,
    /// Turns played in all, and by each seat; the turn each seat last played.
    turn: u32,
    turns: Vec<u32>,
    last_turn: Vec<Option<u32>>,
    phase: Phase,
    rolls: u32,
    /// The Safari Dice as they lie: face indexes, sorted.
    dice: Vec<u8>,
    /// The Bonus Die's number this turn, if it is rolled and shows one.
    bonus: Option<u32>,
    /// The tiles claimed this turn.
    claimed: u64,
    /// The Bonus Die numbers claims have met, for the report of components.
    bonuses: Vec<u32>,
    rng: Pcg64Mcg,
    over: Option<&'static str>,
    /// Claims and re-rolls tried so far ([`Play::work`]).
    work: u64,
}

impl Table {
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn map(&self) -> &MapInfo {
        &self.rules.maps[self.map]
    }

    /// The terrain of each tile, row by row.
    pub fn terrains(&self) -> &[u8] {
        &self.terrain
    }

    /// The seat holding each tile.
    pub fn owners(&self) -> Vec<Option<usize>> {
        self.owner
            .iter()
            .map(|&o| (o != NOBODY).then_some(o as usize))
            .collect()
    }

    /// The Safari Dice as they lie (face indexes) and the Bonus Die's number.
    pub fn dice(&self) -> (&[u8], Option<u32>) {
        (&self.dice, self.bonus)
    }

    /// Sets the dice, for tests of what a roll allows.
    pub fn set_dice(&mut self, dice: &[u8], bonus: Option<u32>) {
        self.dice = dice.to_vec();
        self.dice.sort_unstable();
        self.bonus = bonus;
    }

    /// Puts a seat's Travel Token on tiles, for tests.
    pub fn set_owner(&mut self, tile: usize, seat: Option<usize>) {
        self.owner[tile] = seat.map_or(NOBODY, |s| s as u8);
    }

    /// Sets a tile's terrain, for tests.
    pub fn set_terrain(&mut self, tile: usize, terrain: u8) {
        self.terrain[tile] = terrain;
    }

    /// Gives a seat photos (animal indexes), for tests of scoring.
    pub fn give_photos(&mut self, seat: usize, animals: &[u8]) {
        self.held[seat].extend(animals.iter().map(|&animal| Held {
            animal,
            public: true,
        }));
    }

    /// Every seat's score if the game ended now.
    pub fn scores(&self) -> Vec<i64> {
        let rules = &self.rules;
        let seats = self.held.len();
        let animals = rules.animals.len();
        let mut counts = vec![vec![0u32; animals]; seats];
        for (seat, held) in self.held.iter().enumerate() {
            for h in held {
                counts[seat][h.animal as usize] += 1;
            }
        }
        let info = self.map();
        for (space, photo) in self.photos.iter().enumerate() {
            let Some(animal) = photo else { continue };
            if let Some(seat) = self.photo_owner(info, space) {
                counts[seat][*animal as usize] += 1;
            }
        }
        let s = &rules.scoring;
        let mut scores: Vec<i64> = counts.iter().map(|c| rules.photo_points(c)).collect();
        for &owner in &self.owner {
            if owner != NOBODY {
                scores[owner as usize] += s.travel_token_on_map;
            }
        }
        if s.exclusive_coverage != 0 {
            for terrain in 0..rules.terrains.len() as u8 {
                let mut holders = self
                    .terrain
                    .iter()
                    .zip(&self.owner)
                    .filter(|&(&t, _)| t == terrain)
                    .map(|(_, &o)| o);
                if let Some(first) = holders.next()
                    && first != NOBODY
                    && holders.all(|o| o == first)
                {
                    scores[first as usize] += s.exclusive_coverage;
                }
            }
        }
        scores
    }

    /// Who a photo still on the map goes to at the end: the holder of both its tiles, or
    /// with Wetlands the holder of the wetter one.
    fn photo_owner(&self, info: &MapInfo, space: usize) -> Option<usize> {
        let (a, b) = info.spaces[space];
        let (oa, ob) = (self.owner[a as usize], self.owner[b as usize]);
        if oa == ob {
            return (oa != NOBODY).then_some(oa as usize);
        }
        let wetness = self.rules.scoring.wetness.as_ref()?;
        let (wa, wb) = (
            wetness[self.terrain[a as usize] as usize],
            wetness[self.terrain[b as usize] as usize],
        );
        let wetter = match wa.cmp(&wb) {
            std::cmp::Ordering::Less => oa,
            std::cmp::Ordering::Greater => ob,
            std::cmp::Ordering::Equal => return None,
        };
        (wetter != NOBODY).then_some(wetter as usize)
    }

    fn all_claimed(&self) -> bool {
        !self.owner.contains(&NOBODY)
    }

    /// Rolls every Safari Die and the Bonus Die, and moves on to the first decision.
    fn begin_turn(&mut self) {
        self.roll_turn();
        self.settle();
    }

    /// Rolls every Safari Die and the Bonus Die (unless every tile is claimed and the rules
    /// put it away).
    fn roll_turn(&mut self) {
        self.rolls = 1;
        self.claimed = 0;
        self.phase = Phase::Rolling;
        let faces = self.rules.dice_faces.len();
        let dice = if faces == 0 { 0 } else { self.rules.dice };
        self.dice = (0..dice)
            .map(|_| self.rng.random_range(0..faces) as u8)
            .collect();
        self.dice.sort_unstable();
        let in_play = self.rules.bonus_in_overtime || !self.all_claimed();
        let bonus_faces = &self.rules.bonus_faces;
        self.bonus = if in_play && !bonus_faces.is_empty() {
            bonus_faces[self.rng.random_range(0..bonus_faces.len())]
        } else {
            None
        };
    }

    /// Moves past every point of the turn that offers no decision: no claim and no roll
    /// left, no Bonus tile left, no photo to take; ends turns that way until one does.
    fn settle(&mut self) {
        while self.over.is_none() {
            match self.phase {
                Phase::Rolling => {
                    self.work += self.roll_work();
                    if self.can_claim() || self.can_reroll() {
                        return;
                    }
                    self.phase = Phase::Photo {
                        left: self.rules.photos_per_turn,
                    };
                }
                Phase::Bonus => {
                    if self.supply[self.seat] > 0 && !self.all_claimed() {
                        return;
                    }
                    self.phase = Phase::Photo {
                        left: self.rules.photos_per_turn,
                    };
                }
                Phase::Photo { left } => {
                    if left > 0 && self.photo_spaces().next().is_some() {
                        return;
                    }
                    self.end_turn();
                    if self.over.is_none() {
                        self.roll_turn();
                    }
                }
            }
        }
    }

    /// What a roll costs to look at: every claim of the map tried against the dice, here and
    /// again when the actions are listed, and every way to re-roll them.
    fn roll_work(&self) -> u64 {
        2 * self.map().claims.len() as u64 + (1u64 << self.dice.len())
    }

    fn can_reroll(&self) -> bool {
        self.rolls < self.rules.rolls && !self.dice.is_empty()
    }

    /// How many of each terrain the dice show.
    fn shown(&self) -> [u8; MOST_TERRAINS] {
        let mut shown = [0u8; MOST_TERRAINS];
        for &face in &self.dice {
            if let Some(terrain) = self.rules.dice_faces[face as usize].1 {
                shown[terrain as usize] += 1;
            }
        }
        shown
    }

    /// Whether the dice show the tiles of `claim`, and the seat has tokens for them.
    fn fits(&self, claim: u64, shown: &[u8; MOST_TERRAINS]) -> bool {
        let mut tokens = 0;
        for tile in bits(claim) {
            let terrain = self.terrain[tile as usize];
            // The tiles of this terrain up to this one: each takes a die of its own.
            let before = bits(claim & ((1u64 << tile) - 1))
                .filter(|&t| self.terrain[t as usize] == terrain)
                .count();
            if before >= usize::from(shown[terrain as usize]) {
                return false;
            }
            if self.owner[tile as usize] != self.seat as u8 {
                tokens += 1;
            }
        }
        tokens <= self.supply[self.seat]
    }

    /// The claims the dice allow now, if any claim of the needed size is among them.
    fn claims(&self, mut each: impl FnMut(u64)) {
        let shown = self.shown();
        let needs = self.rules.needs_claimable;
        let claims = &self.map().claims;
        // The claims are sorted by size: look for one big enough from the largest down.
        let enough = claims
            .iter()
            .rev()
            .take_while(|c| c.count_ones() >= needs)
            .any(|&c| self.fits(c, &shown));
        if !enough {
            return;
        }
        for &claim in claims {
            if self.fits(claim, &shown) {
                each(claim);
            }
        }
    }

    fn can_claim(&self) -> bool {
        let mut any = false;
        self.claims(|_| any = true);
        any
    }

    /// The spaces whose photo lies between two of the seat's tokens.
    fn photo_spaces(&self) -> impl Iterator<Item = usize> + '_ {
        let seat = self.seat as u8;
        let info = self.map();
        self.photos
            .iter()
            .enumerate()
            .filter(move |&(space, photo)| {
                let (a, b) = info.spaces[space];
                photo.is_some() && self.owner[a as usize] == seat && self.owner[b as usize] == seat
            })
            .map(|(space, _)| space)
    }

    /// Re-roll masks that differ: among dice showing one face, which of them are rolled
    /// does not matter, so only the last ones of each run are.
    fn reroll_masks(&self, mut each: impl FnMut(u8)) {
        let n = self.dice.len();
        for mask in 1u16..(1 << n) {
            let canonical = (0..n.saturating_sub(1)).all(|i| {
                self.dice[i] != self.dice[i + 1]
                    || mask & (1 << i) == 0
                    || mask & (1 << (i + 1)) != 0
            });
            if canonical {
                each(mask as u8);
            }
        }
    }

    fn take_tile(&mut self, tile: usize) {
        let seat = self.seat as u8;
        let before = self.owner[tile];
        if before == seat {
            return;
        }
        if before != NOBODY {
            self.supply[before as usize] += 1;
        }
        self.supply[self.seat] -= 1;
        self.owner[tile] = seat;
    }

    fn end_turn(&mut self) {
        let seat = self.seat;
        self.turns[seat] += 1;
        self.last_turn[seat] = Some(self.turn);
        self.turn += 1;
        let end = self.rules.end;
        let turns_done = self.turns.iter().all(|&t| t >= end.min_turns);
        if turns_done && (!end.every_tile_claimed || self.all_claimed()) {
            self.over = Some("every_tile_claimed");
        } else if self.turn >= MOST_TURNS {
            self.over = Some(ENGINE_TURN_LIMIT);
        }
        self.seat = (seat + 1) % self.held.len();
    }

    fn face_name(&self, face: u8) -> String {
        let (id, terrain) = &self.rules.dice_faces[face as usize];
        terrain.map_or_else(|| id.clone(), |t| self.rules.tile_label(t).to_string())
    }

    /// Why the seat to move may not claim `mask` now.
    fn why_not_claim(&self, mask: u64) -> String {
        let info = self.map();
        let tiles = info.cells.len();
        if tiles < 64 && mask >> tiles != 0 {
            return "that is no tile of the map".to_string();
        }
        if mask == 0 {
            return "pick the tiles to claim first".to_string();
        }
        let names: Vec<String> = bits(mask).map(|t| self.tile_name(t as u8)).collect();
        let names = names.join(", ");
        let needs = self.rules.needs_claimable;
        if !self.can_claim() {
            return format!(
                "these dice claim no {} of one route{}",
                match needs {
                    1 => "tile".to_string(),
                    n => format!("{n} tiles"),
                },
                if self.can_reroll() {
                    ": re-roll some of them"
                } else {
                    ", and this was the last roll"
                }
            );
        }
        let within: Vec<u64> = info
            .claims
            .iter()
            .copied()
            .filter(|c| c & mask == mask)
            .collect();
        if within.is_empty() {
            if let Some(off) = bits(mask & !info.on_route).next() {
                return format!("{} lies on no route", self.tile_name(off as u8));
            }
            return format!(
                "no route of {} tiles holds {names} together",
                self.rules.route
            );
        }
        let shown = self.shown();
        for (terrain, &dice) in shown.iter().enumerate().take(self.rules.terrains.len()) {
            let need = bits(mask)
                .filter(|&t| usize::from(self.terrain[t as usize]) == terrain)
                .count();
            if need > usize::from(dice) {
                let label = self.rules.tile_label(terrain as u8);
                let needs = match (mask.count_ones(), need) {
                    (1, _) => format!("needs a die showing {label}"),
                    (_, 1) => format!("need a die showing {label}"),
                    (_, n) => format!("need {n} dice showing {label}"),
                };
                let shown = match dice {
                    0 => "none".to_string(),
                    1 => "only one".to_string(),
                    n => format!("only {n}"),
                };
                return format!("{names} {needs}, and your dice show {shown}");
            }
        }
        let tokens = bits(mask)
            .filter(|&t| self.owner[t as usize] != self.seat as u8)
            .count() as u32;
        if tokens > self.supply[self.seat] {
            return format!(
                "you have {} Travel Tokens left, and {names} need {tokens}",
                self.supply[self.seat]
            );
        }
        if !within.iter().any(|&c| self.fits(c, &shown)) {
            return format!("no claim your dice allow holds {names} together");
        }
        if !info.claims.contains(&mask) {
            return format!(
                "{names} do not make a claim by themselves: pick the tiles that join them"
            );
        }
        format!("{names} cannot be claimed now")
    }

    fn tile_name(&self, tile: u8) -> String {
        format!(
            "{} {}",
            self.rules.tile_label(self.terrain[tile as usize]),
            self.map().cell_name(tile)
        )
    }

    fn sees_photo(&self, seat: Option<usize>, holder: usize, held: &Held) -> bool {
        seat.is_none() || seat == Some(holder) || held.public
    }
}

impl Play for Table {
    type Action = Action;

    fn seats(&self) -> usize {
        self.held.len()
    }

    fn to_move(&self) -> Option<usize> {
        self.over.is_none().then_some(self.seat)
    }

    fn legal(&self, out: &mut Vec<Action>) {
        if self.over.is_some() {
            return;
        }
        match self.phase {
            Phase::Rolling => {
                if self.can_reroll() {
                    self.reroll_masks(|dice| out.push(Action::Reroll { dice }));
                }
                self.claims(|claim| {
                    out.push(Action::Claim {
                        tiles: Tiles(claim),
                    })
                });
            }
            Phase::Bonus => {
                for (tile, &owner) in self.owner.iter().enumerate() {
                    if owner == NOBODY {
                        out.push(Action::Bonus { tile: tile as u8 });
                    }
                }
            }
            Phase::Photo { .. } => {
                let spaces: Vec<usize> = self.photo_spaces().collect();
                for space in spaces {
                    out.push(Action::Photo { space: space as u8 });
                }
                if self.rules.photo_optional {
                    out.push(Action::NoPhoto);
                }
            }
        }
    }

    fn apply(&mut self, action: Action) {
        match action {
            Action::Reroll { dice } => {
                let faces = self.rules.dice_faces.len();
                for i in 0..self.dice.len() {
                    if dice & (1 << i) != 0 {
                        self.dice[i] = self.rng.random_range(0..faces) as u8;
                    }
                }
                self.dice.sort_unstable();
                self.rolls += 1;
            }
            Action::Claim { tiles } => {
                for tile in bits(tiles.0) {
                    self.take_tile(tile as usize);
                }
                self.claimed = tiles.0;
                let size = tiles.0.count_ones();
                self.phase = match self.bonus {
                    Some(n) if n == size => {
                        if !self.bonuses.contains(&n) {
                            self.bonuses.push(n);
                        }
                        Phase::Bonus
                    }
                    _ => Phase::Photo {
                        left: self.rules.photos_per_turn,
                    },
                };
            }
            Action::Bonus { tile } => {
                self.take_tile(tile as usize);
                self.claimed |= 1 << tile;
                self.phase = Phase::Photo {
                    left: self.rules.photos_per_turn,
                };
            }
            Action::Photo { space } => {
                let animal = self.photos[space as usize]
                    .take()
                    .expect("a photo lies there");
                self.held[self.seat].push(Held {
                    animal,
                    public: !self.rules.photos_face_down,
                });
                if let Phase::Photo { left } = &mut self.phase {
                    *left -= 1;
                }
            }
            Action::NoPhoto => self.phase = Phase::Photo { left: 0 },
        }
        self.settle();
    }

    fn outcome(&self) -> Option<Outcome> {
        let reason = self.over?;
        let scores = self.scores();
        // The least recent last turn wins a tie: a seat that never played is least recent.
        let key = |seat: usize| {
            (
                scores[seat],
                std::cmp::Reverse(self.last_turn[seat].map(i64::from).unwrap_or(-1)),
            )
        };
        let best = (0..scores.len())
            .map(key)
            .max()
            .expect("a game has players");
        let winners = (0..scores.len()).filter(|&s| key(s) == best).collect();
        Some(Outcome {
            scores,
            winners,
            reason,
        })
    }

    fn standing(&self, seat: usize) -> f64 {
        self.scores()[seat] as f64
    }

    fn determinise(&self, seat: usize, rng: &mut Pcg64Mcg) -> Table {
        let mut copy = self.clone();
        copy.rng = Pcg64Mcg::seed_from_u64(rng.random());
        if !self.rules.photos_face_down {
            return copy;
        }
        let mut unseen: Vec<u8> = copy.photos.iter().flatten().copied().collect();
        for (other, held) in copy.held.iter().enumerate() {
            if other != seat {
                unseen.extend(held.iter().filter(|h| !h.public).map(|h| h.animal));
            }
        }
        unseen.shuffle(rng);
        let mut redrawn = unseen.into_iter();
        for photo in copy.photos.iter_mut().flatten() {
            *photo = redrawn.next().expect("as many as were drawn");
        }
        for (other, held) in copy.held.iter_mut().enumerate() {
            if other != seat {
                for h in held.iter_mut().filter(|h| !h.public) {
                    h.animal = redrawn.next().expect("as many as were drawn");
                }
            }
        }
        copy
    }

    fn view(&self, seat: Option<usize>) -> serde_json::Value {
        let rules = &self.rules;
        let info = self.map();
        let sees_all = seat.is_none();
        let tiles: Vec<serde_json::Value> = info
            .cells
            .iter()
            .enumerate()
            .map(|(i, &(column, row))| {
                let owner = self.owner[i];
                json!({
                    "column": column,
                    "row": row,
                    "name": info.cell_name(i as u8),
                    "terrain": rules.terrains[self.terrain[i] as usize],
                    "owner": (owner != NOBODY).then_some(owner),
                    "on_route": info.on_route & (1 << i) != 0,
                })
            })
            .collect();
        let spaces: Vec<serde_json::Value> = info
            .spaces
            .iter()
            .zip(&self.photos)
            .map(|(&(a, b), photo)| {
                let shown = match photo {
                    None => serde_json::Value::Null,
                    Some(_) if rules.photos_face_down && !sees_all => json!("down"),
                    Some(animal) => json!(rules.animals[*animal as usize]),
                };
                json!({ "between": [a, b], "photo": shown })
            })
            .collect();
        let scores = self.scores();
        let seats: Vec<serde_json::Value> = self
            .held
            .iter()
            .enumerate()
            .map(|(s, held)| {
                let all_seen = held.iter().all(|h| self.sees_photo(seat, s, h));
                let photos: Vec<serde_json::Value> = held
                    .iter()
                    .map(|h| {
                        if self.sees_photo(seat, s, h) {
                            json!(rules.animals[h.animal as usize])
                        } else {
                            serde_json::Value::Null
                        }
                    })
                    .collect();
                json!({
                    "colour": rules.colours[s].id,
                    "supply": self.supply[s],
                    "photos": photos,
                    "turns": self.turns[s],
                    "score": (all_seen && (sees_all || !rules.photos_face_down)).then_some(scores[s]),
                })
            })
            .collect();
        let phase = match self.phase {
            Phase::Rolling => "rolling",
            Phase::Bonus => "bonus",
            Phase::Photo { .. } => "photo",
        };
        json!({
            "map": { "card": info.card, "columns": info.columns, "rows": info.rows },
            "tiles": tiles,
            "spaces": spaces,
            "dice": self.dice.iter().map(|&f| &rules.dice_faces[f as usize].0).collect::<Vec<_>>(),
            "bonus": self.bonus,
            "rolls": self.rolls,
            "most_rolls": rules.rolls,
            "phase": phase,
            "claimed": bits(self.claimed).collect::<Vec<_>>(),
            "overtime": self.all_claimed(),
            "seats": seats,
            "seat": self.seat,
            "first": self.first,
            "turn": self.turn,
            "min_turns": rules.end.min_turns,
            "outcome": self.outcome(),
        })
    }

    fn describe(&self, action: Action) -> String {
        match action {
            Action::Reroll { dice } => {
                let (mut rolled, mut kept) = (Vec::new(), Vec::new());
                for (i, &face) in self.dice.iter().enumerate() {
                    let name = self.face_name(face);
                    if dice & (1 << i) != 0 {
                        rolled.push(name);
                    } else {
                        kept.push(name);
                    }
                }
                match kept.is_empty() {
                    true => format!("re-rolls every die ({})", rolled.join(", ")),
                    false => format!(
                        "re-rolls {}, keeping {}",
                        rolled.join(", "),
                        kept.join(", ")
                    ),
                }
            }
            Action::Claim { tiles } => {
                let names: Vec<String> = bits(tiles.0)
                    .map(|t| {
                        let owner = self.owner[t as usize];
                        let name = self.tile_name(t as u8);
                        match owner {
                            NOBODY => name,
                            o if o as usize == self.seat => format!("{name} (its own)"),
                            o => format!("{name} (from {})", self.rules.colours[o as usize].label),
                        }
                    })
                    .collect();
                format!("claims {}", names.join(", "))
            }
            Action::Bonus { tile } => format!("claims {} as the Bonus", self.tile_name(tile)),
            Action::Photo { space } => {
                let info = self.map();
                let (a, b) = info.spaces[space as usize];
                let between = format!("between {} and {}", info.cell_name(a), info.cell_name(b));
                match self.photos[space as usize] {
                    Some(animal) if !self.rules.photos_face_down => format!(
                        "takes the {} photo {between}",
                        self.rules.animal_labels[animal as usize]
                    ),
                    _ => format!("takes the face-down photo {between}"),
                }
            }
            Action::NoPhoto => "takes no photo".to_string(),
        }
    }

    fn why_not(&self, action: Action) -> String {
        let info = self.map();
        let claimed = "your claim this turn is made";
        match (action, self.phase) {
            (Action::Reroll { .. }, Phase::Rolling) if !self.can_reroll() => format!(
                "this was the last roll: a turn has {} rolls",
                self.rules.rolls
            ),
            (Action::Reroll { dice: 0 }, Phase::Rolling) => {
                "mark the dice to re-roll first".to_string()
            }
            (Action::Reroll { .. }, Phase::Rolling) => {
                "that is not a re-roll of the dice as they lie".to_string()
            }
            (Action::Reroll { .. }, _) => {
                format!("{claimed}: the dice are not rolled again this turn")
            }
            (Action::Claim { tiles }, Phase::Rolling) => self.why_not_claim(tiles.0),
            (Action::Claim { .. }, Phase::Bonus) => {
                "you earned the Bonus: claim a tile no token has been on".to_string()
            }
            (Action::Claim { .. }, Phase::Photo { .. }) => {
                format!("{claimed}: take a photo lying between two of your tokens, or none")
            }
            (Action::Bonus { tile }, Phase::Bonus) => match self.owner.get(tile as usize) {
                None => "that is no tile of the map".to_string(),
                Some(_) => format!(
                    "a Travel Token has been on {}: the Bonus claims a tile no token has been on",
                    self.tile_name(tile)
                ),
            },
            (Action::Bonus { .. }, _) => match self.bonus {
                Some(n) => format!(
                    "the Bonus is earned by a claim of exactly {n} tiles, as the Bonus Die shows, and claimed after it"
                ),
                None => "the Bonus Die earns no Bonus this turn".to_string(),
            },
            (Action::Photo { space }, Phase::Photo { .. }) => {
                let Some(&(a, b)) = info.spaces.get(space as usize) else {
                    return "that is no photo space of the map".to_string();
                };
                if self.photos[space as usize].is_none() {
                    return "this photo has been taken".to_string();
                }
                format!(
                    "this photo lies between {} and {}: you take photos lying between two of your own Travel Tokens",
                    self.tile_name(a),
                    self.tile_name(b)
                )
            }
            (Action::Photo { .. } | Action::NoPhoto, Phase::Rolling) => {
                "photos are taken after your claim".to_string()
            }
            (Action::Photo { .. } | Action::NoPhoto, Phase::Bonus) => {
                "claim your Bonus tile first".to_string()
            }
            (Action::NoPhoto, Phase::Photo { .. }) => {
                "these rules make you take a photo when one lies between two of your tokens"
                    .to_string()
            }
        }
    }

    /// Claims at once rather than re-rolling: the claim that takes most tiles from others and
    /// the unclaimed, then the one that puts most photos between its tokens (meeting the
    /// Bonus Die breaks ties); a Bonus tile that puts most photos between its tokens; and
    /// always a photo.
    fn playout(&self, legal: &[Action], rng: &mut Pcg64Mcg) -> Action {
        let seat = self.seat as u8;
        let mine = self
            .owner
            .iter()
            .enumerate()
            .filter(|&(_, &o)| o == seat)
            .fold(0u64, |m, (t, _)| m | (1 << t));
        let info = self.map();
        let photo_between = |space: u8, held: u64| {
            let (a, b) = info.spaces[space as usize];
            self.photos[space as usize].is_some() && held & (1 << a) != 0 && held & (1 << b) != 0
        };
        let already = (0..info.spaces.len() as u8)
            .filter(|&space| photo_between(space, mine))
            .count() as u32;
        // Photos that lie between two of the seat's tiles once it holds `tiles` too: those
        // already there, and those beside a tile newly held (counted from one side).
        let photos = |tiles: u64| {
            let held = mine | tiles;
            let new = tiles & !mine;
            let added = bits(new)
                .flat_map(|tile| info.beside[tile as usize].iter().map(move |&s| (tile, s)))
                .filter(|&(tile, space)| {
                    let (a, b) = info.spaces[space as usize];
                    let other = if u32::from(a) == tile { b } else { a };
                    photo_between(space, held)
                        && (new & (1 << other) == 0 || u32::from(other) > tile)
                })
                .count() as u32;
            already + added
        };
        let mut best: Option<(u32, Action)> = None;
        let mut ties = 0u32;
        for &action in legal {
            let worth = match action {
                Action::Claim { tiles } => {
                    let gained = (tiles.0 & !mine).count_ones();
                    let bonus = u32::from(self.bonus == Some(tiles.0.count_ones()));
                    2 + gained * 8 + photos(tiles.0) * 2 + bonus
                }
                Action::Bonus { tile } => 1 + photos(1 << tile),
                Action::Photo { .. } => 1,
                _ => continue,
            };
            match best {
                Some((b, _)) if b > worth => {}
                Some((b, _)) if b == worth => {
                    ties += 1;
                    if rng.random_range(0..=ties) == 0 {
                        best = Some((worth, action));
                    }
                }
                _ => {
                    ties = 0;
                    best = Some((worth, action));
                }
            }
        }
        best.map_or_else(|| legal[rng.random_range(0..legal.len())], |(_, a)| a)
    }

    /// A re-roll then a claim, or a claim then a Bonus tile: a turn offers some sixty
    /// actions at each step, too many to look further.
    fn lookahead(&self) -> u32 {
        1
    }

    fn work(&self) -> u64 {
        self.work
    }

    fn used(&self) -> Vec<String> {
        let mut used = vec![format!("map:{}", self.map().card)];
        used.extend(self.bonuses.iter().map(|n| format!("bonus:{n}")));
        used
    }

    fn components(&self) -> Vec<String> {
        let mut all: Vec<String> = self
            .rules
            .maps
            .iter()
            .map(|m| format!("map:{}", m.card))
            .collect();
        let mut numbers: Vec<u32> = self.rules.bonus_faces.iter().flatten().copied().collect();
        numbers.sort_unstable();
        numbers.dedup();
        all.extend(numbers.iter().map(|n| format!("bonus:{n}")));
        all
    }
}
