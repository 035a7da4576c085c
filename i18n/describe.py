"""Alt text for board pictures: what a screen reader says for a board, in the match's language.

:func:`alt_text` is the description attached to every board image the bot posts (Discord reads at most
1,024 characters): whose turn it is or the result (:func:`i18n.status_text`), the scores, what the last
ply did (:func:`i18n.summary_text`) and the position in compact text, one function per game reading the
engine's state (pieces by cell; or each player's lines, wall and floor, then what is on offer).  Words go
through the catalog with the context ``alt``.

Each game's text module (``i18n/<game>.py``, :func:`i18n.texts_for`) writes its position: ``position(state,
names, language)``, and may offer ``shorter_positions`` for when the full one does not fit.  Pure: engine states
and names in, text out.

>>> from engines import GAMES
>>> state = GAMES["pond"].new(variant="mini").play("place b2")
>>> print(position_text(state, ["Ana", "Bo"]))
Ana (Light): egg b2. Bo (Dark): none. Eggs to place: Ana 9, Bo 10.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import i18n
from i18n.catalog import pgettext

LIMIT = 1024  # Discord's longest attachment description


def list_text(language: str, items: Sequence[str]) -> str:
    """Items joined by commas, or the word for none."""
    return ", ".join(items) if items else pgettext(language, "alt", "none")


def seat_text(language: str, name: str, seat: str) -> str:
    """A player with their side: ``Ana (light)``."""
    return pgettext(language, "alt", "{name} ({side})", name=name, side=seat)


def position_text(state: Any, names: Sequence[str] | None = None, language: str = "en") -> str:
    """Return the position of ``state`` as compact text in ``language`` (the game's text module's ``position``)."""
    return i18n.texts_for(state.game).position(state, _names(state, names), language)


def position_forms(state: Any, names: Sequence[str], language: str) -> list[str]:
    """The position's texts, fullest first: the game's ``position``, then its ``shorter_positions`` if it has them.

    Azul's shorter forms count the wall's tiles and number the players; the scores line names the players in
    seat order, so ``Player 2`` still says who.
    """
    module = i18n.texts_for(state.game)
    shorter = getattr(module, "shorter_positions", None)
    return [module.position(state, names, language), *(shorter(state, names, language) if shorter else ())]


def _names(state: Any, names: Sequence[str] | None) -> list[str]:
    seats = i18n.seat_labels(state)
    given = list(names or ())[: state.players]
    return given + seats[len(given) :]


def scores_text(state: Any, names: Sequence[str], language: str) -> str:
    """``Scores: Ana 3, Bo 2.``"""
    listed = ", ".join(f"{name} {score}" for name, score in zip(names, state.scores(), strict=False))
    return pgettext(language, "alt", "Scores: {scores}.", scores=listed)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def alt_text(state: Any, names: Sequence[str] | None = None, language: str = "en", *, limit: int = LIMIT) -> str:
    """Return the board's description: status, scores, the last ply and the position, at most ``limit`` long.

    The position is never cut while it fits: the most complete of :func:`position_forms` that fits is
    used, and the last ply's sentence (an Azul round's scoring can be long) is cut
    to the room left, with an ellipsis.
    """
    seats = _names(state, names)
    lead = " ".join(
        _sentence(part)
        for part in (i18n.status_text(state, seats, language), scores_text(state, seats, language))
        if part.strip()
    )
    forms = position_forms(state, seats, language)
    position = next((form for form in forms if len(lead) + len(form) + 1 <= limit), forms[-1])
    room = limit - len(lead) - len(position) - 2
    if state.ply > 0 and state.last_event is not None and room > 0:
        summary = _sentence(i18n.summary_text(state, seats, language))
        if summary:
            lead = f"{lead} {_clip(summary, room)}"
    return _clip(f"{lead} {position}", limit)


def _sentence(text: str) -> str:
    text = text.strip()
    return text if not text or text.endswith((".", "!", "?", "…")) else text + "."
