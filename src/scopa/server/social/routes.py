"""Challenges and friends over HTTP: follow, unfollow, block and unblock by name, whom one
takes challenges from, who of one's followers sees where one plays, and challenges sent and
answered.

Every route needs a logged-in player; every write passes the accounts' Origin check
(:data:`..accounts.accounts.Me`) and the lobby's limits per client address. A refusal is one
sentence and changes nothing. What changes a person's list of friends is told to their
``/ws/me`` sockets too, so every page of theirs shows it.
"""

from __future__ import annotations

import time
from typing import Annotated, Final, Literal

from fastapi import APIRouter, Depends, Path
from pydantic import BaseModel, Field, StringConstraints

from ..accounts.accounts import Me, rate_limit
from ..common.errors import LobbyError
from ..lobby import SeatGrant, TableView
from ..store.storage import now
from . import queries as social_queries
from .challenges import CHALLENGES, Challenges
from .feed import FRIENDS_CHANGED, PEOPLE, PeopleFeed, person_of

MAX_FOLLOWS: Final = 500
"""Accounts one account may follow (its list is read whole on every change)."""
MAX_BLOCKS: Final = 1000
"""Accounts one account may block."""

TypedName = Annotated[str, StringConstraints(max_length=256)]
ChallengeId = Annotated[str, Path(max_length=32, description="the challenge's id")]

router = APIRouter(prefix="/api", tags=["friends"], dependencies=[Depends(rate_limit)])


People = Annotated[PeopleFeed, Depends(PEOPLE)]
Desk = Annotated[Challenges, Depends(CHALLENGES)]


class Someone(BaseModel):
    name: TypedName = Field(description="the player's user name (as they look, any case)")


class Friend(BaseModel):
    name: str
    online: bool = Field(description="a page of the room is open for them now")
    table: str | None = Field(
        description="the code of the table where they are playing now, to watch: #/t/CODE; "
        "null when they play nowhere, or do not show you where (as their setting says: "
        "to all who follow them, to those they follow back, or to none; a daily deal never)"
    )


class Friends(BaseModel):
    following: list[Friend] = Field(description="those you follow, by name")
    blocked: list[str] = Field(description="those you blocked, by name")
    challenges: str = Field(
        description="whom you take challenges from: all, follows (those you follow) or none"
    )
    playing_shown: str = Field(
        description="who of those following you sees the table where you play: all, follows "
        "(those you follow back, unless you chose otherwise) or none"
    )


class Accepts(BaseModel):
    accepts: Literal["all", "follows", "none"] = Field(
        description="whom you take challenges from: all, follows (those you follow) or none"
    )


class Shown(BaseModel):
    shown: Literal["all", "follows", "none"] = Field(
        description="who of those following you sees the table where you play: all, follows "
        "(those you follow back) or none"
    )


class NewChallenge(Someone):
    preset: Annotated[str, StringConstraints(max_length=32)] = Field(
        "scopa", description="the game: a rule preset for two players (scopa, escoba, ...)"
    )
    target: int | None = Field(None, ge=1, le=1000, description="points to win")
    look: Annotated[str, StringConstraints(max_length=32)] = Field(
        "french", description="deck look: french, italian or spanish"
    )
    rated: bool = Field(False, description="rated: the match moves both players' ratings")


class ChallengeView(BaseModel):
    id: str
    to: str = Field(description="the challenged player's name")
    preset: str
    target: int | None
    look: str
    rated: bool = Field(description="whether the match will move ratings")
    casual: dict[str, str] | None = Field(
        None, description="a challenge sent rated that will be played casual: why, as a "
        "stable code and a sentence (pair_cap: you two played your rated matches of the day)")
    expires_in: float = Field(description="seconds it waits for an answer")


async def _friends(people: PeopleFeed, account_id: int) -> Friends:
    storage = people.room.storage
    return Friends(
        following=[Friend(**one) for one in await people.friends(account_id)],
        blocked=[one.name for one in await social_queries.blocked_by(storage, account_id)],
        challenges=await social_queries.accepts_from(storage, account_id),
        playing_shown=await social_queries.playing_shown(storage, account_id),
    )


async def _changed(people: PeopleFeed, account_id: int) -> Friends:
    """Tell the person's pages their list changed; the list as it is now."""
    await people.room.hub.tell(person_of(account_id), {"type": FRIENDS_CHANGED})
    return await _friends(people, account_id)


@router.get("/friends")
async def list_friends(me: Me, people: People) -> Friends:
    """Those you follow (who is online, and at which table if they show you), those you
    blocked, whom you take challenges from and who sees where you play."""
    return await _friends(people, me.id)


@router.post("/friends/follow")
async def follow(body: Someone, me: Me, people: People, desk: Desk) -> Friends:
    """Follow a player: see when they are online, and where they play if they show you
    (by default, once they follow you too). Their list may change with it: tell them."""
    other = await desk.find(body.name)
    if other.account_id == me.id:
        raise LobbyError(422, "you cannot follow yourself: follow another player",
                         code="follow_yourself")
    await desk.check_blocks(me, other, "follow them")
    storage = people.room.storage
    if len(await social_queries.followed_by(storage, me.id)) >= MAX_FOLLOWS:
        raise LobbyError(409, f"you follow {MAX_FOLLOWS} players already: unfollow one first",
                         code="too_many_follows", params={"most": MAX_FOLLOWS})
    await social_queries.follow(storage, me.id, other.account_id, now())
    # Who follows is said, so their list is told when the followed one goes (feed.py).
    await people.room.hub.tell(person_of(other.account_id),
                               {"type": FRIENDS_CHANGED, "follower": me.id})
    return await _changed(people, me.id)


@router.post("/friends/unfollow")
async def unfollow(body: Someone, me: Me, people: People, desk: Desk) -> Friends:
    """Stop following a player (who no longer sees your table, if you showed it to those you
    follow back)."""
    other = await desk.find(body.name)
    await social_queries.unfollow(people.room.storage, me.id, other.account_id)
    await people.room.hub.tell(person_of(other.account_id), {"type": FRIENDS_CHANGED})
    return await _changed(people, me.id)


@router.post("/friends/block")
async def block(body: Someone, me: Me, people: People, desk: Desk) -> Friends:
    """Block a player: no challenges either way, their table talk hidden from you, never paired
    with you, and neither of you follows the other any more."""
    other = await desk.find(body.name)
    if other.account_id == me.id:
        raise LobbyError(422, "you cannot block yourself", code="block_yourself")
    storage = people.room.storage
    if len(await social_queries.blocked_by(storage, me.id)) >= MAX_BLOCKS:
        raise LobbyError(409, f"you blocked {MAX_BLOCKS} players already: unblock one first",
                         code="too_many_blocks", params={"most": MAX_BLOCKS})
    await social_queries.block(storage, me.id, other.account_id, now())
    await people.room.hub.tell(person_of(other.account_id), {"type": FRIENDS_CHANGED})
    return await _changed(people, me.id)


@router.post("/friends/unblock")
async def unblock(body: Someone, me: Me, people: People, desk: Desk) -> Friends:
    """Lift a block."""
    other = await desk.find(body.name)
    await social_queries.unblock(people.room.storage, me.id, other.account_id)
    return await _changed(people, me.id)


@router.post("/friends/challenges")
async def take_challenges(body: Accepts, me: Me, people: People) -> Friends:
    """Choose whom you take challenges from."""
    await social_queries.set_accepts(people.room.storage, me.id, body.accepts)
    return await _friends(people, me.id)


@router.post("/friends/playing")
async def show_playing(body: Shown, me: Me, people: People) -> Friends:
    """Choose who of those following you sees the table where you play; their lists are read
    again at once."""
    await social_queries.set_playing_shown(people.room.storage, me.id, body.shown)
    await people.tell_followers(me.id)
    return await _friends(people, me.id)


@router.post("/challenges", status_code=201)
async def challenge(body: NewChallenge, me: Me, desk: Desk) -> ChallengeView:
    """Challenge a player who is online (or whose browsers take challenge pushes: they are
    pushed it) to a match of two; they see it at once, and it waits for their answer
    ``challenge_seconds`` (60 s). The answer comes on your ``/ws/me``."""
    sent = await desk.send(me, body.name, body.preset, body.target, body.look, body.rated)
    offer = sent.offer(time.time())
    return ChallengeView(**{key: offer[key] for key in ChallengeView.model_fields})


@router.post("/challenges/{challenge_id}/accept")
async def accept(challenge_id: ChallengeId, me: Me, desk: Desk) -> SeatGrant:
    """Accept a challenge made to you: the table is made with both of you seated and dealt;
    the answer holds your seat token, the challenger gets theirs on their ``/ws/me``."""
    info, seat, token = await desk.accept(me, challenge_id)
    return SeatGrant(table=TableView.model_validate(info), seat=seat, token=token,
                     socket=f"/ws/tables/{info['code']}")


@router.post("/challenges/{challenge_id}/decline", status_code=204)
async def decline(challenge_id: ChallengeId, me: Me, desk: Desk) -> None:
    """Decline a challenge made to you; the challenger is told."""
    await desk.decline(me, challenge_id)

