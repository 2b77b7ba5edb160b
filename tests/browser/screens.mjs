// Each playtest page on a laptop's screen and on a phone's, for tests/screens.rs.
//
//   node screens.mjs DIR GAME=PAGE [GAME=PAGE ...]
//       Each PAGE (GAME: `safari-zone`, `gamewright-safari`, `diceafari` or `tricky-safari`)
//       in Debian's Chromium at 1280x720 and at 390x844 (a phone: touch, the page's viewport
//       meta applied), as a person would use it: the New game dialog opened and a game of a
//       person and a bot started (seed 42), what is drawn where measured, a few moves tapped
//       (clicked on the laptop), then a game of two bots played to its end and the end
//       measured. DIR receives a screenshot of each moment and `result.json`.
//
// Every console message and uncaught error of a page is a failure.

import { writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";

const SIZES = {
  laptop: { width: 1280, height: 720 },
  phone: { width: 390, height: 844 },
};

// What each page draws its table as, what a person chooses among, and its controls.
const GAMES = {
  "safari-zone": {
    drawing: ".sheet",
    // The decision panel's first button: the dice, or the first choice.
    choice: "[data-deciding] button",
    piece: ".sheet",
    controls: "header button, header select, header label.file, .sheet-tabs button, [data-deciding] .actions button, .over .actions button",
    over: ".over",
    person: "",
  },
  "gamewright-safari": {
    drawing: ".jungle",
    choice: "#table .playable",
    piece: ".jungle .card",
    controls: ".toolbar button, .toolbar select, #table .stack button",
    over: "[data-over]",
    person: "person",
  },
  diceafari: {
    drawing: ".safari-map",
    choice: "#table .die.playable, #table [data-action]",
    piece: ".safari-map .tile",
    controls: ".toolbar button, .toolbar select, #table .stack button",
    over: "[data-over]",
    person: "person",
  },
  "tricky-safari": {
    drawing: ".board",
    choice: "#table .playable",
    piece: ".board .cell",
    controls: ".toolbar button, .toolbar select, #table .stack button",
    over: "[data-over]",
    person: "person",
  },
};

// Waits for the page to have done with what was clicked (the engine answers from a worker).
async function settled(page) {
  await page.waitForSelector('#app:not([aria-busy="true"])');
}

// Waits until a person is to choose, or the game is over.
async function personToMove(page, game) {
  if (game === "safari-zone") {
    await page.waitForSelector('[data-deciding] .actions, #app[data-state="over"]', { timeout: 60000 });
  } else {
    await page.waitForFunction(() => {
      const status = document.querySelector("#status")?.textContent || "";
      return !status.includes("thinking") && document.querySelector("#app")?.getAttribute("aria-busy") !== "true";
    }, null, { timeout: 60000 });
  }
  await settled(page);
}

// What is drawn where, as the page stands, at the top of the page.
async function measure(page, game, size) {
  const spec = GAMES[game];
  await page.evaluate(() => window.scrollTo(0, 0));
  return page.evaluate(([spec, screen]) => {
    const box = (node) => {
      if (!node) return null;
      const b = node.getBoundingClientRect();
      const r = (v) => Math.round(v * 10) / 10;
      return { left: r(b.left), top: r(b.top + window.scrollY), width: r(b.width), height: r(b.height), right: r(b.right), bottom: r(b.bottom + window.scrollY) };
    };
    const describe = (node) => `${node.tagName.toLowerCase()}${node.id ? `#${node.id}` : ""}${node.classList.length ? `.${[...node.classList].join(".")}` : ""}`;
    const visible = (node) => node.checkVisibility() && node.getBoundingClientRect().width > 0;
    // The screen's width, not the window's: a phone's browser widens its window to hold a page
    // drawn wider than the screen (and shows it zoomed out).
    const vw = screen.width;
    // Everything drawn past the window's right edge (or left of it), the outermost of each.
    const past = [...document.querySelectorAll("body *")].filter((n) => {
      if (!visible(n)) return false;
      const b = n.getBoundingClientRect();
      if (b.right <= vw + 0.5 && b.left >= -0.5) return false;
      // Inside a box that scrolls sideways of its own, it is not past the window.
      for (let up = n.parentElement; up && up !== document.body; up = up.parentElement) {
        const style = getComputedStyle(up);
        if (["auto", "scroll", "hidden"].includes(style.overflowX)) {
          const ub = up.getBoundingClientRect();
          if (ub.right <= vw + 0.5 && ub.left >= -0.5) return false;
        }
      }
      return true;
    });
    const drawing = [...document.querySelectorAll(spec.drawing)].find(visible);
    const controls = [...document.querySelectorAll(spec.controls)].filter(visible);
    const small = controls.filter((c) => c.getBoundingClientRect().height < 40 - 0.5);
    const pieces = [...document.querySelectorAll(spec.piece)].filter(visible).map((n) => n.getBoundingClientRect());
    return {
      window: { width: window.innerWidth, height: window.innerHeight },
      scroll_width: document.documentElement.scrollWidth,
      body_scroll_width: document.body.scrollWidth,
      scroll_height: document.documentElement.scrollHeight,
      drawing: box(drawing),
      // Whether the drawing holds more than it shows (it scrolls sideways in its own box).
      drawing_clipped: drawing ? getComputedStyle(drawing).overflowX !== "visible" && drawing.scrollWidth > drawing.clientWidth + 1 : null,
      // The smallest piece of the drawing (a card, a cell, a tile; the sheet itself).
      piece: pieces.length ? { width: Math.round(Math.min(...pieces.map((p) => p.width))), height: Math.round(Math.min(...pieces.map((p) => p.height))) } : null,
      choice: box([...document.querySelectorAll(spec.choice)].find(visible)),
      past: [...new Set(past.map(describe))].slice(0, 12),
      controls: controls.length,
      smallest_control: controls.length ? Math.round(Math.min(...controls.map((c) => c.getBoundingClientRect().height)) * 10) / 10 : null,
      small_controls: [...new Set(small.map((c) => `${describe(c)} "${c.textContent.trim().slice(0, 30)}" ${Math.round(c.getBoundingClientRect().height)}px`))].slice(0, 12),
    };
  }, [spec, SIZES[size]]);
}

// The New game dialog, measured (into `seen.dialog`), then a game of SEATS started (seed 42).
async function newGame(page, game, seats, dir, shot, seen = {}) {
  await page.click('[data-action="new"]');
  await page.waitForSelector("dialog[open]");
  const dialog = await page.evaluate(() => {
    const d = document.querySelector("dialog[open]");
    const b = d.getBoundingClientRect();
    const start = d.querySelector('[data-action="start"]').getBoundingClientRect();
    return {
      left: b.left, right: b.right, top: b.top, bottom: b.bottom,
      scroll_width: d.scrollWidth, client_width: d.clientWidth,
      start: { left: start.left, right: start.right, height: start.height },
      window: { width: window.innerWidth, height: window.innerHeight },
      page_scroll_width: document.documentElement.scrollWidth,
    };
  });
  seen.dialog = dialog;
  await page.selectOption('dialog select[name="players"]', String(seats.length));
  for (const [seat, who] of seats.entries()) await page.selectOption(`dialog select[name="seat-${seat}"]`, who);
  await page.fill('dialog input[name="seed"]', "42");
  if (shot) await page.screenshot({ path: join(dir, shot) });
  await page.click('dialog [data-action="start"]', { timeout: 10000 });
  await page.waitForSelector("dialog", { state: "detached" });
  await settled(page);
}

// The page's current fingerprint: its log, and what it asks.
async function fingerprint(page) {
  return page.evaluate(() => [
    document.querySelector(".log, #log")?.textContent || "",
    document.querySelector("[data-deciding]")?.textContent || "",
    document.querySelector("#table")?.textContent || "",
    String(document.querySelectorAll(".playable, [data-selected=true], .selected").length),
  ].join("\u0000"));
}

// A seeded choice among the clickable things, so a run clicks the same game.
let state = 4242;
const pick = (n) => {
  state = (state * 1103515245 + 12345) % 2147483648;
  return state % n;
};

// One move by a person, tapped on a phone and clicked on a laptop; whether it did anything.
async function move(page, game, touch) {
  const press = async (target) => {
    const node = typeof target === "string" ? page.locator(target).first() : target;
    await (touch ? node.tap() : node.click());
  };
  const before = await fingerprint(page);
  if (game === "safari-zone") {
    const kind = await page.getAttribute("[data-deciding]", "data-deciding");
    switch (kind) {
      case "reroll": {
        const dice = page.locator('[data-deciding] .die:not([data-fixed="true"])');
        if ((await dice.count()) && pick(2) === 0) {
          await press(dice.nth(pick(await dice.count())));
          await press('[data-act="reroll"]');
        } else await press('[data-act="stop"]');
        break;
      }
      case "track":
      case "bonus": {
        const boxes = page.locator('[data-deciding] .actions button[data-act="track"], [data-deciding] .actions button[data-act="box"]');
        await press(boxes.nth(pick(await boxes.count())));
        break;
      }
      case "card": {
        const allowed = page.locator('[data-act="card"].primary');
        await press((await allowed.count()) ? allowed.first() : '[data-act="stop"]');
        break;
      }
      case "throw":
        await press('[data-act="throw"]');
        break;
      default:
        await press('[data-deciding] .actions button');
    }
  } else if (game === "diceafari") {
    const photos = page.locator(".safari-map .photo.playable");
    if (await photos.count()) await press(photos.nth(pick(await photos.count())));
    else if (await page.locator("[data-action=no_photo]").count()) await press("[data-action=no_photo]");
    else if (!(await page.locator("[data-action=claim], [data-action=reroll]").count())) {
      const bonus = page.locator(".safari-map .tile.playable");
      await press(bonus.nth(pick(await bonus.count())));
    } else if (await page.locator("[data-action=claim]").count()) {
      // One tile, then more of its route while the claim stays one the dice allow.
      await press(page.locator(".safari-map .tile.playable").first());
      for (let more = pick(3); more > 0; more--) {
        const tiles = page.locator(".safari-map .tile.playable:not(.selected)");
        if (!(await tiles.count())) break;
        await press(tiles.nth(pick(await tiles.count())));
        if (!(await page.locator("[data-action=claim]:not([aria-disabled=true])").count())) await press(page.locator(".safari-map .tile.selected").last());
      }
      await press("[data-action=claim]");
    } else {
      const dice = page.locator(".dice .die.playable");
      await press(dice.nth(pick(await dice.count())));
      await press("[data-action=reroll]");
    }
  } else if (game === "gamewright-safari") {
    const jungle = page.locator(".jungle .card.playable");
    const hand = page.locator(".hand .card.playable");
    if (await hand.count()) await press(hand.nth(pick(await hand.count())));
    else if (await jungle.count()) await press(jungle.nth(pick(await jungle.count())));
    else await press("[data-action=charlie], [data-action=pass]");
  } else {
    const cells = page.locator(".cell.playable");
    if (await cells.count()) await press(cells.nth(pick(await cells.count())));
    else await press("[data-action=pass]");
  }
  await settled(page);
  return (await fingerprint(page)) !== before;
}

async function screens(browser, game, pageFile, size, dir, problems) {
  const spec = GAMES[game];
  const phone = size === "phone";
  const context = await browser.newContext({ viewport: SIZES[size], isMobile: phone, hasTouch: phone });
  const page = await context.newPage();
  page.on("console", (message) => problems.push(`${game} ${size}: console ${message.type()}: ${message.text()}`));
  page.on("pageerror", (error) => problems.push(`${game} ${size}: uncaught: ${error.message}`));
  page.on("requestfailed", (request) => {
    if (!request.url().startsWith("blob:") && !request.url().startsWith("data:")) problems.push(`${game} ${size}: request: ${request.url()}`);
  });
  const shot = (name, full = false) => page.screenshot({ path: join(dir, `${game}-${size}-${name}.png`), fullPage: full });
  const result = {};
  try {
    await page.goto(`file://${pageFile}`);
    await page.waitForSelector('#app[data-state="playing"]', { timeout: 30000 });
    await settled(page);
    await page.selectOption(game === "safari-zone" ? 'select[aria-label="Bot pace"]' : "#pace", "instant");
    await newGame(page, game, [spec.person, "greedy"], dir, `${game}-${size}-new-game.png`, result);
    await personToMove(page, game);
    result.playing = await measure(page, game, size);
    await shot("playing");
    await shot("playing-full", true);
    // Scrolled to the drawing's foot: where the choices are then.
    result.at_foot = await page.evaluate(([drawing, choice]) => {
      const foot = document.querySelector(drawing).getBoundingClientRect().bottom + window.scrollY;
      window.scrollTo(0, Math.max(0, foot - window.innerHeight));
      const b = document.querySelector(choice)?.getBoundingClientRect();
      return { scroll_y: window.scrollY, choice: b ? { top: b.top, bottom: b.bottom } : null };
    }, [spec.drawing, spec.choice]);
    await shot("at-foot");
    // A few moves by the person, each waiting for the bot's after it.
    result.moves = { asked: phone ? 8 : 3, made: 0, idle: 0 };
    for (let m = 0; m < result.moves.asked; m++) {
      if ((await page.getAttribute("#app", "data-state")) === "over") break;
      if (await move(page, game, phone)) result.moves.made++;
      else result.moves.idle++;
      await personToMove(page, game);
    }
    result.moved = await measure(page, game, size);
    await shot("moved");
    // DiceAFARI: each map the ruleset offers, drawn.
    if (game === "diceafari") {
      result.maps = {};
      await page.click('[data-action="new"]');
      const maps = await page.$$eval('dialog input[name^="variant-map:"]', (boxes) => boxes.map((b) => b.value));
      await page.click("dialog button:not([data-action])");
      for (const map of maps) {
        await page.click('[data-action="new"]');
        await page.check(`dialog input[name="variant-${map}"]`);
        await page.fill('dialog input[name="seed"]', "42");
        await page.click('dialog [data-action="start"]');
        await page.waitForSelector("dialog", { state: "detached" });
        await personToMove(page, game);
        result.maps[map] = await measure(page, game, size);
        await shot(map.replace(":", "-"));
      }
    }
    // A game of two bots to its end.
    await newGame(page, game, ["greedy", "greedy"], dir, null);
    await page.waitForSelector(game === "safari-zone" ? '#app[data-state="over"]' : "[data-over]", { timeout: 120000 });
    await settled(page);
    result.over = await measure(page, game, size);
    result.over.panel = await page.evaluate((selector) => {
      const b = document.querySelector(selector)?.getBoundingClientRect();
      return b ? { top: b.top + window.scrollY, bottom: b.bottom + window.scrollY, left: b.left, right: b.right } : null;
    }, spec.over);
    await shot("over");
  } catch (error) {
    result.error = error.message.split("\n").slice(0, 3).join(" ");
    await shot("failed").catch(() => {});
  } finally {
    await context.close();
  }
  return result;
}

const [, , dir, ...pages] = process.argv;
if (!dir || pages.length === 0) {
  console.error("usage: node screens.mjs DIR GAME=PAGE [GAME=PAGE ...]");
  process.exit(2);
}
mkdirSync(dir, { recursive: true });
const { chromium } = await import("playwright-core");
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run", "--host-resolver-rules=MAP * ~NOTFOUND"],
});
const problems = [];
const result = {};
try {
  for (const spec of pages) {
    const [game, pageFile] = [spec.slice(0, spec.indexOf("=")), spec.slice(spec.indexOf("=") + 1)];
    if (!GAMES[game]) throw new Error(`an unknown game: ${game}`);
    result[game] = {};
    for (const size of Object.keys(SIZES)) result[game][size] = await screens(browser, game, pageFile, size, dir, problems);
  }
} finally {
  await browser.close();
}
writeFileSync(join(dir, "result.json"), JSON.stringify({ problems, result }, null, 1));
