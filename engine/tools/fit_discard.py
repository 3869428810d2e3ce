"""Fit the discard habits (``engine/data/discard_habits.json``) to recorded discards.

The heuristic chooses its discard by the strength of the ten cards it keeps
(``hand_eval.after_discard_strength``).  Against XSkat's records that picks
XSkat's pair half the time: XSkat puts away a ten with its guard, or both
cards of a short suit, where the strength keeps them.  This tool learns what
the strength misses from the declarers' own choices.

Model: a conditional logit over the 66 pairs of the declarer's twelve cards,
one per suit game taken with the skat.  A pair's score is

    w · strength(kept) + Σ over side suits  v[shape of the suit kept]
                       + p · card points put away + t · trumps put away

where a suit's shape is (ace kept, ten kept, king kept, other cards kept, at
most 3), 32 shapes.  The habits are the fitted values divided by ``w``, in
strength units, with the void's value set to 0 (only differences between
pairs count), so that ``hand_eval`` can add them to the strength it already
has.

    python3 -m engine.tools.fit_discard ../shared/data/xskat-selfplay-c000-c039.iss --write

prints the fit (log-loss and how often the top pair is the declarer's, before
and after, on a held-out fifth of the examples) and with ``--write`` stores the
habits.  Grands are printed for comparison and not stored
(``hand_eval.DISCARD_HABITS`` says why).

``--judge`` asks a judge outside the fit: on every suit game of the records
whose discard the habits change, the double-dummy solver plays the real deal
after each discard (the strength's, the habits', the record's own), and the
tool prints the declarer's mean card points and wins of each against the
strength's.
"""
from __future__ import annotations

import argparse
import itertools
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..cards import JACKS, Mask, cards_of, points_of
from ..policy import hand_eval
from ..rules import GameType

SHAPES = tuple(itertools.product((0, 1), (0, 1), (0, 1), range(4)))
"""(ace, ten, king, other cards up to 3) of one side suit kept."""
FAMILIES = ("suit", "grand")


@dataclass(frozen=True)
class Example:
    cards: Mask
    """The declarer's twelve cards: its hand and the skat."""
    game: GameType
    seat: int
    discard: Mask
    hands: tuple[Mask, Mask, Mask]
    """The three hands as dealt."""
    bid: int = 18
    """The bid the declarer won the bidding at."""


def examples(path: str | Path) -> list[Example]:
    """Every suit game and grand of the records declared after taking the skat."""
    from ..record import read_records
    records, errors = read_records(path)
    if errors:
        raise errors[0]
    found = []
    for record in records:
        state = record.replay()
        decl = state.declaration
        if (state.deal is None or decl is None or not state.skat_taken or state.declarer is None
                or hand_eval.family(decl.game) == "null"):
            continue
        cards = state.deal.hands[state.declarer] | state.deal.skat
        found.append(Example(cards, decl.game, state.declarer, state.discard, tuple(state.deal.hands), state.bid))
    return found


def trumps_of(game: GameType) -> Mask:
    return JACKS | (0 if game == GameType.GRAND else 0xFF << (8 * int(game)))


_SHAPE_INDEX = {s: i for i, s in enumerate(SHAPES)}


def features(example: Example) -> tuple[np.ndarray, int]:
    """(66, 35) features of every pair (shapes, card points / 10, trumps, strength) and
    the index of the pair put away."""
    pairs = [(1 << a) | (1 << b) for a, b in itertools.combinations(cards_of(example.cards), 2)]
    rows = np.zeros((len(pairs), len(SHAPES) + 3))
    trumps = trumps_of(example.game)
    for row, pair in zip(rows, pairs):
        kept = example.cards & ~pair
        for suit in hand_eval._side_suits(example.game):
            row[_SHAPE_INDEX[hand_eval.side_shape(hand_eval._suit_ranks(kept, suit))]] += 1
        row[-3] = points_of(pair) / 10
        row[-2] = (pair & trumps).bit_count()
        row[-1] = hand_eval.after_discard_strength(kept, example.game, example.seat, pair)
    return rows, pairs.index(example.discard)


def _softmax(scores: np.ndarray) -> np.ndarray:
    scores = scores - scores.max(axis=1, keepdims=True)
    weights = np.exp(scores)
    return weights / weights.sum(axis=1, keepdims=True)


def log_loss(x: np.ndarray, chosen: np.ndarray, w: np.ndarray) -> float:
    p = _softmax(x @ w)
    return float(-np.log(p[np.arange(len(chosen)), chosen] + 1e-12).mean())


def top_agreement(x: np.ndarray, chosen: np.ndarray, w: np.ndarray) -> float:
    """How often the best-scored pair is the one put away (ties go to the first pair)."""
    return float(((x @ w).argmax(axis=1) == chosen).mean())


def fit(x: np.ndarray, chosen: np.ndarray, l2: float = 1e-3, steps: int = 1500) -> np.ndarray:
    """Weights maximising the mean log-likelihood minus ``l2``/2 |w|² (full-batch Adam from 0)."""
    w = np.zeros(x.shape[2])
    m, v = np.zeros_like(w), np.zeros_like(w)
    rows = np.arange(len(chosen))
    for step in range(1, steps + 1):
        p = _softmax(x @ w)
        grad = -(x[rows, chosen] - (p[:, :, None] * x).sum(axis=1)).mean(axis=0) + l2 * w
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w -= 0.05 * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
    return w


def habits(w: np.ndarray) -> dict:
    """The fitted weights in strength units: each shape's value (the void's 0), and the
    value of a card point and of a trump put away."""
    scale = w[-1]
    if scale <= 0:
        raise ValueError("the strength's fitted weight is not positive: too few examples")
    void = w[_SHAPE_INDEX[(0, 0, 0, 0)]]
    return {"shapes": {"".join(map(str, s)): round(float((w[i] - void) / scale), 4) for i, s in enumerate(SHAPES)},
            "per_point": round(float(w[-3] / scale / 10), 5),
            "per_trump": round(float(w[-2] / scale), 4)}


def double_dummy_points(example: Example, discard: Mask) -> int:
    """The declarer's card points (the skat's included) when the real deal is played double
    dummy after ``discard``."""
    from ..dds.solver import Position, solve
    hands = list(example.hands)
    hands[example.seat] = example.cards & ~discard
    position = Position(example.game, example.seat, tuple(hands), (), 0, points_of(discard))
    return solve(position, per_card=False).value


def judge(found: list[Example]) -> tuple[int, dict[str, tuple[float, float, float, float]]]:
    """How many suit games the habits change the discard of, and for those, per discard
    (``habits``, the record's ``own``): the mean and 95 % half-interval of its double-dummy
    card points and of its wins, minus those of the strength's discard."""
    diffs: dict[str, tuple[list[int], list[int]]] = {"habits": ([], []), "own": ([], [])}
    for example in found:
        if hand_eval.family(example.game) != "suit":
            continue
        plain = hand_eval.best_discard(example.cards, example.game, example.seat, habits=False)[0]
        chosen = hand_eval.best_discard(example.cards, example.game, example.seat)[0]
        if chosen == plain:
            continue
        base = double_dummy_points(example, plain)
        for name, discard in (("habits", chosen), ("own", example.discard)):
            points = base if discard == plain else double_dummy_points(example, discard)
            diffs[name][0].append(points - base)
            diffs[name][1].append((points > 60) - (base > 60))

    def mean_ci(values: list[int]) -> tuple[float, float]:
        a = np.array(values, float)
        return float(a.mean()), float(1.96 * a.std(ddof=1) / np.sqrt(len(a)))
    changed = len(diffs["habits"][0])
    return changed, {name: (*mean_ci(points), *mean_ci(wins)) for name, (points, wins) in diffs.items()
                     if changed > 1}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", help="game records (ISS format) whose declarers' discards are learned")
    parser.add_argument("--seed", type=int, default=0, help="seed of the held-out split")
    parser.add_argument("--write", action="store_true", help=f"store the habits in {hand_eval.DISCARD_HABITS_PATH}")
    parser.add_argument("--judge", action="store_true",
                        help="only judge the stored habits double dummy on the records' real deals")
    args = parser.parse_args(argv)
    from ..record import RecordError
    try:
        found = examples(args.records)
    except (OSError, RecordError) as err:
        parser.error(f"{args.records}: {err}")
    if args.judge:
        changed, judged = judge(found)
        print(f"{changed} suit games whose discard the habits change; double dummy on the real deal, "
              f"against the strength's discard:")
        for name in ("habits", "own"):
            if name in judged:
                points, points_ci, wins, wins_ci = judged[name]
                label = "the habits' discard" if name == "habits" else "the record's own discard"
                print(f"  {label}: card points {points:+.2f} ± {points_ci:.2f}, wins {wins:+.1%} ± {wins_ci:.1%}")
        return
    out = {"source": Path(args.records).name}
    for family in FAMILIES:
        chosen_examples = [e for e in found if hand_eval.family(e.game) == family]
        built = [features(e) for e in chosen_examples]
        x = np.array([b[0] for b in built])
        chosen = np.array([b[1] for b in built])
        order = np.random.default_rng(args.seed).permutation(len(chosen))
        train, held = order[: len(order) * 4 // 5], order[len(order) * 4 // 5:]
        strength_only = fit(x[train][:, :, -1:], chosen[train])
        w = fit(x[train], chosen[train])
        print(f"{family}: {len(chosen)} discards; held-out fifth, strength alone: log-loss "
              f"{log_loss(x[held][:, :, -1:], chosen[held], strength_only):.3f}, top pair "
              f"{top_agreement(x[held][:, :, -1:], chosen[held], strength_only):.1%}; with the habits: "
              f"{log_loss(x[held], chosen[held], w):.3f}, {top_agreement(x[held], chosen[held], w):.1%}")
        if family == "suit":
            out |= habits(fit(x, chosen)) | {"examples": len(chosen)}
    if args.write:
        hand_eval.DISCARD_HABITS_PATH.write_text(json.dumps(out, indent=1) + "\n")
        print(f"wrote {hand_eval.DISCARD_HABITS_PATH}")


if __name__ == "__main__":
    main()
