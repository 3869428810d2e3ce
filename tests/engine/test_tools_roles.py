"""engine.tools.roles (a tournament split by who declared) and engine.tools.decision_time."""

from engine.tools.decision_time import decision_times, positions
from engine.tools.roles import role_figures
from skat_tui import cli


def test_roles_split_a_runs_games_into_declared_and_defended(tmp_path, capsys):
    out = tmp_path / "run"
    assert cli.main(["tournament", "--players", "heuristic,random,random", "--deals", "3", "--seed", "2",
                     "--workers", "1", "--out", str(out)]) == 0
    capsys.readouterr()
    rows = role_figures(str(out))
    assert [r.spec for r in rows] == ["heuristic", "random"]
    declared = sum(r.declared[2] for r in rows)
    defended = sum(r.defended[2] for r in rows)
    assert declared > 0 and defended == 2 * declared  # two defenders to each declarer
    assert all(0 <= r.declarer_won <= 1 for r in rows)


def test_decision_times_are_measured_on_positions_with_a_choice():
    states = positions(3)
    assert len(states) == 3 and all(s.legal_cards().bit_count() > 1 for s in states)
    wall, cpu = decision_times("mcts:simulations=50", states)
    assert wall > 0 and cpu >= 0
