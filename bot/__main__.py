"""Run Tabula: ``python -m bot`` (or ``python -m bot --print-commands``)."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys

from bot.settings import Settings, SettingsError


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

    from bot.client import TabulaBot

    if args.print_commands:
        bot = TabulaBot(settings)
        print(json.dumps(bot.command_payload(), indent=2, sort_keys=True))
        return 0
    if not settings.token:
        print(
            "tabula: set DISCORD_TOKEN (in the environment or in a .env file; see .env.example) to run the bot.",
            file=sys.stderr,
        )
        return 2
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stderr
    )
    bot = TabulaBot(settings)
    try:
        asyncio.run(_run(bot, settings.token))
    except KeyboardInterrupt:
        pass
    except Exception as error:  # discord.LoginFailure and friends: one line, no traceback
        print(f"tabula: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    return 0


async def _run(bot: object, token: str) -> None:
    from bot.client import TabulaBot

    assert isinstance(bot, TabulaBot)
    async with bot:
        await bot.start(token)


if __name__ == "__main__":
    sys.exit(main())
