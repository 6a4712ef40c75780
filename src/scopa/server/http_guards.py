"""What every HTTP request passes through before any route: a cap on the request body.

It is plain ASGI middleware, not Starlette's ``BaseHTTPMiddleware``: it sees a body chunk by
chunk as it arrives and never holds one whole, it leaves WebSocket and lifespan scopes alone, and
it passes a streaming response through as it is sent.
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY_BYTES = 64 * 1024
"""The longest request body the card room reads. Its largest real body (a table's choices
with a bot in every seat, a registration) is under 1 KiB; 64 KiB is also what deploy/nginx
allows (``client_max_body_size 64k``), so ``scopa serve`` alone and behind nginx agree."""


class BodyTooLarge(Exception):
    """Raised by the ``receive`` that :class:`BodyLimit` hands the app once a streamed body
    passes the limit: whatever was reading it stops there."""


def too_large_sentence(max_bytes: int) -> str:
    """The 413's ``detail``, in the protocol's one-sentence shape.

    >>> too_large_sentence(65536)
    'the request body is too large: the card room reads at most 64 KiB (65536 bytes)'
    """
    return (
        f"the request body is too large: the card room reads at most {max_bytes // 1024} KiB "
        f"({max_bytes} bytes)"
    )


def declared_length(scope: Scope) -> int | None:
    """The request's ``Content-Length``, if it has one that is a number (uvicorn refuses a
    malformed one before the app sees it; a chunked body has none)."""
    for name, value in scope.get("headers", ()):
        if name.lower() == b"content-length" and value.strip().isdigit():
            return int(value)
    return None


class BodyLimit:
    """Answer ``413`` with a sentence to a request whose body is over ``max_bytes``, before
    the app has read more than that, so a huge body neither reaches a route nor fills memory.

    A declared ``Content-Length`` over the limit is refused before anything is read or any
    route runs. A chunked body is counted as it streams in: past the limit, the app's next
    ``receive`` raises :class:`BodyTooLarge`, and whatever the app answers to that (FastAPI
    makes it a 400) is replaced by the 413, as long as the app had not begun its answer."""

    def __init__(self, app: ASGIApp, max_bytes: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes
        detail = json.dumps({"detail": too_large_sentence(max_bytes)}).encode()
        self.refusal: tuple[Message, Message] = (
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(detail)).encode()),
                ],
            },
            {"type": "http.response.body", "body": detail},
        )

    async def refuse(self, send: Send) -> None:
        for message in self.refusal:
            await send(message)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = declared_length(scope)
        if declared is not None and declared > self.max_bytes:
            await self.refuse(send)
            return
        received = 0
        over = False  # the body passed the limit
        answered = False  # the app's answer had begun to go out by then
        refused = False  # the 413 went out

        async def counted() -> Message:
            nonlocal received, over
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    over = True
                    raise BodyTooLarge(too_large_sentence(self.max_bytes))
            return message

        async def guarded(message: Message) -> None:
            nonlocal answered, refused
            if over and not answered:
                # The app's answer to a body it could not finish reading: the client gets the
                # 413 in its place.
                if not refused:
                    refused = True
                    await self.refuse(send)
                return
            if message["type"] == "http.response.start":
                answered = True
            await send(message)

        try:
            await self.app(scope, counted, guarded)
        except Exception:
            # BodyTooLarge itself, or what the app made of it; anything else, or a body that
            # ran over after the answer began (it cannot be taken back), goes on up.
            if not over or answered:
                raise
        if over and not answered and not refused:
            await self.refuse(send)
