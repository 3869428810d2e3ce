"""User settings: opponents, display, pacing; persisted as JSON in the config dir.

``SKAT_CONFIG_DIR`` and ``SKAT_DATA_DIR`` override the platform directories
(tests point them at temporary directories).
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import platformdirs

from engine.limits import Limit

APP_NAME = "skat-table"
PLAYER_KINDS = ("heuristic", "mcu", "pimc")
EVALUATIONS = ("mean", "wins", "step", "type1-10", "type2-50", "type3")
"""Evaluation functions of MCU/PIMC (engine.evaluation): mean card points, wins,
the step function over the outcome, and its sloped variants."""

OPPONENT_NAMES = ("West", "East")


def config_dir() -> Path:
    return Path(os.environ.get("SKAT_CONFIG_DIR") or platformdirs.user_config_dir(APP_NAME))


def data_dir() -> Path:
    return Path(os.environ.get("SKAT_DATA_DIR") or platformdirs.user_data_dir(APP_NAME))


def settings_path() -> Path:
    return config_dir() / "settings.json"


@dataclass
class OpponentSettings:
    kind: str = "heuristic"
    budget: float | None = 2.0
    """Thinking time per decision in reference seconds (None: no time limit)."""
    simulations: int | None = None
    """Worlds per decision (None: no simulation limit)."""
    evaluation: str = "mean"
    repetitions: int = 1
    """Heuristic playouts per card and world (MCU's k)."""
    extra: dict[str, str] = field(default_factory=dict)
    """Further engine spec parameters from the command line (sampler, threads)."""

    def limit(self) -> Limit | None:
        if self.budget is None and self.simulations is None:
            return None
        return Limit(time=self.budget, simulations=self.simulations)

    def params(self) -> dict[str, Any]:
        """Player parameters for make_player, as the engine's player specs name them."""
        if self.kind == "mcu":
            return {"eval": self.evaluation, "reps": self.repetitions, **self.extra}
        if self.kind == "pimc":
            return {"eval": self.evaluation, **self.extra}
        return {}

    @classmethod
    def from_spec(cls, spec: str) -> OpponentSettings:
        """From an engine player spec such as ``mcu:time=2``, ``pimc:simulations=100,eval=step``.

        A spec that names a budget replaces the default one (``simulations=100``
        alone means no time limit)."""
        from engine.players.registry import parse_spec

        parsed = parse_spec(spec)
        if parsed.kind not in PLAYER_KINDS:
            raise ValueError(f"the table seats {', '.join(PLAYER_KINDS)} opponents, not {parsed.kind!r}")
        params = dict(parsed.params)
        result = cls(kind=parsed.kind)
        if "time" in params or "simulations" in params:
            result.budget = float(params.pop("time")) if "time" in params else None
            result.simulations = int(params.pop("simulations")) if "simulations" in params else None
        if "eval" in params:
            result.evaluation = params.pop("eval")
        if "reps" in params:
            result.repetitions = int(params.pop("reps"))
        result.extra = params
        result.limit()  # validates the budget
        return result

    def describe(self) -> str:
        if self.kind == "heuristic":
            return "heuristic"
        return f"{self.kind} {self.limit() or 'unlimited'}"


def _default_opponents() -> list[OpponentSettings]:
    # One MCU and one PIMC opponent, 2 reference seconds each.  PIMC answers
    # "does the declarer reach 61?" per card (wins): far cheaper than exact
    # points, so it sees many more worlds in its time.
    return [OpponentSettings(kind="mcu"), OpponentSettings(kind="pimc", evaluation="wins")]


@dataclass
class Settings:
    opponents: list[OpponentSettings] = field(default_factory=_default_opponents)
    """West, then East."""
    german: bool = False
    """German suit symbols and rank names (B D K A)."""
    ai_delay: float = 0.5
    """Least seconds an AI move takes on screen, so a human can follow the play."""
    hint: OpponentSettings = field(default_factory=lambda: OpponentSettings(kind="mcu", budget=1.0))
    """The player that answers the hint key."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Settings:
        """Read settings, ignoring unknown keys and keeping defaults for missing ones."""
        default = cls()

        def opponent(raw: Any, fallback: OpponentSettings) -> OpponentSettings:
            if not isinstance(raw, dict):
                return fallback
            known = {f.name for f in fields(OpponentSettings)}
            result = replace(fallback, **{k: v for k, v in raw.items() if k in known})
            if result.kind not in PLAYER_KINDS:
                result.kind = "heuristic"
            if result.evaluation not in EVALUATIONS:
                result.evaluation = "mean"
            return result

        raw_opponents = data.get("opponents") if isinstance(data.get("opponents"), list) else []
        opponents = [
            opponent(raw_opponents[i] if i < len(raw_opponents) else None, default.opponents[i]) for i in range(2)
        ]
        return cls(
            opponents=opponents,
            german=bool(data.get("german", default.german)),
            ai_delay=float(data.get("ai_delay", default.ai_delay)),
            hint=opponent(data.get("hint"), default.hint),
        )

    def with_overrides(self, overrides: dict[str, Any]) -> Settings:
        """Apply command-line overrides (not saved).

        Keys: ``left``/``right`` (West/East as engine player specs such as
        ``mcu:time=2``), ``west``/``east`` (player kind), ``budget``, ``simulations``,
        ``evaluation``, ``repetitions`` (both opponents), ``west.budget`` style
        keys for one opponent, ``german``, ``ai_delay``.  Other keys (such as
        ``new_series``) are left to the caller.
        """
        result = Settings.from_json(self.to_json())
        per_opponent = {f.name for f in fields(OpponentSettings)}
        for key, value in overrides.items():
            if value is None:
                continue
            name, _, attr = key.partition(".")
            if key in ("left", "right"):
                result.opponents[0 if key == "left" else 1] = OpponentSettings.from_spec(str(value))
            elif name in ("west", "east"):
                target = result.opponents[0 if name == "west" else 1]
                attr = attr or "kind"
                if attr not in per_opponent:
                    raise ValueError(f"unknown opponent setting {key!r}")
                setattr(target, attr, value)
                if attr == "kind" and value not in PLAYER_KINDS:
                    raise ValueError(f"unknown player type {value!r} (one of {', '.join(PLAYER_KINDS)})")
            elif key in per_opponent and key != "kind":
                for target in result.opponents:
                    setattr(target, key, value)
            elif key in ("german", "ai_delay"):
                setattr(result, key, type(getattr(result, key))(value))
        return result


def load_settings() -> Settings:
    """The saved settings, or the defaults when there are none or they are unreadable."""
    path = settings_path()
    try:
        return Settings.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError):
        return Settings()


def save_settings(settings: Settings) -> Path:
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(settings.to_json(), indent=2), encoding="utf-8")
    os.replace(tmp, path)
    return path
