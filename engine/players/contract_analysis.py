"""The analysis of a bidding, skat, discard or declaration decision.

Shaped like the card analysis: per candidate (a game; with its discard after
the skat was taken) the worlds valued, the win and schneider shares, the
expected Seeger-Fabian score at the bid, a histogram of the declarer's final
card points, and which candidate was chosen.  ``to_json`` names games as
``skat replay --json`` does (clubs, spades, hearts, diamonds, grand, null,
with hand/ouvert/schneider added; "skat" is taking the skat before seeing it).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cards import Mask, cards_of

HISTOGRAM_EDGES = (0, 31, 61, 90, 121)
"""Buckets of the declarer's card points: schneidered, lost, won, schneider."""


@dataclass(frozen=True)
class ContractCandidate:
    game: str
    discard: Mask | None
    simulations: int
    win_share: float
    schneider_share: float
    expected: float
    histogram: tuple[int, ...]
    chosen: bool

    @classmethod
    def of(cls, game: str, discard: Mask | None, outcome, expected: float, chosen: bool) -> ContractCandidate:
        worlds = len(outcome.won)
        counts, _ = np.histogram(outcome.points, bins=HISTOGRAM_EDGES)
        return cls(game, discard, worlds, float(outcome.won.mean()) if worlds else 0.0,
                   float(outcome.schneider.mean()) if worlds else 0.0, expected,
                   tuple(int(c) for c in counts), chosen)

    def to_json(self) -> dict:
        out = {"game": self.game, "simulations": self.simulations, "win_share": round(self.win_share, 4),
               "schneider_share": round(self.schneider_share, 4), "expected": round(self.expected, 2),
               "histogram": list(self.histogram), "chosen": self.chosen}
        if self.discard is not None:
            out["discard"] = [int(c) for c in cards_of(self.discard)]
        return out


@dataclass(frozen=True)
class ContractAnalysis:
    phase: str
    seat: int
    bid: int
    simulations: int
    candidates: tuple[ContractCandidate, ...]
    bid_limit: int | None
    """In bidding: the highest bid the bidder goes to (0: pass)."""

    @property
    def chosen(self) -> ContractCandidate | None:
        return next((c for c in self.candidates if c.chosen), None)

    def to_json(self) -> dict:
        out = {"phase": self.phase, "seat": self.seat, "bid": self.bid, "simulations": self.simulations,
               "candidates": [c.to_json() for c in self.candidates]}
        if self.bid_limit is not None:
            out["bid_limit"] = self.bid_limit
        return out
