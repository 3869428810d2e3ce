"""Widgets of the card table, shared by the live table and the replay."""
