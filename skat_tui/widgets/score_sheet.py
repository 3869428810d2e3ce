"""The score sheet: every game of the series, plain and Seeger-Fabian, with totals."""

from __future__ import annotations

from collections.abc import Collection

from rich.text import Text
from textual.widgets import DataTable

from engine.scoring import RamschResult
from engine.series import GAMES_PER_ROUND, RoundGame, Series


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "·"


def score_rows(series: Series, cards_shown: Collection[int] = ()) -> list[tuple[str, ...]]:
    """One row per game, then the totals: number, declarer and game, bid, card points,
    result, then per player the plain change with the Seeger-Fabian change in brackets.
    ``cards_shown``: the games (0-based) in which the computers' cards were shown, marked *.

    Plain and Seeger-Fabian share a player's column so the sheet fits 80 columns."""
    rows = []
    names = series.names
    for index, entry in enumerate(series.entries):
        plain, sf = entry.scores(series.table_size)
        result = entry.result
        if result is None:
            game, bid, points, value = "passed", "", "", ""
        elif isinstance(result, RamschResult):
            game, bid, points = "Ramsch", "", ""
            value = ("Durchmarsch" if result.durchmarsch is not None else "Jungfrau" if result.jungfrau is not None
                     else "tie" if len(result.losers) > 1 else "")
            value += f" ×{result.multiplier}" if result.multiplier > 1 else ""
        else:
            game = f"{names[entry.seats[result.declarer]]} {result.declaration.iss()}"
            bid = str(result.bid)
            points = str(result.declarer_points)
            # an overbid game always counts as lost
            value = ("overbid " if result.overbid else "won " if result.won else "lost ") + str(result.game_value)
            if result.doublings:  # K Kontra, R Re (the sheet's heading explains the letters)
                value += " " + "".join(call[0] for call in result.doublings)
        number = f"{entry.number} B" if entry.bock else str(entry.number)
        if index in cards_shown:
            number += " *"
        rows.append((number, game, bid, points, value,
                     *(f"{_signed(p)} ({_signed(s)})" for p, s in zip(plain, sf))))
    totals = series.totals()
    rows.append(("Σ", "", "", "", "", *(f"{t.score} ({t.seeger_fabian})" for t in totals)))
    return rows


def score_legend(series: Series, cards_shown: Collection[int] = ()) -> str:
    """What the sheet's marks mean, for the house rules of the series and the games marked
    as played with the computers' cards shown ('' without any)."""
    marks = []
    if cards_shown:
        marks.append("* the computers' cards were shown during play")
    if series.rules.kontra:
        marks.append("K Kontra, R Re")
    if series.rules.bock:
        marks.append("B a Bock game: both lists count it double")
    return " · ".join(marks)


def bock_game_number(series: Series, index: int) -> int:
    """Which game of its Bock round game ``index`` (0-based; ``len(entries)`` is the game
    in play) is, 1 to 3, or 0 when it is no Bock game.  Bock rounds follow each other
    without a gap, so the count runs on over the Bock games just before it."""
    bock = series.next_game == RoundGame.BOCK if index == len(series.entries) else series.entries[index].bock
    if not bock:
        return 0
    before = 0
    for entry in reversed(series.entries[:index]):
        if not entry.bock:
            break
        before += 1
    return before % GAMES_PER_ROUND + 1


class ScoreSheet(DataTable):
    """Scrollable list of the series; the last row holds the totals."""

    DEFAULT_CSS = """
    ScoreSheet { height: auto; max-height: 100%; scrollbar-size-vertical: 1; }
    """

    def __init__(self, series: Series, cards_shown: Collection[int] = (), **kwargs) -> None:
        super().__init__(zebra_stripes=True, cursor_type="row", **kwargs)
        self.series = series
        self.cards_shown = cards_shown

    def on_mount(self) -> None:
        self.add_columns("#", "Game", "Bid", "Pts", "Result", *(f"{n} (SF)" for n in self.series.names))
        self.reload()

    def reload(self) -> None:
        self.clear()
        rows = score_rows(self.series, self.cards_shown)
        for row in rows[:-1]:
            self.add_row(*row)
        self.add_row(*(Text(cell, style="bold") for cell in rows[-1]))
        self.move_cursor(row=self.row_count - 1)
