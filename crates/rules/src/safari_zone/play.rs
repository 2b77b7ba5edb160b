//! Every order of play, on a guide small enough to try them all.
//!
//! The least fixpoint (`graph.rs`) asks what can happen at all, in no order. But an event
//! (obtaining an item, collecting a species) fills only the boxes open at that moment, boxes
//! opened by its own fills waiting for the next one, and some events happen a bounded number
//! of times: an item is obtained once, a species is caught at most once per card and given
//! once per box giving it (docs/rules.md). Whether a box waiting for such an event is ever open
//! when it comes depends on the order of play and on the order of the cascade that follows
//! each fill, and no rule of thumb about moments gets every case right; playing every order
//! does.
//!
//! So this plays the game as the checker reads it, every way it can go. From the first turn's
//! cascade (free boxes open at the start are filled then, before any choice), a player may at
//! any time make any move: a face filling the next box of a track, a card met, caught or
//! thrown at, an item used, a turn begun. Each move is followed by its cascade exactly as the
//! rules set it out: a box's gains in order, then its bonus chain (each choice a branch), then
//! the free boxes it opened; an event fills the boxes open when it happens (one per section and
//! kind), each with everything that follows from it before the next. It drops what the
//! fixpoint drops (the dice's luck, the number of turns and balls, the order of things within
//! a turn), so every game the engine can play is one of these plays: a box no play fills is
//! never filled. Turn Tracker and ball tracks that nothing reads are left out of the sheet, and
//! so are the ends of tracks that only faces fill and nothing reads ([`Tail`]): they change
//! nothing, whenever they are filled, and would only multiply the orders to try.
//!
//! Each sheet is played on once, depth first. The search stops as soon as every box the
//! fixpoint calls reachable has been filled in some play (most guides: one long play), and
//! gives up past a budget of work, leaving the fixpoint's verdicts, which are sound: it is
//! exact on guides small enough, which is where the order of a few events decides.

use std::cell::Cell;
use std::hash::{Hash, Hasher};

// The sheets played on are hashed with foldhash, not the standard library's SipHash: hashing
// them was an eighth of the time of tests/layout.rs's generated guides (docs/performance.md,
// "Set-up").
use hashbrown::HashSet;

use super::graph::{Bonuses, Graph, Reach};
use super::model::*;

/// Work (words of sheet copied, boxes looked at) one check may spend playing. A guide past it
/// is left to the fixpoint, which is sound. Measured: 2 of 1,012 guides the agreement test
/// generated went past it, and 200 variants of the default game's guide check in the time they
/// took before the search (tests/layout.rs: 47 s), where a budget of 150 million held 4.6 GB
/// and ran for minutes.
const BUDGET: u64 = 5_000_000;
/// Bytes the sheets one check keeps may take, roughly: on a guide of the default game's size a
/// sheet is half a kilobyte, and a search of a variant of it took gigabytes before this bound.
const SHEET_BYTES: usize = 64 << 20;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Need {
    Item(u32),
    Species(u32),
    Box(u32),
    Vp(u32),
    Never,
}

#[derive(Debug, Clone, Copy)]
enum Gain {
    Item(u32),
    Species(u32),
    Habitat(Habitat),
}

#[derive(Debug, Clone)]
struct Rule {
    section: u32,
    previous: Option<u32>,
    vp: u32,
    needs: Vec<Need>,
    gains: Vec<Gain>,
    bonus: bool,
    /// A trigger box taking an event's fill of its own in its section, beside the box that
    /// names the event there (`EventFills::OnePlusTriggerPerSection`).
    trigger: bool,
    /// A bonus chain can fill it: square, not filled by an event.
    chain: bool,
    /// The item whose use fills it.
    used: Option<u32>,
    face: Option<Action>,
    /// Kept on the sheet (not in a Turn Tracker or ball track nothing reads, nor a [`Tail`]).
    kept: bool,
    tail: bool,
}

#[derive(Debug, Clone)]
struct CardRule {
    species: u32,
    grass: u32,
    water: u32,
    needs: Vec<Need>,
    copies: u32,
    capture_rate: u32,
}

/// A sheet in play, and what it has brought.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Sheet {
    filled: Vec<u64>,
    items: Vec<bool>,
    species: Vec<bool>,
    caught: Vec<u32>,
    vp: u32,
    bonus: [u32; 3],
}

/// Every field, the flags packed 64 to a word: hashed one by one, a game's hundreds of
/// species flags cost more than the rest of the sheet.
impl Hash for Sheet {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.filled.hash(state);
        for flags in [&self.items, &self.species] {
            state.write_usize(flags.len());
            for chunk in flags.chunks(64) {
                let word = chunk
                    .iter()
                    .enumerate()
                    .fold(0u64, |word, (i, &flag)| word | (flag as u64) << i);
                state.write_u64(word);
            }
        }
        self.caught.hash(state);
        self.vp.hash(state);
        self.bonus.hash(state);
    }
}

impl Sheet {
    fn has(&self, b: u32) -> bool {
        self.filled[b as usize / 64] >> (b % 64) & 1 == 1
    }
}

/// One consequence waiting in a cascade (the engine's steps, docs/rules.md).
#[derive(Debug, Clone, Copy)]
enum Step {
    Fill(u32),
    FillIfOpen(u32),
    Gain(u32, u32),
    Collect(u32),
    Bonus(u32),
    Free,
}

/// A move a player may make at any time.
#[derive(Debug, Clone, Copy)]
enum Move {
    Face(u32),
    Use(u32),
    Turn,
    Throw,
    Catch(u32),
}

/// A run of boxes at the end of a track that only a face fills and that nothing reads: no
/// gains, no style, no box or card needing them, victory points no requirement counts, no
/// requirement but on its first box. Once its first box is open, the player fills the run
/// whenever they like and nothing else changes, so it is left out of the sheet: its boxes are
/// filled in some play when its first box is open in one, and a chain may fill one of them
/// instead of a box of the sheet.
#[derive(Debug, Clone)]
struct Tail {
    head: u32,
    boxes: Vec<u32>,
    square: bool,
}

struct Play {
    boxes: Vec<Rule>,
    tracks: Vec<Vec<u32>>,
    /// Tracks with a box some face fills, and that face's dice exist.
    face_tracks: Vec<u32>,
    turn: Vec<u32>,
    ball: Vec<u32>,
    free: Vec<u32>,
    collect: Vec<Vec<u32>>,
    obtain: Vec<Vec<u32>>,
    uses: Vec<Vec<u32>>,
    usable: Vec<bool>,
    cards: Vec<CardRule>,
    habitat_dice: super::graph::HabitatDice,
    /// What the items held add to habitats and capture rolls.
    items: super::graph::ItemBonuses,
    max_capture: u32,
    /// The first turn fills a Turn Tracker box kept on the sheet, or one left out.
    first_turn: Option<Option<u32>>,
    /// A throw may fill a ball box left out of the sheet; a chain a square one.
    loose_ball: bool,
    loose_chain: bool,
    /// Runs of boxes at the end of a track that nothing reads (see [`Tail`]).
    tails: Vec<Tail>,
    work: Cell<u64>,
}

/// The boxes the fixpoint calls reachable that no play fills, or `None` when the guide is too
/// large to play every order of.
pub(crate) fn never_filled(game: &Game, graph: &Graph, reach: &Reach) -> Option<Vec<BoxId>> {
    let guide = &game.guide;
    // Order matters only through events and bonus chains: without a box filled by an event or
    // only by a chain, a box once open stays open until a move fills it, whenever the player
    // likes, and the fixpoint is exact.
    let ordered = guide.boxes.iter().any(|def| {
        def.style != Style::Free
            && matches!(
                def.terms.cause.value,
                Cause::Collect(_) | Cause::Obtain(_) | Cause::Bonus | Cause::Unknown
            )
    });
    if !ordered {
        return Some(Vec::new());
    }
    if guide.boxes.len() > 4096 {
        return None;
    }
    let play = Play::new(game, graph, reach);
    let wanted: Vec<u32> = guide
        .box_ids()
        .filter(|b| {
            let rule = &play.boxes[b.index()];
            (rule.kept || rule.tail) && reach.of(graph.box_node[b.index()])
        })
        .map(|b| b.0)
        .collect();
    let mut seen = Seen {
        sheets: HashSet::new(),
        ever: vec![0; guide.boxes.len().div_ceil(64)],
        wanted: vec![0; guide.boxes.len().div_ceil(64)],
        missing: wanted.len(),
        tails: (0..play.tails.len()).collect(),
    };
    for b in &wanted {
        seen.wanted[*b as usize / 64] |= 1 << (b % 64);
    }
    // Depth first, each sheet with the moves left to try from it: a move is played out only
    // when the search comes to it, so a search that finds every box early stops early.
    let mut stack: Vec<(Sheet, Vec<Move>)> = Vec::new();
    let first = match play.first_turn {
        Some(Some(b)) => vec![Step::Fill(b)],
        Some(None) => vec![Step::Free],
        None => Vec::new(),
    };
    let blank = play.blank(game);
    // What a kept sheet costs: its four lists, their headers, and the set's own share.
    let sheet_bytes = 8 * blank.filled.len()
        + blank.items.len()
        + blank.species.len()
        + 4 * blank.caught.len()
        + 4 * std::mem::size_of::<Vec<u64>>()
        + 64;
    let mut next = Vec::new();
    play.cascade(blank, first, &mut next);
    if play.spent() {
        return None;
    }
    seen.add(&play, &mut next, &mut stack);
    while seen.missing > 0 {
        let Some((sheet, moves)) = stack.last_mut() else {
            break;
        };
        let Some(mv) = moves.pop() else {
            stack.pop();
            continue;
        };
        play.apply(sheet, mv, &mut next);
        seen.add(&play, &mut next, &mut stack);
        if play.spent() || seen.sheets.len() * sheet_bytes > SHEET_BYTES {
            return None;
        }
    }
    let ever = seen.ever;
    Some(
        wanted
            .into_iter()
            .filter(|b| ever[*b as usize / 64] >> (b % 64) & 1 == 0)
            .map(BoxId)
            .collect(),
    )
}

impl Play {
    fn new(game: &Game, graph: &Graph, reach: &Reach) -> Play {
        let guide = &game.guide;
        let need = |r: &Requirement| match r {
            Requirement::Item(i) => Need::Item(i.0),
            Requirement::Species(s) => Need::Species(s.0),
            Requirement::Area(t) => guide
                .track(*t)
                .boxes
                .first()
                .map_or(Need::Never, |b| Need::Box(b.0)),
            Requirement::Box(b) => Need::Box(b.0),
            Requirement::Vp(n) => Need::Vp(*n),
            Requirement::Unknown => Need::Never,
        };
        // What the sheet reads: boxes required, areas, whether victory points count.
        let mut read = vec![false; guide.boxes.len()];
        let mut reads_vp = false;
        let mut mark = |n: Need, read: &mut Vec<bool>| match n {
            Need::Box(b) => read[b as usize] = true,
            Need::Vp(_) => reads_vp = true,
            _ => {}
        };
        for b in guide.box_ids() {
            for r in &guide.get(b).terms.requires {
                match need(&r.value) {
                    // Victory points count only for a box that can be filled at all.
                    Need::Vp(_) if !reach.of(graph.box_node[b.index()]) => {}
                    n => mark(n, &mut read),
                }
            }
        }
        let card_needs = |card: &Card| -> Vec<Need> {
            let mut needs = Vec::new();
            if let Some(area) = &card.area {
                needs.push(
                    area.value
                        .map_or(Need::Never, |t| need(&Requirement::Area(t))),
                );
            }
            if let Some(item) = &card.item {
                needs.push(item.value.map_or(Need::Never, |i| Need::Item(i.0)));
            }
            needs
        };
        for card in &game.deck.cards {
            for n in card_needs(card) {
                mark(n, &mut read);
            }
        }
        let counter = |b: &BoxId| {
            let def = guide.get(*b);
            matches!(def.terms.cause.value, Cause::Turn | Cause::Ball)
                && def.style != Style::Free
                && def.style != Style::Bonus
                && def.terms.rewards.is_empty()
                && def.terms.requires.is_empty()
                && (def.vp == 0 || !reads_vp)
                && !read[b.index()]
        };
        let loose_track: Vec<bool> = guide
            .tracks
            .iter()
            .map(|t| t.boxes.iter().all(counter))
            .collect();
        let mut play = Play {
            boxes: Vec::with_capacity(guide.boxes.len()),
            tracks: guide
                .tracks
                .iter()
                .map(|t| t.boxes.iter().map(|b| b.0).collect())
                .collect(),
            face_tracks: Vec::new(),
            turn: Vec::new(),
            ball: Vec::new(),
            free: Vec::new(),
            collect: vec![Vec::new(); game.species.len()],
            obtain: vec![Vec::new(); game.items.len()],
            uses: vec![Vec::new(); game.items.len()],
            usable: game
                .items
                .iter()
                .map(|i| {
                    i.kind == ItemKind::Usable && graph.face_dice[Action::Trainer as usize] > 0
                })
                .collect(),
            cards: Vec::new(),
            habitat_dice: graph.habitat_dice,
            items: graph.items.clone(),
            max_capture: graph.max_capture,
            first_turn: None,
            loose_ball: false,
            loose_chain: false,
            tails: Vec::new(),
            work: Cell::new(0),
        };
        for b in guide.box_ids() {
            let def = guide.get(b);
            let kept = !loose_track[def.track.index()];
            let free = def.style == Style::Free || def.terms.cause.value == Cause::Free;
            let cause = if free {
                &Cause::Free
            } else {
                &def.terms.cause.value
            };
            match cause {
                Cause::Turn => {
                    if play.first_turn.is_none() {
                        play.first_turn = Some(kept.then_some(b.0));
                    }
                    if kept {
                        play.turn.push(b.0);
                    }
                }
                Cause::Ball if kept => play.ball.push(b.0),
                Cause::Ball => play.loose_ball = true,
                Cause::Collect(list) => list.iter().for_each(|s| play.collect[s.index()].push(b.0)),
                Cause::Obtain(list) => list.iter().for_each(|i| play.obtain[i.index()].push(b.0)),
                Cause::Use(i) => play.uses[i.index()].push(b.0),
                Cause::Free => play.free.push(b.0),
                Cause::Dice(_) | Cause::Bonus | Cause::Unknown => {}
            }
            let face = match cause {
                Cause::Dice(face) if graph.face_dice[*face as usize] > 0 => Some(*face),
                _ => None,
            };
            if face.is_some() && play.face_tracks.last() != Some(&def.track.0) {
                play.face_tracks.push(def.track.0);
            }
            let chain = def.shape == Shape::Square
                && !matches!(cause, Cause::Collect(_) | Cause::Obtain(_));
            if !kept && chain {
                play.loose_chain = true;
            }
            play.boxes.push(Rule {
                section: def.section.0,
                previous: guide.previous(b).map(|p| p.0),
                vp: def.vp,
                needs: def.terms.requires.iter().map(|r| need(&r.value)).collect(),
                gains: def
                    .terms
                    .rewards
                    .iter()
                    .filter_map(|r| match r.value {
                        Reward::Item(i) => Some(Gain::Item(i.0)),
                        Reward::Species(s) => Some(Gain::Species(s.0)),
                        Reward::Habitat(h) => Some(Gain::Habitat(h)),
                        Reward::Unknown => None,
                    })
                    .collect(),
                bonus: def.style == Style::Bonus,
                trigger: game.manifest.event_fills.trigger_beside() && def.style == Style::Trigger,
                chain,
                used: match cause {
                    Cause::Use(i) => Some(i.0),
                    _ => None,
                },
                face,
                kept,
                tail: false,
            });
        }
        play.face_tracks.dedup();
        let plain = |b: &BoxId| {
            let def = guide.get(*b);
            let rule = &play.boxes[b.index()];
            rule.kept
                && rule.face.is_some()
                && !rule.bonus
                && def.style != Style::Free
                && def.terms.rewards.is_empty()
                && !read[b.index()]
                && (def.vp == 0 || !reads_vp)
        };
        let runs: Vec<Vec<u32>> = guide
            .tracks
            .iter()
            .map(|track| {
                let mut run: Vec<u32> = Vec::new();
                for b in track.boxes.iter().rev() {
                    if !plain(b) {
                        break;
                    }
                    run.push(b.0);
                    if !guide.get(*b).terms.requires.is_empty() {
                        break;
                    }
                }
                run.reverse();
                run
            })
            .collect();
        for run in runs.into_iter().filter(|run| !run.is_empty()) {
            for b in &run {
                play.boxes[*b as usize].kept = false;
                play.boxes[*b as usize].tail = true;
            }
            play.tails.push(Tail {
                head: run[0],
                square: run.iter().any(|b| play.boxes[*b as usize].chain),
                boxes: run,
            });
        }
        for card in &game.deck.cards {
            if let Some(s) = card.species.value {
                play.cards.push(CardRule {
                    species: s.0,
                    grass: card.grass,
                    water: card.water,
                    needs: card_needs(card),
                    copies: card.copies.value,
                    capture_rate: card.capture_rate.value,
                });
            }
        }
        play
    }

    fn spend(&self, work: u64) {
        self.work.set(self.work.get() + work);
    }

    /// Whether the search has spent its budget.
    fn spent(&self) -> bool {
        self.work.get() > BUDGET
    }

    fn blank(&self, game: &Game) -> Sheet {
        Sheet {
            filled: vec![0; self.boxes.len().div_ceil(64)],
            items: vec![false; game.items.len()],
            species: vec![false; game.species.len()],
            caught: vec![0; self.cards.len()],
            vp: 0,
            bonus: [0; 3],
        }
    }

    fn meets(&self, sheet: &Sheet, need: Need) -> bool {
        match need {
            Need::Item(i) => sheet.items[i as usize],
            Need::Species(s) => sheet.species[s as usize],
            Need::Box(b) => sheet.has(b),
            Need::Vp(n) => sheet.vp >= n,
            Need::Never => false,
        }
    }

    /// Whether a box is open: unfilled, the box before it filled, its requirements met.
    fn open(&self, sheet: &Sheet, b: u32) -> bool {
        self.boxes[b as usize].kept && !sheet.has(b) && self.reached(sheet, b)
    }

    /// Whether the box before it is filled and its requirements met.
    fn reached(&self, sheet: &Sheet, b: u32) -> bool {
        let rule = &self.boxes[b as usize];
        rule.previous.is_none_or(|p| sheet.has(p))
            && rule.needs.iter().all(|n| self.meets(sheet, *n))
    }

    /// The first unfilled box of a track.
    fn next(&self, sheet: &Sheet, t: usize) -> Option<u32> {
        self.tracks[t].iter().copied().find(|b| !sheet.has(*b))
    }

    fn first_open(&self, sheet: &Sheet, list: &[u32]) -> Option<u32> {
        self.spend(list.len() as u64);
        list.iter().copied().find(|b| self.open(sheet, *b))
    }

    fn meets_card(&self, sheet: &Sheet, card: &CardRule) -> bool {
        let items = self.items.habitats(|i| sheet.items[i]);
        let bonus = Bonuses {
            grass: sheet.bonus[0] + items.grass,
            water: sheet.bonus[1] + items.water,
            any: sheet.bonus[2] + items.any,
        };
        card.needs.iter().all(|n| self.meets(sheet, *n))
            && self.habitat_dice.can_meet(card.grass, card.water, bonus)
    }

    fn moves(&self, sheet: &Sheet) -> Vec<Move> {
        self.spend((self.face_tracks.len() + self.cards.len() + self.uses.len()) as u64);
        let mut moves = Vec::new();
        for &t in &self.face_tracks {
            if let Some(b) = self.next(sheet, t as usize)
                && self.boxes[b as usize].face.is_some()
                && self.open(sheet, b)
            {
                moves.push(Move::Face(b));
            }
        }
        for (i, list) in self.uses.iter().enumerate() {
            if self.usable[i] && sheet.items[i] && list.iter().any(|b| self.open(sheet, *b)) {
                moves.push(Move::Use(i as u32));
            }
        }
        if self.turn.iter().any(|b| self.open(sheet, *b)) {
            moves.push(Move::Turn);
        }
        let reach = self.max_capture + self.items.capture(|i| sheet.items[i]);
        for (c, card) in self.cards.iter().enumerate() {
            if sheet.caught[c] < card.copies && self.meets_card(sheet, card) {
                if !self.ball.is_empty() && !moves.iter().any(|m| matches!(m, Move::Throw)) {
                    moves.push(Move::Throw);
                }
                if card.capture_rate <= reach {
                    moves.push(Move::Catch(c as u32));
                }
            }
        }
        moves
    }

    /// The sheets a move can lead to.
    fn apply(&self, sheet: &Sheet, mv: Move, out: &mut Vec<Sheet>) {
        match mv {
            Move::Face(b) => self.cascade(sheet.clone(), vec![Step::Fill(b)], out),
            Move::Use(i) => {
                if let Some(b) = self.first_open(sheet, &self.uses[i as usize]) {
                    self.cascade(sheet.clone(), vec![Step::Fill(b)], out);
                }
            }
            Move::Turn => {
                if let Some(b) = self.first_open(sheet, &self.turn) {
                    self.cascade(sheet.clone(), vec![Step::Fill(b)], out);
                }
            }
            Move::Throw | Move::Catch(_) => {
                // Each throw fills a ball box first (a ball track left out: none kept).
                let mut thrown = Vec::new();
                match self.first_open(sheet, &self.ball) {
                    Some(b) => {
                        self.cascade(sheet.clone(), vec![Step::Fill(b)], &mut thrown);
                        if self.loose_ball {
                            thrown.push(sheet.clone());
                        }
                    }
                    None => thrown.push(sheet.clone()),
                }
                let Move::Catch(c) = mv else {
                    out.append(&mut thrown);
                    return;
                };
                let species = self.cards[c as usize].species;
                for mut sheet in thrown {
                    sheet.caught[c as usize] += 1;
                    self.cascade(sheet, vec![Step::Collect(species)], out);
                }
            }
        }
    }

    /// Plays a cascade out to every sheet it can end in (a bonus chain's choice branches).
    /// The branches wait on a stack of their own, not the call stack: how many choices a
    /// chain makes is up to the content.
    fn cascade(&self, sheet: Sheet, steps: Vec<Step>, out: &mut Vec<Sheet>) {
        let mut branches = vec![(sheet, steps)];
        while let Some((mut sheet, mut steps)) = branches.pop() {
            // One cascade's chains can fork into more sheets than the whole search may
            // play: the search gives up (its caller sees the budget spent) rather than
            // playing them all out first.
            if self.spent() {
                return;
            }
            if self.play_branch(&mut sheet, &mut steps, &mut branches) {
                out.push(sheet);
            }
        }
    }

    /// Plays one branch of a cascade until it ends (true), or forks at a bonus chain's choice
    /// (false): the forks, each with the steps left, go on `branches`, the first choice on top
    /// so that it is played first.
    fn play_branch(
        &self,
        sheet: &mut Sheet,
        steps: &mut Vec<Step>,
        branches: &mut Vec<(Sheet, Vec<Step>)>,
    ) -> bool {
        self.spend(sheet.filled.len() as u64 + 4);
        while let Some(step) = steps.pop() {
            self.spend(1);
            match step {
                Step::Fill(b) => self.fill(sheet, b, steps),
                Step::FillIfOpen(b) => {
                    if self.open(sheet, b) {
                        self.fill(sheet, b, steps);
                    }
                }
                Step::Gain(b, k) => match self.boxes[b as usize].gains[k as usize] {
                    Gain::Item(i) => {
                        if !sheet.items[i as usize] {
                            sheet.items[i as usize] = true;
                            self.event(sheet, &self.obtain[i as usize], steps);
                        }
                    }
                    Gain::Habitat(h) => {
                        sheet.bonus[match h {
                            Habitat::Grass => 0,
                            Habitat::Water => 1,
                            Habitat::Any => 2,
                        }] += 1
                    }
                    Gain::Species(s) => steps.push(Step::Collect(s)),
                },
                Step::Collect(s) => {
                    sheet.species[s as usize] = true;
                    steps.push(Step::Free);
                    self.event(sheet, &self.collect[s as usize], steps);
                }
                Step::Bonus(section) => {
                    let choices = self.chain(sheet, section);
                    let loose = (self.loose_chain
                        || self
                            .tails
                            .iter()
                            .any(|t| t.square && self.reached(sheet, t.head)))
                        as usize;
                    match choices.len() + loose {
                        0 => {}
                        1 if loose == 0 => steps.push(Step::Fill(choices[0])),
                        _ => {
                            let mut forks = Vec::with_capacity(choices.len() + loose);
                            if loose == 1 {
                                forks.push((sheet.clone(), steps.clone()));
                            }
                            for b in choices {
                                let mut steps = steps.clone();
                                steps.push(Step::Fill(b));
                                forks.push((sheet.clone(), steps));
                            }
                            branches.extend(forks.into_iter().rev());
                            return false;
                        }
                    }
                }
                Step::Free => {
                    if let Some(b) = self.first_open(sheet, &self.free) {
                        steps.push(Step::Free);
                        steps.push(Step::Fill(b));
                    }
                }
            }
        }
        true
    }

    /// Fills a box, and queues what follows: its gains, a bonus chain, free boxes.
    fn fill(&self, sheet: &mut Sheet, b: u32, steps: &mut Vec<Step>) {
        let rule = &self.boxes[b as usize];
        if rule.kept {
            sheet.filled[b as usize / 64] |= 1 << (b % 64);
        }
        sheet.vp += rule.vp;
        steps.push(Step::Free);
        if rule.bonus {
            steps.push(Step::Bonus(rule.section));
        }
        for k in (0..rule.gains.len()).rev() {
            steps.push(Step::Gain(b, k as u32));
        }
    }

    /// Queues the boxes an event fills: in each section, the first open box it names (in the
    /// variant, the first that is not a trigger box and the first trigger box), each filled in
    /// turn if the fills before it left it open.
    fn event(&self, sheet: &Sheet, boxes: &[u32], steps: &mut Vec<Step>) {
        self.spend(boxes.len() as u64);
        let mut served: Vec<(u32, bool)> = Vec::new();
        let mut open: Vec<u32> = Vec::new();
        for &b in boxes {
            if !self.open(sheet, b) {
                continue;
            }
            let rule = &self.boxes[b as usize];
            let slot = (rule.section, rule.trigger);
            if !served.contains(&slot) {
                served.push(slot);
                open.push(b);
            }
        }
        steps.extend(open.into_iter().rev().map(Step::FillIfOpen));
    }

    /// The boxes a bonus chain from a bonus box of `section` may fill.
    fn chain(&self, sheet: &Sheet, section: u32) -> Vec<u32> {
        self.spend(self.tracks.len() as u64);
        (0..self.tracks.len())
            .filter_map(|t| self.next(sheet, t))
            .filter(|b| {
                let rule = &self.boxes[*b as usize];
                rule.chain
                    && rule.used.is_none_or(|i| sheet.items[i as usize])
                    && self.open(sheet, *b)
                    && !(rule.bonus && rule.section == section)
            })
            .collect()
    }
}

/// The sheets played on so far, and the boxes filled in any of them.
struct Seen {
    sheets: HashSet<Sheet>,
    ever: Vec<u64>,
    /// The boxes to find filled, and how many are not yet.
    wanted: Vec<u64>,
    missing: usize,
    /// The tails whose first box no sheet has open yet.
    tails: Vec<usize>,
}

impl Seen {
    /// Keeps the new sheets of `sheets` to play on.
    fn add(&mut self, play: &Play, sheets: &mut Vec<Sheet>, stack: &mut Vec<(Sheet, Vec<Move>)>) {
        for sheet in sheets.drain(..) {
            // Hashed once: kept when new, skipped when played on already.
            let mut unseen = false;
            self.sheets.get_or_insert_with(&sheet, |sheet| {
                unseen = true;
                sheet.clone()
            });
            if !unseen {
                continue;
            }
            let mut filled = sheet.filled.clone();
            self.tails.retain(|t| {
                let tail = &play.tails[*t];
                let open = play.reached(&sheet, tail.head);
                for b in tail.boxes.iter().filter(|_| open) {
                    filled[*b as usize / 64] |= 1 << (b % 64);
                }
                !open
            });
            for (w, word) in filled.iter().enumerate() {
                let new = word & !self.ever[w];
                self.ever[w] |= new;
                self.missing -= (new & self.wanted[w]).count_ones() as usize;
            }
            // Faces first: what opens boxes before the events that fill them.
            let mut moves = play.moves(&sheet);
            moves.reverse();
            stack.push((sheet, moves));
        }
    }
}

/// What a report says of a box no order of play fills.
pub(crate) struct Explained {
    pub message: String,
    pub help: String,
    /// The label on the box.
    pub primary: String,
    /// The moments its event happens at (the boxes and cards making it), or its requirements.
    pub labels: Vec<(crate::world::Origin, String)>,
}

/// The moments marked in a report.
const SHOWN: usize = 3;

pub fn explain(game: &Game, b: BoxId) -> Explained {
    let guide = &game.guide;
    let def = guide.get(b);
    let list = |names: Vec<String>| names.join(" or ");
    let (event, items, species): (String, Vec<ItemId>, Vec<SpeciesId>) = match &def
        .terms
        .cause
        .value
    {
        Cause::Collect(s) if def.style != Style::Free => (
            format!(
                "collecting {}",
                list(
                    s.iter()
                        .map(|s| format!("`{}`", game.species(*s).id))
                        .collect()
                )
            ),
            Vec::new(),
            s.clone(),
        ),
        Cause::Obtain(i) if def.style != Style::Free => (
            format!(
                "obtaining {}",
                list(
                    i.iter()
                        .map(|i| format!("`{}`", game.item(*i).id))
                        .collect()
                )
            ),
            i.clone(),
            Vec::new(),
        ),
        _ => {
            return Explained {
                message: format!(
                    "`{}` is never filled: in no order of play is it open when something that fills it happens",
                    def.id
                ),
                help: "a bonus chain fills one box each time a bonus box is filled, and an event only the boxes open when it happens: give the box a cause that can come later, or open it earlier".to_string(),
                primary: "never filled in any game".to_string(),
                labels: Vec::new(),
            };
        }
    };
    // The moments: each box giving the event, each card making it.
    let mut moments: Vec<(crate::world::Origin, String)> = Vec::new();
    for giver in &guide.boxes {
        for r in &giver.terms.rewards {
            let gives = match r.value {
                Reward::Item(i) => items.contains(&i),
                Reward::Species(s) => species.contains(&s),
                _ => false,
            };
            if gives {
                moments.push((
                    r.origin,
                    format!(
                        "{event} happens here, when `{}` is filled: `{}` is not open then",
                        giver.id, def.id
                    ),
                ));
            }
        }
    }
    for card in &game.deck.cards {
        if card.species.value.is_some_and(|s| species.contains(&s)) {
            moments.push((
                card.origin,
                format!(
                    "catching card `{}` is {event}: `{}` is not open then",
                    card.id, def.id
                ),
            ));
        }
    }
    let more = moments.len().saturating_sub(SHOWN);
    moments.truncate(SHOWN);
    let more = match more {
        0 => String::new(),
        n => format!(" (and {n} more not marked)"),
    };
    Explained {
        message: format!(
            "`{}` waits for {event}, which never happens while it is open",
            def.id
        ),
        help: format!(
            "an event fills only the boxes open when it happens, in Field Guide order, and a box opened by its own cascade waits for the next one; {event} happens only at the moments marked{more}: open `{}` earlier (an earlier place in its track, fewer requirements), or make the event happen again later",
            def.id
        ),
        primary: format!("never open when {event} happens"),
        labels: moments,
    }
}
