"""Nothing is left running whatever stops a command (issue 34): the real ``skat`` in a
subprocess, a signal to it, then no child of it may survive.  Waits are bounded; no
assertion is about speed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

SAMPLES = Path(__file__).parent / "data" / "iss-samples.sgf"
BOUND = 120  # seconds: only a hang exceeds it


def start(tmp_path, *args) -> tuple[subprocess.Popen, psutil.Process]:
    """``skat ARGS`` in a session of its own (a terminal's Ctrl+C reaches its whole group)."""
    proc = subprocess.Popen([sys.executable, "-m", "skat_tui.cli", *args], stdout=open(tmp_path / "out", "wb"),
                            stderr=open(tmp_path / "err", "wb"), start_new_session=True)
    return proc, psutil.Process(proc.pid)


def workers_busy(main: psutil.Process, ready=lambda: True) -> list[psutil.Process]:
    """The children once the pool's two workers run (and ``ready()``): they are what must not survive."""
    deadline = time.monotonic() + BOUND
    while time.monotonic() < deadline:
        children = main.children(recursive=True)
        if sum("spawn_main" in " ".join(c.cmdline()) for c in children) >= 2 and ready():
            return children
        time.sleep(0.2)
    raise AssertionError("the workers never started")


def assert_none_survive(children: list[psutil.Process]) -> None:
    _, alive = psutil.wait_procs(children, timeout=30)
    for child in alive:
        child.kill()
    assert [(c.pid, c.cmdline()[-1:]) for c in alive] == []


def tournament(tmp_path) -> tuple[subprocess.Popen, psutil.Process, list[psutil.Process]]:
    out = tmp_path / "run"
    proc, main = start(tmp_path, "tournament", "--players", "heuristic,random,heuristic", "--deals", "100000",
                       "--workers", "2", "--out", str(out), "--json")
    journal = out / "journal.jsonl"
    children = workers_busy(main, lambda: journal.exists() and journal.read_bytes().count(b"\n") >= 3)
    return proc, main, children


def assert_journal_whole(tmp_path) -> None:
    lines = (tmp_path / "run" / "journal.jsonl").read_bytes().split(b"\n")
    assert lines[-1] == b"" and all(json.loads(line) for line in lines[:-1])


def test_workers_end_when_the_tournament_is_killed(tmp_path):
    proc, main, children = tournament(tmp_path)
    proc.kill()  # SIGKILL: no handler runs in the parent
    proc.wait(BOUND)
    assert_none_survive(children)
    assert_journal_whole(tmp_path)


def test_sigterm_stops_a_tournament_as_ctrl_c_does(tmp_path):
    proc, main, children = tournament(tmp_path)
    proc.terminate()
    assert proc.wait(BOUND) == 143
    assert_none_survive(children)
    assert_journal_whole(tmp_path)
    results = json.loads((tmp_path / "out").read_text())
    err = (tmp_path / "err").read_text()
    assert results["players"][0]["games"] > 0 and "continue with skat tournament --resume" in err
    assert "Traceback" not in err


def test_a_double_ctrl_c_ends_a_tournament_without_a_traceback(tmp_path):
    proc, main, children = tournament(tmp_path)
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal sends it: to the command and its workers
    time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)
    assert proc.wait(BOUND) == 130
    assert_none_survive(children)
    assert_journal_whole(tmp_path)
    err = (tmp_path / "err").read_text()
    assert "Exception ignored" not in err and "Traceback" not in err and "KeyboardInterrupt" not in err


@pytest.mark.slow
@pytest.mark.parametrize("stop", ["kill", "terminate"])
def test_review_workers_end_with_the_review(tmp_path, stop):
    proc, main = start(tmp_path, "review", str(SAMPLES), "--workers", "2", "--json", "--no-cache")
    children = workers_busy(main)
    time.sleep(3)  # into the searches
    getattr(proc, stop)()
    assert proc.wait(BOUND) == (-signal.SIGKILL if stop == "kill" else 143)
    assert_none_survive(children)
    assert "Traceback" not in (tmp_path / "err").read_text()


@pytest.mark.parametrize("player", ["pimc:simulations=10000000,threads=2", "mcu:simulations=10000000,threads=2"])
def test_ctrl_c_stops_a_search_on_two_threads(tmp_path, player):
    """Ctrl+C reaches only the thread that waits for the search's threads: they must quit
    too (before, the search ran on to its budget, minutes here)."""
    proc, main = start(tmp_path, "analyze", str(SAMPLES), "--id", "684159", "--trick", "3", "--player", player,
                       "--json")
    deadline = time.monotonic() + BOUND
    while main.num_threads() < 3 and time.monotonic() < deadline:
        time.sleep(0.1)  # until the two search threads run
    assert main.num_threads() >= 3
    time.sleep(3)  # into the search: the analysis of a record takes under a second to start
    proc.send_signal(signal.SIGINT)
    try:
        assert proc.wait(60) == 130  # a bound only a hang exceeds: the stop takes well under a second
    finally:
        proc.kill()
    assert "Traceback" not in (tmp_path / "err").read_text()


@pytest.mark.slow
def test_sigterm_stops_a_tournament_on_a_dask_cluster_and_leaves_it_no_task(tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp://",
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as watcher:
        out = tmp_path / "run"
        proc, main = start(tmp_path, "tournament", "--players", "heuristic,random,heuristic", "--deals", "20000",
                           "--scheduler", cluster.scheduler_address, "--out", str(out), "--json")
        journal = out / "journal.jsonl"
        deadline = time.monotonic() + BOUND
        while not (journal.exists() and journal.read_bytes().count(b"\n") >= 3) and time.monotonic() < deadline:
            time.sleep(0.2)
        proc.terminate()
        assert proc.wait(BOUND) == 143
        deadline = time.monotonic() + 60
        while watcher.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)) and \
                time.monotonic() < deadline:
            time.sleep(0.5)
        assert watcher.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)) == 0
    assert_journal_whole(tmp_path)
