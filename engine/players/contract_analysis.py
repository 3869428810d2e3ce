"""The analysis of a bidding, skat, discard or declaration decision.

Shaped like the card analysis: per candidate (a game; with its discard after
the skat was taken) the worlds valued, the win and schneider shares, the
expected Seeger-Fabian score at the bid, a histogram of the declarer's final
card points, and which candidate was chosen.  ``to_json`` names the games as
``skat replay --json`` does (``game``: clubs, spades, hearts, diamonds, grand,
null; ``hand``, ``ouvert``, ``schneider_announced``, ``schwarz_announced``);
taking the skat before seeing it is ``take_skat`` with no game.  ``game``
(the attribute) is one word list, e.g. "clubs hand", or "skat".

The search bidder streams these while it thinks (``final`` False) through the
same channel as the card analysis (``engine.service``).  The heuristic player
fills the same shape from its hand estimates: no worlds, the estimated win
chance as the win share, and its reason in ``note``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cards import Mask, cards_of
from ..limits import Limit
from ..record import GAME_NAMES as REPLAY_GAME_NAMES
from ..scoring import ALL_POINTS, OUT_OF_SCHNEIDER, SCHNEIDER_POINTS, WIN_POINTS, Declaration

HISTOGRAM_EDGES = (0, OUT_OF_SCHNEIDER, WIN_POINTS, SCHNEIDER_POINTS, ALL_POINTS + 1)
"""Buckets of the declarer's card points: schneidered, lost, won, schneider."""

PHASES = ("bidding", "skat", "discard", "declare")


def game_name(decl: Declaration) -> str:
    """The game as ``skat replay --json`` names it, with its variants."""
    name = decl.game.name.lower()
    extras = [w for w, on in (("hand", decl.hand), ("schneider", decl.schneider), ("schwarz", decl.schwarz),
                              ("ouvert", decl.ouvert)) if on]
    return " ".join([name, *extras])


def declaration_json(decl: Declaration) -> dict:
    """A declaration in the fields of ``skat replay --json``."""
    return {"game": REPLAY_GAME_NAMES[decl.game], "hand": decl.hand, "ouvert": decl.ouvert,
            "schneider_announced": decl.schneider_announced, "schwarz_announced": decl.schwarz_announced}


@dataclass(frozen=True)
class ContractCandidate:
    game: str
    discard: Mask | None
    simulations: int
    """Worlds valued (0: a heuristic estimate, no worlds)."""
    win_share: float
    schneider_share: float
    """Share of worlds the declarer won with schneider (the defenders at 30 or less)."""
    expected: float
    histogram: tuple[int, ...]
    """Declarer's final card points in the buckets of ``HISTOGRAM_EDGES`` (empty: no worlds)."""
    chosen: bool
    declaration: Declaration | None = None
    """The game (None: taking the skat, the game still open)."""

    @classmethod
    def of(cls, game: str, discard: Mask | None, outcome, expected: float, chosen: bool,
           declaration: Declaration | None = None) -> ContractCandidate:
        worlds = len(outcome.won)
        counts, _ = np.histogram(outcome.points, bins=HISTOGRAM_EDGES)
        return cls(game, discard, worlds, float(outcome.won.mean()) if worlds else 0.0,
                   float(outcome.schneider.mean()) if worlds else 0.0, expected,
                   tuple(int(c) for c in counts), chosen, declaration)

    @classmethod
    def estimate(cls, decl: Declaration, discard: Mask | None, chance: float, expected: float,
                 chosen: bool) -> ContractCandidate:
        """A heuristic's estimate: no worlds, ``chance`` as the win share."""
        return cls(game_name(decl), discard, 0, chance, 0.0, expected, (), chosen, decl)

    def to_json(self) -> dict:
        decl = self.declaration
        out: dict = {"take_skat": decl is None, "game": None}
        if decl is not None:
            out.update(declaration_json(decl))
        if self.discard is not None:
            out["discard"] = [str(c) for c in cards_of(self.discard)]
        out.update({"simulations": self.simulations, "win_share": round(self.win_share, 4),
                    "schneider_share": round(self.schneider_share, 4), "expected": round(self.expected, 2),
                    "histogram": list(self.histogram), "chosen": self.chosen})
        return out


@dataclass(frozen=True)
class ContractAnalysis:
    phase: str
    """One of ``PHASES``: the decision's phase."""
    seat: int
    bid: int
    """The stake: the bid to say or hold in bidding, the bid reached afterwards."""
    simulations: int
    candidates: tuple[ContractCandidate, ...]
    bid_limit: int | None
    """In bidding: the highest bid the bidder goes to (0: pass)."""
    player: str = ""
    final: bool = True
    """False while the player is still thinking (a snapshot)."""
    elapsed: float = 0.0
    """Wall seconds used so far."""
    limit: Limit | None = None
    note: str = ""
    """Why, in a few words (the heuristic's reasons; a stopped search)."""

    beliefs = None
    readings = None
    """No belief grid or reading of the seats for a contract decision (the card analysis has them)."""

    @property
    def chosen(self) -> ContractCandidate | None:
        return next((c for c in self.candidates if c.chosen), None)

    @property
    def passes(self) -> bool:
        """In bidding: whether the bidder passes at this stake."""
        return self.phase == "bidding" and (self.bid_limit or 0) < self.bid

    def to_json(self) -> dict:
        out = {"phase": self.phase, "seat": self.seat, "bid": self.bid, "simulations": self.simulations,
               "candidates": [c.to_json() for c in self.candidates]}
        if self.bid_limit is not None:
            out["bid_limit"] = self.bid_limit
        if self.note:
            out["note"] = self.note
        return out
