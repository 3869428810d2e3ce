"""Cards on screen: styled labels, the card widget, and the hand row."""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.events import Click
from textual.widgets import Static

from engine.cards import Card, Mask, Suit

from ..messages import CardClicked

# Four-colour deck (as in German tournaments), so ♣/♠ and ♥/♦ differ at a glance.
SUIT_COLOURS = {Suit.CLUBS: "#1a1a1a", Suit.SPADES: "#187a2f", Suit.HEARTS: "#c8102e", Suit.DIAMONDS: "#d97706"}
FACE_STYLE = Style(bgcolor="#f4f1e8", bold=True)
BACK_STYLE = Style(color="#2b4c9c")


def card_label(card: Card, german: bool = False) -> str:
    return card.unicode(german)


def card_text(card: Card, german: bool = False, width: int = 0) -> Text:
    """The card as ``♣10`` in its suit colour on a card-white face."""
    label = card_label(card, german)
    text = Text(label.ljust(width) if width else label, style=FACE_STYLE + Style(color=SUIT_COLOURS[card.suit]))
    return text


def cards_text(cards: Sequence[Card], german: bool = False, separator: str = " ") -> Text:
    text = Text()
    for i, card in enumerate(cards):
        if i:
            text.append(separator)
        text.append_text(card_text(card, german))
    return text


def backs_text(count: int) -> Text:
    """Face-down cards: one block per card."""
    return Text("▆" * count, style=BACK_STYLE)


class CardWidget(Static):
    """One card of the player's hand; a click posts CardClicked."""

    DEFAULT_CSS = """
    CardWidget {
        width: 5;
        height: 3;
        border: round $foreground 40%;
        background: #f4f1e8;
        content-align: center middle;
        margin: 0 0 0 0;
    }
    CardWidget.legal { border: round $success; }
    CardWidget.illegal { opacity: 60%; border: round $foreground 20%; }
    CardWidget.cursor { border: heavy $accent; }
    CardWidget.selected { offset: 0 -1; border: heavy $warning; }
    """

    def __init__(self, index: int) -> None:
        super().__init__("", id=f"card-{index}")
        self.index = index
        self.card: Card | None = None

    def show_card(self, card: Card, german: bool) -> None:
        self.card = card
        self.update(card_text(card, german))

    def on_click(self, event: Click) -> None:
        if self.card is not None:
            self.post_message(CardClicked(self.card))


class HandRow(Horizontal):
    """The hand in display order; legal cards marked, one card under the cursor.

    A fixed pool of card widgets is updated in place (no remounting), so
    redrawing after every move is cheap and never flickers.
    """

    DEFAULT_CSS = """
    HandRow { height: 4; width: 100%; align: center bottom; padding-top: 1; }
    """
    MAX_CARDS = 12

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.cards: list[Card] = []
        self.cursor = 0
        self.legal: Mask | None = None

    def compose(self) -> ComposeResult:
        for i in range(self.MAX_CARDS):
            yield CardWidget(i)

    def show(self, cards: Sequence[Card], *, german: bool = False, legal: Mask | None = None,
             selected: Mask = 0, cursor: int | None = None) -> None:
        """Show ``cards``; ``legal`` None means no card is playable now (not our turn)."""
        self.cards = list(cards)
        self.legal = legal
        if cursor is not None:
            self.cursor = cursor
        self.cursor = max(0, min(self.cursor, len(self.cards) - 1))
        if not self._playable(self.cursor):
            self.move_cursor(1)  # never rest on a card the engine would refuse
        for widget in self.query(CardWidget):
            i = widget.index
            if i >= len(self.cards):
                widget.display = False
                widget.card = None
                continue
            card = self.cards[i]
            widget.display = True
            widget.show_card(card, german)
            widget.set_class(legal is not None and bool(legal >> card & 1), "legal")
            widget.set_class(legal is not None and not legal >> card & 1, "illegal")
            widget.set_class(legal is not None and i == self.cursor, "cursor")
            widget.set_class(bool(selected >> card & 1), "selected")

    def _playable(self, index: int) -> bool:
        if not self.legal or not 0 <= index < len(self.cards):
            return True  # nothing is playable now, or no hand: any place will do
        return bool(self.legal >> self.cards[index] & 1)

    def move_cursor(self, delta: int) -> None:
        """Step to the next card in ``delta``'s direction that may be played
        (the engine's legal cards); with none known, to the next card."""
        for _ in range(len(self.cards)):
            self.cursor = (self.cursor + delta) % len(self.cards)
            if self._playable(self.cursor):
                return

    @property
    def card_at_cursor(self) -> Card | None:
        return self.cards[self.cursor] if self.cards else None

    def card_at(self, index: int) -> Card | None:
        return self.cards[index] if 0 <= index < len(self.cards) else None

    def labels(self) -> list[str]:
        """The shown cards as plain labels (for tests and screen readers)."""
        return [w.card.unicode() for w in self.query(CardWidget) if w.display and w.card is not None]
