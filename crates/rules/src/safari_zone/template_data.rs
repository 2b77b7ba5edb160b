//! The data every print template receives: the model, with names resolved into the words a
//! player reads and the geometry of each document worked out in millimetres.
//!
//! Templates get this as `sys.inputs.game` (and `sys.inputs.sheet` for card and dice pages),
//! never the model itself: it is the contract a designer's own template is written against,
//! and templates/README.md documents it field by field. Geometry is computed here rather than
//! in Typst so that tests can hold the PDFs to it.

use serde::Serialize;

use super::model::{
    Action, BoxDef, Cause, DiceRole, Face, Game, Habitat, Paper, Requirement, Reward, Step, Style,
};

use crate::backends::print::ColorSpace;
use crate::backends::print::geometry::PaperSize;

#[derive(Debug, Serialize)]
pub(crate) struct GameData<'a> {
    pub id: String,
    pub name: String,
    /// `"field-guide v20240524 · deck v20240517 · …"`, for the sheet's footer.
    pub versions: String,
    pub paper: PaperSize,
    pub players: (u32, u32),
    pub turns: Option<u32>,
    pub safari_balls: Option<u32>,
    pub rolls_per_turn: u32,
    pub hazard_limit: u32,
    /// How many boxes of a section an event fills: `"one-per-section"` (the rulebook's) or
    /// `"one-plus-trigger-per-section"`.
    pub event_fills: &'static str,
    pub sheet: SheetData,
    /// The game's sheets laid out on their paper, as a game of components' are: the Field
    /// Guide, whose layout is every rectangle field-guide.typ draws (none when the build does
    /// not print the sheet).
    pub sheets: Vec<SheetPage<'a>>,
    /// The game's decks, as a game of components' are: the Encounter Deck (its templates
    /// receive its index as `sys.inputs.deck`).
    pub decks: Vec<DeckData>,
    /// The names of this data before it took the shape of a game of components' (`layout`
    /// is `sheets.at(0).layout`, `deck` is `decks.at(0)`), still given for the templates of
    /// game folders written against them; templates/README.md says when they go.
    pub layout: Option<&'a crate::layout::SheetLayout>,
    pub deck: DeckData,
    pub dice: Vec<DiceSetData>,
    pub items: Vec<ItemData>,
    /// Whether the game folder has `park-rules.typ` for the back of the sheet.
    pub has_park_rules: bool,
    /// `"rgb"`, or `"cmyk"` for a build whose colours are written as CMYK (`--color cmyk`).
    pub color_space: ColorSpace,
}

use crate::backends::table::data::CardSizeData;
use crate::layout::{BoxData, SheetData, one_line};

/// A sheet laid out on its page, in the shape of a game of components' (`sheets[]`).
#[derive(Debug, Serialize)]
pub(crate) struct SheetPage<'a> {
    pub id: &'static str,
    pub name: String,
    pub paper: PaperSize,
    pub layout: &'a crate::layout::SheetLayout,
}

/// The id of the Field Guide among the sheets and of the Encounter Deck among the decks: the
/// names of their documents.
pub(crate) const FIELD_GUIDE: &str = "field-guide";
pub(crate) const ENCOUNTER_DECK: &str = "encounter-deck";

#[derive(Debug, Clone, Serialize)]
pub(crate) struct DeckData {
    pub id: &'static str,
    pub name: String,
    pub card_size: CardSizeData,
    /// Card designs, in deck order.
    pub designs: Vec<CardData>,
    /// Physical cards in deck order: an index into `designs` for each.
    pub physical: Vec<usize>,
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct CardData {
    pub id: String,
    pub species: String,
    pub dex: Option<u32>,
    pub capture_rate: u32,
    /// The chance, in percent, that the capture dice reach the capture rate.
    pub catch_chance: u32,
    /// The chance with each item's capture bonus, where it differs: `(item name, percent)`, for
    /// the first [`MAX_BONUS_CHANCES`] such items.
    pub bonus_chances: Vec<(String, u32)>,
    pub grass: u32,
    pub water: u32,
    pub area: Option<String>,
    pub item: Option<String>,
    pub flavor: String,
    pub copies: u32,
    /// The range of physical card numbers this design occupies: `"07-09"`.
    pub numbers: String,
    /// An image in the game folder, as a path templates can pass to `image`.
    pub art: Option<String>,
}

#[derive(Debug, Serialize)]
pub(crate) struct DiceSetData {
    pub id: String,
    pub name: String,
    pub role: DiceRole,
    pub dice: Vec<Vec<FaceData>>,
}

#[derive(Debug, Serialize)]
pub(crate) struct FaceData {
    /// `"action"` or `"number"`.
    pub kind: &'static str,
    /// The action's name (`"area"`) or the number as text.
    pub value: String,
}

#[derive(Debug, Serialize)]
pub(crate) struct ItemData {
    pub name: String,
    pub usable: bool,
    /// Its steps, each a dictionary: `step` (its name), and `amount` or `habitat` for the steps
    /// that take one.
    pub effects: Vec<StepData>,
}

#[derive(Debug, Serialize)]
pub(crate) struct StepData {
    pub step: &'static str,
    pub amount: Option<u32>,
    pub habitat: Option<Habitat>,
}

impl StepData {
    fn of(step: Step) -> StepData {
        StepData {
            step: step.name(),
            amount: match step {
                Step::CaptureBonus(n) => Some(n),
                _ => None,
            },
            habitat: match step {
                Step::Habitat(h) => Some(h),
                _ => None,
            },
        }
    }
}

pub(crate) fn game_data<'a>(
    game: &Game,
    paper: Paper,
    layout: Option<&'a crate::layout::SheetLayout>,
    has_park_rules: bool,
) -> GameData<'a> {
    let manifest = &game.manifest;
    let paper = PaperSize::of(paper);
    let deck = deck_data(game);
    GameData {
        id: manifest.id.clone(),
        name: manifest.name.clone(),
        versions: versions(game),
        paper,
        players: manifest.players,
        turns: manifest.turns.as_ref().map(|t| t.value),
        safari_balls: manifest.safari_balls.as_ref().map(|b| b.value),
        rolls_per_turn: manifest.rolls_per_turn,
        hazard_limit: manifest.hazard_limit,
        event_fills: manifest.event_fills.name(),
        sheet: sheet_data(game),
        sheets: layout
            .map(|layout| SheetPage {
                id: FIELD_GUIDE,
                name: one_line(&game.guide.title),
                paper,
                layout,
            })
            .into_iter()
            .collect(),
        decks: vec![deck.clone()],
        layout,
        deck,
        dice: dice_data(game),
        items: game
            .items
            .iter()
            .map(|item| ItemData {
                name: item.name.clone(),
                usable: item.kind == super::model::ItemKind::Usable,
                effects: item.effects.iter().map(|s| StepData::of(s.value)).collect(),
            })
            .collect(),
        has_park_rules,
        color_space: ColorSpace::Rgb,
    }
}

/// What only a card prints of its design. The Field Guide's templates receive each design
/// without them, so that editing a card's words or picture leaves the sheet, and the
/// `content <id>` it prints, as they were.
pub(crate) const CARD_ONLY: [&str; 2] = ["flavor", "art"];

/// The templates' data (`game` as JSON) as the Field Guide's templates receive it: each of
/// the deck's designs without [`CARD_ONLY`].
pub(crate) fn as_the_sheet_sees_it(game: &serde_json::Value) -> serde_json::Value {
    let mut game = game.clone();
    let strip = |deck: &mut serde_json::Value| {
        let designs = deck
            .get_mut("designs")
            .and_then(serde_json::Value::as_array_mut);
        for design in designs
            .into_iter()
            .flatten()
            .filter_map(serde_json::Value::as_object_mut)
        {
            for key in CARD_ONLY {
                design.remove(key);
            }
        }
    };
    if let Some(deck) = game.get_mut("deck") {
        strip(deck);
    }
    if let Some(decks) = game
        .get_mut("decks")
        .and_then(serde_json::Value::as_array_mut)
    {
        decks.iter_mut().for_each(strip);
    }
    game
}

/// The deck's file as the Field Guide receives it, for the id of the content the sheet
/// prints: the file as read (TOML), each `[[card]]` without [`CARD_ONLY`], written out as
/// JSON. Made from the file, not from the data the templates get, so that the same content
/// keeps its id whatever a later safari derives from it. None when the file does not parse.
pub(crate) fn deck_file_as_the_sheet_sees_it(text: &str) -> Option<Vec<u8>> {
    let mut deck: toml::Table = text.parse().ok()?;
    if let Some(cards) = deck.get_mut("card").and_then(toml::Value::as_array_mut) {
        for card in cards.iter_mut().filter_map(toml::Value::as_table_mut) {
            for key in CARD_ONLY {
                card.remove(key);
            }
        }
    }
    serde_json::to_vec(&deck).ok()
}

/// `"field-guide v20240524 · deck v20240517 · …"`.
pub fn versions(game: &Game) -> String {
    game.manifest
        .versions
        .iter()
        .map(|(part, version)| format!("{part} {version}"))
        .collect::<Vec<_>>()
        .join(" · ")
}

pub(crate) fn sheet_data(game: &Game) -> SheetData {
    let guide = &game.guide;
    SheetData::of_guide(
        guide,
        one_line(&guide.title),
        habitat_icons(),
        |section| {
            let cause = common_cause(game, &section.tracks);
            let fill = cause.as_ref().and_then(|cause| match cause {
                Cause::Turn => Some("turn".to_string()),
                Cause::Ball => Some("ball".to_string()),
                Cause::Dice(action) => Some(format!("dice:{}", action.name())),
                _ => None,
            });
            (fill, cause)
        },
        |cause, track, b| box_data(game, guide.get(b), cause.as_ref(), track.loose),
    )
}

/// The habitats a box gives, as the tags write them (`reward_words`): drawn as icons, the
/// one for either habitat wider for its "G/W".
fn habitat_icons() -> Vec<crate::layout::Icon> {
    [
        ("[G]", "grass", 1.0),
        ("[W]", "water", 1.0),
        ("[G/W]", "any", 1.7),
    ]
    .into_iter()
    .map(|(word, id, width)| crate::layout::Icon {
        word: word.to_string(),
        id: id.to_string(),
        width,
    })
    .collect()
}

/// The fill cause that goes without saying in a section: the most common one, when it is a
/// die face or a counter (the section's text explains it). Causes that name a species or an
/// item are always printed, since they differ from box to box.
fn common_cause(game: &Game, tracks: &[super::model::TrackId]) -> Option<Cause> {
    let mut counts: Vec<(&Cause, usize)> = Vec::new();
    for &b in tracks
        .iter()
        .flat_map(|&t| game.guide.track(t).boxes.iter())
    {
        let cause = &game.guide.get(b).terms.cause.value;
        match counts.iter_mut().find(|(c, _)| *c == cause) {
            Some((_, n)) => *n += 1,
            None => counts.push((cause, 1)),
        }
    }
    counts
        .into_iter()
        .filter(|(c, _)| matches!(c, Cause::Dice(_) | Cause::Turn | Cause::Ball))
        .max_by_key(|(_, n)| *n)
        .map(|(c, _)| c.clone())
}

fn box_data(game: &Game, b: &BoxDef, section_cause: Option<&Cause>, loose: bool) -> BoxData {
    let mut needs = Vec::new();
    let mut label = b.label.clone();
    let own_cause = Some(&b.terms.cause.value) != section_cause;
    if own_cause && b.style != Style::Trigger {
        match &b.terms.cause.value {
            // A Pokédex box (on its own, not in a track): collecting one species fills it,
            // and it gives nothing more, so the species is the box's name.
            Cause::Collect(species)
                if species.len() == 1 && b.terms.rewards.is_empty() && loose =>
            {
                label = label.or_else(|| Some(game.species(species[0]).name.clone()));
            }
            cause => needs.extend(cause_words(game, cause)),
        }
    }
    needs.extend(
        b.terms
            .requires
            .iter()
            .map(|r| requirement_words(game, &r.value)),
    );
    let gives: Vec<String> = b
        .terms
        .rewards
        .iter()
        .map(|r| reward_words(game, &r.value))
        .collect();
    BoxData {
        id: b.id.clone(),
        shape: b.shape,
        style: b.style,
        vp: b.vp,
        needs: needs.iter().map(|w| one_line(w)).collect(),
        gives: gives.iter().map(|w: &String| one_line(w)).collect(),
        label: label.as_deref().map(one_line),
    }
}

fn cause_words(game: &Game, cause: &Cause) -> Option<String> {
    match cause {
        Cause::Collect(species) if species.len() > 1 => None,
        Cause::Collect(species) => species.first().map(|&s| game.species(s).name.clone()),
        Cause::Use(item) => Some(game.item(*item).name.clone()),
        Cause::Obtain(items) => Some(
            items
                .iter()
                .map(|&i| game.item(i).name.as_str())
                .collect::<Vec<_>>()
                .join(" / "),
        ),
        Cause::Dice(action) => Some(action_word(*action).to_string()),
        _ => None,
    }
}

fn requirement_words(game: &Game, requirement: &Requirement) -> String {
    match requirement {
        Requirement::Item(item) => game.item(*item).name.clone(),
        Requirement::Species(species) => game.species(*species).name.clone(),
        Requirement::Area(track) => {
            let track = game.guide.track(*track);
            track
                .title
                .clone()
                .unwrap_or_else(|| game.guide.section(track.section).title.clone())
        }
        Requirement::Box(b) => box_words(game, game.guide.get(*b)),
        Requirement::Vp(vp) => format!("{vp} VP"),
        Requirement::Unknown => String::new(),
    }
}

/// A box as a player finds it on the sheet, never its id: its label; in a track, the track's
/// title (or its section's) and the box's place in it ("Area 3 (West) #3"); a box of its own
/// that a species fills, its section and the species' name ("Pokédex: Dratini"), as its
/// entry in a collection grid shows; any other box of its own, its section's title.
fn box_words(game: &Game, b: &BoxDef) -> String {
    if let Some(label) = &b.label {
        return label.clone();
    }
    let track = game.guide.track(b.track);
    let section = &game.guide.section(b.section).title;
    if !track.loose {
        let title = track.title.as_ref().unwrap_or(section);
        return format!("{title} #{}", b.index + 1);
    }
    match &b.terms.cause.value {
        Cause::Collect(species) if species.len() == 1 => {
            format!("{section}: {}", game.species(species[0]).name)
        }
        _ => section.clone(),
    }
}

fn reward_words(game: &Game, reward: &Reward) -> String {
    match reward {
        Reward::Item(item) => game.item(*item).name.clone(),
        Reward::Species(species) => game.species(*species).name.clone(),
        Reward::Habitat(Habitat::Grass) => "[G]".to_string(),
        Reward::Habitat(Habitat::Water) => "[W]".to_string(),
        Reward::Habitat(Habitat::Any) => "[G/W]".to_string(),
        Reward::Unknown => String::new(),
    }
}

fn deck_data(game: &Game) -> DeckData {
    let capture_faces: Vec<Vec<u32>> = game
        .capture_dice()
        .map(|die| {
            die.faces
                .iter()
                .filter_map(|f| match f.value {
                    Face::Number(n) => Some(n),
                    _ => None,
                })
                .collect()
        })
        .collect();
    // P(sum of the capture dice >= rate), in whole percent: the engine's exact table, built once.
    let table =
        crate::safari_zone::engine::game::at_least_table(capture_faces.iter().map(Vec::as_slice));
    let percent =
        |rate: u32| (table.get(rate as usize).copied().unwrap_or(0.0) * 100.0).round() as u32;
    // The items whose steps add to a capture roll, and how much.
    let bonuses: Vec<(&str, u32)> = game
        .items
        .iter()
        .map(|item| {
            let bonus = item
                .effects
                .iter()
                .filter(|s| s.value.fits(item.kind))
                .filter_map(|s| match s.value {
                    Step::CaptureBonus(n) => Some(n),
                    _ => None,
                })
                .fold(0u32, u32::saturating_add);
            (item.name.as_str(), bonus)
        })
        .filter(|(_, bonus)| *bonus > 0)
        .collect();
    let mut physical = Vec::new();
    let mut designs = Vec::new();
    for (index, card) in game.deck.cards.iter().enumerate() {
        let first = physical.len() + 1;
        physical.extend(std::iter::repeat_n(index, card.copies.value as usize));
        let last = physical.len();
        let numbers = if last > first {
            format!("{first:02}-{last:02}")
        } else {
            format!("{first:02}")
        };
        let species = card.species.value.map(|s| game.species(s));
        designs.push(CardData {
            id: card.id.clone(),
            species: species.map_or_else(|| card.id.clone(), |s| s.name.clone()),
            dex: species.and_then(|s| s.dex),
            capture_rate: card.capture_rate.value,
            catch_chance: percent(card.capture_rate.value),
            bonus_chances: bonuses
                .iter()
                .map(|(name, bonus)| {
                    let rate = card.capture_rate.value;
                    (name.to_string(), percent(rate.saturating_sub(*bonus)))
                })
                .filter(|(_, with)| *with != percent(card.capture_rate.value))
                .take(MAX_BONUS_CHANCES)
                .collect(),
            grass: card.grass,
            water: card.water,
            area: card.area.as_ref().and_then(|a| a.value).map(|t| {
                let track = game.guide.track(t);
                track.title.clone().unwrap_or_else(|| track.id.clone())
            }),
            item: card
                .item
                .as_ref()
                .and_then(|i| i.value)
                .map(|i| game.item(i).name.clone()),
            flavor: card.flavor.clone(),
            copies: card.copies.value,
            numbers,
            art: card.art.as_ref().map(|art| art.value.clone()),
        });
    }
    DeckData {
        id: ENCOUNTER_DECK,
        name: game.deck.name.clone(),
        card_size: CardSizeData::of(game.manifest.card_size),
        designs,
        physical,
    }
}

/// The items whose capture bonus a card's odds are also given with, at most (in item order):
/// a line each under the card's odds on the reference page.
const MAX_BONUS_CHANCES: usize = 3;

fn dice_data(game: &Game) -> Vec<DiceSetData> {
    game.dice
        .iter()
        .map(|set| DiceSetData {
            id: set.id.clone(),
            name: set.name.clone(),
            role: set.role,
            dice: set
                .dice
                .iter()
                .map(|die| {
                    die.faces
                        .iter()
                        .map(|face| match &face.value {
                            Face::Action(action) => FaceData {
                                kind: "action",
                                value: action.name().to_string(),
                            },
                            Face::Number(n) => FaceData {
                                kind: "number",
                                value: n.to_string(),
                            },
                            Face::Invalid => FaceData {
                                kind: "number",
                                value: "?".to_string(),
                            },
                        })
                        .collect()
                })
                .collect(),
        })
        .collect()
}

fn action_word(action: Action) -> &'static str {
    match action {
        Action::Area => "Area",
        Action::Trainer => "Trainer",
        Action::Item => "Item",
        Action::Grass => "Grass",
        Action::Water => "Water",
        Action::Hazard => "Hazard",
    }
}
