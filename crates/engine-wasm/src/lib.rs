//! The rules engine for the playtest page: one JSON request in, one JSON answer out.
//!
//! The page holds no rule. It sends the ruleset it was given, then a person's clicks as
//! requests (`{"op": "act", "act": {"track": "areas.area-2"}}`), and draws whatever state
//! comes back: the decision waiting and its choices, every sheet, the deck, the log. The
//! protocol is [`Session::handle`], the same function natively (the tests call it) and in
//! WebAssembly, where [`safari_call`] is its only entry point. Strings cross the boundary as
//! UTF-8 in the module's memory: the page writes a request where [`safari_alloc`] says and
//! reads the answer at [`safari_answer_ptr`]. There is no wasm-bindgen: a tool of its own
//! version would have to post-process the module on every machine that builds it, for one
//! function of bytes.

pub mod family;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use safari_engine::explain;
use safari_engine::game::{Game, Player};
use safari_engine::moment::Moment;
use safari_engine::policy::{self, Stage};
use safari_engine::rules::Rules;
use safari_engine::search::{Model, Study};
use safari_engine::step::{Act, Log, Logged, Match, Now, Seat, Taken};

/// The longest ruleset or log the page may hand over, as the compiler bounds `sim`'s.
pub const MAX_REQUEST_BYTES: usize = 16 << 20;

/// What the page asks.
#[derive(Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
enum Request {
    /// Reads a ruleset (the text of a ruleset.json) and keeps it for the games that follow,
    /// with the planner's model of it if the page carries one (the text of a
    /// `search::Model`, fitted where the page was built). The answer's `model` is why the
    /// model was left out, or empty when it was kept.
    Open {
        ruleset: String,
        #[serde(default)]
        model: Option<String>,
    },
    /// Takes at most `steps` more steps (games played, or buckets of weights fitted) of the
    /// study the bot `bot` needs before it plays the open ruleset (`search::Study`): a few at a
    /// time, so that the page can say how far it has got.
    Study { bot: String, steps: u64 },
    /// A new game of the open ruleset.
    Start { seats: Vec<Seat>, seed: u64 },
    /// A game from its choices (a game kept across a reload), up to `upto` of them.
    Resume {
        seats: Vec<Seat>,
        seed: u64,
        actions: Vec<Logged>,
        #[serde(default)]
        upto: Option<usize>,
    },
    /// Reads a game log: its ruleset becomes the open one, and its game the game, replayed to
    /// `upto` choices (all by default).
    Log {
        log: String,
        #[serde(default)]
        upto: Option<usize>,
    },
    /// The person deciding takes this.
    Act { act: Act },
    /// The bot deciding takes its choice.
    Bot,
    /// What the bot `bot` would choose now for the seat deciding: a person's hint.
    Hint { bot: String },
    /// Takes back the last person's choice and the bots' after it.
    Undo,
    /// Keeps the first `count` choices (a replay stepped back or forward).
    BackTo { count: usize },
    /// What a click on this box would do now, or why it does nothing.
    Box {
        #[serde(rename = "box")]
        id: String,
    },
    /// Whether this die may be chosen for the re-roll, and why not.
    Die { die: usize },
    /// The game as it stands.
    State,
    /// The game as a log file.
    Save,
    /// Plays a whole game of bots straight through (`Game::play`, as `safari sim` does), one
    /// seat per policy: its events, for tests that hold this build to the native engine.
    Selfplay { seats: Vec<String>, seed: u64 },
}

/// The open ruleset and the game in progress.
#[derive(Default)]
pub struct Session {
    ruleset: Option<(Value, Rules)>,
    game: Option<Match>,
    /// A bot's study of the open ruleset, under way.
    study: Option<Study>,
    /// What the request being answered said the page holds of the game.
    known: Known,
}

/// How many of the game's events and choices the page holds already (a request's `known`): a
/// state answer leaves them out. A game's events and choices so far are always the first ones
/// of its later events and choices (the same seed and choices play the same way), also after
/// an undo, so the page keeps the first ones and appends what comes.
#[derive(Debug, Default, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
struct Known {
    #[serde(default)]
    events: usize,
    #[serde(default)]
    actions: usize,
}

/// A request, and its `known`.
fn read(bytes: &[u8]) -> Result<(Request, Known), serde_json::Error> {
    let mut value: Value = serde_json::from_slice(bytes)?;
    let known = match value.as_object_mut().and_then(|o| o.remove("known")) {
        Some(known) => serde_json::from_value(known)?,
        None => Known::default(),
    };
    Ok((serde_json::from_value(value)?, known))
}

type Answer = Result<Value, Value>;

/// The request, if it is within the bound a page may send.
pub(crate) fn bounded(request: &[u8]) -> Result<&[u8], Value> {
    if request.len() > MAX_REQUEST_BYTES {
        return Err(error(format!(
            "the file is {} MB; the most a playtest page reads is {} MB",
            request.len() >> 20,
            MAX_REQUEST_BYTES >> 20
        )));
    }
    Ok(request)
}

/// An answer as the page reads it: `{"ok": ...}` or `{"error": ...}`.
pub(crate) fn answered(answer: Answer) -> String {
    match answer {
        Ok(ok) => json!({ "ok": ok }),
        Err(error) => json!({ "error": error }),
    }
    .to_string()
}

pub(crate) fn error(message: impl Into<String>) -> Value {
    json!({ "message": message.into() })
}

impl Session {
    /// Answers one request: `{"ok": ...}`, or `{"error": {"message", "path"?}}` saying what
    /// was wrong with it.
    pub fn handle(&mut self, request: &[u8]) -> String {
        let answer = bounded(request).and_then(|request| match read(request) {
            Ok((request, known)) => {
                self.known = known;
                self.answer(request)
            }
            Err(e) => Err(error(format!(
                "the page sent a request this engine does not read: {e}"
            ))),
        });
        answered(answer)
    }

    fn answer(&mut self, request: Request) -> Answer {
        match request {
            Request::Open { ruleset, model } => self.open(&ruleset, model.as_deref()),
            Request::Study { bot, steps } => self.study(&bot, steps),
            Request::Start { seats, seed } => {
                let rules = self.rules()?.clone();
                self.game = Some(Match::new(rules, seats, seed).map_err(|e| error(e.0))?);
                self.state()
            }
            Request::Resume {
                seats,
                seed,
                actions,
                upto,
            } => {
                let rules = self.rules()?.clone();
                let taken = taken(&rules, &actions, upto)?;
                self.game =
                    Some(Match::replay(rules, seats, seed, &taken).map_err(|e| error(e.0))?);
                self.state()
            }
            Request::Log { log, upto } => {
                let (log, mut game) = Log::read(log.as_bytes()).map_err(|e| error(e.0))?;
                if let Some(upto) = upto {
                    game.back_to(upto);
                }
                let rules = game.rules().clone();
                self.ruleset = Some((log.ruleset, rules));
                self.game = Some(game);
                let mut state = self.state()?;
                state["log_length"] = json!(log.actions.len());
                Ok(state)
            }
            Request::Act { act } => {
                let game = self.game_mut()?;
                let choice = act.choice(game.rules()).map_err(error)?;
                game.apply(choice)
                    .map_err(|reason| json!({ "message": reason, "refused": true }))?;
                self.state()
            }
            Request::Bot => {
                let game = self.game_mut()?;
                if game.play_bot().is_none() {
                    return Err(error("no bot decides now"));
                }
                self.state()
            }
            Request::Hint { bot } => {
                let game = self.game()?;
                match game.hint(&bot).map_err(|e| error(e.0))? {
                    Some(choice) => Ok(json!({ "act": Act::of(game.rules(), choice) })),
                    None => Err(error("the game is over")),
                }
            }
            Request::Undo => {
                self.game_mut()?.undo();
                self.state()
            }
            Request::BackTo { count } => {
                self.game_mut()?.back_to(count);
                self.state()
            }
            Request::Box { id } => {
                let game = self.game()?;
                let rules = game.rules();
                let b = rules
                    .box_ids
                    .iter()
                    .position(|x| *x == id)
                    .ok_or_else(|| error(format!("there is no box `{id}` in these rules")))?;
                let Some(moment) = game.moment() else {
                    return Ok(json!({ "reason": "the game is over" }));
                };
                Ok(match explain::choice_for_box(rules, moment, b) {
                    Some(choice) => json!({ "act": Act::of(rules, choice) }),
                    None => json!({ "reason": explain::why_box(rules, moment, b) }),
                })
            }
            Request::Die { die } => {
                let game = self.game()?;
                let Some(moment) = game.moment() else {
                    return Ok(json!({ "reason": "the game is over" }));
                };
                Ok(json!({ "reason": explain::why_die(game.rules(), moment, die) }))
            }
            Request::State => self.state(),
            Request::Save => {
                let (ruleset, _) = self
                    .ruleset
                    .as_ref()
                    .ok_or_else(|| error("no ruleset is open"))?;
                let game = self.game()?;
                Ok(serde_json::to_value(Log::of(game, ruleset.clone())).expect("logs serialise"))
            }
            Request::Selfplay { seats, seed } => {
                let rules = self.rules()?;
                let (fewest, most) = rules.players;
                if !(fewest as usize..=most as usize).contains(&seats.len()) {
                    return Err(error(format!(
                        "{} is played by {fewest} to {most} players, not {}",
                        rules.name,
                        seats.len()
                    )));
                }
                let mut policies = seats
                    .iter()
                    .map(|name| {
                        policy::by_name(name).ok_or_else(|| error(format!("unknown bot `{name}`")))
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                let mut game = Game::new(rules, seats.len(), seed);
                game.log = Some(Vec::new());
                game.play(&mut policies);
                Ok(json!({ "events": game.log }))
            }
        }
    }

    /// Opens a ruleset: see [`Request::Open`].
    fn open(&mut self, ruleset: &str, model: Option<&str>) -> Answer {
        let value: Option<Value> = serde_json::from_str(ruleset).ok();
        // The same ruleset again keeps its compiled rules, and with them what a policy
        // worked out for them (the search policy's model takes seconds).
        let rules = match &self.ruleset {
            Some((open, rules)) if value.as_ref() == Some(open) => rules.clone(),
            _ => {
                let rules = safari_engine::load(ruleset.as_bytes())
                    .map_err(|e| json!({ "message": e.message, "path": e.path }))?;
                self.study = None;
                rules
            }
        };
        let value = value.ok_or_else(|| error("the ruleset is not JSON"))?;
        // A model that is not this ruleset's is left out: the planner fits its own.
        let carried = model.map(|text| {
            serde_json::from_str::<Model>(text)
                .map_err(|e| e.to_string())
                .and_then(|model| model.carry_for_planner(&rules))
        });
        // What people call tracks and boxes, worked out once here, as the engine's
        // messages call them.
        let tracks: serde_json::Map<String, Value> = rules
            .tracks
            .iter()
            .zip(&rules.names.tracks)
            .map(|(track, name)| (track.id.clone(), json!(name)))
            .collect();
        let boxes: serde_json::Map<String, Value> = (0..rules.boxes.len())
            .map(|b| {
                (
                    rules.box_ids[b].clone(),
                    json!(explain::box_name(&rules, b)),
                )
            })
            .collect();
        let opened = json!({
            "id": rules.id,
            "name": rules.name,
            "players": [rules.players.0, rules.players.1],
            "bots": safari_engine::policy::NAMES,
            "tracks": tracks,
            "boxes": boxes,
            "model": carried.map(|carried| carried.err().unwrap_or_default()),
        });
        self.ruleset = Some((value, rules));
        self.game = None;
        Ok(opened)
    }

    /// Plays on the study `bot` needs before it plays the open ruleset: see
    /// [`Request::Study`]. Whether it is done, and how far each of its rounds has got
    /// (`search::Round`).
    fn study(&mut self, bot: &str, steps: u64) -> Answer {
        let Some((_, rules)) = &self.ruleset else {
            return Err(error("no ruleset is open"));
        };
        if !self.study.as_ref().is_some_and(|study| study.is_for(bot)) {
            self.study = Study::of(bot, rules);
        }
        let Some(study) = &mut self.study else {
            return Ok(json!({ "done": true, "rounds": [] }));
        };
        let done = study.play(rules, steps);
        let rounds = study.progress(rules);
        if done {
            self.study = None;
        }
        Ok(json!({ "done": done, "rounds": rounds }))
    }

    fn rules(&self) -> Result<&Rules, Value> {
        self.ruleset
            .as_ref()
            .map(|(_, rules)| rules)
            .ok_or_else(|| error("no ruleset is open"))
    }

    fn game(&self) -> Result<&Match, Value> {
        self.game
            .as_ref()
            .ok_or_else(|| error("no game has started"))
    }

    fn game_mut(&mut self) -> Result<&mut Match, Value> {
        self.game
            .as_mut()
            .ok_or_else(|| error("no game has started"))
    }

    /// Everything the page draws, less the events and choices it said it holds.
    fn state(&self) -> Answer {
        let game = self.game()?;
        Ok(state(game, self.known))
    }
}

fn taken(rules: &Rules, actions: &[Logged], upto: Option<usize>) -> Result<Vec<Taken>, Value> {
    let count = upto.unwrap_or(actions.len()).min(actions.len());
    actions[..count]
        .iter()
        .enumerate()
        .map(|(n, logged)| {
            Ok(Taken {
                seat: logged.seat,
                choice: logged
                    .act
                    .choice(rules)
                    .map_err(|e| error(format!("choice {}: {e}", n + 1)))?,
                by_bot: logged.bot,
            })
        })
        .collect()
}

#[derive(Serialize)]
struct PlayerView<'a> {
    filled: Vec<&'a str>,
    vp: u32,
    unique_species: u32,
    turns_taken: u32,
    turns_left: u32,
    balls_left: u32,
    items: Vec<&'a str>,
    species: Vec<&'a str>,
    habitat_bonus: [u32; 3],
    out: Option<safari_engine::game::OutReason>,
}

fn player_view<'a>(rules: &'a Rules, player: &Player) -> PlayerView<'a> {
    let held = |flags: &[bool], ids: &'a [String]| -> Vec<&'a str> {
        flags
            .iter()
            .zip(ids)
            .filter(|(f, _)| **f)
            .map(|(_, id)| id.as_str())
            .collect()
    };
    PlayerView {
        filled: held(&player.filled, &rules.box_ids),
        vp: player.vp,
        unique_species: player.unique_species,
        turns_taken: player.turns_taken,
        turns_left: player.turns_left(rules),
        balls_left: player.balls_left(rules),
        items: player
            .items
            .iter()
            .zip(&rules.items)
            .filter(|(held, _)| **held)
            .map(|(_, item)| item.id.as_str())
            .collect(),
        species: held(&player.species, &rules.species),
        habitat_bonus: [player.bonus_grass, player.bonus_water, player.bonus_any],
        out: player.out,
    }
}

fn deciding(game: &Match, moment: &Moment) -> Value {
    let rules = game.rules();
    let player = &moment.players[moment.seat];
    let acts: Vec<Act> = moment.choices.iter().map(|c| Act::of(rules, *c)).collect();
    // The box each listed choice fills, for the page to light up on the sheet.
    let boxes: Vec<Option<&str>> = moment
        .choices
        .iter()
        .map(|c| match c {
            safari_engine::policy::Choice::Track(t) => player
                .next_box(*t as usize)
                .map(|b| rules.box_ids[b].as_str()),
            safari_engine::policy::Choice::Box(b) => Some(rules.box_ids[*b as usize].as_str()),
            _ => None,
        })
        .collect();
    let (face, trainers, lock) = match moment.stage {
        Stage::Faces { face, .. } => (Some(face), None, None),
        Stage::Trainers { left } | Stage::AfterEncounter { left } => (None, Some(left), None),
        Stage::Repel { trainers } | Stage::Encounter { trainers } => (None, Some(trainers), None),
        Stage::Throwing { trainers, lock } => (None, Some(trainers), lock),
        Stage::Rolling | Stage::Cascade { .. } => (None, None, None),
    };
    // The chance each throwing choice catches the card: with the Poké Doll's die kept, for
    // a choice that keeps one.
    let chances: Vec<Option<f64>> = moment
        .choices
        .iter()
        .map(|c| match (c, moment.target) {
            (safari_engine::policy::Choice::Throw, Some(_)) => Some(moment.catch_chance),
            (safari_engine::policy::Choice::Lock(die, value), Some(card)) => {
                Some(player.locked_catch_chance(rules, card, (*die as usize, *value)))
            }
            _ => None,
        })
        .collect();
    let rerollable: Vec<usize> = match moment.rerolls {
        Some(rerolls) => (0..moment.faces.len())
            .filter(|i| rerolls.dice() & (1 << i) != 0)
            .collect(),
        None => Vec::new(),
    };
    let drawn: Vec<&str> = moment
        .drawn
        .iter()
        .map(|c| rules.cards[*c].id.as_str())
        .collect();
    json!({
        "seat": moment.seat,
        "bot": game.seats()[moment.seat].bot,
        "kind": moment.decision.name(),
        "asks": explain::asks(rules, moment),
        "acts": acts,
        "boxes": boxes,
        "chances": chances,
        "after_encounter": matches!(moment.stage, Stage::AfterEncounter { .. }),
        "dice": moment.dice,
        "rolls_left": moment.rolls_left,
        "rerollable": rerollable,
        "hazard_rerolls": moment.rerolls.and_then(|r| r.hazard).is_some(),
        "face": face,
        "trainers": trainers,
        "lock": lock,
        "drawn": drawn,
        "target": moment.target.map(|c| rules.cards[c].id.as_str()),
        "catch_chance": moment.catch_chance,
    })
}

/// The state the page draws: every sheet, the deck, the decision waiting or the end, and the
/// events and the choices so far past those the page holds (`events_from`, `actions_from`:
/// where the ones sent begin).
fn state(game: &Match, known: Known) -> Value {
    let rules = game.rules();
    let (players, deck, discard, deciding, over) = match game.now() {
        Now::Deciding(moment) => (
            &moment.players,
            moment.deck,
            &moment.discard,
            Some(deciding(game, moment)),
            None,
        ),
        Now::Over {
            scores,
            winners,
            players,
            deck,
            discard,
        } => (
            players,
            *deck,
            discard,
            None,
            Some(json!({ "scores": scores, "winners": winners })),
        ),
    };
    let events_from = known.events.min(game.events().len());
    let actions_from = known.actions.min(game.taken().len());
    let actions: Vec<Logged> = game.taken()[actions_from..]
        .iter()
        .map(|t| Logged {
            seat: t.seat,
            bot: t.by_bot,
            act: Act::of(rules, t.choice),
        })
        .collect();
    json!({
        "seats": game.seats(),
        "seed": game.seed(),
        "actions_from": actions_from,
        "actions": actions,
        "undoable": game.undoable(),
        "players": players.iter().map(|p| player_view(rules, p)).collect::<Vec<_>>(),
        "deck": deck,
        "discard": discard.iter().map(|c| rules.cards[*c].id.as_str()).collect::<Vec<_>>(),
        "deciding": deciding,
        "over": over,
        "events_from": events_from,
        "events": &game.events()[events_from..],
    })
}

#[cfg(target_arch = "wasm32")]
mod exports {
    use std::cell::RefCell;

    #[cfg(feature = "zone")]
    use super::Session;
    #[cfg(feature = "family")]
    use super::family::FamilySession;

    thread_local! {
        #[cfg(feature = "zone")]
        static SESSION: RefCell<Session> = RefCell::new(Session::default());
        #[cfg(feature = "family")]
        static FAMILY: RefCell<FamilySession> = RefCell::new(FamilySession::default());
        static ANSWER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
        static REQUEST: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    }

    /// Room for a request of `len` bytes; the page writes it there, then calls [`safari_call`].
    #[unsafe(no_mangle)]
    pub extern "C" fn safari_alloc(len: usize) -> *mut u8 {
        REQUEST.with_borrow_mut(|request| {
            request.clear();
            request.resize(len, 0);
            request.as_mut_ptr()
        })
    }

    /// Answers the request written at [`safari_alloc`]'s place: the answer's length in bytes,
    /// at [`safari_answer_ptr`].
    #[cfg(feature = "zone")]
    #[unsafe(no_mangle)]
    pub extern "C" fn safari_call() -> usize {
        let answer = REQUEST.with_borrow(|request| SESSION.with_borrow_mut(|s| s.handle(request)));
        ANSWER.with_borrow_mut(|bytes| {
            *bytes = answer.into_bytes();
            bytes.len()
        })
    }

    /// As `safari_call`, for a game of the family (`family::FamilySession`).
    #[cfg(feature = "family")]
    #[unsafe(no_mangle)]
    pub extern "C" fn safari_family_call() -> usize {
        let answer = REQUEST.with_borrow(|request| FAMILY.with_borrow_mut(|s| s.handle(request)));
        ANSWER.with_borrow_mut(|bytes| {
            *bytes = answer.into_bytes();
            bytes.len()
        })
    }

    #[unsafe(no_mangle)]
    pub extern "C" fn safari_answer_ptr() -> *const u8 {
        ANSWER.with_borrow(|bytes| bytes.as_ptr())
    }
}
