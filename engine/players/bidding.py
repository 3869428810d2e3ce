"""Bidding, hand-or-skat, discard and declaration by search (``bidding=search``).

Before the skat is taken the bidder samples worlds (the skat and both other
hands, consistent with its view) and values every candidate game in each world
by the card play of the whole game, one of two ways (``valuation``):

- ``playout`` (MCU): a heuristic playout by all three seats, scored exactly;
- ``solver`` (PIMC): double-dummy threshold solves, "declarer reaches 61?",
  then 90 and 120 (schwarz); null: "declarer takes no trick?" (``_solve``).

The candidates are:

- with the skat: the declarer's game and discard in a world are the heuristic's
  choice for his twelve cards (``hand_eval``), so they depend only on what he
  would see after taking that skat, never on the defenders' cards;
- hand games (four suits, grand, null, null ouvert): one game for all worlds,
  and the suit and grand hand games announced schneider, schwarz or ouvert
  where some world makes them (the same card play, scored as announced).

Each world is scored as ``engine.scoring`` scores the game.  At a bid ``b`` a
candidate's expected score is the mean Seeger-Fabian difference to a rival
(won: value + 50; lost: -2 × value - 50 - 40, the 40 a defending rival gets; a
game whose value stays below ``b`` is an overbid and scores as lost at the
smallest value reaching ``b``), with the win share over the worlds replaced by
its calibrated chance (``bid_calibration``, docs/bidding.md).  The skat path
chooses, per world, the heuristic's best game reaching ``b``.

The heuristic proposes, the search disposes (``anchored``, the default): the
bidder goes up to the highest bid at which the best candidate's expected score
exceeds ``PASS_WORTH + risk``, but never above the heuristic's own limit
(``hand_eval.bid_limit``; where that limit is already passed no world is
valued).  Measured in docs/bidding.md, the search's own optimism cost more
than it won where it bid games the heuristic would not (the best of many noisy
candidates flatters, and its worlds ignore what the other seats' bids say),
while the games it refused to bid were mostly lost ones.  ``anchored=False``
lets the search's best expected score decide alone (the game review judges
with it).

Passing is valued at ``PASS_WORTH`` = 0 on this scale; ``risk`` (points per
game, default ``RISK``) raises the bar.

After the skat is taken the discard and declaration are valued by the same
scoring over sampled defender hands: the candidates are every game with the
heuristic's best discard for it (nulls also ouvert), restricted to declarations
the engine allows at the bid; for the two games that come out best, the next
discards of the heuristic's ranking of all 66 pairs are valued beside them
(``DISCARD_PAIRS`` per game in all; measured in docs/bidding.md to lose nothing
against all 66).  Anchored, the heuristic's hand-or-skat, discard and game stand
unless another scores higher and at least as well in every world (a sure schwarz
is declared ouvert), or is better by ``margin`` standard errors of the paired
difference over the same worlds (default ``SWITCH_MARGIN``: never, as measured);
unanchored, the best expected score is chosen.

The evaluation of a hand is cached for the whole bidding (the hand does not
change, only the bid).  Worlds and playouts are seeded from the player's
generator, so a seeded player repeats its decisions.  ``stop`` is checked
between batches of worlds; a decision stopped early uses the worlds valued so
far (at least one batch).
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from ..cards import Mask, points_of
from ..dds import core
from ..dds.solver import thread_context
from ..game import Bid, Declare, Discard, GameState, Hold, Pass, Phase, PickUp
from ..policy import hand_eval
from ..policy.playout import PublicPosition, playout_worlds
from ..rules import BID_VALUES, FOREHAND, GameType
from ..scoring import (ALL_POINTS, SCHNEIDER_POINTS, WIN_POINTS, Declaration, score_game, seeger_fabian_lost,
                       seeger_fabian_won)
from ..worlds.sampling import WorldSampler
from . import bid_calibration
from .contract_analysis import ContractAnalysis, ContractCandidate, game_name

PASS_WORTH = 0.0
"""Expected Seeger-Fabian difference of passing (see the module doc)."""
RISK = 0.0
"""Default ``risk``: the bidder goes on only while the best game is expected to gain more
than this (Seeger-Fabian points against the other two); measured in docs/bidding.md."""
SWITCH_MARGIN = math.inf
"""Default ``margin``: the search overrides the heuristic's choice of hand or skat, game
and discard only where its choice is better by this many standard errors of the paired
difference over the same worlds.  Measured in docs/bidding.md: overriding at 2 or 4
standard errors lost against keeping the heuristic's choice (the best of many noisy
estimates flatters, grands most), so by default only an option at least as good in
every world replaces the heuristic's."""
DISCARD_PAIRS = 8
"""Discards valued per game at the real discard decision, the heuristic's best first."""
DISCARD_GAMES = 2
"""Games whose further discards are valued (the best with the heuristic's discard)."""
BATCH_WORLDS = 25
"""Worlds per batch; ``stop`` is checked between batches."""
REPORT_INTERVAL = 0.1
"""Least seconds between two analysis snapshots while thinking."""

Report = Callable[[ContractAnalysis], None]

HAND_CANDIDATES = (
    *(Declaration(g, hand=True) for g in (*hand_eval.SUIT_GAMES, GameType.GRAND)),
    Declaration(GameType.NULL, hand=True),
    Declaration(GameType.NULL, hand=True, ouvert=True),
)


@dataclass
class Outcomes:
    """One candidate over the worlds: per world the game value, whether it was
    won and the declarer's card points (NaN-free int arrays)."""

    declaration: Declaration
    value: np.ndarray
    won: np.ndarray
    points: np.ndarray
    schneider: np.ndarray

    def overbid(self, bid: int) -> np.ndarray:
        """Per world: the game's value stays below ``bid``."""
        return self.value.astype(np.int64) < bid

    def expected(self, bid: int, valuation: str | None = None) -> float:
        """The expected score at ``bid``, the win share read through the calibration
        of ``valuation`` (None: the plain mean over the worlds)."""
        games = np.full(len(self.value), int(self.declaration.game))
        return calibrated_mean(valuation, games, self.value, self.won, self.scores(bid), ~self.overbid(bid))

    def scores(self, bid: int) -> np.ndarray:
        """Seeger-Fabian difference to the defenders per world at ``bid``."""
        value = self.value.astype(np.int64)
        overbid = value < bid
        if self.declaration.game == GameType.NULL:
            reach = _smallest_null_reaching(bid)
            value = np.where(overbid, reach, value)
        else:
            base = self.declaration.game.base_value
            value = np.where(overbid, -(-bid // base) * base, value)
        won = self.won & ~overbid
        return np.where(won, seeger_fabian_won(value), seeger_fabian_lost(value, 1)).astype(float)


def calibrated_mean(valuation: str | None, games: np.ndarray, value: np.ndarray, won: np.ndarray,
                    scores: np.ndarray, playable: np.ndarray) -> float:
    """The mean score over the worlds with each game family's win share replaced by its
    calibrated chance (``bid_calibration``): the playable worlds of a family score
    chance × (mean score when won) + (1 − chance) × (mean score when lost); overbid
    worlds keep their (lost) scores.  ``games`` holds each world's game type."""
    if valuation is None or len(scores) == 0:
        return float(scores.mean()) if len(scores) else 0.0
    total = float(scores[~playable].sum())
    families = np.array([bid_calibration.family_of(GameType(g)) for g in games])
    for family in set(families[playable]):
        inside = playable & (families == family)
        chance = bid_calibration.calibrated(valuation, GameType(int(games[inside][0])), float(won[inside].mean()))
        wins, losses = inside & won, inside & ~won
        won_mean = scores[wins].mean() if wins.any() else float(seeger_fabian_won(value[inside]).mean())
        lost_mean = (scores[losses].mean() if losses.any()
                     else float(seeger_fabian_lost(value[inside], 1).mean()))
        total += int(inside.sum()) * float(chance * won_mean + (1 - chance) * lost_mean)
    return total / len(scores)


def _announcements(decl: Declaration) -> tuple[Declaration, ...]:
    """A suit or grand hand game announced schneider, schwarz, or ouvert (which announces both)."""
    if decl.game == GameType.NULL or not decl.hand:
        return ()
    return (Declaration(decl.game, hand=True, schneider=True),
            Declaration(decl.game, hand=True, schneider=True, schwarz=True),
            Declaration(decl.game, hand=True, ouvert=True))


def _smallest_null_reaching(bid: int) -> int:
    from ..scoring import smallest_null_value_reaching

    reach = smallest_null_value_reaching(bid)
    return reach if reach is not None else bid


def _position(game: GameType, declarer: int, ouvert: bool) -> PublicPosition:
    return PublicPosition(game=game, declarer=declarer, trick=(), leader=FOREHAND, declarer_points=0,
                          defender_points=0, declarer_tricks=0, defender_tricks=0, played=0, voids=(0, 0, 0),
                          ouvert=ouvert)


def _play(decl: Declaration, declarer: int, hands: list[tuple[int, int, int]], skats: list[int],
          skat_known: bool, seed: int) -> np.ndarray:
    """Heuristic playouts of whole games: (worlds, 4) declarer points, defender points, tricks."""
    out = playout_worlds(_position(decl.game, declarer, decl.ouvert), hands, skats, skat_known, 1, seed)
    return out[:, 0, :]


def _solve(decl: Declaration, declarer: int, hands: list[tuple[int, int, int]], skats: list[int]) -> np.ndarray:
    """Double-dummy values of whole games by threshold solves, shaped like ``_play``'s rows.

    Suit and grand: "declarer reaches 61?", if so "90?" (schneider), if so "120?"
    (every card point: taken as schwarz, which it is unless the defenders take
    a trick without points); a row gets a representative point total of its
    bracket (45, 75, 100, 120).  Null: one solve, won or lost.  The skat counts
    for the declarer; forehand leads.
    """
    ctx = thread_context()
    arrays = ctx.arrays
    trick = ctx.load_trick(())
    game = int(decl.game)
    rows = np.empty((len(hands), 4), np.int64)
    for i, (h, skat) in enumerate(zip(hands, skats)):
        if decl.game == GameType.NULL:
            won = core.solve_value(game, declarer, h[0], h[1], h[2], trick, 0, FOREHAND, 0, 0, core.EXACT, *arrays)
            rows[i] = (0, 120, 0, 10) if won == 1 else (0, 120, 1, 9)
            continue
        base = points_of(skat)
        points = 45
        for threshold, reached in ((WIN_POINTS, 75), (SCHNEIDER_POINTS, 100), (ALL_POINTS, 120)):
            if core.solve_value(game, declarer, h[0], h[1], h[2], trick, 0, FOREHAND, base, 0, threshold,
                                *arrays) != 1:
                break
            points = reached
        tricks = _BRACKET_TRICKS[points]
        rows[i] = (points, 120 - points, tricks, 10 - tricks)
    return rows


_BRACKET_TRICKS = {45: 4, 75: 6, 100: 8, 120: 10}
"""Declarer's tricks standing for each point bracket of ``_solve`` (only 10 matters: schwarz)."""

VALUATIONS = ("playout", "solver")
"""How the bidder values the card play in a world: heuristic playouts (MCU) or
double-dummy threshold solves (PIMC)."""


def _score(decl: Declaration, declarer: int, twelve: Mask, row: np.ndarray) -> tuple[int, bool, int, bool]:
    result = score_game(declarer, decl, 0, twelve, int(row[0]), int(row[2]), int(row[3]))
    return result.game_value, result.won, int(row[0]), bool(result.won and result.schneider)


@dataclass
class HandEvaluation:
    """The candidates of one hand before the skat: hand games and, per world,
    the heuristic's game choices with the skat."""

    hand_games: list[Outcomes]
    skat_options: list[list[hand_eval.Option]]
    """Per world: the heuristic's options for the twelve cards (with discards)."""
    skat_results: list[dict[Declaration, tuple[int, bool, int, bool]]]
    """Per world: value, won, points, schneider of each skat option played out."""
    valuation: str | None = None
    """The valuation whose calibration the expected scores use (None: plain means)."""

    @property
    def simulations(self) -> int:
        """The worlds valued."""
        return len(self.skat_options)

    def skat_outcomes(self, bid: int) -> Outcomes:
        """The skat path at ``bid``: per world the heuristic's best game reaching the bid."""
        value, won, points, schneider = [], [], [], []
        for options, results in zip(self.skat_options, self.skat_results):
            chosen = hand_eval.choose_best(options, bid).declaration
            v, w, p, s = results[chosen]
            value.append(v)
            won.append(w)
            points.append(p)
            schneider.append(s)
        return Outcomes(Declaration(GameType.GRAND), np.array(value), np.array(won, bool), np.array(points),
                        np.array(schneider, bool))

    def _skat_worlds(self, bid: int) -> tuple[np.ndarray, ...]:
        """Per world of the skat path at ``bid``: game type, value, won, score, playable."""
        n = self.simulations
        games, values, won = np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, bool)
        scores, playable = np.empty(n), np.empty(n, bool)
        for i, (options, results) in enumerate(zip(self.skat_options, self.skat_results)):
            decl = hand_eval.choose_best(options, bid).declaration
            v, w, p, s = results[decl]
            one = Outcomes(decl, np.array([v]), np.array([w]), np.array([p]), np.array([s]))
            games[i], values[i], won[i] = int(decl.game), v, w
            scores[i], playable[i] = one.scores(bid)[0], not one.overbid(bid)[0]
        return games, values, won, scores, playable

    def skat_scores(self, bid: int) -> np.ndarray:
        """Per world, the score of the skat path at ``bid``, judging overbids per chosen game."""
        return self._skat_worlds(bid)[3]

    def skat_expected(self, bid: int) -> float:
        """The skat path's expected score at ``bid``, calibrated per game family."""
        games, values, won, scores, playable = self._skat_worlds(bid)
        return calibrated_mean(self.valuation, games, values, won & playable, scores, playable)

    def expected(self, bid: int) -> tuple[float, Declaration | None]:
        """The best expected score at ``bid`` and its hand game (None: take the skat)."""
        best, best_decl = self.skat_expected(bid), None
        for outcome in self.hand_games:
            value = outcome.expected(bid, self.valuation)
            if value > best:
                best, best_decl = value, outcome.declaration
        return best, best_decl


class SearchBidder:
    """The search-based decisions before the card play, for MCU and PIMC."""

    name = "search"

    def __init__(self, simulations: int = 100, seed: int | None = None, risk: float = RISK,
                 informed: bool = True, valuation: str = "playout", discard_pairs: int = DISCARD_PAIRS,
                 discard_games: int = DISCARD_GAMES, anchored: bool = True,
                 margin: float = SWITCH_MARGIN) -> None:
        if simulations < 1:
            raise ValueError("the search bidder needs at least one simulation")
        if valuation not in VALUATIONS:
            raise ValueError(f"valuation must be {' or '.join(VALUATIONS)}, not {valuation!r}")
        self.simulations = simulations
        self.valuation = valuation
        self.discard_pairs = max(1, min(66, discard_pairs))
        """Discards searched per game for the real discard (66: every pair)."""
        self.discard_games = discard_games
        """Games (the best with the heuristic's discard) whose further discards are searched."""
        self.risk = risk
        self.anchored = anchored
        """The heuristic proposes, the search disposes: the bidder never bids above the
        heuristic's limit, and keeps the heuristic's hand-or-skat, game and discard unless
        the search finds another clearly better (``margin``).  False: the search's best
        expected score decides alone (the game review's judge)."""
        self.margin = margin
        self.informed = informed
        self.rng = random.Random(seed)
        self._cache: dict[tuple[Mask, int], HandEvaluation] = {}
        self._plans: dict[tuple[Mask, Mask], Declaration] = {}
        self.last_analysis: ContractAnalysis | None = None
        """The analysis of the latest decision (candidates, chosen one marked)."""
        self.last_plan: Declaration | None = None
        """After a discard: the game it was chosen for."""
        self._report: Report | None = None
        self._deadline: float | None = None
        self._started = time.perf_counter()
        self._last_snapshot = float("-inf")

    def _value(self, decl: Declaration, seat: int, hands: list[tuple[int, int, int]], skats: list[int],
               skat_known: bool, seed: int) -> np.ndarray:
        """The card play of ``decl`` in each world, valued by this bidder's method."""
        if self.valuation == "solver":
            return _solve(decl, seat, hands, skats)
        return _play(decl, seat, hands, skats, skat_known, seed)

    def new_game(self) -> None:
        self._cache.clear()
        self._plans.clear()

    # ------------------------------------------------------------ moves

    def choose(self, view: GameState, simulations: int | None = None, stop: threading.Event | None = None,
               *, report: Report | None = None, deadline: float | None = None):
        """The move for the seat to move; ``last_analysis`` (and ``last_plan`` after a discard)
        say why.  ``report`` gets a snapshot of the analysis after each batch of worlds;
        ``stop`` and ``deadline`` (``time.perf_counter``) end the search after the batch
        in progress (one batch at least)."""
        self._started = time.perf_counter()
        self._last_snapshot = float("-inf")
        self._report, self._deadline = report, deadline
        self.last_plan = self.last_analysis = None
        worlds = simulations or self.simulations
        if view.phase == Phase.BIDDING:
            return self._bidding_move(view, worlds, stop)
        if view.phase == Phase.SKAT:
            return self._skat_move(view, worlds, stop)
        if view.phase == Phase.DISCARD:
            self.last_plan, discard = self._plan_after_skat(view, worlds, stop)
            return Discard(discard)
        if view.phase == Phase.DECLARE:
            return Declare(self._declaration(view, worlds, stop))
        raise ValueError(f"no contract decision in phase {view.phase.value}")

    def _stopped(self, stop: threading.Event | None) -> bool:
        deadline = getattr(self, "_deadline", None)
        return (stop is not None and stop.is_set()) or (deadline is not None and time.perf_counter() >= deadline)

    def _snapshot_due(self) -> bool:
        """At most one snapshot every ``REPORT_INTERVAL`` seconds: building one costs time."""
        now = time.perf_counter()
        if now - self._last_snapshot < REPORT_INTERVAL:
            return False
        self._last_snapshot = now
        return True

    def _snapshot(self, analysis: ContractAnalysis) -> None:
        report = getattr(self, "_report", None)
        if report is not None:
            report(analysis)

    def _stamped(self, analysis: ContractAnalysis, final: bool) -> ContractAnalysis:
        elapsed = time.perf_counter() - getattr(self, "_started", time.perf_counter())
        return replace(analysis, final=final, elapsed=elapsed)

    @staticmethod
    def _limit_of(evaluation: HandEvaluation, risk: float) -> int:
        limit = 0
        for bid in BID_VALUES:
            if evaluation.expected(bid)[0] > PASS_WORTH + risk:
                limit = bid
            elif limit:
                break
        return limit

    def bid_limit(self, view: GameState, worlds: int, stop=None) -> int:
        """The highest bid whose best candidate still beats passing (0: pass); anchored, at
        most the heuristic's limit."""
        limit = self._limit_of(self.value_hand(view, worlds, stop), self.risk)
        if self.anchored:
            seat = view.perspective if view.perspective is not None else view.to_move
            limit = min(limit, hand_eval.bid_limit(view.hands[seat], seat))
        return limit

    def _bidding_move(self, view, worlds, stop):
        stake = view.bid if view.awaiting_listener else (view.next_bid() or view.bid)
        seat = view.to_move
        cap = hand_eval.bid_limit(view.hands[seat], seat) if self.anchored else None
        if cap is not None and cap < stake:
            # the heuristic passes here: the search only ever lowers its limit, so no world is
            # valued; the analysis shows the heuristic's estimates and why
            from .heuristic import HeuristicPlayer

            estimates = HeuristicPlayer().bidding_analysis(view)
            self.last_analysis = self._stamped(replace(
                estimates, player=self.name,
                note=f"the search bids only below the heuristic's limit; {estimates.note}"), True)
            return Pass()

        def capped(limit: int) -> int:
            return limit if cap is None else min(limit, cap)

        def progress(evaluation: HandEvaluation) -> None:
            limit = capped(self._limit_of(evaluation, self.risk))
            self._snapshot(self._stamped(self._bidding_analysis(view, evaluation, stake, limit), False))

        evaluation = self.value_hand(view, worlds, stop, progress if self._report else None)
        searched = self._limit_of(evaluation, self.risk)
        most = capped(searched)
        analysis = self._bidding_analysis(view, evaluation, stake, most)
        if cap is not None and searched > cap:
            analysis = replace(analysis, note=f"the heuristic's hand estimate caps the bid at {cap}")
        self.last_analysis = self._stamped(analysis, True)
        if view.awaiting_listener:
            return Hold() if view.bid <= most else Pass()
        step = view.next_bid()
        return Bid(step) if step is not None and step <= most else Pass()

    def _skat_move(self, view, worlds, stop):
        def progress(evaluation: HandEvaluation) -> None:
            hand = self._anchored_hand_game(view, evaluation) if self.anchored else evaluation.expected(view.bid)[1]
            self._snapshot(self._stamped(self._bidding_analysis(view, evaluation, view.bid, None, hand), False))

        evaluation = self.value_hand(view, worlds, stop, progress if self._report else None)
        if self.anchored:
            hand_decl = self._anchored_hand_game(view, evaluation)
        else:
            _, hand_decl = evaluation.expected(view.bid)
        if hand_decl is not None and view.declaration_problem(hand_decl) is not None:
            hand_decl = None
        self.last_analysis = self._stamped(self._bidding_analysis(view, evaluation, view.bid, None, hand_decl),
                                           True)
        if hand_decl is not None:
            return Declare(hand_decl)
        return PickUp(view.skat if view.skat_known else None)

    def _anchored_hand_game(self, view: GameState, evaluation: HandEvaluation) -> Declaration | None:
        """The heuristic's hand-or-skat choice (None: the skat), unless the search values
        another clearly higher (``margin`` standard errors over the same worlds)."""
        seat, bid = view.declarer, view.bid
        proposed = hand_eval.hand_decision(view.hands[seat], seat, bid)
        base_decl = proposed.declaration if proposed is not None else None
        games = {o.declaration: o for o in evaluation.hand_games
                 if view.declaration_problem(o.declaration) is None}
        if base_decl is not None and base_decl not in games:
            base_decl = None
        values = {None: (evaluation.skat_scores(bid), evaluation.skat_expected(bid))}
        for decl, outcome in games.items():
            values[decl] = (outcome.scores(bid), outcome.expected(bid, self.valuation))
        return _clear_choice(values, base_decl, self.margin)

    # ------------------------------------------------------------ before the skat

    def value_hand(self, view: GameState, worlds: int, stop=None,
                      progress: Callable[[HandEvaluation], None] | None = None) -> HandEvaluation:
        """The hand's candidates over ``worlds`` sampled worlds (cached for the game);
        ``progress`` gets the evaluation so far after each batch."""
        seat = view.perspective if view.perspective is not None else view.to_move
        if view.phase == Phase.SKAT:
            seat = view.declarer
        hand = view.hands[seat]
        key = (hand, seat)
        if key not in self._cache:
            self._cache[key] = self._value_hand(view, seat, hand, worlds, stop, progress)
        return self._cache[key]

    def _value_hand(self, view: GameState, seat: int, hand: Mask, worlds: int, stop,
                  progress: Callable[[HandEvaluation], None] | None = None) -> HandEvaluation:
        sampler = WorldSampler(view, self.informed)
        seed = self.rng.getrandbits(62)
        hand_cols: dict[Declaration, list] = {d: [] for d in HAND_CANDIDATES}
        skat_options: list[list[hand_eval.Option]] = []
        skat_results: list[dict] = []
        done = 0
        batch = 0
        while done < worlds:
            if done > 0 and self._stopped(stop):
                break
            size = min(BATCH_WORLDS, worlds - done)
            rng = random.Random(seed * 1_000_003 + batch)
            sample = [sampler.sample(rng) for _ in range(size)]
            hands = [w.hands for w in sample]
            skats = [w.skat for w in sample]
            twelves = [hand | w.skat for w in sample]
            solved_null = None
            for decl in HAND_CANDIDATES:
                seed_rows = rng.getrandbits(62)
                if self.valuation == "solver" and decl.game == GameType.NULL and solved_null is not None:
                    rows = solved_null  # the solver sees every card: ouvert is valued as null
                else:
                    rows = self._value(decl, seat, hands, skats, False, seed_rows)
                    if decl.game == GameType.NULL:
                        solved_null = rows
                hand_cols[decl] += [_score(decl, seat, t, r) for t, r in zip(twelves, rows)]
                for announced in _announcements(decl):  # same card play, scored as announced
                    hand_cols.setdefault(announced, []).extend(
                        _score(announced, seat, t, r) for t, r in zip(twelves, rows))
            options = [hand_eval.declaration_options(t, seat) for t in twelves]
            skat_options += options
            # play each option of each world: one batch call per option slot
            results = [dict() for _ in sample]
            solved_null = None
            for slot in range(len(options[0])):
                decls = [opts[slot].declaration for opts in options]
                discards = [opts[slot].discard for opts in options]
                slot_hands = [_with_hand(h, seat, t & ~d) for h, t, d in zip(hands, twelves, discards)]
                seed_rows = rng.getrandbits(62)
                if self.valuation == "solver" and decls[0].game == GameType.NULL and solved_null is not None:
                    rows = solved_null  # null ouvert keeps null's discard; the solver values them alike
                else:
                    rows = self._value(decls[0], seat, slot_hands, discards, True, seed_rows)
                    if decls[0].game == GameType.NULL:
                        solved_null = rows
                for i, (t, r) in enumerate(zip(twelves, rows)):
                    results[i][decls[i]] = _score(decls[i], seat, t, r)
            skat_results += results
            done += size
            batch += 1
            if progress is not None and done < worlds and self._snapshot_due():
                progress(HandEvaluation(_hand_games(hand_cols), list(skat_options), list(skat_results),
                                        self.valuation))
        return HandEvaluation(_hand_games(hand_cols), skat_options, skat_results, self.valuation)

    def _bidding_analysis(self, view: GameState, evaluation: HandEvaluation, bid: int, limit: int | None,
                          hand: Declaration | None = None) -> ContractAnalysis:
        """Bidding (``limit`` given): the best candidate at ``bid`` is marked unless the bidder
        passes.  Skat: ``hand`` is the hand game declared (None: the skat is taken)."""
        choosing = True
        if limit is not None:
            choosing = limit >= bid
            hand = evaluation.expected(bid)[1] if choosing else None
        skat = evaluation.skat_outcomes(bid)
        skat_best = evaluation.skat_expected(bid)
        candidates = [ContractCandidate.of("skat", None, skat, skat_best, choosing and hand is None)]
        for outcome in evaluation.hand_games:
            candidates.append(ContractCandidate.of(game_name(outcome.declaration), None, outcome,
                                                   outcome.expected(bid, self.valuation),
                                                   choosing and outcome.declaration == hand, outcome.declaration))
        seat = view.declarer if view.phase == Phase.SKAT else view.to_move
        return ContractAnalysis(view.phase.value, seat, bid, evaluation.simulations, tuple(candidates), limit,
                                player=self.name)

    # ------------------------------------------------------------ after the skat

    def analyze_discard(self, view: GameState, declaration: Declaration, discard: Mask,
                        simulations: int | None = None) -> ContractAnalysis | None:
        """The discard decision's analysis with ``declaration`` and ``discard`` valued beside the
        bidder's own options on the same worlds (for the game review); None if the rules allow
        no declaration at the bid."""
        extra = hand_eval.Option(declaration, 0, 0.0, discard)
        self.last_analysis = None
        self._report = self._deadline = None
        self._plan_after_skat(view, simulations or self.simulations, None, extra)
        return self.last_analysis

    def _plan_after_skat(self, view: GameState, worlds: int, stop,
                         extra: hand_eval.Option | None = None) -> tuple[Declaration, Mask]:
        seat = view.declarer
        cards = view.hands[seat]
        options = [o for o in hand_eval.declaration_options(cards, seat)
                   if view.declaration_problem(o.declaration) is None]
        own = len(options)  # an ``extra`` option is valued but never chosen
        if extra is not None and options and not any(
                (o.declaration, o.discard) == (extra.declaration, extra.discard) for o in options):
            options.append(extra)
        if not options:
            option = hand_eval.choose_best(hand_eval.declaration_options(cards, seat), view.bid)
            return option.declaration, option.discard
        proposed = hand_eval.choose_best(options[:own], view.bid) if self.anchored else None
        more = self._more_discards(view, cards, options[:own], worlds, stop)
        if more:
            options = options[:own] + more + options[own:]
            own += len(more)
        best = self._value_options(view, cards, options, own, worlds, stop, proposed=proposed)
        self._plans[(cards & ~best.discard, best.discard)] = best.declaration
        return best.declaration, best.discard

    def _more_discards(self, view: GameState, cards: Mask, options: list[hand_eval.Option], worlds: int,
                       stop) -> list[hand_eval.Option]:
        """Further discards for the ``discard_games`` games that come out best with the
        heuristic's own discard (valued first over half the worlds): the next pairs of
        the heuristic's ranking of all 66, ``discard_pairs`` per game in all."""
        if self.discard_pairs <= 1 or self.discard_games <= 0:
            return []
        self._value_options(view, cards, options, len(options), max(1, worlds // 2), stop)
        if self._stopped(stop):
            return []
        first = self.last_analysis.candidates
        ranked = sorted(range(len(options)), key=lambda i: -first[i].expected)
        more = []
        for i in ranked[:self.discard_games]:
            option = options[i]
            pairs = [d for d in hand_eval.ranked_discards(cards, option.declaration.game, view.declarer)
                     if d != option.discard][:self.discard_pairs - 1]
            more += [hand_eval.Option(option.declaration, option.value, option.chance, d) for d in pairs]
        return more

    def _value_options(self, view: GameState, twelve: Mask, options: list[hand_eval.Option], own: int,
                       worlds: int, stop, planned: Declaration | None = None,
                       proposed: hand_eval.Option | None = None) -> hand_eval.Option:
        """Each option (a game and its discard) played out over the same sampled worlds, batch
        by batch with a snapshot after each; the best of the first ``own`` is chosen (``planned``
        instead, if given; with ``proposed``, the heuristic's option, that one unless another
        is clearly better) and ``last_analysis`` lists them all."""
        seat = view.declarer
        sampler = WorldSampler(view, self.informed)
        rng = random.Random(self.rng.getrandbits(62))
        rows: list[list[tuple[int, bool, int, bool]]] = [[] for _ in options]
        done = 0
        while done < worlds and not (done > 0 and self._stopped(stop)):
            sample = [sampler.sample(rng) for _ in range(min(BATCH_WORLDS, worlds - done))]
            for number, option in enumerate(options):
                hands = [_with_hand(w.hands, seat, twelve & ~option.discard) for w in sample]
                played = self._value(option.declaration, seat, hands, [option.discard] * len(sample), True,
                                     rng.getrandbits(62))
                rows[number] += [_score(option.declaration, seat, twelve, r) for r in played]
            done += len(sample)
            if self._report is not None and done < worlds and self._snapshot_due():
                self._snapshot(self._stamped(self._options_analysis(view, options, rows, own, planned,
                                                                    proposed)[0], False))
        analysis, best = self._options_analysis(view, options, rows, own, planned, proposed)
        self.last_analysis = self._stamped(analysis, True)
        return best

    def _options_analysis(self, view: GameState, options: list[hand_eval.Option], rows, own: int,
                          planned: Declaration | None, proposed: hand_eval.Option | None = None
                          ) -> tuple[ContractAnalysis, hand_eval.Option]:
        valued = []
        for option, option_rows in zip(options, rows):
            outcome = _outcomes(option.declaration, option_rows)
            valued.append((option, outcome, outcome.expected(view.bid, self.valuation)))
        mine = valued[:own]
        chosen = next((v for v in mine if v[0].declaration == planned), None) if planned is not None else None
        base = next((i for i, v in enumerate(mine) if v[0] is proposed), None) if proposed is not None else None
        if chosen is None and base is not None:
            pick = _clear_choice({i: (out.scores(view.bid), e) for i, (_, out, e) in enumerate(mine)}, base,
                                 self.margin)
            chosen = mine[pick]
        if chosen is None:
            chosen = max(mine, key=lambda v: v[2])  # the first of equals, as before
        candidates = tuple(ContractCandidate.of(game_name(o.declaration), o.discard, out, e, o is chosen[0],
                                                o.declaration) for o, out, e in valued)
        note = "the game planned with the discard" if planned is not None and chosen[0].declaration == planned \
            else ""
        return ContractAnalysis(view.phase.value, view.declarer, view.bid, len(rows[0]), candidates, None,
                                player=self.name, note=note), chosen[0]

    def value_declaration(self, view: GameState, declaration: Declaration, worlds: int | None = None) -> Outcomes:
        """``declaration`` valued over sampled worlds from the declarer's view: a hand game
        before the skat is taken (the skat is sampled), any other game once the discard is
        down.  The outcomes are not calibrated (``engine.tools.bid_calibration`` measures
        them against the games' real results)."""
        seat = view.declarer
        sampler = WorldSampler(view, self.informed)
        rng = random.Random(self.rng.getrandbits(62))
        sample = [sampler.sample(rng) for _ in range(worlds or self.simulations)]
        cards = view.hands[seat]
        if declaration.hand:
            hands, skats, known = [w.hands for w in sample], [w.skat for w in sample], False
        else:
            hands, skats, known = [_with_hand(w.hands, seat, cards) for w in sample], [view.discard] * len(sample), True
        rows = self._value(declaration, seat, hands, skats, known, rng.getrandbits(62))
        return _outcomes(declaration, [_score(declaration, seat, cards | skat, r) for skat, r in zip(skats, rows)])

    def _declaration(self, view: GameState, worlds: int, stop) -> Declaration:
        seat = view.declarer
        kept = view.hands[seat]
        options = [o for o in hand_eval.kept_options(kept, view.discard, seat)
                   if view.declaration_problem(o.declaration) is None]
        if not options:
            options = hand_eval.kept_options(kept, view.discard, seat)
            return hand_eval.choose_best(options, view.bid).declaration
        planned = self._plans.get((kept, view.discard))
        if planned is not None and view.declaration_problem(planned) is not None:
            planned = None
        proposed = hand_eval.choose_best(options, view.bid) if self.anchored and planned is None else None
        return self._value_options(view, kept | view.discard, options, len(options), worlds, stop,
                                   planned, proposed).declaration


def _clear_choice(values: dict, base, margin: float):
    """The key of ``values`` (key -> (per-world scores, expected score), all over the same
    worlds) to choose: ``base`` unless another's expected score beats it and it scores at
    least as well in every world, or its gain exceeds ``margin`` standard errors of the
    paired per-world difference; then the best of those."""
    base_scores, base_expected = values[base]
    best, best_expected = base, base_expected
    n = len(base_scores)
    for key, (scores, expected) in values.items():
        gain = expected - base_expected
        if key == base or gain <= 0 or expected <= best_expected or n < 1:
            continue
        diff = scores - base_scores
        dominates = bool((diff >= 0).all())
        if dominates or (n > 1 and gain > margin * float(diff.std(ddof=1)) / np.sqrt(n)):
            best, best_expected = key, expected
    return best


def _with_hand(hands: tuple[Mask, Mask, Mask], seat: int, cards: Mask) -> tuple[Mask, Mask, Mask]:
    out = list(hands)
    out[seat] = cards
    return (out[0], out[1], out[2])


def _hand_games(columns: dict[Declaration, list]) -> list[Outcomes]:
    """The hand candidates' outcomes; an announcement made in no world is no candidate."""
    games = [_outcomes(d, rows) for d, rows in columns.items()]
    return [o for o in games if o.declaration in HAND_CANDIDATES or o.won.any()]


def _outcomes(decl: Declaration, rows: list[tuple[int, bool, int, bool]]) -> Outcomes:
    value, won, points, schneider = zip(*rows) if rows else ((), (), (), ())
    return Outcomes(decl, np.array(value, np.int64), np.array(won, bool), np.array(points, np.int64),
                    np.array(schneider, bool))

