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
import math
from collections import defaultdict
from pathlib import Path

import numpy as np

from ..policy import hand_eval
from ..scoring import seeger_fabian_lost, seeger_fabian_won
from ..record import parse_record
from ..tournament import GameOutcome, read_journal, summarize
from ..worlds.inference import bid_steps

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


@dataclasses.dataclass(frozen=True)
class DeclaredHand:
    """A declared game as the declarer saw it when the bidding ended, and how it went."""

    chance: float
    """The heuristic's win chance of its best game worth the final bid (with the skat or hand)."""
    family: str
    """That game's family: suit, grand or null."""
    hand_game: bool
    bid: int
    others: int
    """The highest value the two other seats bid or held (0: neither did)."""
    limit: int
    """The heuristic's limit for the hand (``hand_eval.bid_limit``)."""
    forehand: bool
    won: bool
    relative: float
    """The declarer's Seeger-Fabian points minus the mean of the other two's."""

    @property
    def auction(self) -> str:
        if self.others == 0:
            return AUCTIONS[0]
        return AUCTIONS[1] if self.others < self.limit else AUCTIONS[2]


def declared_hands(outcomes: list[GameOutcome], spec: int) -> list[DeclaredHand]:
    """Every game ``spec`` declared (Ramsch and passed-in deals have no declarer)."""
    hands = []
    for outcome in outcomes:
        declarers = [i for i, seat in enumerate(outcome.seats) if seat.declarer_won or seat.declarer_lost]
        if not declarers or outcome.seats[declarers[0]].spec != spec:
            continue
        seat_index = declarers[0]
        record = parse_record(outcome.record)
        state = record.state_at(None)
        declarer = state.declarer
        hand = record.deal.hands[declarer]
        options = [(o, False) for o in hand_eval.skat_options(hand, declarer)]
        options += [(o, True) for o in hand_eval.hand_options(hand, declarer)]
        best, hand_game = max(((o, h) for o, h in options if o.value >= state.bid), key=lambda x: x[0].chance,
                              default=(None, False))
        game = best.declaration.game if best is not None else state.declaration.game
        points = [seat.seeger_fabian for seat in outcome.seats]
        own = points[seat_index]
        others = max((step.value for step in bid_steps(state) if step.seat != declarer and step.went_on), default=0)
        hands.append(DeclaredHand(
            chance=best.chance if best is not None else 0.0,
            family=game.name.lower() if game.name in ("GRAND", "NULL") else "suit", hand_game=hand_game,
            bid=state.bid, others=others, limit=hand_eval.bid_limit(hand, declarer),
            forehand=declarer == 0, won=bool(outcome.seats[seat_index].declarer_won),
            relative=own - (sum(points) - own) / 2))
    return hands


@dataclasses.dataclass
class Cell:
    games: int = 0
    won: int = 0
    relative: float = 0.0
    """Sum of the declarer's Seeger-Fabian points minus the mean of the other two's."""


def by_chance_and_auction(hands: list[DeclaredHand]) -> dict[tuple[float, str], Cell]:
    """The hands by (chance bin, auction): the bin is the chance rounded down to a tenth."""
    cells: dict[tuple[float, str], Cell] = defaultdict(Cell)
    for hand in hands:
        cell = cells[(min(int(hand.chance * 10), 9) / 10, hand.auction)]
        cell.games += 1
        cell.won += hand.won
        cell.relative += hand.relative
    return cells


def _features(hands: list[DeclaredHand]) -> np.ndarray:
    rows = []
    for h in hands:
        chance = min(max(h.chance, 0.01), 0.99)
        rows.append([1.0, math.log(chance / (1 - chance)), h.family == "grand", h.family == "null", h.hand_game,
                     h.bid / 24, h.others / 24, h.others == 0, h.auction == AUCTIONS[2], h.forehand, h.limit / 24])
    return np.array(rows, float)


def _logistic_fit(x: np.ndarray, y: np.ndarray, ridge: float = 1e-3, steps: int = 50) -> np.ndarray:
    w = np.zeros(x.shape[1])
    for _ in range(steps):  # Newton's method on the ridge-penalised log-likelihood
        p = 1 / (1 + np.exp(-x @ w))
        gradient = x.T @ (p - y) + ridge * w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(len(w))
        w -= np.linalg.solve(hessian, gradient)
    return w


def learned_passes(hands: list[DeclaredHand], folds: int = 5, seed: int = 0) -> np.ndarray:
    """Which hands a learned rule passes: a logistic model of the win on what the declarer
    knew when the bidding ended (the heuristic's chance, the game family, hand or not, the
    bid, how far the others bid, forehand, its limit), each hand predicted by a model fitted
    on the other folds; passed where the expected relative score at the bid, won: bid + 50,
    lost: -(2 bid + 50) - 40 for the rival, is below zero."""
    x = _features(hands)
    y = np.array([h.won for h in hands], float)
    bid = np.array([h.bid for h in hands], float)
    fold = np.random.default_rng(seed).integers(0, folds, len(hands))
    p = np.zeros(len(hands))
    for f in range(folds):
        if (fold == f).any() and (fold != f).any():
            p[fold == f] = 1 / (1 + np.exp(-x[fold == f] @ _logistic_fit(x[fold != f], y[fold != f])))
    return p * seeger_fabian_won(bid) + (1 - p) * seeger_fabian_lost(bid, 1) < 0


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
        hands = declared_hands(outcomes, index)
        cells = by_chance_and_auction(hands)
        lines += ["", "| chance | auction | games | won | relative SF per game |", "| ---: | --- | ---: | ---: | ---: |"]
        gain = 0.0
        for key in sorted(cells, key=lambda k: (k[0], AUCTIONS.index(k[1]))):
            cell = cells[key]
            lines.append(f"| {key[0]:.1f} | {key[1]} | {cell.games:,} | {cell.won / cell.games:.1%} | "
                         f"{cell.relative / cell.games:+.1f} |")
            gain -= min(0.0, cell.relative)
        per_spec_games = sum(1 for o in outcomes for seat in o.seats if seat.spec == index)
        lines += ["", f"Passing every group with a negative mean: at most {gain / per_spec_games:+.2f} SF points "
                      f"per game ({per_spec_games:,} games of this player)."]
        passed = [h for h, p in zip(hands, learned_passes(hands)) if p]
        if passed:
            lines.append(f"A learned rule (logistic, 5 folds) passes {len(passed):,} of {len(hands):,} declared games, "
                         f"{sum(h.won for h in passed) / len(passed):.1%} of them won: at most "
                         f"{-sum(h.relative for h in passed) / per_spec_games:+.2f} SF points per game.")
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", help="a tournament's folder (its journal.jsonl)")
    args = parser.parse_args(argv)
    print(report(args.folder))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
