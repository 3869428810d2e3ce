"""Null game bounds: the declarer surely safe, or surely forced to take this trick.

``null_declarer_safe`` plays every suit's game on its own from a stored table
(``NULL_SUIT_WINS``, built by ``_build_null_suit_table`` and kept in
``engine/data/null_suit_game.npz``); ``null_lead_wins_trick`` looks one trick
ahead.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from engine.card_layout import PEXT8, SAME_CLASS, high_index, low_index, popcount, seat

# ---------------------------------------------------------------- null: one suit at a time
#
# Null, defenders on lead: the declarer is safe for the rest of the game if he
# is safe in every suit on its own, in a game that gives the defenders more
# than they have: they choose which of them leads each trick of the suit, and
# either may throw away up to k of his cards of the suit at any moment (k
# bounded by the tricks of other suits in which he can be void, see
# ``null_declarer_safe``).  The declarer plays each trick of a suit as that
# suit's game says, and when void in the led suit throws away the highest card
# of a suit: taking a suit's highest card from him never makes it unsafe (he
# plays the next lower card wherever he would have played it).
#
# Of a defender's k discards only u (<= k) need be "unpaired": the others fall
# on tricks in which the declarer is void too, and he then throws away his
# highest card of this suit.  Only one suit can be given the declarer's
# discards, so u < k is used for at most one suit (``null_declarer_safe``).
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
    return SUIT_STATES_BEFORE[popcount(out)] + TERNARY_BITS[PEXT8[out, a]] + 2 * TERNARY_BITS[PEXT8[out, b]]


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
    d_top = 1 << high_index(d)
    for unpaired in (True, False):
        nd = d if unpaired else d ^ d_top
        for by_a in (True, False):
            k, u = (ka, ua) if by_a else (kb, ub)
            if k == 0 or (u == 0 and unpaired):
                continue
            nk, nu = _after_discard(k, u, unpaired)
            m = a if by_a else b
            while m:
                x = m & -m
                m ^= x
                if by_a:
                    forced = _suit_forced(table, nd, a ^ x, b, nk, nu, kb, ub)
                else:
                    forced = _suit_forced(table, nd, a, b ^ x, ka, ua, nk, nu)
                if forced:
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
def null_declarer_safe(g, decl, x0, x1, x2):
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
    sa = seat(decl + 1)
    sb = seat(decl + 2)
    ha = x0 if sa == 0 else (x1 if sa == 1 else x2)
    hb = x0 if sb == 0 else (x1 if sb == 1 else x2)
    slots_a = 0  # tricks B can lead in a suit A is void in, all suits
    slots_b = 0
    unpaired_a = 0  # of those, the ones in which the declarer may still hold the suit
    unpaired_b = 0
    for suit in range(4):
        shift = 8 * suit
        la = popcount((ha >> shift) & 255)
        lb = popcount((hb >> shift) & 255)
        ld = popcount((hd >> shift) & 255)
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
        la = popcount(am)
        lb = popcount(bm)
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
    la = popcount(am)
    lb = popcount(bm)
    ld = popcount(dm)
    ka = _capped(slots_a - (lb - la if lb > la else 0))
    kb = _capped(slots_b - (la - lb if la > lb else 0))
    ua = min(ka, _capped(unpaired_a - max(0, min(lb, ld) - la)))
    ub = min(kb, _capped(unpaired_b - max(0, min(la, ld) - lb)))
    return _suit_forced(NULL_SUIT_WINS, dm, am, bm, ka, ua, kb, ub) == 0


@njit(cache=True, nogil=True)
def null_lead_wins_trick(g, decl, lead, x0, x1, x2):
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
        dlow = low_index(m)
        cls = SAME_CLASS[g, dlow]
        m &= ~cls
        led = hl & cls
        if led and low_index(led) < dlow:
            follow = ho & cls
            if follow == 0 or low_index(follow) < dlow:
                return True
    return False
