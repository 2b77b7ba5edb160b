//! Safari Zone RNW's vocabulary on the Field Guide: what a box's `fill`, `needs` and `gives`
//! say. The loader reads the sheet's structure (sections, tracks, boxes) and splits each of
//! these properties into terms, `kind:name/name` with every part located; the words and what
//! they mean are the rules', resolved here against the game's names. So is an item's `effect`:
//! the steps it composes (`model::Step`).

use super::model::*;
use crate::diag::{Code, Diagnostic, Diagnostics, similar_name};
use crate::load::guide::{self, Dialect, FillWritten, GuideNames, WrittenSheet, WrittenTerms};
use crate::load::names::Names;
use crate::world::{FileId, Origin};

pub use crate::load::guide::Term;

/// How Safari Zone RNW's Field Guide is read.
const FIELD_GUIDE: Dialect = Dialect {
    what: "the Field Guide",
    one_fill_help: "use `collect:a/b` or `obtain:a/b` for alternatives of one kind",
};

/// Reads the Field Guide in `file` and gives every box's `fill`, `needs` and `gives` their
/// meaning, against the game's items and species and the guide's own tracks and boxes.
pub(crate) fn read_field_guide(
    file: FileId,
    text: &str,
    items: &Names<ItemId>,
    species: &Names<SpeciesId>,
    diagnostics: &mut Diagnostics,
) -> (FieldGuide, GuideNames) {
    let WrittenSheet { guide, names } = guide::read(file, text, &FIELD_GUIDE, diagnostics);
    let mut resolver = Resolver {
        text,
        items,
        species,
        tracks: &names.tracks,
        boxes: &names.boxes,
        diagnostics,
    };
    let guide = guide.with_terms(|b| resolver.box_terms(b));
    (guide, names)
}

/// The names of a Field Guide that could not be read.
pub(crate) fn no_field_guide() -> (FieldGuide, GuideNames) {
    (
        FieldGuide::default(),
        GuideNames::for_sheet(FIELD_GUIDE.what),
    )
}

/// The names a term may refer to, and where faults go.
pub(crate) struct Resolver<'a> {
    /// The Field Guide's text, for the edits of sure fixes.
    pub text: &'a str,
    pub items: &'a Names<ItemId>,
    pub species: &'a Names<SpeciesId>,
    pub tracks: &'a Names<TrackId>,
    pub boxes: &'a Names<BoxId>,
    pub diagnostics: &'a mut Diagnostics,
}

impl Resolver<'_> {
    /// A box's terms: every box says what fills it, but a free box, which is filled any time.
    pub(crate) fn box_terms(&mut self, b: &crate::model::BoxDef<WrittenTerms>) -> Terms {
        let written = &b.terms;
        let free = b.style == Style::Free;
        if free && written.fill_written == FillWritten::OnTheBox {
            self.diagnostics.push(
                Diagnostic::error(Code::MisusedStyle, "a free box is filled any time: it takes no `fill`")
                    .with_primary(written.fill_at, "remove this `fill`")
                    .with_help("a dotted (free) box is filled once the boxes before it in its track are; use another style for a box with a cause"),
            );
        }
        if !free && written.fill_written == FillWritten::Nowhere {
            self.diagnostics.push(
                Diagnostic::error(Code::InvalidValue, "nothing says what fills this box")
                    .with_primary(b.origin, "no `fill` here, on its track or on its section")
                    .with_help(
                        "add `fill=\"dice:area\"` (or turn, ball, collect:<species>, use:<item>, \
                         obtain:<item>, free, bonus) to the box, its track or its section",
                    ),
            );
        }
        let cause = match &written.fill {
            Some(term) => Located::new(self.cause(term), term.origin),
            None if free => Located::new(Cause::Free, written.fill_at),
            None => Located::new(Cause::Unknown, written.fill_at),
        };
        Terms {
            cause,
            requires: written
                .needs
                .iter()
                .map(|term| Located::new(self.requirement(term), term.origin))
                .collect(),
            rewards: written
                .gives
                .iter()
                .map(|term| Located::new(self.reward(term), term.origin))
                .collect(),
        }
    }

    fn bad_kind(&mut self, term: &Term, what: &str, kinds: &[&str]) {
        self.diagnostics.push(
            Diagnostic::error(
                Code::InvalidValue,
                format!("`{}` is not a kind of {what}", term.kind.value),
            )
            .with_primary(
                term.kind.origin,
                format!("expected one of: {}", kinds.join(", ")),
            )
            .with_suggestion(similar_name(&term.kind.value, kinds.iter().copied())),
        );
    }

    fn one_name<'t>(&mut self, term: &'t Term, what: &str) -> Option<&'t Located<String>> {
        match term.names.as_slice() {
            [one] => Some(one),
            [] => {
                self.diagnostics.push(
                    Diagnostic::error(
                        Code::InvalidValue,
                        format!(
                            "`{}:` needs {} {what} after the colon",
                            term.kind.value,
                            article(what)
                        ),
                    )
                    .with_primary(term.origin, "here"),
                );
                None
            }
            [_, extra, ..] => {
                self.diagnostics.push(
                    Diagnostic::error(
                        Code::InvalidValue,
                        format!("`{}:` takes one {what}, not alternatives", term.kind.value),
                    )
                    .with_primary(extra.origin, "a second name")
                    .with_help("list several requirements or rewards with `,` instead of `/`"),
                );
                None
            }
        }
    }

    fn all<T: Copy>(&mut self, names: &Names<T>, term: &Term, what: &str) -> Option<Vec<T>> {
        if term.names.is_empty() {
            self.one_name(term, what);
            return None;
        }
        let resolved: Vec<Option<T>> = term
            .names
            .iter()
            .map(|n| names.resolve(&n.value, n.origin))
            .collect();
        resolved.into_iter().collect()
    }

    pub fn cause(&mut self, term: &Term) -> Cause {
        let resolved = match term.kind.value.as_str() {
            "dice" => self.one_name(term, "die face").and_then(|name| {
                let action = Action::from_name(&name.value);
                if action.is_none() {
                    let known: Vec<&str> = Action::ALL.iter().map(|a| a.name()).collect();
                    self.diagnostics.push(unknown_face(
                        self.text,
                        &name.value,
                        name.origin,
                        &known,
                    ));
                }
                action.map(Cause::Dice)
            }),
            "turn" | "ball" | "free" | "bonus" if !term.names.is_empty() => {
                self.diagnostics.push(
                    Diagnostic::error(
                        Code::InvalidValue,
                        format!("`{}` takes no name", term.kind.value),
                    )
                    .with_primary(term.origin, "here"),
                );
                None
            }
            "turn" => Some(Cause::Turn),
            "ball" => Some(Cause::Ball),
            "free" => Some(Cause::Free),
            "bonus" => Some(Cause::Bonus),
            "collect" => self.all(self.species, term, "species").map(Cause::Collect),
            "obtain" => self.all(self.items, term, "item").map(Cause::Obtain),
            "use" => self
                .one_name(term, "item")
                .and_then(|n| self.items.resolve(&n.value, n.origin))
                .map(Cause::Use),
            _ => {
                self.bad_kind(
                    term,
                    "fill",
                    &[
                        "dice", "turn", "ball", "collect", "use", "obtain", "free", "bonus",
                    ],
                );
                None
            }
        };
        resolved.unwrap_or(Cause::Unknown)
    }

    pub fn requirement(&mut self, term: &Term) -> Requirement {
        let resolved = match term.kind.value.as_str() {
            "item" => self
                .one_name(term, "item")
                .and_then(|n| self.items.resolve(&n.value, n.origin))
                .map(Requirement::Item),
            "species" => self
                .one_name(term, "species")
                .and_then(|n| self.species.resolve(&n.value, n.origin))
                .map(Requirement::Species),
            "area" => self
                .one_name(term, "track")
                .and_then(|n| self.tracks.resolve(&n.value, n.origin))
                .map(Requirement::Area),
            "box" => self
                .one_name(term, "box")
                .and_then(|n| self.boxes.resolve(&n.value, n.origin))
                .map(Requirement::Box),
            "vp" => self
                .one_name(term, "number")
                .and_then(|n| match n.value.parse::<u32>() {
                    Ok(v) => Some(Requirement::Vp(v)),
                    Err(_) => {
                        self.diagnostics.push(
                            Diagnostic::error(
                                Code::InvalidValue,
                                format!("`vp:` needs a whole number, found `{}`", n.value),
                            )
                            .with_primary(n.origin, "here"),
                        );
                        None
                    }
                }),
            _ => {
                self.bad_kind(
                    term,
                    "requirement",
                    &["item", "species", "area", "box", "vp"],
                );
                None
            }
        };
        resolved.unwrap_or(Requirement::Unknown)
    }

    pub(crate) fn reward(&mut self, term: &Term) -> Reward {
        let resolved = match term.kind.value.as_str() {
            "item" => self
                .one_name(term, "item")
                .and_then(|n| self.items.resolve(&n.value, n.origin))
                .map(Reward::Item),
            "species" => self
                .one_name(term, "species")
                .and_then(|n| self.species.resolve(&n.value, n.origin))
                .map(Reward::Species),
            "habitat" => self
                .one_name(term, "habitat")
                .and_then(|n| match n.value.as_str() {
                    "grass" => Some(Reward::Habitat(Habitat::Grass)),
                    "water" => Some(Reward::Habitat(Habitat::Water)),
                    "any" => Some(Reward::Habitat(Habitat::Any)),
                    other => {
                        let known = ["grass", "water", "any"];
                        let d = Diagnostic::error(
                            Code::UnknownName,
                            format!("unknown habitat `{other}`"),
                        )
                        .with_primary(n.origin, "habitats are: grass, water, any");
                        self.diagnostics
                            .push(in_known_case(d, self.text, other, n.origin, &known));
                        None
                    }
                }),
            _ => {
                self.bad_kind(term, "reward", &["item", "species", "habitat"]);
                None
            }
        };
        resolved.unwrap_or(Reward::Unknown)
    }
}
/// An unknown die face (`Hazard`, `hazzard`), written at `at` in `text`: a face written in
/// another case gets the sure fix to the face it names; another, the face spelled alike.
pub(crate) fn unknown_face(text: &str, name: &str, at: Origin, known: &[&str]) -> Diagnostic {
    let d = Diagnostic::error(Code::UnknownName, format!("unknown die face `{name}`"))
        .with_primary(at, format!("faces are: {}", known.join(", ")));
    in_known_case(d, text, name, at, known)
}

/// `d` with its help for the unknown `name` among `known` names: when `name` is one of them in
/// another case, that name to write and the sure fix writing it; else a name spelled alike.
fn in_known_case(d: Diagnostic, text: &str, name: &str, at: Origin, known: &[&str]) -> Diagnostic {
    let lower = name.to_lowercase();
    match known.iter().find(|k| **k == lower) {
        Some(known) => {
            let d = d.with_help(format!("names are lower case: write `{known}`"));
            match crate::diag::fix::case_fix(text, at, name, known) {
                Some(fix) => d.with_fix(fix),
                None => d,
            }
        }
        None => d.with_suggestion(similar_name(name, known.iter().copied())),
    }
}

fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

/// An item's effect: `"none"`, one step, or a list of steps, each located. A step that does
/// not read is reported where it is written and left out.
pub(crate) fn item_effects(
    value: &toml::Spanned<crate::safari_zone::formats::EffectSteps>,
    file: FileId,
    diagnostics: &mut Diagnostics,
) -> Vec<Located<Step>> {
    use serde::Deserialize;
    let whole = Origin::new(file, value.span());
    let steps: Vec<(&toml::Value, Origin)> = match value.get_ref() {
        crate::safari_zone::formats::EffectSteps::One(toml::Value::String(none))
            if none == "none" =>
        {
            Vec::new()
        }
        crate::safari_zone::formats::EffectSteps::One(one) => vec![(one, whole)],
        crate::safari_zone::formats::EffectSteps::Many(steps) => steps
            .iter()
            .map(|step| (step.get_ref(), Origin::new(file, step.span())))
            .collect(),
    };
    let mut effects = Vec::new();
    for (step, origin) in steps {
        match Step::deserialize(step.clone()) {
            Ok(Step::CaptureBonus(n)) if n > crate::load::limits::MAX_COUNT => diagnostics.push(
                Diagnostic::error(
                    Code::InvalidValue,
                    format!("a capture bonus of {n}: at most {}", crate::load::limits::MAX_COUNT),
                )
                .with_primary(origin, "this step")
                .with_help("a bonus larger than any capture roll needs catches every card; use a smaller one"),
            ),
            Ok(step) => effects.push(Located::new(step, origin)),
            Err(error) => diagnostics.push(
                Diagnostic::error(Code::InvalidValue, "an item effect that does not read")
                    .with_primary(
                        origin,
                        crate::diag::printable(&error.message().replace('\n', " ")),
                    )
                    .with_help(
                        "a step is a name (\"fill-labelled\", \"lock-capture-die\", \"reshuffle-discard\", \"redraw-species\", \"reroll-hazard\", \"extra-roll\") or a table (`{ habitat = \"grass\" }`, `{ capture-bonus = 1 }`); `effect` is one step or a list of them",
                    ),
            ),
        }
    }
    effects
}
