"""The refusals a route or a socket's command raises, and which the app turns into an answer.

They live on the floor, below the tables and the features, so that code which only refuses
something (most of what raises them) need not import the table code to do so.

Every refusal carries a stable ``code`` and the ``params`` its sentence is made of, beside the
English sentence itself: the web client words a code it knows in the reader's language
(``refusal.<code>`` in its catalogues, filled from ``params``) and shows the server's sentence
for one it does not know, so a client older than the server still reads every refusal.
``tests/room/test_refusal_codes.py`` collects the codes from the source and checks that each
has a wording in the five languages."""

from __future__ import annotations

from collections.abc import Mapping

Param = str | int | float
"""A value a refusal's sentence is made of: a name, a limit, a table's code."""

ROOM_CODES: dict[str, str] = {
    "invalid_request": "a request's body or parameters do not have the shape the route takes",
    "not_found": "an address where nothing is",
    "method_not_allowed": "an address that does not take the request's method",
    "redis_down": "the card room cannot reach its Redis",
    "body_too_large": "a request's body over the room's limit",
}
"""The codes of the answers the app itself gives, not raised as a :class:`LobbyError`."""


class LobbyError(Exception):
    """A lobby request refused; ``status`` is the HTTP status that says why."""

    def __init__(
        self, status: int, message: str, headers: dict[str, str] | None = None,
        code: str | None = None, params: Mapping[str, Param] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers
        """Headers the answer carries too (a ``Retry-After``), if any."""
        self.code = code
        """The stable code beside the sentence (``name_taken``): which refusal it is, for a
        client to word and to act on; the answer carries it as ``code``."""
        self.params = dict(params or {})
        """What the sentence is made of (``{"name": "Ada"}``), for a client's own wording;
        the answer carries it as ``params``."""

    def answer(self) -> dict[str, object]:
        """The JSON body of the answer: ``detail`` (the English sentence), ``code`` and
        ``params``.

        >>> LobbyError(409, "the user name 'Ada' is taken", code="name_taken",
        ...            params={"name": "Ada"}).answer()
        {'detail': "the user name 'Ada' is taken", 'code': 'name_taken', 'params': {'name': 'Ada'}}
        """
        body: dict[str, object] = {"detail": self.message}
        if self.code is not None:
            body["code"] = self.code
            body["params"] = self.params
        return body
