"""Public API of the double-dummy solver.

``solve(pos)`` gives the exact value of a position under best play by all
three seats with all cards known; ``solve_threshold(pos, t)`` answers "does the
declarer reach >= t card points?", which is much cheaper.  Values of suit and
grand games are the declarer's final card points (points already taken and
the skat included); null values are 1 (declarer wins) or 0.

A solve can be stopped from another thread (``SolverContext.request_abort``)
or by a node limit; ``solve``/``solve_threshold`` then raise ``SolveAborted``.

Hot loops (PIMC over many sampled worlds) should skip this module's per-call
conversions and call ``engine.dds.core.solve_value`` / ``solve_root`` directly
with the arrays of a ``SolverContext`` (``*ctx.arrays``), one context per thread.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

import numpy as np

from engine.cards import CARD_POINTS, Card, cards_of
from engine.rules import GameType

from . import core

DEFAULT_TT_BITS = 19  # 2**19 entries * 16 bytes = 8 MiB per thread (2**20 measured no faster)


class SolveAborted(RuntimeError):
    """A solve was stopped by ``SolverContext.request_abort`` or the context's node limit."""


class SolverContext:
    """Per-thread solver state: transposition table, generation counter, search stack.

    Create one per worker thread and reuse it for every world; the generation
    counter invalidates the table between deals in O(1).  Any thread may call
    ``request_abort``: the running solve stops within ~512 nodes and every
    later solve stops at once until ``clear_abort``.  ``node_limit`` (0 = none)
    aborts a single solve that searches more nodes.  The core entry points
    return ``core.ABORTED`` when stopped; ``solve``/``solve_threshold`` raise
    ``SolveAborted``.
    """

    def __init__(self, tt_bits: int = DEFAULT_TT_BITS, flags: int = 0, node_limit: int = 0) -> None:
        if not 2 <= tt_bits <= 28:
            raise ValueError(f"tt_bits must be between 2 and 28 (two-entry buckets), not {tt_bits}")
        self.tt = np.zeros(2 << tt_bits, np.int64)  # two words per entry, two entries per bucket
        self.tt[:] = 0  # touch every page now, not during the first solve
        self.meta = np.zeros(core.META_SIZE, np.int64)
        self.meta[core.META_FLAGS] = flags
        self.meta[core.META_NODE_LIMIT] = node_limit
        self.stack = np.zeros((core.MAX_DEPTH, core.N_FIELDS), np.int64)
        self.moves = np.zeros((core.MAX_DEPTH, core.MOVE_COLUMNS), np.int64)
        self.trick = np.zeros(3, np.int64)
        self.out_cards = np.zeros(12, np.int64)
        self.out_values = np.zeros(12, np.int64)

    def load_trick(self, cards) -> np.ndarray:
        """The context's trick array holding ``cards`` (the current trick, up to two
        cards), zeros after them: the core entry points' ``trick`` argument."""
        self.trick[:] = 0
        for i, card in enumerate(cards):
            self.trick[i] = card
        return self.trick

    @property
    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(tt, meta, stack, moves): the trailing arguments of the core entry points."""
        return self.tt, self.meta, self.stack, self.moves

    def load_trick(self, cards: tuple[int, ...] | list[int]) -> np.ndarray:
        """The context's trick array holding ``cards`` (0..2 cards, zeros after them): the
        ``trick`` argument of the core entry points."""
        self.trick[:] = 0
        self.trick[:len(cards)] = cards
        return self.trick

    @property
    def nodes(self) -> int:
        """Nodes searched by this context so far (all solves)."""
        return int(self.meta[core.META_NODES])

    def request_abort(self) -> None:
        """Stop the running solve (from any thread) and refuse new ones until ``clear_abort``."""
        self.meta[core.META_ABORT] = 1

    def clear_abort(self) -> None:
        self.meta[core.META_ABORT] = 0

    @property
    def abort_requested(self) -> bool:
        return bool(self.meta[core.META_ABORT])

    @property
    def node_limit(self) -> int:
        return int(self.meta[core.META_NODE_LIMIT])

    @node_limit.setter
    def node_limit(self, value: int) -> None:
        self.meta[core.META_NODE_LIMIT] = max(0, value)

    @property
    def flags(self) -> int:
        return int(self.meta[core.META_FLAGS])

    @flags.setter
    def flags(self, value: int) -> None:
        self.meta[core.META_FLAGS] = value


_local = threading.local()


def thread_context() -> SolverContext:
    """This thread's context, created on first use."""
    ctx = getattr(_local, "ctx", None)
    if ctx is None:
        ctx = _local.ctx = SolverContext()
    return ctx


@dataclass(frozen=True)
class Position:
    game: GameType
    declarer: int  # seat 0..2
    hands: tuple[int, int, int]  # remaining cards per seat (masks), cards on the table excluded
    trick: tuple[int, ...] = ()  # cards already played to the current trick, in order (0..2 cards)
    leader: int = 0  # seat that led (or is to lead) the current trick
    declarer_points: int = 0  # card points the declarer already has (incl. skat for suit/grand)
    declarer_tricks: int = 0  # tricks the declarer already took (null: >0 means already lost)
    defender_points: int = 0

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % 3

    def validate(self) -> None:
        if not 0 <= self.declarer <= 2 or not 0 <= self.leader <= 2:
            raise ValueError("seats are 0..2")
        if len(self.trick) > 2:
            raise ValueError("at most 2 cards can lie on the table before the next card")
        seen = 0
        for mask in (*self.hands, *(1 << c for c in self.trick)):
            if mask & seen:
                raise ValueError("a card is in two places")
            seen |= mask
        sizes = [h.bit_count() for h in self.hands]
        for i in range(len(self.trick)):  # players who already played to this trick hold one card fewer
            sizes[(self.leader + i) % 3] += 1
        if len(set(sizes)) != 1:
            raise ValueError(f"hand sizes do not fit the trick: {[h.bit_count() for h in self.hands]}")


@dataclass(frozen=True)
class SolveResult:
    value: int  # suit/grand: declarer's final card points; null: 1 win / 0 loss; threshold queries: 1/0
    per_card: dict[Card, int] = field(default_factory=dict)  # value after each legal card of the player to move
    best_card: Card | None = None
    nodes: int = 0
    ms: float = 0.0


def _run(pos: Position, threshold: int, per_card: bool, ctx: SolverContext | None) -> SolveResult:
    pos.validate()
    ctx = ctx or thread_context()
    trick = ctx.load_trick(pos.trick)
    nodes_before = ctx.nodes
    start = time.perf_counter()
    value, best, count = core.solve_root(
        int(pos.game), pos.declarer, pos.hands[0], pos.hands[1], pos.hands[2], trick, len(pos.trick),
        pos.leader, pos.declarer_points, pos.declarer_tricks, threshold, per_card,
        ctx.out_cards, ctx.out_values, *ctx.arrays)
    ms = (time.perf_counter() - start) * 1000.0
    if value == core.ABORTED:
        raise SolveAborted(f"solve aborted after {ctx.nodes - nodes_before} nodes")
    cards = {Card(int(ctx.out_cards[i])): int(ctx.out_values[i]) for i in range(count)} if per_card else {}
    return SolveResult(value=int(value), per_card=cards, best_card=Card(int(best)) if best >= 0 else None,
                       nodes=ctx.nodes - nodes_before, ms=ms)


def solve(pos: Position, per_card: bool = True, ctx: SolverContext | None = None) -> SolveResult:
    """Exact value under best play (suit/grand: declarer's final card points; null: 1/0)."""
    return _run(pos, core.EXACT, per_card, ctx)


def solve_threshold(pos: Position, threshold: int, per_card: bool = True,
                    ctx: SolverContext | None = None) -> SolveResult:
    """1 if the declarer reaches >= threshold card points under best play, else 0 (null: as ``solve``)."""
    if pos.game != GameType.NULL and not 0 <= threshold <= 120:
        raise ValueError("threshold must be 0..120")
    return _run(pos, max(threshold, 0), per_card, ctx)


def solve_ramsch(hands: tuple[int, int, int], trick: tuple[int, ...] = (), leader: int = 0, own_points: int = 0,
                 skat_points: int = 0, ctx: SolverContext | None = None) -> SolveResult:
    """Ramsch searched paranoid for the player to move: he against both others, who play
    to give him as many card points as they can.  ``own_points``: the card points he has
    taken; ``skat_points``: the skat's, which go with the last trick.  The value (and each
    card's) is the least number of card points he can be held to at the end of the game,
    skat included; Jungfrau and Durchmarsch are not part of it."""
    pos = Position(game=GameType.GRAND, declarer=0, hands=hands, trick=tuple(trick), leader=leader)
    pos.validate()
    ctx = ctx or thread_context()
    player = pos.to_move
    in_play = sum(CARD_POINTS[c] for h in hands for c in cards_of(h)) + sum(CARD_POINTS[c] for c in trick)
    others_points = 120 - own_points - in_play - skat_points
    if others_points < 0:
        raise ValueError(f"more than 120 card points: {own_points} taken, {in_play} in play, {skat_points} in the skat")
    loaded = ctx.load_trick(pos.trick)
    nodes_before = ctx.nodes
    start = time.perf_counter()
    value, best, count = core.solve_root_ramsch(
        player, hands[0], hands[1], hands[2], loaded, len(pos.trick), leader, others_points, skat_points,
        core.EXACT, True, ctx.out_cards, ctx.out_values, *ctx.arrays)
    ms = (time.perf_counter() - start) * 1000.0
    if value == core.ABORTED:
        raise SolveAborted(f"solve aborted after {ctx.nodes - nodes_before} nodes")
    cards = {Card(int(ctx.out_cards[i])): 120 - int(ctx.out_values[i]) for i in range(count)}
    return SolveResult(value=120 - int(value), per_card=cards, best_card=Card(int(best)) if best >= 0 else None,
                       nodes=ctx.nodes - nodes_before, ms=ms)
