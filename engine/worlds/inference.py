"""Inference: worlds weighted by what the other seats' bidding and declaration reveal.

The informed sampler (``engine.worlds.sampling``) draws every world that fits the
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
- the discard: among the pairs of its twelve cards the heuristic's rule
  allows (no trump while two other cards exist ...), softmax of the score
  ``hand_eval.best_discard`` chooses by / T_discard, mixed with ε uniform;
- every card played: the heuristic's card with 1-ε_card, any card of the
  hand with ε_card (``inference_core.heuristic_matches``).  Each seat may play
  like the heuristic (ε_card small) or like a searching program or a person
  (a large ε_card); its cards' likelihood is the mixture of the two kinds by
  their prior, so a seat that keeps deviating from the heuristic is soon
  judged the second kind and no longer rules worlds out.

A declarer who took the skat bid and chose to take it with ten cards of its
twelve, and which two were the skat the defenders cannot know: its bids and
the choice are judged on each of the 66 tens and the likelihoods averaged
(``Mixture``, ``inference_core.declarer_mixture``).  A defender's pool does
not weigh the discard: each world's discard is drawn again from the model
given the declarer's twelve cards (``draw_discards``), so the pool keeps the
worlds whose split the declarer would have made.  Schneider announcements are
left out of the candidates.

The bidding evidence of a whole pool is numpy lookups (``engine.worlds.hand_tables``)
and, for the declarer's 66 possible hands per world, numba.
"""

from __future__ import annotations

import bisect
import copy
import random
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from . import hand_tables
from ..cards import Mask, cards_of
from ..game import Bid, GameState, Hold, Pass, Phase
from ..policy import hand_eval
from ..rules import GameType, next_bid, void_classes
from .sampling import SKAT_PLACE, World, WorldSampler, shown_voids


@dataclass(frozen=True)
class PolicyModel:
    """The soft heuristic: how sharply it follows the heuristic's choices."""

    bid_temperature: float
    """Win-chance units: σ(margin / T) is the chance of going on at a bid."""
    game_temperature: float
    """Seeger-Fabian points: the declared game is chosen by softmax(expected / T)."""
    uniform_share: float
    """ε: the share of bidding and declaring actions taken uniformly at random (no world is ever impossible)."""
    card_uniform_share: float = 0.2
    """ε for a card: the heuristic's card with 1-ε, any card of the hand with ε (its ties are broken at random)."""
    discard_temperature: float = 0.1
    """Strength units: the two cards put away are chosen by softmax(score / T) over the pairs the rule allows."""
    searcher_card_share: float = 0.0
    """ε_card of a second kind of player, one that plays unlike the heuristic (a searching program
    or a person): each seat's cards are judged under both kinds, and the two likelihoods mixed
    by ``searcher_prior`` (0: one kind only, ``card_uniform_share``)."""
    searcher_prior: float = 0.0
    """The prior chance that a seat plays like the second kind."""


FITTED_MODEL = PolicyModel(bid_temperature=0.002, game_temperature=0.5, uniform_share=0.02, card_uniform_share=0.02,
                           searcher_card_share=0.7, searcher_prior=0.8,
                           discard_temperature=1e-8)
"""Fitted by ``python3 -m engine.tools.fit_inference --games 2000 --seed 1``; the second kind of
card player on records of a PIMC tournament (``--searchers``): its beliefs are within 0.01 of the
grid's most accurate (docs/inference.md)."""

POOL_FACTOR = 40
"""Candidate worlds drawn per world the search asks for.  The fitted model is sharp (the
bidding and the declaration are nearly functions of the cards), so a pool keeps only a
small share of its size as effective worlds."""
MIN_POOL = 1000
MAX_POOL = 4000
TIME_LIMITED_POOL = 2000
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


def _choice_log_likelihood(utilities: np.ndarray, allowed: np.ndarray, chosen: np.ndarray, model: PolicyModel
                           ) -> np.ndarray:
    """log P(column ``chosen``) under ε-uniform + softmax(utility / T) over the allowed columns
    (uniform over all ``candidates`` columns)."""
    candidates = utilities.shape[-1]
    scaled = np.where(allowed, utilities / model.game_temperature, -np.inf)
    top = scaled.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    weights = np.where(allowed, np.exp(scaled - top), 0.0)
    sums = weights.sum(axis=-1)
    picked = np.take_along_axis(weights, chosen[..., None], axis=-1)[..., 0]
    soft = np.divide(picked, sums, out=np.zeros_like(sums), where=sums > 0)
    eps = model.uniform_share
    return np.log(eps / candidates + (1 - eps) * soft)


CHOICE_COLUMNS = len(hand_tables.OPTION_GAMES) + 1
"""Candidates of a declaration: every option column, and taking the skat (hand or skat only)."""


@dataclass
class Mixture:
    """The bids and the choice to take the skat of a declarer who took it, in each of the 66
    ten-card hands it may have held (``inference_core.declarer_mixture``); the likelihood is
    their mean, the original skat being any two of its twelve cards with the same chance."""

    margins: np.ndarray
    """(rows, 66, S): per bid step the margin in each row and original skat."""
    went_on: np.ndarray
    """(S,) int8: 1 went on, 0 passed."""
    utilities: np.ndarray
    """(rows, 66, 8): the hand games' expected scores and taking the skat (the last column, the choice made)."""
    allowed: np.ndarray
    rows: np.ndarray | None = None
    """(n,): world i's row (worlds with the same twelve cards share one; world 0's is row 0);
    None: a row per world."""

    def log_likelihood(self, model: PolicyModel) -> np.ndarray:
        from .inference_core import mixture_log_likelihood

        count = len(self.margins)
        went_on = np.ascontiguousarray(np.broadcast_to(self.went_on, (count, len(self.went_on))))
        per_row = mixture_log_likelihood(self.margins, went_on, self.utilities, self.allowed,
                                         model.bid_temperature, model.game_temperature, model.uniform_share)
        return per_row if self.rows is None else per_row[self.rows]


@dataclass
class DrawnMixture:
    """The declarer's mixture in a pool whose discards ``draw_discards`` drew: its log-likelihood
    under the model that drew them, computed world by world without the mixture's arrays
    (``inference_core.drawn_declarer``); another model's needs them (``full``)."""

    model: PolicyModel
    log_likelihoods: np.ndarray
    """(n,): under ``model``."""
    full: Callable[[], Mixture]

    def log_likelihood(self, model: PolicyModel) -> np.ndarray:
        mixture_parameters = (model.bid_temperature, model.game_temperature, model.uniform_share)
        if mixture_parameters == (self.model.bid_temperature, self.model.game_temperature, self.model.uniform_share):
            return self.log_likelihoods.copy()
        return self.full().log_likelihood(model)


@dataclass
class DiscardChoice:
    """The two cards a declarer put away, against every pair of its twelve."""

    scores: np.ndarray
    """(n, 66): the score ``hand_eval.best_discard`` chooses by, of putting each pair away for the
    declared game (the strength kept, and the habits in suit games)."""
    allowed: np.ndarray
    """(n, 66): the pair keeps the heuristic's rule (no trump while two other cards exist ...)."""
    chosen: np.ndarray
    """(n,): the pair put away in each world."""

    def log_likelihood(self, model: PolicyModel) -> np.ndarray:
        return discard_log_likelihood(self.scores, self.allowed, self.chosen, model)


def discard_probabilities(scores: np.ndarray, allowed: np.ndarray, model: PolicyModel) -> np.ndarray:
    """(..., 66): P(each pair is put away): ε uniform + softmax(score / T_discard) over the allowed."""
    scaled = np.where(allowed, scores / model.discard_temperature, -np.inf)
    top = scaled.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    weights = np.exp(scaled - top)
    sums = weights.sum(axis=-1, keepdims=True)
    soft = np.divide(weights, sums, out=np.zeros_like(weights), where=sums > 0)
    eps = model.uniform_share
    return eps / scores.shape[-1] + (1 - eps) * soft


def discard_log_likelihood(scores: np.ndarray, allowed: np.ndarray, chosen: np.ndarray, model: PolicyModel
                           ) -> np.ndarray:
    """log P(pair ``chosen``) under ``discard_probabilities``."""
    probabilities = discard_probabilities(scores, allowed, model)
    return np.log(np.take_along_axis(probabilities, chosen[..., None], axis=-1)[..., 0])


@dataclass
class Evidence:
    """What the other seats' actions say about each of n worlds, before the model's
    parameters enter: ``log_likelihood(model)`` is then a few array operations, so a
    fit tries many models on the same evidence."""

    worlds: int
    bid_margins: list[np.ndarray]
    """Per bid, hold or pass: (n,) the margin (best chance minus threshold) in each world."""
    bid_went_on: list[bool]
    choice_utilities: list[np.ndarray]
    """Per declaring decision: (n, CHOICE_COLUMNS) expected scores of the candidates."""
    choice_allowed: list[np.ndarray]
    choice_made: list[int]
    mixtures: list[Mixture | DrawnMixture] = field(default_factory=list)
    """A declarer who took the skat: its bids and its taking the skat, over its original skats."""
    discard: DiscardChoice | None = None
    card_matches: np.ndarray | None = None
    """(n, plays) the heuristic plays the card played; with ``card_hand_sizes`` (plays,)."""
    card_hand_sizes: np.ndarray | None = None
    card_seats: np.ndarray | None = None
    """(plays,) the seat that played each card."""

    def log_likelihood(self, model: PolicyModel) -> np.ndarray:
        total = np.zeros(self.worlds)
        eps = model.uniform_share
        for margins, went_on in zip(self.bid_margins, self.bid_went_on):
            go_on = eps / 2 + (1 - eps) * _sigmoid(margins / model.bid_temperature)
            total += np.log(go_on if went_on else 1.0 - go_on)
        for utilities, allowed, made in zip(self.choice_utilities, self.choice_allowed, self.choice_made):
            total += _choice_log_likelihood(utilities, allowed, np.full(self.worlds, made), model)
        for mixture in self.mixtures:
            total += mixture.log_likelihood(model)
        if self.discard is not None:
            total += self.discard.log_likelihood(model)
        if self.card_matches is not None and self.card_matches.shape[1]:
            total += card_log_likelihood(self.card_matches, self.card_hand_sizes, self.card_seats, model)
        return total


def card_log_terms(matches: np.ndarray, hand_sizes: np.ndarray, share: float) -> np.ndarray:
    """The log-likelihood of each card played (same shape as ``matches``) for a player who plays
    the heuristic's card with 1 - ``share`` and any card of its hand with ``share``."""
    return np.log((1 - share) * matches + share / hand_sizes)


def card_log_likelihood(matches: np.ndarray, hand_sizes: np.ndarray, seats: np.ndarray | None,
                        model: PolicyModel) -> np.ndarray:
    """Per world, the log-likelihood of the cards played: (n, plays) heuristic matches, (plays,)
    hand sizes and seats.  With a second kind of player each seat's plays are judged under
    both kinds and mixed by the prior (a seat that keeps playing unlike the heuristic is
    soon judged as the second kind, without ruling worlds out for it)."""
    if model.searcher_prior <= 0 or seats is None:
        return card_log_terms(matches, hand_sizes, model.card_uniform_share).sum(axis=1)
    total = np.zeros(len(matches))
    for first, second in _seat_kinds(matches, hand_sizes, seats, model).values():
        total += np.logaddexp(first, second)
    return total


def _seat_kinds(matches: np.ndarray, hand_sizes: np.ndarray, seats: np.ndarray, model: PolicyModel
                ) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """Per seat that played: (n,) log of prior × likelihood of its cards in each world, as the
    heuristic's kind and as the searcher's."""
    heuristic_like = card_log_terms(matches, hand_sizes, model.card_uniform_share)
    searcher_like = card_log_terms(matches, hand_sizes, model.searcher_card_share)
    kinds = {}
    for seat in np.unique(seats):
        columns = seats == seat
        kinds[int(seat)] = (np.log1p(-model.searcher_prior) + heuristic_like[:, columns].sum(axis=1),
                            np.log(model.searcher_prior) + searcher_like[:, columns].sum(axis=1))
    return kinds


def searcher_posteriors(matches: np.ndarray, hand_sizes: np.ndarray, seats: np.ndarray, model: PolicyModel
                        ) -> dict[int, np.ndarray]:
    """Per seat that played: (n,) the chance in each world that it is the searching kind, given
    its cards (none without a second kind in the model)."""
    if model.searcher_prior <= 0 or len(seats) == 0:
        return {}
    return {seat: np.exp(second - np.logaddexp(first, second))
            for seat, (first, second) in _seat_kinds(matches, hand_sizes, seats, model).items()}


def evidence(view: GameState, worlds: list[World], cards: bool = True) -> Evidence:
    """The evidence in ``worlds`` of everything ``view``'s seat saw the other seats do
    (their cards too, unless ``cards`` is False)."""
    hands = np.array([w.hands for w in worlds], np.int64).reshape(len(worlds), 3)
    skats = np.array([w.skat for w in worlds], np.int64)
    return evidence_in(view, hands, skats, cards)


def evidence_in(view: GameState, hands: np.ndarray, skats: np.ndarray, cards: bool = True,
                drawn_discards: DrawnMixture | None = None) -> Evidence:
    """``evidence`` for worlds given as arrays: hands (n, 3) and skats (n,).

    ``drawn_discards``: the worlds' discards were drawn from the model (``draw_discards``, which
    gives the declarer's mixture): the discard is not judged again."""
    viewer = view.perspective if view.perspective is not None else view.to_move
    played = played_by(view)
    found = Evidence(len(hands), [], [], [], [], [])
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
            if drawn_discards is None:
                _declarer_after_skat(view, own, ten, skats, found)
            else:
                found.mixtures.append(drawn_discards)
                chances, values = hand_tables.kept_options(ten, skats, seat)
                _declaration_after_skat(view, chances, values, found)
            continue
        skat_chances, skat_values, hand_chances, hand_values = hand_tables.bidding_options(ten, seat)
        for step in own:
            found.bid_margins.append(np.maximum(
                _bid_margins(skat_chances, skat_values, hand_eval.BID_CHANCE, step.value),
                _bid_margins(hand_chances, hand_values, hand_eval.HAND_CHANCE, step.value)))
            found.bid_went_on.append(step.went_on)
        if seat == declarer and in_play and view.declaration.hand:
            _hand_declaration(view, skat_chances, skat_values, hand_chances, hand_values, found)
    if in_play and cards:
        found.card_matches, found.card_hand_sizes, found.card_seats = card_play_matches(view, viewer, hands, skats)
    return found


def log_likelihoods(view: GameState, worlds: list[World], model: PolicyModel = FITTED_MODEL) -> np.ndarray:
    """Per world, the log-likelihood under ``model`` of the other seats' bidding,
    declaration and card play (what ``view``'s seat saw of them)."""
    return evidence(view, worlds).log_likelihood(model)


@dataclass(frozen=True)
class PastPlays:
    """The public side of every card the other seats played, as ``inference_core`` takes it."""

    seats: np.ndarray
    cards: np.ndarray
    tricks: np.ndarray
    counts: np.ndarray
    leaders: np.ndarray
    played: np.ndarray
    voids: np.ndarray
    later: np.ndarray
    decl_later: np.ndarray
    knows_skat: np.ndarray
    hand_sizes: np.ndarray


def past_plays(view: GameState, viewer: int) -> PastPlays:
    game = view.declaration.game
    declarer = view.declarer
    sequence = []  # (seat, card, trick so far, leader, played before, voids before)
    played = 0
    all_tricks = [(t.leader, t.cards) for t in view.tricks] + [(view.leader, view.trick)]
    for index, (leader, cards) in enumerate(all_tricks):
        for i, card in enumerate(cards):
            prefix = tuple(cards[:i])
            voids = void_classes(game, view.tricks[:index], prefix, leader)
            sequence.append(((leader + i) % 3, card, prefix, leader, played, voids))
            played |= 1 << card
    later_of = [0, 0, 0]
    later, decl_later = [0] * len(sequence), [0] * len(sequence)
    for k in range(len(sequence) - 1, -1, -1):
        seat, card = sequence[k][0], sequence[k][1]
        later_of[seat] |= 1 << card
        later[k], decl_later[k] = later_of[seat], later_of[declarer]
    chosen = [k for k in range(len(sequence)) if sequence[k][0] != viewer]
    tricks = np.zeros((len(chosen), 3), np.int64)
    for row, k in enumerate(chosen):
        for i, card in enumerate(sequence[k][2]):
            tricks[row, i] = card
    hand_sizes = [view.hand_sizes[sequence[k][0]] + later[k].bit_count() for k in chosen]
    return PastPlays(
        seats=np.array([sequence[k][0] for k in chosen], np.int64),
        cards=np.array([sequence[k][1] for k in chosen], np.int64),
        tricks=tricks,
        counts=np.array([len(sequence[k][2]) for k in chosen], np.int64),
        leaders=np.array([sequence[k][3] for k in chosen], np.int64),
        # the core's "played" includes the current trick's cards so far
        played=np.array([sequence[k][4] for k in chosen], np.int64),
        voids=np.array([sequence[k][5] for k in chosen], np.int64).reshape(len(chosen), 3),
        later=np.array([later[k] for k in chosen], np.int64),
        decl_later=np.array([decl_later[k] for k in chosen], np.int64),
        knows_skat=np.array([sequence[k][0] == declarer and view.skat_taken for k in chosen], np.bool_),
        hand_sizes=np.array(hand_sizes, float),
    )


def card_play_matches(view: GameState, viewer: int, hands: np.ndarray, skats: np.ndarray, seed: int = 1
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(worlds, plays): whether the heuristic plays each card the other seats played; (plays,)
    the hand size of each play (its ε share is spread over the hand) and the seat that played it."""
    from .inference_core import heuristic_matches

    plays = past_plays(view, viewer)
    if plays.seats.size == 0:
        return np.zeros((len(hands), 0), np.uint8), plays.hand_sizes, plays.seats
    matches = heuristic_matches(
        int(view.declaration.game), view.declarer, plays.seats, plays.cards, plays.tricks, plays.counts,
        plays.leaders, plays.played, plays.voids, plays.later, plays.decl_later, plays.knows_skat,
        bool(view.declaration.ouvert), np.ascontiguousarray(hands), np.ascontiguousarray(skats), seed)
    return matches, plays.hand_sizes, plays.seats


def _declared_column(view: GameState) -> int:
    decl = view.declaration
    return hand_tables.OPTION_GAMES.index((decl.game, decl.ouvert and decl.game == GameType.NULL))


def _hand_declaration(view, skat_chances, skat_values, hand_chances, hand_values, found: Evidence) -> None:
    """This hand game against the other hand games and taking the skat."""
    bid = view.bid
    hand_expected = hand_tables.expected_scores(hand_chances, hand_values)
    skat_expected = hand_tables.expected_scores(skat_chances, skat_values)
    pick_up = np.where(skat_values >= bid, skat_expected, -np.inf).max(axis=-1)
    found.choice_utilities.append(np.concatenate([hand_expected, pick_up[:, None]], axis=1))
    found.choice_allowed.append(np.concatenate([hand_values >= bid, np.isfinite(pick_up)[:, None]], axis=1))
    found.choice_made.append(_declared_column(view))


def _distinct_twelves(twelve: np.ndarray, discard: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Each twelve once, in the order of its first world, with that world's discard, and the
    row of every world (None: no two worlds share a twelve)."""
    distinct, first, rows = np.unique(twelve, return_index=True, return_inverse=True)
    if len(distinct) == len(twelve):
        return twelve, discard, None
    order = np.argsort(first)
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    first = first[order]
    return twelve[first], discard[first], rank[rows.reshape(-1)]


def _declarer_twelve(view: GameState, own: list[BidStep], kept: np.ndarray, discard: np.ndarray
                     ) -> tuple[Mixture, DiscardChoice]:
    """A declarer who took the skat, with ``kept`` and ``discard`` in each world: its bids and
    taking the skat over the tens of its twelve it may have held, and its discard.

    Worlds with the same twelve cards are judged once (late in a game a pool holds few
    different twelves)."""
    from .inference_core import declarer_mixture, pair_masks

    twelve, rows_discard, rows = _distinct_twelves(kept | discard, discard)
    values = np.array([s.value for s in own], np.int64)
    margins, utilities, allowed, scores, discard_allowed, chosen = declarer_mixture(
        np.ascontiguousarray(twelve), np.ascontiguousarray(rows_discard), hand_tables.forehand_bonus(view.declarer),
        values, view.bid, int(view.declaration.game), *hand_tables.core_tables())
    mixture = Mixture(margins, np.array([s.went_on for s in own], np.int8), utilities, allowed, rows)
    if rows is not None:
        # the discard differs between worlds of a row: the pair put away in each world
        chosen = np.argmax(pair_masks(np.ascontiguousarray(twelve))[rows] == discard[:, None], axis=1)
        scores, discard_allowed = scores[rows], discard_allowed[rows]
    return mixture, DiscardChoice(scores, discard_allowed, chosen)


def _declarer_after_skat(view: GameState, own: list[BidStep], kept: np.ndarray, discard: np.ndarray,
                         found: Evidence) -> None:
    """A declarer who took the skat: its bids and taking the skat, judged on each ten cards of
    its twelve it may have held; the discard given the twelve; the game given the ten kept."""
    mixture, found.discard = _declarer_twelve(view, own, kept, discard)
    found.mixtures.append(mixture)
    chances, values = hand_tables.kept_options(kept, discard, view.declarer)
    _declaration_after_skat(view, chances, values, found)


def draws_discards(view: GameState, base: WorldSampler) -> bool:
    """The viewer is a defender in play against a declarer who took the skat (and does not
    know its discard): ``draw_discards`` applies."""
    return (view.phase in (Phase.PLAY, Phase.FINISHED) and view.declaration is not None and view.skat_taken
            and base.seat != view.declarer and base.fixed_skat == 0)


def draw_discards(view: GameState, base: WorldSampler, hands: np.ndarray, skats: np.ndarray, model: PolicyModel,
                  generator: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray, DrawnMixture]:
    """Each world's discard drawn again from the model, given the declarer's twelve cards.

    A uniform world puts a discard the heuristic would make among the 66 pairs only now and
    then, so weighing it would leave few effective worlds.  Drawing the pair from the model's
    discard probabilities (among the pairs the hard facts allow: no card the declarer played
    or shows, every card of a class it showed void in) makes the discard's likelihood part of
    the proposal; a world keeps the weight Z / m (Z: the allowed pairs' probability, m: their
    number, the informed sampler's share of the twelve).  Returns the new hands and skats, the
    log of that weight and the declarer's bidding mixture (which depends on the twelve only)."""
    from .inference_core import drawn_declarer, pair_masks

    decl = view.declarer
    hands = hands.copy()
    available = hands[:, decl] | skats  # its cards in hand and the skat: the discard is two of these
    twelve = available | played_by(view)[decl]
    own = [s for s in bid_steps(view) if s.seat == decl]
    distinct, rows_discard, rows = _distinct_twelves(twelve, skats)
    scores, allowed, _, log_likelihoods = drawn_declarer(
        np.ascontiguousarray(distinct), np.ascontiguousarray(rows_discard), hand_tables.forehand_bonus(decl),
        np.array([s.value for s in own], np.int64), view.bid, int(view.declaration.game), *hand_tables.core_tables(),
        np.array([s.went_on for s in own], np.int8), model.bid_temperature, model.game_temperature,
        model.uniform_share)
    if rows is not None:
        scores, allowed, log_likelihoods = scores[rows], allowed[rows], log_likelihoods[rows]
    drawn_from = skats
    mixture = DrawnMixture(model, log_likelihoods, lambda: _declarer_twelve(view, own, twelve & ~drawn_from,
                                                                             drawn_from)[0])
    probabilities = discard_probabilities(scores, allowed, model)
    pairs = pair_masks(np.ascontiguousarray(twelve))  # the kernel's order of the pairs
    must_go = (available & shown_voids(view)[decl])[:, None]
    fits = (((pairs & ~available[:, None]) == 0) & ((pairs & base.fixed_hands[decl]) == 0)
            & ((must_go & ~pairs) == 0))
    probabilities = np.where(fits, probabilities, 0.0)
    cumulative = np.cumsum(probabilities, axis=1)
    total = cumulative[:, -1]
    drawn = np.minimum((cumulative < (generator.random(len(skats)) * total)[:, None]).sum(axis=1), 65)
    skats = pairs[np.arange(len(skats)), drawn]
    hands[:, decl] = available & ~skats
    return hands, skats, np.log(total) - np.log(fits.sum(axis=1)), mixture


def _declaration_after_skat(view, chances, values, found: Evidence) -> None:
    """The declared game given the kept ten and the discard."""
    expected = hand_tables.expected_scores(chances, values)
    allowed = values >= view.bid
    allowed = np.where(allowed.any(axis=-1, keepdims=True), allowed, True)  # overbid: any game
    # no "take the skat" column here: it is never allowed
    found.choice_utilities.append(np.concatenate([expected, np.zeros((len(expected), 1))], axis=1))
    found.choice_allowed.append(np.concatenate([allowed, np.zeros((len(allowed), 1), bool)], axis=1))
    found.choice_made.append(_declared_column(view))


# ---------------------------------------------------------------- the sampler


class InferenceSampler:
    """Worlds for ``view``, drawn from a pool of informed worlds by their likelihood.

    ``sample(rng)`` has the interface of ``WorldSampler.sample``; the pool is
    drawn once from ``seed``, so the same seed gives the same worlds."""

    def __init__(self, view: GameState, pool: int, seed: int, model: PolicyModel = FITTED_MODEL) -> None:
        base = WorldSampler(view, informed=True)
        self.base = base
        self.view = view
        generator = np.random.default_rng(seed)
        self.hands, self.skats = base.sample_arrays(pool, generator)
        self._proposal_log_weight: np.ndarray | float = 0.0
        if draws_discards(view, base):
            self.hands, self.skats, self._proposal_log_weight, mixture = draw_discards(
                view, base, self.hands, self.skats, model, generator)
            self.evidence = evidence_in(view, self.hands, self.skats, drawn_discards=mixture)
        else:
            self.evidence = evidence_in(view, self.hands, self.skats)
        self._weigh(model)

    def _weigh(self, model: PolicyModel) -> None:
        self.model = model
        log_w = self._proposal_log_weight + self.evidence.log_likelihood(model)
        weights = np.exp(log_w - log_w.max())
        self.weights = weights / weights.sum()
        self.effective_sample_size = float(1.0 / np.square(self.weights).sum())
        self._cumulative = np.cumsum(self.weights).tolist()
        self._cumulative[-1] = 1.0

    def searcher_chances(self) -> dict[int, float]:
        """Per other seat that has played a card: the chance that it plays like a searching
        program rather than like the heuristic, over the weighted pool."""
        found = self.evidence
        if found.card_matches is None or found.card_seats is None:
            return {}
        posteriors = searcher_posteriors(found.card_matches, found.card_hand_sizes, found.card_seats, self.model)
        return {seat: float(self.weights @ chance) for seat, chance in posteriors.items()}

    def reweighed(self, model: PolicyModel) -> InferenceSampler:
        """The same pool weighed under another model that differs only in the card play
        (the discards were drawn with this sampler's model): a fit compares models on one pool."""
        other = copy.copy(self)
        other._weigh(model)
        return other

    def sample(self, rng: random.Random) -> World:
        i = min(bisect.bisect_right(self._cumulative, rng.random()), len(self.skats) - 1)
        hands = self.hands[i]
        return World((int(hands[0]), int(hands[1]), int(hands[2])), int(self.skats[i]))


# ---------------------------------------------------------------- beliefs

SAMPLERS = ("simple", "informed", "inference")
BELIEF_POOL = MAX_POOL
"""Candidate worlds behind the inference sampler's beliefs (a 100-world decision's pool)."""
PRIOR_WORLDS = 3.0
"""The inference beliefs are the weighted pool shrunk towards the informed (uniform) beliefs
as if these many uniform worlds joined the pool's effective ones: a pool of few effective
worlds would otherwise call a place impossible that merely went unsampled."""


@dataclass(frozen=True)
class Beliefs:
    """Per card (32 rows) the probability of each place: seats 0-2 and the skat.

    Cards the viewer knows the place of have a one in that column (its own cards: its seat;
    played cards are all zero); ``hidden`` marks the cards it cannot see."""

    places: np.ndarray
    hidden: Mask
    effective_sample_size: float
    searcher_chances: dict[int, float] = field(default_factory=dict)
    """inference: per other seat that has played, the chance it plays like a searching program
    rather than like the heuristic (``InferenceSampler.searcher_chances``)."""

    def as_dict(self) -> dict[str, list[float]]:
        """ISS card name -> [p0, p1, p2, p_skat] for every hidden card."""
        from ..cards import Card

        return {str(Card(c)): [round(float(p), 4) for p in self.places[c]] for c in cards_of(self.hidden)}


def beliefs(view: GameState, sampler: str = "inference", seed: int = 0, pool: int = BELIEF_POOL,
            model: PolicyModel = FITTED_MODEL) -> Beliefs:
    """Where ``view``'s seat believes each card it cannot see is, under ``sampler``.

    simple and informed: exact (the uniform samplers' marginals, from their splits);
    inference: the weighted pool of ``pool`` informed worlds, shrunk towards the informed
    beliefs by ``PRIOR_WORLDS``."""
    if sampler not in SAMPLERS:
        raise ValueError(f"sampler must be one of {', '.join(SAMPLERS)}, not {sampler!r}")
    if sampler == "inference":
        return beliefs_of(InferenceSampler(view, pool, seed, model))
    return beliefs_of(WorldSampler(view, informed=sampler == "informed"))


def beliefs_of(sampler: WorldSampler | InferenceSampler) -> Beliefs:
    """The beliefs the worlds of ``sampler`` are drawn from."""
    base = sampler.base if isinstance(sampler, InferenceSampler) else sampler
    places = np.zeros((32, 4))
    for seat in range(3):
        for card in cards_of(base.fixed_hands[seat]):
            places[card, seat] = 1.0
    for card in cards_of(base.fixed_skat):
        places[card, SKAT_PLACE] = 1.0
    uniform = base.marginals()
    if base is sampler:
        return Beliefs(places + uniform, base.unknown, float(base.world_count))
    unknown = np.array(list(cards_of(base.unknown)), np.int64)
    masks = np.concatenate([sampler.hands, sampler.skats[:, None]], axis=1)  # (pool, 4 places)
    for place in range(4):
        places[unknown, place] += sampler.weights @ ((masks[:, place, None] >> unknown[None, :]) & 1)
    ess = sampler.effective_sample_size
    places[unknown] = (ess * places[unknown] + PRIOR_WORLDS * uniform[unknown]) / (ess + PRIOR_WORLDS)
    return Beliefs(places, base.unknown, ess, sampler.searcher_chances())


def belief_rows(found: Beliefs) -> tuple[tuple[int, float, float, float, float], ...]:
    """(card, p0, p1, p2, p_skat) for every hidden card: the form an ``Analysis`` carries."""
    return tuple((int(c), *(round(float(p), 4) for p in found.places[c])) for c in cards_of(found.hidden))


__all__ = ["PolicyModel", "FITTED_MODEL", "InferenceSampler", "Beliefs", "beliefs", "log_likelihoods",
           "card_log_terms", "card_log_likelihood", "searcher_posteriors",
           "bid_steps", "pool_size", "SAMPLERS", "Evidence", "evidence", "beliefs_of", "belief_rows"]
