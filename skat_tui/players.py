"""Which AI sits in a seat: the ``make_player`` registry.

Players are built lazily through the engine's player registry
(``engine.players.registry``, spec strings such as ``mcu:eval=mean,reps=1``),
so a player type that is missing or fails to build falls back to the
heuristic player, then to the random one, and the table says so instead of
failing.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from engine.players.base import Player, RandomPlayer

PLAYER_CLASSES: dict[str, tuple[str, str]] = {
    "heuristic": ("engine.players.heuristic", "HeuristicPlayer"),
    "mcu": ("engine.players.mcu", "MCUPlayer"),
    "pimc": ("engine.players.pimc", "PIMCPlayer"),
}
FALLBACK_ORDER = ("heuristic", "random")


@dataclass(frozen=True)
class PlayerChoice:
    player: Player
    kind: str
    """The type actually seated (may differ from the one asked for)."""
    notice: str | None = None
    """Why a fallback was seated, for the user to see."""


def player_spec(kind: str, params: dict[str, Any]) -> str:
    """``kind:key=value,...`` as the engine's registry reads it."""
    if not params:
        return kind
    return kind + ":" + ",".join(f"{key}={value}" for key, value in params.items())


def _build(kind: str, params: dict[str, Any], seed: int | None) -> Player:
    try:
        registry = importlib.import_module("engine.players.registry")
    except ModuleNotFoundError:
        registry = None
    if registry is not None:
        return registry.make_player(player_spec(kind, params), seed)
    # Without the registry, the classes themselves (a heuristic player takes only a seed).
    module_name, class_name = PLAYER_CLASSES[kind]
    cls = getattr(importlib.import_module(module_name), class_name)
    return cls(seed=seed) if not params else cls.from_params({k: str(v) for k, v in params.items()}, seed)


def resolve_player(kind: str, seed: int | None = None, **params: Any) -> PlayerChoice:
    """The player for ``kind`` with its parameters, or a fallback with a notice saying why."""
    problems: list[str] = []
    for candidate in (kind, *FALLBACK_ORDER):
        if candidate == "random":
            notice = f"{'; '.join(problems)}: playing random" if problems else None
            return PlayerChoice(RandomPlayer(seed), "random", notice)
        if candidate not in PLAYER_CLASSES:
            problems.append(f"unknown player type {candidate!r}")
            continue
        try:
            player = _build(candidate, params if candidate == kind else {}, seed)
        except ModuleNotFoundError:
            problems.append(f"{candidate} not installed")
            continue
        except Exception as exc:  # a bad parameter, or a broken player module
            problems.append(f"{candidate}: {type(exc).__name__}: {exc}")
            continue
        notice = f"{'; '.join(problems)}: playing {candidate}" if problems else None
        return PlayerChoice(player, candidate, notice)
    raise AssertionError("unreachable: random always works")


def make_player(kind: str, **params: Any) -> Player:
    """A player of type ``kind`` ('heuristic', 'mcu', 'pimc'; ``seed`` and the
    engine's spec parameters such as ``eval``/``reps``), falling back to
    heuristic, then random; see ``resolve_player`` for the notice."""
    return resolve_player(kind, **params).player
