"""Every tournament shows how the games ended in which a named rule of a player chose a card
(the near-tie rules of MCU and PIMC): per spec in the results, the journal and the printed table."""

import json
import os
import subprocess
import sys

import pytest

from engine.players.montecarlo import CARD_RULES
from engine.tournament import generate_deals, read_journal, run_tournament

pytestmark = pytest.mark.usefixtures("compiled_core")

SPECS = ["mcu:simulations=8", "mcu:simulations=8,declarer_near=lowest", "heuristic"]


def test_rule_counts_follow_the_seats_role_and_sum_up_per_spec(tmp_path):
    run = run_tournament(SPECS, generate_deals(6, 5), 5, journal_dir=tmp_path)
    expected = {spec: {} for spec in SPECS}
    for outcome in run.outcomes:
        for seat in outcome.seats:
            declared = seat.declarer_won or seat.declarer_lost
            for rule, uses in seat.rule_uses.items():
                assert rule in CARD_RULES and uses > 0
                # a declarer's rule in the games it declared, a defender's in the games it defended
                assert declared if rule.startswith("declarer_") else seat.defended
                tally = expected[SPECS[seat.spec]].setdefault(rule, {"cards": 0, "games": 0, "won": 0,
                                                                     "seeger_fabian": 0})
                tally["cards"] += uses
                tally["games"] += 1
                tally["won"] += int(bool(seat.declarer_won) or (bool(seat.defended) and outcome.won is False))
                tally["seeger_fabian"] += seat.seeger_fabian
    rows = {row["spec"]: row for row in run.results()["players"]}
    assert {spec: rows[spec]["rules"] for spec in SPECS} == expected
    assert rows["heuristic"]["rules"] == {}  # no rule of its own chose a card
    assert "declarer_near_heuristic" not in rows["mcu:simulations=8,declarer_near=lowest"]["rules"]
    assert "defender_near_lowest" in rows["mcu:simulations=8"]["rules"]  # these deals have near-ties
    # a resumed run reads the same counts from its journal
    again = read_journal(tmp_path)
    assert (sorted(json.dumps(s.rule_uses, sort_keys=True) for o in again.outcomes for s in o.seats)
            == sorted(json.dumps(s.rule_uses, sort_keys=True) for o in run.outcomes for s in o.seats))


def test_the_cli_prints_the_cards_chosen_by_a_rule(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "skat_tui.cli", "tournament", "--players", ",".join(SPECS), "--deals", "2",
         "--seed", "5", "--workers", "1", "--out", str(tmp_path / "run")],
        capture_output=True, text=True, env={**os.environ, "COLUMNS": "200"},  # one line a row
    )
    assert proc.returncode == 0, proc.stderr
    assert "Cards chosen by a rule" in proc.stdout
    assert "defender's near-tie: the lowest card" in proc.stdout
