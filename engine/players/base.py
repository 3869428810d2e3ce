"""The Player interface that every AI (and the tournament, and the UI) uses."""

from __future__ import annotations

import random
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass

from ..analysis import Analysis
from ..game import GameState, Move
from ..scoring import Declaration
from ..limits import Limit
from .contract_analysis import ContractAnalysis

AnalysisCallback = Callable[[Analysis | ContractAnalysis], None]


@dataclass(frozen=True)
class Decision:
    move: Move
    analysis: Analysis | ContractAnalysis | None = None
    """Why: per legal card in the card play, per candidate game before it."""
    plan: Declaration | None = None
    """With a discard: the game the player means to declare after it."""


class Player(ABC):
    """Decides the move of the seat to move, from that seat's view only.

    ``choose`` runs synchronously (in a worker thread when called through
    ``engine.service``).  It must return promptly once ``stop`` is set, with
    the best move found so far, and may call ``report`` with analysis
    snapshots while it thinks.
    """

    name: str = "player"
    calls: bool = True
    """Whether the player says Kontra and Re when the house rule allows them (spec ``calls=off``: never)."""

    @abstractmethod
    def choose(
        self,
        view: GameState,
        limit: Limit | None = None,
        *,
        stop: threading.Event | None = None,
        report: AnalysisCallback | None = None,
    ) -> Decision:
        """The move for ``view.to_move``; ``view`` must be that seat's view."""

    def new_game(self, seat: int) -> None:
        """Called before each game; players with per-game memory reset it here."""

    def rule_uses(self) -> dict[str, int]:
        """How many of this game's cards a named rule chose (``engine.players.montecarlo.CARD_RULES``),
        so that a tournament reports how the games a rule touched ended."""
        return {}

    def __str__(self) -> str:
        return self.name


class RandomPlayer(Player):
    """Picks uniformly among the legal moves (a seeded baseline).

    In bidding it bids the next value or passes with equal chance, so games
    are neither always passed in nor always bid to the sky.
    """

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view, limit=None, *, stop=None, report=None) -> Decision:
        moves = view.legal_moves()
        if not moves:
            raise ValueError(f"no legal move in phase {view.phase.value}")
        from ..game import Bid, Phase

        if view.phase == Phase.BIDDING and isinstance(moves[0], Bid):
            return Decision(self.rng.choice([moves[0], moves[-1]]))
        return Decision(self.rng.choice(moves))
