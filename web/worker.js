// The engine's module worker: boots Pyodide once, installs the engine wheel, then hands each
// request string to calypso_core.table.handle and posts its reply string back.
// Python owns the protocol; this file only moves strings and reports how loading went.
//
// Worker -> page messages: a reply is a JSON string; anything else is an object,
//   {type: "progress", stage: "runtime" | "engine" | "ready", fraction, received, expected}
//                                             (received of expected: bytes of the big files)
//   {type: "fatal", error: {code, message}}   (loading failed; nothing will work)
//   {type: "crashed", error: {code, message}} (the runtime broke; the worker closes, and the
//                                              page's client starts another)
//   {type: "stats", wasm_bytes, python_objects, start} (the answer to the page's
//                                              {type: "stats"}; start is "snapshot" or "plain")
//
// handle() is synchronous, so a long request delays the ones queued behind it. That is fine
// while requests are short; a cancellable search will need an async handler.
// After a crash the worker closes; messages still queued behind the request are dropped with
// it, and the client sends them again to the next worker.

const here = (path) => new URL(path, import.meta.url).href;

// The runtime's standard library as build.py trims it to what the game imports, and the
// whole one beside it, fetched only if something imports a module the first one lacks. The
// first is compiled (buildsteps/bytecode.py): a stored zip that travels gzipped whole, as
// STDLIB_PACKED, and is unzipped on its way to Pyodide, which asks for STDLIB.
const STDLIB = "pyodide/python_stdlib_game.zip";
const STDLIB_PACKED = `${STDLIB}.gz`;
const STDLIB_FULL = "pyodide/python_stdlib.zip";

class BootError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

// -- progress -------------------------------------------------------------------------------
// The bar follows the bytes of the big files (the runtime's .wasm and standard library, the
// engine wheel, the snapshot when one is used) against their sizes in the build manifest:
// the bytes of the files, which a host that compresses them sends in fewer bytes. Starting
// Python and the engine after the last byte take the rest of the bar.
const DOWNLOAD_SHARE = 0.9;
const PROGRESS_EVERY_MS = 250; // while bytes arrive; each message redraws the loading screen
const loading = {
  stage: "runtime",
  sizes: new Map(), // url -> the file's size in the manifest, for the files counted
  received: new Map(), // url -> bytes of it received so far (the most, if loaded twice)
  postedAt: 0, // when the last progress message went
  fraction: 0, // of the bar; bytes set it while the runtime loads, later stages more
};

function bytesReceived() {
  let sum = 0;
  for (const n of loading.received.values()) sum += n;
  return sum;
}

function bytesExpected() {
  let sum = 0;
  for (const n of loading.sizes.values()) sum += n;
  return sum;
}

// Says where loading is; without a fraction, bytes move the bar during the "runtime" stage.
function progress(stage, fraction = null) {
  const received = bytesReceived();
  const expected = bytesExpected();
  if (fraction !== null) loading.fraction = fraction;
  else if (stage === "runtime" && expected) loading.fraction = DOWNLOAD_SHARE * Math.min(1, received / expected);
  loading.stage = stage;
  loading.postedAt = performance.now();
  postMessage({ type: "progress", stage, fraction: loading.fraction, received, expected });
}

// Counts these files (paths in the manifest) when they load, whoever fetches them.
function countFiles(info, paths) {
  for (const path of paths) loading.sizes.set(here(path), info.files[path] ?? 0);
}

// The response with its body counted as it streams through; its arrival (linkOrder) is
// said when its last byte has passed, at once when there is nothing to count.
function counted(response, url) {
  if (!loading.sizes.has(url) || !response.ok || !response.body) {
    arrival(url).resolve();
    return response;
  }
  let received = 0;
  const count = (n) => {
    received += n;
    if (received > (loading.received.get(url) ?? 0)) loading.received.set(url, received);
    if (performance.now() - loading.postedAt >= PROGRESS_EVERY_MS) progress(loading.stage);
  };
  const counter = new TransformStream({
    transform(chunk, controller) {
      count(chunk.byteLength);
      controller.enqueue(chunk);
    },
    flush() {
      arrival(url).resolve();
      progress(loading.stage); // a file complete: always said
    },
  });
  const { status, statusText, headers } = response;
  return new Response(response.body.pipeThrough(counter), { status, statusText, headers });
}

// -- the link's order ------------------------------------------------------------------------
// Python's start needs the .wasm compiled and instantiated, then the standard library; the
// wheel only once Python is up. loadPyodide asks for the standard library before the .wasm,
// and the worker for the wheel before both: sharing the link with them, the .wasm's last byte
// came last, at 4.4 s at 10 Mbit/s, and Python waited for its compiling. Asked for in the
// order they are needed, each once the one before it is in (the .wasm, the standard library,
// the wheel), the .wasm is in at 3.7 s and instantiated 0.1 s later, and the standard library
// follows it at once (bench/timeline.py --link slow).
const arrived = new Map(); // url -> {promise, resolve}: all its bytes are in (or it failed)

function arrival(url) {
  if (!arrived.has(url)) {
    let resolve = () => {};
    const promise = new Promise((go) => {
      resolve = () => go(undefined);
    });
    arrived.set(url, { promise, resolve });
  }
  return arrived.get(url);
}

// The file each of these waits for before it is asked for: a url for a url.
function linkOrder(info) {
  return new Map([
    [here(STDLIB_PACKED), here("pyodide/pyodide.asm.wasm")],
    [here(info.engine_wheel), here(STDLIB_PACKED)],
  ]);
}

// A file build.py gzipped whole, as the bytes it holds (with no length: that was the link's).
function gunzipped(response) {
  if (!response.ok || !response.body) return response;
  const { status, statusText } = response;
  return new Response(response.body.pipeThrough(new DecompressionStream("gzip")),
    { status, statusText, headers: { "content-type": "application/zip" } });
}

// Pyodide fetches the runtime's files itself: check and count them on the way, and ask for
// each only once the one it comes after is in (a map as linkOrder's), during the boot only.
async function withCountedFetch(after, action) {
  const plainFetch = globalThis.fetch;
  globalThis.fetch = async (resource, options) => {
    let url = new URL(resource instanceof Request ? resource.url : resource, location.href).href;
    const packed = url === here(STDLIB); // Pyodide asks for the zip; the link carries it gzipped
    if (packed) resource = url = here(STDLIB_PACKED);
    if (after.has(url)) await arrival(after.get(url)).promise;
    let response;
    try {
      response = await plainFetch(resource, options);
    } catch (err) {
      arrival(url).resolve(); // nothing more will come: the next one need not wait
      throw err;
    }
    checkRuntimeResponse(response, url);
    return packed ? gunzipped(counted(response, url)) : counted(response, url);
  };
  try {
    return await action();
  } finally {
    globalThis.fetch = plainFetch;
  }
}

// -- loading --------------------------------------------------------------------------------

// Turns a failed step into a BootError that names the step; keeps one already named.
async function step(code, what, action) {
  try {
    return await action();
  } catch (err) {
    if (err instanceof BootError) throw err;
    throw new BootError(code, `${what}: ${err?.message ?? err}`);
  }
}

async function fetchJson(path) {
  const response = await fetch(here(path), { cache: "no-cache" });
  if (!response.ok) throw new Error(`${here(path)}: HTTP ${response.status}`);
  return response.json();
}

// loadPyodide hangs instead of failing when one of these is missing or the .wasm has the
// wrong MIME type: the responses it fetches are looked at on their way (no request of their
// own), and a bad one fails the start at once.
const RUNTIME_TYPES = {
  "pyodide/pyodide.asm.wasm": "application/wasm",
  [STDLIB_PACKED]: "",
  "pyodide/pyodide-lock.json": "",
};
let runtimeIsBroken;
const runtimeBroken = new Promise((_, reject) => {
  runtimeIsBroken = (message) =>
    reject(new BootError("runtime_missing", `the Pyodide runtime is not all there: ${message}`));
});
runtimeBroken.catch(() => {}); // raced against each start; unobserved otherwise

function checkRuntimeResponse(response, url) {
  const path = Object.keys(RUNTIME_TYPES).find((name) => here(name) === url);
  if (path === undefined) return;
  const served = response.headers.get("content-type") ?? "none";
  if (!response.ok) runtimeIsBroken(`${url}: HTTP ${response.status}`);
  else if (!served.startsWith(RUNTIME_TYPES[path])) {
    runtimeIsBroken(`${url} is served as ${served}, not ${RUNTIME_TYPES[path]}`);
  }
}

// The engine wheel's files, fetched and unzipped while the runtime loads: build.py compiles
// the wheel and gzips it whole.
function fetchWheel(info) {
  const url = here(info.engine_wheel);
  return step("engine_install_failed", `cannot load the engine wheel ${url}`, async () => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`the file is missing (HTTP ${response.status})`);
    return wheelFiles(new Uint8Array(await gunzipped(response).arrayBuffer()));
  });
}

// A wheel is a zip file: its files as [name, bytes], read by its central directory and
// inflated by the browser. Done here rather than by Pyodide's unpackArchive, whose Python
// unzips on the worker's critical path (0.03 s after a plain start, 0.13-0.18 s just after a
// snapshot's restore, under Node); build.py writes the wheel (UTF-8 names, no comment).
async function wheelFiles(zip) {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const end = zip.length - 22; // the end record, with no comment after it
  if (end < 0 || view.getUint32(end, true) !== 0x06054b50) throw new Error("the wheel is not a zip file");
  const names = new TextDecoder("utf-8", { fatal: true });
  const inflated = [];
  let at = view.getUint32(end + 16, true); // the central directory
  for (let left = view.getUint16(end + 10, true); left > 0; left -= 1) {
    if (view.getUint32(at, true) !== 0x02014b50) throw new Error("the wheel's directory is damaged");
    const method = view.getUint16(at + 10, true);
    const size = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const name = names.decode(zip.subarray(at + 46, at + 46 + nameLength));
    const local = view.getUint32(at + 42, true);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const data = zip.subarray(start, start + size);
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    if (name.startsWith("/") || name.split("/").includes("..")) throw new Error(`the wheel names ${name}`);
    if (method !== 0 && method !== 8) throw new Error(`${name} is packed by method ${method}`);
    const inflate = async () => (method === 0 ? data : new Uint8Array(await new Response(
      new Blob([data]).stream().pipeThrough(new DecompressionStream("deflate-raw"))).arrayBuffer()));
    inflated.push(inflate().then((bytes) => [name, bytes]));
  }
  return Promise.all(inflated);
}

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

// The offline copy's entry for the snapshot is build.py's memory image of the runtime with
// the engine imported (gzipped), which the service worker keeps after a first visit; or, once
// that could not be used here (damaged, another build's, or not restorable: Pyodide issue
// #6254), an image this worker made itself on the plain start that followed, marked MADE_HERE
// with its sha256; or, once such an image failed too, MADE_HERE "none": plain starts until
// the next build. Never from the network: on a first visit its download would cost more time
// than restoring it saves.
const MADE_HERE = "x-calypso-made-here";

// The entry, {found, made: "build" | "here"}, or null when there is none to use.
async function cachedSnapshot(info) {
  if (!info.snapshot || !globalThis.caches) return null;
  const found = await caches.match(here(info.snapshot)).catch(() => null); // storage may fail
  const made = found?.headers.get(MADE_HERE);
  if (!found || made === "none") return null;
  return { found, made: made ? "here" : "build" };
}

// The image itself, read, checked and unzipped; throws when the one found is not this
// build's (or not the one made here). loadPyodide is handed this as a promise and sets the
// runtime up meanwhile (its script, its .wasm from the offline copy): unzipping 30 MB is a few
// hundred milliseconds.
async function unpackSnapshot(info, { found, made }) {
  const url = here(info.snapshot);
  countFiles(info, [info.snapshot]);
  const packed = await counted(found, url).arrayBuffer();
  mark("snapshot-read");
  const expected = made === "here" ? found.headers.get(MADE_HERE) : info.snapshot_sha256;
  if (hex(await crypto.subtle.digest("SHA-256", packed)) !== expected) {
    throw new Error(`${url} is not this build's snapshot`);
  }
  mark("snapshot-checked");
  const unzipped = new Blob([packed]).stream().pipeThrough(new DecompressionStream("gzip"));
  const image = new Uint8Array(await new Response(unzipped).arrayBuffer());
  mark("snapshot-unzipped");
  return image;
}

// Puts in the offline copy, in place of a snapshot that could not be used, the image this
// worker made (gzipped, its sha256 in MADE_HERE), or "none" when there is none (an image made
// here failed too, or making one failed). Done once the table is playable; a failure to store
// it only leaves the next visit a plain start.
async function replaceSnapshot(info, image) {
  const url = here(info.snapshot);
  let response = new Response(null, { headers: { [MADE_HERE]: "none" } });
  if (image) {
    const packed = await new Response(new Blob([image]).stream()
      .pipeThrough(new CompressionStream("gzip"))).arrayBuffer();
    const digest = hex(await crypto.subtle.digest("SHA-256", packed));
    response = new Response(packed, { headers: { [MADE_HERE]: digest } });
  }
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    if (await cache.match(url)) await cache.put(url, response);
  }
}

// When the .wasm does not compile, Pyodide only warns (the message, then the error) and
// never settles: listen for that warning to fail instead of hanging. With makeSnapshot, the
// runtime can image itself (Pyodide's private option, as build.py's snapshot maker uses it).
function startRuntime(loadPyodide, snapshot = null, makeSnapshot = false) {
  const warn = console.warn;
  let failing = false;
  return new Promise((resolve, reject) => {
    console.warn = (...args) => {
      warn.apply(console, args);
      if (failing) reject(new Error(`pyodide.asm.wasm did not compile: ${args[0]?.message ?? args[0]}`));
      failing ||= args[0] === "wasm instantiation failed!";
    };
    const options = {
      indexURL: here("pyodide/"),
      stdLibURL: here(STDLIB),
      // Called as Python's start begins, the .wasm instantiated (before the standard library is
      // awaited): the moment the link order aims at, for bench/timeline.py.
      fsInit: () => mark("instantiated"),
    };
    if (snapshot) options._loadSnapshot = snapshot; // Pyodide's private snapshot option
    if (makeSnapshot) options._makeSnapshot = true;
    Promise.race([loadPyodide(options), runtimeBroken]).then(resolve, reject);
  }).finally(() => {
    console.warn = warn;
  });
}

// A module the trimmed standard library lacks is found in the whole one (build.py puts the
// finder, boot/stdlib_fallback.py, into the trimmed zip): at the first such import the whole
// zip is fetched, synchronously since an import cannot wait otherwise (a worker may), and
// written where the finder looks. A missing module costs that download, never the game.
function installStdlibFallback(pyodide) {
  const url = here(STDLIB_FULL);
  const mount = (name, path) => {
    console.warn(`Calypso: ${name} is not in the game's standard library: loading ${url}`);
    const request = new XMLHttpRequest();
    request.open("GET", url, false);
    request.responseType = "arraybuffer";
    request.send();
    if (request.status !== 200) throw new Error(`${url}: HTTP ${request.status}`);
    pyodide.FS.writeFile(path, new Uint8Array(request.response));
  };
  const fallback = pyodide.pyimport("calypso_stdlib_fallback");
  fallback.install(mount).destroy();
  fallback.destroy();
}

// The engine goes into site-packages, where build.py's snapshot maker had micropip install
// it: writing the wheel's files there installs it as micropip would, without loading micropip
// (over a second on a first visit). After a snapshot it restores the files for later reads.
// With keep, the runtime images itself first, as build.py's snapshot is made (the modules it
// names imported, nothing of JavaScript held), and hands keep the image (null if it failed).
function importEngine(pyodide, info, wheel, keep = null) {
  for (const [name, bytes] of wheel) {
    const path = `${info.engine_site}/${name}`;
    pyodide.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    if (!name.endsWith("/")) pyodide.FS.writeFile(path, bytes);
  }
  // The finder that listed site-packages before the wheel went in is dropped, so a new one
  // lists it again; importlib.invalidate_caches() would do that too, but it imports
  // importlib.metadata (to clear that module's caches), a tenth of a second of a first visit.
  pyodide.runPython(`import sys\nsys.path_importer_cache.pop(${JSON.stringify(info.engine_site)}, None)`);
  if (keep) {
    try {
      pyodide.runPython(`import ${info.snapshot_modules.join(", ")}`);
      keep(pyodide.makeMemorySnapshot());
    } catch (err) {
      console.warn(`Calypso: no runtime snapshot made: ${err?.message ?? err}`);
      keep(null);
    }
  }
  installStdlibFallback(pyodide); // holds a JavaScript function: after any image
  return pyodide.pyimport("calypso_core.table");
}

// The runtime restored from the snapshot (a promise of the image) with the engine in it; any
// failure is the caller's.
async function startFromSnapshot(loadPyodide, snapshot, info, wheel) {
  const pyodide = await startRuntime(loadPyodide, snapshot);
  mark("runtime");
  // The image was made with fixed entropy: give `random` a fresh seed, as a start would.
  pyodide.runPython("import random\nrandom.seed()");
  progress("engine", 0.95);
  const files = await wheel;
  mark("wheel");
  return [pyodide, importEngine(pyodide, info, files)];
}

// Marks each phase of the boot in the worker's performance timeline (bench/timeline.py reads
// them beside the requests' Resource Timing).
const mark = (phase) => performance.mark(`calypso:${phase}`);

async function boot() {
  mark("worker");
  progress("runtime", 0);
  // The manifest and the runtime's loader, both at once: one round trip.
  const manifest = step("build_info_missing", "cannot read the build manifest",
    () => fetchJson("build-info.json"));
  const loader = step("runtime_missing", "cannot load the Pyodide runtime",
    () => import(here("pyodide/pyodide.mjs")));
  loader.catch(() => {}); // a failure is handled where it is awaited
  const info = await manifest;
  countFiles(info, ["pyodide/pyodide.asm.wasm", STDLIB_PACKED, info.engine_wheel]);
  const cached = await cachedSnapshot(info);
  // The offline copy's snapshot is read, checked and unzipped while the loader comes.
  const image = cached ? unpackSnapshot(info, cached) : null;
  image?.catch(() => {}); // a failure is handled where loadPyodide awaits it
  const { loadPyodide } = await loader;
  mark("loader");
  // The offline copy serves the files at once: there the order would only make them wait.
  return withCountedFetch(cached ? new Map() : linkOrder(info), async () => {
    const wheel = fetchWheel(info); // on a first visit, once the standard library is in
    wheel.catch(() => {}); // a failure is handled where it is awaited
    let started = null;
    try {
      if (image) started = await startFromSnapshot(loadPyodide, image, info, wheel);
      if (started) start = "snapshot";
    } catch (err) {
      if (err instanceof BootError) throw err;
      // A damaged or foreign snapshot, or one that fails to restore, costs time, not the game:
      // a plain start, which makes this runtime's own image for the next visit (once: if an
      // image made here fails, the next visits start plainly).
      console.warn(`Calypso: starting without the runtime snapshot: ${err?.message ?? err}`);
    }
    if (!started) {
      const remake = cached?.made === "build";
      progress("runtime");
      const pyodide = await step("runtime_failed", "the Pyodide runtime failed to start",
        () => startRuntime(loadPyodide, null, remake));
      mark("runtime");
      progress("engine", 0.95);
      const files = await wheel;
      mark("wheel");
      let made = null;
      started = [pyodide, await step("engine_import_failed", "cannot import calypso_core.table",
        () => importEngine(pyodide, info, files, remake ? (snapshot) => { made = snapshot; } : null))];
      if (cached) replacing = { info, made };
    }
    const [pyodide, protocol] = started;
    const handle = protocol.handle.copy(); // kept for the worker's lifetime
    protocol.destroy();
    runtime = pyodide;
    mark("engine");
    progress("ready", 1);
    return handle;
  });
}

let runtime = null; // the Pyodide instance, for stats
let start = "plain"; // how the runtime started: "snapshot" or "plain"
let replacing = null; // {info, made}: a snapshot that failed, to replace once the table plays

// Memory figures for leak checks: the WebAssembly heap (it only ever grows) and how many
// objects Python tracks after a full collection.
function stats() {
  const objects = runtime.runPython("import gc\ngc.collect()\nlen(gc.get_objects())");
  const wasmBytes = runtime._module?.HEAPU8?.byteLength ?? null; // internal: null if it moves
  return { type: "stats", wasm_bytes: wasmBytes, python_objects: objects, start };
}

let fatal = null;
const booted = boot().catch((err) => {
  fatal = { code: err.code ?? "boot_failed", message: err.message ?? String(err) };
  postMessage({ type: "fatal", error: fatal });
  return null;
});
// A snapshot that could not be used is replaced once the engine answers (zipping the new one
// runs beside the first requests, off this thread's way).
booted.then(() => {
  if (!replacing) return;
  const { info, made } = replacing;
  replacing = null;
  replaceSnapshot(info, made).catch((err) => {
    console.warn(`Calypso: the runtime snapshot was not replaced: ${err?.message ?? err}`);
  });
});

// The id a refusal carries, so that the page's client can match it to its request: a text
// or a whole number, as the protocol allows; null when none can be read (the client then
// takes the reply for its oldest request: this worker answers in order).
function idOf(request) {
  let id = request?.id;
  if (typeof request === "string") {
    try {
      id = JSON.parse(request)?.id;
    } catch {
      id = null; // the id of malformed JSON is unknown
    }
  }
  return typeof id === "string" || Number.isSafeInteger(id) ? id : null;
}

function replyError(request, code, message) {
  postMessage(JSON.stringify({ id: idOf(request), ok: false, error: { code, message } }));
}

addEventListener("message", async (event) => {
  const handle = await booted;
  const request = event.data;
  if (request?.type === "stats") {
    // Answered as the object it asked for, never as a reply the client might take for its own.
    postMessage(handle ? stats() : { type: "stats", error: fatal });
  } else if (typeof request !== "string") {
    replyError(request, "bad_request", "requests must be JSON strings");
  } else if (!handle) {
    replyError(request, fatal.code, fatal.message);
  } else {
    try {
      postMessage(handle(request)); // a Python str arrives as a JS string: nothing to destroy
    } catch (err) {
      // handle() answers every request itself, so a throw means the runtime broke (a fatal
      // Pyodide error, a stack overflow, out of memory): nothing here can be trusted again.
      // The page's client starts a new worker, restores the game and resends the request.
      const error = { code: "engine_crashed", message: `the engine broke: ${err.message}` };
      postMessage({ type: "crashed", error });
      close();
    }
  }
});
