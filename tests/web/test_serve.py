"""``skat serve``: the table in a real headless Chromium through textual-serve.

The page's terminal draws on a canvas, so the test reads what the server sends
it: a script installed before the page loads records every websocket message.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is in the test extra")
pytestmark = pytest.mark.skipif(not (CHROMIUM and DRIVER),
                                reason="no chromium/chromedriver (.ci/run installs them with apt-get where it can)")

RECORD_OUTPUT = """
window.__skatOutput = [];
const NativeWebSocket = window.WebSocket;
window.WebSocket = function (url, protocols) {
  const socket = protocols === undefined ? new NativeWebSocket(url) : new NativeWebSocket(url, protocols);
  socket.addEventListener('message', async (event) => {
    let data = event.data;
    if (data instanceof Blob) data = await data.arrayBuffer();
    if (data instanceof ArrayBuffer) data = new TextDecoder().decode(data);
    window.__skatOutput.push(String(data));
  });
  return socket;
};
window.WebSocket.prototype = NativeWebSocket.prototype;
Object.assign(window.WebSocket, NativeWebSocket);
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(predicate, what: str, timeout: float = 120.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def served_table(tmp_path, request):
    """The server's address; ``@pytest.mark.parametrize("served_table", [N], indirect=True)``: at most N tables."""
    port = free_port()
    tables = ["--tables", str(request.param)] if hasattr(request, "param") else []
    env = dict(os.environ, SKAT_CONFIG_DIR=str(tmp_path / "config"), SKAT_DATA_DIR=str(tmp_path / "data"),
               PYTHONPATH=str(ROOT))
    server = subprocess.Popen(
        [sys.executable, "-m", "skat_tui.cli", "--seed", "3", "--new", "--opponent-left", "heuristic",
         "--opponent-right", "heuristic", "serve", "--port", str(port), *tables],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def listening():
        with socket.socket() as s:
            return s.connect_ex(("127.0.0.1", port)) == 0 or server.poll() is not None

    wait_for(listening, "the server to listen")
    assert server.poll() is None, server.stderr.read().decode()
    yield f"http://127.0.0.1:{port}/"
    server.terminate()
    server.wait(10)


@pytest.fixture
def chromium(tmp_path):
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--window-size=1400,900", f"--user-data-dir={tmp_path / 'chromium'}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_OUTPUT})
    yield driver
    driver.quit()


def open_tab(driver, url: str) -> str:
    """A new browser tab at ``url``, recording what the server sends it; its window handle."""
    driver.switch_to.new_window("tab")
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_OUTPUT})
    driver.get(url)
    return driver.current_window_handle


def screen_text(driver) -> str:
    raw = driver.execute_script("return window.__skatOutput ? window.__skatOutput.join('') : ''")
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", raw)


def test_the_served_table_shows_the_hand_and_takes_moves_in_chromium(served_table, chromium):
    from engine.cards import cards_of
    from skat_tui.persistence import TableSession

    session = TableSession.new(3, None)  # the served series: seed 3, a new series
    state = session.start_game()
    hand = [card.unicode() for card in cards_of(state.hands[session.human_seat])]
    chromium.get(served_table)
    text = wait_for(lambda: all(label in screen_text(chromium) for label in hand) and screen_text(chromium),
                    "the hand in the page")
    assert "South" in text or "You" in text
    # the first moves: the opponents bid, then the human's key reaches the app through the browser
    wait_for(lambda: "Your bid:" in screen_text(chromium) or "= hold, p = pass" in screen_text(chromium),
             "the human's turn to bid")
    assert "Your card" not in screen_text(chromium)
    chromium.find_element("css selector", "#terminal").click()  # the terminal takes the keyboard
    chromium.find_element("css selector", "textarea.xterm-helper-textarea").send_keys("p")
    # bidding is over only once the human's answer arrived: then the forehand (the human) leads
    wait_for(lambda: "Your card (you lead)" in screen_text(chromium), "the first trick after the human's pass")


def dealt_hand() -> list[str]:
    from engine.cards import cards_of
    from skat_tui.persistence import TableSession

    session = TableSession.new(3, None)  # the served series: seed 3, a new series
    state = session.start_game()
    return [card.unicode() for card in cards_of(state.hands[session.human_seat])]


def press(driver, key: str) -> None:
    driver.find_element("css selector", "#terminal").click()  # the terminal takes the keyboard
    driver.find_element("css selector", "textarea.xterm-helper-textarea").send_keys(key)


@pytest.mark.parametrize("served_table", [3], indirect=True)
def test_every_tab_gets_its_own_table_and_a_tab_too_many_says_why(served_table, chromium, tmp_path):
    import urllib.request

    from skat_tui.data_lock import DataDirLock

    assert "starting your table" in urllib.request.urlopen(served_table).read().decode()  # never a black page
    terminal_table = DataDirLock(tmp_path / "data")  # a table in a terminal holds the data folder meanwhile
    terminal_table.acquire()
    hand = dealt_hand()
    tabs = [chromium.current_window_handle]
    chromium.get(served_table)
    tabs += [open_tab(chromium, served_table) for _ in range(2)]
    for tab in tabs:
        chromium.switch_to.window(tab)
        wait_for(lambda: "Your bid:" in screen_text(chromium) or "= hold, p = pass" in screen_text(chromium),
                 "each tab's turn to bid")
        assert all(label in screen_text(chromium) for label in hand)
        press(chromium, "p")
        wait_for(lambda: "Your card (you lead)" in screen_text(chromium), "the first trick after the pass")
    # each tab its own folder and series; the terminal table's folder untouched
    folders = sorted(p.parent.name for p in (tmp_path / "data" / "browser-tabs").glob("*/current-series.json"))
    assert folders == ["1", "2", "3"]
    assert not (tmp_path / "data" / "current-series.json").exists()
    open_tab(chromium, served_table)
    wait_for(lambda: "all 3 browser tables of this server are in use" in screen_text(chromium),
             "the fourth tab's reason")
    terminal_table.release()
