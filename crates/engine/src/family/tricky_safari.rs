//! Tricky Safari (Corné van Moorsel), played from its ruleset.
//!
//! Two cameras move like chess pieces over a board of open ground, forest and lake, and
//! photograph the animals they stand in front of or beside; after both have moved, every
//! animal takes one step by the rulebook's six cases. Nothing is hidden and nothing is random
//! after the setup, which places the forests and lakes anew each game as the rulebook does
//! (unless the rules' `layout` fixes them as printed).
//!
//! Every rule read here is in the ruleset's `rules` (docs/ruleset.md, "tricky-safari"): how
//! the cameras move on the first turn and after, which sides of an animal a photograph is
//! taken from and when, which way an animal turns, and when the game ends.

use std::sync::Arc;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::ruleset::{self, Components, thousands};
use super::{MOST_TURNS, Note, Outcome, Play, Start};
use crate::LoadError;

/// The module id in `game.rules`.
pub const ID: &str = "tricky-safari";

#[derive(Debug, Clone, Deserialize)]
struct Written {
    board: String,
    animals: String,
    cameras: String,
    terrain: TerrainIds,
    #[serde(default)]
    animals_cross: std::collections::BTreeMap<String, String>,
    moves_per_player: u32,
    first_seat: usize,
    first_move: CameraMove,
    camera_move: CameraMove,
    photograph: Photograph,
    animal_move: AnimalMove,
    #[serde(default)]
    layout: Layout,
}

#[derive(Debug, Clone, Deserialize)]
struct TerrainIds {
    open: String,
    forest: String,
    lake: Option<String>,
}

/// How a camera may move on a turn.
#[derive(Debug, Clone, Copy, Deserialize)]
pub struct CameraMove {
    /// `orthogonal` (as a rook) or `any` (as a queen), any distance over free cells.
    pub lines: Lines,
    /// Whether the camera may stay where it is although it could move.
    pub may_pass: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lines {
    Orthogonal,
    Any,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Photograph {
    /// The cells beside an animal a camera photographs it from: `front`, `left`, `right`, `back`.
    pub sides: Vec<Side>,
    /// Whether the cameras also photograph after the animals move (else after their own move only).
    pub after_animals_move: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Front,
    Left,
    Right,
    Back,
}

#[derive(Debug, Clone, Copy, Deserialize)]
pub struct AnimalMove {
    /// Which way an animal blocked ahead by forest turns when both its sides are open.
    pub forest_ahead_turns: Turn,
    /// Which way it turns when blocked ahead by anything else with both sides open.
    pub other_ahead_turns: Turn,
    /// Whether the animals move after the last round (the rulebook: they do not).
    pub after_last_round: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Turn {
    Left,
    Right,
}

/// Whether the forests and lakes are placed anew each game.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
pub struct Layout {
    #[serde(default)]
    pub vary: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Terrain {
    Open,
    Forest,
    Lake,
}

/// A facing: north is toward the board's first row (the top).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Facing {
    North,
    East,
    South,
    West,
}

impl Facing {
    fn name(self) -> &'static str {
        match self {
            Facing::North => "north",
            Facing::East => "east",
            Facing::South => "south",
            Facing::West => "west",
        }
    }
    fn step(self) -> (i32, i32) {
        match self {
            Facing::North => (0, -1),
            Facing::East => (1, 0),
            Facing::South => (0, 1),
            Facing::West => (-1, 0),
        }
    }
    fn left(self) -> Facing {
        match self {
            Facing::North => Facing::West,
            Facing::West => Facing::South,
            Facing::South => Facing::East,
            Facing::East => Facing::North,
        }
    }
    fn right(self) -> Facing {
        self.left().left().left()
    }
    fn back(self) -> Facing {
        self.left().left()
    }
    fn parse(word: &str) -> Option<Facing> {
        Some(match word {
            "north" => Facing::North,
            "east" => Facing::East,
            "south" => Facing::South,
            "west" => Facing::West,
            _ => return None,
        })
    }
}

/// An animal of the game: its id, its name (its symbol's label) and the terrain that does not
/// block it.
#[derive(Debug, Clone)]
pub struct AnimalInfo {
    pub id: String,
    pub name: String,
    pub crosses: Option<Terrain>,
}

#[derive(Debug)]
pub struct Rules {
    pub name: String,
    pub columns: usize,
    pub rows: usize,
    pub terrain: Vec<Terrain>,
    pub animals: Vec<AnimalInfo>,
    /// Each animal's starting cell and facing, in `animals`' order.
    pub starts: Vec<(u8, Facing)>,
    /// Each seat's camera's starting cell.
    pub cameras: [u8; 2],
    pub moves_per_player: u32,
    pub first_seat: usize,
    pub first_move: CameraMove,
    pub camera_move: CameraMove,
    pub photograph: Photograph,
    pub animal_move: AnimalMove,
    pub layout: Layout,
}

/// The most cells a board has: cells are bytes.
const MOST_CELLS: usize = 256;
/// The most animals: a seat's photographs are the bits of a `u32`.
const MOST_ANIMALS: usize = 32;

/// `c4` to its cell index.
fn cell_of(name: &str, columns: usize, rows: usize) -> Option<u8> {
    let mut chars = name.chars();
    let column = chars.next()?;
    if !column.is_ascii_lowercase() {
        return None;
    }
    let column = (column as u8 - b'a') as usize;
    let row: usize = chars.as_str().parse().ok()?;
    (column < columns && (1..=rows).contains(&row)).then(|| ((row - 1) * columns + column) as u8)
}

impl Rules {
    pub fn read(components: &Components, variants: &[String]) -> Result<Rules, LoadError> {
        let written: Written = ruleset::rules_for(components, ID, variants)?;
        let board = components
            .boards
            .iter()
            .find(|b| b.id == written.board)
            .ok_or_else(|| {
                ruleset::fault(
                    "rules.board",
                    format!("no board `{}` in `boards`", written.board),
                )
            })?;
        let (columns, rows) = (board.columns, board.rows);
        if columns.checked_mul(rows).is_none_or(|n| n > MOST_CELLS)
            || columns == 0
            || rows == 0
            || columns > 26
        {
            return Err(ruleset::fault(
                "boards",
                format!("the engine plays boards of at most {MOST_CELLS} cells and 26 columns"),
            ));
        }
        if board.cells.len() != rows || board.cells.iter().any(|r| r.len() != columns) {
            return Err(ruleset::fault(
                "boards",
                "the board's cells are not `rows` rows of `columns` cells",
            ));
        }
        let terrain_of = |id: &str| -> Terrain {
            if id == written.terrain.forest {
                Terrain::Forest
            } else if written.terrain.lake.as_deref() == Some(id) {
                Terrain::Lake
            } else {
                Terrain::Open
            }
        };
        if let Some(other) = board.cells.iter().flatten().find(|c| {
            **c != written.terrain.open
                && **c != written.terrain.forest
                && written.terrain.lake.as_ref() != Some(*c)
        }) {
            return Err(ruleset::fault(
                "boards",
                format!("a cell of `{other}`, which is not one of the terrains in `rules.terrain`"),
            ));
        }
        let terrain: Vec<Terrain> = board
            .cells
            .iter()
            .flatten()
            .map(|c| terrain_of(c))
            .collect();
        let set = |id: &str| {
            components
                .pieces
                .iter()
                .find(|p| p.id == id)
                .ok_or_else(|| ruleset::fault("pieces", format!("no piece set `{id}`")))
        };
        let animal_set = set(&written.animals)?;
        if animal_set.pieces.len() > MOST_ANIMALS {
            return Err(ruleset::fault(
                "pieces",
                format!("the engine plays at most {MOST_ANIMALS} animals"),
            ));
        }
        let animals: Vec<AnimalInfo> = animal_set
            .pieces
            .iter()
            .map(|p| AnimalInfo {
                id: p.id.clone(),
                name: p
                    .symbol
                    .as_deref()
                    .map_or_else(|| p.id.clone(), |symbol| components.label(symbol)),
                crosses: written
                    .animals_cross
                    .get(&p.id)
                    .map(|t| terrain_of(t))
                    .filter(|t| *t != Terrain::Open),
            })
            .collect();
        let camera_set = set(&written.cameras)?;
        let setup = components
            .setups
            .iter()
            .find(|s| s.players.contains(&2))
            .ok_or_else(|| ruleset::fault("setups", "no setup for 2 players"))?;
        let mut starts = vec![None; animals.len()];
        let mut cameras = [None; 2];
        for (i, place) in setup.place.iter().enumerate() {
            let path = format!("setups.place[{i}]");
            let cell = cell_of(&place.at, columns, rows).ok_or_else(|| {
                ruleset::fault(&path, format!("`{}` is not a cell of the board", place.at))
            })?;
            if place.set == written.animals {
                let animal = animals
                    .iter()
                    .position(|a| a.id == place.piece)
                    .ok_or_else(|| ruleset::fault(&path, "no such animal"))?;
                let facing = place
                    .facing
                    .as_deref()
                    .and_then(Facing::parse)
                    .ok_or_else(|| {
                        ruleset::fault(
                            &path,
                            "an animal is placed facing north, east, south or west",
                        )
                    })?;
                starts[animal] = Some((cell, facing));
            } else if place.set == written.cameras {
                let seat = camera_set
                    .pieces
                    .iter()
                    .position(|c| c.id == place.piece)
                    .filter(|s| *s < 2);
                let seat = seat.ok_or_else(|| {
                    ruleset::fault(&path, "a camera is one of the first two of its set")
                })?;
                cameras[seat] = Some(cell);
            }
        }
        let starts: Vec<(u8, Facing)> = starts
            .into_iter()
            .enumerate()
            .map(|(i, s)| {
                s.ok_or_else(|| {
                    ruleset::fault(
                        "setups",
                        format!("the animal `{}` is not placed", animals[i].id),
                    )
                })
            })
            .collect::<Result<_, _>>()?;
        if !written.layout.vary
            && let Some((animal, _)) = starts
                .iter()
                .enumerate()
                .find(|(_, (cell, _))| terrain[*cell as usize] != Terrain::Open)
        {
            return Err(ruleset::fault(
                "setups",
                format!("the {} starts off open ground", animals[animal].id),
            ));
        }
        let moves = 2 * u64::from(written.moves_per_player);
        if moves > u64::from(MOST_TURNS) {
            return Err(ruleset::past_most_turns(
                "rules.moves_per_player",
                format!(
                    "each of 2 players has made {} moves",
                    thousands(written.moves_per_player.into())
                ),
                moves,
            ));
        }
        let cameras = [
            cameras[0].ok_or_else(|| ruleset::fault("setups", "the first camera is not placed"))?,
            cameras[1]
                .ok_or_else(|| ruleset::fault("setups", "the second camera is not placed"))?,
        ];
        Ok(Rules {
            name: components.game.name.clone(),
            columns,
            rows,
            terrain,
            animals,
            starts,
            cameras,
            moves_per_player: written.moves_per_player,
            first_seat: written.first_seat % 2,
            first_move: written.first_move,
            camera_move: written.camera_move,
            photograph: written.photograph,
            animal_move: written.animal_move,
            layout: written.layout,
        })
    }

    fn neighbour(&self, cell: u8, (dx, dy): (i32, i32)) -> Option<u8> {
        let (c, r) = (
            (cell as usize % self.columns) as i32 + dx,
            (cell as usize / self.columns) as i32 + dy,
        );
        ((0..self.columns as i32).contains(&c) && (0..self.rows as i32).contains(&r))
            .then(|| (r as usize * self.columns + c as usize) as u8)
    }

    pub fn cell_name(&self, cell: u8) -> String {
        format!(
            "{}{}",
            (b'a' + (cell as usize % self.columns) as u8) as char,
            cell as usize / self.columns + 1
        )
    }

    /// The rules in a few sentences, as read.
    pub fn summary(&self) -> Vec<String> {
        let lines = |rule: CameraMove| match rule.lines {
            Lines::Orthogonal => "along a row or a column (as a rook)",
            Lines::Any => "in any straight line, across or diagonally (as a queen)",
        };
        let stays = |rule: CameraMove| match rule.may_pass {
            true => ", or stays where it is",
            false => "; it stays only when it cannot move",
        };
        let sides: Vec<&str> = self
            .photograph
            .sides
            .iter()
            .map(|side| match side {
                Side::Front => "in front of",
                Side::Left | Side::Right => "beside",
                Side::Back => "behind",
            })
            .fold(Vec::new(), |mut words, word| {
                if !words.contains(&word) {
                    words.push(word);
                }
                words
            });
        let turn = |turn: Turn| match turn {
            Turn::Left => "left",
            Turn::Right => "right",
        };
        let mut summary = vec![
            format!(
                "Two cameras take turns, {} moves each; seat {}'s moves first. Each tries to photograph all {} animals.",
                self.moves_per_player,
                self.first_seat + 1,
                self.animals.len()
            ),
            format!(
                "A camera's first move goes {}{}. Later moves go {}{}. A camera moves any distance over open ground, never onto or through forest, lake or an animal, and through the other camera but not onto it.",
                lines(self.first_move),
                stays(self.first_move),
                lines(self.camera_move),
                stays(self.camera_move)
            ),
            format!(
                "A camera photographs an animal it stands {} at the end of its move{}; each animal once.",
                sides.join(" or "),
                if self.photograph.after_animals_move {
                    ", and both cameras after the animals step"
                } else {
                    ""
                }
            ),
            format!(
                "After each round every animal steps forward, the top row first, left to right. Blocked ahead, it turns toward the open side; with both sides open it turns {} at forest and {} at anything else; blocked on three sides it turns about. Forest, lake, an animal, a camera and the edge block.",
                turn(self.animal_move.forest_ahead_turns),
                turn(self.animal_move.other_ahead_turns)
            ),
        ];
        let crossing: Vec<String> = [(Terrain::Lake, "lakes"), (Terrain::Forest, "forest")]
            .iter()
            .filter_map(|(terrain, word)| {
                let names: Vec<&str> = self
                    .animals
                    .iter()
                    .filter(|a| a.crosses == Some(*terrain))
                    .map(|a| a.name.as_str())
                    .collect();
                (!names.is_empty()).then(|| format!("{} cross {word}", names.join(" and ")))
            })
            .collect();
        if !crossing.is_empty() {
            summary.push(format!("{}.", crossing.join("; ")));
        }
        summary.push(format!(
            "The game ends after a round in which a player has every animal (both: a draw), else after {} moves each{}: the most photographs win.",
            self.moves_per_player,
            if self.animal_move.after_last_round {
                ""
            } else {
                ", the animals not stepping after the last round"
            }
        ));
        summary.push(
            match self.layout.vary {
                true => "The forests and lakes are placed anew every game (the rulebook's landscape), each patch moved at random.",
                false => "The board is played as printed, the same every game.",
            }
            .to_string(),
        );
        summary
    }
}

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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Animal {
    cell: u8,
    facing: Facing,
}

impl Start for Game {
    type Game = Table;

    fn start(&self, players: usize, seed: u64) -> Result<Table, String> {
        if players != 2 {
            return Err(format!(
                "{} is played by 2 players, not {players}",
                self.rules.name
            ));
        }
        let rules = &self.rules;
        let mut terrain = rules.terrain.clone();
        let mut animals: Vec<Animal> = rules
            .starts
            .iter()
            .map(|&(cell, facing)| Animal { cell, facing })
            .collect();
        if rules.layout.vary {
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            terrain = varied(rules, &mut rng);
            settle(rules, &terrain, &mut animals);
        }
        Ok(Table {
            rules: rules.clone(),
            terrain,
            animals,
            cameras: rules.cameras,
            moved: [0, 0],
            photos: [0, 0],
            seat: rules.first_seat,
            over: None,
            finished: [None, None],
            work: 0,
        })
    }

    fn players(&self) -> (usize, usize) {
        (2, 2)
    }

    fn name(&self) -> &str {
        &self.rules.name
    }

    fn summary(&self) -> Vec<String> {
        self.rules.summary()
    }
}

/// The forests and lakes of a new game: each patch (cells of one terrain that touch) moved by
/// up to two cells each way at random, onto open ground that no other patch and no camera's
/// start takes; a patch that finds no such place keeps its own.
fn varied(rules: &Rules, rng: &mut Pcg64Mcg) -> Vec<Terrain> {
    let cells = rules.terrain.len();
    let mut seen = vec![false; cells];
    let mut patches: Vec<(Terrain, Vec<u8>)> = Vec::new();
    for start in 0..cells {
        if seen[start] || rules.terrain[start] == Terrain::Open {
            continue;
        }
        let kind = rules.terrain[start];
        let mut patch = vec![start as u8];
        seen[start] = true;
        let mut next = 0;
        while next < patch.len() {
            let at = patch[next];
            next += 1;
            for way in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                if let Some(n) = rules.neighbour(at, way)
                    && !seen[n as usize]
                    && rules.terrain[n as usize] == kind
                {
                    seen[n as usize] = true;
                    patch.push(n);
                }
            }
        }
        patches.push((kind, patch));
    }
    let mut terrain = vec![Terrain::Open; cells];
    let mut offsets: Vec<(i32, i32)> = (-2..=2)
        .flat_map(|dx| (-2..=2).map(move |dy| (dx, dy)))
        .collect();
    for (kind, patch) in &patches {
        offsets.shuffle(rng);
        let fits = |offset: (i32, i32)| -> Option<Vec<u8>> {
            patch
                .iter()
                .map(|&cell| {
                    rules.neighbour(cell, offset).filter(|n| {
                        terrain[*n as usize] == Terrain::Open && !rules.cameras.contains(n)
                    })
                })
                .collect()
        };
        let placed = offsets
            .iter()
            .find_map(|&o| fits(o))
            .or_else(|| fits((0, 0)))
            .unwrap_or_default();
        for cell in placed {
            terrain[cell as usize] = *kind;
        }
    }
    terrain
}

/// Animals left off open ground step to the nearest free open cell (the rulebook moves them
/// one cell away; every animal starts on open ground, as the checker holds a fixed layout to).
fn settle(rules: &Rules, terrain: &[Terrain], animals: &mut [Animal]) {
    for i in 0..animals.len() {
        let may_stand = |cell: u8, animals: &[Animal]| {
            terrain[cell as usize] == Terrain::Open
                && !rules.cameras.contains(&cell)
                && !animals
                    .iter()
                    .enumerate()
                    .any(|(j, a)| j != i && a.cell == cell)
        };
        if may_stand(animals[i].cell, animals) {
            continue;
        }
        let from = animals[i].cell as usize;
        let (fc, fr) = ((from % rules.columns) as i32, (from / rules.columns) as i32);
        let nearest = (0..terrain.len() as u8)
            .filter(|&c| may_stand(c, animals))
            .min_by_key(|&c| {
                let (c2, r2) = (
                    (c as usize % rules.columns) as i32,
                    (c as usize / rules.columns) as i32,
                );
                ((c2 - fc).abs().max((r2 - fr).abs()), c)
            });
        if let Some(cell) = nearest {
            animals[i].cell = cell;
        }
    }
}

/// One decision: the seat's camera moves to a cell, or stays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case")]
pub enum Action {
    Move { to: u8 },
    Pass,
}

#[derive(Debug, Clone)]
pub struct Table {
    rules: Arc<Rules>,
    terrain: Vec<Terrain>,
    animals: Vec<Animal>,
    cameras: [u8; 2],
    /// Turns taken by each seat (a pass is a turn).
    moved: [u32; 2],
    /// Each seat's photographs, a bit per animal.
    photos: [u32; 2],
    seat: usize,
    over: Option<&'static str>,
    /// The round in which each seat photographed its last animal.
    finished: [Option<u32>; 2],
    /// Animals looked at so far, photographing and stepping ([`Play::work`]).
    work: u64,
}

/// What stands in an animal's way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Way {
    Open,
    Forest,
    Blocked,
}

impl Table {
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    fn everyone(&self) -> u32 {
        if self.rules.animals.len() == 32 {
            u32::MAX
        } else {
            (1 << self.rules.animals.len()) - 1
        }
    }

    fn animal_at(&self, cell: u8) -> bool {
        self.animals.iter().any(|a| a.cell == cell)
    }

    /// How the seat's camera moves this turn.
    fn rule_now(&self, seat: usize) -> CameraMove {
        if self.moved[seat] == 0 {
            self.rules.first_move
        } else {
            self.rules.camera_move
        }
    }

    /// The animals of a set of photographs (a bit each), by name.
    fn named(&self, photos: u32) -> String {
        let names: Vec<&str> = (0..self.animals.len())
            .filter(|i| photos & (1 << i) != 0)
            .map(|i| self.rules.animals[i].name.as_str())
            .collect();
        match names.as_slice() {
            [] => String::new(),
            [one] => format!("the {one}"),
            [rest @ .., last] => format!("the {} and the {last}", rest.join(", the ")),
        }
    }

    /// What stands on `cell` that a camera may not cross, in words, if anything.
    fn obstacle(&self, cell: u8) -> Option<String> {
        match self.terrain[cell as usize] {
            Terrain::Forest => return Some("forest".to_string()),
            Terrain::Lake => return Some("a lake".to_string()),
            Terrain::Open => {}
        }
        self.animals
            .iter()
            .position(|a| a.cell == cell)
            .map(|i| format!("the {}", self.rules.animals[i].name))
    }

    /// Where the seat's camera may go this turn.
    fn destinations(&self, seat: usize, out: &mut Vec<Action>) {
        let rule = self.rule_now(seat);
        let from = self.cameras[seat];
        let other = self.cameras[1 - seat];
        // The orthogonal ways first, then the diagonal ones.
        const WAYS: [(i32, i32); 8] = [
            (0, -1),
            (1, 0),
            (0, 1),
            (-1, 0),
            (1, -1),
            (1, 1),
            (-1, 1),
            (-1, -1),
        ];
        let ways = if rule.lines == Lines::Any {
            &WAYS[..]
        } else {
            &WAYS[..4]
        };
        let before = out.len();
        for &way in ways {
            let mut at = from;
            while let Some(next) = self.rules.neighbour(at, way) {
                if self.terrain[next as usize] != Terrain::Open || self.animal_at(next) {
                    break;
                }
                if next != other {
                    out.push(Action::Move { to: next });
                }
                at = next;
            }
        }
        if rule.may_pass || out.len() == before {
            out.push(Action::Pass);
        }
    }

    /// What `seat`'s camera photographs where it stands now.
    fn photograph(&mut self, seat: usize) {
        self.work += self.animals.len() as u64;
        let camera = self.cameras[seat];
        for (i, animal) in self.animals.iter().enumerate() {
            if self.photos[seat] & (1 << i) != 0 {
                continue;
            }
            let seen = self.rules.photograph.sides.iter().any(|side| {
                let facing = match side {
                    Side::Front => animal.facing,
                    Side::Left => animal.facing.left(),
                    Side::Right => animal.facing.right(),
                    Side::Back => animal.facing.back(),
                };
                self.rules.neighbour(animal.cell, facing.step()) == Some(camera)
            });
            if seen {
                self.photos[seat] |= 1 << i;
            }
        }
    }

    fn way(&self, animal: usize, facing: Facing) -> Way {
        let Some(cell) = self
            .rules
            .neighbour(self.animals[animal].cell, facing.step())
        else {
            return Way::Blocked;
        };
        let terrain = self.terrain[cell as usize];
        if terrain != Terrain::Open && self.rules.animals[animal].crosses != Some(terrain) {
            return if terrain == Terrain::Forest {
                Way::Forest
            } else {
                Way::Blocked
            };
        }
        if self.animal_at(cell) || self.cameras.contains(&cell) {
            return Way::Blocked;
        }
        Way::Open
    }

    /// One animal's step, by the rulebook's six cases.
    fn step(&mut self, animal: usize) {
        let facing = self.animals[animal].facing;
        let ahead = self.way(animal, facing);
        let (facing, moves) = if ahead == Way::Open {
            (facing, true)
        } else {
            let left = self.way(animal, facing.left()) == Way::Open;
            let right = self.way(animal, facing.right()) == Way::Open;
            let both = |turn: Turn| {
                if turn == Turn::Left {
                    facing.left()
                } else {
                    facing.right()
                }
            };
            match (left, right) {
                (true, true) if ahead == Way::Forest => {
                    (both(self.rules.animal_move.forest_ahead_turns), true)
                }
                (true, true) => (both(self.rules.animal_move.other_ahead_turns), true),
                (true, false) => (facing.left(), true),
                (false, true) => (facing.right(), true),
                (false, false) => (facing.back(), self.way(animal, facing.back()) == Way::Open),
            }
        };
        self.animals[animal].facing = facing;
        if moves {
            let to = self
                .rules
                .neighbour(self.animals[animal].cell, facing.step())
                .expect("an open way is on the board");
            self.animals[animal].cell = to;
        }
    }

    /// Every animal steps: the top row first, left to right within a row.
    fn animals_move(&mut self) {
        // Each step looks for the other animals in its way.
        self.work += (self.animals.len() * self.animals.len()) as u64;
        let mut order: Vec<usize> = (0..self.animals.len()).collect();
        order.sort_by_key(|&i| self.animals[i].cell);
        for animal in order {
            self.step(animal);
        }
    }

    fn note_finished(&mut self, round: u32) {
        for seat in 0..2 {
            if self.finished[seat].is_none() && self.photos[seat] == self.everyone() {
                self.finished[seat] = Some(round);
            }
        }
    }
}

impl Play for Table {
    type Action = Action;

    fn seats(&self) -> usize {
        2
    }

    fn to_move(&self) -> Option<usize> {
        self.over.is_none().then_some(self.seat)
    }

    fn legal(&self, out: &mut Vec<Action>) {
        if self.over.is_none() {
            self.destinations(self.seat, out);
        }
    }

    fn apply(&mut self, action: Action) {
        let seat = self.seat;
        if let Action::Move { to } = action {
            self.cameras[seat] = to;
        }
        self.moved[seat] += 1;
        self.photograph(seat);
        let round = self.moved[seat];
        self.seat = 1 - seat;
        if self.moved[0] != self.moved[1] {
            return;
        }
        // Both have played the round: a seat with every animal ends the game (equal turns).
        self.note_finished(round);
        if self.finished.iter().any(Option::is_some) {
            self.over = Some("all_photographed");
            return;
        }
        let last = round >= self.rules.moves_per_player;
        if !last || self.rules.animal_move.after_last_round {
            self.animals_move();
            if self.rules.photograph.after_animals_move {
                self.photograph(0);
                self.photograph(1);
            }
            self.note_finished(round);
            if self.finished.iter().any(Option::is_some) {
                self.over = Some("all_photographed");
                return;
            }
        }
        if last {
            self.over = Some("moves_played");
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        let reason = self.over?;
        let scores: Vec<i64> = self
            .photos
            .iter()
            .map(|p| i64::from(p.count_ones()))
            .collect();
        let winners = if reason == "all_photographed" {
            (0..2).filter(|&s| self.finished[s].is_some()).collect()
        } else {
            let best = scores.iter().max().copied().unwrap_or(0);
            (0..2).filter(|&s| scores[s] == best).collect()
        };
        Some(Outcome {
            scores,
            winners,
            reason,
        })
    }

    /// Photographs taken, and a little for being near an animal still to photograph.
    fn standing(&self, seat: usize) -> f64 {
        let camera = self.cameras[seat] as usize;
        let (cc, cr) = (
            (camera % self.rules.columns) as i32,
            (camera / self.rules.columns) as i32,
        );
        let nearest = self
            .animals
            .iter()
            .enumerate()
            .filter(|(i, _)| self.photos[seat] & (1 << i) == 0)
            .map(|(_, a)| {
                let (ac, ar) = (
                    (a.cell as usize % self.rules.columns) as i32,
                    (a.cell as usize / self.rules.columns) as i32,
                );
                (ac - cc).abs().max((ar - cr).abs())
            })
            .min()
            .unwrap_or(0);
        f64::from(self.photos[seat].count_ones()) - 0.01 * f64::from(nearest)
    }

    fn determinise(&self, _seat: usize, _rng: &mut Pcg64Mcg) -> Table {
        self.clone()
    }

    fn view(&self, _seat: Option<usize>) -> serde_json::Value {
        let terrain: Vec<&str> = self
            .terrain
            .iter()
            .map(|t| match t {
                Terrain::Open => "open",
                Terrain::Forest => "forest",
                Terrain::Lake => "lake",
            })
            .collect();
        let animals: Vec<serde_json::Value> = self
            .animals
            .iter()
            .enumerate()
            .map(|(i, a)| {
                json!({
                    "id": self.rules.animals[i].id,
                    "cell": a.cell,
                    "facing": a.facing,
                    "photographed_by": (0..2).filter(|s| self.photos[*s] & (1 << i) != 0).collect::<Vec<_>>(),
                })
            })
            .collect();
        json!({
            "columns": self.rules.columns,
            "rows": self.rules.rows,
            "terrain": terrain,
            "animals": animals,
            "cameras": self.cameras,
            "moves": self.moved,
            "moves_per_player": self.rules.moves_per_player,
            "photos": self.photos.iter().map(|p| p.count_ones()).collect::<Vec<_>>(),
            "seat": self.seat,
            "outcome": self.outcome(),
        })
    }

    fn describe(&self, action: Action) -> String {
        match action {
            Action::Move { to } => format!("moves to {}", self.rules.cell_name(to)),
            Action::Pass => "stays where it is".to_string(),
        }
    }

    fn why_not(&self, action: Action) -> String {
        let seat = self.seat;
        let rule = self.rule_now(seat);
        let first = self.moved[seat] == 0;
        let Action::Move { to } = action else {
            return "your camera can move, so it must: a camera stays only when it cannot move"
                .to_string();
        };
        let rules = &self.rules;
        if to as usize >= self.terrain.len() {
            return "that is no cell of the board".to_string();
        }
        let (from, name) = (self.cameras[seat], rules.cell_name(to));
        let here = rules.cell_name(from);
        if to == from {
            return match rule.may_pass {
                true => format!("your camera stands on {name}: Stay keeps it there"),
                false => format!("your camera stands on {name}, and it must move"),
            };
        }
        if to == self.cameras[1 - seat] {
            return format!(
                "the other camera stands on {name}: a camera may pass through it but not stop there"
            );
        }
        if let Some(what) = self.obstacle(to) {
            let covers = if self.terrain[to as usize] == Terrain::Open {
                "stands on"
            } else {
                "covers"
            };
            return format!("{what} {covers} {name}: a camera stops on open ground only");
        }
        let column = |cell: u8| (cell as usize % rules.columns) as i32;
        let row = |cell: u8| (cell as usize / rules.columns) as i32;
        let (dx, dy) = (column(to) - column(from), row(to) - row(from));
        let which = if first { "the first move" } else { "a move" };
        if dx != 0 && dy != 0 && (dx.abs() != dy.abs() || rule.lines == Lines::Orthogonal) {
            return match rule.lines {
                Lines::Orthogonal => format!(
                    "{name} is not in {here}'s row or column: {which} goes along a row or a column only, as a rook"
                ),
                Lines::Any => format!(
                    "{name} is not in a straight line from {here}: a camera moves along a row, a column or a diagonal"
                ),
            };
        }
        let way = (dx.signum(), dy.signum());
        let mut at = from;
        while let Some(next) = rules.neighbour(at, way) {
            if next == to {
                break;
            }
            if let Some(what) = self.obstacle(next) {
                let on = rules.cell_name(next);
                return format!(
                    "the way from {here} to {name} is blocked by {what} on {on}: a camera moves through open cells only"
                );
            }
            at = next;
        }
        format!("your camera cannot move to {name} now")
    }

    /// The photographs the move took, the animals' steps after the round, and the
    /// photographs both cameras took after them.
    fn aftermath(&self, before: &Table, action: Action) -> Vec<Note> {
        let seat = before.seat;
        let mut moved = before.clone();
        if let Action::Move { to } = action {
            moved.cameras[seat] = to;
        }
        moved.photograph(seat);
        let mut notes = Vec::new();
        let own = moved.photos[seat] & !before.photos[seat];
        if own != 0 {
            notes.push(Note {
                seat: Some(seat),
                says: format!("photographs {}", self.named(own)),
            });
        }
        if self.animals != before.animals {
            let steps: Vec<String> = before
                .animals
                .iter()
                .zip(&self.animals)
                .enumerate()
                .map(|(i, (was, now))| {
                    let name = &self.rules.animals[i].name;
                    let (from, to) = (
                        self.rules.cell_name(was.cell),
                        self.rules.cell_name(now.cell),
                    );
                    match (was.cell == now.cell, was.facing == now.facing) {
                        (true, _) => {
                            format!("{name} turns to face {} on {from}", now.facing.name())
                        }
                        (false, true) => format!("{name} {from}→{to}"),
                        (false, false) => {
                            format!("{name} {from}→{to} facing {}", now.facing.name())
                        }
                    }
                })
                .collect();
            notes.push(Note {
                seat: None,
                says: format!("The animals step: {}.", steps.join(", ")),
            });
            for s in 0..2 {
                let had = if s == seat {
                    moved.photos[s]
                } else {
                    before.photos[s]
                };
                let new = self.photos[s] & !had;
                if new != 0 {
                    notes.push(Note {
                        seat: Some(s),
                        says: format!("photographs {} after the animals' step", self.named(new)),
                    });
                }
            }
        }
        notes
    }

    /// Moves to where the camera photographs the most animals it lacks, else anywhere.
    fn playout(&self, legal: &[Action], rng: &mut Pcg64Mcg) -> Action {
        let seat = self.seat;
        // Per cell, the animals the seat still lacks that a camera there would photograph.
        let mut from_here = [0u32; MOST_CELLS];
        for (i, animal) in self.animals.iter().enumerate() {
            if self.photos[seat] & (1 << i) != 0 {
                continue;
            }
            for side in &self.rules.photograph.sides {
                let facing = match side {
                    Side::Front => animal.facing,
                    Side::Left => animal.facing.left(),
                    Side::Right => animal.facing.right(),
                    Side::Back => animal.facing.back(),
                };
                if let Some(cell) = self.rules.neighbour(animal.cell, facing.step()) {
                    from_here[cell as usize] |= 1 << i;
                }
            }
        }
        let gained = |action: &Action| match *action {
            Action::Move { to } => from_here[to as usize].count_ones(),
            Action::Pass => from_here[self.cameras[seat] as usize].count_ones(),
        };
        let most = legal.iter().map(gained).max().unwrap_or(0);
        let pick = |from: &[Action], rng: &mut Pcg64Mcg| {
            from[rand::RngExt::random_range(rng, 0..from.len())]
        };
        if most == 0 {
            return pick(legal, rng);
        }
        let best: Vec<Action> = legal
            .iter()
            .copied()
            .filter(|a| gained(a) == most)
            .collect();
        pick(&best, rng)
    }

    fn work(&self) -> u64 {
        self.work
    }

    fn used(&self) -> Vec<String> {
        (0..self.animals.len())
            .filter(|i| (self.photos[0] | self.photos[1]) & (1 << i) != 0)
            .map(|i| self.rules.animals[i].id.clone())
            .collect()
    }

    fn components(&self) -> Vec<String> {
        self.rules.animals.iter().map(|a| a.id.clone()).collect()
    }
}
