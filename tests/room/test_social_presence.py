"""Who is online, in memory and in a real Redis shared by two processes: whatever the order in
which sockets open and close, on either process, a person is online exactly while one of their
sockets is open, and only the first to open and the last to close say they came or went (so
their followers are told once)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scopa.server.social.presence import LocalPresence, Presence, RedisPresence

from .server_support import KeptLoop

PEOPLE = ["account:1", "account:2", "account:3"]
SOCKETS = 3

steps = st.lists(
    st.tuples(st.integers(0, 1), st.sampled_from(PEOPLE), st.integers(0, SOCKETS - 1)),
    max_size=30,
)


def fresh_presences(loop: KeptLoop) -> list[Presence]:
    """Two processes' presences: in memory one alone (it shares its memory), or two on the
    loop's emptied Redis database."""
    client = loop.emptied()
    if client is None:
        alone = LocalPresence()
        return [alone, alone]
    return [RedisPresence(client, "p0"), RedisPresence(client, "p1")]


@settings(max_examples=60, deadline=None)
@given(steps)
def test_a_person_is_online_exactly_while_a_socket_of_theirs_is_open(
    kept_loop: KeptLoop, script: list[tuple[int, str, int]]
) -> None:
    presences = fresh_presences(kept_loop)

    async def play() -> None:
        open_sockets: set[tuple[int, str, int]] = set()
        for process, person, number in script:
            socket = (process, person, number)
            held = {s for s in open_sockets if s[1] == person}
            if socket in open_sockets:
                went = await presences[process].went(person, f"{process}-{number}")
                open_sockets.discard(socket)
                assert went == (held == {socket})
            else:
                came = await presences[process].came(person, f"{process}-{number}")
                open_sockets.add(socket)
                assert came == (not held)
            online = {s[1] for s in open_sockets}
            for each in presences:
                assert await each.online(PEOPLE) == online
        for each in presences:
            await each.close()
        assert await presences[0].online(PEOPLE) == set()

    kept_loop.run(play())
