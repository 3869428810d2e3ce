"""House rules at the table: the setting, the command line, the saves, the header."""

from __future__ import annotations

import json

import pytest
from textual.widgets import Select

from engine.house_rules import ISKO, PUB, HouseRules
from skat_tui.app import SkatApp, open_session
from skat_tui.cli import main
from skat_tui.persistence import TableSession, series_save_path
from skat_tui.screens.dialogs import ConfirmScreen
from skat_tui.screens.settings_screen import SettingsScreen
from skat_tui.screens.table import TableScreen
from skat_tui.settings import Settings, load_settings, save_settings, settings_path
from skat_tui.widgets.table import InfoBar
from tui_fakes import PassivePlayer, open_settings_at_my_turn, wait_until


def header(app) -> str:
    return app.screen.query_one(InfoBar).plain()


def test_rules_in_the_settings_file_round_trip_and_old_files_mean_isko():
    settings = Settings()
    settings.rules = PUB.with_switches(bock=False)
    save_settings(settings)
    assert load_settings().rules == settings.rules
    data = settings.to_json()
    del data["rules"]  # a settings file from before house rules
    assert Settings.from_json(data).rules == ISKO
    notices: list[str] = []
    save_settings(settings)
    path = settings_path()
    raw = json.loads(path.read_text())
    raw["rules"] = {"schieben": True}
    path.write_text(json.dumps(raw))
    assert load_settings(notices) == Settings() and "Schieben needs Ramsch" in notices[0]


def test_command_line_rules_change_the_saved_rules_for_this_start_only():
    saved = Settings()
    saved.rules = HouseRules(ramsch=True)
    assert saved.with_overrides({"rules": (None, {"schieben": True})}).rules == HouseRules(ramsch=True, schieben=True)
    assert saved.with_overrides({"rules": ("pub", {"kontra": False})}).rules == PUB.with_switches(kontra=False)
    with pytest.raises(ValueError, match="--schieben needs Ramsch"):
        Settings().with_overrides({"rules": (None, {"schieben": True})})


def test_skat_with_a_switch_that_needs_another_rule_stops_with_the_reason(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--schieben"])
    assert "--schieben needs Ramsch: add --ramsch" in str(stop.value.code)
    with pytest.raises(SystemExit):
        main(["--rules", "club"])
    assert "invalid choice: 'club'" in capsys.readouterr().err


def test_a_series_keeps_its_rules_through_a_save_and_old_saves_load_as_isko():
    session = TableSession.new(11, series_save_path(), PUB)
    session.start_game()
    resumed, notices = open_session(None, rules=PUB)
    assert resumed.rules == PUB and resumed.state.rules == PUB and not notices
    # the settings now say ISKO: the series keeps pub rules, and the table says so
    resumed, notices = open_session(None, rules=ISKO)
    assert resumed.rules == PUB
    assert notices == ["Resumed the saved series, played under pub rules (Ramsch, Schieben, Grand Hand, Kontra, "
                       "Bock); a new series is played under the International Skat Order (--new, or command palette: "
                       "New series)"]
    fresh, _ = open_session(None, new_series=True, rules=ISKO)
    assert fresh.rules == ISKO
    old = session.to_json()
    del old["rules"]  # a save from before house rules
    assert TableSession.from_json(old).rules == ISKO


async def test_rules_chosen_in_the_settings_apply_to_the_next_series(fast_settings):
    session = TableSession.new(3, series_save_path())
    app = SkatApp(session=session, settings=fast_settings, players={1: PassivePlayer(), 2: PassivePlayer()})
    async with app.run_test(size=(100, 40)) as pilot:
        await open_settings_at_my_turn(pilot, app)
        assert "This series is played under the International Skat Order" in str(
            app.screen.query_one("#rules-note").render())
        app.screen.query_one("#rules-preset", Select).value = "pub"
        await pilot.pause()
        assert app.screen.query_one("#rule-kontra").value and app.screen.query_one("#rule-schieben").value
        app.screen.query_one("#rule-ramsch").value = False  # Schieben stays on: refused
        await pilot.pause()
        assert app.screen.query_one("#rules-preset", Select).value == "custom"
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, SettingsScreen)
        assert "Schieben needs Ramsch" in str(app.screen.query_one("#settings-error").render())
        app.screen.query_one("#rule-ramsch").value = True
        await pilot.pause()
        assert app.screen.query_one("#rules-preset", Select).value == "pub"
        await pilot.press("ctrl+s")
        table = app.screen
        assert isinstance(table, TableScreen)
        assert table.session.rules == ISKO and "Pub rules" not in header(app)
        assert any("The next series is played under pub rules" in n.message
                   and "this series keeps the International Skat Order"
                   in n.message for n in app._notifications)
        table.new_series()
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await wait_until(pilot, lambda: table.session.rules == PUB and "Pub rules" in header(app))
    assert load_settings().rules == PUB


def test_serve_starts_each_table_with_the_rules_given():
    from skat_tui.cli import _build_parser, _rules_flags

    args = _build_parser().parse_args(["--rules", "pub", "--no-bock", "--kontra", "serve"])
    assert _rules_flags(args) == ["--rules", "pub", "--kontra", "--no-bock"]
    assert _rules_flags(_build_parser().parse_args(["serve"])) == []
