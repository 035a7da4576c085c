"""The message catalogs: complete, well-formed, plural-correct, and covering every slash command and rules text."""

from __future__ import annotations

import asyncio
import re
import string
import threading
from pathlib import Path
from typing import Any

import discord
import pytest
from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po
from discord import app_commands

from bot import limits
from bot.client import TabulaBot
from bot.settings import Settings
from bot.text import catalogs
from bot.text.translator import CHOICE_CONTEXT, CatalogTranslator, translated_payload
from engines import GAMES
from i18n import catalog
from i18n.catalog import gettext, locale_for, lookup, ngettext, npgettext, pgettext
from i18n.phrases import games, moves, points, rules_text
from tests import ROOT

TRANSLATED = [language for language in catalog.SUPPORTED if language != catalog.DEFAULT]
DESCRIPTION_LIMIT = 100  # Discord: descriptions 1-100 characters, in every locale
CHOICE_LIMIT = limits.CHOICE_NAME_MAX  # in every locale
RULES_LIMIT = limits.MESSAGE_CONTENT_MAX  # one Discord message


def read(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=language, domain=catalog.DOMAIN)


def entries(data: Catalog) -> dict[tuple[str | None, str], Message]:
    return {(m.context, m.id[0] if isinstance(m.id, tuple | list) else m.id): m for m in data if m.id}


def fields(text: str) -> set[str]:
    """The names of a text's ``str.format`` fields (``{player}``, ``{n}``)."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def texts(value: Any) -> list[str]:
    return list(value) if isinstance(value, tuple | list) else [value]


TEMPLATE = read(catalogs.TEMPLATE)


# -- the files ---------------------------------------------------------------------------------------------------


def test_every_supported_language_has_a_catalog_and_every_catalog_is_supported() -> None:
    folders = {path.parent.parent.name for path in catalog.LOCALES.glob(f"*/LC_MESSAGES/{catalog.DOMAIN}.po")}
    assert folders == set(TRANSLATED)
    assert catalog.DEFAULT == "en" and catalog.DEFAULT in catalog.SUPPORTED


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_catalog_has_every_key_of_the_template_translated_with_the_same_placeholders(language: str) -> None:
    data = read(catalog.catalog_path(language), language)
    assert data.locale is not None and str(data.locale) == language
    wanted, have = entries(TEMPLATE), entries(data)
    assert set(have) == set(wanted), "run `python -m bot catalogs --update` and translate the new keys"
    for key, message in have.items():
        assert not message.fuzzy, f"{language}: fuzzy entry {key}"
        translations = texts(message.string)
        assert all(t.strip() for t in translations), f"{language}: untranslated {key}"
        english = texts(message.id)
        assert all(fields(e) == fields(english[0]) for e in english), key
        for translation in translations:
            assert fields(translation) == fields(english[0]), f"{language}: placeholders differ in {key}"
        if isinstance(message.id, tuple | list):
            assert len(translations) == data.num_plurals, f"{language}: {key} needs {data.num_plurals} forms"


@pytest.mark.parametrize("language", TRANSLATED)
def test_plural_forms_come_from_babels_cldr_table_and_agree_with_cldr(language: str) -> None:
    data = read(catalog.catalog_path(language), language)
    assert data.plural_forms == get_plural(language).plural_forms
    # The gettext formula picks the form CLDR names for every whole number, forms in CLDR's order.  CLDR gives
    # Russian a fourth category, "other", for fractions only; gettext counts whole numbers, so it is left out.
    rule = Locale.parse(language).plural_form
    order = [tag for tag in ("zero", "one", "two", "few", "many", "other") if tag in rule.tags or tag == "other"]
    if len(order) == data.num_plurals + 1:
        order.remove("other")
    assert len(order) == data.num_plurals
    forms = texts(entries(data)[(None, "{n} move")].string)
    for n in [*range(0, 2001), 1_000_000, 2_000_000]:
        said = catalog.ngettext(language, "{n} move", "{n} moves", n)
        assert said == forms[order.index(rule(n))].format(n=n), (language, n, rule(n))


def test_russian_plurals_follow_one_few_many() -> None:
    said = [moves("ru", n) for n in (1, 2, 5, 21)]
    assert said == ["1 ход", "2 хода", "5 ходов", "21 ход"]
    said = [ngettext("ru", "{n} move", "{n} moves", n) for n in (0, 1, 2, 5, 11, 21, 22, 25)]
    assert said == ["0 ходов", "1 ход", "2 хода", "5 ходов", "11 ходов", "21 ход", "22 хода", "25 ходов"]
    assert [points("ru", n) for n in (1, 3, 12, 101)] == ["1 очко", "3 очка", "12 очков", "101 очко"]
    assert [games("ru", n) for n in (1, 4, 14, 24)] == ["1 партия", "4 партии", "14 партий", "24 партии"]


def test_french_plurals_count_zero_and_one_as_singular() -> None:
    assert [moves("fr", n) for n in (0, 1, 2)] == ["0 coup", "1 coup", "2 coups"]
    assert [points("fr", n) for n in (0, 1, 2, 17)] == ["0 point", "1 point", "2 points", "17 points"]
    assert moves("fr", 1_000_000) == "1000000 de coups"
    assert [moves("en", n) for n in (0, 1, 2)] == ["0 moves", "1 move", "2 moves"]


# -- lookups and fallbacks ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "language"),
    [
        ("ru", "ru"),
        ("fr", "fr"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("pt-BR", "en"),
        ("uk", "en"),
        ("FR", "fr"),
        ("ru_RU", "ru"),
        ("", "en"),
        (None, "en"),
        (discord.Locale.russian, "ru"),
        (discord.Locale.french, "fr"),
        (discord.Locale.american_english, "en"),
        (discord.Locale.german, "en"),
    ],
)
def test_locale_for_maps_discord_locales_to_tabulas_languages(given: object, language: str) -> None:
    assert locale_for(given) == language


def test_unknown_languages_and_untranslated_keys_read_english() -> None:
    # A board word: the command strings change with the commands, the legend's words much less.
    text, context = "last move", "board"
    assert pgettext("ru", context, text) == "последний ход"
    assert pgettext("fr", context, text) == "dernier coup"
    assert pgettext("de", context, text) == text
    assert pgettext("en", context, text) == text
    assert gettext("ru", "Not a key of the catalog, {who}.", who="Ana") == "Not a key of the catalog, Ana."
    assert gettext("ru", "Braces {stay} without parameters") == "Braces {stay} without parameters"
    assert npgettext("fr", "nowhere", "{n} thing", "{n} things", 3) == "3 things"
    assert lookup("ru", text) is None  # the key lives in its context only
    assert lookup("ru", text, context) == "последний ход"
    assert lookup("en", text, context) is None


def test_a_translation_whose_placeholders_do_not_fit_falls_back_to_english(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = tmp_path / "ru.po"
    broken.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n\n'
        'msgid "{player} wins."\nmsgstr "{игрок} побеждает."\n\n'
        '#, fuzzy\nmsgid "Draw."\nmsgstr "Ничья."\n',
        encoding="utf-8",
    )
    monkeypatch.setitem(catalog._cache, "ru", catalog.compile_catalog(broken, "ru"))
    assert gettext("ru", "{player} wins.", player="Ana") == "Ana wins."
    assert gettext("ru", "Draw.") == "Draw."  # fuzzy entries are not used
    assert lookup("ru", "Draw.") is None
    with pytest.raises(KeyError):
        gettext("ru", "{nobody}", player="Ana")  # the English text itself is wrong: a bug, not a fallback


def test_catalogs_load_once_even_when_threads_race_for_them() -> None:
    catalog.forget()
    seen: list[object] = []
    barrier = threading.Barrier(8)

    def first_use() -> None:
        barrier.wait()
        seen.append(catalog.compiled("fr"))

    workers = [threading.Thread(target=first_use) for _ in range(8)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert len(seen) == 8 and all(found is seen[0] for found in seen)
    assert seen[0] is not catalog.compiled("en")


# -- slash commands -----------------------------------------------------------------------------------------------


def context_for(location: app_commands.TranslationContextLocation) -> Any:
    return app_commands.TranslationContext(location=location, data=None)


async def test_the_translator_answers_descriptions_and_choices_and_leaves_names_english() -> None:
    translator = CatalogTranslator()
    where = app_commands.TranslationContextLocation
    describe = app_commands.locale_str("Move one of your pieces one cell.")
    expected = {
        discord.Locale.russian: "Передвинуть свою фишку на одну клетку.",
        discord.Locale.french: "Déplacer une de vos pièces d'une case.",
        discord.Locale.american_english: None,
        discord.Locale.german: None,
    }
    for locale, translation in expected.items():
        assert await translator.translate(describe, locale, context_for(where.command_description)) == translation
    choice = app_commands.locale_str("Mini: 4x4, 10 eggs, first to 7")
    assert await translator.translate(choice, discord.Locale.french, context_for(where.choice_name)) == (
        "Mini : 4×4, 10 œufs, en 7 points"
    )
    name = app_commands.locale_str("start")
    for location in (where.command_name, where.group_name, where.parameter_name):
        assert await translator.translate(name, discord.Locale.russian, context_for(location)) is None
    unknown = app_commands.locale_str("c3 · piece 4")  # an autocomplete label: built per reply, not translated here
    assert await translator.translate(unknown, discord.Locale.russian, context_for(where.choice_name)) is None


def walk(options: list[dict[str, Any]], path: str) -> Any:
    for option in options:
        where = f"{path} {option['name']}"
        yield option, where
        yield from walk(option.get("options", []), where)


def test_every_description_and_choice_of_the_live_command_tree_has_russian_and_french() -> None:
    """What Discord receives: the payload discord.py builds with the translator, from today's commands."""
    tree = TabulaBot(Settings(token=None)).describe()
    payload = asyncio.run(translated_payload(tree))
    codes = {language: discord.Locale(language).value for language in TRANSLATED}
    missing: list[str] = []
    checked = 0
    for command in payload:
        assert not command.get("name_localizations"), "command names stay English"
        for item, where in [(command, f"/{command['name']}"), *walk(command.get("options", []), f"/{command['name']}")]:
            assert not item.get("name_localizations"), f"{where}: option names stay English"
            localised = item.get("description_localizations", {})
            for language, code in codes.items():
                text = localised.get(code)
                if text is None:
                    missing.append(f"{language} {where}: {item['description']!r}")
                else:
                    assert 1 <= len(text) <= DESCRIPTION_LIMIT, (where, language, text)
                    checked += 1
            for choice in item.get("choices", []):
                names = choice.get("name_localizations", {})
                for language, code in codes.items():
                    text = names.get(code)
                    if text is None:
                        missing.append(f"{language} {where} choice: {choice['name']!r}")
                    else:
                        assert 1 <= len(text) <= CHOICE_LIMIT, (where, language, text)
                        checked += 1
    assert not missing, "untranslated (run `python -m bot catalogs --update`, then translate):\n" + "\n".join(missing)
    assert checked >= 2 * 80


def longest(item: dict[str, Any], field: str) -> int:
    """Discord counts the longest of a field's default and its localisations towards a command's size."""
    return max([len(item[field]), *(len(text) for text in item.get(f"{field}_localizations", {}).values())])


def test_every_localised_command_stays_within_discords_8000_characters() -> None:
    payload = asyncio.run(translated_payload(TabulaBot(Settings(token=None)).describe()))
    for command in payload:
        total = longest(command, "name") + longest(command, "description")
        for option, _ in walk(command.get("options", []), ""):
            total += longest(option, "name") + longest(option, "description")
            total += sum(longest(choice, "name") + len(str(choice["value"])) for choice in option.get("choices", []))
        assert total <= 8000, (command["name"], total)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_games_short_rules_read_in_russian_and_french_within_one_message(game: str) -> None:
    found = {context: text for context, text, _ in catalogs.rules_strings()}
    english = found[f"rules:{game}"]
    for language in TRANSLATED:
        translated = rules_text(language, game, english)
        assert translated != english, f"{game}'s rules have no {language} translation"
        assert len(translated) <= RULES_LIMIT, (game, language, len(translated))
        # Commands, cells and examples are quoted exactly as players type them.
        assert re.findall(r"`[^`]+`", translated) == re.findall(r"`[^`]+`", english), (game, language)
    assert rules_text("de", game, english) == english


def test_every_key_the_code_uses_is_in_the_template() -> None:
    built = entries(catalogs.build_template(TabulaBot(Settings(token=None)).describe()))
    assert set(built) == set(entries(TEMPLATE)), "the template is stale: run `python -m bot catalogs --update`"
    assert (CHOICE_CONTEXT, "Square") in built and (None, "{n} move") in built


# -- the rules pages ----------------------------------------------------------------------------------------------

DOCS = ROOT / "docs"
# Pages for translators, server admins and operators are in English only; the rules and the players' page are
# translated.
ENGLISH_ONLY = {"translating.md", "admins.md", "operators.md"}
PAGES = sorted(path.name for path in DOCS.glob("*.md") if path.name not in ENGLISH_ONLY)


def code_spans(text: str) -> list[str]:
    without_blocks = re.sub(r"```.*?```", "", text, flags=re.DOTALL)
    return re.findall(r"`[^`\n]+`", without_blocks)


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("page", PAGES)
def test_every_rules_page_is_translated_with_the_same_shape_and_notation(language: str, page: str) -> None:
    english = (DOCS / page).read_text(encoding="utf-8")
    path = DOCS / language / page
    assert path.is_file(), f"docs/{language}/{page} is missing"
    translated = path.read_text(encoding="utf-8")
    if page != "README.md":
        assert translated.splitlines()[0] == english.splitlines()[0] or page in ("notation.md", "players.md")
    heading = re.compile(r"^(#+) ", re.MULTILINE)
    assert heading.findall(translated) == heading.findall(english), "the sections differ"
    # Diagrams and command lines stay exactly as they are; every option, cell and move is quoted as written.
    assert re.findall(r"```.*?```", translated, re.DOTALL) == re.findall(r"```.*?```", english, re.DOTALL)
    missing = sorted(set(code_spans(english)) - set(code_spans(translated)))
    assert not missing, f"docs/{language}/{page} leaves out {missing}"
    table_rows = re.compile(r"^\|.*\|$", re.MULTILINE)
    assert len(table_rows.findall(translated)) == len(table_rows.findall(english))
    for link in re.findall(r"\]\(([^)#]+)\)", translated):
        assert (path.parent / link).resolve().is_file(), link
