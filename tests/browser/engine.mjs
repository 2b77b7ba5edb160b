// The engine a playtest page holds, run by Node without a browser, for the scripts that test
// the pages (playtest.mjs, family.mjs): the WebAssembly is taken from the page's `engine`
// element, and each request goes in through one entry point of the engine.

import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";

function engineBytes(page) {
  const html = readFileSync(page, "utf8");
  const match = html.match(/<script id="engine"[^>]*>([^<]*)<\/script>/);
  if (!match) throw new Error("the page holds no engine");
  return gunzipSync(Buffer.from(match[1].trim(), "base64"));
}

// A function from a request's text to the answer's text, through `entry` (`safari_call`,
// `safari_family_call`) of the engine the page holds.
export async function engineOf(page, entry) {
  const { instance } = await WebAssembly.instantiate(engineBytes(page), {});
  const exports = instance.exports;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  return (text) => {
    const bytes = encoder.encode(text);
    const at = exports.safari_alloc(bytes.length);
    new Uint8Array(exports.memory.buffer, at, bytes.length).set(bytes);
    const length = exports[entry]();
    const from = exports.safari_answer_ptr();
    return decoder.decode(new Uint8Array(exports.memory.buffer, from, length));
  };
}

// The request lines of the file `requests` (blank lines left out).
export function requestLines(requests) {
  return readFileSync(requests, "utf8").split("\n").filter((l) => l.trim() !== "");
}
