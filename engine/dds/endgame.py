"""Direct evaluation of the last two or three tricks (cheaper than stack nodes).

``two_tricks`` is a plain minimax over the at most 8 lines of play;
``three_tricks`` an alpha-beta over the first of three tricks with the two
after it by ``two_tricks``.  Both use the search's result conventions.
"""

from __future__ import annotations

from numba import njit

from engine.card_layout import (
    NULL_GAME, POINTS, RAMSCH_GAME, SAME_CLASS, TRUMP_MASK, high_index, low_index, seat, value_counts,
    winner_offset,
)

from .context import INF
from .moves import follow_settled, ruff_hands, sure_lead


@njit(cache=True, nogil=True, inline="always")
def hand_of(seat, x0, x1, x2):
    return x0 if seat == 0 else (x1 if seat == 1 else x2)


@njit(cache=True, nogil=True, inline="always")
def _trick_seats(decl, lead, x0, x1, x2):
    """The seats after the leader, the hands in playing order, and which of them is the
    declarer (who maximises)."""
    seat_b = seat(lead + 1)
    seat_c = seat(lead + 2)
    return (seat_b, seat_c, hand_of(lead, x0, x1, x2), hand_of(seat_b, x0, x1, x2), hand_of(seat_c, x0, x1, x2),
            lead == decl, seat_b == decl, seat_c == decl)


@njit(cache=True, nogil=True)
def two_tricks(g, decl, lead, x0, x1, x2, acc, rem):
    """Exact value of a trick start with two cards in every hand, by direct minimax.

    Suit/grand: acc + the declarer's points from the two tricks (rem = all points
    left); null: 1 if the declarer takes neither trick, else 0.  Cheaper than
    running the stack search over its at most 8 lines of play.
    """
    is_null = g == NULL_GAME
    seat_b, seat_c, ha, hb, hc, a_max, b_max, c_max = _trick_seats(decl, lead, x0, x1, x2)
    best_a = -INF if a_max else INF
    ma = ha
    while ma:
        a = low_index(ma)
        ma &= ma - 1
        follow_b = hb & SAME_CLASS[g, a]
        legal_b = follow_b if follow_b else hb
        follow_c = hc & SAME_CLASS[g, a]
        legal_c = follow_c if follow_c else hc
        best_b = -INF if b_max else INF
        mb = legal_b
        while mb:
            b = low_index(mb)
            mb &= mb - 1
            best_c = -INF if c_max else INF
            mc = legal_c
            while mc:
                c = low_index(mc)
                mc &= mc - 1
                w1 = seat(lead + winner_offset(g, a, b, c))
                # the last trick: the remaining card of each hand, led by w1
                ra = ha & ~(1 << a)
                rb = hb & ~(1 << b)
                rc = hc & ~(1 << c)
                la = low_index(ra)
                lb = low_index(rb)
                lc = low_index(rc)
                # cards of the last trick in seat order lead, seat_b, seat_c; rotate to w1
                k = w1 - lead if w1 >= lead else w1 - lead + 3
                if k == 0:
                    w2 = seat(w1 + winner_offset(g, la, lb, lc))
                elif k == 1:
                    w2 = seat(w1 + winner_offset(g, lb, lc, la))
                else:
                    w2 = seat(w1 + winner_offset(g, lc, la, lb))
                if is_null:
                    v = 0 if (w1 == decl or w2 == decl) else 1
                else:
                    p1 = POINTS[g, a] + POINTS[g, b] + POINTS[g, c]
                    v = acc
                    if value_counts(g, w1, decl):
                        v += p1
                    if value_counts(g, w2, decl):
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
    lower = in_play & SAME_CLASS[g, c] & ((1 << c) - 1)
    if lower == 0:
        return False
    b = high_index(lower)
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


@njit(cache=True, nogil=True, inline="always")
def _child_value(maximize, v, best, alpha, beta):
    """A child of a fail-soft alpha-beta node returned v: (v improved the node's best, its
    new best, the node is cut off, its new window alpha, beta)."""
    improved = v > best if maximize else v < best
    cut = False
    if improved:
        best = v
        if maximize:
            cut = v >= beta
            if not cut and v > alpha:
                alpha = v
        else:
            cut = v <= alpha
            if not cut and v < beta:
                beta = v
    return improved, best, cut, alpha, beta


@njit(cache=True, nogil=True)
def three_tricks(g, decl, lead, x0, x1, x2, acc, rem, alpha, beta, first):
    """Fail-soft value of a trick start with three cards in every hand: alpha-beta
    over the first trick's cards (``first``: a card of the leader to try first, or
    -1), the last two tricks by ``two_tricks``.  Same result convention as ``search``."""
    is_null = g == NULL_GAME
    seat_b, seat_c, ha, hb, hc, a_max, b_max, c_max = _trick_seats(decl, lead, x0, x1, x2)
    best_a = -INF if a_max else INF
    best_card = -1
    al_a = alpha
    be_a = beta
    # leads: the table's move, sure winners (most points), the declarer's trumps,
    # then the rest (fewest points)
    opp = (hb | hc) if a_max else hand_of(decl, x0, x1, x2)
    ruff_a, ruff_b = ruff_hands(g, decl, lead, x0, x1, x2)
    i0 = -1
    i1 = -1
    i2 = -1
    in_play = x0 | x1 | x2
    ma = ha
    while ma:
        a = low_index(ma)
        ma &= ma - 1
        cls = SAME_CLASS[g, a]
        if _same_as_lower(g, in_play, ha, a):
            continue
        if a == first:
            sc = 1000
        elif sure_lead(g, a, cls, opp, ruff_a, ruff_b):
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
        follow_b = hb & SAME_CLASS[g, a]
        legal_b = follow_b if follow_b else hb
        follow_c = hc & SAME_CLASS[g, a]
        legal_c = follow_c if follow_c else hc
        best_b = -INF if b_max else INF
        al_b = al_a
        be_b = be_a
        # second card: a trick my side surely takes first (most points), then a card
        # that beats for now (fewest points), then the rest (fewest points)
        eligible = SAME_CLASS[g, a] | TRUMP_MASK[g]
        j0 = -1
        j1 = -1
        j2 = -1
        mb = legal_b
        while mb:
            b = low_index(mb)
            mb &= mb - 1
            if _same_as_lower(g, in_play, hb, b):
                continue
            settled, mine, beats = follow_settled(decl, seat_b, b, a, lead, eligible, seat_c, legal_c & eligible)
            if settled and mine != (g == RAMSCH_GAME):
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
                c = low_index(mc)
                mc &= mc - 1
                if _same_as_lower(g, in_play, hc, c):
                    continue
                wc = seat(lead + winner_offset(g, a, b, c))
                sc = (200 + POINTS[g, c]) if (value_counts(g, wc, decl) == c_max) else (100 - POINTS[g, c])
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
                        v = two_tricks(g, decl, w1, x0 & ~bits, x1 & ~bits, x2 & ~bits, 0, 1)
                else:
                    p1 = POINTS[g, a] + POINTS[g, b] + POINTS[g, c]
                    v = two_tricks(g, decl, w1, x0 & ~bits, x1 & ~bits, x2 & ~bits,
                                    acc + (p1 if value_counts(g, w1, decl) else 0), rem - p1)
                # (the last card's window is not narrowed: nothing is searched below it)
                _, best_c, cut, _, _ = _child_value(c_max, v, best_c, al_b, be_b)
                if cut:
                    break
            _, best_b, cut, al_b, be_b = _child_value(b_max, best_c, best_b, al_b, be_b)
            if cut:
                break
        improved, best_a, cut, al_a, be_a = _child_value(a_max, best_b, best_a, al_a, be_a)
        if improved:
            best_card = a
        if cut:
            break
    return best_a, best_card
