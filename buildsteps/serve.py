"""Serving a built folder over HTTP with the MIME types Pyodide needs, from a background
thread (``python build.py serve``, the browser tests and the benchmarks)."""

from __future__ import annotations

import functools
import os
import sys
import threading
from collections.abc import Callable
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

MIME_TYPES = {
    ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".mjs": "text/javascript",
    ".css": "text/css", ".json": "application/json", ".wasm": "application/wasm",
    ".zip": "application/zip", ".whl": "application/octet-stream", ".svg": "image/svg+xml",
    ".png": "image/png", ".ico": "image/x-icon", ".txt": "text/plain; charset=utf-8",
    ".webmanifest": "application/manifest+json", ".gz": "application/gzip",
    "": "application/octet-stream",
}


class DistHandler(SimpleHTTPRequestHandler):
    """Serve a folder with explicit MIME types: a wrong .wasm type makes Pyodide hang."""

    extensions_map = MIME_TYPES
    quiet = False
    prefix = "/"  # the URL path the folder appears under, as a project page's "/<repo>/"
    extra_headers: ClassVar[dict[str, str]] = {}

    def translate_path(self, path: str) -> str:
        if self.prefix == "/":
            return super().translate_path(path)
        bare = path.split("?", 1)[0].split("#", 1)[0]
        if bare == self.prefix.rstrip("/"):
            return super().translate_path("/")  # a folder: the handler redirects to add "/"
        if not bare.startswith(self.prefix):
            return os.path.join(str(self.directory), ".outside-the-prefix")  # never exists: 404
        return super().translate_path("/" + path[len(self.prefix):])

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")  # always revalidate: rebuilds show at once
        for name, value in self.extra_headers.items():
            self.send_header(name, value)
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        if not self.quiet:
            super().log_message(format, *args)


class DistServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):  # browsers drop connections
            super().handle_error(request, client_address)


def start_server(folder: Path, host: str = "127.0.0.1", port: int = 0, quiet: bool = True,
                 prefix: str = "/", headers: dict[str, str] | None = None,
                 ) -> tuple[str, Callable[[], None]]:
    """Serve folder from a background thread; return its URL and a function that stops it.

    ``prefix`` mounts the folder under a path, as GitHub Pages does a project ("/calypso/");
    the URL returned includes it. ``headers`` are sent with every response.
    """
    prefix = "/" + prefix.strip("/") + "/" if prefix.strip("/") else "/"
    handler = type("Handler", (DistHandler,),
                   {"quiet": quiet, "prefix": prefix, "extra_headers": dict(headers or {})})
    server = DistServer((host, port), functools.partial(handler, directory=str(folder)))
    shown_host = "127.0.0.1" if host in ("", "0.0.0.0") else host
    return f"http://{shown_host}:{server.server_address[1]}{prefix}", serve_in_background(server)


def serve_in_background(server: ThreadingHTTPServer) -> Callable[[], None]:
    """Run server from a background thread; return a function that stops it."""
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()

    def stop() -> None:
        server.shutdown()
        server.server_close()
        thread.join()

    return stop
