//! A game of the family in progress: its seats, its seed and the log of actions taken.
//!
//! The log is the game: replaying it from the seed gives the same table, so undo is a
//! shorter log, and a page, a test or another build replays a game from its log alone. Each
//! action is checked against what the table offered when it was taken. A bot's random
//! numbers come from the game's seed and the action's place in the log, so a log replays the
//! same without the bot that wrote it.

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Serialize};

use super::bots::{self, Bot, Decision};
use super::{Play, Start};
use crate::search::mix;

/// The largest seed: JavaScript reads every whole number up to it exactly.
pub const MAX_SEED: u64 = (1 << 53) - 1;

/// An action taken, by which seat, and whether a bot took it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound = "A: Serialize + serde::de::DeserializeOwned")]
pub struct Taken<A> {
    pub seat: usize,
    pub action: A,
    #[serde(default)]
    pub by_bot: bool,
}

pub struct Session<S: Start> {
    start: S,
    bots: Vec<Option<Bot>>,
    seed: u64,
    log: Vec<Taken<<S::Game as Play>::Action>>,
    table: S::Game,
}

impl<S: Start> Session<S> {
    /// A new game: a seat per entry of `bots` (`None`: a person), set up from `seed`.
    pub fn new(start: S, bots: Vec<Option<String>>, seed: u64) -> Result<Session<S>, String> {
        Session::replay(start, bots, seed, &[])
    }

    /// The game a log makes, each action checked against the table it was taken at.
    pub fn replay(
        start: S,
        bots: Vec<Option<String>>,
        seed: u64,
        log: &[Taken<<S::Game as Play>::Action>],
    ) -> Result<Session<S>, String> {
        let (fewest, most) = start.players();
        if !(fewest..=most).contains(&bots.len()) {
            return Err(format!(
                "{} is played by {fewest} to {most} players, not {}",
                start.name(),
                bots.len()
            ));
        }
        if seed > MAX_SEED {
            return Err(format!(
                "the seed must be a whole number from 0 to {MAX_SEED}, not {seed}"
            ));
        }
        let bots = bots
            .iter()
            .map(|name| match name {
                None => Ok(None),
                Some(name) => Bot::by_name(name).map(Some).ok_or_else(|| {
                    format!("unknown bot `{name}`; known: {}", bots::NAMES.join(", "))
                }),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let table = start.start(bots.len(), seed)?;
        let mut session = Session {
            start,
            bots,
            seed,
            log: Vec::new(),
            table,
        };
        for (i, taken) in log.iter().enumerate() {
            session
                .take(taken.seat, taken.action)
                .map_err(|e| format!("log entry {i}: {e}"))?;
            session.log.last_mut().expect("just taken").by_bot = taken.by_bot;
        }
        Ok(session)
    }

    pub fn table(&self) -> &S::Game {
        &self.table
    }

    pub fn log(&self) -> &[Taken<<S::Game as Play>::Action>] {
        &self.log
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Whether a bot plays `seat`.
    pub fn is_bot(&self, seat: usize) -> bool {
        self.bots.get(seat).is_some_and(Option::is_some)
    }

    pub fn legal(&self) -> Vec<<S::Game as Play>::Action> {
        let mut legal = Vec::new();
        self.table.legal(&mut legal);
        legal
    }

    /// `seat` takes `action`, if it is that seat's turn and the action is legal.
    pub fn take(&mut self, seat: usize, action: <S::Game as Play>::Action) -> Result<(), String> {
        match self.table.to_move() {
            None => return Err("the game is over".to_string()),
            Some(to_move) if to_move != seat => {
                return Err(format!(
                    "it is seat {}'s turn, not seat {}'s",
                    to_move + 1,
                    seat + 1
                ));
            }
            Some(_) => {}
        }
        if let Some(why) = self.why_not(action) {
            return Err(format!(
                "{} is not legal now: {why}",
                self.table.describe(action)
            ));
        }
        self.table.apply(action);
        self.log.push(Taken {
            seat,
            action,
            by_bot: false,
        });
        Ok(())
    }

    /// Why the seat to move may not take `action` now, or `None` when it may.
    pub fn why_not(&self, action: <S::Game as Play>::Action) -> Option<String> {
        if self.table.to_move().is_none() {
            return Some("the game is over".to_string());
        }
        (!self.legal().contains(&action)).then(|| self.table.why_not(action))
    }

    /// The bot that plays `seat`, if a bot does.
    pub fn bot_of(&self, seat: usize) -> Option<Bot> {
        self.bots.get(seat).copied().flatten()
    }

    /// The bot of the seat to move takes its action, which is returned; `None` when a person
    /// is to move or the game is over.
    pub fn play_bot(&mut self) -> Option<<S::Game as Play>::Action> {
        self.play_bot_decision().map(|decision| decision.action)
    }

    /// As [`Session::play_bot`], with what the decision cost and whether it was cut short.
    pub fn play_bot_decision(&mut self) -> Option<Decision<<S::Game as Play>::Action>> {
        let seat = self.table.to_move()?;
        let bot = self.bot_of(seat)?;
        let decision = self.bot_decision(bot);
        self.table.apply(decision.action);
        self.log.push(Taken {
            seat,
            action: decision.action,
            by_bot: true,
        });
        Some(decision)
    }

    /// Bots take their turns until a person's seat is to act or the game is over. Returns how
    /// many actions they took.
    pub fn play_bots(&mut self) -> usize {
        let mut taken = 0;
        while self.play_bot().is_some() {
            taken += 1;
        }
        taken
    }

    /// The table as the game began.
    pub fn first_table(&self) -> S::Game {
        self.start
            .start(self.bots.len(), self.seed)
            .expect("it started before")
    }

    /// What `bot` would do for the seat to move now, from the random numbers of this place
    /// in the log (the page's hint asks a bot for a person's seat).
    pub fn bot_choice(&self, bot: Bot) -> <S::Game as Play>::Action {
        self.bot_decision(bot).action
    }

    /// As [`Session::bot_choice`], with what the decision cost and whether it was cut short.
    pub fn bot_decision(&self, bot: Bot) -> Decision<<S::Game as Play>::Action> {
        let mut rng = Pcg64Mcg::seed_from_u64(mix(self.seed, self.log.len() as u64));
        bot.decide(&self.table, &mut rng)
    }

    /// Takes back the last action a person took and every bot action after it, unless one of
    /// them showed something that was hidden or left to chance (a face-down card taken, a
    /// roll): undo stops at the last reveal, so that no one can look and choose again. False
    /// when nothing can be taken back.
    pub fn undo(&mut self) -> bool {
        let Some(keep) = self.undo_point() else {
            return false;
        };
        let log = self.log[..keep].to_vec();
        let mut table = self.first_table();
        for taken in &log {
            table.apply(taken.action);
        }
        self.table = table;
        self.log = log;
        true
    }

    /// Whether [`Session::undo`] would take anything back.
    pub fn undoable(&self) -> bool {
        self.undo_point().is_some()
    }

    /// How much of the log an undo keeps: all but the last person's action and what
    /// followed it, when none of those revealed anything.
    fn undo_point(&self) -> Option<usize> {
        let last = self.log.iter().rposition(|t| !t.by_bot)?;
        let mut table = self.first_table();
        for taken in &self.log[..last] {
            table.apply(taken.action);
        }
        for (at, taken) in self.log.iter().enumerate().skip(last) {
            if reveals(&table, taken.action, mix(self.seed, at as u64)) {
                return None;
            }
            table.apply(taken.action);
        }
        Some(last)
    }
}

/// How many tables as its seat might believe it to be [`reveals`] tries an action on.
const BELIEFS: u64 = 8;

/// Whether taking `action` at `table` shows the seat taking it something it could not have
/// known: a hidden card, a roll of the dice. The action is taken on copies of the table as
/// that seat might believe it to be ([`Play::determinise`]: what it cannot see redrawn, the
/// chances to come reseeded); if what the seat sees afterwards differs between them, the
/// action's result was hidden or left to chance until it was taken. Knows no game.
pub fn reveals<G: Play>(table: &G, action: G::Action, seed: u64) -> bool {
    let Some(seat) = table.to_move() else {
        return false;
    };
    let seen = |mut copy: G| {
        copy.apply(action);
        copy.view(Some(seat))
    };
    let actual = seen(table.clone());
    (0..BELIEFS).any(|k| {
        let mut rng = Pcg64Mcg::seed_from_u64(mix(seed, k));
        seen(table.determinise(seat, &mut rng)) != actual
    })
}
