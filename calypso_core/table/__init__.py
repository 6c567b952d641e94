"""The table: everything the page talks to, behind one JSON function, ``handle``."""

from .transport import PROTOCOL_VERSION, REQUESTS, handle, reset

__all__ = ["PROTOCOL_VERSION", "REQUESTS", "handle", "reset"]
