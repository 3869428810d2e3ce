"""engine.tools.policy_ab: an earlier revision's heuristic card play against this checkout's."""

import subprocess
from pathlib import Path

import pytest

from engine.tools import policy_ab

ROOT = Path(__file__).resolve().parents[2]


def _committed_policy_is_the_working_one() -> bool:
    probe = subprocess.run(["git", "-C", str(ROOT), "diff", "--quiet", "HEAD", "--", policy_ab.POLICY_PATH],
                           capture_output=True)
    return probe.returncode == 0


pytestmark = pytest.mark.skipif(not _committed_policy_is_the_working_one(),
                                reason="needs a git checkout whose heuristic core is committed")


@pytest.fixture(scope="module")
def same_policy(tmp_path_factory):
    return policy_ab.load_policy("HEAD", tmp_path_factory.mktemp("policy"))


def test_the_same_policy_against_itself_is_level_in_every_arrangement(same_policy):
    mean, _, deals = policy_ab.tournament(same_policy, 4, seed=3)
    assert deals == 4
    assert mean == 0.0


def test_the_same_declarer_play_wins_the_same_games(same_policy):
    out = policy_ab.declarer_only(same_policy, 6, seed=3, defenders="heuristic")
    assert out["games"] > 0
    assert out["won"]["new"] == out["won"]["old"]
    assert out["difference"][0] == 0.0


def test_an_unknown_revision_is_refused_with_the_reason(tmp_path):
    with pytest.raises(SystemExit, match="cannot read engine/policy/heuristic_core.py at 'no-such-rev'"):
        policy_ab.load_policy("no-such-rev", tmp_path)
