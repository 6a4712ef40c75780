"""Accounts, optional: register, log in, log out, change the password, list and revoke sessions.

Guests still play with no account. A password is kept only as its argon2id hash
(``argon2-cffi``'s defaults, RFC 9106's second recommended setting), worked out in a thread so
the event loop never waits on it. A session is a random secret in an HttpOnly, SameSite=Lax
cookie (Secure when the request came over https); the database keeps only its SHA-256, so a
copy of the database logs nobody in, and a session is revoked by deleting its row. Every login
makes a new session (a cookie sent with the login is revoked), so a session id planted before
login is worth nothing after it.

A write authenticated by the cookie must come from this site: a browser sends ``Origin`` (or at
least ``Referer``) with it, and one that names another site is refused (403). Password checks
(logins, password changes) are limited per client address and per pair of address and account,
registrations per address (:class:`~..common.ratelimit.AccountLimits`), with the ``limits``
library, in memory or in the room's Redis. No password, hash or session secret is ever logged or
sent back.

Names: what is typed is cleaned by one function for registration and login alike
(:func:`clean_name`), and accounts are unique by what a name looks like, not by its code
points (:func:`name_key`): ``Anna``, ``anna``, Cyrillic ``\u0410nna`` and fullwidth
``\uff21nna`` are one name, and a guest may not sit under a name that looks like an account's.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import secrets
import threading
import unicodedata
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Annotated, Final, TypeVar
from urllib.parse import urlsplit

import icu  # type: ignore[import-untyped]
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Depends, Path, Request, Response
from pydantic import BaseModel, Field, StringConstraints
from starlette.requests import HTTPConnection

from ..common.browser import browser_key
from ..common.errors import LobbyError
from ..common.ratelimit import ACCOUNT_LIMITS
from ..common.services import CLOCK
from ..common.text import MAX_MARKS, invisible, most_marks
from ..common.tokens import token_matches
from ..feature import ROOM
from ..store import account_queries, chat_queries, fairplay_queries, rating_queries
from ..store.account_queries import SealedSeat
from ..store.storage import Storage as Database
from ..store.storage import now
from ..table.tables import clean_name as clean_display_name
from . import seatkeys

COOKIE: Final = "scopa_session"
SESSION_DAYS: Final = 30
"""A session lasts this long from login; logging in again makes a new one."""
MAX_NAME: Final = 24
MIN_PASSWORD: Final = 8
MAX_PASSWORD: Final = 256
SEEN_EVERY: Final = timedelta(minutes=5)
"""A session's ``seen_at`` is written at most this often, not on every request."""
NAME_KEPT: Final = timedelta(days=30)
"""A deleted account's name (and every name that looks like it) is nobody's to register for
this long, so that nobody takes it over while the people who knew it still remember it."""

_hasher = PasswordHasher()
_DUMMY_HASH: Final = _hasher.hash("a password nobody has")
"""Checked against when a name is unknown, so that the answer takes as long as for a known one."""

Body = Annotated[str, StringConstraints(max_length=4096)]


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    session: int
    """The public handle of the session this request came with."""
    seat_key: bytes | None = None
    """The account's seat key, from the browser's cookie (:mod:`.seatkeys`)."""


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


GUEST_NAMES: Final = ("Guest", "Invitado", "Ospite", "Gost", "Misafir")
"""What the web client calls a guest who typed no name, in each of its languages (``lobby.guest``
in ``src/scopa/web/i18n``; ``POST /api/play``'s default is the first). No account may look like
one of them, or every guest who typed no name would be refused a seat."""

_SPOOF: Final = icu.SpoofChecker()
"""ICU's implementation of Unicode TR39, for :func:`name_key`'s skeletons.

Chosen over the two PyPI packages usually named for this: ``confusable-homoglyphs`` ships data
made from Unicode's confusables.txt, but turned into a map of look-alikes both ways (it answers
"which characters look like this one", not "what is this string's skeleton") and has no
skeleton; ``confusables`` ships confusables.txt itself (Unicode 13.0) but compares through a
two-way map with its own additions (``e`` like ``3``; accents dropped, so ``José`` would be
``Jose``), not the skeleton. ICU is Unicode's own library and its ``getSkeleton`` is TR39's
algorithm over confusables.txt; ``pyicu-wheels`` brings PyICU with ICU inside the wheel (no
system ICU, no compiler). It is pinned in pyproject.toml: the stored keys are made from its data.
"""

def clean_name(name: str) -> str:
    """A user name as typed, in the one form that registration stores and login looks up:
    NFKC (fullwidth letters, ligatures and the like as their plain forms; NFC and NFD ``José``
    alike), each run of whitespace as one space, trimmed.

    >>> clean_name("  Anna   Rossi ")
    'Anna Rossi'
    >>> clean_name("\uff21nna"), clean_name("Jose\u0301") == clean_name("Jos\u00e9")
    ('Anna', True)
    """
    return " ".join(unicodedata.normalize("NFKC", name).split())


def check_name(name: str) -> str:
    """A user name as kept: :func:`clean_name`, then 1 to 24 characters with at least one
    letter or digit, no control or invisible characters, not beginning with a combining mark,
    at most :data:`.MAX_MARKS` marks on a character (the rule of :mod:`..common.text`).

    >>> check_name("  Anna  Rossi ")
    'Anna Rossi'
    >>> check_name("x" * 25)  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    ...
    LobbyError: a user name may have at most 24 characters; this one has 25
    """
    name = clean_name(name)
    if not name:
        raise LobbyError(422, "a user name needs at least one character", code="name_empty")
    if any(invisible(char) for char in name):
        raise LobbyError(422, "a user name may not hold control or invisible characters",
                         code="name_invisible")
    if len(name) > MAX_NAME:
        raise LobbyError(
            422, f"a user name may have at most {MAX_NAME} characters; this one has {len(name)}",
            code="name_too_long", params={"most": MAX_NAME, "length": len(name)}
        )
    if not any(unicodedata.category(char)[0] in "LN" for char in name):
        raise LobbyError(422, "a user name needs at least one letter or digit",
                         code="name_no_letter")
    if unicodedata.category(name[0]).startswith("M"):
        raise LobbyError(422, "a user name may not begin with a combining mark",
                         code="name_begins_with_mark")
    if most_marks(name) > MAX_MARKS:
        raise LobbyError(
            422, f"a user name may have at most {MAX_MARKS} combining marks on one character",
            code="name_too_many_marks", params={"most": MAX_MARKS})
    return name


def name_key(name: str) -> str:
    """What makes two names one: the SHA-256 of the TR39 skeleton of the cleaned name, case
    folded before and after. ``Anna``, ``anna``, ``ANNA``, Cyrillic ``\u0410nna``, Greek
    ``\u0391nna``, fullwidth ``\uff21nna`` and ``Anna`` with a default-ignorable character in it
    share a key; ``José`` and ``Jose`` do not (an accent is seen). Accounts are unique by it,
    and login and profiles find an account by it.

    The hash keeps the key 64 characters whatever the name (a skeleton can be 7 times longer
    than the name: a Hangul syllable's is its jamo), so it fits the column. It is never a key of
    before migration 0008 either (:func:`legacy_name_key`: those never were 64 hex digits), so
    the few accounts that kept one are never mistaken for another.

    >>> name_key("Anna") == name_key("\u0410nna") == name_key("\uff21NNA"), len(name_key("A"))
    (True, 64)
    >>> name_key("José") == name_key("Jose")
    False
    """
    folded = clean_name(name).casefold()
    skeleton = str(_SPOOF.getSkeleton(0, folded)).casefold()
    return hashlib.sha256(skeleton.encode("utf-8", "surrogatepass")).hexdigest()


def legacy_name_key(typed: str) -> str:
    """The key a name had before migration 0008: the name as registration kept it then (trimmed,
    whitespace runs as one space, not NFKC), case-folded. Give it the name as typed. Only an
    account that looks like an older one still has such a key (docs/accounts.md, "Names that
    look alike"), and it is found by it first, as it was found before."""
    return " ".join(typed.split()).casefold()


_GUEST_KEYS: Final = frozenset(name_key(name) for name in GUEST_NAMES)
"""The keys of :data:`GUEST_NAMES`: registration refuses them, and guests may always use them."""


def check_password(password: str) -> str:
    if not password:
        raise LobbyError(422, f"the password is empty: choose one of {MIN_PASSWORD} characters "
                         "or more", code="password_empty", params={"least": MIN_PASSWORD})
    if len(password) < MIN_PASSWORD:
        raise LobbyError(422, f"the password is too short: it needs {MIN_PASSWORD} characters "
                         "or more", code="password_too_short", params={"least": MIN_PASSWORD})
    if len(password) > MAX_PASSWORD:
        raise LobbyError(422, f"the password is too long: at most {MAX_PASSWORD} characters",
                         code="password_too_long", params={"most": MAX_PASSWORD})
    return password


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


HASH_WORKERS: Final = max(1, _cores() - 1)
"""argon2id computations (64 MiB each) that run at once; more wait their turn. One core is left
to the event loop, which plays every table and answers ``/healthz``."""

_Result = TypeVar("_Result")


def _lower_priority() -> None:
    """Run this thread (and the threads argon2 starts from it for its lanes, which inherit its
    niceness) below the event loop's thread, so that hashing takes only the CPU the tables leave:
    ten steps below it, wherever the room itself runs (``nice scopa serve``, a unit's Nice=).
    On Linux ``setpriority`` with a thread id changes that thread alone; elsewhere nothing."""
    with contextlib.suppress(AttributeError, OSError):
        thread = threading.get_native_id()
        below = min(19, os.getpriority(os.PRIO_PROCESS, thread) + 10)
        os.setpriority(os.PRIO_PROCESS, thread, below)


_HASH_THREADS: Final = ThreadPoolExecutor(
    HASH_WORKERS, thread_name_prefix="scopa-argon2", initializer=_lower_priority
)
_hash_slots: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary()
)
"""One semaphore per event loop (a semaphore belongs to the loop it first waited in)."""


async def bounded_hash(work: Callable[[], _Result]) -> _Result:
    """Run one argon2id computation off the event loop, at most :data:`HASH_WORKERS` at once: a
    burst of registrations or logins waits here (and a request given up while waiting costs
    nothing) instead of starving the event loop of the CPU."""
    loop = asyncio.get_running_loop()
    slots = _hash_slots.get(loop)
    if slots is None:
        slots = _hash_slots[loop] = asyncio.Semaphore(HASH_WORKERS)
    async with slots:
        return await loop.run_in_executor(_HASH_THREADS, work)


async def hash_password(password: str) -> str:
    return await bounded_hash(lambda: _hasher.hash(password))


async def password_matches(password: str, password_hash: str) -> bool:
    def verify() -> bool:
        try:
            return _hasher.verify(password_hash, password)
        except (VerificationError, InvalidHashError):
            return False

    return await bounded_hash(verify)


async def seat_key(password: str, account_id: int) -> bytes:
    """The account's seat key (:func:`.seatkeys.derive`, argon2id too), computed like a hash."""
    return await bounded_hash(lambda: seatkeys.derive(password, account_id))


# -- requests ------------------------------------------------------------------------------


def _database(request: HTTPConnection) -> Database:
    return ROOM(request).storage


def clock(request: Request) -> datetime:
    """Now, as the app's clock says (:data:`..common.services.CLOCK`, ``storage.now`` unless
    a test moves it): the moment an account is made or deleted, and when a deleted account's
    name is free again."""
    return CLOCK(request)()


def check_origin(request: HTTPConnection) -> None:
    """Refuse (403) a cookie-authenticated write sent by a page of another site. Browsers send
    ``Origin`` with every cross-site POST; a client that sends neither header is no browser, and
    so no page can have made it send the cookie."""
    claimed = request.headers.get("origin") or request.headers.get("referer")
    if claimed is None:
        return
    parts = urlsplit(claimed)
    host = request.headers.get("host", "")
    if parts.netloc != host or parts.scheme not in ("http", "https"):
        raise LobbyError(403, "this request came from another site: it was refused",
                         code="other_site")


async def current_account(request: HTTPConnection, write: bool = False) -> Account | None:
    """The account of the session cookie the request (or WebSocket) carries, if it is a live
    session; a ``write`` must also pass :func:`check_origin`."""
    secret = request.cookies.get(COOKIE)
    if not secret or len(secret) > 128:
        return None
    if write:
        check_origin(request)
    database = _database(request)
    session = await account_queries.session_of(database, hash_secret(secret))
    if session is None:
        return None
    moment = now()
    if session.created_at + timedelta(days=SESSION_DAYS) <= moment:
        return None
    if session.seen_at + SEEN_EVERY <= moment:
        await account_queries.session_seen(database, session.id, moment)
    return Account(session.account_id, session.name, session.id,
                   seatkeys.decode_key(request.cookies.get(seatkeys.KEY_COOKIE)))


async def require_account(request: Request, write: bool = False) -> Account:
    account = await current_account(request, write)
    if account is None:
        raise LobbyError(401, "log in first: this needs an account", code="log_in_first")
    return account


async def _signed_in(request: Request) -> Account:
    return await require_account(request, write=request.method != "GET")


Me = Annotated[Account, Depends(_signed_in)]


async def limit_password_checks(request: Request, key: str) -> None:
    """Refuse (429) one more password check from this address on the account keyed ``key``."""
    refusal = await ACCOUNT_LIMITS(request).password_refusal(client_address(request), key)
    if refusal is not None:
        raise LobbyError(429, refusal, code="too_many_password_checks")


def client_address(request: HTTPConnection) -> str:
    """The address the request came from, as the limits count it."""
    return request.client.host if request.client is not None else "unknown"


def _set_cookie(request: Request, response: Response, name: str, secret: str) -> None:
    response.set_cookie(
        name,
        secret,
        max_age=SESSION_DAYS * 24 * 3600,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


async def _new_session(
    request: Request, response: Response, account_id: int, password: str
) -> None:
    """A fresh session for ``account_id``; the session the request came with (if any) ends.
    The browser also gets the account's seat key, derived from ``password``."""
    secret = secrets.token_urlsafe(32)
    old = request.cookies.get(COOKIE)
    agent = request.headers.get("user-agent", "")[:200] or None
    moment = now()
    await account_queries.open_session(
        _database(request), account_id, hash_secret(secret), agent, moment,
        ending=hash_secret(old) if old else None,
    )
    _set_cookie(request, response, COOKIE, secret)
    # Each login is a sighting, for the moderators' list of linked accounts (issue 34, item C).
    await fairplay_queries.record_sighting(
        _database(request), account_id, "login", "", client_address(request),
        browser_key(request, response), moment)
    key = await seat_key(password, account_id)
    _set_cookie(request, response, seatkeys.KEY_COOKIE, seatkeys.encode_key(key))
    await account_queries.set_seat_lock(_database(request), account_id, seatkeys.lock_of(key))


# -- the routes ----------------------------------------------------------------------------


async def rate_limit(request: Request) -> None:
    """The lobby's limits per client address apply here too (reads and writes apart)."""
    refusal = await ROOM(request).limits.refusal(
        client_address(request), write=request.method != "GET")
    if refusal is not None:
        raise LobbyError(429, refusal, code="too_many_requests")


router = APIRouter(prefix="/api/account", tags=["accounts"], dependencies=[Depends(rate_limit)])


class Credentials(BaseModel):
    name: Body = Field(
        description="your user name: 1 to 24 characters, unique by what it looks like"
    )
    password: Body = Field(description="8 to 256 characters")


class NewPassword(BaseModel):
    current: Body = Field(description="the password you have now")
    new: Body = Field(description="the new password: 8 to 256 characters")


class AccountView(BaseModel):
    id: int
    name: str


class SessionView(BaseModel):
    id: int = Field(description="the session's handle, to revoke it")
    agent: str | None = Field(description="the browser it was opened in")
    created_at: str
    seen_at: str
    current: bool = Field(description="the session of this request")


@router.post("/register", status_code=201)
async def register(body: Credentials, request: Request, response: Response) -> AccountView:
    """Make an account and log in to it. Bad input and a name that is taken are answered
    before any hashing and count against no limit; what would hash counts against the
    address's registrations."""
    check_origin(request)
    name = check_name(body.name)
    password = check_password(body.password)
    key = name_key(name)
    if key in _GUEST_KEYS:
        raise LobbyError(409, f"the user name {name!r} is what guests are called: choose another",
                         code="name_of_guests", params={"name": name})
    database = _database(request)
    moment = clock(request)
    holder = await account_queries.name_holder(database, key)
    if holder is not None and holder.deleted_at is None:
        raise LobbyError(409, f"the user name {name!r} is taken: choose another",
                         code="name_taken", params={"name": name})
    if holder is not None and holder.deleted_at is not None \
            and moment < holder.deleted_at + NAME_KEPT:
        free = (holder.deleted_at + NAME_KEPT).strftime("%Y-%m-%d %H:%M UTC")
        raise LobbyError(409, f"the user name {name!r} belonged to an account deleted on "
                         f"{holder.deleted_at:%Y-%m-%d}: it is free again from {free}",
                         code="name_kept", params={
                             "name": name, "deleted": f"{holder.deleted_at:%Y-%m-%d}",
                             "free": free})
    refusal = await ACCOUNT_LIMITS(request).registration_refusal(client_address(request))
    if refusal is not None:
        raise LobbyError(429, refusal, code="too_many_accounts")
    password_hash = await hash_password(password)
    account_id = await account_queries.create_account(
        database, name, key, password_hash, moment, release_before=moment - NAME_KEPT)
    if account_id is None:
        raise LobbyError(409, f"the user name {name!r} is taken: choose another",
                         code="name_taken", params={"name": name})
    await _new_session(request, response, account_id, password)
    return AccountView(id=account_id, name=name)


@router.post("/login")
async def login(body: Credentials, request: Request, response: Response) -> AccountView:
    """Log in: a new session cookie, whatever session the browser had before. The name is
    cleaned as registration cleans it, and found by what it looks like."""
    check_origin(request)
    name = clean_name(body.name)
    key = name_key(name)
    await limit_password_checks(request, key)
    row = await account_queries.login_row(_database(request), key, legacy_name_key(body.name))
    matches = await password_matches(body.password, row.password_hash if row else _DUMMY_HASH)
    if row is None or not matches:
        raise LobbyError(401, "wrong user name or password", code="wrong_login")
    banned = await chat_queries.ban_reason(_database(request), row.account_id)
    if banned is not None:
        raise LobbyError(403, f"a moderator banned this account: {banned}",
                         code="banned", params={"reason": banned})
    await _new_session(request, response, row.account_id, body.password)
    return AccountView(id=row.account_id, name=row.name)


@router.post("/logout", status_code=204)
async def logout(request: Request, response: Response) -> None:
    """End this browser's session (nothing happens without one)."""
    check_origin(request)
    secret = request.cookies.get(COOKIE)
    if secret:
        await account_queries.end_session(_database(request), hash_secret(secret))
    for name in (COOKIE, seatkeys.KEY_COOKIE):
        response.delete_cookie(name, path="/", httponly=True, samesite="lax")


@router.get("")
async def me(request: Request) -> AccountView | None:
    """Who this browser is logged in as: null for a guest (not a 401, which a browser's
    console reports as an error on every page a guest opens)."""
    account = await current_account(request)
    return None if account is None else AccountView(id=account.id, name=account.name)


@router.post("/password", status_code=204)
async def change_password(
    body: NewPassword, request: Request, response: Response, account: Me
) -> None:
    """Change your password: every other session of the account ends, and the seats it holds
    are sealed again under the new password's seat key. The current password is checked under
    the login's limits (the same counts: a stolen session is no way around them)."""
    new_password = check_password(body.new)
    await limit_password_checks(request, name_key(account.name))
    current_hash = await account_queries.password_hash(_database(request), account.id)
    if current_hash is None or not await password_matches(body.current, current_hash):
        raise LobbyError(403, "the current password is wrong: the password was not changed",
                         code="wrong_password")
    new_hash = await hash_password(new_password)
    old_key = await seat_key(body.current, account.id)
    new_key = await seat_key(new_password, account.id)

    def reseal(held: SealedSeat) -> str | None:
        """A held seat's token under the new key: run inside the password's transaction, so
        the seats never stay sealed under a key no password gives."""
        token = seatkeys.unseal(old_key, held.sealed, held.table_code, held.seat, account.id)
        return None if token is None else seatkeys.seal(
            new_key, token, held.table_code, held.seat, account.id)

    await account_queries.change_password(
        _database(request), account.id, new_hash, reseal, keep_session=account.session,
        lock=seatkeys.lock_of(new_key),
    )
    _set_cookie(request, response, seatkeys.KEY_COOKIE, seatkeys.encode_key(new_key))


class HeldSeat(BaseModel):
    code: str = Field(description="the table's code")
    seat: int
    token: str = Field(description="the seat's token: keep it secret, it is your seat")
    status: str = Field(description="the table's status: waiting, playing or over")


@router.get("/seats")
async def held_seats(request: Request, account: Me) -> list[HeldSeat]:
    """The seats your account holds at tables still open, with their tokens: open a table on
    another device and you are in your seat. Only a browser that logged in with the password
    holds the key they are sealed under; a seat taken as a guest is not here. The seats the
    room gives the account (a pool's pairing, a challenge, a tournament's game) are sealed to
    its seat lock, kept here too for a browser that logged in before locks were kept."""
    if account.seat_key is None:
        return []
    lock = seatkeys.lock_of(account.seat_key)
    if await account_queries.seat_lock(_database(request), account.id) != lock:
        await account_queries.set_seat_lock(_database(request), account.id, lock)
    found = []
    for row in await account_queries.held_seats(_database(request), account.id):
        token = seatkeys.unseal(account.seat_key, row.sealed, row.table_code, row.seat,
                                account.id)
        # A seat given up since (left, taken over by a bot) no longer takes this token.
        if token is not None and token_matches(token, row.token_hash):
            found.append(HeldSeat(code=row.table_code, seat=row.seat, token=token,
                                  status=row.status))
    return found


@router.get("/sessions")
async def list_sessions(request: Request, account: Me) -> list[SessionView]:
    """Your account's sessions (never anyone else's, never their secrets)."""
    return [
        SessionView(
            id=row.id, agent=row.agent, created_at=row.created_at.isoformat(),
            seen_at=row.seen_at.isoformat(), current=row.id == account.session,
        )
        for row in await account_queries.sessions_of(_database(request), account.id)
    ]


@router.delete("/sessions/{session_id}", status_code=204)
async def revoke_session(
    session_id: Annotated[int, Path(ge=1, le=2**31 - 1)], request: Request, account: Me
) -> None:
    """Log out one of your sessions (another device, say). Someone else's is not found."""
    if not await account_queries.revoke_session(_database(request), account.id, session_id):
        raise LobbyError(404, f"you have no session {session_id}",
                         code="no_session", params={"session": session_id})


# -- hooks for the lobby -------------------------------------------------------------------


async def seat_holder(request: Request) -> Account | None:
    """The account taking a seat with this lobby request (after the Origin check), if any."""
    return await current_account(request, write=True)


async def check_guest_name(storage: Database, name: str) -> None:
    """Refuse (409) a guest's display name that looks like an account's: a guest cannot sit as
    ``Anna`` (nor as Cyrillic ``\u0410nna``) while Anna has an account. What guests are called by
    default (:data:`GUEST_NAMES`) is always free. The name is cleaned as the table cleans it
    (a 422 for an empty one, as there). A deleted account's name (and its look-alikes) is no
    guest's either for :data:`NAME_KEPT`, as it is no new account's (``name_kept``): else the
    people who played that account would take a guest under its name for it (issue 34,
    item 12)."""
    cleaned = clean_display_name(name)
    key = name_key(cleaned)
    if key in _GUEST_KEYS:
        return
    owner = await account_queries.name_owner(storage, key, legacy_name_key(cleaned))
    if owner is not None:
        raise LobbyError(
            409, f"the name {cleaned!r} belongs to an account: log in to sit as {owner}, or "
            "choose another name",
            code="name_of_account", params={"name": cleaned, "owner": owner}
        )
    holder = await account_queries.name_holder(storage, key)
    if holder is not None and holder.deleted_at is not None \
            and now() < holder.deleted_at + NAME_KEPT:
        free = (holder.deleted_at + NAME_KEPT).strftime("%Y-%m-%d %H:%M UTC")
        raise LobbyError(
            409, f"the name {cleaned!r} belonged to an account deleted on "
            f"{holder.deleted_at:%Y-%m-%d}: nobody may sit under it before {free}",
            code="name_kept")


def seat_name(account: Account | None, name: str | None) -> str | None:
    """The name a seat shows: a logged-in player's user name, whatever the form said (so that
    the seat, the profile and the replay agree); a guest's own; None for nobody seated."""
    return account.name if account is not None and name is not None else name


async def remember_seat(
    storage: Database, code: str, seat: int | None, account: Account | None,
    token: str | None = None,
) -> None:
    """Remember which account took ``seat`` at table ``code``, with its ``token`` sealed under
    the account's seat key when the browser has it; a guest who takes a seat clears what an
    account held there before."""
    if seat is None:
        return
    sealed = None
    if account is not None and account.seat_key is not None and token is not None:
        sealed = seatkeys.seal(account.seat_key, token, code, seat, account.id)
    await account_queries.hold_seat(
        storage, code, seat, None if account is None else account.id, sealed
    )


async def give_seat(
    storage: Database, code: str, seat: int, account_id: int, token: str
) -> None:
    """The room gives ``account_id`` seat ``seat`` at table ``code`` (a pool pairs it, its
    challenge is accepted, a tournament seats it): with no request of the account's at hand,
    the token is sealed to the account's seat lock, so the seat follows the player to their
    other devices as one they took does (``GET /api/account/seats``). An account with no lock
    yet (no login since locks were kept) holds the seat unsealed, as before."""
    lock = await account_queries.seat_lock(storage, account_id)
    sealed = None if lock is None else seatkeys.seal_to_lock(lock, token, code, seat, account_id)
    await account_queries.hold_seat(storage, code, seat, account_id, sealed)


async def table_made(
    storage: Database, code: str, seat: int | None, account: Account | None, rated: bool,
    token: str | None = None,
) -> None:
    """A new table: whether it is rated, and its creator's seat. A guest's casual table
    writes nothing more than it did before accounts (no row means casual, and no account)."""
    if rated:
        await rating_queries.set_rated(storage, code, rated)
    if account is not None:
        await remember_seat(storage, code, seat, account, token)
