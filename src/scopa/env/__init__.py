"""Scopa and Escoba for learning programs: PettingZoo, Gymnasium and OpenSpiel.

An optional part (``pip install -e '.[rl]'``): the rules core underneath needs
none of it. The action space is :mod:`scopa.env.actions` (one fixed number per
move, the same for every preset and state), the observation
:mod:`scopa.env.observation` (only what the seat may know).

- ``scopa.env.env(preset="scopa", players=2)``: the PettingZoo AEC environment
  (:class:`~scopa.env.aec.ScopaEnv`);
- ``gymnasium.make("scopa/Scopa-v0", opponent="expert", preset="escoba")``: one
  seat against bots (registered when this package is imported, or name it
  ``"scopa.env:scopa/Scopa-v0"``);
- ``scopa.env.openspiel``: the OpenSpiel game ``python_scopa``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..extras import missing_extra

# PettingZoo and Gymnasium load only when their environments are asked for, so that
# ``scopa.env.engine`` (the fast round for one's own training loop) needs numpy alone.
if TYPE_CHECKING:
    from .aec import ScopaEnv

try:
    import gymnasium
except ModuleNotFoundError:
    pass
else:
    if "scopa/Scopa-v0" not in gymnasium.registry:
        gymnasium.register(id="scopa/Scopa-v0", entry_point="scopa.env.single:SingleSeatEnv")


def env(**kwargs: Any) -> ScopaEnv:
    """The PettingZoo environment, as PettingZoo's classic games are made: ``env(preset=...)``."""
    return _environment()(**kwargs)


def __getattr__(name: str) -> Any:
    """``ScopaEnv`` and its PettingZoo name ``raw_env``, imported on first use."""
    if name in ("ScopaEnv", "raw_env"):
        return _environment()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _environment() -> type[ScopaEnv]:
    """The PettingZoo environment's class; without its packages, the sentence that names the
    extra (a :class:`~scopa.extras.MissingExtraError`, which is an ``ImportError``)."""
    try:
        from .aec import ScopaEnv
    except ImportError as error:
        raise missing_extra(error, "rl", "the PettingZoo environment") from None
    return ScopaEnv


__all__ = ["ScopaEnv", "env", "raw_env"]
