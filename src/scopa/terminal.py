"""The terminal game: one person at seat 0 against bots, cards shown in the chosen deck's look.

    scopa play --preset escoba --players 4 --opponents expert --deck italian

The person sees only their own view (hand, table, hand sizes, captured piles,
sweeps, scores), what each bot played, and each round's breakdown. A move is
chosen by its number in the list of legal moves or typed as a code (``5Dx2C+3S``,
or just ``5D`` when that card has one legal move). ``hint``, ``help`` and
``quit`` are commands. Input and output are streams, so a test can drive a
whole match through them; anything unreadable gets a message and a new prompt
and leaves the game as it was.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from typing import TextIO, cast

from rich.console import Console
from rich.markup import escape

from .cards import Card
from .errors import IllegalMoveError, InvalidMoveError
from .game import Game
from .looks import card_label, cards_label
from .moves import Move
from .players import Player, make_player
from .players.expert import ExpertPlayer
from .text import breakdown, hand_text, play_text, rules_summary
from .view import View

PERSON = 0
"""The person always sits at seat 0, who leads the first round."""

HELP = """\
Choose a move by its number, or type it as a code: the card (rank A 2 3 4 5 6 7 J Q K, then suit
D H S C), and for a capture 'x' and the cards taken joined by '+', such as 5Dx2C+3S. The card alone
(5D) is enough when it has one legal move. J, Q, K are the figures worth 8, 9, 10.
Commands: hint (a suggested move and why), help (this text), quit (leave the match)."""

Suggest = Callable[[View], tuple[Move, str]]


def _suggester() -> Suggest:
    """The hint function: ``scopa.players.hints.suggest`` when that module is there, else
    the expert's move with a generic reason."""
    try:
        hints = importlib.import_module("scopa.players.hints")
    except ImportError:
        return _expert_hint
    return cast(Suggest, hints.suggest)


def _expert_hint(view: View) -> tuple[Move, str]:
    return ExpertPlayer(seed=0).choose(view), "the expert level's choice"


class TerminalGame:
    """A new match between the person at seat 0 and bots of level ``opponents``, read from
    ``stdin`` and shown on ``console``."""

    def __init__(
        self,
        game: Game,
        opponents: str,
        look: str,
        stdin: TextIO,
        console: Console,
        name: str = "You",
    ) -> None:
        self.game = game
        self.rules = game.rules
        self.look = look
        self.stdin = stdin
        self.console = console
        self.name = name
        self.level = opponents
        # Bots are seeded from the match seed, so a seeded match plays the same every time.
        seeds = random.Random(self.game.seed)
        self.bots: dict[int, Player] = {
            seat: make_player(opponents, seed=seeds.getrandbits(32))
            for seat in range(1, game.rules.players)
        }
        self.suggest = _suggester()

    # -- names ---------------------------------------------------------------------------

    def seat_name(self, seat: int) -> str:
        """The person's name ("You" unless given) or "Bot (expert)"; with several bots each
        has its seat number and says whether it is a partner, so plays can be told apart."""
        if seat == PERSON:
            return self.name
        if self.rules.players == 2:
            return f"Bot ({self.level})"
        role = "partner" if self.rules.side_of(seat) == self.rules.side_of(PERSON) else "opponent"
        return f"Bot {seat} ({self.level}, {role})"

    def short_name(self, seat: int) -> str:
        if seat == PERSON:
            return self.name
        return "Bot" if self.rules.players == 2 else f"Bot {seat}"

    def side_label(self, side: int) -> str:
        """A side by who sits at it: "You", "Bot (expert)", or "You & Bot 2" for a team."""
        seats = [seat for seat in range(self.rules.players) if self.rules.side_of(seat) == side]
        if len(seats) == 1:
            return self.seat_name(seats[0])
        return " & ".join(self.short_name(seat) for seat in seats)

    def label(self, card: Card) -> str:
        return card_label(card, self.look)

    def move_text(self, move: Move) -> str:
        text = self.label(move.card)
        if move.is_capture:
            return f"{text} takes {cards_label(sorted(move.captured), self.look, ' + ')}"
        return f"{text} on the table"

    # -- the match -----------------------------------------------------------------------

    def run(self) -> int:
        """Play to the end of the match or until the person quits; return an exit status."""
        game = self.game
        rules = self.rules
        self.console.print(
            f"[bold]{escape(rules_summary(rules))}[/bold], seed {game.seed}. "
            f"{escape(self.name)} against {self.level} bots. "
            "Type help for help.",
            soft_wrap=True,
        )
        if rules.sides != rules.players:
            teams = "; ".join(self.side_label(side) for side in range(rules.sides))
            self.console.print(f"Teams: {teams}", soft_wrap=True)
        self.show_round_start()
        while not game.is_over:
            seat = game.to_move
            assert seat is not None
            rounds = len(game.round_scores)
            deal_stock = game.stock_size
            if seat == PERSON:
                if not self.person_turn():
                    self.console.print("You left the match.")
                    return 0
            else:
                move = self.bots[seat].choose(game.view(seat))
                game.play(move)
                self.show_play(seat)
            if len(game.round_scores) > rounds:
                self.show_round_end()
                if not game.is_over:
                    self.show_round_start()
            elif game.stock_size < deal_stock:
                self.console.print(
                    f"[dim]New deal: {rules.hand_size} cards each, {game.stock_size} left in "
                    "the stock[/dim]",
                    soft_wrap=True,
                )
        winner = game.winner
        assert winner is not None
        verdict = "you win" if winner == rules.side_of(PERSON) else "you lose"
        self.console.print(
            f"[bold]Winner: {escape(self.side_label(winner))}[/bold], "
            f"{'-'.join(str(s) for s in game.scores)}: {verdict}.",
            soft_wrap=True,
        )
        return 0

    def show_round_start(self) -> None:
        game = self.game
        view = game.view(PERSON)
        self.console.print()
        self.console.print(
            f"[bold]Round {game.round_number + 1}[/bold]: dealer "
            f"{escape(self.seat_name(game.dealer))}, first to play "
            f"{escape(self.seat_name(game.leader))}",
            soft_wrap=True,
        )
        if view.dealer_bonus:
            side = self.rules.side_of(view.dealer)
            self.console.print(
                f"Dealer bonus: {escape(self.side_label(side))} takes "
                f"{cards_label(view.dealer_bonus, self.look)} and scores {view.sweeps[side]} "
                "sweep(s)",
                soft_wrap=True,
            )
        self.console.print(
            f"Table: {hand_text(view.table, self.look, per_line=8)}", soft_wrap=True
        )

    def show_play(self, seat: int) -> None:
        play = self.game.last_move
        assert play is not None
        text = play_text(play, self.look).removeprefix(f"seat {seat}: ")
        self.console.print(f"{escape(self.seat_name(seat))}: {text}", soft_wrap=True)

    def show_round_end(self) -> None:
        game = self.game
        scores = game.round_scores[-1]
        self.console.print()
        self.console.print(f"[bold]End of round {len(game.round_scores)}[/bold]")
        table = breakdown(self.rules, scores, game.scores, self.look)
        # The columns are headed by who plays, not by seat numbers.
        for side, column in enumerate(table.columns[1:]):
            column.header = escape(self.side_label(side))
        self.console.print(table)

    def show_state(self, view: View) -> None:
        rules = self.rules
        scores = ", ".join(
            f"{self.side_label(side)} {score}" for side, score in enumerate(view.scores)
        )
        self.console.print()
        self.console.print(
            f"Scores: {escape(scores)} (target {rules.target}). Stock: {view.stock_size} cards.",
            soft_wrap=True,
        )
        piles = ", ".join(
            f"{self.side_label(side)} {len(pile)} cards, {view.sweeps[side]} sweeps"
            for side, pile in enumerate(view.piles)
        )
        self.console.print(f"Captured: {escape(piles)}", soft_wrap=True)
        others = ", ".join(
            f"{self.seat_name(seat)} {size}"
            for seat, size in enumerate(view.hand_sizes)
            if seat != PERSON
        )
        self.console.print(f"Cards in hand: {escape(others)}", soft_wrap=True)
        self.console.print(
            f"[bold]Table:[/bold] {hand_text(view.table, self.look, per_line=8)}",
            soft_wrap=True,
        )
        hand = "  ".join(f"{card_label(card, self.look)} ({card})" for card in view.hand)
        self.console.print(f"[bold]Your hand:[/bold] {hand}", soft_wrap=True)

    # -- the person's turn ---------------------------------------------------------------

    def person_turn(self) -> bool:
        """Read commands until the person plays a move; ``False`` when they quit (or EOF)."""
        view = self.game.view(PERSON)
        moves = ordered_moves(view.legal_moves())
        self.show_state(view)
        self.show_moves(moves)
        while True:
            self.console.print("Your move> ", end="")
            line = self.stdin.readline()
            if not line:
                self.console.print()
                return False
            answer = line.strip()
            command = answer.lower()
            if command in ("quit", "exit", "q"):
                return False
            if command in ("help", "?", "h"):
                self.console.print(escape(HELP), soft_wrap=True)
                self.show_moves(moves)
                continue
            if command == "hint":
                move, reason = self.suggest(view)
                number = moves.index(move) + 1
                self.console.print(
                    escape(f"Hint: {number}. {self.move_text(move)} [{move}]: {reason}"),
                    soft_wrap=True,
                )
                continue
            if not answer:
                continue
            try:
                move = self.read_move(answer, moves)
            except ValueError as error:
                self.console.print(f"[red]{escape(str(error))}[/red]", soft_wrap=True)
                continue
            try:
                self.game.play(move, seat=PERSON)
            except IllegalMoveError as error:
                self.console.print(f"[red]Illegal: {escape(str(error))}[/red]", soft_wrap=True)
                continue
            self.show_play(PERSON)
            return True

    def show_moves(self, moves: Sequence[Move]) -> None:
        lines = []
        for number, move in enumerate(moves, 1):
            code = escape(f"[{move}]")
            lines.append(f"  {number:>2}. {self.move_text(move)}  [dim]{code}[/dim]")
        self.console.print("Your moves:\n" + "\n".join(lines), soft_wrap=True)

    def read_move(self, answer: str, moves: Sequence[Move]) -> Move:
        """The move meant by a number or a code; ``ValueError`` says why an answer is not one."""
        if answer.isdigit():
            number = int(answer)
            if not 1 <= number <= len(moves):
                raise ValueError(f"no move {number}: choose 1 to {len(moves)}")
            return moves[number - 1]
        try:
            move = Move.parse(answer)
        except InvalidMoveError as error:
            raise ValueError(f"{error}; or type a move's number, or help") from None
        if move.is_trail:
            # The card alone stands for its one legal move, capture or not.
            of_card = [m for m in moves if m.card is move.card]
            if len(of_card) > 1:
                numbers = ", ".join(str(moves.index(m) + 1) for m in of_card)
                raise ValueError(
                    f"{self.label(move.card)} can be played {len(of_card)} ways: "
                    f"choose {numbers}, or type the whole code"
                )
            if of_card:
                return of_card[0]
        return move


def ordered_moves(moves: Sequence[Move]) -> list[Move]:
    """The legal moves in the order they are numbered: by card, captures before the trail,
    fewer cards taken first, so a card's capture options sit together."""
    return sorted(
        moves,
        key=lambda m: (m.card, m.is_trail, len(m.captured), sorted(m.captured)),
    )

