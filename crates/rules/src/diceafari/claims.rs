//! What the dice can claim in a turn, held against what the rules ask of a turn.
//!
//! The rulebook's turn: each Safari Die claims one tile of its terrain, the tiles claimed lie
//! on one route, and "if at least 2 tiles cannot be claimed after the 3 allowed dice rolls,
//! the turn ends". A player who claims (or reclaims) exactly the Bonus Die's number of tiles
//! then claims one more tile, "any tile on the map that has not been claimed previously". The
//! game ends when every tile is claimed. So the most a turn claims is the smaller of the dice
//! and the route; below two no tile is ever claimed, a route longer than the dice is never
//! claimed whole, and a Bonus Die face above that most (or below one) is never earned. Each
//! Travel Token claims one tile, and one player may come to hold every tile.

use super::Params;
use crate::components::{DieFace, Kind, Table};
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::world::Origin;

/// The fewest tiles a turn must be able to claim; a turn that cannot ends without claiming.
pub(crate) const TURN_MINIMUM: u32 = 2;

/// How many tiles one turn can claim: one a Safari Die, all on one route.
pub(crate) struct Claiming {
    pub dice: u32,
    pub route: u32,
}

impl Claiming {
    pub fn of(table: &Table, params: &Params) -> Claiming {
        Claiming {
            dice: table.dice[params.dice].count,
            route: params.route,
        }
    }

    /// The most tiles one turn claims.
    pub fn most(&self) -> u32 {
        self.dice.min(self.route)
    }

    /// Whether a turn can claim the tiles it needs at all.
    pub fn works(&self) -> bool {
        self.most() >= TURN_MINIMUM
    }

    /// Why a Bonus Die face `n` is never earned, or `None` when some turn earns it. A player
    /// able to claim more may choose to claim fewer ("if he chooses to claim or reclaim the
    /// exact number"), so every number from 1 to the most is earned.
    pub(crate) fn unearned(&self, n: i64) -> Option<Unearned> {
        if n < 1 {
            Some(Unearned::NoTiles)
        } else if n > i64::from(self.route) {
            Some(Unearned::BeyondRoute)
        } else if n > i64::from(self.dice) {
            Some(Unearned::BeyondDice)
        } else {
            None
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unearned {
    /// A turn that claims no tile earns nothing.
    NoTiles,
    /// More tiles than a route holds.
    BeyondRoute,
    /// More tiles than there are Safari Dice.
    BeyondDice,
}

/// What a turn claims, and the Bonus it may earn.
pub struct Turn {
    pub claiming: Claiming,
    pub bonus: BonusFaces,
}

impl Turn {
    pub fn of(table: &Table, params: &Params) -> Turn {
        let claiming = Claiming::of(table, params);
        let bonus = BonusFaces::of(table, params, &claiming);
        Turn { claiming, bonus }
    }

    /// Whether a tile on no route is claimed in the end: by a Bonus, which some turn earns.
    /// When no turn claims at all, that is the one error (SZ1104), and such a tile is only
    /// warned of.
    pub(crate) fn bonus_claims_any_tile(&self) -> bool {
        self.bonus.any_earned() || !self.claiming.works()
    }
}

/// The Bonus Die's number faces, each with why it is never earned, if it is not.
pub(crate) struct BonusFaces(Vec<(i64, Origin, Option<Unearned>)>);

impl BonusFaces {
    pub fn of(table: &Table, params: &Params, claiming: &Claiming) -> BonusFaces {
        let numbers = table.dice[params.bonus]
            .faces
            .iter()
            .filter_map(|face| match face.value {
                DieFace::Number(n) => Some((n, face.origin, claiming.unearned(n))),
                DieFace::Symbol(_) => None,
            });
        BonusFaces(numbers.collect())
    }

    /// Whether some turn earns a Bonus, and so can claim a tile that lies on no route.
    pub(crate) fn any_earned(&self) -> bool {
        self.0.iter().any(|(_, _, unearned)| unearned.is_none())
    }

    fn unearned(&self, why: Unearned) -> impl Iterator<Item = (i64, Origin)> + '_ {
        self.0
            .iter()
            .filter(move |(_, _, unearned)| *unearned == Some(why))
            .map(|&(n, origin, _)| (n, origin))
    }
}

/// Where `[play] route` is given (the manifest's `rules` for the default).
pub(crate) fn route_origin(table: &Table) -> Origin {
    table
        .param("route")
        .map_or(table.manifest.origin, |p| p.origin)
}

/// A label on `[play] route` when game.toml gives it: the default is named in the message.
fn with_route_label(diagnostic: Diagnostic, table: &Table, route: u32) -> Diagnostic {
    match route_origin(table) {
        origin if origin == table.manifest.rules.origin => diagnostic,
        origin => diagnostic.with_secondary(origin, format!("routes of {}", tiles(route))),
    }
}

fn tiles(n: u32) -> String {
    match n {
        1 => "1 tile".to_string(),
        n => format!("{n} tiles"),
    }
}

fn dice(n: u32) -> String {
    match n {
        1 => "1 Safari Die".to_string(),
        n => format!("{n} Safari Dice"),
    }
}

/// The dice against the route and the Bonus Die: SZ1104 when no turn can claim, else SZ1105
/// for a route longer than the dice and SZ1106 for each face beyond a route or below one.
/// `faces_reported` says the faces were already reported with a tile they leave unclaimable.
pub(crate) fn check_claiming(
    table: &Table,
    params: &Params,
    turn: &Turn,
    faces_reported: bool,
    diagnostics: &mut Diagnostics,
) {
    let (claiming, bonus) = (&turn.claiming, &turn.bonus);
    if !claiming.works() {
        diagnostics.push(turn_claims_too_few(table, params, claiming));
        return;
    }
    if claiming.dice < claiming.route {
        diagnostics.push(route_beyond_dice(table, params, claiming, bonus));
    }
    if faces_reported {
        return;
    }
    for why in [Unearned::NoTiles, Unearned::BeyondRoute] {
        for (n, origin) in bonus.unearned(why) {
            diagnostics.push(bonus_face_unearned(table, claiming, n, origin, why));
        }
    }
}

fn turn_claims_too_few(table: &Table, params: &Params, claiming: &Claiming) -> Diagnostic {
    let set = &table.dice[params.dice];
    let most = claiming.most();
    let diagnostic = Diagnostic::error(
        Code::TurnClaimsTooFew,
        format!(
            "no turn can claim the {TURN_MINIMUM} tiles a turn needs: a turn claims at most {}, so no tile is ever claimed and the game never ends",
            tiles(most)
        ),
    );
    let dice_short = claiming.dice < TURN_MINIMUM;
    let route_short = claiming.route < TURN_MINIMUM;
    let dice_label = format!(
        "{}: at most {} a turn",
        dice(claiming.dice),
        tiles(claiming.dice)
    );
    let route_label = format!("routes of {}", tiles(claiming.route));
    let labelled = match (dice_short, route_short) {
        (true, false) => diagnostic.with_primary(set.count_origin, dice_label),
        (false, _) => diagnostic.with_primary(route_origin(table), route_label),
        (true, true) => diagnostic
            .with_primary(set.count_origin, dice_label)
            .with_secondary(route_origin(table), route_label),
    };
    let mut fixes = Vec::new();
    if dice_short {
        fixes.push(format!(
            "give the Safari Dice `count = {TURN_MINIMUM}` or more (one die claims one tile)"
        ));
    }
    if route_short {
        fixes.push(format!("make `[play] route` {TURN_MINIMUM} or more"));
    }
    labelled.with_help(format!(
        "a turn that cannot claim {TURN_MINIMUM} tiles ends without claiming: {}",
        fixes.join(", and ")
    ))
}

fn route_beyond_dice(
    table: &Table,
    params: &Params,
    claiming: &Claiming,
    bonus: &BonusFaces,
) -> Diagnostic {
    let dead: Vec<(i64, Origin)> = bonus.unearned(Unearned::BeyondDice).collect();
    let mut numbers: Vec<i64> = dead.iter().map(|&(n, _)| n).collect();
    numbers.sort_unstable();
    numbers.dedup();
    let faces = match numbers.len() {
        0 => String::new(),
        n => format!(
            ", and the Bonus Die's {} {} never earned",
            crate::words::and_list(&numbers.iter().map(i64::to_string).collect::<Vec<_>>()),
            if n == 1 { "is" } else { "are" }
        ),
    };
    let mut diagnostic = with_route_label(
        Diagnostic::warning(
            Code::RouteBeyondDice,
            format!(
                "{} never claim a whole route of {} in one turn{faces}",
                dice(claiming.dice),
                tiles(claiming.route)
            ),
        )
        .with_primary(
            table.dice[params.dice].count_origin,
            format!("at most {} a turn", tiles(claiming.dice)),
        ),
        table,
        claiming.route,
    );
    for (_, origin) in dead {
        diagnostic = diagnostic.with_secondary(
            origin,
            format!("never earned: more than {}", dice(claiming.dice)),
        );
    }
    diagnostic.with_help(format!(
        "give the Safari Dice `count = {}`, one for each tile of a route, or make `[play] route = {}`",
        claiming.route, claiming.dice
    ))
}

fn bonus_face_unearned(
    table: &Table,
    claiming: &Claiming,
    n: i64,
    origin: Origin,
    why: Unearned,
) -> Diagnostic {
    let help = format!(
        "number the Bonus Die's faces from 1 to {}: a Bonus is earned by claiming exactly that many tiles",
        claiming.most()
    );
    match why {
        Unearned::BeyondRoute => with_route_label(
            Diagnostic::warning(
                Code::BonusUnearned,
                format!(
                    "the Bonus Die's {n} is never earned: a turn claims at most a route of {}",
                    tiles(claiming.route)
                ),
            )
            .with_primary(origin, "never earned"),
            table,
            claiming.route,
        ),
        _ => Diagnostic::warning(
            Code::BonusUnearned,
            format!(
                "the Bonus Die's {n} is never earned: a turn that claims no tile earns nothing"
            ),
        )
        .with_primary(origin, "never earned"),
    }
    .with_help(help)
}

/// SZ1107: each colour of Travel Tokens holds a token for every Safari Tile. A token claims a
/// tile and stays on it until another player's replaces it (reclaiming one's own tile leaves
/// it in place), a map may be laid from every tile ("Custom maps can be created by arranging
/// the tiles into any animal, shape, or pattern"), and one player may come to hold them all;
/// the rulebook's 18 of each colour for its 18 tiles is that number.
pub(crate) fn check_travel_tokens(table: &Table, params: &Params, diagnostics: &mut Diagnostics) {
    let tile_set = &table.tiles[params.tiles];
    let needed = tile_set.count();
    let travel = &table.tokens[params.travel];
    let short: Vec<_> = travel.kinds.iter().filter(|k| k.count < needed).collect();
    let Some((first, others)) = short.split_first() else {
        return;
    };
    let counted = |kind: &Kind| {
        let colour = table.symbol(kind.symbol).label.to_lowercase();
        format!("{} {colour}", kind.count)
    };
    let mut diagnostic = Diagnostic::error(
        Code::TravelTokensShort,
        format!(
            "{} Travel Tokens: fewer than the {needed} Safari Tiles one player may hold",
            crate::words::and_list(&short.iter().map(|k| counted(k)).collect::<Vec<_>>())
        ),
    )
    .with_primary(first.count_origin, counted(first));
    for kind in others {
        diagnostic = diagnostic.with_secondary(kind.count_origin, counted(kind));
    }
    diagnostics.push(
        diagnostic
            .with_secondary(tile_set.id.origin, format!("{needed} tiles"))
            .with_help(format!(
                "give each colour {needed} Travel Tokens, one for each Safari Tile: a map may use every tile, and one player may claim them all"
            )),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claiming(dice: u32, route: u32) -> Claiming {
        Claiming { dice, route }
    }

    #[test]
    fn a_turn_claims_the_smaller_of_the_dice_and_the_route() {
        assert_eq!(claiming(4, 4).most(), 4);
        assert_eq!(claiming(3, 4).most(), 3);
        assert_eq!(claiming(5, 4).most(), 4);
        assert!(claiming(2, 4).works());
        assert!(!claiming(1, 4).works());
        assert!(!claiming(4, 1).works());
    }

    #[test]
    fn every_bonus_face_from_one_to_the_most_a_turn_claims_is_earned() {
        let rulebook = claiming(4, 4);
        for n in 1..=4 {
            assert_eq!(rulebook.unearned(n), None, "{n}");
        }
        assert_eq!(rulebook.unearned(0), Some(Unearned::NoTiles));
        assert_eq!(rulebook.unearned(5), Some(Unearned::BeyondRoute));
        let three_dice = claiming(3, 4);
        assert_eq!(three_dice.unearned(3), None);
        assert_eq!(three_dice.unearned(4), Some(Unearned::BeyondDice));
        assert_eq!(three_dice.unearned(5), Some(Unearned::BeyondRoute));
    }
}
