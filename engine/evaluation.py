"""Evaluation functions: how a simulated outcome scores for the player's side.

Schäfer (2005, ch. 6) compares: mean card points (PIMC's and MCTS's default for suit and grand),
the count of won games (the default for null), a step function over the
outcome classes, and three ways of sloping the steps.  Here each is one
``Evaluation`` with parameters, parsed from a short spec:

    mean            card points of the side
    wins            1 won, 0 lost
    step            lost+schwarz -8, lost+schneider -4, lost -2, won 1, won+schneider 2, won+schwarz 3
    type1-10        step, with a linear ramp over the last 10 points before each step (5/10/15/20)
    type2-50        step, each level ramping up to 50 % of the next step's height (25/50/75);
                    the lost level never ramps above 0
    type3           step, each level ramping all the way to the next (piecewise linear)

MCU's default for suit and grand is ``type2-50``, which the thesis found the only one to
strengthen it, and which wins more games against XSkat (docs/strength.md).

Null games know only lost and won: ``step`` and the sloped types give -2 and 1.
"""

from __future__ import annotations

from dataclasses import dataclass

from .scoring import ALL_POINTS, OUT_OF_SCHNEIDER, SCHNEIDER_POINTS, WIN_POINTS

# Step values and where each level starts, for the declarer's side (for the
# defenders the win starts at 60 instead of 61).
_LEVELS = (-8.0, -4.0, -2.0, 1.0, 2.0, 3.0)
KINDS = ("mean", "wins", "step", "type1", "type2", "type3")


def _level_starts(declarer_side: bool) -> tuple[int, ...]:
    return (0, 1, OUT_OF_SCHNEIDER, WIN_POINTS if declarer_side else WIN_POINTS - 1, SCHNEIDER_POINTS, ALL_POINTS)


@dataclass(frozen=True)
class Evaluation:
    kind: str = "mean"
    param: int = 0
    """type1: ramp width in points; type2: percent of the next step's height."""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown evaluation {self.kind!r} (expected one of {', '.join(KINDS)})")
        if self.kind == "type1" and self.param not in (5, 10, 15, 20):
            raise ValueError("type1 ramps over 5, 10, 15 or 20 points (e.g. type1-10)")
        if self.kind == "type2" and self.param not in (25, 50, 75):
            raise ValueError("type2 ramps to 25, 50 or 75 % (e.g. type2-50)")

    @classmethod
    def parse(cls, spec: str) -> Evaluation:
        kind, _, param = spec.strip().lower().partition("-")
        try:
            return cls(kind, int(param) if param else (50 if kind == "type2" else 10 if kind == "type1" else 0))
        except ValueError as exc:
            if "invalid literal" in str(exc):
                raise ValueError(f"bad evaluation parameter in {spec!r}") from None
            raise

    def __str__(self) -> str:
        return f"{self.kind}-{self.param}" if self.kind in ("type1", "type2") else self.kind

    def __call__(self, side_points: int, won: bool, declarer_side: bool, null_game: bool = False) -> float:
        """The value of one outcome for the player's side."""
        if null_game or self.kind == "wins":
            if self.kind in ("mean", "wins"):
                return 1.0 if won else 0.0
            return 1.0 if won else -2.0
        if self.kind == "mean":
            return float(side_points)
        starts = _level_starts(declarer_side)
        level = max(i for i, start in enumerate(starts) if side_points >= start)
        value = _LEVELS[level]
        if self.kind == "step" or level == len(_LEVELS) - 1:
            return value
        start, next_start = starts[level], starts[level + 1]
        rise = _LEVELS[level + 1] - value
        if self.kind == "type1":
            ramp_from = next_start - self.param
            if side_points >= ramp_from and level > 0:
                return value + rise * (side_points - ramp_from) / self.param
            return value
        share = 1.0 if self.kind == "type3" else self.param / 100
        sloped = value + rise * share * (side_points - start) / (next_start - start)
        if self.kind == "type2" and value < 0 < sloped and _LEVELS[level + 1] > 0:
            return 0.0  # the lost level must not look like a win
        return sloped


def default_for(null_game: bool, trump_games: Evaluation) -> Evaluation:
    """A player's evaluation where its spec gives none: won games in null, otherwise its own
    default for suit and grand games (``MonteCarloPlayer.default_evaluation``)."""
    return Evaluation("wins") if null_game else trump_games
