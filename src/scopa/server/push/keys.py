"""The room's VAPID key (RFC 8292): the P-256 key every push is signed with, and whose public
half a browser subscribes with (``applicationServerKey``), so a push service takes pushes to
that subscription from this room only.

The key is made once, by the migration that made push's tables, and kept in ``room_keys``:
every process reads the same one, and processes that start together migrate one at a time.
A deployment may keep it in a file instead (``scopa serve --vapid-key FILE``): a room moved to
a new database keeps its browsers' subscriptions working.
"""

from __future__ import annotations

import base64
from pathlib import Path

import sqlalchemy as sa
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from ..store.schema import room_keys
from ..store.storage import Storage

VAPID_ROW = "vapid"
"""Its name in ``room_keys``."""


def b64url(data: bytes) -> str:
    """Base64url without padding, as Web Push writes keys."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    """The bytes of base64url text, padded or not; ``ValueError`` if it is not base64url."""
    if not isinstance(text, str) or not text.isascii():
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def read_key_file(path: Path) -> ec.EllipticCurvePrivateKey:
    """The P-256 private key in a PEM file (PKCS#8 or SEC 1, as ``openssl ecparam`` or
    ``vapid --gen`` write it); ``ValueError`` naming ``--vapid-key`` when it is not one."""
    try:
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    except (OSError, ValueError, TypeError) as error:
        raise ValueError(f"--vapid-key {path}: not a readable PEM private key ({error})"
                         ) from None
    if not isinstance(key, ec.EllipticCurvePrivateKey) or key.curve.name != "secp256r1":
        raise ValueError(f"--vapid-key {path}: a VAPID key is a P-256 (prime256v1) EC key")
    return key


async def room_key(storage: Storage, path: Path | None) -> ec.EllipticCurvePrivateKey:
    """The key pushes are signed with: the file's, else the one kept in the database."""
    if path is not None:
        return read_key_file(path)
    async with storage.engine.connect() as connection:
        secret = await connection.scalar(
            sa.select(room_keys.c.secret).where(room_keys.c.name == VAPID_ROW))
    if secret is None:
        raise RuntimeError("the database has no VAPID key: its migrations did not run")
    return ec.derive_private_key(int.from_bytes(unb64url(str(secret)), "big"), ec.SECP256R1())


def public_key(key: ec.EllipticCurvePrivateKey) -> str:
    """The public half as a browser's ``applicationServerKey`` takes it: the uncompressed
    point, base64url."""
    return b64url(key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))
