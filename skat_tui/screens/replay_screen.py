"""Replay recorded games: step by card or trick, any seat's view, and run an
AI at any position."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Static

from engine.analysis import Analysis
from engine.game import GameState, Phase
from engine.players.base import Decision

from ..ai_runner import AIRunner
from ..players import resolve_player
from engine.replay import ReplayNavigator
from ..settings import Settings
from ..widgets.debug_panel import DebugPanel
from ..widgets.table import TableView, describe_declaration
from .dialogs import GamePickerScreen, HelpScreen, ending_lines
from .table import describe_move

VIEWS = (None, 0, 1, 2)
"""None: all hands open; a seat: only what that seat knew."""


def record_title(index: int, record: Any, german: bool = False) -> str:
    """'2. 684159 · foo, xskat:2, xskat · foo: Grand won +96' for the game picker."""
    state = record.replay()
    names = tuple(getattr(record, "players", ()) or ())
    result = state.result()
    if result is None:
        outcome = "passed in" if state.phase == Phase.PASSED else state.phase.value
        if state.end == "left" and state.left_seat is not None:
            outcome = f"ended: {names[state.left_seat] if len(names) == 3 else 'a player'} left the table"
    else:
        who = f"{names[result.declarer]}: " if len(names) == 3 and names[result.declarer] else ""
        outcome = (f"{who}{describe_declaration(result.declaration, german)} "
                   f"{'won' if result.won else 'lost'} {result.value:+d}")
    return f"{index + 1}. {getattr(record, 'id', '')} · {', '.join(names)} · {outcome}"


class ReplayScreen(Screen):
    BINDINGS = [
        Binding("right", "step(1)", "Next card"),
        Binding("left", "step(-1)", "Back"),
        Binding("right_square_bracket", "trick(1)", "Next trick"),
        Binding("left_square_bracket", "trick(-1)", "Prev trick"),
        Binding("home", "home", "Start"),
        Binding("end", "end", "End"),
        Binding("v", "cycle_view", "View"),
        Binding("g", "pick_game", "Games"),
        Binding("d", "toggle_debug", "Debug"),
        Binding("a", "analyse", "Run AI here"),
        Binding("l", "last_trick", "Last trick"),
        Binding("question_mark", "help", "Keys"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, records: Sequence[Any], settings: Settings, errors: Sequence[str] = ()) -> None:
        super().__init__()
        self.navigator = ReplayNavigator(records)
        self.settings = settings
        self.errors = list(errors)
        self.view_index = 0
        self.runner = AIRunner(self)
        """Runs the AI asked for at the current position."""
        self._analysed_position: tuple[int, int] | None = None
        """(game, move) where the AI was last asked to decide."""
        self._result_toast_game: int | None = None
        """The game whose result toast is showing (End shows it; leaving the end clears it)."""

    def compose(self) -> ComposeResult:
        yield TableView(id="table")
        yield Static("", id="status")
        yield DebugPanel(id="debug")
        yield Footer()

    def on_mount(self) -> None:
        if self.errors:
            self.notify(f"{len(self.errors)} records could not be read; first: {self.errors[0]}",
                        severity="warning", timeout=8)
        self.refresh_position()
        if len(self.navigator.records) > 1:
            self.action_pick_game()

    @property
    def names(self) -> tuple[str, str, str]:
        players = tuple(getattr(self.navigator.record, "players", ()) or ())
        if len(players) == 3:
            return tuple(str(p) for p in players)  # type: ignore[return-value]
        return ("Forehand", "Middlehand", "Rearhand")

    def refresh_position(self) -> None:
        nav = self.navigator
        if self._analysed_position != (nav.game_index, nav.position):
            self.runner.cancel()  # its answer would be about a position no longer shown
        if self._result_toast_game is not None and (
                self._result_toast_game != nav.game_index or not nav.state.is_over):
            # Textual offers no public way to withdraw one toast; the result
            # is the only long one the replay shows.
            self.app.clear_notifications()
            self._result_toast_game = None
        viewer = VIEWS[self.view_index]
        state = nav.state if viewer is None else nav.state.view(viewer)
        self.query_one(TableView).show(
            state, 0 if viewer is None else viewer, self.names, german=self.settings.german,
            open_hands=viewer is None,
            info_prefix=f"Replay {nav.game_index + 1}/{len(nav.records)} · ",
        )
        view_name = "all hands open" if viewer is None else f"{self.names[viewer]}'s view"
        status = f"{nav.describe_position()} · {view_name}"
        last = nav.last_move
        if last is not None:
            status += f" · {self.names[last[0]]} {describe_move(last[1], self.settings.german)}"
        if nav.state.is_over:
            status += "\n" + ending_lines(nav.state, self.names, self.settings.german)[0]
        self.query_one("#status", Static).update(status)

    def status_text(self) -> str:
        return str(self.query_one("#status", Static).render())

    # --- navigation ------------------------------------------------------

    def action_step(self, delta: int) -> None:
        self.navigator.go_to(self.navigator.position + delta)
        self.refresh_position()

    def action_trick(self, delta: int) -> None:
        if delta > 0:
            self.navigator.next_trick()
        else:
            self.navigator.previous_trick()
        self.refresh_position()

    def action_home(self) -> None:
        self.navigator.home()
        self.refresh_position()

    def action_end(self) -> None:
        self.navigator.end()
        self.refresh_position()
        state = self.navigator.state
        if state.is_over:
            self.notify("\n".join(ending_lines(state, self.names, self.settings.german)),
                        title="Result", timeout=10)
            self._result_toast_game = self.navigator.game_index

    def action_cycle_view(self) -> None:
        self.view_index = (self.view_index + 1) % len(VIEWS)
        self.refresh_position()

    def action_last_trick(self) -> None:
        table = self.query_one(TableView)
        table.show_last_trick = not table.show_last_trick
        self.refresh_position()

    def action_pick_game(self) -> None:
        titles = [record_title(i, r, self.settings.german) for i, r in enumerate(self.navigator.records)]

        def picked(index: int | None) -> None:
            if index is not None:
                self.navigator.select(index)
                self.refresh_position()

        self.app.push_screen(GamePickerScreen(titles, self.navigator.game_index), callback=picked)

    def action_toggle_debug(self) -> None:
        self.query_one(DebugPanel).toggle_class("visible")

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(REPLAY_KEYS))

    def action_quit(self) -> None:
        self.runner.cancel()
        self.app.exit()

    # --- analysis at the current position ----------------------------------

    def action_analyse(self) -> None:
        """The hint player decides for the seat to move, from that seat's view only."""
        state = self.navigator.state
        if state.is_over or state.to_move is None:
            self.notify("Nobody is to move here.", severity="warning")
            return
        seat = state.to_move
        hint = self.settings.hint
        choice = resolve_player(hint.kind, seed=seat, **hint.params())
        if choice.notice:
            self.notify(choice.notice, severity="warning")
        debug = self.query_one(DebugPanel)
        debug.add_class("visible")
        debug.clear(f"{choice.kind} is thinking for {self.names[seat]}…")
        self._analysed_position = (self.navigator.game_index, self.navigator.position)
        self.runner.run(seat, choice.player, state.view(seat), hint.limit(), on_analysis=self.show_analysis,
                        on_decision=self.show_decision, on_failure=self.analysis_failed)

    def show_analysis(self, seat: int, analysis: Analysis) -> None:
        declarer = self.navigator.state.declarer
        side = "" if declarer is None else ("declarer" if seat == declarer else "defenders")
        self.query_one(DebugPanel).show_analysis(analysis, self.names[seat], self.settings.german, side=side)

    def show_decision(self, seat: int, decision: Decision) -> None:
        text = f"The AI would choose: {describe_move(decision.move, self.settings.german)}"
        if decision.plan is not None:
            text += f" for {describe_declaration(decision.plan, self.settings.german)}"
        if decision.analysis is None:
            self.query_one(DebugPanel).show_note(f"{text} (no analysis reported)")
        self.notify(text)

    def analysis_failed(self, seat: int, error: Exception) -> None:
        self.notify(f"The analysis failed: {error}", severity="error")


REPLAY_KEYS = [
    ("Stepping", [("→ / ←", "next / previous move"), ("] / [", "next / previous trick"),
                  ("Home / End", "start / end of the game")]),
    ("Looking", [("v", "all hands open, or one seat's view (cycles)"), ("l", "last trick"),
                 ("g", "pick another game from the file")]),
    ("AI", [("a", "run the hint AI for the seat to move (from its view)"), ("d", "debug panel")]),
    ("Anytime", [("?", "this list"), ("q", "quit"), ("Ctrl+P", "command palette")]),
]
