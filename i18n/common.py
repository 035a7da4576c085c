"""Texts shared by every game: lists of names, places, players leaving.

Every sentence goes through the catalogs (context ``game:common``), whole and with named placeholders.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.base import ABANDONED, AGREED, FORFEIT, TIMEOUT, forfeit_code
from i18n.catalog import pgettext


def join_names(names: Sequence[str], locale: str = "en") -> str:
    """Join names for a sentence: ``A``, ``A and B``, ``A, B and C`` (``A et B``, ``A и B``)."""
    if len(names) == 1:
        return names[0]
    head = pgettext(locale, "game:common", ", ").join(names[:-1])
    return pgettext(locale, "game:common", "{names} and {last}", names=head, last=names[-1])


def clauses(parts: Sequence[str], locale: str = "en") -> str:
    """Join the clauses of one chat line: ``A; B; C`` (each clause is itself a translated unit)."""
    text = parts[0]
    for part in parts[1:]:
        text = pgettext(locale, "game:common", "{clauses}; {clause}", clauses=text, clause=part)
    return text


def sentence(text: str, locale: str = "en") -> str:
    """End a clause as a sentence: ``{text}.``"""
    return pgettext(locale, "game:common", "{text}.", text=text)


def forfeit_sentence(how: str, name: str, claimer: str | None, *, players: int = 2, locale: str = "en") -> str:
    """Return the sentence for ``name`` resigning or running out of time (see :func:`i18n.forfeit_text`).

    ``how`` is a forfeit code (any other text raises :class:`~engines.base.InvalidOption`).
    :data:`ABANDONED` is a turn left twice its time, ended by itself (nobody claimed it), and
    :data:`AGREED` the draw ``name`` accepted (``claimer`` offered it).
    """
    kind = forfeit_code(how)
    if kind == AGREED:
        if claimer is not None:
            return pgettext(
                locale, "game:common", "{name} accepted {claimer}'s draw offer.", name=name, claimer=claimer
            )
        return agreed_sentence(locale)
    if kind == FORFEIT:
        return pgettext(locale, "game:common", "{name} resigned.", name=name)
    if kind == ABANDONED:
        if players == 2:
            return pgettext(locale, "game:common", "{name} ran out of time; the game ended on time.", name=name)
        return pgettext(locale, "game:common", "{name} ran out of time and leaves the game.", name=name)
    assert kind == TIMEOUT
    if players == 2 and claimer is not None:
        return pgettext(
            locale, "game:common", "{name} ran out of time; {claimer} claimed the win.", name=name, claimer=claimer
        )
    if claimer is not None:
        return pgettext(
            locale,
            "game:common",
            "{name} ran out of time and leaves the game ({claimer} claimed it).",
            name=name,
            claimer=claimer,
        )
    return pgettext(locale, "game:common", "{name} ran out of time and leaves the game.", name=name)


def agreed_sentence(locale: str = "en") -> str:
    """Return the result sentence of a game the players agreed to draw."""
    return pgettext(locale, "game:common", "The players agreed to a draw.")


def agreed_status(locale: str = "en") -> str:
    """Return the board picture's status line of a game the players agreed to draw."""
    return pgettext(locale, "game:common", "Draw by agreement")


def is_agreed(termination: str) -> bool:
    """Tell whether a termination code means the players agreed to a draw."""
    return termination == AGREED


def forfeit_reason(how: str, name: str, claimer: str | None, locale: str = "en") -> str:
    """Return the status line's short reason for a two-player game the loser left (no final stop)."""
    kind = forfeit_code(how)
    if kind == FORFEIT:
        return pgettext(locale, "game:common", "{name} resigned", name=name)
    if kind == ABANDONED:
        return pgettext(locale, "game:common", "{name} ran out of time", name=name)
    return pgettext(
        locale, "game:common", "{name} ran out of time; {claimer} claimed the win", name=name, claimer=claimer
    )


def two_player_forfeit(termination: str, winner: int, names: Sequence[str], locale: str = "en") -> str:
    """Return the result sentence of a two-player game the loser left: ``Bo resigned.``"""
    loser = 1 - winner
    return forfeit_sentence(termination, names[loser], names[winner], players=2, locale=locale)


def two_player_reason(termination: str, winner: int, names: Sequence[str], locale: str = "en") -> str:
    """Return the status line's reason of a two-player game the loser left: ``Bo resigned``."""
    return forfeit_reason(termination, names[1 - winner], names[winner], locale)


def is_forfeit(termination: str) -> bool:
    """Tell whether a termination code means a player left (resigned or lost on time, claimed or not)."""
    return termination in (FORFEIT, TIMEOUT, ABANDONED)


def ordinal(n: int, locale: str = "en") -> str:
    """Return a finishing place as an ordinal: ``1st``, ``2nd``, ``3rd``, ``4th`` (``1er``, ``1-е``)."""
    if n == 1:
        return pgettext(locale, "game:common", "{n}st", n=n)
    if n == 2:
        return pgettext(locale, "game:common", "{n}nd", n=n)
    if n == 3:
        return pgettext(locale, "game:common", "{n}rd", n=n)
    return pgettext(locale, "game:common", "{n}th", n=n)
