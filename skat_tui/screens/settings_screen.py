"""The settings screen: opponents, hint player, display, house rules; returns new Settings."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static, Switch

from engine.house_rules import PRESETS, SWITCH_TITLES, HouseRules

from ..rules_text import rules_label
from ..settings import (BIDDING_METHODS, EVALUATIONS, OPPONENT_KINDS, OPPONENT_NAMES, SPEC_PARAMETERS, OpponentSettings,
                        Settings, takes)

PLAYER_KEYS = ("opp0", "opp1", "hint")
"""The settings' players: West, East, the hint."""

RULE_PRESETS = [("International Skat Order", "isko"), ("Pub rules", "pub"), ("Custom", "custom")]


def _optional_float(text: str) -> float | None:
    text = text.strip()
    return float(text) if text else None


def _optional_int(text: str) -> int | None:
    text = text.strip()
    return int(text) if text else None


class SettingsScreen(ModalScreen[Settings | None]):
    """Edit and save; empty budget fields mean 'no limit of this kind'."""

    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("ctrl+s", "save", "Save")]

    def __init__(self, settings: Settings, series_rules: HouseRules | None = None) -> None:
        super().__init__()
        self.settings = settings
        self.series_rules = series_rules
        """The rules of the series at the table, which a change here does not touch."""

    def _player_rows(self, key: str, title: str, opponent: OpponentSettings) -> ComposeResult:
        # each parameter's label and field carry its name: only those the player kind takes are shown
        yield Label(title, classes="settings-title")
        with Horizontal(classes="settings-row"):
            yield Label("type", classes="settings-label")
            yield Select([(k, k) for k in OPPONENT_KINDS], value=opponent.kind, allow_blank=False,
                         id=f"{key}-kind", compact=True)
            yield Label("evaluation", classes=f"settings-label {key}-evaluation")
            yield Select([(e, e) for e in EVALUATIONS], value=opponent.evaluation, allow_blank=False,
                         id=f"{key}-evaluation", compact=True, classes=f"{key}-evaluation")
        with Horizontal(classes="settings-row", id=f"{key}-limits"):
            yield Label("seconds", classes=f"settings-label {key}-budget")
            yield Input("" if opponent.budget is None else f"{opponent.budget:g}", type="number",
                        id=f"{key}-budget", compact=True, placeholder="none", classes=f"{key}-budget")
            yield Label("simulations", classes=f"settings-label {key}-simulations")
            yield Input("" if opponent.simulations is None else str(opponent.simulations), type="integer",
                        id=f"{key}-simulations", compact=True, placeholder="none", classes=f"{key}-simulations")
            yield Label("repetitions", classes=f"settings-label {key}-repetitions")
            yield Input(str(opponent.repetitions), type="integer", id=f"{key}-repetitions", compact=True,
                        classes=f"{key}-repetitions")
        with Horizontal(classes="settings-row", id=f"{key}-bidding-row"):  # MCU and PIMC: before the card play
            yield Label("bidding", classes=f"settings-label {key}-bidding")
            yield Select([(m, m) for m in BIDDING_METHODS], value=opponent.bidding, allow_blank=False,
                         id=f"{key}-bidding", compact=True, classes=f"{key}-bidding")

    def on_mount(self) -> None:
        for key in PLAYER_KEYS:
            self._show_parameters(key)

    def _show_parameters(self, key: str) -> None:
        """Only the parameters the chosen player kind takes; a row left empty goes too."""
        kind = str(self.query_one(f"#{key}-kind", Select).value)
        for setting in SPEC_PARAMETERS:
            for widget in self.query(f".{key}-{setting}"):
                widget.display = takes(kind, setting)
        for row in (f"#{key}-limits", f"#{key}-bidding-row"):
            self.query_one(row).display = any(child.display for child in self.query_one(row).children)

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog wide", id="settings-dialog"):
            yield Label("Settings (saved to your config directory)", id="settings-heading")
            for i, name in enumerate(OPPONENT_NAMES):
                yield from self._player_rows(f"opp{i}", f"{name} opponent", self.settings.opponents[i])
            yield from self._player_rows("hint", "Hint and analysis player", self.settings.hint)
            yield Label("Display", classes="settings-title")
            with Horizontal(classes="settings-row"):
                yield Label("German names (B D K A)", classes="settings-label wide-label")
                yield Switch(self.settings.german, id="german")
            with Horizontal(classes="settings-row"):
                yield Label("least seconds per AI move", classes="settings-label wide-label")
                yield Input(f"{self.settings.ai_delay:g}", type="number", id="ai-delay", compact=True)
            with Horizontal(classes="settings-row"):
                # off by default: a game played with it on is marked as no fair game
                yield Label("show computers' cards", classes="settings-label wide-label")
                yield Switch(self.settings.show_computer_cards, id="show-computer-cards")
                yield Label("in the debug panel; the game is marked", classes="settings-note")
            yield from self._rules_rows()
            yield Static("", id="settings-error")
            with Horizontal(classes="buttons"):
                yield Button("Save (Ctrl+S)", id="save", variant="primary")
                yield Button("Cancel (Esc)", id="cancel")

    def _rules_rows(self) -> ComposeResult:
        rules = self.settings.rules
        yield Label("House rules (for the next series)", classes="settings-title")
        if self.series_rules is not None:
            yield Static(f"This series is played under {rules_label(self.series_rules)}; a change here applies "
                         "to the next series (command palette: New series).", id="rules-note")
        with Horizontal(classes="settings-row"):
            yield Label("rules", classes="settings-label")
            yield Select(RULE_PRESETS, value=rules.name, allow_blank=False, id="rules-preset", compact=True)
        for name, title in SWITCH_TITLES.items():
            with Horizontal(classes="settings-row"):
                yield Label(title[0].upper() + title[1:], classes="settings-label rules-label")
                yield Switch(getattr(rules, name), id=f"rule-{name.replace('_', '-')}")

    def _rule_switch(self, name: str) -> Switch:
        return self.query_one(f"#rule-{name.replace('_', '-')}", Switch)

    def on_select_changed(self, event: Select.Changed) -> None:
        """A player kind shows its parameters; a preset sets every switch ('custom' leaves
        them to be set one by one)."""
        key, _, field_name = (event.select.id or "").partition("-")
        if key in PLAYER_KEYS and field_name == "kind":
            self._show_parameters(key)
            return
        if event.select.id != "rules-preset" or event.value not in PRESETS:
            return
        for name, on in PRESETS[str(event.value)].to_dict().items():
            self._rule_switch(name).value = on

    def on_switch_changed(self, event: Switch.Changed) -> None:
        if not (event.switch.id or "").startswith("rule-"):
            return
        switches = {name: self._rule_switch(name).value for name in SWITCH_TITLES}
        preset = next((name for name, rules in PRESETS.items() if rules.to_dict() == switches), "custom")
        self.query_one("#rules-preset", Select).value = preset

    def _read_rules(self) -> HouseRules:
        return HouseRules(**{name: self._rule_switch(name).value for name in SWITCH_TITLES})

    def _read_player(self, key: str, before: OpponentSettings) -> OpponentSettings:
        kind = str(self.query_one(f"#{key}-kind", Select).value)
        extra = dict(before.extra) if kind == before.kind else {}  # engine parameters the dialog does not show
        extra.pop("bidding", None)
        if str(self.query_one(f"#{key}-bidding", Select).value) == "search":
            extra["bidding"] = "search"  # MCU and PIMC read it; the heuristic player has one way to bid
        return OpponentSettings(
            kind=kind,
            extra=extra,
            evaluation=str(self.query_one(f"#{key}-evaluation", Select).value),
            budget=_optional_float(self.query_one(f"#{key}-budget", Input).value),
            simulations=_optional_int(self.query_one(f"#{key}-simulations", Input).value),
            repetitions=_optional_int(self.query_one(f"#{key}-repetitions", Input).value) or 1,
        )

    def read(self) -> Settings:
        """The settings as entered; raises ValueError for values out of range."""
        settings = Settings(
            opponents=[self._read_player("opp0", self.settings.opponents[0]),
                       self._read_player("opp1", self.settings.opponents[1])],
            german=self.query_one("#german", Switch).value,
            ai_delay=_optional_float(self.query_one("#ai-delay", Input).value) or 0.0,
            hint=self._read_player("hint", self.settings.hint),
            show_computer_cards=self.query_one("#show-computer-cards", Switch).value,
            rules=self._read_rules(),  # "Schieben needs Ramsch" and the like: shown, nothing saved
        )
        for player in (*settings.opponents, settings.hint):
            player.limit()  # Limit validates the budget
            if player.repetitions < 1:
                raise ValueError("repetitions must be at least 1")
        if settings.ai_delay < 0:
            raise ValueError("the least time per AI move cannot be negative")
        settings.check()  # finite and in range, as a settings file must be
        return settings

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.action_save()
        else:
            self.action_cancel()

    def action_save(self) -> None:
        try:
            settings = self.read()
        except ValueError as exc:
            self.query_one("#settings-error", Static).update(f"✗ {exc}")
            return
        self.dismiss(settings)

    def action_cancel(self) -> None:
        self.dismiss(None)
