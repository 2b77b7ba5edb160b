// The playtest page in Debian's Firefox, for tests/playtest.rs: Playwright drives only its own
// build of Firefox, so Puppeteer drives Debian's over WebDriver BiDi.
//
//   node firefox.mjs PAGE DIR
//
// Opens the page from disk, plays twenty decisions by clicks (keeping the dice, lighting and
// clicking a box, encountering, throwing), reloads and looks for the same game, and writes
// `result.json` and screenshots into DIR. Every console message and uncaught error of the page
// is a failure.

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import puppeteer from "puppeteer-core";

const [, , pageFile, dir] = process.argv;
mkdirSync(dir, { recursive: true });
const problems = [];
const browser = await puppeteer.launch({
  browser: "firefox",
  executablePath: process.env.FIREFOX || "/usr/bin/firefox",
  headless: true,
  args: ["--window-size=1440,900"],
});
let result;
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1440, height: 900 });
  page.on("console", (message) => problems.push(`console ${message.type()}: ${message.text()}`));
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
  const started = Date.now();
  await page.goto(`file://${pageFile}`);
  await page.waitForSelector('#app[data-state="playing"]', { timeout: 30000 });
  const ready = Date.now() - started;
  const kinds = [];
  for (let step = 0; step < 20; step++) {
    const kind = await page.$eval("[data-deciding]", (panel) => panel.dataset.deciding).catch(() => null);
    if (!kind) break;
    kinds.push(kind);
    // A click, and the page done with it (the engine answers from a worker).
    const click = async (selector) => {
      await page.click(selector);
      await page.waitForSelector('#app:not([aria-busy="true"])');
    };
    if (kind === "reroll" || kind === "use" || kind === "card") {
      const encounter = await page.$('[data-act="card"].primary');
      await click(encounter ? '[data-act="card"].primary' : '[data-act="stop"]');
    } else if (kind === "track" || kind === "bonus") {
      await click('.mark[data-offered="true"]');
    } else if (kind === "throw") {
      await click('[data-act="throw"]');
    }
  }
  await page.screenshot({ path: join(dir, "firefox-playing.png") });
  const before = await page.$$eval('.mark[data-filled="true"]', (marks) => marks.map((m) => m.dataset.box).sort());
  await page.reload();
  await page.waitForSelector('#app[data-state="playing"]', { timeout: 30000 });
  const after = await page.$$eval('.mark[data-filled="true"]', (marks) => marks.map((m) => m.dataset.box).sort());
  result = { ready_ms: ready, kinds, before, after, message: await page.$eval("#message", (m) => m.textContent) };
} finally {
  await browser.close();
}
writeFileSync(join(dir, "result.json"), JSON.stringify({ result, problems }, null, 1));
