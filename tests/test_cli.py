"""The `skat` subcommands that need no screen: solve, analyze, calibrate, help."""

import json
import os
import subprocess
import sys
from pathlib import Path

SAMPLES = Path(__file__).parent / "data" / "iss-samples.sgf"


def skat(*args, env=None):
    return subprocess.run([sys.executable, "-m", "skat_tui.cli", *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=600)


def test_solve_prints_per_card_values_and_reports_records_that_do_not_reach_the_trick():
    proc = skat("solve", str(SAMPLES), "--trick", "3", "--json")
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert proc.returncode == 1  # some sample games end (or are passed) before trick 3
    assert "does not reach the start of trick 3" in proc.stderr
    assert len(lines) >= 5
    for line in lines:
        assert set(line) == {"id", "trick", "to_move", "value", "per_card", "nodes", "ms"}
        values = list(line["per_card"].values())
        # the value is the best card for the side to move: max for the declarer, min for a defender
        assert line["value"] in (max(values), min(values))
    threshold = skat("solve", str(SAMPLES), "--trick", "3", "--threshold", "61", "--json")
    answers = {json.loads(l)["id"]: json.loads(l) for l in threshold.stdout.splitlines()}
    for line in lines:
        answer = answers[line["id"]]
        if all(v in (0, 1) for v in line["per_card"].values()):
            continue  # a null game: 1/0 either way
        assert answer["value"] == int(line["value"] >= 61)
        assert answer["per_card"] == {c: int(v >= 61) for c, v in line["per_card"].items()}


def test_analyze_is_reproducible_under_a_seed():
    args = ("analyze", str(SAMPLES), "--id", "684159", "--trick", "3", "--player", "mcu", "--simulations", "40",
            "--seed", "3", "--json")
    first, second = skat(*args), skat(*args)
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    data = json.loads(first.stdout)
    assert data["simulations"] == 40 and data["chosen"] in data["legal"]
    assert set(data["cards"]) == set(data["legal"])


def test_analyze_prints_a_table_of_the_cards_without_json():
    """The same analysis as the JSON, as a report: the mover's position, then one row per
    legal card, best first, the chosen card marked."""
    from engine.cards import Card

    args = ("analyze", str(SAMPLES), "--id", "541932", "--trick", "3", "--card", "2", "--player", "pimc",
            "--simulations", "20", "--seed", "2")
    text, data = skat(*args), json.loads(skat(*args, "--json").stdout)
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    assert lines[0].startswith("Record 541932 · trick 3, card 2 · middlehand (kermit) to move, defender")
    assert "trick  ♦Q" in text.stdout  # the card led before it
    rows = {line.split()[1] if line.startswith("▶") else line.split()[0]: line
            for line in lines[lines.index(next(l for l in lines if "scores 0‥120" in l)) + 1:]}
    assert set(rows) == {Card.from_str(c).unicode() for c in data["legal"]}
    chosen = Card.from_str(data["chosen"]).unicode()
    assert rows[chosen].startswith("▶")
    assert f"{data['cards'][data['chosen']]['mean']:.1f}" in rows[chosen].split()


def test_analyze_names_a_missing_record():
    proc = skat("analyze", str(SAMPLES), "--id", "nope", "--trick", "1")
    assert proc.returncode == 2 and "no record with ID nope" in proc.stderr


def test_calibrate_stores_a_speed_factor(tmp_path):
    proc = skat("calibrate", env={"SKAT_CONFIG_DIR": str(tmp_path)})
    assert proc.returncode == 0, proc.stderr
    data = json.loads((tmp_path / "calibration.json").read_text())
    assert data["speed_factor"] > 0 and data["workload_seconds"] > 0


def test_help_lists_every_subcommand():
    out = skat("--help").stdout
    for command in ("replay", "solve", "bench", "analyze", "calibrate", "tournament"):
        assert command in out


def test_a_reader_that_stops_early_ends_the_output_quietly(tmp_path):
    """`skat replay --json BIG | head -1`: no traceback when the pipe closes."""
    lines = [line for line in SAMPLES.read_text(encoding="utf-8").splitlines() if line.strip()]
    big = tmp_path / "big.sgf"
    big.write_text("\n".join(lines[i % len(lines)] for i in range(3000)) + "\n", encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-m", "skat_tui.cli", "replay", "--json", str(big)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = proc.stdout.readline()
    proc.stdout.close()  # far more than a pipe buffer is still to come
    stderr = proc.stderr.read()
    proc.wait(timeout=600)
    assert json.loads(first)["id"]
    assert "Traceback" not in stderr and "BrokenPipeError" not in stderr


def test_a_missing_record_file_is_named_without_a_traceback(tmp_path):
    missing = tmp_path / "nope.sgf"
    for args in (("solve", str(missing)), ("analyze", str(missing), "--id", "1")):
        proc = skat(*args)
        assert proc.returncode == 2
        assert f"skat {args[0]}: cannot read {missing}" in proc.stderr
        assert "Traceback" not in proc.stderr


# ---------------------------------------------------------------- bad input: usage errors before any work

import pytest  # noqa: E402

from skat_tui import cli  # noqa: E402


def usage_error(capsys, *args) -> str:
    """Run ``skat ARGS`` in-process; it must stop with exit code 2 and one line of error, no traceback."""
    with pytest.raises(SystemExit) as stop:
        cli.main(list(args))
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err.strip().splitlines()[-1]


@pytest.mark.parametrize("spec, message", [
    ("mcu:simulations=abc", "simulations must be a whole number from 1 to 10,000,000, not 'abc'"),
    ("mcu:simulations=1e9", "simulations must be a whole number from 1 to 10,000,000, not '1e9'"),
    ("foo", "unknown player type 'foo'"),
    ("mcu:time=-1", "time must be a number of seconds from 0 to 86400, not '-1'"),
    ("pimc:time=abc", "time must be a number of seconds from 0 to 86400, not 'abc'"),
    ("pimc:time=nan", "time must be a number of seconds from 0 to 86400, not 'nan'"),
    ("mcu:foo=1", "unknown MCU parameter(s): foo"),
    ("pimc:eval=bogus", "unknown evaluation 'bogus'"),
    ("random", "the table seats heuristic, mcu, pimc, mcts opponents, not 'random'"),
    ("mcts:c=-1", "c must be a number from 0 to 100, not '-1'"),
    ("mcts:playout=solver", "playout must be random or heuristic, not 'solver'"),
    ("mcu:simulations=5,simulations=7", "simulations is given twice in 'mcu:simulations=5,simulations=7'"),
    ("mcu:simulations=5,worlds=7", "simulations is given twice in 'mcu:simulations=5,worlds=7' (worlds is another "
                                   "name for simulations)"),
    ("pimc:eval=wins,eval=mean", "eval is given twice"),
    ("pimc:simulations=5,time=2", "give the budget as simulations=N or time=T, not both"),
    ("mcu:time=0", "time must be a number of seconds above 0, not '0'"),
])
def test_a_bad_opponent_spec_is_a_usage_error_before_the_table_opens(capsys, monkeypatch, spec, message):
    monkeypatch.setattr(cli, "_open_table", lambda args: pytest.fail("the table opened"))
    for option in ("--opponent-left", "--opponent-right"):
        line = usage_error(capsys, option, spec)
        assert message in line
        assert "invalid literal" not in line and "could not convert" not in line


def test_a_bad_tournament_spec_is_a_usage_error_before_any_game(capsys, monkeypatch):
    from engine import tournament

    monkeypatch.setattr(tournament, "run_tournament", lambda *a, **k: pytest.fail("games were played"))
    line = usage_error(capsys, "tournament", "--players", "mcu:simulations=abc,heuristic,heuristic", "--deals", "2")
    assert "simulations must be a whole number" in line
    assert "needs three specs" in usage_error(capsys, "tournament", "--players", "heuristic,heuristic")


@pytest.mark.parametrize("args, message", [
    (("--player", "mcu:simulations=5", "--simulations", "7"),
     "--simulations: the spec 'mcu:simulations=5' already gives the budget (simulations=5): give it once"),
    (("--player", "pimc:time=1", "--simulations", "7"), "--simulations: the spec 'pimc:time=1' already gives"),
    (("--player", "mcu:simulations=5", "--time", "1"), "--time: the spec 'mcu:simulations=5' already gives"),
    (("--player", "mcu:eval=wins", "--eval", "mean"), "--eval: the spec 'mcu:eval=wins' already gives eval=wins"),
    (("--player", "mcu:time=0"), "time must be a number of seconds above 0"),
    (("--player", "mcu:simulations=5,time=1"), "not both"),
])
def test_analyze_refuses_a_budget_given_twice(capsys, args, message):
    assert message in usage_error(capsys, "analyze", str(SAMPLES), "--id", "684159", *args)


def test_a_tournament_spec_with_a_parameter_twice_is_refused(capsys, monkeypatch):
    from engine import tournament

    monkeypatch.setattr(tournament, "run_tournament", lambda *a, **k: pytest.fail("games were played"))
    line = usage_error(capsys, "tournament", "--players", "mcu:simulations=5,worlds=7,heuristic,heuristic")
    assert "simulations is given twice" in line


@pytest.mark.parametrize("option", ["--out", "--csv"])
def test_a_tournament_out_or_csv_that_names_nothing_is_refused(capsys, monkeypatch, tmp_path, option):
    from engine import tournament

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(tournament, "run_tournament", lambda *a, **k: pytest.fail("games were played"))
    args = ["tournament", "--players", "heuristic,heuristic,heuristic", "--deals", "1"]
    args += ["--out", ""] if option == "--out" else ["--out", "run", "--csv", " "]
    assert cli.main(args) == 2
    assert f"{option} '' names no" in capsys.readouterr().err.replace("' '", "''")
    assert list(tmp_path.iterdir()) == []


def test_analyze_refuses_a_bad_evaluation_as_a_usage_error(capsys):
    assert "unknown evaluation 'bogus'" in usage_error(capsys, "analyze", str(SAMPLES), "--id", "684159",
                                                       "--eval", "bogus")


@pytest.mark.parametrize("args, message", [
    (("analyze", str(SAMPLES), "--id", "684159", "--time", "nan"), "--time: must be a number of seconds"),
    (("analyze", str(SAMPLES), "--id", "684159", "--time", "inf"), "--time: must be a number of seconds"),
    (("analyze", str(SAMPLES), "--id", "684159", "--time", "-1"), "--time: must be a number of seconds"),
    (("analyze", str(SAMPLES), "--id", "684159", "--simulations", "-1"), "--simulations: must be a whole number"),
    (("analyze", str(SAMPLES), "--id", "684159", "--simulations", "0"), "--simulations: must be a whole number"),
    (("analyze", str(SAMPLES), "--id", "684159", "--seed", "99999999999999999999999"), "--seed: must be a whole"),
    (("analyze", str(SAMPLES), "--id", "684159", "--trick", "11"), "--trick: must be a whole number from 1 to 10"),
    (("solve", str(SAMPLES), "--threshold", "121"), "--threshold: must be a whole number from 0 to 120"),
    (("solve", str(SAMPLES), "--threshold", "-5"), "--threshold: must be a whole number from 0 to 120"),
    (("tournament", "--players", "heuristic,heuristic,heuristic", "--deals", "0"), "--deals: must be a whole"),
    (("tournament", "--players", "heuristic,heuristic,heuristic", "--deals", "-5"), "--deals: must be a whole"),
])
def test_numbers_out_of_range_are_usage_errors(capsys, args, message):
    assert message in usage_error(capsys, *args)


# ---------------------------------------------------------------- Ctrl+C

def test_ctrl_c_during_replay_json_stops_quietly_with_130_keeping_the_lines_printed(capsys, monkeypatch):
    import engine.record as record

    real_summary, calls = record.summary, []

    def summary_then_interrupt(rec):
        calls.append(rec)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real_summary(rec)

    monkeypatch.setattr(record, "summary", summary_then_interrupt)
    assert cli.main(["replay", str(SAMPLES), "--json"]) == 130
    out, err = capsys.readouterr()
    assert [json.loads(line)["id"] for line in out.splitlines()] == [r.id for r in calls[:2]]
    assert "Traceback" not in err and "KeyboardInterrupt" not in err


def test_a_tournament_stopped_by_ctrl_c_exits_130_with_its_results(capsys, monkeypatch, tmp_path):
    from engine import tournament

    real_run = tournament.run_tournament

    def interrupted_run(*args, **kwargs):
        run = real_run(*args, **kwargs)
        run.interrupted = True  # as run_tournament marks a run stopped by Ctrl+C
        return run

    monkeypatch.setattr(tournament, "run_tournament", interrupted_run)
    code = cli.main(["tournament", "--players", "random,random,heuristic", "--deals", "1", "--workers", "1",
                     "--out", str(tmp_path / "out"), "--json"])
    assert code == 130
    assert json.loads(capsys.readouterr().out)["run"]["interrupted"] is True


def test_solve_prints_a_readable_table_by_default_with_the_same_values_as_the_json():
    from engine.cards import Card

    text = skat("solve", str(SAMPLES), "--trick", "3")
    data = [json.loads(line) for line in skat("solve", str(SAMPLES), "--trick", "3", "--json").stdout.splitlines()]
    assert text.returncode == 1 and "does not reach the start of trick 3" in text.stderr
    blocks = {block.split()[1]: block.splitlines() for block in text.stdout.strip().split("\n\n")}
    assert set(blocks) == {d["id"] for d in data}
    assert blocks["541932"][0] == "Record 541932 · trick 3 · Diamonds, declarer rearhand · forehand to move (defenders)"
    for d in data:
        lines = blocks[d["id"]]
        rows = {line.split()[1] if line.lstrip().startswith("▶") else line.split()[0]: line
                for line in lines[3:-1]}
        assert set(rows) == {Card.from_str(c).unicode() for c in d["per_card"]}
        for code, value in d["per_card"].items():
            row = rows[Card.from_str(code).unicode()]
            assert row.lstrip().startswith("▶") == (value == d["value"])
            assert f"({value})" in row if "Null" in lines[0] else row.split()[-1] == str(value)


def test_solve_help_says_what_a_null_value_means():
    text = " ".join(skat("solve", "--help").stdout.split())
    assert "In a null game a value is 1 (the declarer wins: takes no trick) or 0 (loses)" in text


def test_analyze_names_a_passed_in_game_and_a_game_that_ended_early():
    passed = skat("analyze", str(SAMPLES), "--id", "756788", "--trick", "1")
    assert passed.returncode == 2 and "record 756788 was passed in (all three passed)" in passed.stderr
    left = skat("analyze", str(SAMPLES), "--id", "30", "--trick", "1")
    assert "record 30 ended before a game was declared (rearhand left the table)" in left.stderr
    resigned = skat("analyze", str(SAMPLES), "--id", "1039093", "--trick", "8")
    assert "record 1039093 (Grand) ended after 18 cards (defenders resigned)" in resigned.stderr


def test_the_tournament_table_says_won_and_lost_count_games_as_declarer(capsys, tmp_path):
    code = cli.main(["tournament", "--players", "random,random,heuristic", "--deals", "1", "--workers", "1",
                     "--out", str(tmp_path / "out")])
    out = " ".join(capsys.readouterr().out.split())
    assert code == 0
    assert "decl. decl." in out and "won lost" in out
    assert "decl. won / lost: the player's own games as declarer" in out


# ---- tournament outputs: checked before the first game, never mixed, written whole ----------------

TOURNAMENT = ["tournament", "--players", "random,random,heuristic", "--deals", "1", "--workers", "1", "--json"]


def no_games(monkeypatch):
    from engine import tournament

    monkeypatch.setattr(tournament, "run_tournament", lambda *a, **k: pytest.fail("games were played"))


def test_a_second_tournament_into_the_same_folder_is_refused_unless_overwrite(capsys, monkeypatch, tmp_path):
    out = tmp_path / "out"
    assert cli.main(TOURNAMENT + ["--out", str(out)]) == 0
    first = (out / "games.sgf").read_text()
    (out / "games-null.sgf").write_text("(;GM[Skat]ID[stale] ;)\n" * 36)  # as if from an earlier, longer run
    (out / "notes.txt").write_text("mine")
    capsys.readouterr()
    with monkeypatch.context() as patch:
        no_games(patch)
        assert cli.main(TOURNAMENT + ["--out", str(out)]) == 2
    assert "is not empty" in capsys.readouterr().err and (out / "games.sgf").read_text() == first
    assert cli.main(TOURNAMENT + ["--out", str(out), "--overwrite", "--seed", "2"]) == 0
    games = (out / "games.sgf").read_text().splitlines()
    assert len(games) == json.loads(capsys.readouterr().out)["run"]["games"] == 3
    stale_gone = not (out / "games-null.sgf").exists() or "stale" not in (out / "games-null.sgf").read_text()
    assert stale_gone and (out / "notes.txt").read_text() == "mine"
    assert not list(out.glob(".*"))  # no temporary files left


def test_an_existing_csv_is_kept_unless_overwrite(capsys, monkeypatch, tmp_path):
    table = tmp_path / "table.csv"
    table.write_text("keep me")
    no_games(monkeypatch)
    assert cli.main(TOURNAMENT + ["--out", str(tmp_path / "out"), "--csv", str(table)]) == 2
    assert "exists" in capsys.readouterr().err and table.read_text() == "keep me"


@pytest.mark.parametrize("where", ["out-in-a-file", "csv-in-a-missing-folder", "csv-is-a-folder"])
def test_an_unwritable_out_or_csv_is_refused_before_the_first_game(capsys, monkeypatch, tmp_path, where):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    out, csv = tmp_path / "out", None
    if where == "out-in-a-file":
        out = blocker / "out"
    elif where == "csv-in-a-missing-folder":
        csv = tmp_path / "missing" / "table.csv"
    else:
        csv = tmp_path
    no_games(monkeypatch)
    assert cli.main(TOURNAMENT + ["--out", str(out)] + (["--csv", str(csv)] if csv else [])) == 2
    err = capsys.readouterr().err
    assert "skat tournament: --" in err and "Traceback" not in err


def test_results_are_written_whole_or_not_at_all(monkeypatch, tmp_path):
    from engine import tournament

    target = tmp_path / "results.json"
    target.write_text('{"old": true}')

    def no_rename(source, destination):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(tournament.os, "replace", no_rename)
    with pytest.raises(OSError):
        tournament.write_atomic(target, '{"new": true}')
    assert target.read_text() == '{"old": true}' and [p.name for p in tmp_path.iterdir()] == ["results.json"]


def test_results_that_cannot_be_written_after_the_games_still_reach_the_terminal(capsys, monkeypatch, tmp_path):
    from engine import tournament

    def disk_full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(tournament, "write_outputs", disk_full)
    assert cli.main(TOURNAMENT + ["--out", str(tmp_path / "out")]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out)["run"]["games"] == 3 and "could not be written" in captured.err


def test_analyze_takes_a_full_spec_and_reports_every_samplers_beliefs():
    from engine.cards import Card
    from engine.positions import state_before_card
    from engine.record import read_records

    proc = skat("analyze", str(SAMPLES), "--id", "541932", "--trick", "2", "--player",
                "pimc:sampler=inference,simulations=20", "--seed", "2", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["player"] == "pimc:sampler=inference,simulations=20" and data["simulations"] == 20
    assert data["effective_worlds"] >= 1
    record = next(r for r in read_records(SAMPLES)[0] if r.id == "541932")
    view = state_before_card(record, 2, 1).view(data["seat"])
    seen = view.hands[data["seat"]] | view.played | (view.discard if view.skat_known else 0)
    hidden = {str(Card(c)) for c in range(32) if not seen >> c & 1}
    assert set(data["beliefs"]) == {"simple", "informed", "inference"}
    for sampler, beliefs in data["beliefs"].items():
        assert set(beliefs) == hidden
        for card, places in beliefs.items():
            assert len(places) == 4 and abs(sum(places) - 1) < 1e-3 and places[data["seat"]] == 0
        assert data["effective_sample_size"][sampler] >= 1
    assert data["effective_sample_size"]["informed"] == 20
    # trick 2: both other seats have played a card, and each is read as one kind or the other
    others = {str(seat) for seat in range(3) if seat != data["seat"]}
    assert set(data["searcher_chance"]) == others
    assert all(0 <= chance <= 1 for chance in data["searcher_chance"].values())


def test_analyze_refuses_a_player_that_does_not_search(capsys):
    assert "analyze runs an mcu, pimc or mcts player" in usage_error(capsys, "analyze", str(SAMPLES), "--id", "684159",
                                                               "--player", "heuristic")


def test_analyze_with_an_mcts_player_reports_its_tree(capsys):
    code = cli.main(["analyze", str(SAMPLES), "--id", "684159", "--trick", "2", "--player", "mcts:simulations=300",
                     "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["player"] == "mcts:simulations=300" and data["chosen"] in data["legal"]
    if len(data["legal"]) > 1:
        assert data["simulations"] == 300 and 2 <= data["tree_nodes"] <= 301 and data["tree_depth"] >= 1
        assert sum(card["simulations"] for card in data["cards"].values()) == 300


def test_an_mcts_tournament_plays_and_reports(capsys, tmp_path):
    code = cli.main(["tournament", "--players", "mcts:simulations=100,mcu:simulations=10,heuristic", "--deals", "1",
                     "--workers", "1", "--out", str(tmp_path / "out")])
    assert code == 0
    assert "mcts:simulations=100" in capsys.readouterr().out


def test_a_ramsch_only_tournament_reports_points_lost_per_ramsch_game(capsys, tmp_path):
    code = cli.main(["tournament", "--players", "random,random,heuristic", "--deals", "2", "--workers", "1",
                     "--ramsch-only", "--out", str(tmp_path / "out")])
    out = " ".join(capsys.readouterr().out.split())
    assert code == 0
    assert "Ramsch" in out and "points lost per Ramsch game, paired over 2 deals" in out
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    assert results["run"]["ramsch_only"] and results["run"]["rules"]["ramsch"]
    assert {row["spec"]: row["ramsch_games"] for row in results["players"]} == {"random": 12, "heuristic": 6}
    assert (tmp_path / "out" / "games-ramsch.sgf").read_text().count("\n") == 6


def test_tournament_rules_flags_are_read_and_refused_with_the_flag_named(capsys, tmp_path):
    code = cli.main(["tournament", "--players", "random,random,heuristic", "--deals", "1", "--workers", "1",
                     "--schieben", "--no-ramsch", "--out", str(tmp_path / "out")])
    assert code == 2
    assert "--schieben needs Ramsch" in capsys.readouterr().err
    code = cli.main(["tournament", "--players", "random,random,heuristic", "--deals", "1", "--workers", "1",
                     "--rules", "pub", "--json", "--out", str(tmp_path / "pub")])
    assert code == 0
    rules = json.loads(capsys.readouterr().out)["run"]["rules"]
    assert rules["ramsch"] and rules["schieben"] and rules["kontra"]


def test_tournament_rules_given_before_the_subcommand_are_kept(capsys, tmp_path):
    code = cli.main(["--rules", "pub", "--no-bock", "tournament", "--players", "random,random,heuristic", "--deals", "1",
                     "--workers", "1", "--kontra", "--json", "--out", str(tmp_path / "out")])
    assert code == 0
    rules = json.loads(capsys.readouterr().out)["run"]["rules"]
    assert rules["ramsch"] and rules["kontra"] and not rules["bock"]
