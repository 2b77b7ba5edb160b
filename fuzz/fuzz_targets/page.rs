//! The Safari Zone RNW playtest page's engine (`safari_engine_wasm::Session`), sent what a
//! page, a careless player or an attacker could send it: real rulesets opened, games started
//! with people and bots, the choices the page offers and others, box and die clicks, undo,
//! steps back, saves handed back cut and altered, and raw requests.
//!
//! Whatever is sent: every answer is `{"ok"}` or `{"error": {"message"}}`; a request that
//! fails leaves the game as it was (the page keeps drawing the one the engine holds); and a
//! saved game handed back unchanged replays to the same state.
#![no_main]

#[path = "common/protocol.rs"]
mod protocol;

use libfuzzer_sys::arbitrary::{self, Arbitrary};
use libfuzzer_sys::fuzz_target;
use safari_engine_wasm::Session;
use serde_json::{Value, json};

const RULESETS: [&str; 3] = [
    include_str!("../seeds/ruleset/safari-zone.json"),
    include_str!("../seeds/ruleset/clean-tiny.json"),
    include_str!("../seeds/ruleset/clean-free-boxes.json"),
];

/// The bots a seat is given: those that play at once (the planner and the search study the
/// ruleset for seconds first, which would only slow the fuzzing), and a name no menu offers.
const BOTS: [&str; 4] = ["random", "greedy", "expected", "search:100000"];

#[derive(Arbitrary, Debug)]
enum Step {
    Open(u8),
    Start {
        seats: u8,
        bots: u8,
        bot: u8,
        seed: u64,
    },
    /// The n-th choice the page lists (a choice the engine offers).
    Act(u8),
    /// A click on the n-th box of the ruleset, and the choice it leads to if any.
    Click(u16),
    Die(u8),
    Bot,
    Undo,
    BackTo(u16),
    State {
        events: u16,
        actions: u16,
    },
    /// The game in progress again from its choices, as after a reload.
    Resume {
        upto: Option<u16>,
    },
    /// The game saved and handed back, cut and altered.
    Reload {
        upto: Option<u16>,
        cut: u16,
        flips: Vec<(u16, u8)>,
    },
    /// Some steps of a bot's study of the open ruleset (the two small ones only: the default
    /// game's takes seconds a step).
    Study {
        bot: u8,
        steps: u8,
    },
    Raw(String),
}

/// The bots a study is asked for: the two that study, one that needs none, and no bot.
const STUDIES: [&str; 4] = ["planner", "search", "random", "nobody"];

struct Page {
    session: Session,
    boxes: Vec<String>,
    state: Option<Value>,
    /// The ruleset open, by its place in `RULESETS`.
    open: Option<usize>,
}

impl Page {
    fn send(&mut self, request: &Value) -> Result<Value, Value> {
        self.send_text(&request.to_string())
    }

    fn send_text(&mut self, request: &str) -> Result<Value, Value> {
        let before = self.state_now();
        let answer = protocol::read(&self.session.handle(request.as_bytes()));
        match &answer {
            Err(_) => assert_eq!(
                before,
                self.state_now(),
                "a refused request changed the game: {request:.300}"
            ),
            Ok(ok) if ok.get("seats").is_some() => self.state = Some(ok.clone()),
            Ok(_) => {}
        }
        answer
    }

    fn state_now(&mut self) -> String {
        self.session.handle(br#"{"op":"state"}"#)
    }

    fn step(&mut self, step: Step) {
        match step {
            Step::Open(k) => {
                let k = usize::from(k) % RULESETS.len();
                if let Ok(opened) = self.send(&json!({"op": "open", "ruleset": RULESETS[k]})) {
                    self.open = Some(k);
                    self.state = None;
                    self.boxes = opened["boxes"]
                        .as_object()
                        .map(|boxes| boxes.keys().cloned().collect())
                        .unwrap_or_default();
                }
            }
            Step::Start {
                seats,
                bots,
                bot,
                seed,
            } => {
                let seats: Vec<Value> = (0..seats % 6)
                    .map(|s| match bots & (1 << s) {
                        0 => json!({"bot": null}),
                        _ => json!({"bot": BOTS[usize::from(bot) % BOTS.len()]}),
                    })
                    .collect();
                let _ = self
                    .send(&json!({"op": "start", "seats": seats, "seed": protocol::spread(seed)}));
            }
            Step::Act(n) => {
                let act = self.state.as_ref().and_then(|s| {
                    let acts = s["deciding"]["acts"].as_array()?;
                    (!acts.is_empty()).then(|| acts[usize::from(n) % acts.len()].clone())
                });
                let act = act.unwrap_or(json!("stop"));
                let _ = self.send(&json!({"op": "act", "act": act}));
            }
            Step::Click(n) => {
                let id = match self.boxes.len() {
                    0 => format!("box-{n}"),
                    len => self.boxes[usize::from(n) % len].clone(),
                };
                if let Ok(Value::Object(click)) = self.send(&json!({"op": "box", "box": id}))
                    && let Some(act) = click.get("act")
                {
                    let taken = self.send(&json!({"op": "act", "act": act}));
                    assert!(
                        taken.is_ok(),
                        "the choice a click offers was refused: {taken:?}"
                    );
                }
            }
            Step::Die(n) => {
                let _ = self.send(&json!({"op": "die", "die": n}));
            }
            Step::Bot => {
                let _ = self.send(&json!({"op": "bot"}));
            }
            Step::Undo => {
                let _ = self.send(&json!({"op": "undo"}));
            }
            Step::BackTo(count) => {
                let _ = self.send(&json!({"op": "back_to", "count": count}));
            }
            Step::State { events, actions } => {
                let _ = self
                    .send(&json!({"op": "state", "known": {"events": events, "actions": actions}}));
            }
            Step::Resume { upto } => {
                if let Some(state) = self.state.clone() {
                    let _ = self.send(&json!({
                        "op": "resume", "seats": state["seats"], "seed": state["seed"],
                        "actions": state["actions"], "upto": upto,
                    }));
                }
            }
            Step::Reload { upto, cut, flips } => {
                let Ok(saved) = self.send(&json!({"op": "save"})) else {
                    return;
                };
                let text = saved.to_string();
                if flips.is_empty() && cut == 0 && upto.is_none() {
                    let before = self.state_now();
                    let loaded = self.send(&json!({"op": "log", "log": text}));
                    assert!(loaded.is_ok(), "a saved game did not load back: {loaded:?}");
                    assert_eq!(
                        strip_length(&before),
                        strip_length(&self.state_now()),
                        "a saved game loaded back to another state"
                    );
                } else {
                    let log = protocol::tampered(&text, cut, &flips);
                    let _ = self.send(&json!({"op": "log", "log": log, "upto": upto}));
                }
            }
            Step::Study { bot, steps } => {
                if self.open.is_some_and(|k| k > 0) {
                    let bot = STUDIES[usize::from(bot) % STUDIES.len()];
                    let _ = self.send(&json!({"op": "study", "bot": bot, "steps": steps % 3}));
                }
            }
            Step::Raw(text) => {
                let _ = self.send_text(&text);
            }
        }
    }
}

/// A state answer as text, less what only a loaded log's answer carries.
fn strip_length(state: &str) -> Value {
    let mut value: Value = serde_json::from_str(state).expect("state answers are JSON");
    if let Some(ok) = value.get_mut("ok").and_then(Value::as_object_mut) {
        ok.remove("log_length");
    }
    value
}

fuzz_target!(|steps: Vec<Step>| {
    let mut page = Page {
        session: Session::default(),
        boxes: Vec::new(),
        state: None,
        open: None,
    };
    for step in steps.into_iter().take(200) {
        page.step(step);
    }
});
