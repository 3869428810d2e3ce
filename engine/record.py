"""Game records in the International Skat Server (ISS) text format.

One record per line::

    (;GM[Skat]PC[...]ID[541932]P0[zoot]P1[kermit]P2[foo]MV[w <32 cards> 1 p 2 18 ...]R[d:2 loss v:-54 ...] ;)

``MV`` is a list of (actor, action) pairs; the actor is a seat (0 forehand,
1 middlehand, 2 rearhand) or ``w`` for the world (the deal, the skat shown
after a pick-up, a player leaving).  Reading keeps the raw pairs so that a
record writes back exactly as it was read; it also converts them into engine
moves, tolerating what the real server writes: declaration and discard as one
move (``D.ST.H8``) or two (``D`` then ``D9.DQ``), ``RE``/``SC``, ``TI.n`` and
``LE.n``, a hidden card ``??`` (the card of the player to move when someone
leaves) and passed games.  Games played with house rules (Ramsch, its skat
round) use the extension documented in ``docs/house-rules.md`` (header ``HR``,
the tokens ``push``, and a Ramsch ``R[...]``); records without it read as
before.  A record that cannot be read raises (or, reading a
file, collects) a ``RecordError`` naming the line, the field and what was
expected; the other records still load.  Error messages quote at most
``QUOTE_LIMIT`` characters of the record, with control characters escaped; a
record that contains control characters is refused, and a line longer than
``MAX_LINE`` bytes is refused unread.
"""

from __future__ import annotations

import codecs
import io
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
from .house_rules import ISKO, HouseRules
from .rules import GameType
from .scoring import Declaration, GameEnd, GameResult, RamschResult

HEADER_ORDER = ("GM", "PC", "CO", "SE", "ID", "DT", "P0", "P1", "P2", "R0", "R1", "R2", "HR", "BK", "CS")
RULES_HEADER = "HR"
"""The house rules a game was played by (docs/house-rules.md); absent: the ISkO."""
BOCK_HEADER = "BK"
"""``BK[1]``: a Bock game of its series (docs/house-rules.md)."""
SHOWN_HEADER = "CS"
"""``CS[1]``: the human saw the computers' cards during the game (the table's debug panel
setting), so it was no fair game."""
_FIELD = re.compile(r"([A-Z][A-Z0-9]*)\[([^\]]*)\]")
_SECOND_RECORD = re.compile(r";\)\s*\(;")  # looked for outside the fields' values

MAX_LINE = 64 * 1024
"""Longest line read, in bytes: a real record has a few hundred characters."""
QUOTE_LIMIT = 60
"""Most characters of a record that an error message repeats."""
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # a tab is a space; \r and \n end the line
_LONG_RUN = re.compile(r"\S{%d,}" % (QUOTE_LIMIT + 1))


def printable(text: str) -> str:
    """``text`` with control and other invisible characters escaped (``\\x1b``),
    so that a record cannot drive the terminal an error is printed to."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def quote(text: str) -> str:
    """``text`` quoted for an error message: escaped, and cut to QUOTE_LIMIT characters."""
    shown = printable(text)
    if len(shown) > QUOTE_LIMIT:
        shown = shown[:QUOTE_LIMIT] + "…"
    return f"'{shown}'"


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
            where.append(f"record {quote(record_id)[1:-1]}")
        if field:
            where.append(f"field {field}")
        text = f"{', '.join(where)}: {message}" if where else message
        # whatever the message repeats of the record (also from the engine's own
        # errors, e.g. "not a card: '...'"): escaped, and no run longer than the limit
        text = _LONG_RUN.sub(lambda m: m.group(0)[:QUOTE_LIMIT] + "…", printable(text))
        super().__init__(text)


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
    def bock(self) -> bool:
        """Whether the game was a Bock game of its series (header ``BK[1]``): both lists count it double."""
        return self.headers.get(BOCK_HEADER, "").strip() == "1"

    @property
    def cards_shown(self) -> bool:
        """Whether the human saw the computers' cards during play (header ``CS[1]``)."""
        return self.headers.get(SHOWN_HEADER, "").strip() == "1"

    @property
    def players(self) -> tuple[str, str, str]:
        return (self.headers.get("P0", ""), self.headers.get("P1", ""), self.headers.get("P2", ""))

    @property
    def rules(self) -> HouseRules:
        """The rules the game was played by: the ``HR`` header, or the ISkO without one."""
        return rules_from_header(self.headers.get(RULES_HEADER))

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
        state = GameState.new(self.deal, self.rules)
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

    def result(self) -> GameResult | RamschResult | None:
        return self.replay().result()

    # --------------------------------------------------------- building

    @classmethod
    def from_state(
        cls,
        state: GameState,
        id: str = "",
        players: tuple[str, str, str] = ("", "", ""),
        extra_headers: dict[str, str] | None = None,
        bock: bool = False,
        cards_shown: bool = False,
    ) -> GameRecord:
        """A record of a game played with the engine (any phase; written as far as it went);
        ``bock`` marks a Bock game of a series, ``cards_shown`` a game in which the human saw
        the computers' cards."""
        if state.deal is None:
            raise ValueError("only the full state of a game can be recorded, not a view")
        headers = {"GM": "Skat", "PC": "skat-table", "ID": id}
        headers.update({f"P{i}": name for i, name in enumerate(players)})
        if not state.rules.is_isko:
            headers[RULES_HEADER] = rules_header(state.rules)
        if bock:
            headers[BOCK_HEADER] = "1"
        if cards_shown:
            headers[SHOWN_HEADER] = "1"
        if extra_headers:
            headers.update(extra_headers)
        tokens = [("w", ".".join(str(c) for c in state.deal.order()))]
        pending_discard: int | None = None
        for seat, move in state.moves:
            if state.ramsch and isinstance(move, PickUp):  # the Ramsch skat, as this seat found it
                tokens += [(str(seat), "s"), ("w", str(CardSet(move.skat)))]
            elif state.ramsch and isinstance(move, Discard):  # the two cards it put back
                tokens.append((str(seat), str(CardSet(move.cards))))
            elif isinstance(move, PickUp):
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


def rules_header(rules: HouseRules) -> str:
    """The ``HR`` header for ``rules``: the switches that are on, joined by commas."""
    return ",".join(name for name, on in rules.to_dict().items() if on)


def rules_from_header(text: str | None) -> HouseRules:
    """The rules an ``HR`` header names (no header: the ISkO); raises ValueError for an unknown switch."""
    if text is None:
        return ISKO
    names = text.split(",")
    for name in names:
        if not name.strip():
            raise ValueError("an empty switch name (HR[...] lists names joined by single commas, no ISkO game has HR)")
        if name != name.strip():
            raise ValueError(f"the switch name {quote(name)} has spaces around it")
        if names.count(name) > 1:
            raise ValueError(f"the switch {name} is named twice")
    return ISKO.with_switches(**{name: True for name in names})


def result_field(state: GameState) -> str:
    """The R[...] text for a state, in the server's own style (a Ramsch in the
    extension's, docs/house-rules.md)."""
    if state.phase == Phase.PASSED:
        return "passed"
    result = state.result()
    if result is None:
        return ""
    if isinstance(result, RamschResult):
        return _ramsch_result_field(result)
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
        f"l:{left if state.end == GameEnd.LEFT else -1}",
        f"to:{left if state.end == GameEnd.TIMEOUT else -1}",
        f"r:{int(result.end.resigned)}",
    ]
    if result.kontra is not None:
        parts.append(f"ko:{result.kontra}")  # house-rule extension, see docs/house-rules.md
    if result.re:
        parts.append("rk:1")
    return " ".join(parts)


def _by_seat(values: Iterable[int]) -> str:
    return "/".join(str(v) for v in values)


def _ramsch_result_field(result: RamschResult) -> str:
    parts = ["ramsch", f"pts:{_by_seat(result.points)}", f"tr:{_by_seat(result.tricks)}",
             f"l:{_by_seat(result.losers) or '-'}", f"v:{_by_seat(result.values)}"]
    if result.jungfrau is not None:
        parts.append(f"jf:{result.jungfrau}")
    if result.durchmarsch is not None:
        parts.append(f"dm:{result.durchmarsch}")
    if result.pushes:
        parts.append(f"push:{result.pushes}")
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
    if len(text) > MAX_LINE:
        raise RecordError(_too_long(len(text)), line)
    text = text.strip().removeprefix("\ufeff")  # a byte-order mark from an editor
    control = _CONTROL.search(text)
    if control:
        # never in a real record; refused here, no name or ID can carry one to a terminal
        start = control.start()
        raise RecordError(f"a control character at column {start + 1}, in {quote(text[max(0, start - 20):start + 20])}; "
                          "a record is plain text", line)
    if not (text.startswith("(;") and text.endswith(";)")):
        raise RecordError("expected a record of the form (;GM[Skat]...MV[...] ;)", line)
    if _SECOND_RECORD.search(_FIELD.sub("", text)):
        raise RecordError("the line holds a second record after the first one's ';)'; one record per line", line)
    headers: dict[str, str] = {}
    mv: str | None = None
    result = ""
    seen: set[str] = set()
    for match in _FIELD.finditer(text):
        key, value = match.group(1), match.group(2)
        if key in seen:
            raise RecordError(f"{key}[...] is given twice; a property appears once in a record", line, key,
                              headers.get("ID"))
        seen.add(key)
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
        raise RecordError(f"moves come in pairs of actor and action; {quote(words[-1])} stands alone", line, "MV",
                          record_id)
    tokens = [(words[i], words[i + 1]) for i in range(0, len(words), 2)]
    record = GameRecord(headers, None, tokens, result, [], line)
    _convert_moves(record)
    _check_result_field(record)
    return record


_RESULT_WORDS = {"win", "loss", "penalty", "bidok", "overbid", "passed", "ramsch"}
_RESULT_KEYS = {"d", "v", "m", "p", "t", "s", "z", "p0", "p1", "p2", "l", "to", "r",  # the server's
                "ko", "rk", "pts", "tr", "jf", "dm", "push"}  # the house-rule extension's


def _check_result_field(record: GameRecord) -> None:
    """A token given twice in R[...] is refused (which one would count?); one this reader
    does not know is kept and noted, as a later server may add fields."""
    seen: set[str] = set()
    for word in record.result_field.split():
        key = word.split(":", 1)[0]
        if key in seen:
            raise RecordError(f"{quote(key)} is given twice; each token of the result appears once", record.line,
                              "R", record.id)
        seen.add(key)
        if key not in (_RESULT_KEYS if ":" in word else _RESULT_WORDS):
            record.notes.append(f"R[...]: unknown token {quote(word)}, ignored")
    if {"win", "loss"} <= seen:
        raise RecordError("the result says both win and loss", record.line, "R", record.id)


def _convert_moves(record: GameRecord) -> None:
    """Turn the raw MV pairs into engine moves, checking them with the engine."""
    line, rid = record.line, record.id
    if not record.tokens or record.tokens[0][0] != "w":
        raise RecordError("the moves must start with the deal: w <32 cards>", line, "MV", rid)
    try:
        order = [Card.from_str(c) for c in record.tokens[0][1].split(".")]
        record.deal = Deal.from_order(order)
    except ValueError as exc:
        raise RecordError(f"bad deal {quote(record.tokens[0][1])}: {exc} (expected 32 different cards like CJ.ST.D7)",
                          line, "MV move 1", rid) from None

    try:
        rules = record.rules
    except ValueError as exc:
        raise RecordError(f"unknown house rules {quote(record.headers[RULES_HEADER])}: {exc} "
                          "(expected switch names like ramsch,schieben)", line, RULES_HEADER, rid) from None
    if record.headers.get(BOCK_HEADER, "1").strip() not in ("0", "1"):
        raise RecordError(f"the Bock marker is BK[1] (or BK[0]), not {quote(record.headers[BOCK_HEADER])}", line,
                          BOCK_HEADER, rid)
    if record.bock and not rules.bock:
        raise RecordError("BK[1] marks a Bock game, but the game's rules have no Bock rounds (HR[...] without bock)",
                          line, BOCK_HEADER, rid)
    state = GameState.new(record.deal, rules)
    pending: Declaration | None = None  # declaration written before its discard
    stopped = False
    hidden: str | None = None  # where a hidden card was skipped: only a player leaving may follow
    for number, (actor, action) in enumerate(record.tokens[1:], start=2):
        where = f"MV move {number} ({actor} {action})"  # RecordError escapes and shortens it
        try:
            if stopped:
                raise RecordError("moves after the end of the game", line, where, rid)
            if hidden is not None and not (actor == "w" and action.startswith(("LE.", "TI."))):
                raise ValueError(f"only a player leaving (w LE.n or w TI.n) may follow the hidden card of {hidden}")
            moves = _moves_for(state, actor, action, pending)
            if moves == "pending":
                pending = _declaration_of(action, state)
                continue
            if moves == "skip":
                hidden = where
                record.notes.append(f"{where}: a hidden card, skipped (the player to move did not play it)")
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
        if state.phase == Phase.RAMSCH_DISCARD:
            skat = CardSet.from_str(action).mask
            taken = state.moves[-1][1].skat
            if skat != taken:
                raise ValueError(f"the world shows the skat as {action}, but the pick-up took {CardSet(taken)}")
            return []
        if state.phase == Phase.DISCARD:
            skat = CardSet.from_str(action).mask
            if skat != state.deal.skat:
                raise ValueError(f"the world shows the skat as {action}, but the deal has {CardSet(state.deal.skat)}")
            return []  # the pick-up already took these cards
        raise ValueError(f"unexpected world move {quote(action)} (expected the skat after a pick-up, or LE.n / TI.n)")

    seat = _seat(actor)
    if action in ("RE", "SC"):
        return [(seat, state.parse_iss(action, seat))]
    if action == "??":
        # the server hides the card of the player to move when someone leaves the table
        if state.phase != Phase.PLAY or seat != state.to_move:
            raise ValueError("a hidden card (??) stands only for the card of the player to move during play")
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
        if decl_text and pending is not None:
            raise ValueError(f"the game is declared twice: {pending.iss()} waits for its discard")
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
        raise ValueError(f"expected a seat 0, 1 or 2 (or w), not {quote(text)}")
    return int(text)


def _too_long(size: int, unit: str = "characters") -> str:
    return f"the line has {size:,} {unit}; a record has a few hundred (lines over {MAX_LINE:,} are not read)"


_LINE_END = re.compile(rb"\r\n|\r|\n")
_READ_BLOCK = 64 * 1024
MAX_SKIP = 256 * MAX_LINE
"""Most bytes of an over-long line read past in search of its end: a line still
going after them (``/dev/zero``, a huge file with no line end) stops the reading."""


class _Unended(int):
    """The bytes read of a line that did not end within MAX_SKIP: the rest of the file is not read."""


def _raw_lines(binary: io.RawIOBase | io.BufferedIOBase) -> Iterator[bytes | int]:
    r"""Each line's bytes without its end (``\n``, ``\r\n``, or a lone ``\r`` as in
    old Mac files), or for a line over MAX_LINE bytes its length (read past, never kept);
    a line with no end within MAX_SKIP bytes gives an ``_Unended`` length and ends the lines."""
    pending = b""
    skipped = 0  # bytes of an over-long line already dropped
    while True:
        block = binary.read(_READ_BLOCK)
        at_end = not block
        pending += block
        start = 0
        while (end := _LINE_END.search(pending, start)) is not None:
            if end.group() == b"\r" and end.end() == len(pending) and not at_end:
                break  # the next block may begin with the \n of a \r\n
            line = pending[start:end.start()]
            yield skipped + len(line) if skipped or len(line) > MAX_LINE else line
            skipped, start = 0, end.end()
        pending = pending[start:]
        if at_end:
            # a last line without a line end, also one whose bytes were all dropped as over-long
            if pending or skipped:
                yield skipped + len(pending) if skipped or len(pending) > MAX_LINE else pending
            return
        if len(pending) > MAX_LINE:
            keep = 1 if pending.endswith(b"\r") else 0
            skipped += len(pending) - keep
            pending = pending[len(pending) - keep:]
            if skipped > MAX_SKIP:
                yield _Unended(skipped)
                return


def read_lines(binary: io.RawIOBase | io.BufferedIOBase) -> Iterator[tuple[int, str | RecordError]]:
    r"""The numbered lines of a file opened in binary mode, each decoded as UTF-8 without
    its line end, or the RecordError of a line that is not UTF-8 or longer than MAX_LINE.
    ``\n``, ``\r\n`` and a lone ``\r`` all end a line.  A byte-order mark before the
    first line is dropped."""
    for number, chunk in enumerate(_raw_lines(binary), start=1):
        if isinstance(chunk, _Unended):
            yield number, RecordError(f"the line has no end in more than {MAX_SKIP:,} bytes; a record has a few "
                                      "hundred: the rest of the file is not read", number)
            continue
        if isinstance(chunk, int):
            yield number, RecordError(_too_long(chunk, "bytes"), number)
            continue
        if number == 1:
            chunk = chunk.removeprefix(codecs.BOM_UTF8)
        try:
            yield number, chunk.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield number, RecordError(f"not UTF-8 text: byte 0x{chunk[exc.start]:02x} at column {exc.start + 1}",
                                      number)


def _numbered(lines: Iterable[str] | io.IOBase) -> Iterator[tuple[int, str | RecordError]]:
    if isinstance(lines, (io.RawIOBase, io.BufferedIOBase)):
        yield from read_lines(lines)
        return
    for number, text in enumerate(lines, start=1):
        if number == 1:
            text = text.removeprefix("\ufeff")
        yield number, RecordError(_too_long(len(text)), number) if len(text) > MAX_LINE else text


def iter_records(lines: Iterable[str] | io.IOBase) -> Iterator[GameRecord | RecordError]:
    """Each non-empty line as a record, or the error that line raised.  ``lines``
    is text lines or a file opened in binary mode (see ``read_lines``)."""
    for number, text in _numbered(lines):
        if isinstance(text, RecordError):
            yield text
            continue
        if not text.strip():
            continue
        try:
            yield parse_record(text, number)
        except RecordError as exc:
            yield exc


def read_records(source: str | Path | Iterable[str]) -> tuple[list[GameRecord], list[RecordError]]:
    """All records of a file (path) or of lines; errors are collected, not raised."""
    if isinstance(source, (str, Path)):
        with open(source, "rb") as handle:
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

RAMSCH_GAME_NAME = "ramsch"
"""A Ramsch in ``skat replay --json`` (it is no GameType: docs/house-rules.md)."""

GAME_NAMES = {  # as `skat replay --json` and the contract analysis' JSON name the games
    GameType.CLUBS: "clubs", GameType.SPADES: "spades", GameType.HEARTS: "hearts",
    GameType.DIAMONDS: "diamonds", GameType.GRAND: "grand", GameType.NULL: "null",
}


def summary(record: GameRecord) -> dict:
    """The result of a record as computed by the engine from its moves, in the
    shape of ``skat replay --json``.  The record's own R[...] is only compared:
    where it disagrees with the moves, ``result_mismatch`` says how; ``notes``
    lists what reading tolerated (both only when there is something to say)."""
    state = record.replay()
    out: dict = {"id": record.id, "passed": state.phase == Phase.PASSED}
    if RULES_HEADER in record.headers:
        out["rules"] = record.rules.to_dict()
    result = state.result()
    if isinstance(result, RamschResult) or (result is None and state.is_ramsch):
        _add_ramsch(out, result, state)
        _add_house_rules(out, record, state)
        _add_remarks(out, record, state)
        return out
    if result is None:
        decl = state.declaration  # an unfinished game keeps what its moves declared
        out.update({
            "declarer": state.declarer, "game": GAME_NAMES[decl.game] if decl else None,
            "hand": decl.hand if decl else None, "ouvert": decl.ouvert if decl else None,
            "schneider_announced": decl.schneider_announced if decl else None,
            "schwarz_announced": decl.schwarz_announced if decl else None, "matadors": None,
            "declarer_points": None, "declarer_tricks": None, "won": None, "overbid": None,
            "value": 0, "seeger_fabian": [0, 0, 0],
        })
        if not out["passed"]:
            out["abandoned"] = str(state.end or "unfinished")
        _add_house_rules(out, record, state)
        _add_remarks(out, record, state)
        return out
    decl = result.declaration
    out.update({
        "declarer": result.declarer,
        "game": GAME_NAMES[decl.game],
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
    if result.end != GameEnd.PLAYED:
        out["end"] = str(result.end)
    _add_house_rules(out, record, state)
    _add_remarks(out, record, state)
    return out


def _add_ramsch(out: dict, result: RamschResult | None, state: GameState) -> None:
    """A Ramsch in ``skat replay --json``: no declarer; points, tricks and list entries by seat."""
    out.update({"declarer": None, "game": RAMSCH_GAME_NAME, "pushes": state.pushes})
    if result is None:  # abandoned or unfinished: nothing scored
        out.update({"points": None, "tricks": None, "losers": None, "jungfrau": None, "durchmarsch": None,
                    "skat_to": None, "values": [0, 0, 0], "seeger_fabian": [0, 0, 0]})
        out["abandoned"] = str(state.end or "unfinished")
        return
    plain, seeger_fabian = result.scores_by_seat()
    out.update({
        "points": list(result.points), "tricks": list(result.tricks), "losers": list(result.losers),
        "jungfrau": result.jungfrau, "durchmarsch": result.durchmarsch, "skat_to": result.skat_to,
        "multiplier": result.multiplier, "values": list(plain), "seeger_fabian": list(seeger_fabian),
    })


def _add_house_rules(out: dict, record: GameRecord, state: GameState) -> None:
    """The fields of the house rules a game was played by (none for an ISkO game)."""
    if state.rules.kontra:
        out["kontra"] = state.kontra
        out["re"] = state.declarer if state.re else None
    if state.rules.bock or record.bock:
        out["bock"] = record.bock


def _add_remarks(out: dict, record: GameRecord, state: GameState) -> None:
    if record.notes:
        out["notes"] = list(record.notes)
    mismatch = result_mismatch(record, state)
    if mismatch:
        out["result_mismatch"] = mismatch


def result_mismatch(record: GameRecord, state: GameState | None = None) -> str | None:
    """How the record's own R[...] disagrees with what its moves give (declarer,
    won or lost, value; or a result for a game the moves do not finish), or None."""
    stated = parse_result_field(record.result_field)
    if not stated:
        return None
    state = state if state is not None else record.replay()
    if "ramsch" in stated:
        return _ramsch_mismatch(stated, state)
    if "passed" in stated:
        if state.phase == Phase.PASSED:
            return None
        return f"the record's result says the game was passed in, but {_how_moves_end(state)}"
    try:
        declarer = int(stated["d"])
        value = int(stated["v"]) if "v" in stated else None
    except (KeyError, ValueError):
        return None  # not a result this reader knows how to compare
    if declarer == -1:  # abandoned before a game was declared
        if state.is_over and state.declaration is None:
            return None
        return f"the record's result says no game was declared, but {_how_moves_end(state)}"
    won = "win" in stated
    said = f"declarer {declarer} {'won' if won else 'lost'}" + (f" {value}" if value is not None else "")
    if "p" in stated:
        said += f" with {stated['p']} card points"
    result = state.result()
    if result is None:
        return f"the record's result says {said}, but {_how_moves_end(state)}"
    if (result.declarer, result.won) != (declarer, won) or value not in (None, result.value):
        got = f"declarer {result.declarer} {'won' if result.won else 'lost'} {result.value}"
        return f"the record's result says {said}, but the moves give {got}"
    return _token_mismatch(stated, state, {"ko": "Kontra by seat", "rk": "Re"})


def _ramsch_mismatch(stated: dict[str, str], state: GameState) -> str | None:
    result = state.result()
    if not isinstance(result, RamschResult):
        return f"the record's result says a Ramsch was played, but {_how_moves_end(state)}"
    said = stated.get("v")
    if said is not None and said != _by_seat(result.values):
        return f"the record's result says the Ramsch scored {said}, but the moves give {_by_seat(result.values)}"
    return _token_mismatch(stated, state, {"pts": "card points", "tr": "tricks", "l": "losers",
                                           "jf": "Jungfrau", "dm": "Durchmarsch", "push": "pushes"})


_ALWAYS_WRITTEN = ("pts", "tr", "l")  # in every Ramsch result: one left out is not said, not "none"
_NONE_WRITTEN = {("-1", "ko"), ("-1", "jf"), ("-1", "dm"), ("0", "rk"), ("0", "push")}  # "no one", "not said"


def _token_mismatch(stated: dict[str, str], state: GameState, names: dict[str, str]) -> str | None:
    """The first of ``names``' tokens where the record's R[...] and the one the moves give
    (``result_field``) differ; a token the writer leaves out when it does not apply (ko, rk,
    jf, dm, push) counts as "none" when the record leaves it out too."""
    ours = parse_result_field(result_field(state))
    for key, name in names.items():
        said, got = stated.get(key), ours.get(key)
        if said is None and key in _ALWAYS_WRITTEN:
            continue
        if (said, key) in _NONE_WRITTEN:
            said = None
        if said != got:
            return (f"the record's result says {name} {said or 'none'} ({key}:{said or '-'}), but the moves give "
                    f"{got or 'none'}")
    return None


def _how_moves_end(state: GameState) -> str:
    if state.phase == Phase.PASSED:
        return "the moves pass the game in"
    if isinstance(state.result(), RamschResult):
        return "the moves play a Ramsch"
    if state.is_over:
        return f"the moves end the game with no declaration ({state.end})"
    if state.phase == Phase.PLAY:
        played = 3 * len(state.tricks) + len(state.trick)
        return f"the moves end at trick {len(state.tricks) + 1} after {played} cards"
    return f"the moves end in the {state.phase.value} phase"


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
    "iter_records", "read_lines", "summary", "parse_result_field", "result_field", "result_mismatch",
    "printable", "quote", "MAX_LINE", "QUOTE_LIMIT", "rules_header", "rules_from_header",
]
