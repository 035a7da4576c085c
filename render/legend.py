"""What the colours of a marked board mean: the entries its legend shows, and their words.

An ordinary board marks one move, the last, in amber, and its legend says what the mark's parts are (Pond and
Summer name it ``last move``).  A marked board (:func:`render.render_marked`) shows moves on the position before
them, and what its colours mean depends on why it is drawn, its *meaning*:

* ``"review"``: amber is the move played, blue the better move (the computer's review of a game);
* ``"hint"``: blue is the suggested move (``/<game> hint``);
* ``"preview"``: amber is the move the player is about to play (a private preview, before it counts);
* ``"puzzle"``: amber is the player's wrong answer to a puzzle, blue the solution.

The legend has an entry (:class:`Key`) for each colour actually drawn, and only those: a review of a move with no
better one says ``move played`` alone.  Each game draws the entries as one line of its legend, each after a sample
of its own mark in that colour, in place of its ``last move`` entry (:func:`key_parts`).

>>> from render.theme import DEFAULT_THEME as theme
>>> [key.words for key in legend_for("review", played=True, better=False, theme=theme)]
['move played']
>>> [key_words(key, "fr") for key in legend_for("hint", played=False, better=True, theme=theme)]
['coup suggéré']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Final, NamedTuple

from PIL import Image

from i18n.catalog import pgettext
from render.theme import Theme


class Meaning(NamedTuple):
    """What a marked board's two colours say: the words for the amber mark and for the blue one (None: not used)."""

    played: str | None
    better: str | None


#: Every meaning a marked board may have, by name.
MEANINGS: Final = {
    "review": Meaning("move played", "better move"),
    "hint": Meaning(None, "suggested move"),
    "preview": Meaning("your move", None),
    "puzzle": Meaning("your move", "solution"),
}


@dataclass(frozen=True, slots=True)
class Key:
    """One entry of a marked board's legend: the marks in ``theme``'s mark colour show the ``words`` (English)."""

    words: str
    theme: Theme


def better_theme(theme: Theme) -> Theme:
    """Return ``theme`` with its move marks in the better-move colour (how a review and a hint mark a suggestion)."""
    return replace(theme, mark=theme.better_mark)


def legend_for(meaning: str, *, played: bool, better: bool, theme: Theme) -> tuple[Key, ...]:
    """Return the legend of a board of ``meaning`` that marks a played move, a better one, or both.

    The played move is marked in ``theme``'s mark colour, the better one in its better-move colour.  Raise
    ValueError for a meaning not in :data:`MEANINGS`, or a move the meaning has no words for (a hint marks
    no played move, a preview no better one).
    """
    if meaning not in MEANINGS:
        raise ValueError(f"A marked board's meaning is one of {', '.join(MEANINGS)}, not {meaning!r}.")
    words = MEANINGS[meaning]
    keys = []
    for marked, said, mark_theme, which in (
        (played, words.played, theme, "played"),
        (better, words.better, better_theme(theme), "better"),
    ):
        if not marked:
            continue
        if said is None:
            raise ValueError(f"A {meaning} marks no {which} move.")
        keys.append(Key(said, mark_theme))
    return tuple(keys)


def key_words(key: Key, locale: str) -> str:
    """Return ``key``'s words in ``locale``, as the legend writes them."""
    # Each text is written out here, so that the catalogs tool finds it.
    if key.words == "move played":
        # TRANSLATORS: a review's board legend: the amber mark is the move the player played.
        return pgettext(locale, "board", "move played")
    if key.words == "better move":
        # TRANSLATORS: a review's board legend: the blue mark is the move the computer found better.
        return pgettext(locale, "board", "better move")
    if key.words == "suggested move":
        # TRANSLATORS: a hint's board legend: the blue mark is the move the computer suggests.
        return pgettext(locale, "board", "suggested move")
    if key.words == "solution":
        # TRANSLATORS: a puzzle's board legend: the blue mark is the puzzle's solution (the move to find).
        return pgettext(locale, "board", "solution")
    if key.words == "your move":
        # TRANSLATORS: a preview's board legend: the amber mark is the move the player is about to play (not "your
        # turn").
        return pgettext(locale, "board", "your move")
    raise ValueError(f"No legend has the words {key.words!r}.")


def key_parts(
    legend: Sequence[Key], locale: str, sample: Callable[[Theme], Image.Image]
) -> list[tuple[Image.Image, str]]:
    """Return the legend's entries as (icon, words) pairs: ``sample(theme)`` draws a game's mark in a key's colour."""
    return [(sample(key.theme), key_words(key, locale)) for key in legend]


def shapes_theme(legend: Sequence[Key] | None, theme: Theme) -> Theme:
    """Return the theme in which a legend draws the samples of its marks' parts (a badge, a ``+1``, an arrow).

    An ordinary board's (``legend`` None) and an empty one's are in the usual mark colour; a marked board's in its
    first entry's, so that a hint's legend shows its parts in blue, as its board does.
    """
    return legend[0].theme if legend else theme


__all__ = ["MEANINGS", "Key", "Meaning", "better_theme", "key_parts", "key_words", "legend_for", "shapes_theme"]
