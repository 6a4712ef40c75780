"""What one process sends another in one go: a text pushed to several of its sockets (a
seat's tabs, a table's spectators) travels once, and every socket still gets exactly its own
messages in their order, whatever the batch."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from scopa.server.cluster.cluster import coalesce

PROCESSES = ["b", "c"]
SOCKETS = ["a/1", "a/2", "a/3", "a/4"]
TEXTS = ["state 0", "state 1", "spectators", "over"]

messages = st.one_of(
    st.builds(
        lambda conn, text: {"op": "push", "conn": conn, "text": text},
        st.sampled_from(SOCKETS), st.sampled_from(TEXTS),
    ),
    st.builds(lambda conn: {"op": "played", "conn": conn}, st.sampled_from(SOCKETS)),
    st.builds(
        lambda conn: {"op": "close", "conn": conn, "code": 1012, "reason": "moved"},
        st.sampled_from(SOCKETS),
    ),
    st.builds(lambda ask: {"op": "reply", "id": ask, "result": {}}, st.sampled_from("xyz")),
)
batches = st.lists(st.tuples(st.sampled_from(PROCESSES), messages), max_size=30)


def received(batch: list[tuple[str, dict[str, Any]]]) -> dict[tuple[str, str], list[Any]]:
    """What each socket (and each lobby request) of each process is handed, in order."""
    seen: dict[tuple[str, str], list[Any]] = {}
    for process, message in batch:
        if message["op"] == "push":
            for conn in message.get("conns") or [message["conn"]]:
                seen.setdefault((process, conn), []).append(("push", message["text"]))
        else:
            key = message.get("conn") or message["id"]
            seen.setdefault((process, key), []).append(message)
    return seen


@given(batches)
def test_every_socket_gets_its_messages_in_order(batch: list[tuple[str, dict[str, Any]]]) -> None:
    assert received(coalesce(batch)) == received(batch)
    assert len(coalesce(batch)) <= len(batch)


def test_one_text_for_three_sockets_of_a_process_travels_once() -> None:
    state = "a seat's state"
    batch = [
        ("b", {"op": "push", "conn": "a/1", "text": state}),
        ("c", {"op": "push", "conn": "a/2", "text": state}),
        ("b", {"op": "push", "conn": "a/3", "text": "another seat's"}),
        ("b", {"op": "push", "conn": "a/4", "text": state}),
        ("b", {"op": "push", "conn": "a/5", "text": state}),
    ]
    assert coalesce(batch) == [
        ("b", {"op": "push", "conns": ["a/1", "a/4", "a/5"], "text": state}),
        ("c", {"op": "push", "conns": ["a/2"], "text": state}),
        ("b", {"op": "push", "conns": ["a/3"], "text": "another seat's"}),
    ]


def test_a_push_after_a_close_is_not_moved_before_it() -> None:
    batch = [
        ("b", {"op": "push", "conn": "a/1", "text": "S"}),
        ("b", {"op": "close", "conn": "a/2", "code": 1008, "reason": "replaced"}),
        ("b", {"op": "push", "conn": "a/2", "text": "S"}),
    ]
    assert coalesce(batch) == [
        ("b", {"op": "push", "conns": ["a/1"], "text": "S"}),
        ("b", {"op": "close", "conn": "a/2", "code": 1008, "reason": "replaced"}),
        ("b", {"op": "push", "conns": ["a/2"], "text": "S"}),
    ]
