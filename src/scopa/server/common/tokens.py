"""Table codes people can read out, and seat tokens nobody can guess.

A seat token is a bearer secret: whoever holds it plays that seat. The database keeps only its
SHA-256, so a copy of the database cannot be used to take over a seat.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets
from typing import Final

CODE_ALPHABET: Final = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""No 0/O or 1/I: a code is read aloud or typed from a screen."""
CODE_LENGTH: Final = 6


def new_table_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(code: str) -> str:
    """Codes are typed by people: ignore case and surrounding spaces."""
    return code.strip().upper()


def new_seat_token() -> str:
    return secrets.token_urlsafe(24)


@functools.lru_cache(maxsize=4096)
def hash_token(token: str) -> str:
    """The token's SHA-256, as stored. Each move's token is checked against its seat's: the
    tokens of the last few thousand checks are kept hashed (a hash a move was 2% of its CPU)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str, token_hash: str | None) -> bool:
    """Constant-time check, so response times do not reveal how much of a guess was right."""
    return token_hash is not None and hmac.compare_digest(hash_token(token), token_hash)


def new_seed() -> int:
    """A match seed that fits a signed 64-bit column in every database."""
    return secrets.randbits(63)
