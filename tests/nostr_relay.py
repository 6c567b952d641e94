"""A local Nostr relay for the remote-table tests: enough of NIP-01 for trystero's signalling.

It keeps no events: an EVENT goes to every open subscription whose filter it matches
(``kinds``, ``#x`` tags, ``since``), and is acknowledged with OK. Signatures are not checked
(trystero's signalling is encrypted with the room's secret; the relay only carries it). It
listens on 127.0.0.1 on a free port, in a thread of its own, until ``stop``.

    relay = NostrRelay.start()
    relay.url      # "ws://127.0.0.1:PORT"
    relay.events   # how many events it carried
    relay.announcements(room, peer_id)  # how many times a page announced itself in a room
    relay.stop()
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import threading
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

Filter = dict[str, Any]
TAG = "x"
APP_ID = "calypso-card-game"  # web/remote/room.js


def room_topic(room: str) -> str:
    """The topic of a room's announcements, as trystero names it: the SHA-1 of
    "Trystero@<app>@<room>", each byte in base 36."""
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"

    def base36(byte: int) -> str:
        text = ""
        while True:
            byte, digit = divmod(byte, 36)
            text = digits[digit] + text
            if not byte:
                return text

    return "".join(base36(b) for b in hashlib.sha1(f"Trystero@{APP_ID}@{room}".encode()).digest())


def matches(event: dict[str, Any], filters: list[Filter]) -> bool:
    """Whether an event matches any of a subscription's filters."""
    for f in filters:
        if "kinds" in f and event.get("kind") not in f["kinds"]:
            continue
        if "since" in f and event.get("created_at", 0) < f["since"]:
            continue
        tags = {tag[1] for tag in event.get("tags", []) if len(tag) > 1 and tag[0] == "x"}
        if "#x" in f and not tags.intersection(f["#x"]):
            continue
        return True
    return False


class NostrRelay:
    """One relay on 127.0.0.1; see the module's docstring."""

    def __init__(self) -> None:
        self.url = ""
        self.events = 0
        self.carried: list[dict[str, Any]] = []  # every event, in order
        self.clients: set[ServerConnection] = set()
        self._subscriptions: dict[ServerConnection, dict[str, list[Filter]]] = {}
        self._loop = asyncio.new_event_loop()
        self._server: Server | None = None
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)

    @classmethod
    def start(cls) -> NostrRelay:
        relay = cls()
        relay._thread.start()
        asyncio.run_coroutine_threadsafe(relay._listen(), relay._loop).result(timeout=10)
        return relay

    async def _listen(self) -> None:
        self._server = await serve(self._client, "127.0.0.1", 0, max_size=1 << 20)
        port = next(iter(self._server.sockets)).getsockname()[1]
        self.url = f"ws://127.0.0.1:{port}"

    async def _client(self, socket: ServerConnection) -> None:
        self.clients.add(socket)
        subscriptions = self._subscriptions.setdefault(socket, {})
        try:
            async for raw in socket:
                try:
                    message = json.loads(raw)
                    kind = message[0]
                except (ValueError, IndexError, KeyError, TypeError):
                    await socket.send(json.dumps(["NOTICE", "malformed message"]))
                    continue
                if kind == "EVENT":
                    await self._publish(socket, message[1])
                elif kind == "REQ":
                    subscriptions[message[1]] = list(message[2:])
                    await socket.send(json.dumps(["EOSE", message[1]]))
                elif kind == "CLOSE":
                    subscriptions.pop(message[1], None)
        except ConnectionClosed:
            pass
        finally:
            self.clients.discard(socket)
            self._subscriptions.pop(socket, None)

    async def _publish(self, sender: ServerConnection, event: dict[str, Any]) -> None:
        self.events += 1
        self.carried.append(event)
        await sender.send(json.dumps(["OK", event.get("id", ""), True, ""]))
        for socket, subscriptions in list(self._subscriptions.items()):
            for sub_id, filters in list(subscriptions.items()):
                if matches(event, filters):
                    with contextlib.suppress(ConnectionClosed):
                        await socket.send(json.dumps(["EVENT", sub_id, event]))

    def announcements(self, room: str, peer_id: str) -> int:
        """How many events announced the page whose trystero id is ``peer_id`` in a room:
        its ``{"peerId": …}`` on the room's topic (signals to one peer go to that peer's
        topic)."""
        count = 0
        topic = room_topic(room)
        for event in list(self.carried):
            if [TAG, topic] not in event.get("tags", []):
                continue
            try:
                content = json.loads(event.get("content", ""))
            except ValueError:
                continue
            if isinstance(content, dict) and content.get("peerId") == peer_id and not (
                    {"offer", "answer", "candidate"} & content.keys()):
                count += 1
        return count

    def stop(self) -> None:
        async def close() -> None:
            if self._server is not None:
                self._server.close()
                await self._server.wait_closed()

        asyncio.run_coroutine_threadsafe(close(), self._loop).result(timeout=10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
