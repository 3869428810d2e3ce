"""Each of the table's opponents bids with its own method, set in the settings or by its spec."""

from __future__ import annotations


def test_an_opponent_spec_keeps_its_bidding_method():
    from skat_tui.players import resolve_player
    from skat_tui.settings import OpponentSettings

    searching = OpponentSettings.from_spec("pimc:simulations=50,bidding=search")
    assert searching.bidding == "search" and searching.describe() == "pimc 50 simulations · search bids"
    assert resolve_player(searching.kind, seed=1, **searching.params()).player.bidder is not None
    plain = OpponentSettings.from_spec("mcu:simulations=50")
    assert plain.bidding == "heuristic" and resolve_player("mcu", seed=1, **plain.params()).player.bidder is None


async def test_the_settings_set_each_opponents_bidding_method(fast_settings):
    from skat_tui.app import SkatApp
    from skat_tui.persistence import TableSession, series_save_path
    from skat_tui.screens.settings_screen import SettingsScreen
    from skat_tui.screens.table import TableScreen
    from skat_tui.settings import OpponentSettings, load_settings
    from textual.widgets import Select

    from tui_fakes import open_settings_at_my_turn

    fast_settings.opponents = [OpponentSettings(kind="mcu", budget=None, simulations=10),
                               OpponentSettings(kind="pimc", budget=None, simulations=10)]
    app = SkatApp(session=TableSession.new(3, series_save_path()), settings=fast_settings)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_settings_at_my_turn(pilot, app)
        assert app.screen.query_one("#opp0-bidding", Select).value == "heuristic"
        app.screen.query_one("#opp0-bidding", Select).value = "search"
        await pilot.press("ctrl+s")
        screen = app.screen
        assert isinstance(screen, TableScreen)
        assert screen.players[1].player.bidder is not None  # West bids by search from now on
        assert screen.players[2].player.bidder is None  # East keeps the heuristic's bidding
        assert screen.player_label(1) == "mcu 10 simulations · search bids"
        await pilot.press("o")
        assert isinstance(app.screen, SettingsScreen)
        assert app.screen.query_one("#opp0-bidding", Select).value == "search"
        assert app.screen.query_one("#opp1-bidding", Select).value == "heuristic"
        await pilot.press("escape")
    saved = load_settings()
    assert saved.opponents[0].extra == {"bidding": "search"} and saved.opponents[1].extra == {}
