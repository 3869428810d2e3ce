"""The saved series and settings survive crashes, damaged files, failing disks
and a second table on the same data folder."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.players.base import RandomPlayer
from engine.record import read_records
from skat_tui.app import SkatApp, open_session, run_replay, run_table
from skat_tui.data_lock import LOCK_NAME, DataDirLock, DataDirLocked
from skat_tui.persistence import ISS_RECORDS, SAVE_VERSION, TableSession, deal_for, encode_game, series_save_path
from skat_tui.screens.table import TableScreen
from skat_tui.settings import Settings, data_dir, load_settings, save_settings, settings_path
from tui_fakes import fill_in_and_save, new_app, open_settings_at_my_turn, wait_until

REPO = Path(__file__).resolve().parents[2]


def play_to_the_end(session: TableSession) -> None:
    """Random moves through ``session.push`` until the game is over (no finish_game)."""
    state = session.start_game()
    while not state.is_over:
        session.push(RandomPlayer(len(state.moves)).choose(state.view(state.to_move)).move)


def record_ids() -> list[str]:
    path = data_dir() / ISS_RECORDS
    if not path.exists():
        return []
    records, errors = read_records(path)
    assert not errors
    return [r.id for r in records]


# ---------------------------------------------------------------- 1. a finished game is never lost


def test_a_game_over_is_scored_even_if_the_process_dies_before_finish_game():
    session = TableSession.new(21, series_save_path())
    play_to_the_end(session)
    # the process dies here: the table never called finish_game
    resumed, notices = open_session(None)
    assert len(resumed.series.entries) == 1 and resumed.state is None
    assert resumed.series.totals() == TableSession.from_json(session.to_json()).series.totals()
    assert record_ids() == ["21-1"]
    assert any("scored" in n for n in notices)
    # the next game is game 2 with the deal of game 2, not the same deal again
    assert resumed.game_number == 2
    assert resumed.start_game().deal == deal_for(21, 2)
    # starting again neither scores nor records it twice
    again, _ = open_session(None)
    assert len(again.series.entries) == 1 and record_ids() == ["21-1"]


def test_a_finished_current_game_in_an_older_save_is_scored_and_recorded_once():
    session = TableSession.new(22)
    play_to_the_end(session)
    data = {"version": SAVE_VERSION, "seed": 22, "first_dealer": 0, "games": [],
            "current": encode_game(session.state.deal, session.state.moves)}
    series_save_path().parent.mkdir(parents=True)
    series_save_path().write_text(json.dumps(data))
    resumed, _ = open_session(None)
    assert len(resumed.series.entries) == 1 and resumed.game_number == 2
    assert record_ids() == ["22-1"]
    again, _ = open_session(None)
    assert len(again.series.entries) == 1 and record_ids() == ["22-1"]


def test_a_record_appended_just_before_a_crash_is_not_appended_again():
    session = TableSession.new(23, series_save_path())
    play_to_the_end(session)
    session.finish_game()
    assert record_ids() == ["23-1"]
    # the process died after appending the record but before saving the count
    data = json.loads(series_save_path().read_text())
    data["recorded"] = 0
    series_save_path().write_text(json.dumps(data))
    open_session(None)
    assert record_ids() == ["23-1"]


# ---------------------------------------------------------------- 2. one table per data folder


def test_a_second_lock_on_the_folder_is_refused_and_a_released_one_taken():
    first = DataDirLock(data_dir())
    first.acquire()
    assert (data_dir() / LOCK_NAME).read_text().strip() == str(os.getpid())
    with pytest.raises(DataDirLocked, match=f"pid {os.getpid()}"):
        DataDirLock(data_dir()).acquire()
    first.release()
    assert not (data_dir() / LOCK_NAME).exists()
    second = DataDirLock(data_dir())
    second.acquire()
    second.release()


def test_a_stale_lock_of_a_dead_process_is_taken_over():
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    data_dir().mkdir(parents=True)
    (data_dir() / LOCK_NAME).write_text(f"{dead.pid}\n")
    lock = DataDirLock(data_dir())
    lock.acquire()
    assert (data_dir() / LOCK_NAME).read_text().strip() == str(os.getpid())
    lock.release()


def test_skat_refuses_a_data_folder_another_table_uses(isolated_dirs):
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    try:
        data_dir().mkdir(parents=True)
        (data_dir() / LOCK_NAME).write_text(f"{other.pid}\n")
        done = subprocess.run([sys.executable, "-m", "skat_tui.cli"], cwd=REPO, capture_output=True, text=True,
                              env={**os.environ}, stdin=subprocess.DEVNULL, timeout=120)
    finally:
        other.kill()
        other.wait()
    assert done.returncode == 1
    assert f"another skat table (pid {other.pid}) is using {data_dir()}; close it first" in done.stderr
    assert "Traceback" not in done.stderr
    assert not series_save_path().exists()


def test_the_temporary_save_file_is_this_process_own():
    # something at the temporary name another process (or an older version) would use
    data_dir().mkdir(parents=True)
    (data_dir() / "current-series.tmp").mkdir()
    (data_dir() / "current-series.json.tmp").mkdir()
    session = TableSession.new(5, series_save_path())
    session.start_game()
    assert json.loads(series_save_path().read_text())["seed"] == 5
    assert not list(data_dir().glob(f"*.{os.getpid()}.tmp"))


# ---------------------------------------------------------------- 3. and 5. damaged or unusable files


BAD_SETTINGS = [
    "[]", "null", "1", '"x"',
    '{"opponents": [{"budget": "abc"}]}',
    '{"opponents": [{"budget": -5}]}',
    '{"opponents": [{"kind": "mcu", "colour": "red"}]}',
    '{"hint": {"repetitions": 0}}',
    '{"ai_delay": 1e9}',
    '{"opponents": [{"budget": NaN}]}',
    '{"opponents": [{}, {"budget": Infinity}]}',
    '{"opponents": [{"simulations": 1e400}]}',
    '{"german": "yes"}',
]


@pytest.mark.parametrize("text", BAD_SETTINGS)
def test_damaged_settings_are_set_aside_with_a_notice(text):
    settings_path().parent.mkdir(parents=True)
    settings_path().write_text(text)
    notices: list[str] = []
    assert load_settings(notices) == Settings()
    assert len(notices) == 1 and "damaged" in notices[0] and "settings.broken.json" in notices[0]
    assert not settings_path().exists()
    assert (settings_path().parent / "settings.broken.json").read_text() == text


def test_a_second_damaged_settings_file_does_not_overwrite_the_first():
    settings_path().parent.mkdir(parents=True)
    for text in ("{not json", "[]", "null"):
        settings_path().write_text(text)
        load_settings([])
    folder = settings_path().parent
    assert (folder / "settings.broken.json").read_text() == "{not json"
    assert (folder / "settings.broken-2.json").read_text() == "[]"
    assert (folder / "settings.broken-3.json").read_text() == "null"


def test_good_settings_still_load():
    settings = Settings(ai_delay=1.5)
    settings.opponents[1].budget = None
    settings.opponents[1].simulations = 200
    save_settings(settings)
    notices: list[str] = []
    assert load_settings(notices) == settings and not notices


def test_command_line_numbers_are_checked_too():
    for overrides in ({"budget": float("nan")}, {"west.budget": float("inf")}, {"ai_delay": 1e9}):
        with pytest.raises(ValueError):
            Settings().with_overrides(overrides)


@pytest.mark.parametrize("text", ["[]", "null", "1", '{"version": 1, "seed": 1e400, "first_dealer": 0, "games": []}',
                                  '{"version": 1, "seed": 3, "first_dealer": 7, "games": []}',
                                  '{"version": 1, "seed": 3, "first_dealer": 0, "games": [1]}'])
def test_damaged_saves_are_set_aside_and_a_new_series_starts(text):
    series_save_path().parent.mkdir(parents=True)
    (data_dir() / "current-series.broken.json").write_text("an earlier broken save")
    series_save_path().write_text(text)
    session, notices = open_session(8)
    assert session.seed == 8 and session.state is None and not session.finished
    assert "damaged" in notices[0] and "current-series.broken-2.json" in notices[0]
    assert (data_dir() / "current-series.broken.json").read_text() == "an earlier broken save"
    assert (data_dir() / "current-series.broken-2.json").read_text() == text


def a_save_with_one_game_and_a_current_one() -> dict:
    session = TableSession.new(9)
    play_to_the_end(session)
    session._score_current()
    session.recorded = 1
    session.start_game()
    session.push(RandomPlayer(1).choose(session.state.view(session.state.to_move)).move)
    return session.to_json()


SAVE_CHANGES = [  # (change to a good save, what the notice names)
    ({"current": []}, "current must be a game or null"),
    ({"current": 0}, "current must be a game or null"),
    ({"recorded": -5}, "recorded must be between 0 and 1"),
    ({"recorded": 2}, "recorded must be between 0 and 1"),
    ({"recorded": "1"}, "recorded must be a number"),
    ({"seed": -1}, "seed must be between 0"),
    ({"seed": True}, "seed must be a number"),
    ({"first_dealer": 1.5}, "first_dealer must be a whole number"),
    ({"colour": "red"}, "unknown field 'colour'"),
    ({"rules": {"ramsch": "yes"}}, "rules: house rule ramsch is on or off"),
]


@pytest.mark.parametrize("change, message", SAVE_CHANGES, ids=[str(c) for c, _ in SAVE_CHANGES])
def test_every_field_of_the_save_is_checked_and_a_bad_one_set_aside(change, message):
    data = a_save_with_one_game_and_a_current_one()
    assert TableSession.from_json(json.loads(json.dumps(data))).game_number == 2  # the good save loads
    data.update(change)
    series_save_path().parent.mkdir(parents=True)
    series_save_path().write_text(json.dumps(data))
    session, notices = open_session(8)
    assert session.seed == 8 and not session.finished and session.state is None
    assert "damaged" in notices[0] and message in notices[0] and "current-series.broken.json" in notices[0]
    assert record_ids() == []  # nothing of the damaged save reaches the record file


@pytest.mark.parametrize("where", ["games", "current"])
@pytest.mark.parametrize("change, message", [
    (lambda game: game["moves"][0].__setitem__(0, 2), "is seat 1's, not seat 2's"),
    (lambda game: game["moves"][0].__setitem__(0, "1"), "must be [seat 0-2, move]"),
    (lambda game: game["moves"][0].append("extra"), "must be [seat 0-2, move]"),
    (lambda game: game["moves"][0].__setitem__(1, 18), "must be [seat 0-2, move]"),
    (lambda game: game["deal"].pop(), "the deal must list the 32 cards"),
    (lambda game: game.__setitem__("note", 1), "a game has a deal and moves only, not 'note'"),
], ids=["wrong-seat", "seat-as-text", "three-items", "move-not-text", "31-cards", "extra-key"])
def test_every_move_of_a_saved_game_is_checked(where, change, message):
    data = a_save_with_one_game_and_a_current_one()
    game = data["games"][0] if where == "games" else data["current"]
    change(game)
    with pytest.raises(ValueError) as info:
        TableSession.from_json(data)
    assert message in str(info.value)
    assert str(info.value).startswith("game 1: " if where == "games" else "current: ")


def test_run_table_shows_the_settings_notice_and_releases_the_lock(monkeypatch):
    settings_path().parent.mkdir(parents=True)
    settings_path().write_text("[]")
    shown: list[str] = []

    def fake_run(app: SkatApp) -> None:
        shown.extend(app.startup_notices)
        assert (data_dir() / LOCK_NAME).exists()

    monkeypatch.setattr(SkatApp, "run", fake_run)
    run_table(None, {})
    assert any("settings.broken.json" in n for n in shown)
    assert not (data_dir() / LOCK_NAME).exists()


def test_run_replay_shows_the_settings_notice(monkeypatch):
    settings_path().parent.mkdir(parents=True)
    settings_path().write_text("[]")
    shown: list[str] = []
    monkeypatch.setattr(SkatApp, "run", lambda app: shown.extend(app.startup_notices))
    run_replay(str(Path(__file__).parent.parent / "data" / "iss-samples.sgf"))
    assert any("damaged" in n and "settings.broken.json" in n for n in shown)


# ---------------------------------------------------------------- 4. a save that fails


async def test_a_failing_save_is_shown_at_the_table_and_play_goes_on(fast_settings):
    data_dir().parent.mkdir(parents=True, exist_ok=True)
    data_dir().write_text("a file where the data folder should be")
    app = new_app(fast_settings)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = app.screen
        await wait_until(pilot, lambda: isinstance(screen, TableScreen) and screen.my_turn)
        failures = [n for n in app._notifications if "Could not save the series" in n.message]
        assert len(failures) == 1 and failures[0].severity == "error"
        before = len(screen.state.moves)
        await pilot.press("p")
        assert len(screen.state.moves) > before  # the table still plays
        # the same failure on every move is not repeated
        assert len([n for n in app._notifications if "Could not save the series" in n.message]) == 1, [n.message for n in app._notifications]
    assert app.return_code in (None, 0)


def test_an_app_error_does_not_end_with_exit_status_0(monkeypatch):
    def broken_begin(self):
        raise RuntimeError("boom")

    monkeypatch.setattr(TableScreen, "begin_game", broken_begin)
    monkeypatch.setattr(SkatApp, "run", lambda app: asyncio.run(app.run_async(headless=True)))
    with pytest.raises(SystemExit) as stopped:
        run_table(1, {"ai_delay": 0.0})
    assert stopped.value.code == 1
    assert not (data_dir() / LOCK_NAME).exists()


# ---------------------------------------------------------------- 6. command-line opponents stay one-off


async def test_saving_settings_keeps_command_line_opponents_one_off():
    saved = Settings(ai_delay=0.0)
    save_settings(saved)
    table_settings = load_settings().with_overrides({"left": "heuristic", "right": "pimc:simulations=5"})
    app = new_app(table_settings)
    async with app.run_test(size=(100, 40)) as pilot:
        await open_settings_at_my_turn(pilot, app)
        await fill_in_and_save(pilot, app, {"german": True, "opp1-repetitions": "3"})
        assert isinstance(app.screen, TableScreen)
        # at the table the overrides still hold, with the change
        assert app.settings.opponents[0].kind == "heuristic" and app.settings.german
    on_disk = load_settings()
    assert on_disk.german and on_disk.opponents[1].repetitions == 3
    assert on_disk.opponents[0] == saved.opponents[0]  # not the --opponent-left heuristic
    assert (on_disk.opponents[1].kind, on_disk.opponents[1].simulations) == ("pimc", None)
    assert on_disk.opponents[1].budget == saved.opponents[1].budget


def test_a_bad_command_line_number_stops_with_a_message(monkeypatch):
    monkeypatch.setattr(SkatApp, "run", lambda app: pytest.fail("the table must not open"))
    with pytest.raises(SystemExit, match="seconds"):
        run_table(None, {"left": "mcu:time=inf"})
