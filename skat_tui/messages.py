"""Messages from the widgets to the screens."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from engine.cards import Card


@dataclass
class CardClicked(Message):
    """A card in the hand row was clicked or chosen by key."""

    card: Card
