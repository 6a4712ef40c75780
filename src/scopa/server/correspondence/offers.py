"""Offers of correspondence matches: to a player by name, to whoever opens a link, or a seek in
the correspondence pool, which pairs with the first like seek of another account.

An offer waits ``CorrespondenceSettings.offer_days`` (14) for its answer, in the database, so
any process takes it: it is settled once, by a compare-and-set (:func:`.queries.settle_offer`).
Every refusal is checked before anything is kept, and says why in one sentence: oneself, an
unknown name, a block either way, a rated match from or to an account that has not finished its
first few matches, a player who holds the most correspondence matches already, too many offers
open. A player offered by name is pushed it (a ``challenge``), as a player the pool pairs is
(``pool_match``); the link's and the seek's maker find the match in their list of games.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass
from datetime import timedelta
from typing import Final

from ..accounts.accounts import Account, clean_name, legacy_name_key, name_key
from ..common.errors import LobbyError
from ..common.services import Service
from ..store.storage import Storage
from ..table.room import build_rules, check_look
from ..table.tables import Table
from . import clocks
from . import queries as games_queries
from .games import Games

PLAYERS: Final = 2
"""A correspondence match is one person against another."""
KINDS: Final = ("name", "link", "seek")
BlockedAmong = Callable[[Storage, Collection[int]], Awaitable[set[frozenset[int]]]]
"""Who blocked whom among some accounts: the social feature's answer, handed in by the list
of parts (``parts.py``), since the features never import each other."""


@dataclass(frozen=True)
class Dealt:
    """A match an offer dealt, and the seat and token of the one who answered it."""

    table: Table
    seat: int
    token: str


class Offers:
    """The room's correspondence offers, as this process makes and answers them."""

    def __init__(self, games: Games, blocked_among: BlockedAmong) -> None:
        self.games = games
        self.room = games.room
        self.blocked_among = blocked_among

    @property
    def storage(self) -> Storage:
        return self.room.storage

    async def _refuse_blocked(self, first: int, second: int, name: str) -> None:
        if await self.blocked_among(self.storage, [first, second]):
            raise LobbyError(403, f"you cannot play {name}: one of you blocked the other",
                             code="blocked", params={"name": name})

    async def make(
        self, me: Account, kind: str, to: str | None, preset: str, target: int | None,
        look: str, rated: bool, days: int,
    ) -> tuple[games_queries.Offer, Dealt | None]:
        """A new offer (``name`` names ``to``; ``link``; ``seek``), or for a seek that finds
        its like, the match dealt at once: the offer, and the match if one was dealt."""
        if kind not in KINDS:
            raise LobbyError(422, f"an offer is made to a name, by a link or as a seek; not "
                             f"{kind!r}", code="bad_offer_kind")
        build_rules(preset, PLAYERS, None, target)
        check_look(look)
        if days not in clocks.DAYS:
            raise LobbyError(422, f"a correspondence match gives {', '.join(map(str, clocks.DAYS))}"
                             f" days a move; not {days}", code="bad_days", params={"days": days})
        other: tuple[int, str] | None = None
        if kind == "name":
            other = await self.find(to or "")
            if other[0] == me.id:
                raise LobbyError(422, "you cannot offer yourself a match: offer another player",
                                 code="offer_yourself")
            await self._refuse_blocked(me.id, other[0], other[1])
        moment = self.games.clock()
        settings = self.games.settings
        if await games_queries.open_sent(self.storage, me.id, moment) >= settings.max_matches:
            raise LobbyError(409, f"you have {settings.max_matches} offers open already: "
                             "cancel one first", code="too_many_offers",
                             params={"most": settings.max_matches})
        await self.games.refuse_full(me.id, None)
        if rated:
            await self.games.refuse_newcomer(me.id, None)
            if other is not None:
                await self.games.refuse_newcomer(other[0], other[1])
        offer = games_queries.Offer(
            id=secrets.token_urlsafe(9), kind=kind, from_account=me.id, from_name=me.name,
            to_account=None if other is None else other[0],
            to_name=None if other is None else other[1], preset=preset, target=target,
            look=look, rated=rated, days=days, state="open", table_code=None,
            created_at=moment, expires_at=moment + timedelta(days=settings.offer_days))
        if kind == "seek":
            dealt = await self._pair(me, offer)
            if dealt is not None:
                return offer, dealt
        await games_queries.add_offer(self.storage, offer)
        if other is not None:
            await self.games.notify(
                self.room, other[0], "challenge", offer.id,
                {"name": me.name, "preset": preset, "rated": int(rated), "days": days},
                f"/#/games/offer/{offer.id}", once=f"offer:{offer.id}")
        return offer, None

    async def _pair(self, me: Account, seek: games_queries.Offer) -> Dealt | None:
        """The match dealt with the oldest like seek of another account that may play this
        one, if there is one (taken once, among processes)."""
        moment = self.games.clock()
        for found in await games_queries.seeks_like(self.storage, seek, moment, [me.id]):
            if await self.blocked_among(self.storage, [me.id, found.from_account]):
                continue
            if seek.rated and not await self._may_rate(found.from_account):
                continue
            if not await games_queries.settle_offer(self.storage, found.id, "accepted", moment):
                continue
            dealt = await self._deal(found, me)
            code = dealt.table.code
            await self.games.notify(
                self.room, found.from_account, "pool_match", code,
                {"name": me.name, "preset": found.preset}, f"/#/t/{code}",
                once=f"seek:{found.id}")
            return dealt
        return None

    async def _may_rate(self, account_id: int) -> bool:
        try:
            await self.games.refuse_full(account_id, "")
            await self.games.refuse_newcomer(account_id, "")
        except LobbyError:
            return False
        return True

    async def find(self, typed: str) -> tuple[int, str]:
        """The account a typed name finds, or a 404 that says so."""
        cleaned = clean_name(typed)
        if not cleaned:
            raise LobbyError(422, "name a player: the name is empty", code="no_name")
        found = await games_queries.account_named(self.storage, name_key(cleaned),
                                                  legacy_name_key(typed))
        if found is None:
            raise LobbyError(404, f"no player is called {cleaned!r}",
                             code="no_player", params={"name": cleaned})
        return found

    async def get(self, offer_id: str) -> games_queries.Offer:
        found = await games_queries.offer(self.storage, offer_id)
        if found is None:
            raise LobbyError(404, "there is no such offer", code="unknown_offer")
        return found

    def _refuse_closed(self, offer: games_queries.Offer) -> None:
        if offer.state == "open" and offer.expires_at <= self.games.clock():
            raise LobbyError(410, "this offer expired", code="offer_expired")
        if offer.state != "open":
            raise LobbyError(410, f"this offer was {offer.state} already",
                             code="offer_closed", params={"state": offer.state})

    async def accept(self, me: Account, offer_id: str) -> Dealt:
        """Accept an offer made to you by name, or by a link: the match is dealt."""
        offer = await self.get(offer_id)
        self._refuse_closed(offer)
        if offer.from_account == me.id:
            raise LobbyError(422, "this offer is yours: send its link to someone else",
                             code="offer_yourself")
        if offer.kind == "seek" or (offer.kind == "name" and offer.to_account != me.id):
            raise LobbyError(403, "this offer is not yours to accept",
                             code="not_your_offer")
        await self._refuse_blocked(me.id, offer.from_account, offer.from_name)
        await self.games.refuse_full(me.id, None)
        await self.games.refuse_full(offer.from_account, offer.from_name)
        if offer.rated:
            await self.games.refuse_newcomer(me.id, None)
        if not await games_queries.settle_offer(self.storage, offer.id, "accepted",
                                                self.games.clock()):
            raise LobbyError(410, "this offer was answered just now", code="offer_closed",
                             params={"state": "accepted"})
        return await self._deal(offer, me)

    async def _deal(self, offer: games_queries.Offer, me: Account) -> Dealt:
        """Deal ``offer``'s match, its maker at seat 0 and ``me`` at seat 1."""
        rules = build_rules(offer.preset, PLAYERS, None, offer.target)
        table, grants = await self.games.start(
            rules, offer.look, offer.rated, offer.days,
            ((offer.from_account, offer.from_name), (me.id, me.name)))
        await games_queries.offer_table(self.storage, offer.id, table.code)
        seat, token = grants[1]
        return Dealt(table, seat, token)

    async def decline(self, me: Account, offer_id: str) -> None:
        """Decline an offer made to you by name, or cancel one of your own."""
        offer = await self.get(offer_id)
        self._refuse_closed(offer)
        if offer.from_account == me.id:
            state = "cancelled"
        elif offer.kind == "name" and offer.to_account == me.id:
            state = "declined"
        else:
            raise LobbyError(403, "this offer is not yours to decline", code="not_your_offer")
        if not await games_queries.settle_offer(self.storage, offer.id, state,
                                                self.games.clock()):
            raise LobbyError(410, "this offer was answered just now", code="offer_closed",
                             params={"state": "answered"})


OFFERS: Service[Offers] = Service("correspondence_offers")
"""This process's correspondence offers, as a dependency of the routes."""
