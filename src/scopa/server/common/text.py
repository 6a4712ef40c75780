"""What free text typed by someone (a user name, a chat message, a tournament's name) may hold,
in one place for every feature that shows such text to others (issue 34, items 10 and 11): no
control or invisible character, which could hide, fake or reorder what others read; at least
one character that shows (a letter, digit or symbol); and at most :data:`MAX_MARKS` combining
marks on one character, since a tower of stacked accents spills over the lines around it."""

from __future__ import annotations

import unicodedata
from typing import Final

import icu  # type: ignore[import-untyped]

INVISIBLE: Final = frozenset("\u2800\u3000")
"""Characters that show nothing but are neither control, format nor default-ignorable
characters: the Braille blank (a symbol), and the ideographic space that NFKC leaves as a
space anyway."""

MAX_MARKS: Final = 3
"""Combining marks one character may carry. Three: written languages need up to that many on
one letter when they are not composed (Vietnamese ``ệ`` is ``e`` with two, Hebrew a point, a
vowel and a cantillation mark); a fourth serves only to stack accents over other lines."""


def invisible(char: str) -> bool:
    """A control, format (bidi controls, zero-width space), unassigned or private character, a
    default-ignorable one (U+034F, variation selectors, Hangul fillers), or a blank.

    >>> invisible("\u200b"), invisible("\u3164"), invisible("\u202e"), invisible("a")
    (True, True, True, False)
    """
    return (
        unicodedata.category(char).startswith("C")
        or char in INVISIBLE
        or bool(icu.Char.hasBinaryProperty(char, icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT))
    )


def most_marks(text: str) -> int:
    """The most combining marks that follow one character of ``text``.

    >>> most_marks("e\u0302\u0323"), most_marks("abc")
    (2, 0)
    """
    most = run = 0
    for char in text:
        run = run + 1 if unicodedata.category(char).startswith("M") else 0
        most = max(most, run)
    return most


def shown_fault(text: str, what: str) -> str | None:
    """Why ``text`` (already cleaned: normalised, its runs of spaces one space) may not be
    shown to others, as a sentence about ``what`` (``"a message"``); ``None`` when it may.

    >>> shown_fault("\u200b", "a message")
    'a message may not hold control or invisible characters (U+200B)'
    >>> shown_fault("ok", "a message") is None
    True
    """
    for char in text:
        if invisible(char):
            return f"{what} may not hold control or invisible characters (U+{ord(char):04X})"
    if not any(unicodedata.category(char)[0] in "LNS" for char in text):
        return f"{what} needs at least one letter, digit or symbol"
    if most_marks(text) > MAX_MARKS:
        return (f"{what} may have at most {MAX_MARKS} combining marks on one character; "
                f"this one has {most_marks(text)}")
    return None
