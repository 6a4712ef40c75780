"""Scopa and Escoba as an OpenSpiel game: ``python_scopa``, one round, registered on import.

``pyspiel.load_game("python_scopa", {"preset": "escoba", "players": 4})`` after
``import scopa.env.openspiel``. A game is one round, the core's
:class:`~scopa.round.Round` underneath:

- the deal is chance: 40 chance nodes put the deck in order, one card each (the
  outcome is the card's id), top first; a redeal (``kings_redeal``) is 40 more;
- player actions are :mod:`scopa.env.actions`' numbers;
- returns, at the round's end: a seat's side's points minus the mean of the other
  sides' points (zero-sum);
- the information state (string and tensor) of a player is its own cards and the
  public plays in order; the observation is the position as
  :mod:`scopa.env.observation` encodes it. Neither holds another hand or the stock;
- ``resample_from_infostate`` deals the cards a player cannot see at random among
  the deals that fit what it saw (the core's sampler: a seat that trailed where it
  had to capture held no card that could), so OpenSpiel's IS-MCTS can play it.

:func:`state_from_view` builds the state a bot's :class:`~scopa.view.View` stands
for, with one guess at the hidden cards (the ``openspiel-ismcts`` level).
"""

from __future__ import annotations

import random
from typing import Any, Final

import numpy as np
import pyspiel

from ..cards import ALL_CARDS_MASK, CARDS, cards_of, mask_of
from ..errors import IllegalMoveError
from ..moves import Move
from ..players.sampling import Knowledge
from ..round import Round
from ..rules import PLAYER_COUNTS, Rules
from ..view import Play, View
from . import actions, observation

SHORT_NAME: Final = "python_scopa"
_BITS: Final = tuple(card.bit for card in CARDS)
_PARAMETERS: Final = {"preset": "scopa", "players": 2}


def _bound(rules: Rules) -> float:
    """The most a side can score in a round more than the others' mean: every point but
    the sweeps (16 at most, napola's 10 included) and one sweep per play, plus the bonus."""
    return 16.0 + 40.0 + max((count for _, count in rules.dealer_bonus), default=0)


_GAME_TYPE: Final = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Scopa and Escoba (one round, scopa.env)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=max(PLAYER_COUNTS),
    min_num_players=min(PLAYER_COUNTS),
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMETERS,
)


class ScopaGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type information
    """One round of a preset for a player count; parameters ``preset`` and ``players``."""

    def __init__(self, params: dict[str, Any] | None = None, rules: Rules | None = None) -> None:
        """The game of ``params`` (``preset``, ``players``), or of any ``rules``."""
        if rules is None:
            params = {**_PARAMETERS, **(params or {})}
            rules = Rules.preset(str(params["preset"]), players=int(params["players"]))
        else:
            params = {"preset": rules.name, "players": rules.players}
        self.rules = rules
        bound = _bound(self.rules)
        redeals = 5 if self.rules.kings_redeal else 0
        info = pyspiel.GameInfo(
            num_distinct_actions=actions.SIZE,
            max_chance_outcomes=40,
            num_players=self.rules.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=40 * (1 + redeals) + 40 - self.rules.table_size,
        )
        super().__init__(_GAME_TYPE, info, params)
        actions.catalogue()

    def new_initial_state(self) -> ScopaState:
        return ScopaState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> ScopaObserver:
        if params:
            raise ValueError(f"python_scopa's observers take no parameters; got {params!r}")
        perfect_recall = iig_obs_type is None or bool(iig_obs_type.perfect_recall)
        return ScopaObserver(self.rules, perfect_recall)


def dealt_to(rules: Rules, position: int, player: int) -> bool:
    """Whether the ``position``-th card of a deck (top first) goes to ``player``'s first hand
    when seat 0 leads."""
    size = rules.hand_size
    return position < size * rules.players and position // size == player


class _Redeal(Exception):
    """The deck dealt calls for a redeal (``kings_redeal``): chance deals again."""


class _Box:
    """A state's round and lists. OpenSpiel clones a Python state by deep-copying each of
    its attributes; this one copies itself the cheap way (the round's ``copy``, the rules
    and the moves shared), which makes a clone some hundred times faster."""

    __slots__ = ("deck", "legal", "plays", "round", "rules")

    def __init__(
        self,
        rules: Rules,
        state: Round | None,
        deck: list[int],
        plays: list[tuple[int, Move, bool]],
        legal: list[int] | None,
    ) -> None:
        self.rules = rules
        self.round = state
        self.deck = deck
        self.plays = plays
        self.legal = legal

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        state = None if self.round is None else self.round.copy()
        return _Box(self.rules, state, self.deck[:], self.plays[:], self.legal)


class ScopaState(pyspiel.State):  # type: ignore[misc]
    """A round: chance dealing the deck, then the seats' moves."""

    def __init__(self, game: ScopaGame) -> None:
        super().__init__(game)
        self._box = _Box(game.rules, None, [], [], None)
        self.first_table = 0
        """The table as dealt (the dealer bonus included): public."""
        self.played = 0
        self.dealer = game.rules.players - 1
        """Seat 0 leads a dealt round; a state built from a view keeps the view's dealer."""

    @property
    def rules(self) -> Rules:
        return self._box.rules

    @property
    def round(self) -> Round | None:
        """The round being played (``None`` while chance deals)."""
        return self._box.round

    @round.setter
    def round(self, state: Round | None) -> None:
        self._box.round = state

    @property
    def deck(self) -> list[int]:
        """The card ids dealt by chance so far, top first."""
        return self._box.deck

    @deck.setter
    def deck(self, deck: list[int]) -> None:
        self._box.deck = deck

    @property
    def plays(self) -> list[tuple[int, Move, bool]]:
        """This round's plays: seat, move and whether it swept."""
        return self._box.plays

    @plays.setter
    def plays(self, plays: list[tuple[int, Move, bool]]) -> None:
        self._box.plays = plays

    # -- OpenSpiel's API ---------------------------------------------------------------------

    def current_player(self) -> int:
        state = self.round
        if state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if state.over:
            return int(pyspiel.PlayerId.TERMINAL)
        return state.to_move

    def is_terminal(self) -> bool:
        return self.round is not None and self.round.over

    def chance_outcomes(self) -> list[tuple[int, float]]:
        dealt = set(self.deck)
        left = [card for card in range(40) if card not in dealt]
        chance = 1.0 / len(left)
        return [(card, chance) for card in left]

    def _legal_actions(self, player: int) -> list[int]:
        box = self._box
        legal = box.legal
        if legal is None:
            assert box.round is not None
            rules = box.rules
            legal = box.legal = sorted(actions.action_of(rules, m) for m in box.round.legal())
        return legal

    def _apply_action(self, action: int) -> None:
        state = self.round
        if state is None:
            self._deal(int(action))
            return
        seat = state.to_move
        if action not in self._legal_actions(seat):  # the round trusts its caller; check here
            raise IllegalMoveError(
                f"action {action} is not legal here; the legal actions are "
                f"{', '.join(map(str, self._legal_actions(seat)))}"
            )
        move = actions.move_for(self.rules, int(action), state.table)
        swept = state.apply(move)
        self.plays.append((seat, move, swept))
        self.played |= move.card_bit
        self._box.legal = None

    def _deal(self, card: int) -> None:
        self.deck.append(card)
        if len(self.deck) < 40:
            return
        deck = [_BITS[card] for card in self.deck]
        calls = 0

        def next_deck() -> list[int]:
            nonlocal calls
            calls += 1
            if calls > 1:
                raise _Redeal
            return deck

        try:
            state = Round.deal(self.rules, 0, next_deck)
        except _Redeal:
            self.deck = []
            return
        self.round = state
        self.first_table = state.table | state.bonus

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {CARDS[action]}"
        card, mask = actions.catalogue().pairs[action]
        if mask < 0:
            return f"{CARDS[card]} takes the table"
        return str(Move(CARDS[card], mask))

    def returns(self) -> list[float]:
        players = self.rules.players
        if not self.is_terminal():
            return [0.0] * players
        assert self.round is not None
        points = [score.total for score in self.round.scores()]
        sides = len(points)
        total = sum(points)
        by_side = [point - (total - point) / (sides - 1) for point in points]
        return [by_side[self.rules.side_of(seat)] for seat in range(players)]

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> ScopaState:
        """A state ``player`` cannot tell from this one, the hidden cards dealt at random."""
        rng = random.Random(int(probability_sampler() * 2**53))
        if self.round is None:
            return self._with_deck_guess(player, rng)
        if self.round.over:
            done: ScopaState = self.clone()
            return done
        return self._with_guess(player, rng)

    def __str__(self) -> str:
        if self.round is None:
            return f"dealing: {' '.join(str(CARDS[card]) for card in self.deck)}"
        state = self.round
        hands = " | ".join(" ".join(map(str, cards_of(hand))) for hand in state.hands)
        return f"hands {hands}; table {' '.join(map(str, cards_of(state.table)))}"

    # -- for the observer and the IS-MCTS level ------------------------------------------------

    def view(self, seat: int) -> View:
        """What ``seat`` knows, as the core's :class:`View` (the bots' and the sampler's)."""
        state = self.round
        assert state is not None
        plays = tuple(Play(*play) for play in self.plays)
        return View(
            rules=self.rules,
            seat=seat,
            hand=tuple(cards_of(state.hands[seat])),
            table=tuple(cards_of(state.table)),
            hand_sizes=tuple(hand.bit_count() for hand in state.hands),
            stock_size=state.stock_left,
            piles=tuple(tuple(cards_of(pile)) for pile in state.piles),
            sweeps=tuple(state.sweeps),
            scores=(0,) * self.rules.sides,
            to_move=None if state.over else state.to_move,
            dealer=self.dealer,
            round_number=0,
            plays=plays,
            dealer_bonus=tuple(cards_of(state.bonus)),
            winner=None,
            last_move=plays[-1] if plays else None,
        )

    def _with_guess(self, player: int, rng: random.Random) -> ScopaState:
        """This state with the cards ``player`` cannot see dealt again by the core's sampler."""
        guess = Knowledge(self.view(player)).sample(rng)
        state = self.round
        assert state is not None
        clone: ScopaState = self.clone()
        clone.round = Round.position(
            self.rules, guess.hands, state.table, state.piles, state.sweeps, guess.stock,
            state.to_move, state.last,
        )
        clone.round.bonus = state.bonus
        return clone

    def _with_deck_guess(self, player: int, rng: random.Random) -> ScopaState:
        """While dealing: ``player``'s own cards kept, the others dealt so far guessed."""
        mine = {k for k in range(len(self.deck)) if dealt_to(self.rules, k, player)}
        held = {self.deck[k] for k in mine}
        others = [card for card in range(40) if card not in held]
        rng.shuffle(others)
        clone: ScopaState = self.clone()
        clone.deck = [self.deck[k] if k in mine else others.pop() for k in range(len(self.deck))]
        return clone


def state_from_view(game: ScopaGame, view: View, rng: random.Random) -> ScopaState:
    """The state ``view`` stands for, with a guess at the cards it cannot see.

    The round's plays are the view's; chance is over (the deal is the guess), so
    the state is only ever searched, never dealt from.
    """
    if view.seat is None or not view.my_turn:
        raise ValueError("an OpenSpiel state needs the view of the seat to move")
    state = game.new_initial_state()
    guess = Knowledge(view).sample(rng)
    rules = view.rules
    state.round = Round.position(
        rules, guess.hands, guess.table, guess.piles, guess.sweeps, guess.stock, view.seat,
        guess.last,
    )
    state.round.bonus = mask_of(view.dealer_bonus)
    state.plays = [(play.seat, play.move, play.sweep) for play in view.plays]
    played = 0
    for play in view.plays:
        played |= play.move.card_bit
    state.played = played
    seen = mask_of(view.table)
    for pile in view.piles:
        seen |= mask_of(pile)
    state.first_table = seen & ~played & ALL_CARDS_MASK
    state.dealer = view.dealer
    return state


class ScopaObserver:
    """OpenSpiel's observer: ``tensor`` and ``string_from`` for a state and a player.

    With perfect recall (the information state) the tensor is the observation then,
    by card, which seat played it (40 x players, counted from the observer) and when
    (its turn in the round over 40); the string names the player's hand, the first
    table and every play in order. Without, both are the position alone.
    """

    def __init__(self, rules: Rules, perfect_recall: bool) -> None:
        self.rules = rules
        self.perfect_recall = perfect_recall
        size = observation.size(rules)
        if perfect_recall:
            size += 40 * rules.players + 40
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: ScopaState, player: int) -> None:
        tensor = self.tensor
        tensor.fill(0.0)
        if state.round is None:
            return
        rules = self.rules
        position = observation.observe(
            rules, player, state.round, state.played, [0] * rules.sides, state.dealer,
            state.current_player() if not state.is_terminal() else None,
        )
        tensor[: len(position)] = position
        if not self.perfect_recall:
            return
        base = len(position)
        players = rules.players
        order = base + 40 * players
        for turn, (seat, move, _) in enumerate(state.plays, 1):
            card = move.card.id
            tensor[base + ((seat - player) % players) * 40 + card] = 1.0
            tensor[order + card] = turn / 40.0

    def string_from(self, state: ScopaState, player: int) -> str:
        if state.round is None:
            mine = [CARDS[c] for k, c in enumerate(state.deck) if dealt_to(self.rules, k, player)]
            return f"p{player} dealing, holding {' '.join(map(str, sorted(mine)))}"
        round_ = state.round
        text = f"p{player} hand {' '.join(map(str, cards_of(round_.hands[player])))}"
        if self.perfect_recall:
            first = " ".join(map(str, cards_of(state.first_table)))
            plays = " ".join(f"{seat}:{move}{'*' if swept else ''}"
                             for seat, move, swept in state.plays)
            return f"{text}; first table {first}; plays {plays}"
        piles = " / ".join(" ".join(map(str, cards_of(pile))) for pile in round_.piles)
        return (
            f"{text}; table {' '.join(map(str, cards_of(round_.table)))}; piles {piles}; "
            f"sweeps {round_.sweeps}; stock {round_.stock_left}; to move "
            f"{state.current_player()}"
        )



def load_game(preset: str = "scopa", players: int = 2) -> ScopaGame:
    """``pyspiel.load_game("python_scopa", {...})`` for a preset and a player count."""
    game: ScopaGame = pyspiel.load_game(SHORT_NAME, {"preset": preset, "players": players})
    return game


pyspiel.register_game(_GAME_TYPE, ScopaGame)
