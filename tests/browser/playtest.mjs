// Drives the playtest page for tests/playtest.rs, and its engine without a browser.
//
//   node playtest.mjs engine PAGE RULESET REQUESTS OUT
//       The engine the page holds, run by Node: opens RULESET, answers each request line of
//       REQUESTS (JSON) with a line of OUT.
//   node playtest.mjs play PAGE SCENARIO DIR [ARG]
//       The page in Debian's Chromium, played by Playwright as a person would: SCENARIO is
//       `clicks`, `bots`, `broken` (ARG: a folder of broken rulesets), `other` (ARG: a folder
//       of other versions' rulesets), `replay` (ARG: a game log), `geometry` (ARG: a folder of
//       rulesets whose sheets are drawn past any page), `study` (ARG: a ruleset its bots take
//       long to study), `unoffered` (ARG: a game log seating a bot the page does not offer,
//       loaded, then kept in the browser's storage as the game in progress and the page
//       reloaded); DIR receives the screenshots, downloads and `result.json`.
//
// Every console message and uncaught error of the page is a failure of the scenario.

import { readFileSync, writeFileSync, readdirSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { engineOf, requestLines } from "./engine.mjs";

const [, , command, ...args] = process.argv;

async function engine(page, ruleset, requests, out) {
  const call = await engineOf(page, "safari_call");
  const opened = JSON.parse(call(JSON.stringify({ op: "open", ruleset: readFileSync(ruleset, "utf8") })));
  if (opened.error) throw new Error(`the ruleset did not open: ${opened.error.message}`);
  const answers = requestLines(requests).map((line) => call(line));
  writeFileSync(out, answers.join("\n") + "\n");
}

async function browser() {
  const { chromium } = await import("playwright-core");
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run", "--host-resolver-rules=MAP * ~NOTFOUND"],
  });
}

async function open(context, pageFile, problems) {
  const page = await context.newPage();
  // Every message the page says, in order, for scenarios to look back on.
  await page.addInitScript(() => {
    // The longest the page's main thread was busy at a stretch (Chromium's long tasks).
    window.longestTask = 0;
    new PerformanceObserver((list) => {
      for (const task of list.getEntries()) window.longestTask = Math.max(window.longestTask, Math.round(task.duration));
    }).observe({ type: "longtask" });
    window.said = [];
    new MutationObserver(() => {
      const text = document.querySelector("#message")?.textContent;
      if (text && window.said[window.said.length - 1] !== text) window.said.push(text);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  page.on("console", (message) => problems.push(`console ${message.type()}: ${message.text()}`));
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
  page.on("requestfailed", (request) => {
    if (!request.url().startsWith("blob:") && !request.url().startsWith("data:")) problems.push(`request: ${request.url()}`);
  });
  await page.goto(`file://${pageFile}`);
  await page.waitForSelector('#app[data-state="playing"], #app[data-state="over"], #app[data-state="error"]', { timeout: 20000 });
  return page;
}

// Waits for the page to have done with what was clicked (the engine answers from a worker).
async function settled(page) {
  await page.waitForSelector('#app:not([aria-busy="true"])');
}

// A new game from the dialog: seats ("" for a person, else a bot's policy) and a seed.
async function newGame(page, seats, seed) {
  await page.click('[data-action="new"]');
  await page.selectOption('dialog select[name="players"]', String(seats.length));
  for (let seat = 0; seat < seats.length; seat++) {
    await page.selectOption(`dialog select[name="seat-${seat}"]`, seats[seat]);
  }
  await page.fill('dialog input[name="seed"]', String(seed));
  await page.click('dialog [data-action="start"]');
  await page.waitForSelector("dialog", { state: "detached" });
  await settled(page);
}

// What each seat's sheet shows: the boxes marked, and the VP.
async function sheets(page) {
  const seats = await page.locator(".seat").count();
  const result = [];
  for (let seat = 0; seat < seats; seat++) {
    await page.click(`.seat[data-seat="${seat}"]`);
    const filled = await page.locator('.mark[data-filled="true"]').evaluateAll((marks) => marks.map((m) => m.dataset.box));
    const vp = Number(await page.getAttribute(`.seat[data-seat="${seat}"] [data-vp]`, "data-vp"));
    result.push({ filled: filled.sort(), vp });
  }
  // Back to the sheet of the seat to decide, as the page shows it.
  const toMove = page.locator(".seat.to-move");
  if (await toMove.count()) await toMove.click();
  return result;
}

// The game-over breakdown: each row's name and its cells, seat by seat.
async function breakdown(page) {
  return page.locator(".breakdown tbody tr").evaluateAll((rows) => rows.map((row) => ({
    row: row.dataset.section || row.dataset.row,
    name: row.querySelector("th").textContent,
    cells: [...row.querySelectorAll("td")].map((td) => td.textContent),
  })));
}

async function scores(page) {
  return page.locator("[data-score]").evaluateAll((cells) => cells.map((c) => Number(c.dataset.score)));
}

async function download(page, file) {
  const [saved] = await Promise.all([page.waitForEvent("download"), page.click('[data-action="save"]')]);
  await saved.saveAs(file);
  return JSON.parse(readFileSync(file, "utf8"));
}

// One decision taken by clicks, the way a person would: returns false when nothing is asked.
// What the people clicked of the items that act on the encounter: Repels and Poké Dolls.
const itemClicks = { repel: 0, keep: 0, lock: 0 };

async function decide(page, step) {
  const panel = page.locator("[data-deciding]");
  if ((await panel.count()) === 0) return false;
  const kind = await panel.getAttribute("data-deciding");
  switch (kind) {
    case "reroll": {
      const dice = page.locator('[data-deciding] .die:not([data-fixed="true"])');
      const faces = await dice.evaluateAll((all) => all.map((d) => d.dataset.face));
      let picked = 0;
      for (let i = 0; i < faces.length; i++) {
        if (faces[i] === "trainer" || (faces[i] === "item" && step % 3 === 0)) {
          await dice.nth(i).click();
          picked++;
        }
      }
      await page.click(picked ? '[data-act="reroll"]' : '[data-act="stop"]');
      break;
    }
    case "track":
    case "bonus": {
      // The sheet's lit boxes, a different one now and then.
      const offered = page.locator('.mark[data-offered="true"]');
      if ((await offered.count()) === 0) await page.click("text=/^Show .*'s sheet$/");
      // The Repel's and the Poké Doll's tracks first, for the encounter's own decisions.
      const items = page.locator('.mark[data-offered="true"][data-box^="bag.repel"], .mark[data-offered="true"][data-box^="bag.poke-doll"]');
      if (await items.count()) {
        await items.first().click();
        break;
      }
      const count = await offered.count();
      await offered.nth(step % count).click();
      break;
    }
    case "use": {
      const use = page.locator('[data-act="use"]');
      await ((await use.count()) ? use.first().click() : page.click('[data-act="stop"]'));
      break;
    }
    case "repel": {
      // Now and then a species sent away, the last one drawn.
      const repels = page.locator('[data-act="repel"]');
      if (step % 2 === 0 && (await repels.count())) {
        await repels.last().click();
        itemClicks.repel++;
      } else {
        await page.click('[data-act="stop"]');
        itemClicks.keep++;
      }
      break;
    }
    case "card": {
      const allowed = page.locator('[data-act="card"].primary');
      await ((await allowed.count()) ? allowed.first().click() : page.click('[data-act="stop"]'));
      break;
    }
    case "throw": {
      const text = await page.locator('[data-act="throw"]').innerText();
      const chance = Number((text.match(/(\d+)%/) || [0, 0])[1]);
      const locks = page.locator('[data-act="lock"]');
      if ((await locks.count()) && step % 2 === 1) {
        await locks.first().click();
        itemClicks.lock++;
        break;
      }
      await page.click(chance >= 25 ? '[data-act="throw"]' : '[data-act="stop"]');
      break;
    }
    default:
      throw new Error(`an unknown decision: ${kind}`);
  }
  await settled(page);
  return true;
}

const scenarios = {
  // Two people at one screen, every decision a click; the game kept across a reload.
  async clicks(context, pageFile, dir, problems) {
    const page = await open(context, pageFile, problems);
    await newGame(page, ["", ""], 20241126);
    let steps = 0;
    let reloaded = null;
    // The turn summaries seen (the first few), and what a hint lit.
    const summaries = [];
    let hint = null;
    while ((await page.getAttribute("#app", "data-state")) === "playing" && steps < 5000) {
      if (steps === 1) await page.screenshot({ path: join(dir, "clicks-start.png") });
      const summary = page.locator(".panel.summary");
      if (summaries.length < 6 && (await summary.count())) {
        const text = await summary.innerText();
        if (!summaries.some((s) => s.text === text)) {
          summaries.push({ text, step: steps, captureDice: await summary.locator(".capture-die").count(), dice: await summary.locator(".dice.small .die").count(), deciding: await page.getAttribute("[data-deciding]", "data-deciding").catch(() => null) });
          if (summaries.length === 3) await page.screenshot({ path: join(dir, "clicks-summary.png") });
        }
      }
      if (steps === 3 && !hint) {
        await page.click('[data-action="hint"]');
        await settled(page);
        hint = { message: await page.locator("#message").innerText(), lit: await page.locator('[data-hinted="true"]').count() };
        await page.screenshot({ path: join(dir, "clicks-hint.png") });
      }
      if (steps === 40 && !reloaded) {
        const before = await sheets(page);
        await page.reload();
        await page.waitForSelector('#app[data-state="playing"]');
        reloaded = { before, after: await sheets(page), message: await page.locator("#message").innerText() };
        await page.screenshot({ path: join(dir, "clicks-reloaded.png") });
      }
      if (!(await decide(page, steps))) break;
      steps++;
      if (steps === 60) await page.screenshot({ path: join(dir, "clicks-middle.png") });
    }
    await page.screenshot({ path: join(dir, "clicks-over.png") });
    const log = await page.locator(".log").innerText().catch(() => "");
    const result = { steps, state: await page.getAttribute("#app", "data-state"), scores: await scores(page), sheets: await sheets(page), reloaded, itemClicks, log, summaries, hint, breakdown: await breakdown(page) };
    await download(page, join(dir, "clicks-log.json"));
    // Undo from the end takes back the last person's choice, unless a roll, a draw or a
    // throw came of it: then the button is off and says why.
    result.undo = await page.$eval('[data-action="undo"]', (b) => ({ disabled: b.disabled, title: b.title }));
    if (!result.undo.disabled) {
      await page.click('[data-action="undo"]');
      await settled(page);
    }
    result.afterUndo = await page.getAttribute("#app", "data-state");
    return result;
  },

  // Three bots play a whole game at the fastest pace, the planner among them.
  async bots(context, pageFile, dir, problems) {
    const page = await open(context, pageFile, problems);
    await page.selectOption('select[aria-label="Bot pace"]', "instant");
    await newGame(page, ["planner", "greedy", "expected"], 777);
    await page.waitForSelector('#app[data-state="over"]', { timeout: 120000 });
    await page.screenshot({ path: join(dir, "bots-over.png") });
    const result = { scores: await scores(page), sheets: await sheets(page), said: await page.evaluate(() => window.said), breakdown: await breakdown(page) };
    await download(page, join(dir, "bots-log.json"));
    return result;
  },

  // Rulesets that are not this page's format, or are nonsense: each refused with a message,
  // and the game in progress goes on.
  async broken(context, pageFile, dir, problems, folder) {
    const page = await open(context, pageFile, problems);
    const refusals = [];
    for (const name of readdirSync(folder).sort()) {
      await page.setInputFiles('[data-action="open-ruleset"] input', join(folder, name));
      // The previous file's refusal is still shown until this one is read: wait for this one.
      await page.waitForFunction(
        (file) => {
          const message = document.querySelector("#message.error");
          return message !== null && message.innerText.includes(file);
        },
        name,
      );
      refusals.push({ file: name, message: await page.locator("#message").innerText(), state: await page.getAttribute("#app", "data-state") });
      await page.screenshot({ path: join(dir, `broken-${name}.png`) });
    }
    // Still playable: one decision.
    const played = await decide(page, 0);
    return { refusals, played };
  },

  // Other versions of the game, opened from their ruleset.json: drawn from the ruleset, and
  // played.
  async other(context, pageFile, dir, problems, folder) {
    const page = await open(context, pageFile, problems);
    const opened = [];
    for (const name of readdirSync(folder).sort()) {
      await page.setInputFiles('[data-action="open-ruleset"] input', join(folder, name));
      await page.waitForFunction((file) => document.querySelector("#message")?.textContent.includes(`Opened ${file}`), name);
      await page.screenshot({ path: join(dir, `other-${name}.png`) });
      const seen = {
        file: name,
        message: await page.locator("#message").innerText(),
        schematic: await page.locator("svg.schematic").count(),
        marks: await page.locator(".mark").count(),
        title: await page.locator("header h1").innerText(),
        labels: await page.locator("svg.schematic text.label").allTextContents(),
        tags: await page.locator("svg.schematic text.tags").allTextContents(),
        // Words drawn over a box of the sheet: each label's and tag's rectangle against each
        // box's, in the drawing's own millimetres.
        overlaps: await page.$$eval("svg.schematic", (svgs) => svgs.flatMap((svg) => {
          const boxes = [...svg.querySelectorAll("rect.box")].map((r) => r.getBBox());
          const inside = (a, b) => a.x < b.x + b.width - 0.05 && b.x < a.x + a.width - 0.05 && a.y < b.y + b.height - 0.05 && b.y < a.y + a.height - 0.05;
          return [...svg.querySelectorAll("text.label, text.tags")].filter((t) => boxes.some((b) => inside(t.getBBox(), b))).map((t) => t.textContent);
        })),
        dice: await page.locator(".dice .die img").count(),
        played: await decide(page, 0),
        state: await page.getAttribute("#app", "data-state"),
      };
      opened.push(seen);
    }
    // New game keeps the version opened; the page's own comes back with one click.
    await page.click('[data-action="new"]');
    await page.click('dialog [data-action="start"]');
    await page.waitForSelector("dialog", { state: "detached" });
    await settled(page);
    const keptAfterNewGame = await page.locator('[data-action="own-version"]').count();
    await page.click('[data-action="own-version"]');
    await settled(page);
    const back = { message: await page.locator("#message").innerText(), header: await page.locator("header.bar").innerText(), button: await page.locator('[data-action="own-version"]').count(), pictures: await page.locator(".sheet img.page").count() };
    // A ruleset dropped on the page opens as Open ruleset does.
    const [first] = readdirSync(folder).sort();
    const text = readFileSync(join(folder, first), "utf8");
    await page.evaluate(([name, content]) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([content], name, { type: "application/json" }));
      document.body.dispatchEvent(new DragEvent("dragover", { dataTransfer: transfer, bubbles: true, cancelable: true }));
      document.body.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }, [first, text]);
    await page.waitForFunction((file) => document.querySelector("#message")?.textContent.includes(`Opened ${file}`), first);
    const dropped = { message: await page.locator("#message").innerText(), schematic: await page.locator("svg.schematic").count() };
    return { opened, keptAfterNewGame, back, dropped };
  },

  // A game log loaded and stepped through, forward and back.
  async replay(context, pageFile, dir, problems, log) {
    const page = await open(context, pageFile, problems);
    await page.setInputFiles('[data-action="load-log"] input', log);
    await page.waitForSelector('#app[data-state="replay"]');
    const at = async () => {
      await settled(page);
      return Number(await page.getAttribute("[data-at]", "data-at"));
    };
    const seen = [await at()];
    // Each replay button's label is drawn by a font the page has: a character no font draws
    // comes out as the same empty box as a private-use one does.
    const undrawn = await page.$$eval('[data-action^="replay-"]', (buttons) => buttons.flatMap((b) => {
      const font = getComputedStyle(b).font;
      const draw = (text) => {
        const canvas = document.createElement("canvas");
        canvas.width = 120;
        canvas.height = 80;
        const g = canvas.getContext("2d");
        g.font = font;
        g.fillText(text, 20, 50);
        return canvas.toDataURL();
      };
      const nothing = draw(String.fromCodePoint(0x10fffd));
      return [...b.textContent].filter((c) => c.trim() && draw(c) === nothing).map((c) => `${b.dataset.action}: ${c}`);
    }));
    for (let i = 0; i < 5; i++) {
      await page.click('[data-action="replay-forward"]');
      seen.push(await at());
    }
    await page.click('[data-action="replay-back"]');
    seen.push(await at());
    await page.screenshot({ path: join(dir, "replay-step.png") });
    await page.click('[data-action="replay-end"]');
    seen.push(await at());
    const end = { scores: await scores(page), sheets: await sheets(page) };
    await page.screenshot({ path: join(dir, "replay-end.png") });
    // The log opened with Open ruleset: the page says it is a log, and replays it.
    await page.click('[data-action="play-on"]');
    await settled(page);
    await page.setInputFiles('[data-action="open-ruleset"] input', log);
    await page.waitForSelector('#app[data-state="replay"]');
    await settled(page);
    const openedAsRuleset = { message: await page.locator("#message").innerText(), at: await at() };
    return { seen, end, undrawn, openedAsRuleset };
  },

  // Rulesets whose sheets are drawn past any page: each opened, and where its boxes are drawn
  // measured against the window.
  async geometry(context, pageFile, dir, problems, folder) {
    const page = await open(context, pageFile, problems);
    const opened = [];
    for (const name of readdirSync(folder).sort()) {
      await page.setInputFiles('[data-action="open-ruleset"] input', join(folder, name));
      await page.waitForFunction((file) => document.querySelector("#message")?.textContent.includes(file), name);
      await page.screenshot({ path: join(dir, `geometry-${name}.png`) });
      opened.push({
        file: name,
        message: await page.locator("#message").innerText(),
        ...(await page.evaluate(() => ({
          window: window.innerWidth,
          page: document.documentElement.scrollWidth,
          widest: Math.max(...[...document.querySelectorAll(".mark, .sheet")].map((n) => n.getBoundingClientRect().width)),
          rightmost: Math.max(...[...document.querySelectorAll(".mark, .sheet")].map((n) => n.getBoundingClientRect().right)),
        }))),
        marks: await page.locator(".mark").count(),
        played: await decide(page, 0),
      });
    }
    return { opened };
  },

  // A game log seating a bot the page does not offer (a search of many seconds a move):
  // loaded with Load log, then kept in the browser's storage as the game in progress and the
  // page reloaded. What the page says each time, whether the game in progress changed, and
  // how soon it answers Pause.
  async unoffered(context, pageFile, dir, problems, log) {
    const page = await open(context, pageFile, problems);
    await page.waitForSelector("[data-deciding]");
    const before = await sheets(page);
    await page.setInputFiles('[data-action="load-log"] input', log);
    await page.waitForFunction(() => /unoffered|Replaying/.test(document.querySelector("#message")?.textContent || ""), null, { timeout: 60000 });
    await settled(page);
    const loaded = {
      message: await page.locator("#message").innerText(),
      state: await page.getAttribute("#app", "data-state"),
      unchanged: JSON.stringify(await sheets(page)) === JSON.stringify(before),
    };
    await page.screenshot({ path: join(dir, "unoffered-log.png") });
    const saved = JSON.parse(readFileSync(log, "utf8"));
    await page.evaluate((saved) => {
      const key = Object.keys(localStorage).find((k) => k.startsWith("safari-playtest/"));
      localStorage.setItem(key, JSON.stringify({ ruleset: null, seats: saved.seats, seed: saved.seed, actions: saved.actions }));
    }, saved);
    await page.reload();
    await page.waitForFunction(() => /game/i.test(document.querySelector("#message")?.textContent || ""), null, { timeout: 60000 });
    const message = await page.locator("#message").innerText();
    await page.screenshot({ path: join(dir, "unoffered-stored.png") });
    await page.waitForTimeout(1500);
    const started = Date.now();
    await page.click('[data-action="pause"]', { timeout: 60000 });
    await page.waitForFunction(() => document.querySelector('[data-action="pause"]')?.textContent === "Resume bots", null, { timeout: 60000 });
    const reloaded = {
      message,
      pause_ms: Date.now() - started,
      seats: await page.$$eval("[data-seat] .who", (who) => who.map((w) => w.textContent)),
    };
    return { loaded, reloaded };
  },

  // A ruleset the planner must study before its first move, for long: what the page says of
  // it at first and once it says how long, the longest the page's main thread was busy at a
  // stretch meanwhile, and how soon it answers a click on Pause.
  async study(context, pageFile, dir, problems, ruleset) {
    const page = await open(context, pageFile, problems);
    await page.selectOption('select[aria-label="Bot pace"]', "instant");
    await page.setInputFiles('[data-action="open-ruleset"] input', ruleset);
    await page.waitForFunction(() => document.querySelector("#message")?.textContent.includes("Opened"), null, { timeout: 60000 });
    await newGame(page, ["planner"], 1);
    await page.waitForFunction(() => /studying/.test(document.querySelector("#message")?.textContent), null, { timeout: 60000 });
    const first = await page.locator("#message").innerText();
    await page.evaluate(() => { window.longestTask = 0; });
    const started = Date.now();
    await page.waitForFunction(() => /studying.* left/.test(document.querySelector("#message")?.textContent), null, { timeout: 120000 });
    const studying = await page.locator("#message").innerText();
    const told_after_ms = Date.now() - started;
    // A few requests more, for the page to be at its usual work.
    await page.waitForTimeout(1500);
    await page.screenshot({ path: join(dir, "study.png") });
    const longest_task_ms = await page.evaluate(() => window.longestTask);
    const clicked = Date.now();
    await page.click('[data-action="pause"]', { timeout: 120000 });
    await page.waitForFunction(() => document.querySelector('[data-action="pause"]')?.textContent === "Resume bots", null, { timeout: 120000 });
    const pauseMs = Date.now() - clicked;
    await page.screenshot({ path: join(dir, "study-paused.png") });
    return { first, studying, told_after_ms, longest_task_ms, pause_ms: pauseMs, after: await page.locator("#message").innerText(), state: await page.getAttribute("#app", "data-state") };
  },
};

async function play(pageFile, scenario, dir, extra) {
  mkdirSync(dir, { recursive: true });
  const problems = [];
  const chromium = await browser();
  const context = await chromium.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  let result;
  try {
    result = await scenarios[scenario](context, pageFile, dir, problems, extra);
  } finally {
    await chromium.close();
  }
  writeFileSync(join(dir, "result.json"), JSON.stringify({ result, problems }, null, 1));
}

if (command === "engine") await engine(...args);
else if (command === "play") await play(...args);
else {
  console.error("usage: node playtest.mjs engine PAGE RULESET REQUESTS OUT | play PAGE SCENARIO DIR [ARG]");
  process.exit(2);
}
