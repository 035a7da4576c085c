"""The match service: the one place where challenges, moves and endings happen.

Commands, buttons and the deadline sweeper all call this service; it knows
nothing of discord.py beyond snowflake IDs and display names.  Each match has
an asyncio lock so that its commands run one at a time, and every write is
version-checked by the store, so two presses at the same moment can never apply
two moves, or one move twice.

A channel holds any number of matches played each in its own thread (opened by
the announcer from the challenge message once accepted), or one match played in
the channel itself (a thread, or a channel where threads are unavailable).  A
command finds its match with :meth:`MatchService.find`: the thread's match in a
match's thread, else the player's only running match of that game in the server.

The write that starts a match, plays a move or a forfeit, or closes a challenge
also records what must be announced (the outbox, :class:`~bot.storage.records.Notice`);
the results carry those announcements for the one announcer (:mod:`bot.delivery.announcer`)
to post.

The service is composed of parts, each handed the one :class:`~bot.core.service_core.ServiceCore` (locks,
the states' cache, finding a command's match, the one write of every turn): :class:`~bot.core.challenges.Challenges`,
:class:`~bot.core.moves.Moves` (moves, resignations, claims), :class:`~bot.core.endings.Endings` (cancelling, a
moderator's end, abandoned turns, withdrawals) and :class:`~bot.core.draw_offers.DrawOffers`.  What the core
tells others (a move applied, a match finished) goes out on its :class:`~bot.core.signals.Signals`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Awaitable, Callable

from bot.core.challenges import Challenges

# AI_LEVELS, level_list and Refusal are imported from here by bot.games.common too.
from bot.core.computer_seats import AI_LEVELS as AI_LEVELS
from bot.core.computer_seats import level_list as level_list
from bot.core.draw_offers import DrawOffers
from bot.core.endings import Endings
from bot.core.moves import Moves
from bot.core.ports import ServerSettings
from bot.core.refusals import Refusal as Refusal
from bot.core.service_core import ARCHIVE_AFTER_SECONDS, Answer, DrawAnswer, ServiceCore, Turn
from bot.core.signals import Signals
from bot.storage.extras_store import MatchExtras
from bot.storage.match_store import Matches


class MatchService:
    """Create, play and finish matches, one match at a time: the parts over one core, and their entry points.

    ``challenge_seconds`` and ``turn_seconds`` are the bot's defaults; a server's own settings
    (``server_settings``) override them for its matches, and ``own_turn_seconds`` a match's own time (an
    event game's).  ``extras`` keeps draw offers; ``signals`` hears every move applied and match finished.
    """

    def __init__(
        self,
        store: Matches,
        *,
        challenge_seconds: float = 15 * 60,
        turn_seconds: float = 24 * 3600,
        clock: Callable[[], float] = time.time,
        rng: random.Random | None = None,
        server_settings: ServerSettings | None = None,
        extras: MatchExtras | None = None,
        signals: Signals | None = None,
        own_turn_seconds: Callable[[int], Awaitable[float | None]] | None = None,
    ) -> None:
        self.core = ServiceCore(
            store,
            challenge_seconds=challenge_seconds,
            turn_seconds=turn_seconds,
            clock=clock,
            rng=rng,
            server_settings=server_settings,
            signals=signals,
            own_turn_seconds=own_turn_seconds,
        )
        self.store = store
        self.clock = clock
        self.signals = self.core.signals
        self.challenges = Challenges(self.core)
        self.moves = Moves(self.core)
        self.endings = Endings(self.core)
        self.draws = DrawOffers(self.core, extras)
        # The entry points the commands, buttons and the sweeper call: each is its part's own method.
        self.find = self.core.find
        self.current = self.core.current
        self.running = self.core.running
        self.position = self.core.position
        self.match_state = self.core.match_state
        self.state_of = self.core.state_of
        self.replay = self.core.replay
        self.turn_seconds_for = self.core.turn_seconds_for
        self.challenge_seconds_for = self.core.challenge_seconds_for
        self.challenge = self.challenges.challenge
        self.discard_challenge = self.challenges.discard_challenge
        self.set_message = self.challenges.set_message
        self.answer = self.challenges.answer
        self.expire_challenges = self.challenges.expire_challenges
        self.play = self.moves.play
        self.play_match = self.moves.play_match
        self.resign = self.moves.resign
        self.claim = self.moves.claim
        self.cancel = self.endings.cancel
        self.end_match = self.endings.end_match
        self.abandon = self.endings.abandon
        self.withdraw = self.endings.withdraw
        self.offer_draw = self.draws.offer_draw
        self.answer_draw = self.draws.answer_draw


__all__ = [
    "AI_LEVELS",
    "ARCHIVE_AFTER_SECONDS",
    "Answer",
    "DrawAnswer",
    "MatchService",
    "Refusal",
    "ServiceCore",
    "Turn",
    "level_list",
]
