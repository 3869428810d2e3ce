"""Budgets for a decision: thinking time (in reference seconds) and/or simulations."""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Limit:
    """What a player may spend on one decision; ``None`` fields do not limit.

    ``time`` is in reference seconds: the player converts it with the machine's
    measured speed factor (``engine.calibration``) before using it as wall time.
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
