"""What every HTTP request and response passes through before and after any route: a cap on
the request body, and the headers that tell a browser what the room's pages may do.

Both are plain ASGI middleware, not Starlette's ``BaseHTTPMiddleware``: they see a body chunk by
chunk as it arrives and never hold one whole, they leave WebSocket and lifespan scopes alone, and
they pass a streaming response through as it is sent.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Mapping

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
        detail = json.dumps({"detail": too_large_sentence(max_bytes), "code": "body_too_large",
                             "params": {"bytes": max_bytes}}).encode()
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


class SecurityHeaders:
    """Add ``headers`` to every HTTP response the app makes (the web client, the API, /docs,
    the lobby's errors and the 413), except one that a response sets itself: /docs names its
    own Content-Security-Policy. (An unhandled exception's bare 500 comes from Starlette's
    outermost layer, past this one; the room answers none.)"""

    def __init__(self, app: ASGIApp, headers: Mapping[str, str]) -> None:
        self.app = app
        self.headers = [
            (name.lower().encode("latin-1"), value.encode("latin-1"))
            for name, value in headers.items()
        ]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                own = list(message.get("headers", ()))
                named = {name.lower() for name, _ in own}
                extra = [(name, value) for name, value in self.headers if name not in named]
                message = {**message, "headers": own + extra}
            await send(message)

        await self.app(scope, receive, with_headers)


def policy(**directives: str) -> str:
    """A Content-Security-Policy from keyword arguments, ``_`` for ``-`` in their names.

    >>> policy(default_src="'none'", frame_ancestors="'none'")
    "default-src 'none'; frame-ancestors 'none'"
    """
    return "; ".join(f"{name.replace('_', '-')} {value}" for name, value in directives.items())


CLIENT_DIRECTIVES: dict[str, str] = {
    # Nothing the directives below do not name: no plugin, frame or media.
    "default_src": "'none'",
    # The client is ES modules from the package (js/main.js and its imports): no inline script,
    # no eval, no handler attribute.
    "script_src": "'self'",
    # style.css and players.css. Styles set from JS through element.style are CSSOM, which CSP
    # allows; but lobby.js puts a `style` attribute on the lobby's fanned cards (through
    # setAttribute), which only 'unsafe-inline' in style-src-attr lets through. No <style>
    # element is allowed: style-src (which covers them) stays 'self'.
    "style_src": "'self'",
    "style_src_attr": "'unsafe-inline'",
    # The cards are inline SVG; the only image URL is the empty icon, `data:,`.
    "img_src": "'self' data:",
    "font_src": "'self'",
    # fetch() of /api, i18n/ and rules/, and the tables' WebSockets: CSP 3's 'self' matches
    # ws: and wss: on the page's own host and port.
    "connect_src": "'self'",
    # The installable app: its manifest and its service worker (sw.js), from the room itself.
    "manifest_src": "'self'",
    "worker_src": "'self'",
    "base_uri": "'none'",
    "form_action": "'self'",
    # No other site may frame the room (clickjacking); X-Frame-Options says it to old browsers.
    "frame_ancestors": "'none'",
}
CLIENT_POLICY = policy(**CLIENT_DIRECTIVES)
"""The Content-Security-Policy of every response but /docs and offline play's worker."""

WORKER_POLICY = policy(**{
    **CLIENT_DIRECTIVES,
    # Offline play's worker (web/js/offlineworker.js, issue 37) runs Pyodide: it compiles
    # WebAssembly ('wasm-unsafe-eval') and imports Pyodide's modules from blob: URLs of the
    # bytes it read from Cache Storage and checked against their sha256. A worker's policy is
    # its own script's answer's, so only that worker gets them; the page never does.
    "script_src": "'self' blob: 'wasm-unsafe-eval'",
})
"""The Content-Security-Policy of offline play's worker script alone."""

PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer", "autoplay", "camera", "display-capture",
        "encrypted-media", "fullscreen", "geolocation", "gyroscope", "hid", "idle-detection",
        "magnetometer", "microphone", "midi", "payment", "picture-in-picture",
        "publickey-credentials-get", "screen-wake-lock", "serial", "usb",
        "xr-spatial-tracking",
    )
)  # fmt: skip
"""Every powerful feature off, for the room and anything it might embed: a card game uses
none. Only features Chromium knows are named, as it reports an unknown one in the console."""

SECURITY_HEADERS: dict[str, str] = {
    "Content-Security-Policy": CLIENT_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    # Same-origin requests keep their Referer (and a same-origin POST its Origin, which the
    # accounts' cross-site check reads: under "no-referrer" a browser sends `Origin: null`);
    # nothing about the room's pages goes to another site.
    "Referrer-Policy": "same-origin",
    "Permissions-Policy": PERMISSIONS_POLICY,
}
"""What :class:`SecurityHeaders` adds to every HTTP response of the card room."""

INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.DOTALL)


def inline_script_hashes(html: str) -> list[str]:
    """CSP sources (``'sha256-...'``) for each inline ``<script>`` of ``html``, so the page can
    run exactly those scripts and no other.

    >>> inline_script_hashes("<p>x</p><script>go()</script>")
    ["'sha256-5KYv+PUboo5h+0+YAtGRPbwv5d/QxzHslP4YGnUaxRw='"]
    """
    return [
        "'sha256-" + base64.b64encode(hashlib.sha256(body.encode()).digest()).decode() + "'"
        for body in INLINE_SCRIPT.findall(html)
    ]


def page_policy(html: str) -> str:
    """The client's policy, widened to run the inline scripts of ``html`` (by hash) and
    nothing else inline: for a page such as /docs, whose Swagger UI starts from one."""
    scripts = " ".join(["'self'", *inline_script_hashes(html)])
    return policy(**{**CLIENT_DIRECTIVES, "script_src": scripts})
