"""Exceptions a caller can show to a person as they are."""

from __future__ import annotations


class InvalidMoveError(ValueError):
    """A move code that cannot be read at all, such as ``"5Dx"`` or ``"hello"``."""


class IllegalMoveError(ValueError):
    """A well-formed move that the rules do not allow now; the game is left unchanged."""
