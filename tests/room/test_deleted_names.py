"""What deleting an account does to names, as invariants: the key a deleted account gives up
its name with is never the key of any name a person can type, old or new, so the released
tombstone is never found by a login or a registration; and taking a deleted account's names
out of a match's players touches its seats only."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from scopa.server.accounts.accounts import legacy_name_key, name_key
from scopa.server.store.account_queries import released_key
from scopa.server.store.deletion_queries import unnamed


@given(st.text(max_size=40), st.integers(min_value=1, max_value=2**31 - 1),
       st.sampled_from(["deleted", "DELETED", "Deleted", "dElEtEd"]), st.sampled_from(" \u00a0"))
def test_a_released_key_is_no_names_key(
    typed: str, account_id: int, word: str, space: str
) -> None:
    """Neither a name at random, nor one typed to look like the released key itself."""
    released = released_key(account_id)
    for name in (typed, f"{word}{space}{account_id}"):
        assert released not in (name_key(name), legacy_name_key(name))


players_strategy = st.lists(
    st.fixed_dictionaries({
        "seat": st.integers(0, 5),
        "kind": st.sampled_from(["human", "bot"]),
        "name": st.none() | st.text(min_size=1, max_size=24),
        "level": st.none() | st.sampled_from(["random", "expert"]),
    }),
    max_size=6,
)


@given(players_strategy, st.sets(st.integers(0, 5)))
def test_only_the_deleted_seats_lose_their_names(
    players: list[dict[str, Any]], seats: set[int]
) -> None:
    shown = unnamed(players, seats)
    assert len(shown) == len(players)
    for before, after in zip(players, shown, strict=True):
        if before["seat"] in seats:
            assert after == {**before, "name": None, "deleted": True}
        else:
            assert after == before
    assert all(player.get("deleted") is None for player in players)
