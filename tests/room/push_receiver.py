"""A real push service for the tests (RFC 8030's push resource, the part a browser's vendor
runs): HTTPS on loopback with a certificate of its own, which checks each push's VAPID
signature against the room's public key (RFC 8292) and decrypts its aes128gcm payload with the
subscription's keys (RFC 8291), as a browser would. The tests read what arrived.

The room is told to trust the receiver's certificate (``PushSettings.ca_file``,
``--push-ca``) and to post to loopback (``--push-allow-hosts 127.0.0.1``), as a deployment
with a self-hosted push service behind a private CA would be.
"""

from __future__ import annotations

import asyncio
import base64
import datetime
import ipaddress
import json
import os
import ssl
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import http_ece
from aiohttp import web
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from py_vapid import Vapid02

from .server_support import TIMEOUT


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Browser:
    """One browser's subscription: its keys (the private half stays here) and its endpoint."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self) -> dict[str, Any]:
        """As ``PushSubscription.toJSON()`` gives it."""
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "expirationTime": None,
                "keys": {"p256dh": b64url(point), "auth": b64url(self.auth)}}


@dataclass
class Arrived:
    """One push, checked and decrypted."""

    name: str
    headers: dict[str, str]
    claims: dict[str, Any]
    payload: dict[str, Any]


class Receiver:
    """The push service: ``/push/{name}`` is one browser's endpoint."""

    def __init__(self, folder: Path) -> None:
        self.cert = folder / "push-ca.pem"
        self.browsers: dict[str, Browser] = {}
        self.answers: dict[str, int] = {}
        """The status a name is answered with (201 unless set: 410 for a gone one)."""
        self.arrived: list[Arrived] = []
        self.refused: list[str] = []
        """Why pushes were refused (a bad signature, a payload that did not decrypt)."""
        self.room_key: str | None = None
        """The room's VAPID public key, every push's signature is checked against."""
        self._context = self._make_certificate(folder)
        self._changed = asyncio.Condition()
        self.origin = ""

    def _make_certificate(self, folder: Path) -> ssl.SSLContext:
        key = ec.generate_private_key(ec.SECP256R1())
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "test push service")])
        moment = datetime.datetime.now(datetime.UTC)
        certificate = (
            x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(moment - datetime.timedelta(minutes=5))
            .not_valid_after(moment + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")]),
                critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256())
        )
        self.cert.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
        key_file = folder / "push-key.pem"
        key_file.write_bytes(key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption()))
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(self.cert, key_file)
        return context

    def browser(self, name: str, host: str = "127.0.0.1") -> Browser:
        """A new browser whose endpoint is here, by the address or by a name (``localhost``)."""
        origin = self.origin.replace("127.0.0.1", host)
        found = self.browsers[name] = Browser(f"{origin}/push/{name}")
        return found

    async def _push(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        body = await request.read()
        try:
            arrived = self._check(name, dict(request.headers), body)
        except Exception as error:  # any flaw is a refusal the test reads
            self.refused.append(f"{name}: {error!r}")
            return web.Response(status=400)
        status = self.answers.get(name, 201)
        if status == 201:
            async with self._changed:
                self.arrived.append(arrived)
                self._changed.notify_all()
        return web.Response(status=status)

    def _check(self, name: str, headers: dict[str, str], body: bytes) -> Arrived:
        browser = self.browsers[name]
        scheme, _, params = headers["Authorization"].partition(" ")
        assert scheme == "vapid", scheme
        parts = dict(part.split("=", 1) for part in params.split(","))
        assert self.room_key is not None and parts["k"] == self.room_key, "not the room's key"
        assert Vapid02.verify(headers["Authorization"]), "the VAPID signature is wrong"
        claims = json.loads(unb64url(parts["t"].split(".")[1]))
        assert claims["aud"] == f"https://{headers['Host']}", claims
        assert time.time() < claims["exp"] <= time.time() + 24 * 3600, claims
        assert claims["sub"].startswith(("mailto:", "https://")), claims
        assert headers["Content-Encoding"] == "aes128gcm"
        plain = http_ece.decrypt(body, private_key=browser.key, auth_secret=browser.auth,
                                 version="aes128gcm")
        return Arrived(name, headers, claims, json.loads(plain))

    async def wait_for(self, count: int) -> list[Arrived]:
        """The pushes once ``count`` have arrived."""
        async with asyncio.timeout(TIMEOUT), self._changed:
            await self._changed.wait_for(lambda: len(self.arrived) >= count)
        return list(self.arrived)

    @asynccontextmanager
    async def running(self) -> AsyncIterator[Receiver]:
        app = web.Application()
        app.router.add_post("/push/{name}", self._push)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0, ssl_context=self._context)
        await site.start()
        port = runner.addresses[0][1]
        self.origin = f"https://127.0.0.1:{port}"
        try:
            yield self
        finally:
            await runner.cleanup()
