"""Bots: the interface, legal play in every variant, no reach into hidden cards, and the
greedy and expert levels' choices on hand-made positions."""

from __future__ import annotations

import random

import pytest

from scopa import Card, Game, IllegalMoveError, Move, Rules, View
from scopa.cards import VALUE_MASKS, mask_of
from scopa.players import LEVELS, GreedyPlayer, Player, make_player, unseen_mask
from scopa.players.expert import ExpertPlayer
from scopa.players.inference import ruled_out

from ..conftest import cards, deal, rules_variants, variant_id

OWN_LEVELS = ("random", "greedy", "expert")
"""The levels these tests cover; ``master`` has its own tests (it searches for a while)."""

VARIANTS = rules_variants()


# -- the interface ---------------------------------------------------------------------


def test_levels_are_listed_weakest_first() -> None:
    assert LEVELS[:3] == OWN_LEVELS


@pytest.mark.parametrize("level", OWN_LEVELS)
def test_each_level_is_a_player_named_after_its_level(level: str) -> None:
    bot = make_player(level, seed=1)
    assert isinstance(bot, Player)
    assert bot.name == level
    game = Game.new(Rules.preset("scopa"), seed=2)
    assert bot.choose(game.view(0)) in game.legal_moves()


def test_an_unknown_level_is_refused_with_the_levels() -> None:
    with pytest.raises(ValueError, match="unknown level 'grandmaster'; the levels are: random"):
        make_player("grandmaster")


@pytest.mark.parametrize("level", OWN_LEVELS)
def test_a_bot_refuses_a_view_whose_seat_is_not_to_move(level: str) -> None:
    game = Game.new(Rules.preset("scopa"), seed=2)
    with pytest.raises(ValueError, match="not this seat's turn"):
        make_player(level).choose(game.view(1))


# -- legal play everywhere -------------------------------------------------------------


@pytest.mark.parametrize("rules", VARIANTS, ids=variant_id)
def test_every_level_plays_legal_moves_to_the_end(rules: Rules) -> None:
    # Seats take the levels in turn, so each level meets the others; Game.play refuses
    # any illegal move, and the match must end.
    for match in range(2):
        bots = [
            make_player(OWN_LEVELS[(seat + match) % len(OWN_LEVELS)], seed=seat)
            for seat in range(rules.players)
        ]
        game = Game.new(rules, seed=100 + match)
        for _ in range(5000):
            if game.is_over:
                break
            seat = game.to_move
            assert seat is not None
            move = bots[seat].choose(game.view(seat))
            assert move in game.legal_moves()
            game.play(move)
        assert game.is_over


@pytest.mark.parametrize("level", OWN_LEVELS)
def test_the_same_seed_gives_the_same_match(level: str) -> None:
    def moves() -> list[Move]:
        rules = Rules.preset("escoba", players=3)
        bots = [make_player(level, seed=seat) for seat in range(3)]
        game = Game.new(rules, seed=9)
        while not game.is_over:
            seat = game.to_move
            assert seat is not None
            game.play(bots[seat].choose(game.view(seat)))
        return game.moves

    assert moves() == moves()


# -- hidden cards ----------------------------------------------------------------------


def _twin_with_other_hidden_cards(game: Game, seat: int, rng: random.Random) -> Game | None:
    """The same match so far, dealt from a deck where the cards ``seat`` has not seen
    (other hands, the stock) sit in other places: only hidden facts differ.

    Under ``must_capture="hand"`` a past trail was legal only for hands that could not
    capture, so some placements contradict the public record; those are drawn again
    (``None`` if no consistent placement turns up).
    """
    hidden = unseen_mask(game.view(seat))
    deck = [Card.parse(code).id for code in game.record()["decks"][0]]
    places = [i for i, card_id in enumerate(deck) if hidden >> card_id & 1]
    for _ in range(50):
        shuffled = [deck[i] for i in places]
        rng.shuffle(shuffled)
        for place, card_id in zip(places, shuffled, strict=True):
            deck[place] = card_id
        twin = Game.new(game.rules, seed=game.seed, deck=deck)
        try:
            for move in game.moves:
                twin.play(move)
        except IllegalMoveError:
            continue
        return twin
    return None


@pytest.mark.parametrize("level", OWN_LEVELS)
@pytest.mark.parametrize("preset", ["scopa", "escoba", "scopa-classic", "scopone"])
def test_a_bot_cannot_reach_hidden_cards(level: str, preset: str) -> None:
    rules = Rules.preset(preset)
    rng = random.Random(4)
    twins = differing = 0
    for trial in range(12):
        game = Game.new(rules, seed=trial)
        # Walk a little into the first round, stopping at seat 0's turn.
        for _ in range(rng.randrange(0, 6) * rules.players):
            game.play(rng.choice(game.legal_moves()))
        assert game.to_move == 0 and game.round_number == 0
        twin = _twin_with_other_hidden_cards(game, 0, rng)
        if twin is None:
            continue
        twins += 1
        differing += twin.hands[1:] != game.hands[1:]
        view, twin_view = game.view(0), twin.view(0)
        assert view == twin_view
        first = make_player(level, seed=trial).choose(view)
        assert first == make_player(level, seed=trial).choose(twin_view)
    assert twins >= 6 and differing >= 6


@pytest.mark.parametrize("rules", VARIANTS[:10], ids=variant_id)
def test_a_view_names_no_hidden_card(rules: Rules) -> None:
    rng = random.Random(6)
    game = Game.new(rules, seed=6)
    for _ in range(rng.randrange(1, 2 * rules.players)):
        game.play(rng.choice(game.legal_moves()))
    seat = game.to_move
    assert seat is not None and game.round_number == 0
    view = game.view(seat)
    stock = game.record()["decks"][0][40 - game.stock_size :]
    others = [str(c) for other in range(rules.players) if other != seat for c in game.hand(other)]
    hidden = set(stock) | set(others)
    # What a bot calls unseen is exactly the other hands and the stock...
    assert unseen_mask(view) == mask_of(Card.parse(code) for code in hidden)
    # ... and the view names none of them anywhere.
    text = repr(view.to_dict())
    for code in hidden:
        for pattern in (f"'{code}'", f"'{code}x", f"x{code}", f"+{code}"):
            assert pattern not in text


# -- hand-made positions ---------------------------------------------------------------


def position(
    preset: str,
    hand: str,
    table: str,
    seen: str = "",
    other_hand: int = 3,
    stock_size: int | None = None,
) -> View:
    """Seat 0's view of a two-player round: its hand, the table, and ``seen`` cards in side
    1's pile; the other cards are hidden (the opponent holds ``other_hand`` of them)."""
    rules = Rules.preset(preset)
    mine, on_table, pile = cards(hand), cards(table), cards(seen)
    hidden = 40 - len(mine) - len(on_table) - len(pile)
    return View(
        rules=rules,
        seat=0,
        hand=tuple(mine),
        table=tuple(on_table),
        hand_sizes=(len(mine), other_hand),
        stock_size=hidden - other_hand if stock_size is None else stock_size,
        piles=((), tuple(pile)),
        sweeps=(0, 0),
        scores=(0, 0),
        to_move=0,
        dealer=1,
        round_number=0,
    )


def test_greedy_takes_the_settebello() -> None:
    view = position("scopa", "7C 4S KH", "7D 4C 3H KS")
    assert str(GreedyPlayer(seed=1).choose(view)) == "7Cx7D"


def test_greedy_takes_a_sweep() -> None:
    view = position("scopa", "5S 7C 2D", "2C 3H")
    assert str(GreedyPlayer(seed=1).choose(view)) == "5Sx2C+3H"
    # Escoba: KS takes 2C + 3H, but 3S takes everything (3 + 2 + 3 + 7 = 15), 7D included.
    view = position("escoba", "KS 3S", "2C 3H 7D")
    assert str(GreedyPlayer(seed=1).choose(view)) == "3Sx2C+3H+7D"


def test_greedy_trails_the_card_that_leaves_no_sweep() -> None:
    # Scopa, an ace on the table: only the king leaves more than 10.
    view = position("scopa", "2C 5H KS", "AH")
    assert str(GreedyPlayer(seed=1).choose(view)) == "KS"


def test_expert_keeps_the_scopa_table_above_ten() -> None:
    view = position("scopa", "2C 5H KS", "AH")
    assert str(ExpertPlayer(seed=1).choose(view)) == "KS"
    view = position("scopa", "KH JD 2C", "3C 4S")  # 2C would leave 9: a 9 sweeps it
    assert ExpertPlayer(seed=1).choose(view).card.value != 2


def test_expert_trails_a_value_nobody_can_hold() -> None:
    # Every trail leaves a sum some value sweeps; all four sixes are gone, so the five (which
    # leaves 6) is safe. Greedy, which does not count cards, trails the cheap two instead.
    view = position("scopa", "5H 2C 3S", "AH", seen="6D 6H 6S 6C")
    assert str(ExpertPlayer(seed=1).choose(view)) == "5H"
    assert str(GreedyPlayer(seed=1).choose(view)) == "2C"


def test_expert_leaves_no_escoba_table_that_an_unseen_card_makes_fifteen() -> None:
    # Table K (10): the 3 leaves 13 (a 2 sweeps it), the 4 leaves 14 (an ace sweeps it),
    # the 6 leaves 16, which no card makes 15.
    view = position("escoba", "3S 4C 6H", "KC")
    assert str(ExpertPlayer(seed=1).choose(view)) == "6H"
    # With every ace seen, leaving 14 is safe and costs less than giving up the six.
    view = position("escoba", "3S 4C 6H", "KC", seen="AD AH AS AC")
    assert str(ExpertPlayer(seed=1).choose(view)) == "4C"


def test_a_trail_rules_out_every_value_that_would_have_captured() -> None:
    # Seed scopa: the table is K Q J 7 and seat 0 trails an ace; seat 1 must then trail too,
    # so it holds no A, 7, 8 (J or 7 + A), 9 (Q or J + A) or 10 (K or Q + A).
    rules = Rules.preset("scopa")
    game = Game.new(rules, seed=1, deck=deal(rules, ["AD 2D 3D", "4S 5S 6S"], "KC QC JC 7C"))
    game.play("AD")
    assert ruled_out(game.view(0))[1] == 0  # seat 1 has not trailed yet
    game.play("4S")
    out = ruled_out(game.view(0))[1]
    assert out == sum(VALUE_MASKS[v] for v in (1, 7, 8, 9, 10))
    assert not out & mask_of(game.hand(1))
    # Where trails are free, a trail tells nothing.
    free = Rules.preset("escoba-classic")
    game = Game.new(free, seed=1, deck=deal(free, ["AD 2D 3D", "4S 5S 6S"], "KC QC JC 7C"))
    game.play("AD")
    game.play("4S")
    assert ruled_out(game.view(0)) == [0, 0]
