// The playtest page's script. It holds no rule of the game: the engine (WebAssembly, built
// from the same Rust as `safari sim`) says what may be done and does it; this script draws
// what the engine answers and sends it what a person clicks.
"use strict";

(() => {
  const { $, el, unpack, download } = SafariPage;
  const SVG = "http://www.w3.org/2000/svg";
  const svgEl = (tag, attributes = {}, text) => {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
    if (text !== undefined) node.textContent = text;
    return node;
  };

  const PACES = { slow: 1400, normal: 700, fast: 200, instant: 0 };
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
    studied: new Set(),
    eventsShown: 0,
    filledBefore: new Map(),
  };

  // ---- The engine -------------------------------------------------------------------------

  async function startEngine() {
    const bytes = await unpack("engine");
    const { instance } = await WebAssembly.instantiate(bytes, {});
    S.engine = instance.exports;
  }

  const call = (request) => SafariPage.call(S.engine, "safari_call", request);

  // A request about the game in progress: the engine leaves out the events and choices the
  // page holds already, and `show` puts the answer's after them.
  function callGame(request) {
    const known = S.state ? { events: S.state.events.length, actions: S.state.actions.length } : undefined;
    return call({ ...request, known });
  }

  // ---- The ruleset, and names for people ----------------------------------------------------

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

  function facePicture(die, action) {
    if (!picturesFit()) return null;
    const sets = S.ruleset.dice;
    const set = sets.findIndex((s) => s.role === "expedition");
    if (set < 0) return null;
    const faces = sets[set].dice[die] || [];
    const face = faces.indexOf(action);
    const index = face >= 0 ? (S.pictures.dice[set] || [])[die]?.[face] : undefined;
    return index === undefined ? null : S.pictures.faces[index];
  }

  const cardPicture = (id) => (picturesFit() ? S.pictures.cards.get(id) : null);

  // ---- Messages -----------------------------------------------------------------------------

  function say(text, kind = "note") {
    const box = $("#message");
    if (!box) return;
    box.textContent = text || "";
    box.className = kind === "error" ? "error" : "";
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

  function restore() {
    let kept;
    try {
      kept = JSON.parse(localStorage.getItem(storageKey()) || "null");
    } catch (_) {
      kept = null;
    }
    if (!kept || !Array.isArray(kept.seats)) return null;
    try {
      if (kept.ruleset) openRuleset(kept.ruleset);
      show(call({ op: "resume", seats: kept.seats, seed: kept.seed, actions: kept.actions || [] }));
      say("Your game in progress is back where you left it.");
      return null;
    } catch (error) {
      openRuleset(S.embeddedText);
      return `The saved game could not be picked up again (${error.message}); here is a new one.`;
    }
  }

  // The seats a new game of the open ruleset starts with: a person, and bots for the seats
  // the game needs besides.
  function firstSeats() {
    const fewest = Math.max(1, S.ruleset.parameters.players_min);
    return Array.from({ length: fewest }, (_, seat) => ({ bot: seat === 0 ? null : "expected" }));
  }

  function randomSeed() {
    const words = crypto.getRandomValues(new Uint32Array(2));
    return (words[0] % 0x200000) * 0x100000000 + words[1];
  }

  function openRuleset(text) {
    const opened = call({ op: "open", ruleset: text });
    S.rulesetText = text;
    S.ruleset = JSON.parse(text);
    S.opened = opened;
    S.names = namesOf(S.ruleset, opened);
    S.selected.clear();
    return opened;
  }

  function newGame(seats, seed, then = () => {}) {
    stopBots();
    S.replay = null;
    S.pinnedSeat = null;
    S.eventsShown = 0;
    S.filledBefore = new Map();
    show(call({ op: "start", seats, seed }));
    save();
    then();
  }

  // ---- Acting -------------------------------------------------------------------------------

  function act(action) {
    if (S.replay) {
      say("This is a replay: step through it with the arrows, or play on from here.");
      return;
    }
    try {
      const state = callGame({ op: "act", act: action });
      S.selected.clear();
      say("");
      show(state);
      save();
    } catch (error) {
      if (error.refused) say(`Not allowed: ${error.message}.`);
      else report(error);
    }
  }

  function report(error) {
    if (error.fatal) {
      say(error.message, "error");
      stopBots();
    } else {
      say(error.message, "error");
    }
  }

  function clickBox(id) {
    const deciding = S.state?.deciding;
    if (S.replay) return say(boxTooltip(id));
    if (!deciding || deciding.bot) return say(boxTooltip(id));
    if (S.viewSeat !== deciding.seat) return say(`${boxName(id)} is on ${seatName(S.viewSeat)}'s sheet; it is ${seatName(deciding.seat)}'s turn to decide.`);
    try {
      const answer = call({ op: "box", box: id });
      if (answer.act) act(answer.act);
      else say(`Not allowed: ${answer.reason}.`);
    } catch (error) {
      report(error);
    }
  }

  function clickDie(die) {
    const deciding = S.state?.deciding;
    if (!deciding || deciding.kind !== "reroll" || deciding.bot || S.replay) return;
    if (!deciding.rerollable.includes(die)) {
      try {
        const answer = call({ op: "die", die });
        say(`Not allowed: ${answer.reason}.`);
      } catch (error) {
        report(error);
      }
      return;
    }
    if (S.selected.has(die)) S.selected.delete(die);
    else S.selected.add(die);
    say("");
    render();
  }

  // ---- Bots ---------------------------------------------------------------------------------

  function stopBots() {
    clearTimeout(S.botTimer);
    S.botTimer = null;
  }

  function scheduleBot() {
    stopBots();
    const deciding = S.state?.deciding;
    if (!deciding || !deciding.bot || S.paused || S.replay) return;
    const move = () => {
      S.botTimer = null;
      document.body.style.cursor = "";
      try {
        show(callGame({ op: "bot" }));
        save();
      } catch (error) {
        report(error);
      }
    };
    S.botTimer = setTimeout(() => {
      // The search and planner bots fit a model of the ruleset before their first move (a
      // second or more, once per ruleset): the page says so before the wait rather than
      // freeze in silence.
      const studies = deciding.bot.startsWith("search") || deciding.bot === "planner";
      if (studies && !S.studied.has(S.rulesetText)) {
        S.studied.add(S.rulesetText);
        say(`The ${deciding.bot.split(":")[0]} bot is studying this ruleset before its first move: a few seconds…`);
        document.body.style.cursor = "wait";
        S.botTimer = setTimeout(() => {
          move();
          // Studied: the note is done with (a refusal or an error said since stays).
          if ($("#message")?.textContent.includes("studying")) say("");
        }, 40);
      } else {
        move();
      }
    }, PACES[S.pace]);
  }

  // ---- Replays of logs ----------------------------------------------------------------------

  function loadLog(text) {
    stopBots();
    let log;
    try {
      call({ op: "log", log: text, upto: 0 });
      log = JSON.parse(text);
    } catch (error) {
      say(`This file is not a game log this page can replay: ${error.message}.`, "error");
      return;
    }
    const rulesetText = JSON.stringify(log.ruleset);
    openRuleset(rulesetText);
    S.replay = { seats: log.seats, seed: log.seed, actions: log.actions, at: 0 };
    S.eventsShown = 0;
    S.filledBefore = new Map();
    stepReplay(0);
    say(`Replaying a game of ${log.actions.length} choices: step through it with the arrows.`);
  }

  function stepReplay(at) {
    const replay = S.replay;
    replay.at = Math.max(0, Math.min(at, replay.actions.length));
    try {
      show(call({ op: "resume", seats: replay.seats, seed: replay.seed, actions: replay.actions, upto: replay.at }));
    } catch (error) {
      report(error);
    }
  }

  function playOn() {
    const replay = S.replay;
    S.replay = null;
    // The game goes on from this step: the seats' bots play on, the people's seats are yours.
    show(call({ op: "resume", seats: replay.seats, seed: replay.seed, actions: replay.actions, upto: replay.at }));
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
            if (file) onText(await file.text(), file.name);
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
          onclick: () => {
            try {
              stopBots();
              show(callGame({ op: "undo" }));
              save();
              say("Undone.");
            } catch (error) {
              report(error);
            }
          },
        }, "Undo"),
        pace,
        el("button", { "data-action": "pause", onclick: () => { S.paused = !S.paused; render(); scheduleBot(); } },
          S.paused ? "Resume bots" : "Pause bots"),
        el("button", { "data-action": "save", onclick: downloadLog }, "Download log"),
        fileButton("Load log", "load-log", (text) => loadLog(text)),
        fileButton("Open ruleset", "open-ruleset", (text, name) => openOther(text, name)),
      ));
  }

  function openOther(text, name) {
    try {
      openRuleset(text);
    } catch (error) {
      // The engine refused it before changing anything: the game in progress goes on.
      const where = error.path && error.path !== "." ? ` (at ${error.path})` : "";
      say(`${name} is not a ruleset this page can play: ${error.message}${where}.`, "error");
      return;
    }
    newGame(firstSeats(), randomSeed(), () => say(picturesFit()
      ? `Opened ${name}.`
      : `Opened ${name}: its sheet and cards are drawn from the ruleset (the pictures in this page are of another version).`));
  }

  function downloadLog() {
    try {
      const log = call({ op: "save" });
      download(`${S.ruleset.game.id}-game-${log.seed}.json`, JSON.stringify(log, null, 1));
    } catch (error) {
      report(error);
    }
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
          style: `--pen: var(--seat-${seat % 4})`,
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
    return el("div", { class: "sheet-box", style: `--pen: var(--seat-${S.viewSeat % 4})` }, tabs,
      S.side === 1 ? parkRules() : sheet(player));
  }

  function parkRules() {
    if (picturesFit() && S.pictures.sheet[1]) {
      const [width, height] = S.pictures.sheetMm;
      return el("div", { class: S.zoomed ? "sheet" : "sheet fit", style: `--aspect: ${width / height}` },
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
        title: boxTooltip(id),
        "aria-label": `${boxName(id)}${filled.has(id) ? ", filled" : ""}`,
        style,
        onclick: () => clickBox(id),
      });
    // Places that do not cover every box, or a page of no size, are no drawing to trust.
    const placed = new Set((places?.boxes || []).map((p) => p.id));
    const whole = places && places.width_mm > 0 && places.height_mm > 0 && [...S.names.boxes.keys()].every((id) => placed.has(id));
    if (!whole) return boxList(mark);
    const percent = (value, whole) => `${(100 * value / whole).toFixed(3)}%`;
    const marks = el("div", { class: "marks" },
      places.boxes.map((place) =>
        mark(place.id, `left:${percent(place.x, places.width_mm)};top:${percent(place.y, places.height_mm)};width:${percent(place.width, places.width_mm)};height:${percent(place.height, places.height_mm)}`)));
    const picture = picturesFit() && S.pictures.sheet[0]
      ? el("img", { class: "page", src: S.pictures.sheet[0], alt: `${S.ruleset.field_guide.title}` })
      : schematic(places);
    return el("div", {
      class: S.zoomed ? "sheet" : "sheet fit",
      style: `aspect-ratio: ${places.width_mm} / ${places.height_mm}; --aspect: ${places.width_mm / places.height_mm}`,
    }, picture, marks);
  }

  // A sheet with no picture of its own: sections and boxes where the ruleset places them.
  function schematic(places) {
    const svg = svgEl("svg", { class: "page schematic", viewBox: `0 0 ${places.width_mm} ${places.height_mm}`, role: "img" });
    svg.append(svgEl("rect", { x: 0, y: 0, width: places.width_mm, height: places.height_mm, fill: "#fff" }));
    const titles = new Map(S.ruleset.field_guide.sections.map((s) => [s.id, s.title]));
    for (const place of places.sections) {
      svg.append(svgEl("rect", { class: "section", x: place.x, y: place.y, width: place.width, height: place.height, rx: 1.5 }));
      svg.append(svgEl("text", { class: "section-title", x: place.x + 2, y: place.y + 4 }, titles.get(place.id) || place.id));
    }
    for (const place of places.boxes) {
      const info = S.names.boxes.get(place.id);
      const box = info?.box;
      const round = box && box.shape !== "square" ? Math.min(place.width, place.height) / 2 : 0.6;
      svg.append(svgEl("rect", { class: `box ${box?.style || ""}`, x: place.x, y: place.y, width: place.width, height: place.height, rx: round }));
      if (box?.vp) svg.append(svgEl("text", { class: "vp", x: place.x + place.width - 1.5, y: place.y + 2 }, box.vp));
      const label = box?.label || (info?.track.loose && box.fill.kind === "collect" ? box.fill.species.map(speciesName).join(" / ") : "");
      if (label) svg.append(svgEl("text", { class: "label", x: place.x + place.width + 1, y: place.y + place.height / 2 + 0.8 }, label));
      // A titled track's name over its first box.
      if (info && info.position === 0 && info.track.title && info.track.boxes.length > 1) {
        svg.append(svgEl("text", { class: "label", x: place.x, y: place.y - 1.2 }, info.track.title));
      }
    }
    return svg;
  }

  // A ruleset with no places at all: every track as a row of boxes.
  function boxList(mark) {
    return el("div", { class: "panel" },
      S.ruleset.field_guide.sections.map((section) =>
        el("div", {}, el("h2", {}, section.title),
          section.tracks.map((track) =>
            el("div", { style: "display:flex;flex-wrap:wrap;gap:4px;align-items:center;margin:4px 0" },
              el("span", { style: "min-width:9em;font-size:0.85em" }, S.names.tracks.get(track.id)),
              track.boxes.map((box) => {
                const node = mark(box.id, "position:relative;display:inline-block;width:22px;height:22px;border:1px solid #333");
                return node;
              }))))));
  }

  function turnPanels() {
    const state = S.state;
    const panels = [];
    if (S.replay) panels.push(replayPanel());
    if (state.over) panels.push(overPanel());
    else if (state.deciding) panels.push(decisionPanel(state.deciding));
    panels.push(tablePanel());
    panels.push(logPanel());
    return panels;
  }

  function replayPanel() {
    const replay = S.replay;
    const step = (to) => () => stepReplay(to);
    return el("div", { class: "panel" }, el("h2", {}, "Replay"),
      el("div", { class: "replay-bar" },
        el("button", { "data-action": "replay-start", onclick: step(0), disabled: replay.at === 0, "aria-label": "To the start" }, "⏮"),
        el("button", { "data-action": "replay-back", onclick: step(replay.at - 1), disabled: replay.at === 0, "aria-label": "One choice back" }, "◀"),
        el("span", { class: "where", "data-at": replay.at }, `choice ${replay.at} of ${replay.actions.length}`),
        el("button", { "data-action": "replay-forward", onclick: step(replay.at + 1), disabled: replay.at >= replay.actions.length, "aria-label": "One choice forward" }, "▶"),
        el("button", { "data-action": "replay-end", onclick: step(replay.actions.length), disabled: replay.at >= replay.actions.length, "aria-label": "To the end" }, "⏭"),
        el("button", { "data-action": "play-on", onclick: playOn }, "Play on from here")),
      replay.at < replay.actions.length
        ? el("div", { class: "dice-note" }, `Next: ${seatName(replay.actions[replay.at].seat)} ${actText(replay.actions[replay.at].act)}`)
        : null);
  }

  function actText(action) {
    if (action === "stop") return "stops";
    if (action === "throw") return "throws a Safari Ball";
    if (action.reroll) return `re-rolls dice ${action.reroll.map((d) => d + 1).join(", ")}`;
    if (action.track) return `fills the next box of ${S.names.tracks.get(action.track) || action.track}`;
    if (action.box) return `fills ${boxName(action.box)}`;
    if (action.use) return `uses the ${itemName(action.use)}`;
    if (action.card !== undefined) return `encounters card ${action.card + 1}`;
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
      el("div", { class: "actions" }, el("button", { class: "primary", onclick: openNewGame }, "New game")));
  }

  function decisionPanel(deciding) {
    const who = seatName(deciding.seat);
    const panel = el("div", { class: "panel", "data-deciding": deciding.kind, "data-seat": deciding.seat, style: `--pen: var(--seat-${deciding.seat % 4})` });
    panel.append(el("h2", {}, `Turn ${S.state.players[deciding.seat].turns_taken} · ${who}`));
    const waiting = deciding.bot && !S.replay;
    panel.append(el("div", { class: "prompt" }, el("span", { class: "who" }, waiting ? `${who} is deciding: ` : ""), capitalise(deciding.asks), "."));
    panel.append(diceRow(deciding));
    if (deciding.kind === "card" || deciding.kind === "throw") panel.append(cardsRow(deciding));
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
      figure.append(el("button", { "data-act": "card", "data-index": index, class: allowed ? "primary" : "", onclick: () => act({ card: index }) }, allowed ? "Encounter" : "Can't encounter"));
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

  // The last throw of this seat's turn, if any.
  function lastThrow(seat) {
    const events = S.state.events;
    for (let i = events.length - 1; i >= 0; i--) {
      const event = events[i];
      if (event.player !== seat) continue;
      if (event.event === "turn") return null;
      if (event.event === "throw") {
        return el("div", { class: `throw-result ${event.caught ? "caught" : "missed"}` },
          `Last throw: ${event.total} against ${event.needed} — ${event.caught ? "caught!" : "missed."}`);
      }
    }
    return null;
  }

  function actionsRow(deciding) {
    const row = el("div", { class: "actions" });
    switch (deciding.kind) {
      case "reroll": {
        const dice = [...S.selected].sort((a, b) => a - b);
        row.append(
          el("button", { class: "primary", "data-act": "reroll", disabled: dice.length === 0, onclick: () => act({ reroll: dice }) },
            dice.length ? `Re-roll ${dice.length} ${dice.length === 1 ? "die" : "dice"}` : "Re-roll (pick dice)"),
          el("button", { "data-act": "stop", onclick: () => act("stop") }, "Keep these"));
        break;
      }
      case "track":
      case "bonus":
        deciding.acts.forEach((action, index) => {
          const box = deciding.boxes[index];
          const label = action.track ? `${S.names.tracks.get(action.track) || action.track}: ${boxName(box)}` : boxName(action.box);
          row.append(el("button", { "data-act": action.track ? "track" : "box", "data-box": undefined, "data-target": box, onclick: () => act(action) }, label));
        });
        row.append(el("div", { class: "dice-note" }, "Or click a lit box on the sheet."));
        break;
      case "use":
        deciding.acts.forEach((action) => {
          if (action === "stop") return;
          row.append(el("button", { "data-act": "use", "data-item": action.use, onclick: () => act(action) }, `Use the ${itemName(action.use)}`));
        });
        row.append(el("button", { "data-act": "stop", onclick: () => act("stop") }, "Use nothing"));
        break;
      case "card":
        row.append(el("button", { "data-act": "stop", onclick: () => act("stop") }, "Let them go"));
        break;
      case "throw":
        row.append(
          el("button", { class: "primary", "data-act": "throw", onclick: () => act("throw") }, `Throw a Safari Ball (${Math.round(deciding.catch_chance * 100)}%)`),
          el("button", { "data-act": "stop", onclick: () => act("stop") }, "Let it go"));
        break;
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
      case "roll": return `rolled ${event.faces.map((f) => FACE_NAMES[f]).join(", ")}`;
      case "bust": return `${S.ruleset.parameters.hazard_limit} Hazards: the turn ends`;
      case "fill": return `filled ${boxName(event.box)}${event.vp ? ` (+${event.vp} VP)` : ""}`;
      case "draw": return `drew ${event.cards.map(cardSpecies).join(", ")}`;
      case "encounter": return `encountered ${cardSpecies(event.card)}`;
      case "throw": return `threw a Safari Ball: ${event.total} against ${event.needed}, ${event.caught ? "caught!" : "missed"}`;
      case "collect": return `collected ${speciesName(event.species)}`;
      case "use": return `used the ${itemName(event.item)}`;
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
    const bots = ["random", "greedy", "expected", "planner", "search"];
    // The `target` policy plays toward a box of the designer's choice ("how soon can Area 3
    // open?"), offered box by box on a sheet of a size a list can hold.
    const boxes = [...S.names.boxes.keys()];
    const targets = boxes.length <= 400 ? boxes : [];
    const dialog = el("dialog", { "aria-label": "New game" });
    const players = el("select", { name: "players" },
      Array.from({ length: most - fewest + 1 }, (_, i) => fewest + i).map((n) =>
        el("option", { value: n, selected: n === (S.state?.players.length || fewest) }, n)));
    const seatRows = el("div");
    const drawSeats = () => {
      const count = Number(players.value);
      const previous = [...seatRows.querySelectorAll("select")].map((s) => s.value);
      seatRows.replaceChildren(...Array.from({ length: count }, (_, seat) =>
        el("div", { class: "row" }, el("label", {}, `Seat ${seat + 1}`),
          el("select", { name: `seat-${seat}` },
            el("option", { value: "", selected: (previous[seat] ?? (seat === 0 ? "" : "expected")) === "" }, "A person"),
            bots.map((bot) => el("option", { value: bot, selected: (previous[seat] ?? (seat === 0 ? "" : "expected")) === bot }, `Bot: ${bot}`)),
            targets.length ? el("optgroup", { label: "Bot playing to fill one box as early as it can" },
              targets.map((id) => el("option", { value: `target:${id}`, selected: previous[seat] === `target:${id}` }, `Bot: target ${boxName(id)}`))) : null))));
    };
    players.addEventListener("change", drawSeats);
    drawSeats();
    const seed = el("input", { name: "seed", inputmode: "numeric", placeholder: "random", size: 12 });
    const start = () => {
      const chosen = [...seatRows.querySelectorAll("select")].map((s) => ({ bot: s.value || null }));
      const text = seed.value.trim();
      const value = text === "" ? randomSeed() : Number(text);
      if (!Number.isSafeInteger(value) || value < 0) {
        say("The seed must be a whole number (or empty, for a random one).", "error");
        return;
      }
      dialog.close();
      dialog.remove();
      try {
        newGame(chosen, value, () => say(`New game, seed ${value}.`));
      } catch (error) {
        report(error);
      }
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
      fatal(`This browser could not start the game: ${error.message}. The page needs WebAssembly and DecompressionStream (Chromium 80, Firefox 113, Safari 16.4 or later).`);
      return;
    }
    try {
      openRuleset(S.embeddedText);
    } catch (error) {
      fatal(`This page's ruleset cannot be played: ${error.message}${error.path ? ` (at ${error.path})` : ""}`);
      return;
    }
    const trouble = restore();
    if (!S.state) {
      try {
        newGame(firstSeats(), randomSeed());
      } catch (error) {
        fatal(`This page's game could not start: ${error.message}`);
        return;
      }
      if (trouble) say(trouble, "error");
    }
  }

  window.addEventListener("error", (event) => say(`Something went wrong: ${event.message}`, "error"));
  window.addEventListener("unhandledrejection", (event) => say(`Something went wrong: ${event.reason?.message || event.reason}`, "error"));
  boot();
})();
