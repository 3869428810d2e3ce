"""A tournament that was stopped continues with ``skat tournament --resume DIR`` and ends
with the results of a run that was never stopped (the journal, engine/tournament.py)."""

import json

import pytest

from engine import tournament
from engine.tournament import JOURNAL_FILE, generate_deals, read_journal
from skat_tui import cli

PLAYERS = ["--players", "heuristic,random,heuristic"]
DEALS = 5
SEED = 7


def tournament_args(out, *extra):
    return ["tournament", *PLAYERS, "--deals", str(DEALS), "--seed", str(SEED), "--workers", "1",
            "--out", str(out), "--json", *extra]


def stop_at_deal(monkeypatch, stop_index):
    """Ctrl+C while deal ``stop_index`` is being played (deals are played in order with one worker)."""
    real_play_deal = tournament.play_deal

    def play_deal(deal_index, *args):
        if deal_index == stop_index:
            raise KeyboardInterrupt
        return real_play_deal(deal_index, *args)

    monkeypatch.setattr(tournament, "play_deal", play_deal)


def journal_lines(folder):
    return (folder / JOURNAL_FILE).read_bytes().split(b"\n")


def assert_same_results(folder, reference):
    """The results and every game file of ``folder`` are those of ``reference``; the run's
    data too, but for the command line and the time taken."""
    got, want = (json.loads((f / "results.json").read_text()) for f in (folder, reference))
    assert got["players"] == want["players"] and got["pairs"] == want["pairs"]
    for key in want["run"]:
        if key not in ("command", "seconds"):
            assert got["run"][key] == want["run"][key], key
    assert sorted(p.name for p in folder.glob("*.sgf")) == sorted(p.name for p in reference.glob("*.sgf"))
    for games in reference.glob("*.sgf"):
        assert (folder / games.name).read_text() == games.read_text(), games.name


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    out = tmp_path_factory.mktemp("uninterrupted") / "run"
    assert cli.main(tournament_args(out)) == 0
    return out


def test_a_run_journals_every_deal_as_it_plays(uninterrupted):
    journal = read_journal(uninterrupted)
    assert journal.warnings == [] and journal.deals_done == set(range(DEALS))
    assert journal.deals == generate_deals(DEALS, SEED) and journal.seed == SEED
    assert journal.specs == ["heuristic", "random", "heuristic"] and not journal.ramsch_only
    assert len(journal_lines(uninterrupted)) == 1 + DEALS + 1  # header, one line a deal, the final newline


def test_a_run_stopped_after_some_deals_and_resumed_gives_the_results_of_an_uninterrupted_run(
        uninterrupted, monkeypatch, capsys, tmp_path):
    # the stopped run reads its deals from a file, which is gone when it is resumed
    deals_file = tmp_path / "deals.txt"
    deals_file.write_text("".join("w " + ".".join(map(str, d.order())) + "\n" for d in generate_deals(DEALS, SEED)))
    out = tmp_path / "run"
    args = tournament_args(out, "--deals-file", str(deals_file))
    with monkeypatch.context() as patch:
        stop_at_deal(patch, 3)
        assert cli.main(args) == 130
    captured = capsys.readouterr()
    stopped = json.loads(captured.out)["run"]
    assert stopped["interrupted"] and stopped["deals_played"] == 3
    assert f"continue with skat tournament --resume {out}" in " ".join(captured.err.split())
    assert read_journal(out).deals_done == {0, 1, 2}
    deals_file.unlink()

    assert cli.main(["tournament", "--resume", str(out), "--workers", "2", "--json"]) == 0
    resumed = json.loads(capsys.readouterr().out)["run"]
    assert not resumed["interrupted"] and resumed["games"] == DEALS * 3
    assert resumed["command"] == stopped["command"]  # the run's own command, not the resume's
    assert resumed["seconds"] >= read_journal(out).seconds - 0.01 > 0  # the parts' playing time, summed
    assert_same_results(out, uninterrupted)
    assert read_journal(out).warnings == []


def test_a_torn_last_journal_line_is_left_out_with_a_warning_and_its_deal_played_again(
        uninterrupted, capsys, tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    lines = journal_lines(uninterrupted)
    # a hard stop while deal line 4 was being written: half of it reached the disk
    (out / JOURNAL_FILE).write_bytes(b"\n".join(lines[:3]) + b"\n" + lines[3][: len(lines[3]) // 2])
    assert cli.main(["tournament", "--resume", str(out), "--workers", "1", "--json"]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert f"{out / JOURNAL_FILE} line 4 is unreadable (it is cut short): left out, its deal is played again" in err
    assert_same_results(out, uninterrupted)
    journal = read_journal(out)  # the torn piece is gone: every line reads
    assert journal.warnings == [] and journal.deals_done == set(range(DEALS))
    assert len(journal_lines(out)) == 1 + DEALS + 1


def test_an_unreadable_line_before_the_last_stops_the_resume_naming_it(uninterrupted, capsys, monkeypatch, tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    lines = journal_lines(uninterrupted)
    lines[2] = lines[2].replace(b'"games"', b'"gamez"')
    (out / JOURNAL_FILE).write_bytes(b"\n".join(lines[:4]) + b"\n")
    before = (out / JOURNAL_FILE).read_bytes()
    monkeypatch.setattr(tournament, "play_deal", lambda *a: pytest.fail("a game was played"))
    assert cli.main(["tournament", "--resume", str(out), "--json"]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert f"{out / JOURNAL_FILE} line 3: not a finished deal" in err and "Traceback" not in err
    assert (out / JOURNAL_FILE).read_bytes() == before and sorted(p.name for p in out.iterdir()) == [JOURNAL_FILE]


@pytest.mark.parametrize("line", [b"[1, 2]", b'"deal"', b"7", b'{"deal": 1, "seconds": 1, "games": [[]]}'])
def test_a_journal_line_that_is_not_an_object_is_named_by_its_number(uninterrupted, capsys, monkeypatch, tmp_path,
                                                                     line):
    out = tmp_path / "run"
    out.mkdir()
    lines = journal_lines(uninterrupted)
    lines[2] = line
    (out / JOURNAL_FILE).write_bytes(b"\n".join(lines[:4]) + b"\n")
    monkeypatch.setattr(tournament, "play_deal", lambda *a: pytest.fail("a game was played"))
    assert cli.main(["tournament", "--resume", str(out), "--json"]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert f"{out / JOURNAL_FILE} line 3: not a finished deal (a deal's line is a JSON object" in err
    assert "indices" not in err and "object has no attribute" not in err


def test_resume_of_a_file_says_it_is_a_file(capsys, tmp_path):
    path = tmp_path / "journal.jsonl"
    path.write_text("{}\n")
    assert cli.main(["tournament", "--resume", str(path)]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert f"--resume {path} is a file: name the run's folder" in err and "no such folder" not in err


@pytest.mark.parametrize("case", ["no folder", "no journal", "unreadable first line", "empty journal"])
def test_resume_without_a_readable_journal_is_refused_naming_the_folder(case, capsys, monkeypatch, tmp_path):
    folder = tmp_path / "run"
    if case != "no folder":
        folder.mkdir()
        (folder / "results.json").write_text("{}")
    if case == "unreadable first line":
        (folder / JOURNAL_FILE).write_text('{"journal": "skat-tournament", "format": 1, "players": [\n')
    if case == "empty journal":
        (folder / JOURNAL_FILE).write_text("")
    monkeypatch.setattr(tournament, "play_deal", lambda *a: pytest.fail("a game was played"))
    assert cli.main(["tournament", "--resume", str(folder)]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert str(folder) in err and "Traceback" not in err
    expected = {"no folder": "no such folder", "no journal": f"the folder holds no {JOURNAL_FILE}",
                "unreadable first line": "line 1: not the first line of a tournament journal",
                "empty journal": "line 1: not the first line of a tournament journal"}[case]
    assert expected in err


@pytest.mark.parametrize("options, named", [
    (["--players", "heuristic,heuristic,heuristic"], "--players"),
    (["--deals", "5"], "--deals"),
    (["--seed", "7"], "--seed"),
    (["--deals-file", "deals.txt"], "--deals-file"),
    (["--out", "elsewhere"], "--out"),
    (["--ramsch-only"], "--ramsch-only"),
    (["--rules", "pub", "--no-kontra"], "--rules pub --no-kontra"),
])
def test_resume_refuses_the_options_its_journal_decides(options, named, uninterrupted, capsys, monkeypatch):
    monkeypatch.setattr(tournament, "resume_tournament", lambda *a, **k: pytest.fail("the run was resumed"))
    with pytest.raises(SystemExit) as stop:
        cli.main(["tournament", "--resume", str(uninterrupted), *options])
    assert stop.value.code == 2
    assert (f"--resume takes the players, deals, seed and rules from the run's journal: leave out {named}"
            in capsys.readouterr().err)


def test_resume_refuses_house_rules_given_before_the_subcommand(uninterrupted, capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["--rules", "pub", "tournament", "--resume", str(uninterrupted)])
    assert stop.value.code == 2 and "leave out --rules pub" in capsys.readouterr().err


def test_a_tournament_needs_players_unless_it_resumes(capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["tournament", "--deals", "2"])
    assert stop.value.code == 2 and "--players is needed" in capsys.readouterr().err


def test_a_new_run_into_a_stopped_runs_folder_points_to_resume(uninterrupted, capsys, monkeypatch):
    monkeypatch.setattr(tournament, "run_tournament", lambda *a, **k: pytest.fail("games were played"))
    assert cli.main(tournament_args(uninterrupted)) == 2
    assert f"continue the run in it with --resume {uninterrupted}" in " ".join(capsys.readouterr().err.split())


def test_two_runs_never_write_one_journal_at_once(uninterrupted, capsys, tmp_path):
    fcntl = pytest.importorskip("fcntl")
    out = tmp_path / "run"
    out.mkdir()
    lines = journal_lines(uninterrupted)
    (out / JOURNAL_FILE).write_bytes(b"\n".join(lines[:3]) + b"\n")
    with open(out / JOURNAL_FILE, "ab") as other_run:
        fcntl.flock(other_run.fileno(), fcntl.LOCK_EX)
        assert cli.main(["tournament", "--resume", str(out), "--workers", "1"]) == 2
    assert "is being written by another run of this tournament" in " ".join(capsys.readouterr().err.split())
    assert sorted(p.name for p in out.iterdir()) == [JOURNAL_FILE]


def test_a_journal_that_cannot_be_written_stops_the_run_keeping_its_games(
        uninterrupted, capsys, monkeypatch, tmp_path):
    syncs = []

    def fsync_until_the_disk_is_full(fd):
        syncs.append(fd)
        if len(syncs) == 3:
            raise OSError(28, "No space left on device")

    out = tmp_path / "run"
    with monkeypatch.context() as patch:
        patch.setattr(tournament.os, "fsync", fsync_until_the_disk_is_full)
        assert cli.main(tournament_args(out)) == 130
    captured = capsys.readouterr()
    assert "could not be written: No space left on device; stopped" in " ".join(captured.err.split())
    results = json.loads(captured.out)["run"]
    assert results["interrupted"] and results["deals_played"] == 2
    assert cli.main(["tournament", "--resume", str(out), "--workers", "1", "--json"]) == 0
    assert_same_results(out, uninterrupted)


def test_tournament_help_documents_resume(capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["tournament", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert stop.value.code == 0
    assert "--resume DIR continue the stopped run whose folder is DIR" in text
    assert "--workers and --scheduler may differ" in text
