"""What every player kind shares in a Ramsch (``docs/house-rules.md``): the skat round
by a simple rule, the public position for the core's Ramsch policy, and Ramsch playouts.

The skat round (the heuristic's rule, used by every player kind):

- **Grand Hand escape** (when the rules have it): declared when the heuristic's own
  chance of a Grand Hand (``hand_eval``: the curve it declares hand games by) is at
  least ``hand_eval.HAND_CHANCE``, as it would declare one after bidding.
- **Schieben**: a hand with at most ``PUSH_AT_MOST`` aces and tens outside the jacks
  is a good Ramsch hand, and the skat is pushed on unseen (doubling); a hand with more
  picks the skat up and puts back the two non-jack cards with most points (from the
  shorter suit when equal: a void lets it shed points later).
- Without Schieben, with the escape only: play the Ramsch (``Pass``).

Card play: the numba policy of ``heuristic_core.choose_ramsch``; MCU finishes Ramsch
games with it (``ramsch_outcomes``); PIMC searches paranoid (``engine.dds``).  A Monte
Carlo player values a Ramsch outcome by the card points the two others end with,
120 minus its own (it maximises that, so minimises its own), and counts it won when
it is not a loser; MCU scores its own Durchmarsch as 120 (no outcome is better).
"""

from __future__ import annotations

import numpy as np

from ..cards import CARD_POINTS, Mask, cards_of
from ..game import Declare, Discard, GameState, Pass, Phase, PickUp, Push
from ..rules import GameType, void_classes
from ..scoring import Declaration
from ..policy import hand_eval
from ..policy import heuristic_core as core
from ..policy.playout_core import ramsch_playout_cards_batch

PUSH_AT_MOST = 1
"""Aces and tens (jacks aside) a hand may hold and still push the Ramsch skat on unseen."""


def skat_round_move(view: GameState):
    """The Ramsch skat round's move for the seat to move (the rule in the module doc)."""
    seat = view.to_move
    hand = view.hands[seat]
    if view.phase == Phase.RAMSCH_DISCARD:
        return Discard(put_back(hand))
    moves = view.legal_moves()
    escape = Declaration(GameType.GRAND, hand=True)
    if any(isinstance(m, Declare) and m.declaration == escape for m in moves) and grand_hand_escape(hand, seat):
        return Declare(escape)
    if any(isinstance(m, Push) for m in moves):
        return Push() if liabilities(hand) <= PUSH_AT_MOST else PickUp(view.skat if view.skat_known else None)
    return Pass()


def grand_hand_escape(hand: Mask, seat: int) -> bool:
    score = hand_eval.strength(hand, GameType.GRAND, seat)
    return hand_eval.trump_game_chance(GameType.GRAND, "hand", score) >= hand_eval.HAND_CHANCE


def liabilities(hand: Mask) -> int:
    """Aces and tens in the hand (jacks aside): the cards that take points in a Ramsch."""
    return sum(1 for c in cards_of(hand) if not c.is_jack and CARD_POINTS[c] >= 10)


def put_back(hand: Mask) -> Mask:
    """The two non-jack cards with most points, from the shorter suit when equal."""
    candidates = [c for c in cards_of(hand) if not c.is_jack]

    def suit_length(card) -> int:
        return sum(1 for c in candidates if c.suit == card.suit)

    chosen = sorted(candidates, key=lambda c: (-CARD_POINTS[c], suit_length(c), -int(c)))[:2]
    return (1 << chosen[0]) | (1 << chosen[1])


def sweeper(view: GameState) -> int:
    """The seat that has taken every trick so far (``heuristic_core.ramsch_sweeper``)."""
    counts = view.trick_counts
    return int(core.ramsch_sweeper(counts[0], counts[1], counts[2]))


def known_skat(view: GameState) -> Mask:
    """The skat cards the viewer knows (it put them back and nobody picked them up since)."""
    return view.skat if view.skat_known else 0


def core_card(view: GameState, rng) -> int:
    """The core policy's Ramsch card for the seat to move."""
    seat = view.to_move
    trick = np.zeros(3, np.int64)
    for i, card in enumerate(view.trick):
        trick[i] = card
    voids = np.array(void_classes(GameType.GRAND, view.tricks, view.trick, view.leader), np.int64)
    return int(core.choose_card_std(core.RAMSCH, sweeper(view), seat, view.hands[seat], trick, len(view.trick),
                                    view.leader, view.played, voids, known_skat(view), 0, rng))


def ramsch_outcomes(view: GameState, worlds, cards: Mask, repeats: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """For each card of ``cards`` (index order) and each world (times ``repeats``): the seat
    to move plays it, the core's Ramsch policy finishes the game.  Returns (the card points
    the two others end with, 120 for its own Durchmarsch; whether it is not a loser), each
    of shape (cards, worlds * repeats)."""
    seat = view.to_move
    hands = np.ascontiguousarray(np.array([w.hands for w in worlds], np.int64).reshape(-1, 3))
    skats = np.ascontiguousarray(np.array([w.skat for w in worlds], np.int64))
    known = np.zeros(3, np.int64)
    known[seat] = known_skat(view)
    trick = np.zeros(3, np.int64)
    for i, card in enumerate(view.trick):
        trick[i] = card
    voids = np.array(void_classes(GameType.GRAND, view.tricks, view.trick, view.leader), np.int64)
    out = ramsch_playout_cards_batch(
        hands, skats, known, trick, len(view.trick), view.leader, np.array(view.points, np.int64),
        np.array(view.trick_counts, np.int64), view.played, voids, cards, repeats, seed)
    out = out.reshape(out.shape[0], -1, 6)
    return outcome_values(out, seat)


def outcome_values(out: np.ndarray, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """(others' points, not a loser) of finished Ramsch games ``out[..., 0:3]`` points and
    ``out[..., 3:6]`` tricks by seat, for ``seat``."""
    points = out[..., :3]
    own = points[..., seat]
    durchmarsch = out[..., 3 + seat] == 10
    others = np.where(durchmarsch, 120, 120 - own)
    not_loser = (own < points.max(axis=-1)) | durchmarsch
    return np.ascontiguousarray(others), np.ascontiguousarray(not_loser)
