"""The simple card play used while the numba core is still compiling.

On a new machine the core compiles for about two minutes (see
``engine.players.readiness``).  Until the heuristic core is ready, the heuristic player
(and the Monte Carlo players, until their searches are ready) play the card
this module picks.  It is deliberately a small rule of thumb, not a copy of
the heuristic policy in ``heuristic_core``: the rules come from the engine
(``legal_cards``, ``trick_winner``, ``CARD_POINTS``, ``STRENGTH``), and the
analysis of such a move says that it is a fallback.

- Null: the declarer keeps under the trick if a card can, else plays its
  highest; a defender plays its lowest legal card.
- Ramsch: leading, the cheapest card; following, the richest card that does
  not take the trick, else the cheapest.
- Suit and grand: leading, the cheapest card; following, when a partner
  wins the trick so far, the richest card that does not take it from him
  (the cheapest otherwise); when an opponent wins it, the cheapest card that
  wins, and the cheapest card when none does.
Ties go to the weaker card, then to the lower card index, so the choice is
deterministic.
"""

from __future__ import annotations

from ..analysis import Analysis
from ..cards import CARD_POINTS, cards_of
from ..game import GameState
from ..rules import STRENGTH, GameType, trick_winner

FALLBACK_NOTE = "simple fallback card: the search core is still being prepared"


def simple_card(view: GameState) -> int:
    """A legal card for the seat to move, by the rule of thumb above."""
    game = view.game
    seat = view.to_move
    legal = list(cards_of(view.legal_cards()))
    strength = STRENGTH[game]

    def weakest(cards):
        return min(cards, key=lambda c: (strength[c], int(c)))

    def cheapest(cards):
        return min(cards, key=lambda c: (CARD_POINTS[c], strength[c], int(c)))

    def wins(card) -> bool:
        trick = list(view.trick) + [card]
        return (view.leader + trick_winner(game, trick)) % 3 == seat if len(view.trick) else True

    if game == GameType.NULL:
        if seat != view.declarer:
            return weakest(legal)
        under = [c for c in legal if not wins(c)] if view.trick else []
        if under:
            return max(under, key=lambda c: (strength[c], -int(c)))
        return weakest(legal)
    if not view.trick:
        return cheapest(legal)
    if view.is_ramsch:
        keep_under = [c for c in legal if not wins(c)]
        if keep_under:
            return max(keep_under, key=lambda c: (CARD_POINTS[c], -strength[c], -int(c)))
        return cheapest(legal)
    winner = (view.leader + trick_winner(game, list(view.trick))) % 3
    partner_wins = winner != view.declarer and seat != view.declarer
    if partner_wins:
        keep_under = [c for c in legal if not wins(c)]
        if keep_under:
            return max(keep_under, key=lambda c: (CARD_POINTS[c], -strength[c], -int(c)))
        return cheapest(legal)
    winning = [c for c in legal if wins(c)]
    return cheapest(winning or legal)


def fallback_analysis(player: str, view: GameState, card: int, note: str = FALLBACK_NOTE) -> Analysis:
    """An analysis without statistics that tells the debug panel why the card came from the fallback."""
    legal = tuple(cards_of(view.legal_cards()))
    chosen = next(c for c in legal if c == card)
    return Analysis(player, view.to_move, legal, (), chosen, 0, 0.0, None,
                    view.game == GameType.NULL, True, note)
