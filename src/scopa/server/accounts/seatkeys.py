"""Seats that follow a logged-in player to another device, without the database holding a
single usable seat token.

A seat token is a bearer secret, and the database keeps only its SHA-256 (:mod:`.tokens`). To
hand a seat to the same person's other device, the server must give the token itself back, so
it keeps the token **sealed** (AES-GCM, the ``cryptography`` library) under a key that is never
stored: the account's *seat key*, derived with argon2id from the password when the person logs
in, and kept only in the browser's HttpOnly cookie :data:`KEY_COOKIE` next to the session's. A
copy of the database opens nothing; a request with both cookies (a logged-in browser) opens its
own account's seats. Changing the password seals them again under the new key.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
from typing import Final

from argon2.low_level import Type, hash_secret_raw
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

KEY_COOKIE: Final = "scopa_seats"
KEY_BYTES: Final = 32
NONCE_BYTES: Final = 12


def derive(password: str, account_id: int) -> bytes:
    """The account's seat key from its password (argon2id, a salt of the account's own).

    >>> len(derive("a good password", 1)), derive("x" * 8, 1) == derive("x" * 8, 2)
    (32, False)
    """
    salt = hashlib.sha256(f"scopa seat key {account_id}".encode()).digest()[:16]
    return hash_secret_raw(
        password.encode("utf-8", "surrogatepass"), salt, time_cost=3, memory_cost=65536,
        parallelism=4, hash_len=KEY_BYTES, type=Type.ID,
    )


def encode_key(key: bytes) -> str:
    return base64.urlsafe_b64encode(key).decode()


def decode_key(text: str | None) -> bytes | None:
    """The key a cookie holds, or None when it holds none (or anything else)."""
    if not text or len(text) > 64:
        return None
    try:
        key = base64.urlsafe_b64decode(text.encode())
    except (binascii.Error, ValueError):
        return None
    return key if len(key) == KEY_BYTES else None


def _about(code: str, seat: int, account_id: int) -> bytes:
    """What a sealed token is bound to: it opens for this table, seat and account only."""
    return f"{code}:{seat}:{account_id}".encode()


def seal(key: bytes, token: str, code: str, seat: int, account_id: int) -> str:
    """``token`` sealed under ``key``, as text for the database.

    >>> key = derive("a good password", 7)
    >>> sealed = seal(key, "the-token", "ABCDEF", 1, 7)
    >>> "the-token" in sealed, unseal(key, sealed, "ABCDEF", 1, 7)
    (False, 'the-token')
    >>> unseal(key, sealed, "ABCDEF", 0, 7) is None  # another seat's: refused
    True
    """
    nonce = os.urandom(NONCE_BYTES)
    box = AESGCM(key).encrypt(nonce, token.encode(), _about(code, seat, account_id))
    return base64.urlsafe_b64encode(nonce + box).decode()


def unseal(key: bytes, sealed: str, code: str, seat: int, account_id: int) -> str | None:
    """The token, or None when ``key`` is not the one it was sealed under (an old password's)."""
    try:
        raw = base64.urlsafe_b64decode(sealed.encode())
        opened = AESGCM(key).decrypt(raw[:NONCE_BYTES], raw[NONCE_BYTES:],
                                     _about(code, seat, account_id))
    except (InvalidTag, ValueError, binascii.Error):
        return None
    return opened.decode()
