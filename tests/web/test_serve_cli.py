"""``skat serve`` refuses an address it cannot serve, prints the one it serves, warns when
that reaches beyond this machine, and stops on a signal with the shell's code, its tables
ended (issue 34).  No browser needed: a websocket client opens a table session."""

from __future__ import annotations

import asyncio
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time

import psutil
import pytest

from skat_tui import cli


def usage_error(capsys, *args) -> str:
    with pytest.raises(SystemExit) as info:
        cli.main(["serve", *args])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.startswith("usage: skat serve")
    return err.splitlines()[-1]


@pytest.mark.parametrize("port", ["-1", "65536", "http"])
def test_a_port_out_of_range_is_a_usage_error(capsys, port):
    assert "--port: must be a whole number from 0 to 65,535" in usage_error(capsys, "--port", port)


def test_a_port_in_use_is_a_usage_error(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        line = usage_error(capsys, "--port", str(port))
    assert f"--port {port}: the port is in use on 127.0.0.1; choose another" in line


def test_a_host_that_does_not_resolve_is_a_usage_error(capsys):
    assert "--host 'no-such-host.invalid' does not resolve" in usage_error(capsys, "--host", "no-such-host.invalid")


def test_a_host_that_is_not_this_machines_is_a_usage_error(capsys):
    assert "cannot listen on 192.0.2.1 port" in usage_error(capsys, "--host", "192.0.2.1")  # TEST-NET-1


@pytest.fixture
def data_dirs(tmp_path):
    return {**os.environ, "SKAT_DATA_DIR": str(tmp_path / "data"), "SKAT_CONFIG_DIR": str(tmp_path / "config")}


def start_serve(env, *args) -> tuple[subprocess.Popen, int, list[str]]:
    """``skat serve --port 0 ARGS``, its real port read from what it prints, and its stderr lines."""
    proc = subprocess.Popen([sys.executable, "-m", "skat_tui.cli", "serve", "--port", "0", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    errors: list[str] = []
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: errors.extend(proc.stderr), daemon=True).start()
    threading.Thread(target=lambda: [lines.put(line) for line in proc.stdout], daemon=True).start()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            found = re.search(r"http://([^ ]*):(\d+)", lines.get(timeout=1))
        except queue.Empty:
            continue
        if found:
            return proc, int(found.group(2)), errors
    proc.kill()
    raise AssertionError(f"serve printed no address: {errors}")


def open_session(port: int) -> threading.Event:
    """A browser's table session: a websocket to the server, held open; set once the table drew."""
    import aiohttp

    drawn = threading.Event()

    async def hold() -> None:
        async with aiohttp.ClientSession() as session:
            for _ in range(600):  # the address is printed just before the server listens
                try:
                    ws = await session.ws_connect(f"http://127.0.0.1:{port}/ws?width=80&height=24")
                    break
                except aiohttp.ClientConnectionError:
                    await asyncio.sleep(0.1)
            async with ws:
                async for message in ws:
                    if message.type == aiohttp.WSMsgType.BINARY or "stdout" in str(message.data):
                        drawn.set()

    threading.Thread(target=lambda: asyncio.run(hold()), daemon=True).start()
    return drawn


@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)], ids=["ctrl-c", "sigterm"])
def test_serve_prints_its_real_port_and_a_signal_ends_it_and_its_tables(data_dirs, signum, code):
    proc, port, errors = start_serve(data_dirs)
    try:
        assert port != 0
        assert open_session(port).wait(180), "the table never drew"
        tables = psutil.Process(proc.pid).children(recursive=True)
        assert tables, "a session runs its own table"
        proc.send_signal(signum)
        assert proc.wait(timeout=60) == code  # a bound only a hang exceeds: the stop takes seconds
        gone, alive = psutil.wait_procs(tables, timeout=30)
        assert alive == []
        assert not any("Warning" in line for line in errors)  # no warning on the loopback address
    finally:
        proc.kill()


@pytest.mark.parametrize("host", ["0.0.0.0", ""])
def test_serving_beyond_this_machine_is_warned_about(data_dirs, host):
    proc, port, errors = start_serve(data_dirs, "--host", host)
    try:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 130
    finally:
        proc.kill()
    text = " ".join("".join(errors).split())
    assert "warning: listening on" in text and "anyone who can reach it can play at this table and read its data" in text
