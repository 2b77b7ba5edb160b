//! How large a game may be: the bounds the compiler holds content to and this engine holds a
//! ruleset to, one set of numbers, so that a ruleset `safari build` writes is always one the
//! engine plays (the compiler re-exports them: `safari::load::limits`, docs/content.md).

/// Characters in one piece of text (a name, a label, a flavour text).
pub const MAX_TEXT_CHARS: usize = 1000;
/// Characters in the game's name (it names the Tabletop Simulator files).
pub const MAX_GAME_NAME_CHARS: usize = 100;
/// Entries in one TOML file's list (cards, species, items, dice sets).
pub const MAX_ENTRIES: usize = 1000;
/// Boxes on the Field Guide, counting each repeat.
pub const MAX_BOXES: usize = 10_000;
/// Copies of one card.
pub const MAX_COPIES: u32 = 1000;
/// Physical cards in the deck.
pub const MAX_DECK_SIZE: u32 = 5000;
/// Players in one game.
pub const MAX_PLAYERS: u32 = 100;
/// Turns, Safari Balls, rolls per turn and the hazard limit.
pub const MAX_COUNT: u32 = 1000;
/// Victory points one box gives.
pub const MAX_VP: u32 = 10_000;
/// Faces of one die.
pub const MAX_SIDES: u32 = 100;
/// The highest number on a die face.
pub const MAX_FACE_VALUE: u32 = 100;

/// Expedition dice in one set (a re-roll chooses among 2^dice subsets).
pub const MAX_EXPEDITION_DICE: u32 = 12;
/// Capture dice in one set.
pub const MAX_CAPTURE_DICE: u32 = 20;
/// The longest id accepted.
pub const MAX_ID_LEN: usize = 64;
