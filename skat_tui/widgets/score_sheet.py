"""The score sheet: every game of the series, plain and Seeger-Fabian, with totals."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import DataTable

from engine.series import Series


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "·"


def score_rows(series: Series) -> list[tuple[str, ...]]:
    """One row per game, then the totals: number, declarer, game, bid, card points,
    value, plain changes per player, Seeger-Fabian changes per player."""
    rows = []
    names = series.names
    for entry in series.entries:
        plain, sf = entry.scores(series.table_size)
        result = entry.result
        if result is None:
            game, declarer, bid, points, value = "passed in", "–", "", "", ""
        else:
            declarer = names[entry.seats[result.declarer]]
            game = result.declaration.iss()
            bid = str(result.bid)
            points = str(result.declarer_points)
            value = ("won " if result.won else "lost ") + str(result.game_value) + (" overbid" if result.overbid else "")
        rows.append((str(entry.number), declarer, game, bid, points, value,
                     *(_signed(p) for p in plain), *(_signed(s) for s in sf)))
    totals = series.totals()
    rows.append(("Σ", "", "", "", "", "", *(str(t.score) for t in totals), *(str(t.seeger_fabian) for t in totals)))
    return rows


class ScoreSheet(DataTable):
    """Scrollable list of the series; the last row holds the totals."""

    DEFAULT_CSS = """
    ScoreSheet { height: auto; max-height: 100%; }
    """

    def __init__(self, series: Series, **kwargs) -> None:
        super().__init__(zebra_stripes=True, cursor_type="row", **kwargs)
        self.series = series

    def on_mount(self) -> None:
        names = self.series.names
        self.add_columns("#", "Declarer", "Game", "Bid", "Pts", "Result",
                         *names, *(f"SF {n}" for n in names))
        self.reload()

    def reload(self) -> None:
        self.clear()
        rows = score_rows(self.series)
        for row in rows[:-1]:
            self.add_row(*row)
        self.add_row(*(Text(cell, style="bold") for cell in rows[-1]))
        self.move_cursor(row=self.row_count - 1)
