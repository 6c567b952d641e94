"""How the table refuses a request: a code for logs and tests, a message id and parameters for
people (``error.<code>`` unless a more precise one is given), the same in plain English, and
what the refusal means for the page, said where it is raised: whether what the request carried
is refused (``is_input``) and whether the engine holds no game in play (``no_game``). The page
decides nothing from the code."""

from __future__ import annotations

from ..messages import Message, message


class ProtocolError(ValueError):
    """A request the table refuses; ``code`` is the machine-readable reason, ``text`` what
    people read (a message, a whole sentence) and ``no_game`` whether the engine holds no game
    in play (the page then forgets the recipe it kept of one)."""

    def __init__(self, code: str, english: str, text: Message | None = None, *,
                 no_game: bool = False) -> None:
        super().__init__(english)
        self.code = code
        self.text = text if text is not None else message(f"error.{code}")
        self.no_game = no_game

    @property
    def is_input(self) -> bool:
        """Whether what the request carried is refused (a ``bad_*`` code: the same request
        would be refused again), rather than the request at this moment."""
        return self.code.startswith("bad_")
