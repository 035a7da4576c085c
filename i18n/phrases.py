"""Small phrases every part of the bot needs in each language: counted nouns and the games' short rules.

Counts go through :func:`i18n.catalog.ngettext`, so each language picks its own plural form
(Russian: 1 ход, 2 хода, 5 ходов; French: 0 coup, 2 coups):

>>> moves("ru", 5), moves("fr", 1), moves("en", 1)
('5 ходов', '1 coup', '1 move')
"""

from __future__ import annotations

from i18n.catalog import DEFAULT, gettext, ngettext, pgettext


def moves(language: str, n: int) -> str:
    """Say ``n`` moves: ``12 moves``."""
    return ngettext(language, "{n} move", "{n} moves", n)


def points(language: str, n: int) -> str:
    """Say ``n`` points: ``1 point``."""
    return ngettext(language, "{n} point", "{n} points", n)


def games(language: str, n: int) -> str:
    """Say ``n`` games (matches played): ``3 games``."""
    return ngettext(language, "{n} game", "{n} games", n)


def rules_text(language: str, game: str, english: str) -> str:
    """Return ``game``'s short rules in ``language``: the catalog's translation of ``english``, keyed by it.

    The key is the English text itself, so an edited English text reads English until it is translated again.
    """
    context = f"rules:{game}"
    return pgettext(language, context, english)


def rules_page(docs_url: str, game: str, language: str) -> str:
    """The address of ``game``'s full rules page in ``language`` under ``docs_url`` (``docs/``, ``docs/ru/``, …)."""
    folder = "" if language == DEFAULT else f"{language}/"
    return f"{docs_url}/{folder}{game}.md"


def rules_link(docs_url: str, game: str, language: str) -> str:
    """The line ending ``/<game> rules``: where the full rules are (no preview: the reply stays short)."""
    return gettext(language, "📖 The full rules, with examples: <{link}>", link=rules_page(docs_url, game, language))
