"""One AI decision as a table: the debug panel's body and `skat analyze`'s report."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from engine.analysis import Analysis, CardStats
from engine.cards import cards_of
from engine.rules import SEAT_NAMES

from .widgets.cards import card_text, cards_text
from .widgets.table import describe_declaration

SPARK = " ▁▂▃▄▅▆▇█"


def sparkline(histogram: tuple[int, ...] | list[int]) -> str:
    """One bar per bucket, scaled to the tallest; an empty bucket is a space."""
    top = max(histogram, default=0)
    if top <= 0:
        return " " * len(histogram)
    return "".join(SPARK[0] if n == 0 else SPARK[max(1, round(n / top * (len(SPARK) - 1)))] for n in histogram)


def binary_outcomes(analysis: Analysis) -> bool:
    """Whether the outcomes are only won/lost (null, or PIMC with eval=wins): two buckets, no points."""
    return analysis.null_game or any(len(s.histogram) == 2 for s in analysis.cards)


def outcome_cell(histogram: tuple[int, ...] | list[int], binary: bool) -> str:
    """The histogram column: a sparkline of card points, or 'won/lost' counts."""
    if binary:
        lost, won = histogram
        return f"{won}/{lost}"
    return sparkline(histogram)


def measure_line(analysis: Analysis, mover: str, side: str) -> str:
    """What the numbers are about: always the mover's side (the analyzing player's own)."""
    whose = "your" if mover == "You" else f"{mover}'s"
    role = f" ({side})" if side else ""
    if binary_outcomes(analysis):
        return f"games won/lost by {whose} side{role}; mean = share won"
    return f"card points of {whose} side{role}"


def analysis_rows(analysis: Analysis, german: bool = False) -> list[tuple[str, str, str, str, str, str, str, bool]]:
    """Plain rows (card, histogram, mean, std, evaluation, win share, simulations, chosen)
    for every legal card, best evaluation first; cards not simulated yet show dashes."""
    rows = []
    binary = binary_outcomes(analysis)
    stats_by_card = {s.card: s for s in analysis.cards}
    ordered = sorted(analysis.legal, key=lambda c: -(stats_by_card[c].evaluation if c in stats_by_card
                                                     and stats_by_card[c].simulations else float("-inf")))
    for card in ordered:
        stats: CardStats | None = stats_by_card.get(card)
        chosen = analysis.chosen == card
        if stats is None or stats.simulations == 0:
            rows.append((card.unicode(german), "", "–", "–", "–", "–", "0", chosen))
            continue
        mean = f"{stats.mean:.2f}" if binary else f"{stats.mean:.1f}"
        rows.append((
            card.unicode(german), outcome_cell(stats.histogram, binary), mean, f"{stats.std:.1f}" if not binary
            else f"{stats.std:.2f}", f"{stats.evaluation:.2f}", f"{stats.win_share:.0%}", str(stats.simulations),
            chosen,
        ))
    return rows


def describe_analysis(analysis: Analysis, seat_name: str, german: bool = False) -> str:
    state = "final" if analysis.final else "thinking"
    limit = f" of {analysis.limit}" if analysis.limit else ""
    chosen = f" · chose {analysis.chosen.unicode(german)}" if analysis.final and analysis.chosen is not None else ""
    note = f" · {analysis.note}" if analysis.note else ""
    return (f"{seat_name} ({analysis.player}, {state}): {analysis.simulations} worlds, "
            f"{analysis.elapsed:.1f} s{limit}{chosen}{note}")


def analysis_table(analysis: Analysis, german: bool = False) -> Table:
    """Per legal card, best first: histogram of final scores, mean, std, evaluation,
    win share and simulations; the chosen card marked ▶."""
    table = Table(box=None, pad_edge=False, expand=False, show_edge=False, padding=(0, 1))
    table.add_column("")
    table.add_column("card")
    table.add_column("won/lost" if binary_outcomes(analysis) else "scores 0‥120", no_wrap=True)
    for name in ("mean", "std", "eval", "win", "sims"):
        table.add_column(name, justify="right")
    stats_by_card = {s.card: s for s in analysis.cards}
    for card_label, hist, mean, std, ev, win, sims, chosen in analysis_rows(analysis, german):
        card = next(c for c in analysis.legal if c.unicode(german) == card_label)
        table.add_row(
            Text("▶", style="bold green") if chosen else "",
            card_text(card, german),
            Text(hist, style="cyan"),
            mean, std, ev, win, sims,
            style="bold" if chosen else ("dim" if card not in stats_by_card else ""),
        )
    return table


def analysis_report(record, state, analysis: Analysis, trick: int, card: int, german: bool = False,
                    evaluation: str = "") -> Group:
    """`skat analyze` without --json: the position from the mover's view, then the table.
    No timing in it, so the same seed and budget print the same report."""
    seat = state.to_move
    names = record.players
    side = "declarer" if seat == state.declarer else "defender"

    def who(s: int) -> str:
        return f"{SEAT_NAMES[s]} ({names[s]})" if names[s] else SEAT_NAMES[s]

    # null is about tricks, suit and grand about card points
    what, counts = ("tricks", state.trick_counts) if analysis.null_game else ("points", state.points)
    lines = [
        Text(f"Record {record.id} · trick {trick}, card {card} · {who(seat)} to move, {side}", style="bold"),
        Text(f"{describe_declaration(state.declaration, german)}, declarer {who(state.declarer)}, bid {state.bid}"),
        Text("hand   ").append_text(cards_text(list(cards_of(state.hands[seat])), german)),
        Text("trick  ").append_text(cards_text(list(state.trick), german) if state.trick
                                    else Text("(leads)", style="dim")),
        Text(f"{what} so far: declarer {counts[state.declarer]}, "
             f"defenders {sum(counts) - counts[state.declarer]}"),
        Text(""),
    ]
    limit = f" (budget: {analysis.limit})" if analysis.limit else ""
    chosen = f", chose {analysis.chosen.unicode(german)}" if analysis.chosen is not None else ""
    note = f" · {analysis.note}" if analysis.note else ""
    evaluated = f", evaluation {evaluation}" if evaluation else ""
    player = analysis.player.partition(":")[0].upper()  # "mcu:eval=step": the parameters are shown apart
    lines.append(Text(f"{player}: {analysis.simulations} worlds{limit}{evaluated}{chosen}{note}", style="bold"))
    return Group(*lines, analysis_table(analysis, german))
