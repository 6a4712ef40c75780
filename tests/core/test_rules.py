"""Rules as data: the presets of RULES.md, overrides, validation, sides and round trips."""

from __future__ import annotations

from typing import Any

import pytest

from scopa import PRESETS, Rules, preset_names

# Every field the RULES.md preset table and its notes pin down, preset by preset.
COMMON: dict[str, Any] = {
    "fewest_cards": False,
    "last_play_sweep": False,
    "re_bello": False,
    "napola": False,
    "sevens": False,
    "teams": None,
}
EXPECTED: dict[str, dict[str, Any]] = {
    "scopa": {
        "capture": "sum",
        "must_capture": "hand",
        "target": 11,
        "primiera": "suits-first",
        "dealer_bonus": (),
        "kings_redeal": False,
        "ace_takes_all": False,
        "players": 2,
        "hand_size": 3,
        "table_size": 4,
    },
    "escoba": {
        "capture": "fifteen",
        "must_capture": "hand",
        "target": 21,
        "primiera": "suits-first",
        "dealer_bonus": ((15, 1), (20, 2)),
        "kings_redeal": False,
        "ace_takes_all": False,
        "players": 2,
        "hand_size": 3,
        "table_size": 4,
    },
    "scopa-classic": {
        "capture": "sum",
        "must_capture": "card",
        "target": 11,
        "primiera": "all-suits",
        "dealer_bonus": (),
        "kings_redeal": True,
        "ace_takes_all": False,
        "players": 2,
        "hand_size": 3,
        "table_size": 4,
    },
    "escoba-classic": {
        "capture": "fifteen",
        "must_capture": "none",
        "target": 21,
        "primiera": "all-suits",
        "dealer_bonus": ((15, 1), (30, 2)),
        "kings_redeal": False,
        "ace_takes_all": False,
        "players": 2,
        "hand_size": 3,
        "table_size": 4,
    },
    "scopone": {
        "capture": "sum",
        "must_capture": "card",
        "primiera": "all-suits",
        "dealer_bonus": (),
        "kings_redeal": False,
        "ace_takes_all": False,
        "players": 4,
        "hand_size": 9,
        "table_size": 4,
    },
    "scopone-scientifico": {
        "capture": "sum",
        "must_capture": "card",
        "primiera": "all-suits",
        "dealer_bonus": (),
        "kings_redeal": False,
        "ace_takes_all": False,
        "players": 4,
        "hand_size": 10,
        "table_size": 0,
    },
    "scopa-assi": {
        "capture": "sum",
        "must_capture": "card",
        "target": 11,
        "primiera": "all-suits",
        "dealer_bonus": (),
        "kings_redeal": False,
        "ace_takes_all": True,
        "players": 2,
        "hand_size": 3,
        "table_size": 4,
    },
}


def test_preset_names_seed_presets_first() -> None:
    names = preset_names()
    assert names[:2] == ["scopa", "escoba"]
    assert set(names) == set(EXPECTED)
    assert len(names) == len(EXPECTED)
    assert list(PRESETS) == names


@pytest.mark.parametrize("name", list(EXPECTED))
def test_preset_fields(name: str) -> None:
    rules = Rules.preset(name)
    assert rules.name == name
    for field, expected in {**COMMON, **EXPECTED[name]}.items():
        assert getattr(rules, field) == expected, field


@pytest.mark.parametrize(
    ("name", "deals", "sides"),
    [
        ("scopa", 6, 2),
        ("escoba", 6, 2),
        ("scopa-classic", 6, 2),
        ("escoba-classic", 6, 2),
        ("scopone", 1, 2),
        ("scopone-scientifico", 1, 2),
        ("scopa-assi", 6, 2),
    ],
)
def test_preset_deals_and_sides(name: str, deals: int, sides: int) -> None:
    rules = Rules.preset(name)
    assert rules.deals_per_round == deals
    assert rules.sides == sides


def test_default_preset_is_scopa() -> None:
    assert Rules.preset() == Rules.preset("scopa")
    assert Rules() == Rules.preset("scopa")


def test_unknown_preset() -> None:
    with pytest.raises(ValueError, match="unknown preset 'poker'") as info:
        Rules.preset("poker")
    for name in EXPECTED:
        assert name in str(info.value)


def test_overrides() -> None:
    rules = Rules.preset("scopa", players=4, target=21, napola=True, re_bello=True)
    assert (rules.players, rules.target, rules.napola, rules.re_bello) == (4, 21, True, True)
    assert rules.capture == "sum" and rules.must_capture == "hand"
    assert rules.name == "scopa"
    assert Rules.preset("scopa").players == 2  # the preset itself is untouched
    escoba = Rules.preset("escoba", dealer_bonus={15: 1})
    assert escoba.dealer_bonus == ((15, 1),)
    pairs = Rules.preset("escoba", dealer_bonus=[(20, 2), (15, 1)]).dealer_bonus
    assert pairs == ((15, 1), (20, 2))
    assert Rules.preset("scopa", last_play_sweep=True).last_play_sweep is True
    assert Rules.preset("scopa", fewest_cards=True).fewest_cards is True


def test_rules_are_frozen() -> None:
    rules = Rules.preset("scopa")
    with pytest.raises(AttributeError):
        rules.target = 5  # type: ignore[misc]


def test_replace_validates() -> None:
    rules = Rules.preset("scopa").replace(must_capture="card")
    assert rules.must_capture == "card"
    with pytest.raises(ValueError, match="must_capture"):
        Rules.preset("scopa").replace(must_capture="sometimes")


@pytest.mark.parametrize(
    ("overrides", "field", "allowed"),
    [
        ({"capture": "poker"}, "capture", ["'sum'", "'fifteen'"]),
        ({"must_capture": "always"}, "must_capture", ["'hand'", "'card'", "'none'"]),
        ({"primiera": "best"}, "primiera", ["'suits-first'", "'all-suits'"]),
        ({"players": 5}, "players", ["2", "3", "4", "6"]),
        ({"players": 1}, "players", ["2", "3", "4", "6"]),
        ({"players": True}, "players", ["2", "3", "4", "6"]),
        ({"teams": 3}, "teams", ["2"]),
        ({"players": 4, "teams": 3}, "teams", ["2"]),
        ({"players": 4, "teams": 4}, "teams", ["2"]),
        ({"players": 3, "teams": 2}, "teams", ["3"]),
        ({"players": 6, "teams": 6}, "teams", ["2", "3"]),
        ({"players": 6, "teams": 1}, "teams", ["2", "3"]),
        ({"hand_size": 4}, "hand_size", ["players * hand_size"]),
        ({"table_size": 5}, "table_size", ["40 cards"]),
        ({"players": 3, "table_size": 3}, "table_size", ["40 cards"]),
        ({"players": 6, "hand_size": 4}, "hand_size", ["40 cards"]),
        ({"hand_size": 0}, "hand_size", ["1 or more"]),
        ({"target": 0}, "target", ["1 or more"]),
        ({"fewest_cards": "yes"}, "fewest_cards", ["True or False"]),
        ({"napola": 1}, "napola", ["True or False"]),
        ({"dealer_bonus": {15: 0}}, "dealer_bonus", ["sweeps"]),
        ({"dealer_bonus": "15"}, "dealer_bonus", ["{15: 1, 20: 2}"]),
    ],
)
def test_impossible_rules_name_the_field_and_the_allowed_values(
    overrides: dict[str, Any], field: str, allowed: list[str]
) -> None:
    with pytest.raises(ValueError) as info:
        Rules.preset("scopa", **overrides)
    message = str(info.value)
    assert field in message
    for word in allowed:
        assert word in message
    # The same value built directly is refused the same way.
    with pytest.raises(ValueError):
        Rules(**overrides)


def test_scientifico_cannot_deal_to_three_or_six() -> None:
    for players in (3, 6):
        with pytest.raises(ValueError, match="deal out 40"):
            Rules.preset("scopone-scientifico", players=players)


def test_dealer_bonus_needs_a_table() -> None:
    with pytest.raises(ValueError, match="table_size"):
        Rules.preset("escoba", players=4, hand_size=10, table_size=0)


def test_unknown_field_in_overrides() -> None:
    with pytest.raises(ValueError, match="unknown rule 'colour'") as info:
        Rules.preset("scopa", colour="red")
    assert "must_capture" in str(info.value)  # it lists the real fields


@pytest.mark.parametrize(
    ("players", "teams", "sides", "side_of"),
    [
        (2, None, 2, [0, 1]),
        (3, None, 3, [0, 1, 2]),
        (4, None, 2, [0, 1, 0, 1]),
        (4, 2, 2, [0, 1, 0, 1]),
        (6, None, 2, [0, 1, 0, 1, 0, 1]),
        (6, 2, 2, [0, 1, 0, 1, 0, 1]),
        (6, 3, 3, [0, 1, 2, 0, 1, 2]),
    ],
)
def test_sides(players: int, teams: int | None, sides: int, side_of: list[int]) -> None:
    rules = Rules.preset("scopa", players=players, teams=teams)
    assert rules.sides == sides
    assert [rules.side_of(seat) for seat in range(players)] == side_of


@pytest.mark.parametrize(("players", "deals"), [(2, 6), (3, 4), (4, 3), (6, 2)])
def test_deals_per_round(players: int, deals: int) -> None:
    assert Rules.preset("scopa", players=players).deals_per_round == deals
    assert Rules.preset("escoba", players=players).deals_per_round == deals


@pytest.mark.parametrize("name", list(EXPECTED))
def test_to_dict_from_dict_round_trip(name: str) -> None:
    rules = Rules.preset(name)
    data = rules.to_dict()
    assert data["name"] == name
    assert isinstance(data["dealer_bonus"], list)
    assert Rules.from_dict(data) == rules
    assert Rules.from_dict(data).to_dict() == data


def test_to_dict_is_json_able_and_round_trips_overrides() -> None:
    import json

    rules = Rules.preset("escoba", players=6, teams=3, sevens=True, napola=True, target=31)
    data = json.loads(json.dumps(rules.to_dict()))
    assert Rules.from_dict(data) == rules


def test_from_dict_refuses_unknown_fields() -> None:
    data = Rules.preset("scopa").to_dict()
    data["colour"] = "red"
    with pytest.raises(ValueError, match="unknown rule 'colour'"):
        Rules.from_dict(data)


def test_from_dict_validates() -> None:
    data = Rules.preset("scopa").to_dict()
    data["players"] = 5
    with pytest.raises(ValueError, match="players"):
        Rules.from_dict(data)
