"""engine.tools.policy_ab: an earlier revision's heuristic card play (and hand evaluation)
against this checkout's."""

import subprocess
from pathlib import Path

import pytest

from engine.cards import CardSet
from engine.players.registry import make_player
from engine.tools import policy_ab
from engine.tournament import generate_deals, play_tournament_game, seed_for

ROOT = Path(__file__).resolve().parents[2]


def _committed_policy_is_the_working_one() -> bool:
    probe = subprocess.run(["git", "-C", str(ROOT), "diff", "--quiet", "HEAD", "--", policy_ab.POLICY_PATH,
                            policy_ab.HAND_EVAL_PATH], capture_output=True)
    return probe.returncode == 0


pytestmark = pytest.mark.skipif(not _committed_policy_is_the_working_one(),
                                reason="needs a git checkout whose heuristic core and hand evaluation are committed")


@pytest.fixture(scope="module")
def same_policy(tmp_path_factory):
    folder = tmp_path_factory.mktemp("policy")
    return policy_ab.Earlier(policy_ab.load_policy("HEAD", folder), policy_ab.load_hand_eval("HEAD", folder))


def test_the_same_policy_against_itself_is_level_in_every_arrangement(same_policy):
    mean, _, deals = policy_ab.tournament(same_policy, 4, seed=3)
    assert deals == 4
    assert mean == 0.0


def test_the_old_players_bid_with_the_earlier_hand_evaluation(same_policy):
    player = policy_ab._heuristic(same_policy, 1)
    assert player.hand_eval is same_policy.hand_eval and player.policy is same_policy.policy
    assert policy_ab._heuristic(policy_ab.Earlier(same_policy.policy), 1).hand_eval is not same_policy.hand_eval


def test_the_hand_evaluation_cannot_differ_from_the_same_contract(capsys):
    with pytest.raises(SystemExit):
        policy_ab.main(["HEAD", "--hand-eval", "--declarer", "heuristic"])
    assert "compares card play only" in capsys.readouterr().err


def test_the_same_declarer_play_wins_the_same_games(same_policy):
    out = policy_ab.declarer_only(same_policy, 6, seed=3, defenders="heuristic")
    assert out["games"] > 0
    assert out["won"]["new"] == out["won"]["old"]
    assert out["difference"][0] == 0.0


def test_an_unknown_revision_is_refused_with_the_reason(tmp_path):
    with pytest.raises(SystemExit, match="cannot read engine/policy/heuristic_core.py at 'no-such-rev'"):
        policy_ab.load_policy("no-such-rev", tmp_path)


def _every_arrangement(deal, players_for) -> float:
    """New − old Seeger-Fabian per game on one deal, the new player in each seat in turn
    (``players_for(new_seat)``), every game played in full."""
    new, olds = [], []
    for new_seat in range(3):
        result = play_tournament_game(deal, players_for(new_seat)).result()
        by_seat = result.scores_by_seat()[1] if result is not None else (0, 0, 0)
        new.append(by_seat[new_seat])
        olds += [by_seat[seat] for seat in range(3) if seat != new_seat]
    return sum(new) / 3 - sum(olds) / 6


def test_a_searcher_against_itself_changes_no_contract(same_policy):
    mean, _, deals, played = policy_ab.searcher_tournament(same_policy, "mcu:simulations=5", 6, seed=3)
    assert (mean, deals, played) == (0.0, 6, 0)


def test_the_searchers_skipped_deals_are_the_games_every_arrangement_plays(tmp_path):
    # an earlier hand evaluation without the grand's after terms and without the grand
    # habit: some declarations differ
    earlier = policy_ab.load_hand_eval("HEAD", tmp_path)
    for name in ("GRAND_AFTER_JACK_WEIGHT", "GRAND_AFTER_ACE_WEIGHT", "GRAND_AFTER_CLUB_JACK_WEIGHT"):
        setattr(earlier, name, 0.0)
    earlier.CURVES = {**earlier.CURVES, ("grand", "after"): earlier.Curve(6.00, 1.00)}
    earlier.prefers_grand = lambda cards, seat: False
    old = policy_ab.Earlier(policy_ab.load_policy("HEAD", tmp_path), earlier)
    spec, deals, seed = "mcu:simulations=5", 40, 4
    mean, _, count, played = policy_ab.searcher_tournament(old, spec, deals, seed)
    assert count == deals and 0 < played < deals

    def players(index, new_seat):
        made = [make_player(spec, seed_for(seed, index, seat)) for seat in range(3)]
        for seat, player in enumerate(made):
            if seat != new_seat:
                player.before_play.hand_eval = earlier
        return made

    full = [_every_arrangement(deal, lambda new_seat: players(index, new_seat))
            for index, deal in enumerate(generate_deals(deals, seed))]
    assert mean == pytest.approx(sum(full) / deals)


def test_a_bid_chance_against_another_skips_only_the_games_every_arrangement_plays_alike():
    new_spec, old_spec, deals, seed = "mcu:simulations=5,bid_chance=0.3", "mcu:simulations=5", 30, 5
    mean, _, count, played = policy_ab.searcher_tournament(None, new_spec, deals, seed, old_spec)
    assert count == deals and 0 < played < deals

    def players(index, new_seat):
        return [make_player(new_spec if seat == new_seat else old_spec, seed_for(seed, index, seat))
                for seat in range(3)]

    full = [_every_arrangement(deal, lambda new_seat: players(index, new_seat))
            for index, deal in enumerate(generate_deals(deals, seed))]
    assert mean == pytest.approx(sum(full) / deals)


def test_two_specs_must_differ_only_before_the_card_play(capsys):
    with pytest.raises(SystemExit):
        policy_ab.main(["--searcher", "mcu:simulations=5,bid_chance=0.3", "--against", "mcu:simulations=6"])
    assert "must differ only in bid_chance" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        policy_ab.main(["HEAD", "--searcher", "mcu:simulations=5,bid_chance=0.3", "--against", "mcu:simulations=5"])
    assert "no revision" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        policy_ab.main([])
    assert "give the revision" in capsys.readouterr().err


def test_the_earlier_play_outs_play_the_earlier_policy(same_policy, tmp_path):
    import engine.policy as package
    from engine.policy import heuristic_core, playout, playout_core
    earlier = policy_ab.load_playout("HEAD", tmp_path, same_policy.policy)
    assert earlier is not playout and earlier.heuristic_core is same_policy.policy
    assert earlier.core.choose_internal is same_policy.policy.choose_internal
    # this checkout's modules are back where every other import finds them
    assert package.heuristic_core is heuristic_core and package.playout_core is playout_core
    assert playout_core.choose_internal is heuristic_core.choose_internal


def test_a_searcher_against_its_own_play_outs_is_level(same_policy, tmp_path):
    old = policy_ab.Earlier(same_policy.policy,
                            playout=policy_ab.load_playout("HEAD", tmp_path, same_policy.policy))
    assert policy_ab.tournament(old, 3, seed=2, searcher="mcu:simulations=5") == (0.0, 0.0, 3)


def test_a_searcher_needs_play_outs_or_the_hand_evaluation_and_a_card_play_that_ignores_it(capsys):
    with pytest.raises(SystemExit):
        policy_ab.main(["HEAD", "--searcher", "pimc:simulations=5"])
    assert "give --hand-eval" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        policy_ab.main(["HEAD", "--hand-eval", "--searcher", "mcu:simulations=5,sampler=inference"])
    assert "sampler=inference" in capsys.readouterr().err


def test_the_earlier_hand_evaluation_reads_the_discard_habits_of_its_revision(tmp_path):
    from engine.policy import hand_eval
    earlier = policy_ab.load_hand_eval("HEAD", tmp_path)
    assert earlier.DISCARD_HABITS == hand_eval.DISCARD_HABITS
    assert Path(earlier.DISCARD_HABITS_PATH).is_relative_to(tmp_path)


def test_an_earlier_hand_evaluation_without_the_grand_habit_chooses_by_expected_scores():
    from types import SimpleNamespace
    from engine.policy import hand_eval
    twelve = CardSet.from_str("DT.DJ.DA.H7.HA.S9.ST.SJ.C7.C8.CQ.CA").mask
    options = list(hand_eval.declaration_options(twelve, 0))
    earlier = policy_ab.taking_twelve_cards(SimpleNamespace(choose_best=lambda options, bid: max(
        options, key=lambda o: (o.expected, o.value))))
    assert earlier.choose_best(options, 18, twelve, 0) == hand_eval.choose_best(options, 18)
    assert hand_eval.choose_best(options, 18, twelve, 0) != hand_eval.choose_best(options, 18)
    assert policy_ab.taking_twelve_cards(hand_eval) is hand_eval and hand_eval.choose_best.__module__ == hand_eval.__name__
