"""The one-time note while the search core compiles, and a failed warm-up shown with its reason."""

from __future__ import annotations

import threading

import pytest

from engine.players import readiness
from engine.tools import warmup
from skat_tui.app import SkatApp
from skat_tui.persistence import TableSession, series_save_path

from tui_fakes import PassivePlayer, wait_until


@pytest.fixture
def cold_core(monkeypatch):
    """A core that is not compiled yet; the test decides what each part's warm-up does."""
    monkeypatch.setattr(readiness, "_ready", set())
    monkeypatch.setattr(warmup, "_done", threading.Event())
    monkeypatch.setattr(readiness, "_background", threading.Event())
    monkeypatch.setattr(warmup, "background_failure", None)
    monkeypatch.setattr(warmup, "cache_holds_core", lambda: False)

    def set_parts(parts):
        monkeypatch.setattr(warmup, "_WARM_UP", parts)

    return set_parts


def new_app(settings) -> SkatApp:
    session = TableSession.new(3, series_save_path())
    return SkatApp(session=session, settings=settings, players={1: PassivePlayer(), 2: PassivePlayer()})


def notes(app, text: str) -> list[str]:
    return [n.message for n in app._notifications if n.title == "Search core" and text in n.message]


async def test_a_failed_warm_up_is_shown_with_its_reason(cold_core, fast_settings):
    def broken():
        raise RuntimeError("no compiler today")

    cold_core({part: broken for part in warmup.PARTS})
    app = new_app(fast_settings)
    async with app.run_test() as pilot:
        await wait_until(pilot, lambda: notes(app, "failed"))
        (message,) = notes(app, "failed")
        assert "RuntimeError: no compiler today" in message
        assert not readiness.pending()  # the players compile on first use now


async def test_the_note_shows_which_parts_are_ready_until_the_core_is(cold_core, fast_settings):
    solver_may_finish = threading.Event()
    cold_core({
        warmup.HEURISTIC: lambda: None,
        warmup.PLAYOUTS: lambda: None,
        warmup.SOLVER: lambda: solver_may_finish.wait(30),
    })
    app = new_app(fast_settings)
    async with app.run_test() as pilot:
        await wait_until(pilot, lambda: notes(app, "2 of 3 parts ready"))
        (message,) = notes(app, "")  # one note on the subject at a time: the one before is gone
        assert message == ("Compiling the search core, once: 2 of 3 parts ready, now the solver. "
                           "Meanwhile the computers play simple cards.")
        solver_may_finish.set()
        await wait_until(pilot, lambda: notes(app, "ready ("))
        assert len(notes(app, "")) == 1 and not notes(app, "failed")


async def test_a_cached_core_that_loads_slowly_is_loading_not_compiling(cold_core, fast_settings, monkeypatch):
    monkeypatch.setattr(warmup, "cache_holds_core", lambda: True)
    solver_may_finish = threading.Event()
    cold_core({warmup.HEURISTIC: lambda: None, warmup.PLAYOUTS: lambda: None,
               warmup.SOLVER: lambda: solver_may_finish.wait(30)})
    app = new_app(fast_settings)
    async with app.run_test() as pilot:
        await wait_until(pilot, lambda: notes(app, "2 of 3 parts ready"))
        (message,) = notes(app, "")
        assert message == "Loading the search core: 2 of 3 parts ready, now the solver."
        solver_may_finish.set()


def test_the_cache_check_tells_a_cold_cache(tmp_path, monkeypatch):
    import subprocess
    import sys

    check = "import skat_tui.app; from engine.tools import warmup; print(warmup.cache_holds_core())"
    cold = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True,
                          env={**__import__("os").environ, "NUMBA_CACHE_DIR": str(tmp_path)}, check=True)
    assert cold.stdout.strip() == "False"
    warm = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, check=True)
    assert warm.stdout.strip() == "True"  # the session fixture compiled the core into the cache


async def test_a_warm_core_shows_no_note(fast_settings):
    app = new_app(fast_settings)  # the session fixture warmed the core up already
    async with app.run_test() as pilot:
        await pilot.pause(1.5)
        assert not warmup.status().running
        assert not [n for n in app._notifications if n.title == "Search core"]
