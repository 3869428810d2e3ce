"""Shared fixtures for the TUI tests (fake players live in tui_fakes.py)."""

from __future__ import annotations

import pytest

from skat_tui.settings import Settings


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
