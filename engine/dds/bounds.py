"""Static bounds for the solver at trick starts (suit and grand).

``sure_points`` gives the points each side surely ends with in its own tricks
from here on (unbeatable trumps, runs of sure winners before or after the
trumps are drawn); a search window already outside those bounds needs no
search of the node.
"""

from __future__ import annotations

from numba import njit

from engine.card_layout import (
    LEVEL_MASK, N_POINT_LEVELS, POINT_LEVELS, POINTS, SAME_CLASS, TRUMP_MASK, high_index, low_index,
    mask_points, popcount,
)


@njit(cache=True, nogil=True)
def _cheapest_points(g, hand, k):
    """Least points ``hand`` can give to k tricks of trumps it must follow (trumps first, then anything)."""
    total = 0
    if k <= 0:
        return 0
    trumps = hand & TRUMP_MASK[g]
    for pool in (trumps, hand & ~TRUMP_MASK[g]):
        for level in range(N_POINT_LEVELS):  # cheapest cards first
            take = min(popcount(pool & LEVEL_MASK[g, level]), k)
            total += take * POINT_LEVELS[level]
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
        take = min(popcount(mask & LEVEL_MASK[g, level]), k)
        total += take * POINT_LEVELS[level]
        k -= take
    return total


@njit(cache=True, nogil=True)
def _costliest_of(g, mask, k):
    """Most points of k cards of ``mask`` (all of them if it holds fewer): all its
    points but those of its n - k cheapest cards."""
    rest = popcount(mask) - k
    if rest <= 0:
        return mask_points(g, mask)
    return mask_points(g, mask) - _cheapest_of(g, mask, rest)


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
        left = popcount(partner & ~trump) + 1
    plain = hl & ~trump
    while plain and left > 0:
        cls = SAME_CLASS[g, low_index(plain)]
        held = plain & cls
        plain &= ~cls
        a = opp_a & cls
        b = opp_b & cls if two_opponents else 0
        if a == 0 or (two_opponents and b == 0):
            continue
        top = held & ~((2 << high_index(a | b | (partner & cls))) - 1)
        rounds = min(popcount(top), popcount(a))
        if two_opponents:
            rounds = min(rounds, popcount(b))
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
            t = popcount((x0 if o == 0 else (x1 if o == 1 else x2)) & trump)
            if t > most:
                most = t
    return most


@njit(cache=True, nogil=True)
def _highest_points(g, mask, k):
    """Points of the k highest cards (internal order) of ``mask``."""
    total = 0
    while k > 0 and mask:
        c = high_index(mask)
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
    na = popcount(a)
    nb = popcount(b)
    ha = high_index(a) if a else -1
    hb = high_index(b) if b else -1
    won = 0
    i = 0
    while held:
        c = high_index(held)
        if (na > i and c < ha) or (nb > i and c < hb):
            break
        won |= 1 << c
        held &= ~(1 << c)
        i += 1
    return won


@njit(cache=True, nogil=True, inline="always")
def _cash_suits(g, plain, a, b, limit, limited):
    """(points, tricks) of the cards of ``plain`` that win one round after the other in
    their suits against hands ``a`` and ``b`` (``_cashable``); with ``limited``, at most
    as many rounds per suit as ``limit`` holds cards of it (the highest cards then)."""
    points = 0
    tricks = 0
    while plain:
        cls = SAME_CLASS[g, low_index(plain)]
        held = plain & cls
        plain &= ~cls
        top = _cashable(held, a & cls, b & cls)
        m = popcount(top)
        if limited and popcount(limit & cls) < m:
            m = popcount(limit & cls)
            points += _highest_points(g, top, m)
        else:
            points += mask_points(g, top)
        tricks += m
    return points, tricks


@njit(cache=True, nogil=True)
def sure_points(g, decl, lead, x0, x1, x2):
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
    decl_top = mine if theirs == 0 else mine & ~((2 << high_index(theirs)) - 1)
    def_top = theirs if mine == 0 else theirs & ~((2 << high_index(mine)) - 1)
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
    decl_sure = mask_points(g, mine)
    k_decl = popcount(mine)
    if mine != 0 and theirs != 0:
        killable = mine & ((1 << high_index(theirs)) - 1)
        killed = min(popcount(theirs & ~((2 << low_index(mine)) - 1)), popcount(killable))
        decl_sure -= _costliest_of(g, killable, killed)
        k_decl -= killed
    def_sure = mask_points(g, theirs)
    k_a = popcount(ta)
    k_b = popcount(tb)
    if mine != 0:
        under_top = (1 << high_index(mine)) - 1
        if ta:
            killed = min(popcount(mine & ~((2 << low_index(ta)) - 1)), popcount(ta & under_top))
            def_sure -= _costliest_of(g, ta & under_top, killed)
            k_a -= killed
        if tb:
            killed = min(popcount(mine & ~((2 << low_index(tb)) - 1)), popcount(tb & under_top))
            def_sure -= _costliest_of(g, tb & under_top, killed)
            k_b -= killed
    k_def = max(k_a, k_b)
    decl_gets = _cheapest_of(g, da, k_decl) + _cheapest_of(g, db, k_decl)
    def_gets = _cheapest_of(g, hd, k_def)
    if lead == decl:
        def_gets += (_cheapest_of(g, da & ~trump, k_def - popcount(ta))
                     + _cheapest_of(g, db & ~trump, k_def - popcount(tb)))
        if decl_top or theirs == 0:
            k = popcount(decl_top)
            tricks = k
            if _max_trumps(g, decl, x0, x1, x2) <= k:
                # His unbeatable trumps draw every defender trump; then his other
                # trumps and the plain cards he can cash (``_cashable``) win too,
                # one trick after the other.
                cashed, cash_tricks = _cash_suits(g, hd & ~trump, da, db, 0, False)
                decl_sure = mask_points(g, mine) + cashed  # (at least the surviving trumps' points)
                tricks = popcount(mine) + cash_tricks
            decl_gets = max(decl_gets, _cheapest_points(g, da, tricks) + _cheapest_points(g, db, tricks))
        if (decl_top == 0 or _max_trumps(g, decl, x0, x1, x2) > popcount(decl_top)) and theirs != 0:
            # Trumps not drawn: before them, his plain cards above the defenders' win
            # while both must still follow that suit.  (The defenders' cheapest cards are
            # counted per phase; their least total over both phases is at least that sum.)
            decl_sure += _plain_cash(g, hd, da, db, True, 0)
    else:
        hl = x0 if lead == 0 else (x1 if lead == 1 else x2)
        k_lead = k_a if hl == da else k_b
        if hl & def_top or mine == 0:
            tricks = popcount(hl & def_top)
            # The partner follows the trump leads with his lowest trumps; the leader
            # keeps the lead for his plain cards only if the partner never has to
            # overtake (no trump of his above the leader's lowest unbeatable one).
            partner = (x0 | x1 | x2) & ~hd & ~hl
            keeps_lead = tricks == 0 or (partner & trump & ~((2 << low_index(hl & def_top)) - 1)) == 0
            drawn = popcount(mine) <= tricks and keeps_lead
            if drawn:
                # The leader's unbeatable trumps draw the declarer's; then the plain
                # cards he can cash (``_cashable``, the partner's cards of the suit
                # counted like the declarer's, so he never overtakes) win (as many as a
                # partner with trumps left can follow, so that he never has to ruff
                # and take the lead), and all his trumps win: with the declarer out
                # of trumps, any trick a defender trumps is theirs.
                def_sure = max(def_sure, mask_points(g, def_top | (hl & trump)))
                tricks = popcount(hl & trump)
                partner_ruffs = popcount(partner & trump) > tricks
                cashed, cash_tricks = _cash_suits(g, hl & ~trump, hd, partner, partner, partner_ruffs)
                def_sure += cashed
                tricks += cash_tricks
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
