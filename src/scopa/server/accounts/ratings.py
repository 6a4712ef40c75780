"""Ratings with openskill's Plackett-Luce model: one pool per game and format, bots as anchors.

The model and every number shown are documented in docs/ratings.md; in short:

* A rating is openskill's ``(mu, sigma)``: the skill believed and how unsure that belief is.
  Newcomers start at the model's defaults, mu 25 and sigma 25/3.
* People are shown a conservative figure, ``1000 + 40 * (mu - 3 * sigma)`` rounded (a
  newcomer shows 1000): it rises as the rating grows surer, not only as it grows.
* A rating is provisional until the room's ``provisional_matches`` rated matches in its pool
  (5 unless ``scopa serve --provisional-matches`` says else); the leaderboards leave
  provisional ratings out.
* Each bot level is a player of every pool with a fixed rating (:data:`ANCHORS`): it takes part
  in the update so that people who play it move, but it never moves itself. So a newcomer's
  first matches against the computer already place them, on a scale that does not drift.
* Guests in a rated match are players at the defaults, never stored.
* A match's sides are ranked by their final scores; a side in which a person walked out of the
  match (their seat taken over by a bot) is ranked last, so abandoning counts as a loss.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from openskill.models import PlackettLuce

from ...rules import Rules
from ..store import rating_queries
from ..store.rating_queries import Played, RatingMove, StoredRating
from ..store.storage import Storage, now
from ..table.finished import FinishedMatch, Subscriber

log = logging.getLogger(__name__)

MODEL: Final = PlackettLuce()
"""openskill's defaults: mu 25, sigma 25/3, beta 25/6 (the spread of one match's
performance), tau 25/300 (sigma's growth per match, so ratings can keep moving)."""
ANCHORS: Final = {"random": 13.0, "greedy": 19.0, "expert": 27.0, "master": 33.0}
"""The bot levels' fixed mu in every pool, weakest first; their sigma is :data:`ANCHOR_SIGMA`.
From ``benchmarks/rating_anchors.py 60``: a round robin of the levels at 2-player scopa, 60
matches per pair, rated like people from the defaults, shifted so that the expert sits at 27
(fitted: 13.2, 18.7, 27.0, 32.6, each within about 2.3). The same anchors serve every pool
until each is measured."""
ANCHOR_SIGMA: Final = 1.0
DISPLAY_BASE: Final = 1000
DISPLAY_SCALE: Final = 40


def pool_of(rules: Rules) -> str:
    """The rating pool of a table's rules: the game, then the format.

    >>> pool_of(Rules.preset("scopa")), pool_of(Rules.preset("escoba", players=4))
    ('scopa-2', 'escoba-teams')
    >>> pool_of(Rules.preset("scopa", players=3)), pool_of(Rules.preset("scopa", players=6))
    ('scopa-3', 'scopa-6-teams')
    """
    game = "escoba" if rules.capture == "fifteen" else "scopa"
    if rules.sides == rules.players:
        return f"{game}-{rules.players}"
    if rules.players == 4:
        return f"{game}-teams"
    return f"{game}-{rules.players}-teams" if rules.sides == 2 else f"{game}-6-pairs"


def display(mu: float, sigma: float) -> int:
    """The rating shown: conservative, a newcomer's is 1000.

    >>> display(25.0, 25 / 3), display(30.0, 1.0)
    (1000, 2080)
    """
    return DISPLAY_BASE + round(DISPLAY_SCALE * (mu - 3 * sigma))


@dataclass(frozen=True)
class Rated:
    """One seat's part in a rated match."""

    seat: int
    mu: float
    sigma: float
    account: int | None = None
    """The account whose rating moves; None for bots (anchors) and guests."""


def side_ranks(scores: Sequence[int], walked_out: set[int]) -> list[int]:
    """Ranks (0 is best) of the sides, by final score; sides someone walked out of come last.

    >>> side_ranks([21, 15], set()), side_ranks([21, 15], {0}), side_ranks([5, 11, 11], set())
    ([0, 1], [1, 0], [1, 0, 0])
    """
    order = sorted({score for side, score in enumerate(scores) if side not in walked_out},
                   reverse=True)
    worst = len(order)
    return [worst if side in walked_out else order.index(score)
            for side, score in enumerate(scores)]


def update(
    rules: Rules, seated: Sequence[Rated], ranks: Sequence[int]
) -> dict[int, tuple[float, float]]:
    """The new ``(mu, sigma)`` of each account's seat after a match, the sides ranked as
    ``ranks``: one openskill update with every seat's team as its side."""
    sides: list[list[Rated]] = [[] for _ in range(rules.sides)]
    for rated in seated:
        sides[rules.side_of(rated.seat)].append(rated)
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma) for r in side] for side in sides]
    after = MODEL.rate(teams, ranks=list(ranks))
    moved: dict[int, tuple[float, float]] = {}
    for side, new_side in zip(sides, after, strict=True):
        for rated, new in zip(side, new_side, strict=True):
            if rated.account is not None:
                moved[rated.seat] = (new.mu, new.sigma)
    return moved


# -- the card room's side ------------------------------------------------------------------


def rater(storage: Storage) -> Subscriber:
    """The subscriber to the room's finished matches that rates them (:func:`match_over`)."""

    async def rate(match: FinishedMatch) -> None:
        await match_over(
            storage, match.code, match.match_id, match.rules, match.kinds, match.scores,
            match.winner,
        )

    return rate


async def match_over(
    storage: Storage, code: str, match_id: int, rules: Rules, kinds: Sequence[str],
    scores: Sequence[int], winner: int,
) -> None:
    """Record a finished match for the accounts that played it, and on a rated table move
    their ratings. ``kinds`` are the seats' kinds at the end: a person's seat that is now a
    bot's was walked out of. Recording twice changes nothing. Never raises: a failure is
    logged, and the match stays as it is."""
    try:
        await _match_over(storage, code, match_id, rules, kinds, scores, winner)
    except Exception:
        log.exception("table %s: match %s could not be rated", code, match_id)


async def _match_over(
    storage: Storage, code: str, match_id: int, rules: Rules, kinds: Sequence[str],
    scores: Sequence[int], winner: int,
) -> None:
    pool = pool_of(rules)
    found = await rating_queries.match_accounts(storage, code, match_id)
    held = found.holders
    seats = {player["seat"]: player for player in found.players}
    accounts = {seat: held[seat] for seat, player in seats.items()
                if player.get("kind") == "human" and seat in held}
    if not accounts:
        return
    rated = found.rated
    if len(set(accounts.values())) < len(accounts):
        # One account at two seats (a person who made a table and joined it again under the
        # same login) played itself: its record keeps the match once, at its first seat, and
        # no rating moves.
        first: dict[int, int] = {}
        for seat, account in sorted(accounts.items()):
            first.setdefault(account, seat)
        accounts = {seat: account for account, seat in first.items()}
        rated = False
    walked_out = {seat for seat, player in seats.items()
                  if player.get("kind") == "human" and kinds[seat] == "bot"}
    moment = now()

    def result(seat: int) -> str:
        if seat in walked_out:
            return "left"
        return "win" if rules.side_of(seat) == winner else "loss"

    def rate(known: Mapping[int, StoredRating]) -> list[RatingMove]:
        return _rate(known, rules, seats, accounts, walked_out, scores, result)

    played = [Played(account, seat, result(seat)) for seat, account in accounts.items()]
    await rating_queries.record_match(
        storage, match_id, pool, played, moment, rate if rated else None
    )


def _rate(
    known: Mapping[int, StoredRating], rules: Rules, seats: dict[int, dict[str, Any]],
    accounts: dict[int, int], walked_out: set[int], scores: Sequence[int],
    result: Callable[[int], str],
) -> list[RatingMove]:
    """The new ratings of a rated match's accounts, from ``known``, their ratings before it
    (read in the transaction that writes these): one openskill update of every seat, bots at
    their anchors and guests at the defaults, and each account's record counted on."""
    seated = []
    for seat, player in sorted(seats.items()):
        account = accounts.get(seat)
        if account is not None and account in known:
            seated.append(Rated(seat, known[account].mu, known[account].sigma, account))
        elif account is not None:
            seated.append(Rated(seat, MODEL.mu, MODEL.sigma, account))
        elif player.get("kind") == "bot" and player.get("level") in ANCHORS:
            seated.append(Rated(seat, ANCHORS[player["level"]], ANCHOR_SIGMA))
        else:
            seated.append(Rated(seat, MODEL.mu, MODEL.sigma))
    walked_sides = {rules.side_of(seat) for seat in walked_out}
    moved = update(rules, seated, side_ranks(scores, walked_sides))
    after = []
    for rated in seated:
        if rated.account is None:
            continue
        mu, sigma = moved[rated.seat]
        won = result(rated.seat) == "win"
        before = known.get(rated.account)
        after.append(RatingMove(
            account_id=rated.account, seat=rated.seat, result=result(rated.seat), mu=mu,
            sigma=sigma,
            matches=1 if before is None else before.matches + 1,
            wins=(0 if before is None else before.wins) + int(won),
            losses=(0 if before is None else before.losses) + int(not won),
            display_before=display(rated.mu, rated.sigma), display_after=display(mu, sigma),
        ))
    return after
