"""How true a searcher's Kontra share is: at each first-trick decision where the engine lets a
defender say Kontra, the share of its worlds that the defenders win (the figure its call is
decided on, ``engine.players.calls``) against how the game really ended.

The tested spec sits in each seat in turn against two heuristic players, Kontra and Re on
(no other house rule), on seeded deals; its own calls are left on.  The report bins the
shares by tenths and gives, for each threshold, how many defences would be doubled and how
many of those the defenders won::

    python3 -m engine.tools.call_calibration --player pimc:simulations=100 --deals 150 --seed 1
"""

from __future__ import annotations

import argparse
import re
import sys

from ..game import Deal, GameState, Kontra
from ..house_rules import ISKO
from ..players.calls import offered_call
from ..players.registry import make_player, validate_spec

SHARE = re.compile(r"the defenders win (\d+)% of (\d+) worlds")


def defences(spec: str, deals: int, seed: int, progress=None) -> list[tuple[float, bool]]:
    """(the defenders' share of the worlds at the Kontra decision, the defenders won) per defence."""
    rules = ISKO.with_switches(kontra=True)
    out = []
    for number in range(deals):
        deal = Deal.shuffled(seed * 1_000_003 + number)
        for tested in range(3):
            players = [make_player("heuristic", seed * 7_919 + number * 3 + s) for s in range(3)]
            players[tested] = make_player(spec, seed * 7_919 + number * 3 + tested)
            state = GameState.new(deal, rules=rules)
            for seat, player in enumerate(players):
                player.new_game(seat)
            share = None
            while not state.is_over:
                seat = state.to_move
                view = state.view(seat)
                asked = seat == tested and share is None and isinstance(offered_call(view), Kontra)
                decision = players[seat].choose(view)
                if asked and decision.analysis is not None:
                    found = SHARE.search(decision.analysis.note or "")
                    if found:
                        share = int(found.group(1)) / 100
                state.push(decision.move)
            result = state.result()
            if share is not None and result is not None and getattr(result, "declarer", None) is not None:
                out.append((share, not result.won))
        if progress is not None:
            progress(number + 1, out)
    return out


def report(found: list[tuple[float, bool]]) -> list[str]:
    lines = [f"{len(found)} defences"]
    for tenth in range(10):
        inside = [won for share, won in found if min(int(share * 10), 9) == tenth]
        if inside:
            lines.append(f"share {10 * tenth:3d}-{10 * tenth + 9:3d} %: {len(inside):5d} defences, "
                         f"defenders won {sum(inside) / len(inside):.0%}")
    for threshold in (0.5, 0.55, 0.6, 0.65, 0.7):
        doubled = [won for share, won in found if share >= threshold - 1e-9]
        if doubled:
            lines.append(f"Kontra from {threshold:.0%}: {len(doubled)} of {len(found)} defences "
                         f"({len(doubled) / len(found):.0%}), defenders won {sum(doubled) / len(doubled):.0%}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--player", default="mcu:simulations=100")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    validate_spec(args.player)

    def progress(done, found):
        if done % 25 == 0:
            print(f"{done} deals, {len(found)} defences", file=sys.stderr, flush=True)

    print("\n".join(report(defences(args.player, args.deals, args.seed, progress))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
