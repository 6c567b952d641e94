"""Hardening in the browser: the page and its engine worker run under the strict policy (here
also sent as a header, which reaches the worker too), inline code and eval are refused, and
hostile saves and requests get clear refusals without running anything or hanging.

One page, booted once for the module, with a hostile save waiting in its storage.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect

from calypso_core.messages import catalog

pytestmark = pytest.mark.browser

TIMEOUT_MS = 90_000
SETTLED = "[data-table][data-state=ready], [data-table][data-state=over]"
PLAYABLE = "[data-hand] [data-card][data-playable]"
MARKUP = '<img src=x onerror="window.__pwned = 1">'
HOSTILE_SAVE = {
    "schema": 1,
    "game": {
        "record": {"format": MARKUP, "version": 1, "rules": {}, "suits": ["S", "D", "H", "C"],
                   "first_dealer": 0, "deck": ["<script>window.__pwned = 2</script>"] * 208,
                   "plays": []},
        "settings": {"seed": "</p><script>window.__pwned = 3</script>", "rules": {},
                     "levels": ["random", "random", "human", "random"], "games": 1,
                     "suit": None},
        "history": [],
    },
}
# Runs before the page's own scripts: plants the hostile save and records policy violations.
SETUP = f"""
if (!sessionStorage.getItem("planted")) {{
    sessionStorage.setItem("planted", "1");
    localStorage.setItem("calypso.save.v1", {json.dumps(json.dumps(HOSTILE_SAVE))});
    localStorage.setItem("calypso.settings.v1", JSON.stringify({{ level: "random",
        levels: null, rules: {{}}, games: 1, suit: "random", speed: "instant" }}));
}}
window.__violations = [];
document.addEventListener("securitypolicyviolation",
    (e) => window.__violations.push(`${{e.violatedDirective}} ${{e.blockedURI}}`));
"""


def policy_of(index_html: str) -> str:
    found = re.search(r'http-equiv="Content-Security-Policy"\s+content="([^"]*)"', index_html)
    assert found
    return found.group(1)


@pytest.fixture(scope="module")
def hostile(browser: Browser, build_module: ModuleType,
            dist_dir: Path) -> Iterator[tuple[Page, list[str]]]:
    """The page served with its policy as a header as well, booted over a hostile save."""
    policy = policy_of((dist_dir / "index.html").read_text())
    url, stop = build_module.start_server(dist_dir, headers={"Content-Security-Policy": policy})
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(url))
    context = browser.new_context(reduced_motion="reduce")
    context.add_init_script(SETUP)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}")
            if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    context.on("request", lambda r: problems.append(f"request left the origin: {r.url}")
               if not r.url.startswith(origin) else None)
    context.on("response", lambda r: problems.append(f"HTTP {r.status}: {r.url}")
               if r.status >= 400 else None)
    page.goto(url)
    page.wait_for_selector("html[data-engine-state=ready], html[data-engine-state=error]",
                           state="attached", timeout=TIMEOUT_MS)
    yield page, problems
    context.close()
    stop()


@pytest.fixture
def secured(hostile: tuple[Page, list[str]]) -> Iterator[Page]:
    """The shared page; the test fails on any problem that arises during it."""
    page, problems = hostile
    before = len(problems)
    yield page
    assert problems[before:] == []


def test_the_page_and_its_worker_boot_and_play_under_the_policy_as_a_header(
    secured: Page,
) -> None:
    # The header reaches the worker, unlike the meta tag: Pyodide needs 'wasm-unsafe-eval'
    # to compile its WebAssembly, and nothing more ('unsafe-eval' is not needed).
    assert secured.locator("html").get_attribute("data-engine-state") == "ready"
    secured.wait_for_selector(SETTLED, timeout=TIMEOUT_MS)
    plays = secured.locator("[data-table]").get_attribute("data-plays")
    secured.locator(PLAYABLE).first.click()
    expect(secured.locator("[data-table]")).not_to_have_attribute("data-plays", plays or "0",
                                                                 timeout=TIMEOUT_MS)
    secured.wait_for_selector(SETTLED, timeout=TIMEOUT_MS)
    assert secured.evaluate("window.__violations") == []


def test_a_hostile_save_is_set_aside_and_nothing_in_it_runs(secured: Page) -> None:
    notice = secured.locator("[data-notice]")
    expect(notice).to_contain_text("set aside", timeout=TIMEOUT_MS)
    expect(notice).to_contain_text(catalog("en")["error.bad_record"])  # why, in words
    expect(notice).not_to_contain_text("bad_record")  # never the raw code
    assert secured.evaluate("window.__pwned") is None
    assert secured.locator("img[src=x], [data-notice] *").count() == 0  # text, never markup
    set_aside = json.loads(secured.evaluate("localStorage.getItem('calypso.save.unreadable')"))
    assert set_aside == HOSTILE_SAVE["game"]


def test_the_policy_refuses_inline_script_and_string_evaluation(
    secured: Page, hostile: tuple[Page, list[str]]
) -> None:
    # (Playwright's own evaluate is exempt from the policy, so eval() cannot be tried here.)
    problems = hostile[1]
    before = len(problems)
    outcome = secured.evaluate("""async () => {
        const seen = window.__violations.length;
        const script = document.createElement("script");
        script.textContent = "window.__pwned = 4";
        document.body.append(script);
        const button = document.createElement("button");
        button.setAttribute("onclick", "window.__pwned = 5");
        document.body.append(button);
        button.click();
        button.remove();
        script.remove();
        setTimeout("window.__pwned = 6");
        // Violations are reported as events, a little later.
        for (let frame = 0; frame < 120 && window.__violations.length < seen + 6; frame++) {
            await new Promise(requestAnimationFrame);
        }
        return { pwned: window.__pwned ?? null, violations: window.__violations.slice(seen) };
    }""")
    assert outcome["pwned"] is None
    # Each is refused by both copies of the policy (the meta tag and the header).
    assert set(outcome["violations"]) == {
        "script-src-elem inline", "script-src-attr inline", "script-src eval"}, outcome
    # The browser logs each refusal as a console error: those are this test's doing.
    refused = [p for p in problems[before:] if "Content Security Policy" in p]
    assert len(refused) >= 3, problems[before:]
    for problem in refused:
        problems.remove(problem)
    expect(secured.locator("html")).to_have_attribute("data-engine-state", "ready")


RAW = """async (text) => {
    // One raw string to the page's engine worker, past the client; the next reply without an
    // id is its answer (the page's own requests, work ahead among them, carry theirs).
    const { engine } = await import("./engine.js");
    const client = engine();
    const started = performance.now();
    let frames = 0;
    let counting = true;
    const tick = () => { frames += 1; if (counting) requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
    const worker = client.worker;
    const reply = await new Promise((resolve) => {
        const listen = (event) => {
            if (typeof event.data !== "string") return;
            const reply = JSON.parse(event.data);
            if (typeof reply.id === "number") return;
            worker.removeEventListener("message", listen);
            resolve(reply);
        };
        worker.addEventListener("message", listen);
        worker.postMessage(text);
        // A worker that dies never answers: give up rather than wait forever.
        setTimeout(() => resolve({ ok: false, error: { code: "no_answer", message: "" } }), 20_000);
    });
    counting = false;
    return { reply, ms: performance.now() - started, frames, restarts: client.restarts };
}"""

HOSTILE_REQUESTS = [
    "[" * 200_000,
    '{"type": "load", "record": ' + "[" * 100_000 + "]" * 100_000 + ', "settings": {}}',
    '{"type": "new_game", "seed": "\\ud800"}',
    '{"type": "play", "card": NaN}',
    '{"type": "new_game", "games": ' + "9" * 5_000 + "}",
    '{"type": "' + "x" * 250_000 + '"}',
    '{"type": "play", "card": "' + "<img src=x>" * 20_000 + '"}',
    "x" * 300_000,
]


def engine_view(page: Page) -> Any:
    return page.evaluate("""async () => {
        const { engine } = await import("./engine.js");
        const view = await engine().request("view");
        return { ...view, event: null };
    }""")


@pytest.mark.parametrize("text", HOSTILE_REQUESTS, ids=lambda t: f"{t[:12]}…{len(t)}")
def test_hostile_requests_get_clear_errors_fast_and_change_nothing(
    secured: Page, text: str
) -> None:
    secured.wait_for_selector(SETTLED, timeout=TIMEOUT_MS)
    before = engine_view(secured)
    outcome = secured.evaluate(RAW, text)
    reply = outcome["reply"]
    assert reply["ok"] is False, reply
    assert re.fullmatch(r"[a-z_]+", reply["error"]["code"]) and reply["error"]["code"] != "internal"
    assert 0 < len(reply["error"]["message"]) <= 300
    assert outcome["restarts"] == 0  # the worker survived it
    assert outcome["ms"] < 5_000, outcome["ms"]
    assert engine_view(secured) == before
