import json
import subprocess
import sys

import pytest

from engine.tournament import (
    arrangements, deal_record, generate_deals, mean_ci, read_deals, run_tournament, write_outputs,
)

SPECS = ["random", "random", "random"]


def test_seat_arrangements_are_distinct_permutations():
    assert len(arrangements(["a", "a", "a"])) == 1
    assert len(arrangements(["a", "b", "b"])) == 3
    assert len(arrangements(["a", "b", "c"])) == 6
    assert set(arrangements(["a", "b", "b"])) == {(0, 1, 1), (1, 0, 1), (1, 1, 0)}


def test_every_spec_sits_in_every_seat_equally_often():
    for arr in (arrangements(["x", "y", "y"]), arrangements(["x", "y", "z"])):
        for seat in range(3):
            column = [a[seat] for a in arr]
            assert column.count(0) == len(arr) // 3


def test_results_are_identical_whatever_the_workers():
    deals = generate_deals(6, seed=4)
    specs = ["random", "random", "random"]
    one = run_tournament(specs, deals, 4, workers=1).results()
    two = run_tournament(specs, deals, 4, workers=2).results()
    assert one["players"] == two["players"] and one["pairs"] == two["pairs"]


def test_dask_local_cluster_gives_the_same_results():
    distributed = pytest.importorskip("dask.distributed")
    deals = generate_deals(4, seed=8)
    local = run_tournament(SPECS, deals, 8, workers=1).results()
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        remote = run_tournament(SPECS, deals, 8, scheduler=cluster.scheduler_address).results()
    assert remote["players"] == local["players"]


def test_outputs_and_deal_files_round_trip(tmp_path):
    deals = generate_deals(5, seed=2)
    run = run_tournament(SPECS, deals, 2)
    results = write_outputs(run, tmp_path)
    assert read_deals(tmp_path / "deals.sgf") == deals
    games = (tmp_path / "games.sgf").read_text().splitlines()
    assert len(games) == 5
    lost = (tmp_path / "games-lost.sgf").read_text().splitlines() if (tmp_path / "games-lost.sgf").exists() else []
    assert set(lost) <= set(games)
    assert json.loads((tmp_path / "results.json").read_text()) == results
    assert (tmp_path / "results.csv").read_text().startswith("spec,instances,games")
    plain = tmp_path / "plain.txt"
    plain.write_text("\n".join("w " + ".".join(str(c) for c in d.order()) for d in deals) + "\n")
    assert read_deals(plain) == deals


def test_bad_deal_file_names_the_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("CJ.SJ\n")
    with pytest.raises(ValueError, match="line 1"):
        read_deals(path)


def test_a_deal_file_with_a_bad_byte_and_a_bad_line_names_both_lines(tmp_path):
    deals = generate_deals(4, seed=3)
    lines = [deal_record(d, i).encode() for i, d in enumerate(deals)]
    lines[1] = lines[1].replace(b"ID[", b"ID[\xff")
    lines[3] = b"w CJ.SJ"
    path = tmp_path / "deals.sgf"
    path.write_bytes(b"\xef\xbb\xbf" + b"\n".join(lines) + b"\n")
    with pytest.raises(ValueError) as info:
        read_deals(path)
    message = str(info.value)
    assert "2 line(s) are not deals" in message and "line 2: not UTF-8 text: byte 0xff" in message
    assert "line 4: not a deal" in message and "line 1" not in message  # the byte-order mark is no fault


def test_interrupt_keeps_what_was_played():
    deals = generate_deals(10, seed=1)

    def stop_after_three(done, total):
        if done == 3:
            raise KeyboardInterrupt

    run = run_tournament(SPECS, deals, 1, on_progress=stop_after_three)
    assert run.interrupted and len(run.outcomes) == 3
    assert run.results()["run"]["games"] == 3


def test_mean_ci():
    mean, ci = mean_ci([1, 2, 3, 4])
    assert mean == 2.5 and ci == pytest.approx(1.96 * (1.6666666 / 4) ** 0.5, rel=1e-5)


def test_cli_json_has_the_documented_shape(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "skat_tui.cli", "tournament", "--players", "random,random,random", "--deals", "3",
         "--seed", "5", "--workers", "1", "--out", str(tmp_path / "run"), "--json"],
        capture_output=True, text=True,
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    row = data["players"][0]
    for key in ("spec", "games", "declarer_won", "declarer_lost", "card_points", "score", "seeger_fabian",
                "seeger_fabian_per_game", "ci95"):
        assert key in row
    assert data["run"]["seed"] == 5 and data["run"]["players"] == SPECS and "version" in data["run"]


def test_cli_refuses_a_bad_spec():
    proc = subprocess.run(
        [sys.executable, "-m", "skat_tui.cli", "tournament", "--players", "random,random,wizard", "--deals", "1"],
        capture_output=True, text=True,
    )
    assert proc.returncode == 2 and "wizard" in proc.stderr


def test_deal_record_is_a_readable_record():
    deal = generate_deals(1, 3)[0]
    assert read_deals_from_text(deal_record(deal, 0)) == [deal]


def read_deals_from_text(text, tmp=None):
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "x.sgf"
        p.write_text(text + "\n")
        return read_deals(p)
