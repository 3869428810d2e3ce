"""Numba core of the double-dummy solver.

Search: fail-soft alpha-beta over single card plays with an explicit stack
(a recursive ``@njit(cache=True)`` function crashed when loaded from the cache
in another process, numba issue #6061).  Every search is a zero-window test
"does the declarer reach >= gamma card points?"; the exact value is found by
bisecting gamma (MTD-style), and all tests of one deal share the
transposition table, whose entries are bounds on the declarer's *future*
points at trick starts.  The table is keyed on the quasi-symmetric view of a
position (owners rank by rank in every follow class, not which cards): a
position that differs from a stored one only in the points of its cards
uses the stored bounds shifted by those points (``_point_shift``).
Trick starts also try static bounds (``_sure_points``: unbeatable trumps and
runs of sure tricks; null: ``_null_declarer_safe``, ``_null_lead_wins_trick``)
before expanding.  A search can be aborted (``META_ABORT``, node limit).

Internal card layout.  The core renumbers the 32 cards per game type so that
each follow class is a contiguous run of bits, ordered by strength, with the
trump class on top.  Then "follow the led class" is one AND, "does card a
beat card b" is ``a > b`` for eligible cards, and equivalent cards are
neighbouring bits.  The tables are derived from ``engine.rules`` at import
time; ``legal_cards_std`` / ``trick_winner_std`` / ``points_std`` expose the
core's view in the standard layout so tests can pin it to ``engine.rules``.

All entry points are ``@njit(cache=True, nogil=True)`` and take the arrays of
a per-thread context (see ``engine.dds.solver.SolverContext``):
``tt`` (int64[2 * 2**k], the transposition table), ``meta`` (int64[META_SIZE]:
generation, node counter, flags, abort word, node limit), ``st`` (int64[MAX_DEPTH, N_FIELDS], the explicit
stack) and ``mv`` (int64[MAX_DEPTH, MOVE_COLUMNS], move lists).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from engine.cards import CARD_POINTS
from engine.rules import CLASS_OF, STRENGTH, TRUMP_CLASS

NULL_GAME = 5

# ---------------------------------------------------------------- tables


def _build_tables():
    to_internal = np.zeros((6, 32), np.int64)
    to_card = np.zeros((6, 32), np.int64)
    points = np.zeros((6, 32), np.int64)
    class_mask = np.zeros((6, 32), np.int64)  # internal mask of a card's follow class
    trump_mask = np.zeros(6, np.int64)
    for g in range(6):
        order = sorted(range(32), key=lambda c: (CLASS_OF[g][c] == TRUMP_CLASS, CLASS_OF[g][c], STRENGTH[g][c]))
        for idx, card in enumerate(order):
            to_internal[g, card] = idx
            to_card[g, idx] = card
            points[g, idx] = CARD_POINTS[card]
        for idx in range(32):
            cls = CLASS_OF[g][to_card[g, idx]]
            class_mask[g, idx] = sum(1 << j for j in range(32) if CLASS_OF[g][to_card[g, j]] == cls)
            if cls == TRUMP_CLASS:
                trump_mask[g] |= 1 << idx
    # Points of each byte of an internal mask, to sum a mask's points in 4 lookups.
    byte_points = np.zeros((6, 4, 256), np.int64)
    for g in range(6):
        for pos in range(4):
            for value in range(256):
                byte_points[g, pos, value] = sum(points[g, pos * 8 + b] for b in range(8) if value >> b & 1)
    return to_internal, to_card, points, class_mask, trump_mask, byte_points


TO_INTERNAL, TO_CARD, POINTS, CLASS_MASK, TRUMP_MASK, BYTE_POINTS = _build_tables()
# Internal masks of the cards worth each point value, cheapest first (for lower
# bounds on what a hand must give to a run of tricks).
LEVEL_POINTS = np.array(sorted(set(CARD_POINTS)), np.int64)
N_POINT_LEVELS = len(LEVEL_POINTS)
LEVEL_MASK = np.array([[sum(1 << c for c in range(32) if POINTS[g, c] == p) for p in LEVEL_POINTS]
                       for g in range(6)], np.int64)


def _build_follow_classes():
    """Each game type's follow classes as masks (for class counts and rank-by-rank mapping)."""
    masks = np.zeros((6, 8), np.int64)
    counts = np.zeros(6, np.int64)
    for g in range(6):
        for m in sorted(set(int(x) for x in CLASS_MASK[g])):
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

# ---------------------------------------------------------------- context layout

MAX_DEPTH = 34  # 30 card plays + root + slack
MAX_MOVES = 12
MOVE_COLUMNS = 2 * MAX_MOVES  # moves, then their ordering scores
N_FIELDS = 21
(F_H0, F_H1, F_H2, F_LEAD, F_N, F_T0, F_T1, F_ACC, F_REM, F_ALPHA, F_BETA, F_ALPHA0, F_BETA0,
 F_BEST, F_BESTMOVE, F_MI, F_NM, F_SLOT, F_KEY0, F_KILLER, F_DEFERRED) = range(N_FIELDS)

META_GEN, META_NODES, META_FLAGS, META_ABORT, META_NODE_LIMIT, META_SOLVE_START = 0, 1, 2, 3, 4, 5
META_SIZE = 8
# META_ABORT: set (non-zero) from any thread to stop the running and every later
# solve of this context until cleared.  META_NODE_LIMIT: nodes one solve may
# search (0 = no limit); META_SOLVE_START: node counter when the solve began.
ABORT_CHECK_MASK = 511  # check the abort word every 512 nodes (~40 us)
ABORTED = -2
"""Returned by every entry point (and ``_search``) when a solve was aborted."""
# META_FLAGS bits switch techniques off, to measure what each buys.
FLAG_NO_TT = 1
FLAG_NO_ORDER = 2
FLAG_NO_EQUIV = 4
FLAG_BINARY_ONLY = 8  # exact value by plain bisection instead of fail-soft bound jumps
FLAG_RAW_TT = 16  # TT keyed on the exact cards (no quasi-symmetry: no class compression, no point shifts)
FLAG_NO_QUICK = 32  # no one-trick sure-winner bound at trick starts
FLAG_NO_SURE_POINTS = 128  # no static sure-points bounds (unbeatable trumps; null: declarer safe everywhere)
FLAG_NO_KILLER = 256  # no killer lead in the move ordering
FLAG_NO_GUESS = 64  # exact values without a first guess (plain fail-soft bisection)
FLAG_NO_ENDGAME = 512  # no direct evaluation of the last two or three tricks (search them node by node)

# TT: 2-way buckets of two-word entries, keyed on the quasi-symmetric view of a
# trick start: who holds each card in play, in class and rank order (which
# cards, and so their points, dropped).  Word 0 = pext(hand 0, cards in play)
# | pext(hand 1, cards in play) << 32 (hand 2 holds the rest); word 1 bits
# 0..31 the real cards in play (internal union: with word 0 and the class
# counts it identifies the position, and it gives the point shift), 32..33
# leader, 34..40 / 41..47 lower / upper bound on the declarer's future points,
# 48..52 best move (its rank in its class), 53..63 generation.  The bucket is
# hashed from word 0, the class counts (``_compressed_union``) and the leader.
# A new entry takes way 0 of its bucket and moves the old way-0 entry to way 1.
KEY_MASK = (1 << 34) - 1
GEN_LIMIT = 2047

INF = 1000
KILLER_SCORE = 600
KILLER_SCORE_DECLARER = 2000
"""Order scores of the killer lead: a defender's after the TT move and the sure
winners (>= 1000), the declarer's before his sure winners (after the TT move)."""
PARTNER_LEAD_BONUS = 200
"""Added to a defender's low lead in a suit his partner can take (still below trump draws)."""


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
def _low_index(x):
    """Index of the lowest set bit of x (> 0)."""
    return _cttz(x)


@njit(cache=True, nogil=True, inline="always")
def _high_index(x):
    """Index of the highest set bit of x (> 0)."""
    return 63 - _ctlz(x)


@njit(cache=True, nogil=True, inline="always")
def _popcount(x):
    return _ctpop(x)


@njit(cache=True, nogil=True, inline="always")
def _seat(x):
    """x % 3 for a seat sum 0 <= x <= 5 (no division, no sign fix-up)."""
    return x - 3 if x >= 3 else x


@njit(cache=True, nogil=True, inline="always")
def _mask_points(g, m):
    return (BYTE_POINTS[g, 0, m & 255] + BYTE_POINTS[g, 1, (m >> 8) & 255]
            + BYTE_POINTS[g, 2, (m >> 16) & 255] + BYTE_POINTS[g, 3, (m >> 24) & 255])


@njit(cache=True, nogil=True, inline="always")
def _renumber_mask(m, new_index):
    """The mask with each card c moved to bit new_index[c]."""
    out = 0
    while m:
        c = _low_index(m)
        m &= m - 1
        out |= 1 << new_index[c]
    return out


@njit(cache=True, nogil=True)
def to_internal_mask(g, m):
    return _renumber_mask(m, TO_INTERNAL[g])


@njit(cache=True, nogil=True)
def to_standard_mask(g, m):
    return _renumber_mask(m, TO_CARD[g])


@njit(cache=True, nogil=True, inline="always")
def _winner_offset(g, a, b, c):
    """Position (0..2) in the trick of the winning card among internal cards a (led), b, c."""
    eligible = CLASS_MASK[g, a] | TRUMP_MASK[g]
    best = a
    pos = 0
    if (eligible >> b) & 1 and b > best:
        best = b
        pos = 1
    if (eligible >> c) & 1 and c > best:
        pos = 2
    return pos



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
    def _pext(x, u):
        """The bits of x at the set bits of u, packed to the low end (BMI2)."""
        return _pext_bmi2(x, u)
else:
    @njit(cache=True, nogil=True, inline="always")
    def _pext(x, u):
        """The bits of x at the set bits of u, packed to the low end (byte tables)."""
        out = 0
        shift = 0
        for k in range(4):
            m = (u >> (8 * k)) & 255
            if m:
                out |= np.int64(PEXT8[m, (x >> (8 * k)) & 255]) << shift
                shift += BYTE_COUNT[m]
        return out


@njit(cache=True, nogil=True)
def _compressed_union(g, u):
    """The union mask with each follow class's cards moved to its lowest positions."""
    out = 0
    for k in range(N_FOLLOW_CLASSES[g]):
        grp = FOLLOW_CLASSES[g, k]
        low = grp & -grp
        out |= low * ((1 << _popcount(u & grp)) - 1)
    return out


@njit(cache=True, nogil=True)
def _point_shift(g, u_from, u_to):
    """(L, G) for mapping the cards u_from onto u_to rank by rank within each class
    (same counts per class): the points the mapped cards lose / gain in total."""
    lose = 0
    gain = 0
    for k in range(N_FOLLOW_CLASSES[g]):
        grp = FOLLOW_CLASSES[g, k]
        a = u_from & grp
        b = u_to & grp
        if a == b:
            continue
        while a:
            pa = POINTS[g, _low_index(a)]
            pb = POINTS[g, _low_index(b)]
            if pa > pb:
                lose += pa - pb
            else:
                gain += pb - pa
            a &= a - 1
            b &= b - 1
    return lose, gain


@njit(cache=True, nogil=True, inline="always")
def _move_to_rank(g, u, c):
    """Card c as its rank among the cards of its class in play (class-compressed index)."""
    cls = CLASS_MASK[g, c]
    return _low_index(cls) + _popcount(u & cls & ((1 << c) - 1))


@njit(cache=True, nogil=True, inline="always")
def _move_from_rank(g, u, cm):
    cls = CLASS_MASK[g, cm]
    live = u & cls
    for _ in range(cm - _low_index(cls)):
        live &= live - 1
    return _low_index(live) if live else -1

# ---------------------------------------------------------------- rule copies in standard layout (for tests)


@njit(cache=True, nogil=True)
def legal_cards_std(hand, g, led):
    """The core's legal cards (standard layout); ``led`` < 0 means on lead."""
    h = to_internal_mask(g, hand)
    if led < 0:
        return hand
    follow = h & CLASS_MASK[g, TO_INTERNAL[g, led]]
    return to_standard_mask(g, follow if follow else h)


@njit(cache=True, nogil=True)
def trick_winner_std(g, a, b, c):
    return _winner_offset(g, TO_INTERNAL[g, a], TO_INTERNAL[g, b], TO_INTERNAL[g, c])


@njit(cache=True, nogil=True)
def points_std(g, m):
    return _mask_points(g, to_internal_mask(g, m))


# ---------------------------------------------------------------- move generation and ordering


@njit(cache=True, nogil=True, inline="always")
def _follow_settled(decl, p, c, win_card, win_seat, eligible, nxt, next_elig):
    """(settled, mine, beats) for player p playing the second card of a trick with
    card c: is the side that takes this trick already settled, is it p's side, and
    does c beat the trick's best card so far?  Settled and mine are the same for
    all of p's cards that are neighbours of c among the cards in play (suit and
    grand).

    Settled when the last player is on the side of the trick's best card or cannot
    beat it (``next_elig``: the next player's legal cards that can win the trick).
    The last card of a trick always settles it (``_gen_moves``' shortcut); on lead,
    ``_sure_lead`` decides.
    """
    beats = (eligible >> c) & 1 and c > win_card
    top_seat = p if beats else win_seat
    fixed = (nxt == decl) == (top_seat == decl)
    if not fixed:
        top = c if beats else win_card
        fixed = (next_elig & ~((2 << top) - 1)) == 0
    return fixed, (top_seat == decl) == (p == decl), beats


@njit(cache=True, nogil=True, inline="always")
def _sure_lead(g, c, cls, opp, ruff_a, ruff_b):
    """Does card c, led by p, surely win the trick for p's side (then the same for
    p's cards that are neighbours of c among the cards in play)?  No opponent
    (``opp``: their cards) holds a higher card of its class and, for a plain
    card, none is void in its suit with a trump left (``ruff_a`` / ``ruff_b``:
    the hands of p's opponents that hold trumps, all bits set for the others;
    see ``_ruff_hands``)."""
    if opp & cls & ~((2 << c) - 1):
        return False
    if (cls & TRUMP_MASK[g]) == 0 and ((ruff_a & cls) == 0 or (ruff_b & cls) == 0):
        return False
    return True


@njit(cache=True, nogil=True, inline="always")
def _ruff_hands(g, decl, p, h0, h1, h2):
    """For ``_sure_lead``: the hands of p's opponents (the declarer's two, or the
    declarer for a defender) that hold a trump; all bits set in place of the
    others (never void in a suit)."""
    trump = TRUMP_MASK[g]
    ruff_a = -1
    ruff_b = -1
    for s in range(3):
        if s != p and (p == decl or s == decl):
            hs = h0 if s == 0 else (h1 if s == 1 else h2)
            if (hs & trump) != 0:
                if ruff_a == -1:
                    ruff_a = hs
                else:
                    ruff_b = hs
    return ruff_a, ruff_b


@njit(cache=True, nogil=True, inline="always")
def _insert_move(mv, d, count, c, score):
    """Insert move c with its score into mv[d] (moves 0..count-1 sorted by descending
    score; a new move goes after those with an equal score)."""
    j = count
    while j > 0 and mv[d, MAX_MOVES + j - 1] < score:
        mv[d, j] = mv[d, j - 1]
        mv[d, MAX_MOVES + j] = mv[d, MAX_MOVES + j - 1]
        j -= 1
    mv[d, j] = c
    mv[d, MAX_MOVES + j] = score


@njit(cache=True, nogil=True, inline="always")
def _run_choice(g, in_play, hand, cls, c, mine):
    """For a settled trick: of my run of cards c, c+1, ... (neighbours among the cards
    in play), the one to play: the most points into a trick my side takes, the
    fewest into one it loses (the lowest such card)."""
    best = c
    nxt_card = c
    while True:
        higher = in_play & cls & ~((2 << nxt_card) - 1)
        if higher == 0:
            break
        nxt_card = _low_index(higher)
        if not (hand >> nxt_card) & 1:
            break
        if (POINTS[g, nxt_card] > POINTS[g, best]) if mine else (POINTS[g, nxt_card] < POINTS[g, best]):
            best = nxt_card
    return best


# Without the runtime's reference counting: a call that passes ``mv`` would otherwise
# increment and decrement its count with atomic instructions at every expanded node
# (3 % of the PIMC exact-per-card profile; paired time -3 %).  Neither function allocates.
@njit(cache=True, nogil=True, _nrt=False)
def _gen_moves(g, decl, d, lead, n, h0, h1, h2, t0, t1, killer, mv, tt_move, flags):
    """Fill mv[d] with the legal, non-equivalent moves of the player to move, best first
    (trick led by ``lead``, n cards t0, t1 on the table; ``killer``: the killer lead at depth d)."""
    if g == NULL_GAME:
        return _gen_moves_null(g, decl, d, lead, n, h0, h1, h2, t0, t1, mv, tt_move, flags)
    p = _seat(lead + n)
    hand = h0 if p == 0 else (h1 if p == 1 else h2)
    trump = TRUMP_MASK[g]
    in_play = h0 | h1 | h2
    p_is_decl = p == decl
    no_equiv = (flags & FLAG_NO_EQUIV) != 0
    no_order = (flags & FLAG_NO_ORDER) != 0
    count = 0

    # Whoever takes this trick, the card kept goes to whoever takes a later one, so
    # when the side that takes it is settled my side does at least as well by
    # putting the most points into a trick it takes and the fewest into one it
    # loses: one card per run of neighbours in my hand (``_run_choice``).  Else a
    # card with the points of its lower neighbour in my hand is the same move.
    if n == 0:
        hd = h0 if decl == 0 else (h1 if decl == 1 else h2)
        # Hands of my opponents (for "sure winner" on lead).
        opp = 0
        for s in range(3):
            if s != p and (p_is_decl or s == decl):
                opp |= h0 if s == 0 else (h1 if s == 1 else h2)
        ruff_a, ruff_b = _ruff_hands(g, decl, p, h0, h1, h2)
        partner_hand = in_play & ~hand & ~hd
        killer_card = killer if (flags & FLAG_NO_KILLER) == 0 else -2
        m = hand
        while m:
            c = _low_index(m)
            m &= m - 1
            cls = CLASS_MASK[g, c]
            pts = POINTS[g, c]
            fixed = _sure_lead(g, c, cls, opp, ruff_a, ruff_b)
            if not no_equiv:
                lower = in_play & cls & ((1 << c) - 1)
                if fixed:
                    if lower and (hand >> _high_index(lower)) & 1:
                        continue  # not the lowest of its run: the run was handled there
                    c = _run_choice(g, in_play, hand, cls, c, True)
                    pts = POINTS[g, c]
                elif lower:
                    b = _high_index(lower)
                    if (hand >> b) & 1 and POINTS[g, b] == pts:
                        continue  # same outcome as the lower neighbour in my hand
            score = 0
            if not no_order:
                if fixed:  # a sure winner
                    score = 1000 + 16 * pts + (c & 3)
                else:
                    score = -16 * pts - (c - _low_index(cls))
                    if p_is_decl and (cls & trump) != 0:  # declarer: draw trumps
                        score = 500 + c
                    elif not p_is_decl and (cls & trump) == 0:
                        # Defenders: lead a suit the partner can take (a card above
                        # all of the declarer's in it, or a ruff) before other low cards.
                        decl_suit = hd & cls
                        partner_suit = partner_hand & cls
                        if decl_suit != 0 and ((partner_suit != 0 and _high_index(partner_suit) > _high_index(decl_suit))
                                               or (partner_suit == 0 and (partner_hand & trump) != 0)):
                            score += PARTNER_LEAD_BONUS
                if c == killer_card:
                    # Killer lead: the lead that refuted a sibling at this depth often
                    # refutes this position too.  The declarer's goes before his sure
                    # winners (cashing them first is often the wrong plan).
                    score = max(score, KILLER_SCORE_DECLARER if p_is_decl else KILLER_SCORE)
                if c == tt_move:
                    score = 1_000_000
            _insert_move(mv, d, count, c, score)
            count += 1
        return count

    # Following: the trick's best card so far and its seat.
    led_cls = CLASS_MASK[g, t0]
    in_play |= 1 << t0
    if n >= 2:
        in_play |= 1 << t1
    follow = hand & led_cls
    legal = follow if follow else hand
    eligible = led_cls | trump
    win_card = t0
    win_seat = lead
    if n == 2 and (eligible >> t1) & 1 and t1 > win_card:
        win_card = t1
        win_seat = _seat(lead + 1)
    if n == 2:
        # Last to play: every card settles the trick (the general loop below gives the
        # same moves in the same order; this is its shortcut for the commonest node).
        ours_now = (win_seat == decl) == p_is_decl  # my side takes the trick unless I beat it
        m = legal
        while m:
            c = _low_index(m)
            m &= m - 1
            cls = CLASS_MASK[g, c]
            mine = ours_now or ((eligible >> c) & 1 and c > win_card)
            if not no_equiv:
                lower = in_play & cls & ((1 << c) - 1)
                if lower and (hand >> _high_index(lower)) & 1:
                    continue  # not the lowest of its run: the run was handled there
                c = _run_choice(g, in_play, hand, cls, c, mine)
            score = 0
            if not no_order:
                pts = POINTS[g, c]
                score = (1000 + 16 * pts if mine else -16 * pts) - (c - _low_index(cls))
                if c == tt_move:
                    score = 1_000_000
            _insert_move(mv, d, count, c, score)
            count += 1
        return count
    # Second card of the trick (the last card took the shortcut above).
    nxt = _seat(p + 1)  # the player after me, who plays last
    nxt_hand = h0 if nxt == 0 else (h1 if nxt == 1 else h2)
    follow_next = nxt_hand & led_cls
    next_elig = (follow_next if follow_next else nxt_hand) & eligible
    m = legal
    while m:
        c = _low_index(m)
        m &= m - 1
        cls = CLASS_MASK[g, c]
        pts = POINTS[g, c]
        fixed, mine, beats = _follow_settled(decl, p, c, win_card, win_seat, eligible, nxt, next_elig)
        if not no_equiv:
            lower = in_play & cls & ((1 << c) - 1)
            if fixed:
                if lower and (hand >> _high_index(lower)) & 1:
                    continue  # not the lowest of its run: the run was handled there
                c = _run_choice(g, in_play, hand, cls, c, mine)
                pts = POINTS[g, c]
                beats = (eligible >> c) & 1 and c > win_card
            elif lower:
                b = _high_index(lower)
                if (hand >> b) & 1 and POINTS[g, b] == pts:
                    continue  # same outcome as the lower neighbour in my hand
        score = 0
        if not no_order:
            # My side surely takes the trick if that is settled, and also (for the
            # ordering) when it is not settled only because my partner, playing
            # last, can beat the opponents' best card: then my points go into it.
            if fixed == mine:
                score = 1000 + 16 * pts - (c - _low_index(cls))
            elif beats:
                # Beating for now forces the last player to spend a high card.
                score = 500 - 16 * pts - (c - _low_index(cls))
            else:
                score = -16 * pts - (c - _low_index(cls))
            if c == tt_move:
                score = 1_000_000
        _insert_move(mv, d, count, c, score)
        count += 1
    return count


@njit(cache=True, nogil=True, _nrt=False)
def _gen_moves_null(g, decl, d, lead, n, h0, h1, h2, t0, t1, mv, tt_move, flags):
    """``_gen_moves`` for null: no settled runs (any card may take the trick), a card
    next to a lower one in my hand is the same move."""
    p = _seat(lead + n)
    hand = h0 if p == 0 else (h1 if p == 1 else h2)
    in_play = h0 | h1 | h2
    p_is_decl = p == decl
    no_equiv = (flags & FLAG_NO_EQUIV) != 0
    no_order = (flags & FLAG_NO_ORDER) != 0
    decl_hand = h0 if decl == 0 else (h1 if decl == 1 else h2)
    eligible = 0
    win_card = -1
    win_seat = -1
    if n == 0:
        legal = hand
    else:
        led_cls = CLASS_MASK[g, t0]
        in_play |= 1 << t0
        if n >= 2:
            in_play |= 1 << t1
        follow = hand & led_cls
        legal = follow if follow else hand
        eligible = led_cls | TRUMP_MASK[g]
        win_card = t0
        win_seat = lead
        if n == 2 and (eligible >> t1) & 1 and t1 > win_card:
            win_card = t1
            win_seat = _seat(lead + 1)
    count = 0
    m = legal
    while m:
        c = _low_index(m)
        m &= m - 1
        cls = CLASS_MASK[g, c]
        if not no_equiv:
            lower = in_play & cls & ((1 << c) - 1)
            if lower and (hand >> _high_index(lower)) & 1:
                continue  # same outcome as the lower neighbour in my hand
        score = 0
        if not no_order:
            rank = c & 7  # null layout: suit * 8 + rank
            if n == 0:
                # Lead low cards: the declarer wants cards others must overtake.
                score = -rank
                if not p_is_decl:
                    # Defenders: lead under the declarer's cards of that suit, so
                    # that he must go over.
                    decl_suit = decl_hand & cls
                    if decl_suit:
                        score += 100 if _low_index(decl_suit) > c else 50
            else:
                beats = (eligible >> c) & 1 and c > win_card
                if p_is_decl:
                    # Duck with the highest card that stays under; if forced, go low.
                    score = 100 + rank if not beats else -rank
                elif win_seat == decl:
                    # Keep the declarer's card on top; shed high cards while doing so.
                    score = 100 + rank if not beats else -100 - rank
                else:
                    score = -rank
            if c == tt_move:
                score = 1_000_000
        _insert_move(mv, d, count, c, score)
        count += 1
    return count


@njit(cache=True, nogil=True)
def _cheapest_points(g, hand, k):
    """Least points ``hand`` can give to k tricks of trumps it must follow (trumps first, then anything)."""
    total = 0
    if k <= 0:
        return 0
    trumps = hand & TRUMP_MASK[g]
    for pool in (trumps, hand & ~TRUMP_MASK[g]):
        for level in range(N_POINT_LEVELS):  # cheapest cards first
            take = min(_popcount(pool & LEVEL_MASK[g, level]), k)
            total += take * LEVEL_POINTS[level]
            k -= take
            if k == 0:
                return total
    return total


@njit(cache=True, nogil=True)
def _cheapest_of(g, mask, k):
    """Least points of k cards of ``mask`` (all of them if it holds fewer)."""
    total = 0
    for level in range(N_POINT_LEVELS):
        if k <= 0:
            break
        take = min(_popcount(mask & LEVEL_MASK[g, level]), k)
        total += take * LEVEL_POINTS[level]
        k -= take
    return total


@njit(cache=True, nogil=True)
def _costliest_of(g, mask, k):
    """Most points of k cards of ``mask`` (all of them if it holds fewer): all its
    points but those of its n - k cheapest cards."""
    rest = _popcount(mask) - k
    if rest <= 0:
        return _mask_points(g, mask)
    return _mask_points(g, mask) - _cheapest_of(g, mask, rest)


@njit(cache=True, nogil=True)
def _plain_cash(g, hl, opp_a, opp_b, two_opponents, partner):
    """Points the leader's side surely takes by leading plain cards above every other
    card of their suit while the opponents (``opp_a``, and ``opp_b`` when there are
    two) must still follow it, so none can ruff: per suit as many rounds as the leader
    has such cards and each opponent has cards of the suit; the leader's costliest
    top cards and the opponents' cheapest.  A partner follows below them or discards;
    a partner with trumps who runs out of plain cards must ruff and takes the lead, so
    he allows at most one round more than his plain cards."""
    total = 0
    trump = TRUMP_MASK[g]
    left = 99
    if not two_opponents and (partner & trump) != 0:
        left = _popcount(partner & ~trump) + 1
    plain = hl & ~trump
    while plain and left > 0:
        cls = CLASS_MASK[g, _low_index(plain)]
        held = plain & cls
        plain &= ~cls
        a = opp_a & cls
        b = opp_b & cls if two_opponents else 0
        if a == 0 or (two_opponents and b == 0):
            continue
        top = held & ~((2 << _high_index(a | b | (partner & cls))) - 1)
        rounds = min(_popcount(top), _popcount(a))
        if two_opponents:
            rounds = min(rounds, _popcount(b))
        rounds = min(rounds, left)
        left -= rounds
        if rounds:
            total += _highest_points(g, top, rounds) + _cheapest_of(g, a, rounds)
            if two_opponents:
                total += _cheapest_of(g, b, rounds)
    return total


@njit(cache=True, nogil=True, inline="always")
def _max_trumps(g, decl, x0, x1, x2):
    """The larger number of trumps held by one defender."""
    trump = TRUMP_MASK[g]
    most = 0
    for o in range(3):
        if o != decl:
            t = _popcount((x0 if o == 0 else (x1 if o == 1 else x2)) & trump)
            if t > most:
                most = t
    return most


@njit(cache=True, nogil=True)
def _highest_points(g, mask, k):
    """Points of the k highest cards (internal order) of ``mask``."""
    total = 0
    while k > 0 and mask:
        c = _high_index(mask)
        mask &= ~(1 << c)
        total += POINTS[g, c]
        k -= 1
    return total


@njit(cache=True, nogil=True)
def _cashable(held, a, b):
    """The leader's cards of one suit (``held``) that win one round after the other,
    highest first, against two hands holding ``a`` and ``b`` of it that cannot ruff.
    A hand keeps its highest card of the suit until its last one (it must follow),
    so round i is won if the card beats the highest card of every hand that still
    holds more than i cards of the suit; an empty hand only discards."""
    na = _popcount(a)
    nb = _popcount(b)
    ha = _high_index(a) if a else -1
    hb = _high_index(b) if b else -1
    won = 0
    i = 0
    while held:
        c = _high_index(held)
        if (na > i and c < ha) or (nb > i and c < hb):
            break
        won |= 1 << c
        held &= ~(1 << c)
        i += 1
    return won


@njit(cache=True, nogil=True)
def _sure_points(g, decl, lead, x0, x1, x2):
    """(declarer's, defenders') points that surely end in their own tricks.

    A trump higher than every trump of the other side wins whichever trick it
    is played to (nothing can beat it), so its points belong to its side; a
    lower one too unless a higher trump of the other side falls on it.  The
    side on lead can also cash the leader's unbeatable trumps one after the
    other: the other side must follow with its cheapest trumps (or cards).
    """
    trump = TRUMP_MASK[g]
    hd = x0 if decl == 0 else (x1 if decl == 1 else x2)
    mine = hd & trump
    theirs = (x0 | x1 | x2) & ~hd & trump
    decl_top = mine if theirs == 0 else mine & ~((2 << _high_index(theirs)) - 1)
    def_top = theirs if mine == 0 else theirs & ~((2 << _high_index(mine)) - 1)
    da = x0 if decl != 0 else x1
    db = x2 if decl != 2 else x1
    ta = da & trump
    tb = db & trump
    # Any trump wins its trick unless a higher trump of the other side falls on it,
    # and each card falls on one trick: the other side's trumps above my lowest one
    # take at most as many of mine (a declarer's trump one of each defender's), at
    # most the costliest of those under their highest.  Each of my surviving trumps
    # takes its own trick with a card of each hand of the other side in it, at least
    # its cheapest ones.  Two defenders' trumps can share a trick: at least as many
    # tricks as the larger surviving holding, each with a card of the other defender.
    decl_sure = _mask_points(g, mine)
    k_decl = _popcount(mine)
    if mine != 0 and theirs != 0:
        killable = mine & ((1 << _high_index(theirs)) - 1)
        killed = min(_popcount(theirs & ~((2 << _low_index(mine)) - 1)), _popcount(killable))
        decl_sure -= _costliest_of(g, killable, killed)
        k_decl -= killed
    def_sure = _mask_points(g, theirs)
    k_a = _popcount(ta)
    k_b = _popcount(tb)
    if mine != 0:
        under_top = (1 << _high_index(mine)) - 1
        if ta:
            killed = min(_popcount(mine & ~((2 << _low_index(ta)) - 1)), _popcount(ta & under_top))
            def_sure -= _costliest_of(g, ta & under_top, killed)
            k_a -= killed
        if tb:
            killed = min(_popcount(mine & ~((2 << _low_index(tb)) - 1)), _popcount(tb & under_top))
            def_sure -= _costliest_of(g, tb & under_top, killed)
            k_b -= killed
    k_def = max(k_a, k_b)
    decl_gets = _cheapest_of(g, da, k_decl) + _cheapest_of(g, db, k_decl)
    def_gets = _cheapest_of(g, hd, k_def)
    if lead == decl:
        def_gets += (_cheapest_of(g, da & ~trump, k_def - _popcount(ta))
                     + _cheapest_of(g, db & ~trump, k_def - _popcount(tb)))
        if decl_top or theirs == 0:
            k = _popcount(decl_top)
            tricks = k
            if _max_trumps(g, decl, x0, x1, x2) <= k:
                # His unbeatable trumps draw every defender trump; then his other
                # trumps and the plain cards he can cash (``_cashable``) win too,
                # one trick after the other.
                decl_sure = _mask_points(g, mine)  # (at least the surviving trumps' points)
                tricks = _popcount(mine)
                plain = hd & ~trump
                while plain:
                    cls = CLASS_MASK[g, _low_index(plain)]
                    held = plain & cls
                    plain &= ~cls
                    top = _cashable(held, da & cls, db & cls)
                    decl_sure += _mask_points(g, top)
                    tricks += _popcount(top)
            decl_gets = max(decl_gets, _cheapest_points(g, da, tricks) + _cheapest_points(g, db, tricks))
        if (decl_top == 0 or _max_trumps(g, decl, x0, x1, x2) > _popcount(decl_top)) and theirs != 0:
            # Trumps not drawn: before them, his plain cards above the defenders' win
            # while both must still follow that suit.  (The defenders' cheapest cards are
            # counted per phase; their least total over both phases is at least that sum.)
            decl_sure += _plain_cash(g, hd, da, db, True, 0)
    else:
        hl = x0 if lead == 0 else (x1 if lead == 1 else x2)
        k_lead = k_a if hl == da else k_b
        if hl & def_top or mine == 0:
            tricks = _popcount(hl & def_top)
            # The partner follows the trump leads with his lowest trumps; the leader
            # keeps the lead for his plain cards only if the partner never has to
            # overtake (no trump of his above the leader's lowest unbeatable one).
            partner = (x0 | x1 | x2) & ~hd & ~hl
            keeps_lead = tricks == 0 or (partner & trump & ~((2 << _low_index(hl & def_top)) - 1)) == 0
            drawn = _popcount(mine) <= tricks and keeps_lead
            if drawn:
                # The leader's unbeatable trumps draw the declarer's; then the plain
                # cards he can cash (``_cashable``, the partner's cards of the suit
                # counted like the declarer's, so he never overtakes) win (as many as a
                # partner with trumps left can follow, so that he never has to ruff
                # and take the lead), and all his trumps win: with the declarer out
                # of trumps, any trick a defender trumps is theirs.
                def_sure = max(def_sure, _mask_points(g, def_top | (hl & trump)))
                tricks = _popcount(hl & trump)
                partner_ruffs = _popcount(partner & trump) > tricks
                plain = hl & ~trump
                while plain:
                    cls = CLASS_MASK[g, _low_index(plain)]
                    held = plain & cls
                    plain &= ~cls
                    top = _cashable(held, hd & cls, partner & cls)
                    m = _popcount(top)
                    if partner_ruffs:
                        m = min(m, _popcount(partner & cls))
                    def_sure += _highest_points(g, top, m)
                    tricks += m
            if drawn or mine == 0:
                def_gets = max(def_gets, _cheapest_points(g, hd, tricks))
            else:
                # Plain cards cashed below: the partner may have to throw a trump on
                # one of those tricks, so only the leader's trumps count tricks here.
                def_gets = max(_cheapest_of(g, hd, k_lead), _cheapest_points(g, hd, tricks))
        else:
            drawn = False
            def_gets = _cheapest_of(g, hd, k_lead)
        if not drawn and mine != 0:
            # Trumps not drawn: before them, the leader's plain cards above both other
            # hands win while the declarer must still follow that suit (the partner
            # follows below them or discards).
            def_sure += _plain_cash(g, hl, hd, 0, False, (x0 | x1 | x2) & ~hd & ~hl)
    return decl_sure + decl_gets, def_sure + def_gets


# ---------------------------------------------------------------- null: one suit at a time
#
# Null, defenders on lead: the declarer is safe for the rest of the game if he
# is safe in every suit on its own, in a game that gives the defenders more
# than they have: they choose which of them leads each trick of the suit, and
# either may throw away up to k of his cards of the suit at any moment (k
# bounded by the tricks of other suits in which he can be void, see
# ``_null_declarer_safe``).  The declarer plays each trick of a suit as that
# suit's game says, and when void in the led suit throws away the highest card
# of a suit: taking a suit's highest card from him never makes it unsafe (he
# plays the next lower card wherever he would have played it).
#
# Of a defender's k discards only u (<= k) need be "unpaired": the others fall
# on tricks in which the declarer is void too, and he then throws away his
# highest card of this suit.  Only one suit can be given the declarer's
# discards, so u < k is used for at most one suit (``_null_declarer_safe``).
#
# NULL_SUIT_WINS[state, word] bit (index(ka, ua) * 10 + index(kb, ub)) - 64 * word,
# with index(k, u) = k (k + 1) / 2 + u: the defenders force the declarer to
# take a trick of the suit.  A is the defender after the declarer (when he
# leads, the declarer plays last), B the one before him (when he leads, the
# declarer plays second); k and u range 0..3, 3 = unlimited.

NULL_UNLIMITED = 3
NULL_BUDGETS = 10  # (k, u) pairs with 0 <= u <= k <= 3


# Only the order of the cards still out matters: a state's index is its
# owners in rank order as a base-3 number (declarer 0, A 1, B 2) after the
# states with fewer cards (9,841 states, 2 words each).
SUIT_STATES_BEFORE = np.array([sum(3 ** k for k in range(n)) for n in range(10)], np.int64)
TERNARY_BITS = np.array([sum(3 ** r for r in range(8) if m >> r & 1) for m in range(256)], np.int64)


@njit(cache=True, nogil=True, inline="always")
def _suit_index(d, a, b):
    out = d | a | b
    return SUIT_STATES_BEFORE[_popcount(out)] + TERNARY_BITS[PEXT8[out, a]] + 2 * TERNARY_BITS[PEXT8[out, b]]


@njit(cache=True, nogil=True, inline="always")
def _suit_forced(table, d, a, b, ka, ua, kb, ub):
    bit = ((ka * (ka + 1)) // 2 + ua) * NULL_BUDGETS + (kb * (kb + 1)) // 2 + ub
    return (table[_suit_index(d, a, b), bit >> 6] >> (bit & 63)) & 1


@njit(cache=True)
def _build_null_suit_table():
    table = np.zeros((SUIT_STATES_BEFORE[9], 2), np.int64)
    for total in range(2, 9):  # a forced trick needs a declarer card and a defender card
        for owners in range(3 ** total):
            d = 0
            a = 0
            b = 0
            rest = owners
            for r in range(total):
                owner = rest % 3
                rest //= 3
                if owner == 0:
                    d |= 1 << r
                elif owner == 1:
                    a |= 1 << r
                else:
                    b |= 1 << r
            if d == 0 or (a | b) == 0:
                continue
            key = SUIT_STATES_BEFORE[total] + owners
            for ka in range(4):
                for ua in range(ka + 1):
                    for kb in range(4):
                        for ub in range(kb + 1):
                            if _suit_defenders_win(table, d, a, b, ka, ua, kb, ub):
                                bit = ((ka * (ka + 1)) // 2 + ua) * NULL_BUDGETS + (kb * (kb + 1)) // 2 + ub
                                table[key, bit >> 6] |= 1 << (bit & 63)
    return table


@njit(cache=True, nogil=True, inline="always")
def _after_discard(k, u, unpaired):
    """Budgets after one discard (unpaired or not)."""
    nk = k if k == NULL_UNLIMITED else k - 1
    if unpaired:
        nu = u if u == NULL_UNLIMITED else u - 1
    else:
        nu = u if u < nk else nk
    return nk, nu


@njit(cache=True, nogil=True)
def _suit_defenders_win(table, d, a, b, ka, ua, kb, ub):
    """One state of the suit game (smaller states already in the table)."""
    if d == 0 or (a | b) == 0:
        return False
    # A or B throws a card of the suit away on another suit's trick; a paired
    # discard takes the declarer's highest card of the suit with it.
    d_top = 1 << _high_index(d)
    for unpaired in (True, False):
        if ka > 0 and (ua > 0 or not unpaired):
            nka, nua = _after_discard(ka, ua, unpaired)
            nd = d if unpaired else d ^ d_top
            m = a
            while m:
                x = m & -m
                m ^= x
                if _suit_forced(table, nd, a ^ x, b, nka, nua, kb, ub):
                    return True
        if kb > 0 and (ub > 0 or not unpaired):
            nkb, nub = _after_discard(kb, ub, unpaired)
            nd = d if unpaired else d ^ d_top
            m = b
            while m:
                y = m & -m
                m ^= y
                if _suit_forced(table, nd, a, b ^ y, ka, ua, nkb, nub):
                    return True
    # A leads, B follows (or is void), the declarer plays last and must stay under both.
    ma = a
    while ma:
        x = ma & -ma
        ma ^= x
        mb = b if b else 1 << 8  # 1 << 8: B void, plays no card of the suit
        while mb:
            y = mb & -mb
            mb ^= y
            yb = y & 255
            top = x if x > yb else yb
            under = d & (top - 1)
            escapes = False
            while under:
                c = under & -under
                under ^= c
                if not _suit_forced(table, d ^ c, a ^ x, b ^ yb, ka, ua, kb, ub):
                    escapes = True
                    break
            if not escapes:
                return True
    # B leads, the declarer plays second, A last (A overtakes only if he must).
    mb = b
    while mb:
        y = mb & -mb
        mb ^= y
        escapes = False
        md = d
        while md and not escapes:
            c = md & -md
            md ^= c
            if c > y and (a == 0 or (a & (c - 1)) != 0):
                continue  # A stays under (or is void): the declarer takes the trick
            # Safe in this trick; A answers with any card (all above c when c > y).
            if a == 0:
                escapes = not _suit_forced(table, d ^ c, a, b ^ y, ka, ua, kb, ub)
            else:
                all_safe = True
                m = a
                while m:
                    x = m & -m
                    m ^= x
                    if _suit_forced(table, d ^ c, a ^ x, b ^ y, ka, ua, kb, ub):
                        all_safe = False
                        break
                escapes = all_safe
        if not escapes:
            return True
    return False


NULL_SUIT_TABLE_PATH = Path(__file__).resolve().parent.parent / "data" / "null_suit_game.npz"


def write_null_suit_table(path: Path = NULL_SUIT_TABLE_PATH) -> None:
    """Compute the suit game's table and store it (it is loaded, not built, at import:
    building needs numba's compiler, ~0.5 s in the main thread)."""
    np.savez_compressed(path, wins=_build_null_suit_table())


def _load_null_suit_table() -> np.ndarray:
    with np.load(NULL_SUIT_TABLE_PATH) as stored:
        return stored["wins"].astype(np.int64)


NULL_SUIT_WINS = _load_null_suit_table()
"""Built by ``_build_null_suit_table``; tests/engine/test_dds.py checks the stored copy."""


@njit(cache=True, nogil=True, inline="always")
def _capped(k):
    return k if k < NULL_UNLIMITED else NULL_UNLIMITED


@njit(cache=True, nogil=True)
def _null_declarer_safe(g, decl, x0, x1, x2):
    """Null, defenders on lead: can the declarer duck every trick from now on?

    Yes if he is safe in every suit's game (``NULL_SUIT_WINS``), or in all but
    one, and in that one with his own discards.  A defender X can throw a
    card away only on a trick his partner Y leads in a suit t he is void in;
    before X is void in suit s, at most the sum over t != s of
    max(0, |Y_t| - |X_t|) such tricks can have come (each of X's t cards left
    on a trick Y followed, or on a discard that itself used such a trick), so
    that bounds his discards of s.  Of those tricks, at most the sum of
    max(0, min(|Y_t|, |D_t|) - |X_t|) find the declarer D still holding t
    (same count); in the others he is void and throws away too.
    """
    hd = x0 if decl == 0 else (x1 if decl == 1 else x2)
    sa = _seat(decl + 1)
    sb = _seat(decl + 2)
    ha = x0 if sa == 0 else (x1 if sa == 1 else x2)
    hb = x0 if sb == 0 else (x1 if sb == 1 else x2)
    slots_a = 0  # tricks B can lead in a suit A is void in, all suits
    slots_b = 0
    unpaired_a = 0  # of those, the ones in which the declarer may still hold the suit
    unpaired_b = 0
    for suit in range(4):
        shift = 8 * suit
        la = _popcount((ha >> shift) & 255)
        lb = _popcount((hb >> shift) & 255)
        ld = _popcount((hd >> shift) & 255)
        if lb > la:
            slots_a += lb - la
            unpaired_a += max(0, min(lb, ld) - la)
        else:
            slots_b += la - lb
            unpaired_b += max(0, min(la, ld) - lb)
    open_suit = -1
    for suit in range(4):
        shift = 8 * suit
        dm = (hd >> shift) & 255
        am = (ha >> shift) & 255
        bm = (hb >> shift) & 255
        if dm == 0 or (am | bm) == 0:
            continue
        la = _popcount(am)
        lb = _popcount(bm)
        ka = _capped(slots_a - (lb - la if lb > la else 0))
        kb = _capped(slots_b - (la - lb if la > lb else 0))
        if _suit_forced(NULL_SUIT_WINS, dm, am, bm, ka, ka, kb, kb):
            if open_suit >= 0:
                return False
            open_suit = suit
    if open_suit < 0:
        return True
    # One suit is not safe on its own: give it the declarer's discards.
    shift = 8 * open_suit
    dm = (hd >> shift) & 255
    am = (ha >> shift) & 255
    bm = (hb >> shift) & 255
    la = _popcount(am)
    lb = _popcount(bm)
    ld = _popcount(dm)
    ka = _capped(slots_a - (lb - la if lb > la else 0))
    kb = _capped(slots_b - (la - lb if la > lb else 0))
    ua = min(ka, _capped(unpaired_a - max(0, min(lb, ld) - la)))
    ub = min(kb, _capped(unpaired_b - max(0, min(la, ld) - lb)))
    return _suit_forced(NULL_SUIT_WINS, dm, am, bm, ka, ua, kb, ub) == 0


@njit(cache=True, nogil=True)
def _null_lead_wins_trick(g, decl, lead, x0, x1, x2):
    """Null, a defender on lead: can the defenders force the declarer to take this trick?

    Yes if in some suit the leader holds a card under all of the declarer's
    cards of that suit and the other defender can stay under the declarer's
    lowest card (or is void).  Either way round, the declarer must then win.
    """
    hl = x0 if lead == 0 else (x1 if lead == 1 else x2)
    hd = x0 if decl == 0 else (x1 if decl == 1 else x2)
    other = 3 - lead - decl
    ho = x0 if other == 0 else (x1 if other == 1 else x2)
    m = hd
    while m:
        dlow = _low_index(m)
        cls = CLASS_MASK[g, dlow]
        m &= ~cls
        led = hl & cls
        if led and _low_index(led) < dlow:
            follow = ho & cls
            if follow == 0 or _low_index(follow) < dlow:
                return True
    return False

# ---------------------------------------------------------------- endgame


@njit(cache=True, nogil=True, inline="always")
def _hand_of(seat, x0, x1, x2):
    return x0 if seat == 0 else (x1 if seat == 1 else x2)


@njit(cache=True, nogil=True)
def _two_tricks(g, decl, lead, x0, x1, x2, acc, rem):
    """Exact value of a trick start with two cards in every hand, by direct minimax.

    Suit/grand: acc + the declarer's points from the two tricks (rem = all points
    left); null: 1 if the declarer takes neither trick, else 0.  Cheaper than
    running the stack search over its at most 8 lines of play.
    """
    is_null = g == NULL_GAME
    seat_b = _seat(lead + 1)
    seat_c = _seat(lead + 2)
    ha = _hand_of(lead, x0, x1, x2)
    hb = _hand_of(seat_b, x0, x1, x2)
    hc = _hand_of(seat_c, x0, x1, x2)
    a_max = lead == decl
    b_max = seat_b == decl
    c_max = seat_c == decl
    best_a = -INF if a_max else INF
    ma = ha
    while ma:
        a = _low_index(ma)
        ma &= ma - 1
        follow_b = hb & CLASS_MASK[g, a]
        legal_b = follow_b if follow_b else hb
        follow_c = hc & CLASS_MASK[g, a]
        legal_c = follow_c if follow_c else hc
        best_b = -INF if b_max else INF
        mb = legal_b
        while mb:
            b = _low_index(mb)
            mb &= mb - 1
            best_c = -INF if c_max else INF
            mc = legal_c
            while mc:
                c = _low_index(mc)
                mc &= mc - 1
                w1 = _seat(lead + _winner_offset(g, a, b, c))
                # the last trick: the remaining card of each hand, led by w1
                ra = ha & ~(1 << a)
                rb = hb & ~(1 << b)
                rc = hc & ~(1 << c)
                la = _low_index(ra)
                lb = _low_index(rb)
                lc = _low_index(rc)
                # cards of the last trick in seat order lead, seat_b, seat_c; rotate to w1
                k = w1 - lead if w1 >= lead else w1 - lead + 3
                if k == 0:
                    w2 = _seat(w1 + _winner_offset(g, la, lb, lc))
                elif k == 1:
                    w2 = _seat(w1 + _winner_offset(g, lb, lc, la))
                else:
                    w2 = _seat(w1 + _winner_offset(g, lc, la, lb))
                if is_null:
                    v = 0 if (w1 == decl or w2 == decl) else 1
                else:
                    p1 = POINTS[g, a] + POINTS[g, b] + POINTS[g, c]
                    v = acc
                    if w1 == decl:
                        v += p1
                    if w2 == decl:
                        v += rem - p1
                if (c_max and v > best_c) or (not c_max and v < best_c):
                    best_c = v
            if (b_max and best_c > best_b) or (not b_max and best_c < best_b):
                best_b = best_c
        if (a_max and best_b > best_a) or (not a_max and best_b < best_a):
            best_a = best_b
    return best_a


@njit(cache=True, nogil=True, inline="always")
def _same_as_lower(g, in_play, hand, c):
    """Card c's lower neighbour among the cards in play is in the same hand with the
    same points: playing either gives the same game."""
    lower = in_play & CLASS_MASK[g, c] & ((1 << c) - 1)
    if lower == 0:
        return False
    b = _high_index(lower)
    return ((hand >> b) & 1) != 0 and POINTS[g, b] == POINTS[g, c]


@njit(cache=True, nogil=True, inline="always")
def _push3(k0, k1, k2, key):
    """Insert key into a descending triple of at most three keys (-1: empty)."""
    if key > k0:
        return key, k0, k1
    if key > k1:
        return k0, key, k1
    return k0, k1, key


@njit(cache=True, nogil=True, inline="always")
def _nth3(k0, k1, k2, i):
    return k0 if i == 0 else (k1 if i == 1 else k2)


@njit(cache=True, nogil=True)
def _three_tricks(g, decl, lead, x0, x1, x2, acc, rem, alpha, beta, first):
    """Fail-soft value of a trick start with three cards in every hand: alpha-beta
    over the first trick's cards (``first``: a card of the leader to try first, or
    -1), the last two tricks by ``_two_tricks``.  Same result convention as ``_search``."""
    is_null = g == NULL_GAME
    seat_b = _seat(lead + 1)
    seat_c = _seat(lead + 2)
    ha = _hand_of(lead, x0, x1, x2)
    hb = _hand_of(seat_b, x0, x1, x2)
    hc = _hand_of(seat_c, x0, x1, x2)
    a_max = lead == decl
    b_max = seat_b == decl
    c_max = seat_c == decl
    best_a = -INF if a_max else INF
    best_card = -1
    al_a = alpha
    be_a = beta
    # leads: the table's move, sure winners (most points), the declarer's trumps,
    # then the rest (fewest points)
    opp = (hb | hc) if a_max else _hand_of(decl, x0, x1, x2)
    ruff_a, ruff_b = _ruff_hands(g, decl, lead, x0, x1, x2)
    i0 = -1
    i1 = -1
    i2 = -1
    in_play = x0 | x1 | x2
    ma = ha
    while ma:
        a = _low_index(ma)
        ma &= ma - 1
        cls = CLASS_MASK[g, a]
        if _same_as_lower(g, in_play, ha, a):
            continue
        if a == first:
            sc = 1000
        elif _sure_lead(g, a, cls, opp, ruff_a, ruff_b):
            sc = 300 + POINTS[g, a]
        elif a_max and (cls & TRUMP_MASK[g]) != 0:
            sc = 250
        else:
            sc = 100 - POINTS[g, a]
        key = sc * 64 + a
        i0, i1, i2 = _push3(i0, i1, i2, key)
    for idx_a in range(3):
        key = _nth3(i0, i1, i2, idx_a)
        if key < 0:
            break
        a = key & 63
        follow_b = hb & CLASS_MASK[g, a]
        legal_b = follow_b if follow_b else hb
        follow_c = hc & CLASS_MASK[g, a]
        legal_c = follow_c if follow_c else hc
        best_b = -INF if b_max else INF
        al_b = al_a
        be_b = be_a
        # second card: a trick my side surely takes first (most points), then a card
        # that beats for now (fewest points), then the rest (fewest points)
        eligible = CLASS_MASK[g, a] | TRUMP_MASK[g]
        j0 = -1
        j1 = -1
        j2 = -1
        mb = legal_b
        while mb:
            b = _low_index(mb)
            mb &= mb - 1
            if _same_as_lower(g, in_play, hb, b):
                continue
            settled, mine, beats = _follow_settled(decl, seat_b, b, a, lead, eligible, seat_c, legal_c & eligible)
            if settled and mine:
                sc = 200 + POINTS[g, b]
            elif beats:
                sc = 150 - POINTS[g, b]
            else:
                sc = 100 - POINTS[g, b]
            key = sc * 64 + b
            j0, j1, j2 = _push3(j0, j1, j2, key)
        for jdx in range(3):
            key = _nth3(j0, j1, j2, jdx)
            if key < 0:
                break
            b = key & 63
            best_c = -INF if c_max else INF
            # last card: those that give the trick to my side first, most points first;
            # then the others, fewest points first (packed score, card and winner, sorted)
            k0 = -1
            k1 = -1
            k2 = -1
            mc = legal_c
            while mc:
                c = _low_index(mc)
                mc &= mc - 1
                if _same_as_lower(g, in_play, hc, c):
                    continue
                wc = _seat(lead + _winner_offset(g, a, b, c))
                sc = (200 + POINTS[g, c]) if ((wc == decl) == c_max) else (100 - POINTS[g, c])
                key = (sc * 64 + c) * 4 + wc  # the trick's winner rides along
                k0, k1, k2 = _push3(k0, k1, k2, key)
            for idx in range(3):
                key = _nth3(k0, k1, k2, idx)
                if key < 0:
                    break
                c = (key >> 2) & 63
                w1 = key & 3
                bits = (1 << a) | (1 << b) | (1 << c)
                if is_null:
                    if w1 == decl:
                        v = 0
                    else:
                        v = _two_tricks(g, decl, w1, x0 & ~bits, x1 & ~bits, x2 & ~bits, 0, 1)
                else:
                    p1 = POINTS[g, a] + POINTS[g, b] + POINTS[g, c]
                    v = _two_tricks(g, decl, w1, x0 & ~bits, x1 & ~bits, x2 & ~bits,
                                    acc + (p1 if w1 == decl else 0), rem - p1)
                if c_max:
                    if v > best_c:
                        best_c = v
                        if v >= be_b:
                            break
                else:
                    if v < best_c:
                        best_c = v
                        if v <= al_b:
                            break
            if b_max:
                if best_c > best_b:
                    best_b = best_c
                    if best_b >= be_b:
                        break
                    if best_b > al_b:
                        al_b = best_b
            else:
                if best_c < best_b:
                    best_b = best_c
                    if best_b <= al_b:
                        break
                    if best_b < be_b:
                        be_b = best_b
        if a_max:
            if best_b > best_a:
                best_a = best_b
                best_card = a
                if best_a >= be_a:
                    break
                if best_a > al_a:
                    al_a = best_a
        else:
            if best_b < best_a:
                best_a = best_b
                best_card = a
                if best_a <= al_a:
                    break
                if best_a < be_a:
                    be_a = best_a
    return best_a, best_card


# ---------------------------------------------------------------- search


@njit(cache=True, nogil=True, inline="always")
def _alone_in_class(g, in_play, hand, c):
    """Is neither in-play neighbour of card c in its class in the same hand?  Then move
    generation keeps c as a move of its own (no run or equal neighbour stands in for it)."""
    cls = CLASS_MASK[g, c]
    lower = in_play & cls & ((1 << c) - 1)
    if lower and (hand >> _high_index(lower)) & 1:
        return False
    upper = in_play & cls & ~((2 << c) - 1)
    return not (upper and (hand >> _low_index(upper)) & 1)


@njit(cache=True, nogil=True)
def _search(g, decl, h0, h1, h2, t0, t1, ntrick, leader, acc, rem, alpha, beta, tt, meta, st, mv):
    """Fail-soft alpha-beta; internal layout; returns a bound on the declarer's final value.

    Result v: v <= alpha means value <= v; v >= beta means value >= v; else exact.
    Suit/grand values are card points (acc + future); null values are 1 (declarer
    wins) or 0, with acc = 0 and rem = 1.
    """
    is_null = g == NULL_GAME
    flags = meta[META_FLAGS]
    use_tt = (flags & FLAG_NO_TT) == 0
    gen = meta[META_GEN]
    bucket_mask = tt.shape[0] // 2 - 2  # even slot indices: way 0 of each bucket
    raw_tt = (flags & FLAG_RAW_TT) != 0
    use_quick = (flags & FLAG_NO_QUICK) == 0
    use_sure = (flags & FLAG_NO_SURE_POINTS) == 0
    use_endgame = (flags & FLAG_NO_ENDGAME) == 0
    use_order = (flags & FLAG_NO_ORDER) == 0
    deferred = False
    nodes = 0

    # The current node's state lives in locals; a node that expands saves it in
    # st[d] (fixed fields once, the running window / best / move index before
    # each child) and reloads it when a child returns.
    d = 0
    x0 = h0
    x1 = h1
    x2 = h2
    ld = leader
    n = ntrick
    tc0 = t0
    tc1 = t1
    cur_acc = acc
    cur_rem = rem
    a = alpha
    b = beta
    a0 = alpha
    b0 = beta
    best = 0
    bestmove = 0
    mi = 0
    nm = 0
    slot = -1
    key0 = 0
    entering = True
    val = 0
    while True:
        finished = False
        if entering:
            nodes += 1
            if (nodes & ABORT_CHECK_MASK) == 1:
                # Abort requested from another thread, or node limit reached: unwind
                # without storing anything (partial results are not bounds).
                limit = meta[META_NODE_LIMIT]
                if meta[META_ABORT] != 0 or (limit > 0 and meta[META_NODES] + nodes - meta[META_SOLVE_START] > limit):
                    meta[META_NODES] += nodes
                    return ABORTED
            slot = -1
            if cur_acc >= b:
                val = cur_acc
                finished = True
            elif cur_acc + cur_rem <= a:
                val = cur_acc + cur_rem
                finished = True
            elif n == 0 and (x0 | x1 | x2) == 0:
                val = cur_acc + cur_rem
                finished = True
            elif n == 0 and (x0 & (x0 - 1)) == 0 and (x1 & (x1 - 1)) == 0 and (x2 & (x2 - 1)) == 0:
                # Last trick: one card each, nothing to choose.
                c0 = _low_index(x0)
                c1 = _low_index(x1)
                c2 = _low_index(x2)
                ca = c0 if ld == 0 else (c1 if ld == 1 else c2)
                cb = c1 if ld == 0 else (c2 if ld == 1 else c0)
                cc = c2 if ld == 0 else (c0 if ld == 1 else c1)
                w = _seat(ld + _winner_offset(g, ca, cb, cc))
                if is_null:
                    val = 0 if w == decl else 1
                else:
                    val = cur_acc + (cur_rem if w == decl else 0)
                finished = True
            elif use_endgame and n == 0 and _popcount(x0 | x1 | x2) == 6:
                val = _two_tricks(g, decl, ld, x0, x1, x2, cur_acc, cur_rem)
                finished = True
            else:
                tt_move = -1
                if n == 0 and use_tt:
                    # Quasi-symmetry: positions with the same owners rank by rank in every
                    # class have the same game tree; only the points of the cards differ.
                    # A stored position's bounds hold here shifted by the points its
                    # cards lose (lower bound) or gain (upper bound) when mapped rank by
                    # rank onto ours (Kupferschmid & Helmert's quasi-symmetry reduction).
                    u = x0 | x1 | x2
                    if raw_tt:
                        z0, z1, zu = x0, x1, u
                    else:
                        # hands 0 and 1 over the cards in play, in order, plus how many
                        # cards of each class are in play: the owners rank by rank
                        z0 = _pext(x0, u)
                        z1 = _pext(x1, u)
                        zu = _compressed_union(g, u)
                    key0 = z0 | (z1 << 32)
                    slot = (((key0 ^ ((zu | (ld << 32)) * 0x2545F491)) * -7046029254386353131) >> 40) & bucket_mask
                    for way in range(2):
                        e1 = tt[2 * slot + 2 * way + 1]
                        if tt[2 * slot + 2 * way] != key0 or ((e1 >> 32) & 3) != ld or ((e1 >> 53) & 0x7FF) != gen:
                            continue
                        stored_u = e1 & 0xFFFFFFFF
                        lose = 0
                        gain = 0
                        if stored_u != u:
                            if raw_tt or _compressed_union(g, stored_u) != zu:
                                continue  # other class counts, same word 0
                            if not is_null:
                                lose, gain = _point_shift(g, stored_u, u)
                        lo = cur_acc + ((e1 >> 34) & 127) - lose
                        hi = cur_acc + ((e1 >> 41) & 127) + gain
                        if tt_move < 0:
                            tt_move = _move_from_rank(g, u, (e1 >> 48) & 31)
                        if lo >= b or lo == hi:
                            val = lo
                            finished = True
                            break
                        if hi <= a:
                            val = hi
                            finished = True
                            break
                if not finished and n == 0 and is_null and ld != decl:
                    if use_quick and _null_lead_wins_trick(g, decl, ld, x0, x1, x2):
                        val = 0
                        finished = True
                    elif use_sure and _null_declarer_safe(g, decl, x0, x1, x2):
                        val = 1
                        finished = True
                if not finished and n == 0 and not is_null and use_sure:
                    decl_sure, def_sure = _sure_points(g, decl, ld, x0, x1, x2)
                    if cur_acc + decl_sure >= b:
                        val = cur_acc + decl_sure
                        finished = True
                    elif cur_acc + cur_rem - def_sure <= a:
                        val = cur_acc + cur_rem - def_sure
                        finished = True
                if not finished and use_endgame and n == 0 and _popcount(x0 | x1 | x2) == 9:
                    # Three tricks left: a direct alpha-beta over the next trick (cheaper
                    # than stack nodes); stored in the table like an expanded node.
                    val, bestmove = _three_tricks(g, decl, ld, x0, x1, x2, cur_acc, cur_rem, a, b, tt_move)
                    a0 = a
                    b0 = b
                    entering = False
                    finished = True
                if not finished:
                    a0 = a
                    b0 = b
                    if tt_move >= 0 and use_order and _alone_in_class(g, x0 | x1 | x2, _hand_of(ld, x0, x1, x2), tt_move):
                        # The table's move goes first and often refutes the node: try it
                        # before generating the others (the full list, made only if it
                        # does not, starts with the same card).
                        mv[d, 0] = tt_move
                        nm = 1
                        deferred = True
                    else:
                        nm = _gen_moves(g, decl, d, ld, n, x0, x1, x2, tc0, tc1, st[d, F_KILLER], mv, tt_move, flags)
                        deferred = False
                    mi = 0
                    best = -INF if _seat(ld + n) == decl else INF
                    bestmove = mv[d, 0]
                    st[d, F_H0] = x0
                    st[d, F_H1] = x1
                    st[d, F_H2] = x2
                    st[d, F_LEAD] = ld
                    st[d, F_N] = n
                    st[d, F_T0] = tc0
                    st[d, F_T1] = tc1
                    st[d, F_ACC] = cur_acc
                    st[d, F_REM] = cur_rem
                    st[d, F_ALPHA0] = a0
                    st[d, F_BETA0] = b0
                    st[d, F_NM] = nm
                    st[d, F_SLOT] = slot
                    st[d, F_KEY0] = key0
                    st[d, F_DEFERRED] = deferred
        else:
            # A child of node d returned val: reload node d.
            x0 = st[d, F_H0]
            x1 = st[d, F_H1]
            x2 = st[d, F_H2]
            ld = st[d, F_LEAD]
            n = st[d, F_N]
            tc0 = st[d, F_T0]
            tc1 = st[d, F_T1]
            cur_acc = st[d, F_ACC]
            cur_rem = st[d, F_REM]
            a = st[d, F_ALPHA]
            b = st[d, F_BETA]
            a0 = st[d, F_ALPHA0]
            b0 = st[d, F_BETA0]
            best = st[d, F_BEST]
            bestmove = st[d, F_BESTMOVE]
            mi = st[d, F_MI]
            nm = st[d, F_NM]
            slot = st[d, F_SLOT]
            key0 = st[d, F_KEY0]
            move = mv[d, mi - 1]
            if _seat(ld + n) == decl:
                if val > best:
                    best = val
                    bestmove = move
                if val >= b:
                    finished = True
                    st[d, F_KILLER] = move
                elif val > a:
                    a = val
            else:
                if val < best:
                    best = val
                    bestmove = move
                if val <= a:
                    finished = True
                    st[d, F_KILLER] = move
                elif val < b:
                    b = val
            if finished:
                val = best
            elif mi == nm and st[d, F_DEFERRED] != 0:
                # The table's move did not refute the node: now the full list (its first
                # move is the one just searched).
                nm = _gen_moves(g, decl, d, ld, n, x0, x1, x2, tc0, tc1, st[d, F_KILLER], mv, move, flags)
                st[d, F_NM] = nm
                st[d, F_DEFERRED] = 0

        if not finished:
            if mi < nm:
                c = mv[d, mi]
                mi += 1
                st[d, F_MI] = mi
                st[d, F_ALPHA] = a
                st[d, F_BETA] = b
                st[d, F_BEST] = best
                st[d, F_BESTMOVE] = bestmove
                # Play card c into the child node d + 1 (the window, acc and rem carry over).
                bit = 1 << c
                x0 &= ~bit
                x1 &= ~bit
                x2 &= ~bit
                if n < 2:
                    if n == 0:
                        tc0 = c
                    else:
                        tc1 = c
                    n += 1
                else:
                    w = _seat(ld + _winner_offset(g, tc0, tc1, c))
                    ld = w
                    n = 0
                    if is_null:
                        if w == decl:
                            # The declarer took a trick: null is lost, no node needed.
                            nodes += 1
                            val = 0
                            entering = False
                            continue
                    elif w == decl:
                        pts = POINTS[g, tc0] + POINTS[g, tc1] + POINTS[g, c]
                        cur_acc += pts
                        cur_rem -= pts
                    else:
                        cur_rem -= POINTS[g, tc0] + POINTS[g, tc1] + POINTS[g, c]
                d += 1
                entering = True
                continue
            val = best
            finished = True

        # Node d is finished with value val; store what the search proved.
        if not entering and slot >= 0:
            way0 = 2 * slot
            key1 = (x0 | x1 | x2) | (ld << 32)
            rel = val - cur_acc
            lo = 0
            hi = cur_rem
            e1 = tt[way0 + 1]
            if tt[way0] == key0 and (e1 & KEY_MASK) == key1 and ((e1 >> 53) & 0x7FF) == gen:
                lo = (e1 >> 34) & 127
                hi = (e1 >> 41) & 127
            else:
                f1 = tt[way0 + 3]
                if tt[way0 + 2] == key0 and (f1 & KEY_MASK) == key1 and ((f1 >> 53) & 0x7FF) == gen:
                    lo = (f1 >> 34) & 127
                    hi = (f1 >> 41) & 127
                tt[way0 + 2] = tt[way0]  # the old way-0 entry moves to way 1
                tt[way0 + 3] = e1
            if val <= a0:
                hi = min(hi, rel)
            elif val >= b0:
                lo = max(lo, rel)
            else:
                lo = rel
                hi = rel
            move = _move_to_rank(g, key1 & 0xFFFFFFFF, bestmove)
            tt[way0] = key0
            tt[way0 + 1] = key1 | (lo << 34) | (hi << 41) | (move << 48) | (gen << 53)
        if d == 0:
            break
        d -= 1
        entering = False
    meta[META_NODES] += nodes
    return val


# ---------------------------------------------------------------- drivers (internal layout)

EXACT = -1
"""Pass as ``threshold`` to ask for the exact value instead of a yes/no test."""


@njit(cache=True, nogil=True)
def _new_deal(tt, meta, st):
    """New TT generation and no killer leads from the previous deal (node counts
    of a deal then do not depend on what the context solved before)."""
    new_generation(tt, meta)
    for d in range(st.shape[0]):
        st[d, F_KILLER] = -1


@njit(cache=True, nogil=True)
def new_generation(tt, meta):
    """Start a new deal: older TT entries stop matching (cleared in full on wrap-around)."""
    gen = meta[META_GEN] + 1
    if gen > GEN_LIMIT:
        tt[:] = 0
        gen = 1
    meta[META_GEN] = gen
    meta[META_SOLVE_START] = meta[META_NODES]  # the node limit counts from here


STEP_DOWN_WIDTH = 12
"""``_exact`` tests the top of the range once it is this narrow (bench deals: exact
-3 % suit, -6 % grand, -5 % really bid against bisecting to the end)."""


@njit(cache=True, nogil=True)
def _exact(g, decl, h0, h1, h2, t0, t1, n, leader, acc, rem, guess, tt, meta, st, mv):
    """Exact value by zero-window tests sharing the TT.

    With a first guess (``guess`` >= 0, e.g. a sibling's value) MTD(f)-style:
    test at the guess, then step from the fail-soft bound towards the value;
    a value near the guess needs 2-3 tests.  After two tests on the same side
    without converging the guess was poor, and the rest is bisection.
    """
    if g == NULL_GAME:
        v = _search(g, decl, h0, h1, h2, t0, t1, n, leader, 0, 1, 0, 1, tt, meta, st, mv)
        if v == ABORTED:
            return ABORTED
        return 1 if v >= 1 else 0
    flags = meta[META_FLAGS]
    bisect_only = (flags & FLAG_BINARY_ONLY) != 0
    if bisect_only or (flags & FLAG_NO_GUESS) != 0:
        guess = -1
    lo = acc
    hi = acc + rem
    last_up = 0  # +k: the last k tests raised lo; -k: they lowered hi
    while lo < hi:
        if guess >= 0 and -2 < last_up < 2:
            if last_up == 0:
                gamma = min(max(guess, lo + 1), hi)
            elif last_up > 0:
                gamma = lo + 1
            else:
                gamma = hi
        elif hi - lo <= STEP_DOWN_WIDTH and not bisect_only:
            # Near the value, proofs that the declarer reaches gamma cost most: step
            # down from the top, so that only the last test is such a proof.
            gamma = hi
        else:
            # Zero-window test at the midpoint; the fail-soft result may move a bound
            # past gamma (to the next value the cards can actually produce).
            gamma = (lo + hi + 1) // 2
        v = _search(g, decl, h0, h1, h2, t0, t1, n, leader, acc, rem, gamma - 1, gamma, tt, meta, st, mv)
        if v == ABORTED:
            return ABORTED
        if v >= gamma:
            lo = gamma if bisect_only else v
            last_up = last_up + 1 if last_up > 0 else 1
        else:
            hi = gamma - 1 if bisect_only else v
            last_up = last_up - 1 if last_up < 0 else -1
    return lo


@njit(cache=True, nogil=True)
def _value(g, decl, h0, h1, h2, t0, t1, n, leader, acc, rem, threshold, guess, tt, meta, st, mv):
    """Exact value (threshold < 0), or 1/0 for "declarer reaches >= threshold" (null: wins).

    ``guess``: a likely exact value (-1: none) to start the exact search from."""
    if threshold < 0 or g == NULL_GAME:
        return _exact(g, decl, h0, h1, h2, t0, t1, n, leader, acc, rem, guess, tt, meta, st, mv)
    v = _search(g, decl, h0, h1, h2, t0, t1, n, leader, acc, rem, threshold - 1, threshold, tt, meta, st, mv)
    if v == ABORTED:
        return ABORTED
    return 1 if v >= threshold else 0


@njit(cache=True, nogil=True)
def _play(g, decl, h0, h1, h2, t0, t1, n, leader, acc, rem, c):
    """State after the player to move plays internal card c; lost=True if the null declarer took a trick."""
    bit = 1 << c
    h0 &= ~bit
    h1 &= ~bit
    h2 &= ~bit
    lost = False
    if n == 0:
        return h0, h1, h2, c, t1, 1, leader, acc, rem, lost
    if n == 1:
        return h0, h1, h2, t0, c, 2, leader, acc, rem, lost
    w = _seat(leader + _winner_offset(g, t0, t1, c))
    if g == NULL_GAME:
        lost = w == decl
    else:
        pts = POINTS[g, t0] + POINTS[g, t1] + POINTS[g, c]
        rem -= pts
        if w == decl:
            acc += pts
    return h0, h1, h2, 0, 0, 0, w, acc, rem, lost


@njit(cache=True, nogil=True)
def solve_root(game, declarer, h0, h1, h2, trick, n_trick, leader, decl_points, decl_tricks, threshold,
               want_per_card, out_cards, out_values, tt, meta, st, mv):
    """Solve one position given in the standard card layout, as a new deal.

    threshold < 0 (``EXACT``): exact value (suit/grand: declarer's final card
    points incl. ``decl_points``; null: 1 win / 0 loss); else 1/0 for
    "declarer reaches >= threshold" (null ignores it).  With want_per_card,
    out_cards/out_values (int64[>=10]) receive the value after each legal card
    of the player to move.  Returns (value, best card or -1, number of cards).
    """
    _new_deal(tt, meta, st)
    g = game
    is_null = g == NULL_GAME
    ih0 = to_internal_mask(g, h0)
    ih1 = to_internal_mask(g, h1)
    ih2 = to_internal_mask(g, h2)
    t0 = TO_INTERNAL[g, trick[0]] if n_trick >= 1 else 0
    t1 = TO_INTERNAL[g, trick[1]] if n_trick >= 2 else 0
    if is_null:
        acc = 0
        rem = 1
    else:
        acc = decl_points
        table = 0
        if n_trick >= 1:
            table |= 1 << t0
        if n_trick >= 2:
            table |= 1 << t1
        rem = _mask_points(g, ih0 | ih1 | ih2 | table)
    p = _seat(leader + n_trick)
    hand = ih0 if p == 0 else (ih1 if p == 1 else ih2)
    if is_null and decl_tricks > 0:
        return 0, -1, 0
    if hand == 0:  # game over
        if is_null:
            return 1, -1, 0
        if threshold >= 0:
            return (1 if acc >= threshold else 0), -1, 0
        return acc, -1, 0
    if n_trick == 0:
        legal = hand
    else:
        follow = hand & CLASS_MASK[g, t0]
        legal = follow if follow else hand
    in_play = ih0 | ih1 | ih2
    if n_trick >= 1:
        in_play |= 1 << t0
    if n_trick >= 2:
        in_play |= 1 << t1
    maximize = p == declarer

    if not want_per_card:
        value = _value(g, declarer, ih0, ih1, ih2, t0, t1, n_trick, leader, acc, rem, threshold, -1,
                       tt, meta, st, mv)
        if value == ABORTED:
            return ABORTED, -1, 0
        # Best card: the first whose child keeps the value (cheap tests on a warm TT).
        m = legal
        while m:
            c = _low_index(m)
            m &= m - 1
            s = _play(g, declarer, ih0, ih1, ih2, t0, t1, n_trick, leader, acc, rem, c)
            if s[9]:  # null: this card takes a trick for the declarer
                if value == 0:
                    return value, TO_CARD[g, c], 0
                continue
            if threshold >= 0 or is_null:
                child = _value(g, declarer, s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], threshold,
                               -1, tt, meta, st, mv)
                if child == ABORTED:
                    return ABORTED, -1, 0
                if child == value:
                    return value, TO_CARD[g, c], 0
            elif maximize:
                v = _search(g, declarer, s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8],
                            value - 1, value, tt, meta, st, mv)
                if v == ABORTED:
                    return ABORTED, -1, 0
                if v >= value:
                    return value, TO_CARD[g, c], 0
            else:
                v = _search(g, declarer, s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8],
                            value, value + 1, tt, meta, st, mv)
                if v == ABORTED:
                    return ABORTED, -1, 0
                if v <= value:
                    return value, TO_CARD[g, c], 0
        return value, -1, 0  # unreachable for consistent positions

    # Cards are solved from the highest down (trumps first), which warms the table
    # better for the rest than from the lowest up (PIMC exact per card, first trick:
    # -4.4 % nodes); the outputs stay in ascending order, and ties still go to the
    # lowest card.
    total = _popcount(legal)
    count = 0
    best_value = -INF if maximize else INF
    best_card = -1
    m = legal
    last_value = 0
    while m:
        c = _high_index(m)
        m &= ~(1 << c)
        # An equivalent upper neighbour in the same hand was just solved.
        upper = in_play & CLASS_MASK[g, c] & ~((2 << c) - 1)
        if count > 0 and upper and (hand >> _low_index(upper)) & 1 \
                and (is_null or POINTS[g, _low_index(upper)] == POINTS[g, c]):
            v = last_value
        else:
            s = _play(g, declarer, ih0, ih1, ih2, t0, t1, n_trick, leader, acc, rem, c)
            if s[9]:
                v = 0
            else:
                # The previous card's value is a good first guess for this one.
                v = _value(g, declarer, s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], threshold,
                           last_value if count > 0 and last_value >= 0 else -1, tt, meta, st, mv)
                if v == ABORTED:
                    return ABORTED, -1, count
        out_cards[total - 1 - count] = TO_CARD[g, c]
        out_values[total - 1 - count] = v
        count += 1
        last_value = v
        if (maximize and v >= best_value) or (not maximize and v <= best_value):
            best_value = v
            best_card = TO_CARD[g, c]
    return best_value, best_card, count


@njit(cache=True, nogil=True)
def solve_value(game, declarer, h0, h1, h2, trick, n_trick, leader, decl_points, decl_tricks, threshold,
                tt, meta, st, mv):
    """Value of a position as a new deal (see ``solve_root``); the PIMC hot path."""
    _new_deal(tt, meta, st)
    g = game
    ih0 = to_internal_mask(g, h0)
    ih1 = to_internal_mask(g, h1)
    ih2 = to_internal_mask(g, h2)
    t0 = TO_INTERNAL[g, trick[0]] if n_trick >= 1 else 0
    t1 = TO_INTERNAL[g, trick[1]] if n_trick >= 2 else 0
    if g == NULL_GAME:
        if decl_tricks > 0:
            return 0
        return _exact(g, declarer, ih0, ih1, ih2, t0, t1, n_trick, leader, 0, 1, -1, tt, meta, st, mv)
    table = 0
    if n_trick >= 1:
        table |= 1 << t0
    if n_trick >= 2:
        table |= 1 << t1
    rem = _mask_points(g, ih0 | ih1 | ih2 | table)
    return _value(g, declarer, ih0, ih1, ih2, t0, t1, n_trick, leader, decl_points, rem, threshold, -1,
                  tt, meta, st, mv)


@njit(cache=True, nogil=True)
def solve_worlds(game, declarer, hands, decl_points, trick, n_trick, leader, decl_tricks, threshold,
                 out_cards, out_values, out_counts, tt, meta, st, mv):
    """``solve_root`` with per-card values for many worlds of one decision in one call
    (PIMC: no Python between worlds, so a second thread is not kept waiting for the GIL).

    World j: hands[j, 0..2] and decl_points[j] (points taken plus that world's skat);
    its legal cards and their values go to out_cards[j], out_values[j] (int64[k, >= 10]),
    their number to out_counts[j].  Returns the number of worlds solved: fewer than
    k when the context was asked to abort (the world being solved is dropped).
    """
    for j in range(hands.shape[0]):
        value, _, count = solve_root(game, declarer, hands[j, 0], hands[j, 1], hands[j, 2], trick, n_trick, leader,
                                     decl_points[j], decl_tricks, threshold, True, out_cards[j], out_values[j],
                                     tt, meta, st, mv)
        if value == ABORTED:
            return j
        out_counts[j] = count
    return hands.shape[0]
