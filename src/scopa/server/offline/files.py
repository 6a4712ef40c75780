"""The files of offline play, as ``manifest.json`` lists them: read once when the app is made,
so that only what the manifest names is ever served (never another path of the folder) and a
request costs a lookup.

A file the manifest names but that is missing or of another size (a run of
``scripts/pyodide.py`` that did not finish) makes the whole set count as not installed: a page
must never start a runtime that is half there.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from ..common.services import Service

log = logging.getLogger(__name__)

MEDIA_TYPES: Final = {
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".whl": "application/zip",
    ".json": "application/json",
}
"""What each file is, whatever the machine's MIME table says: a browser compiles WebAssembly
as it streams only when it is served as ``application/wasm``."""
NOT_INSTALLED: Final = "offline play is not installed on this server: run " \
    "`python scripts/pyodide.py` in its environment, then start it again"


@dataclass(frozen=True)
class Entry:
    path: Path
    size: int
    sha256: str
    gzipped: Path | None = None
    """The file gzipped (``scripts/pyodide.py`` keeps a copy of those it shrinks), sent to a
    browser that accepts gzip: the wasm is 3.5 MB so, not 9.6."""
    gzip_size: int = 0
    """The gzipped copy's bytes (the manifest's ``gzip``, checked against the copy)."""

    def served(self, gzip: bool) -> Path:
        """What ``/offline/{name}`` sends to a client that accepts gzip, or not."""
        return self.gzipped if gzip and self.gzipped is not None else self.path

    def wire(self, gzip: bool) -> int:
        """The bytes of :meth:`served`: what comes over the network, before it is decoded."""
        return self.gzip_size if gzip and self.gzipped is not None else self.size


class OfflineFiles:
    """The set the manifest describes, or none (with the reason, for the log)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.pyodide: str | None = None
        self.wheel: str | None = None
        self.entries: dict[str, Entry] = {}
        reason = self._read()
        if reason is not None:
            self.entries = {}
            log.info("offline play is not installed (%s): %s", folder, reason)

    @property
    def installed(self) -> bool:
        return bool(self.entries)

    def _read(self) -> str | None:
        try:
            manifest: dict[str, Any] = json.loads((self.folder / "manifest.json").read_bytes())
            self.pyodide = str(manifest["pyodide"])
            self.wheel = str(manifest["wheel"])
            listed: dict[str, dict[str, Any]] = manifest["files"]
        except (OSError, ValueError, KeyError, TypeError) as error:
            return f"no readable manifest.json ({error})"
        for name, facts in listed.items():
            path = (self.folder / name).resolve()
            if not path.is_relative_to(self.folder.resolve()) or path.suffix not in MEDIA_TYPES:
                return f"the manifest names a file it may not: {name!r}"
            try:
                size = path.stat().st_size
            except OSError:
                return f"{name} is missing"
            if size != int(facts["size"]):
                return f"{name} is {size} bytes, not {facts['size']}"
            gzipped = self._gzipped(name, facts.get("gzip"))
            self.entries[name] = Entry(path, size, str(facts["sha256"]), gzipped,
                                       int(facts["gzip"]) if gzipped is not None else 0)
        if self.wheel not in self.entries:
            return "the manifest does not list its wheel"
        return None

    def _gzipped(self, name: str, size: object) -> Path | None:
        """``name``'s gzipped copy, if the manifest names one and it is whole: a copy of
        another size is left unused (the file goes out as it is), never sent cut short."""
        if size is None:
            return None
        path = self.folder / "gzip" / f"{name}.gz"
        try:
            found = path.stat().st_size
        except OSError:
            found = None
        if found != size:
            log.warning("offline play's %s is sent uncompressed: its gzipped copy %s is %s "
                        "bytes, not %s", name, path, found, size)
            return None
        return path

    def summary(self, gzip: bool) -> dict[str, Any]:
        """What a page needs before it downloads: the versions, each file's size and hash (to
        check what it got), the bytes in all once decoded (what the browser keeps, and counts
        as the download goes) and the bytes on the wire to a client that accepts gzip, or not
        (``gzip``): the download's size, as the person sees it."""
        return {
            "installed": self.installed,
            "detail": None if self.installed else NOT_INSTALLED,
            "pyodide": self.pyodide if self.installed else None,
            "wheel": self.wheel if self.installed else None,
            "bytes": sum(entry.size for entry in self.entries.values()),
            "wire": sum(entry.wire(gzip) for entry in self.entries.values()),
            "files": {name: {"size": entry.size, "wire": entry.wire(gzip),
                             "sha256": entry.sha256}
                      for name, entry in sorted(self.entries.items())},
        }


OFFLINE_FILES: Service[OfflineFiles] = Service("offline_files")
"""Offline play's files, as a dependency of the routes."""
