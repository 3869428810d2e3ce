"""Budgets for a decision: thinking time (in reference seconds) and/or simulations.

A budget of ``time=2`` means "as much thinking as 2 s on the reference machine";
``wall_seconds`` converts it with this machine's speed factor, which
``engine.calibration`` measures and stores in the config directory
(``config_dir``).  The factor is read lazily, on the first conversion.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from pathlib import Path


MAX_SIMULATIONS = 10_000_000
MAX_THREADS = 256
MAX_SECONDS = 86_400.0
"""Upper bounds of a budget and of a search's threads: beyond them a number is a typo, not a budget."""
DEFAULT_SIMULATIONS = 100
"""The worlds a Monte Carlo decision or a review values when no budget is given."""


@dataclass(frozen=True)
class Limit:
    """What a player may spend on one decision; ``None`` fields do not limit.

    ``time`` is in reference seconds: the player converts it with the machine's
    measured speed factor (``wall_seconds``) before using it as wall time.
    ``simulations`` counts worlds (MCU: a world with every legal card played out
    ``reps`` times; PIMC: a world solved for every legal card).
    """

    time: float | None = None
    simulations: int | None = None

    def __post_init__(self) -> None:
        # NaN compares false with everything: a NaN budget would never stop
        if self.time is not None and not math.isfinite(self.time):
            raise ValueError(f"a time limit must be a finite number of seconds, not {self.time!r}")
        if self.time is not None and self.time < 0:
            raise ValueError("a time limit cannot be negative")
        if self.simulations is not None and self.simulations < 1:
            raise ValueError("a simulation limit must be at least 1")

    def __str__(self) -> str:
        parts = []
        if self.time is not None:
            parts.append(f"{self.time:g} s")
        if self.simulations is not None:
            parts.append(f"{self.simulations} simulations")
        return " / ".join(parts) or "unlimited"


APP_NAME = "skat-table"
"""The name the configuration and data folders are kept under."""


def config_dir() -> Path:
    """The configuration folder (the speed factor, the table's settings): ``SKAT_CONFIG_DIR``
    when set, else the platform's folder for ``APP_NAME``."""
    override = os.environ.get("SKAT_CONFIG_DIR")
    if override:
        return Path(override)
    from platformdirs import user_config_dir

    return Path(user_config_dir(APP_NAME))


def calibration_file() -> Path:
    """Where ``engine.calibration`` stores the speed factor."""
    return config_dir() / "calibration.json"


_cached_factor: float | None = None


def speed_factor() -> float:
    """This machine's speed relative to the reference (1.0 until calibrated)."""
    global _cached_factor
    if _cached_factor is None:
        try:
            data = json.loads(calibration_file().read_text())
            factor = float(data["speed_factor"])
            _cached_factor = factor if factor > 0 else 1.0
        except (OSError, ValueError, KeyError, TypeError):
            _cached_factor = 1.0
    return _cached_factor


def remember_speed_factor(factor: float) -> None:
    """Use ``factor`` from now on (``engine.calibration`` has just stored it)."""
    global _cached_factor
    _cached_factor = factor


def wall_seconds(reference_seconds: float) -> float:
    """Wall time for a budget given in reference seconds."""
    return reference_seconds / speed_factor()
