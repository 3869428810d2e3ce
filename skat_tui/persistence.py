"""Nothing is lost: the series in progress is saved after every move, and
every finished game is appended to a record file.

The save file is JSON: the series seed, the house rules the series is played
by (a save without them is from before house rules: the International Skat
Order), every finished game and the current
one as a deal plus its moves in ISS notation (as the record file writes them).  Results are not stored; they are
recomputed by replaying the moves with ``GameState``, so a save can never
disagree with the rules.  Writes go to a temporary file (named with the
process id) that replaces the old one, so a closed terminal loses at most the
move being made.  A finished game is saved among the finished games in the
same write that holds its last move, and the save counts the games already in
the record file, so a game is scored and recorded exactly once even if the
process dies in between.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.cards import Card, CardSet
from engine.house_rules import ISKO, HouseRules
from engine.game import (
    Bid, Deal, Declare, Discard, GameState, Hold, Leave, Move, Pass, PickUp, Play, Resign, ShowCards,
)
from engine.scoring import Declaration
from engine.series import Series, deal_game

from .safe_files import write_atomically
from .cli import MAX_SEED  # the seeds --seed takes (a new series draws one below 2**31)
from .settings import check_number, data_dir
from .words import HUMAN_PLACE, TABLE_NAMES

SAVE_FIELDS = {"version", "seed", "first_dealer", "rules", "games", "recorded", "current", "cards_shown"}
SAVE_VERSION = 2
"""Version 2 writes moves in ISS notation; version 1 saves (a JSON move codec) still load."""
READABLE_VERSIONS = (1, 2)

SeatMove = tuple[int, Move]


# ---------------------------------------------------------------- games as JSON


def encode_game(deal: Deal, moves: Iterable[SeatMove], rules: HouseRules = ISKO) -> dict[str, Any]:
    """The deal and each move as ``[seat, ISS notation]`` (the full state's moves)."""
    state = GameState.new(deal, rules=rules)
    encoded = []
    for seat, move in moves:
        encoded.append([seat, state.iss(move)])
        state.push(move)
    return {"deal": [c.name for c in deal.order()], "moves": encoded}


def decode_game(data: dict[str, Any], version: int = SAVE_VERSION,
                rules: HouseRules = ISKO) -> tuple[Deal, list[SeatMove]]:
    """The deal and the moves of ``encode_game``'s form (or of a version 1 save,
    which wrote each move as a kind and its arguments); raises ValueError or
    IllegalMoveError if they do not make a game."""
    if not isinstance(data, dict) or not isinstance(data.get("deal"), list) or not isinstance(data.get("moves"), list):
        raise ValueError("a game must have a deal and a list of moves")
    if set(data) != {"deal", "moves"}:
        raise ValueError(f"a game has a deal and moves only, not {sorted(set(data) - {'deal', 'moves'})[0]!r}")
    if len(data["deal"]) != 32 or not all(isinstance(c, str) for c in data["deal"]):
        raise ValueError("the deal must list the 32 cards by name")
    deal = Deal.from_order([Card.from_str(c) for c in data["deal"]])
    state = GameState.new(deal, rules=rules)
    for number, item in enumerate(data["moves"], start=1):
        if not isinstance(item, list) or len(item) < 2 or (version != 1 and len(item) != 2) \
                or type(item[0]) is not int or item[0] not in range(3) or not isinstance(item[1], str):
            raise ValueError(f"move {number} must be [seat 0-2, move], not {item!r}")
        seat = item[0]
        state.push(_version_1_move(item[1:]) if version == 1 else state.parse_iss(item[1], seat))
        if state.moves[-1][0] != seat:  # the engine says whose move it was; the save must agree
            raise ValueError(f"move {number} ({item[1]}) is seat {state.moves[-1][0]}'s, not seat {seat}'s")
    return deal, list(state.moves)


def _version_1_move(data: list[Any]) -> Move:
    """A move as version 1 saves wrote it: ``["bid", 18]``, ``["play", "CJ"]``, ..."""
    kind, *args = data
    simple = {"hold": Hold, "pass": Pass, "pickup": PickUp}
    if kind in simple:
        return simple[kind]()
    if kind == "bid":
        return Bid(int(args[0]))
    if kind == "discard":
        return Discard(CardSet.from_str(args[0]).mask if args[0] is not None else None)
    if kind == "declare":
        return Declare(Declaration.from_iss(args[0]))
    if kind == "play":
        return Play(Card.from_str(args[0]))
    if kind == "resign":
        return Resign(int(args[0]))
    if kind == "show":
        return ShowCards(int(args[0]))
    if kind == "leave":
        return Leave(int(args[0]), bool(args[1]))
    raise ValueError(f"unknown move kind {kind!r}")


def replay_moves(deal: Deal, moves: Iterable[SeatMove], rules: HouseRules = ISKO) -> GameState:
    """The full state after ``moves``; raises IllegalMoveError if they do not fit."""
    state = GameState.new(deal, rules=rules)
    state.push_many(move for _, move in moves)
    return state


# ---------------------------------------------------------------- the series


@dataclass
class FinishedGame:
    deal: Deal
    moves: list[SeatMove]
    seats: tuple[int, int, int]
    """Table place of the player in each seat (0 forehand)."""


def deal_for(seed: int, number: int) -> Deal:
    """The deal of game ``number`` of the series with ``seed``; independent of
    earlier games, so a resumed series deals the same cards."""
    return Deal.shuffled(random.Random(f"skat-table:{seed}:{number}"))


@dataclass
class TableSession:
    """The series at the table: finished games, the game in play, the save file."""

    seed: int
    series: Series = field(default_factory=lambda: Series(TABLE_NAMES))
    finished: list[FinishedGame] = field(default_factory=list)
    state: GameState | None = None
    save_path: Path | None = None
    recorded: int = 0
    """How many finished games are in the record file (the rest are written by ``write_records``)."""
    report: Callable[[str], None] | None = None
    """Told when a save or a record fails (the table shows it); play goes on without saving."""
    _reported: set[str] = field(default_factory=set, repr=False)
    """Failures already told since the last good save."""
    rules: HouseRules = ISKO
    """The rules of this series, fixed when it starts (a change in the settings waits for the next series)."""
    cards_shown: set[int] = field(default_factory=set)
    """Games (0-based, the current one included) in which the debug panel showed the computers'
    cards: marked on the score sheet and in the record, as no fair game."""

    @classmethod
    def new(cls, seed: int | None, save_path: Path | None = None, rules: HouseRules = ISKO) -> TableSession:
        if seed is None:
            seed = random.SystemRandom().randrange(1 << 31)
        return cls(seed=seed, series=Series(TABLE_NAMES, rules=rules), save_path=save_path, rules=rules)

    # --- seats ---------------------------------------------------------

    @property
    def game_number(self) -> int:
        """1-based number of the current (or next) game."""
        return len(self.series.entries) + 1

    @property
    def seats(self) -> tuple[int, int, int]:
        """Table place of the player in each seat for the current game."""
        return self.series.seats_for(self.series.next_dealer)

    @property
    def dealer_place(self) -> int:
        return self.series.next_dealer

    def seat_of(self, place: int) -> int:
        return self.seats.index(place)

    @property
    def human_seat(self) -> int:
        return self.seat_of(HUMAN_PLACE)

    def names_by_seat(self) -> tuple[str, str, str]:
        seats = self.seats
        return (TABLE_NAMES[seats[0]], TABLE_NAMES[seats[1]], TABLE_NAMES[seats[2]])

    def mark_cards_shown(self) -> None:
        """The current game is one in which the human saw the computers' cards."""
        index = len(self.series.entries)
        if index not in self.cards_shown:
            self.cards_shown.add(index)
            self.save()

    # --- play ----------------------------------------------------------

    def start_game(self) -> GameState:
        """Deal the next game (or keep the one in progress); a game of a Ramsch round starts as a Ramsch."""
        if self.state is None or self.state.is_over:
            self.state = deal_game(deal_for(self.seed, self.game_number), self.rules, self.series.next_game)
            self.save()
        return self.state

    def push(self, move: Move) -> None:
        """Apply a move of the seat to move and save; IllegalMoveError leaves all unchanged."""
        assert self.state is not None
        self.state.push(move)
        self.save()

    def finish_game(self) -> FinishedGame:
        """Score the finished (or passed-in) game into the series, save, and append its record."""
        assert self.state is not None and self.state.is_over
        game = self._score_current()
        self.save()
        self.write_records()
        return game

    def _score_current(self) -> FinishedGame:
        assert self.state is not None and self.state.is_over
        game = FinishedGame(self.state.deal, list(self.state.moves), self.seats)
        self.series.record(self.state.result())
        self.finished.append(game)
        self.state = None  # the next start_game deals; a save never holds a game twice
        return game

    def game_id(self, index: int) -> str:
        """The record id of the finished game at ``index`` (0-based)."""
        return f"{self.seed}-{index + 1}"

    def write_records(self, check_existing: bool = False) -> None:
        """Append the finished games not yet in the record file, then save the count.

        ``check_existing`` (on loading) skips a game whose id is already in the
        file: the process may have died after appending but before saving."""
        if self.recorded >= len(self.finished):
            return
        existing = ""
        if check_existing:
            try:
                existing = (self.records_dir() / ISS_RECORDS).read_text(encoding="utf-8", errors="replace")
            except OSError:
                existing = ""
        try:
            for index in range(self.recorded, len(self.finished)):
                if f"ID[{self.game_id(index)}]" not in existing:
                    game = self.finished[index]
                    append_record(replay_moves(game.deal, game.moves, self.rules), self.game_id(index),
                                  tuple(TABLE_NAMES[p] for p in game.seats), self.records_dir(),
                                  bock=self.series.entries[index].bock, cards_shown=index in self.cards_shown)
                self.recorded = index + 1
        except OSError as exc:
            self._failed(f"Could not write the game record: {exc}")
        self.save()

    def records_dir(self) -> Path:
        return self.save_path.parent if self.save_path is not None else data_dir()

    # --- saving --------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        games = [encode_game(g.deal, g.moves, self.rules) for g in self.finished]
        current = None
        if self.state is not None:
            current = encode_game(self.state.deal, self.state.moves, self.rules)
            if self.state.is_over:
                # The save with the last move already counts the game as finished:
                # no later write is needed to score it.
                games.append(current)
                current = None
        return {
            "version": SAVE_VERSION,
            "seed": self.seed,
            "first_dealer": self.series.first_dealer,
            "rules": self.rules.to_dict(),
            "games": games,
            "recorded": self.recorded,
            "current": current,
            "cards_shown": sorted(self.cards_shown),
        }

    @classmethod
    def from_json(cls, data: Any, save_path: Path | None = None) -> TableSession:
        """The session in ``data``; raises ValueError if it is not a valid save.

        A finished game saved as the current one (by an older version) is
        scored here; ``write_records`` then adds any games missing from the record file."""
        if not isinstance(data, dict):
            raise ValueError(f"a save must be a JSON object, not {type(data).__name__}")
        unknown = sorted(set(data) - SAVE_FIELDS)
        if unknown:
            raise ValueError(f"unknown field {unknown[0]!r}")
        version = data.get("version")
        if type(version) is not int or version not in READABLE_VERSIONS:
            raise ValueError(f"unknown save version {version!r}")
        seed = int(check_number(data.get("seed"), "seed", low=0, high=MAX_SEED, whole=True))
        first_dealer = int(check_number(data.get("first_dealer"), "first_dealer", low=0, high=2, whole=True))
        games = data.get("games")
        if not isinstance(games, list):
            raise ValueError("games must be a list")
        # an older save has no count: all its games are in the record file
        recorded = int(check_number(data.get("recorded", len(games)), "recorded", low=0, high=len(games), whole=True))
        current = data.get("current")
        if current is not None and not isinstance(current, dict):
            raise ValueError(f"current must be a game or null, not {current!r}")
        try:
            rules = HouseRules.from_dict(data["rules"]) if "rules" in data else ISKO
        except ValueError as exc:
            raise ValueError(f"rules: {exc}") from None
        session = cls(seed=seed, series=Series(TABLE_NAMES, first_dealer, rules=rules), save_path=save_path,
                      rules=rules)
        for raw in games:
            try:
                deal, moves = decode_game(raw, version, rules)
            except ValueError as exc:
                raise ValueError(f"game {len(session.finished) + 1}: {exc}") from None
            seats = session.seats
            state = replay_moves(deal, moves, rules)
            if not state.is_over:
                raise ValueError(f"game {len(session.finished) + 1} of the save is not finished")
            session.series.record(state.result())
            session.finished.append(FinishedGame(deal, moves, seats))
        session.recorded = recorded
        shown = data.get("cards_shown", [])
        if not isinstance(shown, list):
            raise ValueError("cards_shown must be a list of game indices")
        session.cards_shown = {int(check_number(index, "cards_shown", low=0, high=max(0, len(games)), whole=True))
                               for index in shown}
        if current is not None:
            try:
                deal, moves = decode_game(current, version, rules)
            except ValueError as exc:
                raise ValueError(f"current: {exc}") from None
            session.state = replay_moves(deal, moves, rules)
            if session.state.is_over:
                session._score_current()
        return session

    def save(self) -> bool:
        """Write the save file; on failure tell ``report`` (once per kind of failure), False."""
        if self.save_path is None:
            return True
        try:
            write_atomically(self.save_path, json.dumps(self.to_json()))
        except OSError as exc:
            self._failed(f"Could not save the series to {self.save_path}: {exc.strerror or exc}. "
                         "Play goes on unsaved.")
            return False
        self._reported.clear()
        return True

    def _failed(self, message: str) -> None:
        if message in self._reported:
            return  # the same failure after every move would bury the table in notices
        self._reported.add(message)
        if self.report is not None:
            self.report(message)

    def discard_save(self) -> None:
        if self.save_path is None:
            return
        try:
            self.save_path.unlink(missing_ok=True)
        except OSError as exc:
            self._failed(f"Could not remove the saved series {self.save_path}: {exc.strerror or exc}")


def series_save_path() -> Path:
    return data_dir() / "current-series.json"


def load_session(path: Path | None = None) -> TableSession | None:
    """The saved series, or None when there is none; raises ValueError if it is damaged."""
    path = path or series_save_path()
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return TableSession.from_json(data, save_path=path)
    except (KeyError, IndexError, TypeError, AttributeError, OverflowError, ValueError) as exc:
        raise ValueError(f"the saved series in {path} is damaged: {exc}") from exc
    except OSError as exc:
        raise ValueError(f"the saved series in {path} cannot be read: {exc.strerror or exc}") from exc


# ---------------------------------------------------------------- records


ISS_RECORDS = "games.sgf"


def append_record(state: GameState, game_id: str, players: tuple[str, str, str],
                  directory: Path | None = None, bock: bool = False, cards_shown: bool = False) -> Path:
    """Append a finished game, in the ISS format, to the record file in the data directory
    (``bock``: a Bock game of the series; ``cards_shown``: the human saw the computers' cards;
    both marked in the record)."""
    from engine.record import GameRecord, format_record

    directory = directory or data_dir()
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / ISS_RECORDS
    with open(path, "a", encoding="utf-8") as f:
        f.write(format_record(GameRecord.from_state(state, id=game_id, players=players, bock=bock,
                                                     cards_shown=cards_shown)) + "\n")
    return path
