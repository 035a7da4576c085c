"""Run Tabula: ``python -m bot`` (or ``python -m bot --print-commands``).

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

from bot.settings import Settings, SettingsError

VOICE_WARNING = "voice will NOT be supported"
DEBUG_HINT = "(Set TABULA_LOG_LEVEL=DEBUG to see the traceback.)"


class NoVoiceWarnings(logging.Filter):
    """Drop discord.py's start-up warnings about missing voice libraries; Tabula never uses voice."""

    def filter(self, record: logging.LogRecord) -> bool:
        return VOICE_WARNING not in record.getMessage()


def configure_logging(level: str) -> None:
    """Log to stderr at ``level``, without the voice warnings (the rest of discord.py's logging stays)."""
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    logging.getLogger("discord.client").addFilter(NoVoiceWarnings())


def main(argv: list[str] | None = None) -> int:
    """Start the bot, or print its command payload; return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m bot", description="Run the Tabula Discord bot.")
    parser.add_argument("--print-commands", action="store_true", help="print the slash-command payload as JSON")
    args = parser.parse_args(argv)
    try:
        settings = Settings.load()
    except SettingsError as error:
        print(f"tabula: {error}", file=sys.stderr)
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
    configure_logging(settings.log_level)
    try:
        asyncio.run(_run(settings, settings.token))
    except KeyboardInterrupt:
        pass
    except Exception as error:  # a database it cannot use, discord.LoginFailure and friends
        return fatal(error, debug=settings.log_level == "DEBUG")
    return 0


def fatal(error: BaseException, *, debug: bool) -> int:
    """Report an error that stops the bot at start: one line, after the traceback when debugging."""
    from bot.storage import DatabaseUnavailable

    text = str(error) if isinstance(error, DatabaseUnavailable) else f"{type(error).__name__}: {error}"
    if debug:
        traceback.print_exception(error, file=sys.stderr)
        print(f"tabula: {text}", file=sys.stderr)
    else:
        print(f"tabula: {text} {DEBUG_HINT}", file=sys.stderr)
    return 1


async def _run(settings: Settings, token: str) -> None:
    from bot.storage import MatchStore

    # Raises DatabaseUnavailable before any login.
    store = await MatchStore.open(settings.database, connections=settings.database_connections)
    try:
        from bot.client import TabulaBot

        bot = TabulaBot.create(settings, store=store)
    except BaseException:
        await store.close()
        raise
    async with bot:
        await bot.start(token)


if __name__ == "__main__":
    sys.exit(main())
