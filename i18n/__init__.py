"""The players' texts: sentences made from what the engines report, never inside the engines.

The engines end a game with a termination code (``Outcome.termination``) and describe each
ply with a frozen event (``state.last_event``); this package turns those, and the players'
names, into what the chat and the board pictures say.  One module per game
(``i18n/<name>.py``, found by the game's name in :data:`engines.GAMES`) holds its texts:

* :func:`result_text`: the result sentence (``The target of 10 was reached: light wins 10 to 7.``);
* :func:`summary_text`: the chat line saying what the last ply did;
* :func:`status_text`: the board picture's status line (whose turn, or who won and why);
* :func:`caption_text`: the board picture's short line about the last ply ("" for games without one);
* ``puzzle_goal``: what a puzzle asks of its solver, in the game's words (``Light to move and win 2 frogs``).

Every function takes ``locale`` (``"en"``, ``"ru"``, ``"fr"``; any other
reads English).  Sentences are written whole, with named placeholders, and go through
the catalogs (:mod:`i18n.catalog`, contexts ``game:<name>``).  Pure: no discord, no I/O.

>>> from engines import GAMES
>>> state = GAMES["pond"].new(variant="mini").play("place b2")
>>> summary_text(state, ["Ana", "Bo"])
'Ana placed an egg on b2.'
>>> result_text(state.forfeit(1, "timeout"), ["Ana", "Bo"])
'Bo ran out of time; Ana claimed the win.'
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from functools import cache
from typing import Any, Protocol, cast

from engines import GAMES

LOCALES = ("en", "ru", "fr")
DEFAULT_LOCALE = "en"

# What every game's text module provides (a test checks each registered game has them): the sentences above, the
# seats' default names, the board's alt text (:mod:`i18n.describe`), the seats and start options as the bot's
# messages say them, and the game's own words inside its refusals (:mod:`i18n.errors`).
PARTS = (
    "result",
    "summary",
    "status",
    "caption",
    "seat_label",
    "position",
    "seat_words",
    "option_words",
    "error_param",
    "puzzle_goal",
)


class GameTexts(Protocol):
    """What a game's text module provides, as the functions above call it (the module is this, structurally)."""

    def result(self, state: Any, names: Sequence[str], locale: str) -> str: ...
    def summary(self, state: Any, names: Sequence[str], locale: str) -> str: ...
    def status(self, state: Any, names: Sequence[str], locale: str) -> str: ...
    def caption(self, state: Any, names: Sequence[str], locale: str) -> str: ...
    def seat_label(self, locale: str, number: int) -> str: ...
    def position(self, state: Any, names: Sequence[str], language: str) -> str: ...
    def seat_words(self, language: str) -> dict[str, str]: ...
    def option_words(self, language: str) -> dict[str, str]: ...
    def error_param(self, language: str, name: str, value: object) -> str | None: ...
    def choice(self, state: Any, kind: str, fields: dict[str, str], language: str) -> str: ...
    def puzzle_goal(self, language: str, solver: int, goal: str, gain: int) -> str: ...


def supported(locale: str) -> str:
    """Return the locale the texts will be in: ``locale`` if it exists, else English."""
    return locale if locale in LOCALES else DEFAULT_LOCALE


@cache
def texts_for(game: str) -> GameTexts:
    """Return the text module of a registered ``game`` (``i18n/<game>.py``: ``GAMES[game].module("i18n")``)."""
    spec = GAMES.get(game)
    if spec is None:
        raise LookupError(f"There is no game called {game!r}.")
    return cast(GameTexts, importlib.import_module(spec.module(__name__)))


def seat_labels(state: Any, locale: str = DEFAULT_LOCALE) -> list[str]:
    """Return the seats' names, capitalised (``Light``, ``Player 2``; ``Светлые``): the default for ``names``."""
    module = texts_for(state.game)
    return [module.seat_label(supported(locale), seat) for seat in range(state.players)]


def _names(state: Any, names: Sequence[str] | None, locale: str = DEFAULT_LOCALE) -> list[str]:
    """Return one name per seat: those given, the seats' names for any missing."""
    seats = seat_labels(state, locale)
    given = list(names or ())[: state.players]
    return given + seats[len(given) :]


def result_text(state: Any, names: Sequence[str] | None = None, locale: str = DEFAULT_LOCALE) -> str:
    """Return the sentence saying how the finished game ``state`` ended ("" while it runs).

    ``names`` are the players' display names in seat order (default: the seats' names); a
    result sentence names the seats where the game's rules do ("light wins") and the players
    where a person did something ("Ana resigned.").
    """
    if state.outcome() is None:
        return ""
    return texts_for(state.game).result(state, _names(state, names, locale), supported(locale))


def summary_text(state: Any, names: Sequence[str] | None = None, locale: str = DEFAULT_LOCALE) -> str:
    """Return the chat line saying what the last ply of ``state`` did."""
    return texts_for(state.game).summary(state, _names(state, names, locale), supported(locale))


def status_text(state: Any, names: Sequence[str] | None = None, locale: str = DEFAULT_LOCALE) -> str:
    """Return the board picture's status line: whose turn it is, or who won and, briefly, why."""
    return texts_for(state.game).status(state, _names(state, names, locale), supported(locale))


def caption_text(state: Any, names: Sequence[str] | None = None, locale: str = DEFAULT_LOCALE) -> str:
    """Return the board picture's short line about the last ply ("" for a game whose picture has none)."""
    return texts_for(state.game).caption(state, _names(state, names, locale), supported(locale))


def forfeit_text(
    how: str, name: str, claimer: str | None = None, *, players: int = 2, locale: str = DEFAULT_LOCALE
) -> str:
    """Return the sentence for a player leaving: ``how`` is a forfeit code (``forfeit``: resigned, ``timeout``, …).

    Only codes are accepted (see :data:`engines.base.FORFEIT_CODES`); a sentence raises
    :class:`~engines.base.InvalidOption` rather than being searched for words.

    ``claimer`` is who claimed a lost deadline.  With two players the leaver loses; with
    more, the leaver leaves and the others play on.

    >>> forfeit_text("timeout", "Bo", "Ana")
    'Bo ran out of time; Ana claimed the win.'
    >>> forfeit_text("timeout", "Cy", "Ana", players=3)
    'Cy ran out of time and leaves the game (Ana claimed it).'
    """
    from i18n.common import forfeit_sentence

    return forfeit_sentence(how, name, claimer, players=players, locale=supported(locale))


__all__ = [
    "DEFAULT_LOCALE",
    "LOCALES",
    "PARTS",
    "caption_text",
    "forfeit_text",
    "result_text",
    "seat_labels",
    "status_text",
    "summary_text",
    "supported",
    "texts_for",
]
