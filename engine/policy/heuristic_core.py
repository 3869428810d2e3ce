"""Numba core of the heuristic card play: the policy (whole-game playouts with it are
``engine.policy.playout_core``).

The policy decides a card for one seat from what that seat may know: its own
hand, the cards played (the current trick included), who declared, which
follow classes each seat has shown void in, the skat when that seat is the
declarer who took it, and the declarer's hand in an ouvert game.  It never
reads another hand, so a playout in a sampled world is a fair simulation of
three players who each know only their own cards.

Cards are in the internal layout of ``engine.card_layout`` (each follow
class a contiguous run of bits ordered by strength, trumps on top), whose
tables, bit helpers and rules on internal cards the solver uses too.

Randomness: a few choices between near-equal cards (two discards of equal
cost, two smears of equal points) are broken at random with a xorshift
generator whose state lives in a ``uint64[1]`` array owned by the caller, so a
seeded caller is deterministic.

All entry points are ``@njit(cache=True, nogil=True)`` and free of recursion
(recursive cached functions crash when loaded from the cache in a second
process).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.card_layout import (
    ABOVE, BELOW, CARD_CLASS, CLASS_MASKS, LEVEL_MASK, LEVEL_OF, NULL_GAME, POINTS, RAMSCH_GAME, TO_INTERNAL,
    TO_STANDARD, beats, high_index, legal_internal, low_index, popcount, to_internal_mask,
)
from engine.rules import TRUMP_CLASS

NULL = NULL_GAME
RAMSCH = RAMSCH_GAME
TRUMP = TRUMP_CLASS
ALL_CARDS = (1 << 32) - 1
NO_CARD = -1
ACE_LEVEL = LEVEL_OF[11]
TEN_LEVEL = LEVEL_OF[10]
JACK_LEVEL = LEVEL_OF[2]  # the only cards worth 2


@njit(cache=True, nogil=True, inline="always")
def random_below(rng, n):
    """A random int in [0, n) from the xorshift64 state rng[0]."""
    x = rng[0]
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    rng[0] = x
    return np.int64((x >> np.uint64(33)) % np.uint64(n))


@njit(cache=True, nogil=True)
def seed_state(seed):
    """A xorshift state for ``seed`` (never zero, which would stay zero)."""
    state = np.empty(1, np.uint64)
    x = np.uint64(seed & 0x7FFFFFFFFFFFFFFF) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(0x632BE59BD9B4E019)
    if x == np.uint64(0):
        x = np.uint64(0x632BE59BD9B4E019)
    state[0] = x
    return state


# Compiled without the runtime's reference counting and not inlined: passing ``rng`` to an
# inlined helper in these loops counted its references at every card (playouts 1.2x slower).
@njit(cache=True, nogil=True, _nrt=False)
def _keep_lowest(best, best_key, ties, c, key, rng):
    """One step of choosing the card with the lowest key, equal keys at random: the new
    (best, best_key, ties) after card c with ``key`` (``ties``: cards seen with the best key;
    the k-th of them replaces the choice with chance 1/k, so each is kept with equal chance)."""
    if key < best_key:
        return c, key, 1
    if key == best_key:
        ties += 1
        if random_below(rng, ties) == 0:
            best = c
    return best, best_key, ties


@njit(cache=True, nogil=True, inline="always")
def _trick_so_far(g, trick, n):
    """(led class, place of the card winning so far, its card, the trick's points) of a
    trick with n >= 1 cards."""
    winner_place = winning_place(g, trick, n)
    trick_points = 0
    for i in range(n):
        trick_points += POINTS[g, trick[i]]
    return CARD_CLASS[g, trick[0]], winner_place, trick[winner_place], trick_points


@njit(cache=True, nogil=True, inline="always")
def winning_place(g, trick, n):
    """The place in the trick (0..n-1) of the card winning it so far (n cards played)."""
    best = 0
    for i in range(1, n):
        if beats(g, trick[i], trick[best]):
            best = i
    return best


# ---------------------------------------------------------------- card choice helpers


@njit(cache=True, nogil=True)
def _cheapest(g, cards, hand, unknown, rng):
    """The card of ``cards`` that costs least to give away: few points, no
    trump, from a short suit (to make a void), not the guard of a ten that
    the ace still beats; equal costs are broken at random."""
    best = NO_CARD
    best_key = 1 << 30
    ties = 0
    m = cards
    while m:
        c = low_index(m)
        m &= m - 1
        cls = CARD_CLASS[g, c]
        same = hand & CLASS_MASKS[g, cls]
        key = POINTS[g, c] * 64 + popcount(same) * 4 + popcount(BELOW[g, c] & same)
        if cls == TRUMP and g != NULL:
            key += 2000 + c
            if POINTS[g, c] == 2:
                key += 300  # a jack is worth more as a trump than a queen or king, not a ten
        elif POINTS[g, c] < 10 and popcount(same) == 2:
            # the other card is a ten not yet master: keep it guarded
            other = same & ~(1 << c)
            if POINTS[g, low_index(other)] == 10 and ABOVE[g, low_index(other)] & unknown:
                key += 300
        best, best_key, ties = _keep_lowest(best, best_key, ties, c, key, rng)
    return best


@njit(cache=True, nogil=True)
def _richest(g, cards, hand, rng):
    """The card with most points to smear on a partner's trick; jacks are
    worth more as trumps than as two points, so they come last."""
    best = NO_CARD
    best_key = 1 << 30  # of minus the key: the highest key wins
    ties = 0
    m = cards
    while m:
        c = low_index(m)
        m &= m - 1
        cls = CARD_CLASS[g, c]
        if g != NULL and POINTS[g, c] == 2 and cls == TRUMP:
            key = -100 - c
        else:
            key = POINTS[g, c] * 64 - popcount(hand & CLASS_MASKS[g, cls]) * 2 - (8 if cls == TRUMP else 0)
        best, best_key, ties = _keep_lowest(best, best_key, ties, c, -key, rng)
    return best


@njit(cache=True, nogil=True)
def _winners(g, cards, best_card):
    out = 0
    m = cards
    while m:
        c = low_index(m)
        m &= m - 1
        if beats(g, c, best_card):
            out |= 1 << c
    return out


@njit(cache=True, nogil=True)
def _take_last(g, winners, unknown):
    """Win as the last to play: bank a ten that is not master (it could be
    caught later), else win with the weakest winner."""
    m = winners
    while m:
        c = low_index(m)
        m &= m - 1
        if POINTS[g, c] == 10 and ABOVE[g, c] & unknown and CARD_CLASS[g, c] != TRUMP:
            return c
    return low_index(winners)


@njit(cache=True, nogil=True)
def _safe_ruff(g, winners):
    """Ruff where nobody can over-ruff: with the trump worth most, a jack last."""
    best = NO_CARD
    best_points = -1
    m = winners & ~LEVEL_MASK[g, JACK_LEVEL]
    while m:
        c = low_index(m)
        m &= m - 1
        if POINTS[g, c] > best_points:
            best, best_points = c, POINTS[g, c]
    if best >= 0:
        return best
    return low_index(winners)


@njit(cache=True, nogil=True)
def _discard_or_ruff_low(g, legal, winners, hand, unknown, rng):
    """The cheapest card, but ruff with the lowest winning trump rather than give the
    defenders a ten or an ace (``winners``: the trumps that would win, or none)."""
    discard = _cheapest(g, legal, hand, unknown, rng)
    if winners and POINTS[g, discard] >= 10 and CARD_CLASS[g, discard] != TRUMP:
        return _cheapest(g, winners, hand, unknown, rng)
    return discard


@njit(cache=True, nogil=True)
def _master_winner(g, winners, unknown):
    """The weakest winner that no unknown card of its class beats, or -1."""
    m = winners
    while m:
        c = low_index(m)
        m &= m - 1
        if not ABOVE[g, c] & unknown:
            return c
    return NO_CARD


@njit(cache=True, nogil=True, inline="always")
def _void(voids, seat, cls):
    return (voids[seat] >> cls) & 1


# ---------------------------------------------------------------- suit and grand: declarer


@njit(cache=True, nogil=True)
def _declarer_lead(g, decl, hand, unknown, voids, rng):
    trumps = CLASS_MASKS[g, TRUMP]
    mine = hand & trumps
    out = unknown & trumps
    d1 = (decl + 1) % 3
    d2 = (decl + 2) % 3
    defenders_have_trumps = out != 0 and not (_void(voids, d1, TRUMP) and _void(voids, d2, TRUMP))
    if mine and defenders_have_trumps:
        top = high_index(mine)
        if not ABOVE[g, top] & unknown:
            return top  # a master trump draws two trumps for free
        if popcount(mine) >= 2 and (popcount(mine) + 1 >= popcount(out) or popcount(mine) >= 5):
            # trump majority: drive out the higher trumps with a cheap one (a single trump
            # that cannot win stays: leading it only hands over the lead)
            jacks = mine & LEVEL_MASK[g, JACK_LEVEL]
            if jacks & (jacks - 1):
                return high_index(jacks)  # a jack the trump ace or ten cannot take cheaply
            cheap = mine & ~LEVEL_MASK[g, ACE_LEVEL] & ~LEVEL_MASK[g, TEN_LEVEL]
            if cheap:
                return low_index(cheap)
            return low_index(mine)
    side = hand & ~trumps
    if side:
        # cash side masters the defenders must follow
        best = NO_CARD
        best_points = -1
        m = side
        while m:
            c = low_index(m)
            m &= m - 1
            cls = CARD_CLASS[g, c]
            if ABOVE[g, c] & unknown:
                continue
            if defenders_have_trumps and (_void(voids, d1, cls) or _void(voids, d2, cls)):
                continue
            if defenders_have_trumps and not unknown & CLASS_MASKS[g, cls]:
                continue
            if POINTS[g, c] > best_points:
                best, best_points = c, POINTS[g, c]
        if best >= 0:
            return best
        # otherwise lead low from the longest side suit, so its high cards
        # become masters; never lead a ten into an ace
        best = NO_CARD
        best_key = 1 << 30
        ties = 0
        m = side
        while m:
            c = low_index(m)
            m &= m - 1
            same = hand & CLASS_MASKS[g, CARD_CLASS[g, c]]
            key = POINTS[g, c] * 16 - popcount(same) * 4 + popcount(BELOW[g, c] & same) * 8
            best, best_key, ties = _keep_lowest(best, best_key, ties, c, key, rng)
        return best
    top = high_index(mine)
    if not ABOVE[g, top] & unknown:
        return top
    return low_index(mine)


@njit(cache=True, nogil=True)
def _declarer_follow(g, decl, hand, legal, trick, n, unknown, voids, rng):
    led_cls, _, best_card, trick_points = _trick_so_far(g, trick, n)
    winners = _winners(g, legal, best_card)
    following = (legal & CLASS_MASKS[g, led_cls]) != 0
    if n == 2:
        if winners:
            if following:
                return _take_last(g, winners, unknown)
            if trick_points > 0 or popcount(hand & CLASS_MASKS[g, TRUMP]) > 3:
                return _safe_ruff(g, winners)
        return _discard_or_ruff_low(g, legal, 0 if following else winners, hand, unknown, rng)
    # second to play: the defender behind may still beat us
    behind = (decl + 1) % 3
    if winners:
        behind_may_ruff = led_cls != TRUMP and _void(voids, behind, led_cls)
        if following:
            if not behind_may_ruff:
                master = _master_winner(g, winners, unknown)
                if master >= 0:
                    return master
        elif not behind_may_ruff:
            # as far as we know the defender behind must follow: any trump wins, and a
            # discard would let him smear
            return _safe_ruff(g, winners)
        elif trick_points >= 3:
            master = _master_winner(g, winners, unknown)
            if master >= 0:
                return master
    return _discard_or_ruff_low(g, legal, 0 if following else winners, hand, unknown, rng)


# ---------------------------------------------------------------- suit and grand: defenders


@njit(cache=True, nogil=True)
def _defender_lead(g, decl, seat, hand, unknown, voids, rng):
    trumps = CLASS_MASKS[g, TRUMP]
    partner = 3 - decl - seat
    decl_trumps = not _void(voids, decl, TRUMP) and (unknown & trumps) != 0
    side = hand & ~trumps
    # cash a master (an ace, a ten whose ace is gone, a king or queen above every card out)
    # while the declarer must follow
    best = NO_CARD
    best_points = -1
    m = side
    while m:
        c = low_index(m)
        m &= m - 1
        cls = CARD_CLASS[g, c]
        if ABOVE[g, c] & unknown or POINTS[g, c] < 3:
            continue
        if decl_trumps and (_void(voids, decl, cls) or popcount(unknown & CLASS_MASKS[g, cls]) < 2):
            continue
        if POINTS[g, c] > best_points:
            best, best_points = c, POINTS[g, c]
    if best >= 0:
        return best
    # the partner is void where the declarer is not: let the partner ruff
    if not _void(voids, partner, TRUMP):
        m = side
        while m:
            c = low_index(m)
            m &= m - 1
            cls = CARD_CLASS[g, c]
            if _void(voids, partner, cls) and not _void(voids, decl, cls):
                return low_index(side & CLASS_MASKS[g, cls])
    if side:
        # lead low from a short suit; keep the ace-ten and guarded tens
        best = NO_CARD
        best_key = 1 << 30
        ties = 0
        m = side
        while m:
            c = low_index(m)
            m &= m - 1
            cls = CARD_CLASS[g, c]
            same = hand & CLASS_MASKS[g, cls]
            key = POINTS[g, c] * 16 + popcount(same) * 4 + popcount(BELOW[g, c] & same) * 2
            if _void(voids, decl, cls) and decl_trumps:
                key += 24  # the declarer ruffs cheaply
            if (same >> (c + 1)) and POINTS[g, high_index(same)] >= 10 and POINTS[g, c] < 10:
                key += 6  # leading away from an ace or ten sets it up for the declarer
            best, best_key, ties = _keep_lowest(best, best_key, ties, c, key, rng)
        return best
    top = high_index(hand)
    if not ABOVE[g, top] & unknown:
        return top
    return low_index(hand)


@njit(cache=True, nogil=True)
def _defender_follow(g, decl, seat, hand, legal, trick, n, leader, unknown, voids, rng):
    led_cls, winner_place, best_card, trick_points = _trick_so_far(g, trick, n)
    winner_seat = (leader + winner_place) % 3
    winners = _winners(g, legal, best_card)
    following = (legal & CLASS_MASKS[g, led_cls]) != 0
    trumps = CLASS_MASKS[g, TRUMP]
    if n == 2:
        if winner_seat != decl:
            return _richest(g, legal, hand, rng)  # the partner has it: smear
        if winners:
            if following:
                return _take_last(g, winners, unknown)
            return low_index(winners)
        return _cheapest(g, legal, hand, unknown, rng)
    if leader == decl:
        # the partner plays last: beat the declarer's card where it is sure
        if winners:
            if following:
                master = _master_winner(g, winners, unknown)
                if master >= 0:
                    return master
            elif trick_points >= 3 or popcount(hand & trumps) >= 3:
                return low_index(winners)
        return _cheapest(g, legal, hand, unknown, rng)
    # the partner led; the declarer plays last
    partner_card = trick[0]
    declarer_must_follow = not _void(voids, decl, led_cls)
    declarer_cannot_ruff = led_cls == TRUMP or _void(voids, decl, TRUMP) or not unknown & trumps
    if not ABOVE[g, partner_card] & unknown and declarer_must_follow and (
        declarer_cannot_ruff or popcount(unknown & CLASS_MASKS[g, led_cls]) >= 2
    ):
        if following:
            # follow low: after the partner's master our higher cards of the suit are the next
            # masters, worth more kept than smeared where the declarer may still ruff
            return _cheapest(g, legal, hand, unknown, rng)
        return _richest(g, legal, hand, rng)
    if winners and following:
        master = _master_winner(g, winners, unknown)
        if master >= 0 and declarer_must_follow:
            return master
    if winners and not following:
        # ruff a partner's card the declarer would take
        if ABOVE[g, partner_card] & unknown and (trick_points >= 3 or not declarer_must_follow):
            master = _master_winner(g, winners, unknown)
            return master if master >= 0 else low_index(winners)
    return _cheapest(g, legal, hand, unknown, rng)


# ---------------------------------------------------------------- null


@njit(cache=True, nogil=True)
def _null_declarer(g, decl, hand, legal, trick, n, unknown, voids, rng):
    d1 = (decl + 1) % 3
    d2 = (decl + 2) % 3
    if n == 0:
        # lead the card the defenders can most surely beat: few unknown
        # cards below it, some above it in hands that are not void
        best = NO_CARD
        best_key = 1 << 30
        ties = 0
        m = hand
        while m:
            c = low_index(m)
            m &= m - 1
            cls = CARD_CLASS[g, c]
            reachable = unknown
            if _void(voids, d1, cls) and _void(voids, d2, cls):
                reachable = 0
            above = popcount(ABOVE[g, c] & reachable)
            below = popcount(BELOW[g, c] & reachable)
            key = below * 8 - above
            if above == 0:
                key += 1000
            # leading a low card takes away the cover of the own cards above it
            same = hand & CLASS_MASKS[g, cls]
            higher = ABOVE[g, c] & same
            while higher:
                x = low_index(higher)
                higher &= higher - 1
                if popcount(BELOW[g, x] & unknown) > popcount(BELOW[g, x] & same) - 1:
                    key += 20
            best, best_key, ties = _keep_lowest(best, best_key, ties, c, key, rng)
        return best
    led_cls, _, best_card, _ = _trick_so_far(g, trick, n)
    if legal & CLASS_MASKS[g, led_cls]:
        under = legal & BELOW[g, best_card]
        if under:
            return high_index(under)  # the highest card that still stays under
        if n == 1:
            return low_index(legal)  # give the last player every chance to go over
        return high_index(legal)
    # void: throw the card most likely to be caught later (more unknown cards
    # below it than own cards); with none exposed, the top card of a suit,
    # whose loss leaves the cover of the others intact
    best = NO_CARD
    best_key = -(1 << 30)
    m = legal
    while m:
        c = low_index(m)
        m &= m - 1
        same = hand & CLASS_MASKS[g, CARD_CLASS[g, c]]
        exposure = popcount(BELOW[g, c] & unknown) - popcount(BELOW[g, c] & same)
        if exposure > 0:
            key = 1000 + exposure * 16 + (c & 7)
        elif not ABOVE[g, c] & same:
            key = (c & 7) - popcount(same)
        else:
            key = -100 + (c & 7)
        if key > best_key:
            best, best_key = c, key
    return best


@njit(cache=True, nogil=True)
def _null_defender(g, decl, seat, hand, legal, trick, n, leader, unknown, voids, decl_open, rng):
    if n == 0:
        if decl_open:
            # ouvert: lead a suit where our lowest card is under all of the declarer's
            m = hand
            while m:
                c = low_index(m)
                cls = CARD_CLASS[g, c]
                same = hand & CLASS_MASKS[g, cls]
                m &= ~same
                theirs = decl_open & CLASS_MASKS[g, cls]
                if theirs and low_index(same) < low_index(theirs):
                    return low_index(same)
        # attack with the lowest card of a suit the declarer still holds
        best = NO_CARD
        best_key = 1 << 30
        ties = 0
        m = hand
        while m:
            c = low_index(m)
            cls = CARD_CLASS[g, c]
            same = hand & CLASS_MASKS[g, cls]
            m &= ~same
            low = low_index(same)
            key = (low & 7) * 4 + popcount(same)
            if _void(voids, decl, cls) or not unknown & CLASS_MASKS[g, cls]:
                key += 100
            best, best_key, ties = _keep_lowest(best, best_key, ties, low, key, rng)
        return best
    led_cls, winner_place, best_card, _ = _trick_so_far(g, trick, n)
    winner_seat = (leader + winner_place) % 3
    following = (legal & CLASS_MASKS[g, led_cls]) != 0
    declarer_played = (leader == decl) or (n == 2)
    if not following:
        return _dump_null(g, legal, hand)
    if declarer_played:
        if winner_seat == decl:
            under = legal & BELOW[g, best_card]
            if under:
                return high_index(under)  # leave the declarer on top
        return high_index(legal)  # the declarer is safe or beaten: get rid of a high card
    # the declarer plays after us: keep the card to beat as low as possible
    under = legal & BELOW[g, best_card]
    if under:
        return low_index(under)
    return low_index(legal)


@njit(cache=True, nogil=True)
def _dump_null(g, legal, hand):
    """A defender's free card in null: the highest, from the shortest suit."""
    best = NO_CARD
    best_key = -(1 << 30)
    m = legal
    while m:
        c = low_index(m)
        m &= m - 1
        key = (c & 7) * 8 - popcount(hand & CLASS_MASKS[g, CARD_CLASS[g, c]])
        if key > best_key:
            best, best_key = c, key
    return best


# ---------------------------------------------------------------- Ramsch

NO_TRICK_YET = 3
"""Ramsch policy's ``sweeper`` before the first trick is complete."""
SPLIT = -1
"""Ramsch policy's ``sweeper`` once two seats have taken tricks."""
DURCHMARSCH_SLACK = 1
"""A hand goes for Durchmarsch when at most this many of its cards are not masters."""
STOP_SWEEP_TRICKS = 4
"""After this many tricks all taken by one other seat, a player takes a trick to stop the Durchmarsch."""


@njit(cache=True, nogil=True, inline="always")
def ramsch_sweeper(tricks0, tricks1, tricks2):
    """The seat that has taken every trick so far, ``NO_TRICK_YET`` or ``SPLIT``."""
    total = tricks0 + tricks1 + tricks2
    if total == 0:
        return NO_TRICK_YET
    if tricks0 == total:
        return 0
    if tricks1 == total:
        return 1
    if tricks2 == total:
        return 2
    return SPLIT


@njit(cache=True, nogil=True)
def _non_masters(g, hand, unknown):
    """How many cards of ``hand`` an unknown card of their class could still beat (a card
    is a master when only cards of its own hand are above it among those not played)."""
    count = 0
    m = hand
    while m:
        c = low_index(m)
        m &= m - 1
        if ABOVE[g, c] & unknown:
            count += 1
    return count


@njit(cache=True, nogil=True)
def _ramsch_shed(g, cards, hand, rng):
    """The card of ``cards`` to get rid of when it cannot take the trick: the most points,
    then the highest card (a future winner less), from the shorter class."""
    best = NO_CARD
    best_key = 1 << 30
    ties = 0
    m = cards
    while m:
        c = low_index(m)
        m &= m - 1
        same = hand & CLASS_MASKS[g, CARD_CLASS[g, c]]
        key = -(POINTS[g, c] * 256 + (c & 31) * 4) + popcount(same)
        best, best_key, ties = _keep_lowest(best, best_key, ties, c, key, rng)
    return best


@njit(cache=True, nogil=True)
def _ramsch_lead(g, hand, unknown, rng):
    """Lead the card most likely to be taken by someone else: one that an unknown card of
    its class beats, few points, low, from a class with many unknown cards above it."""
    best = NO_CARD
    best_key = 1 << 30
    ties = 0
    m = hand
    while m:
        c = low_index(m)
        m &= m - 1
        above_unknown = popcount(ABOVE[g, c] & unknown)
        key = POINTS[g, c] * 16 - above_unknown * 8 + (c & 7)
        if above_unknown == 0:
            key += 4000  # a master takes its own trick
        best, best_key, ties = _keep_lowest(best, best_key, ties, c, key, rng)
    return best


@njit(cache=True, nogil=True)
def choose_ramsch(g, seat, hand, legal, trick, n, played, unknown, sweeper, rng):
    """The heuristic Ramsch card (every player for himself, fewest card points wins):

    - a hand whose cards are all masters but ``DURCHMARSCH_SLACK`` goes for Durchmarsch
      while it has taken every trick: it leads its highest master and wins each trick
      with its lowest winning card;
    - once another seat has taken the first ``STOP_SWEEP_TRICKS`` tricks, take a trick
      to stop its Durchmarsch, with the lowest winning card;
    - on lead: the card most likely to be taken by another (``_ramsch_lead``);
    - following: the card with most points that stays under the trick's best card;
      when every card takes it, the highest if last to play (the trick is his anyway:
      shed a future winner), else the lowest;
    - void: shed the card with most points (``_ramsch_shed``).
    """
    going_for_it = (sweeper == seat or sweeper == NO_TRICK_YET) and _non_masters(g, hand, unknown) <= DURCHMARSCH_SLACK
    if n == 0:
        if going_for_it:
            masters = 0
            m = hand
            while m:
                c = low_index(m)
                m &= m - 1
                if not ABOVE[g, c] & unknown:
                    masters |= 1 << c
            return high_index(masters if masters else hand)  # the jacks first, then the aces
        return _ramsch_lead(g, hand, unknown, rng)
    best_card = trick[winning_place(g, trick, n)]
    winners = _winners(g, legal, best_card)
    stop_sweep = 0 <= sweeper < 3 and sweeper != seat and popcount(played) - n >= 3 * STOP_SWEEP_TRICKS
    if winners and (going_for_it or stop_sweep):
        return low_index(winners)
    losers = legal & ~winners
    if losers:
        return _ramsch_shed(g, losers, hand, rng)
    return high_index(legal) if n == 2 else low_index(legal)


# ---------------------------------------------------------------- the policy


@njit(cache=True, nogil=True)
def choose_internal(g, decl, seat, hand, trick, n, leader, played, voids, skat_known, decl_open, rng):
    """The heuristic card for ``seat`` (internal layout).

    hand: the seat's cards; trick: int64[3] with n cards of the current trick;
    played: every card played so far, the current trick included; voids:
    int64[3] bit k set when that seat has shown void in follow class k;
    skat_known: the skat cards this seat knows (the declarer after taking
    it), else 0; decl_open: the declarer's hand when it is shown (ouvert),
    else 0.  In Ramsch (``g == RAMSCH``) there is no declarer: ``decl`` is the
    seat that has taken every trick so far (``ramsch_sweeper``) and the cards a
    seat pushed on (Schieben) or saw in the skat are its ``skat_known``.
    """
    legal = legal_internal(g, hand, trick[0] if n > 0 else -1)
    if not legal & (legal - 1):
        return low_index(legal)
    unknown = ALL_CARDS & ~hand & ~played & ~skat_known
    if g == RAMSCH:
        return choose_ramsch(g, seat, hand, legal, trick, n, played, unknown, decl, rng)
    if g == NULL:
        if seat == decl:
            return _null_declarer(g, decl, hand, legal, trick, n, unknown, voids, rng)
        return _null_defender(g, decl, seat, hand, legal, trick, n, leader, unknown, voids, decl_open, rng)
    if seat == decl:
        if n == 0:
            return _declarer_lead(g, decl, hand, unknown, voids, rng)
        return _declarer_follow(g, decl, hand, legal, trick, n, unknown, voids, rng)
    if n == 0:
        return _defender_lead(g, decl, seat, hand, unknown, voids, rng)
    return _defender_follow(g, decl, seat, hand, legal, trick, n, leader, unknown, voids, rng)


@njit(cache=True, nogil=True, inline="always")
def internal_trick(g, trick_std, n):
    """int64[3] with the n standard cards of ``trick_std`` in the internal layout."""
    trick = np.empty(3, np.int64)
    for i in range(n):
        trick[i] = TO_INTERNAL[g, trick_std[i]]
    return trick


@njit(cache=True, nogil=True)
def choose_card_std(g, decl, seat, hand, trick_std, n, leader, played, voids, skat_known, decl_open, rng):
    """``choose_internal`` on standard card masks and cards: the entry point
    for one decision of a real player (``trick_std`` holds n standard cards)."""
    trick = internal_trick(g, trick_std, n)
    card = choose_internal(
        g, decl, seat, to_internal_mask(g, hand), trick, n, leader, to_internal_mask(g, played), voids,
        to_internal_mask(g, skat_known), to_internal_mask(g, decl_open), rng,
    )
    return TO_STANDARD[g, card]
