"""`skat solve`: double-dummy values of recorded positions."""

from __future__ import annotations

import json
import sys
import time


def run(path: str, trick: int, threshold: int | None, as_json: bool = False, german: bool = False) -> int:
    from engine.cards import Card
    from engine.dds.solver import solve, solve_threshold
    from engine.positions import ramsch_solve, solver_position, state_at_trick
    from engine.record import read_records

    if trick < 1 or trick > 10:
        print("skat solve: --trick must be 1..10", file=sys.stderr)
        return 2
    records, errors = read_records(path)
    for err in errors:
        print(f"{path}: {err}", file=sys.stderr)
    failed = len(errors)
    from engine.tools.warmup import SOLVER, warm_up

    warm_up(SOLVER)  # load the compiled core first, so that "ms" is the solve alone
    for record in records:
        try:
            state = state_at_trick(record, trick)
            if state.is_ramsch and threshold is not None:
                raise ValueError("a Ramsch has no declarer to reach a threshold: solve it without --threshold")
            pos = None if state.is_ramsch else solver_position(state)
        except ValueError as exc:
            failed += 1
            print(f"{path}: line {record.line}, record {record.id}: {exc}", file=sys.stderr)
            continue
        start = time.perf_counter()
        if pos is None:
            res = ramsch_solve(state)
        else:
            res = solve(pos) if threshold is None else solve_threshold(pos, threshold)
        ms = (time.perf_counter() - start) * 1000
        if as_json:
            print(json.dumps({
                "id": record.id,
                "trick": trick,
                **({"game": "ramsch"} if pos is None else {}),
                "to_move": state.to_move,
                "value": res.value,
                "per_card": {str(Card(c)): v for c, v in sorted(res.per_card.items())},
                "nodes": res.nodes,
                "ms": round(ms, 3),
            }))
        else:
            print("\n".join(solve_report(record.id, state, trick, threshold, res, ms, german)) + "\n")
    return 1 if failed else 0


def solve_report(record_id: str, state, trick: int, threshold: int | None, res, ms: float,
                 german: bool = False) -> list[str]:
    """``skat solve``'s readable block for one record: the position, the value, one line per card
    (▶ marks the cards that keep the value for the side to move)."""
    from engine.cards import Card
    from engine.rules import SEAT_NAMES, sorted_cards

    if state.is_ramsch:
        lines = [f"Record {record_id} · trick {trick} · Ramsch · {SEAT_NAMES[state.to_move]} to move, "
                 f"both others against him",
                 f"best play: he ends with {res.value} card points (the skat with the last trick)",
                 "    card  his card points"]
        for card in sorted_cards(sum(1 << c for c in res.per_card), state.game):
            value = res.per_card[card]
            lines.append(f"  {'▶' if value == res.value else ' '} {Card(card).unicode(german):<5} {value}")
        lines.append(f"  {res.nodes:,} nodes, {ms:.1f} ms")
        return lines
    if state.declaration.game.name == "NULL":
        heading, worth = "declarer", lambda v: f"{'wins' if v else 'loses'} ({v})"
        best = worth
    elif threshold is not None:
        heading, worth = f"reaches {threshold}?", lambda v: f"{'yes' if v else 'no'} ({v})"
        best = lambda v: f"reaches {threshold}? {worth(v)}"  # noqa: E731
    else:
        heading, worth = "declarer's card points", str
        best = lambda v: f"ends with {v} card points"  # noqa: E731
    side = "declarer" if state.to_move == state.declarer else "defenders"
    lines = [f"Record {record_id} · trick {trick} · {state.declaration.describe(german)}, declarer "
             f"{SEAT_NAMES[state.declarer]} · {SEAT_NAMES[state.to_move]} to move ({side})",
             f"best play: the declarer {best(res.value)}",
             f"    card  {heading}"]
    for card in sorted_cards(sum(1 << c for c in res.per_card), state.declaration.game):
        value = res.per_card[card]
        lines.append(f"  {'▶' if value == res.value else ' '} {Card(card).unicode(german):<5} {worth(value)}")
    lines.append(f"  {res.nodes:,} nodes, {ms:.1f} ms")
    return lines
