"""The Textual app: the card table (``run_table``) and the replay (``run_replay``)."""

from __future__ import annotations

import os
import traceback
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from textual.app import App, SystemCommand
from textual.notifications import Notification, SeverityLevel
from textual.screen import Screen

from engine.house_rules import ISKO, HouseRules

from .data_lock import AllTablesBusy, DataDirLock, DataDirLocked, lock_tab_folder
from .persistence import TableSession, load_session, series_save_path
from .rules_text import rules_label
from .safe_files import set_aside
from .settings import Settings, data_dir, load_settings


class SkatApp(App):
    """Either the live table over a ``TableSession`` or the replay of ``records``."""

    CSS_PATH = "app.tcss"
    TITLE = "Skat"

    def __init__(
        self,
        *,
        session: TableSession | None = None,
        settings: Settings | None = None,
        records: Sequence[Any] | None = None,
        record_errors: Sequence[str] = (),
        notices: Sequence[str] = (),
        players: dict[int, Any] | None = None,
        record_path: str | None = None,
    ) -> None:
        super().__init__()
        if (session is None) == (records is None):
            raise ValueError("give either a session (table) or records (replay)")
        self.session = session
        self.settings = settings or Settings()
        self.records = records
        self.record_errors = record_errors
        self.record_path = record_path
        """The replayed file, where the replay finds and keeps its reviews."""
        self.startup_notices = list(notices)
        self.fixed_players = players
        """Players by table position (1 West, 2 East) overriding the settings: tests and measure.py."""

    def on_mount(self) -> None:
        from engine.tools.warmup import cache_holds_core, warm_up_in_background

        self._notes: dict[str, Notification] = {}
        # "compiling" only when it does: a warm cache on a busy machine loads for a while, too
        self._core_cached = cache_holds_core()
        # compile (or load) the numba core now; until it is ready the opponents play simple cards
        warm_up_in_background()
        self._warm_up_parts_shown = -1  # how many ready parts the note last reported; -1: no note yet
        self._warm_up_timer = self.set_interval(0.5, self._watch_warm_up)
        if self.session is not None:
            from .screens.table import TableScreen

            self.push_screen(TableScreen(self.session, self.settings, self.fixed_players))
        else:
            from .screens.replay_screen import ReplayScreen

            self.push_screen(ReplayScreen(self.records, self.settings, self.record_errors, self.record_path))
        for notice in self.startup_notices:
            self.notify(notice, severity="warning", timeout=8)

    def _watch_warm_up(self) -> None:
        """The one-time note while the search core compiles (a warm cache loads it before the first
        check), its progress, and a failed warm-up with its reason."""
        from engine.tools import warmup

        status = warmup.status()
        if status.failure is not None:
            self._warm_up_timer.stop()
            reason = "".join(traceback.format_exception_only(type(status.failure), status.failure)).strip()
            self.note("core", f"Preparing the search core failed: {reason}. The computer players compile what "
                      "they need when they first need it, which can take minutes.",
                      title="Search core", severity="error", timeout=30)
            return
        if not status.running:
            self._warm_up_timer.stop()
            if self._warm_up_parts_shown >= 0:
                self.note("core", f"Search core ready ({status.seconds:.0f} s).", title="Search core", timeout=5)
            return
        if status.seconds < 1.0 or len(status.ready) == self._warm_up_parts_shown:
            return
        self._warm_up_parts_shown = len(status.ready)
        # short: the note sits over East's seat, and a narrow one grows tall
        parts = f"{len(status.ready)} of {status.total} parts ready, now the {status.current}"
        if self._core_cached:
            note = f"Loading the search core: {parts}."
        else:
            note = f"Compiling the search core, once: {parts}. Meanwhile the computers play simple cards."
        self.note("core", note, title="Search core", timeout=60)

    def note(self, subject: str, message: str, *, title: str = "", severity: SeverityLevel = "information",
             timeout: float | None = None) -> None:
        """A notification that replaces the last one on the same ``subject``: one note per subject
        (Textual's notify stacks them, and stacked notes cover the table)."""
        last = self._notes.get(subject)
        if last is not None and last in self._notifications:
            self._unnotify(last, refresh=False)
        notification = Notification(message, title, severity,
                                    self.NOTIFICATION_TIMEOUT if timeout is None else timeout)
        self._notes[subject] = notification
        # at once, as Textual's Notify handler does: a note posted as a message would not be
        # among the notifications yet when the next one on its subject comes
        self._notifications.add(notification)
        self._refresh_notifications()

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        from .screens.table import TableScreen

        table = next((s for s in self.screen_stack if isinstance(s, TableScreen)), None)
        for command in super().get_system_commands(screen):
            if table is not None and command.title == "Keys":
                continue  # Textual's own key panel; the table's "Keys" list below says more
            yield command
        if table is not None:
            yield SystemCommand("Score sheet", "Show the score sheet of the series", table.action_score_sheet)
            yield SystemCommand("Settings", "Opponents, budgets, display", table.action_settings)
            yield SystemCommand("Debug panel", "Show or hide the AI debug panel", table.action_toggle_debug)
            yield SystemCommand("Last trick", "Show or hide the last trick", table.action_last_trick)
            yield SystemCommand("Hint", "What an AI would do in your position", table.action_hint)
            yield SystemCommand("New series", "Drop the scores and start over", table.new_series)
            yield SystemCommand("Keys", "Every key binding of the table (?)", table.action_help)


def open_session(seed: int | None, new_series: bool = False, save_path: Path | None = None,
                 rules: HouseRules = ISKO) -> tuple[TableSession, list[str]]:
    """The saved series to resume (with the rules it was started with), or a new one
    played by ``rules``; with notices for the user."""
    path = save_path or series_save_path()
    notices: list[str] = []
    session = None
    if not new_series:
        try:
            session = load_session(path)
        except ValueError as exc:
            try:
                broken = set_aside(path)
                notices.append(f"{exc}; kept as {broken.name}, starting a new series")
            except OSError as move_error:
                notices.append(f"{exc}; could not set it aside ({move_error.strerror or move_error}), "
                               "starting a new series")
    if session is not None:
        scored = len(session.finished) - session.recorded
        session.report = notices.append
        # games finished just before the process died: into the record file, once
        session.write_records(check_existing=True)
        session.report = None
        if scored > 0:
            notices.append(f"Game {len(session.finished)} had ended before the table closed; it is scored "
                           "(score sheet: t).")
        if seed is not None and seed != session.seed:
            notices.append(f"Resumed the saved series (seed {session.seed}); --seed {seed} applies to a new "
                           "series (command palette: New series)")
        if rules != session.rules:
            notices.append(f"Resumed the saved series, played under {rules_label(session.rules)}; a new series "
                           f"is played under {rules_label(rules)} (--new, or command palette: New series)")
        return session, notices
    return TableSession.new(seed, path, rules), notices


class MessageApp(App):
    """A table that cannot start says why, on the screen it would have used: in a browser tab
    (``skat serve``) nothing else would tell the player."""

    TITLE = "Skat"
    BINDINGS = [("q,escape,enter", "quit", "Close")]
    CSS = "Static { margin: 2 4; }"

    def __init__(self, message: str) -> None:
        super().__init__()
        self.message = message

    def compose(self):
        from textual.widgets import Footer, Static

        yield Static(f"The table cannot start: {self.message}.\n\nPress q to close.")
        yield Footer()


def run_table(seed: int | None, settings_overrides: dict) -> None:
    """``skat``: the table; resumes a saved series unless ``new`` (or ``new_series``) is set in
    the overrides; see ``Settings.with_overrides`` for the rest.  ``browser_tab`` (``skat serve``
    starts each tab with it): the most tables at once; the table takes the first free folder of
    its own under the data folder, and a table that cannot start shows why instead of exiting.

    Raises SystemExit (status 1) when another table uses the data folder or the
    app ended with an error."""
    overrides = dict(settings_overrides or {})
    new_series = bool(overrides.pop("new_series", False)) | bool(overrides.pop("new", False))
    tables = overrides.pop("browser_tab", None)
    notices: list[str] = []

    def cannot_start(message: str) -> SystemExit:
        if tables:
            MessageApp(message).run()
        return SystemExit(f"skat: {message}")

    try:
        settings = load_settings(notices).with_overrides(overrides)
    except ValueError as exc:  # a bad --opponent-left/--opponent-right spec or number, or house rules
        raise cannot_start(str(exc)) from None
    try:
        if tables:
            lock = lock_tab_folder(data_dir(), tables)
            # this process is the tab's table: its saves and records go to its own folder
            os.environ["SKAT_DATA_DIR"] = str(lock.directory)
            notices.append(f"This browser tab's table keeps its series in {lock.directory}; a reload resumes it.")
        else:
            lock = DataDirLock(data_dir())
            lock.acquire()
    except (DataDirLocked, AllTablesBusy) as exc:
        raise cannot_start(str(exc)) from None
    except OSError as exc:
        if tables:
            raise cannot_start(f"cannot make a folder for this tab under {data_dir()} ({exc.strerror or exc})") \
                from None
        notices.append(f"Cannot lock the data folder {data_dir()} ({exc.strerror or exc}); "
                       "saving will likely fail too")
    try:
        session, session_notices = open_session(seed, new_series, rules=settings.rules)
        app = SkatApp(session=session, settings=settings, notices=notices + session_notices)
        app.run()
    finally:
        lock.release()
    if app.return_code:
        raise SystemExit(app.return_code)


def run_replay(path: str) -> None:
    """``skat replay FILE``: pick a recorded game and step through it."""
    from engine.record import read_records

    try:
        records, record_errors = read_records(path)
    except OSError as exc:
        raise SystemExit(f"cannot open {path}: {exc.strerror}") from None
    errors = [str(e) for e in record_errors]
    if not records:
        detail = f": {errors[0]}" if errors else ""
        raise SystemExit(f"no readable games in {path}{detail}")
    notices: list[str] = []  # a damaged settings file is set aside: say so
    SkatApp(records=records, record_errors=errors, settings=load_settings(notices), notices=notices,
            record_path=path).run()
