"""Numba core of the double-dummy solver: the entry points (standard card layout).

Every search is a zero-window test "does the declarer reach >= gamma card
points?" (``search``); the exact value is found by bisecting gamma
(MTD-style), and all tests of one deal share the transposition table, whose
entries are bounds on the declarer's *future* points at trick starts.  A
search can be aborted (``META_ABORT``, node limit).

The parts, each a module of this package: ``context`` (the layout of a
context's arrays, flags and constants), ``moves`` (move generation and
ordering), ``bounds`` (static bounds in suit and grand), ``null_table`` (null
bounds from the suit game's table), ``endgame`` (the last two or three tricks
directly), ``search`` (the transposition table and the stack search) and this
module (the drivers).  The card layout and the rules on internal cards are
``engine.card_layout``'s, shared with the heuristic core.

All entry points are ``@njit(cache=True, nogil=True)`` and take the arrays of
a per-thread context (see ``engine.dds.solver.SolverContext``):
``tt`` (int64[2 * 2**k], the transposition table), ``meta`` (int64[META_SIZE]:
generation, node counter, flags, abort word, node limit), ``st`` (int64[MAX_DEPTH, N_FIELDS], the explicit
stack) and ``mv`` (int64[MAX_DEPTH, MOVE_COLUMNS], move lists).
"""

from __future__ import annotations

from numba import njit

from engine.card_layout import (
    NULL_GAME, POINTS, RAMSCH_GAME, SAME_CLASS, TO_INTERNAL, TO_STANDARD, high_index, low_index, mask_points,
    popcount, seat, to_internal_mask, value_counts, winner_offset,
)

from .context import (  # noqa: F401  (the context's layout, re-exported for the solver's callers)
    ABORTED, FLAG_BINARY_ONLY, FLAG_NO_ENDGAME, FLAG_NO_EQUIV, FLAG_NO_GUESS, FLAG_NO_KILLER, FLAG_NO_ORDER,
    FLAG_NO_QUICK, FLAG_NO_SURE_POINTS, FLAG_NO_TT, FLAG_RAW_TT, F_KILLER, GEN_LIMIT, INF, MAX_DEPTH, META_ABORT,
    META_FLAGS, META_GEN, META_NODE_LIMIT, META_NODES, META_SIZE, META_SOLVE_START, MOVE_COLUMNS, N_FIELDS,
)
from .search import search

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
        v = search(g, decl, h0, h1, h2, t0, t1, n, leader, 0, 1, 0, 1, tt, meta, st, mv)
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
        v = search(g, decl, h0, h1, h2, t0, t1, n, leader, acc, rem, gamma - 1, gamma, tt, meta, st, mv)
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
    v = search(g, decl, h0, h1, h2, t0, t1, n, leader, acc, rem, threshold - 1, threshold, tt, meta, st, mv)
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
    w = seat(leader + winner_offset(g, t0, t1, c))
    if g == NULL_GAME:
        lost = w == decl
    else:
        pts = POINTS[g, t0] + POINTS[g, t1] + POINTS[g, c]
        rem -= pts
        if value_counts(g, w, decl):
            acc += pts
    return h0, h1, h2, 0, 0, 0, w, acc, rem, lost


@njit(cache=True, nogil=True, inline="always")
def _internal_position(g, h0, h1, h2, trick, n_trick):
    """The hands and the trick's cards (0 where none) of a position given in the standard
    layout, in the internal one, and the card points still in play (hands and trick)."""
    ih0 = to_internal_mask(g, h0)
    ih1 = to_internal_mask(g, h1)
    ih2 = to_internal_mask(g, h2)
    t0 = TO_INTERNAL[g, trick[0]] if n_trick >= 1 else 0
    t1 = TO_INTERNAL[g, trick[1]] if n_trick >= 2 else 0
    table = 0
    if n_trick >= 1:
        table |= 1 << t0
    if n_trick >= 2:
        table |= 1 << t1
    return ih0, ih1, ih2, t0, t1, mask_points(g, ih0 | ih1 | ih2 | table)


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
    return _solve_root(game, declarer, h0, h1, h2, trick, n_trick, leader, decl_points, decl_tricks, 0, threshold,
                       want_per_card, out_cards, out_values, tt, meta, st, mv)


@njit(cache=True, nogil=True)
def solve_root_ramsch(player, h0, h1, h2, trick, n_trick, leader, others_points, skat_points, threshold,
                      want_per_card, out_cards, out_values, tt, meta, st, mv):
    """``solve_root`` for Ramsch, searched paranoid: ``player`` against both others.

    The value is the card points the two others end with (``others_points``
    taken so far, plus the skat's ``skat_points`` if one of them takes the
    last trick); ``player`` maximises it, the others minimise it, so
    120 - value is the least he can be held to (see ``docs/solver.md``).
    """
    return _solve_root(RAMSCH_GAME, player, h0, h1, h2, trick, n_trick, leader, others_points, 0, skat_points,
                       threshold, want_per_card, out_cards, out_values, tt, meta, st, mv)


@njit(cache=True, nogil=True)
def _solve_root(game, declarer, h0, h1, h2, trick, n_trick, leader, decl_points, decl_tricks, last_trick_points,
                threshold, want_per_card, out_cards, out_values, tt, meta, st, mv):
    """``solve_root``; ``last_trick_points``: points outside the hands that go to whoever
    takes the last trick (the Ramsch skat)."""
    _new_deal(tt, meta, st)
    g = game
    is_null = g == NULL_GAME
    ih0, ih1, ih2, t0, t1, points_left = _internal_position(g, h0, h1, h2, trick, n_trick)
    if is_null:
        acc = 0
        rem = 1
    else:
        acc = decl_points
        rem = points_left + last_trick_points
    p = seat(leader + n_trick)
    hand = ih0 if p == 0 else (ih1 if p == 1 else ih2)
    if is_null and decl_tricks > 0:
        return 0, -1, 0
    if hand == 0:  # game over
        if is_null:
            return 1, -1, 0
        if rem and value_counts(g, leader, declarer):  # the Ramsch skat, to the last trick's winner
            acc += rem
        if threshold >= 0:
            return (1 if acc >= threshold else 0), -1, 0
        return acc, -1, 0
    if n_trick == 0:
        legal = hand
    else:
        follow = hand & SAME_CLASS[g, t0]
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
            c = low_index(m)
            m &= m - 1
            s = _play(g, declarer, ih0, ih1, ih2, t0, t1, n_trick, leader, acc, rem, c)
            if s[9]:  # null: this card takes a trick for the declarer
                if value == 0:
                    return value, TO_STANDARD[g, c], 0
                continue
            if threshold >= 0 or is_null:
                child = _value(g, declarer, s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], threshold,
                               -1, tt, meta, st, mv)
                if child == ABORTED:
                    return ABORTED, -1, 0
                if child == value:
                    return value, TO_STANDARD[g, c], 0
            elif maximize:
                v = search(g, declarer, s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8],
                            value - 1, value, tt, meta, st, mv)
                if v == ABORTED:
                    return ABORTED, -1, 0
                if v >= value:
                    return value, TO_STANDARD[g, c], 0
            else:
                v = search(g, declarer, s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8],
                            value, value + 1, tt, meta, st, mv)
                if v == ABORTED:
                    return ABORTED, -1, 0
                if v <= value:
                    return value, TO_STANDARD[g, c], 0
        return value, -1, 0  # unreachable for consistent positions

    # Cards are solved from the highest down (trumps first), which warms the table
    # better for the rest than from the lowest up (PIMC exact per card, first trick:
    # -4.4 % nodes); the outputs stay in ascending order, and ties still go to the
    # lowest card.
    total = popcount(legal)
    count = 0
    best_value = -INF if maximize else INF
    best_card = -1
    m = legal
    last_value = 0
    while m:
        c = high_index(m)
        m &= ~(1 << c)
        # An equivalent upper neighbour in the same hand was just solved.
        upper = in_play & SAME_CLASS[g, c] & ~((2 << c) - 1)
        if count > 0 and upper and (hand >> low_index(upper)) & 1 \
                and (is_null or POINTS[g, low_index(upper)] == POINTS[g, c]):
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
        out_cards[total - 1 - count] = TO_STANDARD[g, c]
        out_values[total - 1 - count] = v
        count += 1
        last_value = v
        if (maximize and v >= best_value) or (not maximize and v <= best_value):
            best_value = v
            best_card = TO_STANDARD[g, c]
    return best_value, best_card, count


@njit(cache=True, nogil=True)
def solve_value(game, declarer, h0, h1, h2, trick, n_trick, leader, decl_points, decl_tricks, threshold,
                tt, meta, st, mv):
    """Value of a position as a new deal (see ``solve_root``); the PIMC hot path."""
    _new_deal(tt, meta, st)
    g = game
    ih0, ih1, ih2, t0, t1, rem = _internal_position(g, h0, h1, h2, trick, n_trick)
    if g == NULL_GAME:
        if decl_tricks > 0:
            return 0
        return _exact(g, declarer, ih0, ih1, ih2, t0, t1, n_trick, leader, 0, 1, -1, tt, meta, st, mv)
    return _value(g, declarer, ih0, ih1, ih2, t0, t1, n_trick, leader, decl_points, rem, threshold, -1,
                  tt, meta, st, mv)


@njit(cache=True, nogil=True)
def solve_worlds_ramsch(player, hands, others_points, skat_points, trick, n_trick, leader, threshold,
                        out_cards, out_values, out_counts, tt, meta, st, mv):
    """``solve_worlds`` for Ramsch (``solve_root_ramsch`` per world): world j's others'
    points so far are others_points[j] and its skat's points skat_points[j]."""
    for j in range(hands.shape[0]):
        value, _, count = solve_root_ramsch(player, hands[j, 0], hands[j, 1], hands[j, 2], trick, n_trick, leader,
                                            others_points[j], skat_points[j], threshold, True, out_cards[j],
                                            out_values[j], tt, meta, st, mv)
        if value == ABORTED:
            return j
        out_counts[j] = count
    return hands.shape[0]


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
