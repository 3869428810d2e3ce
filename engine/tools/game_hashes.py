"""Fingerprints of seeded games, to show that a refactoring changed no decision.

``python3 -m engine.tools.game_hashes`` plays 300 heuristic games, 54 games
of MCU and PIMC at 20 simulations (9 deals in every seat arrangement with a
heuristic third player) and 24 games of MCU and PIMC at 10 simulations with
``sampler=inference`` (4 deals) from fixed seeds and prints one SHA-256 per
group over the games' records.  Run it before and after a change: equal hashes
mean every bid, discard, declaration and card stayed the same (the inference
group: also every pool the inference sampler drew and weighed).
"""

from __future__ import annotations

import argparse
import hashlib
import json

from ..tournament import generate_deals, play_deal

HEURISTIC_SPECS = ["heuristic", "heuristic", "heuristic"]
SEARCH_SPECS = ["mcu:simulations=20", "pimc:simulations=20", "heuristic"]
INFERENCE_SPECS = ["mcu:simulations=10,sampler=inference", "pimc:simulations=10,sampler=inference", "heuristic"]


def group_hash(specs: list[str], deal_count: int, seed: int) -> tuple[str, int]:
    """SHA-256 over the records of every game of ``deal_count`` deals, and the game count."""
    digest = hashlib.sha256()
    games = 0
    for index, deal in enumerate(generate_deals(deal_count, seed)):
        for outcome in play_deal(index, deal.order(), specs, seed):
            digest.update(outcome.record.encode())
            digest.update(b"\n")
            games += 1
    return digest.hexdigest(), games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--heuristic-deals", type=int, default=300)
    parser.add_argument("--search-deals", type=int, default=9)
    parser.add_argument("--inference-deals", type=int, default=4)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", action="store_true", help="one JSON object instead of lines")
    args = parser.parse_args(argv)
    heuristic, heuristic_games = group_hash(HEURISTIC_SPECS, args.heuristic_deals, args.seed)
    search, search_games = group_hash(SEARCH_SPECS, args.search_deals, args.seed)
    inference, inference_games = group_hash(INFERENCE_SPECS, args.inference_deals, args.seed)
    if args.json:
        print(json.dumps({"heuristic": heuristic, "heuristic_games": heuristic_games,
                          "search": search, "search_games": search_games,
                          "inference": inference, "inference_games": inference_games}))
    else:
        print(f"heuristic            {heuristic_games:4d} games  {heuristic}")
        print(f"mcu/pimc             {search_games:4d} games  {search}")
        print(f"mcu/pimc inference   {inference_games:4d} games  {inference}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
