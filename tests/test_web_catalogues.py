"""The web client's message catalogues: every language has exactly English's keys, and every
placeholder English uses; and a text for every hint reason the server sends."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from scopa.players.hints import REASONS

CATALOGUES = Path(__file__).parent.parent / "src" / "scopa" / "web" / "i18n"
LANGUAGES = ["en", "it", "es", "sl", "tr"]


def catalogue(language: str) -> dict[str, str]:
    data = json.loads((CATALOGUES / f"{language}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_the_five_languages_are_there() -> None:
    assert sorted(path.stem for path in CATALOGUES.glob("*.json")) == sorted(LANGUAGES)


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_same_keys_as_english(language: str) -> None:
    english, other = catalogue("en"), catalogue(language)
    assert sorted(set(english) - set(other)) == [], f"{language} lacks these keys"
    assert sorted(set(other) - set(english)) == [], f"{language} has keys English lacks"


@pytest.mark.parametrize("language", LANGUAGES)
def test_same_placeholders_and_no_empty_text(language: str) -> None:
    english, other = catalogue("en"), catalogue(language)
    for key, text in other.items():
        assert text.strip(), f"{language}: {key} is empty"
        wanted = set(re.findall(r"\{(\w+)\}", english[key]))
        assert set(re.findall(r"\{(\w+)\}", text)) == wanted, f"{language}: {key}"


def test_every_key_the_client_uses_is_in_english() -> None:
    web = CATALOGUES.parent
    sources = "".join(path.read_text(encoding="utf-8") for path in web.glob("js/*.js"))
    sources += (web / "index.html").read_text(encoding="utf-8")
    used = set(re.findall(r"""\bt\("([\w.]+)"|data-i18n="([\w.]+)"|field\("([\w.]+)\"""", sources))
    keys = {key for match in used for key in match if key}
    assert sorted(keys - set(catalogue("en"))) == []


def test_every_hint_reason_has_a_text_with_the_server_s_parameters() -> None:
    english = catalogue("en")
    for key, text in REASONS.items():
        assert f"hint.reason.{key}" in english, key
        wanted = set(re.findall(r"\{(\w+)\}", text))
        assert set(re.findall(r"\{(\w+)\}", english[f"hint.reason.{key}"])) == wanted, key
    extra = {key for key in english if key.startswith("hint.reason.")} - {
        f"hint.reason.{key}" for key in REASONS
    }
    assert extra == set(), "reasons the server never sends"
