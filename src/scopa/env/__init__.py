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

from typing import Any

import gymnasium

from .aec import ScopaEnv


def env(**kwargs: Any) -> ScopaEnv:
    """The PettingZoo environment, as PettingZoo's classic games are made: ``env(preset=...)``."""
    return ScopaEnv(**kwargs)


raw_env = ScopaEnv

if "scopa/Scopa-v0" not in gymnasium.registry:
    gymnasium.register(id="scopa/Scopa-v0", entry_point="scopa.env.single:SingleSeatEnv")

__all__ = ["ScopaEnv", "env", "raw_env"]
