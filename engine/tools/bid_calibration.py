"""Measure how far the search bidder's win shares are from the games' real results.

Self-play on seeded deals: the players bid as the heuristic does and play the
cards with their own method; when the declarer has declared, a search bidder
values the declared game (with its discard; hand games over sampled skats)
from the declarer's view, once by double-dummy solves and once by heuristic
playouts.  The game is then played out.  Per game family (suit, grand, null)
the tool prints predicted against actual win shares in bins and fits the
correction ``engine.players.bid_calibration`` applies:
logit(actual) = a + b · logit(predicted).

    python3 -m engine.tools.bid_calibration --games 2000 --seed 1 \\
        --player pimc:simulations=20 --worlds 40 --out calibration.json

``--fit FILE`` refits from the records of an earlier run.
"""

from __future__ import annotations

import argparse
import json
import math
import sys

import numpy as np

from ..game import Declare, Deal, GameState, Phase
from ..players.bid_calibration import FAMILIES, family_of, fit_logistic
from ..players.bidding import VALUATIONS, SearchBidder
from ..players.registry import make_player, parse_spec
from ..series import play_game

BINS = (0.0, 0.2, 0.4, 0.6, 0.8, 0.95, 1.0001)


def record_games(games: int, seed: int, player: str, worlds: int, progress=None, first: int = 0) -> list[dict]:
    """One record per declared game: family, predicted win share per valuation, won
    (deals ``first`` .. ``games`` - 1 of the seed's series)."""
    records = []
    for number in range(first, games):
        deal = Deal.shuffled(seed * 1_000_003 + number)
        players = [make_player(parse_spec(player), seed * 1000 + number * 3 + s) for s in range(3)]
        predicted = None

        def value_declaration(view: GameState, decision) -> None:
            nonlocal predicted
            move = decision.move
            if isinstance(move, Declare) and view.phase in (Phase.SKAT, Phase.DECLARE):
                predicted = {}
                for valuation in VALUATIONS:
                    bidder = SearchBidder(worlds, seed * 7919 + number, valuation=valuation)
                    outcome = bidder.value_declaration(view, move.declaration)
                    predicted[valuation] = float(outcome.won.mean())

        state = play_game(deal, players, decided=value_declaration)
        if predicted is not None and state.phase == Phase.FINISHED:
            result = state.result()
            records.append({"game": number, "family": family_of(result.declaration.game),
                            "hand": result.declaration.hand, "predicted": predicted, "won": bool(result.won)})
        if progress is not None:
            progress(number + 1, records)
    return records


def report(records: list[dict], out=sys.stdout) -> dict:
    """Print the bins and the fitted corrections; return the table {valuation: {family: (a, b)}}."""
    table: dict = {}
    for valuation in VALUATIONS:
        table[valuation] = {}
        print(f"\n{valuation}: predicted against actual win share of declared games", file=out)
        print("| family | games | won | mean predicted | " + " | ".join(
            f"{lo:.2f}-{min(hi, 1):.2f}" for lo, hi in zip(BINS, BINS[1:])) + " | a | b |", file=out)
        for family in FAMILIES:
            rows = [r for r in records if r["family"] == family]
            if not rows:
                continue
            predicted = np.array([r["predicted"][valuation] for r in rows])
            won = np.array([r["won"] for r in rows], float)
            cells = []
            for lo, hi in zip(BINS, BINS[1:]):
                inside = (predicted >= lo) & (predicted < hi)
                n = int(inside.sum())
                cells.append(f"{predicted[inside].mean():.2f}→{won[inside].mean():.2f} ({n})" if n else "–")
            a, b = fit_logistic(predicted, won)
            table[valuation][family] = (round(a, 3), round(b, 3))
            print(f"| {family} | {len(rows)} | {won.mean():.3f} | {predicted.mean():.3f} | " + " | ".join(cells)
                  + f" | {a:.3f} | {b:.3f} |", file=out)
    print("\nCALIBRATION = " + json.dumps(table), file=out)
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--player", default="pimc:simulations=20", help="the card play of all three seats")
    parser.add_argument("--worlds", type=int, default=40, help="worlds per valuation of a declared game")
    parser.add_argument("--out", help="write the records here (JSON)")
    parser.add_argument("--fit", help="refit from the records of an earlier run")
    args = parser.parse_args(argv)
    if args.fit:
        with open(args.fit) as f:
            records = json.load(f)
    else:
        def progress(done, records):
            if done % 50 == 0:
                print(f"{done} deals, {len(records)} declared games", file=sys.stderr, flush=True)
                if args.out:  # kept as it grows: a long run stopped early still leaves its records
                    with open(args.out, "w") as f:
                        json.dump(records, f)

        records = record_games(args.games, args.seed, args.player, args.worlds, progress)
        if args.out:
            with open(args.out, "w") as f:
                json.dump(records, f)
    report(records)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
