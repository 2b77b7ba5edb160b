// Plays the playtest page in Debian's Chromium, by clicks as a person would, and downloads
// each game's log with the page's own Download log button: the fixtures of
// tests/playtest_logs.rs (`safari playtests`).
//
//   safari build content/safari-zone --out OUT --only play
//   safari build content/safari-zone-v20240517 --out OLD --only play
//   node tests/fixtures-logs/make-logs.mjs OUT/safari-zone/play/index.html \
//       OLD/safari-zone-v20240517/play/index.html tests/fixtures-logs
//
// Every console message and uncaught error of a page is a failure. Run again only when the
// log format or the engine's rules change (the logs then no longer replay: the test says so).

import { join } from "node:path";
import { chromium } from "../browser/node_modules/playwright-core/index.mjs";

const [, , pageFile, oldPageFile, dir] = process.argv;

async function open(context, file, problems) {
  const page = await context.newPage();
  page.on("console", (message) => problems.push(`console ${message.type()}: ${message.text()}`));
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
  await page.goto(`file://${file}`);
  await page.waitForSelector('#app[data-state="playing"], #app[data-state="over"]', { timeout: 20000 });
  await page.selectOption('select[aria-label="Bot pace"]', "instant");
  return page;
}

async function settled(page) {
  await page.waitForSelector('#app:not([aria-busy="true"])');
}

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

async function download(page, file) {
  const [saved] = await Promise.all([page.waitForEvent("download"), page.click('[data-action="save"]')]);
  await saved.saveAs(file);
}

// How a person plays: `style` "careful" re-rolls Trainer faces, takes the first lit box, and
// throws at 25% or better; "bold" re-rolls nothing, takes the last lit box, throws at anything
// and uses every item it can.
async function decide(page, step, style) {
  await settled(page);
  const panel = page.locator("[data-deciding]");
  // A bot deciding shows the panel without actions: nothing for a person to click.
  if ((await panel.count()) === 0 || (await panel.locator(".actions").count()) === 0) return false;
  const kind = await panel.getAttribute("data-deciding");
  switch (kind) {
    case "reroll": {
      const dice = page.locator('.die:not([data-fixed="true"])');
      const faces = await dice.evaluateAll((all) => all.map((d) => d.dataset.face));
      let picked = 0;
      if (style === "careful") {
        for (let i = 0; i < faces.length; i++) {
          if (faces[i] === "trainer" || faces[i] === "water") {
            await dice.nth(i).click();
            picked++;
          }
        }
      }
      await page.click(picked ? '[data-act="reroll"]' : '[data-act="stop"]');
      break;
    }
    case "track":
    case "bonus": {
      // The panel's button for each box that may be filled (the sheet lights the same).
      const offered = page.locator('[data-act="track"], [data-act="box"]');
      const count = await offered.count();
      await offered.nth(style === "careful" ? step % count : count - 1).click();
      break;
    }
    case "use": {
      const use = page.locator('[data-act="use"]');
      await ((await use.count()) && style === "bold" ? use.first().click() : page.click('[data-act="stop"]'));
      break;
    }
    case "repel": {
      await page.click('[data-act="stop"]');
      break;
    }
    case "card": {
      const allowed = page.locator('[data-act="card"].primary');
      await ((await allowed.count()) ? allowed.last().click() : page.click('[data-act="stop"]'));
      break;
    }
    case "throw": {
      const text = await page.locator('[data-act="throw"]').innerText();
      const chance = Number((text.match(/(\d+)%/) || [0, 0])[1]);
      const bar = style === "bold" ? 0 : 25;
      await page.click(chance >= bar ? '[data-act="throw"]' : '[data-act="stop"]');
      break;
    }
    default:
      throw new Error(`an unknown decision: ${kind}`);
  }
  await settled(page);
  return true;
}

// Plays a new game at `seats` from `seed` by clicks, for at most `steps` decisions of people
// (then the game is left unfinished), and downloads its log as `name`.
async function game(context, file, problems, { name, seats, seed, style, steps = 5000 }) {
  const page = await open(context, file, problems);
  await newGame(page, seats, seed);
  let step = 0;
  while (step < steps) {
    const state = await page.getAttribute("#app", "data-state");
    if (state !== "playing") break;
    if (!(await decide(page, step, style))) {
      // A bot is to move: the page plays it at the instant pace.
      await page.waitForTimeout(50);
      continue;
    }
    step++;
  }
  await download(page, join(dir, name));
  const state = await page.getAttribute("#app", "data-state");
  console.error(`${name}: ${step} decisions, ${state}`);
  await page.close();
  return { name, steps: step, state };
}

const problems = [];
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--host-resolver-rules=MAP * ~NOTFOUND"],
});
const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
const played = [];
try {
  played.push(await game(context, pageFile, problems, { name: "ash-careful.json", seats: [""], seed: 101, style: "careful" }));
  played.push(await game(context, pageFile, problems, { name: "brock-bold.json", seats: [""], seed: 202, style: "bold" }));
  played.push(await game(context, pageFile, problems, { name: "misty-careful.json", seats: [""], seed: 303, style: "careful" }));
  played.push(await game(context, pageFile, problems, { name: "gary-left-early.json", seats: [""], seed: 404, style: "bold", steps: 25 }));
  played.push(await game(context, pageFile, problems, { name: "dawn-vs-planner.json", seats: ["", "planner"], seed: 505, style: "careful" }));
  played.push(await game(context, oldPageFile, problems, { name: "old-version-may.json", seats: [""], seed: 606, style: "careful" }));
} finally {
  await browser.close();
}
console.log(JSON.stringify({ played, problems }, null, 1));
if (problems.length) process.exit(1);
