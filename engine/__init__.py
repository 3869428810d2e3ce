"""Skat engine: rules, records, players and search, with no user interface."""

__version__ = "0.1.0"
