"""MCTS: information-set Monte Carlo tree search for the card play.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012) as the Tarok
thesis (seed 002) uses UCT: every iteration samples one world consistent with
the mover's view (the samplers MCU and PIMC use: ``sampler=informed``,
``simple`` or ``inference``), walks the tree of the mover's information (nodes
keyed by the cards played since the decision, children by the cards legal in
that world for the seat to move) by UCB1 with the exploration constant ``c``,
adds one node, plays the rest out (``playout=heuristic``, the numba core's
heuristic, or ``random``) and backs the outcome up as each seat's value: its
side's evaluation (the ``eval`` choices of MCU, scaled to 0..1) in a normal
game, its own points (max^n) in a Ramsch.  The card chosen is the root child
visited most often (ties: the better mean evaluation).

The tree and the walk live in ``engine.policy.mcts_core`` (one numba call per
batch of worlds, GIL released).  With ``threads=N`` each thread grows its own
tree over its share of the iterations and the root statistics are summed (root
parallelisation): a ``simulations`` budget and a seed give the same choice for
the same thread count.  A ``simulations`` budget counts iterations (one world
each); ``time`` is in reference seconds as for MCU.  Bidding, skat, declaration
and Kontra/Re are the shared Monte Carlo player's (``engine.players.montecarlo``).
"""

from __future__ import annotations

import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import numpy as np

from . import readiness
from ..analysis import Analysis, CardAccumulator
from ..evaluation import Evaluation
from ..game import GameState, Play
from ..limits import Limit
from ..policy import heuristic_core
from ..policy import mcts_core
from ..rules import GameType, void_classes
from ..scoring import ALL_POINTS, declarer_wins
from ..worlds.inference import InferenceSampler
from ..worlds.sampling import World
from .base import AnalysisCallback, Decision
from .calls import CALL_WORLDS
from .montecarlo import (
    REPORT_INTERVAL, BatchOutcome, MonteCarloPlayer, _evaluation_table, number_param,
)
from .ramsch import known_skat

DEFAULT_C = 0.7
"""The exploration constant of UCB1 on values scaled to 0..1 (√2/2 ≈ 0.7: UCT's classic choice)."""
PLAYOUTS = {"random": mcts_core.PLAYOUT_RANDOM, "heuristic": mcts_core.PLAYOUT_HEURISTIC}
BATCH_WORLDS = 512
"""Iterations (worlds) per core call: the stop and the deadline are checked between calls.  A batch
takes 1-3 ms; smaller ones lose to the Python around each call (sampling the worlds): one run, first
trick of a suit game, 100,000 iterations, 1 / 2 threads: 181,000 / 193,000 iterations/s at 64,
230,000 / 297,000 at 256, 301,000 / 361,000 at 1,024."""
MAX_NODES = 400_000
"""A tree grows no further (about 70 MB); its leaves are then played out."""
BATCH_SECONDS = 0.005
"""Under a time budget a batch is sized to take about this long at the rate of the one before
(between 16 and ``batch_worlds`` worlds), so a stop or the deadline waits little even on a busy
machine.  A simulation budget keeps fixed batches: their sizes decide the worlds a seed gives."""


def _playout_param(text: str) -> str:
    value = str(text).strip().lower()
    if value not in PLAYOUTS:
        raise ValueError(f"playout must be {' or '.join(PLAYOUTS)}, not {text!r}")
    return value


def _scaled(table: np.ndarray) -> np.ndarray:
    """An evaluation table scaled to 0..1 (UCB's exploration term assumes rewards in 0..1)."""
    low, high = float(table.min()), float(table.max())
    if high - low < 1e-12:
        return np.full_like(table, 0.5)
    return np.ascontiguousarray((table - low) / (high - low))


class _Tree:
    """One search tree in numpy arrays (node 0 the root), room for ``capacity`` nodes.

    The arrays are left uninitialised (``np.empty``: the kernel clears each node it adds), so
    the memory of nodes never added is never touched: growing a tree by copying it cost up to
    0.3 s on a busy machine."""

    def __init__(self, capacity: int) -> None:
        self.child = np.empty((capacity, 32), np.int32)
        self.visits = np.empty(capacity, np.int64)
        self.avail = np.empty(capacity, np.int64)
        self.value = np.empty((capacity, 3))
        self.child[0] = mcts_core.NO_NODE
        self.visits[0] = self.avail[0] = 0
        self.value[0] = 0.0
        self.n_nodes = np.ones(1, np.int64)
        self.depth = 0

    @property
    def nodes(self) -> int:
        return int(self.n_nodes[0])


def sample_batch(sampler, count: int, generator: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """``count`` worlds of ``sampler`` as arrays (hands (count, 3), skats (count,)), drawn with numpy."""
    if isinstance(sampler, InferenceSampler):
        cumulative = np.asarray(sampler._cumulative)
        index = np.minimum(np.searchsorted(cumulative, generator.random(count), side="right"),
                           len(sampler.skats) - 1)
        return (np.ascontiguousarray(sampler.hands[index], dtype=np.int64),
                np.ascontiguousarray(sampler.skats[index], dtype=np.int64))
    hands, skats = sampler.sample_arrays(count, generator)
    return np.ascontiguousarray(hands, dtype=np.int64), np.ascontiguousarray(skats, dtype=np.int64)


class MCTSPlayer(MonteCarloPlayer):
    name = "mcts"
    kind_label = "MCTS"
    core_parts = (readiness.HEURISTIC, readiness.PLAYOUTS)  # no solver
    own_params = {
        "c": lambda text: number_param("c", text, 0, 100),
        "playout": _playout_param,
    }

    def __init__(self, limit: Limit | None = None, evaluation: Evaluation | None = None, informed: bool = True,
                 threads: int = 1, seed: int | None = None, batch_worlds: int = BATCH_WORLDS,
                 bidding: str = "heuristic", inference: bool = False,
                 near: float = MonteCarloPlayer.DEFAULT_NEAR, c: float = DEFAULT_C,
                 playout: str = "heuristic", declarer_near: str | None = None) -> None:
        super().__init__(limit, evaluation, informed, threads, seed, batch_worlds, bidding, inference, near,
                         declarer_near)
        if not 0 <= c <= 100:
            raise ValueError(f"c must be from 0 to 100, not {c!r}")
        self.c = float(c)
        self.playout = _playout_param(playout)

    def value_worlds(self, context, worlds: list[World], seed: int) -> BatchOutcome:
        raise NotImplementedError("MCTS searches a tree per decision (choose_card), not card by card per world")

    # ------------------------------------------------------------ the search

    def choose_card(
        self, view: GameState, limit: Limit, stop: threading.Event | None, report: AnalysisCallback | None,
        value_single_card: bool = False, read_bidding: bool = False,
    ) -> Decision:
        """The most visited card of the root; ``value_single_card`` searches a forced card's worlds
        too (a call depends on them); ``read_bidding`` draws the worlds from the inference sampler."""
        start = time.perf_counter()
        forced = self.forced_card(view, limit, value_single_card)
        if forced is not None:
            return forced
        if value_single_card and limit.simulations is not None:
            # a call is decided on the card chosen, and a card gets only its share of the iterations:
            # each legal card's share of the iterations at least the worlds a call needs
            legal_count = view.legal_cards().bit_count()
            limit = replace(limit, simulations=max(limit.simulations, CALL_WORLDS * legal_count))
        search = self.card_search(view, limit, read_bidding, start)
        seat, legal, null_game, table, deadline = search.seat, search.legal, search.null_game, search.table, search.deadline
        evaluation, decision_seed, max_iterations = search.evaluation, search.seed, search.budget
        sampler, effective_worlds, beliefs, readings = (search.sampler, search.effective_worlds, search.beliefs,
                                                        search.readings)
        args = self._kernel_args(view, evaluation, null_game)

        trees = [_Tree(min(MAX_NODES, (max_iterations or MAX_NODES) + 1)) for _ in range(self.threads)]
        shares = [None] * self.threads
        if max_iterations is not None:
            base, extra = divmod(max_iterations, self.threads)
            shares = [base + (k < extra) for k in range(self.threads)]
        binary = self.binary_outcomes(null_game)
        live = [CardAccumulator(card, binary) for card in legal]
        index_of = {int(card): i for i, card in enumerate(legal)}
        results: dict[tuple[int, int], np.ndarray] = {}
        unreported: list[np.ndarray] = []
        lock = threading.Lock()
        done = [0]
        last_report = [start]
        abandoned = threading.Event()

        def stopped() -> bool:
            return (abandoned.is_set() or (stop is not None and stop.is_set())
                    or (deadline is not None and time.perf_counter() >= deadline))

        def grow(k: int) -> None:
            tree = trees[k]
            j = 0
            remaining = shares[k]
            generator = np.random.default_rng((decision_seed, k))  # tree k's worlds, whatever the timing
            size = min(self.batch_worlds, 64)
            while not stopped() and (remaining is None or remaining > 0):
                if remaining is not None:
                    size = min(self.batch_worlds, remaining)
                hands, skats = sample_batch(sampler, size, generator)
                out = np.zeros((size, 4), np.int64)
                began = time.perf_counter()
                depth = mcts_core.mcts_batch(
                    *args, tree.child, tree.visits, tree.avail, tree.value, tree.n_nodes,
                    int(generator.integers(1 << 62)), out, hands, skats)
                tree.depth = max(tree.depth, int(depth))
                if remaining is None:  # a time budget: the next batch to take about BATCH_SECONDS
                    rate = size / max(time.perf_counter() - began, 1e-6)
                    size = int(min(self.batch_worlds, max(16, rate * BATCH_SECONDS)))
                else:
                    remaining -= size
                with lock:
                    results[(k, j)] = out
                    done[0] += len(out)
                    if report is not None:
                        unreported.append(out)
                        now = time.perf_counter()
                        if now - last_report[0] >= REPORT_INTERVAL:
                            last_report[0] = now
                            self._accumulate(live, index_of, np.concatenate(unreported), table)
                            unreported.clear()
                            report(self._snapshot(seat, legal, live, None, done[0], now - start, limit, null_game,
                                                  False, trees, "", effective_worlds, beliefs, readings))
                j += 1

        if self.threads == 1:
            grow(0)
        else:
            with ThreadPoolExecutor(self.threads) as pool:
                try:
                    for future in [pool.submit(grow, k) for k in range(self.threads)]:
                        future.result()
                except BaseException:
                    abandoned.set()  # Ctrl+C reaches only this thread: the workers quit after their batch
                    raise

        final = [CardAccumulator(card, binary) for card in legal]
        if results:
            self._accumulate(final, index_of, np.concatenate([results[key] for key in sorted(results)]), table)
        stats = [acc.stats() for acc in final]
        if done[0] == 0:
            chosen = legal[random.Random(decision_seed).randrange(len(legal))]  # stopped before the first world
        else:
            best = max(range(len(legal)), key=lambda i: (stats[i].simulations, stats[i].evaluation))
            chosen = legal[best]
        analysis = self._snapshot(seat, legal, final, chosen, done[0], time.perf_counter() - start, limit,
                                  null_game, True, trees, "the most visited card", effective_worlds, beliefs,
                                  readings)
        return Decision(Play(chosen), analysis)

    def _kernel_args(self, view: GameState, evaluation: Evaluation, null_game: bool) -> tuple:
        """The arguments of ``mcts_core.mcts_batch`` that describe the position (those before the tree)."""
        trick = np.zeros(3, np.int64)
        for i, card in enumerate(view.trick):
            trick[i] = card
        known = np.zeros(3, np.int64)
        win_table = np.zeros((ALL_POINTS + 1, 2, 2), np.bool_)
        if view.is_ramsch:
            g = heuristic_core.RAMSCH
            decl = 0
            known[view.to_move] = known_skat(view)
            voids = void_classes(GameType.GRAND, view.tricks, view.trick, view.leader)
            decl_values = def_values = np.zeros((ALL_POINTS + 1, 2))
            skat_known = False
            ouvert = False
        else:
            game = view.declaration.game
            g = int(game)
            decl = view.declarer
            voids = void_classes(game, view.tricks, view.trick, view.leader)
            points = np.arange(ALL_POINTS + 1)[:, None, None]
            took = np.array([0, 1])
            win_table[:] = declarer_wins(view.declaration, points, took[None, :, None], took[None, None, :])
            decl_values = _scaled(_evaluation_table(evaluation, True, null_game))
            def_values = _scaled(_evaluation_table(evaluation, False, null_game))
            skat_known = bool(view.skat_taken)
            ouvert = bool(view.declaration.ouvert)
        return (g, decl, skat_known, ouvert, trick, len(view.trick), view.leader,
                np.array(view.points, np.int64), np.array(view.trick_counts, np.int64), int(view.played),
                np.array(voids, np.int64), known, self.c, PLAYOUTS[self.playout], win_table, decl_values, def_values)

    @staticmethod
    def _accumulate(accs: list[CardAccumulator], index_of: dict[int, int], rows: np.ndarray, table: np.ndarray) -> None:
        cards, points, won = rows[:, 0], rows[:, 1], rows[:, 2]
        values = table[points, won]
        for card, i in index_of.items():
            mine = cards == card
            if mine.any():
                accs[i].add_many(points[mine], won[mine].astype(bool), values[mine])

    def _snapshot(self, seat, legal, accs, chosen, iterations, elapsed, limit, null_game, final, trees, note,
                  effective_worlds, beliefs, readings) -> Analysis:
        nodes = sum(tree.nodes for tree in trees)
        depth = max(tree.depth for tree in trees)
        trees_word = f"{len(trees)} trees, " if len(trees) > 1 else ""
        how = f"ISMCTS, {trees_word}c={self.c:g}, {self.playout} play-outs"
        return Analysis(self.name, seat, legal, tuple(a.stats() for a in accs), chosen, iterations, elapsed, limit,
                        null_game, final, "; ".join(filter(None, (note, how))), effective_worlds, beliefs, readings,
                        nodes, depth)
