"""Correspondence play's knobs: its section of the room's settings
(``Settings.section(CorrespondenceSettings)``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from ..store.storage import now


@dataclass(frozen=True)
class CorrespondenceSettings:
    max_matches: int = 30
    """Correspondence matches an account may play at once. At a move a day each, 30 are some
    30 moves a day, a sitting of a quarter to half an hour (lichess's most active
    correspondence players hold a few dozen games); more and the slowest games wait on a
    player who cannot keep up. Open offers and seeks count apart, as many again."""
    offer_days: float = 14.0
    """Days an offer or a seek waits for its answer."""
    vacation_days: int = 5
    """Vacation days an account has each year (UTC)."""
    sweep_every: float = 30.0
    """Seconds between two looks at the clocks that ran out and the alarms due."""
    push_delay: float = 2.0
    """Seconds a move's push waits, then goes only if its person is not at the table (lila)."""
    clock: Callable[[], datetime] = now
    """The wall time the clocks run in: the room's, or a test's that plays 14 days in seconds."""

    def __post_init__(self) -> None:
        if self.max_matches < 1:
            raise ValueError(f"max_matches must be at least 1; got {self.max_matches}")
        if not self.offer_days > 0 or not self.sweep_every > 0 or self.push_delay < 0:
            raise ValueError("offer_days and sweep_every must be more than 0, push_delay not "
                             "less than 0")
        if self.vacation_days < 0:
            raise ValueError(f"vacation_days must not be negative; got {self.vacation_days}")
