"""The computer's Kontra and Re (house rule): when to double.

The engine says when a call is allowed (``GameState.kontra_problem`` and
``re_problem``, listed in ``legal_moves``); this module decides whether to make
it.  ``docs/house-rules.md`` gives the thresholds and why.

- MCU and PIMC value their card from sampled worlds first; the share of those
  worlds that the mover's side wins with the chosen card decides the call, so
  the call and the card come from the same worlds.
- The heuristic player counts the jacks and the strong cards (trumps; in a
  grand, jacks and aces) it holds.
"""

from __future__ import annotations

from ..analysis import Analysis
from ..cards import Rank, Suit, cards_of
from ..game import GameState, Kontra, Move, Re
from ..rules import GameType

KONTRA_WIN_SHARE = 0.5
"""A defender says Kontra when his side wins at least this share of the worlds (MCU)."""
PIMC_KONTRA_WIN_SHARE = 0.65
"""PIMC's Kontra share: its double-dummy worlds let the defenders see every card, which flatters
them; of 287 PIMC defences against the heuristic (``engine.tools.call_calibration``) the defenders
won 50 % of those its worlds gave 50 % and 58 % of those they gave 65 %."""
RE_WIN_SHARE = 2 / 3
"""The declarer says Re when he wins at least this share of the worlds.  Won he
scores +v, lost -2v: doubling pays from a win share of 2/3 on, and after Re
nothing can double again."""

CALL_WORLDS = 100
"""A call is decided on at least this many worlds whatever the card budget (a budget in seconds
is kept): it comes once a game, and a few worlds cannot tell a 40 % game from a 60 % one."""
HEURISTIC_KONTRA = {"suit": 8, "grand": 6}
"""The heuristic defender's Kontra: jacks plus strong cards (trumps; in a grand, jacks and aces; a
jack counts in both) at least this; measured with ``engine.tools.call_calibration`` (docs/house-rules.md)."""
HEURISTIC_RE = 9
"""The heuristic declarer's Re: jacks plus trumps (grand: jacks and aces) at least this."""


def offered_call(view: GameState) -> Move | None:
    """Kontra or Re when the engine allows the seat to move to say it now, else None."""
    if not view.rules.kontra:
        return None
    if view.kontra_problem() is None:
        return Kontra()
    if view.re_problem() is None:
        return Re()
    return None


def call_name(call: Move) -> str:
    return "Kontra" if isinstance(call, Kontra) else "Re"


def decide_from_worlds(call: Move, analysis: Analysis | None,
                       kontra_share: float = KONTRA_WIN_SHARE) -> tuple[bool, str]:
    """Whether to make ``call``, from the card decision's statistics over its worlds,
    and a note for the analysis naming the figures."""
    name = call_name(call)
    threshold = kontra_share if isinstance(call, Kontra) else RE_WIN_SHARE
    side = "the defenders win" if isinstance(call, Kontra) else "the declarer wins"
    stats = analysis.stats_for(analysis.chosen) if analysis is not None and analysis.chosen is not None else None
    if stats is None or stats.simulations == 0:
        return False, f"no {name}: no worlds were valued"
    say = stats.win_share >= threshold
    verdict = name if say else f"no {name}"
    return say, (f"{verdict}: {side} {stats.win_share:.0%} of {stats.simulations} worlds with "
                 f"{analysis.chosen.unicode()} (threshold {threshold:.0%})")


def heuristic_call(view: GameState, call: Move) -> tuple[bool, str]:
    """The heuristic's rule for ``call`` (``HEURISTIC_KONTRA``, ``HEURISTIC_RE``): jacks plus
    strong cards in the hand; never on a null game, where counts say little."""
    name = call_name(call)
    game = view.declaration.game
    if game == GameType.NULL:
        return False, f"no {name} on a null game"
    hand = list(cards_of(view.hands[view.to_move]))
    jacks = sum(1 for c in hand if c.rank == Rank.JACK)
    if game == GameType.GRAND:
        strong = sum(1 for c in hand if c.rank in (Rank.JACK, Rank.ACE))
        what = "jacks and aces"
    else:
        strong = sum(1 for c in hand if c.rank == Rank.JACK or c.suit == Suit(game))
        what = "trumps"
    if isinstance(call, Kontra):
        need = HEURISTIC_KONTRA["grand" if game == GameType.GRAND else "suit"]
    else:
        need = HEURISTIC_RE
    say = jacks + strong >= need
    return say, (f"{name if say else 'no ' + name}: {jacks} jacks + {strong} {what} = {jacks + strong} "
                 f"(needs {need})")


def call_analysis(player: str, view: GameState, note: str) -> Analysis:
    """An analysis without statistics whose note gives the reason for a call (for the debug panel)."""
    legal = tuple(cards_of(view.legal_cards()))
    return Analysis(player, view.to_move, legal, (), None, 0, 0.0, None,
                    view.declaration.game == GameType.NULL, True, note)
