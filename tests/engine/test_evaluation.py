import pytest

from engine.evaluation import Evaluation


def ev(spec):
    return Evaluation.parse(spec)


def test_step_function_levels_for_declarer_and_defenders():
    step = ev("step")
    assert [step(p, p >= 61, True) for p in (0, 30, 31, 60, 61, 89, 90, 119, 120)] == [-8, -4, -2, -2, 1, 1, 2, 2, 3]
    assert step(60, True, False) == 1  # defenders win with 60


def test_type1_ramps_only_just_before_each_step():
    t = ev("type1-10")
    assert t(45, False, True) == -2  # outside the ramp
    assert t(51, False, True) == -2
    assert t(56, False, True) == pytest.approx(-2 + 3 * 5 / 10)
    assert t(61, True, True) == 1


def test_type2_ramps_to_half_the_next_step_and_the_lost_level_stays_below_zero():
    t = ev("type2-50")
    assert t(61, True, True) == 1
    assert t(75, True, True) == pytest.approx(1 + 1 * 0.5 * 14 / 29)
    assert t(60, False, True) == pytest.approx(-2 + 3 * 0.5 * 29 / 30)
    assert ev("type2-75")(60, False, True) == 0.0  # -2 + 2.25 * 29/30 > 0 would be capped


def test_type3_is_piecewise_linear_between_steps():
    t = ev("type3")
    assert t(31, False, True) == -2
    assert t(60, False, True) == pytest.approx(-2 + 3 * 29 / 30)


def test_mean_and_wins_and_null():
    assert ev("mean")(77, True, True) == 77
    assert ev("wins")(77, True, True) == 1 and ev("wins")(20, False, True) == 0
    assert ev("step")(0, True, True, null_game=True) == 1
    assert ev("type2-50")(0, False, True, null_game=True) == -2


@pytest.mark.parametrize("bad", ["median", "type1-7", "type2-40", "type2-x"])
def test_bad_specs_are_refused(bad):
    with pytest.raises(ValueError):
        ev(bad)


def test_specs_round_trip():
    for spec in ["mean", "wins", "step", "type1-5", "type2-75", "type3"]:
        assert str(ev(spec)) == spec


def test_each_searcher_has_its_own_default_for_suit_and_grand_and_wins_in_null():
    from engine.game import Deal, GameState
    from engine.players.heuristic import HeuristicPlayer
    from engine.players.registry import make_player
    from engine.rules import GameType
    from engine.series import play_game

    # a finished game with a suit or grand declaration, and the defaults read off it
    state = next(s for seed in range(50)
                 for s in [play_game(Deal.shuffled(seed), [HeuristicPlayer(seed=k) for k in range(3)])]
                 if s.declaration is not None and s.game not in (GameType.NULL,))
    mcu, pimc, mcts = (make_player(spec, seed=1) for spec in ("mcu", "pimc", "mcts"))
    assert mcu.evaluation_for(state) == ev("type2-50")
    assert pimc.evaluation_for(state) == ev("mean")
    assert mcts.evaluation_for(state) == ev("mean")
    assert make_player("mcu:eval=mean", seed=1).evaluation_for(state) == ev("mean")  # the spec decides
    null_state = next(s for seed in range(400)
                      for s in [play_game(Deal.shuffled(seed), [HeuristicPlayer(seed=k) for k in range(3)])]
                      if s.game == GameType.NULL)
    assert mcu.evaluation_for(null_state) == ev("wins")
