"""Correspondence play's pushes (issue 36, item 5) through a real push service on loopback
(:mod:`.push_receiver`, which checks each VAPID signature and decrypts each payload): an offer
by name reaches the closed browser of the player offered; a move reaches the next mover once,
a moment later, only when they are not at the table; the alarm at 80% of their time reaches
them once; a seek paired reaches the seeker who left."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from scopa.server.correspondence.settings import CorrespondenceSettings
from scopa.server.push.settings import PushSettings

from .push_receiver import Receiver
from .server_support import Server, anyio_backend, running_server, settings_for, until
from .test_correspondence import DAY, Clock, at_table, clock_of, games_of, move_once, token_of
from .test_push import drained, room_key
from .test_social import person

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]


@pytest.fixture
async def receiver(tmp_path: Path) -> AsyncIterator[Receiver]:
    async with Receiver(tmp_path).running() as running:
        yield running


def settings(tmp_path: Path, receiver: Receiver, clock: Clock) -> Any:
    return settings_for(tmp_path, register_per_address="100/minute", newcomer_matches=0,
                        sections=(
                            PushSettings(allow_hosts=frozenset({"127.0.0.1"}),
                                         ca_file=receiver.cert),
                            CorrespondenceSettings(clock=clock, sweep_every=3600.0,
                                                   push_delay=0.2),
                        ))


async def quiet(room: Server) -> bool:
    """Every move's push this process waits to send has gone (or was not sent)."""
    return not games_of(room).pushes_waiting


async def test_the_next_mover_is_pushed_when_away_and_the_alarm_rings_once(
    tmp_path: Path, receiver: Receiver
) -> None:
    clock = Clock()
    async with running_server(settings(tmp_path, receiver, clock)) as room:
        receiver.room_key = await room_key(room)
        async with person(room.url, "Ada") as ada, person(room.url, "Bea", online=False) as bea:
            assert (await bea.post("/api/push/subscriptions",
                                   receiver.browser("bea").subscription()))[0] == 201
            status, made = await ada.post("/api/correspondence/offers",
                                          {"kind": "name", "to": "Bea", "days": 5})
            assert status == 201
            offer = made["offer"]
            [pushed] = await receiver.wait_for(1)
            assert pushed.payload["kind"] == "challenge"
            assert pushed.payload["url"] == f"/#/games/offer/{offer['id']}"
            assert pushed.payload["params"] == {"name": "Ada", "preset": "scopa", "rated": 0,
                                                "days": 5}

            status, grant = await bea.post(f"/api/correspondence/offers/{offer['id']}/accept")
            assert status == 200
            code = grant["table"]["code"]
            tokens = {"Ada": await token_of(ada, code), "Bea": grant["token"]}
            first = (await clock_of(ada, code))["mover"]
            if first == 0:  # Ada moves first, away from nothing: Bea, away, is pushed
                async with at_table(room.url, code, tokens["Ada"]) as connection:
                    await move_once(connection)
            turn = (await receiver.wait_for(2))[1]
            assert turn.payload["kind"] == "your_turn"
            assert turn.payload["url"] == f"/#/t/{code}"
            assert turn.payload["params"] == {"name": "Ada", "preset": "scopa"}
            assert turn.headers["Urgency"] == "normal"
            assert (await clock_of(ada, code))["mover"] == 1

            # Bea moves, then waits at the table for Ada's answer: no push reaches her.
            async with at_table(room.url, code, tokens["Bea"]) as bea_at:
                await move_once(bea_at)
                async with at_table(room.url, code, tokens["Ada"]) as ada_at:
                    await move_once(ada_at)
                await until(lambda: quiet(room), "the move's push looked and went")
            await drained(room)
            assert len(receiver.arrived) == 2

            # Bea left: at 80% of her 5 days, the alarm reaches her, once.
            clock.advance(4 * DAY + timedelta(minutes=1))
            await games_of(room).sweep()
            await games_of(room).sweep()
            [alarm] = (await receiver.wait_for(3))[2:]
            await drained(room)
            assert alarm.payload["kind"] == "time_alarm"
            assert alarm.payload["params"] == {"name": "Ada", "hours": 24}
            assert alarm.headers["Urgency"] == "high"
            assert len(receiver.arrived) == 3 and not receiver.refused


async def test_a_seeker_who_left_is_pushed_the_match_the_pool_found(
    tmp_path: Path, receiver: Receiver
) -> None:
    clock = Clock()
    async with running_server(settings(tmp_path, receiver, clock)) as room:
        receiver.room_key = await room_key(room)
        async with person(room.url, "Ada", online=False) as ada, person(room.url, "Bea") as bea:
            assert (await ada.post("/api/push/subscriptions",
                                   receiver.browser("ada").subscription()))[0] == 201
            seek = {"kind": "seek", "preset": "scopa", "days": 7, "rated": False}
            assert (await ada.post("/api/correspondence/offers", seek))[0] == 201
            status, paired = await bea.post("/api/correspondence/offers", seek)
            assert status == 201 and paired["grant"] is not None
            code = paired["grant"]["table"]["code"]
            arrived = await receiver.wait_for(1)
            kinds = sorted(push.payload["kind"] for push in arrived)
            assert "pool_match" in kinds
            found = next(push for push in arrived if push.payload["kind"] == "pool_match")
            assert found.payload["url"] == f"/#/t/{code}"
            assert found.payload["params"] == {"name": "Bea", "preset": "scopa"}
