"""bench/throttle.py, the server that stands for a person's network in bench/firstvisit.py:
its one link holds every response to its rate and delay, and it gzips what static hosts do."""

from __future__ import annotations

import gzip
import importlib
import os
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

RATE_MBIT = 8.0  # 1 MB/s: the transfers below take a tenth of a second or two
DELAY_MS = 30.0
SIZE = 100_000


@pytest.fixture(scope="module")
def throttle() -> ModuleType:
    return importlib.import_module("bench.throttle")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("site")
    noise = bytes(range(256)) * 4  # compresses, unlike the random files below
    (folder / "index.html").write_bytes(b"<!doctype html>" + noise)
    for name in ("app.js", "engine.mjs", "style.css", "info.json", "icon.svg", "runtime.wasm",
                 "app.webmanifest"):
        (folder / name).write_bytes(noise * 10)
    for name in ("a.bin", "b.bin", "stdlib.zip"):
        (folder / name).write_bytes(os.urandom(SIZE))
    return folder


@pytest.fixture(scope="module")
def server(throttle: ModuleType, site: Path) -> Iterator[tuple[str, Any]]:
    """One server for the module (each stop waits for its loop); the tests run one by one."""
    url, link, stop = throttle.start_throttled_server(site, RATE_MBIT, DELAY_MS)
    yield url, link
    stop()


def get(url: str, gzip_ok: bool = True, headers: dict[str, str] | None = None
        ) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers={
        "Accept-Encoding": "gzip, deflate, br" if gzip_ok else "identity", **(headers or {})})
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), b""


def test_a_transfer_takes_at_least_its_size_over_the_rate_plus_the_delay(
    server: tuple[str, Any]
) -> None:
    url, link = server
    sent = link.sent
    start = time.monotonic()
    status, _, body = get(url + "a.bin")
    elapsed = time.monotonic() - start
    assert status == 200 and len(body) == SIZE
    assert elapsed >= SIZE / (RATE_MBIT * 1e6 / 8) + DELAY_MS / 1000
    assert link.sent - sent == SIZE


def test_concurrent_transfers_share_the_one_link(server: tuple[str, Any]) -> None:
    url, _ = server
    bodies: list[bytes] = []
    threads = [threading.Thread(target=lambda name=name: bodies.append(get(url + name)[2]))
               for name in ("a.bin", "b.bin")]
    start = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(map(len, bodies)) == [SIZE, SIZE]
    assert time.monotonic() - start >= 2 * SIZE / (RATE_MBIT * 1e6 / 8)


@pytest.mark.parametrize("name", ["", "app.js", "engine.mjs", "style.css", "info.json",
                                  "icon.svg", "runtime.wasm", "app.webmanifest"])
def test_the_types_a_static_host_compresses_are_gzipped(
    server: tuple[str, Any], site: Path, name: str
) -> None:
    url, _ = server
    status, headers, body = get(url + name)
    assert status == 200
    assert headers["Content-Encoding"] == "gzip"
    assert int(headers["Content-Length"]) == len(body)
    assert gzip.decompress(body) == (site / (name or "index.html")).read_bytes()
    # Not to a client that does not accept it.
    status, headers, body = get(url + name, gzip_ok=False)
    assert "Content-Encoding" not in headers
    assert body == (site / (name or "index.html")).read_bytes()


def test_other_types_go_as_they_are(server: tuple[str, Any], site: Path) -> None:
    url, _ = server
    status, headers, body = get(url + "stdlib.zip")
    assert status == 200 and "Content-Encoding" not in headers
    assert headers["Content-Type"] == "application/zip"
    assert body == (site / "stdlib.zip").read_bytes()


def test_a_known_version_is_not_sent_again_and_a_missing_file_is_a_404(
    server: tuple[str, Any]
) -> None:
    url, link = server
    _, headers, _ = get(url + "runtime.wasm")
    sent = link.sent
    status, _, body = get(url + "runtime.wasm", headers={"If-None-Match": headers["ETag"]})
    assert (status, body) == (304, b"")
    assert link.sent == sent
    assert get(url + "nothing-here.js")[0] == 404
