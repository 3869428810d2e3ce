"""The first start on a cold numba cache: the fallback card play and the part-by-part warm-up."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest

from engine.cards import CARD_POINTS, Card, mask_of
from engine.game import Deal, GameState, Phase, Play
from engine.limits import Limit
from engine.players import readiness
from engine.players.fallback import FALLBACK_NOTE, simple_card
from engine.players.heuristic import HeuristicPlayer
from engine.players.mcu import MCUPlayer
from engine.players.pimc import PIMCPlayer
from engine.rules import GameType, trick_winner
from engine.scoring import Declaration
from engine.tools import warmup


@pytest.fixture
def core_compiling(monkeypatch):
    """A background warm-up that has not finished any part yet."""
    running = threading.Event()
    running.set()
    monkeypatch.setattr(readiness, "_background", running)
    monkeypatch.setattr(readiness, "_ready", set())
    monkeypatch.setattr(warmup, "_done", threading.Event())


def _play_out_with_fallback(seed: int) -> GameState:
    state = GameState.new(Deal.shuffled(seed))
    players = [HeuristicPlayer(seed + i) for i in range(3)]
    while not state.is_over:
        view = state.view(state.to_move)
        if state.phase == Phase.PLAY:
            card = simple_card(view)
            assert view.legal_cards() >> card & 1, f"illegal fallback card {Card(card)}"
            state.push(Play(card))
        else:
            state.push(players[state.to_move].choose(view).move)
    return state


def test_the_fallback_plays_legal_cards_through_whole_games():
    for seed in range(40):
        _play_out_with_fallback(seed)


def test_the_fallback_takes_an_opponents_trick_with_its_cheapest_winner_and_feeds_a_partners():
    checked_take = checked_feed = 0
    for seed in range(60):
        state = GameState.new(Deal.shuffled(seed))
        players = [HeuristicPlayer(seed + i) for i in range(3)]
        while not state.is_over:
            view = state.view(state.to_move)
            if state.phase != Phase.PLAY:
                state.push(players[state.to_move].choose(view).move)
                continue
            card = simple_card(view)
            game, seat = view.declaration.game, view.to_move
            if view.trick and game != GameType.NULL:
                legal = [c for c in range(32) if view.legal_cards() >> c & 1]
                wins = [c for c in legal if (view.leader + trick_winner(game, list(view.trick) + [c])) % 3 == seat]
                winner = (view.leader + trick_winner(game, list(view.trick))) % 3
                partner_leads = seat != view.declarer and winner != view.declarer
                if not partner_leads and wins:
                    assert card in wins and CARD_POINTS[card] == min(CARD_POINTS[c] for c in wins)
                    checked_take += 1
                elif partner_leads and len(wins) < len(legal):
                    losing = [c for c in legal if c not in wins]
                    assert card in losing and CARD_POINTS[card] == max(CARD_POINTS[c] for c in losing)
                    checked_feed += 1
            state.push(Play(card))
    assert checked_take > 50 and checked_feed > 20


def test_a_worked_example_partner_wins_so_the_fallback_smears_the_ten():
    # Grand: declarer (seat 0) led the nine of clubs, defender 1 won it with the ace; defender 2 holds
    # ten and seven of clubs: it gives its partner the ten.
    class View:  # just what the fallback reads of a GameState view
        declaration = Declaration(GameType.GRAND)
        game = GameType.GRAND
        is_ramsch = False
        declarer = 0
        to_move = 2
        leader = 0
        trick = (Card.C9, Card.CA)

        @staticmethod
        def legal_cards():
            return mask_of([Card.CT, Card.C7])

    assert simple_card(View) == Card.CT
    View.to_move, View.declarer, View.leader = 0, 0, 1  # the declarer follows a defender's lead instead
    View.trick = (Card.C9, Card.CK)
    assert simple_card(View) == Card.CT  # the cheapest card that wins (ten beats king)
    # Ramsch (no declarer, grand's tricks): on ♣9 ♣A the ten stays under the ace and is shed;
    # on ♣9 ♣8 only the seven stays under
    View.declaration, View.declarer, View.is_ramsch = None, None, True
    View.to_move, View.leader, View.trick = 2, 0, (Card.C9, Card.CA)
    assert simple_card(View) == Card.CT
    View.trick = (Card.C9, Card.C8)
    assert simple_card(View) == Card.C7


def test_while_the_core_compiles_the_players_move_at_once_and_say_so(core_compiling, monkeypatch):
    def no_compiling(*args, **kwargs):
        raise AssertionError("the numba core was called while it compiles")

    monkeypatch.setattr("engine.players.heuristic.core.choose_card_std", no_compiling)
    monkeypatch.setattr(MCUPlayer, "choose_card", no_compiling)
    monkeypatch.setattr(PIMCPlayer, "choose_card", no_compiling)
    state = GameState.new(Deal.shuffled(7))
    players = [HeuristicPlayer(1), MCUPlayer(Limit(simulations=4), seed=2), PIMCPlayer(Limit(simulations=4), seed=3)]
    notes = set()
    while not state.is_over:
        decision = players[state.to_move].choose(state.view(state.to_move))
        if state.phase == Phase.PLAY:
            assert decision.analysis is not None
            notes.add((decision.analysis.player, decision.analysis.note))
        state.push(decision.move)
    assert {player for player, _ in notes} == {"heuristic", "mcu", "pimc"}
    assert {note for _, note in notes} == {FALLBACK_NOTE}


def test_mcu_searches_once_its_parts_are_ready_while_the_solver_still_compiles(core_compiling, monkeypatch):
    monkeypatch.setattr(readiness, "_ready", {warmup.HEURISTIC, warmup.PLAYOUTS})
    assert not readiness.pending(*MCUPlayer.core_parts)
    assert readiness.pending(*PIMCPlayer.core_parts)
    assert readiness.pending()


def test_the_warm_up_compiles_part_by_part_in_order_and_reports_progress(monkeypatch):
    seen = []
    release = threading.Event()

    def part(name):
        def warm():
            seen.append((name, warmup.status().ready, warmup.status().current))
            if name == warmup.SOLVER:
                release.wait(10)
        return warm

    monkeypatch.setattr(warmup, "_WARM_UP", {p: part(p) for p in warmup.PARTS})
    monkeypatch.setattr(readiness, "_ready", set())
    monkeypatch.setattr(warmup, "_done", threading.Event())
    monkeypatch.setattr(readiness, "_background", threading.Event())
    monkeypatch.setattr(warmup, "background_failure", None)
    thread = warmup.warm_up_in_background()
    while len(seen) < 3:
        thread.join(0.01)
    assert readiness.pending(warmup.SOLVER) and not readiness.pending(warmup.HEURISTIC)
    release.set()
    thread.join(10)
    assert seen == [
        (warmup.HEURISTIC, (), warmup.HEURISTIC),
        (warmup.PLAYOUTS, (warmup.HEURISTIC,), warmup.PLAYOUTS),
        (warmup.SOLVER, (warmup.HEURISTIC, warmup.PLAYOUTS), warmup.SOLVER),
    ]
    status = warmup.status()
    assert not status.running and status.ready == warmup.PARTS and status.failure is None
    assert not readiness.pending()


def test_a_failed_warm_up_leaves_nothing_pending_and_keeps_its_reason(monkeypatch):
    def broken():
        raise RuntimeError("no compiler today")

    monkeypatch.setattr(warmup, "_WARM_UP", {p: broken for p in warmup.PARTS})
    monkeypatch.setattr(readiness, "_ready", set())
    monkeypatch.setattr(warmup, "_done", threading.Event())
    monkeypatch.setattr(readiness, "_background", threading.Event())
    monkeypatch.setattr(warmup, "background_failure", None)
    warmup.warm_up_in_background().join(10)
    status = warmup.status()
    assert "no compiler today" in str(status.failure) and not status.running
    assert not readiness.pending()  # the core now compiles on first use


def test_once_its_parts_are_ready_mcu_compiles_nothing_more():
    """MCU searches while the solver still compiles; a call that compiled anything else would wait
    behind the warm-up's hold on numba's compiler (a fresh process, so other tests' calls hide nothing)."""
    code = (
        "from engine.tools import warmup\n"
        "warmup._warm_heuristic(); warmup._warm_playouts()\n"
        "import numba\n"
        "from engine import card_layout\n"
        "from engine.dds import bounds, core, endgame, moves, null_table, search\n"
        "from engine.policy import heuristic_core, playout_core\n"
        "modules = (card_layout, bounds, core, endgame, moves, null_table, search, heuristic_core, playout_core)\n"
        "def signatures():\n"
        "    return {(m.__name__, n): len(f.signatures) for m in modules for n, f in vars(m).items()\n"
        "            if isinstance(f, numba.core.registry.CPUDispatcher)}\n"
        "before = signatures()\n"
        "from engine.limits import Limit\n"
        "from engine.players.heuristic import HeuristicPlayer\n"
        "from engine.players.mcu import MCUPlayer\n"
        "from engine.tools.search_bench import _first_trick_positions\n"
        "for state in _first_trick_positions(2):\n"
        "    view = state.view(state.to_move)\n"
        "    MCUPlayer(Limit(simulations=4), seed=1).choose(view)\n"
        "    HeuristicPlayer(1).choose(view)\n"
        "after = signatures()\n"
        "print(sorted(k for k in after if after[k] != before[k]))\n"
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
