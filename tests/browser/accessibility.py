"""axe-core in the page under test: loaded into that page only (never into dist/), run on
the whole document or one part of it, and what it finds that is serious or critical."""

from __future__ import annotations

from playwright.sync_api import Page

SERIOUS = ("serious", "critical")


def axe_problems(page: Page, script: str, within: str | None = None) -> list[str]:
    """The serious and critical accessibility problems axe-core finds in the page (or in
    the element ``within`` selects), one line each: rule, impact, element, what to fix.

    The script is evaluated over the DevTools protocol, where the page's Content Security
    Policy (no inline scripts) does not apply; the page itself never loads it.
    """
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(script + "\n;undefined")
    found: list[str] = page.evaluate(
        """async ([within, serious]) => {
            const context = within ? document.querySelector(within) : document;
            if (!context) throw new Error(`nothing matches ${within}`);
            const result = await axe.run(context, { resultTypes: ["violations"] });
            return result.violations.filter((v) => serious.includes(v.impact)).flatMap((v) =>
                v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(" ")}: `
                    + n.failureSummary.replace(/\\s+/g, " ")));
        }""",
        [within, list(SERIOUS)],
    )
    return found
