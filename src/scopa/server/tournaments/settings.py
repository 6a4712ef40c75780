"""The tournaments' knobs: the arena the room holds every day, as their section of the room's
settings (``Settings.section(TournamentSettings)``) and the ``scopa serve`` options that set it."""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass
from datetime import time

from ...rules import Rules

DEFAULT_ARENA_MINUTES = 30
DEFAULT_ARENA_PRESET = "scopa"


@dataclass(frozen=True)
class TournamentSettings:
    daily_arena: str | None = None
    """The hour (``HH:MM``, UTC) of an arena held every day, made by the room itself and
    listed in the lobby a day ahead (None: no daily arena)."""
    daily_arena_minutes: int = DEFAULT_ARENA_MINUTES
    """How long the daily arena lasts."""
    daily_arena_preset: str = DEFAULT_ARENA_PRESET
    """The game of the daily arena (a preset of two players)."""

    def __post_init__(self) -> None:
        if self.daily_arena is not None:
            try:
                time.fromisoformat(self.daily_arena)
            except ValueError:
                raise ValueError(
                    f"daily_arena must be an hour such as 20:00; got {self.daily_arena!r}"
                ) from None
        if not 1 <= self.daily_arena_minutes <= 24 * 60:
            raise ValueError("daily_arena_minutes must be from 1 to 1440 (a day); got "
                             f"{self.daily_arena_minutes}")
        if Rules.preset(self.daily_arena_preset).players != 2:
            raise ValueError(f"the daily arena's game is played by two: {self.daily_arena_preset!r}"
                             " is not")


def add_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--daily-arena",
        metavar="HH:MM",
        help="hold an arena every day at this hour (UTC), listed in the lobby a day ahead",
    )
    parser.add_argument(
        "--daily-arena-minutes", type=int, metavar="N",
        help="how long the daily arena lasts (default: 30)",
    )
    parser.add_argument(
        "--daily-arena-preset", metavar="PRESET",
        help="the daily arena's game (default: scopa)",
    )


def from_flags(args: argparse.Namespace) -> TournamentSettings:
    """The section the options ask for; a wrong one raises ``ValueError`` naming it."""
    hour: str | None = args.daily_arena
    minutes: int | None = args.daily_arena_minutes
    preset: str | None = args.daily_arena_preset
    if hour is not None and not re.fullmatch(r"([01]\d|2[0-3]):[0-5]\d", hour):
        raise ValueError(f"--daily-arena must be an hour such as 20:00 (UTC); got {hour!r}")
    if minutes is not None and not 1 <= minutes <= 24 * 60:
        raise ValueError(f"--daily-arena-minutes must be from 1 to 1440 (a day); got {minutes}")
    if preset is not None:
        try:
            Rules.preset(preset, players=2)
        except (ValueError, TypeError) as error:
            raise ValueError(f"--daily-arena-preset: {error}") from None
    return TournamentSettings(
        daily_arena=hour,
        daily_arena_minutes=DEFAULT_ARENA_MINUTES if minutes is None else minutes,
        daily_arena_preset=preset or DEFAULT_ARENA_PRESET,
    )
