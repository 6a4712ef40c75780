"""The optional parts of scopa, and the one sentence said when a part's extra is missing.

``pip install scopa`` is the library, the command line, tournaments and the terminal game.
The card room, the learning environments, the learned level and charts each need more
packages, installed as an extra: ``pip install 'scopa[room]'``. Such a part is imported
only where it is used, and a missing package becomes :class:`MissingExtraError`, whose
message names the extra to install, never a traceback:

>>> error = MissingExtraError("room", "scopa serve", "fastapi")
>>> print(error)
scopa serve needs the card room's packages (fastapi is not installed): pip install 'scopa[room]'
"""

from __future__ import annotations

from typing import Final

EXTRAS: Final = {
    "room": "the card room's packages",
    "rl": "the learning environments' packages",
    "learn": "the learned level's packages",
    "train": "the trainer's packages",
    "plot": "matplotlib",
}
"""Each extra, by what it brings."""


class MissingExtraError(ImportError):
    """An optional part of scopa was asked for, and a package of its extra is not installed."""

    def __init__(self, extra: str, what: str, missing: str) -> None:
        self.extra = extra
        self.what = what
        self.missing = missing
        super().__init__(
            f"{what} needs {EXTRAS[extra]} ({missing} is not installed): "
            f"pip install 'scopa[{extra}]'"
        )


def missing_extra(error: ImportError, extra: str, what: str) -> ImportError:
    """``error`` as the sentence to show: a :class:`MissingExtraError` when the module that
    is missing is another project's, and ``error`` itself when it is one of scopa's own,
    which is a defect to see in full, not an install step."""
    name = error.name or ""
    if not isinstance(error, ModuleNotFoundError) or name.partition(".")[0] in ("", "scopa"):
        return error
    return MissingExtraError(extra, what, name)
