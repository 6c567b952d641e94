"""The table: everything the page talks to, behind one JSON function.

``handle(request)`` answers one JSON request string with one JSON reply string
(docs/protocol.md). Inside: ``transport`` (parsing, limits, the table of request types),
the handlers, one per request type, where each reply is assembled (``facts``, ``playing``,
``reading``, ``remote``, ``reviews``; the match in play they share is in ``session``),
``match`` (the games, the seats — any mix of people and computer players — and whose hand
is shown), ``settings``, ``players`` (the computer players, through ``calypso_core.bots``'
public contract), ``views`` (what one seat sees, the score sheet), ``story`` (the cut, the
deal's log, replays, undo), ``aids`` (memory aids) and ``words`` (every sentence it sends).
The engine imports nothing from here.
"""

from .transport import PROTOCOL_VERSION, REQUESTS, handle, reset

__all__ = ["PROTOCOL_VERSION", "REQUESTS", "handle", "reset"]
