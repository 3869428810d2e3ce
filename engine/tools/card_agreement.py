"""Where the heuristic's card play differs from a recorded player's.

    python3 -m engine.tools.card_agreement RECORDS [--games 1500] [--role declarer|defender] [--top 30]

At every card decision of a suit game or grand in the records (ISS lines, e.g.
XSkat's self-play, ``../shared/data/xskat-selfplay-c000-c039.iss``) the
heuristic chooses a card from the mover's own view, and it is compared with
the card the record played.  Decisions with one legal card are left out; two
plain side cards of one suit worth no points count as the same card.

The table gives, per situation (lead at trick 1, 2, later; second or third
to play, after a trump or a side card, following or void), how often the two
differ, and the most frequent differences by kind of card: ``T`` a trump, ``J``
a jack, ``s`` a side card, then ``A`` ace, ``X`` ten, ``h`` king or queen, ``l``
low.  A habit of the recorded player that the heuristic lacks shows up as one
pair that dominates its situation; whether it is worth having is for
``engine.tools.policy_ab`` and the games against XSkat to say.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

from ..cards import CARD_POINTS, Card
from ..game import Play
from ..record import parse_record
from ..players.heuristic import HeuristicPlayer
from ..rules import GameType, follow_mask, is_trump


def card_kind(card: Card, game: GameType) -> str:
    """``T``/``J``/``s`` (trump, jack, side card) and ``A``/``X``/``h``/``l`` (ace, ten, king or queen, low)."""
    rank = str(card)[1]
    if rank == "J":
        return "Jl"
    head = "T" if is_trump(game, card) else "s"
    return head + {"A": "A", "T": "X", "K": "h", "Q": "h"}.get(rank, "l")


def situation(state, game: GameType) -> str:
    kind = "grand" if game == GameType.GRAND else "suit"
    if not state.trick:
        trick_no = len(state.tricks) + 1
        return f"{kind} lead trick {trick_no if trick_no < 3 else '3+'}"
    led = state.trick[0]
    led_trump = is_trump(game, led)
    follows = bool(state.hands[state.to_move] & follow_mask(game, led))
    place = "second" if len(state.trick) == 1 else "third"
    return f"{kind} {place} after {'a trump' if led_trump else 'a side card'} {'following' if follows else 'void'}"


def alike(a: Card, b: Card, game: GameType) -> bool:
    """The same card, or two plain side cards of one suit worth no points."""
    if a == b:
        return True
    return (not is_trump(game, a) and bool(follow_mask(game, a) >> b & 1)
            and CARD_POINTS[a] == CARD_POINTS[b] == 0)


def compare(lines, role: str, games: int):
    """(decisions per situation, differences per (situation, heuristic's kind, record's kind))."""
    player = HeuristicPlayer(seed=0)
    totals: Counter = Counter()
    differences: Counter = Counter()
    for line in lines[:games]:
        record = parse_record(line)
        final = record.replay()
        if final.declaration is None or final.declaration.game == GameType.NULL:
            continue
        game = final.declaration.game
        positions = record.positions()
        for index, (_, move) in enumerate(record.moves):
            if not isinstance(move, Play):
                continue
            card = move.card
            state = positions[index]
            if (state.to_move == final.declarer) != (role == "declarer"):
                continue
            if state.legal_cards().bit_count() < 2:
                continue
            where = situation(state, game)
            totals[where] += 1
            mine = Card(player.core_card(state.view(state.to_move)))
            if not alike(mine, card, game):
                differences[(where, card_kind(mine, game), card_kind(card, game))] += 1
    return totals, differences


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", help="ISS records, one per line")
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--role", choices=("declarer", "defender"), default="declarer")
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args(argv)
    with open(args.records, encoding="utf-8") as f:
        lines = [line.strip() for line in f if line.strip()]
    totals, differences = compare(lines, args.role, args.games)
    by_situation = Counter()
    for (where, _, _), n in differences.items():
        by_situation[where] += n
    print(f"{args.role}'s cards, first {min(args.games, len(lines))} records: heuristic against the record")
    print(f"{'situation':44} {'cards':>6} {'differ':>7}")
    for where in sorted(totals):
        print(f"{where:44} {totals[where]:6} {by_situation[where] / totals[where]:7.0%}")
    print("\nmost frequent differences (heuristic's card → the record's)")
    for (where, mine, theirs), n in differences.most_common(args.top):
        print(f"{n:6}  {where:44} {mine} → {theirs}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
