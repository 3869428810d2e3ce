"""Playing whole games with three players, and keeping the score of a series.

A series seats named players around the table; the dealer rotates clockwise
each game, so the player in forehand changes too.  Scores are kept on the
plain list and on the Seeger-Fabian list.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .game import Deal, GameState
from .house_rules import ISKO, HouseRules
from .limits import Limit
from .players.base import Player
from .scoring import SEEGER_FABIAN_DEFENDER_BONUS, GameResult, RamschResult


def play_game(deal: Deal, players: list[Player] | tuple[Player, ...], limit: Limit | None = None,
              rules: HouseRules = ISKO) -> GameState:
    """Play one game to its end by ``rules``; ``players[seat]`` decides for that seat (0 = forehand)."""
    state = GameState.new(deal, rules)
    for seat, player in enumerate(players):
        player.new_game(seat)
    while not state.is_over:
        seat = state.to_move
        decision = players[seat].choose(state.view(seat), limit)
        state.push(decision.move)
    return state


@dataclass
class PlayerTotals:
    name: str
    games: int = 0
    """Games this player declared."""
    won: int = 0
    lost: int = 0
    score: int = 0
    seeger_fabian: int = 0


@dataclass
class SeriesEntry:
    number: int
    dealer: int
    """Table position (index into the series' players) of the dealer."""
    seats: tuple[int, int, int]
    """seats[s] = table position of the player in seat s (0 forehand)."""
    result: GameResult | RamschResult | None
    """None for a game passed in."""

    def scores(self, table_size: int = 3) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(plain, Seeger-Fabian) changes by table position."""
        plain = [0, 0, 0]
        sf = [0, 0, 0]
        if self.result is not None:
            plain_by_seat, sf_by_seat = self.result.scores_by_seat(table_size)
            for seat, position in enumerate(self.seats):
                plain[position] = plain_by_seat[seat]
                sf[position] = sf_by_seat[seat]
        return tuple(plain), tuple(sf)


@dataclass
class Series:
    """A series of games at a table of three, dealer rotating."""

    names: tuple[str, str, str]
    first_dealer: int = 2
    table_size: int = 3
    entries: list[SeriesEntry] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.table_size not in SEEGER_FABIAN_DEFENDER_BONUS:
            raise ValueError("a table has 3 or 4 players")

    @property
    def next_dealer(self) -> int:
        return (self.first_dealer + len(self.entries)) % 3

    def seats_for(self, dealer: int) -> tuple[int, int, int]:
        """Table positions in forehand, middlehand, rearhand order: forehand sits left of the dealer."""
        return ((dealer + 1) % 3, (dealer + 2) % 3, dealer)

    def record(self, result: GameResult | RamschResult | None) -> SeriesEntry:
        dealer = self.next_dealer
        entry = SeriesEntry(len(self.entries) + 1, dealer, self.seats_for(dealer), result)
        self.entries.append(entry)
        return entry

    def totals(self) -> list[PlayerTotals]:
        totals = [PlayerTotals(n) for n in self.names]
        for entry in self.entries:
            plain, sf = entry.scores(self.table_size)
            for pos in range(3):
                totals[pos].score += plain[pos]
                totals[pos].seeger_fabian += sf[pos]
            if isinstance(entry.result, GameResult):  # declarer statistics: declared games only
                t = totals[entry.seats[entry.result.declarer]]
                t.games += 1
                if entry.result.won:
                    t.won += 1
                else:
                    t.lost += 1
        return totals
