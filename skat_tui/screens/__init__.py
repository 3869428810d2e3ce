"""Screens and dialogs of the card table."""
