// The offline service worker: keeps one build of the whole site (Pyodide and the wheels
// included) in one cache and answers from it first, so the game starts without a network.
//
// build.py stamps the three lines below: BUILD, the content hash of the build (as in
// build-info.json); FILES, every file of the build but this one, build-info.json, the whole
// standard library (fetched only if a module is missing) and the files fetched on demand,
// with its sha256; and ON_DEMAND, those files (the puzzles' set), with theirs: a first visit
// never fetches them. The rest of this file is the same for every build.
//
//   install   fetches every file of this build and checks it against its hash
//             (build-info.json against BUILD) before filling this build's cache: a
//             half-deployed site fails the install instead of mixing two versions. The page
//             registers this worker once the table is playable, so on a first visit the
//             runtime is in the HTTP cache already: a file is taken from there if it passes
//             its check, else fetched again past it. What the boot did not load (the runtime
//             snapshot that later visits start from) is all that crosses the network.
//   activate  deletes this scope's caches of other builds and takes control of open pages.
//   fetch     answers the build's own files from this build's cache only; a file fetched on
//             demand is fetched (and checked) the first time it is asked for, then kept in the
//             same cache; anything else goes to the network untouched.
//
// A new build waits while a page uses the old one, until that page asks it to take over
// ({type: "skip_waiting"}, sent by the "new version" button of sw-register.js); pages then
// reload on the change of controller, so a page never runs files of two builds.

const BUILD = "unbuilt";
const FILES = {};
const ON_DEMAND = {};

// This script's global scope, as the type checker knows a service worker's.
const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

const INFO = "build-info.json";
const SCOPE = new URL(worker.registration.scope);
// Caches are per origin; the scope in the name keeps two copies of the site on one origin
// (two project pages of one GitHub user) from deleting each other's caches.
const PREFIX = `calypso ${SCOPE.pathname} `;
const CACHE = PREFIX + BUILD;

const here = (path) => new URL(path, self.location.href).href;

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

class Mismatch extends Error {}

// One file of this build, checked, as a fresh response to cache. Low priority: the person
// is playing while this runs.
/** @param {string} path @param {RequestCache} [cache] */
async function fetchChecked(path, cache = "default") {
  const response = await fetch(new Request(here(path), { cache, priority: "low" }));
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  const body = await response.arrayBuffer();
  try {
    if (path === INFO) {
      const found = JSON.parse(new TextDecoder().decode(body)).build;
      if (found !== BUILD) throw new Mismatch(`${path} is from build ${found}, not ${BUILD}`);
    } else {
      const digest = hex(await crypto.subtle.digest("SHA-256", body));
      if (digest !== (FILES[path] ?? ON_DEMAND[path])) throw new Mismatch(`${path} does not match build ${BUILD}`);
    }
  } catch (error) {
    // The HTTP cache may hold another build's copy (a host lets it keep files for minutes).
    if (error instanceof Mismatch && cache !== "reload") return fetchChecked(path, "reload");
    throw error;
  }
  const { status, statusText, headers } = response;
  return new Response(body, { status, statusText, headers });
}

async function install() {
  if (BUILD === "unbuilt") throw new Error("sw.js was not stamped by build.py");
  try {
    // One file after another, build-info.json first: a torn deploy stops the install at the
    // first bad file, with nothing left downloading.
    /** @type {[string, Response][]} */
    const responses = [];
    for (const path of [INFO, ...Object.keys(FILES)]) responses.push([path, await fetchChecked(path)]);
    const cache = await caches.open(CACHE);
    await Promise.all(responses.map(([path, response]) => cache.put(here(path), response)));
  } catch (error) {
    await caches.delete(CACHE); // no partial cache is left behind; the next visit retries
    throw error;
  }
}

async function removeOtherBuilds() {
  const names = await caches.keys();
  await Promise.all(names
    .filter((name) => name.startsWith(PREFIX) && name !== CACHE)
    .map((name) => caches.delete(name)));
}

async function fromCache(request, path) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(here(path));
  if (!cached && Object.hasOwn(ON_DEMAND, path)) {
    const response = await fetchChecked(path); // asked for at last: kept from now on
    await cache.put(here(path), response.clone());
    return response;
  }
  if (!cached) return fetch(request); // storage was cleared under us: the network still works
  if (request.method === "HEAD") {
    const { status, statusText, headers } = cached;
    return new Response(null, { status, statusText, headers });
  }
  return cached;
}

worker.addEventListener("install", (event) => event.waitUntil(install()));

// Claiming matters on the first visit only (later builds take over by reloading the page):
// from then on that page's requests, such as a restarted engine worker's, come from this
// build's cache rather than from a network that may already serve the next build.
worker.addEventListener("activate", (event) => event.waitUntil(
  removeOtherBuilds().then(() => worker.clients.claim())));

worker.addEventListener("message", (event) => {
  if (event.data?.type === "skip_waiting") worker.skipWaiting();
});

worker.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET" && request.method !== "HEAD") return;
  const url = new URL(request.url);
  if (url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) return;
  // The scope's own URL (with any ?seed=… query) is the page.
  const path = decodeURIComponent(url.pathname.slice(SCOPE.pathname.length)) || "index.html";
  if (path !== INFO && !Object.hasOwn(FILES, path) && !Object.hasOwn(ON_DEMAND, path)) return;
  event.respondWith(fromCache(request, path));
});
