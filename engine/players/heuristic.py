"""The heuristic (rule-based) player, in the spirit of XSkat.

Bidding, the skat, the discard and the declaration follow ``hand_eval``;
card play uses the numba policy of ``heuristic_core`` (the same one that
finishes MCU simulations), and with an ``endgame`` search (the ``heuristic``
spec's player: ``engine.players.endgame``) the last tricks' cards by the
solver over sampled worlds; Kontra and Re (house rule) by the counting rule
of ``engine.players.calls``; a Ramsch's skat round follows ``ramsch``.  Every
decision reads only the seat's view: its
own cards, the public moves and tricks, and the skat once it took it.

Randomness: only the card play breaks ties between near-equal cards at
random (see ``heuristic_core``), and the endgame search samples worlds; both
generators are seeded from ``seed``, so a seeded player repeats its games
exactly.  Bidding and declaring are deterministic.
"""

from __future__ import annotations

import random

import numpy as np

from ..game import Bid, Declare, Discard, GameState, Hold, Pass, Phase, PickUp, Play
from ..rules import void_classes
from ..scoring import Declaration
from . import readiness
from ..policy import hand_eval
from ..policy import heuristic_core as core
from . import ramsch
from .base import Decision, Player
from .calls import call_analysis, heuristic_call, offered_call
from .contract_analysis import ContractAnalysis, ContractCandidate
from .fallback import FALLBACK_NOTE, fallback_analysis, simple_card
from ..policy.hand_eval import Option


class HeuristicPlayer(Player):
    name = "heuristic"

    def __init__(self, seed: int | None = None, endgame=None) -> None:
        self.seed = seed
        self._rng_seed = random.getrandbits(62) if seed is None else seed
        self.endgame = endgame
        """Who plays the last tricks' cards (``engine.players.endgame.EndgameSearch``, which
        ``make_player("heuristic")`` gives it); None: the rules play every card.  Passed in,
        not made here: the search is a PIMC player, and the searching players hold a
        heuristic player for their bidding."""
        self._rng = None  # the core's generator, made on first use: making it compiles numba code
        self._bid_limits: dict[tuple[int, int, float], int] = {}
        self.hand_eval = hand_eval
        """Bidding, skat, discard and declaration (``engine.policy.hand_eval``;
        ``engine.tools.policy_ab --hand-eval`` gives an earlier revision's copy to compare with)."""
        self.bid_chance = hand_eval.BID_CHANCE
        """Bid up to games with at least this win chance with the skat (a measurement may change it)."""
        self.policy = core
        """The numba card play of suit, grand and null games (``engine.policy.heuristic_core``;
        ``engine.tools.policy_ab`` gives an earlier revision's copy to compare with)."""

    def new_game(self, seat: int) -> None:
        if len(self._bid_limits) > 4096:
            self._bid_limits.clear()

    def choose(self, view: GameState, limit=None, *, stop=None, report=None) -> Decision:
        phase = view.phase
        if phase in (Phase.RAMSCH_SKAT, Phase.RAMSCH_DISCARD):
            return Decision(ramsch.skat_round_move(view))
        if phase == Phase.PLAY:
            call = offered_call(view) if self.calls else None
            if call is not None:
                say, note = heuristic_call(view, call)
                if say:
                    return Decision(call, call_analysis(self.name, view, note))
            if self.endgame is not None and self.endgame.due(view):
                return self.endgame.decide(view, self.name, stop)
            card, note = self.choose_card_noting(view)
            return Decision(Play(card), fallback_analysis(self.name, view, card, note) if note else None)
        if phase == Phase.BIDDING:
            move = self._bidding_move(view)
            return Decision(move, self.bidding_analysis(view))
        if phase == Phase.SKAT:
            move = self._skat_move(view)
            return Decision(move, self._skat_analysis(view, move))
        if phase == Phase.DISCARD:
            plan = self._plan_after_skat(view)
            options = self._legal(view, self.hand_eval.declaration_options(view.hands[view.declarer], view.declarer))
            return Decision(Discard(plan.discard), self._options_analysis(view, options, plan, "discard"),
                            plan=plan.declaration)
        if phase == Phase.DECLARE:
            declaration = self._declaration_after_discard(view)
            options = self._legal(view, self.hand_eval.kept_options(view.hands[view.declarer], view.discard,
                                                               view.declarer))
            chosen = next((o for o in options if o.declaration == declaration), None)
            return Decision(Declare(declaration), self._options_analysis(view, options, chosen, "declaration"))
        raise ValueError(f"no decision to make in phase {phase.value}")

    # why: the hand estimates behind a decision, in the contract analysis' shape -------------

    def _analysis(self, view: GameState, seat: int, stake: int, candidates, limit: int | None,
                  note: str) -> ContractAnalysis:
        return ContractAnalysis(view.phase.value, seat, stake, 0, tuple(candidates), limit, player=self.name,
                                note=note)

    def bidding_analysis(self, view: GameState) -> ContractAnalysis:
        """The hand estimates behind a bid, hold or pass at ``view``, and the limit they give."""
        seat = view.to_move
        hand = view.hands[seat]
        most = self.bid_limit(hand, seat)
        stake = view.bid if view.awaiting_listener else (view.next_bid() or view.bid)
        skat, hand_games = self.hand_eval.skat_options(hand, seat), self.hand_eval.hand_options(hand, seat)
        likely = [o for o in skat if o.chance >= self.bid_chance]
        likely += [o for o in hand_games if o.chance >= self.hand_eval.HAND_CHANCE]
        chosen = next((o for o in likely if o.value == most), None) if most >= stake else None
        lowered = None  # a game bid below its value: the skat may hold a missing top trump
        if chosen is None and most and most >= stake:
            lowered = next((o for o in likely if o in skat
                            and self.hand_eval.skat_bid_value(hand, o, self.bid_chance) == most), None)
            chosen = lowered
        thresholds = (f"win chance at least {self.bid_chance:.0%} with the skat, "
                      f"{self.hand_eval.HAND_CHANCE:.0%} hand")
        if not most:
            note = f"no game with a {thresholds}: passes"
        elif lowered is not None:
            note = (f"goes to {most}: its best game with a {thresholds} is worth {lowered.value} with these ten "
                    f"cards, but too many skats hold a top trump it lacks and would lower that")
        else:
            note = f"goes to {most}, the value of its best game with a {thresholds}"
        candidates = [ContractCandidate.estimate(o.declaration, None, o.chance, o.expected, o is chosen)
                      for o in (*skat, *hand_games)]
        return self._analysis(view, seat, stake, candidates, most, note)

    def _skat_analysis(self, view: GameState, move) -> ContractAnalysis:
        seat = view.declarer
        hand = view.hands[seat]
        declared = move.declaration if isinstance(move, Declare) else None
        options = [*self.hand_eval.skat_options(hand, seat), *self.hand_eval.hand_options(hand, seat)]
        candidates = [ContractCandidate.estimate(o.declaration, None, o.chance, o.expected,
                                                 o.declaration == declared) for o in options]
        if declared is not None:
            note = "a hand game: likely won and worth more than any game with the skat"
        else:
            note = (f"takes the skat: no hand game with a win chance of {self.hand_eval.HAND_CHANCE:.0%} "
                    "worth more than a game with the skat")
        return self._analysis(view, seat, view.bid, candidates, None, note)

    def _options_analysis(self, view: GameState, options: list[Option], chosen: Option | None,
                          what: str) -> ContractAnalysis:
        candidates = [ContractCandidate.estimate(o.declaration, o.discard, o.chance, o.expected, o == chosen)
                      for o in options]
        note = f"the {what} with the best expected score among the games worth the bid"
        by_expected = self.hand_eval.choose_best(options, view.bid) if options else None
        if chosen is not None and by_expected is not None and chosen != by_expected:
            note = (f"the {what} for a grand: XSkat's habit prefers a grand with these twelve cards (log-odds "
                    f"{self.hand_eval.grand_habit(_twelve(view), view.declarer):+.1f}) to the suit game of the better "
                    f"expected score")
        return self._analysis(view, view.declarer, view.bid, candidates, None, note)

    # bidding -------------------------------------------------------------

    def bid_limit(self, hand: int, seat: int) -> int:
        key = (hand, seat, self.bid_chance)
        if key not in self._bid_limits:
            self._bid_limits[key] = self.hand_eval.bid_limit(hand, seat, self.bid_chance)
        return self._bid_limits[key]

    def _bidding_move(self, view: GameState):
        seat = view.to_move
        most = self.bid_limit(view.hands[seat], seat)
        if view.awaiting_listener:
            return Hold() if view.bid <= most else Pass()
        step = view.next_bid()
        return Bid(step) if step is not None and step <= most else Pass()

    # skat, discard, declaration ---------------------------------------------

    def _legal(self, view: GameState, options: list[Option]) -> list[Option]:
        return [o for o in options if view.declaration_problem(o.declaration) is None]

    def _skat_move(self, view: GameState):
        seat = view.declarer
        option = self.hand_eval.hand_decision(view.hands[seat], seat, view.bid)
        if option is not None and view.declaration_problem(option.declaration) is None:
            return Declare(option.declaration)
        return PickUp(view.skat if view.skat_known else None)

    def _plan_after_skat(self, view: GameState) -> Option:
        """The game to play with twelve cards, and the discard for it."""
        seat = view.declarer
        options = self.hand_eval.declaration_options(view.hands[seat], seat)
        # The engine's rule: e.g. a null below the bid is refused, so never plan it.
        return self.hand_eval.choose_best(self._legal(view, options), view.bid, _twelve(view), seat)

    def _declaration_after_discard(self, view: GameState) -> Declaration:
        seat = view.declarer
        options = self.hand_eval.kept_options(view.hands[seat], view.discard, seat)
        return self.hand_eval.choose_best(self._legal(view, options), view.bid, _twelve(view), seat).declaration

    # card play -------------------------------------------------------------

    def choose_card(self, view: GameState) -> int:
        return self.choose_card_noting(view)[0]

    def choose_card_noting(self, view: GameState) -> tuple[int, str]:
        """The card, and a note when it is the simple fallback's (the core is still compiling)."""
        if readiness.pending(readiness.HEURISTIC):
            return simple_card(view), FALLBACK_NOTE
        return self.core_card(view), ""

    def core_card(self, view: GameState) -> int:
        """The numba policy's card (compiles it on first use)."""
        if self._rng is None:
            self._rng = self.policy.seed_state(self._rng_seed)
        if view.is_ramsch:
            return ramsch.core_card(view, self._rng)
        seat = view.to_move
        game = view.declaration.game
        decl = view.declarer
        trick = np.zeros(3, np.int64)
        for i, card in enumerate(view.trick):
            trick[i] = card
        voids = np.array(void_classes(game, view.tricks, view.trick, view.leader), np.int64)
        skat_known = view.discard if seat == decl and view.skat_taken else 0
        decl_open = view.hands[decl] if view.declaration.ouvert and seat != decl else 0
        card = self.policy.choose_card_std(
            int(game), decl, seat, view.hands[seat], trick, len(view.trick), view.leader, view.played, voids,
            skat_known, decl_open, self._rng,
        )
        return int(card)


def _twelve(view: GameState) -> int:
    """The declarer's twelve cards after taking the skat: its hand, and once it has put two
    away (the declaration), those two as well."""
    return view.hands[view.declarer] | (view.discard if view.phase == Phase.DECLARE else 0)
