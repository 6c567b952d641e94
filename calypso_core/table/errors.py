"""How the table refuses a request: a code for the page, a message id and parameters for
people (``error.<code>`` unless a more precise one is given), and the same in plain English
for logs and tests."""

from __future__ import annotations

from ..messages import Message, message


class ProtocolError(ValueError):
    """A request the table refuses; ``code`` is the machine-readable reason and ``text`` what
    people read (a message)."""

    def __init__(self, code: str, english: str, text: Message | None = None) -> None:
        super().__init__(english)
        self.code = code
        self.text = text if text is not None else message(f"error.{code}")

    @property
    def is_input(self) -> bool:
        """Whether what the request carried is refused (a ``bad_*`` code: the same request
        would be refused again), rather than the request at this moment."""
        return self.code.startswith("bad_")
