"""The course of a reviewed game in the replay: the declarer's winning chance after
every card (from the mover's view as bars, the declarer's and the defenders' in two
colours; double-dummy as a green (won) or red (lost) strip), each card's mark, and where
the replay stands."""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget

from engine.review import BLUNDER, MISTAKE, ONLY_CARD, ContractReview, DecisionReview, GameReview

BARS = " ▁▂▃▄▅▆▇█"
BAR_ROWS = 3
COMPACT_BELOW = 32
"""Terminal lines under which the plot is compact: the table needs its rows for the trick."""
LABEL_WIDTH = 11
DECLARER_VIEW, DEFENDER_VIEW = "cyan", "magenta"
MARK_STYLES = {BLUNDER: "bold white on red", MISTAKE: "bold black on yellow", ONLY_CARD: "bold black on green"}


def view_chances(review: GameReview) -> list[float | None]:
    """Per card, the declarer's chance from the mover's view; a forced card keeps the one before."""
    out: list[float | None] = []
    last: float | None = None
    for d in review.decisions:
        if d.declarer_view_after is not None:
            last = d.declarer_view_after
        out.append(last)
    return out


def _bar_cell(chance: float | None, row: int) -> str:
    """The character of a bar ``chance`` (0..1) high in row ``row`` (0 = top of BAR_ROWS)."""
    if chance is None:
        return " "
    eighths = round(chance * BAR_ROWS * 8)
    below = (BAR_ROWS - 1 - row) * 8
    return BARS[max(0, min(8, eighths - below))]


def course_lines(review: GameReview, position: int | None, width: int, compact: bool = False) -> list[Text]:
    """The plot as lines: chance bars (BAR_ROWS high), the double-dummy strip, the marks,
    and a ▲ under the card the replay has just shown (``position``: moves applied).
    ``compact`` (a short terminal, so the table keeps room for the trick): one row of bars on
    the double-dummy outcome's colour instead of the bars and the strip."""
    if compact and not review.ramsch and review.decisions:
        full = course_lines(review, position, width)
        return [compact_bars(review, width), *full[BAR_ROWS + 1:]]
    decisions = review.decisions
    cell = 2 if LABEL_WIDTH + 2 * len(decisions) <= width else 1
    chances = view_chances(review)
    lines = []
    if review.ramsch:  # no declarer, no chances: the marks alone (from the paranoid double-dummy values)
        lines.append(Text("Ramsch: marks by card points given away double-dummy; no own view", style="dim"))
        chances, decisions_with_bars = [], []
    else:
        decisions_with_bars = decisions
    labels = [Text("decl. 100%".rjust(LABEL_WIDTH - 1) + " ", style="dim"),
              Text.assemble(" " * (LABEL_WIDTH - 9), ("decl", DECLARER_VIEW), "/", ("def", DEFENDER_VIEW), " "),
              Text("0%".rjust(LABEL_WIDTH - 1) + " ", style="dim")]
    for row in range(BAR_ROWS if decisions_with_bars else 0):
        line = labels[row].copy()
        for d, chance in zip(decisions, chances):
            # whose view: the declarer's own bars and the defenders' differ most before the cards are known
            line.append(_bar_cell(chance, row) * cell, style=DECLARER_VIEW if d.declarer_side else DEFENDER_VIEW)
        lines.append(line)
    if decisions_with_bars:
        strip = Text("DD".rjust(LABEL_WIDTH - 1) + " ", style="dim")
        for d in decisions:
            strip.append("▀" * cell, style="green" if d.declarer_dd_after else "red")
        lines.append(strip)
    marks = Text("marks".rjust(LABEL_WIDTH - 1) + " ", style="dim")
    for d in decisions:
        text = d.mark if cell == 2 else d.mark[:1]
        marks.append(text.ljust(cell), style=MARK_STYLES.get(d.mark, ""))
    lines.append(marks)
    cursor = Text(" " * LABEL_WIDTH)
    current = current_index(review, position)
    if current is not None:
        cursor.append(" " * (current * cell) + "▲")
    lines.append(cursor)
    return lines


def compact_bars(review: GameReview, width: int) -> Text:
    """One row: each card's bar (the declarer's chance from the mover's view, in the side's
    colour) on a green (won) or red (lost) double-dummy background."""
    decisions = review.decisions
    cell = 2 if LABEL_WIDTH + 2 * len(decisions) <= width else 1
    line = Text.assemble(" " * (LABEL_WIDTH - 9), ("decl", DECLARER_VIEW), "/", ("def", DEFENDER_VIEW), " ")
    for d, chance in zip(decisions, view_chances(review)):
        bar = " " if chance is None else BARS[max(1, round(chance * 8))]
        line.append(bar * cell, style=f"{DECLARER_VIEW if d.declarer_side else DEFENDER_VIEW} on "
                                      f"{'dark_green' if d.declarer_dd_after else 'dark_red'}")
    return line


def current_index(review: GameReview, position: int | None) -> int | None:
    """Index of the last card played at ``position`` (moves applied), or None before the first."""
    if position is None:
        return None
    index = None
    for i, d in enumerate(review.decisions):
        if d.move < position:
            index = i
    return index


def accuracy_line(review: GameReview) -> Text:
    """'Accuracy: Ann 80% (1 ??) · Bob 100% · Cid 92% (1 ?)'; a Ramsch, which has no accuracy
    (no declarer's chance to keep), counts the marks: 'Marks: Ann 1 ?? · Bob none · Cid none'."""
    text = Text("Marks: " if review.ramsch else "Accuracy: ", style="bold")
    first = True
    for s in review.summaries():
        if s.choices == 0:
            continue
        if not first:
            text.append(" · ")
        first = False
        counts = [f"{n} {m}" for n, m in ((s.blunders, BLUNDER), (s.mistakes, MISTAKE), (s.only_cards, ONLY_CARD))
                  if n]
        if review.ramsch or s.accuracy is None:
            text.append(f"{s.name} {', '.join(counts) or 'none'}")
            continue
        text.append(f"{s.name} {s.accuracy:.0f}%")
        if counts:
            text.append(f" ({', '.join(counts)})")
    if first:
        text.append("no cards were played")
    return text


LEGEND = Text("bars: declarer's chance, mover's view · DD: all hands open, green won · ? ??", style="dim")
COMPACT_LEGEND = Text("bars: declarer's chance, mover's view · background: all hands open, green won",
                      style="dim")
"""What the plot's codes mean (the compact plot draws double dummy as the bars' background)."""


def decision_note(d: DecisionReview, german: bool = False) -> str:
    """One card's review for the status line, in words, each figure with its view: the mover's
    own view (the search over the worlds it could not tell apart) and all hands open (double
    dummy), e.g. '?? own view: −15 pts −100%, best ♥J · open hands: 47 lost, ♥J 62 won'."""
    from engine.cards import Card

    def name(card: str) -> str:
        return Card.from_str(card).unicode(german)

    if d.forced:
        return "forced"
    mine = d.chosen_value
    mark = f"{d.mark} " if d.mark else ""
    if d.ramsch:  # his own card points, paranoid: fewer is better
        best = min(d.cards, key=lambda c: c.dd_points)
        text = f"{mark}open hands: {mine.dd_points} own card points"
        return text + (f", {name(best.card)} {best.dd_points}" if d.dd_loss_points else " (as good as the best)")
    losses = []
    if d.view_loss_points is not None and d.view_loss_points >= 0.5:
        losses.append(f"−{d.view_loss_points:.0f} pts")
    if d.view_loss_win is not None and d.view_loss_win >= 0.005:
        losses.append(f"−{100 * d.view_loss_win:.0f}%")
    searched = [c for c in d.cards if c.view_win is not None]
    if searched and losses:
        best = max(searched, key=lambda c: (c.view_points or 0.0, c.view_win))
        own = f"own view: {' '.join(losses)}, best {name(best.card)}"
    else:
        own = "own view: as good as the best"

    def outcome(value) -> str:
        points = f"{value.dd_points} " if value.dd_points is not None else ""
        return f"{points}{'won' if value.dd_won else 'lost'}"

    dd = f"open hands: {outcome(mine)}"
    best_dd = max(d.cards, key=lambda c: (c.dd_won, c.dd_points or 0))
    if (best_dd.dd_won, best_dd.dd_points) != (mine.dd_won, mine.dd_points):
        dd += f", {name(best_dd.card)} {outcome(best_dd)}"
    return f"{mark}{own} · {dd}"


def contract_note(c: ContractReview, german: bool = False) -> str:
    """A contract decision's review: '?? −302 expected score (best grand · ♠Q ♣8 +100)'."""
    from engine.cards import Card

    if c.chosen_index is None:
        return "· not among the options the search bidder values"
    mine = c.options[c.chosen_index]
    text = f"{c.mark} " if c.mark else ""
    text += f"{mine.expected:+.0f} expected score"
    best = max(c.options, key=lambda o: o.expected)
    if c.loss:
        name = best.name
        if best.discard:
            name += " · " + " ".join(Card.from_str(card).unicode(german) for card in best.discard.split("."))
        text += f", −{c.loss:.0f} (best {name} {best.expected:+.0f})"
    return text


class ReviewPlot(Widget):
    """The review of the game in the replay; hidden while the game has none."""

    DEFAULT_CSS = """
    ReviewPlot {
        height: auto;
        padding: 0 1;
        display: none;
    }
    ReviewPlot.-shown {
        display: block;
    }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.review: GameReview | None = None
        self.position: int | None = None
        self.progress: str = ""

    def show(self, review: GameReview | None, position: int | None) -> None:
        self.review = review
        self.position = position
        self.set_class(review is not None or bool(self.progress), "-shown")
        self.refresh(layout=True)

    def show_progress(self, text: str) -> None:
        """'reviewing… 12/30 cards' while a review is computed ('' when done)."""
        self.progress = text
        self.set_class(self.review is not None or bool(text), "-shown")
        self.refresh(layout=True)

    def lines(self) -> list[Text]:
        if self.review is None:
            return [Text(self.progress)] if self.progress else []
        width = max(40, self.size.width - 2) if self.size.width else 80
        compact = self.app.size.height < COMPACT_BELOW
        lines = [accuracy_line(self.review)]
        if self.review.decisions:
            if not self.review.ramsch:
                lines.append(COMPACT_LEGEND if compact else LEGEND)
            lines += course_lines(self.review, self.position, width, compact)
        if self.progress:
            lines.append(Text(self.progress))
        return lines

    def plain(self) -> str:
        return "\n".join(line.plain for line in self.lines())

    def get_content_height(self, container, viewport, width: int) -> int:
        return len(self.lines())

    def render(self) -> Text:
        return Text("\n").join(self.lines())
