"""The live table: you in the south seat against two computer opponents.

The screen keeps no rules of its own: it shows the engine's state, offers the
engine's legal moves, and hands every move to ``GameState.push`` (through the
session, which saves after each one).  The opponents' decisions and the hint
run through the screen's ``AIRunner``, which hands their analyses and moves
back to the methods below.
"""

from __future__ import annotations

import time
import traceback

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Button, Footer, Static

from engine.analysis import Analysis
from engine.cards import Card, CardSet
from engine.game import (
    Bid, Declare, Discard, GameState, Hold, IllegalMoveError, Kontra, Move, Pass, Phase, PickUp, Play, Push, Re, describe,
)
from engine.limits import Limit
from engine.players.base import Decision, Player
from engine.rules import REARHAND, SEAT_NAMES
from engine.scoring import Declaration
from engine.series import GAMES_PER_ROUND
from engine.tools import warmup

from ..ai_runner import AIRunner
from ..analysis_table import CONTRACT_HIDDEN_LINE, HIDDEN_LINE, fair_analysis, fair_contract_line, is_contract
from ..messages import CardClicked
from ..persistence import TableSession
from ..players import FALLBACK_ORDER, PlayerChoice, resolve_player
from ..rules_text import rules_label, rules_tag
from ..settings import Settings, save_settings_changes
from ..widgets.cards import HandRow
from ..widgets.debug_panel import DebugPanel
from ..widgets.score_sheet import bock_game_number
from ..widgets.table import TableView
from ..words import HUMAN_PLACE, TABLE_NAMES
from .declaration import DeclarationDialog
from .dialogs import ConfirmScreen, HelpScreen, ResultScreen, ScoreSheetScreen, skat_line

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


def describe_advice(move: Move, plan: Declaration | None = None, german: bool = False) -> str:
    """A hint in the imperative: 'put away ♠10 ♥8 for Clubs', 'play ♥J', 'bid 20'."""
    text = describe(move, german, "imperative")
    if plan is not None:
        text += f" for {plan.describe(german)}"
    return text


class MouseButton(Button, can_focus=False):
    """A button that answers clicks but never takes the keyboard focus."""


class TableScreen(Screen):
    """One series at the table; a new game is dealt after each result."""

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (140, "-wide")]
    """From 140 columns the debug panel is a side column instead of an overlay."""
    VERTICAL_BREAKPOINTS = [(0, "-short"), (40, "-tall")]
    """From 40 lines (and 140 columns) the cards are bigger."""

    BINDINGS = [
        Binding("b", "bid", "Bid"),
        Binding("y", "hold", "Hold"),
        Binding("p", "pass_bid", "Pass"),
        Binding("s", "take_skat", "Take skat"),
        Binding("h", "hand_game", "Hand game"),
        Binding("h", "grand_hand", "Grand Hand"),  # the same key in the Ramsch skat round, named for it
        Binding("u", "push", "Push skat"),
        Binding("left", "cursor(-1)", "←", show=False),
        Binding("right", "cursor(1)", "→", show=False),
        Binding("enter,space", "choose", "Play/pick", key_display="⏎"),
        # the discard shows twelve cards: - and =, right of 0, reach the 11th and 12th
        *(Binding(key, f"pick({i})", f"Card {i + 1}", show=False)
          for i, key in enumerate(("1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "minus", "equals_sign"))),
        Binding("x", "discard", "Discard"),
        Binding("k", "declare", "Declare"),
        Binding("c", "kontra", "Kontra"),
        Binding("r", "re", "Re"),
        Binding("n", "next_game", "Next game"),
        Binding("l", "last_trick", "Last trick"),
        Binding("t", "score_sheet", "Scores"),
        Binding("d", "toggle_debug", "Debug"),
        Binding("escape", "close_debug", "Close panel", show=False),
        Binding("i", "hint", "Hint"),
        Binding("o", "settings", "Settings", show=False),  # in the keys list and the palette: the footer fits 80 columns
        Binding("question_mark", "help", "Keys"),
        Binding("q", "quit_table", "Quit"),
        Binding("ctrl+c", "quit_now", "Quit now", show=False, priority=True),
    ]

    PHASE_ACTIONS = {
        "bid": (Phase.BIDDING,), "hold": (Phase.BIDDING,), "pass_bid": (Phase.BIDDING,),
        "take_skat": (Phase.SKAT,), "hand_game": (Phase.SKAT,),
        "discard": (Phase.DISCARD, Phase.RAMSCH_DISCARD), "declare": (Phase.DECLARE,),
        "choose": (Phase.DISCARD, Phase.RAMSCH_DISCARD, Phase.PLAY),
        "pick": (Phase.DISCARD, Phase.RAMSCH_DISCARD, Phase.PLAY),
        "cursor": (Phase.DISCARD, Phase.RAMSCH_DISCARD, Phase.PLAY),
        "hint": (Phase.BIDDING, Phase.SKAT, Phase.DISCARD, Phase.DECLARE, Phase.PLAY, Phase.RAMSCH_SKAT,
                 Phase.RAMSCH_DISCARD),
    }
    RAMSCH_SKAT_ACTIONS = {"take_skat": PickUp, "push": Push, "grand_hand": Declare, "pass_bid": Pass}
    """The Ramsch skat round's keys, each offered when the engine lists its move (the rules
    decide which: Schieben, the Grand Hand escape)."""
    CALLS = {"kontra": Kontra, "re": Re}
    """The house rule's calls, offered only when the engine lists them among the legal moves."""

    def __init__(self, session: TableSession, settings: Settings,
                 players: dict[int, Player] | None = None) -> None:
        super().__init__()
        self.session = session
        self.settings = settings
        self.fixed_players = dict(players or {})
        """Players by table place that override the settings (tests, measurements)."""
        self.players: dict[int, PlayerChoice] = {}
        """The AI at each opponent's table place (1 West, 2 East)."""
        self.state: GameState | None = None
        """The game on the table (stays after it ends, while the result shows)."""
        self.names: tuple[str, str, str] = TABLE_NAMES
        self.human_seat = 0
        self.places: tuple[int, int, int] = (0, 1, 2)
        self.selected: int = 0
        """Cards chosen for the discard (mask)."""
        self.message = ""
        self.message_is_error = False
        self.runner = AIRunner(self)
        """Runs the opponents' decisions and the hint, one at a time."""
        self._simulations = 0
        self._result_pending = False
        self._bindings_signature: tuple | None = None
        self.last_analysis: tuple[int, str, Analysis] | None = None
        """The newest analysis in full (seat, heading name, analysis), whatever the panel may show of it."""

    # ------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield TableView(id="table")
        # The action buttons are for the mouse; every one has a key.  They never
        # take the focus, or a hidden button would swallow Enter during play.
        yield Static("", id="status")
        with Horizontal(id="actions"):
            yield MouseButton("Bid", id="btn-bid", compact=True)
            yield MouseButton("Hold (y)", id="btn-hold", compact=True)
            yield MouseButton("Pass (p)", id="btn-pass", compact=True)
            yield MouseButton("Take skat (s)", id="btn-skat", compact=True)
            yield MouseButton("Hand game (h)", id="btn-hand", compact=True)
            yield MouseButton("Push (u)", id="btn-push", compact=True)
            yield MouseButton("Discard (x)", id="btn-discard", compact=True)
            yield MouseButton("Declare (k)", id="btn-declare", compact=True)
            yield MouseButton("Next game (n)", id="btn-next", compact=True)
        yield DebugPanel(id="debug")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.session.report = self.report_file_error
        self.seat_players()
        self.set_interval(0.1, self._tick_thinking)
        self.begin_game()

    # ------------------------------------------------------------ players

    def seat_players(self) -> None:
        """(Re)create the opponents from the settings; fallbacks are announced."""
        for place, opponent in zip((1, 2), self.settings.opponents):
            if place in self.fixed_players:
                player = self.fixed_players[place]
                self.players[place] = PlayerChoice(player, player.name)
                continue
            choice = resolve_player(opponent.kind, seed=self.session.seed + place, **opponent.params())
            self.players[place] = choice
            if choice.notice:
                self.notify(f"{TABLE_NAMES[place]}: {choice.notice}", severity="warning", timeout=8)

    def player_label(self, place: int) -> str:
        if place == HUMAN_PLACE:
            return "human"
        choice = self.players.get(place)
        if choice is None:
            return ""
        opponent = self.settings.opponents[place - 1]
        if place not in self.fixed_players and choice.kind == opponent.kind and choice.kind != "heuristic":
            return opponent.describe()
        return choice.kind

    def limit_for(self, place: int) -> Limit | None:
        """The settings' budget; a player given to the table ready-made keeps its own."""
        if place in self.fixed_players:
            return None
        return self.settings.opponents[place - 1].limit()

    # ------------------------------------------------------------ the game

    def begin_game(self) -> None:
        resumed = self.session.state is not None and bool(self.session.state.moves)
        self.state = self.session.start_game()
        self.names = self.session.names_by_seat()
        self.human_seat = self.session.human_seat
        self.places = self.session.seats
        self.selected = 0
        self._result_pending = False
        self.last_analysis = None
        self.query_one(DebugPanel).clear()  # the last game's decision says nothing about this one
        self.query_one(TableView).show_last_trick = False
        number = self.session.game_number
        self.say(f"{'Resumed' if resumed else 'Dealt'} game {number}: you are {self._role()}.")
        if resumed:
            self.notify(f"Resumed game {number} of the series (seed {self.session.seed}).", title="Welcome back")
        self.refresh_table()
        self.advance()

    def _role(self) -> str:
        return SEAT_NAMES[self.human_seat] + (" (dealer)" if self.human_seat == REARHAND else "")

    @property
    def my_turn(self) -> bool:
        return self.state is not None and not self.state.is_over and self.state.to_move == self.human_seat

    def advance(self) -> None:
        """Whoever is to move: wait for the human, or start an AI; or end the game."""
        state = self.state
        if state is None:
            return
        if state.is_over:
            self.end_game()
            return
        seat = state.to_move
        if seat == self.human_seat:
            self.prompt_human()
            if state.phase == Phase.DECLARE:
                self.action_declare()
        else:
            self.think(seat)
        self.update_bindings()

    def apply(self, seat: int, move: Move) -> bool:
        """Play ``move`` for ``seat``; False (with the engine's reason shown) if illegal."""
        assert self.state is not None
        if self.state.to_move != seat:
            self.say(f"Not your turn: {self.names[self.state.to_move]} is to move.", error=True)
            return False
        try:
            self.session.push(move)
        except IllegalMoveError as exc:
            if seat == self.human_seat:
                reason = exc.describe(self.settings.german)  # the engine's reason, with the table's card names
                # in the status line, in red: a note would cover the hand you must play from
                self.say(f"Not allowed: {reason}", error=True)
            raise
        self.runner.cancel()  # a hint still thinking about the position before this move is of no use now
        if seat != self.human_seat:
            shown = self.state.visible_move(move, self.human_seat)  # an opponent's discard stays hidden
            self.say(f"{self.names[seat]} {describe(shown, self.settings.german)}.")
            if isinstance(move, (Kontra, Re)):  # doubles the game: worth more than a status line
                self.notify(f"{self.names[seat]} {describe(move)}: the game value doubles.",
                            title="Kontra" if isinstance(move, Kontra) else "Re", timeout=8)
        else:
            # replaces the prompt, which would go stale while an opponent thinks
            self.say(f"You {describe_advice(move, german=self.settings.german)}.")
        self.selected = 0
        self.refresh_table()
        self.advance()
        return True

    def human_move(self, move: Move) -> None:
        if not self.my_turn:
            who = self.names[self.state.to_move] if self.state and self.state.to_move is not None else "nobody"
            self.say(f"Not your turn: {who} is to move.", error=True)
            return
        try:
            self.apply(self.human_seat, move)
        except IllegalMoveError:
            self.refresh_table()

    def end_game(self) -> None:
        if self._result_pending:
            return
        self._result_pending = True
        state = self.state
        result = state.result()
        number = self.session.game_number
        if self.last_analysis is not None:
            self.show_analysis(*self.last_analysis)  # the game is over: the last decision in full
        self.session.finish_game()  # saves and appends the record; failures go to report_file_error
        self.say("All three passed." if result is None else f"Game {number} is over.")
        self.refresh_table()
        self.update_bindings()
        self.app.push_screen(ResultScreen(result, self.names, self.session.series, self.settings.german,
                                          skat_line(state, self.names, self.settings.german),
                                          cards_shown=self.session.cards_shown),
                             callback=lambda _: self.next_game())

    def next_game(self) -> None:
        if self.state is not None and self.state.is_over:
            self.begin_game()

    # ------------------------------------------------------------ AI thinking

    def think(self, seat: int) -> None:
        assert self.state is not None
        place = self.places[seat]
        self._simulations = 0
        self.runner.run(seat, self.players[place].player, self.state.view(seat), self.limit_for(place),
                        on_analysis=self.opponent_analysis, on_decision=self.opponent_decided,
                        on_failure=self.opponent_failed, min_seconds=self.settings.ai_delay)

    @property
    def thinking_seat(self) -> int | None:
        """The opponent whose decision is in progress (not the hint's)."""
        job = self.runner.job
        return None if job is None or job.seat == self.human_seat else job.seat

    def stop_thinking(self) -> None:
        self.runner.cancel()

    def show_analysis(self, seat: int, name: str, analysis: Analysis, played: bool = False) -> None:
        """``played``: the decision's move is on the table (its card is public now)."""
        self.last_analysis = (seat, name, analysis)
        panel = self.query_one(DebugPanel)
        hidden = ""
        if seat != self.human_seat and self.state is not None and not self.state.is_over:
            if self.settings.show_computer_cards:
                self.session.mark_cards_shown()  # no fair game: the score sheet and the record say so
            elif is_contract(analysis):
                panel.show_summary(fair_contract_line(analysis, name), CONTRACT_HIDDEN_LINE)
                return
            else:
                analysis = fair_analysis(analysis, played, self.state.hands[self.human_seat])
                hidden = HIDDEN_LINE
        side = "" if self.state is None or self.state.declarer is None else (
            "declarer" if seat == self.state.declarer else "defenders")
        panel.show_analysis(analysis, name, self.settings.german, mover=self.names[seat], side=side,
                            place_names=tuple(self.names), hidden=hidden)

    def opponent_analysis(self, seat: int, analysis: Analysis) -> None:
        self._simulations = analysis.simulations
        self.show_analysis(seat, self.names[seat], analysis)

    def opponent_decided(self, seat: int, decision: Decision) -> None:
        self.seat_panel(seat).set_thinking("")
        if decision.analysis is None:
            player = self.players[self.places[seat]].player
            self.query_one(DebugPanel).show_note(
                f"{self.names[seat]} ({player.name}) reported no analysis for: "
                f"{describe(self.state.visible_move(decision.move, self.human_seat), self.settings.german)}")
        elif isinstance(decision.move, Play) and not self.settings.show_computer_cards:
            # the card goes on the table now: the fair view may name it with its figures
            self.show_analysis(seat, self.names[seat], decision.analysis, played=True)
        try:
            self.apply(seat, decision.move)
        except IllegalMoveError as exc:
            self.replace_failed_player(seat, f"chose an illegal move: {exc.describe(self.settings.german)}")

    def opponent_failed(self, seat: int, error: Exception) -> None:
        """A crashed AI: show it, seat the heuristic player, and go on with the game."""
        self.seat_panel(seat).set_thinking("")
        detail = "".join(traceback.format_exception_only(type(error), error)).strip()
        self.replace_failed_player(seat, f"crashed: {detail}")

    def replace_failed_player(self, seat: int, reason: str) -> None:
        """Seat the next player of the fallback order (heuristic, then random, which only picks
        among the engine's legal moves): a fallback that fails too would fail again forever."""
        place = self.places[seat]
        failed = self.players[place].kind
        kind = FALLBACK_ORDER[min(FALLBACK_ORDER.index(failed) + 1, len(FALLBACK_ORDER) - 1)] \
            if failed in FALLBACK_ORDER else FALLBACK_ORDER[0]
        self.notify(f"{TABLE_NAMES[place]}'s AI {reason}. The {kind} player takes over this seat.",
                    title="AI error", severity="error", timeout=10)
        fallback = resolve_player(kind, seed=self.session.seed + place)
        self.players[place] = PlayerChoice(fallback.player, fallback.kind, fallback.notice)
        self.refresh_table()
        self.advance()

    def seat_panel(self, seat: int):
        spot = {self.human_seat: "south", (self.human_seat + 1) % 3: "west", (self.human_seat + 2) % 3: "east"}[seat]
        return self.query_one(TableView).query_one(f"#seat-{spot}")

    def _tick_thinking(self) -> None:
        seat = self.thinking_seat
        if seat is None:
            return
        elapsed = time.monotonic() - self.runner.job.started
        frame = SPINNER[int(elapsed * 10) % len(SPINNER)]
        text = f"{frame} thinking {elapsed:.1f} s"
        core = warmup.status()
        if core.running:  # the first start on a cold numba cache (the app's note says more)
            text += f" · preparing core {len(core.ready)}/{core.total}"
        elif core.failure is not None and not warmup.is_warm():
            text += " · compiling on first use"
        if self._simulations:
            text += f" · {self._simulations} worlds"
        self.seat_panel(seat).set_thinking(text)

    # ------------------------------------------------------------ drawing

    def refresh_table(self) -> None:
        state = self.state
        if state is None:
            return
        view = state.view(self.human_seat)
        legal = None
        if self.my_turn and state.phase == Phase.PLAY:
            legal = view.legal_cards()
        elif self.my_turn and state.phase == Phase.DISCARD:
            legal = view.hands[self.human_seat]
        elif self.my_turn and state.phase == Phase.RAMSCH_DISCARD:
            legal = 0  # the cards the engine lets go back into the skat
            for move in view.legal_moves():
                legal |= move.cards
        players = tuple(self.player_label(self.places[s]) for s in range(3))
        game = f"Game {self.session.game_number if not self._result_pending else len(self.session.series.entries)}"
        rest = f"{rules_tag(self.session.rules)} · " if rules_tag(self.session.rules) else ""
        series = self.session.series
        bock = bock_game_number(series, len(series.entries) - 1 if self._result_pending else len(series.entries))
        if bock:
            rest += f"Bock {bock}/{GAMES_PER_ROUND} · "
        prefix = f"{game} · seed {self.session.seed} · {rest}"
        self.query_one(TableView).show(
            view, self.human_seat, self.names, german=self.settings.german, players=players,
            info_prefix=prefix, info_short_prefix=f"{game} · {rest}", legal=legal, selected=self.selected,
            scores=self._score_text(),
        )
        self._update_actions()

    def _score_text(self) -> Text:
        """The series so far, for the panel beside the trick on a big terminal."""
        series = self.session.series
        text = Text(f"Score · {len(series.entries)} game{'s' * (len(series.entries) != 1)}\n", style="bold")
        text.append(f"{'':<6} {'plain':>6} {'SF':>6}", style="dim")
        for total in series.totals():
            text.append(f"\n{total.name:<6} {total.score:>6} {total.seeger_fabian:>6}")
        return text

    def say(self, text: str, error: bool = False) -> None:
        self.message, self.message_is_error = text, error
        status = self.query_one("#status", Static)
        status.update(text)
        status.set_class(error, "error")

    def prompt_human(self) -> None:
        state = self.state
        phase = state.phase
        if phase == Phase.BIDDING:
            if state.awaiting_listener:
                text = f"{self.names[state.bidder]} bids {state.bid}: y = hold, p = pass"
            elif state.bid_stage == 2:
                text = f"Both passed: b = open at {state.next_bid()}, p = pass the game in"
            else:
                text = f"Your bid: b = bid {state.next_bid()}, p = pass"
        elif phase == Phase.SKAT:
            text = f"You won the bidding at {state.bid}: s = take the skat, h = play hand"
        elif phase == Phase.DISCARD:
            chosen = CardSet(self.selected).unicode(self.settings.german)
            # one line at 80 columns; ←/→ and space are in the keys list (?)
            text = f"Two cards to discard (click, or keys 1–0 - =): {chosen or 'none yet'} · x = discard"
        elif phase == Phase.DECLARE:
            text = "Declare your game: k opens the declaration"
        elif phase == Phase.RAMSCH_SKAT:
            offers = {PickUp: "s = take the skat", Push: "u = push it on unseen (doubles)",
                      Pass: "p = play the Ramsch", Declare: "h = Grand Hand instead"}
            legal = {type(move) for move in state.legal_moves()}
            text = "All passed, Ramsch: " + ", ".join(text for kind, text in offers.items() if kind in legal)
        elif phase == Phase.RAMSCH_DISCARD:
            chosen = CardSet(self.selected).unicode(self.settings.german)
            text = f"Two cards back into the skat (click, or keys 1–0 - =): {chosen or 'none yet'} · x = put back"
        else:
            led = state.trick[0].unicode(self.settings.german) if state.trick else None
            text = f"Your card{' to ' + led if led else ' (you lead)'}: click, or ←/→ and Enter; 1–0 by position"
            calls = {"kontra": "c = Kontra", "re": "r = Re"}
            for call in self.open_calls():
                text += f" · {calls[call]}"
        if not self.message_is_error or not self.message:
            self.say(text)
        else:
            # keep the error visible, but add what to do next
            self.say(f"{self.message}  —  {text}", error=True)

    def _update_actions(self) -> None:
        state = self.state
        mine = self.my_turn
        phase = state.phase if state else None
        visible = {
            "btn-bid": mine and phase == Phase.BIDDING and not state.awaiting_listener,
            "btn-hold": mine and phase == Phase.BIDDING and state.awaiting_listener,
            "btn-pass": mine and (phase == Phase.BIDDING or self._ramsch_offers("pass_bid")),
            "btn-skat": mine and (phase == Phase.SKAT or self._ramsch_offers("take_skat")),
            "btn-hand": mine and (phase == Phase.SKAT or self._ramsch_offers("grand_hand")),
            "btn-push": self._ramsch_offers("push"),
            "btn-discard": mine and phase in (Phase.DISCARD, Phase.RAMSCH_DISCARD),
            "btn-declare": mine and phase == Phase.DECLARE,
            "btn-next": state is not None and state.is_over,
        }
        for button_id, show in visible.items():
            self.query_one(f"#{button_id}", Button).display = show
        if mine and phase == Phase.BIDDING and not state.awaiting_listener:
            self.query_one("#btn-bid", Button).label = f"Bid {state.next_bid()} (b)"
        if mine and phase in (Phase.DISCARD, Phase.RAMSCH_DISCARD):
            self.query_one("#btn-discard", Button).disabled = self.selected.bit_count() != 2
        self.query_one("#btn-hand", Button).label = "Grand Hand (h)" if phase == Phase.RAMSCH_SKAT else "Hand game (h)"

    def on_button_pressed(self, event: Button.Pressed) -> None:
        action = {
            "btn-bid": self.action_bid, "btn-hold": self.action_hold, "btn-pass": self.action_pass_bid,
            "btn-skat": self.action_take_skat, "btn-hand": self.action_hand_game, "btn-push": self.action_push,
            "btn-discard": self.action_discard, "btn-declare": self.action_declare,
            "btn-next": self.action_next_game,
        }.get(event.button.id or "")
        if action:
            action()

    # ------------------------------------------------------------ bindings

    def update_bindings(self) -> None:
        """Refresh the footer only when the set of keys that apply changed:
        rebuilding it costs more than the rest of a move's redraw."""
        state = self.state
        signature = (
            self.my_turn, state.phase if state else None, state.awaiting_listener if state else None,
            state is not None and bool(state.tricks), self.open_calls(),
        )
        if signature != self._bindings_signature:
            self._bindings_signature = signature
            self.refresh_bindings()

    def _ramsch_offers(self, action: str) -> bool:
        """Whether the engine offers the human this Ramsch skat round move now."""
        if not self.my_turn or self.state.phase != Phase.RAMSCH_SKAT:
            return False
        kind = self.RAMSCH_SKAT_ACTIONS[action]
        return any(isinstance(move, kind) for move in self.state.legal_moves())

    def open_calls(self) -> tuple[str, ...]:
        """The calls (``kontra``, ``re``) the engine allows the human now."""
        if not self.my_turn or self.state.phase != Phase.PLAY:
            return ()
        legal = self.state.legal_moves()
        return tuple(name for name, call in self.CALLS.items() if any(isinstance(m, call) for m in legal))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show only the keys that apply now (the footer follows this)."""
        if action in self.CALLS:
            return action in self.open_calls()
        if self.state is not None and self.state.phase == Phase.RAMSCH_SKAT and action in self.RAMSCH_SKAT_ACTIONS:
            return self._ramsch_offers(action)
        if action in ("push", "grand_hand"):
            return False
        phases = self.PHASE_ACTIONS.get(action)
        if phases is not None:
            if not self.my_turn or self.state.phase not in phases:
                return False
            if action == "bid":
                return not self.state.awaiting_listener
            if action == "hold":
                return self.state.awaiting_listener
            return True
        if action == "next_game":
            return self.state is not None and self.state.is_over
        if action == "last_trick":
            return self.state is not None and bool(self.state.tricks)
        return True

    def action_bid(self) -> None:
        if self.my_turn and self.state.phase == Phase.BIDDING:
            self.human_move(Bid(self.state.next_bid()))

    def action_hold(self) -> None:
        self.human_move(Hold())

    def action_pass_bid(self) -> None:
        self.human_move(Pass())

    def action_kontra(self) -> None:
        self.human_move(Kontra())

    def action_re(self) -> None:
        self.human_move(Re())

    def action_take_skat(self) -> None:
        self.human_move(PickUp())

    def action_push(self) -> None:
        self.human_move(Push())

    def action_hand_game(self) -> None:
        if self.my_turn and self.state.phase == Phase.SKAT:
            self._open_declaration()

    def action_grand_hand(self) -> None:
        if self.my_turn and self.state.phase == Phase.RAMSCH_SKAT:
            self._open_declaration()

    def action_declare(self) -> None:
        if self.my_turn and self.state.phase in (Phase.DECLARE, Phase.SKAT):
            self._open_declaration()

    def _open_declaration(self) -> None:
        if isinstance(self.app.screen, DeclarationDialog):
            return

        def declared(decl: Declaration | None) -> None:
            if decl is not None:
                self.human_move(Declare(decl))

        self.app.push_screen(DeclarationDialog(self.state.view(self.human_seat), self.settings.german),
                             callback=declared)

    def action_cursor(self, delta: int) -> None:
        hand = self.query_one(HandRow)
        hand.move_cursor(delta)
        self.refresh_table()

    def action_choose(self) -> None:
        card = self.query_one(HandRow).card_at_cursor
        if card is not None:
            self.choose_card(card)

    def action_pick(self, index: int) -> None:
        hand = self.query_one(HandRow)
        card = hand.card_at(index)
        if card is not None:
            hand.cursor = index
            self.choose_card(card)

    @on(CardClicked)
    def card_clicked(self, message: CardClicked) -> None:
        hand = self.query_one(HandRow)
        if message.card in hand.cards:
            hand.cursor = hand.cards.index(message.card)
        self.choose_card(message.card)

    def choose_card(self, card: Card) -> None:
        """Discard selection or card play; the engine judges the card."""
        if not self.my_turn:
            self.say("Not your turn.", error=True)
            return
        if self.state.phase in (Phase.DISCARD, Phase.RAMSCH_DISCARD):
            self.selected ^= 1 << card
            if self.selected.bit_count() > 2:
                self.selected = 1 << card  # a third card starts a new choice
            self.message_is_error = False
            self.prompt_human()
            self.refresh_table()
        elif self.state.phase == Phase.PLAY:
            self.message_is_error = False
            self.human_move(Play(card))
        self.update_bindings()

    def action_discard(self) -> None:
        if self.my_turn and self.state.phase in (Phase.DISCARD, Phase.RAMSCH_DISCARD):
            self.human_move(Discard(self.selected))

    def action_next_game(self) -> None:
        if isinstance(self.app.screen, ResultScreen):
            self.app.screen.dismiss(None)
        else:
            self.next_game()

    def action_last_trick(self) -> None:
        self.query_one(TableView).toggle_last_trick()
        self.refresh_table()

    def action_score_sheet(self) -> None:
        self.app.push_screen(ScoreSheetScreen(self.session.series, self.session.cards_shown))

    def action_toggle_debug(self) -> None:
        self.query_one(DebugPanel).toggle_class("visible")

    def action_close_debug(self) -> None:
        """Escape closes the panel (and with it the hint shown there)."""
        self.query_one(DebugPanel).remove_class("visible")

    def action_hint(self) -> None:
        """What an AI would do in your position, from your view only."""
        if not self.my_turn:
            self.say("A hint is for your own turn.", error=True)
            return
        hint = self.settings.hint
        choice = resolve_player(hint.kind, seed=self.session.seed, **hint.params())
        if choice.notice:
            self.notify(f"Hint: {choice.notice}", severity="warning")
        debug = self.query_one(DebugPanel)
        debug.add_class("visible")
        debug.clear(f"Hint: {choice.kind} is thinking in your position…")
        self.say(f"Asking {choice.kind} for a hint…")
        self.runner.run(self.human_seat, choice.player, self.state.view(self.human_seat), hint.limit(),
                        on_analysis=self.hint_analysis, on_decision=self.hint_ready, on_failure=self.hint_failed)

    def hint_analysis(self, seat: int, analysis: Analysis) -> None:
        self.show_analysis(seat, f"Hint for {self.names[seat]}", analysis)

    def hint_ready(self, seat: int, decision: Decision) -> None:
        text = f"Hint: {describe_advice(decision.move, decision.plan, self.settings.german)}"
        # above the analysis it came from (or alone)
        self.query_one(DebugPanel).show_note(text if decision.analysis is not None
                                             else f"{text} (this player reports no analysis)")
        self.say(text)  # and above the analysis; no note, which would cover the table
        if isinstance(decision.move, Play) and decision.move.card in self.query_one(HandRow).cards:
            self.query_one(HandRow).cursor = self.query_one(HandRow).cards.index(decision.move.card)
            self.refresh_table()

    def hint_failed(self, seat: int, error: Exception) -> None:
        self.notify(f"The hint failed: {error}", severity="error")

    def action_settings(self) -> None:
        from .settings_screen import SettingsScreen

        def saved(settings: Settings | None) -> None:
            if settings is None:
                return
            shown, self.settings = self.settings, settings
            self.app.settings = settings
            try:
                save_settings_changes(shown, settings)  # one-off command-line overrides stay one-off
            except OSError as exc:
                self.notify(f"Settings not saved: {exc}", severity="error")
            self.seat_players()  # takes effect with the next decision
            self.refresh_table()
            if settings.rules != shown.rules and settings.rules != self.session.rules:
                self.notify(f"The next series is played under {rules_label(settings.rules)} (command palette: "
                            f"New series); this series keeps {rules_label(self.session.rules)}.",
                            title="House rules", timeout=10)

        self.app.push_screen(SettingsScreen(self.settings, self.session.rules), callback=saved)

    def report_file_error(self, message: str) -> None:
        self.notify(message, title="Not saved", severity="error", timeout=12)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(TABLE_KEYS))

    def action_quit_table(self) -> None:
        in_game = self.state is not None and not self.state.is_over and bool(self.state.moves)
        if not in_game:
            self.quit_now()
            return
        self.app.push_screen(
            ConfirmScreen("Quit? The game is saved and resumes when you start skat again."),
            callback=lambda yes: self.quit_now() if yes else None,
        )

    def action_quit_now(self) -> None:
        self.quit_now()

    def quit_now(self) -> None:
        self.stop_thinking()
        self.app.exit()

    def new_series(self) -> None:
        def confirmed(yes: bool) -> None:
            if not yes:
                return
            self.stop_thinking()
            self.session.discard_save()
            path = self.session.save_path
            self.session = TableSession.new(None, path, self.settings.rules)
            self.session.report = self.report_file_error
            self.app.session = self.session
            self.seat_players()
            self.begin_game()

        self.app.push_screen(ConfirmScreen("Start a new series? The current scores are dropped."), callback=confirmed)


TABLE_KEYS: list[tuple[str, list[tuple[str, str]]]] = [
    ("Bidding", [("b", "bid the next value"), ("y", "hold (yes)"), ("p", "pass")]),
    ("Ramsch (house rule, all three passed)", [
        ("s", "take the skat, then put two cards back (x)"), ("u", "push the skat on unseen (Schieben)"),
        ("h", "declare a Grand Hand instead"), ("p", "play the Ramsch (without Schieben)")]),
    ("Skat", [("s", "take the skat"), ("h", "play hand (opens the declaration)"),
              ("click / space / 1–0 - =", "choose the two cards to discard (- and =: the 11th and 12th)"),
              ("x", "discard the chosen cards"),
              ("k", "open the declaration dialog")]),
    ("Declaration dialog", [("1–6", "♣ ♠ ♥ ♦ Grand Null"), ("x / z / o", "schneider / schwarz / ouvert"),
                            ("Enter", "declare"), ("Esc", "back")]),
    ("Card play", [("← / →", "move the cursor over the cards you may play"), ("Enter / space", "play the card at the cursor"),
                   ("1–0", "play the 1st…10th card"), ("click", "play a card"),
                   ("c", "say Kontra (house rule: a defender, before your first card)"),
                   ("r", "say Re (house rule: the declarer, answering a Kontra)")]),
    ("Anytime", [("l", "show the last trick (again to hide)"), ("t", "score sheet"),
                 ("d", "AI debug panel"), ("i", "hint: what an AI would do for you"),
                 ("o", "settings"), ("n", "next game (after a result)"), ("?", "this list"),
                 ("q", "quit (asks during a game; the game is saved)"), ("Ctrl+C", "quit at once (saved)"),
                 ("Ctrl+P", "command palette")]),
]
