"""Shared test settings."""

import os

# Random-game tests scale with this; CI and developers run the full amount.
RANDOM_GAMES = int(os.environ.get("TABULA_RANDOM_GAMES", "1"))
