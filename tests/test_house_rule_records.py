"""The record tools on house-rule records (tests/data/house-rules.sgf, docs/house-rules.md)."""

import json
import os
import subprocess
import sys
from pathlib import Path

from engine.record import read_records, summary

HOUSE_RULES = Path(__file__).parent / "data" / "house-rules.sgf"


def skat(*args):
    return subprocess.run([sys.executable, "-m", "skat_tui.cli", *args], capture_output=True, text=True,
                          env={**os.environ, "COLUMNS": "100"}, timeout=600)


def test_the_house_rule_records_hold_pushes_a_jungfrau_and_a_grand_hand_escape():
    records, errors = read_records(HOUSE_RULES)
    assert not errors
    lines = {r.id: summary(r) for r in records}
    assert all("result_mismatch" not in line for line in lines.values())
    assert lines["hr-jungfrau"]["game"] == "ramsch" and lines["hr-jungfrau"]["jungfrau"] == 2
    assert lines["hr-pushes"]["pushes"] == 2 and lines["hr-pushes"]["values"] == [-252, 0, 0]
    assert lines["hr-pickups"]["pushes"] == 0 and lines["hr-pickups"]["losers"] == [0]
    escape = lines["hr-grand-hand"]
    assert escape["declarer"] == 1 and escape["game"] != "ramsch" and escape["rules"]["ramsch"]


def test_replay_json_reports_every_house_rule_record():
    proc = skat("replay", "--json", str(HOUSE_RULES))
    assert proc.returncode == 0 and not proc.stderr, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [line["id"] for line in lines] == ["hr-jungfrau", "hr-pushes", "hr-pickups", "hr-grand-hand"]
    assert [line["declarer"] for line in lines] == [None, None, None, 1]
    assert lines[0]["values"] == [0, -744, 0] and lines[0]["multiplier"] == 8
