"""What the thinking player believes: where each card it cannot see is.

A 4 × 8 grid of suits and ranks (the debug panel's lower part).  Each hidden
card shows the initial of its likeliest place, in that place's colour, the
stronger the likelier; cards the player sees are dots.  ``n`` (with the grid
focused) or a click shows the probabilities in per cent instead: the
likeliest place's first, then the others.  Under the grid, with the inference
sampler: how it reads each other seat's card play (like the heuristic or like
a searching program).
"""

from __future__ import annotations

from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from engine.cards import Card, Rank, Suit
from engine.rules import SEAT_TITLES

PLACE_COLOURS = ("#e5c07b", "#61afef", "#e06c75", "#98c379")
"""Seats 0-2 and the skat."""
SUITS = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)
RANKS = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE, Rank.EIGHT, Rank.SEVEN)


class BeliefGrid(Static, can_focus=True):
    """The beliefs of an ``Analysis`` (``Analysis.beliefs``), or nothing when it has none."""

    BINDINGS = [("n", "toggle_numbers", "numbers")]

    DEFAULT_CSS = """
    BeliefGrid { width: 100%; height: auto; margin-top: 1; }
    BeliefGrid:focus { background: $boost; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.rows: dict[int, tuple[float, float, float, float]] = {}
        self.place_names: tuple[str, str, str, str] = (*SEAT_TITLES, "Skat")
        self.numbers = False
        self.german = False
        self.readings: tuple[tuple[int, float], ...] = ()

    def show(self, beliefs, place_names: tuple[str, str, str] | None = None, german: bool = False,
             readings=None) -> None:
        """``beliefs``: (card, p0, p1, p2, p_skat) rows, or None to show nothing; ``readings``:
        (seat, chance it plays like a searching program) pairs (``Analysis.readings``)."""
        self.rows = {int(card): tuple(p) for card, *p in beliefs or ()}
        self.readings = tuple(readings or ())
        if place_names is not None:
            self.place_names = (*place_names, "Skat")
        self.german = german
        self.display = bool(self.rows)
        self.update(self.render_grid())

    def action_toggle_numbers(self) -> None:
        self.numbers = not self.numbers
        self.update(self.render_grid())

    def on_click(self) -> None:
        self.action_toggle_numbers()

    def _label(self, rank: Rank) -> str:
        return rank.german_label if self.german else rank.label

    def _cell(self, card: int) -> Text:
        places = self.rows.get(card)
        if places is None:
            return Text("·", style="dim")
        order = sorted(range(4), key=lambda p: -places[p])
        top = order[0]
        if self.numbers:
            parts = [f"{self.place_names[p][0]}{round(100 * places[p])}" for p in order if places[p] >= 0.005]
            return Text(" ".join(parts[:2]), style=Style(color=PLACE_COLOURS[top]))
        strength = places[top]
        return Text(self.place_names[top][0], style=Style(color=PLACE_COLOURS[top], bold=strength >= 0.8,
                                                          dim=strength < 0.5))

    def render_grid(self):
        if not self.rows:
            return Text("")
        grid = Table.grid(padding=(0, 1))
        grid.add_column()
        for _ in RANKS:
            grid.add_column(justify="center")
        grid.add_row(Text(""), *(Text(self._label(r), style="bold") for r in RANKS))
        for suit in SUITS:
            grid.add_row(Text(suit.symbol), *(self._cell(Card.make(suit, r)) for r in RANKS))
        key = Text("Believed places: ")
        for place, name in enumerate(self.place_names):
            key.append(f"{name[0]} {name}  ", style=Style(color=PLACE_COLOURS[place]))
        hint = Text("bold ≥ 80 %, dim < 50 %; n or click: per cent" if not self.numbers else
                    "per cent, likeliest first; n or click: initials", style="dim italic")
        from rich.console import Group

        parts = [key, grid, hint]
        if self.readings:
            parts.append(self.reading_line())
        return Group(*parts)

    def reading_line(self) -> Text:
        """How the inference sampler reads each seat's cards, e.g. "Cards read as a program's:
        Middlehand 75 %, Rearhand 16 %"."""
        line = Text("Cards read as a program's (not the heuristic's): ", style="dim")
        for index, (seat, chance) in enumerate(self.readings):
            if index:
                line.append(", ", style="dim")
            line.append(f"{self.place_names[seat]} {round(100 * chance)} %", style=Style(color=PLACE_COLOURS[seat]))
        return line

    def plain(self) -> str:
        """The grid as text (tests): one line per suit."""
        lines = []
        for suit in SUITS:
            lines.append(suit.symbol + " " + " | ".join(self._cell(Card.make(suit, r)).plain or "·" for r in RANKS))
        return "\n".join(lines)
