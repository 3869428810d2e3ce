"""The debug panel: what the AI thinks of each legal card, live."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from engine.analysis import Analysis, CardStats

from .cards import card_text

SPARK = " ▁▂▃▄▅▆▇█"
NO_ANALYSIS = "No AI decision yet. Press i for a hint in your own position."


def sparkline(histogram: tuple[int, ...] | list[int]) -> str:
    """One bar per bucket, scaled to the tallest; an empty bucket is a space."""
    top = max(histogram, default=0)
    if top <= 0:
        return " " * len(histogram)
    return "".join(SPARK[0] if n == 0 else SPARK[max(1, round(n / top * (len(SPARK) - 1)))] for n in histogram)


def analysis_rows(analysis: Analysis) -> list[tuple[str, str, str, str, str, str, str, bool]]:
    """Plain rows (card, histogram, mean, std, evaluation, win share, simulations, chosen)
    for every legal card, best evaluation first; cards not simulated yet show dashes."""
    rows = []
    stats_by_card = {s.card: s for s in analysis.cards}
    ordered = sorted(analysis.legal, key=lambda c: -(stats_by_card[c].evaluation if c in stats_by_card
                                                     and stats_by_card[c].simulations else float("-inf")))
    for card in ordered:
        stats: CardStats | None = stats_by_card.get(card)
        chosen = analysis.chosen == card
        if stats is None or stats.simulations == 0:
            rows.append((card.unicode(), "", "–", "–", "–", "–", "0", chosen))
            continue
        mean = f"{stats.mean:.2f}" if analysis.null_game else f"{stats.mean:.1f}"
        rows.append((
            card.unicode(), sparkline(stats.histogram), mean, f"{stats.std:.1f}" if not analysis.null_game
            else f"{stats.std:.2f}", f"{stats.evaluation:.2f}", f"{stats.win_share:.0%}", str(stats.simulations),
            chosen,
        ))
    return rows


def describe_analysis(analysis: Analysis, seat_name: str) -> str:
    state = "final" if analysis.final else "thinking"
    limit = f" of {analysis.limit}" if analysis.limit else ""
    chosen = f" · chose {analysis.chosen.unicode()}" if analysis.final and analysis.chosen is not None else ""
    note = f" · {analysis.note}" if analysis.note else ""
    return (f"{seat_name} ({analysis.player}, {state}): {analysis.worlds} worlds, "
            f"{analysis.elapsed:.1f} s{limit}{chosen}{note}")


class DebugPanel(VerticalScroll):
    """One row per legal card: histogram of final scores, mean, std,
    evaluation, win share and simulations; the chosen card marked ▶."""

    DEFAULT_CSS = """
    DebugPanel {
        layer: overlay; dock: right; width: 64; max-width: 100%; height: 100%;
        background: $panel; border-left: tall $accent; padding: 0 1;
        display: none;
    }
    DebugPanel.visible { display: block; }
    DebugPanel #debug-body { width: 100%; height: auto; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.analysis: Analysis | None = None
        self.seat_name = ""
        self.message = NO_ANALYSIS
        self.note = ""
        """Shown above the analysis, e.g. why a seat has none."""
        self.border_title = "AI debug"

    def compose(self):
        yield Static(id="debug-body")

    def on_mount(self) -> None:
        self._redraw()

    def show_analysis(self, analysis: Analysis, seat_name: str) -> None:
        self.analysis, self.seat_name, self.note = analysis, seat_name, ""
        self._redraw()

    def show_note(self, note: str) -> None:
        """A line above the last analysis (or alone), e.g. 'East (random) reports no analysis'."""
        self.note = note
        self._redraw()

    def clear(self, message: str = "") -> None:
        self.analysis, self.note = None, ""
        self.message = message or NO_ANALYSIS
        self._redraw()

    def _redraw(self) -> None:
        if not self.is_mounted:
            return
        self.query_one("#debug-body", Static).update(self.render_body())

    def render_body(self) -> RenderableType:
        if self.analysis is None:
            return Text("\n".join(filter(None, (self.note, self.message))), style="dim")
        analysis = self.analysis
        table = Table(box=None, pad_edge=False, expand=False, show_edge=False, padding=(0, 1))
        table.add_column("")
        table.add_column("card")
        table.add_column("null: lost/won" if analysis.null_game else "scores 0‥120", no_wrap=True)
        for name in ("mean", "std", "eval", "win", "sims"):
            table.add_column(name, justify="right")
        stats_by_card = {s.card: s for s in analysis.cards}
        for card_label, hist, mean, std, ev, win, sims, chosen in analysis_rows(analysis):
            card = next(c for c in analysis.legal if c.unicode() == card_label)
            table.add_row(
                Text("▶", style="bold green") if chosen else "",
                card_text(card),
                Text(hist, style="cyan"),
                mean, std, ev, win, sims,
                style="bold" if chosen else ("dim" if card not in stats_by_card else ""),
            )
        heading = Text(describe_analysis(analysis, self.seat_name), style="bold")
        parts: list[RenderableType] = [heading, table]
        if self.note:
            parts.insert(0, Text(self.note, style="italic dim"))
        return Group(*parts)

    def plain(self) -> str:
        """The panel as text (tests)."""
        if self.analysis is None:
            return "\n".join(filter(None, (self.note, self.message)))
        lines = [self.note] if self.note else []
        lines += [describe_analysis(self.analysis, self.seat_name)]
        for card_label, hist, mean, std, ev, win, sims, chosen in analysis_rows(self.analysis):
            lines.append(f"{'▶' if chosen else ' '} {card_label:4} {hist} {mean} {std} {ev} {win} {sims}")
        return "\n".join(lines)
