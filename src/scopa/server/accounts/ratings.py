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
* A match's winning side is ranked first, the other sides after it by their final scores; a
  side that gave the match up (a seat of it resigned, timed out and was still played for by a
  stand-in at the end, or was walked out of and taken over by a bot) is ranked last whatever
  its points. So giving up is a loss even at a level score: ranking by points alone rated a
  resignation at 0-0 as a tie, and a tie lifted both players' shown figures. The rules never
  end a match level at the top (a tie for the highest total means another round), so the only
  shared rank is between two losing sides with equal points.
* A loss never raises the figure shown (:func:`update`): where the model's smaller sigma would
  lift ``mu - 3 sigma`` after a loss, sigma is set so that it stays where it was; mu is the model's.
* Fair play (:mod:`..common.fairplay`): a match that ended before each side made 2 moves of its
  own rates nobody; two accounts' rated matches together are capped per day (the deal makes
  the next one casual, and the record counts again in case two tables were dealt at once); a
  new account plays a few matches before its first rated challenge or rated pool.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from openskill.models import PlackettLuce

from ...rules import Rules
from ..common import fairplay
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


def pool_of(rules: Rules, pace: str = "live") -> str:
    """The rating pool of a table's rules: the game, then the format, then the pace when it
    is not live (a correspondence match rates on a line of its own, as lichess keeps one
    rating per speed).

    >>> pool_of(Rules.preset("scopa")), pool_of(Rules.preset("escoba", players=4))
    ('scopa-2', 'escoba-teams')
    >>> pool_of(Rules.preset("scopa", players=3)), pool_of(Rules.preset("scopa", players=6))
    ('scopa-3', 'scopa-6-teams')
    >>> pool_of(Rules.preset("escoba"), "correspondence")
    'escoba-2-correspondence'
    """
    game = "escoba" if rules.capture == "fifteen" else "scopa"
    if rules.sides == rules.players:
        line = f"{game}-{rules.players}"
    elif rules.players == 4:
        line = f"{game}-teams"
    else:
        line = f"{game}-{rules.players}-teams" if rules.sides == 2 else f"{game}-6-pairs"
    return line if pace == "live" else f"{line}-{pace}"


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


def side_ranks(scores: Sequence[int], winner: int, gave_up: set[int]) -> list[int]:
    """Ranks (0 is best, equal ranks are shared) of the sides of a match that ``winner`` won:
    the winner first, then the other sides by final score; the sides in ``gave_up`` (resigned,
    timed out, walked out) after all the others, whatever their points.

    The winner comes from the match, not the points: a resignation ends a match at any score,
    and the side that resigned lost it though it may be level or ahead.

    >>> side_ranks([21, 15], 0, set()), side_ranks([21, 15], 1, {0}), side_ranks([0, 0], 1, {0})
    ([0, 1], [1, 0], [1, 0])
    >>> side_ranks([11, 5, 5], 0, set()), side_ranks([3, 5, 5], 1, {0})
    ([0, 1, 1], [2, 0, 1])
    """
    keys = [(side in gave_up, side != winner, -score) for side, score in enumerate(scores)]
    order = sorted(set(keys))
    return [order.index(key) for key in keys]


def update(
    rules: Rules, seated: Sequence[Rated], ranks: Sequence[int]
) -> dict[int, tuple[float, float]]:
    """The new ``(mu, sigma)`` of each account's seat after a match, the sides ranked as
    ``ranks``: one openskill update with every seat's team as its side.

    A side ranked below the first lost, and its seats' shown figures never rise: the model
    shrinks sigma after every match, and early on (sigma large, an expected loss, so mu falls
    little) that shrinking lifts ``mu - 3 sigma`` more than mu's fall lowers it. People read a
    figure that rises after a loss as a bug or a gift, and two accounts could farm it. So for
    such a seat sigma shrinks no further than keeps ``mu - 3 sigma`` where it was; mu is the
    model's. Sigma stays a little larger than the model's, never smaller: the rating is only
    held less sure, and the next matches move it a little more."""
    sides: list[list[Rated]] = [[] for _ in range(rules.sides)]
    for rated in seated:
        sides[rules.side_of(rated.seat)].append(rated)
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma) for r in side] for side in sides]
    after = MODEL.rate(teams, ranks=list(ranks))
    best = min(ranks)
    moved: dict[int, tuple[float, float]] = {}
    for side, new_side, rank in zip(sides, after, ranks, strict=True):
        for rated, new in zip(side, new_side, strict=True):
            if rated.account is None:
                continue
            sigma = new.sigma
            if rank > best and new.mu - 3 * sigma > rated.mu - 3 * rated.sigma:
                sigma = rated.sigma + (new.mu - rated.mu) / 3
            moved[rated.seat] = (new.mu, sigma)
    return moved


# -- the card room's side ------------------------------------------------------------------


def rater(storage: Storage) -> Subscriber:
    """The subscriber to the room's finished matches that rates them (:func:`match_over`)."""

    async def rate(match: FinishedMatch) -> None:
        await match_over(storage, match)

    return rate


async def match_over(storage: Storage, match: FinishedMatch) -> None:
    """Record a finished match for the accounts that played it, and on a rated table move
    their ratings. A person's seat that is a bot's at the end (``match.kinds``) was walked
    out of. Recording twice changes nothing. Never raises: a failure is logged, and the match
    stays as it is."""
    try:
        await _match_over(storage, match)
    except Exception:
        log.exception("table %s: match %s could not be rated", match.code, match.match_id)


async def _match_over(storage: Storage, match: FinishedMatch) -> None:
    rules, kinds = match.rules, match.kinds
    pool = pool_of(rules, match.pace)
    found = await rating_queries.match_accounts(storage, match.code, match.match_id)
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
    gave_up = walked_out | set(match.timed_out)
    if match.resigned is not None:
        gave_up.add(match.resigned)
    ranks = side_ranks(match.scores, match.winner, {rules.side_of(seat) for seat in gave_up})
    moment = now()

    def result(seat: int) -> str:
        if seat in walked_out:
            return "left"
        return "win" if ranks[rules.side_of(seat)] == 0 else "loss"

    def rate(known: Mapping[int, StoredRating]) -> list[RatingMove]:
        return _rate(known, rules, seats, accounts, ranks, result)

    played = [Played(account, seat, result(seat)) for seat, account in accounts.items()]
    # A match given up before each side made 2 moves of its own is kept in the record, and
    # rates nobody (docs/ratings.md, "Fair play"): a second account that resigns at move 0
    # gives its owner nothing. Nor does one resigned because an account at it was deleted.
    await rating_queries.record_match(
        storage, match.match_id, pool, played, moment,
        rate if rated and not match.short and not match.deleted else None, short=match.short,
        capped=not found.paired,
    )


def _rate(
    known: Mapping[int, StoredRating], rules: Rules, seats: dict[int, dict[str, Any]],
    accounts: dict[int, int], ranks: Sequence[int], result: Callable[[int], str],
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
    moved = update(rules, seated, ranks)
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


async def newcomer_refusal(
    storage: Storage, account_id: int, name: str | None, needed: int
) -> str | None:
    """Why account ``account_id`` (called ``name``; None: the one asking) may not play rated
    with people yet, if it has finished fewer than ``needed`` matches (short ones not
    counted); None once it has. Rated play against the computer needs none: its levels are
    anchors, and a newcomer's first matches there place them."""
    if needed <= 0:
        return None
    played = await rating_queries.finished_matches(storage, account_id)
    return None if played >= needed else fairplay.newcomer_refusal(name, played, needed)
