"""Challenges: a logged-in player asks another, by name, to play a match of two, with the game,
target, deck look and rated or casual chosen; the other accepts or declines, or lets it expire
(``SocialSettings.challenge_seconds``, 60 by default).

A person not in the room (no page of it open) is challenged only when their browsers take
challenge pushes (Web Push's calls, handed in by the list of parts): they are pushed the
challenge once, worth delivering while it waits, and its notification opens the room, whose
``/ws/me`` offers each challenge still waiting as it opens (:meth:`Challenges.open_to`).

Every refusal is checked before anything is kept or told, and says why in one sentence
(:class:`~..common.errors.LobbyError`): oneself, an unknown name, a block either way, a player
who takes no challenges (or only from those they follow), one who is not online, and a
second challenge to the same person while the first is open; a rated one from or to an
account that has not finished its first few matches (``new_account``). A rated challenge
between two accounts that have played their rated matches of the day together says, when sent,
that it will be played casual (``pair_cap``), and the table's deal decides it. Accepting makes
the table as the lobby does (:meth:`.CardRoom.create`, :meth:`.Table.join`,
:meth:`.Table.start`: the seats and their tokens are the lobby's own), the challenger at seat
0; the accepter gets their seat in the answer, the challenger theirs on ``/ws/me``
(:meth:`.Hub.tell`), so both browsers go to the table. The open challenges live in the room's
:mod:`.book`, so any process may take the answer; the process that took the challenge expires
it.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Coroutine
from typing import Any, Final

from ..accounts import accounts, ratings
from ..accounts.accounts import Account, legacy_name_key, name_key
from ..cluster.hub import RedisHub
from ..common.errors import LobbyError
from ..common.services import Service
from ..feature import Notify, Reachable
from ..store import rating_queries
from ..store.storage import now
from ..table.room import CardRoom, build_rules, check_look
from . import queries as social_queries
from .book import Book, Challenge, LocalBook, RedisBook
from .feed import PeopleFeed, person_of
from .settings import SocialSettings

PLAYERS: Final = 2
"""A challenge is one person against another."""


class Challenges:
    """The room's challenges, as this process takes, answers and expires them."""

    def __init__(self, room: CardRoom, people: PeopleFeed, reachable: Reachable,
                 notify: Notify) -> None:
        self.room = room
        self.people = people
        self.reachable = reachable
        self.notify = notify
        self.book: Book = (
            RedisBook(room.hub.redis) if isinstance(room.hub, RedisHub) else LocalBook()
        )
        self._timers: dict[str, asyncio.TimerHandle] = {}
        """The expiry of each challenge this process took, until it is settled."""
        self._tasks: set[asyncio.Task[None]] = set()
        people.open_challenges = self.open_to

    @property
    def seconds(self) -> float:
        return self.room.settings.section(SocialSettings).challenge_seconds

    async def find(self, typed: str) -> social_queries.Named:
        """The account a typed name finds, or a 404 that says so."""
        cleaned = accounts.clean_name(typed)
        if not cleaned:
            raise LobbyError(422, "name a player: the name is empty", code="no_name")
        found = await social_queries.account_named(
            self.room.storage, name_key(cleaned), legacy_name_key(typed)
        )
        if found is None:
            raise LobbyError(404, f"no player is called {cleaned!r}",
                             code="no_player", params={"name": cleaned})
        return found

    async def check_blocks(self, me: Account, other: social_queries.Named, doing: str) -> None:
        """Refuse (403) ``doing`` (a verb phrase) between two accounts if one blocked the
        other."""
        storage = self.room.storage
        if not await social_queries.blocked_among(storage, [me.id, other.account_id]):
            return
        if await social_queries.has_blocked(storage, me.id, other.account_id):
            raise LobbyError(403, f"you blocked {other.name}: unblock them first to {doing}",
                             code="you_blocked", params={"name": other.name})
        raise LobbyError(403, f"{other.name} does not let you {doing}",
                         code="blocked_you", params={"name": other.name})

    async def send(
        self, me: Account, typed: str, preset: str, target: int | None, look: str, rated: bool
    ) -> Challenge:
        """Challenge the player ``typed`` names; the challenge, told to them at once."""
        build_rules(preset, PLAYERS, None, target)
        check_look(look)
        other = await self.find(typed)
        if other.account_id == me.id:
            raise LobbyError(422, "you cannot challenge yourself: challenge another player",
                             code="challenge_yourself")
        await self.check_blocks(me, other, "challenge them")
        storage = self.room.storage
        accepts = await social_queries.accepts_from(storage, other.account_id)
        if accepts == "none":
            raise LobbyError(403, f"{other.name} takes no challenges just now",
                             code="no_challenges", params={"name": other.name})
        if accepts == "follows" and not await social_queries.follows_one(
            storage, other.account_id, me.id
        ):
            raise LobbyError(403, f"{other.name} takes challenges only from players they follow",
                             code="challenges_from_follows", params={"name": other.name})
        away = not await self.people.presence.online([person_of(other.account_id)])
        if away and not await self.reachable(self.room, other.account_id, "challenge"):
            raise LobbyError(
                409, f"{other.name} is not in the room just now: challenge them when they are",
                code="not_in_room", params={"name": other.name}
            )
        casual = None
        if rated:
            await self.check_newcomers(me, other)
            if await rating_queries.pair_capped(storage, {me.id, other.account_id}, now()):
                casual = "pair_cap"
        challenge = Challenge(
            id=secrets.token_urlsafe(9), from_id=me.id, from_name=me.name,
            to_id=other.account_id, to_name=other.name, preset=preset, target=target,
            look=look, rated=rated, expires=time.time() + self.seconds, casual=casual,
        )
        if not await self.book.add(challenge):
            raise LobbyError(
                409, f"you have challenged {other.name} already: wait for their answer",
                code="challenged_already", params={"name": other.name}
            )
        self._timers[challenge.id] = asyncio.get_running_loop().call_later(
            self.seconds, lambda: self._soon(self.expire(challenge))
        )
        await self.room.hub.tell(
            person_of(other.account_id), {"type": "challenge", **challenge.offer(time.time())}
        )
        if away:
            await self.notify(
                self.room, other.account_id, "challenge", challenge.id,
                {"name": me.name, "preset": preset, "rated": int(rated and casual is None)},
                "/", ttl=self.seconds, once=challenge.id,
            )
        return challenge

    async def open_to(self, account_id: int) -> list[dict[str, Any]]:
        """The challenges to ``account_id`` still waiting, as offers."""
        moment = time.time()
        return [challenge.offer(moment) for challenge in await self.book.open_to(account_id)]

    async def check_newcomers(self, me: Account, other: social_queries.Named) -> None:
        """Refuse (403, ``new_account``) a rated challenge from or to an account that has not
        finished its first matches yet (``Settings.newcomer_matches``): a fresh second account
        cannot hand its owner rated wins."""
        needed = self.room.settings.newcomer_matches
        for account_id, name in ((me.id, None), (other.account_id, other.name)):
            refusal = await ratings.newcomer_refusal(self.room.storage, account_id, name, needed)
            if refusal is not None:
                raise LobbyError(403, refusal, code="new_account")

    def _soon(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def expire(self, challenge: Challenge) -> None:
        """Its time is up: if nobody answered, both are told it expired."""
        self._timers.pop(challenge.id, None)
        if await self.book.settle(challenge, "expired") is not None:
            await self._told(challenge, "expired", {})

    async def _told(self, challenge: Challenge, state: str, more: dict[str, Any]) -> None:
        """Tell the challenger how it ended (with their seat, when accepted), and every page of
        the challenged that it is no longer open."""
        hub = self.room.hub
        await hub.tell(person_of(challenge.from_id), {
            "type": "challenge_answer", "id": challenge.id, "to": challenge.to_name,
            "state": state, **more,
        })
        await hub.tell(person_of(challenge.to_id), {
            "type": "challenge_gone", "id": challenge.id, "state": state,
            **({"table": more["table"]} if "table" in more else {}),
        })

    async def answerable(self, me: Account, challenge_id: str) -> Challenge:
        """The open challenge ``challenge_id`` to ``me``, or the refusal that says why not."""
        challenge = await self.book.get(challenge_id)
        if challenge is None:
            raise LobbyError(404, "there is no such challenge (or it ended long ago)",
                             code="no_challenge")
        if challenge.to_id != me.id:
            raise LobbyError(403, "this challenge is not yours to answer",
                             code="not_your_challenge")
        if challenge.state == "expired" or (
            challenge.state == "open" and challenge.expires <= time.time()
        ):
            raise LobbyError(
                410, f"this challenge expired: a challenge waits {self.seconds:g} seconds",
                code="challenge_expired", params={"seconds": self.seconds}
            )
        if challenge.state != "open":
            raise LobbyError(410, f"this challenge was {challenge.state} already",
                             code="challenge_answered", params={"state": challenge.state})
        return challenge

    async def _settle(self, challenge: Challenge, state: str) -> None:
        if await self.book.settle(challenge, state) is None:
            # Settled by another answer, or expired, between the look and the settling.
            raise LobbyError(410, "this challenge was answered or expired just now",
                             code="challenge_answered_now")
        timer = self._timers.pop(challenge.id, None)  # if this process took it
        if timer is not None:
            timer.cancel()

    async def decline(self, me: Account, challenge_id: str) -> None:
        challenge = await self.answerable(me, challenge_id)
        await self._settle(challenge, "declined")
        await self._told(challenge, "declined", {})

    async def accept(self, me: Account, challenge_id: str) -> tuple[dict[str, Any], int, str]:
        """Accept: the table made with both seated and dealt; its view, and the accepter's seat
        and token."""
        challenge = await self.answerable(me, challenge_id)
        challenger = social_queries.Named(challenge.from_id, challenge.from_name)
        await self.check_blocks(me, challenger, "play them")
        rules = build_rules(challenge.preset, PLAYERS, None, challenge.target)
        await self._settle(challenge, "accepted")
        storage = self.room.storage
        table, first, first_token = await self.room.create(
            rules, challenge.look, {}, challenge.from_name
        )
        assert first is not None and first_token is not None
        seat, token = await table.join(me.name, None)
        await accounts.table_made(storage, table.code, seat, me, challenge.rated, token)
        await accounts.give_seat(storage, table.code, first, challenge.from_id, first_token)
        await table.start(first_token)
        info = table.info()
        await self._told(challenge, "accepted",
                         {"table": table.code, "seat": first, "token": first_token,
                          "rated": info["rated"], "casual": info["casual"]})
        return info, seat, token

    async def close(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()


CHALLENGES: Service[Challenges] = Service("challenges")
"""The challenges this process holds, as a dependency of the routes."""
