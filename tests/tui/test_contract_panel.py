"""The debug panel and the hint for the decisions before the card play: bids, the
skat, the discard and the declaration (the engine's contract analysis)."""

from __future__ import annotations

from dataclasses import replace

from engine.cards import CardSet
from engine.game import Discard
from engine.players.base import Decision, Player
from engine.players.contract_analysis import ContractAnalysis
from skat_tui.app import SkatApp
from skat_tui.persistence import TableSession, series_save_path
from skat_tui.players import resolve_player
from skat_tui.screens.table import describe_advice
from skat_tui.settings import OpponentSettings
from skat_tui.widgets.debug_panel import DebugPanel

from tui_fakes import PassivePlayer, ask_for_the_discard_hint, footer_settled, table, wait_until

SEED = 3  # both passive opponents pass; the human (forehand) may open the bidding
SEARCH_HINT = OpponentSettings(kind="mcu", budget=None, simulations=20, extra={"bidding": "search"})


async def test_the_discard_hint_of_a_search_bidder_names_the_two_cards_and_the_game(fast_settings):
    fast_settings.hint = SEARCH_HINT
    app = SkatApp(session=TableSession.new(SEED, series_save_path()), settings=fast_settings,
                  players={1: PassivePlayer(), 2: PassivePlayer()})
    async with app.run_test(size=(120, 32)) as pilot:
        screen = table(app)
        state = await ask_for_the_discard_hint(pilot, screen, timeout=60)
        # the same player, seed and budget outside the app: the same discard and game
        hint = fast_settings.hint
        player = resolve_player(hint.kind, seed=app.session.seed, **hint.params()).player
        decision = player.choose(state.view(screen.human_seat), hint.limit())
        assert isinstance(decision.move, Discard) and decision.plan is not None
        expected = f"Hint: {describe_advice(decision.move, decision.plan)}"
        assert screen.message == expected
        assert f"put away {CardSet(decision.move.cards).unicode()} for " in expected
        panel = screen.query_one(DebugPanel)
        analysis = panel.analysis
        assert isinstance(analysis, ContractAnalysis) and analysis.final and analysis.phase == "discard"
        assert analysis.chosen.discard == decision.move.cards
        text = panel.plain()
        assert text.splitlines()[0] == expected
        assert "Hint for You" in text and "20 worlds" in text and "puts away" in text
        chosen_rows = [line for line in text.splitlines() if line.startswith("▶")]
        assert len(chosen_rows) == 1 and CardSet(decision.move.cards).unicode() in chosen_rows[0]


async def west_first_bid(settings, west: Player) -> tuple[ContractAnalysis, list[str], str]:
    """West (middlehand) bids first, to you: its bidding decision is the first on the panel.
    Its analysis, the panel's lines from West's heading on, and West's name.  With the
    computers' cards shown: during the game the panel hides them otherwise."""
    settings.show_computer_cards = True
    app = SkatApp(session=TableSession.new(SEED, series_save_path()), settings=settings,
                  players={1: west, 2: PassivePlayer()})
    async with app.run_test(size=(120, 32)) as pilot:
        screen = table(app)
        panel = screen.query_one(DebugPanel)
        await wait_until(pilot, lambda: isinstance(panel.analysis, ContractAnalysis) and panel.analysis.final,
                         timeout=60)
        lines = panel.plain().splitlines()
        if panel.note:  # East's pass after West's decision: a line above West's analysis
            lines = lines[1:]
        return panel.analysis, lines, screen.names[1]


async def test_the_panel_shows_a_computer_bid_with_its_candidates(fast_settings):
    from engine.players.registry import make_player, parse_spec

    # Unanchored, the search values the hand the heuristic's estimate would pass at once.
    west = make_player(parse_spec("mcu:simulations=20,bidding=search"), 5)
    west.bidder.anchored = False
    analysis, lines, name = await west_first_bid(fast_settings, west)
    assert analysis.phase == "bidding" and analysis.seat == 1 and analysis.simulations == 20
    assert lines[0].startswith(f"{name} (mcu:simulations=20,bidding=search, final): 20 worlds")
    assert "bidding at 18:" in lines[0]
    assert lines[1].startswith("declarer's card points")
    games = lines[2:]
    assert len(games) == len(analysis.candidates) == 8
    assert any("take the skat" in g for g in games) and any("Grand hand" in g for g in games)
    assert sum(g.startswith("▶") for g in games) == (0 if analysis.passes else 1)


async def test_an_anchored_search_bidder_passing_without_worlds_shows_the_heuristics_estimates(fast_settings):
    from engine.players.registry import make_player, parse_spec

    west = make_player(parse_spec("mcu:simulations=20,bidding=search"), 5)
    analysis, lines, name = await west_first_bid(fast_settings, west)
    assert analysis.phase == "bidding" and analysis.seat == 1 and analysis.passes
    assert analysis.simulations == 0 and analysis.candidates
    assert lines[0].startswith(f"{name} (mcu:simulations=20,bidding=search): hand estimates, "
                               "no worlds · bidding at 18: passes")
    assert "the search bids only below the heuristic's limit; no game with a win chance" in lines[1]


async def test_the_panel_gives_the_heuristics_reason_for_its_bid(fast_settings):
    from engine.players.heuristic import HeuristicPlayer

    fast_settings.show_computer_cards = True  # the reason speaks of West's hand
    app = SkatApp(session=TableSession.new(SEED, series_save_path()), settings=fast_settings,
                  players={1: HeuristicPlayer(1), 2: PassivePlayer()})
    async with app.run_test(size=(120, 32)) as pilot:
        screen = table(app)
        panel = screen.query_one(DebugPanel)
        await wait_until(pilot, lambda: isinstance(panel.analysis, ContractAnalysis))
        lines = panel.plain().splitlines()[1 if panel.note else 0:]
        assert lines[0].startswith(f"{screen.names[1]} (heuristic): hand estimates, no worlds · bidding at 18")
        assert "win chance at least 45% with the skat, 80% hand" in lines[1]


class SteadyClockPlayer(Player):
    """A seeded player whose analyses show a fixed thinking time: for stable snapshots."""

    def __init__(self, spec: str, seed: int) -> None:
        from engine.players.registry import make_player, parse_spec

        self.inner = make_player(parse_spec(spec), seed)
        self.name = self.inner.name

    def new_game(self, seat: int) -> None:
        self.inner.new_game(seat)

    def choose(self, view, limit=None, *, stop=None, report=None) -> Decision:
        decision = self.inner.choose(view, limit)
        analysis = decision.analysis and replace(decision.analysis, elapsed=0.5)
        return Decision(decision.move, analysis, decision.plan)


def test_the_panel_with_a_bidding_analysis(snap_compare, fast_settings):
    spec = "mcu:simulations=20,bidding=search"
    players = {1: SteadyClockPlayer(spec, 5), 2: SteadyClockPlayer(spec, 6)}
    for player in players.values():
        player.inner.bidder.anchored = False  # the search values hands the heuristic would pass at once
    fast_settings.show_computer_cards = True  # the bidders' candidates, hidden during a fair game
    app = SkatApp(session=TableSession.new(SEED, series_save_path()), settings=fast_settings, players=players)

    async def bidding(pilot):
        screen = table(app)
        await wait_until(pilot, lambda: screen.my_turn and isinstance(screen.last_analysis[2], ContractAnalysis)
                         if screen.last_analysis else False, timeout=60)
        await pilot.press("d")
        await wait_until(pilot, lambda: footer_settled(app))

    assert snap_compare(app, terminal_size=(100, 30), run_before=bidding)
