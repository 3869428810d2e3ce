"""The table: seats around the current trick, the game line, and the hand.

``TableView.show()`` draws any ``GameState`` (a full state or one seat's view)
from the chair of ``south_seat``; the live table and the replay both use it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Static

from engine.cards import Card, cards_of
from engine.game import Bid, Declare, Discard, GameState, Hold, Pass, Phase, PickUp, Play, Push, Trick, describe
from engine.rules import SEAT_NAMES, sorted_cards

from .cards import HandRow, backs_text, card_text, cards_text


def points_and_tricks(points: int, tricks: int) -> str:
    return f"{points} point{'' if points == 1 else 's'}, {tricks} trick{'' if tricks == 1 else 's'}"


def last_trick_text(state: GameState, names: tuple[str, str, str], german: bool = False) -> Text:
    """'Last trick · West took 14', then each card in the order played with who played it."""
    text = Text("Last trick", style="bold")
    if not state.tricks:
        text.append("\nnone yet", style="dim")
        return text
    last = state.tricks[-1]
    text.append(f"\n{names[last.winner]} took {last.points}\n", style="dim")
    for i, card in enumerate(last.cards):
        seat = (last.leader + i) % 3
        text.append(f"{names[seat]:<6} ")
        text.append_text(card_text(card, german))
        text.append("\n")
    text.rstrip()
    return text


def ramsch_skat_lines(state: GameState, names: Sequence[str]) -> list[str]:
    """The Ramsch skat round so far: 'You: pushed the skat on unseen', 'West: took the skat, put
    two cards back' (which two, no seat is told)."""
    lines: list[str] = []
    for seat, move in state.moves[len(state.bid_history):]:
        if isinstance(move, Play):
            break
        if not isinstance(move, (Push, PickUp, Discard, Pass, Declare)):
            continue
        said = describe(Discard(None) if isinstance(move, Discard) else move, mood="past", skat_round=True)
        if isinstance(move, Discard) and lines and lines[-1].startswith(f"{names[seat]}: "):
            lines[-1] += f", {said}"
        else:
            lines.append(f"{names[seat]}: {said}")
    return lines


def calls_said(state: GameState, names: Sequence[str]) -> list[str]:
    """The house rule's doublings said in this game: 'Kontra (West)', 'Re'."""
    if state.kontra is None:
        return []
    return [f"Kontra ({names[state.kontra]})"] + ["Re"] * bool(state.re)


def bidding_lines(state: GameState, names: tuple[str, str, str]) -> list[str]:
    """What has been said, in order: 'West: 18', 'You: yes', 'East: pass'."""
    lines = []
    bid = 0
    for seat, move in state.bid_history:
        if isinstance(move, Bid):
            bid = move.value
            lines.append(f"{names[seat]}: {move.value}")
        elif isinstance(move, Hold):
            lines.append(f"{names[seat]}: yes ({bid})")
        elif isinstance(move, Pass):
            lines.append(f"{names[seat]}: pass")
    return lines


def last_statement(state: GameState, seat: int) -> str:
    bid = 0
    said = ""
    for who, move in state.bid_history:
        if isinstance(move, Bid):
            bid = move.value
            if who == seat:
                said = f"bid {move.value}"
        elif who == seat:
            said = f"yes {bid}" if isinstance(move, Hold) else "passed"
    return said


@dataclass
class SeatLook:
    """What a seat panel shows."""

    name: str
    role: str
    hand: list[Card] | None
    """Face-up cards, or None when they are face down."""
    count: int
    said: str = ""
    declarer: str = ""
    points: int | None = None
    tricks: int = 0
    to_move: bool = False
    thinking: str = ""
    player: str = ""
    marks: list[str] = field(default_factory=list)

    def standing(self) -> list[tuple[str, str]]:
        """The seat's part in this game, each with its style: the game it plays or
        its last word in the bidding, then its card points and tricks."""
        parts = []
        if self.declarer:
            parts.append((f"plays {self.declarer}", "bold yellow"))
        elif self.said:
            parts.append((self.said, ""))
        if self.points is not None:
            parts.append((points_and_tricks(self.points, self.tricks), "dim"))
        return parts


class SeatPanel(Static):
    """An opponent's seat: name, role, cards (face down unless open), what it said."""

    DEFAULT_CSS = """
    SeatPanel { width: 24; height: 100%; padding: 0 1; border: round $foreground 30%; }
    SeatPanel.to-move { border: round $accent; }
    SeatPanel.declarer { border-title-color: $warning; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__("", **kwargs)
        self.look: SeatLook | None = None
        self.german = False

    def set_look(self, look: SeatLook, german: bool) -> None:
        self.look, self.german = look, german
        self.border_title = look.name
        self.border_subtitle = look.player
        self.set_class(look.to_move, "to-move")
        self.set_class(bool(look.declarer), "declarer")
        self.refresh()

    def set_thinking(self, text: str) -> None:
        if self.look is not None and self.look.thinking != text:
            self.look.thinking = text
            self.refresh()

    def render(self) -> RenderableType:
        look = self.look
        if look is None:
            return ""
        text = Text()
        text.append(look.role, style="italic")
        for mark in look.marks:
            text.append(f" · {mark}", style="dim")
        text.append("\n")
        if look.hand is not None:
            width = max(1, self.content_size.width)
            line_len = 0
            for card in look.hand:
                label_len = len(card.unicode(self.german)) + 1
                if line_len and line_len + label_len > width:
                    text.append("\n")
                    line_len = 0
                text.append_text(card_text(card, self.german))
                text.append(" ")
                line_len += label_len
            text.append("\n")
        else:
            if look.count:
                text.append_text(backs_text(look.count))
                text.append(f" {look.count}\n", style="dim")
            else:
                text.append("no cards left\n", style="dim")
        for words, style in look.standing():
            text.append(f"{words}\n", style=style)
        if look.thinking:
            text.append(look.thinking, style="bold cyan")
        elif look.to_move:
            text.append("to move", style="bold cyan")
        text.rstrip()  # a seat as tall as its content has no empty last line
        return text

    def plain(self) -> str:
        return self.render().plain if self.look else ""


@dataclass
class TrickLook:
    title: str
    cards: dict[str, Card]
    """Card by spot: 'south', 'west', 'east'."""
    dim: bool = False
    lines: list[str] = field(default_factory=list)
    """Text shown instead of cards (bidding, skat decision)."""


def _big_box(card: Card | None, german: bool) -> list[Text]:
    """A card seven wide and five tall, for big terminals."""
    if card is None:
        return [Text(" " * 7)] * 5
    face = card_text(card, german, width=3)
    blank = Text("│     │")
    middle = Text("│ ")
    middle.append_text(face)
    middle.append(" │")
    return [Text("╭─────╮"), blank, middle, blank, Text("╰─────╯")]


def _box(card: Card | None, german: bool, big: bool = False) -> list[Text]:
    if big:
        return _big_box(card, german)
    if card is None:
        return [Text(" " * 5)] * 3
    label = card.unicode(german)
    face = card_text(card, german, width=3)
    middle = Text("│")
    middle.append_text(face if len(label) <= 3 else card_text(card, german))
    middle.append("│")
    return [Text("╭───╮"), middle, Text("╰───╯")]


def is_big(widget: Widget) -> bool:
    """Whether the screen is big enough for big cards and the side panels (140×40 and more)."""
    return widget.screen.has_class("-wide", "-tall")


class SidePanel(Static):
    """Beside the trick on a big terminal: the last trick, or the score of the series."""

    DEFAULT_CSS = """
    SidePanel { display: none; width: 24; height: auto; padding: 0 1; margin-top: 1;
                border: round $foreground 30%; }
    """


class TrickArea(Static):
    """The middle of the table: the trick with each card in front of its seat."""

    DEFAULT_CSS = """
    TrickArea { width: 1fr; height: 100%; padding: 0 1; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__("", **kwargs)
        self.look = TrickLook("", {})
        self.german = False

    def set_look(self, look: TrickLook, german: bool) -> None:
        self.look, self.german = look, german
        self.refresh()

    def render(self) -> RenderableType:
        look = self.look
        width = max(20, self.content_size.width)
        out = Text(look.title, style="bold")
        out.append("\n")
        if look.lines:
            for line in look.lines[-max(1, self.content_size.height - 1):]:
                out.append(line + "\n")
            return out
        # Big terminals get big cards, and the trick sits in the middle of the table; the
        # same rule as the hand's cards (the screen's -wide and -tall classes), so the two match.
        height = self.content_size.height
        big = is_big(self)
        card_width = 7 if big else 5
        west, east, south = (_box(look.cards.get(s), self.german, big) for s in ("west", "east", "south"))
        gap = max(1, width - card_width * 2 - 4)
        rows = [Text("")] * max(1, (height - 1 - 2 * len(west)) // 2 if big else 1)
        for w_line, e_line in zip(west, east):
            row = Text("  ")
            row.append_text(w_line)
            row.append(" " * gap)
            row.append_text(e_line)
            rows.append(row)
        pad = " " * max(0, (width - card_width) // 2)
        for s_line in south:
            row = Text(pad)
            row.append_text(s_line)
            rows.append(row)
        for row in rows:
            if look.dim:
                row.stylize("dim")
            out.append_text(row)
            out.append("\n")
        return out

    def plain(self) -> str:
        return self.render().plain


class InfoBar(Static):
    """The header line: the full one where it fits, else a shorter one, so it never wraps."""

    DEFAULT_CSS = """
    InfoBar { height: 1; width: 100%; padding: 0 1; background: $panel; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.lines: tuple[Text, Text] = (Text(), Text())

    def show_lines(self, full: Text, short: Text) -> None:
        self.lines = (full, short)
        self._fit()

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        full, short = self.lines
        room = self.content_size.width or 10**6  # before the first layout: the full line
        self.update(full if full.cell_len <= room else short)

    def plain(self) -> str:
        return str(self.render())


class TableView(Widget):
    """Seats West and East beside the trick, you (or the viewed seat) south."""

    DEFAULT_CSS = """
    TableView { height: 1fr; width: 100%; layout: vertical; }
    TableView #middle { height: 1fr; min-height: 8; }
    TableView .seat-column { width: 24; height: 100%; }
    TableView #south-area { height: auto; }
    TableView #south { height: 1; padding: 0 1; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.show_last_trick = False

    def toggle_last_trick(self) -> None:
        """Show the last trick in place of the current one, or the current one again."""
        self.show_last_trick = not self.show_last_trick

    def compose(self) -> ComposeResult:
        yield InfoBar(id="info")
        with Horizontal(id="middle"):
            with Vertical(classes="seat-column"):
                yield SeatPanel(id="seat-west")
                yield SidePanel(id="side-last-trick")
            yield TrickArea(id="trick")
            with Vertical(classes="seat-column"):
                yield SeatPanel(id="seat-east")
                yield SidePanel(id="side-score")
        with Vertical(id="south-area"):
            yield Static(id="south")
            yield HandRow(id="hand")

    # ------------------------------------------------------------------

    def show(
        self,
        state: GameState,
        south_seat: int,
        names: tuple[str, str, str],
        *,
        german: bool = False,
        open_hands: bool = False,
        players: tuple[str, str, str] = ("", "", ""),
        info_prefix: str = "",
        info_short_prefix: str | None = None,
        legal: int | None = None,
        selected: int = 0,
        thinking: dict[int, str] | None = None,
        scores: Text | None = None,
    ) -> None:
        """Draw ``state`` with ``south_seat`` at the bottom (West plays after South).

        ``open_hands`` shows every hand the state knows face up (replay);
        otherwise only south's own hand and an ouvert declarer's hand.
        ``scores`` (the series so far) and the last trick sit beside the trick on a big terminal.
        """
        thinking = thinking or {}
        west_seat, east_seat = (south_seat + 1) % 3, (south_seat + 2) % 3
        spots = {south_seat: "south", west_seat: "west", east_seat: "east"}
        in_play = state.phase in (Phase.PLAY, Phase.FINISHED)

        def look(seat: int) -> SeatLook:
            known = state.hands[seat]
            face_up = (open_hands or seat == south_seat or (state.revealed and seat == state.declarer))
            face_up = face_up and known.bit_count() == state.hand_sizes[seat]
            marks = ["dealer"] if seat == 2 else []
            return SeatLook(
                name=names[seat],
                role=SEAT_NAMES[seat],
                hand=sorted_cards(known, state.game) if face_up else None,
                count=state.hand_sizes[seat],
                said=last_statement(state, seat),
                declarer=state.declaration.describe(german)
                if state.declaration and seat == state.declarer else "",
                points=state.points[seat] if in_play else None,
                tricks=state.trick_counts[seat],
                to_move=state.to_move == seat,
                thinking=thinking.get(seat, ""),
                player=players[seat],
                marks=marks,
            )

        self.query_one("#seat-west", SeatPanel).set_look(look(west_seat), german)
        self.query_one("#seat-east", SeatPanel).set_look(look(east_seat), german)
        south = look(south_seat)
        south_line = Text(f"{south.name} · {south.role}", style="bold")
        for mark in south.marks:
            south_line.append(f" · {mark}")
        for words, style in south.standing():
            south_line.append(f" · {words}", style=style)
        if south.thinking:
            south_line.append(f" · {south.thinking}", style="bold cyan")
        self.query_one("#south", Static).update(south_line)
        hand_cards = south.hand if south.hand is not None else []
        self.query_one(HandRow).show(hand_cards, german=german, legal=legal, selected=selected)

        self.query_one("#trick", TrickArea).set_look(self._trick_look(state, names, spots), german)
        self.query_one("#side-last-trick", SidePanel).update(last_trick_text(state, names, german))
        side_score = self.query_one("#side-score", SidePanel)
        side_score.update(scores or "")
        side_score.set_class(scores is not None, "has-scores")
        short_prefix = info_prefix if info_short_prefix is None else info_short_prefix
        self.query_one(InfoBar).show_lines(self._info(state, names, german, info_prefix),
                                           self._info(state, names, german, short_prefix, short=True))

    def _trick_look(self, state: GameState, names, spots: dict[int, str]) -> TrickLook:
        if state.phase in (Phase.RAMSCH_SKAT, Phase.RAMSCH_DISCARD):
            lines = ramsch_skat_lines(state, names)
            who = names[state.to_move]
            lines.append(f"… {who} to {'put two cards back' if state.phase == Phase.RAMSCH_DISCARD else 'decide'}")
            return TrickLook("Ramsch: all three passed", {}, lines=lines)
        if state.phase == Phase.BIDDING or (state.phase == Phase.PASSED):
            lines = bidding_lines(state, names)
            title = "Passed in: all three passed" if state.phase == Phase.PASSED else "Bidding"
            if state.phase == Phase.BIDDING and state.to_move is not None:
                lines.append(f"… {names[state.to_move]} to {'answer' if state.awaiting_listener else 'bid'}")
            return TrickLook(title, {}, lines=lines or ["(nothing said yet)"])
        if state.phase in (Phase.SKAT, Phase.DISCARD, Phase.DECLARE):
            who = names[state.declarer]
            # "… X to bid" as in the bidding: no verb to agree with "You"
            action = {Phase.SKAT: "take the skat or play hand", Phase.DISCARD: "discard two cards",
                      Phase.DECLARE: "declare the game"}[state.phase]
            return TrickLook(f"{who} won the bidding at {state.bid}", {}, lines=[f"… {who} to {action}"])

        def cards_of_trick(trick_cards, leader) -> dict[str, Card]:
            return {spots[(leader + i) % 3]: card for i, card in enumerate(trick_cards)}

        last: Trick | None = state.tricks[-1] if state.tricks else None
        if self.show_last_trick:
            if last is None:
                return TrickLook("Last trick: none yet", {})
            return TrickLook(f"Last trick: {names[last.winner]} took {last.points}",
                             cards_of_trick(last.cards, last.leader))
        if state.trick:
            number = len(state.tricks) + 1
            return TrickLook(f"Trick {number} · {names[state.leader]} led", cards_of_trick(state.trick, state.leader))
        if last is not None:
            # The finished trick stays in view until the next lead, so no card flashes past.
            title = f"Trick {len(state.tricks)}: {names[last.winner]} took {last.points}"
            if state.phase == Phase.PLAY:
                title += f" · {names[state.leader]} to lead"
            return TrickLook(title, cards_of_trick(last.cards, last.leader), dim=True)
        return TrickLook(f"Trick 1 · {names[state.leader]} to lead", {})

    def _info(self, state: GameState, names, german: bool, prefix: str, short: bool = False) -> Text:
        """``short``: for 80 columns, the points and the put-away cards without their words and
        the skat only until it is put away (what counts for the declarer is the discard)."""
        text = Text(prefix)
        if state.is_ramsch:
            text.append("Ramsch", style="bold yellow")
            if state.pushes:
                text.append(f" · skat pushed {state.pushes}× (×{2 ** state.pushes})")
            return text
        if state.ramsch:  # a Grand Hand instead of the Ramsch: nothing was bid
            text.append("Grand Hand instead of Ramsch")
        elif state.bid:
            text.append(f"Bid {state.bid}")
        else:
            text.append("No bid yet")
        if state.declaration is not None:
            text.append(" · ")
            text.append(f"{names[state.declarer]}: {state.declaration.describe(german)}",
                        style="bold yellow")
        elif state.declarer is not None:
            text.append(f" · declarer {names[state.declarer]}")
        for call in calls_said(state, names):
            text.append(f" · {call}", style="bold red")
        if state.declarer is not None and state.phase in (Phase.PLAY, Phase.FINISHED):
            declarer = state.points[state.declarer]
            defenders = sum(state.points) - declarer
            text.append(f" · {declarer}:{defenders}" if short else f" · points {declarer}:{defenders}")
        if state.skat_known and state.skat and state.perspective is not None and state.skat_taken:
            if not (short and state.discard):
                text.append(" · skat ")
                text.append_text(cards_text(list(cards_of(state.skat)), german))
            if state.discard:  # what now counts for the declarer
                text.append(" · away " if short else " · put away ")
                text.append_text(cards_text(list(cards_of(state.discard)), german))
        return text
