"""The bot's test harness, which lives in the benchmarks as :mod:`bench.discord_fake`.

``bench/load.py`` drives the bot the same way and an installed package cannot import
``tests``, so the code lives in ``bench`` (which ships for the benchmarks, outside the bot's
package); ``from tests.harness import ...`` keeps working for the tests.
"""

from bench.discord_fake import *  # noqa: F403
from bench.discord_fake import settle as settle
