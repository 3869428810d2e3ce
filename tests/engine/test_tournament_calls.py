"""Every tournament shows how each player's Kontra and Re turned out: counted per spec from
the games' own records, in the results, the CSV, the journal and the printed table."""

import csv
import json
import subprocess
import sys

from engine.game import Kontra, Re
from engine.house_rules import PUB
from engine.record import parse_record
from engine.tournament import generate_deals, read_journal, run_tournament

SPECS = ["heuristic", "heuristic:calls=off", "random"]


def _counted_from_records(run):
    """Per spec: defended games, Kontras, defenders' wins after them, Res, declarer's wins after them."""
    distinct = list(dict.fromkeys(run.specs))
    counts = {s: [0, 0, 0, 0, 0] for s in distinct}
    for outcome in run.outcomes:
        state = parse_record(outcome.record).replay()
        if state.declaration is None or state.declarer is None:
            continue
        calls = {type(move): seat for seat, move in state.moves if isinstance(move, (Kontra, Re))}
        for seat, spec_index in enumerate(outcome.arrangement):
            row = counts[distinct[spec_index]]
            row[0] += seat != state.declarer
            if calls.get(Kontra) == seat:
                row[1] += 1
                row[2] += not state.result().won
            if calls.get(Re) == seat:
                row[3] += 1
                row[4] += state.result().won
    return counts


def test_call_counts_agree_with_the_records_and_calls_off_never_calls(tmp_path):
    run = run_tournament(SPECS, generate_deals(12, 3), 3, rules=PUB, journal_dir=tmp_path)
    results = run.results()
    expected = _counted_from_records(run)
    for row in results["players"]:
        assert [row["defended"], row["kontra"], row["kontra_defenders_won"], row["re"],
                row["re_declarer_won"]] == expected[row["spec"]]
        assert row["kontra_share"] == (row["kontra"] / row["defended"] if row["defended"] else 0.0)
    by_spec = {row["spec"]: row for row in results["players"]}
    assert by_spec["heuristic:calls=off"]["kontra"] == by_spec["heuristic:calls=off"]["re"] == 0
    assert by_spec["random"]["kontra"] > 0  # the random player calls at random: the counts see calls
    # a resumed run reads the same counts from its journal
    again = read_journal(tmp_path)
    assert sorted(o.seats[0].kontra for o in again.outcomes) == sorted(o.seats[0].kontra for o in run.outcomes)


def test_a_journal_written_before_the_call_counts_gets_them_from_the_records(tmp_path):
    run = run_tournament(SPECS, generate_deals(6, 4), 4, rules=PUB, journal_dir=tmp_path)
    journal = tmp_path / "journal.jsonl"
    lines = journal.read_text().splitlines()
    old = [lines[0]]
    for line in lines[1:]:
        entry = json.loads(line)
        for game in entry["games"]:
            for seat in game["seats"]:
                for key in ("defended", "kontra", "re"):
                    del seat[key]
        old.append(json.dumps(entry))
    journal.write_text("\n".join(old) + "\n")
    resumed = read_journal(tmp_path)
    assert ([[(s.defended, s.kontra, s.re) for s in o.seats] for o in sorted(resumed.outcomes, key=_key)]
            == [[(s.defended, s.kontra, s.re) for s in o.seats] for o in sorted(run.outcomes, key=_key)])


def _key(outcome):
    return outcome.deal_index, outcome.arrangement


def test_the_cli_prints_the_calls_and_writes_them_to_the_csv(tmp_path):
    out = tmp_path / "run"
    proc = subprocess.run(
        [sys.executable, "-m", "skat_tui.cli", "tournament", "--players", "heuristic,random,random", "--deals", "4",
         "--seed", "2", "--workers", "1", "--rules", "pub", "--out", str(out)],
        capture_output=True, text=True,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Kontra and Re" in proc.stdout and "defended" in proc.stdout
    rows = list(csv.DictReader((out / "results.csv").open()))
    assert {"defended", "kontra", "kontra_share", "kontra_defenders_won", "re", "re_declarer_won"} <= set(rows[0])
    results = json.loads((out / "results.json").read_text())
    assert sum(r["kontra"] for r in results["players"]) == sum(int(r["kontra"]) for r in rows)
