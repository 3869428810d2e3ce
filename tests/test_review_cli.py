"""`skat review`: tables, JSON lines, the cache beside the record, workers."""

import json
import os
import subprocess
import sys
from pathlib import Path

SAMPLES = Path(__file__).parent / "data" / "iss-samples.sgf"
PLANTED = Path(__file__).parent / "data" / "planted-blunder.sgf"


def skat(*args):
    return subprocess.run([sys.executable, "-m", "skat_tui.cli", *args], capture_output=True, text=True,
                          env={**os.environ, "COLUMNS": "100"}, timeout=600)


def test_review_json_is_one_line_per_decision_and_the_same_under_a_seed():
    args = ("review", str(SAMPLES), "--id", "684159", "--simulations", "10", "--seed", "3", "--json", "--no-cache")
    first, second = skat(*args), skat(*args)
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    lines = [json.loads(line) for line in first.stdout.splitlines()]
    contracts = sum(line["type"] == "contract" for line in lines)
    assert contracts >= 3  # the passes and the declarer's last bid, the skat, the discard
    assert [line["type"] for line in lines] == ["game"] + ["contract"] * contracts + ["decision"] * 30 + ["summary"]
    assert lines[0]["game"] == "Grand" and lines[0]["players"] == ["foo", "xskat:2", "xskat"]
    decision = lines[1 + contracts]
    assert {"trick", "seat", "chosen", "cards", "mark", "dd_loss_points", "view_loss_win"} <= set(decision)
    assert [s["decisions"] for s in lines[-1]["seats"]] == [10, 10, 10]
    assert not (SAMPLES.parent / "iss-samples.sgf.review.jsonl").exists()


def test_review_table_marks_the_planted_blunder_and_caches_beside_the_record(tmp_path):
    games = tmp_path / "planted.sgf"
    games.write_text(PLANTED.read_text())
    proc = skat("review", str(games), "--simulations", "20")
    assert proc.returncode == 0, proc.stderr
    row = next(line for line in proc.stdout.splitlines() if line.lstrip().startswith("9.3"))
    assert "*Ann" in row and "♥A ??" in row and "♥J" in row and "47 L ↓" in row
    assert "Per player" in proc.stdout
    cached = tmp_path / "planted.sgf.review.jsonl"
    assert cached.exists()
    assert json.loads(cached.read_text().splitlines()[0])["id"] == "planted-1"


def test_review_refuses_an_unknown_id_and_a_bad_player():
    proc = skat("review", str(SAMPLES), "--id", "nope")
    assert proc.returncode == 2 and "no record with ID nope" in proc.stderr
    proc = skat("review", str(SAMPLES), "--player", "oracle")
    assert proc.returncode == 2 and "invalid choice" in proc.stderr


def test_review_with_worker_processes_gives_the_same_lines(tmp_path):
    games = tmp_path / "three.sgf"
    games.write_text("".join(SAMPLES.read_text().splitlines(keepends=True)[:3]))
    one = skat("review", str(games), "--player", "mcu", "--simulations", "5", "--json", "--workers", "1",
               "--no-cache")
    two = skat("review", str(games), "--player", "mcu", "--simulations", "5", "--json", "--workers", "2",
               "--no-cache")
    assert one.returncode == 0 and two.returncode == 0, two.stderr
    assert one.stdout == two.stdout
    assert [json.loads(l)["id"] for l in one.stdout.splitlines() if json.loads(l)["type"] == "game"] == \
        ["541932", "684159", "727"]


def test_ctrl_c_keeps_the_reviews_printed_and_exits_130(tmp_path):
    """Each game's lines are printed as soon as it is reviewed; a stop keeps them whole and
    stores them beside the record."""
    import signal

    games = tmp_path / "many.sgf"
    games.write_text(SAMPLES.read_text() * 3)
    proc = subprocess.Popen([sys.executable, "-m", "skat_tui.cli", "review", str(games), "--simulations", "30",
                             "--json", "--workers", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = proc.stdout.readline()  # the first game's line: the review is under way
    assert json.loads(first)["type"] == "game"
    while json.loads(line := proc.stdout.readline())["type"] != "summary":
        pass  # the rest of the first game
    proc.send_signal(signal.SIGINT)
    rest, _ = proc.communicate(timeout=300)
    assert proc.returncode == 130
    lines = [json.loads(l) for l in rest.splitlines()]  # every line printed is whole JSON
    games_printed = 1 + sum(l["type"] == "game" for l in lines)
    assert games_printed < 33
    cached = (tmp_path / "many.sgf.review.jsonl").read_text().splitlines()
    assert sum(json.loads(l)["type"] == "game" for l in cached) >= 1


def test_a_ctrl_c_whose_exception_python_swallowed_still_stops_the_review_with_130(monkeypatch):
    """KeyboardInterrupt raised inside a finalizer is only printed ("Exception ignored"); the
    review must stop at its next step and exit 130 all the same."""
    import signal
    import time

    import engine.review
    from skat_tui import cli

    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    steps = []

    def review_records(records, *args, on_progress=None, on_review=None, on_error=None):
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)  # the handler runs here, long before the sleep ends
        except KeyboardInterrupt:
            pass  # swallowed, as Python does inside a finalizer
        steps.append("progress")
        on_progress(0.5, len(records))
        steps.append("went on")
        return []

    monkeypatch.setattr(engine.review, "review_records", review_records)
    assert cli.main(["review", str(SAMPLES), "--id", "684159", "--json", "--no-cache"]) == 130
    assert steps == ["progress"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # the handler is put back


def test_review_without_a_budget_searches_100_worlds_a_card():
    proc = skat("review", str(SAMPLES), "--id", "727", "--json", "--no-cache")
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert lines[0]["limit"] == {"time": None, "simulations": 100}
    assert all(line["worlds"] == 100 for line in lines if line["type"] == "decision" and not line["forced"])


def test_review_of_a_ramsch_values_its_cards_paranoid_and_says_the_own_view_is_not_available():
    records = str(Path(__file__).parent / "data" / "house-rules.sgf")
    proc = skat("review", records, "--id", "hr-pickups", "--simulations", "2", "--json", "--no-cache")
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert lines[0]["game"] == "Ramsch" and lines[0]["ramsch"] and lines[0]["declarer"] is None
    assert "Ann: takes the skat" in lines[0]["not_reviewed"]
    decisions = [line for line in lines if line["type"] == "decision"]
    assert len(decisions) == 30 and all(d["view_loss_win"] is None for d in decisions)
    assert all(c["dd_points"] is not None for d in decisions for c in d["cards"])
    table = skat("review", records, "--id", "hr-pickups", "--simulations", "2", "--no-cache")
    assert table.returncode == 0, table.stderr
    assert "The own view is not available for a Ramsch" in " ".join(table.stdout.split())
    assert "Not reviewed:" in table.stdout and "Ramsch: the mover's own" in table.stdout


def test_the_replay_plot_of_a_ramsch_review_shows_marks_and_own_card_points_without_a_declarer():
    from engine.limits import Limit
    from engine.record import read_records
    from engine.review import review_record
    from skat_tui.widgets.review_plot import course_lines, decision_note

    records, _ = read_records(Path(__file__).parent / "data" / "house-rules.sgf")
    review = review_record(next(r for r in records if r.id == "hr-jungfrau"), "pimc", Limit(simulations=2))
    lines = [line.plain for line in course_lines(review, 20, 100)]
    assert lines[0].startswith("Ramsch:") and not any(line.strip().startswith("DD") for line in lines)
    assert "??" in lines[1]
    blunder = next(d for d in review.decisions if d.mark)
    assert decision_note(blunder) == "?? open hands: 82 own card points, ♥8 27"


def test_review_judges_kontra_and_re_against_the_double_dummy_outcome():
    records = str(Path(__file__).parent / "data" / "house-rules.sgf")
    proc = skat("review", records, "--id", "hr-kontra-re", "--simulations", "4", "--json", "--no-cache")
    assert proc.returncode == 0, proc.stderr
    calls = [json.loads(line) for line in proc.stdout.splitlines() if json.loads(line)["type"] == "call"]
    assert [(c["seat"], c["call"]) for c in calls] == [(2, "Kontra"), (1, "Re")]
    assert all(isinstance(c["side_wins_dd"], bool) and c["worlds"] == 4 for c in calls)
    table = skat("review", records, "--id", "hr-kontra-re", "--simulations", "4", "--no-cache")
    assert table.returncode == 0, table.stderr
    text = " ".join(table.stdout.split())
    assert "Calls: Cid: Kontra · own view: the defenders win" in text and "Bob: Re ·" in text
    assert "open hands: the declarer" in text


def test_the_summary_per_player_fits_80_columns_uncut():
    from rich.console import Console

    from engine.limits import Limit
    from engine.record import read_records
    from engine.review import review_record
    from skat_tui.review_table import summary_table

    records, _ = read_records(PLANTED)
    console = Console(width=80, record=True)
    console.print(summary_table(review_record(records[0], "pimc", Limit(simulations=2))))
    text = console.export_text()
    assert "…" not in text and "mean loss" in text and "accuracy" in text and "contract" in text
