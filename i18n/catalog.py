"""Message catalogs: English text in the code, Russian and French in gettext ``.po`` files.

Every player-facing string is written in English where it is used, and that English text is the key
(gettext's ``msgid``).  The translations live in ``i18n/locales/<lang>/LC_MESSAGES/tabula.po``, plain text
files that translators edit with any PO editor; ``i18n/locales/tabula.pot`` is the template listing every
key (``python -m bot catalogs`` rebuilds it).  A catalog is read with Babel and compiled in memory the first
time its language is used, so a fresh checkout needs no compile step.

Plural forms follow each language's rules through the catalog's ``Plural-Forms`` header, which comes from
Babel's CLDR-derived table (Russian has three forms, French two for ordinary numbers):

>>> ngettext("ru", "{n} move", "{n} moves", 21), ngettext("ru", "{n} move", "{n} moves", 22)
('21 ход', '22 хода')
>>> ngettext("fr", "{n} move", "{n} moves", 0), ngettext("en", "{n} move", "{n} moves", 0)
('0 coup', '0 moves')

Placeholders are ``str.format`` fields with names (``{player}``); the values are given as keywords and
the text is formatted only when some are given, so texts without parameters may hold braces.  A language
Tabula does not speak reads English, and so does a key that is not translated yet.
"""

from __future__ import annotations

import gettext as _gettext
import io
import logging
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

log = logging.getLogger(__name__)

DOMAIN: Final = "tabula"
DEFAULT: Final = "en"
#: The languages Tabula speaks: the one place to add a language (its catalog goes in ``LOCALES``).
SUPPORTED: Final = ("en", "ru", "fr")
LOCALES: Final = Path(__file__).resolve().parent / "locales"


def locale_for(value: object) -> str:
    """Return the Tabula language for a Discord locale: ``"ru"``, ``"fr"`` … or ``"en"`` for any other.

    Takes Discord's codes (``"ru"``, ``"fr"``, ``"en-US"``, ``"pt-BR"``), a :class:`discord.Locale`, a
    language Tabula already uses, or ``None`` (a missing locale reads English).

    >>> locale_for("ru"), locale_for("fr"), locale_for("en-US"), locale_for("de"), locale_for(None)
    ('ru', 'fr', 'en', 'en', 'en')
    """
    if value is None:
        return DEFAULT
    text = str(getattr(value, "value", value)).strip().lower().replace("_", "-")
    language = text.split("-", 1)[0]
    return language if language in SUPPORTED else DEFAULT


def catalog_path(language: str) -> Path:
    """Return where ``language``'s catalog lives (it need not exist)."""
    return LOCALES / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@dataclass(frozen=True)
class Compiled:
    """One language's catalog, compiled: gettext's translations and the keys that have a translation."""

    translations: _gettext.NullTranslations
    known: frozenset[tuple[str | None, str]]


_ENGLISH = Compiled(_gettext.NullTranslations(), frozenset())
_cache: dict[str, Compiled] = {}
_lock = threading.Lock()


def compile_catalog(path: Path, language: str) -> Compiled:
    """Read the ``.po`` file at ``path`` and compile it in memory (fuzzy and empty entries are left out)."""
    with path.open("rb") as file:
        catalog = read_po(file, locale=language, domain=DOMAIN)
    known: set[tuple[str | None, str]] = set()
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
        if all(strings):
            key = message.id[0] if isinstance(message.id, tuple | list) else message.id
            known.add((message.context, key))
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return Compiled(_gettext.GNUTranslations(buffer), frozenset(known))


def compiled(language: str) -> Compiled:
    """Return ``language``'s compiled catalog, reading it on first use (English and unknown: no catalog)."""
    language = locale_for(language)
    found = _cache.get(language)
    if found is not None:
        return found
    with _lock:
        found = _cache.get(language)
        if found is None:
            path = catalog_path(language)
            found = _ENGLISH if language == DEFAULT or not path.is_file() else compile_catalog(path, language)
            _cache[language] = found
        return found


def forget() -> None:
    """Drop the compiled catalogs, so the next use reads the files again (for tools and tests)."""
    with _lock:
        _cache.clear()


def _format(language: str, text: str, english: str, params: dict[str, Any]) -> str:
    """Fill ``text``'s placeholders; a translation whose fields do not match falls back to English."""
    if not params:
        return text
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        if text == english:
            raise
        log.warning("the %s translation of %r does not fit its parameters; using English", language, english)
        return english.format(**params)


def gettext(language: str, message: str, /, **params: Any) -> str:
    """Return ``message`` in ``language`` (English when untranslated), its ``{fields}`` filled from ``params``."""
    text = compiled(language).translations.gettext(message)
    return _format(language, text, message, params)


def pgettext(language: str, context: str, message: str, /, **params: Any) -> str:
    """Like :func:`gettext`, for the ``message`` of one ``context`` (``msgctxt``)."""
    text = compiled(language).translations.pgettext(context, message)
    return _format(language, text, message, params)


def ngettext(language: str, singular: str, plural: str, n: int, /, **params: Any) -> str:
    """Return the form of ``singular``/``plural`` that ``language`` uses for ``n``; ``{n}`` is ``n``."""
    text = compiled(language).translations.ngettext(singular, plural, n)
    english = singular if n == 1 else plural
    return _format(language, text, english, {"n": n, **params})


def npgettext(language: str, context: str, singular: str, plural: str, n: int, /, **params: Any) -> str:
    """Like :func:`ngettext`, for the message of one ``context``."""
    text = compiled(language).translations.npgettext(context, singular, plural, n)
    english = singular if n == 1 else plural
    return _format(language, text, english, {"n": n, **params})


def lookup(language: str, message: str, context: str | None = None) -> str | None:
    """Return the translation of ``message`` (in ``context``), or ``None`` when ``language`` has none.

    English has no catalog, so it is always ``None``: the English text is the original.
    """
    found = compiled(language)
    if (context, message) not in found.known:
        return None
    if context is None:
        return found.translations.gettext(message)
    return found.translations.pgettext(context, message)
