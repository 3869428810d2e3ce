"""A cheap, low-variance paired measure of a bidding method: the same table with
one seat switched to it.

Per seeded deal the base game is played by three copies of the base player
(``mcu:simulations=100``: heuristic bidding); then, for each seat in turn, the
same deal is played again with that seat's player built from the test spec
(``mcu:simulations=100,bidding=search``) under the same seed.  The bidder has
its own random generator, so where the test seat bids, takes the skat,
discards and declares as in the base game, the game repeats move for move and
the difference is exactly 0; the figures are the means, over deals and seats, of
the seat's Seeger-Fabian points with the test player minus without it ("own"),
and of the same for the seat's points minus the mean of the other two seats'
("relative": a lost game's +40 for each defender counts against the seat, as
the rival's +40 does in a paired tournament), with 95 % intervals over deals.
It tells how much a seat gains by switching its bidding against the base
player's bidding, not a tournament result (that is ``skat tournament``,
docs/strength.md).  Any other switch of one seat's spec is measured the same
way, under house rules too: ``--rules pub --base mcu:simulations=100,calls=off
--test mcu:simulations=100`` measures what Kontra and Re gain (``calls=off``
plays the same cards and only keeps quiet, so a game changes only where the
test seat calls).

    python3 -m engine.tools.bidding_duel --base mcu:simulations=100 \\
        --test mcu:simulations=100,bidding=search --deals 200 --seed 1
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter

from ..game import Deal, GameState, Phase
from ..house_rules import ISKO, PRESETS, HouseRules
from ..policy import hand_eval
from ..players.heuristic import HeuristicPlayer
from ..players.registry import make_player, parse_spec
from ..series import play_game


def _play(deal: Deal, specs: list[str], seed: int, tuned: int | None = None, bidder: dict | None = None,
          bid_chance: float | None = None, rules: HouseRules = ISKO) -> GameState:
    """One game; the player in seat ``tuned`` gets ``bidder``'s settings on its search bidder,
    or ``bid_chance`` as its heuristic bidding's threshold."""
    players = [make_player(parse_spec(spec), seed * 3 + s) for s, spec in enumerate(specs)]
    if tuned is not None and bidder:
        search = getattr(players[tuned], "bidder", None)
        if search is None:
            raise ValueError(f"{specs[tuned]} has no search bidder to set {', '.join(bidder)} on")
        for name, value in bidder.items():
            setattr(search, name, value)
    if tuned is not None and bid_chance is not None:
        player = players[tuned]
        heuristic = player if isinstance(player, HeuristicPlayer) else getattr(player, "before_play", None)
        if heuristic is None or getattr(player, "bidder", None) is not None:
            raise ValueError(f"{specs[tuned]} does not bid like the heuristic: --bid-chance does not apply")
        heuristic.bid_chance = bid_chance
    return play_game(deal, players, rules=rules)


def _sf(state: GameState, seat: int) -> int:
    return state.result().scores_by_seat()[1][seat] if state.phase == Phase.FINISHED else 0


def _relative(state: GameState, seat: int) -> float:
    """The seat's points minus the mean of the other two seats' (what a paired tournament
    compares: a lost game also gives the rival +40)."""
    if state.phase != Phase.FINISHED:
        return 0.0
    sf = state.result().scores_by_seat()[1]
    return sf[seat] - (sum(sf) - sf[seat]) / 2


def duel(base: str, test: str, deals: int, seed: int, progress=None, bidder: dict | None = None,
         bid_chance: float | None = None, rules: HouseRules = ISKO, first: int = 0) -> dict:
    """``bidder``: settings of the test player's ``SearchBidder`` (risk, margin, anchored);
    ``bid_chance``: the threshold of the test player's heuristic bidding."""
    diffs, relative, stats = [], [], {"base": Counter(), "test": Counter()}
    for done, number in enumerate(range(first, first + deals), 1):
        deal = Deal.shuffled(seed * 1_000_003 + number)
        player_seed = seed * 100_003 + number
        base_game = _play(deal, [base] * 3, player_seed, rules=rules)
        own = rel = 0.0
        for seat in range(3):
            specs = [base] * 3
            specs[seat] = test
            test_game = _play(deal, specs, player_seed, seat, bidder, bid_chance, rules)
            own += _sf(test_game, seat) - _sf(base_game, seat)
            rel += _relative(test_game, seat) - _relative(base_game, seat)
            for label, game in (("base", base_game), ("test", test_game)):
                _count(stats[label], game, seat)
        diffs.append(own / 3)
        relative.append(rel / 3)
        if progress is not None:
            progress(done, diffs, relative)
    return {"diffs": diffs, "relative": relative, "stats": stats}


def _count(counter: Counter, game: GameState, seat: int) -> None:
    """Declarer statistics of ``seat``: games declared, won, overbid, by game family."""
    if game.phase != Phase.FINISHED or game.declarer != seat:
        return
    result = game.result()
    counter["declared"] += 1
    counter["won"] += result.won
    counter["overbid"] += bool(getattr(result, "overbid", False))
    counter[result.declaration.game.name.lower() if result.declaration.game.name in ("GRAND", "NULL")
            else "suit"] += 1
    counter["sf"] += result.seeger_fabian(3)[seat]


def summary(diffs: list[float]) -> tuple[float, float]:
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    return mean, 1.96 * math.sqrt(var / n)


def _interval(values: list[float]) -> str:
    mean, half = summary(values)
    return f"{mean:+.2f} ± {half:.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", default="mcu:simulations=100")
    parser.add_argument("--test", default="mcu:simulations=100,bidding=search")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0, help="the first deal's number (to split a run)")
    parser.add_argument("--rules", choices=sorted(PRESETS), default="isko", help="house rules of every game")
    parser.add_argument("--risk", type=float, help="the test bidder's risk (points per game)")
    parser.add_argument("--margin", type=float,
                        help="the test bidder's margin in standard errors (inf: keep the heuristic's choice)")
    parser.add_argument("--unanchored", action="store_true",
                        help="the test bidder decides by the search alone, not below the heuristic's limit")
    parser.add_argument("--bid-chance", type=float,
                        help="the test player bids like the heuristic, up to games with this win chance with the "
                             f"skat (the heuristic's: {hand_eval.BID_CHANCE})")
    args = parser.parse_args(argv)
    bidder = {name: value for name, value in (("risk", args.risk), ("margin", args.margin)) if value is not None}
    if args.unanchored:
        bidder["anchored"] = False

    def progress(done, diffs, relative):
        if done % 25 == 0:
            print(f"{done} deals: own {_interval(diffs)}, relative {_interval(relative)}", file=sys.stderr,
                  flush=True)

    out = duel(args.base, args.test, args.deals, args.seed, progress, bidder, args.bid_chance,
               PRESETS[args.rules], args.first)
    changed = sum(d != 0 for d in out["relative"])
    settings = "".join(f", {name}={value}" for name, value in bidder.items())
    if args.bid_chance is not None:
        settings += f", bid chance {args.bid_chance}"
    rules = "" if args.rules == "isko" else f", {args.rules} rules"
    print(f"{args.test}{settings} for one seat against {args.base} ({args.deals} deals from {args.first}, "
          f"seed {args.seed}{rules}; "
          f"{changed} deals changed), SF points per game: own {_interval(out['diffs'])}, "
          f"relative to the other two {_interval(out['relative'])}")
    for label in ("base", "test"):
        c = out["stats"][label]
        games = args.deals * 3
        print(f"{label}: declared {c['declared']} of {games} seat-games, won {c['won']} "
              f"({c['won'] / max(1, c['declared']):.1%}), overbid {c['overbid']}, suit {c['suit']}, "
              f"grand {c['grand']}, null {c['null']}, SF as declarer {c['sf'] / games:+.2f} per seat-game")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
