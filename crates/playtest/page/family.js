// The playtest page of a game made of components. It holds no rule: the engine (WebAssembly,
// the same Rust as `safari sim`, in a Web Worker) lists what the seat to move may do, does it,
// and shows each seat only what that seat may see; this script draws its answers and sends it
// the clicks. Each game draws its own table (RENDERERS); everything else is shared.
"use strict";

(() => {
  const { $, el, download, colour, whole, unofferedBot, MOST_BYTES } = SafariPage;
  const inTurn = SafariPage.inTurn();

  const PACES = { slow: 1400, normal: 600, fast: 150, instant: 0 };
  // The bots the New game menu offers: the only ones a stored game or a log may seat.
  const BOTS = ["random", "greedy", "search"];
  // The most cells a table's side may have here (the engine holds each game to fewer).
  const MOST_SIDE = 64;
  const S = {
    engine: null,
    embeddedText: "",
    rulesetText: "",
    ruleset: null,
    opened: null,
    variants: [],
    seats: [],
    seed: 0,
    state: null,
    viewer: null,
    passing: false,
    selected: null,
    pace: "normal",
    paused: false,
    botTimer: null,
    // The bot's move the engine is working out, until it is shown (or abandoned).
    thinking: null,
    // The action a hint suggests, lit on the table until the game moves on.
    hint: null,
  };

  // ---- The engine -------------------------------------------------------------------------

  const call = (request) => S.engine.call(request);

  // The game in progress as the engine's `resume` takes it.
  const logOf = (state) => state.log.map(({ seat, action, by_bot }) => ({ seat, action, by_bot }));

  // Puts the page's ruleset and game back into the engine (after it was restarted, or after a
  // request that failed half-way).
  async function reinstate() {
    S.opened = await call({ op: "open", ruleset: S.rulesetText, variants: S.variants });
    if (S.state) await call({ op: "resume", seats: S.seats, seed: S.seed, log: logOf(S.state) });
  }

  // Abandons a bot's move under way: the engine is started afresh on the game as the page
  // shows it, before the move.
  async function stopBots() {
    clearTimeout(S.botTimer);
    if (!S.thinking) return;
    S.thinking = null;
    await S.engine.restart();
    await reinstate();
  }

  // A person's operation: one at a time, a bot's move under way abandoned first, the bots
  // going on after it.
  const operate = (task) => inTurn(async () => {
    try {
      await stopBots();
      await task();
    } catch (error) {
      if (error.fatal) fatal(error.message);
      else say(error.message, "error");
    } finally {
      if (S.state) scheduleBot();
    }
  });

  // ---- Messages -----------------------------------------------------------------------------

  function say(text, kind = "info") {
    const bar = $("#message");
    if (!bar) return;
    bar.textContent = text;
    bar.className = kind;
  }

  // ---- Why not -------------------------------------------------------------------------------

  // What a click on the table cannot take now says why: on hover (its title) and on a click or
  // a tap (the message line: touch screens have no hover). The engine words the rules' reasons
  // (`why`, asked once for everything a drawing refuses); the page says only whose turn it is.
  // The engine's words as a sentence: a capital (not of a cell's name, `c4`) and a full stop.
  const sentence = (text) => (text ? `${/^[a-z]{2}/.test(text) ? text[0].toUpperCase() + text.slice(1) : text}${/[.!?]$/.test(text) ? "" : "."}` : "");
  let asking = [];
  let drawing = 0;

  // `node` refused: `action` is what a click on it would ask of the engine.
  function refuse(node, action) {
    const ask = { node, action, reason: null };
    ask.known = new Promise((resolve) => { ask.resolve = resolve; });
    node.setAttribute("aria-disabled", "true");
    node.classList.add("refused");
    node.addEventListener("click", async () => say(await ask.known, "refusal"));
    asking.push(ask);
    return node;
  }

  function settle(ask, reason) {
    ask.reason = reason;
    ask.node.title = reason;
    ask.node.dataset.why = reason;
    ask.resolve(reason);
  }

  // Why nothing on the table can be taken, when it is not the shown seat's to take.
  function notYours() {
    const { outcome, to_move: mover, bots } = S.state;
    if (outcome) return "The game is over.";
    if (bots[mover]) return `${seatName(mover)} is to play.`;
    if (mover !== S.viewer) return `It is ${seatName(mover)}'s turn.`;
    return null;
  }

  // Asks the engine why for everything the drawing just made refused; a later drawing's
  // answer replaces it.
  function explain() {
    const asks = asking;
    asking = [];
    const generation = ++drawing;
    const shell = notYours();
    if (shell || !asks.length) {
      asks.forEach((ask) => settle(ask, shell || ""));
      return Promise.resolve();
    }
    return call({ op: "why", actions: asks.map((ask) => ask.action) }).then(
      ({ reasons }) => asks.forEach((ask, i) => settle(ask, generation === drawing ? sentence(reasons[i]) : "")),
      () => asks.forEach((ask) => settle(ask, "")));
  }

  // The page stops: nothing more is drawn or asked of the engine.
  function fatal(text) {
    clearTimeout(S.botTimer);
    S.thinking = null;
    S.state = null;
    const app = $("#app");
    app.dataset.state = "failed";
    app.replaceChildren(el("div", { class: "fatal", role: "alert" }, el("h1", {}, "The game cannot start"), el("p", {}, text)));
  }

  const where = (error) => (error.path ? ` (at ${error.path})` : "");

  // A bot a game names that the page does not offer, for a message.
  const botRefusal = (bot) => `it seats a bot this page does not offer, ${JSON.stringify(bot)} (the bots here: ${BOTS.join(", ")})`;

  // ---- Seats, hot seat and storage ------------------------------------------------------------

  const humans = () => S.seats.map((bot, seat) => (bot ? null : seat)).filter((s) => s !== null);
  const seatName = (seat) => (S.seats[seat] ? `Bot ${seat + 1} (${S.seats[seat]})` : `Player ${seat + 1}`);
  const storageKey = () => `safari-family/${S.ruleset.game.id}/${S.ruleset.game.versions ? JSON.stringify(S.ruleset.game.versions) : ""}`;

  function keep() {
    if (!S.state) return;
    const kept = {
      ruleset: S.rulesetText === S.embeddedText ? null : S.rulesetText,
      variants: S.variants,
      seats: S.seats,
      seed: S.seed,
      log: logOf(S.state),
    };
    try {
      localStorage.setItem(storageKey(), JSON.stringify(kept));
    } catch (_) {
      try {
        localStorage.removeItem(storageKey());
      } catch (_) {
        // Storage refused altogether: the game goes on unsaved.
      }
    }
  }

  function kept() {
    try {
      return JSON.parse(localStorage.getItem(storageKey()) || "null");
    } catch (_) {
      return null;
    }
  }

  // The game kept in the browser's storage, picked up again: whether there was one to pick up.
  async function restore() {
    const game = kept();
    if (!game || !Array.isArray(game.seats)) return false;
    const bot = unofferedBot(game.seats, BOTS);
    if (bot !== null) {
      say(`The saved game was not picked up again: ${botRefusal(bot)}. Here is a new one.`, "error");
      return false;
    }
    try {
      await openRuleset(game.ruleset || S.embeddedText, game.variants || []);
      S.seats = game.seats;
      S.seed = game.seed;
      S.viewer = null;
      await show(await call({ op: "resume", seats: game.seats, seed: game.seed, log: game.log || [] }));
      say("Your game in progress is back where you left it.");
      return true;
    } catch (error) {
      await openRuleset(S.embeddedText, []);
      say(`The saved game could not be picked up again (${error.message}); here is a new one.`, "error");
      return false;
    }
  }

  // The symbols whose colour is no colour, drawn in a colour of the page's instead.
  function uncoloured(ruleset) {
    const symbols = Array.isArray(ruleset.symbols) ? ruleset.symbols : [];
    return symbols.filter((s) => s.color !== undefined && s.color !== null && !colour(s.color)).map((s) => s.id);
  }

  // The ruleset open and the game in progress, to put back when an operation fails half-way.
  const snapshot = () => ({ ruleset: S.ruleset, rulesetText: S.rulesetText, variants: S.variants, opened: S.opened });

  async function putBack(before) {
    Object.assign(S, before);
    await reinstate();
  }

  async function openRuleset(text, variants) {
    const ruleset = JSON.parse(text);
    S.opened = await call({ op: "open", ruleset: text, variants });
    S.ruleset = ruleset;
    S.rulesetText = text;
    S.variants = variants;
  }

  // What the page says of a ruleset's colours it ignored, if any.
  function colourNote() {
    const ids = uncoloured(S.ruleset);
    return ids.length ? ` The ruleset gives ${ids.length === 1 ? "symbol" : "symbols"} ${ids.map((id) => `\`${id}\``).join(", ")} a colour that is no colour: drawn in a colour of the page's instead.` : "";
  }

  const randomSeed = () => Math.floor(Math.random() * 1e9);

  async function newGame(seats, seed) {
    const state = await call({ op: "start", seats, seed });
    S.seats = seats;
    S.seed = seed;
    S.viewer = null;
    S.selected = null;
    await show(state);
    say(`A new game: seed ${seed}.${colourNote()}`);
  }

  // ---- Drawing ------------------------------------------------------------------------------

  // The state as the seat shown sees it; a hot-seat game hides the table between two people.
  async function show(answer) {
    const people = humans();
    const mover = answer.to_move;
    let viewer = S.viewer === null ? answer.viewer : S.viewer;
    let passing = S.passing;
    if (mover !== null && !answer.bots[mover] && mover !== viewer) {
      if (people.length > 1 && hidden()) passing = true;
      viewer = mover;
    }
    const state = answer.viewer !== viewer && mover !== null ? await call({ op: "state", seat: viewer }) : answer;
    S.viewer = viewer;
    S.passing = passing;
    S.state = state;
    S.hint = null;
    keep();
    draw();
    await S.explained;
    scheduleBot();
  }

  function draw() {
    const app = $("#app");
    app.dataset.state = S.state.outcome ? "over" : "playing";
    const variants = S.variants.length ? ` (${S.variants.join(", ")})` : "";
    $("#title").textContent = `${S.ruleset.game.name}${variants}`;
    const table = $("#table");
    if (S.passing) {
      table.replaceChildren(
        el("div", { class: "pass", "data-pass": S.viewer },
          el("h2", {}, `Pass the device to ${seatName(S.viewer)}`),
          el("p", {}, `The table is hidden so that nobody sees another player's ${hidden()}.`),
          el("button", { class: "primary", "data-action": "reveal", onclick: () => { S.passing = false; draw(); } }, `I am ${seatName(S.viewer)}: show my ${hidden()}`)));
    } else {
      const render = RENDERERS[S.ruleset.game.rules];
      asking = [];
      table.replaceChildren(render(S.state, act));
    }
    S.explained = explain();
    $("#status").replaceChildren(status());
    const log = $("#log");
    // Each action, and what the rules did after it (the animals' steps, photographs).
    const note = ({ seat, says }) => el("span", { class: "then" }, seat === null || seat === undefined ? says : `${seatName(seat)} ${says}`);
    log.replaceChildren(...S.state.log.map((entry, i) => el("li", { "data-by-bot": entry.by_bot }, `${i + 1}. ${seatName(entry.seat)} ${entry.says}`, ...(entry.then || []).map(note))));
    log.scrollTop = log.scrollHeight;
    // Undo stops at the last card or roll shown: nobody looks and chooses again.
    const undo = $("#undo");
    undo.setAttribute("aria-disabled", String(!S.state.undoable));
    undo.title = S.state.undoable ? "Take back your last move"
      : S.state.log.some((e) => !e.by_bot) ? "A card or a roll has been shown since your last move: it stands." : "Nothing to take back yet.";
    $("#pause").textContent = S.paused ? "Resume bots" : "Pause bots";
    drawRules();
  }

  // The rules in play, as the engine words them from the ruleset (variants applied), and the
  // ruleset's rulings where the rulebook is silent.
  function drawRules() {
    if (S.rulesShown === S.opened) return;
    S.rulesShown = S.opened;
    const rulings = Array.isArray(S.ruleset.rules?.rulings) ? S.ruleset.rules.rulings : [];
    $("#rules").replaceChildren(
      el("ul", {}, ...(S.opened.summary || []).map((line) => el("li", {}, line))),
      rulings.length ? el("details", { class: "rulings" }, el("summary", {}, "Rulings"),
        el("dl", {}, ...rulings.flatMap((r) => [el("dt", {}, String(r.question)), el("dd", {}, String(r.ruling))]))) : null);
  }

  function status() {
    const { outcome, to_move: mover } = S.state;
    if (outcome) {
      const winners = outcome.winners.map(seatName).join(" and ");
      const scores = outcome.scores.map((score, seat) => `${seatName(seat)} ${score}`).join(", ");
      return el("span", { "data-over": outcome.reason }, `Game over (${outcome.reason.replaceAll("_", " ")}): ${winners} ${outcome.winners.length > 1 ? "share the win" : "wins"}. Scores: ${scores}.`);
    }
    if (S.state.bots[mover]) {
      return el("span", { "data-paused": S.paused }, S.paused ? `${seatName(mover)} is to play: bots paused.` : `${seatName(mover)} is thinking…`);
    }
    return el("span", {}, `${seatName(mover)} to play.`);
  }

  // A person's action: the engine does it or says why not.
  function act(action) {
    operate(async () => {
      try {
        S.selected = null;
        await show(await call({ op: "act", action, seat: S.viewer }));
      } catch (error) {
        if (error.fatal) fatal(error.message);
        else say(error.message, "error");
      }
    });
  }

  function scheduleBot() {
    clearTimeout(S.botTimer);
    if (S.thinking || !S.state) return;
    const { to_move: mover, bots } = S.state;
    if (mover === null || !bots[mover] || S.paused) return;
    S.botTimer = setTimeout(() => inTurn(startBot), PACES[S.pace]);
  }

  // Sets the bot to move thinking in the engine, and shows its move when it comes, unless it
  // was abandoned meanwhile (Pause, or a person's operation).
  function startBot() {
    if (S.thinking || S.paused || !S.state) return;
    const { to_move: mover, bots } = S.state;
    if (mover === null || !bots[mover]) return;
    const thought = {};
    S.thinking = thought;
    const current = () => S.thinking === thought;
    call({ op: "bot", seat: S.viewer }).then(
      (state) => inTurn(async () => {
        if (!current()) return;
        S.thinking = null;
        say(`${seatName(mover)} ${state.did}.`);
        await show(state);
      }),
      (error) => inTurn(() => {
        if (current()) fatal(error.message);
      }));
  }

  // ---- What the ruleset gives the drawing ------------------------------------------------------

  // Marks a thing drawn for `action` when it is the hint's: "true", else nothing.
  const hinted = (action) => (S.hint && action && JSON.stringify(action) === JSON.stringify(S.hint) ? "true" : undefined);
  // Whether the hint is of kind `kind` and `test` holds of it.
  const hintOf = (kind, test) => (S.hint?.do === kind && test(S.hint) ? "true" : undefined);

  // A symbol's colour, if the ruleset gives it one that is a colour; else the page's
  // `fallback`.
  const hue = (symbol, fallback) => colour(symbol?.color) || fallback;

  // A count of cells along a side of the table, or a place along it, as the page draws it: a
  // whole number from `least` up to the most the page draws.
  function side(count, least = 1) {
    const cells = whole(count, MOST_SIDE);
    return cells === null || cells < least ? least : cells;
  }

  // ---- Gamewright's Safari --------------------------------------------------------------------

  function symbolOf(id) {
    return S.ruleset.symbols.find((s) => s.id === id) || { id, label: id, color: "#555", glyph: "?" };
  }

  function cardFace(card, attributes = {}) {
    const symbol = symbolOf(card.suit);
    return el("button", { class: "card up", style: { "--suit": hue(symbol, "#555") }, title: `${symbol.label} ${card.value}`, "data-card": card.id, ...attributes },
      el("span", { class: "value" }, card.value),
      el("span", { class: "glyph" }, symbol.glyph || symbol.label.slice(0, 1)),
      el("span", { class: "name" }, symbol.label));
  }

  function gamewright(state, act) {
    const { view, legal } = state;
    const find = (test) => legal.find((l) => test(l.action));
    const charlieDeck = S.ruleset.decks.find((d) => d.id === S.ruleset.rules.charlie);
    const charlie = symbolOf(charlieDeck?.cards[0]?.symbol || "");
    const grid = el("div", { class: "jungle", style: { "grid-template-columns": `repeat(${side(view.columns)}, var(--card-w))` } });
    view.jungle.forEach((cell, index) => {
      const take = find((a) => a.do === "take" && a.cell === index);
      const trade = S.selected !== null ? find((a) => a.do === "trade" && a.cell === index && a.card === S.selected) : null;
      const onclick = take ? () => act(take.action) : trade ? () => act(trade.action) : null;
      const attributes = { "data-cell": index, "data-face": cell.face, onclick, title: take?.says || trade?.says, "data-hinted": hinted(take?.action) || hintOf("trade", (h) => h.cell === index) };
      let node;
      if (cell.face === "up") node = cardFace(cell.card, attributes);
      else if (cell.face === "charlie") node = el("button", { class: "card charlie", style: { "--suit": hue(charlie, "#2e7d32") }, ...attributes }, el("span", { class: "glyph" }, charlie.glyph || "SC"), el("span", { class: "name" }, "Safari Charlie"));
      else if (cell.face === "empty") node = el("button", { class: "card empty", ...attributes }, "taken");
      else node = el("button", { class: "card down", ...attributes }, cell.card ? `${cell.card.suit} ${cell.card.value}` : "");
      if (take || trade) node.classList.add("playable");
      else refuse(node, S.selected !== null ? { do: "trade", card: S.selected, cell: index } : { do: "take", cell: index });
      grid.append(node);
    });
    const seat = state.viewer;
    const mine = seat !== null ? view.hands[seat] : null;
    const hand = el("div", { class: "hand" });
    if (mine) {
      const sorted = [...mine.cards].sort((a, b) => a.suit.localeCompare(b.suit) || b.value - a.value);
      for (const card of sorted) {
        const put = find((a) => a.do === "put" && a.card === card.index);
        const trades = legal.some((l) => l.action.do === "trade" && l.action.card === card.index);
        const onclick = put ? () => act(put.action) : trades ? () => { S.selected = S.selected === card.index ? null : card.index; draw(); } : null;
        const node = cardFace(card, { onclick, title: put?.says || (trades ? "trade this card for a Safari Charlie: then click the Charlie" : undefined), "data-hinted": hinted(put?.action) || hintOf("trade", (h) => h.card === card.index) });
        if (put || trades) node.classList.add("playable");
        else refuse(node, { do: "put", card: card.index });
        if (S.selected === card.index) node.classList.add("selected");
        hand.append(node);
      }
    }
    const charlieAction = find((a) => a.do === "charlie");
    const prompt = (() => {
      if (state.outcome || state.to_move !== seat || seat === null) return "";
      if (view.holding) return charlieAction ? "No card of your hand fits there: put a Safari Charlie down." : `You took ${symbolOf(view.holding.card.suit).label} ${view.holding.card.value}: put a card of your hand face up where it lay.`;
      return S.selected !== null ? "Click a Safari Charlie in the jungle to trade this card for it." : "Take a card from the jungle, or trade a card of your hand for a Safari Charlie in the jungle.";
    })();
    const others = view.hands.map((h, s) => s === seat ? null : el("li", {}, `${seatName(s)}: ${h.count} cards${h.cards.length ? ` (seen: ${h.cards.map((c) => `${symbolOf(c.suit).label} ${c.value}`).join(", ")})` : ""}${h.score !== null && h.score !== undefined ? `, score ${h.score}` : ""}`)).filter(Boolean);
    return el("div", { class: "gamewright" },
      el("p", { class: "prompt" }, prompt),
      grid,
      el("div", { class: "stack" }, `Safari Charlie stack: ${view.stack}`,
        charlieAction ? el("button", { class: "primary", "data-action": "charlie", "data-hinted": hinted(charlieAction.action), onclick: () => act(charlieAction.action) }, "Put a Safari Charlie down") : null),
      mine ? el("section", { class: "mine" }, el("h2", {}, `${seatName(seat)}'s hand: score ${mine.score}`), hand) : null,
      el("ul", { class: "others" }, others));
  }

  // ---- Tricky Safari ----------------------------------------------------------------------

  const ARROWS = { north: "↑", east: "→", south: "↓", west: "←" };

  function pieceSymbol(set, piece) {
    const pieces = S.ruleset.pieces.find((p) => p.id === set)?.pieces || [];
    return symbolOf(pieces.find((p) => p.id === piece)?.symbol || piece);
  }

  function trickySafari(state, act) {
    const { view, legal } = state;
    const rules = S.ruleset.rules;
    const cameraIds = (S.ruleset.pieces.find((p) => p.id === rules.cameras)?.pieces || []).map((p) => p.id);
    // The columns' letters above and the rows' numbers beside, as the log names cells (`c4`).
    const columns = side(view.columns);
    const board = el("div", { class: "board", style: { "grid-template-columns": `1.4em repeat(${columns}, var(--cell))` } },
      el("span", { class: "coord corner" }),
      ...Array.from({ length: columns }, (_, c) => el("span", { class: "coord", "data-column": String.fromCharCode(97 + c) }, String.fromCharCode(97 + c))));
    view.terrain.forEach((terrain, cell) => {
      if (cell % columns === 0) board.append(el("span", { class: "coord", "data-row": cell / columns + 1 }, cell / columns + 1));
      const symbol = symbolOf(rules.terrain[terrain] || terrain);
      const move = legal.find((l) => l.action.do === "move" && l.action.to === cell);
      const animal = view.animals.find((a) => a.cell === cell);
      const camera = view.cameras.indexOf(cell);
      const column = String.fromCharCode(97 + (cell % view.columns));
      const name = `${column}${Math.floor(cell / view.columns) + 1}`;
      const node = el("button", {
        class: `cell ${terrain}${move ? " playable" : ""}`,
        style: { "--terrain": hue(symbol, "#ddd") },
        "data-cell": name,
        title: move ? `${seatName(state.to_move)} ${move.says}` : name,
        onclick: move ? () => act(move.action) : null,
        "data-hinted": hinted(move?.action),
      });
      if (!move) refuse(node, { do: "move", to: cell });
      if (terrain !== "open") node.append(el("span", { class: "terrain" }, symbol.glyph || ""));
      if (animal) {
        const look = pieceSymbol(rules.animals, animal.id);
        node.append(el("span", { class: "animal", style: { "--suit": hue(look, "#333") }, title: `${look.label} facing ${animal.facing}` },
          `${look.glyph || look.label.slice(0, 2)}${ARROWS[animal.facing]}`,
          el("span", { class: "shots" }, ...animal.photographed_by.map((seat) => el("i", { style: { background: hue(pieceSymbol(rules.cameras, cameraIds[seat]), "#000") } })))));
      }
      if (camera >= 0) {
        const look = pieceSymbol(rules.cameras, cameraIds[camera]);
        node.append(el("span", { class: "camera", style: { "--suit": hue(look, "#000") }, title: `${seatName(camera)}'s camera` }, look.glyph || "C"));
      }
      board.append(node);
    });
    const pass = legal.find((l) => l.action.do === "pass");
    const mover = state.to_move;
    const prompt = state.outcome || mover === null || state.bots[mover] ? "" :
      (view.moves[mover] === 0 ? "First move: along a row or column, or stay in your corner." : pass ? "Your camera cannot move: it stays." : "Move your camera in a straight line, any way, any distance.");
    const seats = [0, 1].map((seat) => {
      const look = pieceSymbol(rules.cameras, cameraIds[seat]);
      return el("li", { style: { "--suit": hue(look, "transparent") } }, `${seatName(seat)} (${look.label}): ${view.photos[seat]} of ${view.animals.length} photographed, ${view.moves[seat]} of ${view.moves_per_player} moves`);
    });
    // Stay is shown on a person's turn, and says why not when the camera must move.
    const stay = state.outcome || mover === null || state.bots[mover] ? null
      : pass ? el("button", { class: "primary", "data-action": "pass", "data-hinted": hinted(pass.action), onclick: () => act(pass.action) }, "Stay")
        : refuse(el("button", { "data-action": "pass" }, "Stay"), { do: "pass" });
    return el("div", { class: "tricky" },
      el("p", { class: "prompt" }, prompt),
      board,
      stay ? el("div", { class: "stack" }, stay) : null,
      el("ul", { class: "others" }, seats));
  }

  // ---- DiceAFARI ------------------------------------------------------------------------------

  // A seat's Travel Token colour.
  function tokenColour(seat) {
    const travel = S.ruleset.tokens.find((t) => t.id === S.ruleset.rules.travel);
    return symbolOf(travel?.kinds[seat]?.symbol || "");
  }

  // The re-roll the engine offers for the marked dice: among dice showing one face only how
  // many are re-rolled matters, and the engine names the last ones of each run.
  function rerollMask(dice, marked) {
    let mask = 0;
    let start = 0;
    while (start < dice.length) {
      let end = start;
      while (end + 1 < dice.length && dice[end + 1] === dice[start]) end += 1;
      let count = 0;
      for (let i = start; i <= end; i += 1) if (marked.has(i)) count += 1;
      for (let i = end - count + 1; i <= end; i += 1) mask |= 1 << i;
      start = end + 1;
    }
    return mask;
  }

  function diceafari(state, act) {
    const { view, legal } = state;
    const mover = state.to_move;
    const mine = !state.outcome && mover !== null && !state.bots[mover];
    // Marks and picks last while the dice lie as they are.
    const moment = `${view.turn}/${view.rolls}/${view.phase}`;
    if (!S.selected || S.selected.moment !== moment) S.selected = { moment, dice: new Set(), tiles: new Set() };
    const picked = S.selected;
    const of = (kind) => legal.filter((l) => l.action.do === kind);
    const rerolls = of("reroll");
    const claims = of("claim");
    const sameTiles = (a, b) => a.length === b.length && a.every((t) => b.includes(t));
    const claim = claims.find((l) => sameTiles(l.action.tiles, [...picked.tiles]));
    const reroll = picked.dice.size ? rerolls.find((l) => l.action.dice === rerollMask(view.dice, picked.dice)) : null;
    // The tiles that, added to those picked, still make part of a claim the dice allow.
    const claimable = new Set(claims.filter((l) => [...picked.tiles].every((t) => l.action.tiles.includes(t))).flatMap((l) => l.action.tiles));
    const columns = view.map.columns;
    const rows = view.map.rows;
    // Tiles on the odd tracks, the photos between them on the even ones.
    const tracks = (n) => Array.from({ length: n }, () => "var(--tile)").join(" var(--gap) ");
    const grid = el("div", { class: "safari-map", style: { "grid-template-columns": tracks(side(columns)), "grid-template-rows": tracks(side(rows)) } });
    view.tiles.forEach((tile, index) => {
      const terrain = symbolOf(tile.terrain);
      const bonus = legal.find((l) => l.action.do === "bonus" && l.action.tile === index);
      const pickable = mine && (claimable.has(index) || picked.tiles.has(index));
      const onclick = bonus ? () => act(bonus.action) : pickable ? () => { picked.tiles.has(index) ? picked.tiles.delete(index) : picked.tiles.add(index); draw(); } : null;
      const node = el("button", {
        class: `tile${bonus || pickable ? " playable" : ""}${picked.tiles.has(index) ? " selected" : ""}${view.claimed.includes(index) ? " claimed-now" : ""}`,
        style: { "--terrain": hue(terrain, "#bbb"), "grid-column": side(tile.column, 0) * 2 + 1, "grid-row": side(tile.row, 0) * 2 + 1 },
        "data-tile": tile.name,
        "data-hinted": hinted(bonus?.action) || hintOf("claim", (h) => h.tiles.includes(index)),
        onclick,
        title: bonus ? `${seatName(mover)} ${bonus.says}` : `${tile.name}: ${terrain.label}${tile.on_route ? "" : " (on no route)"}`,
      }, el("span", { class: "glyph" }, terrain.glyph || terrain.label.slice(0, 2)), el("span", { class: "name" }, tile.name));
      if (tile.owner !== null) node.append(el("i", { class: "token", style: { "--suit": hue(tokenColour(tile.owner), "#333") }, title: `${seatName(tile.owner)}'s Travel Token` }));
      if (!onclick) refuse(node, view.phase === "bonus" ? { do: "bonus", tile: index } : { do: "claim", tiles: [...picked.tiles, index] });
      grid.append(node);
    });
    view.spaces.forEach((space, index) => {
      const [a, b] = space.between.map((t) => view.tiles[t]);
      const photo = legal.find((l) => l.action.do === "photo" && l.action.space === index);
      const look = space.photo && space.photo !== "down" ? symbolOf(space.photo) : null;
      const node = el("button", {
        class: `photo${space.photo ? "" : " gone"}${space.photo === "down" ? " down" : ""}${photo ? " playable" : ""}`,
        style: { "--suit": hue(look, "#37474f"), "grid-column": side(a.column, 0) + side(b.column, 0) + 1, "grid-row": side(a.row, 0) + side(b.row, 0) + 1 },
        "data-space": index,
        "data-hinted": hinted(photo?.action),
        onclick: photo ? () => act(photo.action) : null,
        title: photo ? `${seatName(mover)} ${photo.says}` : look ? look.label : space.photo === "down" ? "a face-down photo" : "taken",
      }, look ? look.glyph || look.label.slice(0, 1) : space.photo === "down" ? "?" : "");
      if (!photo && space.photo) refuse(node, { do: "photo", space: index });
      grid.append(node);
    });
    const dice = el("div", { class: "dice" }, ...view.dice.map((face, index) => {
      const look = symbolOf(face);
      const markable = mine && rerolls.length > 0;
      const die = el("button", {
        class: `die${picked.dice.has(index) ? " marked" : ""}${markable ? " playable" : ""}`,
        style: { "--terrain": hue(look, "#eee") },
        "data-die": index,
        "data-hinted": hintOf("reroll", (h) => (h.dice & (1 << index)) !== 0),
        title: markable ? `${look.label}: click to re-roll it` : look.label,
        onclick: markable ? () => { picked.dice.has(index) ? picked.dice.delete(index) : picked.dice.add(index); draw(); } : null,
      }, look.glyph || look.label.slice(0, 2));
      return markable ? die : refuse(die, { do: "reroll", dice: 1 << index });
    }),
    el("span", { class: "die bonus", title: "the Bonus Die" }, view.bonus === null ? "–" : String(view.bonus)),
    el("span", { class: "rolls" }, `roll ${view.rolls} of ${view.most_rolls}${view.overtime ? " · every tile claimed: no Bonus Die" : ""}`));
    const noPhoto = legal.find((l) => l.action.do === "no_photo");
    const prompt = (() => {
      if (!mine) return "";
      if (view.phase === "bonus") return `You earned the Bonus: claim any tile no token has been on.`;
      if (view.phase === "photo") return "Take a photo lying between two of your Travel Tokens, or take none.";
      if (!claims.length) return "The dice claim no two tiles of one route: mark dice and re-roll them.";
      return rerolls.length
        ? "Pick tiles of one route that your dice show and claim them, or mark dice and re-roll them."
        : "Last roll: pick tiles of one route that your dice show and claim them.";
    })();
    // A button that cannot be pressed yet says why, as the engine words it.
    const button = (node, ok, action) => (ok ? node : refuse(node, action));
    const buttons = el("div", { class: "stack" },
      mine && rerolls.length ? button(el("button", { class: "primary", "data-action": "reroll", onclick: reroll ? () => act(reroll.action) : null, title: reroll?.says }, picked.dice.size ? `Re-roll ${picked.dice.size} ${picked.dice.size === 1 ? "die" : "dice"}` : "Mark dice to re-roll"), reroll, { do: "reroll", dice: rerollMask(view.dice, picked.dice) }) : null,
      mine && claims.length ? button(el("button", { class: "primary", "data-action": "claim", onclick: claim ? () => act(claim.action) : null, title: claim?.says }, claim ? `Claim ${picked.tiles.size} ${picked.tiles.size === 1 ? "tile" : "tiles"}` : "Pick tiles to claim"), claim, { do: "claim", tiles: [...picked.tiles] }) : null,
      mine && noPhoto ? el("button", { "data-action": "no_photo", "data-hinted": hinted(noPhoto.action), onclick: () => act(noPhoto.action) }, "Take no photo") : null);
    const seats = view.seats.map((seat, index) => {
      const look = tokenColour(index);
      const photos = seat.photos.map((p) => (p ? symbolOf(p) : null));
      return el("li", { style: { "--suit": hue(look, "#333") }, "data-seat": index },
        `${seatName(index)} (${look.label}): ${seat.turns} ${seat.turns === 1 ? "turn" : "turns"}, ${seat.supply} tokens left, photos: `,
        photos.length ? photos.map((p) => el("span", { class: "held", style: { "--suit": hue(p, "#37474f") }, title: p ? p.label : "hidden" }, p ? p.glyph || p.label.slice(0, 1) : "?")) : "none",
        seat.score !== null && seat.score !== undefined ? `, ${seat.score} ${seat.score === 1 ? "point" : "points"} if it ended now` : "");
    });
    return el("div", { class: "diceafari" },
      el("p", { class: "prompt" }, prompt),
      state.outcome ? null : dice,
      buttons,
      grid,
      el("p", { class: "map-name" }, `Map: ${view.map.card} · every player has at least ${view.min_turns} turns`),
      el("ul", { class: "others" }, seats));
  }

  const RENDERERS = { "gamewright-safari": gamewright, "diceafari": diceafari, "tricky-safari": trickySafari };
  // The games whose seats hold what the others may not see: the table is hidden between two
  // people at one screen. DiceAFARI hides photos only with Photo Surprise.
  // Each names what it hides, or gives nothing when the rules in play hide nothing.
  const HIDES = { "gamewright-safari": () => "hand", "diceafari": () => S.variants.includes("photo-surprise") && "photos" };
  const hidden = () => HIDES[S.ruleset.game.rules]?.() || null;

  // ---- Dialogs ------------------------------------------------------------------------------

  function newGameDialog() {
    const dialog = el("dialog", { class: "new-game" });
    const [fewest, most] = S.opened.players;
    const players = el("select", { name: "players" }, ...Array.from({ length: most - fewest + 1 }, (_, i) => el("option", { value: fewest + i, selected: fewest + i === S.seats.length }, fewest + i)));
    const seatRows = el("div", { class: "seats" });
    const botChoices = ["person", ...BOTS];
    const drawSeats = () => {
      const count = Number(players.value);
      seatRows.replaceChildren(...Array.from({ length: count }, (_, seat) => el("div", { class: "row" },
        el("label", {}, `Seat ${seat + 1}`),
        el("select", { name: `seat-${seat}` }, ...botChoices.map((b) => el("option", { value: b, selected: (S.seats[seat] || "person") === b }, b))))));
    };
    players.addEventListener("change", drawSeats);
    drawSeats();
    const offered = Object.keys(S.ruleset.rules.variants || {});
    // Variants that set one rule each their own way (two maps) are played one at a time, as
    // the engine reads them from the ruleset: ticking one unticks those it excludes.
    const excludes = S.opened.excludes || {};
    const variantBoxes = offered.map((v) => {
      const others = excludes[v] || [];
      const box = el("input", { type: "checkbox", name: `variant-${v}`, value: v, checked: S.variants.includes(v) });
      box.addEventListener("change", () => {
        if (!box.checked) return;
        for (const other of others) {
          const input = $(`input[name="variant-${CSS.escape(other)}"]`, dialog);
          if (input) input.checked = false;
        }
      });
      return el("label", { class: "variant", title: others.length ? `Played without ${others.join(", ")}` : undefined }, box, ` ${v}`);
    });
    const seed = el("input", { name: "seed", inputmode: "numeric", placeholder: "random" });
    const close = () => {
      dialog.close();
      dialog.remove();
    };
    const start = () => {
      const count = Number(players.value);
      const seats = Array.from({ length: count }, (_, s) => { const v = $(`[name=seat-${s}]`, dialog).value; return v === "person" ? null : v; });
      const variants = variantBoxes.map((l) => $("input", l)).filter((i) => i.checked).map((i) => i.value);
      const seedValue = seed.value.trim() === "" ? randomSeed() : Number(seed.value);
      close();
      operate(async () => {
        const before = snapshot();
        try {
          await openRuleset(S.rulesetText, variants);
          await newGame(seats, seedValue);
        } catch (error) {
          if (error.fatal) throw error;
          // The game in progress goes on, with the variants it was played with.
          await putBack(before);
          say(error.message, "error");
        }
      });
    };
    dialog.append(
      el("h2", {}, `New game of ${S.ruleset.game.name}`),
      el("div", { class: "row" }, el("label", {}, "Players"), players),
      seatRows,
      offered.length ? el("div", { class: "row" }, el("label", {}, "Variants"), ...variantBoxes) : null,
      el("div", { class: "row" }, el("label", {}, "Seed"), seed),
      el("div", { class: "buttons" },
        el("button", { onclick: close }, "Cancel"),
        el("button", { class: "primary", "data-action": "start", onclick: start }, "Start")));
    document.body.append(dialog);
    dialog.showModal();
  }

  function pickFile(then) {
    const input = el("input", { type: "file", accept: ".json,application/json" });
    input.addEventListener("change", async () => {
      const file = input.files[0];
      if (!file) return;
      if (file.size > MOST_BYTES) {
        say(`${file.name} is ${Math.round(file.size / 1048576)} MB; this page reads files of at most 16 MB`, "error");
        return;
      }
      const text = await file.text();
      operate(() => then(file.name, text));
    });
    input.click();
  }

  // A saved game loaded: checked whole (its bots here, then its ruleset, variants, seats and
  // every action replayed by the engine) before anything changes; a log that fails leaves the
  // game in progress as it was.
  async function loadLog(name, text) {
    let saved = null;
    try {
      saved = JSON.parse(text);
    } catch (_) {
      // The engine says what is wrong with it.
    }
    const bot = Array.isArray(saved?.seats) ? unofferedBot(saved.seats, BOTS) : null;
    if (bot !== null) {
      say(`${name} was not loaded: ${botRefusal(bot)}. The game in progress goes on.`, "error");
      return;
    }
    let state;
    try {
      state = await call({ op: "load", log: text });
    } catch (error) {
      if (error.fatal) throw error;
      say(`${name} was not loaded: ${error.message}${where(error)}. The game in progress goes on.`, "error");
      return;
    }
    S.opened = state.opened;
    S.ruleset = saved.ruleset;
    S.rulesetText = JSON.stringify(saved.ruleset);
    S.variants = saved.variants || [];
    S.seats = saved.seats;
    S.seed = saved.seed;
    S.viewer = null;
    S.selected = null;
    S.passing = false;
    await show(state);
    say(`Loaded ${name}.${colourNote()}`);
  }

  // Another version of the game from its ruleset.json, started afresh; one that cannot be
  // played is refused and the game in progress goes on.
  async function openOther(name, text) {
    const before = snapshot();
    try {
      await openRuleset(text, []);
      await newGame(S.seats.slice(0, S.opened.players[1]), randomSeed());
      say(`Playing ${name}.${colourNote()}`);
    } catch (error) {
      if (error.fatal) throw error;
      await putBack(before);
      say(`${name} cannot be played: ${error.message}${where(error)}; the game in progress goes on.`, "error");
    }
  }

  function toolbar() {
    const pace = el("select", { id: "pace", onchange: () => { S.pace = pace.value; scheduleBot(); } }, ...Object.keys(PACES).map((p) => el("option", { value: p, selected: p === S.pace }, p)));
    const pause = el("button", { id: "pause", "data-action": "pause", onclick: () => {
      S.paused = !S.paused;
      if (S.state) draw();
      // Pausing abandons a move under way; resuming starts the bot to move again.
      operate(async () => {});
    } }, "Pause bots");
    return el("nav", { class: "toolbar" },
      el("button", { "data-action": "new", onclick: newGameDialog }, "New game"),
      el("button", { id: "undo", "data-action": "undo", onclick: (event) => event.currentTarget.getAttribute("aria-disabled") === "true" ? say(event.currentTarget.title, "refusal") : operate(async () => {
        const state = await call({ op: "undo", seat: S.viewer });
        S.selected = null;
        await show(state);
        say("Taken back.");
      }) }, "Undo"),
      el("button", { "data-action": "hint", onclick: () => operate(async () => {
        const hint = await call({ op: "hint", bot: "greedy" });
        S.hint = hint.action;
        draw();
        say(`The greedy bot would: ${hint.says} (lit on the table).`);
      }) }, "Hint"),
      el("button", { "data-action": "save", onclick: () => operate(async () => {
        download(`${S.ruleset.game.id}-game-${S.seed}.json`, JSON.stringify(await call({ op: "save" }), null, 1));
      }) }, "Download log"),
      el("button", { "data-action": "load", onclick: () => pickFile(loadLog) }, "Load log"),
      el("button", { "data-action": "open", onclick: () => pickFile(openOther) }, "Open ruleset"),
      el("label", {}, "Bots ", pace), pause);
  }

  // ---- Start ----------------------------------------------------------------------------------

  async function boot() {
    S.embeddedText = document.getElementById("ruleset").textContent;
    try {
      S.ruleset = JSON.parse(S.embeddedText);
    } catch (error) {
      fatal(`This page's ruleset is not JSON: ${error.message}`);
      return;
    }
    if (!RENDERERS[S.ruleset.game?.rules]) {
      fatal(`This page cannot draw a game of \`${S.ruleset.game?.rules}\` rules.`);
      return;
    }
    try {
      S.engine = await SafariPage.startEngine("safari_family_call");
    } catch (error) {
      fatal(`This browser could not start the game: ${error.message}. The page needs WebAssembly, Web Workers and DecompressionStream (Chromium 80, Firefox 113, Safari 16.4 or later).`);
      return;
    }
    const app = $("#app");
    app.replaceChildren(
      el("header", {}, el("h1", { id: "title" }), toolbar()),
      el("p", { id: "status", role: "status" }),
      el("p", { id: "message", "aria-live": "polite" }),
      el("main", {}, el("div", { id: "table" }), el("aside", {},
        el("details", { class: "rules", open: true }, el("summary", {}, "Rules"), el("div", { id: "rules" })),
        el("h2", {}, "Log"), el("ol", { id: "log" }))));
    try {
      await openRuleset(S.embeddedText, []);
    } catch (error) {
      fatal(`This page's ruleset cannot be played: ${error.message}${where(error)}`);
      return;
    }
    if (!(await restore())) {
      const [fewest] = S.opened.players;
      const trouble = $("#message").className === "error" ? $("#message").textContent : "";
      await newGame([null, ...Array.from({ length: fewest - 1 }, () => "greedy")], randomSeed());
      if (trouble) say(trouble, "error");
    }
  }

  window.addEventListener("error", (event) => say(`Something went wrong: ${event.message}`, "error"));
  window.addEventListener("unhandledrejection", (event) => say(`Something went wrong: ${event.reason?.message || event.reason}`, "error"));
  inTurn(boot);
})();
