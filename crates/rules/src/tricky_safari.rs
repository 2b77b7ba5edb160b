//! Tricky Safari (Corné van Moorsel): two cameras hunt photographs of ten animals that walk
//! a board of open ground, forests and lakes by fixed rules.
//!
//! The board's cells are terrain symbols; animals are pieces placed with a facing; a piece's
//! `crosses` field names the terrain that does not block it (the turtle and the crocodile
//! swim, the ape and the squirrel climb). The checks hold the start of the game to what the
//! rules assume: animals on open ground and free to move, each one photographable somewhere
//! its walk takes it (`walk`), the cameras in corners; and the photo log to the animals.

mod walk;

use std::collections::{BTreeMap, BTreeSet};

use serde_json::json;

use self::walk::{Ground, State};
use super::Rules;
use crate::components::params::ANY_COUNT;
use crate::components::{Board, Cell, Facing, Key, KeyKind, Piece, Place, Sheet, Table};
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::load::guide::WrittenTerms;
use crate::model::{BoxDef, Section};

pub(crate) struct TrickySafari;

/// Where the rulebook is silent or unclear, what the engine does, and why.
const RULINGS: &[(&str, &str)] = &[
    (
        "Who moves first?",
        "The first camera of the `cameras` set (yellow in this pack), seat 1: the rulebook names yellow first in its example.",
    ),
    (
        "Which way is north?",
        "Toward the board's first row, the top as printed (row 1); the animals move top row first, left to right in a row.",
    ),
    (
        "Do animals block the first move?",
        "Yes: the first move is as a rook, over open cells only, stopped by forest, lake, an animal or the edge, and it may end nowhere but on a free cell; a camera may pass instead.",
    ),
    (
        "Is a camera that cannot move stuck for good?",
        "No: it stays where it is that turn (a pass), which counts as one of its moves.",
    ),
    (
        "When are photographs taken?",
        "By the camera that moved, at the end of its move, and by both cameras after the animals move; each player photographs each animal once.",
    ),
    (
        "When does the game end?",
        "After a round in which a player has every animal (both: a draw), counting the photographs taken when the animals move; or when both players have made their moves, the animals not moving after the last round; then the most photographs win, equal photographs draw.",
    ),
    (
        "How do the forests and lakes vary from game to game?",
        "As the rulebook has it, each game places them anew (`layout.vary`): each patch of forest or lake moves up to two cells each way at random onto open ground (never onto a camera's corner), and an animal left on terrain it does not cross steps to the nearest cell it may stand on, as the rulebook moves such an animal one cell away. The variant `fixed-layout` plays the board as printed every game; on it the first player wins most games between equal players.",
    ),
];

const KEYS: &[Key] = &[
    Key {
        name: "board",
        kind: KeyKind::Board,
        default: Some("landscape"),
        doc: "the board the game is played on",
        range: ANY_COUNT,
    },
    Key {
        name: "animals",
        kind: KeyKind::Pieces,
        default: Some("animals"),
        doc: "the animals: each placed with a facing",
        range: ANY_COUNT,
    },
    Key {
        name: "cameras",
        kind: KeyKind::Pieces,
        default: Some("cameras"),
        doc: "the players' cameras, one per player",
        range: ANY_COUNT,
    },
    Key {
        name: "open",
        kind: KeyKind::Symbol,
        default: Some("open"),
        doc: "the terrain of open ground",
        range: ANY_COUNT,
    },
    Key {
        name: "forest",
        kind: KeyKind::Symbol,
        default: Some("forest"),
        doc: "the forest terrain: a blocked animal turns left",
        range: ANY_COUNT,
    },
    Key {
        name: "lake",
        kind: KeyKind::Symbol,
        default: Some("lake"),
        doc: "the lake terrain",
        range: ANY_COUNT,
    },
    Key {
        name: "moves",
        kind: KeyKind::Count,
        default: Some("40"),
        doc: "moves each player makes before the game ends",
        range: (1, 1000),
    },
    Key {
        name: "log",
        kind: KeyKind::Sheet,
        default: None,
        doc: "the photo log each player keeps: a box labelled with each animal's name, and a track `moves` of one box per move",
        range: ANY_COUNT,
    },
];

impl Rules for TrickySafari {
    fn id(&self) -> &'static str {
        "tricky-safari"
    }
    fn title(&self) -> &'static str {
        "Tricky Safari"
    }
    fn keys(&self) -> &'static [Key] {
        KEYS
    }

    fn check(&self, table: &Table, diagnostics: &mut Diagnostics) {
        let Some(params) = Params::of(table) else {
            return;
        };
        // An animal's `crosses` names a terrain of the board.
        for animal in &table.pieces[params.animals].pieces {
            if let Some(crosses) = animal.fields.get("crosses") {
                let known = crosses
                    .as_str()
                    .is_some_and(|c| table.symbols.iter().any(|s| s.id.value == c));
                if !known {
                    diagnostics.push(
                        Diagnostic::error(Code::UnknownName, format!("the {}'s `crosses` names no terrain", animal.id.value))
                            .with_primary(animal.id.origin, "this animal")
                            .with_help("`crosses` is the id of the symbol that does not block it: `crosses = \"lake\"`"),
                    );
                }
            }
        }
        if let Some(log) = table.param("log").and_then(|p| p.index()) {
            check_log(table, &params, log, diagnostics);
        }
        if table.boards[params.board].cells.is_empty() {
            return;
        }
        for setup in &table.setups {
            let places: Vec<&Place> = setup
                .places
                .iter()
                .filter(|p| p.board == params.board)
                .collect();
            let mut sight = Sight::new(table, &params, &places);
            for (ix, animal) in table.pieces[params.animals].pieces.iter().enumerate() {
                match places.iter().find(|p| p.piece == (params.animals, ix)) {
                    Some(place) => check_animal(table, &params, place, &mut sight, diagnostics),
                    None => diagnostics.push(
                        Diagnostic::error(Code::AnimalOffGround, format!("the animal `{}` is not placed on the board", animal.id.value))
                            .with_primary(setup.origin, "this setup")
                            .with_secondary(animal.id.origin, "this animal")
                            .with_help(format!("add `{{ piece = \"{}/{}\", board = \"{}\", at = \"..\", facing = \"..\" }}` to the setup's `place`", table.pieces[params.animals].id.value, animal.id.value, table.boards[params.board].id.value)),
                    ),
                }
            }
            for (ix, camera) in table.pieces[params.cameras].pieces.iter().enumerate() {
                match places.iter().find(|p| p.piece == (params.cameras, ix)) {
                    Some(place) => check_camera(table, &params, place, diagnostics),
                    None => diagnostics.push(
                        Diagnostic::error(
                            Code::CameraCorner,
                            format!("the {} camera is not placed on the board", camera.id.value),
                        )
                        .with_primary(setup.origin, "this setup")
                        .with_secondary(camera.id.origin, "this camera")
                        .with_help("place each camera on an open corner of the board"),
                    ),
                }
            }
        }
    }

    fn table_scripts(&self, table: &Table) -> Vec<super::TableScript> {
        if table.param("log").and_then(|p| p.index()).is_none() {
            return Vec::new();
        }
        vec![super::TableScript {
            id: "score",
            name: format!("{}: count the score", table.manifest.name),
            description: "Counts each player's photos from the animals ticked on their photo log and the moves filled, and says who wins, in the chat.".to_string(),
            lua: include_str!("tricky_safari/score.lua"),
            room: None,
        }]
    }

    fn ruleset(&self, table: &Table) -> serde_json::Value {
        let written = |key: &str| table.param(key).map(|p| p.written.clone());
        let Some(params) = Params::of(table) else {
            return json!({});
        };
        let crossing: serde_json::Map<String, serde_json::Value> = table.pieces[params.animals]
            .pieces
            .iter()
            .filter_map(|p| Some((p.id.value.clone(), p.fields.get("crosses")?.clone())))
            .collect();
        json!({
            "board": written("board"),
            "animals": written("animals"),
            "cameras": written("cameras"),
            "terrain": { "open": written("open"), "forest": written("forest"), "lake": written("lake") },
            "animals_cross": crossing,
            "moves_per_player": params.moves,
            "log": written("log"),
            "first_seat": 0,
            "first_move": { "lines": "orthogonal", "may_pass": true },
            "camera_move": { "lines": "any", "may_pass": false },
            "photograph": { "sides": ["front", "left", "right"], "after_animals_move": true },
            "animal_move": {
                "forest_ahead_turns": "left",
                "other_ahead_turns": "right",
                "after_last_round": false,
            },
            "layout": { "vary": true },
            "variants": {
                "fixed-layout": { "layout": { "vary": false } },
            },
            "rulings": RULINGS
                .iter()
                .map(|(question, ruling)| json!({ "question": question, "ruling": ruling }))
                .collect::<Vec<_>>(),
        })
    }
}

struct Params {
    board: usize,
    animals: usize,
    cameras: usize,
    open: usize,
    forest: usize,
    moves: u32,
}

impl Params {
    fn of(table: &Table) -> Option<Params> {
        let ix = |key: &str| table.param(key)?.index();
        Some(Params {
            board: ix("board")?,
            animals: ix("animals")?,
            cameras: ix("cameras")?,
            open: ix("open")?,
            forest: ix("forest")?,
            moves: table.param("moves")?.count()?,
        })
    }
}

/// The photo log holds a box for each animal (its label the animal's name) and a track
/// `moves` of one box per move.
fn check_log(table: &Table, params: &Params, log: usize, diagnostics: &mut Diagnostics) {
    let sheet = &table.sheets[log];
    check_log_animals(table, params, sheet, diagnostics);
    check_log_moves(table, params, sheet, diagnostics);
}

fn same_name(a: &str, b: &str) -> bool {
    a.trim().to_lowercase() == b.trim().to_lowercase()
}

/// A box for each animal. A labelled box (out of the `moves` track) that names no animal is
/// taken for the box of a missing animal whose name is spelled like its label, and reported
/// there; the other missing animals are reported at the section their box belongs in, naming
/// the boxes that name no animal. Such boxes when no animal is missing are the designer's own.
fn check_log_animals(table: &Table, params: &Params, sheet: &Sheet, diagnostics: &mut Diagnostics) {
    let guide = &sheet.guide;
    let moves = guide.tracks.iter().position(|t| t.id == "moves");
    let labelled: Vec<(&str, &BoxDef<WrittenTerms>)> = guide
        .boxes
        .iter()
        .filter(|b| Some(b.track.index()) != moves)
        .filter_map(|b| Some((b.label.as_deref()?, b)))
        .collect();
    let animals: Vec<(&str, &Piece)> = table.pieces[params.animals]
        .pieces
        .iter()
        .map(|p| (table.symbol(p.symbol).label.as_str(), p))
        .collect();
    let mut missing: Vec<(&str, &Piece)> = animals
        .iter()
        .filter(|(name, _)| !labelled.iter().any(|(label, _)| same_name(label, name)))
        .copied()
        .collect();
    let mut orphans = Vec::new();
    for &(label, at) in &labelled {
        if animals.iter().any(|(name, _)| same_name(label, name)) {
            continue;
        }
        let near = crate::diag::similar_name(label, missing.iter().map(|(name, _)| *name));
        match near.and_then(|near| missing.iter().position(|(name, _)| *name == near)) {
            Some(ix) => {
                let (name, animal) = missing.remove(ix);
                diagnostics.push(mislabelled_box(label, at, name, animal));
            }
            None => orphans.push((label, at)),
        }
    }
    if missing.is_empty() {
        return;
    }
    // The box belongs with the other animals' boxes, or anywhere on a log that has none.
    let section = labelled
        .iter()
        .find(|(label, _)| animals.iter().any(|(name, _)| same_name(label, name)))
        .map(|(_, b)| guide.section(b.section));
    for (name, animal) in missing {
        diagnostics.push(missing_box(sheet, section, name, animal, &orphans));
    }
}

fn mislabelled_box(
    label: &str,
    at: &BoxDef<WrittenTerms>,
    name: &str,
    animal: &Piece,
) -> Diagnostic {
    Diagnostic::error(
        Code::PhotoLog,
        format!(
            "the photo log's box `{}` names no animal, and the {name} has no box",
            crate::diag::printable(label)
        ),
    )
    .with_primary(at.origin, "names no animal")
    .with_secondary(animal.id.origin, "this animal")
    .with_suggestion(Some(name))
}

fn missing_box(
    sheet: &Sheet,
    section: Option<&Section>,
    name: &str,
    animal: &Piece,
    orphans: &[(&str, &BoxDef<WrittenTerms>)],
) -> Diagnostic {
    let diagnostic = Diagnostic::error(
        Code::PhotoLog,
        format!("the photo log has no box for the {name}"),
    );
    let (diagnostic, place) = match section {
        Some(section) => (
            diagnostic.with_primary(section.origin, "the animals' boxes"),
            "this section".to_string(),
        ),
        None => (
            diagnostic.with_primary(sheet.layout.origin, "this photo log"),
            format!("a section of {}", sheet.layout.value),
        ),
    };
    let mut diagnostic = diagnostic.with_secondary(animal.id.origin, "this animal");
    for (_, at) in orphans {
        diagnostic = diagnostic.with_secondary(at.origin, "names no animal");
    }
    let relabel = match orphans {
        [] => String::new(),
        _ => format!(", or label a box that names no animal `{name}`"),
    };
    diagnostic.with_help(format!("add `box label=\"{name}\"` to {place}{relabel}"))
}

/// A track `moves` of one box per move.
fn check_log_moves(table: &Table, params: &Params, sheet: &Sheet, diagnostics: &mut Diagnostics) {
    let guide = &sheet.guide;
    match guide.tracks.iter().find(|t| t.id == "moves") {
        Some(track) if track.boxes.len() as u32 == params.moves => {}
        Some(track) => diagnostics.push(
            Diagnostic::error(
                Code::PhotoLog,
                format!(
                    "the photo log's `moves` track has {} boxes, but each player makes {} moves",
                    track.boxes.len(),
                    params.moves
                ),
            )
            .with_primary(track.origin, "this track")
            .with_secondary(
                table
                    .param("moves")
                    .map_or(table.manifest.origin, |p| p.origin),
                "the moves",
            )
            .with_help("make the track one box per move, or change `[play] moves`"),
        ),
        None => diagnostics.push(
            Diagnostic::error(Code::PhotoLog, "the photo log has no `moves` track")
                .with_primary(sheet.layout.origin, "this photo log")
                .with_help(format!(
                    "add `track \"moves\" {{ box repeat={} }}` to a section of {}",
                    params.moves, sheet.layout.value
                )),
        ),
    }
}

/// The cell one step from `at` facing `way`, if it is on the board.
fn next(table: &Table, board: usize, at: Cell, way: Facing) -> Option<Cell> {
    let (dc, dr) = way.step();
    let (c, r) = (at.column as i64 + dc, at.row as i64 + dr);
    table.boards[board].contains(c, r).then_some(Cell {
        column: c as usize,
        row: r as usize,
    })
}

/// Where the cameras of one setup can photograph from, and from which states each kind of
/// animal's walk can bring it in front of them.
struct Sight<'t> {
    board: &'t Board,
    open: usize,
    forest: usize,
    /// Open cells a camera can reach from its corner: cameras move like a queen over open
    /// ground, so through open cells side by side or corner to corner.
    camera_cells: BTreeSet<Cell>,
    /// By the terrain an animal crosses (none for most).
    walks: BTreeMap<Option<String>, Walks>,
}

/// The ground an animal walks, and from which of its states the walk comes where a camera
/// photographs it.
struct Walks {
    ground: Ground,
    photographed: Vec<bool>,
}

impl<'t> Sight<'t> {
    fn new(table: &'t Table, params: &Params, places: &[&Place]) -> Sight<'t> {
        let board = &table.boards[params.board];
        let open_cells: BTreeSet<Cell> = (0..board.rows)
            .flat_map(|row| (0..board.columns).map(move |column| Cell { column, row }))
            .filter(|&cell| board.cell(cell) == params.open)
            .collect();
        let starts: Vec<Cell> = places
            .iter()
            .filter(|p| p.piece.0 == params.cameras && open_cells.contains(&p.at))
            .map(|p| p.at)
            .collect();
        // With no camera on open ground (SZ1203), any open cell may be a camera's.
        let camera_cells = match starts.is_empty() {
            true => open_cells,
            false => connected(&open_cells, &starts),
        };
        Sight {
            board,
            open: params.open,
            forest: params.forest,
            camera_cells,
            walks: BTreeMap::new(),
        }
    }

    /// The board as an animal that crosses `crosses` sees it.
    fn ground(&self, table: &Table, crosses: Option<&str>) -> Ground {
        let board = self.board;
        let walkable = board
            .cells
            .iter()
            .map(|&t| t == self.open || crosses == Some(table.symbol(t).id.value.as_str()))
            .collect::<Vec<bool>>();
        let forest = board
            .cells
            .iter()
            .zip(&walkable)
            .map(|(&t, &walks)| t == self.forest && !walks)
            .collect();
        Ground {
            columns: board.columns,
            rows: board.rows,
            walkable,
            forest,
        }
    }

    /// Whether a camera can photograph an animal in `state`: from the cell at its front or
    /// one of its sides.
    fn sees(&self, ground: &Ground, (at, facing): State) -> bool {
        [facing, facing.left(), facing.right()]
            .into_iter()
            .filter_map(|way| ground.neighbour(at, way))
            .any(|cell| self.camera_cells.contains(&cell))
    }

    /// The walks of an animal that crosses `crosses`.
    fn walks(&mut self, table: &Table, crosses: Option<&str>) -> &Walks {
        let key = crosses.map(str::to_string);
        if !self.walks.contains_key(&key) {
            let ground = self.ground(table, crosses);
            let photographed = ground.can_reach(|state| self.sees(&ground, state));
            let walks = Walks {
                ground,
                photographed,
            };
            self.walks.insert(key.clone(), walks);
        }
        &self.walks[&key]
    }
}

/// The cells of `cells` joined to one of `starts` through cells of `cells` side by side or
/// corner to corner.
fn connected(cells: &BTreeSet<Cell>, starts: &[Cell]) -> BTreeSet<Cell> {
    let mut joined: BTreeSet<Cell> = starts.iter().copied().collect();
    let mut queue: Vec<Cell> = starts.to_vec();
    while let Some(at) = queue.pop() {
        for (dc, dr) in (-1i64..=1).flat_map(|dc| (-1i64..=1).map(move |dr| (dc, dr))) {
            let (c, r) = (at.column as i64 + dc, at.row as i64 + dr);
            if c < 0 || r < 0 {
                continue;
            }
            let next = Cell {
                column: c as usize,
                row: r as usize,
            };
            if cells.contains(&next) && joined.insert(next) {
                queue.push(next);
            }
        }
    }
    joined
}

fn check_animal(
    table: &Table,
    params: &Params,
    place: &Place,
    sight: &mut Sight,
    diagnostics: &mut Diagnostics,
) {
    let board = &table.boards[params.board];
    let piece = &table.pieces[place.piece.0].pieces[place.piece.1];
    let name = &piece.id.value;
    let terrain = board.cell(place.at);
    if terrain != params.open {
        diagnostics.push(
            Diagnostic::error(
                Code::AnimalOffGround,
                format!(
                    "the {name} starts on {} ({}), not open ground",
                    place.at.name(),
                    table.symbol(terrain).label
                ),
            )
            .with_primary(place.origin, format!("on {}", place.at.name()))
            .with_help("move it to an open cell nearby"),
        );
        return;
    }
    let crosses = piece.fields.get("crosses").and_then(|v| v.as_str());
    let passable = |cell: Cell| {
        let t = board.cell(cell);
        t == params.open || crosses == Some(table.symbol(t).id.value.as_str())
    };
    let Some(facing) = place.facing else {
        diagnostics.push(
            Diagnostic::error(Code::InvalidValue, format!("the {name} has no facing"))
                .with_primary(place.origin, "placed here")
                .with_help(
                    "animals walk the way they face: add `facing = \"north\"` (east, south, west)",
                ),
        );
        return;
    };
    if Facing::ALL
        .iter()
        .all(|&way| next(table, params.board, place.at, way).is_none_or(|c| !passable(c)))
    {
        // Walled in, it is hidden too: the one report says why.
        diagnostics.push(
            Diagnostic::error(
                Code::WalledIn,
                format!(
                    "the {name} on {} is walled in: it can never move",
                    place.at.name()
                ),
            )
            .with_primary(
                place.origin,
                "every neighbouring cell is blocked by terrain or the edge",
            )
            .with_help("open one of its four neighbouring cells"),
        );
        return;
    }
    let start = (place.at, facing);
    let walks = sight.walks(table, crosses);
    if !walks.photographed[walks.ground.state_index(start)] {
        let walk = walks.ground.walk(start, WALK_NAMED);
        diagnostics.push(never_photographed(name, place, facing, walk));
    }
}

/// The most cells of a walk a report names.
const WALK_NAMED: usize = 8;

/// SZ1202: no state the animal's walk can bring it to has open ground a camera reaches at its
/// front or sides.
fn never_photographed(
    name: &str,
    place: &Place,
    facing: Facing,
    walk: Option<BTreeSet<Cell>>,
) -> Diagnostic {
    let at = place.at;
    let label = match walk {
        Some(cells) if cells.len() == 1 => format!("it never leaves {}", at.name()),
        Some(cells) => format!(
            "it only ever walks {}",
            cells
                .iter()
                .map(|c| c.name())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        None => "wherever it walks".to_string(),
    };
    Diagnostic::error(
        Code::AnimalHidden,
        format!(
            "the {name} on {} facing {} can never be photographed: wherever its walk takes it, no cell at its front or sides is open ground a camera can reach",
            at.name(),
            facing.name()
        ),
    )
    .with_primary(place.origin, label)
    .with_help("a camera photographs an animal from the cell at its front or a side, standing on open ground it can reach from its corner: open a forest or lake cell beside the animal's walk, or start it elsewhere")
}

fn check_camera(table: &Table, params: &Params, place: &Place, diagnostics: &mut Diagnostics) {
    let board = &table.boards[params.board];
    let corner = (place.at.column == 0 || place.at.column + 1 == board.columns)
        && (place.at.row == 0 || place.at.row + 1 == board.rows);
    let name = &table.pieces[place.piece.0].pieces[place.piece.1].id.value;
    if !corner || board.cell(place.at) != params.open {
        let last = Cell {
            column: board.columns - 1,
            row: board.rows - 1,
        };
        diagnostics.push(
            Diagnostic::error(
                Code::CameraCorner,
                if corner {
                    format!(
                        "the {name} camera starts on {}, a corner that is not open ground",
                        place.at.name()
                    )
                } else {
                    format!(
                        "the {name} camera starts on {}, not in a corner",
                        place.at.name()
                    )
                },
            )
            .with_primary(place.origin, format!("on {}", place.at.name()))
            .with_help(format!(
                "cameras start on an open corner: a1, {}, {} or {}",
                Cell {
                    column: last.column,
                    row: 0
                }
                .name(),
                Cell {
                    column: 0,
                    row: last.row
                }
                .name(),
                last.name()
            )),
        );
    }
}
