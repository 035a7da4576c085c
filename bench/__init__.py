"""Tabula's benchmarks: run ``python -m bench`` (see the README)."""
