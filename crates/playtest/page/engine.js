// What both playtest pages share, loaded before the page's own script: building elements,
// unpacking what the page holds, and one request to the engine's WebAssembly through one of
// its entry points (`safari_call` for Safari Zone RNW, `safari_family_call` for the family).
"use strict";

const SafariPage = (() => {
  const $ = (selector, root = document) => root.querySelector(selector);
  const el = (tag, attributes = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes)) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  };

  // The bytes of a `<script type="application/gzip+base64">` the page holds.
  async function unpack(id) {
    const text = document.getElementById(id).textContent.trim();
    const bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  }

  // The most a request may carry (a ruleset or a log): the engine's own bound.
  const MOST_BYTES = 16 * 1024 * 1024;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();

  // One request to the engine: its `ok` answer, or an Error carrying the engine's message
  // (`fatal` when the engine itself stopped).
  function call(engine, entry, request) {
    const bytes = encoder.encode(JSON.stringify(request));
    if (bytes.length > MOST_BYTES) {
      throw new Error(`the file is ${Math.round(bytes.length / 1048576)} MB; this page reads files of at most 16 MB`);
    }
    let answer;
    try {
      const at = engine.safari_alloc(bytes.length);
      new Uint8Array(engine.memory.buffer, at, bytes.length).set(bytes);
      const length = engine[entry]();
      const from = engine.safari_answer_ptr();
      answer = JSON.parse(decoder.decode(new Uint8Array(engine.memory.buffer, from, length)));
    } catch (fault) {
      const error = new Error(`the rules engine stopped (${fault.message}); reload the page to go on from your last move`);
      error.fatal = true;
      throw error;
    }
    if (answer.error) {
      const error = new Error(answer.error.message);
      error.path = answer.error.path;
      error.refused = Boolean(answer.error.refused);
      throw error;
    }
    return answer.ok;
  }

  // Saves `text` as a file named `name`.
  function download(name, text) {
    const link = el("a", { href: URL.createObjectURL(new Blob([text], { type: "application/json" })), download: name });
    document.body.append(link);
    link.click();
    link.remove();
  }

  return { $, el, unpack, call, download, MOST_BYTES };
})();
