// Plays the playtest pages of the games made of components in Debian's Chromium, by clicks as
// people would, and downloads each game's log with the page's own Download log button: the
// family's fixtures of tests/playtest_logs.rs (`safari playtests`). The sibling of
// make-logs.mjs, which plays Safari Zone RNW's page.
//
//   for game in gamewright-safari diceafari tricky-safari; do
//     safari build content/$game --out OUT --only play
//   done
//   node tests/fixtures-logs/make-family-logs.mjs OUT tests/fixtures-logs
//
// Every console message and uncaught error of a page is a failure. Run again only when the
// log format or the engine's rules change (the logs then no longer replay: the test says so).

import { join } from "node:path";
import { chromium } from "../browser/node_modules/playwright-core/index.mjs";

const [, , out, dir] = process.argv;

// The games: the page, the seats, the variants ticked, the seed, and how many clicks a
// person makes before the log is downloaded (`null`: to the end).
const GAMES = [
  { file: "safari-two-people.json", game: "gamewright-safari", seats: ["person", "person"], seed: 11 },
  { file: "safari-vs-greedy.json", game: "gamewright-safari", seats: ["person", "greedy"], seed: 12 },
  { file: "safari-diagonal.json", game: "gamewright-safari", seats: ["person", "person"], seed: 13, variants: ["diagonal"] },
  { file: "diceafari-two-people.json", game: "diceafari", seats: ["person", "person"], seed: 21 },
  { file: "diceafari-three-people.json", game: "diceafari", seats: ["person", "person", "person"], seed: 22 },
  { file: "diceafari-left-early.json", game: "diceafari", seats: ["person", "person"], seed: 23, clicks: 12 },
  { file: "tricky-two-people.json", game: "tricky-safari", seats: ["person", "person"], seed: 31 },
  { file: "tricky-vs-greedy.json", game: "tricky-safari", seats: ["person", "greedy"], seed: 32 },
];

// A seeded choice, so that a run clicks the same games.
let state = 4242;
const pick = (n) => {
  state = (state * 1103515245 + 12345) % 2147483648;
  return state % n;
};

async function settled(page) {
  await page.waitForFunction(() => {
    const status = document.querySelector("#status")?.textContent || "";
    return !status.includes("thinking") && document.querySelector("#app")?.getAttribute("aria-busy") !== "true";
  });
}

// A person's decision at DiceAFARI: a photo when one is lit (or none), a lit tile for the
// Bonus, else most often one lit tile claimed (any die showing its terrain claims it), now and
// then a die re-rolled.
async function diceafari(page) {
  const photos = await page.$$(".safari-map .photo.playable");
  if (photos.length) return photos[pick(photos.length)].click();
  const none = await page.$("[data-action=no_photo]");
  if (none) return none.click();
  const claim = await page.$("[data-action=claim]");
  const reroll = await page.$("[data-action=reroll]");
  const tiles = await page.$$(".safari-map .tile.playable");
  if (!claim && !reroll) return tiles[pick(tiles.length)].click();
  if (reroll && (!claim || pick(4) === 0)) {
    const dice = await page.$$(".dice .die.playable");
    await dice[pick(dice.length)].click();
    return page.click("[data-action=reroll]");
  }
  await tiles[pick(tiles.length)].click();
  return page.click("[data-action=claim]");
}

// A person's decision at Gamewright's Safari or Tricky Safari: a lit card or cell, a Safari
// Charlie a selected card may be traded for, or the one button offered.
async function cardsOrBoard(page) {
  const target = await page.$$(".jungle .card.charlie.playable");
  if (target.length && (await page.$(".hand .card.selected"))) return target[pick(target.length)].click();
  const lit = await page.$$(".card.playable, .cell.playable");
  if (lit.length) return lit[pick(lit.length)].click();
  const only = await page.$("[data-action=charlie], [data-action=pass]");
  if (!only) throw new Error(`nothing to click:\n${await page.textContent("#app")}`);
  return only.click();
}

async function play(context, game) {
  const problems = [];
  const page = await context.newPage();
  page.on("console", (message) => problems.push(`console ${message.type()}: ${message.text()}`));
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
  await page.goto(`file://${join(out, game.game, "play", "index.html")}`);
  await page.waitForSelector("#table .jungle, #table .board, #table .safari-map");
  await page.selectOption("#pace", "instant");
  await page.click("[data-action=new]");
  await page.selectOption("select[name=players]", String(game.seats.length));
  for (const [seat, who] of game.seats.entries()) await page.selectOption(`select[name=seat-${seat}]`, who);
  for (const variant of game.variants || []) await page.check(`input[name="variant-${variant}"]`);
  await page.fill("input[name=seed]", String(game.seed));
  await page.click("[data-action=start]");
  let clicks = 0;
  for (let step = 0; step < 2000 && clicks !== game.clicks; step++) {
    await settled(page);
    if (await page.$("[data-over]")) break;
    if (await page.$("[data-action=reveal]")) {
      await page.click("[data-action=reveal]");
      continue;
    }
    await ((await page.$(".diceafari")) ? diceafari(page) : cardsOrBoard(page));
    clicks += 1;
  }
  await settled(page);
  const [saved] = await Promise.all([page.waitForEvent("download"), page.click("[data-action=save]")]);
  await saved.saveAs(join(dir, game.file));
  await page.close();
  if (problems.length) throw new Error(`${game.file}:\n${problems.join("\n")}`);
  console.log(`${game.file}: ${clicks} clicks`);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--host-resolver-rules=MAP * ~NOTFOUND"],
});
try {
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 1000 } });
  for (const game of GAMES) await play(context, game);
} finally {
  await browser.close();
}
