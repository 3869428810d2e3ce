"""Shared fixtures for the TUI tests (fake players live in tui_fakes.py)."""

from __future__ import annotations

import pytest

from skat_tui.settings import Settings


@pytest.fixture(scope="session", autouse=True)
def warm_core():
    """Compile (or load) the numba core before the first UI test, as the app does in the
    background: on a cold cache that holds numba's compiler for ~40 s, and UI tests that
    time a stop or wait for a live analysis must not wait for the compiler instead."""
    from engine.tools.warmup import warm_up

    warm_up()


@pytest.fixture(autouse=True)
def isolated_dirs(tmp_path, monkeypatch):
    """Settings, saves and records go to a temporary directory in every test."""
    monkeypatch.setenv("SKAT_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("SKAT_DATA_DIR", str(tmp_path / "data"))
    return tmp_path


@pytest.fixture
def fast_settings() -> Settings:
    settings = Settings()
    settings.ai_delay = 0.0
    return settings
