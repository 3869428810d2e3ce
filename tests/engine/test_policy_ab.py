"""engine.tools.policy_ab: an earlier revision's heuristic card play (and hand evaluation)
against this checkout's."""

import subprocess
from pathlib import Path

import pytest

from engine.tools import policy_ab

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
