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
    assert (lines["hr-kontra-re"]["kontra"], lines["hr-kontra-re"]["re"]) == (2, 1)
    escape = lines["hr-grand-hand"]
    assert escape["declarer"] == 1 and escape["game"] != "ramsch" and escape["rules"]["ramsch"]


def test_replay_json_reports_every_house_rule_record():
    proc = skat("replay", "--json", str(HOUSE_RULES))
    assert proc.returncode == 0 and not proc.stderr, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [line["id"] for line in lines] == ["hr-jungfrau", "hr-pushes", "hr-pickups", "hr-grand-hand",
                                              "hr-kontra-re"]
    assert [line["declarer"] for line in lines] == [None, None, None, 1, 1]
    assert lines[0]["values"] == [0, -744, 0] and lines[0]["multiplier"] == 8
    assert (lines[4]["kontra"], lines[4]["re"], lines[4]["value"]) == (2, 1, -288)


def test_solve_gives_a_ramsch_its_paranoid_values_and_refuses_a_threshold():
    proc = skat("solve", str(HOUSE_RULES), "--trick", "8", "--json")
    assert proc.returncode == 0, proc.stderr
    lines = {line["id"]: line for line in map(json.loads, proc.stdout.splitlines())}
    # rearhand ends with 13 card points after a heart, 39 after taking the trick with the ace of clubs
    assert lines["hr-pushes"] == {**lines["hr-pushes"], "game": "ramsch", "to_move": 2, "value": 13,
                                  "per_card": {"H9": 13, "HT": 13, "CA": 39}}
    assert "game" not in lines["hr-grand-hand"] and lines["hr-grand-hand"]["value"] == 93
    table = skat("solve", str(HOUSE_RULES), "--trick", "8")
    assert "Record hr-pushes · trick 8 · Ramsch · rearhand to move" in table.stdout
    proc = skat("solve", str(HOUSE_RULES), "--trick", "9", "--threshold", "30", "--json")
    assert proc.returncode == 1
    assert "record hr-pickups: a Ramsch has no declarer to reach a threshold" in proc.stderr
    assert [json.loads(line)["id"] for line in proc.stdout.splitlines()] == ["hr-grand-hand", "hr-kontra-re"]


def test_analyze_a_ramsch_card_and_a_skat_round_decision():
    proc = skat("analyze", str(HOUSE_RULES), "--id", "hr-jungfrau", "--simulations", "5", "--trick", "3")
    assert proc.returncode == 0, proc.stderr
    assert "Ramsch, every player for himself" in proc.stdout and "Ramsch, pushed 2×" in proc.stdout
    proc = skat("analyze", str(HOUSE_RULES), "--id", "hr-jungfrau", "--simulations", "5", "--move", "3")
    assert proc.returncode == 0, proc.stderr  # Ann's push: the skat round is decided by a rule
    assert "Record hr-jungfrau · move 3: ramsch skat" in proc.stdout and "without a search" in proc.stdout
    proc = skat("analyze", str(HOUSE_RULES), "--id", "hr-jungfrau", "--simulations", "5", "--move", "3", "--json")
    line = json.loads(proc.stdout)
    assert (line["seat"], line["analysis"]) == (0, None) and line["decision"] in ("push", "s", "GH")


def test_analyze_reaches_the_cards_of_a_grand_hand_escape():
    proc = skat("analyze", str(HOUSE_RULES), "--id", "hr-grand-hand", "--simulations", "5", "--trick", "2", "--json")
    assert proc.returncode == 0, proc.stderr
    line = json.loads(proc.stdout)
    assert line["trick"] == 2 and line["cards"]


def test_the_analysis_report_of_a_ramsch_position_names_no_declarer():
    from rich.console import Console

    from engine.analysis import Analysis
    from engine.positions import state_before_card
    from skat_tui.analysis_table import analysis_report

    records, _ = read_records(HOUSE_RULES)
    record = next(r for r in records if r.id == "hr-pushes")
    state = state_before_card(record, 3, 1)
    analysis = Analysis("mcu", state.to_move, (), (), None, 0, 0.0, None)
    console = Console(width=100, record=True)
    console.print(analysis_report(record, state, analysis, 3, 1))
    text = console.export_text()
    assert "Ramsch, every player for himself" in text and "Ramsch, pushed 2×" in text
    assert f"{state.points[0]}, middlehand (Bob) {state.points[1]}" in text and "declarer" not in text
