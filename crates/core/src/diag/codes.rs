//! The stable diagnostic codes and their long explanations (`safari explain CODE`).
//!
//! Codes are grouped by hundreds: 00 files, 01 syntax and values, 02 names, 03 structure,
//! 04 reachability, 05 cards, 06 play budget, 07 typesetting, 08 outputs; from 10 on, one
//! hundred per rules module of the component layer (10 Gamewright's Safari, 11 DiceAFARI, 12
//! Tricky Safari). A code is never reused for another meaning.

use std::fmt;

macro_rules! codes {
    ($($variant:ident = $code:literal, $title:literal, $explanation:literal, $example:literal;)*) => {
        /// A stable diagnostic code.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code { $($variant),* }

        impl Code {
            pub const ALL: &'static [Code] = &[$(Code::$variant),*];

            pub fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $code),* }
            }

            /// One line: what kind of fault this is.
            pub fn title(self) -> &'static str {
                match self { $(Code::$variant => $title),* }
            }

            /// A paragraph: why it is a fault and how to fix it.
            pub fn explanation(self) -> &'static str {
                match self { $(Code::$variant => $explanation),* }
            }

            /// A minimal content fragment that raises it.
            pub fn example(self) -> &'static str {
                match self { $(Code::$variant => $example),* }
            }
        }
    };
}

codes! {
    FileUnreadable = "SZ0001", "a content file is missing or cannot be read",
        "A file that the game needs (named by game.toml, or one of the default names) does not exist in the game folder, or the operating system refused to read it. Check the spelling of the path in game.toml and that the file is inside the game folder.",
        "# game.toml\n[files]\ndeck = \"decks/encounter.toml\"   # but there is no decks/ folder";
    NotUtf8 = "SZ0002", "a content file is not UTF-8 text",
        "Content files are read as UTF-8. A file saved in another encoding (Latin-1, UTF-16) or a binary file in its place cannot be read. Re-save the file as UTF-8; the label points at the first byte that is not valid.",
        "deck.toml saved as Latin-1, with `flavor = \"Caf\\xe9\"`";
    NotAGame = "SZ0003", "the folder is not a game",
        "A game folder holds a game.toml manifest (and the files it names). The path given does not exist, is a file, or has no game.toml. Pass the game's folder, e.g. `safari check content/safari-zone`, or create one with the files described in docs/content.md. Run without a folder in a folder that holds a game's files (field-guide.kdl, deck.toml, components.toml and the like) but no game.toml, a command stops with this code rather than check another game: the game lost its manifest; restore it.",
        "$ safari check content/   # the folder above the game";
    OutsideGame = "SZ0004", "a path leads outside the game folder",
        "Every file a game uses must live inside its folder, so that a game folder can be shared, built anywhere, and never reads the rest of the disk. Absolute paths, `..` and symbolic links that point outside are refused.",
        "# game.toml\n[files]\ndeck = \"../other-game/deck.toml\"";
    LimitExceeded = "SZ0005", "content is larger than safari accepts",
        "So that no game folder can make a check or a build run out of memory or time, content has limits: the size of each file, the number of entries (cards, species, items, boxes), the length of a piece of text, how deeply KDL blocks nest, and each number of things (copies, players, repeats), and what content expands to: a card's text with its braces filled in, the cards `for-each` makes, and what a build must typeset (card designs and die faces), so that what passes `check` can be built within the typesetting bounds. The limits are far above what a printed game holds; docs/content.md and docs/components.md list them. Content past a limit is refused with this code, at the value or file at fault.",
        "// field-guide.kdl: a track of a million boxes\ntrack \"long\" { box repeat=1000000 }";
    KdlSyntax = "SZ0101", "the KDL file is not well-formed",
        "The Field Guide layout is KDL 2.0. The parser could not read the file; the label shows where. Common causes: an unclosed `{` or string, a string in single quotes (KDL strings take double quotes: `label=\"Lucky Chansey\"`; `safari fix` changes them), `#true`/`#false` written without `#` (KDL 2), a property without a value.",
        "section \"areas\" {\n    track \"area-1\" {\n        box vp=\n}";
    TomlSyntax = "SZ0102", "the TOML file is not well-formed",
        "Manifest, deck, dice, species and items files are TOML 1.0. The parser could not read the file at the label. Common causes: a string without quotes, a missing `=`, a repeated key, a table header written twice.",
        "[[card]]\nspecies = nidoran-m   # strings need quotes";
    InvalidValue = "SZ0103", "a value has the wrong type, is out of range, or a key is missing or unknown",
        "The file is well-formed but a value does not fit what the game expects: a number where text is needed, a negative count, a key that is required but absent, or a key the format does not know (often a typo). docs/content.md lists every key with its type, and the JSON Schemas in schema/ let an editor check while you type.",
        "[[card]]\nspecies = \"nidoran-m\"\ncapture-rate = \"eleven\"";
    BadId = "SZ0105", "an id is not lower-case words joined by dashes",
        "Ids name things in diagnostics, in other files, in the ruleset and in output file names, so they are restricted to lower-case ASCII letters and digits in words joined by single dashes (`super-rod`, `area-1`, `safari-zone`), at most 64 characters. Quote marks, spaces, slashes, dots and capitals are refused. In KDL, strings take double quotes: `box \"guest-chansey\"`, not `box 'guest-chansey'`.",
        "# game.toml\nid = \"../escaped\"";
    UnknownNode = "SZ0104", "a KDL node or property the Field Guide format does not know",
        "The Field Guide format has a fixed set of nodes (sheet, section, track, box, text) and properties for each. A node or property with another name is a typo or belongs to another format; it is reported rather than ignored so that nothing you write is silently dropped.",
        "section \"bag\" {\n    trak \"rods\" { box }\n}";
    UnknownName = "SZ0201", "a name refers to nothing defined",
        "A requirement, reward, fill cause, card criterion or evolution names an item, species, track, box, die face or habitat that the content does not define, or the manifest names rules that do not exist. Names are ids (lower-case, dashes), defined in items.toml, species.toml, the Field Guide (tracks and boxes) and dice.toml. When a defined name is spelled similarly, the help says which.",
        "box needs=\"item:super-rodd\"   // the item is `super-rod`";
    DuplicateId = "SZ0202", "two things share one id",
        "Ids must be unique within their kind (items, species, cards, sections, tracks, boxes, dice sets), because diagnostics, the ruleset and other builds refer to things by id. The secondary label shows the first definition.",
        "[[item]]\nid = \"repel\"\n[[item]]\nid = \"repel\"";
    DeckSize = "SZ0301", "the deck does not hold the number of cards it declares",
        "deck.toml declares `size`, the number of physical cards. The sum of every card's `copies` must equal it, so that what is printed is what was designed. Change a card's copies, add or remove a card, or correct `size`.",
        "size = 52\n[[card]]\nspecies = \"rhyhorn\"\ncopies = 51   # and no other card";
    DiceShape = "SZ0302", "a dice set does not match what it declares",
        "A dice set declares how many dice it has (`count`) and how many sides each die has (`sides`). Every die must list exactly `sides` faces, and the set must hold `count` dice. Expedition faces are actions (area, trainer, item, grass, water, hazard); capture faces are numbers.",
        "[[set]]\nid = \"expedition\"\ncount = 5\nsides = 6\nfaces = [\"area\", \"trainer\", \"item\", \"grass\", \"water\"]";
    EmptyGroup = "SZ0303", "a section, track, deck or dice set is empty",
        "An empty track has nothing to fill, an empty section nothing to show, an empty deck nothing to draw, and an empty dice set nothing to roll. Add boxes (cards, dice) or remove it.",
        "section \"bag\" {\n    track \"rods\"\n}";
    ImpossibleCause = "SZ0304", "boxes are filled by something that can never happen",
        "Each box is filled by a cause: a die face (dice:area, dice:item), the turn, a ball throw, collecting a species, using or obtaining an item, a bonus chain. When the cause cannot occur in this game at all (no expedition die has an Area face; no die has a Trainer face, so no item can be used; the item to use is passive, so it is held and never used), the boxes waiting on it can only be filled by a bonus chain, if at all. Add the face to a die, make the item usable, or change the boxes' `fill`.",
        "// dice.toml gives no die an \"area\" face, and field-guide.kdl says:\nsection \"areas\" fill=\"dice:area\" {\n    track \"center\" { box }\n}";
    CounterMismatch = "SZ0305", "the Turn Tracker or Safari Balls do not match the manifest",
        "game.toml declares the number of turns and Safari Balls; the Field Guide must have exactly that many boxes filled by `turn` and by `ball`, since those boxes are how players count them.",
        "# game.toml\n[play]\nturns = 20\n\n// field-guide.kdl\nsection \"turns\" fill=\"turn\" {\n    track \"turns\" { box repeat=18 }\n}";
    EvolutionMismatch = "SZ0306", "an Evolutions box disagrees with the species data",
        "An Evolutions box gives an evolved species, and species.toml says how each species evolves. When a box's evolution is not listed for the species (or the item differs), one of the two is out of date. This is a warning: the Field Guide is what is played.",
        "# species.toml: psyduck evolves into golduck by collecting\n// field-guide.kdl:\nbox fill=\"collect:psyduck\" gives=\"species:slowbro\"";
    MisusedStyle = "SZ0307", "a box's style or shape contradicts how it is filled",
        "A trigger box (blue) is filled as a side effect of an event, so its fill must be an event (`collect:...` or `obtain:...`). A box filled only by a bonus chain (`fill=\"bonus\"`) must be square, since bonus chains only fill square boxes.",
        "box style=\"trigger\" fill=\"dice:area\"";
    LayoutOverlap = "SZ0308", "sections leave the sheet or overlap",
        "The Field Guide (and every roll-and-write sheet of a game made of components) is laid out on a grid: `sheet columns=N`, and each section placed with `column`, `row`, `width` and `height` (1-based cells). A section that reaches past the last column, or shares a cell with another section, cannot be drawn. Move or resize it.",
        "sheet columns=2\nsection \"bag\" column=2 width=2 fill=\"dice:item\" {\n    track \"rods\" { box }\n}";
    LayoutOverflow = "SZ0309", "a sheet does not fit on its paper",
        "The Field Guide (and every roll-and-write sheet of a game made of components, `[[sheet]]`) is laid out by `safari` before it is printed: sections on the sheet's grid, tracks wrapping between boxes, evolution lines and Bag tracks in columns, text measured with the bundled fonts. When content grows, the layout adapts first (it balances the sections over the grid, tightens the spacing, wraps tracks, and shrinks boxes to 5 mm and text to 7 pt). Only when the sheet still does not fit on one side of the paper is this reported, on the section at fault: by how many millimetres, on which paper, and edits that were tried and make it fit (move a section, split a track, another paper). It is checked for the manifest's paper, or `--paper`, by `check` and `build` alike.",
        "// a Bag one column wide, with a track of 60 boxes, on Letter\nsection \"bag\" column=3 row=2 fill=\"dice:item\" {\n    track \"long\" { box repeat=60 vp=1 gives=\"item:repel\" }\n}";
    SetupShort = "SZ0310", "a setup uses more than the game has",
        "A setup says what goes where at the start for some player counts: cards dealt to each player, cards laid out in a grid, token colours handed out, pieces placed. For every player count it covers, the cards dealt and laid out from a deck must not outnumber the deck's cards in play (its copies, less the cards the setup removes), and a colour of tokens for each player needs as many kinds as players. The label shows the player count that runs short and by how much.",
        "[[setup]]\nplayers = [2, 3, 4]\ndeal = [{ deck = \"animals\", each = 20 }]   # 4 x 20 = 80 of 56 cards";
    SetupCoverage = "SZ0311", "a player count has no setup, or two",
        "When a game gives setups, every player count the manifest allows (`[players] min` to `max`) needs exactly one, so that the printed rules and a playable build know how each game starts. Add the missing count to a setup's `players`, remove it from one of two setups, or narrow `[players]`.",
        "# game.toml: [players] min = 2, max = 5\n[[setup]]\nplayers = [2, 3, 4]   # and no setup for 5";
    SetupCollision = "SZ0312", "two pieces start on one cell, or one piece twice",
        "A setup places pieces on a board's cells. A piece is in one place, and a cell holds one piece at the start: two placements of the same piece, or two pieces on the same cell, cannot both be set up.",
        "place = [\n  { piece = \"animals/lion\", board = \"land\", at = \"c4\" },\n  { piece = \"animals/zebra\", board = \"land\", at = \"c4\" },\n]";
    TooLargeForPaper = "SZ0313", "a card, tile, token or piece does not fit on the paper",
        "Cards are printed with their bleed and crop marks, and tiles, tokens and standees with their cut lines, inside the margins a home printer can reach (6.35 mm a side). A card larger than that area even turned a quarter, or a piece larger than the page, cannot be printed on the paper: choose a larger paper (`[print] paper` or `--paper`), or a smaller card size or piece.",
        "# game.toml\n[print]\npaper = \"a4\"\n# components.toml\n[[deck]]\ncard-size = { width-mm = 250, height-mm = 300 }";
    EffectMisfit = "SZ0314", "an item's effect cannot happen for an item of its kind",
        "An item's effect is a list of steps (docs/content.md). A passive item is held and never spent, so its steps hold while the player has it: re-rolling a hazard, an extra re-roll, a habitat, a bonus to every capture roll. A usable item is spent with a Trainer face, which is resolved after rolling and before the encounter, so its steps are the ones a Trainer face can pay for: filling a box labelled with it, locking a capture die, reshuffling the discard pile, redrawing a species, a bonus to one capture roll. A step on the wrong kind of item never happens: change the item's `kind`, or the step.",
        "[[item]]\nid = \"bicycle\"\nkind = \"usable\"\neffect = \"reroll-hazard\"   # re-rolls happen before any Trainer face is spent";
    SheetHalfEmpty = "SZ0315", "a sheet would fit on half its page",
        "A roll-and-write sheet of a game made of components is laid out on the game's paper, unless it has its own, at the most generous sizes at which it fits; what it does not fill stays blank. When the sheet fits just as generously on half the page (the page cut across its long side: 148 x 210 mm of A4), printing it on the whole page wastes half of every sheet players use up: give the sheet that paper (`paper = \"148x210\"` on its `[[sheet]]`, which the warning's help names, verified by laying the sheet out on it), or add to it. A sheet given its own `paper` is printed on it as chosen, without this warning. A warning: the sheet prints as it is.",
        "[[sheet]]\nid = \"log\"\nname = \"Log\"\nlayout = \"log.kdl\"   # five boxes on an A4 page";
    SuitComposition = "SZ1001", "an animal suit does not hold each value once (Gamewright's Safari)",
        "In Gamewright's Safari every animal is a suit of cards valued 1 to the highest value, one card of each, so that a player's best card of a suit is a fair race and the penalty suit subtracts what the rules say. A suit with a value missing, a value twice, a value out of range, or a card with no suit or value breaks the scoring. The report names the suit and what it lacks or repeats.",
        "[[deck.card]]\nid = \"lion-{value}\"\nanimal = \"lion\"\nfor-each = { value = [1, 2, 3, 4, 5, 6, 6] }   # no 7, two 6s";
    JungleDeal = "SZ1002", "the jungle and the hands do not deal exactly the cards in play (Gamewright's Safari)",
        "Setting up Gamewright's Safari deals a hand to each player and lays every other animal card face down as the jungle grid, whose size depends on the player count. For each player count the rules allow, the hands (cards each times players) plus the grid's cells must equal the animal cards in play, the deck less what the setup removes (the five-player game removes the Hyena 4): a card over is left out of the jungle, a card short leaves a hole in it.",
        "[[setup]]\nplayers = 2\ndeal = [{ deck = \"animals\", each = 7 }]\ngrid = [{ deck = \"animals\", rows = 6, columns = 6 }]   # 14 + 36 of 56";
    MapOversize = "SZ1101", "a map card needs more tiles or photo tokens than the game has (DiceAFARI)",
        "A DiceAFARI map card shows the shape the Safari Tiles are laid out in; a Photo Token goes on every space between two tiles side by side. A map with more tiles than the tile set holds, or more spaces between tiles than there are Photo Tokens, cannot be built. The card's printed counts must also agree with its layout.",
        "[[deck.card]]\nid = \"whale\"\nlayout = [\"XXXXXXX\", \"XXXXXXX\", \"XXXXXXX\"]   # 21 tiles of 18";
    MapUnclaimable = "SZ1102", "a map tile lies on no route, and only a Bonus can claim it (DiceAFARI)",
        "A turn of DiceAFARI claims tiles with the Safari Dice along one route: four tiles side by side in a straight line, or a two-by-two square (`[play] route`). A tile of a map that is part of no such group on the map (the tip of a tail two tiles long, an ear of one tile) is never claimed by the dice. A Bonus can claim it: a player who claims exactly the Bonus Die's number of tiles then claims any tile not claimed before. The game ends only when every tile is claimed, so it waits for Bonuses to claim these tiles. A warning: the game can end. Widen the map around the tile, or remove it. When no face of the Bonus Die is ever earned, nothing claims the tile, and it is SZ1108.",
        "layout = [\n  \"XX..\",\n  \"XX..\",\n  \".X..\",   # this tile joins no line of four and no square\n]";
    DieTerrain = "SZ1103", "a die face and the tiles do not match (DiceAFARI)",
        "Each Safari Die face names the terrain of a tile it lets the player claim. A face whose terrain no tile has claims nothing, and a terrain no die face shows can never be claimed, so the game cannot end. Make the dice's faces and the tiles' kinds the same terrains.",
        "# tiles: scrubland, jungle, desert, mountain, savanna, marsh\nfaces = [\"jungle\", \"desert\", \"mountain\", \"savanna\", \"marsh\", \"swamp\"]";
    TurnClaimsTooFew = "SZ1104", "no turn can claim the tiles a turn needs (DiceAFARI)",
        "Each Safari Die claims one tile of the terrain it shows, on one route, and a turn that cannot claim at least two tiles after its rolls ends without claiming any. One Safari Die (or a route of one tile, `[play] route`) claims at most one tile a turn: no turn ever claims, no Bonus is earned (it needs a claim first), and the game, which ends when every tile is claimed, never ends. Give the Safari Dice a `count` of at least two (the rulebook's game has four, one for each tile of a route), and a route of at least two tiles.",
        "[[dice]]\nid = \"safari-dice\"\ntype = \"d6\"\ncount = 1   # one tile a turn, and a turn needs two\nfaces = [\"scrubland\", \"jungle\", \"desert\", \"mountain\", \"savanna\", \"marsh\"]";
    RouteBeyondDice = "SZ1105", "the Safari Dice never claim a whole route in one turn (DiceAFARI)",
        "A turn claims up to a route's tiles (`[play] route`, four in the rulebook), one for each Safari Die showing the tile's terrain. With fewer dice than a route has tiles, no turn claims a whole route, and a Bonus Die face above the number of dice (claim exactly that many tiles) is never earned: the report names those faces. A warning: turns still claim, and the game ends. Give the Safari Dice a die for each tile of a route, or shorten the route.",
        "# [play] route = 4 (the default), and:\n[[dice]]\nid = \"safari-dice\"\ntype = \"d6\"\ncount = 3   # and the Bonus Die shows a 4";
    BonusUnearned = "SZ1106", "a Bonus Die face is never earned (DiceAFARI)",
        "A player earns the Bonus by claiming (or reclaiming) exactly the number of tiles the Bonus Die shows, then claims one more tile anywhere not claimed before. A player who could claim more may choose to claim fewer, so every number from 1 to the most a turn claims (the smaller of the Safari Dice and the route's tiles) is earned; a face above a route's tiles, or below 1, never is, and rolling it gives no Bonus. A warning: the other faces work. Number the Bonus Die's faces from 1 to the tiles a turn claims. (A face above the number of Safari Dice but within a route is named by SZ1105, which has the one cause.)",
        "# a route of 4 tiles\n[[dice]]\nid = \"bonus-die\"\ntype = \"d6\"\ncount = 1\nfaces = [1, 2, 3, 4, 5, 6]   # 5 and 6 are never earned";
    TravelTokensShort = "SZ1107", "a colour of Travel Tokens has fewer tokens than the tiles a player may hold (DiceAFARI)",
        "A player claims a tile by putting a Travel Token of their colour on it, and the token stays until another player reclaims the tile with their own (reclaiming one's own tile leaves the token in place). A map may be laid from every Safari Tile (the rulebook invites custom maps of any shape), and one player may come to hold every tile of it, so each colour needs a token for every Safari Tile: the rulebook has 18 of each colour for its 18 tiles. With fewer, a player can run out of tokens with a tile to claim. Give each colour as many tokens as there are Safari Tiles.",
        "# 18 Safari Tiles, and:\n[[tokens]]\nid = \"travel-tokens\"\nkind = [{ symbol = \"red\", count = 12 }, { symbol = \"blue\", count = 12 }]";
    TileNeverClaimed = "SZ1108", "a map tile can never be claimed (DiceAFARI)",
        "A tile of a map that lies on no route (SZ1102) is never claimed by the Safari Dice; only a Bonus can claim it. When no face of the Bonus Die is ever earned (every face is above the tiles a turn claims, or below 1), nothing ever claims the tile, and the game, which ends when every tile is claimed, never ends. The report labels the Bonus Die. The same holds on a map with no route at all: a Bonus is earned by a claim, and no turn claims a tile of such a map. Number the Bonus Die's faces from 1 to the tiles a turn claims, or put the tile on a route.",
        "# a map with a tile on no route, and:\n[[dice]]\nid = \"bonus-die\"\ntype = \"d6\"\ncount = 1\nfaces = [5, 5, 5, 6, 6, 6]   # routes of 4 tiles";
    AnimalOffGround = "SZ1201", "an animal does not start on open ground (Tricky Safari)",
        "In Tricky Safari the animals start on open ground: a forest or lake cell blocks movement and photographs, and an animal set up on one would stand where no animal can be. Move it to an open cell nearby (the rulebook moves an animal one cell when a layout covers its start).",
        "place = [{ piece = \"animals/lion\", board = \"landscape\", at = \"c3\" }]   # c3 is forest";
    AnimalHidden = "SZ1202", "an animal can never be photographed (Tricky Safari)",
        "A camera photographs an animal from the cell in front of it or at one of its sides, never from behind, standing on open ground it can reach from its corner (it moves like a queen over open ground). Animals move every round by the rulebook's six cases, so an animal that starts with forest, lake or the edge at its front and sides is photographed once its walk turns it (facing the edge in a corner, it turns around at its first move). The checker walks each animal from its start by those cases, with the other animals and the cameras allowed to stand on any cell it could walk on at any step, and reports one that no state of its walk shows to a camera: fenced in by forest or lake where no camera can stand beside it, it can never be photographed, and no player can photograph all the animals. The report names the cells its walk keeps to. Open a cell beside its walk, or start it elsewhere.",
        "# the lion at a1, with forest at b1, b2, a3 and b3: it walks a1 and a2 and nothing else,\n# and no camera can stand beside it";
    CameraCorner = "SZ1203", "a camera does not start in a corner (Tricky Safari)",
        "Each player's camera starts in a corner of the board, so that both players are as far from the animals as each other. A camera placed elsewhere, or a corner that is forest or lake, breaks that. Place each camera on an open corner cell.",
        "place = [{ piece = \"cameras/yellow\", board = \"landscape\", at = \"e5\" }]";
    WalledIn = "SZ1204", "an animal is walled in by terrain (Tricky Safari)",
        "Animals move every round, turning when blocked; an animal whose four neighbouring cells are all forest, lake (for the animals those block) or the board's edge can never move, and turns on the spot for the whole game. Open one of its neighbours.",
        "# the zebra at a1 with forest at b1 and a2";
    PhotoLog = "SZ1205", "the photo log misses an animal or a move (Tricky Safari)",
        "A game that names a photo log (`[play] log`, a sheet) gives each player a sheet to keep what the rulebook's screen shows: a box for each animal, labelled with its name, to tick when it is photographed, and a track `moves` of one box per move (`[play] moves`). An animal with no box, or a track of another length, leaves the players without a place to write it down. A box whose label names no animal but is spelled like the name of an animal with no box is reported at the box, with the name it is close to; an animal with no box otherwise is reported at the section of the other animals' boxes, with a label on each box that names no animal. Correct the label, add the box, or make the track as long as the moves.",
        "# [play] moves = 40, and in photo-log.kdl:\ntrack \"moves\" { box shape=\"circle\" repeat=30 }";
    SpeciesFillsNothing = "SZ0316", "catching a species fills no box",
        "A species the Encounter Deck shows should matter when caught: collecting it fills its Pokédex box, Evolutions and guest boxes labelled with it, and trigger boxes waiting for it, and its evolutions collect the species they lead to. When no box is filled by collecting it or needs it (directly or through what it evolves into), a catch spends Safari Balls for nothing but the tie-break (more species collected). Give it a box, or take its cards out of the deck.",
        "# deck.toml\n[[card]]\nspecies = \"ditto\"\n// field-guide.kdl: no box with fill=\"collect:ditto\" or needs=\"species:ditto\"";
    GiftGivenElsewhere = "SZ0317", "a Bag track gives an item that other boxes give too",
        "Each item is obtained once: the first box that gives it hands it over, and every other box giving it gives nothing more. When a track of the Bag (the boxes Item faces fill) gives an item that a box elsewhere gives too, a player who gets it there finds the Bag track's gift empty, so the track stops mattering for it. Give each item in one place, or make the other boxes give something else.",
        "section \"bag\" fill=\"dice:item\" {\n    track \"repel\" { box; box gives=\"item:repel\" }\n}\nsection \"areas\" fill=\"dice:area\" {\n    track \"area-1\" { box gives=\"item:repel\" }\n}";
    CauseNotInRules = "SZ0318", "the Park Rules never mention a way boxes are filled",
        "Players learn the game from the Park Rules on the back of the sheet, not from field-guide.kdl. Each way the Field Guide fills boxes (a die face, the turn, a Safari Ball, collecting a species, using or obtaining an item, free and bonus boxes) should be named in park-rules.typ: this check looks for a word of it (the face, item or species name or id, or `turn`, `ball`, `collect`, `obtain`, `free`, `bonus`) in the Park Rules outside comments, or for the page helper that writes its rule (`face-rule(\"area\")`, `item-rule(\"evolve\")`, `box-rule(\"free\")`). It cannot tell whether the sentence is right, only that one exists.",
        "// field-guide.kdl\nsection \"lucky\" fill=\"dice:trainer\" { ... }\n// park-rules.typ never mentions Trainer faces";
    ComponentUnread = "SZ0319", "a component no rule reads",
        "A game made of components has a rules module (the manifest's `rules`) that plays it: it reads the components its keys name (`[play]`, or the keys' defaults: docs/content.md lists each module's). A deck, set of dice, tiles, tokens, board, pieces or sheet that no key names is printed and exported, but the rules never deal, roll, lay or score it, and `sim` never plays it: a die added for a new rule stays on the table until the rules module reads it. Give it to a key that names what it is for (the Safari Dice of DiceAFARI are `[play] dice`), give the rules module a rule that reads it, or remove it. A game whose rules are `none` reads no component, and is not checked.",
        "# components.toml of a DiceAFARI game\n[[dice]]\nid = \"weather-die\"\nname = \"Weather Die\"\ntype = \"d6\"\ncount = 1\nfaces = [1, 2, 3, 4, 5, 6]   # no rule of diceafari rolls it";
    EffectOnMissingFace = "SZ0320", "an item's effect acts on a die face no die has",
        "Some steps of an item's effect act on a die face: `reroll-hazard` (the Bicycle's) re-rolls a die showing a hazard. When no expedition die has that face (the hazards taken off the dice to make the game gentler, say), the step never happens: the item is obtained, held, and does nothing, and the boxes and gifts that hand it over are worth less than they look. Give a die the face back, or give the item another effect (docs/content.md lists the steps).",
        "# dice.toml: faces = [\"area\", \"trainer\", \"item\", \"grass\", \"water\", \"grass\"]\n# items.toml\n[[item]]\nid = \"bicycle\"\nkind = \"passive\"\neffect = \"reroll-hazard\"";
    Unreachable = "SZ0401", "a box can never be filled",
        "Starting from an empty sheet, the checker computes everything a player could ever obtain (items, species, area access, habitat bonuses, victory points, die faces) as a least fixpoint, assuming every reachable box is filled in one game. A box outside that set can never be filled by any sequence of play. There is one report per root cause (a victory-point threshold above what the sheet can give, an item no box grants, a species no card or box provides), with a label on the first blocked box of each track and on each dead card, saying the chain of reasons that links it to the root. Fix the root and they all open.",
        "box needs=\"vp:500\"   // the whole sheet gives 180 VP";
    ImpossibleLoop = "SZ0402", "boxes depend on each other in a loop with no way in",
        "A group of boxes, items, species or cards can only be obtained through each other: a key granted behind the door it opens, a species caught only with an item granted by its own Pokédex box. Nothing outside the loop can start it, so none of it can ever be filled. Every link of the loop is labelled; break one of them.",
        "track \"area-1\" {\n    box needs=\"item:area-1-key\"\n    box gives=\"item:area-1-key\"\n}";
    EvolutionLoop = "SZ0403", "an evolution leads back to its own start",
        "Species evolve forward: following `evolutions` from a species must never lead back to it. A loop makes the collection process endless (each collection evolves the next). Remove the evolution that closes the loop.",
        "[[species]]\nid = \"psyduck\"\nevolutions = [{ into = \"golduck\" }]\n[[species]]\nid = \"golduck\"\nevolutions = [{ into = \"psyduck\" }]";
    BonusConfined = "SZ0404", "a bonus chain can only continue inside its own section",
        "A bonus (gold) box lets the player fill another square box, but a chain never passes through two bonus boxes of the same section in a row. A bonus box that can only be filled by a bonus chain, when every bonus box that could start that chain is in its own section, can never be filled.",
        "section \"lucky\" fill=\"dice:item\" {\n    track \"clover\" { box style=\"bonus\" }\n    box \"charm\" style=\"bonus\" fill=\"bonus\"\n}\n// and no bonus box in any other section";
    BoundedEvent = "SZ0405", "boxes wait for an event that happens fewer times than they need",
        "Obtaining an item or collecting a species fills, in each section, the first open box that waits for it and the first open trigger box. Some events happen a bounded number of times a game: each item is obtained once, and a species no card shows is collected only when a box gives it. When boxes of one section wait for such an event and others of the section that wait for nothing else take every occurrence first, the later ones can never be filled, although each looks reachable on its own. The report names the box, the event, how often it happens and the boxes that take it.",
        "section \"keyring\" fill=\"obtain:key\" {\n    track \"a\" { box style=\"trigger\" }\n    track \"b\" { box style=\"trigger\" }   // the key is obtained once: `a` takes it\n}";
    ClosedAtEvent = "SZ0406", "a box is never open when the event it waits for happens",
        "Obtaining an item or collecting a species fills the boxes that wait for it and are open at that moment, in Field Guide order, each with everything that follows from it (the items and species it gives, and their events) before the next; a box opened by the event's own cascade waits for the next one. Some events happen only at set moments: an item is obtained once, when the first box giving it is filled, a species is caught at most once per card and given once per box giving it, and a free box open at the start is filled at once, before any choice. The checker plays every order of play on a guide small enough, and reports a box that no order fills although each thing it needs can happen: closed at every moment its event happens (or, for a box filled otherwise, never open when something fills it: a bonus chain, for one, comes once each time a bonus box is filled). The report marks the moments: the boxes and cards that make the event.",
        "section \"evolutions\" {\n    track \"alpha-line\" { box fill=\"collect:alpha\" gives=\"species:beta\" }\n}\nsection \"later\" {\n    track \"pair\" {\n        box fill=\"collect:alpha\"   // filled after alpha-line#1 gives beta\n        box fill=\"collect:beta\"    // beta has no card: never open when it comes\n    }\n}";
    UncatchableCard = "SZ0501", "a card's criteria can never be met",
        "A card can only be encountered when the player meets its criteria: enough grass and water habitats rolled this turn (expedition dice faces plus habitat bonuses from the Areas), access to an area, an item in the Bag. When no sequence of play meets them (more habitats than the dice and reachable bonuses can show, an area or item that can never be obtained), the card is dead weight in the deck.",
        "[[card]]\nspecies = \"dragonair\"\nhabitats = \"[W][W][W][W][W][W]\"   # five dice, one bonus";
    CaptureOutOfReach = "SZ0502", "a capture rate the capture dice cannot reach",
        "A Pokémon is caught when the capture dice total at least its capture rate. With three six-sided dice the total is 3 to 18; a higher rate can never be rolled. The range follows the capture dice in dice.toml.",
        "[[card]]\nspecies = \"mew\"\ncapture-rate = 19";
    TurnBudget = "SZ0601", "a box needs more turns than the game has",
        "The box is reachable, but even in the best case (every die showing the face it needs, every bonus used for it) it cannot be filled before the last turn of the Turn Tracker. The lower bound counts die faces per turn, track order and the turns its requirements need. Players will never fill it in practice: shorten its track, add turns, or accept it (then say why in the content).",
        "# game.toml: 20 turns; dice.toml: 5 dice, one `area` face each\n// field-guide.kdl: an Areas track of 120 boxes\ntrack \"long-walk\" fill=\"dice:area\" { box repeat=120 }";
    TemplateError = "SZ0701", "a print template or the Park Rules failed to typeset",
        "The print files (Field Guide, Encounter Deck, dice) are typeset by Typst from the templates in `templates/` (built in, or overridden by a file of the same name in the game folder's `templates/`) and from the game's `park-rules.typ`. A Typst error in one of them (a syntax error, an unknown variable, a field the data does not have, a missing image) stops the build before anything is written. The label points at the Typst source; the game data a template receives is described in templates/README.md.",
        "// park-rules.typ\n= Park Rules\n#undefined-function()";
    TemplateWarning = "SZ0702", "Typst warned while typesetting a print file",
        "Typst typeset the file but warned about something in a template or the Park Rules, such as a font family it does not have (only the bundled fonts are available, so the output is the same on every machine) or a layout it had to give up on. The outputs are written; check them.",
        "// park-rules.typ\n#set text(font: \"Comic Sans MS\")";
    TypesetLimit = "SZ0704", "typesetting ran past its time or memory bound",
        "Templates and the Park Rules are Typst programs, and a program can loop for hours or fill memory (`#for i in range(100000000) []`, a huge `#lorem`). `safari build` and `safari watch` therefore typeset in a worker process of their own, bounded in time (`--typeset-timeout SECONDS`: 300 by default for the build, and 60 from its start for a document that runs the game's own Typst, its Park Rules or a template it overrides; given, it bounds every document alike) and in memory (`--typeset-memory SIZE`, 4G by default); a build that goes past either bound, or whose worker crashes, is stopped and reported with this code, naming the documents that were being typeset, and nothing is written. Look for a loop, a huge repetition or an enormous size in park-rules.typ or the game's templates; when only safari's built-in templates were typesetting, the message says so: the content itself is that large (check keeps it within what the default bounds typeset on a 2-core machine), so build fewer parts at once with `--only`. A document that really is that large can be given more time or memory with the options.",
        "// park-rules.typ\n#for i in range(100000000) [ #i ]";
    NoParkRules = "SZ0703", "the game has no Park Rules for the back of the sheet",
        "The back of the Field Guide is the Park Rules, written by the designer as Typst markup in `park-rules.typ` in the game folder. Without it the back is a reference page generated from the content (dice faces, items, the deck list), which is no substitute for the rules. Write park-rules.typ (see `safari init` for a starting point).",
        "# a game folder with game.toml and the content files, and no park-rules.typ";
    OutputUnwritable = "SZ0801", "the outputs could not be written",
        "A build writes its files into a staging folder beside `out/<game>/` and, only when every file is written, swaps it in place of the old folder: either every output is replaced or none is. This code reports a fault of the file system on the way (no space left, no permission, a read-only folder, a name the file system refuses); the previous outputs are left as they were. The message names the path and the operating system's reason.",
        "$ chmod a-w out && safari build";
    OutputOfAnotherGame = "SZ0802", "the output folder holds another game folder's outputs",
        "A game's outputs go to `out/<id>/`, named by the `id` in game.toml. A copy of a game folder (to try a change beside the original) keeps the original's id, so both would build into the same folder, each silently replacing the other's print files, ruleset and playtest page. Every build marks its output folder with the game folder it was built from (`out/<id>/.safari-game`), and a build or `watch` of another folder with the same id is refused, leaving the outputs as they were. Give the copy an id of its own, build it elsewhere with `--out`, or pass `--replace` to replace the other folder's outputs on purpose.",
        "$ cp -r my-game my-game-v2 && safari build my-game && safari build my-game-v2";
    AssetBaseUnusable = "SZ0803", "--asset-base is not a folder address the table can load images from",
        "`--asset-base URL` says where the Tabletop Simulator save finds its images once you have uploaded the files of `out/<game>/tts/images/` there: each image's address in the save is that URL, `/`, and the file's name. So it must be the plain address of a folder: starting with https:// (or http://, or file:/// for a folder on this machine), with no spaces, and with no query or fragment (a share link's `?dl=0` would end up before the file's name, and every image would fail to load at the table). Nothing is built until it is one; docs/tabletop-simulator.md shows how to host the images.",
        "$ safari build --asset-base 'https://www.dropbox.com/s/abc/images?dl=0'";
    ImageNotWritten = "SZ0804", "the Tabletop Simulator save names an image the build does not write",
        "Every image the saved object names is `<asset base>/<file>` for a file the same build writes into `out/<game>/tts/images/`, the folder you upload: so a table loaded from the save finds every image once that folder is uploaded. A build whose save names any other address is refused and writes nothing. This is a fault of safari, not of the content: please report it with the game folder.",
        "# none: safari itself would have to name an image it does not write";
    OutputFolderNotSafaris = "SZ0805", "the output folder is not one safari made",
        "A build replaces its output folder `out/<id>/` whole, and `watch`, `sim` and `diff` write into it and remove what they no longer make; so the folder must be one whose every file is safari's. Every output folder safari makes carries a mark, `.safari-game`. A folder at that place that holds anything and has no mark (a folder of your own that happens to have the game's name, one reached by `--out` pointing somewhere else), or a file or a symbolic link there, is never replaced, written into or removed from, by any command and with any option: the command stops before writing anything. Move the folder away if it is yours, or build into another folder with `--out`. An empty folder is taken as free.",
        "$ mkdir -p out/safari-zone && echo notes > out/safari-zone/notes.txt && safari build";
    OutputAmongSources = "SZ0806", "the output folder would be the game folder, hold it or lie among its files",
        "Outputs go into a folder of their own, never among the game's own files: the output folder `<out>/<id>/` may not be the game folder (a game folder named after its id, built with `--out` set to the folder above it), hold it, sit directly in it beside `game.toml`, or lie inside a folder of the game that holds files of its own (`templates/`, `art/`); inside a folder that holds only output folders (the game's `out/`) it may. The check is made where the output folder leads, its links followed. Build into the game's `out/`, or name another place with `--out`.",
        "$ safari init safari-zone && safari build safari-zone --out .";
    OutputThroughLink = "SZ0807", "the output folder is reached through a link that may not lead there",
        "safari follows a symbolic link on the way to the output folder only where you named the place. Two links are refused, before anything is written: a link inside a game folder that leads out of it (a game folder, downloaded or cloned, can carry a link `out -> ../somewhere`, and its content must never choose where outputs land outside it), and a link at the default `out` when `--out` was not given (the link may have come with the folder you are in). To build through a link on purpose, name the place with `--out`; a link inside a game folder that leads out of it is refused even then: remove it, or pass `--out` with the place it leads to.",
        "$ ln -s ../elsewhere my-game/out && cd my-game && safari build";
    OutputRootIsAFile = "SZ0808", "the output folder is a file",
        "`--out DIR` names the folder that holds one output folder per game (`DIR/<id>/`), and without it the game's `out/` does. When that place, or a folder on the way to it, is a file, nothing can be written there: every command that writes (`build`, `watch`, `sim`, `diff`, `playtests`) refuses it before it does any work, so that a simulation or a diff never plays all its games to fail at the end. Give `--out` a folder (an existing one, or one safari may create), or leave it out to write into the game's `out/`.",
        "$ touch results && safari sim --out results";
}

impl Code {
    /// Whether this fault means some content could not be loaded at all (a file, an entry,
    /// a node), as opposed to content that loaded and is wrong.
    pub(crate) fn loses_content(self) -> bool {
        matches!(
            self,
            Code::FileUnreadable
                | Code::NotUtf8
                | Code::NotAGame
                | Code::OutsideGame
                | Code::KdlSyntax
                | Code::TomlSyntax
                | Code::InvalidValue
                | Code::UnknownNode
                | Code::LimitExceeded
        )
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Code {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        let wanted = s.trim().to_ascii_uppercase();
        Code::ALL
            .iter()
            .copied()
            .find(|code| code.as_str() == wanted)
            .ok_or(())
    }
}
