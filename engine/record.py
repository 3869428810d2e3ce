"""Game records in the International Skat Server (ISS) text format.

One record per line::

    (;GM[Skat]PC[...]ID[541932]P0[zoot]P1[kermit]P2[foo]MV[w <32 cards> 1 p 2 18 ...]R[d:2 loss v:-54 ...] ;)

``MV`` is a list of (actor, action) pairs; the actor is a seat (0 forehand,
1 middlehand, 2 rearhand) or ``w`` for the world (the deal, the skat shown
after a pick-up, a player leaving).  Reading keeps the raw pairs so that a
record writes back exactly as it was read; it also converts them into engine
moves, tolerating what the real server writes: declaration and discard as one
move (``D.ST.H8``) or two (``D`` then ``D9.DQ``), ``RE``/``SC``, ``TI.n`` and
``LE.n``, hidden cards ``??`` and passed games.  A record that cannot be read
raises (or, reading a file, collects) a ``RecordError`` naming the line, the
field and what was expected; the other records still load.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .cards import Card, CardSet
from .game import (
    Deal,
    Declare,
    Discard,
    GameState,
    IllegalMoveError,
    Leave,
    Move,
    Phase,
    PickUp,
)
from .rules import GameType
from .scoring import Declaration, GameResult

HEADER_ORDER = ("GM", "PC", "CO", "SE", "ID", "DT", "P0", "P1", "P2", "R0", "R1", "R2")
_FIELD = re.compile(r"([A-Z][A-Z0-9]*)\[([^\]]*)\]")


class RecordError(ValueError):
    """A record that cannot be read: where, which field, and what was expected."""

    def __init__(self, message: str, line: int | None = None, field: str | None = None, record_id: str | None = None):
        self.line = line
        self.field = field
        self.record_id = record_id
        self.reason = message
        where = []
        if line is not None:
            where.append(f"line {line}")
        if record_id:
            where.append(f"record {record_id}")
        if field:
            where.append(f"field {field}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)


@dataclass
class GameRecord:
    """One recorded game: its headers, the deal, the raw MV pairs, and the engine moves."""

    headers: dict[str, str]
    deal: Deal | None
    tokens: list[tuple[str, str]]
    """The MV field as (actor, action) pairs, exactly as read or written."""
    result_field: str = ""
    """The raw R[...] field (never used to compute results)."""
    moves: list[tuple[int, Move]] = field(default_factory=list)
    """The engine moves with the seat that made them; applying them to
    ``GameState.new(deal)`` replays the game."""
    line: int | None = None
    notes: list[str] = field(default_factory=list)
    """What reading tolerated (hidden cards, a game that was cut off)."""

    @property
    def id(self) -> str:
        return self.headers.get("ID", "")

    @property
    def players(self) -> tuple[str, str, str]:
        return (self.headers.get("P0", ""), self.headers.get("P1", ""), self.headers.get("P2", ""))

    def state_at(self, position: int | None = None) -> GameState:
        """The state after the first ``position`` moves (0: the deal; None: the end
        of the record); a new state each call, free to change."""
        length = len(self.moves)
        position = length if position is None else position
        if not 0 <= position <= length:
            raise IndexError(f"no position {position} in a record of {length} moves")
        cached = self.__dict__.get("_final")
        if position == length and cached is not None and cached.moves == tuple(self.moves):
            return cached.copy()
        state = GameState.new(self.deal)
        state.push_many(move for _, move in self.moves[:position])
        return state

    def replay(self) -> GameState:
        """The state at the end of the record."""
        return self.state_at()

    def positions(self) -> list[GameState]:
        """The state before the first move and after each move."""
        state = self.state_at(0)
        out = [state.copy()]
        for _, move in self.moves:
            state.push(move)
            out.append(state.copy())
        return out

    def result(self) -> GameResult | None:
        return self.replay().result()

    # --------------------------------------------------------- building

    @classmethod
    def from_state(
        cls,
        state: GameState,
        id: str = "",
        players: tuple[str, str, str] = ("", "", ""),
        extra_headers: dict[str, str] | None = None,
    ) -> GameRecord:
        """A record of a game played with the engine (any phase; written as far as it went)."""
        if state.deal is None:
            raise ValueError("only the full state of a game can be recorded, not a view")
        headers = {"GM": "Skat", "PC": "skat-table", "ID": id}
        headers.update({f"P{i}": name for i, name in enumerate(players)})
        if extra_headers:
            headers.update(extra_headers)
        tokens = [("w", ".".join(str(c) for c in state.deal.order()))]
        pending_discard: int | None = None
        for seat, move in state.moves:
            if isinstance(move, PickUp):
                tokens.append((str(seat), "s"))
                tokens.append(("w", str(CardSet(state.deal.skat))))
            elif isinstance(move, Discard):
                pending_discard = move.cards
            elif isinstance(move, Declare):
                code = move.declaration.iss()
                if pending_discard is not None:
                    code += "." + str(CardSet(pending_discard))
                    pending_discard = None
                tokens.append((str(seat), code))
            elif isinstance(move, Leave):
                tokens.append(("w", str(move)))
            else:
                tokens.append((str(seat), state.iss(move)))
        record = cls(headers, state.deal, tokens, result_field(state), list(state.moves))
        return record


def result_field(state: GameState) -> str:
    """The R[...] text for a state, in the server's own style."""
    if state.phase == Phase.PASSED:
        return "passed"
    result = state.result()
    if result is None:
        return ""
    left = state.left_seat if state.left_seat is not None else -1
    parts = [
        f"d:{result.declarer}",
        "win" if result.won else "loss",
        f"v:{result.value}",
        f"m:{result.matadors}",
        "overbid" if result.overbid else "bidok",
        f"p:{result.declarer_points}",
        f"t:{result.declarer_tricks}",
        f"s:{int(result.schneider)}",
        f"z:{int(result.schwarz)}",
        "p0:0 p1:0 p2:0",
        f"l:{left if state.end == 'left' else -1}",
        f"to:{left if state.end == 'timeout' else -1}",
        f"r:{int(result.end.endswith('resigned'))}",
    ]
    return " ".join(parts)


def format_record(record: GameRecord) -> str:
    """One line of ISS text; ``parse_record(format_record(r))`` gives ``r`` back."""
    parts = ["(;"]
    keys = [k for k in HEADER_ORDER if k in record.headers] + [k for k in record.headers if k not in HEADER_ORDER]
    for key in keys:
        parts.append(f"{key}[{record.headers[key]}]")
    mv = " ".join(f"{actor} {action}" for actor, action in record.tokens)
    parts.append(f"MV[{mv} ]")
    parts.append(f"R[{record.result_field}]")
    parts.append(" ;)")
    return "".join(parts)


# ------------------------------------------------------------- reading


def parse_record(text: str, line: int | None = None) -> GameRecord:
    """Read one record; raises RecordError naming the line and field."""
    text = text.strip()
    if not (text.startswith("(;") and text.endswith(";)")):
        raise RecordError("expected a record of the form (;GM[Skat]...MV[...] ;)", line)
    headers: dict[str, str] = {}
    mv: str | None = None
    result = ""
    for match in _FIELD.finditer(text):
        key, value = match.group(1), match.group(2)
        if key == "MV":
            mv = value
        elif key == "R":
            result = value
        else:
            headers[key] = value
    record_id = headers.get("ID")
    if mv is None:
        raise RecordError("the record has no moves (expected MV[w <32 cards> ...])", line, "MV", record_id)
    words = mv.split()
    if len(words) % 2:
        raise RecordError(f"moves come in pairs of actor and action; {words[-1]!r} stands alone", line, "MV", record_id)
    tokens = [(words[i], words[i + 1]) for i in range(0, len(words), 2)]
    record = GameRecord(headers, None, tokens, result, [], line)
    _convert_moves(record)
    return record


def _convert_moves(record: GameRecord) -> None:
    """Turn the raw MV pairs into engine moves, checking them with the engine."""
    line, rid = record.line, record.id
    if not record.tokens or record.tokens[0][0] != "w":
        raise RecordError("the moves must start with the deal: w <32 cards>", line, "MV", rid)
    try:
        order = [Card.from_str(c) for c in record.tokens[0][1].split(".")]
        record.deal = Deal.from_order(order)
    except ValueError as exc:
        raise RecordError(f"bad deal {record.tokens[0][1]!r}: {exc} (expected 32 different cards like CJ.ST.D7)", line,
                          "MV move 1", rid) from None

    state = GameState.new(record.deal)
    pending: Declaration | None = None  # declaration written before its discard
    stopped = False
    for number, (actor, action) in enumerate(record.tokens[1:], start=2):
        where = f"MV move {number} ({actor} {action})"
        try:
            if stopped:
                raise RecordError("moves after the end of the game", line, where, rid)
            moves = _moves_for(state, actor, action, pending)
            if moves == "pending":
                pending = _declaration_of(action, state)
                continue
            if moves == "skip":
                record.notes.append(f"{where}: hidden card skipped")
                continue
            for seat, move in moves:
                if isinstance(move, Declare):
                    pending = None
                state.push(move)
                record.moves.append((seat, state.moves[-1][1]))
            if state.is_over:
                stopped = True
        except IllegalMoveError as exc:
            raise RecordError(f"not a legal move here: {exc}", line, where, rid) from None
        except ValueError as exc:
            if isinstance(exc, RecordError):
                raise
            raise RecordError(str(exc), line, where, rid) from None
    if pending is not None:
        raise RecordError("a declaration waits for its discard", line, "MV", rid)
    record.__dict__["_final"] = state  # replay() reuses it while the moves are unchanged
    if not state.is_over:
        record.notes.append("the record ends before the game does")


def _declaration_of(action: str, state: GameState) -> Declaration:
    decl = Declaration.from_iss(action)
    if not decl.hand and not state.skat_taken:
        # the server always marks hand games, but be lenient: no pick-up means hand
        decl = Declaration(decl.game, True, decl.schneider, decl.schwarz, decl.ouvert)
    return decl


def _moves_for(state: GameState, actor: str, action: str, pending: Declaration | None):
    """Engine moves for one MV pair: a list of (seat, move), 'pending' or 'skip'."""
    if actor == "w":
        if action.startswith(("LE.", "TI.")):
            leave = state.parse_iss(action)
            return [(leave.seat, leave)]
        if state.phase == Phase.DISCARD:
            skat = CardSet.from_str(action).mask
            if skat != state.deal.skat:
                raise ValueError(f"the world shows the skat as {action}, but the deal has {CardSet(state.deal.skat)}")
            return []  # the pick-up already took these cards
        raise ValueError(f"unexpected world move {action!r} (expected the skat after a pick-up, or LE.n / TI.n)")

    seat = _seat(actor)
    if action in ("RE", "SC"):
        return [(seat, state.parse_iss(action, seat))]
    if action == "??":
        return "skip"
    if seat != state.to_move:
        raise ValueError(f"seat {seat} moved, but it is seat {state.to_move}'s turn")
    if action.startswith(("LE.", "TI.")):
        raise ValueError(f"{action} is the world's move (w {action}), not a seat's")

    # The server writes a declaration and its discard (and an ouvert hand) as one
    # action, or the declaration before the discard; the rest is plain notation.
    if state.phase == Phase.SKAT and action != "s":
        decl, cards = _split_declaration(action)
        decl = _declaration_of(decl, state)
        return [(seat, _declare(decl, cards, state))]
    if state.phase == Phase.DISCARD:
        decl_text, cards = _split_declaration(action)
        if decl_text:
            if len(cards) == 0:
                return "pending"
            decl = _declaration_of(decl_text, state)
            discard, shown = cards[:2], cards[2:]
            return [(seat, Discard(CardSet(discard).mask)), (seat, _declare(decl, shown, state))]
        if pending is None or len(cards) != 2:
            raise ValueError("expected a declaration with its discard, e.g. D.ST.H8")
        return [(seat, Discard(CardSet(cards).mask)), (seat, _declare(pending, [], state))]
    return [(seat, state.parse_iss(action, seat))]


def _declare(decl: Declaration, shown: list[Card], state: GameState) -> Declare:
    if shown and len(shown) != 10:
        raise ValueError(f"an ouvert declaration shows 10 cards, not {len(shown)}")
    return Declare(decl, CardSet(shown).mask if shown else None)


_DECLARATION = re.compile(r"^[DHSCGN][HSZO]*$")  # no card matches: a card's second letter is a rank


def _split_declaration(action: str) -> tuple[str, list[Card]]:
    """'D.ST.H8' -> ('D', [ST, H8]); 'D9.DQ' -> ('', [D9, DQ])."""
    parts = action.split(".")
    if _DECLARATION.match(parts[0]):
        return parts[0], [Card.from_str(p) for p in parts[1:]]
    return "", [Card.from_str(p) for p in parts]


def _seat(text: str) -> int:
    if text not in ("0", "1", "2"):
        raise ValueError(f"expected a seat 0, 1 or 2 (or w), not {text!r}")
    return int(text)


def iter_records(lines: Iterable[str]) -> Iterator[GameRecord | RecordError]:
    """Each non-empty line as a record, or the error that line raised."""
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            yield parse_record(text, number)
        except RecordError as exc:
            yield exc


def read_records(source: str | Path | Iterable[str]) -> tuple[list[GameRecord], list[RecordError]]:
    """All records of a file (path) or of lines; errors are collected, not raised."""
    if isinstance(source, (str, Path)):
        with open(source, encoding="utf-8", errors="replace") as handle:
            items = list(iter_records(handle))
    else:
        items = list(iter_records(source))
    records = [r for r in items if isinstance(r, GameRecord)]
    errors = [r for r in items if isinstance(r, RecordError)]
    return records, errors


def write_records(path: str | Path, records: Iterable[GameRecord], append: bool = True) -> None:
    with open(path, "a" if append else "w", encoding="utf-8") as handle:
        for record in records:
            handle.write(format_record(record) + "\n")


# ------------------------------------------------------------- summaries

_GAME_NAMES = {
    GameType.CLUBS: "clubs", GameType.SPADES: "spades", GameType.HEARTS: "hearts",
    GameType.DIAMONDS: "diamonds", GameType.GRAND: "grand", GameType.NULL: "null",
}


def summary(record: GameRecord) -> dict:
    """The result of a record as computed by the engine from its moves (the
    record's own R[...] is not read), in the shape of ``skat replay --json``."""
    state = record.replay()
    out: dict = {"id": record.id, "passed": state.phase == Phase.PASSED}
    result = state.result()
    if result is None:
        out.update({
            "declarer": state.declarer, "game": None, "hand": None, "ouvert": None,
            "schneider_announced": None, "schwarz_announced": None, "matadors": None,
            "declarer_points": None, "declarer_tricks": None, "won": None, "overbid": None,
            "value": 0, "seeger_fabian": [0, 0, 0],
        })
        if not out["passed"]:
            out["abandoned"] = state.end or "unfinished"
        return out
    decl = result.declaration
    out.update({
        "declarer": result.declarer,
        "game": _GAME_NAMES[decl.game],
        "hand": decl.hand,
        "ouvert": decl.ouvert,
        "schneider_announced": decl.schneider_announced,
        "schwarz_announced": decl.schwarz_announced,
        "matadors": result.matadors,
        "declarer_points": result.declarer_points,
        "declarer_tricks": result.declarer_tricks,
        "won": result.won,
        "overbid": result.overbid,
        "value": result.value,
        "seeger_fabian": list(result.seeger_fabian()),
    })
    if result.end != "played":
        out["end"] = result.end
    return out


def parse_result_field(text: str) -> dict[str, str]:
    """The server's R[...] as a dict (for tests that compare with it)."""
    out: dict[str, str] = {}
    for word in text.split():
        if ":" in word:
            key, value = word.split(":", 1)
            out[key] = value
        else:
            out[word] = "1"
    return out


__all__ = [
    "GameRecord", "RecordError", "parse_record", "format_record", "read_records", "write_records",
    "iter_records", "summary", "parse_result_field", "result_field",
]
