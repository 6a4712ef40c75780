"""The web client's message catalogues: every language has exactly English's keys, and every
placeholder English uses; a text for every hint reason the server sends; and a rules page in
every language with the same sections as English's."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from scopa.players.hints import REASONS

CATALOGUES = Path(__file__).parent.parent / "src" / "scopa" / "web" / "i18n"
RULES = CATALOGUES.parent / "rules"
LANGUAGES = ["en", "it", "es", "sl", "tr"]


def catalogue(language: str) -> dict[str, str]:
    data = json.loads((CATALOGUES / f"{language}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_the_five_languages_are_there() -> None:
    assert sorted(path.stem for path in CATALOGUES.glob("*.json")) == sorted(LANGUAGES)
    assert sorted(path.stem for path in RULES.glob("*.html")) == sorted(LANGUAGES)


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


class _Outline(HTMLParser):
    """What a rules page is made of: its section ids in order, its headings per level, the
    primiera table's numbers, and anything that must not be there (scripts, handlers, tags
    left open)."""

    VOID = frozenset({"br", "hr", "img", "wbr"})

    def __init__(self) -> None:
        super().__init__()
        self.sections: list[str] = []
        self.headings: dict[str, int] = {}
        self.primiera: list[str] = []
        self.problems: list[str] = []
        self.open: list[str] = []
        self.text: dict[str, str] = {}
        self.in_primiera = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        if tag == "script" or any(name.startswith("on") for name in names):
            self.problems.append(f"<{tag}> runs code")
        if tag == "section":
            self.sections.append(names.get("id") or "")
            self.text[self.sections[-1]] = ""
        if tag in ("h2", "h3", "h4"):
            self.headings[tag] = self.headings.get(tag, 0) + 1
        if tag == "table":
            self.in_primiera = "primiera" in (names.get("class") or "")
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open.pop() != tag:
            self.problems.append(f"</{tag}> closes nothing open")
        if tag == "table":
            self.in_primiera = False

    def handle_data(self, data: str) -> None:
        if self.in_primiera and self.open[-1:] == ["td"]:
            self.primiera.append(data.strip())
        if self.sections and "section" in self.open:
            self.text[self.sections[-1]] += data


def outline(language: str) -> _Outline:
    parser = _Outline()
    parser.feed((RULES / f"{language}.html").read_text(encoding="utf-8"))
    parser.close()
    return parser


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_rules_page_in_every_language_with_english_s_sections(language: str) -> None:
    page, english = outline(language), outline("en")
    assert page.problems == [] and page.open == []
    assert page.sections == english.sections == [
        "cards", "deal", "capture", "sweeps", "round-end", "scoring", "match", "teams", "tips"
    ]
    assert page.headings == english.headings and page.headings["h2"] == 1
    assert all(len(text.split()) >= 20 for text in page.text.values()), language
    # The primiera's values, in the order the rules give them: 7, 6, Ace, 5, 4, 3, 2, figures.
    assert page.primiera == ["21", "18", "16", "15", "14", "13", "12", "10"]
    for number in ("15", "11", "21", "20"):  # fifteen, and the targets and dealer bonus
        assert number in "".join(page.text.values()), (language, number)


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
