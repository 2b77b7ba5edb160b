//! The `target` policy: plays to fill one box as early as it can.
//!
//! A designer asks "how soon can Area 3 open?". The answer needs a player who wants that box
//! above all, so the policy works out once per ruleset what the box depends on: the boxes
//! before it on its track, its requirements, what fills it (a face, a species collected, an
//! item obtained or used), and, through them, the items, species and cards that lead there.
//! It then plays as `expected` does with everything on that path worth far more than any
//! victory point, so re-rolls chase the faces that move along the path, encounters chase the
//! species it needs and throws are not given up on them. Once the box is filled, it plays as
//! `expected`.

use std::collections::VecDeque;
use std::sync::Arc;

use rand_pcg::Pcg64Mcg;

use super::game::{Game, Move, Player};
use super::policy::{Choice, Choices, Decision, Expected, Policy, Rerolls, View};
use super::rules::{Gain, Need, Rules};
use crate::vocabulary::Action;

/// What the path to the target is worth, on top of a box's own worth.
const ON_PATH: f64 = 60.0;
/// The target box itself.
const TARGET: f64 = 200.0;

/// The worth the path to a box adds to boxes, items, species and cards.
#[derive(Debug, Clone, Default)]
pub(crate) struct Aim {
    pub target: usize,
    pub boxes: Vec<f64>,
    pub items: Vec<f64>,
    pub species: Vec<f64>,
    /// Per species, the boxes on the path that collecting it fills: a species stays wanted
    /// after its first catch while one of them is open (an evolution line fills a box per
    /// catch).
    pub collecting: Vec<Vec<usize>>,
    /// Whether the path needs victory points: then every box's own worth counts as well.
    pub needs_vp: bool,
}

/// A step back along the path: what must happen first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Prerequisite {
    Box(usize),
    Item(usize),
    Species(usize),
}

impl Aim {
    /// Everything the box `target` depends on, found by walking its prerequisites back once.
    pub fn toward(rules: &Rules, target: usize) -> Aim {
        let mut aim = Aim {
            target,
            boxes: vec![0.0; rules.boxes.len()],
            items: vec![0.0; rules.items.len()],
            species: vec![0.0; rules.species.len()],
            collecting: vec![Vec::new(); rules.species.len()],
            needs_vp: false,
        };
        let givers = Givers::of(rules);
        let mut seen_box = vec![false; rules.boxes.len()];
        let mut seen_item = vec![false; rules.items.len()];
        let mut seen_species = vec![false; rules.species.len()];
        let mut queue = VecDeque::from([Prerequisite::Box(target)]);
        while let Some(step) = queue.pop_front() {
            match step {
                Prerequisite::Box(b) => {
                    if std::mem::replace(&mut seen_box[b], true) {
                        continue;
                    }
                    aim.boxes[b] = if b == target { TARGET } else { ON_PATH };
                    let rule = &rules.boxes[b];
                    queue.extend(rule.previous.map(|p| Prerequisite::Box(p as usize)));
                    for need in &rule.needs {
                        aim.need(*need, &mut queue);
                    }
                    if let Some(i) = rule.used_item {
                        queue.push_back(Prerequisite::Item(i as usize));
                    }
                    for cause in &givers.cause_of_box[b] {
                        if let Prerequisite::Species(s) = cause {
                            aim.collecting[*s].push(b);
                        }
                        queue.push_back(*cause);
                    }
                }
                Prerequisite::Item(i) => {
                    if std::mem::replace(&mut seen_item[i], true) {
                        continue;
                    }
                    aim.items[i] = ON_PATH;
                    queue.extend(givers.item[i].iter().map(|b| Prerequisite::Box(*b)));
                }
                Prerequisite::Species(s) => {
                    if std::mem::replace(&mut seen_species[s], true) {
                        continue;
                    }
                    aim.species[s] = ON_PATH;
                    queue.extend(givers.species[s].iter().map(|b| Prerequisite::Box(*b)));
                    for card in rules.cards.iter().filter(|c| c.species == s) {
                        if let Some(need) = card.area {
                            aim.need(need, &mut queue);
                        }
                        queue.extend(card.item.map(Prerequisite::Item));
                    }
                }
            }
        }
        aim
    }

    fn need(&mut self, need: Need, queue: &mut VecDeque<Prerequisite>) {
        match need {
            Need::Item(i) => queue.push_back(Prerequisite::Item(i as usize)),
            Need::Species(s) => queue.push_back(Prerequisite::Species(s as usize)),
            Need::Box(b) => queue.push_back(Prerequisite::Box(b as usize)),
            Need::Vp(_) => self.needs_vp = true,
            Need::Never => {}
        }
    }

    /// What the path adds to meeting a species for this player: its worth until it is
    /// collected and every box on the path its collecting fills is filled.
    #[inline]
    pub(crate) fn species_worth(&self, filled: &[bool], collected: &[bool], s: usize) -> f64 {
        let wanted = !collected[s] || self.collecting[s].iter().any(|b| !filled[*b]);
        if filled[self.target] || !wanted {
            0.0
        } else {
            self.species[s]
        }
    }

    /// What the path adds to filling a box for this player: nothing once the target is filled.
    #[inline]
    pub(crate) fn box_worth(&self, filled: &[bool], b: usize) -> f64 {
        if filled[self.target] {
            0.0
        } else {
            self.boxes[b]
        }
    }
}

/// Who gives what: the boxes giving each item and species, and what each box's filling
/// waits on (a species collected, an item obtained or used).
struct Givers {
    item: Vec<Vec<usize>>,
    species: Vec<Vec<usize>>,
    cause_of_box: Vec<Vec<Prerequisite>>,
}

impl Givers {
    fn of(rules: &Rules) -> Givers {
        let mut givers = Givers {
            item: vec![Vec::new(); rules.items.len()],
            species: vec![Vec::new(); rules.species.len()],
            cause_of_box: vec![Vec::new(); rules.boxes.len()],
        };
        for (b, rule) in rules.boxes.iter().enumerate() {
            for gain in &rule.gains {
                match gain {
                    Gain::Item(i) => givers.item[*i as usize].push(b),
                    Gain::Species(s) => givers.species[*s as usize].push(b),
                    Gain::Habitat(_) => {}
                }
            }
        }
        let mut by_event = |lists: &[Vec<usize>], cause: fn(usize) -> Prerequisite| {
            for (x, boxes) in lists.iter().enumerate() {
                for b in boxes {
                    givers.cause_of_box[*b].push(cause(x));
                }
            }
        };
        by_event(&rules.collect_boxes, Prerequisite::Species);
        by_event(&rules.obtain_boxes, Prerequisite::Item);
        by_event(&rules.use_boxes, Prerequisite::Item);
        givers
    }
}

/// Plays to fill one box, named by id, as early as it can.
#[derive(Clone)]
pub struct Target {
    box_id: String,
    expected: Expected,
    plan: Option<Arc<Plan>>,
    guard: Option<Arc<Guard>>,
    prepared_for: Option<u64>,
}

impl Target {
    pub fn new(box_id: &str) -> Target {
        Target {
            box_id: box_id.to_string(),
            expected: Expected::default(),
            plan: None,
            guard: None,
            prepared_for: None,
        }
    }

    pub fn box_id(&self) -> &str {
        &self.box_id
    }
}

impl Policy for Target {
    fn name(&self) -> &'static str {
        "target"
    }

    fn prepare(&mut self, rules: &Rules) {
        if self.prepared_for != Some(rules.compilation) {
            self.prepared_for = Some(rules.compilation);
            let target = rules.box_ids.iter().position(|id| *id == self.box_id);
            self.expected
                .aim(target.map(|b| Arc::new(Aim::toward(rules, b))));
            self.plan = target.and_then(|b| Plan::toward(rules, b)).map(Arc::new);
            // Without a plan (too many sheets), the aim plays, and a guard vetoes the moves
            // that surely lose the target.
            self.guard = match self.plan {
                Some(_) => None,
                None => target.map(|b| Arc::new(Guard::new(rules, b))),
            };
        }
        self.expected.prepare(rules);
    }

    fn begin_turn(&mut self) {
        self.expected.begin_turn();
    }

    fn choose(
        &mut self,
        view: &View,
        decision: Decision,
        choices: Choices,
        rng: &mut Pcg64Mcg,
    ) -> usize {
        let expected = self.expected.choose(view, decision, choices, rng);
        match (&self.plan, &self.guard) {
            (Some(plan), _) => plan
                .choose(view, decision, choices, expected)
                .unwrap_or(expected),
            (None, Some(guard)) => guard
                .choose(view, decision, choices, expected)
                .unwrap_or(expected),
            (None, None) => expected,
        }
    }

    fn choose_reroll(&mut self, view: &View, rerolls: Rerolls, rng: &mut Pcg64Mcg) -> Choice {
        if let Some(plan) = &self.plan
            && let Some(choice) = plan.reroll(view, rerolls)
        {
            return choice;
        }
        let expected = self.expected.choose_reroll(view, rerolls, rng);
        match &self.guard {
            Some(guard) => guard.reroll(view, rerolls, expected),
            None => expected,
        }
    }
}

/// Sheets a plan may explore, and moves it may play out, before it gives up (then the policy
/// plays by the aim alone).
const PLAN_SHEETS: usize = 50_000;
const PLAN_MOVES: usize = 400_000;
/// Ways one move's cascade may go (its bonus chains' choices) that a plan follows.
const BRANCHES: usize = 64;

/// A sheet as a plan knows it: the boxes filled (those it keeps) and the cards caught.
type Key = (Vec<u64>, Vec<u32>);

/// Every sheet a player can reach from the start, as the engine plays (its own cascades),
/// and how many moves each is from filling the target. Some boxes are filled only in the right
/// order: an item is obtained once and fills the boxes open at that moment, so a player who
/// obtains it before opening the box that waits for it never fills that box. The aim alone
/// wants everything on the path at once; the plan knows which moves lose the target for good,
/// and which bring it nearer. Like the checker, it drops the dice's luck and the number of
/// turns and balls: the policy re-rolls the faces that would force a harmful fill.
pub struct Plan {
    target: usize,
    /// The boxes a key holds: all but Turn Tracker and ball boxes nothing reads.
    kept: Vec<bool>,
    /// Whether turns and misses change a sheet (their boxes are kept).
    turns: bool,
    throws: bool,
    copies: Vec<u32>,
    /// Which faces the dice have.
    faces: [bool; 6],
    /// Dice that can show grass, water, either.
    habitat_dice: (u32, u32, u32),
    /// Per sheet reached, the moves to the target (`None`: it can no longer be filled).
    dist: std::collections::HashMap<Key, Option<u32>>,
}

/// Makes a cascade's choices from a script, noting how many there were to choose from: its
/// runs go every way the cascade can.
#[derive(Default)]
struct Script {
    path: Vec<(usize, usize)>,
    at: usize,
}

impl Policy for Script {
    fn name(&self) -> &'static str {
        "script"
    }

    fn choose(&mut self, _: &View, _: Decision, choices: Choices, _: &mut Pcg64Mcg) -> usize {
        if self.at == self.path.len() {
            self.path.push((0, choices.len()));
        }
        self.at += 1;
        self.path[self.at - 1].0
    }
}

impl Plan {
    pub fn toward(rules: &Rules, target: usize) -> Option<Plan> {
        let mut read = vec![false; rules.boxes.len()];
        let mut reads_vp = false;
        let mut mark = |need: &Need| match need {
            Need::Box(b) => read[*b as usize] = true,
            Need::Vp(_) => reads_vp = true,
            _ => {}
        };
        rules
            .boxes
            .iter()
            .flat_map(|b| b.needs.iter())
            .for_each(&mut mark);
        rules
            .cards
            .iter()
            .filter_map(|c| c.area.as_ref())
            .for_each(&mut mark);
        let mut counts = vec![false; rules.boxes.len()];
        for &b in rules.turn_boxes.iter().chain(&rules.ball_boxes) {
            counts[b] = true;
        }
        let counter = |b: usize| {
            let rule = &rules.boxes[b];
            counts[b]
                && rule.gains.is_empty()
                && rule.needs.is_empty()
                && !matches!(
                    rule.style,
                    crate::vocabulary::Style::Bonus | crate::vocabulary::Style::Free
                )
                && (rule.vp == 0 || !reads_vp)
                && !read[b]
        };
        let mut kept = vec![true; rules.boxes.len()];
        for track in &rules.tracks {
            if track.boxes.iter().all(|b| counter(*b)) {
                track.boxes.iter().for_each(|b| kept[*b] = false);
            }
        }
        let mut faces = [false; 6];
        let (mut g, mut w, mut e) = (0, 0, 0);
        for die in &rules.expedition {
            die.iter().for_each(|f| faces[*f as usize] = true);
            let has = |a: Action| die.contains(&a);
            g += has(Action::Grass) as u32;
            w += has(Action::Water) as u32;
            e += (has(Action::Grass) || has(Action::Water)) as u32;
        }
        let mut plan = Plan {
            target,
            turns: rules.turn_boxes.iter().any(|b| kept[*b]),
            throws: rules.ball_boxes.iter().any(|b| kept[*b]),
            kept,
            copies: (0..rules.cards.len())
                .map(|c| rules.deck.iter().filter(|x| **x == c).count() as u32)
                .collect(),
            faces,
            habitat_dice: (g, w, e),
            dist: Default::default(),
        };
        let mut game = Game::new(rules, 1, 0);
        let blank = game.players[0].clone();
        let mut sheets: Vec<(Player, Vec<u32>)> = Vec::new();
        let mut index: std::collections::HashMap<Key, usize> = Default::default();
        let mut edges: Vec<Vec<u32>> = Vec::new();
        let mut moves = 0;
        let caught = vec![0; rules.cards.len()];
        // The game begins with the first turn's cascade: free boxes open at the start fill.
        for player in plan.outcomes(&mut game, &blank, Move::Turn) {
            if let std::collections::hash_map::Entry::Vacant(e) =
                index.entry(plan.key(&player, &caught))
            {
                e.insert(sheets.len());
                sheets.push((player, caught.clone()));
                edges.push(Vec::new());
            }
        }
        let mut at = 0;
        while at < sheets.len() {
            let (player, caught) = sheets[at].clone();
            for mv in plan.moves(rules, &player, &caught) {
                moves += 1;
                let mut caught = caught.clone();
                if let Move::Catch(c) = mv {
                    caught[c] += 1;
                }
                for next in plan.outcomes(&mut game, &player, mv) {
                    let key = plan.key(&next, &caught);
                    let j = match index.get(&key) {
                        Some(j) => *j,
                        None => {
                            index.insert(key, sheets.len());
                            sheets.push((next, caught.clone()));
                            edges.push(Vec::new());
                            sheets.len() - 1
                        }
                    };
                    edges[j].push(at as u32);
                }
            }
            if sheets.len() > PLAN_SHEETS || moves > PLAN_MOVES {
                return None;
            }
            at += 1;
        }
        // Moves to the target, back from the sheets that have it filled.
        let mut dist: Vec<Option<u32>> = vec![None; sheets.len()];
        let mut queue: VecDeque<usize> = VecDeque::new();
        for (i, (player, _)) in sheets.iter().enumerate() {
            if player.filled[target] {
                dist[i] = Some(0);
                queue.push_back(i);
            }
        }
        if queue.is_empty() {
            return None;
        }
        while let Some(i) = queue.pop_front() {
            let d = dist[i].expect("queued with a distance") + 1;
            for &from in &edges[i] {
                if dist[from as usize].is_none() {
                    dist[from as usize] = Some(d);
                    queue.push_back(from as usize);
                }
            }
        }
        plan.dist = index.into_iter().map(|(key, i)| (key, dist[i])).collect();
        Some(plan)
    }

    fn key(&self, player: &Player, caught: &[u32]) -> Key {
        let mut bits = vec![0u64; self.kept.len().div_ceil(64)];
        for (b, on) in player.filled.iter().enumerate() {
            if *on && self.kept[b] {
                bits[b / 64] |= 1 << (b % 64);
            }
        }
        (bits, caught.to_vec())
    }

    /// Whether some roll meets a card's criteria.
    fn can_meet(&self, rules: &Rules, player: &Player, c: usize) -> bool {
        let (g, w, e) = self.habitat_dice;
        (0..=g.min(e)).any(|grass| {
            let water = w.min(e - grass);
            grass + water > 0 && player.meets_card(rules, c, grass, water)
        })
    }

    /// The moves a player can make on a sheet, whenever the dice allow.
    fn moves(&self, rules: &Rules, player: &Player, caught: &[u32]) -> Vec<Move> {
        let mut moves = Vec::new();
        for face in Action::ALL {
            if !self.faces[face as usize] {
                continue;
            }
            for &t in &rules.face_tracks[face as usize] {
                if let Some(b) = player.open_next(rules, t)
                    && rules.boxes[b].filled_by(face)
                    && !moves.contains(&Move::Face(b))
                {
                    moves.push(Move::Face(b));
                }
            }
        }
        if self.faces[Action::Trainer as usize] {
            for &i in &rules.usable_items {
                if player.items[i]
                    && rules.use_boxes[i]
                        .iter()
                        .any(|b| player.can_fill(rules, *b))
                {
                    moves.push(Move::Use(i));
                }
            }
        }
        if self.turns && rules.turn_boxes.iter().any(|b| player.can_fill(rules, *b)) {
            moves.push(Move::Turn);
        }
        let mut throw = false;
        // The highest capture total with every capture bonus the player holds (a usable one
        // when the dice can show a Trainer face: an upper bound).
        let reach = rules.capture_reach(|i| player.items[i]);
        for (c, (caught, copies)) in caught.iter().zip(&self.copies).enumerate() {
            if caught < copies && self.can_meet(rules, player, c) {
                throw = true;
                if rules.cards[c].capture_rate <= reach {
                    moves.push(Move::Catch(c));
                }
            }
        }
        if throw && self.throws {
            moves.push(Move::Throw);
        }
        moves
    }

    fn outcomes(&self, game: &mut Game, player: &Player, mv: Move) -> Vec<Player> {
        outcomes(game, player, mv)
    }
}

/// Every sheet a move can end in, one per way its cascade's choices can go.
fn outcomes(game: &mut Game, player: &Player, mv: Move) -> Vec<Player> {
    let mut script = Script::default();
    let mut out = Vec::new();
    loop {
        script.at = 0;
        game.play_move(player, mv, &mut script);
        out.push(game.players[0].clone());
        script.path.truncate(script.at);
        loop {
            match script.path.pop() {
                None => return out,
                Some((c, n)) if c + 1 < n => {
                    script.path.push((c + 1, n));
                    break;
                }
                Some(_) => {}
            }
        }
        if out.len() >= BRANCHES {
            return out;
        }
    }
}

/// The cards caught so far, from what the player sees: a card neither in the deck, nor
/// discarded, nor drawn, nor thrown at has been caught.
fn caught(copies: &[u32], view: &View) -> Vec<u32> {
    let mut left = vec![0u32; copies.len()];
    let mut deck = Vec::new();
    view.deck.sorted_into(&mut deck);
    for c in deck
        .iter()
        .chain(view.discard)
        .chain(view.drawn)
        .chain(view.target.iter())
    {
        left[*c] += 1;
    }
    copies
        .iter()
        .zip(left)
        .map(|(copies, left)| copies.saturating_sub(left))
        .collect()
}

impl Plan {
    fn caught(&self, view: &View) -> Vec<u32> {
        caught(&self.copies, view)
    }

    /// Moves to the target from a sheet: `None` when the plan does not know the sheet,
    /// `Some(None)` when the target can no longer be filled from it.
    fn from(&self, player: &Player, caught: &[u32]) -> Option<Option<u32>> {
        self.dist.get(&self.key(player, caught)).copied()
    }

    /// The best a move can lead to: the sheet and its moves to the target.
    fn after(
        &self,
        game: &mut Game,
        player: &Player,
        caught: &[u32],
        mv: Move,
    ) -> Option<(u32, Player)> {
        let mut caught = caught.to_vec();
        if let Move::Catch(c) = mv {
            caught[c] += 1;
        }
        self.outcomes(game, player, mv)
            .into_iter()
            .filter_map(|next| Some((self.from(&next, &caught)??, next)))
            .min_by_key(|(d, _)| *d)
    }
}

impl Plan {
    /// The choice that brings the target nearest (`expected`'s among equals); for a choice
    /// that may be declined, only one that brings it nearer than now. `None`: the plan cannot
    /// tell (a sheet it does not know, the target filled or lost).
    fn choose(
        &self,
        view: &View,
        decision: Decision,
        choices: Choices,
        expected: usize,
    ) -> Option<usize> {
        if view.player.filled[self.target] || matches!(decision, Decision::Reroll | Decision::Repel)
        {
            return None;
        }
        let caught = self.caught(view);
        // Inside a cascade the sheet is between moves: a bonus choice is judged by where it leads.
        let now = match decision {
            Decision::Bonus => None,
            _ => Some(self.from(view.player, &caught)??),
        };
        let mut game = Game::new(view.rules, 1, 0);
        let values: Vec<Option<u32>> = choices
            .iter()
            .map(|choice| {
                let mv = match choice {
                    Choice::Track(t) => Move::Face(view.player.next_box(t as usize)?),
                    Choice::Box(b) => Move::Face(b as usize),
                    Choice::Use(i) => Move::Use(i as usize),
                    Choice::Card(i) => Move::Catch(*view.drawn.get(i as usize)?),
                    Choice::Throw | Choice::Lock(..) => Move::Catch(view.target?),
                    Choice::Stop => return now,
                    Choice::Reroll(_) => return None,
                };
                self.after(&mut game, view.player, &caught, mv)
                    .map(|(d, _)| d)
            })
            .collect();
        let best = values.iter().flatten().min().copied()?;
        if values.get(expected).copied().flatten() == Some(best) {
            return Some(expected);
        }
        match now {
            Some(now) if best >= now => choices.position(Choice::Stop),
            _ => values.iter().position(|v| *v == Some(best)),
        }
    }

    /// Re-rolls the dice whose faces would force a fill that loses the target or takes it
    /// further, and, with a roll to spare after, those of no use to it: the faces that bring
    /// it nearer are kept (the plan's choices made face by face, as the engine resolves them).
    fn reroll(&self, view: &View, rerolls: Rerolls) -> Option<Choice> {
        if view.player.filled[self.target] {
            return None;
        }
        let rules = view.rules;
        let caught = self.caught(view);
        let mut d = self.from(view.player, &caught)??;
        let mut game = Game::new(rules, 1, 0);
        let mut player = view.player.clone();
        let (mut useful, mut harmful) = (0u32, 0u32);
        for face in Action::ALL {
            for (i, _) in view.faces.iter().enumerate().filter(|(_, f)| **f == face) {
                let options: Vec<usize> = rules.face_tracks[face as usize]
                    .iter()
                    .filter_map(|t| player.open_next(rules, *t))
                    .filter(|b| rules.boxes[*b].filled_by(face))
                    .collect();
                if options.is_empty() {
                    break;
                }
                let best = options
                    .iter()
                    .filter_map(|b| self.after(&mut game, &player, &caught, Move::Face(*b)))
                    .min_by_key(|(v, _)| *v);
                let Some((v, next)) = best else {
                    harmful |= 1 << i;
                    break;
                };
                if v < d {
                    useful |= 1 << i;
                } else if v > d {
                    harmful |= 1 << i;
                }
                d = v;
                player = next;
            }
        }
        // Habitat faces help when a catch brings the target nearer, Trainer faces a use.
        let mut catch = false;
        for c in 0..rules.cards.len() {
            if !catch && caught[c] < self.copies[c] && self.can_meet(rules, &player, c) {
                catch = self
                    .after(&mut game, &player, &caught, Move::Catch(c))
                    .is_some_and(|(v, _)| v < d);
            }
        }
        let mut uses = false;
        for &i in &rules.usable_items {
            if !uses && player.items[i] {
                uses = self
                    .after(&mut game, &player, &caught, Move::Use(i))
                    .is_some_and(|(v, _)| v < d);
            }
        }
        let mut hazards = 0u32;
        for (i, face) in view.faces.iter().enumerate() {
            match face {
                Action::Grass | Action::Water if catch => useful |= 1 << i,
                Action::Trainer if uses => useful |= 1 << i,
                Action::Hazard => hazards |= 1 << i,
                _ => {}
            }
        }
        let spare = if view.rolls_left >= 2 {
            !useful & !harmful
        } else {
            0
        };
        let mask = (harmful | spare) & !hazards & rerolls.free;
        Some(if mask == 0 {
            Choice::Stop
        } else {
            Choice::Reroll(mask)
        })
    }
}

/// An event a box waits for.
#[derive(Debug, Clone, Copy)]
enum Wait {
    Item(usize),
    Species(usize),
}

/// What can still happen from a sheet, at best: every box fillable once what it needs can
/// come, in no order, except that an item held is never obtained again and a card caught as
/// often as it has copies is caught no more. It is sound for one thing: a target it cannot
/// reach from a sheet is lost for good (obtaining an item before the box waiting for it has
/// opened, for one). For rulesets too large to plan for.
pub(crate) struct Guard {
    target: usize,
    copies: Vec<u32>,
    faces: [bool; 6],
    /// Per box, the events that fill it (empty for other causes).
    waits: Vec<Vec<Wait>>,
}

impl Guard {
    pub fn new(rules: &Rules, target: usize) -> Guard {
        let mut waits = vec![Vec::new(); rules.boxes.len()];
        for (s, boxes) in rules.collect_boxes.iter().enumerate() {
            boxes.iter().for_each(|b| waits[*b].push(Wait::Species(s)));
        }
        for (i, boxes) in rules.obtain_boxes.iter().enumerate() {
            boxes.iter().for_each(|b| waits[*b].push(Wait::Item(i)));
        }
        let mut faces = [false; 6];
        for die in &rules.expedition {
            die.iter().for_each(|f| faces[*f as usize] = true);
        }
        Guard {
            target,
            copies: (0..rules.cards.len())
                .map(|c| rules.deck.iter().filter(|x| **x == c).count() as u32)
                .collect(),
            faces,
            waits,
        }
    }

    /// Whether the target can still be filled from the sheet, at best.
    fn alive(&self, rules: &Rules, player: &Player, caught: &[u32]) -> bool {
        let mut filled = player.filled.clone();
        let mut items = player.items.clone();
        let mut species = player.species.clone();
        // Events that can still happen.
        let mut obtain = vec![false; items.len()];
        let mut collect = vec![false; species.len()];
        let mut vp = player.vp;
        let mut changed = true;
        while changed && !filled[self.target] {
            changed = false;
            let reach = rules.capture_reach(|i| items[i]);
            for (c, card) in rules.cards.iter().enumerate() {
                let met = card
                    .area
                    .is_none_or(|n| Self::meets(n, &filled, &items, &species, vp))
                    && card.item.is_none_or(|i| items[i]);
                if met
                    && caught[c] < self.copies[c]
                    && card.capture_rate <= reach
                    && !collect[card.species]
                {
                    collect[card.species] = true;
                    species[card.species] = true;
                    changed = true;
                }
            }
            for (b, rule) in rules.boxes.iter().enumerate() {
                if filled[b]
                    || rule.previous.is_some_and(|p| !filled[p as usize])
                    || !rule
                        .needs
                        .iter()
                        .all(|n| Self::meets(*n, &filled, &items, &species, vp))
                {
                    continue;
                }
                let can = if !self.waits[b].is_empty() {
                    self.waits[b].iter().any(|w| match w {
                        Wait::Item(i) => obtain[*i],
                        Wait::Species(s) => collect[*s],
                    })
                } else if let Some(face) = rule.face {
                    self.faces[face as usize]
                } else if let Some(i) = rule.used_item {
                    items[i as usize] && self.faces[Action::Trainer as usize]
                } else {
                    // A turn, a ball, a free box, a bonus chain: at best, they come.
                    true
                };
                if !can {
                    continue;
                }
                filled[b] = true;
                vp += rule.vp;
                changed = true;
                for gain in &rule.gains {
                    match *gain {
                        Gain::Item(i) if !player.items[i as usize] => {
                            items[i as usize] = true;
                            obtain[i as usize] = true;
                        }
                        Gain::Species(s) => {
                            species[s as usize] = true;
                            collect[s as usize] = true;
                        }
                        _ => {}
                    }
                }
            }
        }
        filled[self.target]
    }

    fn meets(need: Need, filled: &[bool], items: &[bool], species: &[bool], vp: u32) -> bool {
        match need {
            Need::Item(i) => items[i as usize],
            Need::Species(s) => species[s as usize],
            Need::Box(b) => filled[b as usize],
            Need::Vp(n) => vp >= n,
            Need::Never => false,
        }
    }

    /// Whether some way a move's cascade can go leaves the target alive.
    fn alive_after(&self, game: &mut Game, view: &View, caught: &[u32], mv: Move) -> bool {
        let mut caught = caught.to_vec();
        if let Move::Catch(c) = mv {
            caught[c] += 1;
        }
        outcomes(game, view.player, mv)
            .iter()
            .any(|next| self.alive(view.rules, next, &caught))
    }

    /// `expected`'s choice unless it surely loses the target, else the first that does not.
    fn choose(
        &self,
        view: &View,
        decision: Decision,
        choices: Choices,
        expected: usize,
    ) -> Option<usize> {
        if view.player.filled[self.target] || matches!(decision, Decision::Reroll | Decision::Repel)
        {
            return None;
        }
        let caught = caught(&self.copies, view);
        let mut game = Game::new(view.rules, 1, 0);
        let mut alive = |choice: Choice| -> bool {
            let mv = match choice {
                Choice::Track(t) => match view.player.next_box(t as usize) {
                    Some(b) => Move::Face(b),
                    None => return true,
                },
                Choice::Box(b) => Move::Face(b as usize),
                Choice::Use(i) => Move::Use(i as usize),
                Choice::Card(i) => match view.drawn.get(i as usize) {
                    Some(c) => Move::Catch(*c),
                    None => return true,
                },
                Choice::Throw | Choice::Lock(..) => match view.target {
                    Some(c) => Move::Catch(c),
                    None => return true,
                },
                _ => return true,
            };
            self.alive_after(&mut game, view, &caught, mv)
        };
        if alive(choices.get(expected.min(choices.len() - 1))) {
            return None;
        }
        choices.iter().position(alive)
    }

    /// `expected`'s re-roll, and the dice whose faces would surely lose the target.
    fn reroll(&self, view: &View, rerolls: Rerolls, expected: Choice) -> Choice {
        if view.player.filled[self.target] {
            return expected;
        }
        let rules = view.rules;
        let caught = caught(&self.copies, view);
        let mut game = Game::new(rules, 1, 0);
        let mut player = view.player.clone();
        let mut harmful = 0u32;
        for face in Action::ALL {
            for (i, _) in view.faces.iter().enumerate().filter(|(_, f)| **f == face) {
                let options: Vec<usize> = rules.face_tracks[face as usize]
                    .iter()
                    .filter_map(|t| player.open_next(rules, *t))
                    .filter(|b| rules.boxes[*b].filled_by(face))
                    .collect();
                if options.is_empty() {
                    break;
                }
                let kept = options.iter().find_map(|b| {
                    outcomes(&mut game, &player, Move::Face(*b))
                        .into_iter()
                        .find(|next| self.alive(rules, next, &caught))
                });
                match kept {
                    Some(next) => player = next,
                    None => {
                        harmful |= 1 << i;
                        break;
                    }
                }
            }
        }
        let mask = match expected {
            Choice::Reroll(mask) => mask,
            _ => 0,
        } | (harmful & rerolls.free);
        if mask == 0 {
            Choice::Stop
        } else {
            Choice::Reroll(mask)
        }
    }
}
