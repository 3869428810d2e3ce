"""How well each sampler knows where the hidden cards are.

    python3 -m engine.tools.belief_accuracy --games 1000 --seed 1 --workers 2

Heuristic self-play games are played; at every card decision the mover's
beliefs (``engine.worlds.inference.beliefs``) under the simple, informed and
inference samplers give each card it cannot see a probability for each
place (the other two hands, the skat).  The log-loss of a hidden card is
``-ln p(its true place)`` (p floored at 0.001, so one miss does not dominate).
The table gives the mean log-loss per hidden card by sampler, by the mover's
role and by trick, and the goal's figure: the defenders' log-loss on the
declarer's cards at trick 1.  The inference sampler uses the pool a 100-world
PIMC decision uses (4,000 candidate worlds) unless ``--pool`` says otherwise;
``--tricks 1`` measures the first trick only (a fraction of the time).

``--records FILE`` measures on recorded games instead (the first ``--games``
of them, at their own card decisions): a tournament's ``games.sgf`` shows how
well the samplers read opponents that play unlike the heuristic.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor

from ..game import Deal, GameState, Phase
from ..players.heuristic import HeuristicPlayer
from ..series import play_game
from ..worlds.inference import SAMPLERS, beliefs, pool_size
from ..worlds.sampling import SKAT_PLACE

FLOOR = 1e-3
"""Probabilities below this count as this: a sampler's finite pool may miss a place."""


def _true_place(state: GameState, card: int) -> int:
    for seat in range(3):
        if state.hands[seat] >> card & 1:
            return seat
    return SKAT_PLACE


ALL_TRICKS = tuple(range(1, 11))


def _add_losses(totals, state: GameState, seed: int, pool: int) -> None:
    """The log-loss of every hidden card under each sampler, at the card decision of ``state``."""
    seat = state.to_move
    view = state.view(seat)
    role = "declarer" if seat == state.declarer else "defenders"
    trick = len(state.tricks) + 1
    for sampler in SAMPLERS:
        found = beliefs(view, sampler, seed=seed, pool=pool)
        hidden = found.hidden
        for card in range(32):
            if not hidden >> card & 1:
                continue
            place = _true_place(state, card)
            loss = -math.log(max(found.places[card, place], FLOOR))
            whose = "skat" if place == SKAT_PLACE else ("declarer" if place == state.declarer else "defender")
            for key in ((sampler, role, trick, whose), (sampler, role, trick, "all")):
                totals[key][0] += loss
                totals[key][1] += 1


def game_losses(seed: int, pool: int, tricks: tuple[int, ...] = ALL_TRICKS) -> dict[tuple, list[float]]:
    """(sampler, role, trick, whose cards) -> [sum of log-losses, hidden cards] for one game,
    at the card decisions of ``tricks``."""
    totals: dict[tuple, list[float]] = defaultdict(lambda: [0.0, 0])
    rng = random.Random(seed)
    deal = Deal.shuffled(rng.getrandbits(62))
    players = [HeuristicPlayer(rng.getrandbits(62)) for _ in range(3)]
    decision = 0

    def past_the_tricks(state: GameState) -> bool:
        return state.phase == Phase.PLAY and len(state.tricks) + 1 > max(tricks)

    def add_losses(state: GameState) -> None:
        nonlocal decision
        if state.phase == Phase.PLAY:
            decision += 1
            if len(state.tricks) + 1 in tricks:
                _add_losses(totals, state, seed * 1000 + decision, pool)

    play_game(deal, players, until=past_the_tricks, before=add_losses)
    return dict(totals)


def record_losses(text: str, seed: int, pool: int, tricks: tuple[int, ...] = ALL_TRICKS) -> dict[tuple, list[float]]:
    """``game_losses`` for a recorded game (ISS text): its own card decisions, as played."""
    from ..record import parse_record

    totals: dict[tuple, list[float]] = defaultdict(lambda: [0.0, 0])
    decision = 0
    for state in parse_record(text).positions():
        if state.phase != Phase.PLAY or state.declarer is None or state.is_over:
            continue  # (a Ramsch has no declarer whose cards there are to guess)
        decision += 1
        if len(state.tricks) + 1 in tricks:
            _add_losses(totals, state, seed * 1000 + decision, pool)
    return dict(totals)


def measure(games: int, seed: int, pool: int, workers: int, tricks: tuple[int, ...] = ALL_TRICKS,
            records: list[str] | None = None) -> dict[tuple, list[float]]:
    """Self-play games, or the first ``games`` of ``records`` (ISS texts) if given."""
    seeds = [seed * 1_000_003 + i for i in range(games)]
    if records is None:
        task, calls = game_losses, [(s, pool, tricks) for s in seeds]
    else:
        task, calls = record_losses, [(text, s, pool, tricks) for text, s in zip(records[:games], seeds)]
    totals: dict[tuple, list[float]] = defaultdict(lambda: [0.0, 0])
    if workers > 1 and calls:
        with ProcessPoolExecutor(workers) as executor:
            parts = list(executor.map(task, *zip(*calls), chunksize=8))
    else:
        parts = [task(*call) for call in calls]
    for part in parts:
        for key, (loss, count) in part.items():
            totals[key][0] += loss
            totals[key][1] += count
    return totals


def mean(totals, key) -> float | None:
    loss, count = totals.get(key, (0.0, 0))
    return loss / count if count else None


def report(totals, games: int, pool: int, elapsed: float, source: str = "heuristic self-play games") -> str:
    lines = [f"{games} {source}, inference pool {pool}, {elapsed:.0f} s", ""]
    for role, whose, title in (("defenders", "declarer", "defenders, on the declarer's cards"),
                               ("defenders", "all", "defenders, all hidden cards"),
                               ("declarer", "all", "declarer, all hidden cards")):
        lines.append(f"Mean log-loss per hidden card: {title}")
        lines.append("")
        lines.append("| trick | " + " | ".join(SAMPLERS) + " | inference vs informed |")
        lines.append("| ---: | " + " | ".join("---:" for _ in SAMPLERS) + " | ---: |")
        for trick in range(1, 11):
            values = [mean(totals, (s, role, trick, whose)) for s in SAMPLERS]
            if values[1] is None:
                continue
            change = f"{100 * (values[2] / values[1] - 1):+.1f} %" if values[1] else "–"
            lines.append(f"| {trick} | " + " | ".join(f"{v:.3f}" for v in values) + f" | {change} |")
        lines.append("")
    informed = mean(totals, ("informed", "defenders", 1, "declarer"))
    inferred = mean(totals, ("inference", "defenders", 1, "declarer"))
    if informed and inferred is not None and source == "heuristic self-play games":  # the goal's setting
        lines.append(f"Goal (defenders on the declarer's cards at trick 1, ≥ 20 % below informed): "
                     f"{100 * (1 - inferred / informed):.1f} % below "
                     f"({'reached' if inferred <= 0.8 * informed else 'missed'})")
    return "\n".join(lines)


def parse_tricks(text: str) -> tuple[int, ...]:
    """"1", "1-3" or "1,4-5" -> the trick numbers (1 to 10)."""
    tricks: set[int] = set()
    for part in text.split(","):
        first, _, last = part.strip().partition("-")
        try:
            low, high = int(first), int(last or first)
        except ValueError:
            raise ValueError(f"tricks must be numbers or ranges like 1-3, not {text!r}") from None
        if not 1 <= low <= high <= 10:
            raise ValueError(f"tricks run from 1 to 10, not {part.strip()!r}")
        tricks.update(range(low, high + 1))
    return tuple(sorted(tricks))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pool", type=int, default=pool_size(100))
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--tricks", default="1-10",
                        help="the tricks whose card decisions are measured, e.g. 1 or 1-3 (default 1-10)")
    parser.add_argument("--records", help="measure on the first --games games of these records (e.g. a "
                                           "tournament's games.sgf) instead of heuristic self-play")
    parser.add_argument("--json", action="store_true", help="one JSON object per (sampler, role, trick, cards)")
    args = parser.parse_args(argv)
    try:
        tricks = parse_tricks(args.tricks)
    except ValueError as exc:
        parser.error(str(exc))
    records = None
    if args.records:
        from ..record import format_record, read_records

        try:
            found, errors = read_records(args.records)
        except OSError as exc:
            parser.error(f"cannot read {args.records}: {exc.strerror}")
        if errors:
            print(f"skipped {len(errors)} malformed record(s); the first: {errors[0]}", file=sys.stderr)
        records = [format_record(r) for r in found[:args.games]]
    start = time.perf_counter()
    totals = measure(args.games, args.seed, args.pool, args.workers, tricks, records)
    if args.json:
        for (sampler, role, trick, whose), (loss, count) in sorted(totals.items()):
            print(json.dumps({"sampler": sampler, "role": role, "trick": trick, "cards": whose,
                              "log_loss": loss / count, "hidden_cards": count}))
    else:
        source = "heuristic self-play games" if records is None else f"recorded games of {args.records}"
        games = args.games if records is None else len(records)
        print(report(totals, games, args.pool, time.perf_counter() - start, source))
    return 0


if __name__ == "__main__":
    sys.exit(main())
