//! Where the players sit: around the table, each seat's things in front of it and facing it.
//!
//! A game says what lies at one seat in the seat's own frame (`across`, to the player's right;
//! `back`, from the seat's inner edge toward the player) and what lies in the middle; the seats
//! go clockwise around the middle, White first at the table's −z side, a side at a time: the
//! −z side, −x, +z, +x (two players face each other across the table). An object reads upright
//! for its seat when its rotY is the seat's hand zone's plus 180 (docs/tabletop-simulator.md,
//! "Which way an image faces").

use serde_json::{Value, json};

use super::seat_colour;

/// The sides of the table, clockwise seen from above, by the rotY of a hand zone there.
const SIDES: [f64; 4] = [0.0, 90.0, 180.0, 270.0];

/// One seat: its colour and where it sits.
#[derive(Debug, Clone)]
pub struct Seat {
    pub colour: &'static str,
    /// The middle of the seat's inner edge, on the table (x, z).
    origin: (f64, f64),
    /// Its hand zone's rotY: the seat looks along its hand zone's +z.
    facing: f64,
}

impl Seat {
    /// The table's point `across` units to the player's right of the seat's middle and `back`
    /// units from its inner edge toward the player.
    pub fn place(&self, across: f64, back: f64) -> (f64, f64) {
        let (sin, cos) = self.facing.to_radians().sin_cos();
        let (right, forward) = ((cos, -sin), (sin, cos));
        (
            round(self.origin.0 + across * right.0 - back * forward.0),
            round(self.origin.1 + across * right.1 - back * forward.1),
        )
    }

    /// The rotY of an object that reads upright for this seat.
    pub fn upright(&self) -> f64 {
        (self.facing + 180.0) % 360.0
    }

    /// The seat's hand zone, `width` units wide, `back` units from its inner edge: cards in it
    /// are the player's hand, and (the first of its colour) it is where the player sits.
    pub fn hand_zone(&self, guid: String, back: f64, width: f64) -> Value {
        let (x, z) = self.place(0.0, back);
        let mut zone = super::hand_zone(guid, self.colour, x, z, width);
        zone["Transform"]["rotY"] = json!(self.facing);
        zone
    }
}

/// Keeps the save's numbers short and the same on every machine.
fn round(value: f64) -> f64 {
    (value * 1000.0).round() / 1000.0 + 0.0
}

/// What one seat takes at the table, and the middle's half extents (x, z) to keep clear.
#[derive(Debug, Clone, Copy)]
pub struct SeatSize {
    pub width: f64,
    pub middle: (f64, f64),
}

/// The seats for `players` (in seat order: White, Red, Yellow, …) around the table.
pub fn around_the_table(players: usize, size: SeatSize) -> Vec<Seat> {
    let counts = per_side(players);
    // The sides' seats must not reach into each other's: the middle is at least as wide as
    // the seats along the −z and +z sides, and as deep as those along the others.
    let along = |sides: [usize; 2]| {
        sides.iter().map(|&s| counts[s]).max().unwrap_or(0) as f64 * size.width / 2.0
    };
    let middle = (
        size.middle.0.max(along([0, 2])),
        size.middle.1.max(along([1, 3])),
    );
    let mut seats = Vec::new();
    for (side, &count) in counts.iter().enumerate() {
        let facing = SIDES[side];
        let inset = if side % 2 == 0 { middle.1 } else { middle.0 };
        for k in 0..count {
            // Clockwise along a side is toward the player's left.
            let across = ((count as f64 - 1.0) / 2.0 - k as f64) * size.width;
            let edge = Seat {
                colour: "",
                origin: (0.0, 0.0),
                facing,
            };
            // The inner edge's middle: `inset` from the centre toward the seat, then along.
            let (x, z) = edge.place(across, inset);
            seats.push(Seat {
                colour: seat_colour(seats.len()),
                origin: (x, z),
                facing,
            });
        }
    }
    seats
}

/// How many seats each side has, clockwise from the −z side: two players face each other;
/// otherwise as even as can be, the long sides (−z, +z) first.
fn per_side(players: usize) -> [usize; 4] {
    if players == 2 {
        return [1, 0, 1, 0];
    }
    let mut counts = [players / 4; 4];
    for side in [0, 2, 1, 3].into_iter().take(players % 4) {
        counts[side] += 1;
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIZE: SeatSize = SeatSize {
        width: 16.0,
        middle: (8.0, 8.0),
    };

    #[test]
    fn seats_face_the_middle_from_every_side() {
        let seats = around_the_table(4, SIZE);
        let colours: Vec<&str> = seats.iter().map(|s| s.colour).collect();
        assert_eq!(colours, ["White", "Red", "Yellow", "Green"]);
        // White at −z, Red at −x, Yellow at +z, Green at +x; a point further back is further
        // from the middle.
        let near: Vec<(f64, f64)> = seats.iter().map(|s| s.place(0.0, 0.0)).collect();
        assert_eq!(near, [(0.0, -8.0), (-8.0, 0.0), (0.0, 8.0), (8.0, 0.0)]);
        assert_eq!(seats[0].place(0.0, 10.0), (0.0, -18.0));
        assert_eq!(seats[1].place(0.0, 10.0), (-18.0, 0.0));
        // A seat's right: White's is +x, Yellow's (across the table) −x.
        assert_eq!(seats[0].place(1.0, 0.0), (1.0, -8.0));
        assert_eq!(seats[2].place(1.0, 0.0), (-1.0, 8.0));
        // Things upright for White are turned half a turn; for Yellow, not at all.
        assert_eq!(seats[0].upright(), 180.0);
        assert_eq!(seats[2].upright(), 0.0);
    }

    #[test]
    fn two_face_each_other_and_many_share_sides() {
        let two = around_the_table(2, SIZE);
        assert_eq!(two[0].facing, 0.0);
        assert_eq!(two[1].facing, 180.0);
        let ten = around_the_table(10, SIZE);
        assert_eq!(ten.len(), 10);
        // Seats along a side do not overlap, and the middle grew to keep the sides apart.
        let white = ten[0].place(0.0, 0.0);
        let red = ten[1].place(0.0, 0.0);
        assert!((white.0 - red.0).abs() >= SIZE.width - 1e-9);
        assert_eq!(ten.iter().filter(|s| s.facing == 0.0).count(), 3);
        assert!(white.1 <= -SIZE.width + 1e-9 && white.0 >= SIZE.width - 1e-9);
    }
}
