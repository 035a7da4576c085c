"""Rebuild the catalog template from the code, and bring every language's catalog up to date.

``python -m bot catalogs`` writes ``i18n/locales/tabula.pot`` from three sources:

- the slash-command payload, through discord.py's own translation walk (so it lists exactly the strings
  :class:`bot.text.translator.CatalogTranslator` is asked for: descriptions and choice names);
- each registered game's short rules (``RULES`` in its bot module, ``bot/games/<game>.py``), with the context
  ``rules:<game>``;
- calls in the code of ``gettext(language, "…")``, ``pgettext(language, "context", "…")``,
  ``ngettext(language, "…", "…", n)`` and ``npgettext(…)``, found by Babel's extractor (in ``bot``, ``i18n``,
  ``render``, and the package of any game whose parts live elsewhere, see :attr:`engines.base.GameSpec.parts`);
- the engines' refusals: the English template of every ``GameError`` raised in ``engines/``
  (``IllegalMove("{cell} is occupied.", cell=…)``), with the context ``error``
  (translated by :func:`i18n.errors.error_text`).

``--update`` then merges the template into every supported language's ``.po`` file (creating it for a
new language): new keys arrive untranslated, changed ones are marked fuzzy, translations are kept.

The command tree is handed in (:func:`main` by ``python -m bot catalogs``, which builds the bot): the
words layer knows no command and no client.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po
from discord import app_commands

from bot.text.translator import CONTEXTS, translated_payload
from engines import GAMES
from i18n import catalog

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = catalog.LOCALES / f"{catalog.DOMAIN}.pot"
#: The keyword functions and which arguments are the message (the language comes first).
KEYWORDS: dict[str, Any] = {
    "gettext": (2,),
    "ngettext": (2, 3),
    "pgettext": ((2, "c"), 3),
    "npgettext": ((2, "c"), 3, 4),
    # English texts translated when shown: refusals (bot.core.service.Refusal) and marked constants.
    "Refusal": None,
    "ChallengeClosed": None,
    "N_": None,
}
SCANNED = ("bot", "i18n", "render")
#: The engines' error classes: the first argument is an English template, translated in the context ``error``.
ERROR_KEYWORDS: dict[str, Any] = {
    name: None
    for name in ("GameError", "InvalidMoveText", "IllegalMove", "InvalidOption", "InvalidState", "RecordError")
}
ERROR_CONTEXT = "error"
ERRORS_SCANNED = ("engines",)
HEADER = """\
# Tabula's player-facing messages: the template every language's catalog is made from.
# Rebuilt by `python -m bot catalogs`; translate a copy, never this file (see docs/translating.md).
#"""


def command_strings(tree: app_commands.CommandTree[Any]) -> list[tuple[str, str, str]]:
    """Return ``(context, text, where)`` for every string the command translator is asked for in ``tree``."""
    found: dict[tuple[str, str], str] = {}

    class Recorder(app_commands.Translator):
        async def translate(
            self,
            string: app_commands.locale_str,
            locale: Any,
            context: app_commands.TranslationContextTypes,
        ) -> str | None:
            kind = CONTEXTS.get(context.location)
            if kind is not None:
                found.setdefault((kind, string.message), _where(context))
            return None

    asyncio.run(translated_payload(tree, Recorder()))
    return [(kind, text, where) for (kind, text), where in found.items()]


def _where(context: Any) -> str:
    """Name where a string sits in the command tree: ``/pond start variant``."""
    data = context.data
    name = getattr(data, "qualified_name", None)
    if name is None and hasattr(data, "command"):  # a parameter: its command, then its name
        name = f"{data.command.qualified_name} {data.display_name}"
    return f"/{name}" if name else "a fixed choice of a command option"


def rules_strings() -> list[tuple[str, str, str]]:
    """Return ``(context, text, where)`` for every registered game's short rules (``RULES`` of its bot module)."""
    found = []
    for game, spec in GAMES.items():
        module = importlib.import_module(spec.module("bot.games"))
        text = getattr(module, "RULES", None)
        if isinstance(text, str):
            found.append((f"rules:{game}", text, f"/{game} rules"))
    return found


def parts_folders() -> list[Path]:
    """Return the folders of the games kept outside Tabula's packages (:attr:`engines.base.GameSpec.parts`)."""
    folders: list[Path] = []
    for spec in GAMES.values():
        if spec.parts is not None:
            folder = Path(importlib.import_module(spec.parts).__file__ or "").resolve().parent
            if folder not in folders:
                folders.append(folder)
    return folders


def _folder_name(folder: Path) -> str:
    """Name a scanned folder in the template's locations: relative to the checkout where it can be."""
    return folder.relative_to(ROOT).as_posix() if folder.is_relative_to(ROOT) else folder.as_posix()


def code_messages() -> Iterator[tuple[str, int, str | tuple[str, ...], str | None]]:
    """Yield ``(file, line, message, context)`` for every gettext-style call in the scanned packages."""
    for folder in [ROOT / package for package in SCANNED] + parts_folders():
        where = _folder_name(folder)
        for filename, line, message, _comments, context in extract_from_dir(
            folder, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",), strip_comment_tags=True
        ):
            yield f"{where}/{filename}", line, message, context
    # The engines' refusals, and those of a game kept elsewhere (its engine sits in its parts package).
    for folder in [ROOT / package for package in ERRORS_SCANNED] + parts_folders():
        where = _folder_name(folder)
        for filename, line, message, _comments, _context in extract_from_dir(
            folder, keywords=ERROR_KEYWORDS, comment_tags=("TRANSLATORS:",), strip_comment_tags=True
        ):
            yield f"{where}/{filename}", line, message, ERROR_CONTEXT


def build_template(tree: app_commands.CommandTree[Any]) -> Catalog:
    """Return the template catalog of every key the code uses, the commands' from ``tree``."""
    template = Catalog(
        domain=catalog.DOMAIN,
        header_comment=HEADER,
        project="Tabula",
        version="",
        copyright_holder="the Tabula authors",
        msgid_bugs_address="",
        fuzzy=False,
    )
    for context, text, where in command_strings(tree):
        template.add(text, context=context, auto_comments=[where])
    for context, text, where in rules_strings():
        template.add(text, context=context, auto_comments=[where])
    for filename, line, message, message_context in code_messages():
        template.add(message, context=message_context, locations=[(filename, line)])
    return template


def header_for(language_name: str) -> str:
    """Return the comment heading a language's catalog."""
    return (
        f"# {language_name} translations of Tabula's player-facing messages.\n"
        "# Merged from the template by `python -m bot catalogs --update`; see docs/translating.md.\n#"
    )


def write_catalog(path: Path, data: Catalog) -> None:
    """Write ``data`` to ``path`` as a ``.po``/``.pot`` file, in a stable form."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as file:
        write_po(file, data, width=100, omit_header=False, include_previous=False, ignore_obsolete=True)


def update(template: Catalog) -> list[Path]:
    """Merge ``template`` into each supported language's catalog; return the files written."""
    written = []
    for language in catalog.SUPPORTED:
        if language == catalog.DEFAULT:
            continue
        path = catalog.catalog_path(language)
        if path.is_file():
            with path.open("rb") as file:
                current = read_po(file, locale=language, domain=catalog.DOMAIN)
        else:
            current = Catalog(
                locale=language,
                domain=catalog.DOMAIN,
                header_comment=header_for(Locale.parse(language).english_name or language),
                project="Tabula",
                version="",
                fuzzy=False,
            )
        current.update(template, no_fuzzy_matching=False, update_header_comment=False, keep_user_comments=True)
        write_catalog(path, current)
        written.append(path)
    return written


def main(argv: list[str], tree: app_commands.CommandTree[Any]) -> int:
    """Rebuild the template from the code and ``tree``; with ``--update``, merge it into the catalogs too."""
    parser = argparse.ArgumentParser(prog="python -m bot catalogs", description=__doc__.splitlines()[0])
    parser.add_argument("--update", action="store_true", help="also merge the template into every .po catalog")
    args = parser.parse_args(argv)
    template = build_template(tree)
    write_catalog(TEMPLATE, template)
    print(f"{TEMPLATE.relative_to(ROOT)}: {len(template)} messages")
    if args.update:
        for path in update(template):
            print(f"updated {path.relative_to(ROOT)}")
    return 0
