import random

from engine.game import Deal
from engine.players import RandomPlayer
from engine.rules import GameType
from engine.scoring import Declaration, score_game
from engine.series import Series, play_game


def result(declarer, won, value_game=GameType.CLUBS):
    # clubs with 1: 24 won, -48 lost
    return score_game(declarer, Declaration(value_game), 18, 1 << 28, 70 if won else 40, 6 if won else 3, 4 if won else 7)


def test_dealer_rotates_and_forehand_sits_left_of_the_dealer():
    series = Series(("ann", "bob", "cid"), first_dealer=2)
    entries = [series.record(None) for _ in range(4)]
    assert [e.dealer for e in entries] == [2, 0, 1, 2]
    assert entries[0].seats == (0, 1, 2)  # dealer cid: ann is forehand
    assert entries[1].seats == (1, 2, 0)


def test_plain_and_seeger_fabian_totals():
    series = Series(("ann", "bob", "cid"), first_dealer=2)
    series.record(result(0, True))  # ann (forehand) wins 24
    series.record(result(0, False))  # bob (forehand now) loses 48
    series.record(None)  # passed in
    totals = series.totals()
    assert [t.score for t in totals] == [24, -48, 0]
    assert [t.seeger_fabian for t in totals] == [24 + 50 + 40, -48 - 50, 40]
    assert [(t.games, t.won, t.lost) for t in totals] == [(1, 1, 0), (1, 0, 1), (0, 0, 0)]


def test_table_of_four_pays_defenders_30():
    assert result(1, False).seeger_fabian(table_size=4) == (30, -98, 30)


def test_a_seeded_series_is_reproducible():
    def run():
        s = Series(("a", "b", "c"))
        players = [RandomPlayer(i) for i in range(3)]
        rng = random.Random(9)
        for _ in range(20):
            seats = s.seats_for(s.next_dealer)
            s.record(play_game(Deal.shuffled(rng), [players[p] for p in seats]).result())
        return [(t.score, t.seeger_fabian) for t in s.totals()]

    assert run() == run()


def test_play_game_gives_each_seat_only_its_view():
    seen = []

    class Spy(RandomPlayer):
        def choose(self, view, limit=None, *, stop=None, report=None):
            seen.append((view.perspective, view.to_move, [view.hands[s] != 0 for s in range(3)]))
            return super().choose(view, limit)

    state = play_game(Deal.shuffled(4), [Spy(1), Spy(2), Spy(3)])
    assert state.is_over
    for perspective, to_move, known in seen:
        assert perspective == to_move
        others = [k for s, k in enumerate(known) if s != perspective]
        if state.declaration is None or not state.declaration.ouvert:
            assert not any(others)
