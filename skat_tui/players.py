"""Which AI sits in a seat: the engine's ``make_player``, with a fallback.

A player kind that fails to build (a bad parameter, a module that does not
import) falls back to the heuristic player, then to the random one, and the
table says so instead of failing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.players.base import Player, RandomPlayer
from engine.players.registry import OPPONENT_KINDS, make_player

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


def resolve_player(kind: str, seed: int | None = None, **params: Any) -> PlayerChoice:
    """The player for ``kind`` with its parameters, or a fallback with a notice saying why."""
    problems: list[str] = []
    for candidate in (kind, *FALLBACK_ORDER):
        if candidate == "random":
            notice = f"{'; '.join(problems)}: playing random" if problems else None
            return PlayerChoice(RandomPlayer(seed), "random", notice)
        if candidate not in OPPONENT_KINDS:
            problems.append(f"unknown player type {candidate!r}")
            continue
        try:
            player = make_player(player_spec(candidate, params if candidate == kind else {}), seed)
        except ModuleNotFoundError:
            problems.append(f"{candidate} not installed")
            continue
        except Exception as exc:  # a bad parameter, or a broken player module
            problems.append(f"{candidate}: {type(exc).__name__}: {exc}")
            continue
        notice = f"{'; '.join(problems)}: playing {candidate}" if problems else None
        return PlayerChoice(player, candidate, notice)
    raise AssertionError("unreachable: random always works")
