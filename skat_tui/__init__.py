"""Skat at the terminal: the Textual card table and replay over ``engine``.

Entry points: ``skat_tui.app.run_table`` and ``skat_tui.app.run_replay``.
"""
