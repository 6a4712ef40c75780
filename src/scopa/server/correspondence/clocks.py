"""A correspondence clock's arithmetic, lichess's: each move gives the next mover the whole
days again (scalachess's ``CorrespondenceClock``), its alarm rings at 80% of them (lila's
``CorresAlarm``), and each vacation day spent on a turn adds 24 hours."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Final

DAYS: Final = (1, 2, 3, 5, 7, 14)
"""The days a move a match may be played at."""
ALARM_SHARE: Final = 0.8
"""The share of the mover's time used when the alarm rings."""
DAY: Final = timedelta(days=1)


def deadline(turn_at: datetime, days: int, vacation: int = 0) -> datetime:
    """When a turn that began at ``turn_at`` runs out, with ``vacation`` days spent on it.

    >>> from datetime import UTC
    >>> deadline(datetime(2026, 12, 7, tzinfo=UTC), 3, 1).isoformat()
    '2026-12-11T00:00:00+00:00'
    """
    return turn_at + days * DAY + vacation * DAY


def alarm(turn_at: datetime, days: int, vacation: int = 0) -> datetime:
    """When that turn's alarm rings: at 80% of the days, the vacation days after them.

    >>> from datetime import UTC
    >>> alarm(datetime(2026, 12, 7, tzinfo=UTC), 5).isoformat()
    '2026-12-11T00:00:00+00:00'
    """
    return turn_at + ALARM_SHARE * days * DAY + vacation * DAY
