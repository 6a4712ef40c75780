"""Seats that follow a logged-in player to another device, without the database holding a
single usable seat token.

A seat token is a bearer secret, and the database keeps only its SHA-256 (:mod:`.tokens`). To
hand a seat to the same person's other device, the server must give the token itself back, so
it keeps the token **sealed** (AES-GCM, the ``cryptography`` library) under a key that is never
stored: the account's *seat key*, derived with argon2id from the password when the person logs
in, and kept only in the browser's HttpOnly cookie :data:`KEY_COOKIE` next to the session's. A
copy of the database opens nothing; a request with both cookies (a logged-in browser) opens its
own account's seats. Changing the password seals them again under the new key.

The room also gives seats with no request of the account's at hand: a pool pairs it, a
challenge it made is accepted, a tournament's director seats it. For these the seat key also
gives a key pair (X25519): its public half, the account's *seat lock* (:func:`lock_of`), is
stored with the account at each login, and a seat given is sealed to the lock
(:func:`seal_to_lock`), which only the seat key opens again. The database still holds no
usable token.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
from typing import Final

from argon2.low_level import Type, hash_secret_raw
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

KEY_COOKIE: Final = "scopa_seats"
KEY_BYTES: Final = 32
NONCE_BYTES: Final = 12
LOCKED: Final = "L."
"""What a token sealed to a seat lock starts with (never a character of urlsafe base64)."""


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


def _pair(key: bytes) -> X25519PrivateKey:
    """The private half of the seat lock's pair, from the seat key (never stored)."""
    return X25519PrivateKey.from_private_bytes(hashlib.sha256(b"scopa seat lock" + key).digest())


def _box_key(shared: bytes, ephemeral: bytes) -> bytes:
    """The key of one token sealed to a lock: its exchange's secret, bound to its public half."""
    return hashlib.sha256(b"scopa sealed seat" + shared + ephemeral).digest()


def lock_of(key: bytes) -> str:
    """The account's seat lock, the public half of the pair ``key`` gives: stored with the
    account, it seals seats that only ``key`` opens.

    >>> key = derive("a good password", 7)
    >>> lock = lock_of(key)
    >>> sealed = seal_to_lock(lock, "the-token", "ABCDEF", 1, 7)
    >>> "the-token" in sealed, unseal(key, sealed, "ABCDEF", 1, 7)
    (False, 'the-token')
    >>> unseal(derive("another password", 7), sealed, "ABCDEF", 1, 7) is None
    True
    >>> unseal(key, sealed, "ABCDEF", 0, 7) is None  # another seat's: refused
    True
    """
    return base64.urlsafe_b64encode(_pair(key).public_key().public_bytes_raw()).decode()


def seal_to_lock(lock: str, token: str, code: str, seat: int, account_id: int) -> str | None:
    """``token`` sealed to the account's seat ``lock``, for a seat the room gives it without
    its key at hand (ECIES: a fresh X25519 pair per token); None for a lock that is not one."""
    ephemeral = X25519PrivateKey.generate()
    mine = ephemeral.public_key().public_bytes_raw()
    try:
        public = X25519PublicKey.from_public_bytes(base64.urlsafe_b64decode(lock.encode()))
        shared = ephemeral.exchange(public)
    except (ValueError, binascii.Error):
        return None
    nonce = os.urandom(NONCE_BYTES)
    box = AESGCM(_box_key(shared, mine)).encrypt(nonce, token.encode(),
                                                 _about(code, seat, account_id))
    return LOCKED + base64.urlsafe_b64encode(mine + nonce + box).decode()


def unseal(key: bytes, sealed: str, code: str, seat: int, account_id: int) -> str | None:
    """The token, or None when ``key`` is not the one it was sealed under (an old password's),
    whether it was sealed under the key or to the key's lock."""
    try:
        if sealed.startswith(LOCKED):
            raw = base64.urlsafe_b64decode(sealed.removeprefix(LOCKED).encode())
            theirs, raw = raw[:KEY_BYTES], raw[KEY_BYTES:]
            shared = _pair(key).exchange(X25519PublicKey.from_public_bytes(theirs))
            key = _box_key(shared, theirs)
        else:
            raw = base64.urlsafe_b64decode(sealed.encode())
        opened = AESGCM(key).decrypt(raw[:NONCE_BYTES], raw[NONCE_BYTES:],
                                     _about(code, seat, account_id))
    except (InvalidTag, ValueError, binascii.Error):
        return None
    return opened.decode()
