"""The heuristic's card play of this checkout against an earlier revision's, on the same deals.

``python3 -m engine.tools.policy_ab REV --deals 2000`` plays every deal in the
three seat arrangements of one heuristic with this checkout's card play
against two with the card play of ``engine/policy/heuristic_core.py`` at git
revision ``REV``, and prints the paired difference per game (new − old), as
``skat tournament`` pairs two specs: the check that a change of the policy
loses nothing in our own tournament.  Its heuristic players play every card by
the rules (``endgame=0``, no endgame search), so all ten tricks test the policy.

``--hand-eval`` gives the old players ``engine/policy/hand_eval.py`` of ``REV``
as well (bidding, skat, discard, declaration): the check for a change of the
hand evaluation.

``--searcher SPEC`` (without ``--hand-eval``) plays a player that searches by
heuristic play-outs (``mcu:simulations=100``): the old players' play-outs
(and fallback card play) take the revision's heuristic core, the check that a
change of the card play loses nothing for MCU as well.

``--hand-eval --searcher SPEC`` makes the players a searching player (e.g.
``mcu:simulations=100``), the old ones bidding, discarding and declaring with
the revision's hand evaluation.  Its card play does not read the hand
evaluation, so a deal whose contract (declarer, bid, game, discard) comes
out the same with the new player in every seat is the same game in every
arrangement: it counts 0 and is not played (``sampler=inference`` reads the
hand evaluation in its card play and is refused).

``--searcher NEW --against OLD`` (no revision) is the same check for two
specs of one searching player of this checkout that differ only before the
card play (``bid_chance``): one NEW against two OLD, the deals whose
contract NEW leaves unchanged counted 0 and not played.

``--declarer DEFENDERS`` measures the declarer's card play alone: each
deal is bid and declared by heuristic players, then played twice from the
same contract, the declarer's cards once from each policy, the defenders'
from ``DEFENDERS`` (a player spec, e.g. ``heuristic`` or
``mcu:simulations=100``); it prints the declarer's win rate with each and
the paired Seeger-Fabian difference per declared game, by game type.

Without ``--hand-eval`` bidding, discard and declaration are the same in
both (they are ``engine.policy.hand_eval``'s, not the card policy's).
"""

from __future__ import annotations

import argparse
import importlib.util
import inspect
import subprocess
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from ..game import GameState, Phase
from ..players.heuristic import HeuristicPlayer
from ..players.registry import make_player, parse_spec
from ..rules import GameType
from ..series import deal_game, finish_game
from ..tournament import seed_for, arrangements, generate_deals, mean_ci, play_tournament_game

POLICY_PATH = "engine/policy/heuristic_core.py"
HAND_EVAL_PATH = "engine/policy/hand_eval.py"
HABIT_PATHS = ("engine/data/discard_habits.json", "engine/data/grand_habits.json")
PLAYOUT_CORE_PATH = "engine/policy/playout_core.py"
PLAYOUT_PATH = "engine/policy/playout.py"
# the spec parameters that act before the card play only (see ``--against``)
BEFORE_PLAY_PARAMS = frozenset({"bid_chance"})


def _git_show(revision: str, source_path: str) -> subprocess.CompletedProcess:
    root = Path(__file__).resolve().parents[2]
    return subprocess.run(["git", "-C", str(root), "show", f"{revision}:{source_path}"],
                          capture_output=True, text=True)


def _load_earlier(revision: str, folder: Path, source_path: str, module_name: str):
    """The module ``source_path`` as it was at ``revision``, imported from a copy in
    ``folder`` as ``module_name``."""
    source = _git_show(revision, source_path)
    if source.returncode != 0:
        raise SystemExit(f"policy_ab: cannot read {source_path} at {revision!r}: {source.stderr.strip()}")
    path = folder / (module_name.rpartition(".")[2] + ".py")
    path.write_text(source.stdout)
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def load_policy(revision: str, folder: Path):
    """The heuristic core as it was at ``revision`` (numba compiles it once and caches it
    beside the copy)."""
    return _load_earlier(revision, folder, POLICY_PATH, "heuristic_core_earlier")


def load_playout(revision: str, folder: Path, policy):
    """``engine.policy.playout`` as it was at ``revision``, its play-outs (and its
    ``playout_core``'s) made with the earlier heuristic core ``policy``."""
    package = sys.modules["engine.policy"]
    names = ("heuristic_core", "playout_core")
    saved = {name: (sys.modules[f"engine.policy.{name}"], getattr(package, name)) for name in names}

    def install(name: str, module) -> None:  # what the copies' relative imports find
        sys.modules[f"engine.policy.{name}"] = module
        setattr(package, name, module)

    try:
        install("heuristic_core", policy)
        install("playout_core", _load_earlier(revision, folder, PLAYOUT_CORE_PATH, "engine.policy.playout_core_earlier"))
        return _load_earlier(revision, folder, PLAYOUT_PATH, "engine.policy.playout_earlier")
    finally:
        for name, (module, attribute) in saved.items():
            sys.modules[f"engine.policy.{name}"] = module
            setattr(package, name, attribute)


def load_hand_eval(revision: str, folder: Path):
    """``engine.policy.hand_eval`` as it was at ``revision`` (named inside the package, so
    that its relative imports find this checkout's modules), with the habits of that
    revision where it had them, laid out beside it as in the package.  A revision before
    the grand habit chooses its game by expected scores alone, whatever twelve cards the
    player passes ``choose_best``."""
    for path in HABIT_PATHS:
        habits = _git_show(revision, path)
        if habits.returncode == 0:
            (folder / "data").mkdir(exist_ok=True)
            (folder / "data" / Path(path).name).write_text(habits.stdout)
    (folder / "policy").mkdir(exist_ok=True)
    return taking_twelve_cards(_load_earlier(revision, folder / "policy", HAND_EVAL_PATH,
                                             "engine.policy.hand_eval_earlier"))


def taking_twelve_cards(module):
    """``module`` (a hand evaluation) with a ``choose_best`` that takes the declarer's twelve
    cards and seat as today's does, ignoring them where it did not know the grand habit."""
    if "cards" not in inspect.signature(module.choose_best).parameters:
        by_expected = module.choose_best
        module.choose_best = lambda options, bid, cards=None, seat=0: by_expected(options, bid)
    return module


@dataclass(frozen=True)
class Earlier:
    """What an old player takes from the earlier revision."""

    policy: object
    hand_eval: object | None = None
    playout: object | None = None


def _heuristic(earlier: Earlier | None, seed: int) -> HeuristicPlayer:
    player = HeuristicPlayer(seed)  # no endgame search: the rules play every trick
    if earlier is not None:
        player.policy = earlier.policy
        if earlier.hand_eval is not None:
            player.hand_eval = earlier.hand_eval
    return player


def _rollout_searcher(spec: str, earlier: Earlier | None, seed: int):
    """A searching player whose play-outs (and fallback card play) are the earlier revision's."""
    player = make_player(spec, seed)
    if earlier is not None:
        player.playout = earlier.playout
        player.before_play.policy = earlier.policy
    return player


def tournament(earlier: Earlier, deal_count: int, seed: int, searcher: str | None = None) -> tuple[float, float, int]:
    """New − old Seeger-Fabian per game, paired by deal, over the arrangements of (new, old, old):
    heuristic players, or ``searcher`` players whose play-outs take the old card play."""
    labels = ["new", "old", "old"]
    make = partial(_rollout_searcher, searcher) if searcher else _heuristic
    diffs = []
    for index, deal in enumerate(generate_deals(deal_count, seed)):
        scores = {0: [], 1: []}
        for arrangement in arrangements(labels):
            # seeded by seat, not by arrangement: two equal policies play the very same games
            players = [make(earlier if label else None, seed_for(seed, index, seat))
                       for seat, label in enumerate(arrangement)]
            result = play_tournament_game(deal, players).result()
            by_seat = result.scores_by_seat()[1] if result is not None else (0, 0, 0)
            for seat, label in enumerate(arrangement):
                scores[label].append(by_seat[seat])
        diffs.append(sum(scores[0]) / len(scores[0]) - sum(scores[1]) / len(scores[1]))
    mean, ci = mean_ci(diffs)
    return mean, ci, len(diffs)


def _contract(state: GameState) -> tuple:
    if state.declaration is None:
        return (None,)
    return (state.declarer, state.bid, state.declaration, state.discard)


def searcher_tournament(earlier: Earlier | None, spec: str, deal_count: int, seed: int,
                        old_spec: str | None = None) -> tuple[float, float, int, int]:
    """``tournament`` with ``spec`` players against old players: ``old_spec`` players if given,
    and whose bidding, discard and declaration (their heuristic, ``before_play``) take the old
    hand evaluation if ``earlier`` is given; (mean, ci, deals, deals played)."""

    def players(new_seat: int | None, index: int) -> list:
        made = [make_player(spec if seat == new_seat or old_spec is None else old_spec, seed_for(seed, index, seat))
                for seat in range(3)]
        for seat, player in enumerate(made):
            if seat != new_seat and earlier is not None:
                player.before_play.hand_eval = earlier.hand_eval
        return made

    def contract(made: list, deal) -> tuple:
        before = [player.before_play for player in made]
        return _contract(finish_game(deal_game(deal), before, until=lambda state: state.phase == Phase.PLAY))

    def scores(made: list, deal) -> tuple:
        result = play_tournament_game(deal, made).result()
        return result.scores_by_seat()[1] if result is not None else (0, 0, 0)

    diffs, played = [], 0
    for index, deal in enumerate(generate_deals(deal_count, seed)):
        same = contract(players(None, index), deal)
        changed = [seat for seat in range(3) if contract(players(seat, index), deal) != same]
        if not changed:
            diffs.append(0.0)
            continue
        played += 1
        old_scores = scores(players(None, index), deal)
        new_total = old_total = 0.0
        for seat in range(3):  # the new player in each seat, as ``arrangements`` seats it
            by_seat = scores(players(seat, index), deal) if seat in changed else old_scores
            new_total += by_seat[seat]
            old_total += sum(by_seat[other] for other in range(3) if other != seat)
        diffs.append(new_total / 3 - old_total / 6)
    mean, ci = mean_ci(diffs)
    return mean, ci, len(diffs), played


def declarer_only(earlier: Earlier, deal_count: int, seed: int, defenders: str) -> dict:
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
        for label, policy in (("new", None), ("old", earlier)):
            players = [_heuristic(policy, seed_for(seed, index, "declarer")) if seat == declarer
                       else make_player(defenders, seed_for(seed, index, seat)) for seat in range(3)]
            result = finish_game(contract.copy(), players).result()
            won[label] += result.won
            score[label] = result.seeger_fabian()[declarer]
        by_game[contract.declaration.game.name.lower()].append(score["new"] - score["old"])
    every = [d for diffs in by_game.values() for d in diffs]
    return {"games": len(every), "won": won, "difference": mean_ci(every),
            "by_game": {game: mean_ci(diffs) + (len(diffs),) for game, diffs in sorted(by_game.items())}}


def _card_play(spec) -> tuple:
    """What of a spec acts in the card play: its kind and its other parameters."""
    return spec.kind, {key: value for key, value in spec.params.items() if key not in BEFORE_PLAY_PARAMS}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("revision", nargs="?",
                        help="the git revision whose heuristic card play to compare with, e.g. HEAD~1")
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--declarer", metavar="DEFENDERS",
                        help="compare the declarer's card play only, against these defenders (a player spec)")
    parser.add_argument("--hand-eval", action="store_true",
                        help="the old players' bidding, skat, discard and declaration from the revision too")
    parser.add_argument("--searcher", metavar="SPEC",
                        help="searching players instead of the heuristic: alone, MCU (e.g. mcu:simulations=100) with "
                             "the old players' play-outs from the revision; with --hand-eval, the revision's hand "
                             "evaluation; with --against, another spec")
    parser.add_argument("--against", metavar="OLD_SPEC",
                        help="instead of a revision: the --searcher spec against this one, which differs from it "
                             "only in " + ", ".join(sorted(BEFORE_PLAY_PARAMS)))
    args = parser.parse_args(argv)
    if args.against:
        if args.revision or args.hand_eval or args.declarer or not args.searcher:
            parser.error("--against compares two specs of this checkout: give --searcher SPEC and no revision, "
                         "--hand-eval or --declarer")
    elif not args.revision:
        parser.error("give the revision to compare with (or --searcher NEW --against OLD)")
    if args.hand_eval and args.declarer:
        parser.error("--declarer plays both from the same contract: it compares card play only")
    if args.searcher:
        if args.declarer:
            parser.error("--declarer compares the heuristic's declarer play: not with --searcher")
        try:
            probe = make_player(args.searcher, 0)
        except ValueError as error:
            parser.error(str(error))
        if not hasattr(probe, "before_play") or getattr(probe, "inference", False) or \
                getattr(probe, "bidding", "heuristic") != "heuristic":
            parser.error("--searcher needs a searching player with heuristic bidding and without "
                         "sampler=inference (its card play must not read the hand evaluation)")
        if not args.hand_eval and not args.against and not hasattr(probe, "playout"):
            parser.error("--searcher without --hand-eval compares the play-outs' card play: it needs a player "
                         "that searches by heuristic play-outs (mcu); give --hand-eval to compare the hand evaluation")
        if args.against:
            try:
                same_play = _card_play(parse_spec(args.searcher)) == _card_play(parse_spec(args.against))
            except ValueError as error:
                parser.error(str(error))
            if not same_play:
                parser.error(f"{args.searcher} and {args.against} must differ only in "
                             f"{', '.join(sorted(BEFORE_PLAY_PARAMS))}: a deal with the same contract is "
                             f"then the same game")
    if args.against:
        mean, ci, deals, played = searcher_tournament(None, args.searcher, args.deals, args.seed, args.against)
        print(f"{args.searcher} − {args.against}: {mean:+.2f} ± {ci:.2f} Seeger-Fabian per game, paired over "
              f"{deals} deals (every arrangement of one new against two old; {played} deals with a contract "
              f"that changes played)")
        return 0
    with tempfile.TemporaryDirectory(prefix="policy-ab-") as folder:
        old = Earlier(load_policy(args.revision, Path(folder)),
                      load_hand_eval(args.revision, Path(folder)) if args.hand_eval else None)
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
        elif args.searcher and not args.hand_eval:
            old = Earlier(old.policy, playout=load_playout(args.revision, Path(folder), old.policy))
            mean, ci, deals = tournament(old, args.deals, args.seed, args.searcher)
            print(f"{args.searcher} new − {args.revision} (play-outs' card play): {mean:+.2f} ± {ci:.2f} "
                  f"Seeger-Fabian per game, paired over {deals} deals (every arrangement of one new against two old)")
        elif args.searcher:
            mean, ci, deals, played = searcher_tournament(old, args.searcher, args.deals, args.seed)
            print(f"{args.searcher} new − {args.revision} (hand evaluation): {mean:+.2f} ± {ci:.2f} Seeger-Fabian "
                  f"per game, paired over {deals} deals (every arrangement of one new against two old; "
                  f"{played} deals with a contract that changes played)")
        else:
            mean, ci, deals = tournament(old, args.deals, args.seed)
            what = "card play and hand evaluation" if args.hand_eval else "card play"
            print(f"heuristic new − {args.revision} ({what}): {mean:+.2f} ± {ci:.2f} Seeger-Fabian per game, "
                  f"paired over {deals} deals (every arrangement of one new against two old)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
