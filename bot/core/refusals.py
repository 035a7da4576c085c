"""Refusals: what the bot says, politely and in the reader's language, when it will not do what was asked.

A :class:`Refusal` changes nothing; the command's error handler (:mod:`bot.commands.errors`) shows
:func:`describe_error`'s text to the player who asked, and only to them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.storage.database import StorageError
from bot.storage.records import Announcement, MatchRecord
from engines import GameError
from i18n.catalog import DEFAULT, gettext
from i18n.errors import error_text

# A parameter of a refusal that is itself a phrase: given the language, it returns the words.
Phrase = Callable[[str], str]


class Refusal(Exception):
    """A polite refusal for the player who asked; nothing was changed.

    ``message`` is the English sentence, the catalog key (``msgid``), with named ``{fields}`` filled from
    ``params`` (a value may be a :data:`Phrase`, put in the reader's words).  :meth:`text` says it in a
    language; ``str()`` is the English, so logs and English replies read as before.
    """

    def __init__(self, message: str, /, **params: Any) -> None:
        self.message = message
        self.params = params
        super().__init__(self.text(DEFAULT))

    def text(self, language: str) -> str:
        """Say the refusal in ``language`` (English where the catalog has no translation)."""
        values = {key: value(language) if callable(value) else value for key, value in self.params.items()}
        return gettext(language, self.message, **values)


class ChallengeClosed(Refusal):
    """A press on a challenge that is no longer open; its message should lose its buttons."""

    def __init__(
        self, message: str, record: MatchRecord, announcements: Sequence[Announcement] = (), /, **params: Any
    ) -> None:
        super().__init__(message, **params)
        self.record = record
        self.announcements = tuple(announcements)


class DrawClosed(Refusal):
    """A press on a draw offer that is no longer open; its message should lose its buttons."""


class StaleBoard(Refusal):
    """A press on the controls of a board the game has moved on from: nothing is played; the presser is shown
    the current board instead."""

    def __init__(self, match_id: int, message: str, /, **params: Any) -> None:
        super().__init__(message, **params)
        self.match_id = match_id


def describe_error(error: BaseException, language: str = DEFAULT) -> str | None:
    """Return the player-facing message of an expected refusal in ``language``, or ``None`` for a real fault."""
    if isinstance(error, Refusal):
        return error.text(language)
    if isinstance(error, StorageError):
        return gettext(language, str(error))
    if isinstance(error, GameError):
        return error_text(error, language)
    return None
