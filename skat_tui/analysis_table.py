"""One AI decision as a table: the debug panel's body and `skat analyze`'s report
(a card decision, or a bidding, skat, discard or declaration decision)."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from dataclasses import replace

from engine.analysis import Analysis, CardStats
from engine.cards import CardSet, Mask, cards_of
from engine.players.contract_analysis import ContractAnalysis, ContractCandidate
from engine.rules import SEAT_NAMES

from .widgets.cards import card_text, cards_text

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
            f"{analysis.elapsed:.1f} s{limit}{tree_words(analysis)}{chosen}{note}")


def tree_words(analysis: Analysis) -> str:
    """A tree search's size (MCTS), for the line above its table; empty for the other players."""
    if analysis.tree_nodes is None:
        return ""
    return f" · tree {analysis.tree_nodes:,} nodes, {analysis.tree_depth} deep"


HIDDEN_LINE = ("Its hand, the cards it weighed, its discard and its bidding limit stay hidden until the game "
               "ends; the grid places only your own cards (settings: show computers' cards).")
"""Under a computer's card decision during a live game, the panel's fair view."""
CONTRACT_HIDDEN_LINE = ("Its hand, the games it weighed, its discard and its bidding limit stay hidden until the "
                        "game ends (settings: show computers' cards).")
"""Under a computer's bidding, skat, discard or declaration decision during a live game."""


def fair_analysis(analysis: Analysis, played: bool, own_cards: Mask) -> Analysis:
    """A computer's card decision as far as the human seat may know it during the game: the
    card it played (once it is on the table) with its figures, and its beliefs only about the
    human's own cards.  Its legal cards would name its hand, a belief about any other card
    (or the absence of one: a card it holds) would place a hidden card, and its note may
    speak of its hand, so none of them is shown."""
    chosen = analysis.chosen if played else None
    beliefs = analysis.beliefs
    if beliefs is not None:
        beliefs = tuple(row for row in beliefs if own_cards >> int(row[0]) & 1)
    return replace(analysis, legal=(chosen,) if chosen is not None else (),
                   cards=tuple(s for s in analysis.cards if s.card == chosen), chosen=chosen, note="",
                   beliefs=beliefs)


def fair_contract_line(analysis: ContractAnalysis, seat_name: str) -> str:
    """A computer's bidding, skat, discard or declaration decision during a live game: only
    that it decides and how long it searched; what it said or declared is on the table."""
    state = "final" if analysis.final else "thinking"
    worlds = f"{analysis.simulations} worlds, " if analysis.simulations else ""
    return (f"{seat_name} ({analysis.player}, {state}): {PHASE_WORDS.get(analysis.phase, analysis.phase)} · "
            f"{worlds}{analysis.elapsed:.1f} s")


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

    if state.is_ramsch:  # no declarer: each player's own card points
        side = "Ramsch, every player for himself"
        game_line = Text(f"Ramsch{f', pushed {state.pushes}×' if state.pushes else ''}")
        so_far = Text("points so far: " + ", ".join(f"{who(s)} {state.points[s]}" for s in range(3)))
    else:
        game_line = Text(f"{state.declaration.describe(german)}, declarer {who(state.declarer)}, "
                         f"bid {state.bid}")
        # null is about tricks, suit and grand about card points
        what, counts = ("tricks", state.trick_counts) if analysis.null_game else ("points", state.points)
        so_far = Text(f"{what} so far: declarer {counts[state.declarer]}, "
                      f"defenders {sum(counts) - counts[state.declarer]}")
    lines = [
        Text(f"Record {record.id} · trick {trick}, card {card} · {who(seat)} to move, {side}", style="bold"),
        game_line,
        Text("hand   ").append_text(cards_text(list(cards_of(state.hands[seat])), german)),
        Text("trick  ").append_text(cards_text(list(state.trick), german) if state.trick
                                    else Text("(leads)", style="dim")),
        so_far,
        Text(""),
    ]
    limit = f" (budget: {analysis.limit})" if analysis.limit else ""
    chosen = f", chose {analysis.chosen.unicode(german)}" if analysis.chosen is not None else ""
    note = f" · {analysis.note}" if analysis.note else ""
    evaluated = f", evaluation {evaluation}" if evaluation else ""
    player = analysis.player.partition(":")[0].upper()  # "mcu:eval=step": the parameters are shown apart
    lines.append(Text(f"{player}: {analysis.simulations} worlds{limit}{evaluated}{tree_words(analysis)}{chosen}{note}",
                      style="bold"))
    return Group(*lines, analysis_table(analysis, german))


# ---------------------------------------------------------------- contract decisions

PHASE_WORDS = {"bidding": "bidding", "skat": "skat or hand", "discard": "discard", "declare": "declaration"}


def is_contract(analysis) -> bool:
    """Whether ``analysis`` is of a bidding, skat, discard or declaration decision."""
    return isinstance(analysis, ContractAnalysis)


def candidate_label(candidate: ContractCandidate, german: bool = False) -> str:
    if candidate.declaration is None:
        return "Skat" if german else "take the skat"
    return candidate.declaration.describe(german)


def contract_verdict(analysis: ContractAnalysis, german: bool = False) -> str:
    """What the analysis comes to, e.g. 'bidding at 20: goes up to 36'."""
    chosen = analysis.chosen
    what = f"{PHASE_WORDS.get(analysis.phase, analysis.phase)} at {analysis.bid}"
    if analysis.phase == "bidding":
        limit = analysis.bid_limit or 0
        if analysis.passes:
            return f"{what}: passes" + (f" (goes up to {limit})" if limit else "")
        return f"{what}: goes up to {limit}" + (f" for {candidate_label(chosen, german)}" if chosen else "")
    if chosen is None:
        return what
    if chosen.discard is not None and analysis.phase == "discard":
        cards = CardSet(chosen.discard).unicode(german)
        return f"{what}: puts away {cards} for {candidate_label(chosen, german)}"
    if chosen.declaration is None:
        return f"{what}: takes the skat"
    return f"{what}: declares {candidate_label(chosen, german)}"


def describe_contract(analysis: ContractAnalysis, seat_name: str, german: bool = False) -> str:
    """The heading: who, how far the search is, and what it comes to."""
    if analysis.simulations == 0 and not any(c.simulations for c in analysis.candidates):
        return f"{seat_name} ({analysis.player}): hand estimates, no worlds · {contract_verdict(analysis, german)}"
    state = "final" if analysis.final else "thinking"
    limit = f" of {analysis.limit}" if analysis.limit else ""
    verdict = f" · {contract_verdict(analysis, german)}" if analysis.final else ""
    return (f"{seat_name} ({analysis.player}, {state}): {analysis.simulations} worlds, "
            f"{analysis.elapsed:.1f} s{limit}{verdict}")


def contract_measure_line(analysis: ContractAnalysis) -> str:
    """What the columns are, "exp" in words (the two ways count the defenders' 40s differently:
    engine.policy.hand_eval.expected_score, engine.players.bidding); the heuristic's reason
    instead of the histogram's."""
    note = f" · {analysis.note}" if analysis.note else ""
    if not any(c.simulations for c in analysis.candidates):
        return ("estimated win chance; exp: expected Seeger-Fabian score (won: value + 50; lost: −2 × value − 50 "
                f"and 40 to each defender){note}")
    return (f"declarer's card points ≤30 ≤60 ≤89 ≥90; exp: expected Seeger-Fabian score at {analysis.bid} "
            f"against a rival (won: value + 50; lost: −2 × value − 50 and the defender's 40){note}")


def contract_rows(analysis: ContractAnalysis, german: bool = False) -> list[tuple[str, ...]]:
    """Plain rows (chosen mark, game, put away, points, win, schneider, expected, worlds),
    best expected score first."""
    searched = any(c.simulations for c in analysis.candidates)
    rows = []
    for c in sorted(analysis.candidates, key=lambda c: -c.expected):
        rows.append(("▶" if c.chosen else "", candidate_label(c, german),
                     CardSet(c.discard).unicode(german) if c.discard else "",
                     sparkline(c.histogram) if searched else "", f"{c.win_share:.0%}",
                     f"{c.schneider_share:.0%}" if searched else "", f"{c.expected:.1f}",
                     str(c.simulations) if searched else ""))
    return rows


def contract_table(analysis: ContractAnalysis, german: bool = False) -> Table:
    """Per candidate, best expected score first: the game (and discard), the declarer's
    card points, win and schneider shares, expected score and worlds; the chosen one ▶."""
    searched = any(c.simulations for c in analysis.candidates)
    with_discard = any(c.discard for c in analysis.candidates)
    table = Table(box=None, pad_edge=False, expand=False, show_edge=False, padding=(0, 1))
    table.add_column("")
    table.add_column("game")
    if with_discard:
        table.add_column("put away", no_wrap=True)
    if searched:
        table.add_column("points", no_wrap=True)
    table.add_column("win", justify="right")
    if searched:
        table.add_column("schn", justify="right")
    table.add_column("exp", justify="right")
    if searched:
        table.add_column("sims", justify="right")
    for c, (mark, game, _, points, win, schneider, expected, sims) in zip(
            sorted(analysis.candidates, key=lambda c: -c.expected), contract_rows(analysis, german)):
        cells: list = [Text(mark, style="bold green"), game]
        if with_discard:
            cells.append(cards_text(list(cards_of(c.discard)), german) if c.discard else "")
        if searched:
            cells.append(Text(points, style="cyan"))
        cells.append(win)
        if searched:
            cells.append(schneider)
        cells.append(expected)
        if searched:
            cells.append(sims)
        table.add_row(*cells, style="bold" if c.chosen else "")
    return table


def contract_report(record, state, analysis: ContractAnalysis, move: int | None, german: bool = False) -> Group:
    """`skat analyze --move` before the card play: the position from the mover's view, then
    the candidates.  No timing in it, so the same seed and budget print the same report."""
    from .widgets.table import bidding_lines

    seat = state.to_move
    names = record.players

    def who(s: int) -> str:
        return f"{SEAT_NAMES[s]} ({names[s]})" if names[s] else SEAT_NAMES[s]

    said = bidding_lines(state, tuple(SEAT_NAMES[s] for s in range(3)))
    where = f"move {move}" if move is not None else "position"
    lines = [
        Text(f"Record {record.id} · {where}: {PHASE_WORDS.get(analysis.phase, analysis.phase)} · "
             f"{who(seat)} to move", style="bold"),
        Text("hand   ").append_text(cards_text(list(cards_of(state.hands[seat])), german)),
        Text(f"said   {', '.join(said) if said else '(nothing yet)'}"),
    ]
    if state.phase.value == "declare":
        lines.append(Text("put away ").append_text(cards_text(list(cards_of(state.discard)), german)))
    lines.append(Text(""))
    limit = f" (budget: {analysis.limit})" if analysis.limit else ""
    player = analysis.player.partition(":")[0].upper()
    worlds = f"{analysis.simulations} worlds" if analysis.simulations else "hand estimates, no worlds"
    lines.append(Text(f"{player}: {worlds}{limit} · {contract_verdict(analysis, german)}", style="bold"))
    lines.append(Text(contract_measure_line(analysis), style="italic"))
    return Group(*lines, contract_table(analysis, german))
