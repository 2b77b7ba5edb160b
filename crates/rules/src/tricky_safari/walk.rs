//! How a Tricky Safari animal walks, and where its walk can take it.
//!
//! Each round every animal takes one step by the rulebook's six cases ([`step`]). What blocks
//! it is partly fixed, the board's edge and the terrain it does not cross, and partly not: the
//! other animals and the cameras move. The checker cannot know where they will stand, so it
//! follows every way they could: a cell the animal could walk on may be free or taken at any
//! step. The states found hold every state a game can bring the animal to, and maybe more;
//! what none of them allows (a photograph) no game allows.

use std::collections::BTreeSet;

use crate::components::{Cell, Facing};

/// What one neighbouring cell is to a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Way {
    Open,
    /// Blocked by forest, which turns an animal with both sides open to its left.
    Forest,
    /// Blocked by anything else: lake, another animal, a camera, the edge.
    Blocked,
}

/// The step an animal takes from `facing`, seeing `around` each way: its new facing, and
/// whether it moves one cell that way.
pub fn step(facing: Facing, around: impl Fn(Facing) -> Way) -> (Facing, bool) {
    let ahead = around(facing);
    if ahead == Way::Open {
        return (facing, true);
    }
    let left = around(facing.left()) == Way::Open;
    let right = around(facing.right()) == Way::Open;
    match (left, right) {
        (true, true) if ahead == Way::Forest => (facing.left(), true),
        (true, true) => (facing.right(), true),
        (true, false) => (facing.left(), true),
        (false, true) => (facing.right(), true),
        (false, false) => (facing.back(), around(facing.back()) == Way::Open),
    }
}

/// Where an animal stands and which way it faces.
pub(crate) type State = (Cell, Facing);

/// The board as one animal sees it.
pub(crate) struct Ground {
    pub columns: usize,
    pub rows: usize,
    /// Cells it may walk on: open ground, and the terrain it crosses.
    pub walkable: Vec<bool>,
    /// Cells of forest it does not cross.
    pub forest: Vec<bool>,
}

impl Ground {
    pub(crate) fn neighbour(&self, at: Cell, way: Facing) -> Option<Cell> {
        let (dc, dr) = way.step();
        let (c, r) = (at.column as i64 + dc, at.row as i64 + dr);
        let inside = (0..self.columns as i64).contains(&c) && (0..self.rows as i64).contains(&r);
        inside.then_some(Cell {
            column: c as usize,
            row: r as usize,
        })
    }

    fn index(&self, cell: Cell) -> usize {
        cell.row * self.columns + cell.column
    }

    /// What stands that way for good: `None` when only a piece could block it.
    fn fixed(&self, at: Cell, way: Facing) -> Option<Way> {
        match self.neighbour(at, way) {
            None => Some(Way::Blocked),
            Some(cell) if self.walkable[self.index(cell)] => None,
            Some(cell) if self.forest[self.index(cell)] => Some(Way::Forest),
            Some(_) => Some(Way::Blocked),
        }
    }

    /// Every state the next step can bring the animal to, wherever the pieces stand.
    pub fn steps(&self, (at, facing): State) -> BTreeSet<State> {
        let fixed = Facing::ALL.map(|way| self.fixed(at, way));
        let free: Vec<usize> = (0..4).filter(|&i| fixed[i].is_none()).collect();
        (0u32..1 << free.len())
            .map(|taken| {
                let mut ways = fixed.map(|way| way.unwrap_or(Way::Open));
                for (bit, &i) in free.iter().enumerate() {
                    if taken >> bit & 1 == 1 {
                        ways[i] = Way::Blocked;
                    }
                }
                let (turned, moves) = step(facing, |way| ways[way as usize]);
                match moves.then(|| self.neighbour(at, turned)).flatten() {
                    Some(next) => (next, turned),
                    None => (at, turned),
                }
            })
            .collect()
    }

    /// For every state, whether the animal's walk from it can reach a state `seen` holds.
    pub(crate) fn can_reach(&self, seen: impl Fn(State) -> bool) -> Vec<bool> {
        let states = self.columns * self.rows * 4;
        let mut before: Vec<Vec<usize>> = vec![Vec::new(); states];
        let mut reached = vec![false; states];
        let mut queue = Vec::new();
        for state in self.all_states() {
            let ix = self.state_index(state);
            for next in self.steps(state) {
                before[self.state_index(next)].push(ix);
            }
            if seen(state) {
                reached[ix] = true;
                queue.push(ix);
            }
        }
        while let Some(ix) = queue.pop() {
            for &earlier in &before[ix] {
                if !reached[earlier] {
                    reached[earlier] = true;
                    queue.push(earlier);
                }
            }
        }
        reached
    }

    /// The cells the animal's walk from `start` can bring it to, when they are at most
    /// `limit`.
    pub fn walk(&self, start: State, limit: usize) -> Option<BTreeSet<Cell>> {
        let mut seen = BTreeSet::from([start]);
        let mut queue = vec![start];
        while let Some(state) = queue.pop() {
            for next in self.steps(state) {
                if seen.insert(next) {
                    queue.push(next);
                }
            }
            if seen.len() > limit * 4 {
                return None;
            }
        }
        let cells: BTreeSet<Cell> = seen.into_iter().map(|(cell, _)| cell).collect();
        (cells.len() <= limit).then_some(cells)
    }

    pub(crate) fn state_index(&self, (cell, facing): State) -> usize {
        self.index(cell) * 4 + facing as usize
    }

    /// The states on cells the animal may stand on.
    fn all_states(&self) -> impl Iterator<Item = State> + '_ {
        (0..self.rows)
            .flat_map(move |row| (0..self.columns).map(move |column| Cell { column, row }))
            .filter(|&cell| self.walkable[self.index(cell)])
            .flat_map(|cell| Facing::ALL.map(|facing| (cell, facing)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn around(ahead: Way, left: Way, right: Way, behind: Way) -> impl Fn(Facing) -> Way {
        move |way| match way {
            Facing::North => ahead,
            Facing::West => left,
            Facing::East => right,
            Facing::South => behind,
        }
    }

    use Way::{Blocked, Forest, Open};

    #[test]
    fn the_six_cases_of_the_rulebook() {
        let north = Facing::North;
        // Not blocked: one cell forward.
        assert_eq!(
            step(north, around(Open, Blocked, Blocked, Blocked)),
            (north, true)
        );
        // Blocked ahead and on one side: a quarter turn to the open side, and a move.
        assert_eq!(
            step(north, around(Blocked, Open, Forest, Open)),
            (Facing::West, true)
        );
        assert_eq!(
            step(north, around(Forest, Blocked, Open, Open)),
            (Facing::East, true)
        );
        // Blocked everywhere but behind: turn around and move.
        assert_eq!(
            step(north, around(Blocked, Forest, Blocked, Open)),
            (Facing::South, true)
        );
        // Blocked on all four sides: turn around and stay.
        assert_eq!(
            step(north, around(Blocked, Blocked, Blocked, Blocked)),
            (Facing::South, false)
        );
        // Both sides open: left when forest is ahead, right when anything else is.
        assert_eq!(
            step(north, around(Forest, Open, Open, Blocked)),
            (Facing::West, true)
        );
        assert_eq!(
            step(north, around(Blocked, Open, Open, Blocked)),
            (Facing::East, true)
        );
    }

    /// `X` forest, `L` lake, `.` open.
    fn ground(rows: &[&str], crosses: Option<char>) -> Ground {
        let cells: Vec<char> = rows.iter().flat_map(|r| r.chars()).collect();
        Ground {
            columns: rows[0].len(),
            rows: rows.len(),
            walkable: cells
                .iter()
                .map(|&c| c == '.' || Some(c) == crosses)
                .collect(),
            forest: cells.iter().map(|&c| c == 'X').collect(),
        }
    }

    fn cell(name: &str) -> Cell {
        Cell::parse(name).unwrap()
    }

    #[test]
    fn an_animal_facing_the_edge_turns_around_at_its_first_move() {
        let ground = ground(&[".X..", "....", "...."], None);
        let steps = ground.steps((cell("a1"), Facing::North));
        // a2 free: it turns around and walks there; a2 taken: it turns around on a1.
        let expected = BTreeSet::from([(cell("a2"), Facing::South), (cell("a1"), Facing::South)]);
        assert_eq!(steps, expected);
    }

    #[test]
    fn a_walk_fenced_in_by_forest_stays_inside_the_fence() {
        let ground = ground(&[".X..", ".X..", "XX.."], None);
        let cells = ground.walk((cell("a1"), Facing::North), 10).unwrap();
        assert_eq!(cells, BTreeSet::from([cell("a1"), cell("a2")]));
    }

    #[test]
    fn a_swimmer_walks_through_the_lake_others_turn_at() {
        let rows = ["....", "LLLL", "...."];
        let walker = ground(&rows, None)
            .walk((cell("b1"), Facing::South), 20)
            .unwrap();
        assert!(walker.iter().all(|c| c.row == 0), "{walker:?}");
        let swimmer = ground(&rows, Some('L'))
            .walk((cell("b1"), Facing::South), 20)
            .unwrap();
        assert!(swimmer.contains(&cell("b3")), "{swimmer:?}");
    }

    #[test]
    fn can_reach_follows_the_walk_back_from_where_it_is_seen() {
        let ground = ground(&[".X..", ".X..", "XX.."], None);
        let seen = |(at, _): State| at == cell("d3");
        let reached = ground.can_reach(seen);
        assert!(reached[ground.state_index((cell("c1"), Facing::East))]);
        assert!(!reached[ground.state_index((cell("a1"), Facing::North))]);
    }
}
