"""Web Push's knobs: the section of the room's settings (``Settings.section(PushSettings)``)
and the ``scopa serve`` options that set it."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from limits import parse_many

DEFAULT_SUBJECT = "mailto:push@scopa.invalid"
"""The VAPID ``sub`` claim when the operator names none: a push service may write to it about
the room's pushes (RFC 8292, section 2.1), so a deployment gives its own with
``--push-subject``."""


@dataclass(frozen=True)
class PushSettings:
    vapid_key: Path | None = None
    """A PEM file with the room's VAPID private key (P-256); None: the key the room made at
    its first start and keeps in the database, the same for every process."""
    subject: str = DEFAULT_SUBJECT
    """The VAPID ``sub`` claim: a ``mailto:`` or ``https:`` address of the room's operator."""
    allow_hosts: frozenset[str] = frozenset()
    """Hosts (names or addresses) the room may push to even on the loopback or a private
    range: a self-hosted push service on the room's own network. Every other endpoint must
    resolve to public addresses only."""
    ca_file: Path | None = None
    """A PEM file of certificate authorities trusted for push services' certificates beside
    the system's: a self-hosted push service signed by a private CA."""
    per_room: str = "600/minute"
    """Pushes the whole room sends a minute (the ``limits`` library's notation), beyond which
    they are dropped: the push services' quotas and the room's CPU are finite."""
    per_account: str = "20/minute"
    """Pushes one account is sent a minute: no burst of events buries one phone."""
    subscriptions_per_account: int = 20
    """Subscriptions an account keeps; a newer one replaces the one seen longest ago."""
    queue: int = 1000
    """Pushes waiting to be sent on one process; one more is dropped, never waited for."""

    def __post_init__(self) -> None:
        if not self.subject.startswith(("mailto:", "https://")):
            raise ValueError("--push-subject must be a mailto: or https:// address of the "
                             f"room's operator; got {self.subject!r}")
        for rate in (self.per_room, self.per_account):
            try:
                parse_many(rate)
            except ValueError:
                raise ValueError(f"a push rate must read like 600/minute; got {rate!r}") from None
        if self.subscriptions_per_account < 1 or self.queue < 1:
            raise ValueError("subscriptions_per_account and queue must be 1 or more")


def add_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--vapid-key", metavar="FILE", type=Path,
        help="Web Push's VAPID private key, a P-256 PEM file (default: the key the room made "
        "at its first start, kept in the database)",
    )
    parser.add_argument(
        "--push-subject", metavar="ADDRESS", default=DEFAULT_SUBJECT,
        help="the VAPID contact a push service may write to: mailto:you@example.org or an "
        f"https:// page (default: {DEFAULT_SUBJECT})",
    )
    parser.add_argument(
        "--push-allow-hosts", metavar="HOST[,HOST]", default="",
        help="push services the room may reach on the loopback or a private network "
        "(a self-hosted one); by default only public addresses are pushed to",
    )
    parser.add_argument(
        "--push-ca", metavar="FILE", type=Path,
        help="certificate authorities (PEM) trusted for push services beside the system's",
    )


def from_flags(args: argparse.Namespace) -> PushSettings:
    hosts = frozenset(h.strip().lower() for h in str(args.push_allow_hosts).split(",")
                      if h.strip())
    if args.vapid_key is not None:
        from .keys import read_key_file

        read_key_file(args.vapid_key)  # refused here, with its option named, not at the start
    return PushSettings(vapid_key=args.vapid_key, subject=args.push_subject,
                        allow_hosts=hosts, ca_file=args.push_ca)
