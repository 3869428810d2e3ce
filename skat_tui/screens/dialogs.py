"""Small modal screens: confirm, keys help, result, score sheet, game picker."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, OptionList, Static
from textual.widgets.option_list import Option

from engine.cards import CardSet
from engine.game import GameState
from engine.scoring import RAMSCH_DURCHMARSCH_VALUE, GameEnd, GameResult, RamschResult
from engine.series import GAMES_PER_ROUND, RoundGame, Series, bock_events

from ..widgets.score_sheet import ScoreSheet, bock_game_number, score_legend
from ..words import objective, sentence, verb


class ConfirmScreen(ModalScreen[bool]):
    """Yes/no question; y/Enter confirm, n/Escape decline."""

    BINDINGS = [
        Binding("y,enter", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.question, id="question")
            with Horizontal(classes="buttons"):
                yield Button("Yes (y)", id="yes", variant="primary")
                yield Button("No (n)", id="no")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)


class HelpScreen(ModalScreen[None]):
    """Every key binding of the screen underneath, grouped."""

    BINDINGS = [Binding("escape,q,question_mark", "close", "Close")]

    def __init__(self, groups: Sequence[tuple[str, Sequence[tuple[str, str]]]]) -> None:
        super().__init__()
        self.groups = groups

    def compose(self) -> ComposeResult:
        text = Text()
        # The widest key sets the column, so a long one never runs into its description.
        width = max((len(key) for _, keys in self.groups for key, _ in keys), default=0) + 2
        for title, keys in self.groups:
            text.append(f"{title}\n", style="bold underline")
            for key, description in keys:
                text.append(f"  {key:<{width}}", style="bold cyan")
                text.append(f"{description}\n")
            text.append("\n")
        text.append("Ctrl+P opens the command palette. Escape closes this list.", style="dim")
        with VerticalScroll(classes="dialog wide"):
            yield Static(text, id="help-text")

    def action_close(self) -> None:
        self.dismiss(None)


def _joined(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def ramsch_lines(result: RamschResult, names: Sequence[str]) -> list[str]:
    """A Ramsch's result in words: who lost (or won by Durchmarsch), each player's card
    points and tricks, the skat, each doubling (pushes, Jungfrau), and the scores."""
    points = " · ".join(f"{names[s]} {result.points[s]} ({result.tricks[s]} trick{'s' * (result.tricks[s] != 1)})"
                        for s in range(3))
    if result.durchmarsch is not None:
        winner = names[result.durchmarsch]
        head = f"Ramsch: {winner} took every trick (Durchmarsch) and {verb(winner, 'wins')}."
    else:
        losers = [names[s] for s in result.losers]
        head = f"Ramsch: {sentence(losers[0], 'loses') if len(losers) == 1 else _joined(losers) + ' lose'}."
    lines = [head, f"Card points: {points}",
             f"The skat went to {objective(names[result.skat_to])} with the last trick and counts for "
             f"{objective(names[result.skat_to], 'them')}."]
    if result.durchmarsch is not None:
        lines.append("Durchmarsch: one player took all ten tricks and wins 120; nobody loses.")
    else:
        most = result.points[result.losers[0]]
        if len(result.losers) > 1:
            lines.append(f"Tie: {_joined([names[s] for s in result.losers])} share the most card points ({most}); "
                         "each loses them.")
        else:
            loser = names[result.losers[0]]
            lines.append(f"{sentence(loser, 'has the most card points')} and {verb(loser, 'loses')} them: {most}.")
        if result.jungfrau is not None:
            lines.append(f"Jungfrau: {names[result.jungfrau]} took no trick, which doubles the loss.")
    pushes = sum(1 for name, _ in result.multipliers if name == "pushed")
    if pushes:
        lines.append(f"Schieben: the skat was pushed on unseen {pushes}× — each push doubles.")
    if result.multiplier > 1:
        base = RAMSCH_DURCHMARSCH_VALUE if result.durchmarsch is not None else result.points[result.losers[0]]
        steps = " × ".join(str(factor) for _, factor in result.multipliers)
        lines.append(f"Value: {base} × {steps} = {base * result.multiplier}")
    lines.append("Score (plain and Seeger-Fabian alike): "
                 + ", ".join(f"{names[s]} {v:+d}" for s, v in enumerate(result.values) if v))
    return lines


def result_lines(result: GameResult | RamschResult | None, names: Sequence[str], german: bool = False) -> list[str]:
    """The game's result in words: card points, matadors, each multiplier, value, overbid."""
    if result is None:
        return ["All three passed: the game is passed in."]
    if isinstance(result, RamschResult):
        return ramsch_lines(result, names)
    who = names[result.declarer]
    outcome = "won" if result.won else "lost"
    lines = [f"{who} played {result.declaration.describe(german)} and {outcome}."]
    if result.end.early:
        lines.append(f"The game ended early: {result.end.replace('_', ' ')}.")
    lines.append(f"Bid {result.bid} · card points: declarer {result.declarer_points}, "
                 f"defenders {result.defender_points} · tricks {result.declarer_tricks}:{result.defender_tricks}")
    if result.declaration.game.name == "NULL":
        lines.append(f"Null game: fixed value {result.game_value}")
    else:
        mats = result.matadors
        lines.append(f"Matadors: {'with' if mats > 0 else 'without'} {abs(mats)}")
        # 'without 1 → 1, game +1, schneider +1 = 3': the matadors give the start, each step adds.
        (first, first_count), *rest = result.multipliers
        steps = ", ".join([f"{first} → {first_count}"] + [f"{name} +{count}" for name, count in rest])
        lines.append(f"Multiplier: {steps} = {result.multiplier}")
        base = result.declaration.game.base_value
        lines.append(f"Game value: {result.multiplier} × {base} = {result.multiplier * base}")
        if result.schneider or result.schwarz:
            lines.append("Schwarz" if result.schwarz else "Schneider")
    if result.doublings:
        said = " and ".join(f"Kontra ({names[result.kontra]})" if call == "Kontra" else call
                            for call in result.doublings)
        factor = 2 ** len(result.doublings)
        lines.append(f"{said}: {'each doubles' if factor > 2 else 'doubles'} the game value: "
                     f"{result.undoubled_value} × {factor} = {result.game_value}")
    if result.overbid:
        lines.append(f"Overbid: the game does not reach the bid of {result.bid}; "
                     f"it counts as lost at {result.game_value}.")
    lines.append(f"Score: {who} {result.value:+d} (plain); Seeger-Fabian "
                 + ", ".join(f"{names[s]} {v:+d}" for s, v in enumerate(result.seeger_fabian()) if v))
    return lines


def series_lines(series: Series) -> list[str]:
    """What the series makes of its last game: a Bock game counted double (with the list
    entries), and the Bock events that bring a Bock round."""
    if not series.entries or not series.rules.bock:
        return []
    entry = series.entries[-1]
    lines = []
    if entry.bock:
        plain, sf = entry.scores(series.table_size)
        def signed(n: int) -> str:
            return f"{n:+d}" if n else "0"
        on_lists = ", ".join(f"{name} {signed(p)} ({signed(s)})" for name, p, s in zip(series.names, plain, sf)
                             if p or s)
        lines.append(f"Bock game {bock_game_number(series, len(series.entries) - 1)}/{GAMES_PER_ROUND}: both lists "
                     f"count it double (the Seeger-Fabian fixed points once): {on_lists or 'nothing'}")
    events = bock_events(entry.result)
    if events:
        bock_due = sum(1 for game in series.coming_games if game == RoundGame.BOCK)
        lines.append(f"Bock event ({', '.join(events)}): a round of {GAMES_PER_ROUND} Bock games "
                     f"follows{' the ones already due' if bock_due > GAMES_PER_ROUND else ''}.")
    return lines


def skat_line(state: GameState, names: Sequence[str], german: bool = False) -> str:
    """What became of the skat; public once the game is over, so shown for anyone's game."""
    if state.deal is None:
        return ""  # a seat's view does not know the skat
    skat = CardSet(state.deal.skat).unicode(german)
    if state.is_ramsch:
        if state.skat == state.deal.skat:
            return f"Skat: {skat}."
        return f"Skat at the end: {CardSet(state.skat).unicode(german)} (dealt: {skat}; the pick-ups changed it)."
    if state.declarer is None:
        return f"Skat: {skat} (nobody played)."
    who = names[state.declarer]
    if state.skat_taken:
        return f"Skat: {who} picked up {skat} and put away {CardSet(state.discard).unicode(german)}."
    return f"Skat: {skat} (hand game, not picked up; it counts for {who})."


def ending_lines(state: GameState, names: Sequence[str], german: bool = False) -> list[str]:
    """How a finished game ended: its scored result, or why there is none
    (passed in, or a player left before a game was declared)."""
    outcome = state.outcome()
    if outcome is not None and outcome.result is not None:
        return result_lines(outcome.result, names, german)
    if outcome is not None and outcome.left_seat is not None:
        how = "left the table" if outcome.end == GameEnd.LEFT else "ran out of time"
        bid = f" (bid {state.bid})" if state.bid else ""
        return [f"{names[outcome.left_seat]} {how} before a game was declared{bid}: the game is not scored."]
    return result_lines(None, names, german)


class ResultScreen(ModalScreen[None]):
    """After a game: the result in full, then the score sheet; Enter deals the next game."""

    BINDINGS = [Binding("enter,n,escape", "close", "Next game", priority=True)]

    def __init__(self, result: GameResult | None, names: Sequence[str], series: Series,
                 german: bool = False, skat: str = "", cards_shown: Collection[int] = ()) -> None:
        super().__init__()
        self.result, self.names, self.series, self.german = result, names, series, german
        self.cards_shown = cards_shown
        self.skat = skat
        """The skat line (see ``skat_line``), shown after the result."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide", id="result-dialog"):
            lines = result_lines(self.result, self.names, self.german) + series_lines(self.series)
            if len(self.series.entries) - 1 in self.cards_shown:
                lines.append("You saw the computers' cards in this game: it is marked * on the score sheet "
                             "and in its record.")
            text = Text("\n".join(lines + [self.skat] if self.skat else lines))
            if isinstance(self.result, RamschResult):
                text.stylize("bold yellow", 0, len(text.plain.split("\n")[0]))
            elif self.result is not None:
                text.stylize("bold green" if self.result.won else "bold red", 0, len(text.plain.split("\n")[0]))
            yield Static(text, id="result-text")
            yield ScoreSheet(self.series, self.cards_shown, id="result-scores")
            yield Button("Next game (Enter)", id="next", variant="primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)


class ScoreSheetScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,t,q", "close", "Close")]

    def __init__(self, series: Series, cards_shown: Collection[int] = ()) -> None:
        super().__init__()
        self.series = series
        self.cards_shown = cards_shown

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide", id="sheet-dialog"):
            legend = score_legend(self.series, self.cards_shown)
            yield Label("Score sheet: plain scores, Seeger-Fabian (SF) in brackets · ↑/↓ scroll · Esc closes"
                        + (f"\n{legend}" if legend else ""))
            yield ScoreSheet(self.series, self.cards_shown, id="score-sheet")

    def on_mount(self) -> None:
        self.query_one(ScoreSheet).focus()

    def action_close(self) -> None:
        self.dismiss(None)


class GamePickerScreen(ModalScreen[int | None]):
    """Pick a recorded game to replay."""

    BINDINGS = [Binding("escape", "close", "Cancel")]

    def __init__(self, titles: Iterable[str], current: int = 0) -> None:
        super().__init__()
        self.titles = list(titles)
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Label(f"{len(self.titles)} games — Enter opens one")
            yield OptionList(*(Option(t, id=str(i)) for i, t in enumerate(self.titles)), id="game-list")

    def on_mount(self) -> None:
        games = self.query_one(OptionList)
        games.highlighted = self.current
        games.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(int(event.option.id))

    def action_close(self) -> None:
        self.dismiss(None)
