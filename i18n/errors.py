"""The engines' refusals in a player's language.

An engine raises a :class:`~engines.base.GameError` holding an English ``template`` (the catalog key, in the
context ``error``) and plain ``params``; ``str(error)`` is the English sentence.  :func:`error_text` looks the
template up in the language's catalog and fills in the params, some of them translated too: a game's own
words (a seat named in the rules' words, a tile colour), which the game's text module translates in its
``error_param`` (each registered game is asked, see :func:`i18n.texts_for`), and a nested error (a damaged
save's cause).  An untranslated template, or a translation that does not fit its params, reads English.

>>> from engines.base import IllegalMove
>>> error_text(IllegalMove("{cell} is occupied.", cell="b2"), "en")
'b2 is occupied.'
"""

from __future__ import annotations

from typing import Any, Final

from engines import GAMES
from engines.base import GameError
from i18n import texts_for
from i18n.catalog import DEFAULT, pgettext

CONTEXT: Final = "error"


def _param(language: str, name: str, value: Any) -> Any:
    """Return a param ready for ``language``: a seat, a colour or a nested error translated, else as is."""
    if isinstance(value, GameError):
        return error_text(value, language)
    if isinstance(value, str):
        for game in GAMES:
            word = texts_for(game).error_param(language, name, value)
            if word is not None:
                return word
    return value


def error_text(error: GameError, language: str = DEFAULT) -> str:
    """Return ``error``'s sentence in ``language`` (English when it has no translation)."""
    params = {name: _param(language, name, value) for name, value in error.params.items()}
    text = pgettext(language, CONTEXT, error.template, **params)
    # With no params the catalog hands back the text unformatted; its doubled braces still need undoing.
    return text if params else text.format()
