"""Game review: double-dummy and own-view values of every card played, marks, summaries."""

from pathlib import Path

import pytest

from engine.cards import Card
from engine.game import Deal, GameState, Phase, Play
from engine.limits import Limit
from engine.record import parse_record, read_records
from engine.review import (
    BLUNDER,
    MISTAKE,
    ONLY_CARD,
    CardValue,
    GameReview,
    cache_path,
    load_cached,
    mark_for,
    review_decision,
    review_record,
    review_records,
    store_cached,
)
from engine.rules import GameType

SAMPLES = Path(__file__).parent.parent / "data" / "iss-samples.sgf"

# Diamonds, Ann (forehand) declares.  Trick 9: Bob leads ♠K, Cid plays ♣8; Ann, with 42 card
# points, holds ♥J (a trump) and ♥A and no spade.  Trumping with ♥J takes the trick and ♥A
# the last one (62 points: won); throwing ♥A away gives both tricks to the defenders (47: lost).
# Ann can see this from her own hand, so it is a blunder however the other cards lie.
PLANTED_BLUNDER = (Path(__file__).parent.parent / "data" / "planted-blunder.sgf").read_text().strip()


def test_a_planted_blunder_is_marked_double_question():
    review = review_record(parse_record(PLANTED_BLUNDER), "pimc", Limit(simulations=30), seed=4)
    assert len(review.decisions) == 30
    blunder = next(d for d in review.decisions if d.trick == 9 and d.position == 3)
    assert (blunder.seat, blunder.chosen, blunder.declarer_side) == (0, "HA", True)
    values = {c.card: c for c in blunder.cards}
    assert set(values) == {"HJ", "HA"}
    assert (values["HJ"].dd_points, values["HJ"].dd_won) == (62, True)
    assert (values["HA"].dd_points, values["HA"].dd_won) == (47, False)
    assert blunder.dd_turned and blunder.dd_loss_points == 15
    assert values["HJ"].view_win == 1.0 and values["HA"].view_win == 0.0  # Ann could see it
    assert blunder.mark == BLUNDER
    assert blunder.declarer_dd_after == 0.0 and blunder.declarer_view_after == 0.0
    ann = review.summaries()[0]
    assert ann.blunders == 1 and ann.dd_turned == 1 and ann.accuracy < 100
    assert review.next_mark(blunder.move - 1) == blunder


def _values(view_win, points=None, dd_won=None, dd_points=None):
    dd_won = dd_won or [True] * len(view_win)
    points = points or [None] * len(view_win)
    return tuple(CardValue(f"C{i}", dd_points[i] if dd_points else None, dd_won[i], points[i], view_win[i])
                 for i in range(len(view_win)))


@pytest.mark.parametrize(("wins", "points", "dd_won", "expected"), [
    ([0.80, 0.38], None, None, BLUNDER),  # 42 points of win share lost
    ([0.60, 0.30], None, None, BLUNDER),  # won in expectation turned into lost (a drop of 30)
    ([0.60, 0.45], None, None, MISTAKE),  # 15 points of win share: turned, but by less than 25
    ([0.90, 0.80], None, None, ""),
    ([0.50, 0.50], [80.0, 49.0], None, BLUNDER),  # 31 expected card points
    ([0.50, 0.50], [80.0, 67.0], None, MISTAKE),  # 13 card points
    ([0.50, 0.38], None, [True, False], BLUNDER),  # lost double-dummy, and the view saw a 12 % drop
    ([0.50, 0.45], None, [True, False], ""),  # lost double-dummy, but the view could hardly tell
    ([0.50, 0.50], None, [False, True], ONLY_CARD),  # the only card that keeps the game
])
def test_marks_follow_the_documented_thresholds(wins, points, dd_won, expected):
    cards = _values(wins, points, dd_won)
    mark, _ = mark_for(cards, "C1", forced=False)
    assert mark == expected


def test_a_forced_card_gets_no_mark():
    cards = (CardValue("C0", 40, False, 40.0, 0.0),)
    assert mark_for(cards, "C0", forced=True) == ("", False)


def _state_before(record, move_index):
    state = GameState.new(record.deal)
    for _, move in record.moves[:move_index]:
        state.push(move)
    return state


def _swap(deal: Deal, a: Card, b: Card) -> Deal:
    def moved(mask: int) -> int:
        has_a, has_b = mask >> a & 1, mask >> b & 1
        mask &= ~((1 << a) | (1 << b))
        return mask | (has_a << b) | (has_b << a)

    return Deal(tuple(moved(h) for h in deal.hands), moved(deal.skat))


@pytest.mark.parametrize("player", ["pimc", "mcu"])
def test_the_own_view_never_depends_on_cards_the_seat_cannot_see(player):
    """Swap two unplayed cards between the other two hands (same suit, so every earlier move
    stays legal and every void stays true): the seat's own-view numbers stay the same while
    the double-dummy values, which see every card, change."""
    from engine.rules import follow_mask

    record = parse_record(PLANTED_BLUNDER)
    move_index = next(i for i, (_, m) in enumerate(record.moves)
                      if isinstance(m, Play) and len(_state_before(record, i).tricks) == 3)
    state = _state_before(record, move_index)
    seat = state.to_move
    game = state.declaration.game
    others = [s for s in range(3) if s != seat]
    chosen = Card(record.moves[move_index][1].card)
    original = review_decision(state, move_index, chosen, player, Limit(simulations=40), 9, "x")
    dd_changed = False
    swaps = 0
    for a in map(Card, range(32)):
        for b in map(Card, range(32)):
            if not (state.hands[others[0]] >> a & 1 and state.hands[others[1]] >> b & 1):
                continue
            if not follow_mask(game, a) >> b & 1:
                continue
            twin_deal = _swap(record.deal, a, b)
            twin = GameState.new(twin_deal)
            for _, move in record.moves[:move_index]:
                twin.push(move)  # raises if the swap made an earlier move illegal
            assert twin.view(seat).hands == state.view(seat).hands
            again = review_decision(twin, move_index, chosen, player, Limit(simulations=40), 9, "x")
            assert [(c.card, c.view_points, c.view_win) for c in again.cards] == \
                [(c.card, c.view_points, c.view_win) for c in original.cards]
            dd_changed |= [c.dd_points for c in again.cards] != [c.dd_points for c in original.cards]
            swaps += 1
            if swaps >= 6:
                break
        if swaps >= 6:
            break
    assert swaps >= 2
    assert dd_changed  # the swaps did matter to what was possible: the test can see a leak


def test_the_iss_samples_review_without_error_and_round_trip_through_json(tmp_path):
    records, errors = read_records(SAMPLES)
    assert not errors
    reviews = review_records(records, "pimc", Limit(simulations=8), seed=2)
    assert [r.record_id for r in reviews] == [r.id for r in records]
    played = 0
    for record, review in zip(records, reviews):
        cards = [m for _, m in record.moves if isinstance(m, Play)]
        assert [d.chosen for d in review.decisions] == [str(Card(m.card)) for m in cards]
        for d in review.decisions:
            assert d.chosen in {c.card for c in d.cards}
            assert d.mark in ("", BLUNDER, MISTAKE, ONLY_CARD)
            assert d.forced == (len(d.cards) == 1)
            if not d.forced:
                assert d.view_loss_win is not None and d.view_loss_win >= 0
            played += 1
        assert GameReview.from_json_lines(review.json_lines()) == review
    assert played > 100
    copy = tmp_path / "games.sgf"
    copy.write_text(SAMPLES.read_text())
    store_cached(copy, reviews[:2])
    store_cached(copy, reviews[1:3])  # adds and replaces by record ID
    cached = load_cached(copy)
    assert cache_path(copy).name == "games.sgf.review.jsonl"
    assert list(cached) == [r.record_id for r in reviews[:3]]
    assert cached[reviews[1].record_id] == reviews[1]
    cache_path(copy).write_text("not json\n")
    assert load_cached(copy) == {}  # a damaged cache is ignored (and recomputed), never half-used


def test_same_seed_and_budget_give_the_same_review_on_any_number_of_threads():
    record = parse_record(PLANTED_BLUNDER)
    one = review_record(record, "mcu", Limit(simulations=20), seed=5, threads=1)
    two = review_record(record, "mcu", Limit(simulations=20), seed=5, threads=2)
    assert one == two
    other = review_record(record, "mcu", Limit(simulations=20), seed=6, threads=1)
    assert [d.cards for d in other.decisions] != [d.cards for d in one.decisions]


def test_a_null_game_is_reviewed_by_wins_only():
    from engine.game import Bid, Declare, Discard, Pass, PickUp
    from engine.players.heuristic import HeuristicPlayer
    from engine.record import GameRecord
    from engine.scoring import Declaration

    deal = Deal.shuffled(3)
    state = GameState.new(deal)
    for move in (Pass(), Pass(), Bid(18), PickUp(), Discard(deal.skat), Declare(Declaration(GameType.NULL))):
        state.push(move)
    players = [HeuristicPlayer(i) for i in range(3)]
    while not state.is_over:
        state.push(players[state.to_move].choose(state.view(state.to_move)).move)
    review = review_record(GameRecord.from_state(state, "null-1"), "pimc", Limit(simulations=10), seed=1)
    assert review.decisions
    for d in review.decisions:
        assert d.dd_loss_points is None and d.view_loss_points is None
        assert all(c.dd_points is None and c.view_points is None for c in d.cards)


def test_the_bench_reviews_a_whole_game():
    from engine.tools.search_bench import review_rows

    (row,) = review_rows(quick=True)
    assert row.name.startswith("review of a game") and row.unit == "s" and row.value > 0
    assert "cards in the last" in row.note


def test_a_record_whose_review_fails_is_reported_and_the_others_are_reviewed(monkeypatch):
    import engine.review as review_module

    records, _ = read_records(SAMPLES)
    records = records[:3]
    real = review_module.review_record

    def failing(record, *args, **kwargs):
        if record.id == records[1].id:
            raise ValueError("the solver refused the position")
        return real(record, *args, **kwargs)

    monkeypatch.setattr(review_module, "review_record", failing)
    failures = []
    reviews = review_records(records, "mcu", Limit(simulations=4), on_error=lambda r, e: failures.append((r.id, str(e))))
    assert [r.record_id for r in reviews] == [records[0].id, records[2].id]
    assert failures == [(records[1].id, "the solver refused the position")]
    with pytest.raises(ValueError):
        review_records(records, "mcu", Limit(simulations=4))  # without on_error it is raised


def _deal_with(hand_of: int, cards: str) -> Deal:
    """A deal where seat ``hand_of`` holds ``cards`` (ISS notation) and the rest is dealt in card order."""
    from engine.cards import CardSet

    mine = CardSet.from_str(cards).mask
    hands, others = [0, 0, 0], iter([c for c in range(32) if not mine >> c & 1])
    for seat in range(3):
        if seat == hand_of:
            hands[seat] = mine
        else:
            hands[seat] = sum(1 << next(others) for _ in range(10))
    skat = sum(1 << next(others) for _ in range(2))
    return Deal(tuple(hands), skat)


def test_passing_with_a_sure_grand_is_a_contract_blunder_and_the_skat_choice_is_valued():
    from engine.game import Pass
    from engine.record import GameRecord

    # Middlehand holds all four jacks and the four aces with two tens: a grand hand is a sure win.
    deal = _deal_with(1, "CJ.SJ.HJ.DJ.CA.SA.HA.DA.CT.ST")
    state = GameState.new(deal)
    state.push(Pass())  # middlehand passes at 18
    state.push(Pass())  # rearhand passes
    state.push(Pass())  # forehand passes: the game is passed in
    review = review_record(GameRecord.from_state(state, "pass-1"), "pimc", Limit(simulations=20), seed=1)
    first = review.contracts[0]
    assert (first.phase, first.seat, first.chosen, first.stake) == ("bidding", 1, "pass", 18)
    bid = next(o for o in first.options if o.name != "pass")
    assert bid.expected > 100 and first.loss == bid.expected and first.mark == BLUNDER
    # the summary rounds the seat's total to 0.1
    assert review.summaries()[1].blunders == 1
    assert review.summaries()[1].contract_loss == pytest.approx(first.loss, abs=0.05)
    assert review.next_mark(-1) == first


def test_contract_decisions_of_real_games_are_valued_with_the_chosen_discard():
    records, _ = read_records(SAMPLES)
    record = next(r for r in records if r.id == "8650652")  # the ISS declarer's diamonds at 36 were overbid
    review = review_record(record, "mcu", Limit(simulations=20), seed=1)
    discard = next(c for c in review.contracts if c.phase == "discard")
    assert discard.chosen.startswith("diamonds · ") and discard.chosen_index is not None
    assert discard.loss > 0 and discard.mark in (MISTAKE, BLUNDER)
    assert review.contracts == review_record(record, "mcu", Limit(simulations=20), seed=1).contracts


def test_a_dask_cluster_gives_the_same_reviews():
    distributed = pytest.importorskip("distributed")
    records, _ = read_records(SAMPLES)
    records = records[:2]
    local = review_records(records, "mcu", Limit(simulations=5), seed=3)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        remote = review_records(records, "mcu", Limit(simulations=5), seed=3, scheduler=cluster.scheduler_address)
    assert remote == local
