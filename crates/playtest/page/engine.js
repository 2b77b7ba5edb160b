// What both playtest pages share, loaded before the page's own script: building elements,
// unpacking what the page holds, the values a ruleset may give a style, and the engine's
// WebAssembly run in a Web Worker, answering requests through one of its entry points
// (`safari_call` for Safari Zone RNW, `safari_family_call` for the family), so that the page
// never waits on it.
"use strict";

const SafariPage = (() => {
  const $ = (selector, root = document) => root.querySelector(selector);
  // An element with attributes, listeners (`onclick`), text and children; `style` is an object
  // of style properties (custom ones too), each set through the DOM, never written as text.
  const el = (tag, attributes = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes)) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key === "style") setStyle(node, value);
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  };

  function setStyle(node, properties) {
    for (const [property, value] of Object.entries(properties)) {
      if (value !== undefined && value !== null) node.style.setProperty(property, String(value));
    }
  }

  // ---- What a ruleset may give a style ------------------------------------------------------

  // `value` if it is a CSS colour and nothing else (`#c62828`, `rgb(0 0 0 / 50%)`, `teal`),
  // else null: no declaration, no reference to anything, no function but colour ones.
  function colour(value) {
    if (typeof value !== "string" || value.length > 64) return null;
    if (!/^[#\w\s(),.%/+-]+$/.test(value) || /(var|env|attr|url|image)\s*\(/i.test(value)) return null;
    return CSS.supports("color", value) ? value : null;
  }

  // `value` if it is a whole number from 0 to `most`, else null.
  const whole = (value, most) => (Number.isSafeInteger(value) && value >= 0 && value <= most ? value : null);

  // ---- What the page holds ------------------------------------------------------------------

  // The bytes of a `<script type="application/gzip+base64">` the page holds.
  async function unpack(id) {
    const text = document.getElementById(id).textContent.trim();
    const bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  }

  // The most a request may carry (a ruleset or a log): the engine's own bound.
  const MOST_BYTES = 16 * 1024 * 1024;

  // ---- The engine, in a Web Worker -----------------------------------------------------------

  // The worker's script (made into a `blob:` URL, which the page's policy allows as a worker
  // and nothing else): it instantiates the module it is sent, then answers each request's text
  // with the answer's text, one request at a time, in the order sent.
  function engineWorker() {
    let engine = null;
    let entry = null;
    const encoder = new TextEncoder();
    const decoder = new TextDecoder();
    self.onmessage = async ({ data }) => {
      if (data.module) {
        try {
          engine = (await WebAssembly.instantiate(data.module, {})).exports;
          entry = data.entry;
          self.postMessage({ ready: true });
        } catch (fault) {
          self.postMessage({ failed: String(fault?.message || fault) });
        }
        return;
      }
      try {
        const bytes = encoder.encode(data.text);
        const at = engine.safari_alloc(bytes.length);
        new Uint8Array(engine.memory.buffer, at, bytes.length).set(bytes);
        const length = engine[entry]();
        const from = engine.safari_answer_ptr();
        self.postMessage({ id: data.id, text: decoder.decode(new Uint8Array(engine.memory.buffer, from, length)) });
      } catch (fault) {
        self.postMessage({ id: data.id, fault: String(fault?.message || fault) });
      }
    };
  }

  function abandoned() {
    const error = new Error("abandoned");
    error.abandoned = true;
    return error;
  }

  // The engine the page holds, started in a worker through `entry`: `call(request)` is a
  // promise of the engine's `ok` answer, or of an Error carrying the engine's message (`fatal`
  // when the engine itself stopped, `abandoned` when the page gave up waiting); `restart()`
  // abandons whatever the engine is doing (a bot's long thought) and starts it afresh, with no
  // ruleset open, resolved once it answers again.
  async function startEngine(entry) {
    const module = await WebAssembly.compile(await unpack("engine"));
    const script = URL.createObjectURL(new Blob([`(${engineWorker})()`], { type: "text/javascript" }));
    const waiting = new Map();
    let worker = null;
    let next = 0;

    function spawn() {
      return new Promise((resolve, reject) => {
        let ready = false;
        worker = new Worker(script);
        worker.onmessage = ({ data }) => {
          if (data.ready) {
            ready = true;
            return resolve();
          }
          if (data.failed) return reject(new Error(data.failed));
          const call = waiting.get(data.id);
          waiting.delete(data.id);
          if (call) answered(call, data);
        };
        // The worker itself failed: before it started, it could not; after, every request
        // waiting on it is answered as the engine stopped.
        worker.onerror = (event) => {
          event.preventDefault();
          const message = event.message || "the engine's worker stopped";
          if (!ready) return reject(new Error(message));
          for (const call of waiting.values()) answered(call, { fault: message });
          waiting.clear();
        };
        worker.postMessage({ module, entry });
      });
    }

    function answered({ resolve, reject }, data) {
      if (data.fault !== undefined) {
        const error = new Error(`the rules engine stopped (${data.fault}); reload the page to go on from your last move`);
        error.fatal = true;
        return reject(error);
      }
      const answer = JSON.parse(data.text);
      if (!answer.error) return resolve(answer.ok);
      const error = new Error(answer.error.message);
      error.path = answer.error.path;
      error.refused = Boolean(answer.error.refused);
      reject(error);
    }

    function call(request) {
      const text = JSON.stringify(request);
      if (text.length > MOST_BYTES) {
        return Promise.reject(new Error(`the file is ${Math.round(text.length / 1048576)} MB; this page reads files of at most 16 MB`));
      }
      return new Promise((resolve, reject) => {
        const id = next++;
        waiting.set(id, { resolve, reject });
        worker.postMessage({ id, text });
      });
    }

    function restart() {
      worker.terminate();
      for (const { reject } of waiting.values()) reject(abandoned());
      waiting.clear();
      return spawn();
    }

    await spawn();
    return { call, restart };
  }

  // ---- One thing at a time ------------------------------------------------------------------

  // Runs tasks one after another, each once the one before has settled, so that two of the
  // page's operations (a click, a bot's move arriving) never interleave their requests and
  // drawing; a failed task does not stop the next. The page is `aria-busy` while any waits.
  function inTurn() {
    let last = Promise.resolve();
    let waiting = 0;
    const busy = () => document.getElementById("app")?.setAttribute("aria-busy", String(waiting > 0));
    return (task) => {
      waiting += 1;
      busy();
      const run = last.then(task);
      last = run.catch(() => {}).then(() => {
        waiting -= 1;
        busy();
      });
      return run;
    };
  }

  // The first bot among `bots` (a stored game's or a log's seats, null for a person) that
  // `offered` (what the page's own menu offers) does not hold, or null when it holds them all.
  function unofferedBot(bots, offered) {
    return bots.find((bot) => bot !== null && !offered.includes(bot)) ?? null;
  }

  // Saves `text` as a file named `name`.
  function download(name, text) {
    const link = el("a", { href: URL.createObjectURL(new Blob([text], { type: "application/json" })), download: name });
    document.body.append(link);
    link.click();
    link.remove();
  }

  return { $, el, unpack, startEngine, inTurn, colour, whole, unofferedBot, download, MOST_BYTES };
})();
