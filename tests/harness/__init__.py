"""The bot's test harness, which now lives in the package as :mod:`bot.testing`.

``bench/load.py`` drives the bot the same way and an installed package cannot import
``tests``, so the code moved; ``from tests.harness import ...`` keeps working for the tests.
"""

from bot.testing import *  # noqa: F403
from bot.testing import settle as settle
