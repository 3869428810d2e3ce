"""The debug panel: what the AI thinks of each legal card, or of each game in the
bidding, skat, discard and declaration decisions, live."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from engine.analysis import Analysis

from engine.players.contract_analysis import ContractAnalysis

from ..analysis_table import (analysis_rows, analysis_table, contract_measure_line, contract_rows,
                              contract_table, describe_analysis, describe_contract, is_contract, measure_line,
                              sparkline)
from .belief_grid import BeliefGrid

__all__ = ["DebugPanel", "NO_ANALYSIS", "sparkline"]

NO_ANALYSIS = "No computer decision yet in this game. Press i for a hint in your own position."


class DebugPanel(VerticalScroll):
    """One row per legal card: histogram of final scores, mean, std,
    evaluation, win share and simulations; the chosen card marked ▶.  Before the
    card play one row per candidate game (with its discard after the skat is taken).

    On a wide screen (the table screen's ``-wide`` breakpoint class, see app.tcss)
    it is a side column beside the table; on a narrow one it floats over the table."""

    # the margin: over the table but not over the footer, which names the key that closes it
    DEFAULT_CSS = """
    DebugPanel {
        layer: overlay; dock: right; width: 64; max-width: 100%; height: 100%; margin-bottom: 1;
        background: $panel; border-left: tall $accent; padding: 0 1;
        display: none;
    }
    DebugPanel.visible { display: block; }
    DebugPanel #debug-body { width: 100%; height: auto; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.analysis: Analysis | ContractAnalysis | None = None
        self.seat_name = ""
        self.measure = ""
        """Whose outcomes the numbers are, e.g. "card points of West's side (defenders)"."""
        self.german = False
        self.message = NO_ANALYSIS
        self.note = ""
        """Shown above the analysis, e.g. why a seat has none."""
        self.border_title = "AI debug"
        self.place_names: tuple[str, str, str] | None = None
        self.hidden = ""
        """Under the analysis: what it leaves out (a computer's decision during a live game)."""

    def compose(self):
        yield Static(id="debug-body")
        yield BeliefGrid(id="debug-beliefs")

    def on_mount(self) -> None:
        self._redraw()

    def show_analysis(self, analysis: Analysis | ContractAnalysis, seat_name: str, german: bool = False,
                      mover: str = "", side: str = "", place_names: tuple[str, str, str] | None = None,
                      hidden: str = "") -> None:
        """``mover``: the name of the seat the analysis is for; ``side``: "declarer" or "defenders";
        ``place_names``: the seats' names, for the grid of what the player believes; ``hidden``:
        a line saying what the analysis leaves out."""
        self.analysis, self.seat_name, self.note, self.german = analysis, seat_name, "", german
        self.hidden = hidden
        self.measure = (contract_measure_line(analysis) if is_contract(analysis)
                        else measure_line(analysis, mover or seat_name, side))
        self.place_names = place_names
        self._redraw()

    def show_note(self, note: str) -> None:
        """A line above the last analysis (or alone), e.g. 'East (random) reports no analysis'.
        It ends the search: a 'thinking' message no longer applies (the placeholder stays)."""
        self.note = note
        if self.message != NO_ANALYSIS and not self.hidden:
            self.message = ""
        self._redraw()

    def show_summary(self, heading: str, hidden: str) -> None:
        """A decision told without its analysis: ``heading`` (who decided, how long), then
        ``hidden`` (why the rest is not shown)."""
        self.analysis, self.note, self.message, self.hidden = None, "", heading, hidden
        self._redraw()

    def clear(self, message: str = "") -> None:
        self.analysis, self.note, self.hidden = None, "", ""
        self.message = message or NO_ANALYSIS
        self._redraw()

    def _redraw(self) -> None:
        if not self.is_mounted:
            return
        self.query_one("#debug-body", Static).update(self.render_body())
        self.query_one(BeliefGrid).show(self.analysis.beliefs if self.analysis is not None else None,
                                        self.place_names, self.german,
                                        self.analysis.readings if self.analysis is not None else None)

    def render_body(self) -> RenderableType:
        if self.analysis is None:
            return Text("\n".join(filter(None, (self.note, self.message, self.hidden))), style="dim")
        analysis = self.analysis
        if is_contract(analysis):
            table = contract_table(analysis, self.german)
            heading = Text(describe_contract(analysis, self.seat_name, self.german), style="bold")
        else:
            table = analysis_table(analysis, self.german)
            heading = Text(describe_analysis(analysis, self.seat_name, self.german), style="bold")
        parts: list[RenderableType] = [heading, Text(self.measure, style="italic"), table]
        if self.hidden:
            parts.append(Text(self.hidden, style="dim"))
        if self.note:
            parts.insert(0, Text(self.note, style="italic dim"))
        return Group(*parts)

    def plain(self) -> str:
        """The panel as text (tests)."""
        if self.analysis is None:
            return "\n".join(filter(None, (self.note, self.message, self.hidden)))
        lines = [self.note] if self.note else []
        if is_contract(self.analysis):
            lines += [describe_contract(self.analysis, self.seat_name, self.german), self.measure]
            lines += [" ".join(filter(None, row)) for row in contract_rows(self.analysis, self.german)]
            return "\n".join(lines)
        lines += [describe_analysis(self.analysis, self.seat_name, self.german), self.measure]
        for card_label, hist, mean, std, ev, win, sims, chosen in analysis_rows(self.analysis, self.german):
            lines.append(f"{'▶' if chosen else ' '} {card_label:4} {hist} {mean} {std} {ev} {win} {sims}")
        if self.hidden:
            lines.append(self.hidden)
        return "\n".join(lines)
