"""Settings in the config dir, overrides, the save file, the player registry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.game import Deal, Declare, Discard, GameState, Pass, Play
from engine.players.base import Player, RandomPlayer
from engine.scoring import Declaration
from engine.rules import GameType
from engine.cards import CardSet
from skat_tui.app import open_session
from skat_tui.persistence import SAVE_VERSION, TableSession, decode_game, encode_game, series_save_path
from skat_tui.players import resolve_player
from skat_tui.screens.settings_screen import SettingsScreen
from skat_tui.screens.table import TableScreen
from skat_tui.settings import Settings, load_settings, save_settings, settings_path
from tui_fakes import fill_in_and_save, new_app, open_settings_at_my_turn


def test_settings_saved_in_the_config_dir_from_the_environment(isolated_dirs):
    settings = Settings()
    settings.german = True
    settings.opponents[0].kind = "heuristic"
    path = save_settings(settings)
    assert path == isolated_dirs / "config" / "settings.json"
    loaded = load_settings()
    assert loaded.german and loaded.opponents[0].kind == "heuristic"
    assert loaded.opponents[1].kind == "pimc"  # the default table: two PIMC opponents
    # with the evaluation PIMC measured best at against XSkat (wins)
    assert [(o.kind, o.evaluation) for o in Settings().opponents] == [("pimc", "wins")] * 2
    assert Settings().hint.evaluation == "type2-50"


def test_an_opponent_without_an_evaluation_takes_the_engines_default_for_its_kind():
    left_right = Settings().with_overrides({"left": "mcu:time=2", "right": "pimc:time=2"})
    assert [o.evaluation for o in left_right.opponents] == ["type2-50", "mean"]
    assert Settings().with_overrides({"left": "mcu:time=2,eval=step"}).opponents[0].evaluation == "step"
    # another kind brings its own default, unless the evaluation was chosen
    mean_west = Settings().with_overrides({"west.evaluation": "mean"})
    assert mean_west.with_overrides({"west": "mcu"}).opponents[0].evaluation == "type2-50"
    assert Settings().with_overrides({"west": "mcu", "west.evaluation": "step"}).opponents[0].evaluation == "step"
    assert Settings().with_overrides({"east": "mcu"}).opponents[1].evaluation == "wins"  # chosen for PIMC, kept


def test_unreadable_settings_fall_back_to_defaults():
    settings_path().parent.mkdir(parents=True)
    settings_path().write_text("{not json")
    assert load_settings() == Settings()


def test_command_line_overrides():
    settings = Settings().with_overrides({"west": "heuristic", "east.budget": 0.5, "simulations": 50,
                                          "german": True, "new_series": True})
    assert settings.opponents[0].kind == "heuristic"
    assert settings.opponents[1].budget == 0.5
    assert all(o.simulations == 50 for o in settings.opponents)
    assert settings.german
    with pytest.raises(ValueError):
        Settings().with_overrides({"west": "oracle"})
    # The CLI's --opponent-left/--opponent-right pass engine player specs.
    specs = Settings().with_overrides({"left": "pimc:simulations=100,eval=step", "right": "heuristic"})
    west, east = specs.opponents
    assert (west.kind, west.simulations, west.budget, west.evaluation) == ("pimc", 100, None, "step")
    assert east.kind == "heuristic"
    assert resolve_player(west.kind, seed=1, **west.params()).kind == "pimc"
    west = Settings().with_overrides({"left": "mcts:time=2,c=0.4"}).opponents[0]
    assert (west.kind, west.budget, west.extra) == ("mcts", 2.0, {"c": "0.4"})
    assert resolve_player(west.kind, seed=1, **west.params()).kind == "mcts"


def test_a_game_round_trips_through_json_with_its_moves_in_iss_notation():
    state = GameState.new(Deal.shuffled(5))
    for text in ("18", "y", "p", "p", "s"):
        state.push(state.parse_iss(text))
    state.push(Discard(CardSet(list(CardSet(state.hands[state.declarer]))[:2]).mask))
    state.push(Declare(Declaration(GameType.GRAND)))
    state.push(Play(next(iter(CardSet(state.hands[state.to_move])))))
    data = json.loads(json.dumps(encode_game(state.deal, state.moves)))
    assert [text for _, text in data["moves"]][:5] == ["18", "y", "p", "p", "s"]
    assert all(isinstance(text, str) for _, text in data["moves"])
    assert decode_game(data) == (state.deal, list(state.moves))


def test_a_version_1_save_with_the_json_move_codec_still_loads_and_is_written_in_iss_notation(tmp_path):
    old = json.loads((Path(__file__).parents[1] / "data" / "series-save-v1.json").read_text())
    assert old["version"] == 1 and old["games"][0]["moves"][0] == [1, "bid", 18]
    session = TableSession.from_json(old)
    assert len(session.series.entries) == 1 and session.series.entries[0].result.won
    assert session.state is not None and len(session.state.moves) == len(old["current"]["moves"])
    new = session.to_json()
    assert new["version"] == SAVE_VERSION
    game = new["games"][0]["moves"]
    assert game[:2] == [[1, "18"], [0, "y"]] and [1, "s"] in game and [1, "DK.S7"] in game and [1, "G"] in game
    again = TableSession.from_json(json.loads(json.dumps(new)))
    assert again.state.moves == session.state.moves and again.finished[0].moves == session.finished[0].moves


def test_session_save_and_resume_rebuilds_the_series():
    session = TableSession.new(11, series_save_path())
    state = session.start_game()
    while not state.is_over:
        session.push(RandomPlayer(len(state.moves)).choose(state.view(state.to_move)).move)
    session.finish_game()
    session.start_game()
    session.push(Pass())
    resumed, notices = open_session(None)
    assert resumed.seed == 11 and not notices
    assert len(resumed.series.entries) == 1
    assert resumed.series.totals() == session.series.totals()
    assert resumed.state.moves == session.state.moves
    assert resumed.human_seat == session.human_seat
    # --seed for another series does not drop the saved one, but says so
    again, notices = open_session(5)
    assert again.seed == 11 and "New series" in notices[0]
    fresh, _ = open_session(5, new_series=True)
    assert fresh.seed == 5 and fresh.state is None


def test_damaged_save_is_kept_aside():
    series_save_path().parent.mkdir(parents=True)
    series_save_path().write_text('{"version": 1, "seed": 1}')
    session, notices = open_session(7)
    assert session.seed == 7 and "damaged" in notices[0]
    assert series_save_path().with_suffix(".broken.json").exists()


def test_registry_falls_back_with_a_notice():
    choice = resolve_player("no-such-player", seed=1)
    assert choice.kind in ("heuristic", "random") and "unknown player type" in choice.notice
    assert isinstance(resolve_player("mcu", seed=1, eval="mean", reps=2).player, Player)
    bad = resolve_player("pimc", seed=1, reps=3)  # PIMC has no repetitions
    assert bad.kind == "heuristic" and "pimc" in bad.notice


async def test_settings_screen_saves(fast_settings):
    app = new_app(fast_settings)
    async with app.run_test(size=(100, 40)) as pilot:
        await open_settings_at_my_turn(pilot, app)
        await fill_in_and_save(pilot, app, {"german": True, "opp0-budget": "-1"})
        assert isinstance(app.screen, SettingsScreen)  # refused: negative time
        assert "negative" in str(app.screen.query_one("#settings-error").render())
        app.screen.query_one("#opp0-budget").value = "0.5"
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, TableScreen)
    saved = load_settings()
    assert saved.german and saved.opponents[0].budget == 0.5
