// The playtest page's script. It holds no rule of the game: the engine (WebAssembly, built
// from the same Rust as `safari sim`, in a Web Worker) says what may be done and does it; this
// script draws what the engine answers and sends it what a person clicks.
"use strict";

(() => {
  const { $, el, unpack, download, unofferedBot } = SafariPage;
  const inTurn = SafariPage.inTurn();
  const SVG = "http://www.w3.org/2000/svg";
  const svgEl = (tag, attributes = {}, text) => {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
    if (text !== undefined) node.textContent = text;
    return node;
  };

  const PACES = { slow: 1400, normal: 700, fast: 200, instant: 0 };
  // The bots the New game menu offers (and `target:BOX` for each box of a sheet of at most
  // `MOST_TARGETS` boxes): the only ones a stored game or a log may seat.
  const BOTS = ["random", "greedy", "expected", "planner", "search"];
  // What the New game menu says of each bot (docs/simulation.md measures their strength).
  const BOT_NOTES = {
    random: "any legal choice",
    greedy: "the most VP now",
    expected: "weighs the odds; the default",
    planner: "plans the turns ahead; the strongest",
    search: "plays each choice out; strong, slow to start",
  };
  const DEFAULT_BOT = "expected";
  const MOST_TARGETS = 400;
  // A study that takes less than this (ms) is not worth a message.
  const QUIET_STUDY_MS = 400;
  // How long each request of a bot's study should take, in ms: long enough to waste little
  // on requests, short enough for the page to say how far it has got.
  const STUDY_STEP_MS = 250;
  const FACE_NAMES = { area: "Area", trainer: "Trainer", item: "Item", grass: "Grass", water: "Water", hazard: "Hazard" };
  const S = {
    engine: null,
    ruleset: null,
    rulesetText: "",
    embeddedText: "",
    pictures: null,
    names: null,
    state: null,
    viewSeat: 0,
    pinnedSeat: null,
    side: 0,
    selected: new Set(),
    replay: null,
    botTimer: null,
    pace: "normal",
    paused: false,
    // The bot's move the engine is working out, until it is shown (or abandoned).
    thinking: null,
    // The planner's model of the page's own ruleset, fitted when the page was built.
    plannerModel: "",
    // Why the open ruleset's sheet cannot be drawn where its boxes print, if it cannot.
    sheetFault: null,
    // Whether the message says how a bot's study is getting on.
    studying: false,
    eventsShown: 0,
    filledBefore: new Map(),
    // How many events the game had when a person last chose: the turns finished since are
    // summed up until the person chooses again (none in a replay).
    movedAt: null,
    // The choice a hint suggests (as JSON), lit until the game moves on.
    hint: null,
  };

  // ---- The engine -------------------------------------------------------------------------

  async function startEngine() {
    S.engine = await SafariPage.startEngine("safari_call");
    S.plannerModel = new TextDecoder().decode(await unpack("planner"));
  }

  const call = (request) => S.engine.call(request);

  // A request about the game in progress: the engine leaves out the events and choices the
  // page holds already, and `show` puts the answer's after them.
  function callGame(request) {
    const known = S.state ? { events: S.state.events.length, actions: S.state.actions.length } : undefined;
    return call({ ...request, known });
  }

  // The planner's model the page carries, for a ruleset of the page's own content.
  const modelFor = (ruleset) => (S.plannerModel && ruleset?.content_hash === S.embedded.content_hash ? S.plannerModel : undefined);

  // Puts the page's ruleset and game (or replay) back into the engine, after it was restarted.
  async function reinstate() {
    await call({ op: "open", ruleset: S.rulesetText, model: modelFor(S.ruleset) });
    const replay = S.replay;
    if (replay) await call({ op: "resume", seats: replay.seats, seed: replay.seed, actions: replay.actions, upto: replay.at });
    else if (S.state) await call({ op: "resume", seats: S.state.seats, seed: S.state.seed, actions: S.state.actions });
  }

  // Abandons a bot's move under way (its study too): the engine is started afresh on the game
  // as the page shows it, before the move.
  async function stopBots() {
    clearTimeout(S.botTimer);
    S.botTimer = null;
    if (!S.thinking) return;
    S.thinking = null;
    document.body.style.cursor = "";
    if (S.studying) say("");
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
      report(error);
    } finally {
      scheduleBot();
    }
  });

  // ---- The ruleset, and names for people ----------------------------------------------------

  // Every box id of a ruleset, in the Field Guide's order (none for a ruleset that is no
  // ruleset: the engine says what is wrong with it).
  function boxIdsOf(ruleset) {
    try {
      return ruleset.field_guide.sections.flatMap((section) => section.tracks.flatMap((track) => track.boxes.map((box) => box.id)));
    } catch (_) {
      return [];
    }
  }

  // The boxes the `target` bot is offered for: each box of a sheet a list can hold.
  function targetBoxes(ruleset) {
    const boxes = boxIdsOf(ruleset);
    return boxes.length <= MOST_TARGETS ? boxes : [];
  }

  // Every bot the New game menu offers for a ruleset.
  const offeredBots = (ruleset) => [...BOTS, ...targetBoxes(ruleset).map((id) => `target:${id}`)];

  // The bots of a game's seats (`{ bot }`), null for a person.
  const seatBots = (seats) => seats.map((seat) => (seat && typeof seat === "object" ? seat.bot ?? null : seat));

  const botRefusal = (bot) => `it seats a bot this page does not offer, ${JSON.stringify(bot)} (the bots here: ${BOTS.join(", ")}, and target for a box of the sheet)`;

  // Why a ruleset's sheet cannot be drawn where its boxes print (a page or a box of no finite
  // size, a box outside the page, a page too narrow or too wide to show), or null when it can.
  function sheetFault(ruleset) {
    const places = ruleset.sheet;
    if (!places) return null;
    const size = (value) => typeof value === "number" && Number.isFinite(value) && value > 0;
    const { width_mm: width, height_mm: height } = places;
    if (!size(width) || !size(height) || width > 10000 || height > 10000) return `its sheet's size (${width} by ${height} mm) is no paper size`;
    if (width / height > 20 || height / width > 20) return `its sheet (${width} by ${height} mm) is too narrow to show`;
    const sections = Array.isArray(places.sections) ? places.sections : [];
    const boxes = Array.isArray(places.boxes) ? places.boxes : [];
    const slack = 1e-6 * Math.max(width, height);
    const inside = (place) => place && [place.x, place.y].every((v) => typeof v === "number" && Number.isFinite(v) && v >= 0)
      && size(place.width) && size(place.height) && place.x + place.width <= width + slack && place.y + place.height <= height + slack;
    const outside = [...sections, ...boxes].find((place) => !inside(place));
    return outside ? `${JSON.stringify(outside?.id ?? outside)} lies outside its ${width} by ${height} mm sheet` : null;
  }

  function namesOf(ruleset, opened) {
    const names = {
      species: new Map(ruleset.species.map((s) => [s.id, s.name])),
      items: new Map(ruleset.items.map((i) => [i.id, i.name])),
      cards: new Map(ruleset.deck.cards.map((c) => [c.id, c])),
      tracks: new Map(),
      boxes: new Map(),
    };
    for (const section of ruleset.field_guide.sections) {
      for (const track of section.tracks) {
        const name = opened.tracks[track.id] || track.id;
        names.tracks.set(track.id, name);
        track.boxes.forEach((box, position) => {
          names.boxes.set(box.id, { box, track, section, position, trackName: name });
        });
      }
    }
    return names;
  }

  const speciesName = (id) => S.names.species.get(id) || id;
  const itemName = (id) => S.names.items.get(id) || id;
  const cardSpecies = (id) => speciesName((S.names.cards.get(id) || {}).species || id);

  const boxName = (id) => S.opened.boxes[id] || id;

  function fillText(fill) {
    switch (fill.kind) {
      case "dice": return `a die showing ${FACE_NAMES[fill.face] || fill.face}`;
      case "turn": return "the start of each turn";
      case "ball": return "each Safari Ball thrown";
      case "collect": return `collecting ${fill.species.map(speciesName).join(" or ")}`;
      case "use": return `using the ${itemName(fill.item)} (a Trainer face)`;
      case "obtain": return `obtaining the ${fill.items.map(itemName).join(" or the ")}`;
      case "free": return "itself, once the boxes before it are filled";
      case "bonus": return "a bonus box only";
      default: return fill.kind;
    }
  }

  function requirementText(requirement) {
    switch (requirement.kind) {
      case "item": return `the ${itemName(requirement.item)}`;
      case "species": return `${speciesName(requirement.species)} collected`;
      case "area": return `access to ${S.names.tracks.get(requirement.track) || requirement.track}`;
      case "box": return `${boxName(requirement.box)} filled`;
      case "vp": return `at least ${requirement.at_least} VP`;
      default: return requirement.kind;
    }
  }

  function rewardText(reward) {
    switch (reward.kind) {
      case "item": return `the ${itemName(reward.item)}`;
      case "habitat": return `a ${reward.habitat === "any" ? "Grass or Water" : FACE_NAMES[reward.habitat]} habitat bonus`;
      case "species": return `${speciesName(reward.species)} (collected)`;
      default: return reward.kind;
    }
  }

  function boxTooltip(id) {
    const info = S.names.boxes.get(id);
    if (!info) return id;
    const { box } = info;
    const parts = [`${capitalise(boxName(id))}${box.label ? ` · ${box.label}` : ""}.`, `Filled by ${fillText(box.fill)}.`];
    if (box.requires.length) parts.push(`Needs ${box.requires.map(requirementText).join(" and ")}.`);
    if (box.rewards.length) parts.push(`Gives ${box.rewards.map(rewardText).join(" and ")}.`);
    if (box.vp) parts.push(`${box.vp} VP.`);
    if (box.style === "bonus") parts.push("Bonus: filling it fills another square box of your choice.");
    return parts.join(" ");
  }

  // ---- Pictures -----------------------------------------------------------------------------

  async function loadPictures() {
    const pictures = JSON.parse(new TextDecoder().decode(await unpack("pictures")));
    const url = (svg) => (svg ? URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" })) : null);
    return {
      sheet: pictures.sheet.map(url),
      sheetMm: pictures.sheet_mm,
      cards: new Map(pictures.cards.map(([id, svg]) => [id, url(svg)])),
      back: url(pictures.card_back),
      faces: pictures.faces.map(url),
      dice: pictures.dice,
    };
  }

  // The pictures were typeset from the embedded ruleset's content: another ruleset is drawn
  // from its own data instead.
  const picturesFit = () => S.ruleset && S.embedded && S.ruleset.content_hash === S.embedded.content_hash;

  // The picture of a die's face: this die's own when the pictures are of the open ruleset,
  // else (another version) the page's picture of a face of the same kind, on any die.
  function facePicture(die, action) {
    const fit = picturesFit();
    const sets = (fit ? S.ruleset : S.embedded).dice;
    const set = sets.findIndex((s) => s.role === "expedition");
    if (set < 0) return null;
    const pictures = S.pictures.dice[set] || [];
    const candidates = fit ? [die] : sets[set].dice.map((_, d) => d);
    for (const d of candidates) {
      const face = (sets[set].dice[d] || []).indexOf(action);
      const index = face >= 0 ? pictures[d]?.[face] : undefined;
      if (index !== undefined) return S.pictures.faces[index];
    }
    return null;
  }

  const cardPicture = (id) => (picturesFit() ? S.pictures.cards.get(id) : null);

  // ---- Messages -----------------------------------------------------------------------------

  function say(text, kind = "note") {
    const box = $("#message");
    if (!box) return;
    box.textContent = text || "";
    box.className = kind === "error" ? "error" : "";
    S.studying = false;
  }

  function fatal(text) {
    const app = $("#app");
    app.dataset.state = "error";
    app.replaceChildren(el("p", { class: "fatal", role: "alert", text }));
  }

  // ---- Seats and saving ---------------------------------------------------------------------

  const seatName = (seat) => {
    const bot = S.state?.seats[seat]?.bot;
    if (!bot) return `Player ${seat + 1}`;
    return `Bot ${seat + 1} (${bot.startsWith("target:") ? `target: ${boxName(bot.slice(7))}` : bot})`;
  };
  const storageKey = () => `safari-playtest/${S.embedded.game.id}/${S.embedded.content_hash}`;

  function kept() {
    try {
      return JSON.parse(localStorage.getItem(storageKey()) || "null");
    } catch (_) {
      return null;
    }
  }

  function save() {
    if (S.replay || !S.state) return;
    const kept = {
      ruleset: S.rulesetText === S.embeddedText ? null : S.rulesetText,
      seats: S.state.seats,
      seed: S.state.seed,
      actions: S.state.actions,
    };
    try {
      localStorage.setItem(storageKey(), JSON.stringify(kept));
    } catch (_) {
      // Private windows and full storage: the game goes on, unsaved, and no older game is
      // left to come back on a reload as if it were this one.
      try {
        localStorage.removeItem(storageKey());
      } catch (_) {
        // Storage refused altogether.
      }
    }
  }

  // The game kept in the browser's storage, picked up again: what went wrong if it could not be.
  async function restore() {
    const game = kept();
    if (!game || !Array.isArray(game.seats)) return null;
    let ruleset = S.embedded;
    try {
      if (game.ruleset) ruleset = JSON.parse(game.ruleset);
    } catch (_) {
      // The engine says what is wrong with it.
    }
    const bot = unofferedBot(seatBots(game.seats), offeredBots(ruleset));
    if (bot !== null) return `The saved game was not picked up again: ${botRefusal(bot)}. Here is a new one.`;
    try {
      if (game.ruleset) await openRuleset(game.ruleset);
      show(await call({ op: "resume", seats: game.seats, seed: game.seed, actions: game.actions || [] }));
      S.movedAt = S.state.events.length;
      say("Your game in progress is back where you left it.");
      return null;
    } catch (error) {
      if (error.fatal) throw error;
      await openRuleset(S.embeddedText);
      return `The saved game could not be picked up again (${error.message}); here is a new one.`;
    }
  }

  // The seats a new game of the open ruleset starts with: a person, and bots for the seats
  // the game needs besides.
  function firstSeats() {
    const fewest = Math.max(1, S.ruleset.parameters.players_min);
    return Array.from({ length: fewest }, (_, seat) => ({ bot: seat === 0 ? null : DEFAULT_BOT }));
  }

  function randomSeed() {
    const words = crypto.getRandomValues(new Uint32Array(2));
    return (words[0] % 0x200000) * 0x100000000 + words[1];
  }

  async function openRuleset(text) {
    let ruleset = null;
    try {
      ruleset = JSON.parse(text);
    } catch (_) {
      // The engine refuses it, and says why.
    }
    const opened = await call({ op: "open", ruleset: text, model: modelFor(ruleset) });
    S.rulesetText = text;
    S.ruleset = ruleset;
    S.opened = opened;
    S.names = namesOf(S.ruleset, opened);
    S.sheetFault = sheetFault(S.ruleset);
    S.selected.clear();
    return opened;
  }

  async function newGame(seats, seed, then = () => {}) {
    const state = await call({ op: "start", seats, seed });
    S.replay = null;
    S.pinnedSeat = null;
    S.eventsShown = 0;
    S.filledBefore = new Map();
    S.movedAt = 0;
    show(state);
    save();
    then();
  }

  // ---- Acting -------------------------------------------------------------------------------

  function act(action) {
    if (S.replay) {
      say("This is a replay: step through it with the arrows, or play on from here.");
      return;
    }
    operate(async () => {
      try {
        const before = S.state.events.length;
        const state = await callGame({ op: "act", act: action });
        S.movedAt = before;
        S.selected.clear();
        say("");
        show(state);
        save();
      } catch (error) {
        if (!error.refused) throw error;
        say(`Not allowed: ${error.message}.`);
      }
    });
  }

  // An error said; after the engine itself stopped, the bots stop too (their next move
  // might stop it again).
  function report(error) {
    say(error.message, "error");
    if (error.fatal) {
      clearTimeout(S.botTimer);
      S.paused = true;
    }
  }

  function clickBox(id) {
    const deciding = S.state?.deciding;
    if (S.replay) return say(boxTooltip(id));
    if (!deciding || deciding.bot) return say(boxTooltip(id));
    if (S.viewSeat !== deciding.seat) return say(`${boxName(id)} is on ${seatName(S.viewSeat)}'s sheet; it is ${seatName(deciding.seat)}'s turn to decide.`);
    operate(async () => {
      const answer = await call({ op: "box", box: id });
      if (answer.act) act(answer.act);
      else say(`Not allowed: ${answer.reason}.`);
    });
  }

  function clickDie(die) {
    const deciding = S.state?.deciding;
    if (!deciding || deciding.kind !== "reroll" || deciding.bot || S.replay) return;
    if (!deciding.rerollable.includes(die)) {
      operate(async () => {
        const answer = await call({ op: "die", die });
        say(`Not allowed: ${answer.reason}.`);
      });
      return;
    }
    if (S.selected.has(die)) S.selected.delete(die);
    else S.selected.add(die);
    say("");
    render();
  }

  // ---- Bots ---------------------------------------------------------------------------------

  function scheduleBot() {
    clearTimeout(S.botTimer);
    S.botTimer = null;
    const deciding = S.state?.deciding;
    if (!deciding || !deciding.bot || S.paused || S.replay || S.thinking) return;
    S.botTimer = setTimeout(() => inTurn(startBot), PACES[S.pace]);
  }

  // Sets the bot deciding thinking in the engine (after the study of the ruleset it needs),
  // and shows its move when it comes, unless it was abandoned meanwhile (Pause, or a person's
  // operation).
  function startBot() {
    const deciding = S.state?.deciding;
    if (!deciding || !deciding.bot || S.paused || S.replay || S.thinking) return;
    const thought = {};
    S.thinking = thought;
    const current = () => S.thinking === thought;
    think(deciding.bot, current).then(
      (state) => inTurn(() => {
        if (!current()) return;
        S.thinking = null;
        document.body.style.cursor = "";
        if (S.studying) say("");
        show(state);
        save();
      }),
      (error) => inTurn(() => {
        if (!current()) return;
        S.thinking = null;
        document.body.style.cursor = "";
        report(error);
      }));
  }

  // The bot's move, after the study it needs; none once abandoned.
  async function think(bot, current) {
    await study(bot, current);
    return current() ? callGame({ op: "bot" }) : null;
  }

  // The study the planner and search bots make of a ruleset before their first move (the
  // model of what a position is worth, fitted from games played there; none for the planner
  // on the page's own ruleset, whose model the page carries): a few steps at a time (games
  // played, or parts of the model fitted), the page saying how far it has got and, once it
  // has measured every kind of step, how long the rest is likely to take.
  async function study(bot, current) {
    const timing = new StudyTiming();
    // How many steps of each kind and round a request takes, sized to take about
    // STUDY_STEP_MS (one, until a step of the kind is measured: a round's games take longer
    // each than the round before's).
    const steps = new Map();
    let rounds = null;
    while (current()) {
      const kind = rounds ? StudyTiming.next(rounds) : "game 0";
      const started = performance.now();
      const answer = await call({ op: "study", bot, steps: steps.get(kind) ?? 1 });
      if (answer.done || !current()) return;
      const took = performance.now() - started;
      const perStep = timing.add(rounds, answer.rounds, took);
      rounds = answer.rounds;
      if (timing.spent >= QUIET_STUDY_MS) sayStudying(bot, timing);
      if (perStep > 0) steps.set(kind, Math.max(1, Math.min(10000, Math.round(STUDY_STEP_MS / perStep))));
    }
  }

  function sayStudying(bot, timing) {
    const name = bot.split(":")[0];
    const left = timing.left();
    const where = left === null
      ? `its first games, ${timing.firstPercent()}% done; how long the rest will take is known once it has played a game itself`
      : `${timing.percent()}% done, about ${duration(left)} left`;
    say(`The ${name} bot is studying this ruleset before its first move (once per ruleset): ${where}.`);
    S.studying = true;
    document.body.style.cursor = "progress";
  }

  // "about 40 s", "about 3 min": a time in ms as people say it.
  function duration(ms) {
    const seconds = Math.max(1, Math.round(ms / 1000));
    return seconds < 90 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
  }

  // How long a study's steps take, as measured so far. A study plays rounds of games (the
  // first by `expected`, the others by the bot, each valuing positions with the model the
  // round before fitted), fitting a model to each round's games once they are played. The
  // engine says of each round its games and how many are played, the buckets of its model and
  // how many are fitted, and the work of fitting the positions played so far. A round's games
  // take as long each as those measured of it, or else of the round before if that was the
  // bot's too (the first round's are no measure of the bot's); a fit takes as long per work as
  // those measured, and a round's work is in proportion to its games.
  class StudyTiming {
    constructor() {
      this.spent = 0;
      // Per round: the ms its games took, and how many games they were.
      this.games = [];
      // The ms fits took, and the work they did.
      this.fitMs = 0;
      this.fitWork = 0;
      // The percent last said: it only goes up.
      this.said = 0;
      this.rounds = [];
    }

    // The kind of step the engine takes next, and of which round: a game while the round has
    // some to play, then its fit.
    static next(rounds) {
      const r = Math.max(0, rounds.findIndex((round) => round.played < round.games || round.fitted < round.buckets));
      return `${rounds[r].played < rounds[r].games ? "game" : "fit"} ${r}`;
    }

    // A request that took `took` ms, between the engine's progress `before` (null before the
    // first) and `after`: the ms per step it took.
    add(before, after, took) {
      this.spent += took;
      this.rounds = after;
      const was = before || after.map((r) => ({ ...r, played: 0, fitted: 0 }));
      let steps = 0;
      after.forEach((round, r) => {
        const played = round.played - was[r].played;
        const fitted = round.fitted - was[r].fitted;
        if (played > 0) {
          const measured = this.games[r] || { ms: 0, games: 0 };
          this.games[r] = { ms: measured.ms + took, games: measured.games + played };
          steps += played;
        }
        if (fitted > 0) {
          this.fitMs += took;
          this.fitWork += (round.work * fitted) / round.buckets;
          steps += fitted;
        }
      });
      return steps > 0 ? took / steps : 0;
    }

    // The ms a game of round `r` takes, or null before one is measured.
    perGame(r) {
      const measured = this.games[r];
      if (measured) return measured.ms / measured.games;
      return r >= 2 ? this.perGame(r - 1) : null;
    }

    // The fitting work of round `r` once all its games are played, or null before it can be
    // told.
    work(r) {
      const round = this.rounds[r];
      if (round.played > 0) return (round.work * round.games) / round.played;
      const before = this.rounds[r - 1];
      return r >= 2 && before.played > 0 ? (before.work * round.games) / before.played : null;
    }

    // The ms the study is likely to take still, or null while some kind of step it has still
    // to take is not yet measured.
    left() {
      let left = 0;
      for (let r = 0; r < this.rounds.length; r++) {
        const round = this.rounds[r];
        if (round.played < round.games) {
          const perGame = this.perGame(r);
          if (perGame === null) return null;
          left += (round.games - round.played) * perGame;
        }
        if (round.fitted < round.buckets) {
          const work = this.work(r);
          if (work === null || this.fitWork === 0) return null;
          left += (work * (round.buckets - round.fitted) / round.buckets) * (this.fitMs / this.fitWork);
        }
      }
      return left;
    }

    // How far the study has got, in percent, by the time it is likely to take (once that can
    // be told); never less than said before.
    percent() {
      const left = this.left() ?? 0;
      const done = this.spent / Math.max(this.spent + left, 1);
      this.said = Math.max(this.said, Math.min(99, Math.floor(100 * done)));
      return this.said;
    }

    // How far the first round (`expected`'s games, and the first model fitted to them) has
    // got, in percent, its games and its fit counted alike.
    firstPercent() {
      const round = this.rounds[0];
      return Math.floor(50 * (round.played / Math.max(round.games, 1) + round.fitted / Math.max(round.buckets, 1)));
    }
  }

  // ---- Replays of logs ----------------------------------------------------------------------

  // A game log loaded to be replayed: checked whole (its bots here, then its ruleset, seats
  // and every choice replayed by the engine) before anything changes; a log that fails leaves
  // the game in progress as it was.
  async function loadLog(text, name, preface = "") {
    let log = null;
    try {
      log = JSON.parse(text);
    } catch (_) {
      // The engine says what is wrong with it.
    }
    const bot = Array.isArray(log?.seats) ? unofferedBot(seatBots(log.seats), offeredBots(log.ruleset)) : null;
    if (bot !== null) {
      say(`${name} was not loaded: ${botRefusal(bot)}. The game in progress goes on.`, "error");
      return;
    }
    try {
      await call({ op: "log", log: text, upto: 0 });
    } catch (error) {
      if (error.fatal) throw error;
      say(`${name} is not a game log this page can replay: ${error.message}. The game in progress goes on.`, "error");
      return;
    }
    await openRuleset(JSON.stringify(log.ruleset));
    S.replay = { seats: log.seats, seed: log.seed, actions: log.actions, at: 0 };
    S.eventsShown = 0;
    S.filledBefore = new Map();
    await stepReplay(0);
    const replaying = `game of ${log.actions.length} choices: step through it with the arrows.`;
    say(preface ? `${preface}replaying its ${replaying}` : `Replaying a ${replaying}`);
  }

  async function stepReplay(at) {
    const replay = S.replay;
    replay.at = Math.max(0, Math.min(at, replay.actions.length));
    show(await call({ op: "resume", seats: replay.seats, seed: replay.seed, actions: replay.actions, upto: replay.at }));
  }

  async function playOn() {
    const replay = S.replay;
    // The game goes on from this step: the seats' bots play on, the people's seats are yours.
    const state = await call({ op: "resume", seats: replay.seats, seed: replay.seed, actions: replay.actions, upto: replay.at });
    S.replay = null;
    S.movedAt = state.events.length;
    show(state);
    save();
    say("The replay is now your game: play on from here.");
  }

  // ---- Drawing ------------------------------------------------------------------------------

  function show(answer) {
    const previous = S.state;
    const kept = (list, from, fresh) => (from > 0 && previous ? previous[list].slice(0, from).concat(fresh) : fresh);
    const state = {
      ...answer,
      events: kept("events", answer.events_from, answer.events),
      actions: kept("actions", answer.actions_from, answer.actions),
    };
    S.state = state;
    S.hint = null;
    const deciding = state.deciding;
    // A sheet picked to look at stays in view until another seat is to decide.
    if (deciding && deciding.seat !== S.decidingSeat) S.pinnedSeat = null;
    S.decidingSeat = deciding ? deciding.seat : null;
    if (deciding && S.pinnedSeat === null) S.viewSeat = deciding.seat;
    // At the end, the winner's sheet.
    if (state.over && S.pinnedSeat === null && state.over.winners.length) S.viewSeat = state.over.winners[0];
    if (S.viewSeat >= state.players.length) S.viewSeat = 0;
    S.selected = new Set([...S.selected].filter((die) => deciding?.rerollable?.includes(die)));
    render();
    scheduleBot();
  }

  function render() {
    const app = $("#app");
    const state = S.state;
    app.dataset.state = S.replay ? "replay" : state.over ? "over" : "playing";
    const message = $("#message") ? $("#message").textContent : "";
    const messageClass = $("#message") ? $("#message").className : "";
    app.replaceChildren(header(), el("p", { id: "message", role: "status", class: messageClass }, message), body());
    const log = $(".log");
    if (log) log.scrollTop = log.scrollHeight;
  }

  function header() {
    const versions = Object.entries(S.ruleset.game.versions || {}).map(([k, v]) => `${k} ${v}`).join(" · ");
    const pace = el(
      "select",
      { "aria-label": "Bot pace", onchange: (e) => { S.pace = e.target.value; scheduleBot(); } },
      Object.keys(PACES).map((name) => el("option", { value: name, selected: S.pace === name }, `Bots: ${name}`)),
    );
    const fileButton = (label, action, onText) =>
      el("label", { class: "file", "data-action": action }, label,
        el("input", {
          type: "file",
          accept: ".json,application/json",
          onchange: async (e) => {
            const file = e.target.files[0];
            e.target.value = "";
            if (!file) return;
            const text = await file.text();
            operate(() => onText(text, file.name));
          },
        }));
    return el("header", { class: "bar" },
      el("h1", {}, S.ruleset.game.name, " ", el("span", { class: "sub" }, "playtest")),
      el("span", { class: "sub" }, versions),
      el("div", { class: "controls" },
        el("button", { "data-action": "new", onclick: openNewGame }, "New game"),
        el("button", {
          "data-action": "undo",
          disabled: Boolean(S.replay) || !S.state.undoable,
          // Undo stops at the last roll, draw or throw: nobody sees one and chooses again.
          title: S.state.undoable ? "Take back your last choice" : "Nothing to take back since the last roll, draw or throw",
          onclick: () => operate(async () => {
            show(await callGame({ op: "undo" }));
            save();
            say("Undone.");
          }),
        }, "Undo"),
        el("button", {
          "data-action": "hint",
          disabled: !S.state.deciding || Boolean(S.state.deciding.bot) || Boolean(S.replay),
          title: `What the ${DEFAULT_BOT} bot would choose here, lit on the page`,
          onclick: () => operate(async () => {
            const answer = await call({ op: "hint", bot: DEFAULT_BOT });
            S.hint = JSON.stringify(answer.act);
            render();
            say(`Hint: the ${DEFAULT_BOT} bot ${actText(answer.act)} here (lit).`);
          }),
        }, "Hint"),
        pace,
        el("button", { "data-action": "pause", "aria-pressed": String(S.paused), onclick: togglePause }, S.paused ? "Resume bots" : "Pause bots"),
        el("button", { "data-action": "save", onclick: () => operate(downloadLog) }, "Download log"),
        fileButton("Load log", "load-log", loadLog),
        fileButton("Open ruleset", "open-ruleset", openFile),
        S.rulesetText === S.embeddedText ? null : el("button", {
          "data-action": "own-version",
          title: "Play this page's own version of the game again",
          onclick: () => operate(backToOwnVersion),
        }, `Back to ${ownVersion()}`),
      ));
  }

  // The page's own version, as its header names it.
  const ownVersion = () => `${S.embedded.game.name} ${S.embedded.game.versions?.["field-guide"] ?? ""}`.trim();

  async function backToOwnVersion() {
    await openRuleset(S.embeddedText);
    await newGame(firstSeats(), randomSeed(), () => say(`Back to this page's own version, ${ownVersion()}: a new game.`));
  }

  // A file dropped on the page, or opened with Open ruleset: a game log is replayed (a log
  // carries its ruleset), anything else is opened as a ruleset.
  const isLog = (text) => {
    try {
      return JSON.parse(text)?.format === "safari-log";
    } catch (_) {
      return false;
    }
  };

  async function openFile(text, name) {
    if (isLog(text)) await loadLog(text, name, `${name} is a game log, not a ruleset: `);
    else await openOther(text, name);
  }

  // Pausing abandons a bot's move under way at once; resuming sets the bot deciding going. The
  // button alone is redrawn: a sheet of thousands of boxes takes a while to draw.
  function togglePause(event) {
    S.paused = !S.paused;
    event.currentTarget.textContent = S.paused ? "Resume bots" : "Pause bots";
    event.currentTarget.setAttribute("aria-pressed", String(S.paused));
    const deciding = S.state?.deciding;
    const who = $(".panel[data-deciding] .who");
    if (who && deciding?.bot && !S.replay) who.textContent = waitingFor(seatName(deciding.seat));
    if (S.studying) say("Bots paused: the study is left off, and starts again when they resume.");
    else say(S.paused ? "Bots paused." : "");
    operate(async () => {});
  }

  async function openOther(text, name) {
    try {
      await openRuleset(text);
    } catch (error) {
      if (error.fatal) throw error;
      // The engine refused it before changing anything: the game in progress goes on.
      const where = error.path && error.path !== "." ? ` (at ${error.path})` : "";
      say(`${name} is not a ruleset this page can play: ${error.message}${where}.`, "error");
      return;
    }
    const drawn = picturesFit() ? "" : ": its sheet and cards are drawn from the ruleset (the pictures in this page are of another version)";
    const unplaced = S.sheetFault ? ` Its boxes are listed track by track: ${S.sheetFault}.` : "";
    await newGame(firstSeats(), randomSeed(), () => say(`Opened ${name}${drawn}.${unplaced}`, S.sheetFault ? "error" : "note"));
  }

  async function downloadLog() {
    const log = await call({ op: "save" });
    download(`${S.ruleset.game.id}-game-${log.seed}.json`, JSON.stringify(log, null, 1));
  }

  function body() {
    return el("main", {}, el("section", { class: "table" }, seatTabs(), sheetBox()), el("aside", { class: "turn" }, turnPanels()));
  }

  function seatTabs() {
    const state = S.state;
    return el("nav", { class: "seats", "aria-label": "Players" },
      state.players.map((player, seat) => {
        const classes = ["seat"];
        if (seat === S.viewSeat) classes.push("viewing");
        if (state.deciding?.seat === seat) classes.push("to-move");
        if (player.out) classes.push("out");
        return el("button", {
          class: classes.join(" "),
          "data-seat": seat,
          style: { "--pen": `var(--seat-${seat % 4})` },
          onclick: () => { S.viewSeat = seat; S.pinnedSeat = seat; render(); },
        },
        el("div", { class: "who" }, seatName(seat)),
        el("div", { class: "stats" },
          el("span", { "data-vp": player.vp }, `${player.vp} VP`), " · ",
          `${player.balls_left} balls · ${player.turns_left} turns left · ${player.unique_species} species`,
          player.out ? ` · out (${player.out === "balls" ? "no balls" : "no turns"})` : ""));
      }));
  }

  function sheetBox() {
    const player = S.state.players[S.viewSeat];
    const tabs = el("div", { class: "sheet-tabs" },
      el("button", { class: S.side === 0 ? "on" : "", onclick: () => { S.side = 0; render(); } }, "Field Guide"),
      el("button", { class: S.side === 1 ? "on" : "", onclick: () => { S.side = 1; render(); } }, "Park Rules"),
      el("button", { "data-action": "zoom", onclick: () => { S.zoomed = !S.zoomed; render(); } }, S.zoomed ? "Fit to screen" : "Zoom in"),
      el("span", { class: "sub" }, `${seatName(S.viewSeat)}'s sheet`));
    return el("div", { class: "sheet-box", style: { "--pen": `var(--seat-${S.viewSeat % 4})` } }, tabs,
      S.side === 1 ? parkRules() : sheet(player));
  }

  function parkRules() {
    if (picturesFit() && S.pictures.sheet[1]) {
      const [width, height] = S.pictures.sheetMm;
      return el("div", { class: S.zoomed ? "sheet" : "sheet fit", style: { "--aspect": width / height } },
        el("img", { class: "page", src: S.pictures.sheet[1], alt: "The Park Rules" }));
    }
    return el("p", {}, "This ruleset's Park Rules are not in this page: they are on the back of its printed Field Guide.");
  }

  function sheet(player) {
    const places = S.ruleset.sheet;
    const filled = new Set(player.filled);
    const deciding = S.state.deciding;
    const offered = new Map();
    if (deciding && deciding.seat === S.viewSeat && !deciding.bot && !S.replay) {
      deciding.boxes.forEach((box, index) => { if (box) offered.set(box, deciding.acts[index]); });
    }
    const before = S.filledBefore.get(S.viewSeat) || new Set();
    S.filledBefore.set(S.viewSeat, filled);
    const mark = (id, style) =>
      el("button", {
        class: "mark",
        "data-box": id,
        "data-filled": filled.has(id) ? "true" : "false",
        "data-offered": offered.has(id) ? "true" : "false",
        "data-new": filled.has(id) && !before.has(id) && before.size > 0 ? "true" : "false",
        "data-hinted": hinting(offered.get(id)),
        title: boxTooltip(id),
        "aria-label": `${boxName(id)}${filled.has(id) ? ", filled" : ""}`,
        style,
        onclick: () => clickBox(id),
      });
    // Places that do not cover every box, or lie outside the page, are no drawing to trust.
    const placed = new Set((places?.boxes || []).map((p) => p.id));
    const covered = places && [...S.names.boxes.keys()].every((id) => placed.has(id));
    if (!covered || S.sheetFault) return boxList(mark);
    const percent = (value, whole) => `${(100 * value / whole).toFixed(3)}%`;
    const marks = el("div", { class: "marks" },
      places.boxes.map((place) =>
        mark(place.id, {
          left: percent(place.x, places.width_mm),
          top: percent(place.y, places.height_mm),
          width: percent(place.width, places.width_mm),
          height: percent(place.height, places.height_mm),
        })));
    const picture = picturesFit() && S.pictures.sheet[0]
      ? el("img", { class: "page", src: S.pictures.sheet[0], alt: `${S.ruleset.field_guide.title}` })
      : schematic(places);
    return el("div", {
      class: S.zoomed ? "sheet" : "sheet fit",
      style: { "aspect-ratio": `${places.width_mm} / ${places.height_mm}`, "--aspect": places.width_mm / places.height_mm },
    }, picture, marks);
  }

  // A sheet with no picture of its own (another version's ruleset): sections and boxes where
  // the ruleset places them, each box with what a player reads beside it on the print (its
  // label or species, its VP, a padlock for what it needs and an arrow for what it gives),
  // the words sized to the room beside the box and never over another box.
  function schematic(places) {
    const svg = svgEl("svg", { class: "page schematic", viewBox: `0 0 ${places.width_mm} ${places.height_mm}`, role: "img", "aria-label": S.ruleset.field_guide.title });
    svg.append(svgEl("rect", { x: 0, y: 0, width: places.width_mm, height: places.height_mm, fill: "#fff" }));
    const titles = new Map(S.ruleset.field_guide.sections.map((s) => [s.id, s.title]));
    for (const place of places.sections) {
      svg.append(svgEl("rect", { class: "section", x: place.x, y: place.y, width: place.width, height: place.height, rx: 1.5 }));
      svg.append(fitted(titles.get(place.id) || place.id, place.x + 2, place.y + 3.6, place.width - 4, 3, "section-title"));
    }
    const room = roomBeside(places);
    for (const place of places.boxes) {
      const info = S.names.boxes.get(place.id);
      const box = info?.box;
      const round = box && box.shape !== "square" ? Math.min(place.width, place.height) / 2 : 0.6;
      svg.append(svgEl("rect", { class: `box ${box?.style || ""}`, x: place.x, y: place.y, width: place.width, height: place.height, rx: round }));
      if (!box) continue;
      if (box.vp) svg.append(svgEl("text", { class: "vp", x: place.x + place.width - 1.5, y: place.y + 2 }, box.vp));
      const { right, above } = room.of.get(place.id);
      const words = boxWords(info);
      const tags = [
        ...box.requires.map((r) => ["needs", requirementWord(r)]),
        ...box.rewards.map((r) => ["gives", rewardWord(r)]),
      ];
      const x = place.x + place.width + 0.8;
      const width = right - 1.2;
      const middle = place.y + place.height / 2;
      const lines = (words ? 1 : 0) + (tags.length ? 1 : 0);
      const size = Math.min(2.2, place.height / Math.max(lines, 1) - 0.3);
      if (words) svg.append(fitted(words, x, lines === 2 ? middle - 0.4 : middle + size / 3, width, size, "label"));
      if (tags.length) svg.append(tagRow(tags, x, lines === 2 ? middle + size * 0.9 : middle + size / 3, width, size * 0.85));
      // A titled track's name over its first box, where no box is in its way.
      if (info.position === 0 && info.track.title && info.track.boxes.length > 1 && above >= 1.7) {
        const size = Math.min(2.2, above - 0.4);
        const width = LETTER * size * info.track.title.length;
        if (room.clear(place.x, place.y - 0.6 - size, width, size)) svg.append(fitted(info.track.title, place.x, place.y - 0.6, width, size, "label"));
      }
    }
    return svg;
  }

  // What a player reads beside a box on the print: its label, else the species or items it is
  // filled by.
  function boxWords(info) {
    const { box } = info;
    if (box.label) return box.label;
    if (box.fill.kind === "collect") return box.fill.species.map(speciesName).join(" / ");
    if (box.fill.kind === "use") return itemName(box.fill.item);
    if (box.fill.kind === "obtain") return box.fill.items.map(itemName).join(" / ");
    return "";
  }

  const requirementWord = (r) => (r.kind === "item" ? itemName(r.item) : r.kind === "species" ? speciesName(r.species)
    : r.kind === "area" ? S.names.tracks.get(r.track) || r.track : r.kind === "box" ? boxName(r.box) : r.kind === "vp" ? `${r.at_least} VP` : r.kind);
  const rewardWord = (r) => (r.kind === "item" ? itemName(r.item) : r.kind === "species" ? speciesName(r.species)
    : r.kind === "habitat" ? (r.habitat === "any" ? "Grass/Water" : FACE_NAMES[r.habitat]) : r.kind);

  // Text at (x, y) no wider than `width` (mm): at `size` if it fits, smaller down to a size
  // still read on a screen, and cut short with an ellipsis past that.
  function fitted(text, x, y, width, size, kind) {
    const per = LETTER;
    const least = Math.min(size, 1.3);
    let shown = text;
    let at = Math.max(least, Math.min(size, width / (per * Math.max(text.length, 1))));
    const most = Math.floor(width / (per * at));
    if (most < text.length) shown = most > 1 ? `${text.slice(0, most - 1)}…` : "";
    const node = svgEl("text", { class: kind, x, y, style: `font-size: ${at.toFixed(2)}px` }, shown);
    if (shown !== text) node.setAttribute("data-whole", text);
    return node;
  }

  // A box's needs and gives, as the print tags them, in words.
  function tagRow(tags, x, y, width, size) {
    const text = tags.map(([side, word]) => `${side} ${word}`).join(" · ");
    const node = fitted(text, x, y, width, size, "tags");
    node.setAttribute("data-tags", tags.map(([side]) => side).join(" "));
    return node;
  }

  // The widest a letter of the page's sans-serif is on average, as a share of its size.
  const LETTER = 0.62;

  // The room (mm) to the right of each box before the next box or the edge of its section,
  // and above it before the box over it: where its words can go; and whether a rectangle
  // is clear of every box. Boxes are bucketed by millimetre rows, so that a sheet of
  // thousands of boxes takes no more than a glance.
  function roomBeside(places) {
    const rows = new Map();
    const band = (y) => Math.floor(y);
    places.boxes.forEach((place) => {
      for (let r = band(place.y); r <= band(place.y + place.height); r++) {
        if (!rows.has(r)) rows.set(r, []);
        rows.get(r).push(place);
      }
    });
    const sectionOf = (place) => places.sections.find((s) => place.x >= s.x && place.x <= s.x + s.width && place.y >= s.y && place.y <= s.y + s.height);
    const room = new Map();
    for (const place of places.boxes) {
      const section = sectionOf(place);
      const end = place.x + place.width;
      let right = (section ? section.x + section.width : places.width_mm) - end;
      let above = place.y - (section ? section.y + 4.5 : 0);
      for (let r = band(place.y); r <= band(place.y + place.height); r++) {
        for (const other of rows.get(r) || []) {
          if (other !== place && other.x >= end && other.y < place.y + place.height && other.y + other.height > place.y) right = Math.min(right, other.x - end);
        }
      }
      for (let r = band(place.y - 4); r < band(place.y); r++) {
        for (const other of rows.get(r) || []) {
          if (other.y + other.height <= place.y && other.x < place.x + 20 && other.x + other.width > place.x) above = Math.min(above, place.y - other.y - other.height);
        }
      }
      room.set(place.id, { right: Math.max(0, right), above: Math.max(0, above) });
    }
    const clear = (x, y, width, height) => {
      for (let r = band(y); r <= band(y + height); r++) {
        for (const other of rows.get(r) || []) {
          if (other.x < x + width && x < other.x + other.width && other.y < y + height && y < other.y + other.height) return false;
        }
      }
      return true;
    };
    return { of: room, clear };
  }

  // A ruleset with no places at all, or places the page cannot draw: every track as a row of
  // boxes.
  function boxList(mark) {
    return el("div", { class: "panel box-list" },
      S.sheetFault ? el("p", { class: "dice-note", "data-sheet-fault": "true" }, `This ruleset's sheet is not drawn: ${S.sheetFault}. Its boxes, track by track:`) : null,
      S.ruleset.field_guide.sections.map((section) =>
        el("div", {}, el("h2", {}, section.title),
          section.tracks.map((track) =>
            el("div", { class: "track-row" },
              el("span", { class: "track-name" }, S.names.tracks.get(track.id)),
              track.boxes.map((box) => mark(box.id, {})))))));
  }

  function turnPanels() {
    const state = S.state;
    const panels = [];
    if (S.replay) panels.push(replayPanel());
    if (state.over) panels.push(overPanel());
    else if (state.deciding) panels.push(decisionPanel(state.deciding));
    // What just happened, below what is asked now.
    const finished = finishedTurns();
    if (finished.length) panels.push(summaryPanel(finished));
    panels.push(tablePanel());
    panels.push(logPanel());
    return panels;
  }

  function replayPanel() {
    const replay = S.replay;
    const step = (to) => () => operate(() => stepReplay(to));
    return el("div", { class: "panel" }, el("h2", {}, "Replay"),
      el("div", { class: "replay-bar" },
        el("button", { "data-action": "replay-start", onclick: step(0), disabled: replay.at === 0, "aria-label": "To the start" }, "|◀"),
        el("button", { "data-action": "replay-back", onclick: step(replay.at - 1), disabled: replay.at === 0, "aria-label": "One choice back" }, "◀"),
        el("span", { class: "where", "data-at": replay.at }, `choice ${replay.at} of ${replay.actions.length}`),
        el("button", { "data-action": "replay-forward", onclick: step(replay.at + 1), disabled: replay.at >= replay.actions.length, "aria-label": "One choice forward" }, "▶"),
        el("button", { "data-action": "replay-end", onclick: step(replay.actions.length), disabled: replay.at >= replay.actions.length, "aria-label": "To the end" }, "▶|"),
        el("button", { "data-action": "play-on", onclick: () => operate(playOn) }, "Play on from here")),
      replay.at < replay.actions.length
        ? el("div", { class: "dice-note" }, `Next: ${seatName(replay.actions[replay.at].seat)} ${actText(replay.actions[replay.at].act)}`)
        : null);
  }

  function actText(action) {
    if (action === "stop") return "stops";
    if (action === "throw") return "throws a Safari Ball";
    if (action.reroll) return `re-rolls ${action.reroll.length === 1 ? "die" : "dice"} ${listed(action.reroll.map((d) => d + 1))}`;
    if (action.track) return `fills the next box of ${S.names.tracks.get(action.track) || action.track}`;
    if (action.box) return `fills ${boxName(action.box)}`;
    if (action.use) return `uses the ${itemName(action.use)}`;
    if (action.card !== undefined) return `encounters card ${action.card + 1}`;
    if (action.lock) return `keeps capture die ${action.lock.die + 1} at ${action.lock.value} and throws`;
    return JSON.stringify(action);
  }

  function overPanel() {
    const { scores, winners } = S.state.over;
    const best = winners.map(seatName).join(" and ");
    return el("div", { class: "panel over", "data-over": "true" },
      el("h2", {}, winners.length > 1 ? `Game over: ${best} share the win` : `Game over: ${best} wins`),
      el("table", { class: "scores" },
        el("thead", {}, el("tr", {}, el("th", {}, "Player"), el("th", { class: "num" }, "VP"), el("th", { class: "num" }, "Species"))),
        el("tbody", {}, scores.map((score, seat) =>
          el("tr", { class: winners.includes(seat) ? "winner" : "" },
            el("td", {}, seatName(seat)),
            el("td", { class: "num", "data-score": score, "data-seat": seat }, score),
            el("td", { class: "num" }, S.state.players[seat].unique_species))))),
      breakdown(scores),
      el("div", { class: "actions" }, el("button", { class: "primary", onclick: openNewGame }, "New game")));
  }

  // Where each seat's VP came from: the boxes filled, section by section, of which the bonus
  // boxes, and the species whose boxes brought the most.
  function breakdown(scores) {
    const seats = scores.map((_, seat) => seat);
    // The sections where VP can be scored at all.
    const sections = S.ruleset.field_guide.sections.filter((section) => section.tracks.some((track) => track.boxes.some((box) => box.vp > 0)));
    const per = seats.map((seat) => {
      const bySection = new Map(sections.map((section) => [section.id, 0]));
      const bySpecies = new Map();
      let bonus = 0;
      for (const id of S.state.players[seat].filled) {
        const info = S.names.boxes.get(id);
        if (!info || !info.box.vp) continue;
        const { box, section } = info;
        bySection.set(section.id, (bySection.get(section.id) || 0) + box.vp);
        if (box.style === "bonus") bonus += box.vp;
        if (box.fill.kind === "collect" && box.fill.species.length === 1) {
          const species = box.fill.species[0];
          bySpecies.set(species, (bySpecies.get(species) || 0) + box.vp);
        }
      }
      const best = [...bySpecies].sort((a, b) => b[1] - a[1] || speciesName(a[0]).localeCompare(speciesName(b[0]))).slice(0, 3);
      return { bySection, bonus, best };
    });
    const row = (label, cells, attributes = {}) => el("tr", attributes, el("th", { scope: "row" }, label), cells.map((cell) => el("td", { class: "num" }, cell)));
    return el("details", { class: "breakdown", open: true },
      el("summary", {}, "Where the VP came from"),
      el("table", { class: "scores" },
        el("thead", {}, el("tr", {}, el("th", {}, "Section"), seats.map((seat) => el("th", { class: "num" }, seatName(seat))))),
        el("tbody", {},
          sections.map((section) => row(section.title, per.map((p) => p.bySection.get(section.id)), { "data-section": section.id })),
          row("of which bonus boxes", per.map((p) => p.bonus), { class: "minor", "data-row": "bonus" }),
          row("Total", scores, { class: "total", "data-row": "total" }),
          row("Best species", per.map((p) => (p.best.length ? p.best.map(([species, vp]) => `${speciesName(species)} ${vp}`).join(", ") : "none")), { class: "minor", "data-row": "species" }))));
  }

  function decisionPanel(deciding) {
    const who = seatName(deciding.seat);
    const panel = el("div", { class: "panel", "data-deciding": deciding.kind, "data-seat": deciding.seat, style: { "--pen": `var(--seat-${deciding.seat % 4})` } });
    panel.append(el("h2", {}, `Turn ${S.state.players[deciding.seat].turns_taken} · ${who}`));
    const waiting = deciding.bot && !S.replay;
    panel.append(el("div", { class: "prompt" }, el("span", { class: "who" }, waiting ? waitingFor(who) : ""), capitalise(deciding.asks), "."));
    panel.append(diceRow(deciding));
    if (deciding.kind === "card" || deciding.kind === "repel" || deciding.kind === "throw") panel.append(cardsRow(deciding));
    const throwNote = lastThrow(deciding.seat);
    if (throwNote) panel.append(throwNote);
    if (!waiting && !S.replay) panel.append(actionsRow(deciding));
    if (!waiting && !S.replay && S.viewSeat !== deciding.seat && (deciding.kind === "track" || deciding.kind === "bonus")) {
      panel.append(el("button", { onclick: () => { S.viewSeat = deciding.seat; S.pinnedSeat = null; render(); } }, `Show ${who}'s sheet`));
    }
    if (deciding.trainers !== null && deciding.trainers !== undefined) {
      panel.append(el("div", { class: "dice-note" }, `Trainer faces left: ${deciding.trainers}${deciding.lock ? ` · Poké Doll keeps capture die ${deciding.lock[0] + 1} at ${deciding.lock[1]}` : ""}`));
    }
    return panel;
  }

  const capitalise = (text) => text.charAt(0).toUpperCase() + text.slice(1);
  // Marks what is drawn for `action` when it is the hint's: "true", else nothing.
  const hinting = (action) => (S.hint !== null && action !== undefined && JSON.stringify(action) === S.hint ? "true" : undefined);
  const hintedAct = () => (S.hint === null ? null : JSON.parse(S.hint));
  // "1", "1 and 3", "1, 2 and 3".
  const listed = (items) => (items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`);

  // What the decision panel says of the bot `who` deciding.
  const waitingFor = (who) => (S.paused ? `${who} decides when the bots resume: ` : `${who} is deciding: `);

  function diceRow(deciding) {
    const choosing = deciding.kind === "reroll" && !deciding.bot && !S.replay;
    const row = el("div", { class: "dice", role: "group", "aria-label": "Expedition dice" },
      deciding.dice.map((face, die) => {
        const picture = facePicture(die, face);
        return el("button", {
          class: "die",
          "data-die": die,
          "data-face": face,
          "data-selected": S.selected.has(die) ? "true" : "false",
          "data-fixed": choosing && !deciding.rerollable.includes(die) ? "true" : "false",
          "data-hinted": hintedAct()?.reroll?.includes(die) ? "true" : undefined,
          title: `${FACE_NAMES[face]}${choosing ? (deciding.rerollable.includes(die) ? " · click to re-roll" : " · cannot be re-rolled") : ""}`,
          "aria-pressed": choosing ? String(S.selected.has(die)) : undefined,
          onclick: () => clickDie(die),
        }, picture ? el("img", { src: picture, alt: FACE_NAMES[face] }) : el("span", { class: "face-name" }, FACE_NAMES[face]));
      }));
    const note = deciding.kind === "reroll"
      ? el("div", { class: "dice-note" }, `${deciding.rolls_left} re-roll${deciding.rolls_left === 1 ? "" : "s"} left. ${S.ruleset.parameters.hazard_limit} Hazards end the turn; a die showing a Hazard stays${deciding.hazard_rerolls ? " (but the first of them may be re-rolled with each re-roll)" : ""}.`)
      : null;
    return el("div", {}, row, note);
  }

  function card(id, index, allowed, deciding) {
    const info = S.names.cards.get(id);
    const picture = cardPicture(id);
    const criteria = info ? [
      info.criteria.grass ? `${info.criteria.grass}× Grass` : "",
      info.criteria.water ? `${info.criteria.water}× Water` : "",
      info.criteria.area ? `in ${S.names.tracks.get(info.criteria.area) || info.criteria.area}` : "",
      info.criteria.item ? `with the ${itemName(info.criteria.item)}` : "",
    ].filter(Boolean).join(", ") : "";
    const face = picture
      ? el("img", { src: picture, alt: `${cardSpecies(id)}: catch on ${info?.capture_rate}+${criteria ? `; needs ${criteria}` : ""}` })
      : el("div", { class: "drawn" },
        el("div", { class: "species" }, cardSpecies(id)),
        el("div", { class: "rate" }, `Catch on ${info?.capture_rate}+`),
        criteria ? el("div", {}, `Needs ${criteria}`) : null,
        info?.flavor ? el("p", {}, el("i", {}, info.flavor)) : null);
    const figure = el("figure", { class: "card", "data-card": id, "data-allowed": allowed ? "true" : "false" }, face);
    if (deciding.kind === "card" && !deciding.bot && !S.replay) {
      figure.append(el("button", { "data-act": "card", "data-index": index, class: allowed ? "primary" : "", "data-hinted": hinting({ card: index }), onclick: () => act({ card: index }) }, allowed ? "Encounter" : "Can't encounter"));
    }
    // A species is repelled by the first of its cards drawn: that card carries the button.
    if (deciding.kind === "repel" && allowed && !deciding.bot && !S.replay) {
      figure.append(el("button", { "data-act": "repel", "data-index": index, "data-hinted": hinting({ card: index }), onclick: () => act({ card: index }) }, `Repel ${cardSpecies(id)}`));
    }
    return figure;
  }

  function cardsRow(deciding) {
    if (deciding.kind === "throw" && deciding.target) {
      return el("div", { class: "cards" }, card(deciding.target, 0, true, deciding));
    }
    const allowed = new Set(deciding.acts.filter((a) => a.card !== undefined).map((a) => a.card));
    return el("div", { class: "cards" }, deciding.drawn.map((id, index) => card(id, index, allowed.has(index), deciding)));
  }

  // The last throw of this seat's turn, if any: its capture dice drawn as dice.
  function lastThrow(seat) {
    const events = S.state.events;
    for (let i = events.length - 1; i >= 0; i--) {
      const event = events[i];
      if (event.player !== seat) continue;
      if (event.event === "turn") return null;
      if (event.event === "throw") {
        const lock = S.state.deciding?.lock;
        return el("div", { class: `throw-result ${event.caught ? "caught" : "missed"}` },
          "Last throw: ", throwDrawn(event, lock ? lock[0] : null));
      }
    }
    return null;
  }

  // A throw's capture dice drawn as dice (the one a Poké Doll keeps outlined), and its sum.
  function throwDrawn(event, kept) {
    return el("span", {},
      el("span", { class: "capture-dice", role: "img", "aria-label": `capture dice ${event.dice.join(", ")}` },
        event.dice.map((value, die) => el("span", { class: "capture-die", "data-die": die, "data-kept": kept === die ? "true" : "false", title: `capture die ${die + 1}` }, value))),
      ` = ${event.total} against ${event.needed} — ${event.caught ? "caught!" : "missed."}`);
  }

  // The expedition dice a roll shows, drawn as dice.
  function rollDrawn(event) {
    return el("span", { class: "dice small", role: "img", "aria-label": event.faces.map((f) => FACE_NAMES[f]).join(", ") },
      event.faces.map((face, die) => {
        const picture = facePicture(die, face);
        return el("span", { class: "die", "data-face": face, "data-rerolled": event.rerolled?.includes(die) ? "true" : "false", title: FACE_NAMES[face] },
          picture ? el("img", { src: picture, alt: FACE_NAMES[face] }) : el("span", { class: "face-name" }, FACE_NAMES[face]));
      }));
  }

  // The turns finished since a person last chose (the person's own, and the bots' after it),
  // each as its events: at most one a seat, the latest.
  function finishedTurns() {
    if (S.replay || S.movedAt === null) return [];
    const events = S.state.events;
    const turns = [];
    let start = -1;
    events.forEach((event, i) => {
      if (event.event !== "turn" && event.event !== "end") return;
      if (start >= 0 && i >= S.movedAt) turns.push(events.slice(start, i));
      start = event.event === "turn" ? i : -1;
    });
    return turns.slice(-Math.max(1, S.state.players.length));
  }

  // What each finished turn did, kept in view until the person chooses again: the dice as
  // they fell, the cards drawn, each throw's capture dice, what was filled and caught.
  function summaryPanel(turns) {
    const panel = el("div", { class: "panel summary", "data-summary": turns.length });
    panel.append(el("h2", {}, turns.length === 1 ? "The turn that ended" : "The turns that ended"));
    for (const events of turns) {
      const [start] = events;
      const vp = events.reduce((sum, e) => sum + (e.event === "fill" ? e.vp : 0), 0);
      const caught = events.filter((e) => e.event === "collect").map((e) => speciesName(e.species));
      const lines = events.slice(1).map((event) => {
        if (event.event === "roll") {
          const again = event.rerolled || [];
          return el("li", { "data-event": "roll" }, again.length ? `Re-rolled ${again.length === 1 ? "die" : "dice"} ${listed(again.map((d) => d + 1))}: ` : "Rolled: ", rollDrawn(event));
        }
        if (event.event === "throw") return el("li", { "data-event": "throw" }, "Threw a Safari Ball: ", throwDrawn(event, null));
        return el("li", { "data-event": event.event }, capitalise(eventText(event)));
      });
      panel.append(el("section", { class: "turn-summary", "data-seat": start.player, "data-vp": vp, style: { "--pen": `var(--seat-${start.player % 4})` } },
        el("h3", {}, `${seatName(start.player)} · turn ${start.turn}: +${vp} VP${caught.length ? ` · caught ${listed(caught)}` : ""}`),
        el("ol", {}, lines)));
    }
    panel.append(el("div", { class: "actions" },
      el("button", { "data-action": "dismiss-summary", onclick: () => { S.movedAt = S.state.events.length; render(); } }, "Got it")));
    return panel;
  }

  function actionsRow(deciding) {
    const row = el("div", { class: "actions" });
    switch (deciding.kind) {
      case "reroll": {
        const dice = [...S.selected].sort((a, b) => a - b);
        row.append(
          el("button", { class: "primary", "data-act": "reroll", disabled: dice.length === 0, "data-hinted": hintedAct()?.reroll ? "true" : undefined, onclick: () => act({ reroll: dice }) },
            dice.length ? `Re-roll ${dice.length} ${dice.length === 1 ? "die" : "dice"}` : "Re-roll (pick dice)"),
          el("button", { "data-act": "stop", "data-hinted": hinting("stop"), onclick: () => act("stop") }, "Keep these"));
        break;
      }
      case "track":
      case "bonus":
        deciding.acts.forEach((action, index) => {
          const box = deciding.boxes[index];
          const label = action.track ? `${S.names.tracks.get(action.track) || action.track}: ${boxName(box)}` : boxName(action.box);
          row.append(el("button", { "data-act": action.track ? "track" : "box", "data-target": box, "data-hinted": hinting(action), onclick: () => act(action) }, label));
        });
        row.append(el("div", { class: "dice-note" }, "Or click a lit box on the sheet."));
        break;
      case "use":
        deciding.acts.forEach((action) => {
          if (action === "stop") return;
          row.append(el("button", { "data-act": "use", "data-item": action.use, "data-hinted": hinting(action), onclick: () => act(action) }, `Use the ${itemName(action.use)}`));
        });
        row.append(el("button", { "data-act": "stop", "data-hinted": hinting("stop"), onclick: () => act("stop") }, deciding.after_encounter ? "Use nothing: end the turn" : "Use nothing"));
        break;
      case "repel":
        row.append(el("button", { "data-act": "stop", "data-hinted": hinting("stop"), onclick: () => act("stop") }, "Keep these cards"));
        break;
      case "card":
        row.append(el("button", { "data-act": "stop", "data-hinted": hinting("stop"), onclick: () => act("stop") }, "Let them go"));
        break;
      case "throw": {
        const doll = S.ruleset.items.find((i) => (i.effects || []).includes("lock-capture-die"));
        row.append(
          el("button", { class: "primary", "data-act": "throw", "data-hinted": hinting("throw"), onclick: () => act("throw") }, `Throw a Safari Ball (${Math.round(deciding.catch_chance * 100)}%)`),
          el("button", { "data-act": "stop", "data-hinted": hinting("stop"), onclick: () => act("stop") }, "Let it go"));
        deciding.acts.forEach((action, index) => {
          if (!action.lock) return;
          const chance = deciding.chances[index];
          row.append(el("button", { "data-act": "lock", "data-die": action.lock.die, "data-hinted": hinting(action), onclick: () => act(action) },
            `${doll ? itemName(doll.id) : "Keep"}: keep die ${action.lock.die + 1} at ${action.lock.value}, throw (${Math.round(chance * 100)}%)`));
        });
        break;
      }
      default:
        deciding.acts.forEach((action) => row.append(el("button", { onclick: () => act(action) }, actText(action))));
    }
    return row;
  }

  function tablePanel() {
    const state = S.state;
    const player = state.players[S.viewSeat];
    const top = state.discard[state.discard.length - 1];
    const topPicture = top ? cardPicture(top) : null;
    const deckPicture = picturesFit() ? S.pictures.back : null;
    return el("div", { class: "panel" }, el("h2", {}, "The table"),
      el("div", { class: "piles" },
        el("div", { "data-pile": "deck", "data-count": state.deck }, deckPicture ? el("img", { src: deckPicture, alt: "" }) : null, ` Deck: ${state.deck}`),
        el("div", { "data-pile": "discard", "data-count": state.discard.length },
          topPicture ? el("img", { src: topPicture, alt: cardSpecies(top) }) : null,
          ` Discard: ${state.discard.length}${top ? ` (top: ${cardSpecies(top)})` : ""}`)),
      el("div", { class: "holding" },
        `${seatName(S.viewSeat)} holds: ${player.items.length ? player.items.map(itemName).join(", ") : "no items"}. `,
        `Collected: ${player.species.length ? player.species.map(speciesName).join(", ") : "nothing yet"}.`,
        habitatNote(player)));
  }

  function habitatNote(player) {
    const [grass, water, any] = player.habitat_bonus;
    const parts = [grass ? `${grass} Grass` : "", water ? `${water} Water` : "", any ? `${any} either` : ""].filter(Boolean);
    return parts.length ? ` Habitat bonuses: ${parts.join(", ")}.` : "";
  }

  function eventText(event) {
    const who = seatName(event.player ?? 0);
    switch (event.event) {
      case "turn": return `${who} · turn ${event.turn}`;
      case "roll": return event.rerolled?.length
        ? `re-rolled ${event.rerolled.length === 1 ? "die" : "dice"} ${listed(event.rerolled.map((d) => d + 1))} (${event.rerolled.map((d) => FACE_NAMES[event.faces[d]]).join(", ")}): showing ${event.faces.map((f) => FACE_NAMES[f]).join(", ")}`
        : `rolled ${event.faces.map((f) => FACE_NAMES[f]).join(", ")}`;
      case "bust": return `${S.ruleset.parameters.hazard_limit} Hazards: the turn ends`;
      case "fill": return `filled ${boxName(event.box)}${event.vp ? ` (+${event.vp} VP)` : ""}`;
      case "draw": return `drew ${event.cards.map(cardSpecies).join(", ")}`;
      case "encounter": return `encountered ${cardSpecies(event.card)}`;
      case "throw": return `threw a Safari Ball: ${event.total} against ${event.needed}, ${event.caught ? "caught!" : "missed"}`;
      case "collect": return `collected ${speciesName(event.species)}`;
      case "use": return `used the ${itemName(event.item)}${event.species ? ` on ${speciesName(event.species)}` : ""}${event.keeps ? `: capture die ${event.keeps.die + 1} keeps its ${event.keeps.value}` : ""}`;
      case "out": return `${who} is out: ${event.reason === "balls" ? "no Safari Balls left" : "no turns left"}`;
      case "end": return `Game over: ${event.scores.map((s, seat) => `${seatName(seat)} ${s} VP`).join(", ")}`;
      default: return JSON.stringify(event);
    }
  }

  function logPanel() {
    const events = S.state.events;
    return el("div", { class: "panel" }, el("h2", {}, "Game log"),
      el("ol", { class: "log", "aria-live": "polite" },
        events.map((event) => el("li", { class: event.event === "turn" ? "turn" : "" }, eventText(event)))));
  }

  // ---- A new game ---------------------------------------------------------------------------

  function openNewGame() {
    const [fewest, most] = [S.ruleset.parameters.players_min, S.ruleset.parameters.players_max];
    const bots = BOTS;
    // The `target` policy plays toward a box of the designer's choice ("how soon can Area 3
    // open?"), offered box by box on a sheet of a size a list can hold.
    const targets = targetBoxes(S.ruleset);
    const dialog = el("dialog", { "aria-label": "New game" });
    const players = el("select", { name: "players" },
      Array.from({ length: most - fewest + 1 }, (_, i) => fewest + i).map((n) =>
        el("option", { value: n, selected: n === (S.state?.players.length || fewest) }, n)));
    const seatRows = el("div");
    // Each seat: a person or a bot, and for the bot that plays to fill one box as early as it
    // can, which box (a second menu, shown once that bot is chosen).
    const seatOf = (row) => {
      const who = row.querySelector("select.who").value;
      return who === "target" ? `target:${row.querySelector("select.box").value}` : who;
    };
    const drawSeats = () => {
      const count = Number(players.value);
      const previous = [...seatRows.querySelectorAll(".row")].map(seatOf);
      seatRows.replaceChildren(...Array.from({ length: count }, (_, seat) => {
        const was = previous[seat] ?? (seat === 0 ? "" : DEFAULT_BOT);
        const aiming = was.startsWith("target:");
        const box = el("select", { class: "box", name: `target-${seat}`, "aria-label": `Seat ${seat + 1}'s box`, hidden: !aiming },
          targets.map((id) => el("option", { value: id, selected: was === `target:${id}` }, boxName(id))));
        const who = el("select", { class: "who", name: `seat-${seat}`, onchange: () => { box.hidden = who.value !== "target"; } },
          el("option", { value: "", selected: was === "" }, "A person"),
          bots.map((bot) => el("option", { value: bot, selected: was === bot }, `Bot: ${bot} (${BOT_NOTES[bot]})`)),
          targets.length ? el("option", { value: "target", selected: aiming }, "Bot: fills one box as early as it can…") : null);
        return el("div", { class: "row" }, el("label", {}, `Seat ${seat + 1}`), who, box);
      }));
    };
    players.addEventListener("change", drawSeats);
    drawSeats();
    const seed = el("input", { name: "seed", inputmode: "numeric", placeholder: "random", size: 12 });
    const start = () => {
      const chosen = [...seatRows.querySelectorAll(".row")].map((row) => ({ bot: seatOf(row) || null }));
      const text = seed.value.trim();
      const value = text === "" ? randomSeed() : Number(text);
      if (!Number.isSafeInteger(value) || value < 0) {
        say("The seed must be a whole number (or empty, for a random one).", "error");
        return;
      }
      dialog.close();
      dialog.remove();
      operate(() => newGame(chosen, value, () => say(`New game, seed ${value}.`)));
    };
    dialog.append(
      el("h2", {}, `New game of ${S.ruleset.game.name}`),
      el("div", { class: "row" }, el("label", {}, "Players"), players),
      seatRows,
      el("div", { class: "row" }, el("label", {}, "Seed"), seed),
      el("div", { class: "buttons" },
        el("button", { onclick: () => { dialog.close(); dialog.remove(); } }, "Cancel"),
        el("button", { class: "primary", "data-action": "start", onclick: start }, "Start")));
    document.body.append(dialog);
    dialog.showModal();
  }

  // ---- Start ----------------------------------------------------------------------------------

  async function boot() {
    S.embeddedText = document.getElementById("ruleset").textContent;
    try {
      S.embedded = JSON.parse(S.embeddedText);
    } catch (error) {
      fatal(`This page's ruleset is not JSON: ${error.message}`);
      return;
    }
    try {
      await startEngine();
      S.pictures = await loadPictures();
    } catch (error) {
      fatal(`This browser could not start the game: ${error.message}. The page needs WebAssembly, Web Workers and DecompressionStream (Chromium 80, Firefox 113, Safari 16.4 or later).`);
      return;
    }
    try {
      await openRuleset(S.embeddedText);
    } catch (error) {
      fatal(`This page's ruleset cannot be played: ${error.message}${error.path ? ` (at ${error.path})` : ""}`);
      return;
    }
    const trouble = await restore();
    if (!S.state) {
      try {
        await newGame(firstSeats(), randomSeed());
      } catch (error) {
        fatal(`This page's game could not start: ${error.message}`);
        return;
      }
      if (trouble) say(trouble, "error");
    }
  }

  // A ruleset or a game log dropped anywhere on the page opens as Open ruleset would.
  document.addEventListener("dragover", (event) => {
    if (![...(event.dataTransfer?.types || [])].includes("Files")) return;
    event.preventDefault();
    document.body.classList.add("dropping");
  });
  document.addEventListener("dragleave", (event) => {
    if (event.relatedTarget === null) document.body.classList.remove("dropping");
  });
  document.addEventListener("drop", async (event) => {
    document.body.classList.remove("dropping");
    const file = event.dataTransfer?.files?.[0];
    if (!file) return;
    event.preventDefault();
    if (!S.ruleset) return;
    const text = await file.text();
    operate(() => openFile(text, file.name));
  });

  window.addEventListener("error", (event) => say(`Something went wrong: ${event.message}`, "error"));
  window.addEventListener("unhandledrejection", (event) => say(`Something went wrong: ${event.reason?.message || event.reason}`, "error"));
  inTurn(boot);
})();
