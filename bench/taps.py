"""Taps per move: whole games of every game and option set, played through the command tree by taps alone.

A tap is one choice in a menu or one press of a button; typing is none.  Each move starts from the menus on
the board post, follows the private steps the bot answers with, and ends with Play (confirmation on) or at the
last choice (confirmation off, ``/settings confirm_moves:off``).  The players choose at random among what the
menus offer; the computer answers where it has a seat.  Reported per game and option set: moves made by taps,
and taps per move (median and maximum), with confirmation on and off.

    python -m bench.taps            # two games of each set, both confirmation settings
    python -m bench.taps --games 1 --json

The same driver (:class:`TapPlayer`) plays the tests' whole games on SQLite and PostgreSQL.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.discord_fake import APP_ID, BOT_USER_ID, Call, Discord, Person, Recorder, install, option
from bench.load import Patch, _client_user
from bot.client import TabulaBot
from bot.core import ratings
from bot.settings import Settings
from bot.storage import MatchStore

PEOPLE = tuple(Person(300000000000000001 + i, name) for i, name in enumerate(("Ana", "Bo", "Cy", "Dee")))
TABULA = Person(BOT_USER_ID, "Tabula", bot=True)
# The most taps a move may take with confirmation on (one fewer with it off).
MOST_TAPS = {"pond": 3, "azul": 3, "summer": 3, "querni": 4}


@dataclass(frozen=True)
class Setup:
    """One game and option set: the game, its start options, how many people and computers sit."""

    game: str
    options: dict[str, Any] = field(default_factory=dict)
    people: int = 2
    computers: int = 0

    @property
    def label(self) -> str:
        words = [self.game, *(f"{k}={v}" for k, v in self.options.items())]
        seats = f"{self.people} people" + (f" + {self.computers} computer" if self.computers else "")
        return f"{' '.join(words)} ({seats})"


SETUPS = (
    Setup("pond", {"variant": "standard"}),
    Setup("pond", {"variant": "mini"}, people=1, computers=1),
    Setup("pond", {"variant": "large"}),
    Setup("azul", {}, people=2),
    Setup("azul", {}, people=2, computers=1),
    Setup("azul", {"wall": "grey"}, people=4),
    Setup("azul", {}, people=3),
    Setup("querni", {}),
    Setup("querni", {"isolation": "no_triple_left"}, people=1, computers=1),
    Setup("summer", {"board": "square"}),
    Setup("summer", {"board": "hex"}, people=1, computers=1),
    Setup("summer", {"board": "square", "mode": "field"}),
    Setup("summer", {"board": "hex", "mode": "field"}),
)


class TapPlayer:
    """Plays moves by taps through the bot's command tree, as people on phones would, counting the taps."""

    def __init__(self, bot: TabulaBot, discord: Discord, recorder: Recorder, rng: random.Random) -> None:
        self.bot = bot
        self.discord = discord
        self.recorder = recorder
        self.rng = rng
        self.people = {person.id: person for person in PEOPLE}

    def board_post(self, match_id: int, version: int) -> Call:
        """The newest message carrying the controls of match ``match_id`` at ``version``."""
        mark = f":{match_id}:{version}:"
        for call in reversed(self.recorder.created):
            if any(cid.startswith("tabula:pick:") and mark in cid for cid in call.custom_ids):
                return call
        raise AssertionError(f"no board post with controls for match {match_id} at version {version}")

    async def move(self, match_id: int) -> int:
        """Make the next move of match ``match_id`` by taps (a random choice at each step); return the taps."""
        service = self.bot.service
        record = await service.store.get(match_id)
        assert record is not None and record.status == "active", record
        state = service.state_of(record)
        assert state.to_move is not None
        person = self.people[record.players[state.to_move].user_id]
        channel = record.place_id
        menus = self.board_post(match_id, record.version).menus
        private = False
        taps = 0
        while True:
            choices = [(cid, value) for cid, options in menus.items() for _, value in options]
            assert choices, "a step without choices"
            cid, value = self.rng.choice(choices)
            calls = await self.discord.pick(person, channel, cid, value, ephemeral=private)
            taps += 1
            private = True
            # The private answers: a step's menus, or the preview with Play (a public post is the move played).
            answers = [c for c in calls if c.kind in ("edit", "edit-original") or (c.ephemeral and c.kind != "defer")]
            stepped = next((c for c in answers if c.menus), None)
            if stepped is not None:
                menus = stepped.menus
                continue
            play = next((cid for c in answers for cid in c.custom_ids if cid.startswith("tabula:play:")), None)
            if play is not None:
                await self.discord.press(person, channel, play, ephemeral=True)
                taps += 1
            break
        after = await service.store.get(match_id)
        assert after is not None and after.version > record.version, f"the move was not played: {calls}"
        return taps

    async def play_out(self, match_id: int, moves_limit: int = 2000) -> list[int]:
        """Play match ``match_id`` to its end by taps; return the taps of each move people made."""
        taps: list[int] = []
        for _ in range(moves_limit):
            record = await self.bot.service.store.get(match_id)
            assert record is not None
            if record.status != "active":
                return taps
            taps.append(await self.move(match_id))
        raise AssertionError(f"match {match_id} did not end in {moves_limit} moves")

    async def set_confirm(self, confirm: bool, channel: int) -> None:
        for person in PEOPLE:
            value = "on" if confirm else "off"
            await self.discord.command(person, channel, "settings", "", [option("confirm_moves", value)])

    async def start(self, setup: Setup, channel: int) -> int:
        """Start a game of ``setup`` in ``channel`` (everyone invited accepts); return its match ID."""
        host, *guests = PEOPLE[: setup.people]
        options = [option(name, value) for name, value in setup.options.items()]
        users = []
        for index, guest in enumerate(guests):
            options.append(option("opponent" if index == 0 else f"opponent{index + 1}", str(guest.id), kind=6))
            users.append(guest)
        if setup.computers:
            if guests:
                options.append(option("computers", setup.computers, kind=4))
                options.append(option("difficulty", "easy"))
            else:
                options.append(option("difficulty", "easy"))
        calls = await self.discord.command(host, channel, setup.game, "start", options, users=users)
        accept = next((cid for c in calls for cid in c.custom_ids if ":accept:" in cid), None)
        for guest in guests:
            assert accept is not None, calls
            await self.discord.press(guest, channel, accept)
        record = await self.bot.service.store.open_match(channel)
        assert record is not None and record.status == "active", calls
        return record.id


async def start_bot(database: str, recorder: Recorder, patch: Any) -> tuple[TabulaBot, Discord]:
    """A bot on ``database`` with Discord replaced by ``recorder`` (rendering in threads, a quick computer)."""
    install(patch, recorder)
    store = await MatchStore.open(database, rating=ratings)
    await store.settings.change(800000000000000001, threads=False)
    bot = TabulaBot(
        Settings(database=database, render_processes=0, ai_processes=0),
        store=store,
        rng=random.Random(1),
        computer_iterations=20,
    )
    await bot._async_setup_hook()
    bot._connection.application_id = APP_ID
    bot._connection.user = _client_user(bot)
    await bot.prepare()
    return bot, Discord(bot, recorder)


async def measure(games: int, seed: int = 1) -> list[dict[str, Any]]:
    rows = []
    patch = Patch()
    with tempfile.TemporaryDirectory() as folder:
        recorder = Recorder()
        bot, discord = await start_bot(str(Path(folder) / "taps.sqlite3"), recorder, patch)
        try:
            player = TapPlayer(bot, discord, recorder, random.Random(seed))
            channel = 70_000
            for setup in SETUPS:
                row: dict[str, Any] = {"setup": setup.label, "game": setup.game}
                for confirm in (True, False):
                    await player.set_confirm(confirm, channel)
                    taps: list[int] = []
                    for _ in range(games):
                        channel += 1
                        match_id = await player.start(setup, channel)
                        taps += await player.play_out(match_id)
                        recorder.clear()
                    key = "on" if confirm else "off"
                    row[f"moves_{key}"] = len(taps)
                    row[f"median_{key}"] = statistics.median(taps)
                    row[f"max_{key}"] = max(taps)
                row["limit_on"] = MOST_TAPS[setup.game]
                row["limit_off"] = MOST_TAPS[setup.game] - 1
                rows.append(row)
        finally:
            await bot.close()
            patch.undo()
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games of each set, per confirmation setting")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = asyncio.run(measure(args.games, args.seed))
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"{'game and options':<44} {'confirm on: moves median max':>30}   {'confirm off: moves median max':>30}")
    for row in rows:
        verdict = "ok" if row["max_on"] <= row["limit_on"] and row["max_off"] <= row["limit_off"] else "OVER"
        print(
            f"{row['setup']:<44} {row['moves_on']:>14} {row['median_on']:>6g} {row['max_on']:>4}"
            f"   {row['moves_off']:>16} {row['median_off']:>6g} {row['max_off']:>4}   "
            f"(at most {row['limit_on']}/{row['limit_off']}: {verdict})"
        )


if __name__ == "__main__":
    main()


__all__ = ["SETUPS", "Setup", "TapPlayer", "main", "measure", "start_bot"]
