"""Inference: each seat's cards judged as a heuristic-like or a searching player's."""

import math
from dataclasses import replace

import numpy as np

from engine.game import Deal, GameState, Phase
from engine.worlds.inference import FITTED_MODEL, InferenceSampler, beliefs_of, card_log_likelihood
from engine.players.heuristic import HeuristicPlayer
from engine.players.registry import make_player

ONE_KIND = replace(FITTED_MODEL, searcher_prior=0.0)


def test_with_one_kind_the_cards_are_judged_by_the_heuristics_share_alone():
    matches = np.array([[1, 0, 1], [1, 1, 1]], np.uint8)
    sizes = np.array([10.0, 9.0, 8.0])
    seats = np.array([1, 2, 1])
    eps = ONE_KIND.card_uniform_share
    expected = [math.log(1 - eps + eps / 10) + math.log(eps / 9) + math.log(1 - eps + eps / 8),
                sum(math.log(1 - eps + eps / k) for k in (10, 9, 8))]
    assert np.allclose(card_log_likelihood(matches, sizes, seats, ONE_KIND), expected)


def test_each_seat_is_a_mixture_of_the_two_kinds():
    model = replace(FITTED_MODEL, card_uniform_share=0.02, searcher_card_share=0.6, searcher_prior=0.3)
    matches = np.array([[1, 0, 0, 1]], np.uint8)
    sizes = np.array([10.0, 10.0, 9.0, 9.0])
    seats = np.array([1, 2, 1, 2])

    def kind(eps, columns):
        return math.prod((1 - eps) * matches[0, c] + eps / sizes[c] for c in columns)

    expected = sum(math.log(0.7 * kind(0.02, columns) + 0.3 * kind(0.6, columns)) for columns in ((0, 2), (1, 3)))
    assert math.isclose(card_log_likelihood(matches, sizes, seats, model)[0], expected)


def test_a_seat_that_plays_unlike_the_heuristic_no_longer_rules_worlds_out():
    """Two worlds: in one the heuristic plays each of a seat's cards, in the other none.  One
    kind (ε 0.02) makes the second world a million times less likely after three cards; with
    the searching kind the seat is soon judged a searcher, and the odds stay far smaller."""
    matches = np.array([[1, 1, 1], [0, 0, 0]], np.uint8)
    sizes = np.array([10.0, 9.0, 8.0])
    seats = np.array([1, 1, 1])
    one = card_log_likelihood(matches, sizes, seats, ONE_KIND)
    mixed = card_log_likelihood(matches, sizes, seats, FITTED_MODEL)
    assert one[0] - one[1] > math.log(1e6)
    assert mixed[0] - mixed[1] < math.log(1e3)


def mid_game_view(seed, spec="heuristic"):
    state = GameState.new(Deal.shuffled(seed))
    players = [make_player(spec, seed * 3 + i) if spec != "heuristic" else HeuristicPlayer(seed * 3 + i)
               for i in range(3)]
    while not state.is_over and not (state.phase == Phase.PLAY and len(state.tricks) == 4 and not state.trick):
        state.push(players[state.to_move].choose(state.view(state.to_move)).move)
    return None if state.is_over else state


def test_reweighing_a_pool_under_its_own_model_changes_nothing_and_under_another_keeps_the_pool():
    state = next(s for s in map(mid_game_view, range(20)) if s is not None)
    sampler = InferenceSampler(state.view(state.to_move), 1000, 5)
    same = sampler.reweighed(FITTED_MODEL)
    assert np.array_equal(same.weights, sampler.weights)
    other = sampler.reweighed(ONE_KIND)
    assert other.hands is sampler.hands and not np.array_equal(other.weights, sampler.weights)
    assert other.effective_sample_size < sampler.effective_sample_size  # one sharp kind: fewer effective worlds
    assert np.allclose(beliefs_of(other).places[list(range(32))].sum(axis=1)[
        [c for c in range(32) if sampler.base.unknown >> c & 1]], 1.0)


def test_the_fit_finds_a_second_kind_in_games_of_searching_players():
    from engine.tools.fit_inference import fit_searchers

    rng = np.random.default_rng(1)
    plays = []
    for seat in range(300):  # a third play like the heuristic, the rest match its card half the time
        like_heuristic = seat % 3 == 0
        sizes = np.arange(10, 2, -1).astype(float)
        match_chance = 0.98 if like_heuristic else 0.5
        plays.append(((rng.random(len(sizes)) < match_chance).astype(float), sizes))
    eps, prior, per_card, one_kind = fit_searchers(plays, 0.02)
    assert 0.5 <= eps <= 0.7 and 0.5 <= prior <= 0.8
    assert per_card > one_kind
    assert np.isclose(one_kind, np.mean(np.concatenate([np.log(0.98 * m + 0.02 / k) for m, k in plays])))


def heuristic_records(tmp_path, count):
    from engine.record import GameRecord, format_record

    texts = []
    for seed in range(count):
        state = GameState.new(Deal.shuffled(seed))
        players = [HeuristicPlayer(seed * 3 + i) for i in range(3)]
        while not state.is_over:
            state.push(players[state.to_move].choose(state.view(state.to_move)).move)
        texts.append(format_record(GameRecord.from_state(state, id=str(seed))))
    path = tmp_path / "games.sgf"
    path.write_text("".join(text + "\n" for text in texts))
    return path


def test_in_games_of_heuristic_players_the_second_kind_gets_the_least_prior(tmp_path):
    from engine.tools.fit_inference import SEARCHER_PRIORS, fit_searchers, seat_card_plays

    plays = seat_card_plays(str(heuristic_records(tmp_path, 12)), 12)
    assert len(plays) >= 15 and all(len(m) == len(k) for m, k in plays)
    eps, prior, _, _ = fit_searchers(plays, FITTED_MODEL.card_uniform_share)
    assert prior == min(SEARCHER_PRIORS)


def test_the_fit_prints_the_beliefs_grid_and_the_most_accurate_model(tmp_path, capsys):
    from engine.tools.fit_inference import SEARCHER_SHARES, main

    assert main(["--games", "0", "--searchers", str(heuristic_records(tmp_path, 3)), "--belief-games", "1"]) == 0
    out = capsys.readouterr().out
    assert "one kind only" in out and "most accurate: ε_card" in out
    assert sum(line.strip().startswith(str(eps)) for line in out.splitlines() for eps in SEARCHER_SHARES) \
        >= len(SEARCHER_SHARES)


def test_a_seat_that_never_plays_the_heuristics_card_is_read_as_a_searcher():
    from engine.worlds.inference import searcher_posteriors

    sizes = np.array([10.0, 10.0, 9.0, 9.0, 8.0, 8.0])
    seats = np.array([1, 2, 1, 2, 1, 2])
    matches = np.array([[0, 1, 0, 1, 0, 1]], np.uint8)  # seat 1 never, seat 2 always
    chances = searcher_posteriors(matches, sizes, seats, FITTED_MODEL)
    assert chances[1][0] > 0.99 and chances[2][0] < 0.5
    assert searcher_posteriors(matches, sizes, seats, ONE_KIND) == {}


def test_heuristic_opponents_are_read_as_the_heuristics_kind():
    chances = []
    for state in filter(None, map(mid_game_view, range(12))):
        found = beliefs_of(InferenceSampler(state.view(state.to_move), 1000, 7))
        assert set(found.searcher_chances) == {s for s in range(3) if s != state.to_move}
        chances += found.searcher_chances.values()
    assert len(chances) >= 10 and np.mean(chances) < 0.2
