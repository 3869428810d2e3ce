"""The tournament with house rules and every deal as a Ramsch: the Ramsch results it reports."""

from __future__ import annotations

import pytest

from engine.game import Deal, Phase
from engine.house_rules import ISKO, HouseRules
from engine.players.registry import make_player
from engine.tournament import generate_deals, play_tournament_game, run_tournament, summarize


def test_ramsch_only_needs_the_ramsch_rule_and_plays_a_ramsch():
    players = [make_player("heuristic", seat) for seat in range(3)]
    with pytest.raises(ValueError, match="Ramsch rule"):
        play_tournament_game(Deal.shuffled(1), players, ISKO, ramsch_only=True)
    state = play_tournament_game(Deal.shuffled(1), players, HouseRules(ramsch=True), ramsch_only=True)
    assert state.phase == Phase.FINISHED and state.ramsch and state.declarer is None


def test_ramsch_only_tournament_reports_points_lost():
    from engine.tournament import generate_deals, run_tournament

    run = run_tournament(["heuristic", "random", "random"], generate_deals(2, 3), seed=3, ramsch_only=True)
    results = run.results()
    rows = {row["spec"]: row for row in results["players"]}
    assert rows["heuristic"]["ramsch_games"] == 6 and rows["random"]["ramsch_games"] == 12
    assert all(o.game == "ramsch" for o in run.outcomes)
    lost = [-s.ramsch_value for o in run.outcomes for s in o.seats if s.spec == 0]
    assert rows["heuristic"]["ramsch_lost_per_game"] == pytest.approx(sum(lost) / len(lost))
    assert results["pairs"][0]["ramsch_deals"] == 2
    assert results["run"]["rules"]["ramsch"] and results["run"]["ramsch_only"]


def test_ramsch_results_are_summed_and_paired_by_deal():
    """Points lost per Ramsch game: minus the mean list entry; the pair is the mean over deals of the
    per-deal difference of the two specs' means."""
    from engine.tournament import GameOutcome, SeatOutcome

    def game(deal, values, specs):
        return GameOutcome(deal, tuple(specs), "", "ramsch", None, None,
                           [SeatOutcome(s, v, v, 0, 0, 0, ramsch_value=v) for s, v in zip(specs, values)])

    outcomes = [game(0, (-60, 0, 0), (0, 1, 1)), game(0, (0, -40, 0), (1, 0, 1)),
                game(1, (0, 0, -80), (1, 1, 0)), game(1, (-30, 0, 0), (1, 0, 1))]
    totals, pairs = summarize(["a", "b", "b"], outcomes)
    assert totals[0].ramsch_games == 4 and totals[0].ramsch_score == -60 - 40 - 80
    assert totals[0].ramsch_lost_per_game == pytest.approx(180 / 4)
    assert totals[1].ramsch_games == 8 and totals[1].ramsch_lost_per_game == pytest.approx(30 / 8)
    # deal 0: a loses 50 per game, b 0; deal 1: a 40, b 7.5
    assert pairs[0]["ramsch_lost_per_game_difference"] == pytest.approx((50 + 32.5) / 2)
    assert pairs[0]["ramsch_deals"] == 2
    # a run without Ramsch games reports no Ramsch pair
    assert "ramsch_deals" not in summarize(["a", "b", "b"], [])[1][0]
