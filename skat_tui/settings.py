"""User settings: opponents, display, pacing, house rules; persisted as JSON in the config dir.

``SKAT_CONFIG_DIR`` and ``SKAT_DATA_DIR`` override the platform directories
(tests point them at temporary directories).
"""

from __future__ import annotations

import functools
import json
import math
import os
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import platformdirs

from engine.house_rules import ISKO, HouseRules, rules_from_options
from engine.limits import APP_NAME, Limit, config_dir
from engine.players.registry import OPPONENT_KINDS

from .words import OPPONENT_NAMES

EVALUATIONS = ("mean", "wins", "step", "type1-10", "type2-50", "type3")
"""Evaluation functions of MCU/PIMC/MCTS (engine.evaluation): mean card points, wins,
the step function over the outcome, and its sloped variants."""


BIDDING_METHODS = ("heuristic", "search")
"""How MCU and PIMC make the decisions before the card play (their ``bidding=``)."""

MAX_AI_DELAY = 10.0
"""Seconds; a longer least time per AI move would freeze the table."""
MAX_BUDGET = 3600.0
"""Reference seconds per decision; larger numbers are typing errors."""


def check_number(value: Any, name: str, *, low: float, high: float, whole: bool = False) -> float:
    """``value`` as a finite number in [low, high]; raises ValueError naming the setting."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{name} must be a number, not {value!r}")
    if not math.isfinite(value) or not low <= value <= high:
        raise ValueError(f"{name} must be between {low:g} and {high:g}, not {value!r}")
    if whole and value != int(value):
        raise ValueError(f"{name} must be a whole number, not {value!r}")
    return int(value) if whole else float(value)


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

    def check(self, name: str) -> None:
        """Raise ValueError for a setting no player can use (NaN, infinity, out of range, wrong type)."""
        if self.kind not in OPPONENT_KINDS:
            raise ValueError(f"{name}: unknown player type {self.kind!r}")
        if self.evaluation not in EVALUATIONS:
            raise ValueError(f"{name}: unknown evaluation {self.evaluation!r}")
        if self.budget is not None:
            self.budget = check_number(self.budget, f"{name} seconds", low=0, high=MAX_BUDGET)
        if self.simulations is not None:
            self.simulations = int(check_number(self.simulations, f"{name} simulations", low=1, high=10**9,
                                                whole=True))
        self.repetitions = int(check_number(self.repetitions, f"{name} repetitions", low=1, high=10**6, whole=True))
        if not isinstance(self.extra, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                       for k, v in self.extra.items()):
            raise ValueError(f"{name}: extra parameters must map names to text")

    def limit(self) -> Limit | None:
        if self.budget is None and self.simulations is None:
            return None
        return Limit(time=self.budget, simulations=self.simulations)

    def params(self) -> dict[str, Any]:
        """Player parameters for make_player, as the engine's player specs name them."""
        if self.kind == "mcu":
            return {"eval": self.evaluation, "reps": self.repetitions, **self.extra}
        if self.kind in ("pimc", "mcts"):
            return {"eval": self.evaluation, **self.extra}
        return {}

    @classmethod
    def from_spec(cls, spec: str) -> OpponentSettings:
        """From an engine player spec such as ``mcu:time=2``, ``pimc:simulations=100,eval=step``.

        A spec that names a budget replaces the default one (``simulations=100``
        alone means no time limit)."""
        from engine.players.registry import parse_spec

        parsed = parse_spec(spec)
        if parsed.kind not in OPPONENT_KINDS:
            raise ValueError(f"the table seats {', '.join(OPPONENT_KINDS)} opponents, not {parsed.kind!r}")
        params = dict(parsed.params)
        result = cls(kind=parsed.kind, evaluation=default_evaluation(parsed.kind))
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

    @property
    def bidding(self) -> str:
        """How an MCU or PIMC opponent bids, takes the skat, discards and declares
        (``bidding=`` of its spec, kept with the other engine parameters)."""
        return self.extra.get("bidding", "heuristic")

    def describe(self) -> str:
        if self.kind == "heuristic":
            return "heuristic"
        searching = " · search bids" if self.bidding == "search" else ""
        return f"{self.kind} {self.limit() or 'unlimited'}{searching}"


SPEC_PARAMETERS = {"evaluation": "eval=mean", "budget": "time=1", "simulations": "simulations=1",
                   "repetitions": "reps=1", "bidding": "bidding=heuristic"}
"""Each setting of a player as a parameter of the engine's player spec, with a value it takes."""


@functools.cache
def default_evaluation(kind: str) -> str:
    """The evaluation a ``kind`` player gives suit and grand games when its spec names none:
    the engine's (MCU ``type2-50``, PIMC and MCTS ``mean``; the heuristic has none)."""
    from engine.players.registry import make_player

    return str(getattr(make_player(kind, 0), "default_evaluation", "mean"))


@functools.cache
def takes(kind: str, setting: str) -> bool:
    """Whether a ``kind`` player takes ``setting`` (a key of ``SPEC_PARAMETERS``): the engine's
    registry says, by building such a player."""
    from engine.players.registry import validate_spec

    try:
        validate_spec(f"{kind}:{SPEC_PARAMETERS[setting]}")
    except ValueError:
        return False
    return True


def _default_opponents() -> list[OpponentSettings]:
    # Two PIMC opponents, 2 reference seconds each, answering "does the declarer
    # reach 61?" per card (wins): far cheaper than exact points, so they see many
    # more worlds in their time.  Of our players this one scores most against
    # XSkat (docs/strength.md, "Against XSkat"); MCU stays one setting away.
    return [OpponentSettings(kind="pimc", evaluation="wins"),
            OpponentSettings(kind="pimc", evaluation="wins")]


@dataclass
class Settings:
    opponents: list[OpponentSettings] = field(default_factory=_default_opponents)
    """West, then East."""
    german: bool = False
    """German suit symbols and rank names (B D K A)."""
    ai_delay: float = 0.5
    """Least seconds an AI move takes on screen, so a human can follow the play."""
    hint: OpponentSettings = field(default_factory=lambda: OpponentSettings(
        kind="mcu", budget=1.0, evaluation=default_evaluation("mcu")))
    """The player that answers the hint key."""
    rules: HouseRules = ISKO
    """The rules a new series is played by (a series keeps the rules it started with)."""
    show_computer_cards: bool = False
    """Show the computers' cards in the debug panel during play (their hands, candidates,
    discards and bidding limits); off, the panel shows only what your seat may know, and a
    game played with it on is marked on the score sheet and in its record."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def check(self) -> None:
        """Raise ValueError for a value no table can use."""
        for name, player in zip((*OPPONENT_NAMES, "hint"), (*self.opponents, self.hint)):
            player.check(name)
        for name in ("german", "show_computer_cards"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be true or false, not {getattr(self, name)!r}")
        self.ai_delay = check_number(self.ai_delay, "ai_delay", low=0, high=MAX_AI_DELAY)
        if not isinstance(self.rules, HouseRules):
            raise ValueError(f"rules must be house rules, not {self.rules!r}")

    @classmethod
    def from_json(cls, data: Any) -> Settings:
        """Read settings, keeping defaults for missing keys; raises ValueError for a
        file that is not a settings object, an unknown key or a value out of range."""
        default = cls()
        if not isinstance(data, dict):
            raise ValueError(f"settings must be a JSON object, not {type(data).__name__}")
        known_players = {f.name for f in fields(OpponentSettings)}

        def opponent(raw: Any, fallback: OpponentSettings, name: str) -> OpponentSettings:
            if raw is None:
                return fallback
            if not isinstance(raw, dict):
                raise ValueError(f"{name} must be an object, not {raw!r}")
            unknown = sorted(set(raw) - known_players)
            if unknown:
                raise ValueError(f"{name}: unknown setting {unknown[0]!r}")
            return replace(fallback, **raw)

        unknown = sorted(set(data) - {f.name for f in fields(cls)})
        if unknown:
            raise ValueError(f"unknown setting {unknown[0]!r}")
        raw_opponents = data.get("opponents", [])
        if not isinstance(raw_opponents, list) or len(raw_opponents) > 2:
            raise ValueError("opponents must be a list of two")
        opponents = [
            opponent(raw_opponents[i] if i < len(raw_opponents) else None, default.opponents[i], OPPONENT_NAMES[i])
            for i in range(2)
        ]
        settings = cls(
            opponents=opponents,
            german=data.get("german", default.german),
            ai_delay=data.get("ai_delay", default.ai_delay),
            hint=opponent(data.get("hint"), default.hint, "hint"),
            rules=HouseRules.from_dict(data["rules"]) if "rules" in data else default.rules,
            show_computer_cards=data.get("show_computer_cards", default.show_computer_cards),
        )
        settings.check()
        return settings

    def with_overrides(self, overrides: dict[str, Any]) -> Settings:
        """Apply command-line overrides (not saved).

        Keys: ``left``/``right`` (West/East as engine player specs such as
        ``mcu:time=2``), ``west``/``east`` (player kind), ``budget``, ``simulations``,
        ``evaluation``, ``repetitions`` (both opponents), ``west.budget`` style
        keys for one opponent, ``german``, ``ai_delay``, ``rules`` (``--rules`` and the
        single switches as ``(preset or None, {switch: True/False/None})``, on top of
        the saved rules).  Other keys (such as
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
                if attr == "kind" and value not in OPPONENT_KINDS:
                    raise ValueError(f"unknown player type {value!r} (one of {', '.join(OPPONENT_KINDS)})")
                if attr == "kind" and target.evaluation == default_evaluation(target.kind):
                    target.evaluation = default_evaluation(value)  # a new kind brings its own default
                setattr(target, attr, value)
            elif key in per_opponent and key != "kind":
                for target in result.opponents:
                    setattr(target, key, value)
            elif key in ("german", "ai_delay"):
                setattr(result, key, type(getattr(result, key))(value))
            elif key == "rules":
                preset, switches = value
                result.rules = rules_from_options(preset, switches, base=result.rules)
        result.check()
        return result


def load_settings(notices: list[str] | None = None) -> Settings:
    """The saved settings, or the defaults when there are none.

    A damaged file (not JSON, wrong types, values out of range) is set aside as
    ``settings.broken.json`` (``-2``, ``-3``… if that exists) so that the next
    save does not overwrite it; a notice saying so goes to ``notices``."""
    from .safe_files import set_aside

    path = settings_path()
    if not path.exists():
        return Settings()
    try:
        return Settings.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (ValueError, TypeError, OverflowError, RecursionError) as exc:
        problem = f"The settings in {path} are damaged ({exc})"
    except OSError as exc:
        if notices is not None:
            notices.append(f"Cannot read the settings in {path} ({exc.strerror or exc}); using the defaults")
        return Settings()
    try:
        kept = set_aside(path)
        problem += f"; kept as {kept.name}, using the defaults"
    except OSError as exc:
        problem += f"; could not set the file aside ({exc.strerror or exc}), using the defaults"
    if notices is not None:
        notices.append(problem)
    return Settings()


def save_settings(settings: Settings) -> Path:
    """Write the settings; raises OSError."""
    from .safe_files import write_atomically

    path = settings_path()
    write_atomically(path, json.dumps(settings.to_json(), indent=2))
    return path


def changed_settings(base: Settings, shown: Settings, edited: Settings) -> Settings:
    """``base`` with just what differs between ``shown`` and ``edited``: the settings
    dialog shows the table's settings, which may hold one-off command-line
    overrides; only what the user changed there goes into the file."""
    result = Settings.from_json(base.to_json())
    players = zip((*result.opponents, result.hint), (*shown.opponents, shown.hint), (*edited.opponents, edited.hint))
    for target, before, after in players:
        for f in fields(OpponentSettings):
            if getattr(before, f.name) != getattr(after, f.name):
                setattr(target, f.name, getattr(after, f.name))
    for name in ("german", "ai_delay", "rules", "show_computer_cards"):
        if getattr(shown, name) != getattr(edited, name):
            setattr(result, name, getattr(edited, name))
    return result


def save_settings_changes(shown: Settings, edited: Settings) -> Path:
    """Save what the user changed from ``shown`` to ``edited`` on top of the saved settings; raises OSError."""
    return save_settings(changed_settings(load_settings(), shown, edited))
