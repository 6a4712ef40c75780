"""``/api/offline`` says whether offline play is installed and what it downloads;
``/offline/{name}`` serves each file the manifest names, and nothing else.

A runtime is megabytes a request: the downloads are limited per client address
(:data:`DOWNLOADS_PER_ADDRESS`), beside the lobby's limits on every read.
"""

from __future__ import annotations

from typing import Annotated, Final

from fastapi import APIRouter, Depends, Path, Request
from fastapi.responses import FileResponse
from limits import parse_many
from limits.aio.strategies import MovingWindowRateLimiter
from pydantic import BaseModel, Field

from ..accounts.accounts import client_address
from ..common.errors import LobbyError
from ..common.services import Service
from ..lobby import rate_limit
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
    sha256: str = Field(description="the file's SHA-256, hex: check it before running it")


class OfflineState(BaseModel):
    installed: bool = Field(description="whether this server has offline play's files")
    detail: str | None = Field(description="why not, when not")
    pyodide: str | None = Field(description="the Pyodide release")
    wheel: str | None = Field(description="the pure scopa wheel's file name")
    bytes: int = Field(description="bytes of every file together: the first download")
    files: dict[str, FileFacts] = Field(description="each file's name under /offline/")


@router.get("/api/offline")
async def offline_state(files: Files) -> OfflineState:
    """Whether offline play is installed, and the files a page downloads to play offline."""
    return OfflineState.model_validate(files.summary())


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
    return FileResponse(entry.path, media_type=MEDIA_TYPES[entry.path.suffix],
                        headers={"Cache-Control": "no-cache"})
