"""A browser's ``PushSubscription``, checked before anything is kept (RFC 8030, 8291).

Each refusal says what is wrong in one sentence, with its code
(:class:`~..common.errors.LobbyError`): an endpoint that is not an https address a push
service gives, one on the loopback or a private network (:mod:`.addresses`), a ``p256dh``
that is not a P-256 public key (the browser's half of the ECDH that encrypts each push: a
point off the curve would make every push fail, or leak), and an ``auth`` secret that is not
16 bytes (RFC 8291, section 3.2).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Final
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec

from ..common.errors import LobbyError
from .addresses import PrivateAddressError, check_host
from .keys import unb64url

MAX_ENDPOINT: Final = 1024
"""Longest endpoint kept: the push services' own are under 500 characters."""
P256_POINT: Final = 65
"""Bytes of an uncompressed P-256 point: 0x04, then x and y."""
AUTH_BYTES: Final = 16


@dataclass(frozen=True)
class Subscription:
    """One checked subscription: where to post, and the browser's keys, base64url."""

    endpoint: str
    p256dh: str
    auth: str


def _bad_endpoint(why: str) -> LobbyError:
    return LobbyError(422, f"the push endpoint is not an address a push service gives: {why}",
                      code="push_bad_endpoint", params={"why": why})


def check_keys(p256dh: str, auth: str) -> None:
    """Refuse (422) keys a push could not be encrypted to."""
    try:
        point = unb64url(p256dh)
        if len(point) != P256_POINT or point[0] != 4:
            raise ValueError("not an uncompressed point")
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise LobbyError(422, "the subscription's p256dh key is not a P-256 public key (an "
                         "uncompressed point on the curve, 65 bytes in base64url)",
                         code="push_bad_p256dh") from None
    try:
        secret = unb64url(auth)
    except ValueError:
        secret = b""
    if len(secret) != AUTH_BYTES:
        raise LobbyError(422, "the subscription's auth secret must be 16 bytes in base64url",
                         code="push_bad_auth")


async def check(endpoint: str, p256dh: str, auth: str,
                allowed: Collection[str]) -> Subscription:
    """The subscription, checked; a :class:`LobbyError` saying what is wrong otherwise."""
    if len(endpoint) > MAX_ENDPOINT:
        raise _bad_endpoint(f"longer than {MAX_ENDPOINT} characters")
    try:
        parts = urlsplit(endpoint)
        port = parts.port or 443
    except ValueError:
        raise _bad_endpoint("it does not read as a URL") from None
    if parts.scheme.lower() != "https":
        raise LobbyError(422, "a push endpoint must be an https:// address: the room posts "
                         "nothing in clear", code="push_not_https")
    host = parts.hostname
    if not host or parts.username is not None or parts.password is not None:
        raise _bad_endpoint("it has no host, or has a user name in it")
    if parts.fragment or any(ch.isspace() for ch in endpoint):
        raise _bad_endpoint("it has a fragment or a space")
    check_keys(p256dh, auth)
    try:
        await check_host(host, port, allowed)
    except PrivateAddressError:
        raise LobbyError(422, f"the push endpoint's host {host} is on the loopback or a "
                         "private network, which the room never posts to",
                         code="push_private_endpoint", params={"host": host}) from None
    except OSError:
        raise LobbyError(422, f"the push endpoint's host {host} is not found",
                         code="push_unknown_host", params={"host": host}) from None
    return Subscription(endpoint, p256dh, auth)
