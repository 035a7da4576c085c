"""The engines' refusals in a player's language.

An engine raises a :class:`~engines.base.GameError` holding an English ``template`` (the catalog key, in the
context ``error``) and plain ``params``; ``str(error)`` is the English sentence.  :func:`error_text` looks the
template up in the language's catalog and fills in the params, some of them translated too: a seat named in
the rules' words (``side``, ``own``: ``light``, ``Blue``, ``White`` …), an Azul tile colour (``colour``), and a
nested error (a damaged save's cause).  An untranslated template, or a translation that does not fit its
params, reads English.

>>> from engines.base import IllegalMove
>>> error_text(IllegalMove("{cell} is occupied.", cell="b2"), "en")
'b2 is occupied.'
"""

from __future__ import annotations

from typing import Any, Final

from engines.base import GameError
from i18n.catalog import DEFAULT, pgettext

CONTEXT: Final = "error"

#: Seat names as the engines write them, and where each game's texts translate them.
SIDES: Final = {
    "light": "game:pond",
    "Light": "game:pond",
    "dark": "game:pond",
    "Dark": "game:pond",
    "blue": "game:querni",
    "Blue": "game:querni",
    "red": "game:querni",
    "Red": "game:querni",
    "White": "game:summer",
    "Black": "game:summer",
}
SIDE_PARAMS: Final = ("side", "own")
#: Azul's tile colours, translated in the context ``game:azul``.
COLOURS: Final = ("blue", "yellow", "red", "black", "white")


def _param(language: str, name: str, value: Any) -> Any:
    """Return a param ready for ``language``: a seat, a colour or a nested error translated, else as is."""
    if isinstance(value, GameError):
        return error_text(value, language)
    if isinstance(value, str):
        if name in SIDE_PARAMS and value in SIDES:
            return pgettext(language, SIDES[value], value)
        if name == "colour" and value in COLOURS:
            return pgettext(language, "game:azul", value)
    return value


def error_text(error: GameError, language: str = DEFAULT) -> str:
    """Return ``error``'s sentence in ``language`` (English when it has no translation)."""
    params = {name: _param(language, name, value) for name, value in error.params.items()}
    text = pgettext(language, CONTEXT, error.template, **params)
    # With no params the catalog hands back the text unformatted; its doubled braces still need undoing.
    return text if params else text.format()
