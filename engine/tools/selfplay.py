"""Series statistics for the heuristic player, and the fit of its bidding curves.

    python -m engine.tools.selfplay --deals 1000 --seed 1              # heuristic self-play
    python -m engine.tools.selfplay --deals 300 --seed 1 --vs random   # heuristic vs two random players
    python -m engine.tools.selfplay --fit-curves 6000 --seed 1          # refit hand_eval.CURVES

A series replays every deal with every distinct seat arrangement of the
player types (one for self-play, three for heuristic vs two random players),
so the cards dealt do not decide the comparison.  It prints the share of
games passed in, the declarers' win share, the game type shares, and per
player type the games declared, won, lost and the Seeger-Fabian total.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from ..game import Deal
from ..players.base import Player, RandomPlayer
from ..players.heuristic import HeuristicPlayer
from ..rules import GameType
from ..scoring import SCHNEIDER_POINTS, WIN_POINTS
from ..series import PlayerTotals, play_game
from ..tournament import arrangements


@dataclass
class TypeTotals(PlayerTotals):
    """A player type's totals: ``games`` it declared, and the seats it sat in."""

    seats_taken: int = 0
    """Games this type sat in (instances count separately)."""

    @property
    def seeger_fabian_per_player(self) -> float:
        """Seeger-Fabian total per instance of the type (per 3 seats in play)."""
        return 3 * self.seeger_fabian / self.seats_taken if self.seats_taken else 0.0


@dataclass
class SeriesStats:
    deals: int = 0
    games: int = 0
    passed: int = 0
    declared: int = 0
    won: int = 0
    game_types: Counter = field(default_factory=Counter)
    game_types_won: Counter = field(default_factory=Counter)
    hand_games: int = 0
    types: dict[str, TypeTotals] = field(default_factory=dict)
    seconds: float = 0.0

    def report(self) -> str:
        lines = [
            f"deals {self.deals}, games {self.games} ({self.games / max(1, self.deals):.0f} seat arrangements), "
            f"{self.seconds:.1f} s, {self.games / max(self.seconds, 1e-9):.0f} games/s",
            f"passed in: {self.passed} ({100 * self.passed / max(1, self.games):.1f} %)",
            f"played: {self.declared}, won by the declarer: {self.won} ({100 * self.won / max(1, self.declared):.1f} %)"
            f", hand games: {self.hand_games} ({100 * self.hand_games / max(1, self.declared):.1f} %)",
            "game types (share, won): " + ", ".join(
                f"{GameType(g).label} {100 * n / max(1, self.declared):.1f} % ({100 * self.game_types_won[g] / n:.0f} %)"
                for g, n in sorted(self.game_types.items())
            ),
            "per player type (Seeger-Fabian):",
        ]
        for t in self.types.values():
            lines.append(
                f"  {t.name:10s} declared {t.games:5d}  won {t.won:5d}  lost {t.lost:5d}  "
                f"SF total {t.seeger_fabian:8d}  SF per player {t.seeger_fabian_per_player:9.0f}"
            )
        return "\n".join(lines)


def run_series(deals: int, seed: int, opponents: str = "heuristic") -> SeriesStats:
    """Heuristic vs two ``opponents`` (heuristic or random) over ``deals`` deals."""
    names = ("heuristic", opponents, opponents)
    players: dict[tuple[str, int], Player] = {}

    def make(name: str, index: int) -> Player:
        key = (name, index)
        if key not in players:
            player_seed = seed * 1000 + len(players)
            players[key] = HeuristicPlayer(seed=player_seed) if name == "heuristic" else RandomPlayer(seed=player_seed)
        return players[key]

    stats = SeriesStats()
    for name in names:
        stats.types.setdefault(name, TypeTotals(name))
    rng = random.Random(seed)
    start = time.perf_counter()
    distinct = list(dict.fromkeys(names))
    layouts = [tuple(distinct[i] for i in seating) for seating in arrangements(names)]
    for _ in range(deals):
        deal = Deal.shuffled(rng)
        stats.deals += 1
        for layout in layouts:
            used: Counter = Counter()
            seat_players = []
            for name in layout:
                seat_players.append(make(name, used[name]))
                used[name] += 1
            state = play_game(deal, seat_players)
            stats.games += 1
            for name in layout:
                stats.types[name].seats_taken += 1
            result = state.result()
            if result is None:
                stats.passed += 1
                continue
            stats.declared += 1
            stats.won += result.won
            stats.hand_games += result.declaration.hand
            stats.game_types[int(result.declaration.game)] += 1
            stats.game_types_won[int(result.declaration.game)] += result.won
            declarer_type = stats.types[layout[result.declarer]]
            declarer_type.games += 1
            declarer_type.won += result.won
            declarer_type.lost += not result.won
            for seat, score in enumerate(result.seeger_fabian()):
                stats.types[layout[seat]].seeger_fabian += score
    stats.seconds = time.perf_counter() - start
    return stats


# ---------------------------------------------------------------- calibration


def _fit_logistic(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Centre and scale of P(y) = 1 / (1 + exp(-(x - centre) / scale)), by Newton steps
    on the standardised scores."""
    mean, spread = float(np.mean(x)), float(np.std(x)) or 1.0
    x = (x - mean) / spread
    a, b = 1.0, 0.0
    for _ in range(50):
        z = np.clip(a * x + b, -30, 30)
        p = 1 / (1 + np.exp(-z))
        w = p * (1 - p) + 1e-9
        grad = np.array([np.sum((y - p) * x), np.sum(y - p)])
        hess = np.array([[np.sum(w * x * x), np.sum(w * x)], [np.sum(w * x), np.sum(w)]])
        step = np.linalg.solve(hess + 1e-6 * np.eye(2), grad)
        a, b = a + step[0], b + step[1]
        if np.max(np.abs(step)) < 1e-7:
            break
    return mean - spread * b / a, spread / a


NULL_FIT_FLOOR = 8


def fit_bidding_curves(deals: int, seed: int) -> dict[tuple[str, str], tuple[float, float]]:
    """Play every game type from every seat of ``deals`` random deals with the
    heuristic card play and fit one logistic curve per family and situation
    (see ``hand_eval.CURVES``)."""
    from ..policy import hand_eval
    from ..policy.playout import playout

    samples: dict[tuple[str, str], list[tuple[float, int]]] = {}

    def add(key, score, outcome):
        samples.setdefault(key, []).append((score, outcome))

    rng = random.Random(seed)
    for d in range(deals):
        deal = Deal.shuffled(rng)
        for seat in range(3):
            hand = deal.hands[seat]
            twelve = hand | deal.skat
            for game in GameType:
                fam = hand_eval.family(game)
                discard, after_score = hand_eval.best_discard(twelve, game, seat)
                hands = list(deal.hands)
                hands[seat] = twelve & ~discard
                result = playout(game, seat, tuple(hands), skat=discard, skat_known=True, seed=rng.getrandbits(40))
                if game == GameType.NULL:
                    won = result.declarer_tricks == 0
                else:
                    won = result.declarer_points >= WIN_POINTS
                before_score = hand_eval.strength(hand, game, seat)
                skat_score = hand_eval.null_skat_score(hand) if game == GameType.NULL else before_score
                add((fam, "after"), after_score, won)
                add((fam, "skat"), skat_score, won)
                result = playout(game, seat, deal.hands, skat=deal.skat, skat_known=False, seed=rng.getrandbits(40))
                if game == GameType.NULL:
                    add((fam, "hand"), before_score, result.declarer_tricks == 0)
                else:
                    add((fam, "hand"), before_score, result.declarer_points >= WIN_POINTS)
                    add((fam, "schneider"), before_score, result.declarer_points >= SCHNEIDER_POINTS)
        if (d + 1) % 1000 == 0:
            print(f"  {d + 1} deals", file=sys.stderr)
    fitted = {}
    for key, rows in sorted(samples.items()):
        if key[0] == "null":
            # fit where decisions are made, not on the long tail of hopeless hands
            rows = [r for r in rows if r[0] >= -NULL_FIT_FLOOR]
        x = np.array([r[0] for r in rows], float)
        y = np.array([r[1] for r in rows], float)
        fitted[key] = _fit_logistic(x, y)
    return fitted


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.tools.selfplay", description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--vs", choices=("heuristic", "random"), default="heuristic",
                        help="the two opponents of the heuristic player")
    parser.add_argument("--fit-curves", type=int, metavar="DEALS",
                        help="instead of a series: refit the bidding curves on this many deals")
    args = parser.parse_args(argv)
    if args.fit_curves:
        for (fam, situation), (centre, scale) in fit_bidding_curves(args.fit_curves, args.seed).items():
            if math.isfinite(centre) and math.isfinite(scale):
                print(f'    ("{fam}", "{situation}"): Curve({centre:.2f}, {scale:.2f}),')
        return 0
    stats = run_series(args.deals, args.seed, args.vs)
    print(f"python -m engine.tools.selfplay --deals {args.deals} --seed {args.seed} --vs {args.vs}")
    print(stats.report())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
