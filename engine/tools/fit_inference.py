"""Maximum-likelihood fit of the inference model (``engine.inference.PolicyModel``).

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
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import sys
from dataclasses import dataclass, field

import numpy as np

from ..game import Deal, GameState, Phase
from ..inference import CHOICE_COLUMNS, FITTED_MODEL, Evidence, PolicyModel, _choice_log_likelihood, _sigmoid
from ..inference import evidence as evidence_of
from ..players.heuristic import HeuristicPlayer
from ..sampling import World

BID_TEMPERATURES = (0.01, 0.02, 0.03, 0.05, 0.08, 0.12, 0.2, 0.3)
GAME_TEMPERATURES = (0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 40.0, 80.0)
SHARES = (0.005, 0.01, 0.02, 0.05, 0.1, 0.2)
CARD_SHARES = (0.005, 0.01, 0.02, 0.03, 0.05, 0.08, 0.12, 0.2, 0.3, 0.5)


@dataclass
class Observations:
    """Every action's evidence in its true world, flattened across views."""

    margins: list[float] = field(default_factory=list)
    went_on: list[bool] = field(default_factory=list)
    utilities: list[np.ndarray] = field(default_factory=list)
    allowed: list[np.ndarray] = field(default_factory=list)
    made: list[int] = field(default_factory=list)
    discards_breaking: list[bool] = field(default_factory=list)
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
        if found.discard_breaks_rule is not None:
            self.discards_breaking.append(bool(found.discard_breaks_rule[0]))
        if found.card_matches is not None:
            self.card_matches += found.card_matches[0].astype(float).tolist()
            self.card_hand_sizes += found.card_hand_sizes.tolist()

    @property
    def actions(self) -> int:
        return len(self.margins) + len(self.made) + len(self.discards_breaking)

    def bidding_log_likelihood(self, model: PolicyModel) -> float:
        """Bids, holds, passes, declarations and discards."""
        eps = model.uniform_share
        go_on = eps / 2 + (1 - eps) * _sigmoid(np.array(self.margins) / model.bid_temperature)
        total = float(np.log(np.where(self.went_on, go_on, 1 - go_on)).sum())
        if self.made:
            total += float(_choice_log_likelihood(np.array(self.utilities), np.array(self.allowed),
                                                  np.array(self.made), model).sum())
        total += sum(self.discards_breaking) * math.log(eps)
        return total

    def card_log_likelihood(self, model: PolicyModel) -> float:
        eps = model.card_uniform_share
        matches = np.array(self.card_matches)
        return float(np.log((1 - eps) * matches + eps / np.array(self.card_hand_sizes)).sum())


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
    for number in range(games):
        state = GameState.new(Deal.shuffled(rng.getrandbits(62)))
        players = [HeuristicPlayer(rng.getrandbits(62)) for _ in range(3)]
        while not state.is_over:
            if state.phase == Phase.PLAY and not state.trick and len(state.tricks) in (0, 9):
                observe(state, bidding if not state.tricks else cards, cards=bool(state.tricks))
            state.push(players[state.to_move].choose(state.view(state.to_move)).move)
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


def fit_bidding(found: Observations) -> tuple[PolicyModel, float]:
    best, best_ll = None, -math.inf
    for t_bid, t_game, eps in itertools.product(BID_TEMPERATURES, GAME_TEMPERATURES, SHARES):
        model = PolicyModel(t_bid, t_game, eps)
        ll = found.bidding_log_likelihood(model)
        if ll > best_ll:
            best, best_ll = model, ll
    return best, best_ll


def fit_cards(found: Observations) -> tuple[float, float]:
    scores = {eps: found.card_log_likelihood(PolicyModel(1, 1, 0.01, eps)) for eps in CARD_SHARES}
    eps = max(scores, key=scores.get)
    return eps, scores[eps]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--iss", help="ISS records to check the fitted model on")
    args = parser.parse_args(argv)
    bidding, cards = self_play(args.games, args.seed)
    model, ll = fit_bidding(bidding)
    card_eps, card_ll = fit_cards(cards)
    model = PolicyModel(model.bid_temperature, model.game_temperature, model.uniform_share, card_eps)
    print(f"self-play: {args.games} games, {bidding.actions} bidding and declaring actions, "
          f"{len(cards.card_matches)} cards")
    print(f"fitted: {model}")
    print(f"  mean log-likelihood per bidding/declaring action {ll / bidding.actions:.4f}, "
          f"per card {card_ll / max(1, len(cards.card_matches)):.4f}; "
          f"heuristic's card matched {np.mean(cards.card_matches):.3f}")
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
