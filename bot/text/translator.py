"""Slash commands in the players' languages: descriptions and choices through the message catalogs.

discord.py asks an :class:`app_commands.Translator` for every string of the command payload in every
Discord locale and sends Discord the answers as ``*_localizations``; the client then shows each user the
commands in their own language.  :class:`CatalogTranslator` answers from :mod:`i18n.catalog`, with the
English text as the key and a context per kind of string:

- descriptions of commands, groups and options: ``msgctxt "command"``;
- names of fixed choices (``variant: Mini``): ``msgctxt "choice"``.

Command, group and option **names stay English** (``/pond start opponent:``).  Players of different
languages share a server and tell each other what to type, the rules texts and tutorials quote commands,
and Discord matches a localised name only for users of that locale, so one spelling for everybody keeps
them understandable; Discord also allows localised names only within its name rules, which would turn
natural Russian and French phrases into awkward ones.  Autocomplete labels are built per reply in the
user's language by the game modules, so the translator leaves them alone (it answers ``None``).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from i18n import catalog

COMMAND_CONTEXT = "command"
CHOICE_CONTEXT = "choice"

#: Which catalog context translates a string at each place of the payload; names are not translated.
CONTEXTS: dict[Where, str] = {
    Where.group_description: COMMAND_CONTEXT,
    Where.command_description: COMMAND_CONTEXT,
    Where.parameter_description: COMMAND_CONTEXT,
    Where.choice_name: CHOICE_CONTEXT,
}


class CatalogTranslator(app_commands.Translator):
    """Translate command descriptions and choice names to every language Tabula speaks."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        """Return the catalog's translation for ``locale``, or ``None`` (Discord then shows the English)."""
        kind = CONTEXTS.get(context.location)
        language = catalog.locale_for(locale)
        if kind is None or language == catalog.DEFAULT:
            return None
        return catalog.lookup(language, string.message, kind)


async def translated_payload(
    tree: app_commands.CommandTree[Any], translator: app_commands.Translator | None = None
) -> list[dict[str, Any]]:
    """Return the command payload with its localisations, as :meth:`CommandTree.sync` sends it."""
    chosen = translator or CatalogTranslator()
    return [await command.get_translated_payload(tree, chosen) for command in tree.get_commands()]
