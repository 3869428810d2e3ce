"""Numba core of the information-set Monte Carlo tree search (``engine.players.mcts``).

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012): one tree over the
searching seat's information, its nodes keyed by the cards played since the
decision (the public history), its children by card.  Each iteration takes one
sampled world (a determinization) and

1. walks down the tree from the root: at each node the seat to move in the world
   plays one of its legal cards; while some of them have no child yet, one of
   those is chosen at random and its node added (expansion), else the child with
   the best UCB1 value ``mean + c * sqrt(ln(availability) / visits)`` for that
   seat is followed, the availability counting the iterations in which the child
   was legal (every legal child's availability grows by one per visit of its
   parent);
2. plays the game out from the new node: with the heuristic policy
   (``playout_core``'s play-out loop, each seat deciding from its own hand)
   or with uniformly random legal cards;
3. backs the outcome up every node of the walk, as a value for each seat
   (``value[node, seat]``): in a normal game each seat gets its side's value
   (declarer or defenders) from the evaluation tables; in a Ramsch each seat its
   own (max^n): 1 − own points / 120, a Durchmarsch 1 for the sweeper and 0 for
   the others.

A node's values are read by the seat that played the card leading to it, so the
selection at each node maximises the mover's own value.

One call of ``mcts_batch`` runs one iteration per world of a batch on a tree held
in numpy arrays (grown by the caller), with the GIL released; several trees
(root parallelisation) may run in several threads.  All entry points are
``@njit(cache=True, nogil=True)`` and free of recursion.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.card_layout import (
    CARD_CLASS, NULL_GAME, POINTS, RAMSCH_GAME, TO_INTERNAL, TO_STANDARD, legal_internal, low_index, mask_points,
    popcount, to_internal_mask, winner_offset,
)
from engine.policy.heuristic_core import random_below, seed_state
from engine.policy.playout_core import _play_out

NO_NODE = -1
MAX_PLY = 32
"""More cards than a game has: the longest walk down a tree."""

PLAYOUT_RANDOM = 0
PLAYOUT_HEURISTIC = 1

# the position of one iteration, in one int64 array
HANDS = 0  # 0..2
TRICK = 3  # 3..5
N = 6
LEADER = 7
POINTS_AT = 8  # 8..10: card points taken per seat
TRICKS_AT = 11  # 11..13: tricks taken per seat
PLAYED = 14
VOIDS = 15  # 15..17
OVER = 18
STATE_SIZE = 19


@njit(cache=True, nogil=True, inline="always")
def _nth_card(mask, k):
    """The k-th lowest card of ``mask``."""
    for _ in range(k):
        mask &= mask - 1
    return low_index(mask)


@njit(cache=True, nogil=True)
def _play(g, decl, s, card, ramsch_skat_points):
    """The seat to move plays ``card`` (internal) in position ``s``; a finished game sets s[OVER]
    (every card played, or a null declarer's first trick).  A Ramsch's skat goes with the last trick."""
    n = s[N]
    leader = s[LEADER]
    seat = (leader + n) % 3
    if n > 0:
        led_cls = CARD_CLASS[g, s[TRICK]]
        if CARD_CLASS[g, card] != led_cls:
            s[VOIDS + seat] |= 1 << led_cls
    s[HANDS + seat] &= ~(1 << card)
    s[PLAYED] |= 1 << card
    s[TRICK + n] = card
    n += 1
    if n == 3:
        a, b, c = s[TRICK], s[TRICK + 1], s[TRICK + 2]
        winner = (leader + winner_offset(g, a, b, c)) % 3
        pts = POINTS[g, a] + POINTS[g, b] + POINTS[g, c]
        empty = s[HANDS] == 0 and s[HANDS + 1] == 0 and s[HANDS + 2] == 0
        if g == RAMSCH_GAME and empty:
            pts += ramsch_skat_points
        s[POINTS_AT + winner] += pts
        s[TRICKS_AT + winner] += 1
        leader = winner
        n = 0
        if empty or (g == NULL_GAME and winner == decl):
            s[OVER] = 1
    s[N] = n
    s[LEADER] = leader


@njit(cache=True, nogil=True)
def _random_playout(g, decl, s, ramsch_skat_points, rng):
    while s[OVER] == 0:
        seat = (s[LEADER] + s[N]) % 3
        legal = legal_internal(g, s[HANDS + seat], s[TRICK] if s[N] > 0 else -1)
        _play(g, decl, s, _nth_card(legal, random_below(rng, popcount(legal))), ramsch_skat_points)


@njit(cache=True, nogil=True)
def mcts_batch(g, decl, skat_known, ouvert, trick_std, n, leader, points, tricks, played, voids, known_std, c,
               playout, win_table, decl_values, def_values, child, visits, avail, value, n_nodes, seed, out,
               worlds, skats):
    """One ISMCTS iteration per world on the tree (``child``, ``visits``, ``avail``, ``value``;
    ``n_nodes[0]`` nodes in use, node 0 the root; room for one new node per world).

    g, decl: the game (internal layout's game index; a Ramsch's decl is ignored); worlds:
    int64[W, 3] hands, skats: int64[W] (standard masks); skat_known: whether the declarer knows
    the skat (took it); ouvert: the declarer's hand is open; trick_std: int64[3] with the n
    standard cards of the current trick, led by ``leader``; points / tricks: int64[3] taken per
    seat so far (the skat not included); played: standard mask of all cards played, the trick's
    included; voids: int64[3] follow classes each seat showed void in; known_std: int64[3], a
    Ramsch's skat cards each seat knows.  c: the exploration constant; playout:
    ``PLAYOUT_RANDOM`` or ``PLAYOUT_HEURISTIC``; win_table: bool[121, 2, 2], whether the declarer
    wins by (its points, it took a trick, the defenders took a trick); decl_values / def_values:
    float64[121, 2] the evaluation of (side's points, side won) in 0..1, for the declarer's side and
    the defenders'.

    Writes per world to out[w]: the root card played (standard), the searching seat's side's card
    points (a Ramsch: the two others' points, 120 for its own Durchmarsch), whether its side won
    (a Ramsch: it is not a loser), and the depth of the walk in the tree.  Returns the deepest
    walk of the batch.  A full tree (``n_nodes[0]`` at its capacity) grows no more: its leaves
    are played out.
    """
    rng = seed_state(seed)
    s = np.zeros(STATE_SIZE, np.int64)
    start_trick = np.zeros(3, np.int64)
    for i in range(n):
        start_trick[i] = TO_INTERNAL[g, trick_std[i]]
    played_internal = to_internal_mask(g, played)
    known = np.zeros(3, np.int64)
    for seat in range(3):
        known[seat] = to_internal_mask(g, known_std[seat])
    root_mover = (leader + n) % 3
    path = np.empty(MAX_PLY + 1, np.int64)
    reward = np.zeros(3)
    ramsch = g == RAMSCH_GAME
    decl_known = np.zeros(3, np.int64)
    deepest = 0
    for w in range(worlds.shape[0]):
        for seat in range(3):
            s[HANDS + seat] = to_internal_mask(g, worlds[w, seat])
            s[TRICK + seat] = start_trick[seat]
            s[POINTS_AT + seat] = points[seat]
            s[TRICKS_AT + seat] = tricks[seat]
            s[VOIDS + seat] = voids[seat]
        s[N] = n
        s[LEADER] = leader
        s[PLAYED] = played_internal
        s[OVER] = 0
        skat_internal = to_internal_mask(g, skats[w])
        skat_points = mask_points(g, skat_internal)
        node = 0
        depth = 0
        path[0] = 0
        root_card = -1
        # 1. selection and expansion
        while s[OVER] == 0:
            seat = (s[LEADER] + s[N]) % 3
            legal = legal_internal(g, s[HANDS + seat], s[TRICK] if s[N] > 0 else -1)
            untried = 0
            m = legal
            while m:
                card = low_index(m)
                m &= m - 1
                if child[node, card] == NO_NODE:
                    untried |= 1 << card
            if untried:
                card = _nth_card(untried, random_below(rng, popcount(untried)))
                if n_nodes[0] == child.shape[0]:  # the tree is full: play out from here
                    if depth == 0:
                        root_card = card
                    _play(g, decl, s, card, skat_points)
                    break
                new = n_nodes[0]
                n_nodes[0] = new + 1
                child[node, card] = new
                for k in range(3):
                    value[new, k] = 0.0
                visits[new] = 0
                avail[new] = 0
                for k in range(32):
                    child[new, k] = NO_NODE
            else:
                best = -1.0e300
                card = -1
                m = legal
                while m:
                    k = low_index(m)
                    m &= m - 1
                    ch = child[node, k]
                    v = visits[ch]
                    score = value[ch, seat] / v + c * np.sqrt(np.log(avail[ch]) / v)
                    if score > best:
                        best = score
                        card = k
            # every legal child was available in this iteration
            m = legal
            while m:
                k = low_index(m)
                m &= m - 1
                avail[child[node, k]] += 1
            node = child[node, card]
            depth += 1
            path[depth] = node
            if depth == 1:
                root_card = card
            _play(g, decl, s, card, skat_points)
            if untried:
                break
        if depth > deepest:
            deepest = depth
        # 2. play-out
        if s[OVER] == 0:
            if playout == PLAYOUT_RANDOM:
                _random_playout(g, decl, s, skat_points, rng)
            elif ramsch:
                # the skat goes with the last trick
                _play_out(g, decl, s[HANDS:HANDS + 3], s[TRICK:TRICK + 3], s[N], s[LEADER],
                          s[POINTS_AT:TRICKS_AT + 3], skat_points, s[PLAYED], s[VOIDS:VOIDS + 3], known, 0, rng, -1)
            else:
                # the skat counts for the declarer in the outcome below, and only he may know it
                decl_known[decl] = skat_internal if skat_known else 0
                _play_out(g, decl, s[HANDS:HANDS + 3], s[TRICK:TRICK + 3], s[N], s[LEADER],
                          s[POINTS_AT:TRICKS_AT + 3], 0, s[PLAYED], s[VOIDS:VOIDS + 3], decl_known, ouvert, rng, -1)
        # 3. the outcome, per seat, and the searching seat's figures
        if ramsch:
            most = max(s[POINTS_AT], max(s[POINTS_AT + 1], s[POINTS_AT + 2]))
            sweep = -1
            for seat in range(3):
                if s[TRICKS_AT + seat] == 10:
                    sweep = seat
            for seat in range(3):
                if sweep >= 0:
                    reward[seat] = 1.0 if seat == sweep else 0.0
                else:
                    reward[seat] = (120 - s[POINTS_AT + seat]) / 120.0
            own = s[POINTS_AT + root_mover]
            out[w, 1] = 120 if sweep == root_mover else 120 - own
            out[w, 2] = 1 if (own < most or sweep == root_mover) else 0
        else:
            decl_points = s[POINTS_AT + decl]
            decl_tricks = s[TRICKS_AT + decl]
            def_points = s[POINTS_AT] + s[POINTS_AT + 1] + s[POINTS_AT + 2] - decl_points
            def_tricks = s[TRICKS_AT] + s[TRICKS_AT + 1] + s[TRICKS_AT + 2] - decl_tricks
            decl_total = min(120, decl_points + skat_points)  # the skat counts for the declarer
            won = win_table[decl_total, 1 if decl_tricks > 0 else 0, 1 if def_tricks > 0 else 0]
            def_total = max(0, min(120, def_points))
            for seat in range(3):
                if seat == decl:
                    reward[seat] = decl_values[decl_total, 1 if won else 0]
                else:
                    reward[seat] = def_values[def_total, 0 if won else 1]
            if root_mover == decl:
                out[w, 1] = decl_total
                out[w, 2] = 1 if won else 0
            else:
                out[w, 1] = def_total
                out[w, 2] = 0 if won else 1
        out[w, 0] = TO_STANDARD[g, root_card] if root_card >= 0 else -1
        out[w, 3] = depth
        # 4. back-up along the walk
        for d in range(depth + 1):
            nd = path[d]
            visits[nd] += 1
            for seat in range(3):
                value[nd, seat] += reward[seat]
    return deepest
