"""Fixtures shared by the tests: build.py and a built dist/ (the site checks and the browser
tests), and a fresh table session (the protocol tests)."""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from calypso_core import table

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def build_module() -> ModuleType:
    """build.py, loaded by path: "build" would clash with the PyPA package of that name."""
    spec = importlib.util.spec_from_file_location("calypso_build", ROOT / "build.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def dist_dir(build_module: ModuleType) -> Path:
    """dist/ as made by `build.py test`; built here when missing."""
    dist = Path(os.environ.get("CALYPSO_DIST") or ROOT / "dist")
    if not (dist / build_module.MANIFEST).is_file():
        build_module.build(dist)
    return dist


@pytest.fixture
def fresh_table() -> Iterator[None]:
    """The table's session reset before the test and after it."""
    table.reset()
    yield
    table.reset()
