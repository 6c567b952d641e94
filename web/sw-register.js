// Registers the offline service worker (sw.js) and offers a reload when a new build of the
// site is ready. Independent of the game: without service workers (an old browser, a page
// not served over HTTPS or from localhost) the game simply needs the network.
//
// Hooks: <html data-offline="ready"> once a build is cached for offline play; the banner
// [data-update] with its button [data-update-reload] when a new build waits.

import { onLanguage, t } from "./i18n.js";

const CHECK_EVERY_MS = 60 * 60 * 1000; // long-lived tabs look for a new build hourly

let reloading = false;
let waiting = null; // the new build's worker, once installed

function showUpdate(worker) {
  waiting = worker;
  let banner = document.querySelector("[data-update]");
  if (!banner) {
    banner = document.createElement("p");
    banner.className = "notice update";
    banner.dataset.update = "";
    banner.setAttribute("role", "status");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "btn btn-primary";
    button.dataset.updateReload = "";
    button.addEventListener("click", () => {
      // The game is saved after every turn, so the reload brings the same position back.
      button.disabled = true;
      reloading = true;
      waiting.postMessage({ type: "skip_waiting" });
    });
    banner.append(document.createElement("span"), " ", button);
    const header = document.querySelector("header");
    if (header) header.after(banner);
    else document.body.prepend(banner);
  }
  wordUpdate(banner);
  banner.querySelector("[data-update-reload]").disabled = false;
  banner.hidden = false;
}

function wordUpdate(banner) {
  banner.querySelector("span").textContent = t("update.available");
  banner.querySelector("[data-update-reload]").textContent = t("update.reload");
}

onLanguage(() => {
  const banner = document.querySelector("[data-update]");
  if (banner) wordUpdate(banner);
});

async function register() {
  if (!("serviceWorker" in navigator)) return;
  // A guest at a friend's table (#join=…) plays online and runs no engine: the offline copy
  // would download the Python runtime it never uses.
  if (location.hash.startsWith("#join=")) return;
  const container = navigator.serviceWorker;
  let controller = container.controller;
  container.addEventListener("controllerchange", () => {
    // A new build took over (here or in another tab): files of the old one must not mix in.
    // The first build taking control of the page of the first visit changes nothing.
    const previous = controller;
    controller = container.controller;
    if (previous || reloading) location.reload();
  });
  let registration;
  try {
    // updateViaCache "none": look for a new sw.js past the HTTP cache (Pages caches 10 min).
    registration = await container.register(new URL("./sw.js", import.meta.url),
      { updateViaCache: "none" });
  } catch (error) {
    console.warn("offline play is not available:", error?.message ?? error);
    return;
  }
  if (!registration) return; // registration blocked (as by a test browser)
  const offer = (worker) => {
    if (worker && container.controller) showUpdate(worker);
  };
  offer(registration.waiting);
  registration.addEventListener("updatefound", () => {
    const worker = registration.installing;
    worker?.addEventListener("statechange", () => {
      if (worker.state === "installed") offer(worker);
    });
  });
  container.ready.then(() => {
    document.documentElement.dataset.offline = "ready";
    // Ask the browser not to evict the cache under storage pressure (never prompts).
    navigator.storage?.persist?.().catch(() => {});
  });
  const check = () => registration.update().catch(() => {}); // offline: try again later
  setInterval(check, CHECK_EVERY_MS);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") check();
  });
}

// On a first visit the precache takes the runtime from the HTTP cache and downloads the
// snapshot that later visits start from; starting it only once the table is playable keeps
// it from competing with the boot for the network and the CPU. "Playable" is said before the
// table's first frame is drawn, so the service worker waits a moment more (on every visit:
// its script's evaluation and update check are work the first frame need not wait for).
function whenEngineSettled() {
  const root = document.documentElement;
  const settled = () => ["ready", "error"].includes(root.dataset.engineState);
  if (navigator.serviceWorker?.controller || settled()) return Promise.resolve();
  return new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (settled()) {
        observer.disconnect();
        resolve();
      }
    });
    observer.observe(root, { attributes: true, attributeFilter: ["data-engine-state"] });
  });
}

const AFTER_SETTLED_MS = 1000;

whenEngineSettled()
  .then(() => new Promise((resolve) => setTimeout(resolve, AFTER_SETTLED_MS)))
  .then(register);
