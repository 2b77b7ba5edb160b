//! The one Tabletop Simulator exporter: a game hands it a [`Table`] (the things in the middle,
//! what each seat has for every number of players, its rules and scripts, as values) and gets
//! the saved object back. It knows no game: a rules module's export and the component layer's
//! both describe their table and call [`export`].
//!
//! It seats the players around the middle (`super::seats`), turns what lies at a seat upright
//! for it, gives every object a GUID from its role, puts the GUIDs and seat colours into the
//! scripts' states, lays the setup object's table for every other number of players, and puts
//! the table's own blocks (the setup, the rules object, a game's helpers) in a row.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::seats::{SeatSize, around_the_table};
use super::things::{Pose, Thing, at_seat, resolve};
use super::{Guids, Layout, rules_object, saved_object, setup_object};

/// The turn (rotY) of what reads upright for White, whose seat is at −z: what lies in the
/// middle faces White (docs/tabletop-simulator.md).
pub const FACING_WHITE: f64 = 180.0;
/// The table's own blocks lie this far apart along their row.
const CONTROL_STEP: f64 = 4.0;
/// How far a thing reaches from its centre, for keeping the seats clear of the middle.
const REACH: f64 = 2.0;

/// A game's table, as the exporter needs it.
pub struct Table {
    /// The game's id (GUIDs are made from it) and name.
    pub game: String,
    pub name: String,
    /// The fewest and the most players.
    pub players: (u32, u32),
    /// The number of players the save is laid out for; the setup object lays out the others.
    pub laid_out: u32,
    /// What lies in the middle whatever the number of players, in White's frame (x to White's
    /// right, z away from White).
    pub middle: Vec<(Thing, Pose)>,
    /// Half the middle's extent (x, z) to keep clear beyond what its things reach (a board's
    /// edge, a room a script lays things out in).
    pub keep_clear: (f64, f64),
    /// Where the row of the table's own blocks begins (x, z): the setup object, the rules
    /// object, then `blocks`.
    pub controls: (f64, f64),
    pub blocks: Vec<Thing>,
    pub seat: SeatShape,
    /// For each number of players: what it adds to the middle and what each seat has.
    pub seating: BTreeMap<u32, Seating>,
    pub rules: Rules,
}

/// What one seat takes: its width, and its hand zone's depth from the seat's inner edge and
/// width.
#[derive(Debug, Clone, Copy)]
pub struct SeatShape {
    pub width: f64,
    pub hand_back: f64,
    pub hand_width: f64,
}

/// The table for one number of players: things in the middle (White's frame), and each seat's
/// things in the seat's frame (turned upright for its player).
#[derive(Debug, Clone, Default)]
pub struct Seating {
    pub middle: Vec<(Thing, Pose)>,
    pub seats: Vec<Vec<(Thing, AtSeat)>>,
    /// The decks the setup object shuffles and deals once the number is chosen.
    pub deals: Vec<Deal>,
}

/// A deck (by role) shuffled and dealt when the table is set: `each` cards into every seat's
/// hand, then a card to each of `cells` (in White's frame, face down or up as each says).
#[derive(Debug, Clone)]
pub struct Deal {
    pub deck: String,
    pub each: u32,
    pub cells: Vec<Pose>,
}

/// A place at a seat: `across` to the player's right of the seat's middle, `back` from its inner
/// edge toward the player, `y` high.
#[derive(Debug, Clone, Copy)]
pub struct AtSeat {
    pub across: f64,
    pub back: f64,
    pub y: f64,
    pub face_down: bool,
}

/// The ruleset, saved in the rules object for every script to read.
pub struct Rules {
    pub format: String,
    /// The ruleset's key for its format version, and the version.
    pub version_key: &'static str,
    pub version: u32,
    pub json: String,
}

/// The saved object of `table`.
pub fn export(table: &Table) -> Vec<u8> {
    let mut guids = Guids::new(&table.game);
    let rules_guid = guids.next("ruleset");
    let mut objects: Vec<Value> = table
        .middle
        .iter()
        .map(|(thing, pose)| thing.saved(*pose, &mut guids))
        .collect();
    let control = |slot: usize| Pose {
        x: table.controls.0 + CONTROL_STEP * slot as f64,
        y: 1.0,
        z: table.controls.1,
        turn: FACING_WHITE,
        face_down: false,
    };
    let slots = 2 + table.blocks.len();
    let controls: Vec<Pose> = (0..slots).map(control).collect();
    let fixed = Extent::of(table.middle.iter().map(|(_, pose)| pose))
        .with(Extent::of(controls.iter()))
        .with_extent(table.keep_clear);
    let before = guids.clone();
    let mut laid = seated(table, table.laid_out, &mut guids, fixed);
    let (fewest, most) = table.players;
    let mut others: BTreeMap<u32, Vec<Value>> = BTreeMap::new();
    if fewest < most {
        for count in (fewest..=most).filter(|&count| count != table.laid_out) {
            let mut theirs = before.clone();
            others.insert(count, seated(table, count, &mut theirs, fixed));
            guids.merge(theirs);
        }
    }
    let deals = table.seating.values().any(|s| !s.deals.is_empty());
    let setup_guid = (fewest < most || deals).then(|| guids.next("setup"));
    let mut blocks: Vec<Value> = table
        .blocks
        .iter()
        .enumerate()
        .map(|(k, block)| block.saved(control(2 + k), &mut guids))
        .collect();
    let named = |role: &str| guids.of(role);
    for object in objects
        .iter_mut()
        .chain(&mut laid)
        .chain(others.values_mut().flatten())
        .chain(&mut blocks)
    {
        resolve(object, &named);
    }
    if let Some(guid) = setup_guid {
        let layouts = (fewest..=most)
            .map(|count| {
                let mut layout = match others.remove(&count) {
                    Some(theirs) => Layout::from_to(&laid, theirs),
                    None => Layout::default(),
                };
                layout.deals = deals_of(table, count, &named);
                (count, layout)
            })
            .collect();
        objects.push(setup_object(
            guid,
            &table.name,
            table.laid_out,
            layouts,
            control(0).transform(1.0),
        ));
    }
    objects.extend(laid);
    objects.extend(blocks);
    objects.push(rules_object(
        rules_guid,
        &table.name,
        (
            &table.rules.format,
            table.rules.version_key,
            table.rules.version,
        ),
        &table.rules.json,
        control(1).transform(1.0),
    ));
    saved_object(&table.name, objects)
}

/// The decks `players`' setup deals, for the setup object: each deck's GUID, the seats'
/// colours, and each cell's place and turn.
fn deals_of(table: &Table, players: u32, named: &dyn Fn(&str) -> Option<String>) -> Vec<Value> {
    let Some(seating) = table.seating.get(&players) else {
        return Vec::new();
    };
    let colours: Vec<&str> = (0..players as usize).map(super::seat_colour).collect();
    seating
        .deals
        .iter()
        .map(|deal| {
            let cells: Vec<Value> = deal
                .cells
                .iter()
                .map(|cell| {
                    json!({
                        "position": [cell.x, cell.y, cell.z],
                        "rotation": [0.0, cell.turn, if cell.face_down { 180.0 } else { 0.0 }],
                    })
                })
                .collect();
            json!({ "deck": named(&deal.deck), "each": deal.each, "colours": colours, "cells": cells })
        })
        .collect()
}

/// The table for `players`: what their count adds to the middle, then each seat's things and
/// hand zone around a middle that keeps `fixed` and the count's own things clear.
fn seated(table: &Table, players: u32, guids: &mut Guids, fixed: Extent) -> Vec<Value> {
    let empty = Seating::default();
    let seating = table.seating.get(&players).unwrap_or(&empty);
    let mut objects: Vec<Value> = seating
        .middle
        .iter()
        .map(|(thing, pose)| thing.saved(*pose, guids))
        .collect();
    let cells = seating.deals.iter().flat_map(|deal| &deal.cells);
    let middle = fixed.with(Extent::of(
        seating.middle.iter().map(|(_, pose)| pose).chain(cells),
    ));
    let seats = around_the_table(
        players as usize,
        SeatSize {
            width: table.seat.width,
            middle: (middle.0 + 1.0, middle.1 + 1.0),
        },
    );
    for (k, seat) in seats.iter().enumerate() {
        for (thing, place) in seating.seats.get(k).into_iter().flatten() {
            let (x, z) = seat.place(place.across, place.back);
            let pose = Pose {
                x,
                y: place.y,
                z,
                turn: seat.upright(),
                face_down: place.face_down,
            };
            let mut object = thing.saved(pose, guids);
            at_seat(&mut object, seat.colour);
            objects.push(object);
        }
        objects.push(seat.hand_zone(
            guids.next(&format!("hand/{}", k + 1)),
            table.seat.hand_back,
            table.seat.hand_width,
        ));
    }
    objects
}

/// How far the middle reaches from the table's centre (x, z).
#[derive(Debug, Clone, Copy, Default)]
pub struct Extent(pub f64, pub f64);

impl Extent {
    /// Around every pose (a card or a piece reaches about [`REACH`] from its centre).
    pub fn of<'a>(poses: impl Iterator<Item = &'a Pose>) -> Extent {
        poses.fold(Extent::default(), |extent, pose| {
            extent.with(Extent(pose.x.abs() + REACH, pose.z.abs() + REACH))
        })
    }

    pub fn with(self, other: Extent) -> Extent {
        Extent(self.0.max(other.0), self.1.max(other.1))
    }

    pub fn with_extent(self, (x, z): (f64, f64)) -> Extent {
        self.with(Extent(x, z))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::tts::things::{Kind, Script};

    fn block(role: &str, state: Value) -> Thing {
        Thing {
            role: role.to_string(),
            name: role.to_string(),
            description: String::new(),
            kind: Kind::Block,
            locked: false,
            memo: String::new(),
            script: Some(Script {
                lua: "-- a script".to_string(),
                state,
            }),
        }
    }

    /// A game of one to three players: a block in the middle, and at each seat a sheet wired to
    /// it and to its seat, and (with three players) a pile that differs by count.
    fn game() -> Table {
        let seating = (1..=3)
            .map(|players| {
                let seats = (0..players)
                    .map(|seat| {
                        let at = AtSeat {
                            across: 0.0,
                            back: 2.0,
                            y: 1.0,
                            face_down: false,
                        };
                        let wired =
                            json!({ "deck": { "$guid": "deck" }, "colour": { "$seat": "colour" } });
                        let mut things = vec![(block(&format!("sheet/{seat}"), wired), at)];
                        let dealt = json!({ "cards": players });
                        things.push((block(&format!("hand-of/{seat}"), dealt), at));
                        things
                    })
                    .collect();
                (
                    players,
                    Seating {
                        middle: Vec::new(),
                        seats,
                        // Two cards a hand, and one face up in the middle.
                        deals: vec![Deal {
                            deck: "deck".to_string(),
                            each: 2,
                            cells: vec![Pose {
                                x: 1.0,
                                y: 1.0,
                                z: 2.0,
                                turn: FACING_WHITE,
                                face_down: false,
                            }],
                        }],
                    },
                )
            })
            .collect();
        Table {
            game: "test".to_string(),
            name: "Test".to_string(),
            players: (1, 3),
            laid_out: 3,
            middle: vec![(
                block("deck", json!({})),
                Pose {
                    x: 0.0,
                    y: 1.0,
                    z: 0.0,
                    turn: FACING_WHITE,
                    face_down: true,
                },
            )],
            keep_clear: (3.0, 3.0),
            controls: (0.0, -3.0),
            blocks: Vec::new(),
            seat: SeatShape {
                width: 8.0,
                hand_back: 6.0,
                hand_width: 7.0,
            },
            seating,
            rules: Rules {
                format: "test".to_string(),
                version_key: "version",
                version: 1,
                json: "{}".to_string(),
            },
        }
    }

    fn saved(table: &Table) -> Vec<Value> {
        let save: Value = serde_json::from_slice(&export(table)).unwrap();
        save["ObjectStates"].as_array().unwrap().clone()
    }

    fn state(object: &Value) -> Value {
        serde_json::from_str(object["LuaScriptState"].as_str().unwrap()).unwrap()
    }

    #[test]
    fn scripts_are_wired_to_the_things_they_name_and_to_their_seat() {
        let objects = saved(&game());
        let deck = objects.iter().find(|o| o["Nickname"] == "deck").unwrap();
        assert_eq!(deck["Transform"]["rotZ"], 180.0);
        let sheets: Vec<Value> = objects
            .iter()
            .filter(|o| o["Nickname"].as_str().unwrap().starts_with("sheet/"))
            .map(state)
            .collect();
        assert_eq!(sheets.len(), 3);
        for (sheet, colour) in sheets.iter().zip(["White", "Red", "Yellow"]) {
            assert_eq!(sheet["deck"], deck["GUID"]);
            assert_eq!(sheet["colour"], colour);
        }
        // A seat's hand zone, and the rules object last.
        assert_eq!(
            objects
                .iter()
                .filter(|o| o["Name"] == "HandTrigger")
                .count(),
            3
        );
        assert_eq!(objects.last().unwrap()["Nickname"], "Test ruleset");
    }

    #[test]
    fn the_setup_moves_what_is_alike_and_puts_out_again_what_differs() {
        let objects = saved(&game());
        let setup = objects
            .iter()
            .find(|o| o["Nickname"] == "Test: how many players?")
            .unwrap();
        let layouts = &state(setup)["layouts"];
        // Every number deals the deck: shuffled when chosen, into that many hands.
        let deck = objects.iter().find(|o| o["Nickname"] == "deck").unwrap();
        let deal = json!([{
            "deck": deck["GUID"], "each": 2, "colours": ["White", "Red", "Yellow"],
            "cells": [{ "position": [1.0, 1.0, 2.0], "rotation": [0.0, 180.0, 0.0] }],
        }]);
        assert_eq!(
            layouts["3"],
            json!({ "move": [], "remove": [], "spawn": [], "deal": deal })
        );
        assert_eq!(layouts["2"]["deal"][0]["colours"], json!(["White", "Red"]));
        let two = &layouts["2"];
        let guid_of =
            |name: &str| objects.iter().find(|o| o["Nickname"] == name).unwrap()["GUID"].clone();
        let moved: Vec<&Value> = two["move"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| &m["guid"])
            .collect();
        // The sheets are alike at every count: moved, never put out again.
        assert!(moved.contains(&&guid_of("sheet/0")) && moved.contains(&&guid_of("sheet/1")));
        let removed = two["remove"].as_array().unwrap();
        assert!(removed.contains(&guid_of("sheet/2")));
        // What a seat is dealt differs by count: taken away and put out as that count has it.
        assert!(removed.contains(&guid_of("hand-of/0")));
        let spawned: Vec<Value> = two["spawn"].as_array().unwrap().iter().map(state).collect();
        assert!(spawned.contains(&json!({ "cards": 2 })));
        // What is put out is wired too.
        assert!(
            two["spawn"]
                .as_array()
                .unwrap()
                .iter()
                .all(|o| o["LuaScriptState"].is_string())
        );
    }
}
