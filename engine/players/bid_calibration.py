"""Correction of the search bidder's win shares for the bias of its valuation.

The share of sampled worlds in which the declarer wins is not the chance that
he wins the real game: double-dummy solves let both sides see every card, and
heuristic playouts let the heuristic defend.  Measured on self-play
(``python3 -m engine.tools.bid_calibration``, figures in docs/bidding.md), the
real win share of declared games follows
logit(actual) = a + b · logit(predicted) per valuation and game family; the
bidder reads its chances through that line.
"""

from __future__ import annotations

import math

import numpy as np

from ..rules import GameType

FAMILIES = ("suit", "grand", "null")

CALIBRATION: dict[str, dict[str, tuple[float, float]]] = {
    "solver": {"suit": (1.374, 0.596), "grand": (1.313, 0.5), "null": (1.195, 0.412)},
    "playout": {"suit": (0.329, 0.843), "grand": (0.487, 0.625), "null": (0.143, 0.553)},
}
"""(a, b) per valuation and family; (0, 1) would leave a share unchanged.  Fitted on
1,953 declared games of 2,000 deals of MCU self-play at 30 worlds (docs/bidding.md)."""

EDGE = 0.02
"""Shares are clipped to [EDGE, 1 - EDGE] before the logit: 0 of 40 worlds is not a sure loss."""


def family_of(game: GameType) -> str:
    if game == GameType.NULL:
        return "null"
    return "grand" if game == GameType.GRAND else "suit"


def _logit(p):
    p = np.clip(p, EDGE, 1 - EDGE)
    return np.log(p / (1 - p))


def calibrated(valuation: str, game: GameType, share: float) -> float:
    """The chance of winning the real game for a win share of ``share`` over the worlds."""
    a, b = CALIBRATION[valuation][family_of(game)]
    if (a, b) == (0.0, 1.0):
        return share
    return float(1.0 / (1.0 + math.exp(-(a + b * float(_logit(share))))))


def fit_logistic(predicted: np.ndarray, won: np.ndarray, iterations: int = 100) -> tuple[float, float]:
    """(a, b) maximising the likelihood of ``won`` under logit(p) = a + b · logit(predicted)
    (damped Newton steps, with a small ridge towards no correction so thin data stay near it)."""
    x = _logit(np.asarray(predicted, float))
    y = np.asarray(won, float)
    prior = np.array([0.0, 1.0])
    design = np.stack([np.ones_like(x), x], axis=1)

    def objective(theta):
        z = design @ theta
        return float(np.sum(y * z - np.logaddexp(0.0, z)) - 0.5 * np.sum((theta - prior) ** 2))

    theta = prior.copy()
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(design @ theta, -30, 30)))
        gradient = design.T @ (y - p) - (theta - prior)
        hessian = design.T @ (design * (p * (1 - p))[:, None]) + np.eye(2)
        step = np.linalg.solve(hessian, gradient)
        scale = 1.0
        while scale > 1e-6 and objective(theta + scale * step) < objective(theta):
            scale /= 2
        theta = theta + scale * step
        if np.abs(scale * step).max() < 1e-9:
            break
    return float(theta[0]), float(theta[1])
