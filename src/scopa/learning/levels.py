"""The learned level with weights of one's choosing, for ``scopa tournament`` and the pipeline.

The card room's levels are names; a generation of the self-play loop is a weights file
that is not shipped. Tournaments field any bot as ``FILE.py:FACTORY:ARGUMENT``, so a
generation plays as ``level(path)``: this file, its :func:`learned` factory, and the
weights file with the player's settings, for instance::

    scopa tournament "$(python -c 'from scopa.learning.levels import level; \
print(level("runs/scopa-2p-gen1.npz"))')" master --matches 100

The argument is a comma-separated list: the weights file, then ``samples=N``,
``plies=N``, ``weighting=X``, ``reply=minimax`` or ``mix=X`` (the playout's share of
each leaf, 0 to 1; its default guess count is then the master's) to change the
player's settings. The file's feature set (seat or determinized) decides the leaf.
"""

from __future__ import annotations

from pathlib import Path

# Absolute imports: tournaments load this file by its path, outside the package.
from scopa.learning.evaluation import Evaluation, evaluation_for
from scopa.learning.learned import DEFAULT_PLIES, LearnedPlayer
from scopa.players.base import Player
from scopa.rules import Rules

_SETTINGS = ("samples", "plies", "weighting", "reply", "mix")


def make(level: str, seed: int | None, rules: Rules | None) -> Player:
    """The ``learned`` bot of tournaments (:func:`scopa.tournament.make_bot`), with the
    shipped weights: given ``rules``, those rules' weights are loaded now, so a missing or
    corrupt file fails before play."""
    if level != "learned":
        raise ValueError(f"not the learned level: {level!r}")
    return LearnedPlayer(seed, evaluation=None if rules is None else evaluation_for(rules))


def level(weights: Path | str, **settings: float | str) -> str:
    """The tournament level of the learned player with ``weights`` and ``settings``."""
    path = Path(weights).resolve()
    if "," in str(path) or ":" in str(path):
        raise ValueError(f"a weights path for a level may hold no ',' or ':'; got {path}")
    unknown = sorted(set(settings) - set(_SETTINGS))
    if unknown:
        raise ValueError(f"unknown settings {unknown}; the settings are {list(_SETTINGS)}")
    options = "".join(f",{name}={value}" for name, value in sorted(settings.items()))
    return f"{Path(__file__).resolve()}:learned:{path}{options}"


def learned(argument: str | None, seed: int | None) -> Player:
    """The factory behind :func:`level`: ``argument`` is the weights file and settings."""
    if not argument:
        raise ValueError("the learned level needs a weights file: FILE.py:learned:WEIGHTS.npz")
    path, *options = argument.split(",")
    settings: dict[str, float] = {}
    reply = "policy"
    for option in options:
        name, _, value = option.partition("=")
        try:
            if name not in _SETTINGS:
                raise ValueError
            if name == "reply":
                reply = value
            else:
                settings[name] = float(value) if name in ("weighting", "mix") else int(value)
        except ValueError:
            raise ValueError(
                f"{option!r} is no setting of the learned level; the settings are "
                "samples=N, plies=N, weighting=X, reply=policy|minimax and mix=X"
            ) from None
    return LearnedPlayer(
        seed,
        evaluation=Evaluation.load(path, features=None),
        samples=int(settings["samples"]) if "samples" in settings else None,
        plies=int(settings.get("plies", DEFAULT_PLIES)),
        weighting=settings.get("weighting", 0.0),
        reply=reply,
        mix=settings.get("mix", 0.0),
    )
