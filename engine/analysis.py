"""What a player reports about a decision: per-card statistics over simulations.

MCU and PIMC fill the same shape, so the debug panel and tests read one type.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .cards import Card
from .limits import Limit

POINT_BUCKETS = 13
"""Histogram buckets for card points: 0-9, 10-19, ..., 110-119, and 120."""


def point_bucket(points: int) -> int:
    return min(points // 10, POINT_BUCKETS - 1)


@dataclass(frozen=True)
class CardStats:
    card: Card
    simulations: int
    mean: float
    """Mean final card points of the player's side (suit/grand) or win share (null)."""
    std: float
    evaluation: float
    """The value the evaluation function gave this card; the highest is chosen."""
    win_share: float
    """Share of simulations the player's side won."""
    histogram: tuple[int, ...]
    """Counts per point bucket (suit/grand, POINT_BUCKETS long) or (lost, won) for null."""


@dataclass(frozen=True)
class Analysis:
    player: str
    seat: int
    legal: tuple[Card, ...]
    cards: tuple[CardStats, ...]
    chosen: Card | None
    simulations: int
    """Worlds valued so far (each one a simulation for every legal card)."""
    elapsed: float
    """Wall seconds used so far."""
    limit: Limit | None
    null_game: bool = False
    final: bool = False
    note: str = ""
    effective_worlds: float | None = None
    """sampler=inference: the effective sample size of its weighted pool, (Σw)²/Σw²; None otherwise."""
    beliefs: tuple[tuple[int, float, float, float, float], ...] | None = None
    """(card, p0, p1, p2, p_skat) for each card the mover cannot see: where the worlds it
    searched are drawn from (seats 0-2 as in the game, 0 = forehand)."""
    readings: tuple[tuple[int, float], ...] | None = None
    """sampler=inference: (seat, chance) for each other seat that has played a card, the chance
    that it plays like a searching program rather than like the heuristic."""
    tree_nodes: int | None = None
    """A tree search (MCTS): the nodes of its tree(s) so far; None for the other players."""
    tree_depth: int | None = None
    """A tree search: the deepest walk down its tree(s) so far, in cards."""

    def to_json(self) -> dict:
        """The analysis as plain data (``skat analyze --json``), as ``ContractAnalysis.to_json`` is."""
        return {
            "player": self.player,
            "legal": [str(c) for c in self.legal],
            "chosen": str(self.chosen) if self.chosen is not None else None,
            "simulations": self.simulations,
            "elapsed": round(self.elapsed, 4),
            "limit": {"time": self.limit.time, "simulations": self.limit.simulations} if self.limit else None,
            "null_game": self.null_game,
            "note": self.note,
            "effective_worlds": round(self.effective_worlds, 1) if self.effective_worlds is not None else None,
            **({"tree_nodes": self.tree_nodes, "tree_depth": self.tree_depth} if self.tree_nodes is not None else {}),
            "cards": {
                str(s.card): {
                    "simulations": s.simulations,
                    "mean": round(s.mean, 4),
                    "std": round(s.std, 4),
                    "evaluation": round(s.evaluation, 4),
                    "win_share": round(s.win_share, 4),
                    "histogram": list(s.histogram),
                }
                for s in self.cards
            },
        }

    def stats_for(self, card: Card) -> CardStats | None:
        for stats in self.cards:
            if stats.card == card:
                return stats
        return None


@dataclass
class CardAccumulator:
    """Running statistics of one card's simulated outcomes."""

    card: Card
    null_game: bool = False
    n: int = 0
    total: float = 0.0
    total_sq: float = 0.0
    evaluation_total: float = 0.0
    wins: int = 0
    histogram: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.histogram:
            self.histogram = [0] * (2 if self.null_game else POINT_BUCKETS)

    def add(self, points: int, won: bool, evaluation: float) -> None:
        """One simulated outcome: the side's card points, whether the side won,
        and the evaluation function's value of it."""
        value = float(won) if self.null_game else float(points)
        self.n += 1
        self.total += value
        self.total_sq += value * value
        self.evaluation_total += evaluation
        self.wins += int(won)
        self.histogram[int(won) if self.null_game else point_bucket(points)] += 1

    def add_many(self, points, won, evaluations) -> None:
        """Many outcomes at once (numpy arrays of equal length)."""
        import numpy as np

        points = np.asarray(points, dtype=np.int64)
        won = np.asarray(won, dtype=bool)
        values = won.astype(float) if self.null_game else points.astype(float)
        self.n += int(points.size)
        self.total += float(values.sum())
        self.total_sq += float((values * values).sum())
        self.evaluation_total += float(np.asarray(evaluations, dtype=float).sum())
        self.wins += int(won.sum())
        if self.null_game:
            counts = np.bincount(won.astype(np.int64), minlength=2)
        else:
            counts = np.bincount(np.minimum(points // 10, POINT_BUCKETS - 1), minlength=POINT_BUCKETS)
        for i, c in enumerate(counts.tolist()):
            self.histogram[i] += c

    def stats(self) -> CardStats:
        if self.n == 0:
            return CardStats(self.card, 0, 0.0, 0.0, 0.0, 0.0, tuple(self.histogram))
        mean = self.total / self.n
        var = max(0.0, self.total_sq / self.n - mean * mean)
        return CardStats(
            self.card, self.n, mean, math.sqrt(var), self.evaluation_total / self.n,
            self.wins / self.n, tuple(self.histogram),
        )
