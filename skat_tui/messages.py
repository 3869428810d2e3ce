"""Messages between the AI workers, the widgets and the screens."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from engine.analysis import Analysis
from engine.cards import Card
from engine.game import Move
from engine.scoring import Declaration


@dataclass
class AnalysisUpdated(Message):
    """An AI reported a snapshot of its thinking."""

    seat: int
    analysis: Analysis
    token: int
    """Identifies the decision it belongs to, so late snapshots of an
    abandoned search are ignored."""

    def can_replace(self, message: Message) -> bool:
        # Only the newest snapshot matters; never let them pile up in the queue.
        return isinstance(message, AnalysisUpdated) and message.token == self.token


@dataclass
class MoveChosen(Message):
    seat: int
    move: Move
    analysis: Analysis | None
    token: int


@dataclass
class HintReady(Message):
    move: Move
    analysis: Analysis | None
    plan: Declaration | None = None
    """With a discard: the game the hint player means to declare (``Decision.plan``)."""


@dataclass
class CardClicked(Message):
    """A card in the hand row was clicked or chosen by key."""

    card: Card
