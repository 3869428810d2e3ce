"""How true a player's Kontra figure is: at each first-trick decision where the engine lets a
defender say Kontra, the figure its call is decided on (``engine.players.calls``: a searcher's
share of worlds the defenders win, the heuristic's count of jacks and strong cards) against how
the game really ended.

The tested spec sits in each seat in turn against two others (``--others``, the heuristic by
default), Kontra and Re on (no other house rule), on seeded deals; its own calls are left on.
The report bins the figures (shares by tenths, counts one by one) and gives, for each
threshold, how many defences would be doubled and how many of those the defenders won::

    python3 -m engine.tools.call_calibration --player pimc:simulations=100 --deals 150 --seed 1
    python3 -m engine.tools.call_calibration --player heuristic --others mcu:simulations=30 --deals 300
"""

from __future__ import annotations

import argparse
import re
import sys

from ..game import Deal, GameState, Kontra
from ..house_rules import ISKO
from ..players.calls import heuristic_call, offered_call
from ..players.heuristic import HeuristicPlayer
from ..players.registry import make_player, validate_spec
from ..rules import GameType
from ..series import play_game

SHARE = re.compile(r"the defenders win (\d+)% of (\d+) worlds")
COUNT = re.compile(r"= (\d+) \(needs \d+\)")


def _figure(note: str) -> float | None:
    """The share (0..1) or the count a Kontra note gives, None if it gives neither."""
    found = SHARE.search(note)
    if found:
        return int(found.group(1)) / 100
    found = COUNT.search(note)
    return int(found.group(1)) if found else None


def defences(spec: str, deals: int, seed: int, progress=None,
             others: str = "heuristic") -> list[tuple[float, bool, str]]:
    """(the figure at the Kontra decision, the defenders won, 'suit', 'grand' or 'null') per
    defence of ``spec``."""
    rules = ISKO.with_switches(kontra=True)
    out = []
    for number in range(deals):
        deal = Deal.shuffled(seed * 1_000_003 + number)
        for tested in range(3):
            players = [make_player(others, seed * 7_919 + number * 3 + s) for s in range(3)]
            players[tested] = make_player(spec, seed * 7_919 + number * 3 + tested)
            share = None

            def read_figure(view: GameState, decision) -> None:
                nonlocal share
                seat = view.to_move
                if seat == tested and share is None and isinstance(offered_call(view), Kontra):
                    # the heuristic notes its count only when it calls: ask its rule for the rest
                    note = decision.analysis.note if decision.analysis is not None else ""
                    share = _figure(note or "")
                    if share is None and isinstance(players[seat], HeuristicPlayer):
                        share = _figure(heuristic_call(view, Kontra())[1])

            state = play_game(deal, players, rules=rules, decided=read_figure)
            result = state.result()
            if share is not None and result is not None and getattr(result, "declarer", None) is not None:
                game = state.declaration.game
                family = "grand" if game == GameType.GRAND else "null" if game == GameType.NULL else "suit"
                out.append((share, not result.won, family))
        if progress is not None:
            progress(number + 1, out)
    return out


def report(found: list[tuple[float, bool, str]], counts: bool = False) -> list[str]:
    """Shares (0..1) binned by tenths, or with ``counts`` the heuristic's counts one by one,
    by suit game and grand (its thresholds differ)."""
    lines = [f"{len(found)} defences"]
    if counts:
        for family in ("suit", "grand"):
            mine = [(figure, won) for figure, won, kind in found if kind == family]
            for threshold in range(4, 11):
                doubled = [won for figure, won in mine if figure >= threshold]
                if doubled:
                    lines.append(f"{family}, Kontra from {threshold}: {len(doubled)} of {len(mine)} defences "
                                 f"({len(doubled) / len(mine):.0%}), defenders won {sum(doubled) / len(doubled):.0%}")
        return lines
    found = [(figure, won) for figure, won, _ in found]
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
    parser.add_argument("--others", default="heuristic", help="the spec of the two other seats")
    args = parser.parse_args(argv)
    validate_spec(args.player)
    validate_spec(args.others)

    def progress(done, found):
        if done % 25 == 0:
            print(f"{done} deals, {len(found)} defences", file=sys.stderr, flush=True)

    found = defences(args.player, args.deals, args.seed, progress, args.others)
    print("\n".join(report(found, counts=args.player.split(":")[0] == "heuristic")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
