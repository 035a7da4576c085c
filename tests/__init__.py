"""Tabula's tests, in folders that mirror the packages they test (``tests/engines``, ``tests/bot/storage``, …).

A test finds the repository and the shared fixtures through these two paths rather than from its own
place in the tree, so that moving a test between folders never changes what it reads.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
