"""Serve a folder as a person's browser gets a static site: through one shared link of limited
rate with a delay on every request, gzipped where a static host gzips.

    python3 bench/throttle.py [--rate-mbit 10] [--delay-ms 60] [--port 8000] [FOLDER]

FOLDER defaults to dist/. Every response waits ``delay`` before its first byte (the round
trip; requests wait in parallel), then its body goes out through the one link: all responses
together never pass ``rate``. Files whose names end in GZIP_SUFFIXES are sent gzipped to a
client that accepts it, as GitHub Pages and most static hosts do; others go as they are.
Responses carry an ETag and ``Cache-Control: max-age=600`` (what Pages sends) and answer
``If-None-Match`` with 304. bench/web.py measures the page through it.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import hashlib
import sys
import threading
import time
from collections.abc import Callable
from http.server import SimpleHTTPRequestHandler
from io import BufferedIOBase
from pathlib import Path
from typing import Any, BinaryIO, ClassVar
from urllib.parse import unquote, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import ROOT, load_build

GZIP_SUFFIXES = (".html", ".js", ".mjs", ".css", ".json", ".svg", ".wasm", ".webmanifest")
CHUNK = 16 * 1024  # the link's unit of sharing: concurrent responses interleave by chunks
LINKS = {"slow": (10.0, 60.0), "fast": (50.0, 20.0)}  # name: (Mbit/s, ms per request)


class Link:
    """One network link: a rate in bytes per second shared by every response, and a delay
    before each response starts."""

    def __init__(self, rate_bytes: float, delay_s: float) -> None:
        if rate_bytes <= 0 or delay_s < 0:
            raise ValueError(f"a link needs a positive rate and a delay >= 0, "
                             f"not {rate_bytes} B/s and {delay_s} s")
        self.rate = rate_bytes
        self.delay = delay_s
        self.sent = 0  # body bytes sent so far, over all responses
        self._lock = threading.Lock()
        self._free_at = 0.0  # when the link finishes the chunks already given to it

    def send(self, out: BinaryIO | BufferedIOBase, data: bytes) -> None:
        """Write data when the link would have carried it, chunk by chunk."""
        for start in range(0, len(data), CHUNK):
            chunk = data[start:start + CHUNK]
            with self._lock:
                begin = max(time.monotonic(), self._free_at)
                self._free_at = begin + len(chunk) / self.rate
                done = self._free_at
                self.sent += len(chunk)
            time.sleep(max(0.0, done - time.monotonic()))
            out.write(chunk)


class Body:
    """A file's bytes as the server sends them: raw or gzipped, with an ETag for each."""

    def __init__(self, raw: bytes, content_type: str, compress: bool) -> None:
        self.content_type = content_type
        digest = hashlib.sha256(raw).hexdigest()[:20]
        self.variants = {False: (raw, f'"{digest}"')}
        if compress:
            # mtime=0: the same file always gives the same bytes.
            self.variants[True] = (gzip.compress(raw, compresslevel=6, mtime=0),
                                   f'"{digest}-gzip"')


_bodies: dict[tuple[str, int, int], Body] = {}  # (path, mtime, size) -> body, for every server
_bodies_lock = threading.Lock()


def body_of(file: Path, mime_types: dict[str, str]) -> Body:
    """A file's body, gzipped once per version of the file: no response waits on gzip."""
    stat = file.stat()
    key = (str(file), stat.st_mtime_ns, stat.st_size)
    with _bodies_lock:
        if key not in _bodies:
            _bodies[key] = Body(file.read_bytes(), mime_types.get(file.suffix, mime_types[""]),
                                file.name.endswith(GZIP_SUFFIXES))
        return _bodies[key]


class ThrottledHandler(SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as browsers use with any real host
    link: Link
    extra: ClassVar[dict[str, Body]] = {}  # URL path -> a body served from memory
    mime_types: ClassVar[dict[str, str]] = {}

    def do_GET(self) -> None:
        self.respond(with_body=True)

    def do_HEAD(self) -> None:
        self.respond(with_body=False)

    def body_for(self, url: str) -> Body | None:
        if unquote(urlsplit(url).path) in self.extra:
            return self.extra[unquote(urlsplit(url).path)]
        local = Path(self.translate_path(url))
        if local.is_dir():
            local = local / "index.html"
        return body_of(local, self.mime_types) if local.is_file() else None

    def respond(self, with_body: bool) -> None:
        time.sleep(self.link.delay)
        body = self.body_for(self.path)
        if body is None:
            self.send_error(404, "File not found")
            return
        gzipped = True in body.variants and "gzip" in self.headers.get("Accept-Encoding", "")
        data, etag = body.variants[gzipped]
        if etag in self.headers.get("If-None-Match", ""):
            self.send_response(304)
            self.send_header("ETag", etag)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", body.content_type)
        self.send_header("Content-Length", str(len(data)))
        if gzipped:
            self.send_header("Content-Encoding", "gzip")
        if True in body.variants:
            self.send_header("Vary", "Accept-Encoding")
        self.send_header("ETag", etag)
        self.send_header("Cache-Control", "max-age=600")
        self.end_headers()
        if with_body:
            self.link.send(self.wfile, data)

    def log_message(self, format: str, *args: Any) -> None:
        pass


def start_throttled_server(folder: Path, rate_mbit: float, delay_ms: float,
                           extra: dict[str, tuple[bytes, str]] | None = None,
                           host: str = "127.0.0.1", port: int = 0,
                           ) -> tuple[str, Link, Callable[[], None]]:
    """Serve folder through one new link from a background thread.

    ``extra`` maps URL paths to (bytes, content type) served as files beside the folder's.
    Returns the URL, the link (its ``sent`` counts body bytes) and a function that stops it.
    """
    link = Link(rate_mbit * 1e6 / 8, delay_ms / 1000)
    build = load_build()
    mime_types = build.MIME_TYPES
    for file in folder.rglob("*"):  # compressed ahead, as a host serves them
        if file.is_file():
            body_of(file, mime_types)
    bodies = {path: Body(data, content_type, path.endswith(GZIP_SUFFIXES))
              for path, (data, content_type) in (extra or {}).items()}
    handler = type("Handler", (ThrottledHandler,), {
        "link": link, "extra": bodies, "mime_types": mime_types})
    server = build.DistServer((host, port), functools.partial(handler, directory=str(folder)))
    return f"http://{host}:{server.server_address[1]}/", link, build.serve_in_background(server)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", nargs="?", type=Path, default=ROOT / "dist")
    parser.add_argument("--rate-mbit", type=float, default=LINKS["slow"][0])
    parser.add_argument("--delay-ms", type=float, default=LINKS["slow"][1])
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    if not args.folder.is_dir():
        parser.error(f"{args.folder} is not a folder (build it with: python3 build.py build)")
    url, _, stop = start_throttled_server(args.folder, args.rate_mbit, args.delay_ms,
                                          port=args.port)
    print(f"Serving {args.folder} at {url} through {args.rate_mbit:g} Mbit/s with "
          f"{args.delay_ms:g} ms per request  (Ctrl+C stops)", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
