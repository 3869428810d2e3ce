"""The declaration dialog: game type and announcements, illegal choices
disabled with the engine's reason."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Label, RadioButton, RadioSet, Static

from rich.text import Text

from engine.cards import GERMAN_SUIT_NAMES, Suit, cards_of
from engine.game import GameState
from engine.rules import GameType, sorted_cards
from engine.scoring import Declaration, score_game

from ..widgets.cards import cards_text

GAME_ORDER = (GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS, GameType.GRAND, GameType.NULL)
FLAGS = ("schneider", "schwarz", "ouvert")
FLAG_KEYS = {"schneider": "x", "schwarz": "z", "ouvert": "o"}


def game_label(game: GameType, german: bool) -> str:
    if game.is_suit:
        name = GERMAN_SUIT_NAMES[Suit(game)] if german else game.label
        return f"{game.symbol} {name}"
    return game.label


def value_at_bid(decl: Declaration, declarer_cards: int, bid: int) -> tuple[str, int]:
    """'with 2 · 3 × 12 = 36' and the value, for ``decl`` won at its least (61 points,
    or the announced schneider/schwarz): the engine's scoring of that outcome."""
    points, tricks = decl.least_win()
    result = score_game(0, decl, bid, declarer_cards, points, tricks, 10 - tricks)
    if decl.game == GameType.NULL:
        return f"value {result.game_value}", result.game_value
    mats = result.matadors
    value = result.multiplier * decl.game.base_value  # before an overbid raises it to the bid
    return (f"{'with' if mats > 0 else 'without'} {abs(mats)} · {result.multiplier} × "
            f"{decl.game.base_value} = {value}"), value


class DeclarationDialog(ModalScreen[Declaration | None]):
    """Returns the chosen Declaration, or None when cancelled (Escape)."""

    BINDINGS = [
        *(Binding(str(i + 1), f"choose_game({i})", game_label(g, False), show=False)
          for i, g in enumerate(GAME_ORDER)),
        Binding("x", "toggle_flag('schneider')", "Schneider", show=False),
        Binding("z", "toggle_flag('schwarz')", "Schwarz", show=False),
        Binding("o", "toggle_flag('ouvert')", "Ouvert", show=False),
        Binding("enter", "declare", "Declare", priority=True),
        Binding("escape", "cancel", "Back"),
    ]

    def __init__(self, state: GameState, german: bool = False) -> None:
        super().__init__()
        self.state = state
        self.german = german
        self.hand = not state.skat_taken
        self.seat = state.declarer if state.declarer is not None else state.to_move
        """Who declares: the declarer, or in a Ramsch's skat round the seat escaping it."""
        self.flags = {name: False for name in FLAGS}
        # the first game the engine allows (instead of the Ramsch only a Grand Hand)
        self.game = next((g for g in GAME_ORDER if self.problem(Declaration(g, hand=self.hand)) is None),
                         GAME_ORDER[0])

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="declare-dialog"):
            kind = "hand game" if self.hand else "after taking the skat"
            title = (f"Declare a game ({kind}, bid {self.state.bid})" if not self.state.ramsch
                     else "Grand Hand instead of the Ramsch (nothing was bid)")
            yield Label(title, id="declare-title")
            yield Static(self.hand_text(), id="declare-hand")
            with Horizontal(id="declare-body"):
                with RadioSet(id="games"):
                    for i, game in enumerate(GAME_ORDER):
                        yield RadioButton(f"{i + 1} {game_label(game, self.german)}", id=f"game-{game.name}",
                                          value=game == self.game)
                with Vertical(id="flags"):
                    yield Checkbox("Hand", value=self.hand, disabled=True, id="flag-hand", compact=True)
                    for name in FLAGS:
                        yield Checkbox(f"{name.capitalize()} ({FLAG_KEYS[name]})", id=f"flag-{name}", compact=True)
            yield Static("", id="declare-reason")
            with Horizontal(classes="buttons"):
                yield Button("Declare (Enter)", id="declare", variant="primary", compact=True)
                yield Button("Back (Esc)", id="cancel", compact=True)

    @property
    def declarer_cards(self) -> int:
        """The cards the matadors are counted from: the hand and the skat put away
        (in a hand game the skat is unknown: only the hand)."""
        seat = self.seat
        return self.state.hands[seat] | (self.state.discard if self.state.skat_taken else 0)

    def hand_text(self) -> Text:
        state = self.state
        text = Text("Hand  ")
        text.append_text(cards_text(sorted_cards(state.hands[self.seat], GameType.GRAND), self.german))
        if state.skat_taken and state.discard:
            text.append("  put away ")
            text.append_text(cards_text(list(cards_of(state.discard)), self.german))
        return text

    def on_mount(self) -> None:
        self.refresh_choices()
        self.query_one(RadioSet).focus()

    # --- the current choice ---------------------------------------------

    def declaration(self, game: GameType | None = None, **changes: bool) -> Declaration:
        flags = {**self.flags, **changes}
        game = self.game if game is None else game
        if game == GameType.NULL:
            return Declaration(game, hand=self.hand, ouvert=flags["ouvert"])
        return Declaration(game, hand=self.hand, schneider=flags["schneider"] or flags["schwarz"],
                           schwarz=flags["schwarz"], ouvert=flags["ouvert"])

    def problem(self, decl: Declaration) -> str | None:
        return self.state.declaration_problem(decl, self.german)

    def refresh_choices(self) -> None:
        """Disable what the engine forbids and say why."""
        for i, game in enumerate(GAME_ORDER):
            button = self.query_one(f"#game-{game.name}", RadioButton)
            # A game is offered if it is legal without announcements.
            reason = self.problem(Declaration(game, hand=self.hand))
            button.disabled = reason is not None
            button.tooltip = reason
            value_text, value = value_at_bid(self.declaration(game=game), self.declarer_cards, self.state.bid)
            warning = f" ⚠ overbid" if value < self.state.bid and reason is None else ""
            label = f"{i + 1} {game_label(game, self.german)}"
            button.label = f"{label:<10} {value_text}{warning}" if reason is None else label
        for name in FLAGS:
            box = self.query_one(f"#flag-{name}", Checkbox)
            reason = None if self.flags[name] else self.problem(self.declaration(**{name: True}))
            box.disabled = reason is not None
            box.tooltip = reason
            implied = self.game != GameType.NULL and (
                (name == "schneider" and (self.flags["schwarz"] or self.flags["ouvert"]))
                or (name == "schwarz" and self.flags["ouvert"])
            )
            with box.prevent(Checkbox.Changed):
                box.value = self.flags[name] or implied
        decl = self.declaration()
        problem = self.problem(decl)
        reasons = [f"{name}: {box.tooltip}" for name in FLAGS
                   if (box := self.query_one(f"#flag-{name}", Checkbox)).disabled and box.tooltip]
        summary = f"✗ {problem}" if problem else f"✓ {decl.describe(self.german)}"
        if self.hand and decl.game != GameType.NULL:
            # the skat counts for the matadors, and a hand game has not seen it
            summary += " · values if the skat does not change the matadors"
        if reasons and not problem:
            summary += "\n" + "\n".join(f"  ({r})" for r in reasons)
        self.query_one("#declare-reason", Static).update(summary)
        self.query_one("#declare", Button).disabled = problem is not None

    # --- events -------------------------------------------------------------

    def on_radio_set_changed(self, event: RadioSet.Changed) -> None:
        self.game = GAME_ORDER[event.index]
        if self.game == GameType.NULL:
            self.flags["schneider"] = self.flags["schwarz"] = False
        self.refresh_choices()

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        name = (event.checkbox.id or "").removeprefix("flag-")
        if name in self.flags:
            self.flags[name] = event.value
            self.refresh_choices()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "declare":
            self.action_declare()
        else:
            self.action_cancel()

    def action_choose_game(self, index: int) -> None:
        button = self.query_one(f"#game-{GAME_ORDER[index].name}", RadioButton)
        if button.disabled:
            self.notify(f"{game_label(GAME_ORDER[index], self.german)}: {button.tooltip}", severity="warning")
            return
        button.value = True

    def action_toggle_flag(self, name: str) -> None:
        box = self.query_one(f"#flag-{name}", Checkbox)
        if box.disabled:
            self.notify(f"{name.capitalize()}: {box.tooltip}", severity="warning")
            return
        box.value = not self.flags[name]

    def action_declare(self) -> None:
        decl = self.declaration()
        problem = self.problem(decl)
        if problem:
            self.notify(problem, severity="error")
            return
        self.dismiss(decl)

    def action_cancel(self) -> None:
        self.dismiss(None)
