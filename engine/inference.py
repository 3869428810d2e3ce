"""Inference: worlds weighted by what the other seats' bidding and declaration reveal.

The informed sampler (``engine.sampling``) draws every world that fits the
hard facts with the same chance, so a declarer who bid 48 and declared grand
is as likely to hold no jack as all four.  ``InferenceSampler`` draws a pool
of such worlds and weighs each by the likelihood of the other seats' actions
in it under a model of how they decide, then draws the worlds it hands out
from the pool by weight (policy-based inference, as in Rebstock, Solinas,
Buro and Sturtevant, 2019).

The model is the heuristic player made soft (``PolicyModel``):

- bids, holds and passes: the heuristic goes on at a bid ``v`` when some
  game worth at least ``v`` clears its win-chance threshold (``BID_CHANCE``
  with the skat, ``HAND_CHANCE`` hand).  The margin ``m`` is the best
  chance minus threshold over those games; the seat goes on with probability
  ``ε/2 + (1-ε)·σ(m / T_bid)``;
- hand or skat and the declared game: among the games that reach the bid
  (and, for a hand game, taking the skat), the choice has probability
  ``ε/K + (1-ε)·softmax(expected score / T_game)`` (K candidates);
- the discard: a suit or grand declarer puts away trumps (jacks) only when
  fewer than two other cards are left (the heuristic's rule); a discard that
  breaks it weighs ε.

What the model cannot see, it approximates: a declarer who took the skat bid
with ten cards of which the defenders know nothing (two of its twelve were
the skat), so its bids are judged from the ten cards it kept (with the
discard, as for its declaration).  Schneider announcements are left out of
the candidates.  Card play is not weighed: the heuristic's card in every
world for every card played would cost ~10 µs × worlds × cards, more than
the 100-world PIMC decision it serves (the voids a card shows are hard facts
the informed sampler already respects).

The bidding and declaration likelihoods of a whole pool are numpy lookups
(``engine.hand_tables``), a few milliseconds for a thousand worlds.
"""

from __future__ import annotations

import bisect
import math
import random
from dataclasses import dataclass

import numpy as np

from . import hand_tables
from .cards import JACKS, Mask, cards_of
from .game import Bid, GameState, Hold, Pass, Phase
from .players import hand_eval
from .rules import GameType, next_bid
from .sampling import SKAT_PLACE, World, WorldSampler


@dataclass(frozen=True)
class PolicyModel:
    """The soft heuristic: how sharply it follows the heuristic's choices."""

    bid_temperature: float
    """Win-chance units: σ(margin / T) is the chance of going on at a bid."""
    game_temperature: float
    """Seeger-Fabian points: the declared game is chosen by softmax(expected / T)."""
    uniform_share: float
    """ε: the share of actions taken uniformly at random (no world is ever impossible)."""


FITTED_MODEL = PolicyModel(bid_temperature=0.05, game_temperature=12.0, uniform_share=0.02)
"""Set by hand (defenders' log-loss on 60 heuristic games); see docs/inference.md."""

POOL_FACTOR = 8
"""Candidate worlds drawn per world the search asks for."""
MIN_POOL = 200
MAX_POOL = 4000
TIME_LIMITED_POOL = 1000
"""Pool size when the search has a time budget instead of a world count."""


def pool_size(worlds: int | None) -> int:
    if worlds is None:
        return TIME_LIMITED_POOL
    return max(MIN_POOL, min(MAX_POOL, POOL_FACTOR * worlds))


# ---------------------------------------------------------------- the evidence


@dataclass(frozen=True)
class BidStep:
    seat: int
    value: int
    went_on: bool


def bid_steps(view: GameState) -> list[BidStep]:
    """Every bid, hold and pass as (seat, the bid it answered, whether it went on)."""
    steps = []
    current = 0
    awaiting = False  # a bid was made and its listener has not answered
    for seat, move in view.bid_history:
        if isinstance(move, Bid):
            steps.append(BidStep(seat, move.value, True))
            current = move.value
            awaiting = True
        elif isinstance(move, Hold):
            steps.append(BidStep(seat, current, True))
            awaiting = False
        elif isinstance(move, Pass):
            value = current if awaiting else next_bid(current)
            if value is not None:
                steps.append(BidStep(seat, value, False))
            awaiting = False
    return steps


def played_by(view: GameState) -> tuple[Mask, Mask, Mask]:
    """The cards each seat has played so far."""
    played = [0, 0, 0]
    for trick in view.tricks:
        for i, card in enumerate(trick.cards):
            played[trick.seat_of(i)] |= 1 << card
    for i, card in enumerate(view.trick):
        played[(view.leader + i) % 3] |= 1 << card
    return (played[0], played[1], played[2])


def _bid_margins(chances: np.ndarray, values: np.ndarray, threshold: float, bid: int) -> np.ndarray:
    return np.where(values >= bid, chances - threshold, -1.0).max(axis=-1)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(x, -60, 60)))


def _bid_log_likelihood(steps: list[BidStep], margin_at, model: PolicyModel) -> np.ndarray | float:
    total: np.ndarray | float = 0.0
    eps = model.uniform_share
    for step in steps:
        go_on = eps / 2 + (1 - eps) * _sigmoid(margin_at(step.value) / model.bid_temperature)
        total = total + np.log(go_on if step.went_on else 1.0 - go_on)
    return total


def _choice_log_likelihood(utilities: np.ndarray, allowed: np.ndarray, chosen: int, model: PolicyModel
                           ) -> np.ndarray:
    """log P(column ``chosen``) under ε-uniform + softmax(utility / T) over the allowed columns."""
    candidates = utilities.shape[-1]
    scaled = np.where(allowed, utilities / model.game_temperature, -np.inf)
    top = scaled.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    weights = np.where(allowed, np.exp(scaled - top), 0.0)
    sums = weights.sum(axis=-1)
    soft = np.divide(weights[..., chosen], sums, out=np.zeros_like(sums), where=sums > 0)
    eps = model.uniform_share
    return np.log(eps / candidates + (1 - eps) * soft)


def _discard_follows_rule(cards: np.ndarray, discard: np.ndarray, game: GameType) -> np.ndarray:
    """The heuristic's discard rule: no trump while two other cards exist, no jack while two non-jacks do."""
    trumps = JACKS | ((0xFF << (8 * int(game))) if game.is_suit else 0)
    others = cards & ~trumps
    non_jacks = cards & ~JACKS
    count = np.vectorize(int.bit_count, otypes=[np.int64])
    return np.where(count(others) >= 2, (discard & trumps) == 0,
                    np.where(count(non_jacks) >= 2, (discard & JACKS) == 0, True))


def log_likelihoods(view: GameState, worlds: list[World], model: PolicyModel = FITTED_MODEL) -> np.ndarray:
    """Per world, the log-likelihood of the other seats' bidding and declaration
    (what ``view``'s seat saw of them) under ``model``."""
    viewer = view.perspective if view.perspective is not None else view.to_move
    hands = np.array([w.hands for w in worlds], np.int64).reshape(len(worlds), 3)
    skats = np.array([w.skat for w in worlds], np.int64)
    played = played_by(view)
    total = np.zeros(len(worlds))
    steps = bid_steps(view)
    declarer = view.declarer
    in_play = view.phase in (Phase.PLAY, Phase.FINISHED) and view.declaration is not None
    for seat in range(3):
        if seat == viewer:
            continue
        own = [s for s in steps if s.seat == seat]
        ten = hands[:, seat] | played[seat]
        if seat == declarer and view.skat_taken:
            if not in_play:
                continue  # twelve cards or an unknown discard: nothing to judge yet
            chances, values = hand_tables.kept_options(ten, skats, seat)
            total += _bid_log_likelihood(own, lambda v: _bid_margins(chances, values, hand_eval.BID_CHANCE, v),
                                         model)
            total += _declaration_after_skat(view, chances, values, ten, skats, model)
            continue
        skat_chances, skat_values = hand_tables.skat_options(ten, seat)
        hand_chances, hand_values = hand_tables.hand_options(ten, seat)

        def margin(v, sc=skat_chances, sv=skat_values, hc=hand_chances, hv=hand_values):
            return np.maximum(_bid_margins(sc, sv, hand_eval.BID_CHANCE, v),
                              _bid_margins(hc, hv, hand_eval.HAND_CHANCE, v))

        total += _bid_log_likelihood(own, margin, model)
        if seat == declarer and in_play and view.declaration.hand:
            total += _hand_declaration(view, skat_chances, skat_values, hand_chances, hand_values, model)
    return total


def _declared_column(view: GameState) -> int:
    decl = view.declaration
    return hand_tables.OPTION_GAMES.index((decl.game, decl.ouvert and decl.game == GameType.NULL))


def _hand_declaration(view, skat_chances, skat_values, hand_chances, hand_values, model) -> np.ndarray:
    """log P(this hand game) against the other hand games and taking the skat."""
    bid = view.bid
    hand_expected = hand_tables.expected_scores(hand_chances, hand_values)
    skat_expected = hand_tables.expected_scores(skat_chances, skat_values)
    pick_up = np.where(skat_values >= bid, skat_expected, -np.inf).max(axis=-1)
    utilities = np.concatenate([hand_expected, pick_up[:, None]], axis=1)
    allowed = np.concatenate([hand_values >= bid, np.isfinite(pick_up)[:, None]], axis=1)
    return _choice_log_likelihood(utilities, allowed, _declared_column(view), model)


def _declaration_after_skat(view, chances, values, kept, discard, model) -> np.ndarray:
    """log P(the declared game | the kept ten and the discard) and of the discard."""
    expected = hand_tables.expected_scores(chances, values)
    allowed = values >= view.bid
    allowed = np.where(allowed.any(axis=-1, keepdims=True), allowed, True)  # overbid: any game
    total = _choice_log_likelihood(expected, allowed, _declared_column(view), model)
    game = view.declaration.game
    if game != GameType.NULL:
        follows = _discard_follows_rule(kept | discard, discard, game)
        total = total + np.where(follows, 0.0, math.log(model.uniform_share))
    return total


# ---------------------------------------------------------------- the sampler


class InferenceSampler:
    """Worlds for ``view``, drawn from a pool of informed worlds by their likelihood.

    ``sample(rng)`` has the interface of ``WorldSampler.sample``; the pool is
    drawn once from ``seed``, so the same seed gives the same worlds."""

    def __init__(self, view: GameState, pool: int, seed: int, model: PolicyModel = FITTED_MODEL) -> None:
        base = WorldSampler(view, informed=True)
        rng = random.Random(seed)
        self.view = view
        self.pool = [base.sample(rng) for _ in range(pool)]
        log_w = log_likelihoods(view, self.pool, model)
        weights = np.exp(log_w - log_w.max())
        self.weights = weights / weights.sum()
        self.effective_sample_size = float(1.0 / np.square(self.weights).sum())
        self._cumulative = np.cumsum(self.weights).tolist()
        self._cumulative[-1] = 1.0

    def sample(self, rng: random.Random) -> World:
        return self.pool[min(bisect.bisect_right(self._cumulative, rng.random()), len(self.pool) - 1)]


# ---------------------------------------------------------------- beliefs

SAMPLERS = ("simple", "informed", "inference")
BELIEF_POOL = 2000
"""Candidate worlds behind the inference sampler's beliefs."""


@dataclass(frozen=True)
class Beliefs:
    """Per card (32 rows) the probability of each place: seats 0-2 and the skat.

    Cards the viewer knows the place of have a one in that column (its own cards: its seat;
    played cards are all zero); ``hidden`` marks the cards it cannot see."""

    places: np.ndarray
    hidden: Mask
    effective_sample_size: float

    def as_dict(self) -> dict[str, list[float]]:
        """ISS card name -> [p0, p1, p2, p_skat] for every hidden card."""
        from .cards import Card

        return {str(Card(c)): [round(float(p), 4) for p in self.places[c]] for c in cards_of(self.hidden)}


def beliefs(view: GameState, sampler: str = "inference", seed: int = 0, pool: int = BELIEF_POOL,
            model: PolicyModel = FITTED_MODEL) -> Beliefs:
    """Where ``view``'s seat believes each card it cannot see is, under ``sampler``.

    simple and informed: exact (the uniform samplers' marginals, from their splits);
    inference: the weighted pool of ``pool`` informed worlds."""
    if sampler not in SAMPLERS:
        raise ValueError(f"sampler must be one of {', '.join(SAMPLERS)}, not {sampler!r}")
    base = WorldSampler(view, informed=sampler != "simple")
    places = np.zeros((32, 4))
    for seat in range(3):
        for card in cards_of(base.fixed_hands[seat]):
            places[card, seat] = 1.0
    for card in cards_of(base.fixed_skat):
        places[card, SKAT_PLACE] = 1.0
    if sampler != "inference":
        places += base.marginals()
        return Beliefs(places, base.unknown, float(base.world_count))
    inferred = InferenceSampler(view, pool, seed, model)
    unknown = np.array(list(cards_of(base.unknown)), np.int64)
    for world, weight in zip(inferred.pool, inferred.weights):
        for place in range(4):
            mask = world.skat if place == SKAT_PLACE else world.hands[place]
            places[unknown, place] += weight * ((mask >> unknown) & 1)
    return Beliefs(places, base.unknown, inferred.effective_sample_size)


__all__ = ["PolicyModel", "FITTED_MODEL", "InferenceSampler", "Beliefs", "beliefs", "log_likelihoods",
           "bid_steps", "pool_size", "SAMPLERS"]
