"""A day's seed: the HMAC-SHA256 of its date under the room's daily secret.

Nobody without the secret can work a day's seed out, before the day or after it, and so
nobody can deal tomorrow's deck today; the room publishes each seed once its day is over. The
secret is made once and kept in the database (:func:`.queries.secret`), so every process
of the room deals the same deck on the same day, and a restart changes nothing.

>>> from datetime import date
>>> secret = "00" * 32
>>> day_seed(secret, date(2026, 12, 2)) == day_seed(secret, date(2026, 12, 2))
True
>>> day_seed(secret, date(2026, 12, 2)) != day_seed(secret, date(2026, 12, 3))
True
>>> day_seed(secret, date(2026, 12, 2)) != day_seed("11" * 32, date(2026, 12, 2))
True
>>> 0 <= day_seed(secret, date(2026, 12, 2)) < 2**53
True
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import date


def day_seed(secret: str, day: date) -> int:
    """The seed of ``day``'s deal under ``secret`` (hex): 53 bits of the HMAC, so that the
    published seed reads the same in every JSON reader (a JavaScript number holds 53 bits; a
    web page showed a 63-bit seed rounded), and fits the matches' seed column. Still far too
    many to try one by one against a deal seen."""
    message = f"scopa daily deal {day.isoformat()}".encode()
    digest = hmac.new(bytes.fromhex(secret), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 11
