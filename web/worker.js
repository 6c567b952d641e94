// The engine's module worker: boots Pyodide once, installs the engine wheel, then hands each
// request string to calypso_core.table.handle and posts its reply string back.
// Python owns the protocol; this file only moves strings and reports how loading went.
//
// Worker -> page messages: a reply is a JSON string; anything else is an object,
//   {type: "progress", stage: "runtime" | "micropip" | "engine" | "ready", fraction}
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

class BootError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

function progress(stage, fraction) {
  postMessage({ type: "progress", stage, fraction });
}

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

// loadPyodide hangs instead of failing when these are missing or the .wasm has the wrong
// MIME type, so look at them first: HEAD requests on the same origin cost little.
async function checkRuntimeFiles() {
  const types = {
    "pyodide/pyodide.asm.wasm": "application/wasm",
    "pyodide/python_stdlib.zip": "",
    "pyodide/pyodide-lock.json": "",
  };
  await Promise.all(Object.entries(types).map(async ([path, type]) => {
    const response = await fetch(here(path), { method: "HEAD" });
    await response.text(); // empty, but an unread response counts as an aborted request
    const served = response.headers.get("content-type") ?? "none";
    if (!response.ok) throw new Error(`${here(path)}: HTTP ${response.status}`);
    if (!served.startsWith(type)) throw new Error(`${here(path)} is served as ${served}, not ${type}`);
  }));
}

// build.py's memory image of the runtime just after start-up (gzipped): restoring it skips
// Python's own start-up, most of what a bare loadPyodide spends.
async function fetchSnapshot(path) {
  const response = await fetch(here(path));
  if (!response.ok) throw new Error(`${here(path)}: HTTP ${response.status}`);
  const unzipped = response.body.pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(unzipped).arrayBuffer());
}

// When the .wasm does not compile, Pyodide only warns (the message, then the error) and
// never settles: listen for that warning to fail instead of hanging.
function startRuntime(loadPyodide, snapshot = null) {
  const warn = console.warn;
  let failing = false;
  return new Promise((resolve, reject) => {
    console.warn = (...args) => {
      warn.apply(console, args);
      if (failing) reject(new Error(`pyodide.asm.wasm did not compile: ${args[0]?.message ?? args[0]}`));
      failing ||= args[0] === "wasm instantiation failed!";
    };
    const options = { indexURL: here("pyodide/") };
    if (snapshot) options._loadSnapshot = snapshot; // Pyodide's private snapshot option
    loadPyodide(options).then(resolve, reject);
  }).finally(() => {
    console.warn = warn;
  });
}

async function boot() {
  // The fractions roughly follow measured time: the runtime is most of the wait.
  progress("runtime", 0);
  const info = await step("build_info_missing", "cannot read the build manifest",
    () => fetchJson("build-info.json"));
  // The snapshot downloads while the runtime files are checked and the .wasm compiles.
  const snapshot = info.snapshot ? fetchSnapshot(info.snapshot) : null;
  snapshot?.catch(() => {}); // a failure is handled where it is awaited
  await step("runtime_missing", "the Pyodide runtime is not all there", checkRuntimeFiles);
  const { loadPyodide } = await step("runtime_missing", "cannot load the Pyodide runtime",
    () => import(here("pyodide/pyodide.mjs")));
  let pyodide = null;
  if (snapshot) {
    try {
      pyodide = await startRuntime(loadPyodide, snapshot);
      // The image was made with fixed entropy: give `random` a fresh seed, as a start would.
      pyodide.runPython("import random\nrandom.seed()");
      start = "snapshot";
    } catch (err) {
      // A missing, damaged or mismatched snapshot costs time, not the game: start plainly.
      console.warn(`Calypso: starting without the runtime snapshot: ${err?.message ?? err}`);
      pyodide = null;
    }
  }
  pyodide ??= await step("runtime_failed", "the Pyodide runtime failed to start",
    () => startRuntime(loadPyodide));

  progress("micropip", 0.8);
  // Loaded by URL: the stock lockfile's hash is for Pyodide's own micropip build, not ours.
  // loadPackage never throws; it resolves with what it loaded, so check that.
  const problems = [];
  const loaded = await pyodide.loadPackage(here(info.micropip_wheel), {
    messageCallback: () => {},
    errorCallback: (message) => problems.push(message),
  });
  if (!loaded.some((pkg) => pkg.name === "micropip")) {
    throw new BootError("micropip_missing",
      `micropip did not load from ${here(info.micropip_wheel)}: ${problems.join("; ") || "no reason given"}`);
  }

  progress("engine", 0.9);
  const wheelUrl = here(info.engine_wheel);
  try {
    // deps=False: the engine has no dependencies, and nothing may be fetched off-origin.
    await pyodide.runPythonAsync(
      `import micropip\nawait micropip.install(${JSON.stringify(wheelUrl)}, deps=False)`);
  } catch (err) {
    // A missing wheel surfaces as BadZipFile (micropip unzips the 404 page): say what it is.
    const head = await fetch(wheelUrl, { method: "HEAD" }).catch(() => null);
    await head?.text();
    const reason = head?.ok ? err.message : `the file is missing (HTTP ${head?.status ?? "error"})`;
    throw new BootError("engine_install_failed", `cannot install the engine wheel ${wheelUrl}: ${reason}`);
  }
  const protocol = await step("engine_import_failed", "cannot import calypso_core.table",
    () => pyodide.pyimport("calypso_core.table"));
  const handle = protocol.handle.copy(); // kept for the worker's lifetime
  protocol.destroy();
  runtime = pyodide;
  progress("ready", 1);
  return handle;
}

let runtime = null; // the Pyodide instance, for stats
let start = "plain"; // how the runtime started: "snapshot" or "plain"

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
