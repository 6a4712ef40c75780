"""The refusals a route or a socket's command raises, and which the app turns into an answer.

They live on the floor, below the tables and the features, so that code which only refuses
something (most of what raises them) need not import the table code to do so."""

from __future__ import annotations


class LobbyError(Exception):
    """A lobby request refused; ``status`` is the HTTP status that says why."""

    def __init__(
        self, status: int, message: str, headers: dict[str, str] | None = None,
        code: str | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers
        """Headers the answer carries too (a ``Retry-After``), if any."""
        self.code = code
        """A stable code beside the sentence (``new_account``), where a client acts on which
        refusal it is; the answer carries it as ``code``."""
