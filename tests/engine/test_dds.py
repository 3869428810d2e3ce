"""Double-dummy solver: the numba core against the plain-Python reference and engine.rules."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from engine.cards import CARD_POINTS, points_of
from engine import card_layout
from engine.dds import bounds, context, core, endgame, null_table, search
from engine.dds.reference import (TABLE_PATH, position_from_json, random_position, reference_per_card,
                                  reference_value, worlds_of_one_decision)
from engine.dds.solver import Position, SolveAborted, SolverContext, solve, solve_threshold
from engine.rules import GameType, trick_winner
from engine.tools.warmup import SOLVER, warm_up

ROOT = Path(__file__).resolve().parents[2]
THRESHOLDS = (31, 61, 90, 120)


@pytest.fixture(scope="module")
def ctx() -> SolverContext:
    warm_up(SOLVER)
    return SolverContext(tt_bits=16)


def _random_positions(seed: int, count_per_game: int) -> list[Position]:
    """3 to 5 tricks left, on lead and with 1 or 2 cards on the table, every game type."""
    rng = random.Random(seed)
    positions = []
    for game in GameType:
        for _ in range(count_per_game):
            positions.append(random_position(rng, game, rng.randrange(15, 25)))
    return positions


def _threshold_of(game: GameType, value: int, threshold: int) -> int:
    return value if game == GameType.NULL else int(value >= threshold)




def test_solver_matches_reference_on_random_positions(ctx):
    positions = _random_positions(seed=7, count_per_game=90)
    assert len(positions) >= 500
    assert sum(1 for p in positions if p.trick) >= 150  # mid-trick positions are well covered
    for pos in positions:
        expected = reference_per_card(pos)
        result = solve(pos, ctx=ctx)
        assert result.per_card == expected, pos
        best = max(expected.values()) if pos.to_move == pos.declarer else min(expected.values())
        assert result.value == best == reference_value(pos), pos
        assert expected[result.best_card] == best, pos
        quick = solve(pos, per_card=False, ctx=ctx)
        assert quick.value == best and expected[quick.best_card] == best, pos


def test_thresholds_match_reference(ctx):
    for pos in _random_positions(seed=8, count_per_game=12):
        expected = reference_per_card(pos)
        best = reference_value(pos)
        for t in THRESHOLDS:
            result = solve_threshold(pos, t, ctx=ctx)
            assert result.value == _threshold_of(pos.game, best, t), (pos, t)
            assert result.per_card == {c: _threshold_of(pos.game, v, t) for c, v in expected.items()}, (pos, t)
            quick = solve_threshold(pos, t, per_card=False, ctx=ctx)
            assert quick.value == result.value
            assert result.per_card[quick.best_card] == result.value


def test_per_card_thresholds_agree_with_exact_per_card_values(ctx):
    """Per-card yes/no answers partly come from a neighbour's answer (equal cards, or a
    run whose trick side is settled); they must match the exact per-card values."""
    rng = random.Random(31)
    checked = 0
    for i in range(240):
        game = GameType(i % 5)
        pos = random_position(rng, game, rng.randrange(9, 22))
        exact = solve(pos, ctx=ctx).per_card
        for t in (31, 61, 90):
            answers = solve_threshold(pos, t, ctx=ctx).per_card
            assert answers == {c: int(v >= t) for c, v in exact.items()}, (pos, t)
            checked += 1
    assert checked == 720


def test_stored_reference_table():
    table = json.loads(TABLE_PATH.read_text())
    assert len(table["entries"]) >= 30
    for entry in table["entries"]:
        pos = position_from_json(entry["position"])
        result = solve(pos)
        assert result.value == entry["value"], pos
        assert result.per_card == {int(c): v for c, v in entry["per_card"].items()}, pos
        for t, expected in entry["thresholds"].items():
            assert solve_threshold(pos, int(t), per_card=False).value == expected, (pos, t)


def test_whole_games_consistent_along_best_play(ctx):
    """From the first trick, playing the solver's best card never changes the value."""
    rng = random.Random(3)
    for game in (GameType.SPADES, GameType.GRAND, GameType.NULL):
        pos = random_position(rng, game, 0)
        value = solve(pos, per_card=False, ctx=ctx).value
        while (any(pos.hands) or pos.trick) and not (game == GameType.NULL and pos.declarer_tricks):
            result = solve(pos, per_card=False, ctx=ctx)
            assert result.value == value
            pos = _play(pos, result.best_card)
        final = (0 if pos.declarer_tricks else 1) if game == GameType.NULL else pos.declarer_points
        assert final == value


def _play(pos: Position, card: int) -> Position:
    """``pos`` after the player to move plays ``card``."""
    hands = list(pos.hands)
    hands[pos.to_move] &= ~(1 << card)
    trick = pos.trick + (card,)
    if len(trick) < 3:
        return replace(pos, hands=tuple(hands), trick=trick)
    winner = (pos.leader + trick_winner(pos.game, trick)) % 3
    points = sum(CARD_POINTS[c] for c in trick)
    if winner == pos.declarer:
        return replace(pos, hands=tuple(hands), trick=(), leader=winner, declarer_points=pos.declarer_points + points,
                       declarer_tricks=pos.declarer_tricks + 1)
    return replace(pos, hands=tuple(hands), trick=(), leader=winner, defender_points=pos.defender_points + points)


def test_every_technique_switch_gives_the_same_values():
    flags = (0, core.FLAG_NO_TT, core.FLAG_NO_ORDER, core.FLAG_NO_EQUIV, core.FLAG_BINARY_ONLY, core.FLAG_RAW_TT,
             core.FLAG_NO_QUICK, core.FLAG_NO_SURE_POINTS, core.FLAG_NO_GUESS, core.FLAG_NO_KILLER,
             core.FLAG_NO_ENDGAME)
    contexts = [SolverContext(tt_bits=14, flags=f) for f in flags]
    rng = random.Random(5)
    for i in range(60):
        pos = random_position(rng, GameType(i % 6), rng.randrange(12, 22))
        values = {solve(pos, per_card=False, ctx=c).value for c in contexts}
        assert len(values) == 1, pos
        per_card = {tuple(sorted(solve(pos, ctx=c).per_card.items())) for c in contexts}  # guesses act per card
        assert len(per_card) == 1, pos


def test_quasi_symmetry_table_keeps_full_deal_values():
    """The quasi-symmetry table carries bounds between positions of different cards;
    on full deals (where it is used most) every per-card value must stay the same."""
    with_table = SolverContext(tt_bits=16)
    without = SolverContext(tt_bits=16, flags=core.FLAG_RAW_TT)
    rng = random.Random(21)
    for game in (GameType.CLUBS, GameType.HEARTS, GameType.GRAND, GameType.SPADES):
        pos = random_position(rng, game, 0)
        assert solve(pos, ctx=with_table).per_card == solve(pos, ctx=without).per_card, pos
        for threshold in (31, 61, 90):
            assert solve_threshold(pos, threshold, ctx=with_table).value == \
                solve_threshold(pos, threshold, ctx=without).value


def _rank_mapped(pos: Position, rng: random.Random) -> tuple[Position, int, int]:
    """``pos`` with the cards in play of each follow class replaced by another set of
    that class of the same size, rank by rank (same owners in the same order), and the
    points (lost, gained) by that mapping according to the core."""
    from engine.rules import CLASS_OF, STRENGTH

    g = int(pos.game)
    in_play = pos.hands[0] | pos.hands[1] | pos.hands[2]
    mapping = {}
    for cls in set(CLASS_OF[g]):
        members = sorted((c for c in range(32) if CLASS_OF[g][c] == cls), key=lambda c: STRENGTH[g][c])
        mine = [c for c in members if in_play >> c & 1]
        if not mine:
            continue
        other = sorted(rng.sample(members, len(mine)), key=lambda c: STRENGTH[g][c])
        mapping.update(zip(mine, other))
    hands = tuple(sum(1 << mapping[c] for c in range(32) if h >> c & 1) for h in pos.hands)
    lost, gained = search.point_shift(g, card_layout.to_internal_mask(g, in_play), card_layout.to_internal_mask(g, sum(1 << c for c in mapping.values())))
    return replace(pos, hands=hands), lost, gained


def test_rank_mapped_positions_differ_by_at_most_the_point_shift():
    """The soundness argument of the quasi-symmetry table, checked against the reference:
    the same owners rank by rank give the same game tree, so the value moves by no more
    than the points the mapped cards lose or gain."""
    rng = random.Random(8)
    checked = 0
    for i in range(120):
        game = GameType(i % 5)  # suit and grand
        pos = random_position(rng, game, rng.choice((18, 21)))
        if pos.trick:
            continue
        mapped, lost, gained = _rank_mapped(pos, rng)
        before, after = reference_value(pos), reference_value(mapped)
        assert before - lost <= after <= before + gained, (pos, mapped, lost, gained)
        checked += 1
    assert checked > 30


def test_three_trick_endgame_bounds_hold_for_any_window():
    """``_three_tricks`` (three cards in every hand, called with the node's window)
    must keep the fail-soft contract for every window: a result at or below alpha is
    an upper bound, at or above beta a lower bound, anything between the exact value."""
    rng = random.Random(33)
    checked = 0
    while checked < 300:
        game = GameType(checked % 6)
        pos = random_position(rng, game, 21)
        if pos.trick or sum(h.bit_count() for h in pos.hands) != 9 or pos.declarer_tricks:
            continue  # a null the declarer already lost stops early
        exact = reference_value(pos)
        g = int(game)
        hands = [card_layout.to_internal_mask(g, h) for h in pos.hands]
        if game == GameType.NULL:
            acc, rem, windows = 0, 1, [(0, 1)]
        else:
            acc = pos.declarer_points
            rem = sum(points_of(h) for h in pos.hands)
            windows = [(acc + x, acc + x + 1) for x in range(0, rem, 7)] + [(exact - 3, exact + 2), (-context.INF, context.INF)]
        for alpha, beta in windows:
            v, best = endgame.three_tricks(g, pos.declarer, pos.leader, *hands, acc, rem, alpha, beta, -1)
            if v <= alpha:
                assert exact <= v, (pos, alpha, beta, v)
            elif v >= beta:
                assert exact >= v, (pos, alpha, beta, v)
            else:
                assert v == exact, (pos, alpha, beta, v)
            assert (hands[pos.leader] >> best) & 1
        checked += 1


def test_positions_at_start_and_end():
    # Game over: the value is the points taken.
    done = Position(game=GameType.HEARTS, declarer=1, hands=(0, 0, 0), declarer_points=70, defender_points=50)
    assert solve(done).value == 70
    assert solve_threshold(done, 61).value == 1
    # Null already lost.
    lost = Position(game=GameType.NULL, declarer=0, hands=(1, 2, 4), declarer_tricks=1)
    assert solve(lost).value == 0
    # Inconsistent hands are rejected.
    with pytest.raises(ValueError):
        solve(Position(game=GameType.GRAND, declarer=0, hands=(3, 4, 8)))


def test_value_includes_points_taken_and_skat(ctx):
    rng = random.Random(9)
    pos = random_position(rng, GameType.CLUBS, 21)
    more = Position(game=pos.game, declarer=pos.declarer, hands=pos.hands, trick=pos.trick, leader=pos.leader,
                    declarer_points=pos.declarer_points + 10, declarer_tricks=pos.declarer_tricks,
                    defender_points=pos.defender_points)
    assert solve(more, ctx=ctx).value == solve(pos, ctx=ctx).value + 10


def test_context_reuse_across_deals_matches_fresh_contexts():
    shared = SolverContext(tt_bits=12)  # small table: collisions and overwrites happen
    rng = random.Random(11)
    for i in range(40):
        pos = random_position(rng, GameType(i % 6), 12)
        assert solve(pos, per_card=False, ctx=shared).value == solve(pos, per_card=False,
                                                                      ctx=SolverContext(tt_bits=16)).value


def test_a_tiny_table_overwrites_all_the_time_and_stays_exact():
    tiny = SolverContext(tt_bits=2)  # two buckets of two entries
    rng = random.Random(13)
    for i in range(30):
        pos = random_position(rng, GameType(i % 6), rng.randrange(9, 18))
        assert solve(pos, ctx=tiny).per_card == solve(pos, ctx=SolverContext(tt_bits=16)).per_card, pos
    with pytest.raises(ValueError, match="tt_bits"):
        SolverContext(tt_bits=1)


def test_array_entry_point_and_generation_wrap():
    ctx = SolverContext(tt_bits=10)
    ctx.meta[core.META_GEN] = core.GEN_LIMIT - 1  # force a wrap-around (table cleared) during the loop
    rng = random.Random(12)
    for _ in range(6):
        pos = random_position(rng, GameType.GRAND, 15)
        trick = ctx.trick
        trick[:] = 0
        for i, c in enumerate(pos.trick):
            trick[i] = c
        value = core.solve_value(int(pos.game), pos.declarer, *pos.hands, trick, len(pos.trick), pos.leader,
                                 pos.declarer_points, pos.declarer_tricks, core.EXACT, *ctx.arrays)
        assert value == reference_value(pos)
    assert 1 <= ctx.meta[core.META_GEN] < 10


def _solve_worlds(ctx: SolverContext, worlds: list[Position], threshold: int):
    pos = worlds[0]
    trick = np.zeros(3, np.int64)
    trick[:len(pos.trick)] = pos.trick
    k = len(worlds)
    out_cards = np.zeros((k, 12), np.int64)
    out_values = np.zeros((k, 12), np.int64)
    out_counts = np.zeros(k, np.int64)
    solved = core.solve_worlds(int(pos.game), pos.declarer, np.array([w.hands for w in worlds], np.int64),
                               np.array([w.declarer_points for w in worlds], np.int64), trick, len(pos.trick),
                               pos.leader, pos.declarer_tricks, threshold, out_cards, out_values, out_counts,
                               *ctx.arrays)
    rows = [dict(zip(out_cards[j, :out_counts[j]].tolist(), out_values[j, :out_counts[j]].tolist()))
            for j in range(solved)]
    return solved, rows


def test_many_worlds_in_one_call_match_one_solve_per_world():
    """The PIMC batch entry gives every world's per-card values as a solve of that world alone."""
    rng = random.Random(21)
    ctx = SolverContext(tt_bits=14)
    for i in range(18):
        game = GameType(i % 6)
        pos = random_position(rng, game, rng.randrange(12, 22))
        worlds = worlds_of_one_decision(pos, rng, 5)
        for threshold in (core.EXACT, 61):
            solved, rows = _solve_worlds(ctx, worlds, threshold)
            assert solved == len(worlds)
            for world, row in zip(worlds, rows):
                alone = solve(world, ctx=SolverContext(tt_bits=14)).per_card
                if threshold != core.EXACT and game != GameType.NULL:
                    alone = {card: int(value >= threshold) for card, value in alone.items()}
                assert row == alone, world


def test_many_worlds_in_one_call_stop_at_an_abort():
    rng = random.Random(22)
    pos = _long_position()
    worlds = worlds_of_one_decision(pos, rng, 4)
    ctx = SolverContext(tt_bits=14)
    ctx.request_abort()
    assert _solve_worlds(ctx, worlds, core.EXACT)[0] == 0
    ctx.clear_abort()
    ctx.node_limit = 1  # every world needs more: the first one is dropped, none is reported
    assert _solve_worlds(ctx, worlds, core.EXACT)[0] == 0
    ctx.node_limit = 0
    solved, rows = _solve_worlds(ctx, worlds, core.EXACT)
    assert solved == 4 and rows[0] == solve(worlds[0], ctx=SolverContext(tt_bits=14)).per_card


def test_cache_loads_in_a_second_process():
    """numba #6061: recursive cached functions crashed when loaded elsewhere; ours uses a loop."""
    code = ("from engine.dds.solver import Position, solve; from engine.rules import GameType; "
            "print(solve(Position(GameType.GRAND, 0, (1 << 28 | 1 << 0, 1 << 20 | 1 << 1, 1 << 12 | 1 << 2)))"
            ".value)")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for _ in range(2):  # the second run certainly loads from the cache
        out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                             timeout=300)
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip() == "6"  # the declarer leads ♣J and collects all three jacks


def test_warm_up_compiles_what_the_monte_carlo_players_call():
    """After the app's warm-up, PIMC (every evaluation) and MCU decisions find the core's
    entry points ready: no call compiles or loads a new signature (a fresh process, so
    that other tests' calls do not hide a gap)."""
    code = (
        "from engine.tools.warmup import warm_up; warm_up()\n"
        "from engine.dds import core\n"
        "from engine.policy import playout_core\n"
        "entries = [core.solve_worlds, core.solve_root, core.solve_value, playout_core.playout_cards_batch]\n"
        "before = [len(f.signatures) for f in entries]\n"
        "from engine.evaluation import Evaluation\n"
        "from engine.limits import Limit\n"
        "from engine.players.mcu import MCUPlayer\n"
        "from engine.players.pimc import PIMCPlayer\n"
        "from engine.tools.search_bench import _first_trick_positions\n"
        "for state in _first_trick_positions(2):\n"
        "    view = state.view(state.to_move)\n"
        "    MCUPlayer(Limit(simulations=4), seed=1).choose(view)\n"
        "    for kind in ('wins', 'mean', 'step'):\n"
        "        PIMCPlayer(Limit(simulations=4), evaluation=Evaluation(kind), seed=1).choose(view)\n"
        "print([len(f.signatures) for f in entries] == before)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "True"


def test_bench_quick_smoke(capsys):
    from engine.tools import bench

    calls = []
    bench.EXTRA_ROWS.append(lambda quick: calls.append(quick) or [bench.BenchRow("players", "PIMC worlds/s", value=1.0)])
    try:
        assert bench.run_bench(json_out=True, quick=True) == 0
    finally:
        bench.EXTRA_ROWS.pop()
    data = json.loads(capsys.readouterr().out)
    names = [row["name"] for row in data["rows"]]
    assert "suit, 10 tricks left" in names
    assert calls == [True]
    pimc = [row for row in data["rows"] if row["name"] == "PIMC worlds/s"]
    assert len(pimc) == 1 and pimc[0]["value"] == 1.0


# ---- stopping a solve ------------------------------------------------------------------------


def _long_position() -> Position:
    """A full deal whose exact value takes well over a few ms to find."""
    return random_position(random.Random(1), GameType.GRAND, 0)


def test_node_limit_aborts_and_the_context_stays_usable():
    ctx = SolverContext(tt_bits=16, node_limit=2000)
    pos = _long_position()
    with pytest.raises(SolveAborted):
        solve(pos, ctx=ctx)
    with pytest.raises(SolveAborted):
        solve(pos, per_card=False, ctx=ctx)
    assert ctx.nodes < 2 * (2000 + 1024)  # stopped within one check interval of the limit, per solve
    ctx.node_limit = 0
    small = random_position(random.Random(2), GameType.HEARTS, 18)
    assert solve(small, ctx=ctx).value == reference_value(small)


def test_request_abort_from_another_thread_stops_a_long_solve():
    warm_up(SOLVER)
    # Without the table, move ordering and equivalent cards the full-deal solve runs for
    # seconds (over 50 M nodes): the abort, not the end, must stop it.
    ctx = SolverContext(tt_bits=16, flags=core.FLAG_NO_TT | core.FLAG_NO_ORDER | core.FLAG_NO_EQUIV)
    pos = _long_position()
    timer = threading.Timer(0.05, ctx.request_abort)
    timer.start()
    start = time.perf_counter()
    with pytest.raises(SolveAborted):
        solve(pos, ctx=ctx)
    timer.join()
    assert time.perf_counter() - start < 2.0  # generous: the abort is checked every 512 nodes
    # Sticky until cleared: a new solve stops at once, also through the array entry point.
    with pytest.raises(SolveAborted):
        solve(pos, per_card=False, ctx=ctx)
    value = core.solve_value(int(pos.game), pos.declarer, *pos.hands, ctx.trick, 0, pos.leader, pos.declarer_points,
                             0, 61, *ctx.arrays)
    assert value == core.ABORTED
    ctx.clear_abort()
    small = random_position(random.Random(3), GameType.NULL, 18)
    assert solve(small, ctx=ctx).value == reference_value(small)


def _pimc_first_trick_view():
    from engine.game import Deal, GameState, Phase
    from engine.players.heuristic import HeuristicPlayer

    for seed in range(100):
        state = GameState.new(Deal.shuffled(seed))
        players = [HeuristicPlayer(i) for i in range(3)]
        while not state.is_over and state.phase != Phase.PLAY:
            state.push(players[state.to_move].choose(state.view(state.to_move)).move)
        if state.phase == Phase.PLAY and state.declaration.game != GameType.NULL:
            return state.view(state.to_move)
    raise AssertionError("no suit or grand game found")


@pytest.mark.parametrize("threads", [1, 2])
def test_pimc_obeys_stop_and_deadline_during_long_solves(threads):
    from engine.evaluation import Evaluation
    from engine.limits import Limit
    from engine.players.pimc import PIMCPlayer
    from engine.tools.warmup import warm_up as warm_up_everything

    warm_up_everything()  # PIMC's tie-break playouts too: a first compile must not fall into the timed part
    view = _pimc_first_trick_view()
    player = PIMCPlayer(Limit(time=60), evaluation=Evaluation("mean"), threads=threads, seed=1)
    stop = threading.Event()
    timer = threading.Timer(0.2, stop.set)
    timer.start()
    start = time.perf_counter()
    decision = player.choose(view, stop=stop)
    assert time.perf_counter() - start < 1.5  # generous; the bench measures the real stop latency
    assert decision.move in view.legal_moves()
    # The next decision of the same player is not aborted by the old stop (win/loss
    # queries: exact per-card values of a first-trick world can take longer than 0.5 s).
    player.evaluation = Evaluation("wins")
    start = time.perf_counter()
    decision = player.choose(view, Limit(time=0.5))
    assert time.perf_counter() - start < 1.5
    assert decision.analysis.simulations > 0


def test_stored_null_suit_table_is_the_built_one():
    assert np.array_equal(null_table._build_null_suit_table(), null_table.NULL_SUIT_WINS), \
        "regenerate: python -c 'from engine.dds.core import write_null_suit_table; write_null_suit_table()'"


def _ranks(*names):
    return sum(1 << "789TJQKA".index(n) for n in names)


def test_null_suit_game_worked_examples():
    """One suit on its own: A is the defender after the declarer (when A leads, the
    declarer plays last), B the one before him (when B leads, the declarer plays second).
    Budgets: k discards for each defender, u of them without a discard of the declarer."""

    def forced(d, a, b, ka=0, ua=None, kb=0, ub=None):
        return null_table._suit_forced(null_table.NULL_SUIT_WINS, _ranks(*d), _ranks(*a), _ranks(*b),
                                 ka, ka if ua is None else ua, kb, kb if ub is None else ub)

    # Declarer 8 T, A 7 J Q, B 9 A: B's 9 or ace covers every low lead - unless B
    # can throw one of them away first (then B leads the ace, A keeps the 7 for later).
    assert not forced("8T", "7JQ", "9A")
    assert forced("8T", "7JQ", "9A", kb=1)
    # ... but not if the declarer throws his ten away on the same trick.
    assert not forced("8T", "7JQ", "9A", kb=1, ub=0)
    assert not forced("8T", "7JQ", "9A", ka=2, ua=2, kb=1, ub=0)
    # A lone 7 is never forced; a lone 8 under a defender's 7 is, whoever holds the 7.
    assert not forced("7", "89", "T", ka=3, kb=3)
    assert forced("8", "7", "")
    assert forced("8", "", "7")
    # B leads the 7 and the declarer plays second: A must go over his 8 with the 9.
    assert not forced("8", "9", "7")
    assert forced("8", "9", "7", ka=1)
    assert not forced("8", "9", "7", ka=1, ua=0)  # the 8 goes with A's 9


def test_static_bounds_never_contradict_the_reference():
    """Sure points (suit/grand) and the null safety test, at trick starts, against exact values."""
    rng = random.Random(21)
    checked = 0
    null_safe = 0
    while checked < 400 or null_safe < 60:
        game = GameType.NULL if checked % 2 else GameType(rng.randrange(5))
        pos = random_position(rng, game, 3 * rng.randrange(5, 9))
        if pos.trick:
            continue
        g = int(game)
        hands = [card_layout.to_internal_mask(g, h) for h in pos.hands]
        value = reference_value(pos)
        if game == GameType.NULL:
            if pos.leader != pos.declarer and null_table.null_declarer_safe(g, pos.declarer, *hands):
                assert value == 1, pos
                null_safe += 1
        else:
            future = sum(CARD_POINTS[c] for h in pos.hands for c in range(32) if h >> c & 1)
            decl_sure, def_sure = bounds.sure_points(g, pos.declarer, pos.leader, *hands)
            assert pos.declarer_points + decl_sure <= value <= pos.declarer_points + future - def_sure, pos
        checked += 1


def test_plain_cash_stops_where_the_partner_must_ruff():
    """A defender cashes his aces while the declarer must follow; a partner holding only
    trumps must ruff the first of them and takes the lead, so only one round counts."""
    from engine.cards import Card, mask_of

    g = int(GameType.HEARTS)

    def internal(*cards):
        return card_layout.to_internal_mask(g, mask_of(cards))

    leader = internal(Card.CA, Card.SA)
    declarer = internal(Card.C7, Card.S7)
    assert bounds._plain_cash(g, leader, declarer, 0, False, internal(Card.C8, Card.S8)) == 22
    assert bounds._plain_cash(g, leader, declarer, 0, False, internal(Card.H7, Card.H8)) == 11
    assert bounds._plain_cash(g, leader, declarer, 0, False, internal(Card.H7, Card.D8)) == 22


def test_static_bounds_hold_deeper_in_the_game():
    """Sure points from up to 9 tricks left, against exact values of a solver without static bounds
    (itself pinned to the reference above): the bounds must hold on every position."""
    exact_ctx = SolverContext(tt_bits=16, flags=core.FLAG_NO_SURE_POINTS | core.FLAG_NO_QUICK)
    rng = random.Random(33)
    tightened = 0
    for i in range(300):
        game = GameType(i % 5)
        pos = random_position(rng, game, 3 * rng.randrange(1, 8))
        g = int(game)
        hands = [card_layout.to_internal_mask(g, h) for h in pos.hands]
        value = solve(pos, per_card=False, ctx=exact_ctx).value
        future = sum(CARD_POINTS[c] for h in pos.hands for c in range(32) if h >> c & 1)
        decl_sure, def_sure = bounds.sure_points(g, pos.declarer, pos.leader, *hands)
        assert pos.declarer_points + decl_sure <= value <= pos.declarer_points + future - def_sure, pos
        tightened += decl_sure > 0 or def_sure > 0
    assert tightened > 100  # the bounds are not vacuous


def test_sure_points_do_not_count_a_trick_twice():
    """A defender leads the heart ace, which the declarer must follow; the partner holds only
    the two top jacks, so one of them falls on that trick: the plain-cash trick and the jacks'
    tricks are not separate, and the declarer's cards in them must not be counted twice."""
    card = lambda suit, rank: suit * 8 + rank  # noqa: E731
    heart, spade, club = 1, 2, 3
    seven, jack, king, ace = 0, 4, 6, 7
    pos = Position(game=GameType.DIAMONDS, declarer=0, leader=1,
                   hands=((1 << card(heart, king)) | (1 << card(heart, jack)),
                          (1 << card(heart, ace)) | (1 << card(spade, seven)),
                          (1 << card(club, jack)) | (1 << card(spade, jack))))
    g = int(pos.game)
    hands = [card_layout.to_internal_mask(g, h) for h in pos.hands]
    value = reference_value(pos)
    future = sum(CARD_POINTS[c] for h in pos.hands for c in range(32) if h >> c & 1)
    decl_sure, def_sure = bounds.sure_points(g, pos.declarer, pos.leader, *hands)
    assert decl_sure <= value <= future - def_sure


def test_table_key_pext_packs_the_selected_bits():
    """The table key's pext (BMI2 instruction or byte tables, whichever this host uses)."""
    from numba import njit

    pext = njit(lambda x, u: card_layout.pext(x, u))
    rng = random.Random(5)
    for _ in range(500):
        x, u = rng.getrandbits(32), rng.getrandbits(32)
        expected = 0
        for i, bit in enumerate(b for b in range(32) if u >> b & 1):
            expected |= (x >> bit & 1) << i
        assert pext(x, u) == expected
