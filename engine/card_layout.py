"""The internal card layout the numba cores share: tables, bit helpers, rule copies.

Per game type the 32 cards are renumbered so that each follow class is a
contiguous run of bits ordered by strength, with the trump class on top (in
null games this is the standard layout).  Then "follow the led class" is one
AND, "card a beats card b" is ``a > b`` for a card that may win, equivalent
cards are neighbouring bits, "the weakest card of a set of one class" is its
lowest bit and "the cards of the class above c" is a mask.

The tables are derived from ``engine.rules`` and ``engine.cards`` at import
time; numba freezes them into the compiled code as constants.  The rules the
cores use (legal cards, trick winner, card points) are written here once;
``legal_cards_std`` / ``trick_winner_std`` / ``points_std`` give them in the
standard layout so that tests can pin them to ``engine.rules``.

Numba caches compiled code per source file and does not notice when a file
it calls into changes (a cached caller keeps the old callee inlined), so
``drop_stale_caches`` clears the cores' cache files whenever any of their
sources differs from the ones the cache was built from.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from engine.cards import CARD_POINTS
from engine.rules import CLASS_OF, STRENGTH, TRUMP_CLASS

GRAND_GAME = 4
NULL_GAME = 5
RAMSCH_GAME = 6
"""Ramsch in the cores: grand's cards and trick rules (jacks the only trumps), and in the
solver a paranoid objective (``value_counts``)."""
N_GAMES = 7
N_CLASSES = 5  # four plain suits and the trump class (empty in null games)


def _rules_row(g: int) -> int:
    """The ``engine.rules`` table row of core game g (Ramsch plays by grand's trick rules)."""
    return GRAND_GAME if g == RAMSCH_GAME else g

# ---------------------------------------------------------------- tables


def _build_tables():
    to_internal = np.zeros((N_GAMES, 32), np.int64)
    to_standard = np.zeros((N_GAMES, 32), np.int64)
    points = np.zeros((N_GAMES, 32), np.int64)
    card_class = np.zeros((N_GAMES, 32), np.int64)
    class_masks = np.zeros((N_GAMES, N_CLASSES), np.int64)
    for g in range(N_GAMES):
        classes, strength = CLASS_OF[_rules_row(g)], STRENGTH[_rules_row(g)]
        order = sorted(range(32), key=lambda c: (classes[c] == TRUMP_CLASS, classes[c], strength[c]))
        for index, card in enumerate(order):
            to_internal[g, card] = index
            to_standard[g, index] = card
            points[g, index] = CARD_POINTS[card]
            card_class[g, index] = classes[card]
            class_masks[g, classes[card]] |= 1 << index
    same_class = np.zeros((N_GAMES, 32), np.int64)
    above = np.zeros((N_GAMES, 32), np.int64)
    below = np.zeros((N_GAMES, 32), np.int64)
    for g in range(N_GAMES):
        for i in range(32):
            same = class_masks[g, card_class[g, i]]
            same_class[g, i] = same
            above[g, i] = same & ~((2 << i) - 1)
            below[g, i] = same & ((1 << i) - 1)
    return to_internal, to_standard, points, card_class, class_masks, same_class, above, below


TO_INTERNAL, TO_STANDARD, POINTS, CARD_CLASS, CLASS_MASKS, SAME_CLASS, ABOVE, BELOW = _build_tables()
"""TO_INTERNAL[g, card] / TO_STANDARD[g, i]: the renumbering; POINTS[g, i]: card points;
CARD_CLASS[g, i]: follow class (0..3 plain, ``TRUMP_CLASS``); CLASS_MASKS[g, k]: the cards of
class k; SAME_CLASS[g, i]: the cards of i's class; ABOVE / BELOW[g, i]: its stronger / weaker
cards of that class."""
TRUMP_MASK = CLASS_MASKS[:, TRUMP_CLASS].copy()

# Cards by point value: POINT_LEVELS ascending, LEVEL_MASK[g, level] the cards
# worth POINT_LEVELS[level] (for the cheapest or costliest cards of a set).
POINT_LEVELS = np.array(sorted(set(CARD_POINTS)), np.int64)
N_POINT_LEVELS = len(POINT_LEVELS)
LEVEL_MASK = np.array([[sum(1 << c for c in range(32) if POINTS[g, c] == p) for p in POINT_LEVELS]
                       for g in range(N_GAMES)], np.int64)
LEVEL_OF = {int(p): level for level, p in enumerate(POINT_LEVELS)}
"""Point value -> its level (``LEVEL_MASK[g, LEVEL_OF[11]]``: the aces)."""

# Points of each byte of an internal mask, so a mask's points are four lookups.
BYTE_POINTS = np.array([[[sum(POINTS[g, pos * 8 + b] for b in range(8) if value >> b & 1) for value in range(256)]
                         for pos in range(4)] for g in range(N_GAMES)], np.int64)


def _build_follow_classes():
    """Each game type's non-empty follow classes as masks, lowest first."""
    masks = np.zeros((N_GAMES, 8), np.int64)
    counts = np.zeros(N_GAMES, np.int64)
    for g in range(N_GAMES):
        for m in sorted(set(int(x) for x in SAME_CLASS[g])):
            masks[g, counts[g]] = m
            counts[g] += 1
    return masks, counts


FOLLOW_CLASSES, N_FOLLOW_CLASSES = _build_follow_classes()

# PEXT8[m, x]: the bits of x at the set bits of m, packed to the low end (a software pext per byte).
PEXT8 = np.zeros((256, 256), np.uint8)
for _m in range(256):
    _bits = [b for b in range(8) if _m >> b & 1]
    for _x in range(256):
        PEXT8[_m, _x] = sum(1 << k for k, b in enumerate(_bits) if _x >> b & 1)
BYTE_COUNT = np.array([bin(v).count("1") for v in range(256)], np.int64)

# ---------------------------------------------------------------- bit helpers


def _bit_intrinsic(op):
    """An int64 -> int64 intrinsic on LLVM's bit-count instructions (tzcnt / lzcnt / popcnt)."""

    @intrinsic
    def _impl(typingctx, x):
        if not isinstance(x, types.Integer):
            return None

        def codegen(context, builder, signature, args):
            v = context.cast(builder, args[0], signature.args[0], types.int64)
            if op == "ctpop":
                return builder.ctpop(v)
            flag = ir.Constant(ir.IntType(1), 0)  # defined for 0 (returns 64)
            return builder.cttz(v, flag) if op == "cttz" else builder.ctlz(v, flag)

        return types.int64(x), codegen

    return _impl


_cttz = _bit_intrinsic("cttz")
_ctlz = _bit_intrinsic("ctlz")
_ctpop = _bit_intrinsic("ctpop")


@njit(cache=True, nogil=True, inline="always")
def low_index(x):
    """Index of the lowest set bit of x (> 0)."""
    return _cttz(x)


@njit(cache=True, nogil=True, inline="always")
def high_index(x):
    """Index of the highest set bit of x (> 0)."""
    return 63 - _ctlz(x)


@njit(cache=True, nogil=True, inline="always")
def popcount(x):
    return _ctpop(x)


@njit(cache=True, nogil=True, inline="always")
def seat(x):
    """x % 3 for a seat sum 0 <= x <= 5 (no division, no sign fix-up)."""
    return x - 3 if x >= 3 else x


@njit(cache=True, nogil=True, inline="always")
def mask_points(g, m):
    """Card points of the internal mask m."""
    return (BYTE_POINTS[g, 0, m & 255] + BYTE_POINTS[g, 1, (m >> 8) & 255]
            + BYTE_POINTS[g, 2, (m >> 16) & 255] + BYTE_POINTS[g, 3, (m >> 24) & 255])


@njit(cache=True, nogil=True, inline="always")
def _renumber_mask(m, new_index):
    """The mask with each card c moved to bit new_index[c]."""
    out = 0
    while m:
        c = low_index(m)
        m &= m - 1
        out |= 1 << new_index[c]
    return out


@njit(cache=True, nogil=True)
def to_internal_mask(g, m):
    return _renumber_mask(m, TO_INTERNAL[g])


@njit(cache=True, nogil=True)
def to_standard_mask(g, m):
    return _renumber_mask(m, TO_STANDARD[g])


def _host_has_fast_pext():
    """BMI2 pext is one fast instruction except on AMD before Zen 3 (microcoded there);
    only used when numba compiles for this host's CPU."""
    from numba.core import config

    if config.CPU_NAME or config.CPU_FEATURES:
        return False
    try:
        import llvmlite.binding as llvm

        name = llvm.get_host_cpu_name()
        return bool(llvm.get_host_cpu_features().get("bmi2")) and name not in ("znver1", "znver2") \
            and not name.startswith("bdver")
    except Exception:  # pragma: no cover - unknown host: the portable version
        return False


FAST_PEXT = _host_has_fast_pext()


@intrinsic
def _pext_bmi2(typingctx, x, u):
    """BMI2 pext of int64 values."""
    if not (isinstance(x, types.Integer) and isinstance(u, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64, i64]), "llvm.x86.bmi.pext.64")
        a = context.cast(builder, args[0], signature.args[0], types.int64)
        m = context.cast(builder, args[1], signature.args[1], types.int64)
        return builder.call(fn, [a, m])

    return types.int64(x, u), codegen


if FAST_PEXT:
    @njit(cache=True, nogil=True, inline="always")
    def pext(x, u):
        """The bits of x at the set bits of u, packed to the low end (BMI2)."""
        return _pext_bmi2(x, u)
else:
    @njit(cache=True, nogil=True, inline="always")
    def pext(x, u):
        """The bits of x at the set bits of u, packed to the low end (byte tables)."""
        out = 0
        shift = 0
        for k in range(4):
            m = (u >> (8 * k)) & 255
            if m:
                out |= np.int64(PEXT8[m, (x >> (8 * k)) & 255]) << shift
                shift += BYTE_COUNT[m]
        return out

# ---------------------------------------------------------------- rules on internal cards


@njit(cache=True, nogil=True, inline="always")
def legal_internal(g, hand, led):
    """The cards of ``hand`` that may be played on the internal card ``led`` (< 0: on lead)."""
    if led < 0:
        return hand
    following = hand & SAME_CLASS[g, led]
    return following if following else hand


@njit(cache=True, nogil=True, inline="always")
def value_counts(g, winner, decl):
    """Do the points of a trick taken by ``winner`` count in the solver's value?  The
    value is the declarer's card points, except in Ramsch, where ``decl`` is the player
    searching paranoid (against both others) and the value is the others' points: he
    maximises it, so minimises his own."""
    return (winner == decl) != (g == RAMSCH_GAME)


@njit(cache=True, nogil=True, inline="always")
def beats(g, card, best):
    """Does ``card`` beat ``best``, the card winning the trick so far?  Only a card of
    best's class or a trump may, and trumps are on top."""
    return ((SAME_CLASS[g, best] | TRUMP_MASK[g]) >> card) & 1 != 0 and card > best


@njit(cache=True, nogil=True, inline="always")
def winner_offset(g, a, b, c):
    """Position (0..2) in the trick of the winning card among internal cards a (led), b, c."""
    eligible = SAME_CLASS[g, a] | TRUMP_MASK[g]
    best = a
    pos = 0
    if (eligible >> b) & 1 and b > best:
        best = b
        pos = 1
    if (eligible >> c) & 1 and c > best:
        pos = 2
    return pos


@njit(cache=True, nogil=True)
def legal_cards_std(hand, g, led):
    """Legal cards of ``hand`` (standard masks) when ``led`` (-1: none) was led."""
    if led < 0:
        return hand
    return to_standard_mask(g, legal_internal(g, to_internal_mask(g, hand), TO_INTERNAL[g, led]))


@njit(cache=True, nogil=True)
def trick_winner_std(g, a, b, c):
    """Index (0 = the lead) of the winner of the trick a, b, c (standard cards)."""
    return winner_offset(g, TO_INTERNAL[g, a], TO_INTERNAL[g, b], TO_INTERNAL[g, c])


@njit(cache=True, nogil=True)
def beats_std(g, card, best):
    """``beats`` on standard cards."""
    return beats(g, TO_INTERNAL[g, card], TO_INTERNAL[g, best])


@njit(cache=True, nogil=True)
def points_std(g, m):
    return mask_points(g, to_internal_mask(g, m))

# ---------------------------------------------------------------- numba's cache

CORE_SOURCES = (
    "card_layout.py", "dds/context.py", "dds/moves.py", "dds/bounds.py", "dds/null_table.py", "dds/endgame.py",
    "dds/search.py", "dds/core.py", "policy/heuristic_core.py", "policy/playout_core.py", "policy/mcts_core.py",
    "worlds/inference_core.py",
)
"""The numba cores' source files below ``engine/`` (every file with cached numba functions, and
the constants they use): one compiled function may contain code of all of them."""
TABLE_SOURCES = ("rules.py", "cards.py")
"""The files the tables are derived from (frozen into the compiled code)."""
SOURCES_STAMP = "numba-cores-sources.sha256"


def _cache_dir(source: Path) -> Path | None:
    """The folder numba caches ``source``'s functions in (its own choice of locator)."""
    from numba.core.caching import FunctionCache

    def probe():
        pass

    probe.__code__ = probe.__code__.replace(co_filename=str(source))
    try:
        return Path(FunctionCache(probe).cache_path)
    except Exception:  # no usable cache folder: numba will not cache either
        return None


def drop_stale_caches() -> int:
    """Delete the cores' cached compiled code where it may have been built from other sources
    than these; returns the number of files deleted.

    Numba checks only the source file of the function it loads, but a cached function
    contains the code of every core function it calls, from any file.  A stamp beside the
    cache (a hash over all the cores' sources) tells whether the cache is theirs."""
    root = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for name in CORE_SOURCES + TABLE_SOURCES:
        path = root / name
        digest.update(name.encode() + b"\0" + (path.read_bytes() if path.exists() else b""))
    stamp_text = digest.hexdigest()
    deleted = 0
    by_folder: dict[Path, list[Path]] = {}
    for name in CORE_SOURCES:
        by_folder.setdefault((root / name).parent, []).append(root / name)
    for folder, sources in by_folder.items():
        cache = _cache_dir(sources[0])
        if cache is None or not cache.is_dir():
            continue
        stamp = cache / SOURCES_STAMP
        try:
            if stamp.read_text() == stamp_text:
                continue
        except OSError:
            pass
        for source in sources:
            for path in list(cache.glob(f"{source.stem}.*.nbi")) + list(cache.glob(f"{source.stem}.*.nbc")):
                try:
                    path.unlink()
                    deleted += 1
                except OSError:  # another process got there first
                    pass
        try:
            stamp.write_text(stamp_text)
        except OSError:
            pass
    return deleted


drop_stale_caches()
