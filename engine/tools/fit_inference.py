"""Maximum-likelihood fit of the inference model (``engine.worlds.inference.PolicyModel``).

    python3 -m engine.tools.fit_inference --games 2000 --seed 1
    python3 -m engine.tools.fit_inference --games 2000 --seed 1 --iss ../shared/data/iss-samples.sgf

Heuristic self-play games are played; in each, every seat's view at the first
card and at the last trick is judged in the true world (the deal as it was):
the evidence of the other seats' bids, passes, declarations and discards at
the first card, and of their cards at the last trick.  The parameters that
make the actions taken most likely are found on a grid (bidding temperature,
game temperature and ε jointly; the card ε on its own).  ``--iss`` also
judges the real ISS records with the fitted model and fits them on their own,
to show how far human bidding is from the model.

``--searchers FILE`` fits the second kind of card player (a searching program)
on records of games where such players sat (a tournament's ``games.sgf``):
the maximum likelihood of the seats' plays in the true deals, and, the figure
that sets the model, the log-loss of the beliefs an inference pool gives under
each (ε_card, prior) of the grid.  ``--games 0`` skips the self-play and keeps
the code's bidding model.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import sys
from dataclasses import dataclass, field, replace

import numpy as np

from ..game import Deal, GameState, Phase
from ..players.heuristic import HeuristicPlayer
from ..series import play_game
from ..worlds.inference import (FITTED_MODEL, Evidence, PolicyModel, _choice_log_likelihood, _sigmoid, card_log_terms,
                                discard_log_likelihood)
from ..worlds.inference_core import mixture_log_likelihood
from ..worlds.inference import evidence as evidence_of
from ..worlds.sampling import World

BID_TEMPERATURES = (0.002, 0.005, 0.01, 0.02, 0.03, 0.05, 0.08, 0.12, 0.2, 0.3)
GAME_TEMPERATURES = (0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 40.0, 80.0)
SHARES = (0.005, 0.01, 0.02, 0.05, 0.1, 0.2)
DISCARD_TEMPERATURES = (1e-8, 1e-6, 1e-4, 0.001, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0)
CARD_SHARES = (0.005, 0.01, 0.02, 0.03, 0.05, 0.08, 0.12, 0.2, 0.3, 0.5)
SEARCHER_SHARES = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
SEARCHER_PRIORS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99)


@dataclass
class Observations:
    """Every action's evidence in its true world, flattened across views."""

    margins: list[float] = field(default_factory=list)
    went_on: list[bool] = field(default_factory=list)
    utilities: list[np.ndarray] = field(default_factory=list)
    allowed: list[np.ndarray] = field(default_factory=list)
    made: list[int] = field(default_factory=list)
    mixture_margins: list[np.ndarray] = field(default_factory=list)
    """Per declarer who took the skat: (66, S) margins, (S,) went on, (66, 8) utilities and allowed."""
    mixture_went_on: list[np.ndarray] = field(default_factory=list)
    mixture_utilities: list[np.ndarray] = field(default_factory=list)
    mixture_allowed: list[np.ndarray] = field(default_factory=list)
    discard_scores: list[np.ndarray] = field(default_factory=list)
    discard_allowed: list[np.ndarray] = field(default_factory=list)
    discard_chosen: list[int] = field(default_factory=list)
    _stacked: tuple | None = field(default=None, repr=False, compare=False)
    card_matches: list[float] = field(default_factory=list)
    card_hand_sizes: list[float] = field(default_factory=list)

    def add(self, found: Evidence) -> None:
        for margins, went_on in zip(found.bid_margins, found.bid_went_on):
            self.margins.append(float(margins[0]))
            self.went_on.append(went_on)
        for utilities, allowed, made in zip(found.choice_utilities, found.choice_allowed, found.choice_made):
            self.utilities.append(utilities[0])
            self.allowed.append(allowed[0])
            self.made.append(made)
        for mixture in found.mixtures:
            self.mixture_margins.append(mixture.margins[0])
            self.mixture_went_on.append(mixture.went_on)
            self.mixture_utilities.append(mixture.utilities[0])
            self.mixture_allowed.append(mixture.allowed[0])
        if found.discard is not None:
            self.discard_scores.append(found.discard.scores[0])
            self.discard_allowed.append(found.discard.allowed[0])
            self.discard_chosen.append(int(found.discard.chosen[0]))
        if found.card_matches is not None:
            self.card_matches += found.card_matches[0].astype(float).tolist()
            self.card_hand_sizes += found.card_hand_sizes.tolist()

    @property
    def actions(self) -> int:
        mixture_steps = sum(len(w) + 1 for w in self.mixture_went_on)  # the bids and taking the skat
        return len(self.margins) + len(self.made) + mixture_steps + len(self.discard_chosen)

    def _stacked_mixtures(self) -> tuple[np.ndarray, ...]:
        """The mixtures as arrays, the bid steps padded (went on -1: no step)."""
        if self._stacked is None or len(self._stacked[0]) != len(self.mixture_margins):
            steps = max((len(w) for w in self.mixture_went_on), default=0)
            count = len(self.mixture_margins)
            margins = np.zeros((count, 66, steps))
            went_on = np.full((count, steps), -1, np.int8)
            for i, (m, w) in enumerate(zip(self.mixture_margins, self.mixture_went_on)):
                margins[i, :, :len(w)] = m
                went_on[i, :len(w)] = w
            utilities = np.array(self.mixture_utilities).reshape(count, 66, 8)
            allowed = np.array(self.mixture_allowed, bool).reshape(count, 66, 8)
            self._stacked = (margins, went_on, utilities, allowed)
        return self._stacked

    def bidding_log_likelihood(self, model: PolicyModel) -> float:
        """Bids, holds, passes, declarations, the skat taken and discards."""
        return self.without_discard_log_likelihood(model) + self.discard_log_likelihood(model)

    def without_discard_log_likelihood(self, model: PolicyModel) -> float:
        eps = model.uniform_share
        go_on = eps / 2 + (1 - eps) * _sigmoid(np.array(self.margins) / model.bid_temperature)
        total = float(np.log(np.where(self.went_on, go_on, 1 - go_on)).sum())
        if self.made:
            total += float(_choice_log_likelihood(np.array(self.utilities), np.array(self.allowed),
                                                  np.array(self.made), model).sum())
        if self.mixture_margins:
            total += float(mixture_log_likelihood(*self._stacked_mixtures(), model.bid_temperature,
                                                  model.game_temperature, eps).sum())
        return total

    def discard_log_likelihood(self, model: PolicyModel) -> float:
        if not self.discard_chosen:
            return 0.0
        return float(discard_log_likelihood(np.array(self.discard_scores), np.array(self.discard_allowed),
                                            np.array(self.discard_chosen), model).sum())

    def card_log_likelihood(self, model: PolicyModel) -> float:
        return float(card_log_terms(np.array(self.card_matches), np.array(self.card_hand_sizes),
                                    model.card_uniform_share).sum())


def true_world(state: GameState) -> World:
    skat = state.discard if state.skat_taken else state.skat
    return World((state.hands[0], state.hands[1], state.hands[2]), skat)


def observe(state: GameState, into: Observations, cards: bool) -> None:
    """Every seat's evidence at ``state`` (a full state), judged in the true world."""
    world = true_world(state)
    for viewer in range(3):
        into.add(evidence_of(state.view(viewer), [world], cards=cards))


def self_play(games: int, seed: int) -> tuple[Observations, Observations]:
    """(bidding evidence at the first card, card evidence at the last trick) of heuristic self-play."""
    bidding, cards = Observations(), Observations()
    rng = random.Random(seed)

    def observe_first_and_last_trick(state: GameState) -> None:
        if state.phase == Phase.PLAY and not state.trick and len(state.tricks) in (0, 9):
            observe(state, bidding if not state.tricks else cards, cards=bool(state.tricks))

    for number in range(games):
        deal = Deal.shuffled(rng.getrandbits(62))
        players = [HeuristicPlayer(rng.getrandbits(62)) for _ in range(3)]
        play_game(deal, players, before=observe_first_and_last_trick)
    return bidding, cards


def iss_observations(path: str) -> Observations:
    from ..record import read_records

    records, errors = read_records(path)
    found = Observations()
    for record in records:
        for position, (_, move) in enumerate(record.moves):
            if type(move).__name__ == "Play":
                state = record.state_at(position)
                if state.phase == Phase.PLAY:
                    observe(state, found, cards=False)
                break
    return found


def seat_card_plays(path: str, games: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per game and seat of the records (suit, grand and null games played to the last
    trick; no Ramsch): whether the heuristic plays each card the seat played, judged in the
    true world, and the seat's hand size at each play; the first ``games`` records."""
    from ..record import read_records

    records, _ = read_records(path)
    plays = []
    for record in records[:games]:
        states = [s for s in record.positions()
                  if s.phase == Phase.PLAY and s.declarer is not None and len(s.tricks) == 9 and not s.trick]
        if not states:
            continue
        state = states[0]
        world = true_world(state)
        for seat in range(3):
            found = evidence_of(state.view((seat + 1) % 3), [world])
            mine = found.card_seats == seat
            plays.append((found.card_matches[0, mine].astype(float), found.card_hand_sizes[mine]))
    return plays


def fit_searchers(plays: list[tuple[np.ndarray, np.ndarray]], heuristic_share: float
                  ) -> tuple[float, float, float, float]:
    """The grid's best (searcher ε_card, prior) for seats whose cards are judged as the
    heuristic's (ε ``heuristic_share``) or the searcher's, mixed per seat and game; the
    mean log-likelihood per card it gives, and with the heuristic's kind alone."""
    def seat_totals(eps: float) -> np.ndarray:
        return np.array([card_log_terms(m, k, eps).sum() for m, k in plays])

    heuristic_like = seat_totals(heuristic_share)
    cards = sum(len(m) for m, _ in plays)
    best = (0.0, 0.0, -math.inf)
    for eps in SEARCHER_SHARES:
        searcher_like = seat_totals(eps)
        for prior in SEARCHER_PRIORS:
            ll = float(np.logaddexp(np.log1p(-prior) + heuristic_like, np.log(prior) + searcher_like).sum())
            if ll > best[2]:
                best = (eps, prior, ll)
    return best[0], best[1], best[2] / max(1, cards), float(heuristic_like.sum()) / max(1, cards)


@dataclass(frozen=True)
class BeliefFit:
    """The beliefs' mean log-loss per hidden card for each (searcher ε_card, prior) of the grid."""

    losses: dict[tuple[float, float], float]
    one_kind: float
    """With the heuristic's kind alone."""
    cards: int


def fit_searchers_by_beliefs(path: str, games: int, heuristic_share: float) -> BeliefFit:
    """How accurate the beliefs are on the records under each (searcher ε_card, prior) of the
    grid: at the start of tricks 2-6 of the first ``games`` records, every seat's inference
    pool (a 100-world decision's) is weighed under each model, and the mean log-loss per
    hidden card of its beliefs (``belief_accuracy.FLOOR``) is taken."""
    from ..worlds.inference import InferenceSampler, beliefs_of, pool_size
    from ..record import read_records
    from .belief_accuracy import FLOOR, _true_place

    records, _ = read_records(path)
    base = replace(FITTED_MODEL, card_uniform_share=heuristic_share, searcher_card_share=0.0, searcher_prior=0.0)
    models = {(eps, prior): replace(base, searcher_card_share=eps, searcher_prior=prior)
              for eps in SEARCHER_SHARES for prior in SEARCHER_PRIORS}
    models[(0.0, 0.0)] = base
    losses = dict.fromkeys(models, 0.0)
    cards = 0
    for number, record in enumerate(records[:games]):
        for state in record.positions():
            if state.phase != Phase.PLAY or state.trick or state.declarer is None or not 1 <= len(state.tricks) <= 5:
                continue
            for seat in range(3):
                sampler = InferenceSampler(state.view(seat), pool_size(100), number, base)
                truth = [(c, _true_place(state, c)) for c in range(32) if sampler.base.unknown >> c & 1]
                cards += len(truth)
                for key, model in models.items():
                    places = beliefs_of(sampler.reweighed(model)).places
                    losses[key] -= sum(math.log(max(places[c, place], FLOOR)) for c, place in truth)
    one_kind = losses.pop((0.0, 0.0))
    return BeliefFit({k: v / max(1, cards) for k, v in losses.items()}, one_kind / max(1, cards), cards)


def fit_bidding(found: Observations) -> tuple[PolicyModel, float]:
    """The grid's best bid and game temperatures, ε and discard temperature (the discard's
    likelihood shares only ε with the rest, so each ε takes the best of each part)."""
    best, best_ll = None, -math.inf
    for eps in SHARES:
        rest = {(t_bid, t_game): found.without_discard_log_likelihood(PolicyModel(t_bid, t_game, eps))
                for t_bid, t_game in itertools.product(BID_TEMPERATURES, GAME_TEMPERATURES)}
        discard = {t: found.discard_log_likelihood(PolicyModel(1, 1, eps, discard_temperature=t))
                   for t in DISCARD_TEMPERATURES}
        (t_bid, t_game), t_discard = max(rest, key=rest.get), max(discard, key=discard.get)
        ll = rest[(t_bid, t_game)] + discard[t_discard]
        if ll > best_ll:
            best, best_ll = PolicyModel(t_bid, t_game, eps, discard_temperature=t_discard), ll
    return best, best_ll


def fit_cards(found: Observations) -> tuple[float, float]:
    scores = {eps: found.card_log_likelihood(PolicyModel(1, 1, 0.01, eps)) for eps in CARD_SHARES}
    eps = max(scores, key=scores.get)
    return eps, scores[eps]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000,
                        help="heuristic self-play games to fit on (0: none; the code's model stands in)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--iss", help="ISS records to check the fitted model on")
    parser.add_argument("--searchers", help="records of games with searching players (a tournament's games.sgf): "
                                            "fit the second kind of card player on them")
    parser.add_argument("--searcher-games", type=int, default=1000,
                        help="how many of those records the plays are fitted on (default 1000)")
    parser.add_argument("--belief-games", type=int, default=100,
                        help="how many of those records the beliefs are judged on (default 100)")
    args = parser.parse_args(argv)
    model = replace(FITTED_MODEL, searcher_card_share=0.0, searcher_prior=0.0)
    if args.games > 0:
        bidding, cards = self_play(args.games, args.seed)
        model, ll = fit_bidding(bidding)
        card_eps, card_ll = fit_cards(cards)
        model = PolicyModel(model.bid_temperature, model.game_temperature, model.uniform_share, card_eps,
                            model.discard_temperature)
        print(f"self-play: {args.games} games, {bidding.actions} bidding and declaring actions, "
              f"{len(cards.card_matches)} cards")
        print(f"fitted: {model}")
        print(f"  mean log-likelihood per bidding/declaring action {ll / bidding.actions:.4f}, "
              f"per card {card_ll / max(1, len(cards.card_matches)):.4f}; "
              f"heuristic's card matched {np.mean(cards.card_matches):.3f}")
    if args.searchers:
        plays = seat_card_plays(args.searchers, args.searcher_games)
        ml_eps, ml_prior, per_card, alone = fit_searchers(plays, model.card_uniform_share)
        fit = fit_searchers_by_beliefs(args.searchers, args.belief_games, model.card_uniform_share)
        print(f"searchers' records: {len(plays)} seats' card play, {sum(len(m) for m, _ in plays)} cards; "
              f"the heuristic's card matched {np.mean(np.concatenate([m for m, _ in plays])):.3f}")
        print(f"  maximum likelihood of the plays: ε_card {ml_eps}, prior {ml_prior}; mean log-likelihood "
              f"per card {per_card:.4f} (one kind only: {alone:.4f})")
        print(f"  the beliefs' mean log-loss per hidden card at tricks 2-6 of {args.belief_games} records "
              f"({fit.cards} cards): one kind only {fit.one_kind:.4f}; by the searcher's ε_card (rows) and prior:")
        print("    ε \\ prior " + " ".join(f"{prior:>6}" for prior in SEARCHER_PRIORS))
        for eps in SEARCHER_SHARES:
            print(f"    {eps:<11}" + " ".join(f"{fit.losses[eps, prior]:.4f}" for prior in SEARCHER_PRIORS))
        best = min(fit.losses, key=fit.losses.get)
        print(f"  most accurate: ε_card {best[0]}, prior {best[1]} ({fit.losses[best]:.4f})")
        model = replace(model, searcher_card_share=best[0], searcher_prior=best[1])
    print(f"in the code: {FITTED_MODEL}")
    if args.iss:
        iss = iss_observations(args.iss)
        own, own_ll = fit_bidding(iss)
        print(f"ISS records: {iss.actions} bidding and declaring actions")
        print(f"  mean log-likelihood per action with the fitted model "
              f"{iss.bidding_log_likelihood(model) / max(1, iss.actions):.4f}; "
              f"fitted on the ISS records alone {own_ll / max(1, iss.actions):.4f} with {own}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
