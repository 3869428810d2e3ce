"""The last tricks by search: a rule-based player's card in the endgame, valued by PIMC.

Rules judge the early tricks well and the last ones badly: which trump to keep
for the over-ruff, whether to cash a ten or lead into the defender who must
take it.  With few tricks left few cards are unseen, so the double-dummy
solver values every legal card over sampled worlds in milliseconds (the
worlds are those of ``engine.worlds.sampling``, read from the seat's view
only).  The heuristic player that ``make_player("heuristic")`` builds hands
its card to this search once ``tricks`` or fewer tricks are left; the budget
is a fixed number of worlds, so a seeded player still repeats its games.

Against XSkat's AI, paired on the same deals, searching the last six tricks
gains the heuristic 7.1 ± 1.7 Seeger-Fabian points a deal over its rules alone
(``docs/strength.md``, "Against XSkat"; four tricks gain less, eight no more).
"""

from __future__ import annotations

import threading
from dataclasses import replace

from ..game import GameState
from ..limits import Limit
from . import readiness
from .base import Decision
from .pimc import PIMCPlayer

ENDGAME_TRICKS = 6
"""Tricks left (the one being played included) from which the heuristic's card is searched."""
ENDGAME_WORLDS = 40
"""Worlds a searched endgame card is valued over (100 played no better against XSkat:
−0.07 ± 0.68 a deal, paired over 2,980 deals)."""
MAX_ENDGAME_TRICKS = 9
"""At most nine: the first trick's cards (and the calls before it) are the rules' own."""


class EndgameSearch:
    """PIMC over the last ``tricks`` tricks of a suit, grand or null game (not a Ramsch)."""

    def __init__(self, tricks: int = ENDGAME_TRICKS, worlds: int = ENDGAME_WORLDS, seed: int | None = None) -> None:
        if not 0 <= tricks <= MAX_ENDGAME_TRICKS:
            raise ValueError(f"endgame must be from 0 (off) to {MAX_ENDGAME_TRICKS} tricks, not {tricks}")
        self.tricks = tricks
        self.limit = Limit(simulations=worlds)
        self._search = PIMCPlayer(self.limit, seed=seed)

    def due(self, view: GameState) -> bool:
        """Whether the card of ``view`` is searched: few enough tricks left, no Ramsch, and
        the solver compiled (while a background warm-up still compiles it, the rules play)."""
        return (self.tricks > 0 and not view.is_ramsch and 10 - len(view.tricks) <= self.tricks
                and not readiness.pending(readiness.SOLVER))

    def decide(self, view: GameState, player: str, stop: threading.Event | None = None) -> Decision:
        """The searched card, its analysis under ``player``'s name."""
        decision = self._search.choose_card(view, self.limit, stop, None)
        analysis = decision.analysis
        if analysis is not None:
            left = 10 - len(view.tricks)
            note = f"endgame search: the last {left} tricks valued by the solver over sampled worlds"
            analysis = replace(analysis, player=player, note="; ".join(filter(None, (note, analysis.note))))
        return Decision(decision.move, analysis)
