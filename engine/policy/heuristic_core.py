"""Numba core of the heuristic card play: the policy and whole-game playouts.

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
    TO_STANDARD, beats, high_index, legal_internal, low_index, mask_points, popcount, to_internal_mask,
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
def _random_below(rng, n):
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
        if _random_below(rng, ties) == 0:
            best = c
    return best, best_key, ties


@njit(cache=True, nogil=True, inline="always")
def _trick_so_far(g, trick, n):
    """(led class, position of the card winning so far, its card, the trick's points) of a
    trick with n >= 1 cards."""
    winner_pos = _winner_position(g, trick, n)
    trick_points = 0
    for i in range(n):
        trick_points += POINTS[g, trick[i]]
    return CARD_CLASS[g, trick[0]], winner_pos, trick[winner_pos], trick_points


@njit(cache=True, nogil=True, inline="always")
def _winner_position(g, trick, n):
    """Position in the trick of the card winning it so far (n cards played)."""
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
        if popcount(mine) >= popcount(out) or popcount(mine) >= 5:
            # trump majority: drive out the higher trumps with a cheap one
            cheap = mine & ~LEVEL_MASK[g, ACE_LEVEL] & ~LEVEL_MASK[g, TEN_LEVEL]
            low_trumps = cheap & ~LEVEL_MASK[g, JACK_LEVEL] if cheap & ~LEVEL_MASK[g, JACK_LEVEL] else cheap
            if low_trumps:
                return low_index(low_trumps)
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
                return low_index(winners)  # ruff with the weakest trump that wins
        return _cheapest(g, legal, hand, unknown, rng)
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
            # as far as we know the defender behind must follow: any trump wins
            if trick_points > 0 or popcount(hand & CLASS_MASKS[g, TRUMP]) > 3:
                return low_index(winners)
        elif trick_points >= 3:
            master = _master_winner(g, winners, unknown)
            if master >= 0:
                return master
    return _cheapest(g, legal, hand, unknown, rng)


# ---------------------------------------------------------------- suit and grand: defenders


@njit(cache=True, nogil=True)
def _defender_lead(g, decl, seat, hand, unknown, voids, rng):
    trumps = CLASS_MASKS[g, TRUMP]
    partner = 3 - decl - seat
    decl_trumps = not _void(voids, decl, TRUMP) and (unknown & trumps) != 0
    side = hand & ~trumps
    # cash an ace (or a ten whose ace is gone) while the declarer must follow
    best = NO_CARD
    best_points = -1
    m = side
    while m:
        c = low_index(m)
        m &= m - 1
        cls = CARD_CLASS[g, c]
        if ABOVE[g, c] & unknown or POINTS[g, c] < 10:
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
    led_cls, winner_pos, best_card, trick_points = _trick_so_far(g, trick, n)
    winner_seat = (leader + winner_pos) % 3
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
    led_cls, winner_pos, best_card, _ = _trick_so_far(g, trick, n)
    winner_seat = (leader + winner_pos) % 3
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
    best_card = trick[_winner_position(g, trick, n)]
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
def _internal_trick(g, trick_std, n):
    """int64[3] with the n standard cards of ``trick_std`` in the internal layout."""
    trick = np.empty(3, np.int64)
    for i in range(n):
        trick[i] = TO_INTERNAL[g, trick_std[i]]
    return trick


@njit(cache=True, nogil=True)
def choose_card_std(g, decl, seat, hand, trick_std, n, leader, played, voids, skat_known, decl_open, rng):
    """``choose_internal`` on standard card masks and cards: the entry point
    for one decision of a real player (``trick_std`` holds n standard cards)."""
    trick = _internal_trick(g, trick_std, n)
    card = choose_internal(
        g, decl, seat, to_internal_mask(g, hand), trick, n, leader, to_internal_mask(g, played), voids,
        to_internal_mask(g, skat_known), to_internal_mask(g, decl_open), rng,
    )
    return TO_STANDARD[g, card]


# ---------------------------------------------------------------- playouts


@njit(cache=True, nogil=True)
def _playout_internal(g, decl, hands, trick, n, leader, decl_points, def_points, decl_tricks, def_tricks,
                      played, voids, skat_known, ouvert, rng, out, first):
    """Play to the end from a position (internal layout), the seat to move playing
    ``first`` (-1: the policy's card), then everyone the policy's cards; mutates hands,
    trick, voids.  Writes declarer points, defender points, declarer tricks, defender
    tricks to out[0..3].  Null games stop at the declarer's first trick."""
    finished = False
    while not finished:
        if hands[0] == 0 and hands[1] == 0 and hands[2] == 0 and n == 0:
            break
        seat = (leader + n) % 3
        hand = hands[seat]
        known_skat = skat_known if seat == decl else 0
        decl_open = hands[decl] if ouvert and seat != decl else 0
        if first >= 0:
            card = first
            first = -1
        else:
            card = choose_internal(g, decl, seat, hand, trick, n, leader, played, voids, known_skat, decl_open, rng)
        if n > 0:
            led_cls = CARD_CLASS[g, trick[0]]
            if CARD_CLASS[g, card] != led_cls:
                voids[seat] |= 1 << led_cls
        hands[seat] = hand & ~(1 << card)
        played |= 1 << card
        trick[n] = card
        n += 1
        if n == 3:
            winner = (leader + _winner_position(g, trick, 3)) % 3
            pts = POINTS[g, trick[0]] + POINTS[g, trick[1]] + POINTS[g, trick[2]]
            if winner == decl:
                decl_points += pts
                decl_tricks += 1
                if g == NULL:
                    finished = True
            else:
                def_points += pts
                def_tricks += 1
            leader = winner
            n = 0
    out[0] = decl_points
    out[1] = def_points
    out[2] = decl_tricks
    out[3] = def_tricks


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
    trick = _internal_trick(g, trick_std, n)
    voids = np.empty(3, np.int64)
    voids[0], voids[1], voids[2] = v0, v1, v2
    out = np.zeros(4, np.int64)
    skat_internal = to_internal_mask(g, skat)
    _playout_internal(g, decl, hands, trick, n, leader, decl_points + _skat_points(g, skat_internal), def_points,
                      decl_tricks, def_tricks, to_internal_mask(g, played), voids,
                      skat_internal if skat_known else 0, ouvert, rng, out, -1)
    return out


@njit(cache=True, nogil=True, inline="always")
def _world_start(g, worlds, skats, w, skat_known, decl_points, start):
    """World w's hands into ``start`` (internal layout); returns its skat as far as the
    declarer knows it (else 0) and his points with the skat's."""
    for s in range(3):
        start[s] = to_internal_mask(g, worlds[w, s])
    skat_internal = to_internal_mask(g, skats[w])
    return (skat_internal if skat_known else 0), decl_points + _skat_points(g, skat_internal)


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
    played_internal = to_internal_mask(g, played)
    start_trick = _internal_trick(g, trick_std, n)
    start = np.empty(3, np.int64)
    for w in range(n_worlds):
        known, start_points = _world_start(g, worlds, skats, w, skat_known, decl_points, start)
        for r in range(repeats):
            _restart(hands, start, world_voids, voids, trick, start_trick, n)
            _playout_internal(g, decl, hands, trick, n, leader, start_points, def_points, decl_tricks, def_tricks,
                              played_internal, world_voids, known, ouvert, rng, results[w, r], -1)
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
    n_cards = popcount(cards)
    n_worlds = worlds.shape[0]
    results = np.full((n_cards, n_worlds, repeats, 4), -1, np.int64)
    rng = seed_state(seed)
    hands = np.empty(3, np.int64)
    trick = np.empty(3, np.int64)
    world_voids = np.empty(3, np.int64)
    played_internal = to_internal_mask(g, played)
    mover = (leader + n) % 3
    start_trick = _internal_trick(g, trick_std, n)
    led = start_trick[0] if n > 0 else -1
    start = np.empty(3, np.int64)
    for w in range(n_worlds):
        known, start_points = _world_start(g, worlds, skats, w, skat_known, decl_points, start)
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
                    _playout_internal(g, decl, hands, trick, n, leader, start_points, def_points, decl_tricks,
                                      def_tricks, played_internal, world_voids, known, ouvert, rng, results[k, w, r],
                                      card)
            k += 1
    return results



# ---------------------------------------------------------------- Ramsch playouts


@njit(cache=True, nogil=True)
def _ramsch_playout_internal(g, hands, trick, n, leader, points, tricks, skat_points, played, voids, known, rng,
                             out, first):
    """Play a Ramsch game to the end (internal layout), the seat to move playing ``first``
    (-1: the policy's card), then everyone the policy's cards; mutates hands, trick,
    voids.  ``points`` / ``tricks``: int64[3] taken so far; ``known``: int64[3], the skat
    cards each seat knows.  Writes each seat's card points (the skat's ``skat_points``
    with the last trick) to out[0..2] and its tricks to out[3..5]."""
    p0, p1, p2 = points[0], points[1], points[2]
    k0, k1, k2 = tricks[0], tricks[1], tricks[2]
    while True:
        if hands[0] == 0 and hands[1] == 0 and hands[2] == 0 and n == 0:
            break
        seat = (leader + n) % 3
        hand = hands[seat]
        if first >= 0:
            card = first
            first = -1
        else:
            card = choose_internal(g, ramsch_sweeper(k0, k1, k2), seat, hand, trick, n, leader, played, voids,
                                   known[seat], 0, rng)
        if n > 0:
            led_cls = CARD_CLASS[g, trick[0]]
            if CARD_CLASS[g, card] != led_cls:
                voids[seat] |= 1 << led_cls
        hands[seat] = hand & ~(1 << card)
        played |= 1 << card
        trick[n] = card
        n += 1
        if n == 3:
            winner = (leader + _winner_position(g, trick, 3)) % 3
            pts = POINTS[g, trick[0]] + POINTS[g, trick[1]] + POINTS[g, trick[2]]
            if hands[0] == 0 and hands[1] == 0 and hands[2] == 0:
                pts += skat_points
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
    out[0], out[1], out[2] = p0, p1, p2
    out[3], out[4], out[5] = k0, k1, k2


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
    g = RAMSCH
    n_cards = popcount(cards)
    n_worlds = worlds.shape[0]
    results = np.full((n_cards, n_worlds, repeats, 6), -1, np.int64)
    rng = seed_state(seed)
    hands = np.empty(3, np.int64)
    trick = np.empty(3, np.int64)
    world_voids = np.empty(3, np.int64)
    known = np.empty(3, np.int64)
    for s in range(3):
        known[s] = to_internal_mask(g, known_std[s])
    played_internal = to_internal_mask(g, played)
    mover = (leader + n) % 3
    start_trick = _internal_trick(g, trick_std, n)
    led = start_trick[0] if n > 0 else -1
    start = np.empty(3, np.int64)
    for w in range(n_worlds):
        for s in range(3):
            start[s] = to_internal_mask(g, worlds[w, s])
        skat_points = mask_points(g, to_internal_mask(g, skats[w]))
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
                    _ramsch_playout_internal(g, hands, trick, n, leader, points, tricks, skat_points,
                                             played_internal, world_voids, known, rng, results[k, w, r], card)
            k += 1
    return results


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
    out = np.zeros(4, np.int64)
    total = 0
    for i in range(count):
        for j in range(31, 0, -1):
            k = _random_below(rng, j + 1)
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
        skat_points = POINTS[g, low_index(skat)] + POINTS[g, high_index(skat)]
        _playout_internal(g, decl, hands, trick, 0, 0, skat_points, 0, 0, 0, 0, voids, skat, False, rng, out, -1)
        total += out[0]
    return total
