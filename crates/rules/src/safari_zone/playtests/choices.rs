//! A person's choice beside the advisor's at one decision, in words: what each did, and the
//! kind of difference ("let a card go that the planner would have thrown at"), by which the
//! differences are counted.

use crate::safari_zone::engine::moment::Moment;
use crate::safari_zone::engine::{Choice, Decision, Rules, explain};

use super::ADVISOR;

/// The decisions in the order a turn meets them: the order of the report's table.
pub(super) const KIND_ORDER: &[&str] =
    &["reroll", "track", "bonus", "use", "repel", "card", "throw"];

/// One of the people's decisions put to the advisor.
pub(super) struct Compared {
    pub kind: Decision,
    pub seat: usize,
    pub turn: u32,
    /// The kind of difference, or `None` when they chose alike.
    pub pattern: Option<String>,
    /// What the person did and what the advisor would have done, in words.
    pub person: String,
    pub bot: String,
}

pub(super) fn compare(rules: &Rules, moment: &Moment, person: Choice, bot: Choice) -> Compared {
    Compared {
        kind: moment.decision,
        seat: moment.seat,
        turn: moment.players[moment.seat].turns_taken,
        pattern: (person != bot).then(|| pattern(moment.decision, person, bot)),
        person: words(rules, moment, person),
        bot: words(rules, moment, bot),
    }
}

/// The kind of difference between a person's choice and the advisor's, the same words for
/// every card, box and die, so that differences of a kind are counted together.
fn pattern(decision: Decision, person: Choice, bot: Choice) -> String {
    use Choice::{Card, Lock, Stop, Throw, Use};
    let text = match (decision, person, bot) {
        (Decision::Reroll, Stop, _) => "kept the dice where the {} would have re-rolled",
        (Decision::Reroll, _, Stop) => "re-rolled where the {} would have kept the dice",
        (Decision::Reroll, ..) => "re-rolled other dice than the {} would have",
        (Decision::Track | Decision::Bonus, ..) => "filled another box than the {} would have",
        (Decision::Use, Stop, _) => "used no item where the {} would have used one",
        (Decision::Use, Use(_), Stop) => "used an item the {} would have kept",
        (Decision::Use, ..) => "used another item than the {} would have",
        (Decision::Repel, Stop, _) => "sent no species away where the {} would have used the Repel",
        (Decision::Repel, _, Stop) => "used the Repel where the {} would have kept the cards",
        (Decision::Repel, ..) => "sent another species away than the {} would have",
        (Decision::Card, Stop, _) => "let the cards go where the {} would have met one",
        (Decision::Card, Card(_), Stop) => "met a card the {} would have let go",
        (Decision::Card, ..) => "met another card than the {} would have",
        (Decision::Throw, Stop, Throw) => "let a card go that the {} would have thrown at",
        (Decision::Throw, Stop, _) => "let a card go where the {} would have kept a die and thrown",
        (Decision::Throw, Throw, Stop) => "threw at a card the {} would have let go",
        (Decision::Throw, Lock(..), Stop) => {
            "kept a die and threw where the {} would have let the card go"
        }
        (Decision::Throw, Lock(..), Throw) => "kept a die where the {} would have thrown without",
        (Decision::Throw, Throw, _) => {
            "threw without keeping a die where the {} would have kept one"
        }
        (Decision::Throw, ..) => "kept another die than the {} would have",
    };
    text.replace("{}", ADVISOR)
}

/// A choice in words, with the names a person reads.
fn words(rules: &Rules, moment: &Moment, choice: Choice) -> String {
    let species_of = |card: usize| rules.names.species[rules.cards[card].species].clone();
    let drawn = |i: u32| {
        moment
            .drawn
            .get(i as usize)
            .map_or_else(|| "a card".to_string(), |c| species_of(*c))
    };
    let target = || {
        moment
            .target
            .map_or_else(|| "the card".to_string(), species_of)
    };
    match (moment.decision, choice) {
        (Decision::Reroll, Choice::Stop) => "kept the dice".to_string(),
        (_, Choice::Reroll(mask)) => {
            let faces: Vec<String> = (0..32)
                .filter(|d| mask & (1 << d) != 0)
                .map(|d| {
                    moment
                        .faces
                        .get(d)
                        .map_or_else(|| format!("die {}", d + 1), |face| format!("{face:?}"))
                })
                .collect();
            format!("re-rolled {}", faces.join(", "))
        }
        (_, Choice::Track(t)) => match moment.players[moment.seat].next_box(t as usize) {
            Some(b) => format!("filled {}", explain::box_name(rules, b)),
            None => format!("filled {}", rules.names.tracks[t as usize]),
        },
        (_, Choice::Box(b)) => format!("filled {}", explain::box_name(rules, b as usize)),
        (_, Choice::Use(i)) => format!("used the {}", rules.names.items[i as usize]),
        (Decision::Use, Choice::Stop) => "used no item".to_string(),
        (Decision::Repel, Choice::Card(i)) => format!("sent {} away", drawn(i)),
        (Decision::Repel, Choice::Stop) => "kept the cards".to_string(),
        (_, Choice::Card(i)) => format!("met {}", drawn(i)),
        (Decision::Card, Choice::Stop) => "let the cards go".to_string(),
        (_, Choice::Throw) => format!("threw at {}", target()),
        (_, Choice::Lock(die, value)) => {
            format!(
                "kept capture die {} at {value} and threw at {}",
                die + 1,
                target()
            )
        }
        (_, Choice::Stop) => format!("let {} go", target()),
    }
}
