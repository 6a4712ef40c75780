"""docs/protocol.md lists every HTTP route the card room answers: a route added to the server
and not to the protocol's tables fails here, so the document cannot fall behind."""

from __future__ import annotations

import re
from pathlib import Path

from scopa.server.app import create_app

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def _documented() -> set[tuple[str, str]]:
    """(method, path) of each row of the protocol's tables, path parameters named ``{}``."""
    rows = re.findall(r"^\| `(GET|POST|PUT|PATCH|DELETE) (/[^`]*)`", DOC.read_text(), re.M)
    return {(method, re.sub(r"\{[^}]*\}", "{}", path)) for method, path in rows}


def test_every_http_route_is_in_the_protocol_document() -> None:
    app = create_app()
    served = {
        (method, re.sub(r"\{[^}]*\}", "{}", path))
        for path, operations in app.openapi()["paths"].items()
        for method in (name.upper() for name in operations)
    }
    assert served, "the app serves no route: the test would check nothing"
    missing = sorted(f"{method} {path}" for method, path in served - _documented())
    assert missing == [], f"routes not in docs/protocol.md: {missing}"
