"""How cards, plays, rules and a round's breakdown read in text: the command line and the
terminal game show the same things the same way, so both take them from here."""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.table import Table

from .cards import RE_BELLO, SETTEBELLO, Card
from .looks import card_label, cards_label
from .rules import Rules
from .scoring import RoundScore
from .view import Play


def side_name(rules: Rules, side: int) -> str:
    """``Seat 1`` when players play alone, ``Side 0 (seats 0, 2)`` for teams."""
    seats = [seat for seat in range(rules.players) if rules.side_of(seat) == side]
    if len(seats) == 1:
        return f"Seat {seats[0]}"
    return f"Side {side} (seats {', '.join(str(s) for s in seats)})"


def rules_summary(rules: Rules) -> str:
    """``scopa: 2 players, capture ..., target 11``: a match's rules in one line."""
    sides = f", {rules.sides} sides" if rules.sides != rules.players else ""
    return (
        f"{rules.name}: {rules.players} players{sides}, capture {rules.capture}, "
        f"target {rules.target}"
    )


def hand_text(hand: Sequence[Card], look: str, per_line: int = 5) -> str:
    """A hand's labels, five to a line, so that a long hand never breaks inside a label."""
    lines = [hand[start : start + per_line] for start in range(0, len(hand), per_line)]
    return "\n".join(cards_label(line, look) for line in lines) or "-"


def breakdown(
    rules: Rules, scores: Sequence[RoundScore], totals: Sequence[int], look: str
) -> Table:
    """A round's breakdown as a table: each figure, then the points it scores, per side."""
    table = Table(box=box.SIMPLE_HEAD, caption="figures, then the points they score")
    table.add_column("", no_wrap=True)
    for side in range(len(scores)):
        table.add_column(side_name(rules, side), justify="right")

    def row(label: str, cells: Sequence[str]) -> None:
        table.add_row(label, *cells)

    def points(value: int) -> str:
        return f"[bold]+{value}[/bold]" if value else "[dim]·[/dim]"

    row("cards", [f"{s.card_count}  {points(s.cards)}" for s in scores])
    row("coins", [f"{s.coin_count}  {points(s.coins)}" for s in scores])
    row(f"settebello {card_label(SETTEBELLO, look)}", [points(s.settebello) for s in scores])
    if rules.sevens:
        row("sevens", [f"{s.seven_count}  {points(s.sevens)}" for s in scores])
    else:
        row(
            f"primiera ({rules.primiera})",
            [
                f"{s.primiera_total} in {s.primiera_suits} suits  {points(s.primiera)}"
                for s in scores
            ],
        )
        row("  best cards", [cards_label(s.primiera_cards, look, " ") for s in scores])
    row("sweeps", [points(s.sweeps) for s in scores])
    if rules.re_bello:
        row(f"re bello {card_label(RE_BELLO, look)}", [points(s.re_bello) for s in scores])
    if rules.napola:
        row("napola", [f"run of {s.napola_length}  {points(s.napola)}" for s in scores])
    table.add_section()
    row("round total", [str(s.total) for s in scores])
    row("match total", [str(t) for t in totals])
    return table


def play_text(play: Play, look: str) -> str:
    """``seat 1: 7D takes 3C + 4S  (sweep)``, in the cards' look."""
    move = play.move
    text = f"seat {play.seat}: {card_label(move.card, look)}"
    if move.is_capture:
        text += " takes " + cards_label(sorted(move.captured), look, " + ")
    return text + ("  (sweep)" if play.sweep else "")
