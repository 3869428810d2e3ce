"""The Monte Carlo loop shared by MCU and PIMC.

For the seat to move: sample worlds consistent with its view, value every
legal card in each world (MCU: heuristic playouts; PIMC: the double-dummy
solver), score each outcome with an ``Evaluation``, and choose the card with
the best mean evaluation.  Worlds are drawn in batches; batch ``k`` of a
decision is seeded from (decision seed, k), and the final statistics are
summed in batch order, so a simulation budget gives the same choice whatever
the number of threads.  A time budget is in reference seconds (``engine.limits``
converts it with the speed factor ``engine.calibration`` measured).  ``stop`` and
the deadline are checked between batches, and a watcher thread calls
``on_stop_requested`` the moment either is reached so a subclass can also cut a
long batch short (PIMC aborts its running solves).

With Kontra and Re (house rule) allowed, the card's worlds also decide the
call (``engine.players.calls``): the player says it, with the figures in its
analysis note, and then plays the card it chose from those worlds.

Bidding, skat, discard and declaration come from the heuristic player
(``bidding=heuristic``, as in Schäfer, 2005) or from the search bidder of
``engine.players.bidding`` (``bidding=search``), which samples worlds with
the player's own simulation budget.
"""

from __future__ import annotations

import collections
import math
import random
import threading
import time
from abc import abstractmethod
from dataclasses import dataclass, replace
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from . import readiness
from ..analysis import Analysis, CardAccumulator
from ..cards import CARD_POINTS, Card, cards_of
from ..evaluation import Evaluation, default_for
from ..game import GameState, Kontra, Phase, Play, Re
from ..limits import DEFAULT_SIMULATIONS, MAX_SECONDS, MAX_SIMULATIONS, MAX_THREADS, Limit, wall_seconds
from ..rules import CLASS_OF, STRENGTH, TRUMP_CLASS, GameType
from ..scoring import declarer_wins
from ..worlds.inference import InferenceSampler, belief_rows, beliefs_of, pool_size
from ..worlds.sampling import World, WorldSampler
from .base import AnalysisCallback, Decision, Player
from .calls import CALL_WORLDS, KONTRA_WIN_SHARE, decide_from_worlds, offered_call
from .bidding import SearchBidder
from .contract_analysis import ContractAnalysis
from .fallback import fallback_analysis, simple_card

BIDDING_METHODS = ("heuristic", "search")
CONTRACT_PHASES = (Phase.BIDDING, Phase.SKAT, Phase.DISCARD, Phase.DECLARE)
"""The decisions the search bidder makes (``bidding=search``)."""
SAMPLERS = ("informed", "simple", "inference")
"""informed and simple draw worlds exactly uniformly (``engine.worlds.sampling``); inference
weighs informed worlds by the other seats' bidding and declaration (``engine.worlds.inference``)."""

RAMSCH_EVALUATION = Evaluation("mean")
"""A Ramsch outcome is worth the card points the two others end with (120 minus the
player's own; ``engine.players.ramsch``), whatever evaluation the player was given."""

REPORT_INTERVAL = 0.1
"""Seconds between analysis snapshots while thinking."""

STOP_POLL_SECONDS = 0.003
"""How often the watcher looks at the stop event (the deadline is waited for exactly)."""

END_BATCH_DIVISOR = 4
"""Under a fixed number of worlds a batch holds at most 1/4 of the worlds still to hand
out, so the last batches are small and two threads finish together."""


class BatchOutcome:
    """Outcomes of one batch: per legal card, arrays of side points and wins."""

    __slots__ = ("points", "won", "worlds", "tie_break")

    def __init__(self, points: np.ndarray, won: np.ndarray, worlds: int | None = None,
                 tie_break: np.ndarray | None = None) -> None:
        self.points = points  # (cards, samples) int
        self.won = won  # (cards, samples) bool
        self.worlds = worlds  # worlds actually valued (None: the whole batch); fewer if a stop cut it short
        # (cards, samples) secondary values: among cards of equal evaluation the
        # highest mean is chosen (PIMC: heuristic playouts); None = random.
        self.tie_break = tie_break


COMMON_PARAMS = ("time", "simulations", "eval", "sampler", "threads", "bidding", "near", "declarer_near",
                 "bid_chance")
"""The spec parameters every Monte Carlo player reads."""

DECLARER_NEAR = ("heuristic", "lowest")
"""How a declarer plays among near-tied cards (spec ``declarer_near``)."""

CARD_RULES = {
    "declarer_near_heuristic": "declarer's near-tie: the heuristic's card",
    "declarer_near_lowest": "declarer's near-tie: the lowest card",
    "defender_near_lowest": "defender's near-tie: the lowest card",
}
"""The rules that choose a card among near-tied ones (``Player.rule_uses``), with their labels."""


def whole_number_param(name: str, text: str, low: int, high: int) -> int:
    """A spec parameter that must be a whole number in ``low..high``; the error names it."""
    problem = f"{name} must be a whole number from {low} to {high:,}, not {text!r}"
    try:
        value = int(str(text).strip())
    except ValueError:
        raise ValueError(problem) from None
    if not low <= value <= high:
        raise ValueError(problem)
    return value


def number_param(name: str, text: str, low: float, high: float, what: str = "a number") -> float:
    """A spec parameter that must be a finite number in ``low..high``; the error names it."""
    problem = f"{name} must be {what} from {low:g} to {high:g}, not {text!r}"
    try:
        value = float(str(text).strip())
    except ValueError:
        raise ValueError(problem) from None
    if not math.isfinite(value) or not low <= value <= high:
        raise ValueError(problem)
    return value


def bid_chance_param(params: dict[str, str]) -> float | None:
    """Take ``bid_chance`` (the heuristic bidding's win-chance threshold) out of a spec's
    parameters: None where the spec gives none."""
    return number_param("bid_chance", params.pop("bid_chance"), 0.05, 0.95) if "bid_chance" in params else None


def seconds_param(name: str, text: str) -> float:
    value = number_param(name, text, 0, MAX_SECONDS, "a number of seconds")
    if value == 0:  # refused as --time 0 is: no time to think is no budget
        raise ValueError(f"{name} must be a number of seconds above 0, not {text!r}")
    return value


@dataclass(frozen=True)
class CardSearch:
    """What a card decision's search starts from (the Monte Carlo loop's and MCTS's)."""

    seat: int
    legal: tuple[Card, ...]
    null_game: bool
    evaluation: Evaluation
    table: np.ndarray
    """The evaluation as a lookup table for the side to move."""
    seed: int
    deadline: float | None
    budget: int | None
    """The worlds (or iterations) to search at most; None: until the deadline."""
    sampler: object
    effective_worlds: float | None
    beliefs: object
    readings: tuple | None


class MonteCarloPlayer(Player):
    name = "montecarlo"
    default_limit = Limit(simulations=DEFAULT_SIMULATIONS)
    tie_margin = 0.0
    """Cards whose evaluation is within this of the best count as tied when
    secondary values can break the tie (PIMC's playouts)."""
    DEFAULT_NEAR = 1.0
    default_declarer_near = "lowest"
    """Which of a declarer's near-tied cards it plays where the spec gives no ``declarer_near``."""
    default_evaluation = Evaluation("mean")
    """The evaluation of suit and grand games where the spec gives no ``eval`` (null: won games)."""
    bid_valuation = "playout"
    """How the search bidder values the card play in a world (``engine.players.bidding.VALUATIONS``)."""

    def __init__(
        self,
        limit: Limit | None = None,
        evaluation: Evaluation | None = None,
        informed: bool = True,
        threads: int = 1,
        seed: int | None = None,
        batch_worlds: int = 8,
        bidding: str = "heuristic",
        inference: bool = False,
        near: float = DEFAULT_NEAR,
        declarer_near: str | None = None,
    ) -> None:
        from .heuristic import HeuristicPlayer

        if not 0 <= near <= 10:
            raise ValueError(f"near must be from 0 to 10 standard errors, not {near!r}")
        self.near = near
        """Cards whose evaluation is within ``near`` standard errors of the best (the paired
        difference over the same worlds) are played as equals: the lowest of them is chosen,
        or by a declarer as ``declarer_near`` says (0: only exact ties, broken at random)."""
        declarer_near = declarer_near or self.default_declarer_near
        if declarer_near not in DECLARER_NEAR:
            raise ValueError(f"declarer_near must be {' or '.join(DECLARER_NEAR)}, not {declarer_near!r}")
        self.declarer_near = declarer_near
        """Among a declarer's near-tied cards: ``heuristic`` plays the heuristic's card when it is
        one of them (else the lowest), ``lowest`` the lowest, as a defender does."""
        self._rule_uses: collections.Counter[str] = collections.Counter()

        self.limit = limit or self.default_limit
        self.evaluation = evaluation
        self.informed = informed
        self.inference = inference
        """Worlds weighted by the other seats' bidding and declaration (``engine.worlds.inference``)."""
        self.threads = max(1, threads)
        self.batch_worlds = batch_worlds
        self.rng = random.Random(seed)
        self.before_play = HeuristicPlayer(seed)
        if bidding not in BIDDING_METHODS:
            raise ValueError(f"bidding must be {' or '.join(BIDDING_METHODS)}, not {bidding!r}")
        self.bidding = bidding
        self.bidder = (SearchBidder(self.limit.simulations or DEFAULT_SIMULATIONS, seed, informed=informed,
                                    valuation=self.bid_valuation) if bidding == "search" else None)
        self._card_after_call: tuple[tuple, Decision] | None = None
        """After a Kontra or Re: the moves it followed, and the card chosen from the same worlds."""

    # ------------------------------------------------------------ parameters

    kind_label = "Monte Carlo"
    kontra_win_share = KONTRA_WIN_SHARE
    """The defenders' win share over the worlds from which this kind says Kontra."""
    own_params: dict = {}
    """A kind's parameters beyond the common ones: name -> reader of its text."""

    @classmethod
    def from_params(cls, params: dict[str, str], seed: int | None = None):
        """The player of a spec's parameters; an unknown one is refused with the list expected."""
        kwargs, rest = cls.common_params(params)
        # the heuristic bidding's threshold belongs to the bidder, not the card search: a
        # searcher's card play wins more games than the heuristic's, whose win chances it reads
        bid_chance = bid_chance_param(rest)
        for name, read in cls.own_params.items():
            if name in rest:
                kwargs[name] = read(rest.pop(name))
        if rest:
            expected = ", ".join(COMMON_PARAMS + tuple(cls.own_params) + ("calls",))
            raise ValueError(f"unknown {cls.kind_label} parameter(s): {', '.join(rest)} (expected {expected})")
        player = cls(seed=seed, **kwargs)
        if bid_chance is not None:
            player.before_play.bid_chance = bid_chance
        return player

    @classmethod
    def common_params(cls, params: dict[str, str]) -> dict:
        params = dict(params)
        kwargs: dict = {}
        time_budget = params.pop("time", None)
        sims = params.pop("simulations", None)
        if time_budget is not None and sims is not None:
            raise ValueError("give the budget as simulations=N or time=T, not both")
        if time_budget is not None or sims is not None:
            kwargs["limit"] = Limit(
                time=seconds_param("time", time_budget) if time_budget is not None else None,
                simulations=whole_number_param("simulations", sims, 1, MAX_SIMULATIONS) if sims is not None else None,
            )
        if "eval" in params:
            kwargs["evaluation"] = Evaluation.parse(params.pop("eval"))
        sampler = params.pop("sampler", "informed")
        if sampler not in SAMPLERS:
            raise ValueError(f"sampler must be {', '.join(SAMPLERS[:-1])} or {SAMPLERS[-1]}, not {sampler!r}")
        kwargs["informed"] = sampler != "simple"
        kwargs["inference"] = sampler == "inference"
        if "threads" in params:
            kwargs["threads"] = whole_number_param("threads", params.pop("threads"), 1, MAX_THREADS)
        if "bidding" in params:
            kwargs["bidding"] = params.pop("bidding")
        if "near" in params:
            kwargs["near"] = number_param("near", params.pop("near"), 0, 10)
        if "declarer_near" in params:
            kwargs["declarer_near"] = params.pop("declarer_near")
        return kwargs, params

    def new_game(self, seat: int) -> None:
        self._card_after_call = None
        self._rule_uses.clear()
        self.before_play.new_game(seat)
        if self.bidder is not None:
            self.bidder.new_game()

    def rule_uses(self) -> dict[str, int]:
        return dict(self._rule_uses)

    # ------------------------------------------------------------ deciding

    core_parts: tuple[str, ...] = readiness.PARTS
    """The parts of the fast core (``engine.players.readiness``) this player's card play needs."""

    def choose(self, view, limit=None, *, stop=None, report=None) -> Decision:
        if view.phase in (Phase.RAMSCH_SKAT, Phase.RAMSCH_DISCARD):
            return self.before_play.choose(view, limit, stop=stop, report=report)
        if view.phase != Phase.PLAY:
            return self.choose_before_play(view, limit, stop=stop, report=report)
        if readiness.pending(*self.core_parts):
            # the search would wait for the compiler: a simple card now instead (said so in its analysis)
            card = simple_card(view)
            return Decision(Play(card), fallback_analysis(self.name, view, card))
        remembered = self._card_after_call
        self._card_after_call = None
        if (remembered is not None and view.moves[:-1] == remembered[0] and view.moves[-1][0] == view.to_move
                and isinstance(view.moves[-1][1], (Kontra, Re))):
            return remembered[1]  # the card the call was decided with, from the same worlds
        # calls=off values the card on the same worlds and only keeps quiet, so that it
        # differs from the calling player in the calls alone
        call = offered_call(view)
        limit = limit or self.limit
        if call is not None and limit.simulations is not None and limit.simulations < CALL_WORLDS:
            limit = replace(limit, simulations=CALL_WORLDS)
        # A call is judged on worlds that read the bidding and the declaration: uniform worlds
        # deal the declarer a random hand, which loses far more often than a declared one.
        decision = self.choose_card(view, limit, stop, report, value_single_card=call is not None,
                                    read_bidding=call is not None)
        if call is None:
            return decision
        say, note = decide_from_worlds(call, decision.analysis, self.kontra_win_share)
        if not self.calls:
            say, note = False, f"calls off ({note})"
        analysis = decision.analysis
        if analysis is not None:
            analysis = replace(analysis, note="; ".join(filter(None, (note, analysis.note))))
        if not say:
            return Decision(decision.move, analysis)
        if stop is None or not stop.is_set():
            self._card_after_call = (view.moves, Decision(decision.move, analysis))
        return Decision(call, analysis)

    def choose_before_play(self, view, limit=None, *, stop=None, report=None) -> Decision:
        if self.bidder is None or view.phase not in CONTRACT_PHASES:
            # bidding=heuristic (its estimates, under this player's name), and the Ramsch's skat
            decision = self.before_play.choose(view, limit, stop=stop, report=report)
            analysis = decision.analysis
            if isinstance(analysis, ContractAnalysis):
                analysis = replace(analysis, player=self.name)
            return Decision(decision.move, analysis, decision.plan)
        # the same budget as a card: worlds, or reference seconds (then as many worlds as fit)
        budget = limit or self.limit
        deadline = time.perf_counter() + wall_seconds(budget.time) if budget.time is not None else None
        worlds = budget.simulations or (MAX_SIMULATIONS if deadline is not None
                                        else self.default_limit.simulations or DEFAULT_SIMULATIONS)
        name = self.name

        def snapshot(analysis: ContractAnalysis) -> None:
            if report is not None:
                report(replace(analysis, player=name, limit=limit or self.limit))

        move = self.bidder.choose(view, worlds, stop, report=snapshot, deadline=deadline)
        analysis = self.bidder.last_analysis
        if analysis is not None:
            analysis = replace(analysis, player=name, limit=limit or self.limit)
        return Decision(move, analysis, self.bidder.last_plan)

    def evaluation_for(self, view: GameState) -> Evaluation:
        if view.is_ramsch:
            return RAMSCH_EVALUATION
        return self.evaluation or default_for(view.declaration.game == GameType.NULL, self.default_evaluation)

    def forced_card(self, view: GameState, limit: Limit, value_single_card: bool) -> Decision | None:
        """The only legal card, played without a search, unless its worlds are wanted (a call)."""
        legal = tuple(cards_of(view.legal_cards()))
        if len(legal) > 1 or value_single_card:
            return None
        analysis = Analysis(self.name, view.to_move, legal, (), legal[0], 0, 0.0, limit,
                            view.game == GameType.NULL, True, "forced card")
        return Decision(Play(legal[0]), analysis)

    def card_search(self, view: GameState, limit: Limit, read_bidding: bool, start: float) -> CardSearch:
        """What a card's search starts from: the evaluation, the seed, the budget and the
        worlds' sampler (inference worlds where the player or the call reads the bidding)."""
        seat = view.to_move
        legal = tuple(cards_of(view.legal_cards()))
        null_game = view.game == GameType.NULL
        evaluation = self.evaluation_for(view)
        table = _evaluation_table(evaluation, seat == view.declarer, null_game)
        decision_seed = self.rng.getrandbits(62)
        deadline = start + wall_seconds(limit.time) if limit.time is not None else None
        budget = limit.simulations
        if budget is None and deadline is None:
            budget = self.default_limit.simulations or DEFAULT_SIMULATIONS
        effective_worlds = None
        if (self.inference or read_bidding) and not view.is_ramsch:  # (Ramsch: nobody bid or declared)
            sampler = InferenceSampler(view, pool_size(budget), decision_seed)
            effective_worlds = sampler.effective_sample_size
        else:
            sampler = WorldSampler(view, self.informed)
        believed = beliefs_of(sampler)
        readings = tuple(sorted(believed.searcher_chances.items())) if effective_worlds is not None else None
        return CardSearch(seat, legal, null_game, evaluation, table, decision_seed, deadline, budget, sampler,
                          effective_worlds, belief_rows(believed), readings)

    def choose_card(
        self, view: GameState, limit: Limit, stop: threading.Event | None, report: AnalysisCallback | None,
        value_single_card: bool = False, read_bidding: bool = False,
    ) -> Decision:
        """The card to play; ``value_single_card`` values a forced card's worlds too (a call depends on them);
        ``read_bidding`` draws the worlds from the inference sampler whatever this player's sampler is."""
        start = time.perf_counter()
        forced = self.forced_card(view, limit, value_single_card)
        if forced is not None:
            return forced
        search = self.card_search(view, limit, read_bidding, start)
        seat, legal, null_game, table, deadline = search.seat, search.legal, search.null_game, search.table, search.deadline
        decision_seed, max_worlds = search.seed, search.budget
        sampler, effective_worlds, beliefs, readings = (search.sampler, search.effective_worlds, search.beliefs,
                                                        search.readings)
        context = self.prepare(view, legal)

        live = [CardAccumulator(card, self.binary_outcomes(null_game)) for card in legal]
        results: dict[int, BatchOutcome] = {}
        unreported: list[BatchOutcome] = []
        lock = threading.Lock()
        next_batch = [0]
        worlds_handed_out = [0]
        worlds_done = [0]
        last_report = [start]

        abandoned = threading.Event()  # the calling thread was interrupted: no more batches

        def take_batch() -> tuple[int, int] | None:
            with lock:
                if abandoned.is_set() or (stop is not None and stop.is_set()):
                    return None
                if deadline is not None and time.perf_counter() >= deadline:
                    return None
                k = next_batch[0]
                first = worlds_handed_out[0]
                if max_worlds is not None and first >= max_worlds:
                    return None
                next_batch[0] += 1
                size = self.batch_worlds
                if max_worlds is not None:
                    # Towards the end of a fixed budget the batches shrink, so that two
                    # threads finish together; the sizes do not depend on the thread count,
                    # so a seed gives the same worlds on any number of threads.
                    size = min(size, -(-(max_worlds - first) // END_BATCH_DIVISOR))
                worlds_handed_out[0] += size
                return k, size

        def work() -> None:
            while (batch := take_batch()) is not None:
                k, size = batch
                rng = random.Random(decision_seed * 1_000_003 + k)
                worlds = [sampler.sample(rng) for _ in range(size)]
                outcome = self.value_worlds(context, worlds, rng.getrandbits(62))
                with lock:
                    results[k] = outcome
                    worlds_done[0] += size if outcome.worlds is None else outcome.worlds
                    if report is None:
                        continue
                    # Live statistics only for the snapshots, brought up to date when one is due
                    # (a numpy pass per card and batch cost ~0.2 ms a PIMC world).
                    unreported.append(outcome)
                    now = time.perf_counter()
                    if now - last_report[0] >= REPORT_INTERVAL:
                        last_report[0] = now
                        _accumulate(live, _concatenated(unreported), table)
                        unreported.clear()
                        report(self._analysis(seat, legal, live, None, worlds_done[0], now - start, limit,
                                              null_game, False, effective_worlds=effective_worlds, beliefs=beliefs,
                                              readings=readings))

        # A single world may take long (PIMC solves): a watcher tells the subclass
        # the moment stop is set or the deadline passes, so it can cut work short.
        finished = threading.Event()
        watcher = None
        if stop is not None or deadline is not None:
            watcher = threading.Thread(target=self._watch, args=(stop, deadline, finished), daemon=True)
            watcher.start()
        try:
            if self.threads == 1:
                work()
            else:
                with ThreadPoolExecutor(self.threads) as pool:
                    try:
                        for future in [pool.submit(work) for _ in range(self.threads)]:
                            future.result()
                    except BaseException:
                        # Ctrl+C reaches only this waiting thread: the workers must quit too, else
                        # leaving the pool waits for them to spend the whole budget
                        abandoned.set()
                        self.on_stop_requested()
                        raise
        finally:
            finished.set()
            if watcher is not None:
                watcher.join()  # a late hook call must not hit the next decision

        # final statistics in batch order: independent of thread timing
        # (one concatenation, not one pass per batch: thousands of small numpy calls would overrun the budget)
        final = [CardAccumulator(card, self.binary_outcomes(null_game)) for card in legal]
        everything = _concatenated([results[k] for k in sorted(results)]) if results else None
        if everything is not None:
            _accumulate(final, everything, table)
        stats = [acc.stats() for acc in final]
        tie_rng = random.Random(decision_seed)
        note = ""
        if worlds_done[0] == 0:
            chosen = legal[tie_rng.randrange(len(legal))]  # stopped before the first world
        else:
            best = max(s.evaluation for s in stats)
            tied = [i for i, s in enumerate(stats) if s.evaluation >= best - 1e-9]
            near = [i for i, s in enumerate(stats) if s.evaluation >= best - self.tie_margin - 1e-9]
            secondary = _tie_break_means([results[k] for k in sorted(results)]) if len(near) > 1 else None
            if secondary is not None:
                tied = near
                top = max(secondary[i] for i in tied)
                what = "tie" if self.tie_margin == 0 else f"within {self.tie_margin:g} of the best"
                note = f"{what}, broken by playout means: " + ", ".join(
                    f"{legal[i].unicode()} {secondary[i]:.1f}" for i in tied)
                tied = [i for i in tied if secondary[i] >= top - 1e-9]
            elif self.near > 0:
                tied = _within_noise(stats, table[everything.points, everything.won.astype(np.int64)], self.near)
            if len(tied) > 1 and self.near > 0:
                # within the noise the cards do the same job: play the lowest, as a good player
                # would; a declarer's lowest card is often a low trump where a jack draws trumps,
                # so it may ask the heuristic which of them its rules play
                game = view.game
                declaring = view.to_move == view.declarer and not view.is_ramsch
                pick = min(tied, key=lambda i: lowest_card_key(game, legal[i]))
                rule = "declarer_near_lowest" if declaring else "defender_near_lowest"
                if declaring and self.declarer_near == "heuristic":
                    card = self.before_play.core_card(view)
                    pick, rule = next(((i, "declarer_near_heuristic") for i in tied if legal[i] == card),
                                      (pick, rule))
                if secondary is None:
                    note = (f"within {self.near:g} standard error{'s' * (self.near != 1)} of the best: "
                            + ", ".join(f"{legal[i].unicode()} {stats[i].evaluation:.2f}" for i in tied))
                note += (f"; the heuristic's card, {legal[pick].unicode()}" if rule == "declarer_near_heuristic"
                         else f"; the lowest card, {legal[pick].unicode()}")
                chosen = legal[pick]
                if not view.is_ramsch:  # a Ramsch has neither a declarer nor defenders to count under
                    self._rule_uses[rule] += 1
            else:
                chosen = legal[tie_rng.choice(tied)]
        analysis = self._analysis(seat, legal, final, chosen, worlds_done[0], time.perf_counter() - start, limit,
                                  null_game, True, note, effective_worlds, beliefs, readings)
        return Decision(Play(chosen), analysis)

    def _analysis(self, seat, legal, accs, chosen, worlds, elapsed, limit, null_game, final, note="",
                  effective_worlds=None, beliefs=None, readings=None) -> Analysis:
        return Analysis(self.name, seat, legal, tuple(a.stats() for a in accs), chosen, worlds, elapsed, limit,
                        null_game, final, note, effective_worlds, beliefs, readings)

    def _watch(self, stop: threading.Event | None, deadline: float | None, finished: threading.Event) -> None:
        """Call ``on_stop_requested`` once stop is set or the deadline passes (unless the search finished)."""
        while not finished.is_set():
            if stop is not None and stop.is_set():
                break
            now = time.perf_counter()
            if deadline is not None and now >= deadline:
                break
            wait = STOP_POLL_SECONDS if deadline is None else min(STOP_POLL_SECONDS, deadline - now)
            finished.wait(wait)
        else:
            return
        self.on_stop_requested()

    # ------------------------------------------------------------ subclass hooks

    def on_stop_requested(self) -> None:
        """Stop or deadline reached during a decision (called from a watcher thread):
        cut long-running work in ``value_worlds`` short.  Batches are not started
        after this anyway; the default does nothing."""

    def binary_outcomes(self, null_game: bool) -> bool:
        """Whether outcomes are only won/lost (histogram of two buckets)."""
        return null_game

    def prepare(self, view: GameState, legal: tuple[Card, ...]):
        """Per-decision data for ``value_worlds`` (called once, in the calling thread)."""
        return view

    @abstractmethod
    def value_worlds(self, context, worlds: list[World], seed: int) -> BatchOutcome:
        """For each legal card (in ``legal`` order) and each world: the side's
        final card points and whether the side won (several samples per world
        where the player repeats playouts)."""


def _evaluation_table(evaluation: Evaluation, declarer_side: bool, null_game: bool) -> np.ndarray:
    """evaluation(points, won) for points 0..120 and won 0/1, as a lookup table."""
    table = np.zeros((121, 2))
    for points in range(121):
        for won in (0, 1):
            table[points, won] = evaluation(points, bool(won), declarer_side, null_game)
    return table


def lowest_card_key(game: GameType, card: Card) -> tuple[int, ...]:
    """Orders cards from the one a good player gives up most easily: fewest card points,
    then a plain card before a trump, then the lowest rank (null: the lowest rank)."""
    if game == GameType.NULL:
        return (STRENGTH[game][card],)
    return (CARD_POINTS[card], CLASS_OF[game][card] == TRUMP_CLASS, STRENGTH[game][card])


def _within_noise(stats, values: np.ndarray, near: float) -> list[int]:
    """The cards whose mean evaluation is within ``near`` standard errors of the best card's,
    the error taken of the paired difference over the same samples (worlds), best first."""
    best = max(range(len(stats)), key=lambda i: stats[i].evaluation)
    samples = values.shape[1]
    close = [best]
    for i in range(len(stats)):
        if i == best:
            continue
        difference = values[best] - values[i]
        gap = float(difference.mean())
        error = float(difference.std(ddof=1)) / math.sqrt(samples) if samples > 1 else 0.0
        if gap <= near * error + 1e-9:
            close.append(i)
    return close


def _tie_break_means(ordered: list[BatchOutcome]) -> np.ndarray | None:
    """Per card, the mean secondary value over all batches (None if a batch has none)."""
    if not ordered or any(o.tie_break is None for o in ordered):
        return None
    values = np.concatenate([o.tie_break for o in ordered], axis=1)
    if values.shape[1] == 0:
        return None
    return values.mean(axis=1)


def _concatenated(outcomes: list[BatchOutcome]) -> BatchOutcome:
    """The outcomes of several batches as one (points and wins only)."""
    return BatchOutcome(np.concatenate([o.points for o in outcomes], axis=1),
                        np.concatenate([o.won for o in outcomes], axis=1))


def _accumulate(accs: list[CardAccumulator], outcome: BatchOutcome, table: np.ndarray) -> None:
    values = table[outcome.points, outcome.won.astype(np.int64)]
    for i, acc in enumerate(accs):
        acc.add_many(outcome.points[i], outcome.won[i], values[i])


def side_won(declarer_points: np.ndarray, defender_tricks: np.ndarray, declarer_tricks: np.ndarray,
             view: GameState, declarer_side: bool) -> np.ndarray:
    """Whether the player's side won each simulated game (announcements included)."""
    declarer_won = declarer_wins(view.declaration, declarer_points, declarer_tricks, defender_tricks)
    return declarer_won if declarer_side else ~declarer_won
