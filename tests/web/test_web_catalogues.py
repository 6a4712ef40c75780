"""The web client's message catalogues: every language has exactly English's keys, and every
placeholder English uses; plural forms, keyed by the CLDR categories each language needs, for
every message the client fills with a count; a text for every hint reason the server sends; and
a rules page in every language with the same sections as English's."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from scopa.players.hints import REASONS

CATALOGUES = Path(__file__).resolve().parents[2] / "src" / "scopa" / "web" / "i18n"
RULES = CATALOGUES.parent / "rules"
LANGUAGES = ["en", "it", "es", "sl", "tr"]

Message = str | dict[str, str]
"""A text, or its plural forms by CLDR category ("one", "two", "few", "many", "other")."""

PLURAL_CATEGORIES: dict[str, list[frozenset[str]]] = {
    # English, Italian and Spanish: one and other; recent CLDR adds "many" to Italian and
    # Spanish for millions (un millón de cartas), allowed but not needed here.
    "en": [frozenset({"one", "other"})],
    "it": [frozenset({"one", "other"}), frozenset({"one", "many", "other"})],
    "es": [frozenset({"one", "other"}), frozenset({"one", "many", "other"})],
    # Slovenian: 1 napaka, 2 napaki, 3 napake, 5 napak (and 101 like 1, 102 like 2).
    "sl": [frozenset({"one", "two", "few", "other"})],
    # Turkish: a noun after a numeral stays singular (1 hata, 5 hata), so one form serves.
    "tr": [frozenset({"other"}), frozenset({"one", "other"})],
}

SAME_FOR_EVERY_COUNT: dict[str, set[str]] = {
    # Counted messages whose words do not change with the number in that language.
    "en": {
        "replay.stock", "lobby.waiting_for", "profile.wins", "profile.losses", "profile.abandoned",
        "table.points_scored",
    },
    # "3 punti su 11": Italian's noun goes with the score, the others' with the target.
    "it": {"replay.stock", "table.points_target"},
    "es": {"replay.stock", "table.points_scored"},
    "sl": {"replay.stock", "table.points_scored"},
}

COUNTED_BY_TEMPLATE = {
    # Keys the client builds with a template literal, t(`review.count.${mark}`, { count }).
    *(f"review.count.{mark}" for mark in ("inaccuracy", "mistake", "blunder")),
    *(f"profile.{part}" for part in ("matches", "wins", "losses", "abandoned")),
}


def catalogue(language: str) -> dict[str, Message]:
    data = json.loads((CATALOGUES / f"{language}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def forms(message: Message) -> list[str]:
    """The texts of a message: itself, or each of its plural forms."""
    return list(message.values()) if isinstance(message, dict) else [message]


def placeholders(message: Message) -> set[str]:
    return {name for text in forms(message) for name in re.findall(r"\{(\w+)\}", text)}


def client_sources() -> str:
    web = CATALOGUES.parent
    sources = "".join(path.read_text(encoding="utf-8") for path in web.glob("js/*.js"))
    return sources + (web / "index.html").read_text(encoding="utf-8")


def counted_keys() -> set[str]:
    """Every message the client fills with a ``count``: t("key", { ..., count ... }) in its
    sources, the keys it builds from a template, and the hint reasons that carry a count."""
    said = re.findall(r"""\bt\("([\w.]+)",\s*\{[^{}]*\bcount\b""", client_sources())
    reasons = {f"hint.reason.{key}" for key, text in REASONS.items() if "{count}" in text}
    return set(said) | COUNTED_BY_TEMPLATE | reasons


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
    """Every plural form too keeps all of English's placeholders: "{count} napak", never a
    "one" form that drops the number."""
    english, other = catalogue("en"), catalogue(language)
    for key, message in other.items():
        wanted = placeholders(english[key])
        for text in forms(message):
            assert text.strip(), f"{language}: {key} is empty"
            assert set(re.findall(r"\{(\w+)\}", text)) == wanted, f"{language}: {key}: {text}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_plural_forms_have_the_categories_the_language_needs(language: str) -> None:
    allowed = PLURAL_CATEGORIES[language]
    plurals = {key: m for key, m in catalogue(language).items() if isinstance(m, dict)}
    assert plurals or language == "tr", f"{language} has no plural forms"
    for key, message in plurals.items():
        assert frozenset(message) in allowed, f"{language}: {key} has {sorted(message)}"
        assert all("{count}" in text for text in message.values()), f"{language}: {key}"


def test_the_client_s_counted_messages_are_found() -> None:
    """The search for counted messages in the client's sources still finds them all (a
    change in how the sources call t() must not empty the next test)."""
    assert counted_keys() >= {
        "table.sweeps", "table.in_hand", "table.stock", "table.pile_of", "table.deck",
        "leaderboard.empty", "leaderboard.provisional_note",
        "replay.sweeps", "lobby.waiting_for", "hint.reason.coins", "hint.reason.cards_high",
        "table.points_scored", "table.points_target",
    }  # fmt: skip


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_counted_message_has_plural_forms_where_its_words_change(language: str) -> None:
    """English, Italian, Spanish and Slovenian change their words with the number (1 sweep,
    2 sweeps; 1 metla, 2 metli, 3 metle, 5 metel) in every counted message but the ones named;
    Turkish never does, so any of its messages may stay a single text."""
    messages = catalogue(language)
    counted = counted_keys()
    assert counted <= set(messages)
    for key in counted:
        assert "count" in placeholders(messages[key]), f"{language}: {key} shows no {{count}}"
    if language == "tr":
        return
    same = SAME_FOR_EVERY_COUNT[language]
    assert same <= counted
    single = sorted(key for key in counted - same if not isinstance(messages[key], dict))
    assert single == [], f"{language}: one text for every number"


def test_every_key_the_client_uses_is_in_english() -> None:
    used = set(re.findall(r"""\bt\("([\w.]+)"|data-i18n="([\w.]+)"|field\("([\w.]+)\"""",
                          client_sources()))  # fmt: skip
    keys = {key for match in used for key in match if key} | COUNTED_BY_TEMPLATE
    parts = {key for part in PARTS for key in part_catalogue(part, "en")}
    assert sorted(keys - set(catalogue("en")) - parts) == []


PARTS = ["games", "offline", "push"]
"""The catalogues of parts loaded on demand (i18n/<part>/<language>.json, added to the
language's by i18n.js's addWords): a first load does not carry their words."""


def part_catalogue(part: str, language: str) -> dict[str, Message]:
    data = json.loads((CATALOGUES / part / f"{language}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize("part", PARTS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_parts_catalogue_has_englishs_keys_and_placeholders(part: str, language: str) -> None:
    """Offline play's words too: the same keys in the five languages, every placeholder kept,
    no text empty, none of them a key of the main catalogue (one would hide the other), and
    none counted (plural forms live in the main catalogues, which their test reads)."""
    english, other = part_catalogue(part, "en"), part_catalogue(part, language)
    assert sorted(other) == sorted(english)
    assert not set(other) & set(catalogue(language))
    for key, message in other.items():
        assert isinstance(message, str) and message.strip(), f"{language}: {key}"
        assert placeholders(message) == placeholders(english[key]), f"{language}: {key}"
        assert "count" not in placeholders(message), f"{language}: {key}"


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
        assert placeholders(english[f"hint.reason.{key}"]) == wanted, key
    extra = {key for key in english if key.startswith("hint.reason.")} - {
        f"hint.reason.{key}" for key in REASONS
    }
    assert extra == set(), "reasons the server never sends"
