"""The heuristic's card play of this checkout against an earlier revision's, on the same deals.

``python3 -m engine.tools.policy_ab REV --deals 2000`` plays every deal in the
three seat arrangements of one heuristic with this checkout's card play
against two with the card play of ``engine/policy/heuristic_core.py`` at git
revision ``REV``, and prints the paired difference per game (new − old), as
``skat tournament`` pairs two specs: the check that a change of the policy
loses nothing in our own tournament.

``--declarer DEFENDERS`` measures the declarer's card play alone: each
deal is bid and declared by heuristic players, then played twice from the
same contract, the declarer's cards once from each policy, the defenders'
from ``DEFENDERS`` (a player spec, e.g. ``heuristic`` or
``mcu:simulations=100``); it prints the declarer's win rate with each and
the paired Seeger-Fabian difference per declared game, by game type.

Bidding, discard and declaration are the same in both (they are
``engine.policy.hand_eval``'s, not the card policy's).
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

from ..game import Phase
from ..players.heuristic import HeuristicPlayer
from ..players.registry import make_player
from ..rules import GameType
from ..series import deal_game, finish_game
from ..tournament import seed_for, arrangements, generate_deals, mean_ci, play_tournament_game

POLICY_PATH = "engine/policy/heuristic_core.py"


def load_policy(revision: str, folder: Path):
    """The heuristic core as it was at ``revision``, imported from a copy in ``folder``
    (numba compiles it once and caches it beside the copy)."""
    root = Path(__file__).resolve().parents[2]
    source = subprocess.run(["git", "-C", str(root), "show", f"{revision}:{POLICY_PATH}"],
                            capture_output=True, text=True)
    if source.returncode != 0:
        raise SystemExit(f"policy_ab: cannot read {POLICY_PATH} at {revision!r}: {source.stderr.strip()}")
    path = folder / "heuristic_core_earlier.py"
    path.write_text(source.stdout)
    spec = importlib.util.spec_from_file_location("heuristic_core_earlier", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _heuristic(policy, seed: int) -> HeuristicPlayer:
    player = HeuristicPlayer(seed)
    if policy is not None:
        player.policy = policy
    return player


def tournament(old_policy, deal_count: int, seed: int) -> tuple[float, float, int]:
    """New − old Seeger-Fabian per game, paired by deal, over the arrangements of (new, old, old)."""
    labels = ["new", "old", "old"]
    diffs = []
    for index, deal in enumerate(generate_deals(deal_count, seed)):
        scores = {0: [], 1: []}
        for arrangement in arrangements(labels):
            # seeded by seat, not by arrangement: two equal policies play the very same games
            players = [_heuristic(old_policy if label else None, seed_for(seed, index, seat))
                       for seat, label in enumerate(arrangement)]
            result = play_tournament_game(deal, players).result()
            by_seat = result.scores_by_seat()[1] if result is not None else (0, 0, 0)
            for seat, label in enumerate(arrangement):
                scores[label].append(by_seat[seat])
        diffs.append(sum(scores[0]) / len(scores[0]) - sum(scores[1]) / len(scores[1]))
    mean, ci = mean_ci(diffs)
    return mean, ci, len(diffs)


def declarer_only(old_policy, deal_count: int, seed: int, defenders: str) -> dict:
    """Each declared suit or grand game played from its contract with each policy's declarer."""
    won = {"new": 0, "old": 0}
    by_game: dict[str, list[int]] = defaultdict(list)
    for index, deal in enumerate(generate_deals(deal_count, seed)):
        bidders = [_heuristic(None, seed_for(seed, index, seat)) for seat in range(3)]
        contract = finish_game(deal_game(deal), bidders, until=lambda state: state.phase == Phase.PLAY)
        if contract.is_over or contract.declaration.game == GameType.NULL:
            continue
        declarer = contract.declarer
        score = {}
        for label, policy in (("new", None), ("old", old_policy)):
            players = [_heuristic(policy, seed_for(seed, index, "declarer")) if seat == declarer
                       else make_player(defenders, seed_for(seed, index, seat)) for seat in range(3)]
            result = finish_game(contract.copy(), players).result()
            won[label] += result.won
            score[label] = result.seeger_fabian()[declarer]
        by_game[contract.declaration.game.name.lower()].append(score["new"] - score["old"])
    every = [d for diffs in by_game.values() for d in diffs]
    return {"games": len(every), "won": won, "difference": mean_ci(every),
            "by_game": {game: mean_ci(diffs) + (len(diffs),) for game, diffs in sorted(by_game.items())}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("revision", help="the git revision whose heuristic card play to compare with, e.g. HEAD~1")
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--declarer", metavar="DEFENDERS",
                        help="compare the declarer's card play only, against these defenders (a player spec)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="policy-ab-") as folder:
        old = load_policy(args.revision, Path(folder))
        if args.declarer:
            make_player(args.declarer, 0)  # a bad spec fails before any game
            out = declarer_only(old, args.deals, args.seed, args.declarer)
            games = out["games"]
            mean, ci = out["difference"]
            print(f"{games} declared suit and grand games, defenders {args.declarer}")
            print(f"declarer won: this checkout {out['won']['new'] / games:.1%}, "
                  f"{args.revision} {out['won']['old'] / games:.1%}")
            print(f"new − old: {mean:+.2f} ± {ci:.2f} Seeger-Fabian per declared game")
            for game, (m, c, n) in out["by_game"].items():
                print(f"  {game:9} {n:5} games  {m:+.2f} ± {c:.2f}")
        else:
            mean, ci, deals = tournament(old, args.deals, args.seed)
            print(f"heuristic new − {args.revision}: {mean:+.2f} ± {ci:.2f} Seeger-Fabian per game, "
                  f"paired over {deals} deals (every arrangement of one new against two old)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
