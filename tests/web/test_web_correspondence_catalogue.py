"""The correspondence pages' words (i18n/games/<language>.json, a part catalogue that js/games.js,
js/gamesbadge.js and js/corrtable.js load after the page): every key those modules name through
their ``say`` is in English's, every language has English's keys and placeholders, no text is
empty, none is a key of a main catalogue, and none is counted (a part catalogue has no plural
forms: the numbers of days and hours are worded by the browser's Intl)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "src" / "scopa" / "web"
PART = WEB / "i18n" / "games"
LANGUAGES = ["en", "it", "es", "sl", "tr"]
MODULES = ["games.js", "gamesbadge.js", "corrtable.js"]
BUILT = {"kind_name", "kind_link", "kind_seek", "offer_link", "offer_seek", "offer_accepted",
         "offer_declined", "offer_cancelled", "offer_expired", "sent_name", "sent_link",
         "sent_seek", "login", "offer_login", "name", "game", "days"}
"""Keys the modules build or hand on (say(`kind_${kind}`), a note's key, a field's label)."""


def words(language: str) -> dict[str, str]:
    found = json.loads((PART / f"{language}.json").read_text(encoding="utf-8"))
    assert isinstance(found, dict)
    return found


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def named_keys() -> set[str]:
    sources = "".join((WEB / "js" / name).read_text(encoding="utf-8") for name in MODULES)
    said = set(re.findall(r"""\bsay\(\s*(?:[^"()]*\?\s*)?"(\w+)"(?:\s*:\s*"(\w+)")?""",
                          sources))
    return {key for pair in said for key in pair if key} | BUILT


def test_every_key_the_modules_name_is_in_english() -> None:
    english = words("en")
    named = named_keys()
    assert len(named) > 50
    assert sorted(f"games.{key}" for key in named if f"games.{key}" not in english) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_language_has_englishs_keys_and_placeholders(language: str) -> None:
    english, other = words("en"), words(language)
    assert sorted(other) == sorted(english)
    main = json.loads((WEB / "i18n" / f"{language}.json").read_text(encoding="utf-8"))
    assert not set(other) & set(main)
    for key, text in other.items():
        assert key.startswith("games."), key
        assert isinstance(text, str) and text.strip(), f"{language}: {key}"
        assert placeholders(text) == placeholders(english[key]), f"{language}: {key}"
        assert "count" not in placeholders(text), f"{language}: {key}"
