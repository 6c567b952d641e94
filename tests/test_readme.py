"""The README's Python examples run as written."""

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_python_examples_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert blocks, "the README has no Python example"
    for block in blocks:
        exec(compile(block, str(README), "exec"), {})


def quick_start() -> str:
    text = README.read_text(encoding="utf-8")
    return text[text.index("## Quick start"):text.index("## At the table")]


def test_the_quick_start_says_how_long_serve_and_test_take_and_how_to_stop_serving() -> None:
    said = " ".join(quick_start().split())
    build = (README.parent / "build.py").read_text(encoding="utf-8")
    # serve keeps the terminal until Ctrl+C, as build.py's serve says when it starts.
    assert "stops with **Ctrl+C**" in said and "(Ctrl+C stops)" in build
    assert "`build.py test` is not needed to play" in said
    assert "about **20 minutes on two cores**" in said
    # A port in use is said in one line naming --port (tests/test_build_setup.py).
    assert "python3 build.py serve --port 8080" in said and "--port" in build


def test_the_quick_start_says_how_to_play_the_master_in_the_pages_own_words() -> None:
    from calypso_core.bots.levels import LEVELS
    from calypso_core.messages import catalog

    said = " ".join(quick_start().split())
    words = catalog("en")
    assert LEVELS[-1] == "master" and "?level=master" in said
    for key in ("bar.new_game", "form.level", "form.deal", "level.master"):
        assert words[key] in said, key
