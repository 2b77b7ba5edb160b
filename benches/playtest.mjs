// The playtest page's speed: how soon it is usable in Chromium, and how long its WebAssembly
// engine takes to decide for a bot and to play a bot's whole turn (docs/performance.md).
//
//   cd tests/browser && npm ci && cd ../..
//   cargo run --release -- build
//   node benches/playtest.mjs out/safari-zone/play/index.html [games]
//
// The engine is timed in Node (the same WebAssembly, V8 as in Chromium) through the page's
// own protocol: each "bot" request replays the game to the decision, lets the bot decide and
// answers with the state past what the page holds (`known`), as at every bot move the page
// makes; the time includes reading the answer's JSON. Prints medians and 95th percentiles, in milliseconds.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { gunzipSync } from "node:zlib";
import { performance } from "node:perf_hooks";

const [, , pageFile, gamesArg] = process.argv;
if (!pageFile) {
  console.error("usage: node benches/playtest.mjs PAGE [games]");
  process.exit(2);
}
const games = Number(gamesArg || 20);
const html = readFileSync(pageFile, "utf8");
const script = (id) => html.match(new RegExp(`<script id="${id}"[^>]*>([^<]*)</script>`))[1];
const wasm = gunzipSync(Buffer.from(script("engine").trim(), "base64"));
const ruleset = script("ruleset").replace(/\\u003c/g, "<");

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const summary = (values) =>
  `median ${quantile(values, 0.5).toFixed(2)}, p95 ${quantile(values, 0.95).toFixed(2)}, max ${Math.max(...values).toFixed(2)} (${values.length})`;

async function engine() {
  const { instance } = await WebAssembly.instantiate(wasm, {});
  const e = instance.exports;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  return (request) => {
    const bytes = encoder.encode(JSON.stringify(request));
    const at = e.safari_alloc(bytes.length);
    new Uint8Array(e.memory.buffer, at, bytes.length).set(bytes);
    const length = e.safari_call();
    const answer = JSON.parse(decoder.decode(new Uint8Array(e.memory.buffer, e.safari_answer_ptr(), length)));
    if (answer.error) throw new Error(answer.error.message);
    return answer.ok;
  };
}

// Bot decisions and whole bot turns of `policy`, in games of `players` bots.
async function bots(policy, players, count) {
  const call = await engine();
  call({ op: "open", ruleset });
  const decisions = [];
  const turns = [];
  let first = null;
  for (let game = 0; game < count; game++) {
    let state = call({ op: "start", seats: Array(players).fill({ bot: policy }), seed: 1000 + game });
    let events = state.events.length;
    let actions = state.actions.length;
    let turnStarted = performance.now();
    let turnSeat = state.deciding?.seat;
    let turnCount = state.players.map((p) => p.turns_taken);
    while (state.deciding) {
      const started = performance.now();
      state = call({ op: "bot", known: { events, actions } });
      const took = performance.now() - started;
      events = state.events_from + state.events.length;
      actions = state.actions_from + state.actions.length;
      if (first === null) first = took;
      else decisions.push(took);
      const now = state.players.map((p) => p.turns_taken);
      if (!state.deciding || state.deciding.seat !== turnSeat || now[turnSeat] !== turnCount[turnSeat]) {
        turns.push(performance.now() - turnStarted);
        turnStarted = performance.now();
        turnSeat = state.deciding?.seat;
        turnCount = now;
      }
    }
  }
  return { decisions, turns, first };
}

async function ready(runs) {
  const { chromium } = await import(createRequire(import.meta.url).resolve("../tests/browser/node_modules/playwright-core/index.mjs"));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
  });
  const times = [];
  for (let run = 0; run < runs; run++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const started = performance.now();
    await page.goto(`file://${new URL(pageFile, `file://${process.cwd()}/`).pathname}`);
    await page.waitForSelector('#app[data-state="playing"]');
    times.push(performance.now() - started);
    await context.close();
  }
  await browser.close();
  return times;
}

console.log(`page: ${(html.length / 1048576).toFixed(2)} MB; engine: ${(wasm.length / 1048576).toFixed(2)} MB of WebAssembly`);
console.log(`usable after opening (Chromium, ms): ${summary(await ready(10))}`);
for (const [policy, players, count] of [["expected", 1, games], ["expected", 4, Math.max(1, games / 4)], ["search", 1, 1]]) {
  const { decisions, turns, first } = await bots(policy, players, count);
  console.log(`${policy}, ${players} player(s), ${count} game(s): first decision ${first.toFixed(1)} ms; a decision: ${summary(decisions)}; a whole turn: ${summary(turns)}`);
}
