"""Series statistics for the heuristic player, the fit of its bidding curves and the checks of its strength.

    python -m engine.tools.selfplay --deals 1000 --seed 1              # heuristic self-play
    python -m engine.tools.selfplay --deals 300 --seed 1 --vs random   # heuristic vs two random players
    python -m engine.tools.selfplay --fit-curves 6000 --seed 1          # refit hand_eval.CURVES
    python -m engine.tools.selfplay --reliability 3000 --seed 2         # the curves against games won
    python -m engine.tools.selfplay --check-terms 6000 --seed 11        # are the strength's terms weighed right

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

from ..cards import Rank
from ..game import Deal
from ..players.base import Player, RandomPlayer
from ..players.heuristic import HeuristicPlayer
from ..policy import hand_eval
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


def _logistic_weights(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The weights w of P(y) = 1 / (1 + exp(-x @ w)) by Newton steps; ``x`` has one
    column per term (a column of ones for the intercept)."""
    w = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-np.clip(x @ w, -30, 30)))
        hess = (x.T * (p * (1 - p) + 1e-9)) @ x
        step = np.linalg.solve(hess + 1e-6 * np.eye(x.shape[1]), x.T @ (y - p))
        w += step
        if np.max(np.abs(step)) < 1e-7:
            break
    return w


def _fit_logistic(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Centre and scale of P(y) = 1 / (1 + exp(-(x - centre) / scale)), fitted on the
    standardised scores."""
    mean, spread = float(np.mean(x)), float(np.std(x)) or 1.0
    a, b = _logistic_weights(np.column_stack([(x - mean) / spread, np.ones_like(x)]), y)
    return mean - spread * b / a, spread / a


NULL_FIT_FLOOR = 8


@dataclass(frozen=True)
class ForcedGame:
    """One game type played from one seat of a deal, whatever the bidding would say."""

    game: GameType
    seat: int
    hand: int
    """The ten cards dealt."""
    kept: int
    """The ten cards kept after taking the skat and the best discard for ``game``."""
    after_score: float
    """``hand_eval``'s score of the kept cards (with the banked points)."""
    won_after: bool
    won_hand: bool
    """Won as a hand game, the skat unseen."""
    schneider_hand: bool


def every_game_played(deals: int, seed: int):
    """Every game type from every seat of ``deals`` random deals, played out by the
    heuristic after the best discard and as a hand game: the samples that the bidding
    curves are fitted on, free of the bidding's choice."""
    from ..policy.playout import playout

    rng = random.Random(seed)
    for d in range(deals):
        deal = Deal.shuffled(rng)
        for seat in range(3):
            hand = deal.hands[seat]
            twelve = hand | deal.skat
            for game in GameType:
                discard, after_score = hand_eval.best_discard(twelve, game, seat)
                hands = list(deal.hands)
                hands[seat] = twelve & ~discard
                after = playout(game, seat, tuple(hands), skat=discard, skat_known=True, seed=rng.getrandbits(40))
                plain = playout(game, seat, deal.hands, skat=deal.skat, skat_known=False, seed=rng.getrandbits(40))
                if game == GameType.NULL:
                    won_after, won_hand = after.declarer_tricks == 0, plain.declarer_tricks == 0
                else:
                    won_after, won_hand = after.declarer_points >= WIN_POINTS, plain.declarer_points >= WIN_POINTS
                yield ForcedGame(game, seat, hand, twelve & ~discard, after_score, won_after, won_hand,
                                 plain.declarer_points >= SCHNEIDER_POINTS)
        if (d + 1) % 1000 == 0:
            print(f"  {d + 1} deals", file=sys.stderr)


def fit_bidding_curves(deals: int, seed: int) -> dict[tuple[str, str], tuple[float, float]]:
    """Fit one logistic curve per family and situation (see ``hand_eval.CURVES``) on
    ``every_game_played``."""
    samples: dict[tuple[str, str], list[tuple[float, int]]] = {}

    def add(key, score, outcome):
        samples.setdefault(key, []).append((score, outcome))

    for played in every_game_played(deals, seed):
        fam = hand_eval.family(played.game)
        before_score = hand_eval.strength(played.hand, played.game, played.seat)
        skat_score = hand_eval.null_skat_score(played.hand) if played.game == GameType.NULL else before_score
        add((fam, "after"), played.after_score, played.won_after)
        add((fam, "skat"), skat_score, played.won_after)
        add((fam, "hand"), before_score, played.won_hand)
        if played.game != GameType.NULL:
            add((fam, "schneider"), before_score, played.schneider_hand)
    fitted = {}
    for key, rows in sorted(samples.items()):
        if key[0] == "null":
            # fit where decisions are made, not on the long tail of hopeless hands
            rows = [r for r in rows if r[0] >= -NULL_FIT_FLOOR]
        x = np.array([r[0] for r in rows], float)
        y = np.array([r[1] for r in rows], float)
        fitted[key] = _fit_logistic(x, y)
    return fitted


def _trump_count(hand: int, game: GameType) -> int:
    return hand_eval._trump_part(hand, game)[1]


def _longest_side_ace_ten(hand: int, game: GameType) -> int:
    """The length of the longest side suit that holds its ace and ten, 0 if none."""
    ace_ten = (1 << Rank.ACE) | (1 << Rank.TEN)
    lengths = [hand_eval._suit_ranks(hand, suit).bit_count() for suit in range(4)
               if suit != int(game) and hand_eval._suit_ranks(hand, suit) & ace_ten == ace_ten]
    return max(lengths, default=0)


SUIT_TERMS = {
    "trumps - 5": lambda hand, game: _trump_count(hand, game) - 5,
    "side ace-ten cards beyond 2": lambda hand, game: max(0, _longest_side_ace_ten(hand, game) - 2),
}
"""Hand features whose weight in the suit-game strength ``check_terms`` measures."""

GRAND_TERMS = {
    "jacks - 2": lambda hand, game: _trump_count(hand, game) - 2,
    "aces": lambda hand, game: hand_eval._aces(hand),
    "club jack": lambda hand, game: hand_eval._jacks(hand)[0],
}
"""Hand features whose weight in the grand strength ``check_terms`` measures."""

GRAND_TERMS_FLOOR = 0.3
"""Grands are checked where the curves give at least this chance: most forced grands hold
one jack or none, are hopeless, and would decide the fit far from any declaration."""


def check_terms(deals: int, seed: int) -> dict[tuple[str, str], dict[str, float]]:
    """Per family (suit, grand), situation and term (``SUIT_TERMS``, ``GRAND_TERMS``): the
    strength one unit of the term is still worth beyond what ``hand_eval`` gives it, from a
    logistic fit of the won games of ``every_game_played`` on the score and the terms
    (0: weighed right)."""
    terms = {"suit": SUIT_TERMS, "grand": GRAND_TERMS}
    rows: dict[tuple[str, str], list[list[float]]] = {}
    for played in every_game_played(deals, seed):
        family = hand_eval.family(played.game)
        if family == "null":
            continue
        before = hand_eval.strength(played.hand, played.game, played.seat)
        for situation, score, cards, won in (("after", played.after_score, played.kept, played.won_after),
                                             ("skat", before, played.hand, played.won_after),
                                             ("hand", before, played.hand, played.won_hand)):
            if family == "grand" and hand_eval.CURVES[(family, situation)].chance(score) < GRAND_TERMS_FLOOR:
                continue
            rows.setdefault((family, situation), []).append(
                [score, 1.0, *(term(cards, played.game) for term in terms[family].values()), won])
    out = {}
    for (family, situation), table in rows.items():
        data = np.array(table, float)
        w = _logistic_weights(data[:, :-1], data[:, -1])
        out[(family, situation)] = {name: float(w[2 + i] / w[0]) for i, name in enumerate(terms[family])}
    return out


def reliability(deals: int, seed: int) -> dict[str, list[tuple[float, int, float, float]]]:
    """Per family (suit, grand): the curves' win chance after the discard against the
    share won on ``every_game_played``, in bins of 0.1 from 0.3 up: (bin start, games,
    mean chance, share won).  Grands are read without ``GRAND_CAUTION``."""
    chances: dict[str, list[tuple[float, bool]]] = {"suit": [], "grand": []}
    for played in every_game_played(deals, seed):
        family = hand_eval.family(played.game)
        if family in chances:
            chances[family].append((hand_eval.CURVES[(family, "after")].chance(played.after_score), played.won_after))
    out = {}
    for family, rows in chances.items():
        table = np.array(rows, float)
        out[family] = []
        for start in np.arange(0.3, 1.0, 0.1):
            inside = (table[:, 0] >= start) & (table[:, 0] < start + 0.1)
            if inside.any():
                out[family].append((float(start), int(inside.sum()), float(table[inside, 0].mean()),
                                    float(table[inside, 1].mean())))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.tools.selfplay", description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--vs", choices=("heuristic", "random"), default="heuristic",
                        help="the two opponents of the heuristic player")
    parser.add_argument("--fit-curves", type=int, metavar="DEALS",
                        help="instead of a series: refit the bidding curves on this many deals")
    parser.add_argument("--check-terms", type=int, metavar="DEALS",
                        help="instead of a series: what the suit and grand strength's terms are still worth, on this many deals")
    parser.add_argument("--reliability", type=int, metavar="DEALS",
                        help="instead of a series: the curves' win chances against the games won, on this many deals")
    args = parser.parse_args(argv)
    if args.reliability:
        for family, bins in reliability(args.reliability, args.seed).items():
            for start, games, chance, won in bins:
                print(f"  {family:5} {start:.1f}-{start + 0.1:.1f}  {games:5} games  chance {chance:.3f}  "
                      f"won {won:.3f}  ({won - chance:+.3f})")
        return 0
    if args.check_terms:
        print("strength one unit of each term is still worth (0: weighed right)")
        for (family, situation), terms in check_terms(args.check_terms, args.seed).items():
            print(f"  {family:5} {situation:6}" + "".join(f"  {name}: {value:+.2f}" for name, value in terms.items()))
        return 0
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
