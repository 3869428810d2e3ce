"""Replay navigation: where we are in which recorded game, as a plain class.

Positions count applied moves: position 0 is the deal, ``len(moves)`` the end.
The position's state is kept as a ``GameState`` that is pushed and popped as
we step, so every position is what the rules make of the recorded moves.
"""

from __future__ import annotations

from collections.abc import Sequence

from .game import Move, Phase
from .record import GameRecord


class ReplayNavigator:
    """Step through recorded games by move, by trick, or to either end."""

    def __init__(self, records: Sequence[GameRecord]) -> None:
        if not records:
            raise ValueError("no games to replay")
        self.records = list(records)
        self.game_index = 0
        self.position = 0
        self.state = self.records[0].state_at(0)
        self._trick_starts: list[int] = []
        self.select(0)

    # --- which game ------------------------------------------------------

    @property
    def record(self) -> GameRecord:
        return self.records[self.game_index]

    @property
    def moves(self) -> Sequence[tuple[int, Move]]:
        return self.record.moves

    @property
    def length(self) -> int:
        return len(self.moves)

    def select(self, index: int) -> None:
        """Open game ``index`` at its start."""
        if not 0 <= index < len(self.records):
            raise IndexError(f"no game {index + 1} (there are {len(self.records)})")
        self.game_index = index
        self.state = self.record.state_at(0)
        self.position = 0
        self._trick_starts = self._find_trick_starts()

    def _find_trick_starts(self) -> list[int]:
        """Positions where a trick is about to be led (play begins or a trick was just closed)."""
        starts = [position for position, state in enumerate(self.record.positions()[:-1])
                  if state.phase == Phase.PLAY and not state.trick]
        return starts + [len(self.moves)]

    # --- stepping ----------------------------------------------------------

    def go_to(self, position: int) -> None:
        position = max(0, min(position, self.length))
        while self.position < position:
            self.state.push(self.moves[self.position][1])
            self.position += 1
        while self.position > position:
            self.state.pop()
            self.position -= 1

    def forward(self) -> None:
        self.go_to(self.position + 1)

    def back(self) -> None:
        self.go_to(self.position - 1)

    def next_trick(self) -> None:
        """To the next trick's start (the bidding counts as one step before the first)."""
        later = [p for p in self._trick_starts if p > self.position]
        self.go_to(later[0] if later else self.length)

    def previous_trick(self) -> None:
        earlier = [p for p in self._trick_starts if p < self.position]
        self.go_to(earlier[-1] if earlier else 0)

    def home(self) -> None:
        self.go_to(0)

    def end(self) -> None:
        self.go_to(self.length)

    @property
    def last_move(self) -> tuple[int, Move] | None:
        return self.moves[self.position - 1] if self.position else None

    def describe_position(self) -> str:
        trick = len(self.state.tricks) + (1 if self.state.trick else 0)
        where = f"trick {trick}" if self.state.phase in (Phase.PLAY, Phase.FINISHED) and trick else self.state.phase.value
        return f"game {self.game_index + 1}/{len(self.records)} · move {self.position}/{self.length} · {where}"
