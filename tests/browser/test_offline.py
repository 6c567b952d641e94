"""Offline play and updates: the service worker caches a whole build, the game then boots and
plays with the network gone, and a new build replaces the old one whole, after a prompt.

Both tests serve the site the way GitHub Pages serves a project: under a path ("/calypso/").
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from playwright.sync_api import Page, Response, expect

from .table import SETTLED, TIMEOUT_MS, play_a_card, plays

pytestmark = pytest.mark.browser

Boot = Callable[[Page, str], str]
Serve = Callable[..., tuple[str, Callable[[], None]]]
PREFIX = "/calypso/"
# Settings as the page stores them: random computer players, no animation delays.
FAST_SETTINGS: dict[str, Any] = {"level": "random", "levels": None, "rules": {}, "games": 1,
                 "suit": "random", "speed": "instant"}


def wait_offline_ready(page: Page) -> None:
    page.wait_for_selector("html[data-offline=ready]", state="attached", timeout=TIMEOUT_MS)


def cache_names(page: Page) -> list[str]:
    return list(page.evaluate("caches.keys()"))


def test_after_one_visit_the_game_boots_and_plays_offline_under_a_sub_path(
    page: Page, dist_dir: Path, site_server: Serve, boot: Boot,
    expected_problems: list[re.Pattern[str]],
) -> None:
    url, stop = site_server(dist_dir, prefix=PREFIX)
    assert url.endswith(PREFIX)
    requested: list[str] = []
    page.context.on("request", lambda request: requested.append(request.url))

    assert boot(page, url + "?seed=offline-1&level=random&speed=0") == "ready"
    wait_offline_ready(page)
    info = json.loads((dist_dir / "build-info.json").read_text())
    registration = page.evaluate("""async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        return { scope: registration.scope, script: registration.active.scriptURL };
    }""")
    assert registration == {"scope": url, "script": url + "sw.js"}
    assert cache_names(page) == [f"calypso {PREFIX} {info['build']}"]
    cached = page.evaluate("""async () => {
        const cache = await caches.open((await caches.keys())[0]);
        return (await cache.keys()).map((request) => request.url);
    }""")
    left = ("sw.js", info["stdlib_full"], *info["on_demand"])  # fetched when asked for
    precached = [*(path for path in info["files"] if path not in left), "build-info.json"]
    assert sorted(cached) == sorted(url + path for path in precached)
    # The puzzles' set is no part of a first visit: fetched when the puzzles are opened, and
    # kept then for offline use.
    assert info["on_demand"] == ["puzzles.json"]
    assert url + "puzzles.json" not in requested
    page.click(".bar [data-action=menu]")
    page.click("[data-dialog=menu] [data-action=puzzles]")
    expect(page.locator("[data-puzzle-panel]")).to_have_attribute("data-state", "asking",
                                                                    timeout=TIMEOUT_MS)
    assert url + "puzzles.json" in requested
    assert page.evaluate("""async () => Boolean(await (await caches.open((await caches.keys())[0]))
        .match("puzzles.json"))""")
    page.locator("[data-puzzle-panel]").get_by_role("button", name="Back to the game").click()
    # Every URL is relative: nothing was asked for outside the sub-path.
    assert requested and all(u.startswith(url) for u in requested), [
        u for u in requested if not u.startswith(url)]

    # The installable app: its manifest and icons resolve inside the sub-path.
    manifest = page.evaluate("""async () => {
        const href = document.querySelector("link[rel=manifest]").href;
        const manifest = await (await fetch(href)).json();
        const icons = await Promise.all(manifest.icons.map(async (icon) => {
            const response = await fetch(new URL(icon.src, href));
            await response.arrayBuffer(); // an unread body is aborted by the next navigation
            return [response.status, response.headers.get("content-type"), icon.sizes];
        }));
        return { href, start: new URL(manifest.start_url, href).href,
                 scope: new URL(manifest.scope, href).href, display: manifest.display, icons };
    }""")
    assert manifest["href"] == url + "manifest.webmanifest"
    assert manifest["start"] == manifest["scope"] == url
    assert manifest["display"] == "standalone"
    assert [200, "image/png", "192x192"] in manifest["icons"]
    assert [200, "image/png", "512x512"] in manifest["icons"]
    assert [200, "image/svg+xml", "any"] in manifest["icons"]

    # The network goes away: the server stops and the browser is offline.
    stop()
    page.context.set_offline(True)
    # The browser's own look for a newer sw.js fails offline, as it should.
    expected_problems.append(re.compile(re.escape(url + "sw.js")))
    responses: list[Response] = []
    page.on("response", lambda response: responses.append(response))
    page.reload()
    page.wait_for_selector("html[data-engine-state=ready], html[data-engine-state=error]",
                           state="attached", timeout=TIMEOUT_MS)
    assert page.locator("html").get_attribute("data-engine-state") == "ready", (
        page.locator("[data-engine-error]").text_content())
    play_a_card(page)
    assert plays(page) > 0
    page.click(".bar [data-action=menu]")
    page.click("[data-dialog=menu] [data-action=puzzles]")  # offline too, once opened online
    expect(page.locator("[data-puzzle-panel]")).to_have_attribute("data-state", "asking",
                                                                    timeout=TIMEOUT_MS)
    served = {r.url: r.from_service_worker for r in responses}
    assert served and all(served.values()), served
    assert {url + "pyodide/pyodide.asm.wasm", url + info["engine_wheel"],
            url + "puzzles.json"} <= set(served)


def next_build(build_module: ModuleType, dist_dir: Path, folder: Path, marker: str) -> str:
    """A copy of dist/ with a changed page, rebuilt as build.py would; returns its build id."""
    shutil.copytree(dist_dir, folder)
    index = folder / "index.html"
    index.write_text(index.read_text().replace(
        "<head>", f'<head>\n  <meta name="calypso-test-build" content="{marker}">', 1))
    return str(build_module.finalize(folder)["build"])


def replace_site(site: Path, build: Path) -> None:
    for item in site.iterdir():
        if item.is_dir():
            shutil.rmtree(item)
        else:
            item.unlink()
    shutil.copytree(build, site, dirs_exist_ok=True)


UPDATE_OUTCOME = """async () => {
    // Looks for a new build now, as an open page does hourly, and says how its install ends.
    const registration = await navigator.serviceWorker.getRegistration();
    const outcome = new Promise((resolve) => {
        registration.addEventListener("updatefound", () => {
            const worker = registration.installing;
            worker.addEventListener("statechange", () => {
                if (worker.state === "installed" || worker.state === "redundant") {
                    resolve(worker.state);
                }
            });
        }, { once: true });
    });
    await registration.update();
    return outcome;
}"""


def test_a_new_build_replaces_the_old_one_whole_after_the_reload_prompt(
    page: Page, dist_dir: Path, tmp_path: Path, site_server: Serve, boot: Boot,
    build_module: ModuleType,
) -> None:
    old_build = json.loads((dist_dir / "build-info.json").read_text())["build"]
    new_build = next_build(build_module, dist_dir, tmp_path / "b", "B")
    assert new_build != old_build
    # A half-deployed site: the new service worker and manifest, but the old page.
    torn = tmp_path / "torn"
    shutil.copytree(tmp_path / "b", torn)
    shutil.copyfile(dist_dir / "index.html", torn / "index.html")

    site = tmp_path / "site"
    shutil.copytree(dist_dir, site)
    url, _ = site_server(site, prefix=PREFIX)
    page.add_init_script(
        f"localStorage.setItem('calypso.settings.v1', {json.dumps(json.dumps(FAST_SETTINGS))})")
    assert boot(page, url) == "ready"
    wait_offline_ready(page)
    play_a_card(page)
    position = table_position(page)

    # A torn deploy fails the new worker's install: the old build stays, whole, and no prompt.
    replace_site(site, torn)
    assert page.evaluate(UPDATE_OUTCOME) == "redundant"
    assert cache_names(page) == [f"calypso {PREFIX} {old_build}"]
    expect(page.locator("[data-update]")).to_have_count(0)

    # The complete new build installs beside the old one and waits for the person.
    replace_site(site, tmp_path / "b")
    assert page.evaluate(UPDATE_OUTCOME) == "installed"
    banner = page.locator("[data-update]")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("new version")
    assert sorted(cache_names(page)) == sorted(
        f"calypso {PREFIX} {build}" for build in (old_build, new_build))
    assert table_position(page) == position  # nothing changed under the person's feet

    responses: list[Response] = []
    page.on("response", lambda response: responses.append(response))
    with page.expect_navigation(timeout=TIMEOUT_MS):
        banner.get_by_role("button", name="Reload").click()
    page.wait_for_selector("html[data-engine-state=ready]", state="attached",
                           timeout=TIMEOUT_MS)
    page.wait_for_selector(SETTLED, timeout=TIMEOUT_MS)
    # Only the new build is left, and the page came from it.
    assert cache_names(page) == [f"calypso {PREFIX} {new_build}"]
    expect(page.locator("meta[name=calypso-test-build]")).to_have_attribute("content", "B")
    served = {r.url: r.from_service_worker for r in responses}
    assert served and all(served.values()), served
    assert page.evaluate("fetch('build-info.json').then((r) => r.json())")["build"] == new_build
    # The saved game came back: the same position, after the reload.
    assert table_position(page) == position


def table_position(page: Page) -> dict[str, Any]:
    return {
        "plays": plays(page),
        "hand": page.locator("[data-hand] [data-card]").evaluate_all(
            "(cards) => cards.map((card) => card.dataset.card)"),
    }
