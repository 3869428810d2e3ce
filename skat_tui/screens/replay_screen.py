"""Replay recorded games: step by card or trick, any seat's view, and run an
AI at any position."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Static

from engine.analysis import Analysis
from engine.game import GameState, describe
from engine.players.base import Decision
from engine.review import GameReview
from engine.rules import SEAT_TITLES
from engine.scoring import GameEnd, RamschResult

from ..ai_runner import AIRunner
from ..players import resolve_player
from ..review_table import call_note
from engine.replay import ReplayNavigator
from ..settings import Settings
from ..widgets.debug_panel import DebugPanel
from ..widgets.review_plot import ReviewPlot, contract_note, decision_note
from ..widgets.table import TableView
from ..words import possessive, sentence
from .dialogs import GamePickerScreen, HelpScreen, ending_lines

VIEWS = (None, 0, 1, 2)
"""None: all hands open; a seat: only what that seat knew."""


def record_title(index: int, record: Any, german: bool = False) -> str:
    """'2. 684159 · foo, xskat:2, xskat · foo: Grand won +96' for the game picker."""
    state = record.replay()
    names = tuple(getattr(record, "players", ()) or ())
    ending = state.outcome()
    result = ending.result if ending is not None else None
    if result is None:
        outcome = "passed in" if ending is not None and ending.passed_in else state.phase.value
        if ending is not None and ending.end == GameEnd.LEFT and ending.left_seat is not None:
            outcome = f"ended: {names[ending.left_seat] if len(names) == 3 else 'a player'} left the table"
    elif isinstance(result, RamschResult):
        def name(seat: int) -> str:
            return names[seat] if len(names) == 3 and names[seat] else f"seat {seat}"
        outcome = "Ramsch: " + ", ".join(f"{name(s)} {v:+d}" for s, v in enumerate(result.values) if v)
    else:
        who = f"{names[result.declarer]}: " if len(names) == 3 and names[result.declarer] else ""
        outcome = (f"{who}{result.declaration.describe(german)} "
                   f"{'won' if result.won else 'lost'} {result.value:+d}")
        if result.doublings:
            outcome += f" ({', '.join(result.doublings)})"
    return f"{index + 1}. {getattr(record, 'id', '')} · {', '.join(names)} · {outcome}"


class ReplayScreen(Screen):
    AUTO_FOCUS = ""
    """Nothing focused at the start ("", not None, which means the app's "*"): the hidden debug
    panel took the focus, and its scroll keys (→ ← Home End) hid the replay's own from the footer."""

    BINDINGS = [
        # short words, and Home, End, g, d, a, [ and l only in the ? list: the footer fits 80
        # columns (a longer one scrolls, and → and ← went out of sight)
        Binding("right", "step(1)", "Card"),
        Binding("left", "step(-1)", "Back"),
        Binding("right_square_bracket", "trick(1)", "Trick"),
        Binding("left_square_bracket", "trick(-1)", "Prev trick", show=False),
        Binding("home", "home", "Start", show=False),
        Binding("end", "end", "End", show=False),
        Binding("v", "cycle_view", "View"),
        Binding("g", "pick_game", "Games", show=False),
        Binding("d", "toggle_debug", "Debug", show=False),
        Binding("a", "analyze", "Analyze", show=False),
        Binding("l", "last_trick", "Last trick", show=False),
        Binding("r", "review", "Review"),
        Binding("n", "next_mark(1)", "Mistake"),
        Binding("N", "next_mark(-1)", "Prev mistake", show=False),
        Binding("question_mark", "help", "Keys"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, records: Sequence[Any], settings: Settings, errors: Sequence[str] = (),
                 record_path: str | None = None) -> None:
        super().__init__()
        self.record_path = record_path
        """The record file: its reviews are read from and stored beside it (``engine.review.cache_path``)."""
        self.reviews: dict[str, GameReview] = {}
        if record_path is not None:
            from engine.review import load_cached

            self.reviews = load_cached(record_path)
        self._review_stop = threading.Event()
        self._reviewing: str | None = None
        """The ID of the record being reviewed in the background, if any."""
        self.navigator = ReplayNavigator(records)
        self.settings = settings
        self.errors = list(errors)
        self.view_index = 0
        self.runner = AIRunner(self)
        """Runs the AI asked for at the current position."""
        self._analyzed_position: tuple[int, int] | None = None
        """(game, move) where the AI was last asked to decide."""
        self._result_toast_game: int | None = None
        """The game whose result toast is showing (End shows it; leaving the end clears it)."""

    def compose(self) -> ComposeResult:
        yield TableView(id="table")
        yield Static("", id="status")
        yield ReviewPlot(id="review")
        yield DebugPanel(id="debug")
        yield Footer(compact=True)

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
        return SEAT_TITLES

    def refresh_position(self) -> None:
        nav = self.navigator
        if self._analyzed_position != (nav.game_index, nav.position):
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
            info_prefix=f"Replay {nav.game_index + 1}/{len(nav.records)} · "
                        + ("Bock · " if getattr(nav.record, "bock", False) else ""),
        )
        view_name = "all hands open" if viewer is None else f"{possessive(self.names[viewer])} view"
        status = f"{nav.describe_position()} · {view_name}"
        last = nav.last_move
        review = self.current_review
        if last is not None:
            status += f" · {sentence(self.names[last[0]], describe(last[1], self.settings.german))}"
            reviewed = review.decision_at(nav.position - 1) if review is not None else None
            contract = review.contract_at(nav.position - 1) if review is not None else None
            call = review.call_at(nav.position - 1) if review is not None else None
            if reviewed is not None:
                status += f" {decision_note(reviewed, self.settings.german)}"
            elif contract is not None:
                status += f" {contract_note(contract, self.settings.german)}"
            elif call is not None:
                status += f" {call_note(call)}"
        self.query_one(ReviewPlot).show(review, nav.position)
        if nav.state.is_over:
            status += "\n" + ending_lines(nav.state, self.names, self.settings.german)[0]
        self.query_one("#status", Static).update(status)

    @property
    def current_review(self) -> GameReview | None:
        """The review of the game shown, if there is one of exactly this game (same deal and moves)."""
        from engine.review import record_fingerprint

        record = self.navigator.record
        review = self.reviews.get(str(getattr(record, "id", "")))
        if review is None or review.record_hash != record_fingerprint(record):
            return None  # none, or one of an earlier version of the record (or another game of that ID)
        return review

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
        self.query_one(TableView).toggle_last_trick()
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
        self._review_stop.set()
        self.app.exit()

    def on_unmount(self) -> None:
        self._review_stop.set()

    # --- the review of the game ---------------------------------------------

    def action_next_mark(self, direction: int) -> None:
        """To just after the next (or previous) card marked ? or ?? in this game's review."""
        review = self.current_review
        if review is None:
            self.notify("This game has no review yet: press r (or run skat review on the file).",
                        severity="warning")
            return
        position = self.navigator.position
        marked = review.marked()
        if not marked:
            self.notify("No mistakes marked in this game.")
            return
        if direction > 0:
            later = [d for d in marked if d.move + 1 > position]
            target = later[0] if later else marked[0]
        else:
            earlier = [d for d in marked if d.move + 1 < position]
            target = earlier[-1] if earlier else marked[-1]
        self.navigator.go_to(target.move + 1)
        self.refresh_position()

    def action_review(self) -> None:
        """Review the game shown (as ``skat review`` does, with its defaults) in the background."""
        record = self.navigator.record
        if self._reviewing is not None:
            self.notify("A review is already running.", severity="warning")
            return
        if self.current_review is not None:
            self.notify("This game is reviewed already: n jumps to its next mistake.")
            return
        self._reviewing = str(record.id)
        self.query_one(ReviewPlot).show_progress("reviewing: starting…")
        self.review_game(record)

    @work(thread=True, exclusive=True, group="review", exit_on_error=False)
    def review_game(self, record: Any) -> None:
        from engine.limits import Limit
        from engine.players.readiness import PARTS, is_ready, pending
        from engine.review import ReviewStopped, card_decisions, review_record
        from engine.tournament import default_workers

        def show(text: str) -> None:
            self.app.call_from_thread(self.query_one(ReviewPlot).show_progress, text)

        def progress(done: int, total: int) -> None:
            # the card being reviewed now, not the ones done: the first card can take long
            show(f"reviewing card {done + 1} of {total}…" if done < total
                 else "reviewing the bidding, the skat and the declaration…")

        try:
            while pending() and not self._review_stop.is_set():
                # the app's warm-up holds numba's compiler: say so while waiting for it
                ready = sum(is_ready(part) for part in PARTS)
                show(f"reviewing: waiting for the search core ({ready} of {len(PARTS)} parts ready)…")
                self._review_stop.wait(0.1)
            progress(0, len(card_decisions(record)))
            review = review_record(record, "pimc", Limit(simulations=100), seed=1, threads=default_workers(),
                                   on_decision=progress, stop=self._review_stop)
        except ReviewStopped:
            return
        except Exception as exc:  # a failed review is reported; the replay goes on
            self.app.call_from_thread(self._review_failed, exc)
            return
        self.app.call_from_thread(self._review_done, review)

    def _review_done(self, review: GameReview) -> None:
        self._reviewing = None
        self.reviews[review.record_id] = review
        self.query_one(ReviewPlot).show_progress("")
        self.refresh_position()
        if self.record_path is not None:
            from engine.review import store_cached

            try:
                store_cached(self.record_path, [review])
            except OSError as exc:
                self.notify(f"The review could not be stored beside the record: {exc.strerror}",
                            severity="warning")
        marks = len(review.marked())
        self.notify(f"Reviewed: {marks} mistake{'s' if marks != 1 else ''} marked; n jumps to the next.")

    def _review_failed(self, error: Exception) -> None:
        self._reviewing = None
        self.query_one(ReviewPlot).show_progress("")
        self.notify(f"The review failed: {error}", severity="error")

    # --- analysis at the current position ----------------------------------

    def action_analyze(self) -> None:
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
        self._analyzed_position = (self.navigator.game_index, self.navigator.position)
        self.runner.run(seat, choice.player, state.view(seat), hint.limit(), on_analysis=self.show_analysis,
                        on_decision=self.show_decision, on_failure=self.analysis_failed)

    def show_analysis(self, seat: int, analysis: Analysis) -> None:
        declarer = self.navigator.state.declarer
        side = "" if declarer is None else ("declarer" if seat == declarer else "defenders")
        self.query_one(DebugPanel).show_analysis(analysis, self.names[seat], self.settings.german, side=side,
                                                 place_names=tuple(self.names))

    def show_decision(self, seat: int, decision: Decision) -> None:
        text = f"The AI would choose: {describe(decision.move, self.settings.german)}"
        if decision.plan is not None:
            text += f" for {decision.plan.describe(self.settings.german)}"
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
    ("Review", [("r", "review this game (every card, as skat review)"), ("n / N", "next / previous mistake")]),
    ("Anytime", [("?", "this list"), ("q", "quit"), ("Ctrl+P", "command palette")]),
]
