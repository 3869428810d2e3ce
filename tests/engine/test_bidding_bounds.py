"""``python3 -m engine.tools.bidding_bounds``: what passing could gain, from a tournament's games."""

import pytest

from engine.tools import bidding_bounds
from engine.tournament import read_journal, summarize
from skat_tui import cli


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("bounds") / "run"
    assert cli.main(["tournament", "--players", "heuristic,random,heuristic", "--deals", "6", "--seed", "5", "--workers", "1",
                     "--out", str(out)]) == 0
    return out


def test_passing_the_lost_games_zeroes_exactly_those_and_can_only_raise_the_player(run):
    journal = read_journal(run)
    random_spec = list(dict.fromkeys(journal.specs)).index("random")
    lost = [o for o in journal.outcomes if any(s.spec == random_spec and s.declarer_lost for s in o.seats)]
    assert lost, "the random player loses some games it declares"
    passed = bidding_bounds.passing_lost_games(journal.outcomes, random_spec)
    for before, after in zip(journal.outcomes, passed):
        if before in lost:
            assert all(s.seeger_fabian == 0 and s.declarer_lost == 0 for s in after.seats)
        else:
            assert after == before
    (played,), (bound,) = summarize(journal.specs, journal.outcomes)[1], summarize(journal.specs, passed)[1]
    sign = 1 if played["a"] == "random" else -1
    assert sign * bound["seeger_fabian_per_game_difference"] > sign * played["seeger_fabian_per_game_difference"]


def test_the_groups_hold_every_declared_game_once(run):
    journal = read_journal(run)
    for index in range(2):
        cells = bidding_bounds.by_chance_and_auction(bidding_bounds.declared_hands(journal.outcomes, index))
        declared = [s for o in journal.outcomes for s in o.seats
                    if s.spec == index and (s.declarer_won or s.declarer_lost)]
        assert sum(c.games for c in cells.values()) == len(declared)
        assert sum(c.won for c in cells.values()) == sum(s.declarer_won for s in declared)
        assert {auction for _, auction in cells} <= set(bidding_bounds.AUCTIONS)


def test_the_learned_rule_passes_the_hands_that_lose():
    import random

    rng = random.Random(1)
    hands = []
    for _ in range(600):
        chance = rng.random()
        won = rng.random() < chance ** 2  # the real win chance is lower than the estimate
        hands.append(bidding_bounds.DeclaredHand(chance, "suit", False, 18, 0, 18, False, won,
                                                 68.0 if won else -126.0))
    passed = bidding_bounds.learned_passes(hands)
    assert 0 < passed.sum() < len(hands)
    # break-even at 18: p·68 = (1 - p)·126, p ≈ 0.65, so chance ≈ 0.8
    assert max(h.chance for h, p in zip(hands, passed) if p) > 0.6
    assert min(h.chance for h, p in zip(hands, passed) if not p) > 0.6


def test_the_report_names_each_player_and_the_bounds(run, capsys):
    assert bidding_bounds.main([str(run)]) == 0
    out = capsys.readouterr().out
    assert "## random" in out and "passing every lost game" in out
    assert "Passing every group with a negative mean: at most" in out and "A learned rule" in out
