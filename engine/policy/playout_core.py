"""Numba core of the play-outs: whole games finished with the heuristic card play.

One loop (``_play_out``) plays every kind of game to its end with the policy of
``heuristic_core``: a game with a declarer (suit, grand, null; the skat's points
count for the declarer from the start, a null game stops at the declarer's first
trick) and a Ramsch (each seat for itself; the skat's points go with the last
trick).  It counts each seat's card points and tricks; the entry points below
read them as the declarer's and the defenders' or as each seat's.

Cards are in the internal layout of ``engine.card_layout``; the entry points take
standard masks and convert at the boundary.  Randomness as in ``heuristic_core``:
a ``uint64[1]`` xorshift state owned by the caller, so a seeded caller is
deterministic.  All functions are ``@njit(cache=True, nogil=True)`` and free of
recursion.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.card_layout import (
    CARD_CLASS, POINTS, TO_INTERNAL, high_index, legal_internal, low_index, mask_points, popcount, to_internal_mask,
)

from .heuristic_core import (
    NULL, RAMSCH, choose_internal, internal_trick, ramsch_sweeper, random_below, seed_state, winning_place,
)

TAKEN = 6
"""Length of a play-out's count: each seat's card points (0..2), then its tricks (3..5)."""


@njit(cache=True, nogil=True)
def _play_out(g, decl, hands, trick, n, leader, taken, last_trick_points, played, voids, known, ouvert, rng,
              first):
    """Play to the end from a position (internal layout): the seat to move plays ``first``
    (-1: the policy's card), then everyone the policy's cards.

    In a game with a declarer ``decl``, the defenders see ``hands[decl]`` when ``ouvert``
    and a null game stops at the declarer's first trick; in a Ramsch (``g == RAMSCH``)
    the policy's side to beat is the seat that has taken every trick so far
    (``ramsch_sweeper``).  ``known``: int64[3], the skat cards each seat knows (the
    declarer's skat, a Ramsch's pushed or seen cards).  ``taken``: int64[TAKEN], each
    seat's card points then tricks so far, counted on in place; ``last_trick_points``
    go with the last trick (a Ramsch's skat; 0 where the skat counted from the start).
    Mutates hands, trick and voids.
    """
    p0, p1, p2 = taken[0], taken[1], taken[2]
    k0, k1, k2 = taken[3], taken[4], taken[5]
    while True:
        if hands[0] == 0 and hands[1] == 0 and hands[2] == 0 and n == 0:
            break
        seat = (leader + n) % 3
        hand = hands[seat]
        if first >= 0:
            card = first
            first = -1
        else:
            if g == RAMSCH:
                side = ramsch_sweeper(k0, k1, k2)
                decl_open = 0
            else:
                side = decl
                decl_open = hands[decl] if ouvert and seat != decl else 0
            card = choose_internal(g, side, seat, hand, trick, n, leader, played, voids, known[seat], decl_open, rng)
        if n > 0:
            led_cls = CARD_CLASS[g, trick[0]]
            if CARD_CLASS[g, card] != led_cls:
                voids[seat] |= 1 << led_cls
        hands[seat] = hand & ~(1 << card)
        played |= 1 << card
        trick[n] = card
        n += 1
        if n == 3:
            winner = (leader + winning_place(g, trick, 3)) % 3
            pts = POINTS[g, trick[0]] + POINTS[g, trick[1]] + POINTS[g, trick[2]]
            if hands[0] == 0 and hands[1] == 0 and hands[2] == 0:
                pts += last_trick_points
            if winner == 0:
                p0 += pts
                k0 += 1
            elif winner == 1:
                p1 += pts
                k1 += 1
            else:
                p2 += pts
                k2 += 1
            leader = winner
            n = 0
            if g == NULL and winner == decl:
                break
    taken[0], taken[1], taken[2] = p0, p1, p2
    taken[3], taken[4], taken[5] = k0, k1, k2


@njit(cache=True, nogil=True, inline="always")
def _declarer_play_out(g, decl, hands, trick, n, leader, decl_points, def_points, decl_tricks, def_tricks, played,
                       voids, known, ouvert, rng, taken, out, first):
    """``_play_out`` of a game with a declarer, counted by side: the declarer's points
    and the defenders' (as far as taken so far), then the tricks, in and out as
    out[0..3]; ``taken`` is the loop's scratch count."""
    other = (decl + 1) % 3
    for i in range(TAKEN):
        taken[i] = 0
    taken[decl] = decl_points
    taken[other] = def_points
    taken[3 + decl] = decl_tricks
    taken[3 + other] = def_tricks
    _play_out(g, decl, hands, trick, n, leader, taken, 0, played, voids, known, ouvert, rng, first)
    out[0] = taken[decl]
    out[1] = taken[0] + taken[1] + taken[2] - taken[decl]
    out[2] = taken[3 + decl]
    out[3] = taken[3] + taken[4] + taken[5] - taken[3 + decl]


@njit(cache=True, nogil=True, inline="always")
def _declarer_knows(known, decl, skat):
    """``known`` as ``_play_out`` reads it when only the declarer knows cards of the skat."""
    known[0] = known[1] = known[2] = 0
    known[decl] = skat


@njit(cache=True, nogil=True, inline="always")
def _skat_points(g, skat):
    """The skat's points count for the declarer (in null games they do not
    matter, but are kept as the engine keeps them)."""
    return mask_points(g, skat)


@njit(cache=True, nogil=True)
def playout_std(g, decl, h0, h1, h2, skat, skat_known, trick_std, n, leader, decl_points, def_points,
                decl_tricks, def_tricks, played, v0, v1, v2, ouvert, rng):
    """One playout from a position given in standard masks.

    ``skat``: the skat (or discard) in this world, whose points count for the
    declarer; ``skat_known``: whether the declarer knows it (took it);
    ``decl_points``/``def_points``: card points taken in tricks so far (the
    skat not included).  Returns int64[4]: declarer points (skat included),
    defender points, declarer tricks, defender tricks.
    """
    hands = np.empty(3, np.int64)
    hands[0] = to_internal_mask(g, h0)
    hands[1] = to_internal_mask(g, h1)
    hands[2] = to_internal_mask(g, h2)
    trick = internal_trick(g, trick_std, n)
    voids = np.empty(3, np.int64)
    voids[0], voids[1], voids[2] = v0, v1, v2
    out = np.zeros(4, np.int64)
    skat_internal = to_internal_mask(g, skat)
    known = np.empty(3, np.int64)
    _declarer_knows(known, decl, skat_internal if skat_known else 0)
    _declarer_play_out(g, decl, hands, trick, n, leader, decl_points + _skat_points(g, skat_internal), def_points,
                       decl_tricks, def_tricks, to_internal_mask(g, played), voids, known, ouvert, rng,
                       np.empty(TAKEN, np.int64), out, -1)
    return out


@njit(cache=True, nogil=True, inline="always")
def _world_start(g, worlds, w, start):
    """World w's hands into ``start`` (internal layout)."""
    for s in range(3):
        start[s] = to_internal_mask(g, worlds[w, s])


@njit(cache=True, nogil=True, inline="always")
def _declarer_world_start(g, worlds, skats, w, skat_known, decl, decl_points, start, known):
    """World w's hands into ``start`` and its skat into ``known`` as far as the declarer
    knows it; returns his points with the skat's."""
    _world_start(g, worlds, w, start)
    skat_internal = to_internal_mask(g, skats[w])
    _declarer_knows(known, decl, skat_internal if skat_known else 0)
    return decl_points + _skat_points(g, skat_internal)


@njit(cache=True, nogil=True, inline="always")
def _restart(hands, start, world_voids, voids, trick, start_trick, n):
    """Set a world's position back to its start for one more playout."""
    for s in range(3):
        hands[s] = start[s]
        world_voids[s] = voids[s]
    for i in range(n):
        trick[i] = start_trick[i]


@njit(cache=True, nogil=True)
def playout_batch(g, decl, worlds, skats, skat_known, trick_std, n, leader, decl_points, def_points, decl_tricks,
                  def_tricks, played, voids, ouvert, repeats, seed):
    """Playouts of many worlds from one public position, without returning to Python.

    worlds: int64[W, 3] hands per world (standard masks); skats: int64[W], the
    skat in each world; skat_known: whether the declarer knows it; voids:
    int64[3].  Each world is played ``repeats`` times with different random
    choices.  Returns int64[W, repeats, 4] as ``playout_std``.
    """
    n_worlds = worlds.shape[0]
    results = np.zeros((n_worlds, repeats, 4), np.int64)
    rng = seed_state(seed)
    hands = np.empty(3, np.int64)
    trick = np.empty(3, np.int64)
    world_voids = np.empty(3, np.int64)
    known = np.empty(3, np.int64)
    taken = np.empty(TAKEN, np.int64)
    played_internal = to_internal_mask(g, played)
    start_trick = internal_trick(g, trick_std, n)
    start = np.empty(3, np.int64)
    for w in range(n_worlds):
        start_points = _declarer_world_start(g, worlds, skats, w, skat_known, decl, decl_points, start, known)
        for r in range(repeats):
            _restart(hands, start, world_voids, voids, trick, start_trick, n)
            _declarer_play_out(g, decl, hands, trick, n, leader, start_points, def_points, decl_tricks, def_tricks,
                               played_internal, world_voids, known, ouvert, rng, taken, results[w, r], -1)
    return results


@njit(cache=True, nogil=True)
def _cards_batch(g, decl, worlds, skats, skat_known, known_std, trick_std, n, leader, start_taken, played, voids,
                 ouvert, cards, repeats, seed):
    """For each card of ``cards`` (standard mask, played first by the seat to move) and each
    world: play it, then finish the game with the policy (``_play_out``).

    A game with a declarer counts the skat's points for him from the start and lets him
    know the skat when ``skat_known``; a Ramsch gives the skat's points to the last trick
    and lets each seat know its ``known_std`` cards.  ``start_taken``: int64[TAKEN], each
    seat's points and tricks so far.  Returns int64[C, W, repeats, TAKEN], the cards in
    index order; a card the seat to move does not hold in a world, or may not play, is
    skipped there and its rows stay -1.
    """
    n_cards = popcount(cards)
    n_worlds = worlds.shape[0]
    results = np.full((n_cards, n_worlds, repeats, TAKEN), -1, np.int64)
    rng = seed_state(seed)
    hands = np.empty(3, np.int64)
    trick = np.empty(3, np.int64)
    world_voids = np.empty(3, np.int64)
    known = np.empty(3, np.int64)
    for s in range(3):
        known[s] = to_internal_mask(g, known_std[s])
    played_internal = to_internal_mask(g, played)
    mover = (leader + n) % 3
    start_trick = internal_trick(g, trick_std, n)
    led = start_trick[0] if n > 0 else -1
    start = np.empty(3, np.int64)
    for w in range(n_worlds):
        _world_start(g, worlds, w, start)
        skat = to_internal_mask(g, skats[w])
        if g == RAMSCH:
            first_points, last_points = 0, mask_points(g, skat)
        else:
            _declarer_knows(known, decl, skat if skat_known else 0)
            first_points, last_points = _skat_points(g, skat), 0
        legal = legal_internal(g, start[mover], led)
        remaining = cards
        k = 0
        while remaining:
            card_std = low_index(remaining)
            remaining &= remaining - 1
            card = TO_INTERNAL[g, card_std]
            if (legal >> card) & 1:
                for r in range(repeats):
                    _restart(hands, start, world_voids, voids, trick, start_trick, n)
                    taken = results[k, w, r]
                    for i in range(TAKEN):
                        taken[i] = start_taken[i]
                    if g != RAMSCH:
                        taken[decl] += first_points
                    _play_out(g, decl, hands, trick, n, leader, taken, last_points, played_internal, world_voids,
                              known, ouvert, rng, card)
            k += 1
    return results


@njit(cache=True, nogil=True)
def playout_cards_batch(g, decl, worlds, skats, skat_known, trick_std, n, leader, decl_points, def_points,
                        decl_tricks, def_tricks, played, voids, ouvert, cards, repeats, seed):
    """For each card of ``cards`` (standard mask, played first by the seat to
    move) and each world: play it, then finish the game with the policy.

    Arguments as ``playout_batch``.  Returns int64[C, W, repeats, 4] with the
    cards in index order.  A card the seat to move does not hold in a world,
    or may not play, is skipped there and its rows stay -1.
    """
    other = (decl + 1) % 3
    start_taken = np.zeros(TAKEN, np.int64)
    start_taken[decl] = decl_points
    start_taken[other] = def_points
    start_taken[3 + decl] = decl_tricks
    start_taken[3 + other] = def_tricks
    taken = _cards_batch(g, decl, worlds, skats, skat_known, np.zeros(3, np.int64), trick_std, n, leader,
                         start_taken, played, voids, ouvert, cards, repeats, seed)
    n_cards, n_worlds = taken.shape[0], taken.shape[1]
    results = np.full((n_cards, n_worlds, repeats, 4), -1, np.int64)
    for k in range(n_cards):
        for w in range(n_worlds):
            for r in range(repeats):
                row = taken[k, w, r]
                if row[0] >= 0:
                    out = results[k, w, r]
                    out[0] = row[decl]
                    out[1] = row[0] + row[1] + row[2] - row[decl]
                    out[2] = row[3 + decl]
                    out[3] = row[3] + row[4] + row[5] - row[3 + decl]
    return results


@njit(cache=True, nogil=True)
def ramsch_playout_cards_batch(worlds, skats, known_std, trick_std, n, leader, points, tricks, played, voids,
                               cards, repeats, seed):
    """Ramsch: for each card of ``cards`` (standard mask, played first by the seat to move)
    and each world, play it, then finish the game with the policy.

    worlds: int64[W, 3] hands (standard masks); skats: int64[W], the skat in each world
    (its points go with the last trick); known_std: int64[3], the skat cards each seat
    knows; points / tricks: int64[3] taken so far; voids: int64[3].  Returns
    int64[C, W, repeats, 6] (each seat's points, then tricks), the cards in index order;
    a card the seat to move may not play in a world leaves its rows -1.
    """
    start_taken = np.empty(TAKEN, np.int64)
    for s in range(3):
        start_taken[s] = points[s]
        start_taken[3 + s] = tricks[s]
    return _cards_batch(RAMSCH, -1, worlds, skats, False, known_std, trick_std, n, leader, start_taken, played, voids,
                        False, cards, repeats, seed)


@njit(cache=True, nogil=True)
def random_deal_playouts(games, count, seed):
    """Benchmark kernel: ``count`` full-game playouts from the first trick on
    random deals, game types drawn from ``games``; declarer forehand..rearhand
    in turn, the skat known to the declarer.  Returns the sum of declarer
    points (so the work cannot be optimised away)."""
    rng = seed_state(seed)
    deck = np.arange(32)
    hands = np.empty(3, np.int64)
    trick = np.empty(3, np.int64)
    voids = np.zeros(3, np.int64)
    known = np.empty(3, np.int64)
    taken = np.empty(TAKEN, np.int64)
    out = np.zeros(4, np.int64)
    total = 0
    for i in range(count):
        for j in range(31, 0, -1):
            k = random_below(rng, j + 1)
            deck[j], deck[k] = deck[k], deck[j]
        g = games[i % games.shape[0]]
        for s in range(3):
            m = 0
            for j in range(10):
                m |= 1 << TO_INTERNAL[g, deck[s * 10 + j]]
            hands[s] = m
        skat = (1 << TO_INTERNAL[g, deck[30]]) | (1 << TO_INTERNAL[g, deck[31]])
        voids[0] = voids[1] = voids[2] = 0
        decl = i % 3
        _declarer_knows(known, decl, skat)
        skat_points = POINTS[g, low_index(skat)] + POINTS[g, high_index(skat)]
        _declarer_play_out(g, decl, hands, trick, 0, 0, skat_points, 0, 0, 0, 0, voids, known, False, rng, taken, out,
                           -1)
        total += out[0]
    return total
