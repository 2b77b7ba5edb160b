//! The step API: a game played one decision at a time, by people and bots alike.
//!
//! The engine plays a whole game in one call and asks a [`Policy`] at every decision. A person
//! cannot answer from inside that call, so a [`Match`] keeps the game as its seed, its seats
//! and the choices taken so far, and plays it again from the start whenever it needs the
//! present: every choice taken is given back in order, and the first decision past them
//! pauses the game ([`Policy::pause`]), which keeps that moment ([`Moment`]). So a person and
//! a bot play by one implementation of the rules, the engine's, and a log of choices is the
//! whole game: it replays to the same table, undo is a shorter log, and a game in progress
//! survives anything that keeps its log. A game is some thousands of decisions at most and
//! the engine plays a million turns a second, so a replay costs well under a millisecond.
//!
//! The dice and the deck draw on the game's own random numbers, and a bot here draws on its
//! own (seeded by the game's seed and the decision's place in the log): what a bot decides
//! never moves a die, so a log replays the same without the bot that wrote it.

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use crate::game::{Event, Game, Player};
use crate::moment::Moment;
use crate::policy::{self, Builtin, Choice, Choices, Decision, Policy, Rerolls, View};
use crate::rules::Rules;
use crate::search::mix;

/// The largest seed a match takes: JavaScript reads every whole number up to it exactly, so a
/// log written here replays the same in a browser.
pub(crate) const MAX_SEED: u64 = (1 << 53) - 1;

/// Who plays a seat: a person, or a bot of a built-in policy (`policy::by_name`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Seat {
    pub bot: Option<String>,
}

/// A choice taken, by which seat, and whether a bot took it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Taken {
    pub seat: usize,
    pub choice: Choice,
    pub by_bot: bool,
}

/// Where the match stands.
#[derive(Debug, Clone)]
pub enum Now {
    /// A seat must decide.
    Deciding(Box<Moment>),
    /// Every player is out.
    Over {
        scores: Vec<u32>,
        /// The winning seats (ties share).
        winners: Vec<usize>,
        players: Vec<Player>,
        deck: usize,
        discard: Vec<usize>,
    },
}

/// Why a match could not be set up or a log replayed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchError(pub String);

impl std::fmt::Display for MatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A game in progress, from its rules, seats and seed.
pub struct Match {
    rules: Rules,
    seats: Vec<Seat>,
    seed: u64,
    bots: Vec<Option<Builtin>>,
    taken: Vec<Taken>,
    now: Now,
    events: Vec<Event>,
}

impl Match {
    /// A new game: one player per seat, in seat order, the dice and deck from `seed`.
    pub fn new(rules: Rules, seats: Vec<Seat>, seed: u64) -> Result<Match, MatchError> {
        Match::replay(rules, seats, seed, &[])
    }

    /// The game these choices make, each checked against the decision it answers.
    pub fn replay(
        rules: Rules,
        seats: Vec<Seat>,
        seed: u64,
        taken: &[Taken],
    ) -> Result<Match, MatchError> {
        let (fewest, most) = rules.players;
        let players = seats.len() as u32;
        if !(fewest..=most).contains(&players) {
            return Err(MatchError(format!(
                "{} is played by {fewest} to {most} players, not {players}",
                rules.name
            )));
        }
        if seed > MAX_SEED {
            return Err(MatchError(format!(
                "the seed must be a whole number from 0 to {MAX_SEED}, not {seed}"
            )));
        }
        let bots = seats
            .iter()
            .map(|seat| match &seat.bot {
                None => Ok(None),
                Some(name) => policy::by_name(name).map(Some).ok_or_else(|| {
                    MatchError(format!(
                        "unknown bot `{name}`; known: {}, target:BOX",
                        policy::NAMES.join(", ")
                    ))
                }),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut game = Match {
            rules,
            seats,
            seed,
            bots,
            taken: taken.to_vec(),
            now: Now::Over {
                scores: Vec::new(),
                winners: Vec::new(),
                players: Vec::new(),
                deck: 0,
                discard: Vec::new(),
            },
            events: Vec::new(),
        };
        game.play(false)?;
        Ok(game)
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn seats(&self) -> &[Seat] {
        &self.seats
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn now(&self) -> &Now {
        &self.now
    }

    /// The game's events so far: what a log of play shows.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The choices taken so far, in order.
    pub fn taken(&self) -> &[Taken] {
        &self.taken
    }

    /// The decision waiting, if the game is not over.
    pub fn moment(&self) -> Option<&Moment> {
        match &self.now {
            Now::Deciding(moment) => Some(moment),
            Now::Over { .. } => None,
        }
    }

    /// Whether a bot decides next.
    pub fn bot_to_move(&self) -> bool {
        self.moment()
            .is_some_and(|moment| self.bots[moment.seat].is_some())
    }

    /// Takes `choice` at the waiting decision, for whoever decides it; a choice the decision
    /// does not offer is refused, with the reason in the rules' words.
    pub fn apply(&mut self, choice: Choice) -> Result<(), String> {
        let Some(moment) = self.moment() else {
            return Err("the game is over".to_string());
        };
        if let Some(bot) = &self.seats[moment.seat].bot {
            return Err(format!(
                "seat {} is played by a bot ({bot}), which decides here",
                moment.seat + 1
            ));
        }
        if !moment.allows(choice) {
            return Err(crate::explain::refusal(&self.rules, moment, choice));
        }
        self.taken.push(Taken {
            seat: moment.seat,
            choice,
            by_bot: false,
        });
        self.play(false).map(|_| ()).map_err(|e| e.0)
    }

    /// Lets the bot at the seat deciding take its choice; `None` when no bot decides next.
    pub fn play_bot(&mut self) -> Option<Choice> {
        if !self.bot_to_move() {
            return None;
        }
        let choice = self.play(true).ok().flatten()?;
        Some(choice)
    }

    /// What the bot `bot` would choose at the decision waiting, were the seat deciding its: a
    /// person's hint. `None` once the game is over.
    pub fn hint(&self, bot: &str) -> Result<Option<Choice>, MatchError> {
        let Some(moment) = self.moment() else {
            return Ok(None);
        };
        let mut seats = self.seats.clone();
        seats[moment.seat].bot = Some(bot.to_string());
        let mut game = Match::replay(self.rules.clone(), seats, self.seed, &self.taken)?;
        Ok(game.play_bot())
    }

    /// Takes back the last choice a person took, and every bot's choice after it, unless dice
    /// were rolled, cards drawn or a ball thrown since: undo stops at the last reveal, so that
    /// no one sees a roll or a card and chooses again. Returns how many choices were undone:
    /// none when nothing can be taken back (nor when no person has chosen yet: a bot would
    /// only choose again what it chose).
    pub fn undo(&mut self) -> usize {
        let Some(keep) = self.undo_point() else {
            return 0;
        };
        let undone = self.taken.len() - keep;
        self.back_to(keep);
        undone
    }

    /// Whether [`Match::undo`] would take anything back.
    pub fn undoable(&self) -> bool {
        self.undo_point().is_some()
    }

    /// How many choices an undo keeps: all but the last person's and those after it, when no
    /// roll, draw or throw came of them.
    fn undo_point(&self) -> Option<usize> {
        let keep = self.taken.iter().rposition(|t| !t.by_bot)?;
        // The events before the decision that choice answered.
        let before = Match::replay(
            self.rules.clone(),
            self.seats.clone(),
            self.seed,
            &self.taken[..keep],
        )
        .ok()?
        .events
        .len();
        let since = self.events.get(before..).unwrap_or_default();
        (!since.iter().any(Event::reveals)).then_some(keep)
    }

    /// Keeps the first `count` choices and plays to the decision after them: a log's
    /// replay, stepped forward and back.
    pub fn back_to(&mut self, count: usize) {
        if count < self.taken.len() {
            self.taken.truncate(count);
            // The choices kept replayed before: they replay again.
            let _ = self.play(false);
        }
    }

    /// Plays the game from its seed through the choices taken, to the next decision or the
    /// end; with `bot_answers`, the bot at the first decision past them answers it (its
    /// choice is taken and returned) and the game goes on to the decision after.
    fn play(&mut self, bot_answers: bool) -> Result<Option<Choice>, MatchError> {
        // A log that does not fit the game is cut at the first choice that does not, and the
        // game is played again to there (once: the rest then fits); the refusal says why.
        let mut bot_answers = bot_answers;
        let mut refusal = None;
        loop {
            let rules = &self.rules;
            let mut game = Game::new(rules, self.seats.len(), self.seed);
            game.log = Some(Vec::new());
            let mut script = Script {
                taken: &self.taken,
                next: 0,
                bots: &mut self.bots,
                seed: self.seed,
                bot_answers,
                answered: None,
                diverged: None,
            };
            game.play(std::slice::from_mut(&mut script));
            let (diverged, answered, replayed) = (script.diverged, script.answered, script.next);
            if refusal.is_none() {
                if let Some(at) = diverged {
                    let Taken { seat, choice, .. } = self.taken[at];
                    self.taken.truncate(at);
                    refusal = Some(MatchError(format!(
                        "choice {} ({choice:?} by seat {}) is not one the game offered there: \
                         the log was played with other rules, seats or seed",
                        at + 1,
                        seat.saturating_add(1)
                    )));
                    bot_answers = false;
                    continue;
                }
                if game.paused.is_none() && replayed < self.taken.len() {
                    self.taken.truncate(replayed);
                    refusal = Some(MatchError(format!(
                        "choice {} comes after the end of the game: the log was played with \
                         other rules, seats or seed",
                        replayed + 1
                    )));
                    bot_answers = false;
                    continue;
                }
            }
            if let Some(taken) = answered {
                self.taken.push(taken);
            }
            let mut events = game.log.take().unwrap_or_default();
            self.now = match game.paused.take() {
                Some(moment) => {
                    events.truncate(moment.events);
                    Now::Deciding(moment)
                }
                None => Now::Over {
                    scores: game.players.iter().map(|p| p.vp).collect(),
                    winners: match events.last() {
                        Some(Event::End { winners, .. }) => winners.clone(),
                        _ => Vec::new(),
                    },
                    players: game.players.clone(),
                    deck: game.deck_len(),
                    discard: game.discard().to_vec(),
                },
            };
            self.events = events;
            return match refusal {
                Some(refusal) => Err(refusal),
                None => Ok(answered.map(|t| t.choice)),
            };
        }
    }
}

/// The policy a match replays with: the choices taken, in order; then, if asked, one bot's
/// answer; then a pause.
struct Script<'a> {
    taken: &'a [Taken],
    next: usize,
    bots: &'a mut [Option<Builtin>],
    seed: u64,
    bot_answers: bool,
    answered: Option<Taken>,
    /// The first choice taken that its decision did not offer.
    diverged: Option<usize>,
}

impl Script<'_> {
    /// The next choice taken, checked against the decision's seat; `None` past the last.
    fn scripted(&mut self, seat: usize) -> Option<Choice> {
        let taken = self.taken.get(self.next)?;
        if taken.seat != seat && self.diverged.is_none() {
            self.diverged = Some(self.next);
        }
        self.next += 1;
        Some(taken.choice)
    }

    fn diverge(&mut self) {
        if self.diverged.is_none() {
            self.diverged = Some(self.next - 1);
        }
    }

    /// The bot that answers the first decision past the script, if this is it, prepared for
    /// the rules (a replay that asks no bot prepares none: the search policy's model is fitted
    /// only when it is to move).
    fn answering_bot(&mut self, view: &View) -> Option<(&mut Builtin, Pcg64Mcg)> {
        if !self.bot_answers || self.answered.is_some() || self.next < self.taken.len() {
            return None;
        }
        let rng = Pcg64Mcg::seed_from_u64(mix(self.seed, self.taken.len() as u64));
        let bot = self.bots[view.seat].as_mut()?;
        bot.prepare(view.rules);
        Some((bot, rng))
    }
}

impl Policy for Script<'_> {
    fn name(&self) -> &'static str {
        "script"
    }

    fn begin_turn(&mut self) {
        for bot in self.bots.iter_mut().flatten() {
            bot.begin_turn();
        }
    }

    fn pause(&mut self, seat: usize) -> bool {
        let bot_answers = self.bot_answers && self.answered.is_none() && self.bots[seat].is_some();
        self.next >= self.taken.len() && !bot_answers
    }

    fn choose(
        &mut self,
        view: &View,
        decision: Decision,
        choices: Choices,
        _: &mut Pcg64Mcg,
    ) -> usize {
        if let Some(choice) = self.scripted(view.seat) {
            return choices.position(choice).unwrap_or_else(|| {
                self.diverge();
                0
            });
        }
        if let Some((bot, mut rng)) = self.answering_bot(view) {
            let index = bot.choose(view, decision, choices, &mut rng);
            let choice = choices.answer(index);
            self.answered = Some(Taken {
                seat: view.seat,
                choice,
                by_bot: true,
            });
            return choices.position(choice).unwrap_or(0);
        }
        // Paused: the rest of the turn is thrown away, so it is played out the shortest way.
        match decision {
            Decision::Throw => choices.position(Choice::Stop).unwrap_or(0),
            _ => 0,
        }
    }

    fn choose_reroll(&mut self, view: &View, rerolls: Rerolls, _: &mut Pcg64Mcg) -> Choice {
        if let Some(choice) = self.scripted(view.seat) {
            if !rerolls.allows(choice) {
                self.diverge();
            }
            return choice;
        }
        if let Some((bot, mut rng)) = self.answering_bot(view) {
            let mut choice = bot.choose_reroll(view, rerolls, &mut rng);
            if !rerolls.allows(choice) {
                // The engine stops rolling on a choice it does not allow: so does the log.
                choice = Choice::Stop;
            }
            self.answered = Some(Taken {
                seat: view.seat,
                choice,
                by_bot: true,
            });
            return choice;
        }
        Choice::Stop
    }
}

/// A choice as a log and a front end write it: by the ids of the ruleset, so that a person can
/// read a log, and a log names what it means whatever order the engine lists choices in.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Act {
    /// Stop: keep the dice showing, use no item, let the cards or the card go.
    Stop,
    /// Re-roll these dice (their places in the roll, from 0).
    Reroll(Vec<usize>),
    /// The track a face fills, by id.
    Track(String),
    /// The box a bonus fills, by id.
    Box(String),
    /// The item a Trainer face uses, by id.
    Use(String),
    /// The card to encounter, or whose species a Repel sends away, by its place among the
    /// cards drawn (from 0).
    Card(usize),
    /// Throw a Safari Ball.
    Throw,
    /// Keep capture die `die` (from 0) at the `value` it shows with the Poké Doll, and throw.
    Lock { die: usize, value: u32 },
}

impl Act {
    pub fn of(rules: &Rules, choice: Choice) -> Act {
        match choice {
            Choice::Stop => Act::Stop,
            Choice::Reroll(mask) => Act::Reroll((0..32).filter(|i| mask & (1 << i) != 0).collect()),
            Choice::Track(t) => Act::Track(rules.tracks[t as usize].id.clone()),
            Choice::Box(b) => Act::Box(rules.box_ids[b as usize].clone()),
            Choice::Use(i) => Act::Use(rules.items[i as usize].id.clone()),
            Choice::Card(i) => Act::Card(i as usize),
            Choice::Throw => Act::Throw,
            Choice::Lock(die, value) => Act::Lock {
                die: die as usize,
                value,
            },
        }
    }

    /// The engine's choice this names, or what in it names nothing in these rules.
    pub fn choice(&self, rules: &Rules) -> Result<Choice, String> {
        fn find<'a>(
            mut ids: impl Iterator<Item = &'a String>,
            id: &str,
            what: &str,
        ) -> Result<u32, String> {
            ids.position(|x| x == id)
                .map(|i| i as u32)
                .ok_or_else(|| format!("there is no {what} `{id}` in these rules"))
        }
        Ok(match self {
            Act::Stop => Choice::Stop,
            Act::Throw => Choice::Throw,
            Act::Reroll(dice) => {
                let mut mask = 0u32;
                for die in dice {
                    if *die >= rules.expedition.len() {
                        return Err(format!(
                            "there is no die {} (the expedition has {} dice)",
                            die + 1,
                            rules.expedition.len()
                        ));
                    }
                    mask |= 1 << die;
                }
                Choice::Reroll(mask)
            }
            Act::Track(id) => Choice::Track(find(rules.tracks.iter().map(|t| &t.id), id, "track")?),
            Act::Box(id) => Choice::Box(find(rules.box_ids.iter(), id, "box")?),
            Act::Use(id) => Choice::Use(find(rules.items.iter().map(|i| &i.id), id, "item")?),
            Act::Card(i) => {
                Choice::Card(u32::try_from(*i).map_err(|_| "no such card".to_string())?)
            }
            Act::Lock { die, value } => {
                if *die >= rules.capture.len() {
                    return Err(format!(
                        "there is no capture die {} (a throw rolls {})",
                        die + 1,
                        rules.capture.len()
                    ));
                }
                Choice::Lock(*die as u32, *value)
            }
        })
    }
}

/// One choice of a log: the seat that took it, whether a bot did, and what it was.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Logged {
    pub seat: usize,
    #[serde(default)]
    pub bot: bool,
    pub act: Act,
}

/// The name of the log format, so a file can say what it is.
pub(crate) const LOG_FORMAT: &str = "safari-log";
/// Bumped on any change an older reader would misread.
pub(crate) const LOG_FORMAT_VERSION: u32 = 1;

/// A game as a file (docs/ruleset.md, "Game logs"): the ruleset it was played with, whole, so
/// the log replays on its own; its seats and seed; every choice taken. What happened (the
/// events) follows from these, and is written beside them for people and other tools.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Log {
    pub format: String,
    pub format_version: u32,
    pub ruleset: serde_json::Value,
    pub seed: u64,
    pub seats: Vec<Seat>,
    pub actions: Vec<Logged>,
    #[serde(default)]
    pub events: Vec<serde_json::Value>,
}

impl Log {
    /// This match's log, with the ruleset it was played with.
    pub fn of(game: &Match, ruleset: serde_json::Value) -> Log {
        Log {
            format: LOG_FORMAT.to_string(),
            format_version: LOG_FORMAT_VERSION,
            ruleset,
            seed: game.seed,
            seats: game.seats.clone(),
            actions: game
                .taken
                .iter()
                .map(|t| Logged {
                    seat: t.seat,
                    bot: t.by_bot,
                    act: Act::of(&game.rules, t.choice),
                })
                .collect(),
            events: game
                .events
                .iter()
                .map(|e| serde_json::to_value(e).expect("events serialise"))
                .collect(),
        }
    }

    /// Reads a log: its format, its ruleset (loaded as [`crate::load`] does) and its choices,
    /// each replayed against the decision it answers.
    pub fn read(bytes: &[u8]) -> Result<(Log, Match), MatchError> {
        let value: serde_json::Value = serde_json::from_slice(bytes)
            .map_err(|e| MatchError(format!("this log is not JSON: {e}")))?;
        if value.get("format").and_then(|v| v.as_str()) != Some(LOG_FORMAT) {
            return Err(MatchError(format!(
                "this is not a game log (`format` should be \"{LOG_FORMAT}\")"
            )));
        }
        if value.get("format_version").and_then(|v| v.as_u64()) != Some(LOG_FORMAT_VERSION.into()) {
            return Err(MatchError(format!(
                "this build reads game logs of format version {LOG_FORMAT_VERSION}"
            )));
        }
        let log: Log = serde_path_to_error::deserialize(value).map_err(|e| {
            MatchError(format!("the log is wrong at `{}`: {}", e.path(), e.inner()))
        })?;
        let ruleset = serde_json::to_vec(&log.ruleset).expect("a JSON value serialises");
        let rules = crate::load(&ruleset)
            .map_err(|e| MatchError(format!("the log's ruleset cannot be played: {e}")))?;
        let mut taken = Vec::with_capacity(log.actions.len());
        for (n, logged) in log.actions.iter().enumerate() {
            let choice = logged
                .act
                .choice(&rules)
                .map_err(|e| MatchError(format!("choice {} of the log: {e}", n + 1)))?;
            taken.push(Taken {
                seat: logged.seat,
                choice,
                by_bot: logged.bot,
            });
        }
        let game = Match::replay(rules, log.seats.clone(), log.seed, &taken)?;
        Ok((log, game))
    }
}
