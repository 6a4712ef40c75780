"""The house rules as data: one frozen ``Rules`` value per variant, and the presets.

Every choice a house can make is a field here, so a preset is a value and not a
code path, and an impossible combination is refused when the value is built.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

Capture = Literal["sum", "fifteen"]
MustCapture = Literal["hand", "card", "none"]
Primiera = Literal["suits-first", "all-suits"]

CAPTURE_MODES: Final = ("sum", "fifteen")
MUST_CAPTURE_MODES: Final = ("hand", "card", "none")
PRIMIERA_MODES: Final = ("suits-first", "all-suits")
PLAYER_COUNTS: Final = (2, 3, 4, 6)
ALLOWED_SIDES: Final = {2: (2,), 3: (3,), 4: (2,), 6: (2, 3)}
"""Number of sides each player count may be split into (``teams``)."""


def _bonus_pairs(value: object) -> tuple[tuple[int, int], ...]:
    """Normalise ``dealer_bonus`` (a mapping or pairs) to sorted ``(total, sweeps)`` pairs."""
    problem = f"dealer_bonus must map table totals to sweeps, as {{15: 1, 20: 2}}; got {value!r}"
    items: Any = value.items() if isinstance(value, Mapping) else value
    if isinstance(items, str) or not isinstance(items, Iterable):
        raise ValueError(problem)
    pairs = []
    for item in items:
        if not isinstance(item, tuple | list) or len(item) != 2:
            raise ValueError(problem)
        total, sweeps = item
        if type(total) is not int or type(sweeps) is not int:
            raise ValueError(problem)
        if not 1 <= total <= 400 or sweeps < 1:
            raise ValueError(
                f"dealer_bonus must map table totals (1..400) to sweeps (1 or more); got {value!r}"
            )
        pairs.append((total, sweeps))
    if len({total for total, _ in pairs}) != len(pairs):
        raise ValueError(f"dealer_bonus names a table total twice: {value!r}")
    return tuple(sorted(pairs))


@dataclass(frozen=True)
class Rules:
    """One complete rule set. Build one with :meth:`preset`, overriding any field.

    >>> Rules.preset("escoba").target
    21
    >>> Rules.preset("scopa", players=4).sides
    2
    >>> Rules.preset("scopa", capture="poker")
    Traceback (most recent call last):
    ...
    ValueError: capture must be one of 'sum', 'fifteen'; got 'poker'
    """

    name: str = "scopa"
    """The preset this value was built from (informational)."""
    capture: Capture = "sum"
    """``sum``: take cards adding up to the card played; ``fifteen``: cards plus card make 15."""
    must_capture: MustCapture = "hand"
    """``hand``: trail only when no card in hand captures; ``card``: a card that captures must
    capture; ``none``: any card may be trailed."""
    fewest_cards: bool = False
    """Among a card's captures, only those taking the fewest cards are allowed."""
    last_play_sweep: bool = False
    """Whether emptying the table with the round's very last play scores a sweep."""
    dealer_bonus: tuple[tuple[int, int], ...] = ()
    """``(total, sweeps)``: when the first table of a round totals ``total``, the dealer's side
    takes it and scores ``sweeps``. A total that is a multiple of 15 above 15 counts only when
    the cards split into groups of 15 each (the classic "30 in two fifteens")."""
    primiera: Primiera = "suits-first"
    """``suits-first``: more suits beat fewer; ``all-suits``: a side missing a suit cannot win."""
    kings_redeal: bool = False
    """Shuffle and deal again while the first table holds three or more kings."""
    players: int = 2
    teams: int | None = None
    """Number of sides; ``None`` is automatic (2 for 4 and 6 players, else one per player)."""
    hand_size: int = 3
    table_size: int = 4
    target: int = 11
    re_bello: bool = False
    napola: bool = False
    sevens: bool = False
    """Most sevens scores the point that primiera would (escoba houses)."""
    ace_takes_all: bool = False
    """Asso piglia tutto: an Ace played onto a non-empty table takes all of it (no sweep)."""
    description: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        for name in ("name", "description"):
            if not isinstance(getattr(self, name), str):
                raise ValueError(f"{name} must be text; got {getattr(self, name)!r}")
        object.__setattr__(self, "dealer_bonus", _bonus_pairs(self.dealer_bonus))
        _check_choice("capture", self.capture, CAPTURE_MODES)
        _check_choice("must_capture", self.must_capture, MUST_CAPTURE_MODES)
        _check_choice("primiera", self.primiera, PRIMIERA_MODES)
        for name in (
            "fewest_cards",
            "last_play_sweep",
            "kings_redeal",
            "re_bello",
            "napola",
            "sevens",
            "ace_takes_all",
        ):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be True or False; got {getattr(self, name)!r}")
        _check_choice("players", self.players, PLAYER_COUNTS)
        allowed = ALLOWED_SIDES[self.players]
        if self.teams is not None and (isinstance(self.teams, bool) or self.teams not in allowed):
            shown = ", ".join(str(n) for n in allowed)
            raise ValueError(
                f"teams must be None (automatic) or {shown} for {self.players} players; "
                f"got {self.teams!r}"
            )
        for name in ("hand_size", "table_size", "target"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"{name} must be a whole number of 0 or more; got {value!r}")
        if self.hand_size < 1:
            raise ValueError(f"hand_size must be 1 or more; got {self.hand_size}")
        if self.target < 1:
            raise ValueError(f"target must be 1 or more; got {self.target}")
        dealt = self.players * self.hand_size
        if self.table_size > 40 - dealt or (40 - self.table_size) % dealt:
            raise ValueError(
                f"hand_size={self.hand_size} and table_size={self.table_size} do not deal out 40 "
                f"cards to {self.players} players: 40 - table_size must be a multiple of "
                f"players * hand_size ({dealt})"
            )
        if self.dealer_bonus and self.table_size == 0:
            raise ValueError("dealer_bonus needs a first table: table_size must be 1 or more")

    @property
    def sides(self) -> int:
        """How many sides score: players, or teams when players play in teams."""
        if self.teams is not None:
            return self.teams
        return 2 if self.players in (4, 6) else self.players

    @property
    def deals_per_round(self) -> int:
        return (40 - self.table_size) // (self.players * self.hand_size)

    def side_of(self, seat: int) -> int:
        """The side a seat scores for: ``seat % sides`` (partners sit opposite)."""
        return seat % self.sides

    def replace(self, **changes: Any) -> Rules:
        """A copy with some fields changed (validated like any new value)."""
        unknown = sorted(set(changes) - _FIELD_NAMES)
        if unknown:
            raise ValueError(
                f"unknown rule {unknown[0]!r}; the rules are: {', '.join(sorted(_FIELD_NAMES))}"
            )
        return dataclasses.replace(self, **changes)

    @classmethod
    def preset(cls, name: str = "scopa", /, **overrides: Any) -> Rules:
        """The preset ``name`` (see :func:`preset_names`), with any field overridden."""
        try:
            base = PRESETS[name]
        except KeyError:
            raise ValueError(
                f"unknown preset {name!r}; the presets are: {', '.join(PRESETS)}"
            ) from None
        return base.replace(**overrides) if overrides else base

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data; :meth:`from_dict` reads it back."""
        data = {name: getattr(self, name) for name in _FIELD_ORDER}
        data["dealer_bonus"] = [list(pair) for pair in self.dealer_bonus]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        unknown = sorted(set(data) - _FIELD_NAMES)
        if unknown:
            raise ValueError(
                f"unknown rule {unknown[0]!r}; the rules are: {', '.join(sorted(_FIELD_NAMES))}"
            )
        return cls(**data)


def _check_choice(name: str, value: object, allowed: tuple[object, ...]) -> None:
    if isinstance(value, bool) or value not in allowed:
        shown = ", ".join(repr(a) for a in allowed)
        raise ValueError(f"{name} must be one of {shown}; got {value!r}")


_FIELD_ORDER: Final = tuple(f.name for f in dataclasses.fields(Rules))
"""The rules' fields in their order, read once: every view a table sends holds its rules."""
_FIELD_NAMES: Final = frozenset(_FIELD_ORDER)

PRESETS: Final[Mapping[str, Rules]] = {
    rules.name: rules
    for rules in (
        Rules(
            name="scopa",
            description=(
                "Scopa, house rules: take cards adding up to the card played; lay a card down "
                "only when no card in your hand can take"
            ),
        ),
        Rules(
            name="escoba",
            capture="fifteen",
            target=21,
            dealer_bonus=((15, 1), (20, 2)),
            description=(
                "Escoba, house rules: take cards making 15 with the card played, lay down only "
                "when no card can take; a first table of 15 gives the dealer 1 sweep, of 20, 2"
            ),
        ),
        Rules(
            name="scopa-classic",
            must_capture="card",
            primiera="all-suits",
            kings_redeal=True,
            description=(
                "Classic scopa: any card may be laid down, but the card played takes if it "
                "can; primiera needs all four suits; three kings on the first table: deal again"
            ),
        ),
        Rules(
            name="escoba-classic",
            capture="fifteen",
            must_capture="none",
            primiera="all-suits",
            target=21,
            dealer_bonus=((15, 1), (30, 2)),
            description=(
                "Classic escoba: any card may be laid down; a first table of 15 gives the "
                "dealer 1 sweep, of 30 (two fifteens), 2; to 21"
            ),
        ),
        Rules(
            name="scopone",
            must_capture="card",
            primiera="all-suits",
            players=4,
            hand_size=9,
            table_size=4,
            description=(
                "Scopone: four players, partners opposite, nine cards each and four on the "
                "table, one deal a round"
            ),
        ),
        Rules(
            name="scopone-scientifico",
            must_capture="card",
            primiera="all-suits",
            players=4,
            hand_size=10,
            table_size=0,
            description=(
                "Scopone scientifico: four players in two teams, all ten cards each dealt, "
                "the table starts empty"
            ),
        ),
        Rules(
            name="scopa-assi",
            must_capture="card",
            primiera="all-suits",
            ace_takes_all=True,
            description=(
                "Scopa d'assi (asso piglia tutto): an ace takes the whole table, without "
                "scoring a sweep"
            ),
        ),
    )
}
"""The registry of presets by name; ``scopa`` and ``escoba`` are the seed's reading."""


def preset_names() -> list[str]:
    """Names of the presets, the seed's two first."""
    return list(PRESETS)
