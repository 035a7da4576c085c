"""Tabula's benchmarks: run ``python -m bench`` (see CONTRIBUTING.md, "Tools")."""
