"""Every refusal the room can send carries a stable code, and the web client words each code
in its five languages with no parameter the server does not send (issue 35, item 6).

The codes are collected from the source, so a refusal added without a code, or with a code no
catalogue words, fails here rather than reaching a reader in English: every ``LobbyError`` (and
its subclasses' ``super().__init__``), every ``PoolError``, the table socket's ``ERROR_CODES``,
the app's own answers and sockets' errors (a dict literal with ``code`` and ``detail``, or
``"type": "error"``) and
:data:`scopa.server.common.errors.ROOM_CODES`."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from scopa.server.common.errors import ROOM_CODES
from scopa.server.common.protocol import ERROR_CODES

from .server_support import anyio_backend, running_server, settings_for

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]

SERVER = Path(__file__).parents[2] / "src" / "scopa" / "server"
CATALOGUES = Path(__file__).parents[2] / "src" / "scopa" / "web" / "i18n"
LANGUAGES = ("en", "it", "es", "sl", "tr")
CLIENT_CODES = {"unreachable": set(), "status": {"status"}, "retry": set()}
"""The client's own wordings beside the server's codes: no answer at all, an answer with no
JSON (a proxy's page: its status), and the button that tries again."""
PLACEHOLDER = re.compile(r"\{(\w+)\}")

Sent = dict[str, set[str] | None]
"""Each code and the params every site sends with it (None: not known from the source)."""


def strings(node: ast.AST) -> Iterator[str]:
    """The string constants in an expression (``error.code or "refused"`` gives ``refused``)."""
    for inner in ast.walk(node):
        if isinstance(inner, ast.Constant) and isinstance(inner.value, str):
            yield inner.value


def param_names(node: ast.AST | None) -> set[str] | None:
    """The keys of a params dict literal; none given is no params; anything else unknown."""
    if node is None or (isinstance(node, ast.Constant) and node.value is None):
        return set()
    if isinstance(node, ast.Dict) and all(isinstance(k, ast.Constant) for k in node.keys):
        return {k.value for k in node.keys if isinstance(k, ast.Constant)}
    return None


def keep(sent: Sent, codes: Iterator[str], params: set[str] | None) -> None:
    """Note ``codes`` sent with ``params``: a wording may use only what every site sends."""
    for code in codes:
        before = sent.get(code, params)
        sent[code] = None if before is None or params is None else before & params


def lobby_error_calls(tree: ast.Module) -> Iterator[ast.Call]:
    """``LobbyError(...)`` calls, and ``super().__init__(...)`` in a LobbyError subclass."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "LobbyError":
            yield node
        if isinstance(node, ast.ClassDef) and any(
            getattr(base, "id", None) == "LobbyError" for base in node.bases
        ):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) \
                        and inner.func.attr == "__init__":
                    yield inner


def keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in call.keywords if k.arg == name), None)


def sent_codes() -> tuple[Sent, list[str]]:
    """Every code the server sends, with its params, and the refusals that have no code."""
    sent: Sent = {}
    missing: list[str] = []
    for path in sorted(SERVER.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        where = path.relative_to(SERVER)
        for call in lobby_error_calls(tree):
            code = keyword(call, "code")
            if code is None:
                missing.append(f"{where}:{call.lineno}")
            else:
                keep(sent, strings(code), param_names(keyword(call, "params")))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "PoolError":
                given = node.args[2] if len(node.args) > 2 else keyword(node, "params")
                keep(sent, strings(node.args[0]), param_names(given))
            if isinstance(node, ast.Dict):
                fields = {k.value: v for k, v in zip(node.keys, node.values, strict=True)
                          if isinstance(k, ast.Constant)}
                error = isinstance(fields.get("type"), ast.Constant) and getattr(
                    fields["type"], "value", None) == "error"
                if ("detail" in fields or error) and "code" in fields:
                    keep(sent, strings(fields["code"]), param_names(fields.get("params")))
    keep(sent, iter(ERROR_CODES), set())
    keep(sent, iter(ROOM_CODES), set())
    return sent, missing


def test_every_refusal_of_the_room_carries_a_code() -> None:
    sent, missing = sent_codes()
    assert missing == [], "a LobbyError without a code: give it one, and its wordings"
    # The collection sees what it should: an account's, a pool's, a socket's, the app's own.
    assert {"name_taken", "seated", "not_your_turn", "invalid_request", "body_too_large"} <= set(
        sent)
    assert sent["name_taken"] == {"name"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_code_is_worded_in_each_language_with_only_the_params_sent(language: str) -> None:
    # The server's codes in the refusals' own catalogue; the client's in the page's.
    words = json.loads((CATALOGUES / "refusals" / f"{language}.json").read_text())
    page = json.loads((CATALOGUES / f"{language}.json").read_text())
    own = {key.removeprefix("refusal."): text for key, text in page.items()
           if key.startswith("refusal.")}
    sent, _ = sent_codes()
    assert sorted(set(sent) - set(words)) == [], "codes with no words"
    assert sorted(own) == sorted(CLIENT_CODES)
    for code, params in [*sent.items(), *CLIENT_CODES.items()]:
        text = words[code] if code in sent else own[code]
        assert text.strip(), code
        # A code whose params the source does not show is worded with none.
        assert set(PLACEHOLDER.findall(text)) <= (params or set()), (code, text)


async def test_a_refusal_on_the_wire_carries_its_code_and_params(tmp_path: Path) -> None:
    async with running_server(settings_for(tmp_path)) as server, httpx.AsyncClient(
        base_url=server.url, timeout=30
    ) as http:
        account = {"name": "Ada", "password": "correct horse battery"}
        assert (await http.post("/api/account/register", json=account)).status_code == 201
        taken = await http.post("/api/account/register", json=account)
        assert taken.status_code == 409
        assert taken.json() == {"detail": "the user name 'Ada' is taken: choose another",
                                "code": "name_taken", "params": {"name": "Ada"}}
        swiss = await http.post("/api/tournaments", json={
            "name": "Club night", "kind": "swiss", "preset": "scopa", "rounds": 99,
            "starts_at": "2099-01-01T20:00:00Z"})
        assert swiss.status_code == 422
        assert (swiss.json()["code"], swiss.json()["params"]) == ("swiss_rounds", {"most": 15})
