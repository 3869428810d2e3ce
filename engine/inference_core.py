"""The card-play evidence of inference, in numba: for every candidate world and
every card another seat played, whether the heuristic card play
(``heuristic_core.choose_card_std``, its one entry point for a decision)
picks that card in that world.

The public part of each past decision (the trick so far, the cards played,
the voids shown) is the same in every world and comes in as arrays; what
differs per world is the seat's hand then (its cards now plus the cards it
played since), the skat the declarer knows (its discard, in the world's skat
place) and the declarer's open hand in an ouvert game.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .players.heuristic_core import choose_card_std, seed_state


@njit(cache=True, nogil=True)
def heuristic_matches(g, decl, seats, cards, tricks, counts, leaders, played, voids, later, decl_later,
                      knows_skat, ouvert, world_hands, world_skats, seed):
    """(worlds, plays) uint8: 1 where the heuristic plays ``cards[k]`` in the world.

    Per play k: ``seats[k]`` played ``cards[k]`` into ``tricks[k]`` (``counts[k]``
    cards before it, led by ``leaders[k]``), after the cards ``played[k]``, with
    the voids ``voids[k]`` shown; ``later[k]``: the cards that seat played from k
    on (k included); ``decl_later[k]``: the declarer's, for its open hand;
    ``knows_skat[k]``: the seat is a declarer who took the skat."""
    worlds = world_hands.shape[0]
    plays = seats.shape[0]
    out = np.zeros((worlds, plays), np.uint8)
    rng = seed_state(seed)
    for w in range(worlds):
        for k in range(plays):
            seat = seats[k]
            hand = world_hands[w, seat] | later[k]
            skat_known = world_skats[w] if knows_skat[k] else 0
            decl_open = (world_hands[w, decl] | decl_later[k]) if ouvert and seat != decl else 0
            choice = choose_card_std(g, decl, seat, hand, tricks[k], counts[k], leaders[k], played[k], voids[k],
                                     skat_known, decl_open, rng)
            if choice == cards[k]:
                out[w, k] = 1
    return out
