// Drives the playtest page of a game made of components, for tests/family_page.rs.
//
//   node family.mjs engine PAGE REQUESTS OUT
//       The engine the page holds, run by Node through its family entry point: answers each
//       request line of REQUESTS (JSON) with a line of OUT.
//   node family.mjs play PAGE DIR BROKEN SEATS [VARIANTS]
//       The page in Debian's Chromium, played by Playwright as people would: a new game of
//       SEATS (`person,person,greedy`) in hot seat with the VARIANTS the ruleset offers
//       (`photo-surprise`, comma-separated), every turn clicked until the game ends, an
//       undo, the log downloaded and loaded back, and BROKEN (a ruleset that must be refused)
//       opened.
//       DIR receives the screenshots, the downloaded log and `result.json`.
//   node family.mjs explain PAGE DIR
//       The page in Chromium at 1280x720, a new game of two people (seed 42): what the table
//       refuses and what it says of it on hover (titles) and on a click (the message line),
//       the rules shown, the board's labels against its cells (Tricky Safari), the log after
//       a few rounds (Tricky Safari), and the New game dialog's variants ticked one after
//       another (DiceAFARI's maps). DIR receives screenshots and `result.json`.
//   node family.mjs hostile PAGE DIR KIND FILE
//       Gamewright's Safari's page in Chromium, a game in progress, then FILE, of a KIND an
//       attacker might send (HOSTILE): `bot-log`, a saved game seating a bot the page does not
//       offer, loaded; `bot-stored`, the same saved game put in the browser's storage as the
//       game in progress, and the page reloaded; `broken-log`, a saved game that does not
//       replay, loaded; `coloured`, a ruleset whose symbol colours are CSS of the attacker's,
//       opened. DIR receives a screenshot and `result.json`.
//
// Every console message and uncaught error of the page is a failure of the scenario.

import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { engineOf, requestLines } from "./engine.mjs";

const [, , command, ...args] = process.argv;

async function engine(page, requests, out) {
  const call = await engineOf(page, "safari_family_call");
  writeFileSync(out, requestLines(requests).map((line) => call(line)).join("\n") + "\n");
}

// A seeded choice among the page's clickable things, so a run clicks the same game.
let state = 12345;
const pick = (n) => {
  state = (state * 1103515245 + 12345) % 2147483648;
  return state % n;
};

// Waits for the page to have done with what was clicked (the engine answers from a worker).
async function settled(page) {
  await page.waitForSelector('#app:not([aria-busy="true"])');
}

// One decision of DiceAFARI by clicks: a photo, a Bonus tile, tiles picked and claimed, or
// dice marked and re-rolled. The page redraws on every click, so each element is found anew.
async function diceafariStep(page) {
  const photos = await page.$$(".safari-map .photo.playable");
  if (photos.length) return photos[pick(photos.length)].click();
  if (await page.$("[data-action=no_photo]")) return page.click("[data-action=no_photo]");
  const claim = await page.$("[data-action=claim]");
  const reroll = await page.$("[data-action=reroll]");
  if (!claim && !reroll) {
    const bonus = await page.$$(".safari-map .tile.playable");
    if (!bonus.length) throw new Error(`nothing to click:\n${await page.textContent("#app")}`);
    return bonus[pick(bonus.length)].click();
  }
  if (claim && (!reroll || pick(3) !== 0)) {
    for (let k = 1 + pick(3); k > 0; k--) {
      const tiles = await page.$$(".safari-map .tile.playable:not(.selected)");
      if (!tiles.length) break;
      await tiles[pick(tiles.length)].click();
    }
    if (!(await page.$("[data-action=claim]:not([aria-disabled=true])"))) {
      // Not one route: start again from one tile, which any die showing it claims.
      for (let selected; (selected = await page.$(".safari-map .tile.selected")); ) await selected.click();
      const tiles = await page.$$(".safari-map .tile.playable");
      await tiles[pick(tiles.length)].click();
    }
    return page.click("[data-action=claim]");
  }
  const dice = await page.$$(".dice .die.playable");
  await dice[pick(dice.length)].click();
  return page.click("[data-action=reroll]");
}

async function play(pageFile, dir, broken, seatList, variantList = "") {
  const seats = seatList.split(",");
  const variants = variantList.split(",").filter((v) => v !== "");
  mkdirSync(dir, { recursive: true });
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run", "--host-resolver-rules=MAP * ~NOTFOUND"],
  });
  const problems = [];
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 1000 } });
  const page = await context.newPage();
  page.on("console", (message) => problems.push(`console ${message.type()}: ${message.text()}`));
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
  page.on("requestfailed", (request) => {
    if (!request.url().startsWith("blob:") && !request.url().startsWith("data:")) problems.push(`request: ${request.url()}`);
  });
  await page.goto(`file://${pageFile}`);
  await page.waitForSelector("#table .jungle, #table .board, #table .safari-map");
  await page.screenshot({ path: join(dir, "opened.png") });

  // A new game of the seats asked for, seed 42, bots at once.
  await page.selectOption("#pace", "instant");
  await page.click("[data-action=new]");
  await page.selectOption("select[name=players]", String(seats.length));
  for (const [seat, who] of seats.entries()) await page.selectOption(`select[name=seat-${seat}]`, who);
  for (const variant of variants) await page.check(`input[name="variant-${variant}"]`);
  await page.fill("input[name=seed]", "42");
  await page.click("[data-action=start]");

  const result = { clicks: 0, passes: 0, hidden_while_passing: true, undo: null, undo_states: [], seats_shown: [], hint: null };
  // A hint asked for once, after a few clicks: what the page says, and how many things it lit.
  const askHint = async () => {
    if (result.hint !== null || result.clicks < 3) return;
    await settled(page);
    await page.click("[data-action=hint]");
    await page.waitForFunction(() => document.querySelector("#message")?.textContent.includes("bot would"));
    result.hint = { message: await page.textContent("#message"), lit: (await page.$$('[data-hinted="true"]')).length };
    await page.screenshot({ path: join(dir, "hint.png") });
  };
  // Undo clicked if it may be (the log's length before and after), else what it says.
  const tryUndo = async () => {
    await settled(page);
    const before = await page.$$eval("#log li", (items) => items.length);
    const button = await page.$eval("[data-action=undo]", (b) => ({ disabled: b.getAttribute("aria-disabled") === "true", title: b.title }));
    if (!button.disabled) {
      await page.click("[data-action=undo]");
      await settled(page);
    }
    const after = await page.$$eval("#log li", (items) => items.length);
    result.undo = { before, after, ...button };
  };
  // Whether Undo may be clicked after the first clicks, and what it says when it may not.
  const noteUndo = async () => {
    await settled(page);
    result.undo_states.push(await page.$eval("[data-action=undo]", (b) => ({ disabled: b.getAttribute("aria-disabled") === "true", title: b.title })));
  };
  for (let step = 0; step < 600; step++) {
    await page.waitForFunction(() => {
      const status = document.querySelector("#status")?.textContent || "";
      return !status.includes("thinking") && document.querySelector("#app")?.getAttribute("aria-busy") !== "true";
    });
    if (await page.$("[data-over]")) break;
    if (await page.$("[data-action=reveal]")) {
      result.passes += 1;
      // While the device is passed no card of any hand is on the screen.
      if (await page.$(".hand .card, .jungle, .safari-map")) result.hidden_while_passing = false;
      if (result.passes === 1) await page.screenshot({ path: join(dir, "pass.png") });
      result.seats_shown.push(await page.getAttribute("[data-pass]", "data-pass"));
      await page.click("[data-action=reveal]");
      continue;
    }
    if (await page.$(".diceafari")) {
      await askHint();
      await diceafariStep(page);
      result.clicks += 1;
      if (result.clicks === 1) await page.screenshot({ path: join(dir, "taken.png") });
      if (result.clicks === 8 && result.undo === null) await tryUndo();
      continue;
    }
    await askHint();
    const playable = await page.$$(".card.playable, .cell.playable");
    if (playable.length === 0) {
      const only = await page.$("[data-action=charlie], [data-action=pass]");
      if (!only) throw new Error(`step ${step}: nothing to click:\n${await page.textContent("#app")}`);
      await only.click();
      result.clicks += 1;
      continue;
    }
    await playable[pick(playable.length)].click();
    result.clicks += 1;
    if (result.clicks <= 2) await noteUndo();
    if (result.clicks === 1) await page.screenshot({ path: join(dir, "taken.png") });
    if (result.clicks === 6 && result.undo === null) await tryUndo();
    // A selected card for a trade: click a Charlie it may go to.
    const target = await page.$$(".jungle .card.charlie.playable");
    if (target.length > 0 && (await page.$(".hand .card.selected"))) {
      await target[pick(target.length)].click();
      result.clicks += 1;
    }
  }
  await page.screenshot({ path: join(dir, "over.png"), fullPage: true });
  result.status = await page.textContent("#status");
  result.over = await page.getAttribute("[data-over]", "data-over");
  result.log = await page.$$eval("#log li", (items) => items.map((i) => i.textContent));

  const [download] = await Promise.all([page.waitForEvent("download"), page.click("[data-action=save]")]);
  const saved = join(dir, "game.json");
  await download.saveAs(saved);
  result.saved = saved;

  // The log loaded back is the same game.
  const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.click("[data-action=load]")]);
  await chooser.setFiles(saved);
  await page.waitForFunction((n) => document.querySelectorAll("#log li").length === n, result.log.length);
  result.reloaded_log = await page.$$eval("#log li", (items) => items.map((i) => i.textContent));

  // A broken ruleset is refused with what is wrong, and the game stays.
  const [chooser2] = await Promise.all([page.waitForEvent("filechooser"), page.click("[data-action=open]")]);
  await chooser2.setFiles(broken);
  await page.waitForFunction(() => document.querySelector("#message.error"));
  result.broken_message = await page.textContent("#message");
  result.log_after_broken = await page.$$eval("#log li", (items) => items.length);
  await page.screenshot({ path: join(dir, "broken.png") });

  // A reload keeps the game.
  await page.reload();
  await page.waitForSelector("#table .jungle, #table .board, #table .safari-map");
  result.log_after_reload = await page.$$eval("#log li", (items) => items.length);

  await browser.close();
  writeFileSync(join(dir, "result.json"), JSON.stringify({ problems, result }, null, 1));
}

// What the table refuses now: how many things, how many say why on hover, and each's words.
async function refusals(page) {
  await settled(page);
  return page.$$eval("#table [aria-disabled=true]", (nodes) => ({
    count: nodes.length,
    said: nodes.filter((n) => n.title.trim() !== "").length,
    disabled: nodes.filter((n) => n.disabled).length,
    titles: [...new Set(nodes.map((n) => n.title))].slice(0, 12),
  }));
}

// Clicks (as a tap would) the first refused thing `selector` finds: its title and what the
// message line then says.
async function clickRefused(page, selector) {
  await settled(page);
  const node = await page.$(`${selector}[aria-disabled=true]`);
  if (!node) return null;
  const title = await node.getAttribute("title");
  await page.evaluate(() => { document.querySelector("#message").textContent = ""; });
  // A click as a mouse or a finger makes it (Playwright itself would wait for an element
  // marked aria-disabled to be enabled).
  await node.click({ timeout: 5000, force: true });
  await page.waitForFunction(() => document.querySelector("#message").textContent !== "", null, { timeout: 5000 });
  return { title, message: await page.textContent("#message"), kind: await page.getAttribute("#message", "class") };
}

async function explain(pageFile, dir) {
  mkdirSync(dir, { recursive: true });
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run", "--host-resolver-rules=MAP * ~NOTFOUND"],
  });
  const problems = [];
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  page.on("console", (message) => problems.push(`console ${message.type()}: ${message.text()}`));
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
  const result = {};
  try {
    await page.goto(`file://${pageFile}`);
    await page.waitForSelector("#table .jungle, #table .board, #table .safari-map");
    const game = (await page.$(".board")) ? "tricky" : (await page.$(".jungle")) ? "gamewright" : "diceafari";
    result.game = game;
    // The New game dialog: each variant ticked in turn, and which stay ticked.
    await page.click("[data-action=new]");
    const offered = await page.$$eval("dialog input[type=checkbox]", (boxes) => boxes.map((b) => b.value));
    result.variants_offered = offered;
    const maps = offered.filter((v) => v.startsWith("map:"));
    if (maps.length >= 2) {
      await page.check(`input[name="variant-${maps[0]}"]`);
      await page.check(`input[name="variant-${maps[1]}"]`);
      await page.check(`input[name="variant-photo-surprise"]`);
      result.ticked = await page.$$eval("dialog input[type=checkbox]:checked", (boxes) => boxes.map((b) => b.value));
      await page.screenshot({ path: join(dir, "variants.png") });
      for (const box of await page.$$("dialog input[type=checkbox]:checked")) await box.uncheck();
    }
    await page.selectOption("select[name=players]", "2");
    await page.selectOption("select[name=seat-0]", "person");
    await page.selectOption("select[name=seat-1]", "person");
    await page.fill("input[name=seed]", "42");
    await page.click("[data-action=start]");
    await settled(page);
    result.rules = await page.$$eval("#rules > ul li", (items) => items.map((i) => i.textContent));
    result.rulings = await page.$$eval("#rules dt", (items) => items.length);
    result.rules_visible = await page.$eval("#rules", (r) => r.getBoundingClientRect().height > 40 && r.checkVisibility());
    result.start = await refusals(page);
    await page.screenshot({ path: join(dir, "start.png") });
    if (game === "tricky") {
      // The board as drawn: each cell's terrain, row by row.
      result.terrain = await page.$$eval(".board .cell", (cells) => cells.map((c) => ["open", "forest", "lake"].find((t) => c.classList.contains(t)) || "?"));
      result.forest = await clickRefused(page, ".cell.forest");
      result.animal = await clickRefused(page, ".cell:has(.animal)");
      // The board's letters and numbers against its cells, as the log names them.
      result.labels = await page.evaluate(() => {
        const centre = (node) => { const b = node.getBoundingClientRect(); return { x: b.left + b.width / 2, y: b.top + b.height / 2 }; };
        const columns = [...document.querySelectorAll(".board .coord[data-column]")].map((label) => {
          const cell = document.querySelector(`.cell[data-cell="${label.dataset.column}1"]`);
          return { label: label.textContent, off: cell ? Math.abs(centre(label).x - centre(cell).x) : null, above: cell ? centre(label).y < centre(cell).y : null };
        });
        const rows = [...document.querySelectorAll(".board .coord[data-row]")].map((label) => {
          const cell = document.querySelector(`.cell[data-cell="a${label.dataset.row}"]`);
          return { label: label.textContent, off: cell ? Math.abs(centre(label).y - centre(cell).y) : null, left: cell ? centre(label).x < centre(cell).x : null };
        });
        return { columns, rows };
      });
      // Rounds played by clicks until a photograph is in the log.
      for (let move = 0; move < 40; move++) {
        await settled(page);
        if (await page.$("[data-over]")) break;
        const log = await page.$$eval("#log li", (items) => items.map((i) => i.textContent).join("\n"));
        if (move >= 4 && log.includes("photographs") && log.includes("animals step")) break;
        const cells = await page.$$(".cell.playable");
        if (cells.length) await cells[pick(cells.length)].click();
        else await page.click("[data-action=pass]");
      }
      await settled(page);
      result.after = await refusals(page);
      result.stay = await clickRefused(page, "[data-action=pass]");
    } else if (game === "gamewright") {
      result.hand = await clickRefused(page, ".hand .card");
      await page.click(".jungle .card.playable");
      await settled(page);
      result.after = await refusals(page);
      result.jungle = await clickRefused(page, ".jungle .card");
      result.hand_holding = await clickRefused(page, ".hand .card");
    } else {
      result.tile = await clickRefused(page, ".safari-map .tile");
      result.claim_button = await clickRefused(page, "[data-action=claim], [data-action=reroll]");
      result.after = await refusals(page);
    }
    await page.screenshot({ path: join(dir, "played.png") });
    result.log = await page.$$eval("#log li", (items) => items.map((i) => i.textContent));
  } catch (error) {
    result.error = error.message.split("\n")[0];
  } finally {
    await page.screenshot({ path: join(dir, "last.png") }).catch(() => {});
    await browser.close();
  }
  writeFileSync(join(dir, "result.json"), JSON.stringify({ problems, result }, null, 1));
}

// The game as a person sees it: the title, the log, the table.
async function seen(page) {
  return {
    title: await page.textContent("#title"),
    log: await page.$$eval("#log li", (items) => items.map((i) => i.textContent)),
    table: await page.$eval("#table", (table) => table.innerHTML),
  };
}

// Loads `file` with Load log, and waits for the page to say something of it.
async function loadLog(page, file) {
  const name = file.split("/").pop();
  const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.click("[data-action=load]")]);
  await chooser.setFiles(file);
  await page.waitForFunction((n) => document.querySelector("#message")?.textContent.includes(n), name, { timeout: 60000 });
  return page.textContent("#message");
}

// How many ms a click on Pause takes to be answered (the button offering to resume).
async function pauseAnswer(page) {
  const started = Date.now();
  await page.click("#pause", { timeout: 60000 });
  await page.waitForFunction(() => document.querySelector("#pause").textContent === "Resume bots", null, { timeout: 60000 });
  const answered = Date.now() - started;
  await page.click("#pause");
  return answered;
}

// Where each card is drawn: whether any lies outside the table, or is fixed to the window
// rather than placed in it, and what is drawn at the middle of the header's New game button.
async function cardPlaces(page) {
  return page.evaluate(() => {
    const table = document.querySelector("#table").getBoundingClientRect();
    const cards = [...document.querySelectorAll(".card")];
    const outside = cards.filter((card) => {
      const box = card.getBoundingClientRect();
      return box.left < table.left - 1 || box.right > table.right + 1 || box.top < table.top - 1 || box.bottom > table.bottom + 1;
    });
    const button = document.querySelector("[data-action=new]").getBoundingClientRect();
    const atButton = document.elementFromPoint(button.left + button.width / 2, button.top + button.height / 2);
    return {
      cards: cards.length,
      outside: outside.length,
      positions: [...new Set(cards.map((card) => getComputedStyle(card).position))],
      header_clickable: atButton?.closest("[data-action=new]") !== null,
      colours: [...new Set(cards.filter((c) => c.classList.contains("up")).map((card) => getComputedStyle(card).borderTopColor))],
    };
  });
}

// What each hostile file is, and what the page is seen to do with it.
const HOSTILE = {
  // A saved game seating a bot the page does not offer: loaded, then Pause clicked a while
  // after, when that bot would be thinking had the log been taken.
  async "bot-log"(page, file, result, before) {
    result.message = await loadLog(page, file);
    await page.waitForTimeout(1500);
    result.pause_ms = await pauseAnswer(page);
    result.unchanged = JSON.stringify(await seen(page)) === JSON.stringify(before);
  },
  // The same saved game kept in the browser's storage as the game in progress (as the page
  // kept it, before the bot's move): the page reloaded, then Pause clicked a while after.
  async "bot-stored"(page, file, result) {
    const saved = JSON.parse(readFileSync(file, "utf8"));
    result.stored = await page.evaluate((saved) => {
      const key = Object.keys(localStorage).find((k) => k.startsWith("safari-family/"));
      localStorage.setItem(key, JSON.stringify({ ruleset: null, variants: saved.variants || [], seats: saved.seats, seed: saved.seed, log: saved.actions }));
      return key;
    }, saved);
    await page.reload();
    await page.waitForFunction(() => /game/i.test(document.querySelector("#message")?.textContent || ""), null, { timeout: 60000 });
    result.message = await page.textContent("#message");
    await page.waitForTimeout(1500);
    result.pause_ms = await pauseAnswer(page);
    result.status = await page.textContent("#status");
  },
  // A saved game that does not replay: loaded, then the game played on by a click.
  async "broken-log"(page, file, result, before) {
    result.message = await loadLog(page, file);
    result.unchanged = JSON.stringify(await seen(page)) === JSON.stringify(before);
    await page.click(".jungle .card.playable", { timeout: 5000 });
    await page.waitForFunction((n) => document.querySelectorAll("#log li").length > n, before.log.length, { timeout: 5000 });
    result.played_on = true;
    result.message_after = await page.textContent("#message");
  },
  // A ruleset whose symbol colours are CSS of an attacker's: opened, and where its cards are
  // drawn measured.
  async coloured(page, file, result) {
    const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.click("[data-action=open]")]);
    await chooser.setFiles(file);
    await page.waitForFunction(() => document.querySelector("#message")?.textContent.includes("Playing"));
    result.message = await page.textContent("#message");
    Object.assign(result, await cardPlaces(page));
  },
};

async function hostile(pageFile, dir, kind, file) {
  mkdirSync(dir, { recursive: true });
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run", "--host-resolver-rules=MAP * ~NOTFOUND"],
  });
  const problems = [];
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  const page = await context.newPage();
  page.on("console", (message) => problems.push(`console ${message.type()}: ${message.text()}`));
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
  const result = {};
  try {
    await page.goto(`file://${pageFile}`);
    await page.waitForSelector("#table .jungle");
    // A game in progress: a person and a greedy bot, two of the person's turns played.
    await page.click("[data-action=new]");
    await page.selectOption("select[name=players]", "2");
    await page.selectOption("select[name=seat-0]", "person");
    await page.selectOption("select[name=seat-1]", "greedy");
    await page.fill("input[name=seed]", "7");
    await page.click("[data-action=start]");
    for (let turn = 0; turn < 2; turn++) {
      await page.waitForFunction(() => document.querySelector(".jungle .card.playable"));
      await page.click(".jungle .card.playable");
      const put = await page.waitForSelector(".hand .card.playable, [data-action=charlie]");
      await put.click();
    }
    await page.waitForFunction(() => document.querySelector(".jungle .card.playable"));
    await HOSTILE[kind](page, file, result, await seen(page));
  } catch (error) {
    // What was seen so far is the result, with where it went wrong.
    result.error = error.message.split("\n")[0];
  } finally {
    await page.screenshot({ path: join(dir, `${kind}.png`) }).catch(() => {});
    await browser.close();
  }
  writeFileSync(join(dir, "result.json"), JSON.stringify({ problems, result }, null, 1));
}

if (command === "engine") await engine(...args);
else if (command === "play") await play(...args);
else if (command === "hostile") await hostile(...args);
else if (command === "explain") await explain(...args);
else {
  console.error("usage: node family.mjs engine PAGE REQUESTS OUT | play PAGE DIR BROKEN SEATS [VARIANTS] | explain PAGE DIR | hostile PAGE DIR KIND FILE");
  process.exit(2);
}
