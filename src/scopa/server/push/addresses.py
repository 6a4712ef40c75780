"""Where the room may post a push: an endpoint's host must resolve to public addresses only.

A subscription is the browser's word for where to post, so anyone with an account could give
the room an endpoint on its own network (``https://10.0.0.5/admin``, ``https://localhost``)
and have it post there (a server-side request forgery). The room checks every address a host
resolves to, when the subscription is given and again at each post (through the resolver of
its HTTP client, so a name that resolves elsewhere the second time is caught where it
connects), and refuses the loopback, private, link-local, shared and reserved ranges, unless
the operator names the host (``--push-allow-hosts``: a self-hosted push service). An address
written as the host itself never reaches a resolver, so it is checked on its own.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Collection

from aiohttp import ThreadedResolver
from aiohttp.abc import AbstractResolver, ResolveResult


class PrivateAddressError(OSError):
    """A host that resolves to an address the room never posts to."""


def is_public(address: str) -> bool:
    """Whether the room may post to ``address``: a global unicast address (an IPv4 address
    written as IPv6 is judged as itself).

    >>> [is_public(a) for a in ("1.1.1.1", "127.0.0.1", "10.1.2.3", "169.254.169.254",
    ...                          "100.64.0.1", "::1", "fe80::1", "::ffff:192.168.0.1",
    ...                          "2606:4700::1111", "224.0.0.1")]
    [True, False, False, False, False, False, False, False, True, False]
    """
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def literal(host: str) -> str | None:
    """The address when ``host`` is written as one (``[::1]`` or ``127.0.0.1``), else None."""
    try:
        return str(ipaddress.ip_address(host.strip("[]")))
    except ValueError:
        return None


def check_literal(host: str, allowed: Collection[str]) -> None:
    """Refuse (``PrivateAddressError``) a host written as an address the room never posts to."""
    address = literal(host)
    if address is not None and address not in allowed and not is_public(address):
        raise PrivateAddressError(f"{host} is a loopback or private address")


async def check_host(host: str, port: int, allowed: Collection[str]) -> None:
    """Refuse (``PrivateAddressError``) a host with any address the room never posts to, and
    one that does not resolve (``OSError``)."""
    if literal(host) is not None:
        check_literal(host, allowed)
        return
    if host.lower() in allowed:
        return
    found = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    for *_, sockaddr in found:
        if not is_public(str(sockaddr[0])):
            raise PrivateAddressError(f"{host} resolves to {sockaddr[0]}, a loopback or "
                                      "private address")


class PublicResolver(AbstractResolver):
    """The HTTP client's resolver: a name resolves only if every address it has is public,
    or the operator allowed the name."""

    def __init__(self, allowed: Collection[str]) -> None:
        self.allowed = frozenset(allowed)
        self.inner = ThreadedResolver()

    async def resolve(self, host: str, port: int = 0,
                      family: socket.AddressFamily = socket.AF_INET) -> list[ResolveResult]:
        found = await self.inner.resolve(host, port, family)
        if host.lower() not in self.allowed:
            for each in found:
                if not is_public(each["host"]):
                    raise PrivateAddressError(
                        f"{host} resolves to {each['host']}, a loopback or private address")
        return found

    async def close(self) -> None:
        await self.inner.close()
