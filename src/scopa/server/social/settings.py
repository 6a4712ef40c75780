"""The social features' knobs: their section of the room's settings
(``Settings.section(SocialSettings)``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SocialSettings:
    challenge_seconds: float = 60.0
    """Seconds a challenge waits for its answer before it expires (tests make it short)."""

    def __post_init__(self) -> None:
        if not self.challenge_seconds > 0:
            raise ValueError(
                f"challenge_seconds must be more than 0; got {self.challenge_seconds}")
