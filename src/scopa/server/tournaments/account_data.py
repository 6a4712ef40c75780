"""What the tournaments keep about an account (:mod:`..store.account_data`): its entries, in its
download. At its deletion it withdraws from every tournament not finished (a director would pair
the nameless entrant, and its table could not be made), and its name is blanked on its entries
and on the podiums of the finished ones, which keep their lines as they were shown."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from ..store.account_data import AccountData, Section, rows_of
from ..store.schema import tournament_players, tournaments


def off_podium(podium: list[dict[str, Any]], account_id: int) -> list[dict[str, Any]]:
    """A finished tournament's podium with ``account_id``'s line nameless and marked deleted.

    >>> off_podium([{"rank": 1, "player": 3, "name": "Anna"}, {"rank": 2, "player": 4}], 3)
    [{'rank': 1, 'player': 3, 'name': '', 'deleted': True}, {'rank': 2, 'player': 4}]
    """
    return [
        {**line, "name": "", "deleted": True} if line.get("player") == account_id else line
        for line in podium
    ]


async def withdraw(connection: AsyncConnection, account_id: int) -> None:
    """Off the podiums it stood on, and out of every tournament not finished."""
    entered = await connection.execute(
        sa.select(tournaments.c.id, tournaments.c.podium)
        .join(tournament_players, tournament_players.c.tournament_id == tournaments.c.id)
        .where(tournament_players.c.account_id == account_id)
    )
    for row in entered.all():
        if row.podium:
            await connection.execute(
                tournaments.update().where(tournaments.c.id == row.id)
                .values(podium=off_podium(row.podium, account_id))
            )
    await connection.execute(
        tournament_players.update().where(
            tournament_players.c.account_id == account_id,
            tournament_players.c.tournament_id.in_(
                sa.select(tournaments.c.id).where(tournaments.c.status != "finished")
            ),
        ).values(withdrawn=True)
    )


TOURNAMENTS_DATA = AccountData(
    sections=(Section("tournament_entries", rows_of(tournament_players, "account_id")),),
    unnamed=((tournament_players, "account_id", "name"),),
    erase=withdraw,
)
