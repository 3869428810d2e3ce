"""Fit the grand habit (``engine/data/grand_habits.json``) to recorded game choices.

With the skat taken, the heuristic used to choose between a grand and a suit
game by the expected scores of its win-chance curves.  Against XSkat's records
that matches XSkat's choice on 86 % of the hands, and the grands it misses are
ones XSkat wins: where the grand curve says 0.7-0.9, XSkat won 82-92 % of its
grands.  This tool learns the choice itself from the declarers' records.

Model: a logistic regression of "declared a grand" on the features of the
declarer's twelve cards (``hand_eval.grand_habit_features``: the jacks, aces,
tens, suits with ace and ten, the longest suit, the seat), over every grand and
suit game declared with the skat where both a grand and a suit game reach the
bid.  ``hand_eval.prefers_grand`` declares the grand where the fitted log-odds
are above 0.

    python3 -m engine.tools.fit_grand_choice ../shared/data/xskat-selfplay-c000-c039.iss --write

prints the fit on a held-out fifth (log-loss, and how often the choice is the
declarer's, against the expected scores' choice), then how the habit changes
the choices on all examples and how the declarer's own games ended there;
``--write`` stores the weights fitted to all examples.
"""
from __future__ import annotations

import argparse
import collections
import json
from pathlib import Path

import numpy as np

from ..policy import hand_eval
from ..rules import GameType
from .fit_discard import Example, examples


def choices(found: list[Example]) -> list[Example]:
    """The examples where the declarer could choose: a grand and some suit game reach the bid."""
    out = []
    for example in found:
        options = hand_eval.declaration_options(example.cards, example.seat)
        reach = {o.declaration.game for o in options if hand_eval.reaches(o, example.bid)}
        if GameType.GRAND in reach and reach & set(hand_eval.SUIT_GAMES):
            out.append(example)
    return out


def expected_choice(example: Example) -> bool:
    """Whether the expected scores alone prefer the grand to every suit game worth the bid."""
    options = [o for o in hand_eval.declaration_options(example.cards, example.seat)
               if o.declaration.game != GameType.NULL and hand_eval.reaches(o, example.bid)]
    return max(options, key=lambda o: (o.expected, o.value)).declaration.game == GameType.GRAND


def design(found: list[Example]) -> tuple[np.ndarray, np.ndarray]:
    x = np.array([hand_eval.grand_habit_features(e.cards, e.seat) for e in found], float)
    y = np.array([e.game == GameType.GRAND for e in found], float)
    return x, y


LOG_ODDS_LIMIT = 30.0
"""Log-odds are clipped to this size before ``exp`` (far beyond any probability that matters)."""


def _probability(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-np.clip(x @ w, -LOG_ODDS_LIMIT, LOG_ODDS_LIMIT)))


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1e-3, steps: int = 50) -> np.ndarray:
    """Weights maximising the log-likelihood minus ``l2``/2 |w|² (Newton's method from 0)."""
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = _probability(x, w)
        grad = x.T @ (y - p) - l2 * w
        hessian = (x.T * (p * (1 - p))) @ x + l2 * np.eye(len(w))
        step = np.linalg.solve(hessian, grad)
        w += step
        if np.abs(step).max() < 1e-9:
            break
    return w


def log_loss(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    p = np.clip(_probability(x, w), 1e-12, 1 - 1e-12)
    return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())


def weights(w: np.ndarray) -> dict:
    return {"weights": {name: round(float(v), 4) for name, v in zip(hand_eval.GRAND_HABIT_FEATURES, w)}}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", help="game records (ISS format) whose declarers' game choices are learned")
    parser.add_argument("--seed", type=int, default=0, help="seed of the held-out split")
    parser.add_argument("--write", action="store_true", help=f"store the weights in {hand_eval.GRAND_HABITS_PATH}")
    args = parser.parse_args(argv)
    from ..record import RecordError
    try:
        found = choices(examples(args.records))
    except (OSError, RecordError) as err:
        parser.error(f"{args.records}: {err}")
    if len(found) < 2 * len(hand_eval.GRAND_HABIT_FEATURES):
        parser.error(f"{args.records}: {len(found)} grand or suit games with a choice, too few to fit")
    x, y = design(found)
    by_expected = np.array([expected_choice(e) for e in found], float)
    order = np.random.default_rng(args.seed).permutation(len(y))
    train, held = order[: len(order) * 4 // 5], order[len(order) * 4 // 5:]
    w = fit(x[train], y[train])
    print(f"{len(y)} grand or suit games declared with a choice, {int(y.sum())} grands; held-out fifth: "
          f"the expected scores choose the declarer's game {np.mean(by_expected[held] == y[held]):.1%}, "
          f"the habit {np.mean((x[held] @ w > 0) == y[held]):.1%} (log-loss {log_loss(x[held], y[held], w):.3f})")
    w = fit(x, y)
    changed: collections.Counter = collections.Counter()
    for example, habit, expected in zip(found, x @ w > 0, by_expected):
        if habit != expected:
            own = "grand" if example.game == GameType.GRAND else "suit game"
            changed[("grand" if habit else "suit game", own)] += 1
    print("choices the habit changes, by the declarer's own game:")
    for (habit, own), n in sorted(changed.items()):
        print(f"  the habit declares a {habit}, the declarer a {own}: {n}")
    out = {"source": Path(args.records).name, "examples": len(y)} | weights(w)
    for name, value in out["weights"].items():
        print(f"  {name:24} {value:+.3f}")
    if args.write:
        hand_eval.GRAND_HABITS_PATH.write_text(json.dumps(out, indent=1) + "\n")
        print(f"wrote {hand_eval.GRAND_HABITS_PATH}")


if __name__ == "__main__":
    main()
