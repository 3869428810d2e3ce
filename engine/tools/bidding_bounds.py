"""Where better bidding could gain, read from the games of a tournament.

    python3 -m engine.tools.bidding_bounds DIR

DIR is a tournament's folder (``skat tournament --out DIR``; its ``journal.jsonl``,
which a running or stopped tournament already has).  Two figures per player:

- **Passing every lost game**: the paired differences against the other players if
  the player had passed exactly the games it lost as declarer (every seat scoring 0
  there).  No bidder can gain more by passing alone: it bounds what a veto on the
  player's bidding can be worth.
- **By hand and auction**: the player's declared games grouped by the heuristic's win
  chance of its best game worth the final bid (``hand_eval``: with the skat or hand)
  and by how far the other two bid (nobody bid or held; below the heuristic's limit
  for the declarer's hand; at it or above).  Per group the games, the won share and
  the mean relative Seeger-Fabian points (the declarer's points minus the mean of the
  other two's, what a paired tournament compares).  Passing every group whose mean is
  below zero would gain the sum of those means, a generous bound: a pass then scores 0
  for everyone, although a rival who bid would often play and win the game instead.
"""

from __future__ import annotations

import argparse
import dataclasses
from collections import defaultdict
from pathlib import Path

from ..game import Bid, Hold
from ..players import hand_eval
from ..record import parse_record
from ..tournament import GameOutcome, read_journal, summarize

AUCTIONS = ("uncontested", "below its limit", "at its limit")
"""How far the other two seats bid or held, against the declarer's heuristic limit."""


def passing_lost_games(outcomes: list[GameOutcome], spec: int) -> list[GameOutcome]:
    """The outcomes with every game ``spec`` lost as declarer scored 0 for all seats."""
    out = []
    for outcome in outcomes:
        if any(seat.spec == spec and seat.declarer_lost for seat in outcome.seats):
            outcome = dataclasses.replace(
                outcome, seats=[dataclasses.replace(seat, seeger_fabian=0, score=0, declarer_lost=0)
                                for seat in outcome.seats])
        out.append(outcome)
    return out


@dataclasses.dataclass
class Cell:
    games: int = 0
    won: int = 0
    relative: float = 0.0
    """Sum of the declarer's Seeger-Fabian points minus the mean of the other two's."""


def declared_games(outcomes: list[GameOutcome], spec: int) -> dict[tuple[float, str], Cell]:
    """``spec``'s declared games by (chance bin, auction): the bin is the heuristic's win chance
    of the declarer's best game worth the final bid, rounded down to a tenth."""
    cells: dict[tuple[float, str], Cell] = defaultdict(Cell)
    for outcome in outcomes:
        declarers = [i for i, seat in enumerate(outcome.seats) if seat.declarer_won or seat.declarer_lost]
        if not declarers or outcome.seats[declarers[0]].spec != spec:
            continue
        seat_index = declarers[0]
        record = parse_record(outcome.record)
        state = record.state_at(None)
        declarer = state.declarer
        hand = record.deal.hands[declarer]
        chance = max((o.chance for o in (*hand_eval.skat_options(hand, declarer),
                                         *hand_eval.hand_options(hand, declarer)) if o.value >= state.bid),
                     default=0.0)
        others = _others_highest(state, declarer)
        if others == 0:
            auction = AUCTIONS[0]
        elif others < hand_eval.bid_limit(hand, declarer):
            auction = AUCTIONS[1]
        else:
            auction = AUCTIONS[2]
        points = [seat.seeger_fabian for seat in outcome.seats]
        own = points[seat_index]
        cell = cells[(min(int(chance * 10), 9) / 10, auction)]
        cell.games += 1
        cell.won += outcome.seats[seat_index].declarer_won
        cell.relative += own - (sum(points) - own) / 2
    return cells


def _others_highest(state, declarer: int) -> int:
    """The highest value the two other seats bid or held (0: neither did)."""
    highest = current = 0
    for seat, move in state.bid_history:
        if isinstance(move, Bid):
            current = move.value
        if isinstance(move, (Bid, Hold)) and seat != declarer:
            highest = max(highest, current)
    return highest


def report(folder: str | Path) -> str:
    journal = read_journal(folder)
    specs = list(dict.fromkeys(journal.specs))
    outcomes = journal.outcomes
    games = len(outcomes)
    lines = [f"{folder}: {len({o.deal_index for o in outcomes}):,} deals, {games:,} games", ""]
    _, pairs = summarize(journal.specs, outcomes)
    for index, spec in enumerate(specs):
        if not any(seat.spec == index and seat.declarer_lost for o in outcomes for seat in o.seats):
            continue
        lines.append(f"## {spec}")
        _, oracle = summarize(journal.specs, passing_lost_games(outcomes, index))
        for played, bound in zip(pairs, oracle):
            if spec not in (played["a"], played["b"]):
                continue
            sign = 1 if played["a"] == spec else -1
            rival = played["b"] if sign == 1 else played["a"]
            lines.append(f"against {rival}: as played {sign * played['seeger_fabian_per_game_difference']:+.1f} ± "
                         f"{played['ci95']:.1f}, passing every lost game "
                         f"{sign * bound['seeger_fabian_per_game_difference']:+.1f} ± {bound['ci95']:.1f} "
                         f"SF points per game")
        cells = declared_games(outcomes, index)
        lines += ["", "| chance | auction | games | won | relative SF per game |", "| ---: | --- | ---: | ---: | ---: |"]
        gain = 0.0
        for key in sorted(cells, key=lambda k: (k[0], AUCTIONS.index(k[1]))):
            cell = cells[key]
            lines.append(f"| {key[0]:.1f} | {key[1]} | {cell.games:,} | {cell.won / cell.games:.1%} | "
                         f"{cell.relative / cell.games:+.1f} |")
            gain -= min(0.0, cell.relative)
        per_spec_games = sum(1 for o in outcomes for seat in o.seats if seat.spec == index)
        lines += ["", f"Passing every group with a negative mean: at most {gain / per_spec_games:+.2f} SF points "
                      f"per game ({per_spec_games:,} games of this player).", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", help="a tournament's folder (its journal.jsonl)")
    args = parser.parse_args(argv)
    print(report(args.folder))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
