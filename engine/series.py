"""Playing whole games with three players, and keeping the score of a series.

A series seats named players around the table; the dealer rotates clockwise
each game, so the player in forehand changes too.  Scores are kept on the
plain list and on the Seeger-Fabian list.  With the house rule ``bock`` the
series also knows which coming games are Bock games (counted double) and, with
``ramsch_round_after_bock``, Ramsch-round games (``docs/house-rules.md``).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field

from .game import Deal, GameState
from .house_rules import ISKO, HouseRules
from .limits import Limit
from .players.base import Decision, Player
from .rules import GameType
from .scoring import SEEGER_FABIAN_DEFENDER_BONUS, GameResult, RamschResult

GAMES_PER_ROUND = 3
"""A round: each player deals once."""
BOCK_VALUE = 100
"""A game worth this much or more (Kontra and Re included) brings a Bock round."""


class RoundGame(enum.StrEnum):
    """What a coming game of a series is, beyond an ordinary game."""

    BOCK = "bock"
    """Counts double on both lists."""
    RAMSCH = "ramsch"
    """A game of a Ramsch round: played as Ramsch, without bidding."""


def bock_events(result: object) -> tuple[str, ...]:
    """The Bock events a game's result meets (``docs/house-rules.md``): a game lost
    after Kontra (with or without Re), a 60:60 suit or grand game, a game value
    of 100 or more.  A passed-in game or a Ramsch meets none."""
    if not isinstance(result, GameResult):
        return ()
    events = []
    if result.kontra is not None and not result.won:
        events.append("lost with Kontra")
    if result.declaration.game != GameType.NULL and result.declarer_points == 60:
        events.append("60:60")
    if result.game_value >= BOCK_VALUE:
        events.append(f"game value {result.game_value}")
    return tuple(events)


def deal_game(deal: Deal, rules: HouseRules = ISKO, kind: RoundGame | None = None) -> GameState:
    """The state of a series' next game: a Ramsch-round game (``kind``) starts as a Ramsch."""
    state = GameState.new(deal, rules)
    if kind == RoundGame.RAMSCH:
        state.start_ramsch()
    return state


def play_game(deal: Deal, players: list[Player] | tuple[Player, ...], limit: Limit | None = None,
              rules: HouseRules = ISKO, kind: RoundGame | None = None, **hooks) -> GameState:
    """Play one game to its end by ``rules``; ``players[seat]`` decides for that seat (0 = forehand).
    ``kind``: as ``deal_game`` (a Ramsch-round game starts as a Ramsch); ``hooks``: as ``finish_game``."""
    return finish_game(deal_game(deal, rules, kind), players, limit, **hooks)


def finish_game(state: GameState, players: list[Player] | tuple[Player, ...], limit: Limit | None = None, *,
                until: Callable[[GameState], bool] | None = None,
                before: Callable[[GameState], None] | None = None,
                decided: Callable[[GameState, Decision], None] | None = None) -> GameState:
    """Play ``state`` on to its end; ``players[seat]`` decides for that seat from now on.

    The one game loop of the engine, for its tools too: before each move the game stops
    early where ``until(state)`` holds, then ``before(state)`` sees the state; once the
    seat to move has decided, ``decided(view, decision)`` sees its view and decision before
    the move is made."""
    for seat, player in enumerate(players):
        player.new_game(seat)
    while not state.is_over:
        if until is not None and until(state):
            break
        if before is not None:
            before(state)
        seat = state.to_move
        view = state.view(seat)
        decision = players[seat].choose(view, limit)
        if decided is not None:
            decided(view, decision)
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
    """Table place (index into the series' players) of the dealer."""
    seats: tuple[int, int, int]
    """seats[s] = table place of the player in seat s (0 forehand)."""
    result: GameResult | RamschResult | None
    """None for a game passed in."""
    bock: bool = False
    """A Bock game: both lists count its value double."""
    ramsch_round: bool = False
    """A game of a Ramsch round."""

    def scores(self, table_size: int = 3) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(plain, Seeger-Fabian) changes by table place.

        A Bock game doubles each plain-list score; on the Seeger-Fabian list the
        game's value counts twice and the fixed points (50 for the declarer, 40 or
        30 for the defenders) once."""
        plain = [0, 0, 0]
        sf = [0, 0, 0]
        if self.result is not None:
            plain_by_seat, sf_by_seat = self.result.scores_by_seat(table_size)
            for seat, place in enumerate(self.seats):
                plain[place] = plain_by_seat[seat]
                sf[place] = sf_by_seat[seat]
        if self.bock:
            sf = [points + value for points, value in zip(sf, plain)]
            plain = [2 * value for value in plain]
        return tuple(plain), tuple(sf)


@dataclass
class Series:
    """A series of games at a table of three, dealer rotating."""

    names: tuple[str, str, str]
    first_dealer: int = 2
    table_size: int = 3
    entries: list[SeriesEntry] = field(default_factory=list)
    rules: HouseRules = ISKO
    """The house rules of the series; Bock and Ramsch rounds come from ``rules.bock``."""

    def __post_init__(self) -> None:
        if self.table_size not in SEEGER_FABIAN_DEFENDER_BONUS:
            raise ValueError("a table has 3 or 4 players")
        if not isinstance(self.rules, HouseRules):
            raise TypeError(f"rules are a HouseRules, not {type(self.rules).__name__}")

    @property
    def coming_games(self) -> tuple[RoundGame, ...]:
        """The Bock and Ramsch-round games still to come, in order; the games after
        them are ordinary.  Derived from the recorded games alone, so a series
        rebuilt by recording the same results again knows the same."""
        coming: list[RoundGame] = []
        for entry in self.entries:
            if coming:
                coming.pop(0)
            coming += self._rounds_after(entry.result)
        return tuple(coming)

    @property
    def next_game(self) -> RoundGame | None:
        """What the next game is: ``RoundGame.BOCK``, ``RoundGame.RAMSCH`` or None (an ordinary game)."""
        coming = self.coming_games
        return coming[0] if coming else None

    def _rounds_after(self, result: GameResult | RamschResult | None) -> list[RoundGame]:
        # every event-bringing game appends one Bock round after those pending (never
        # more than one per game, however many events it meets): no game counts fourfold
        if not self.rules.bock or not bock_events(result):
            return []
        rounds = [RoundGame.BOCK] * GAMES_PER_ROUND
        if self.rules.ramsch_round_after_bock:
            rounds += [RoundGame.RAMSCH] * GAMES_PER_ROUND
        return rounds

    @property
    def next_dealer(self) -> int:
        return (self.first_dealer + len(self.entries)) % 3

    def seats_for(self, dealer: int) -> tuple[int, int, int]:
        """Table places in forehand, middlehand, rearhand order: forehand sits left of the dealer."""
        return ((dealer + 1) % 3, (dealer + 2) % 3, dealer)

    def record(self, result: GameResult | RamschResult | None) -> SeriesEntry:
        """Add the next game's result (None: passed in); it is a Bock or Ramsch-round
        game if ``next_game`` said so."""
        dealer = self.next_dealer
        kind = self.next_game
        entry = SeriesEntry(len(self.entries) + 1, dealer, self.seats_for(dealer), result,
                            bock=kind == RoundGame.BOCK, ramsch_round=kind == RoundGame.RAMSCH)
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
