"""``/api/offline`` says whether offline play is installed and what it downloads;
``/offline/{name}`` serves each file the manifest names, and nothing else.
``/api/offline/matches`` takes a match played offline home to the account's history
(:mod:`.uploads` checks it), and ``/api/offline/matches/{id}`` replays one.

A runtime is megabytes a request: the downloads are limited per client address
(:data:`DOWNLOADS_PER_ADDRESS`), beside the lobby's limits on every read. Uploads are limited
per account (:data:`.uploads.UPLOADS_PER_ACCOUNT`) and in size
(:data:`.uploads.MAX_UPLOAD_BYTES`), read before any byte is parsed.
"""

from __future__ import annotations

import math
import time
from datetime import UTC, datetime
from typing import Annotated, Any, Final
from uuid import UUID

from fastapi import APIRouter, Depends, Path, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse
from limits import parse_many
from limits.aio.strategies import MovingWindowRateLimiter
from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, ValidationError

from ..accounts.accounts import Me, client_address, clock
from ..accounts.replays import frames
from ..common.errors import LobbyError
from ..common.services import Service
from ..feature import ROOM
from ..lobby import MAX_SEATS, Word, rate_limit
from . import queries, uploads
from .files import MEDIA_TYPES, NOT_INSTALLED, OFFLINE_FILES, OfflineFiles

DOWNLOADS_PER_ADDRESS: Final = "120/hour"
"""Files one client address may download: a whole runtime is 8 of them, so fifteen
downloads an hour, a household's first installs and their retries among them."""

router = APIRouter(tags=["offline"], dependencies=[Depends(rate_limit)])

Files = Annotated[OfflineFiles, Depends(OFFLINE_FILES)]
DOWNLOADS: Service[MovingWindowRateLimiter] = Service("offline_downloads")
"""The downloads' limiter, counting in the room's Redis when it has one."""
Downloads = Annotated[MovingWindowRateLimiter, Depends(DOWNLOADS)]


class FileFacts(BaseModel):
    size: int = Field(description="bytes")
    wire: int = Field(description="bytes sent for it to this client: its gzipped copy's "
                      "when the client accepts gzip and there is one, else its size")
    sha256: str = Field(description="the file's SHA-256, hex: check it before running it")


class OfflineState(BaseModel):
    installed: bool = Field(description="whether this server has offline play's files")
    detail: str | None = Field(description="why not, when not")
    pyodide: str | None = Field(description="the Pyodide release")
    wheel: str | None = Field(description="the pure scopa wheel's file name")
    bytes: int = Field(description="bytes of every file together, decoded: what the "
                       "browser keeps")
    wire: int = Field(description="bytes the first download sends to this client (its "
                      "Accept-Encoding): each file's wire together")
    files: dict[str, FileFacts] = Field(description="each file's name under /offline/")


def _accepts_gzip(request: Request) -> bool:
    """Whether ``/offline/{name}`` sends this client the gzipped copies (where there is one)."""
    return "gzip" in request.headers.get("accept-encoding", "")


@router.get("/api/offline")
async def offline_state(request: Request, response: Response, files: Files) -> OfflineState:
    """Whether offline play is installed, and the files a page downloads to play offline, with
    the bytes they are on the wire to this client."""
    response.headers["Vary"] = "Accept-Encoding"
    return OfflineState.model_validate(files.summary(gzip=_accepts_gzip(request)))


@router.get("/offline/{name:path}", response_class=FileResponse)
async def offline_file(
    name: Annotated[str, Path(max_length=128, description="a name /api/offline lists")],
    request: Request, files: Files, downloads: Downloads,
) -> FileResponse:
    """One file of offline play: 404 for a name the manifest does not list, 429 past the
    downloads allowed per address."""
    if not files.installed:
        raise LobbyError(404, NOT_INSTALLED, code="offline_not_installed")
    entry = files.entries.get(name)
    if entry is None:
        raise LobbyError(404, f"offline play has no file {name!r}: /api/offline lists them",
                         code="no_offline_file", params={"name": name})
    for limit in parse_many(DOWNLOADS_PER_ADDRESS):
        if not await downloads.hit(limit, "offline-download", client_address(request)):
            raise LobbyError(429, f"too many downloads of offline play from your address (at "
                             f"most {limit}): try again later", code="too_many_offline_downloads",
                             params={"most": str(limit)})
    headers = {"Cache-Control": "no-cache", "Vary": "Accept-Encoding"}
    served = entry.served(_accepts_gzip(request))
    if served != entry.path:
        headers["Content-Encoding"] = "gzip"
    return FileResponse(served, media_type=MEDIA_TYPES[entry.path.suffix], headers=headers)


OFFLINE_SINCE: Final = datetime(2026, 12, 1, tzinfo=UTC)
"""Before offline play was: no match played offline ended earlier."""
UPLOADS: Service[MovingWindowRateLimiter] = Service("offline_uploads")
"""The uploads' limiter, counting in the room's Redis when it has one."""
Uploads = Annotated[MovingWindowRateLimiter, Depends(UPLOADS)]


class OfflineUpload(BaseModel):
    """A match played offline, as the browser kept it."""

    model_config = ConfigDict(extra="forbid")

    id: UUID = Field(description="the browser's id for the match, made when it was dealt")
    seat: int = Field(ge=0, lt=MAX_SEATS, description="the person's seat")
    opponents: list[Word] = Field(
        max_length=MAX_SEATS,
        description="the bot level (as /api/levels names them) of each other seat, in order")
    look: Word = Field("french", description="the deck's look it was played with")
    record: dict[str, Any] = Field(description="the finished match's record (Game.record())")
    finished_at: AwareDatetime = Field(
        description="when it ended, ISO 8601 with its offset (a time after the upload, or "
        "before offline play was, is taken as the upload's)")


class Uploaded(BaseModel):
    match: int = Field(description="its id among offline matches: /api/offline/matches/{id}")
    result: str = Field(description="win or loss, for the person")
    rated: bool = Field(description="always false: offline matches are never rated")


async def _limit_uploads(uploads_limiter: MovingWindowRateLimiter, account_id: int) -> None:
    """Refuse (429, with ``Retry-After``) an upload past the account's limit."""
    for limit in parse_many(uploads.UPLOADS_PER_ACCOUNT):
        if not await uploads_limiter.hit(limit, "offline-upload", str(account_id)):
            stats = await uploads_limiter.get_window_stats(
                limit, "offline-upload", str(account_id))
            wait = max(1, math.ceil(stats.reset_time - time.time()))
            raise LobbyError(429, f"too many matches uploaded (at most {limit}): the others "
                             f"wait, try again in {wait} seconds",
                             headers={"Retry-After": str(wait)},
                             code="too_many_offline_uploads",
                             params={"most": str(limit), "seconds": wait})


async def _read_body(request: Request) -> bytes:
    """The upload's bytes, refused (413) past :data:`.uploads.MAX_UPLOAD_BYTES` before any is
    parsed: by its declared length, or as it streams in."""
    most = uploads.MAX_UPLOAD_BYTES
    too_large = LobbyError(413, f"the match is too large to upload: at most {most // 1024} KiB "
                           f"({most} bytes)", code="offline_record_too_large",
                           params={"bytes": most})
    declared = request.headers.get("content-length", "")
    if declared.strip().isdigit() and int(declared) > most:
        raise too_large
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > most:
            raise too_large
    return bytes(body)


def _parsed(body: bytes) -> OfflineUpload:
    """The upload read as :class:`OfflineUpload`; refused as any route refuses a body that does
    not fit (422, ``invalid_request``)."""
    try:
        return OfflineUpload.model_validate_json(body)
    except ValidationError as error:
        raise RequestValidationError([
            {**problem, "loc": ("body", *problem["loc"])}
            for problem in error.errors(include_url=False, include_context=False)
        ]) from None


def _finished_at(claimed: datetime, moment: datetime) -> datetime:
    """When the browser says the match ended, in UTC as every moment is stored (SQLite keeps no
    offset); a time after the upload, or before offline play was (a phone's clock that is
    wrong), is taken as the upload's: it only orders the history.

    >>> upload = datetime(2026, 12, 7, 9, tzinfo=UTC)
    >>> _finished_at(datetime.fromisoformat("2026-12-06T18:30:00+01:00"), upload).isoformat()
    '2026-12-06T17:30:00+00:00'
    >>> [_finished_at(datetime.fromisoformat(when), upload) == upload
    ...  for when in ("0001-01-01T00:00:00+01:00", "2026-12-08T00:00:00+00:00")]
    [True, True]
    """
    return claimed.astimezone(UTC) if OFFLINE_SINCE <= claimed <= moment else moment


@router.post("/api/offline/matches", status_code=201, response_model=Uploaded, openapi_extra={
    "requestBody": {"required": True, "content": {
        "application/json": {"schema": OfflineUpload.model_json_schema()}}}})
async def upload_match(request: Request, account: Me, uploads_limiter: Uploads) -> Uploaded:
    """Take a match played offline into your history, unrated. The record is played again by
    the core: an illegal or unfinished one, rules the lobby does not deal, seats that do not
    fit, an unknown bot level, a body over 32 KiB and a match already uploaded (by its id or
    its record) are refused, and nothing is stored."""
    await _limit_uploads(uploads_limiter, account.id)
    upload = _parsed(await _read_body(request))
    checked = uploads.check(upload.record, upload.seat, upload.opponents, upload.look)
    moment = clock(request)
    stored = await queries.store(ROOM(request).storage, queries.Upload(
        account_id=account.id, client_id=str(upload.id), record_hash=checked.hash,
        seat=upload.seat, opponents=list(upload.opponents), look=upload.look,
        record=checked.record, result=checked.result,
        finished_at=_finished_at(upload.finished_at, moment), uploaded_at=moment,
    ))
    if isinstance(stored, queries.Taken) and stored.same_record:
        raise LobbyError(409, f"this match is in your history already (offline match "
                         f"{stored.id}): it was not stored again",
                         code="offline_match_uploaded", params={"match": stored.id})
    if isinstance(stored, queries.Taken):
        raise LobbyError(409, "another match was uploaded with this id: nothing was stored",
                         code="offline_id_taken", params={"match": stored.id})
    return Uploaded(match=stored, result=checked.result, rated=False)


@router.get("/api/offline/matches/{match_id}")
async def offline_replay(
    match_id: Annotated[int, Path(ge=1, le=2**31 - 1)], request: Request
) -> dict[str, Any]:
    """A match played offline, frame by frame as ``/api/replays/{id}`` gives a room's match
    (every hand shown: it is over), with ``offline`` true and no chat; 404 unknown."""
    found = await queries.one(ROOM(request).storage, match_id)
    if found is None:
        raise LobbyError(404, f"there is no offline match {match_id}",
                         code="no_offline_match", params={"match": match_id})
    return {"match": match_id, "offline": True,
            "players": uploads.players(found.seat, found.opponents, found.name),
            "look": found.look, **frames(found.record), "chat": []}
