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

use super::policy::{Choice, Choices, Decision, Expected, Policy, Rerolls, View};
use super::rules::{Gain, Need, Rules};

/// What the path to the target is worth, on top of a box's own worth.
const ON_PATH: f64 = 60.0;
/// The target box itself.
const TARGET: f64 = 200.0;

/// The worth the path to a box adds to boxes, items, species and cards.
#[derive(Debug, Clone, Default)]
pub struct Aim {
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
    pub fn species_worth(&self, filled: &[bool], collected: &[bool], s: usize) -> f64 {
        let wanted = !collected[s] || self.collecting[s].iter().any(|b| !filled[*b]);
        if filled[self.target] || !wanted {
            0.0
        } else {
            self.species[s]
        }
    }

    /// What the path adds to filling a box for this player: nothing once the target is filled.
    #[inline]
    pub fn box_worth(&self, filled: &[bool], b: usize) -> f64 {
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
    prepared_for: Option<u64>,
}

impl Target {
    pub fn new(box_id: &str) -> Target {
        Target {
            box_id: box_id.to_string(),
            expected: Expected::default(),
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
            let aim = rules
                .box_ids
                .iter()
                .position(|id| *id == self.box_id)
                .map(|b| Arc::new(Aim::toward(rules, b)));
            self.expected.aim(aim);
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
        self.expected.choose(view, decision, choices, rng)
    }

    fn choose_reroll(&mut self, view: &View, rerolls: Rerolls, rng: &mut Pcg64Mcg) -> Choice {
        self.expected.choose_reroll(view, rerolls, rng)
    }
}
