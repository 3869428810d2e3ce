"""The solver's zero-window search: fail-soft alpha-beta over single card plays.

An explicit stack (``st``, ``mv``) instead of recursion: a recursive
``@njit(cache=True)`` function crashed when loaded from the cache in another
process (numba issue #6061).  Trick starts look up the transposition table,
keyed on the quasi-symmetric view of a position (``compressed_union``,
``point_shift``, ``move_to_rank``), then try static bounds (``bounds``,
``null_table``) and the endgame before expanding.
"""

from __future__ import annotations

from numba import njit

from engine.card_layout import (
    FOLLOW_CLASSES, N_FOLLOW_CLASSES, NULL_GAME, POINTS, RAMSCH_GAME, SAME_CLASS, high_index, low_index, pext,
    popcount, seat, value_counts, winner_offset,
)

from .bounds import sure_points
from .context import (
    ABORTED, ABORT_CHECK_MASK, FLAG_NO_ENDGAME, FLAG_NO_ORDER, FLAG_NO_QUICK, FLAG_NO_SURE_POINTS, FLAG_NO_TT,
    FLAG_RAW_TT, F_ACC, F_ALPHA, F_ALPHA0, F_BEST, F_BESTMOVE, F_BETA, F_BETA0, F_DEFERRED, F_H0, F_H1, F_H2,
    F_KEY0, F_KILLER, F_LEAD, F_MI, F_N, F_NM, F_REM, F_SLOT, F_T0, F_T1, INF, KEY_MASK, META_ABORT,
    META_FLAGS, META_GEN, META_NODES, META_NODE_LIMIT, META_SOLVE_START,
)
from .endgame import hand_of, three_tricks, two_tricks
from .moves import gen_moves
from .null_table import null_declarer_safe, null_lead_wins_trick

# ---------------------------------------------------------------- transposition table keys

@njit(cache=True, nogil=True)
def compressed_union(g, u):
    """The union mask with each follow class's cards moved to its lowest positions."""
    out = 0
    for k in range(N_FOLLOW_CLASSES[g]):
        grp = FOLLOW_CLASSES[g, k]
        low = grp & -grp
        out |= low * ((1 << popcount(u & grp)) - 1)
    return out


@njit(cache=True, nogil=True)
def point_shift(g, u_from, u_to):
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
            pa = POINTS[g, low_index(a)]
            pb = POINTS[g, low_index(b)]
            if pa > pb:
                lose += pa - pb
            else:
                gain += pb - pa
            a &= a - 1
            b &= b - 1
    return lose, gain


@njit(cache=True, nogil=True, inline="always")
def move_to_rank(g, u, c):
    """Card c as its rank among the cards of its class in play (class-compressed index)."""
    cls = SAME_CLASS[g, c]
    return low_index(cls) + popcount(u & cls & ((1 << c) - 1))


@njit(cache=True, nogil=True, inline="always")
def move_from_rank(g, u, cm):
    cls = SAME_CLASS[g, cm]
    live = u & cls
    for _ in range(cm - low_index(cls)):
        live &= live - 1
    return low_index(live) if live else -1


# ---------------------------------------------------------------- search


@njit(cache=True, nogil=True, inline="always")
def _alone_in_class(g, in_play, hand, c):
    """Is neither in-play neighbour of card c in its class in the same hand?  Then move
    generation keeps c as a move of its own (no run or equal neighbour stands in for it)."""
    cls = SAME_CLASS[g, c]
    lower = in_play & cls & ((1 << c) - 1)
    if lower and (hand >> high_index(lower)) & 1:
        return False
    upper = in_play & cls & ~((2 << c) - 1)
    return not (upper and (hand >> low_index(upper)) & 1)


@njit(cache=True, nogil=True)
def search(g, decl, h0, h1, h2, t0, t1, ntrick, leader, acc, rem, alpha, beta, tt, meta, st, mv):
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
                # Game over: what is left (the Ramsch skat; nothing in other games but
                # null's 1) goes with the last trick, taken by the leader now.
                val = cur_acc + (cur_rem if g != RAMSCH_GAME or value_counts(g, ld, decl) else 0)
                finished = True
            elif n == 0 and (x0 & (x0 - 1)) == 0 and (x1 & (x1 - 1)) == 0 and (x2 & (x2 - 1)) == 0:
                # Last trick: one card each, nothing to choose.
                c0 = low_index(x0)
                c1 = low_index(x1)
                c2 = low_index(x2)
                ca = c0 if ld == 0 else (c1 if ld == 1 else c2)
                cb = c1 if ld == 0 else (c2 if ld == 1 else c0)
                cc = c2 if ld == 0 else (c0 if ld == 1 else c1)
                w = seat(ld + winner_offset(g, ca, cb, cc))
                if is_null:
                    val = 0 if w == decl else 1
                else:
                    val = cur_acc + (cur_rem if value_counts(g, w, decl) else 0)
                finished = True
            elif use_endgame and n == 0 and popcount(x0 | x1 | x2) == 6:
                val = two_tricks(g, decl, ld, x0, x1, x2, cur_acc, cur_rem)
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
                        z0 = pext(x0, u)
                        z1 = pext(x1, u)
                        zu = compressed_union(g, u)
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
                            if raw_tt or compressed_union(g, stored_u) != zu:
                                continue  # other class counts, same word 0
                            if not is_null:
                                lose, gain = point_shift(g, stored_u, u)
                        lo = cur_acc + ((e1 >> 34) & 127) - lose
                        hi = cur_acc + ((e1 >> 41) & 127) + gain
                        if tt_move < 0:
                            tt_move = move_from_rank(g, u, (e1 >> 48) & 31)
                        if lo >= b or lo == hi:
                            val = lo
                            finished = True
                            break
                        if hi <= a:
                            val = hi
                            finished = True
                            break
                if not finished and n == 0 and is_null and ld != decl:
                    if use_quick and null_lead_wins_trick(g, decl, ld, x0, x1, x2):
                        val = 0
                        finished = True
                    elif use_sure and null_declarer_safe(g, decl, x0, x1, x2):
                        val = 1
                        finished = True
                if not finished and n == 0 and not is_null and use_sure and g != RAMSCH_GAME:
                    # (Ramsch: the bounds assume each side wants its tricks.)
                    decl_sure, def_sure = sure_points(g, decl, ld, x0, x1, x2)
                    if cur_acc + decl_sure >= b:
                        val = cur_acc + decl_sure
                        finished = True
                    elif cur_acc + cur_rem - def_sure <= a:
                        val = cur_acc + cur_rem - def_sure
                        finished = True
                if not finished and use_endgame and n == 0 and popcount(x0 | x1 | x2) == 9:
                    # Three tricks left: a direct alpha-beta over the next trick (cheaper
                    # than stack nodes); stored in the table like an expanded node.
                    val, bestmove = three_tricks(g, decl, ld, x0, x1, x2, cur_acc, cur_rem, a, b, tt_move)
                    a0 = a
                    b0 = b
                    entering = False
                    finished = True
                if not finished:
                    a0 = a
                    b0 = b
                    if tt_move >= 0 and use_order and _alone_in_class(g, x0 | x1 | x2, hand_of(ld, x0, x1, x2), tt_move):
                        # The table's move goes first and often refutes the node: try it
                        # before generating the others (the full list, made only if it
                        # does not, starts with the same card).
                        mv[d, 0] = tt_move
                        nm = 1
                        deferred = True
                    else:
                        nm = gen_moves(g, decl, d, ld, n, x0, x1, x2, tc0, tc1, st[d, F_KILLER], mv, tt_move, flags)
                        deferred = False
                    mi = 0
                    best = -INF if seat(ld + n) == decl else INF
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
            if seat(ld + n) == decl:
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
                nm = gen_moves(g, decl, d, ld, n, x0, x1, x2, tc0, tc1, st[d, F_KILLER], mv, move, flags)
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
                    w = seat(ld + winner_offset(g, tc0, tc1, c))
                    ld = w
                    n = 0
                    if is_null:
                        if w == decl:
                            # The declarer took a trick: null is lost, no node needed.
                            nodes += 1
                            val = 0
                            entering = False
                            continue
                    elif value_counts(g, w, decl):
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
            move = move_to_rank(g, key1 & 0xFFFFFFFF, bestmove)
            tt[way0] = key0
            tt[way0 + 1] = key1 | (lo << 34) | (hi << 41) | (move << 48) | (gen << 53)
        if d == 0:
            break
        d -= 1
        entering = False
    meta[META_NODES] += nodes
    return val

