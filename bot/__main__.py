"""Run Tabula: ``python -m bot`` (or ``python -m bot --print-commands``).

``python -m bot migrate --to postgresql://…`` copies the SQLite database (``TABULA_DATABASE`` or
``--from FILE``) into an empty PostgreSQL database and verifies the copy (:mod:`bot.ops.transfer`).
``python -m bot backup FILE`` copies the SQLite database consistently while the bot runs, and checks
the copy (:mod:`bot.ops.backup`).
``python -m bot worker`` runs only background work (the computer's reviews) from the shared PostgreSQL queue:
more processes, on other machines too, beside the bot (:mod:`bot.ops.worker`); on SQLite it refuses.
``python -m bot catalogs [--update]`` rebuilds the message catalogs' template from the code and the
command tree (:mod:`bot.text.catalogs`), and merges it into every language's catalog.

SIGTERM and SIGINT stop the bot gracefully (:mod:`bot.lifecycle`): the work in flight finishes, the
workers stop, the database is closed, one line is logged, and the exit status is 0.

Start order: settings, then the database (opened, locked and migrated), then Discord.
A database the bot cannot use stops it before it ever touches the network, with one
line naming the file and ``TABULA_DATABASE``; ``TABULA_LOG_LEVEL=DEBUG`` adds the traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
import traceback
from collections.abc import Callable
from typing import Any

from bot.logs import VOICE_WARNING, NoVoiceWarnings, configure_logging
from bot.settings import Settings, SettingsError

__all__ = ["VOICE_WARNING", "NoVoiceWarnings", "configure_logging", "main"]

DEBUG_HINT = "(Set TABULA_LOG_LEVEL=DEBUG to see the traceback.)"


def main(argv: list[str] | None = None) -> int:
    """Start the bot, or print its command payload, or migrate its data; return the exit status."""
    arguments = sys.argv[1:] if argv is None else argv
    if arguments[:1] and arguments[0] in TOOLS:
        return TOOLS[arguments[0]][1](arguments[1:])
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Run the Tabula Discord bot (it needs DISCORD_TOKEN; .env.example lists every setting).",
        epilog="commands:\n"
        + "\n".join(f"  python -m bot {usage:<20} {said}" for usage, said in (t[0] for t in TOOLS.values()))
        + "\neach command's --help says more.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--print-commands", action="store_true", help="print the slash-command payload as JSON")
    args = parser.parse_args(arguments)
    settings = _settings()
    if settings is None:
        return 2

    if args.print_commands:
        from bot.client import TabulaBot

        logging.getLogger("discord.client").addFilter(NoVoiceWarnings())
        bot = TabulaBot.create(settings)
        print(json.dumps(bot.command_payload(), indent=2, sort_keys=True))
        return 0
    if not settings.token:
        print(
            "tabula: set DISCORD_TOKEN (in the environment or in a .env file; see .env.example) to run the bot.",
            file=sys.stderr,
        )
        return 2
    configure_logging(settings.log_level, settings.log_format)
    try:
        asyncio.run(_run(settings, settings.token))
    except KeyboardInterrupt:
        pass
    except Exception as error:  # a database it cannot use, discord.LoginFailure and friends
        return fatal(error, debug=settings.log_level == "DEBUG")
    return 0


def _settings() -> Settings | None:
    """The settings for a command-line tool, or ``None`` after saying what is wrong."""
    try:
        return Settings.load()
    except SettingsError as error:
        print(f"tabula: {error}", file=sys.stderr)
        return None


def catalogs(argv: list[str]) -> int:
    """``python -m bot catalogs [--update]``: rebuild the catalog template from the code and the commands."""
    from bot.client import TabulaBot
    from bot.text import catalogs

    logging.getLogger("discord.client").addFilter(NoVoiceWarnings())
    # The tree of a bot that never opens its database: the commands are the same whatever the settings say.
    return catalogs.main(argv, TabulaBot(Settings()).describe())


def worker(argv: list[str]) -> int:
    """``python -m bot worker``: take background jobs from the PostgreSQL queue until stopped."""
    parser = argparse.ArgumentParser(
        prog="python -m bot worker",
        description="Run only background work (the computer's reviews of finished games), taken from the queue in "
        "the shared PostgreSQL database (TABULA_DATABASE), beside the bot and any number of other workers, on this "
        "machine or others. SIGTERM or Ctrl-C stops it; the job in hand goes back to the queue. SQLite serves "
        "one process: there the bot does all its background work itself, and this refuses.",
    )
    parser.parse_args(argv)
    settings = _settings()
    if settings is None:
        return 2
    from bot.ops.worker import WorkerRefused, check_database, run_worker

    try:
        check_database(settings)
    except WorkerRefused as refused:
        print(f"tabula: {refused}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level, settings.log_format)
    try:
        asyncio.run(run_worker(settings))
    except KeyboardInterrupt:
        pass
    except Exception as error:  # a database it cannot use
        return fatal(error, debug=settings.log_level == "DEBUG")
    return 0


def migrate(argv: list[str]) -> int:
    """``python -m bot migrate --to URL [--from FILE]``: copy a SQLite database into PostgreSQL, then verify."""
    parser = argparse.ArgumentParser(
        prog="python -m bot migrate",
        description="Copy every match, move log, rating, setting and announcement from the SQLite database into "
        "an empty PostgreSQL database, then verify the copy. Stop the bot first.",
    )
    parser.add_argument("--to", required=True, metavar="URL", help="the empty target: postgresql://user:pw@host/db")
    parser.add_argument("--from", dest="source", metavar="FILE", help="the SQLite file (default: TABULA_DATABASE)")
    args = parser.parse_args(argv)
    settings = _settings()
    if settings is None:
        return 2
    from bot.ops.transfer import copy_database, describe_failure
    from bot.storage.database import redact

    source = args.source or settings.database
    print(f"copying {source} to {redact(args.to)}")
    try:
        report = asyncio.run(copy_database(source, args.to, say=lambda line: print(f"  {line}")))
    except Exception as error:
        print(f"tabula: {describe_failure(error)}", file=sys.stderr)
        return 1
    for line in report.lines():
        print(line)
    print(f"done: set TABULA_DATABASE={redact(args.to)} to run the bot on PostgreSQL")
    return 0


def backup(argv: list[str]) -> int:
    """``python -m bot backup FILE``: copy the SQLite database while the bot runs, then check the copy."""
    parser = argparse.ArgumentParser(
        prog="python -m bot backup",
        description="Copy the SQLite database (TABULA_DATABASE) to FILE, consistently, even while the bot runs "
        "(SQLite's online backup), then check the copy: PRAGMA integrity_check, and every running match's state "
        "equal to the replay of its move log.  For PostgreSQL it prints the pg_dump command to use instead.",
    )
    parser.add_argument("file", metavar="FILE", help="the new backup file (it must not exist yet)")
    parser.add_argument("--from", dest="source", metavar="FILE", help="the SQLite file (default: TABULA_DATABASE)")
    args = parser.parse_args(argv)
    settings = _settings()
    if settings is None:
        return 2
    from bot.ops.backup import BackupError, back_up, pg_dump_advice
    from bot.storage.database import is_url

    source = args.source or settings.database
    if is_url(source):
        print(f"tabula: {pg_dump_advice(source, args.file)}", file=sys.stderr)
        return 2
    try:
        report = asyncio.run(back_up(source, args.file))
    except BackupError as error:
        print(f"tabula: {error}", file=sys.stderr)
        return 1
    print(report)
    return 0


def fatal(error: BaseException, *, debug: bool) -> int:
    """Report an error that stops the bot at start: one line, after the traceback when debugging."""
    from bot.storage import DatabaseUnavailable

    text = str(error) if isinstance(error, DatabaseUnavailable) else f"{type(error).__name__}: {error}"
    # One line, for a service manager's log: discord.py writes a refused sync's reasons on several, indented
    # (the command, then the option, then Discord's reason).
    if not isinstance(error, DatabaseUnavailable):
        text = " ".join(line.strip() for line in text.splitlines() if line.strip())
    if debug:
        traceback.print_exception(error, file=sys.stderr)
        print(f"tabula: {text}", file=sys.stderr)
    else:
        print(f"tabula: {text} {DEBUG_HINT}", file=sys.stderr)
    return 1


#: The tools ``python -m bot`` runs instead of the bot: each one's usage and what it does (for ``--help``), and its
#: entry point, handed the arguments after its name.
TOOLS: dict[str, tuple[tuple[str, str], Callable[[list[str]], int]]] = {
    "backup": (("backup FILE", "copy the SQLite database while the bot runs, and check the copy"), backup),
    "migrate": (("migrate --to URL", "copy the SQLite database into an empty PostgreSQL one, verified"), migrate),
    "worker": (("worker", "run only background work, from the shared PostgreSQL queue"), worker),
    "catalogs": (("catalogs [--update]", "rebuild the message catalogs' template (and merge it)"), catalogs),
}


async def _run(settings: Settings, token: str) -> None:
    from bot.client import finish_jobs
    from bot.core import ratings
    from bot.lifecycle import on_stop_signals
    from bot.storage import MatchStore

    # SIGTERM, SIGINT: stop after the work in flight, exit 0 (a signal before the bot exists stops it at once).
    bots: list[Any] = []
    early: list[str] = []
    undo = on_stop_signals(lambda name: bots[0].request_stop(name) if bots else early.append(name))
    try:
        # Raises DatabaseUnavailable before any login.
        store = await MatchStore.open(
            settings.database,
            connections=settings.database_connections,
            rating=ratings,
            finish_jobs=finish_jobs(settings),
        )
        try:
            from bot.client import TabulaBot

            bot = TabulaBot.create(settings, store=store)
        except BaseException:
            await store.close()
            raise
        bots.append(bot)
        async with bot:
            if early:
                bot.request_stop(early[0])
            starting = asyncio.ensure_future(bot.start(token))
            stopping = asyncio.ensure_future(bot.stopped())
            await asyncio.wait({starting, stopping}, return_when=asyncio.FIRST_COMPLETED)
            if bot.stop_reason is None and starting.done():
                stopping.cancel()
                starting.result()  # a login failure and friends (or a close from inside): reported by main()
            else:
                await stopping  # a stop signal: whatever start() says meanwhile is the stop's own doing
                starting.cancel()
                await asyncio.gather(starting, return_exceptions=True)
    finally:
        undo()


if __name__ == "__main__":
    sys.exit(main())
