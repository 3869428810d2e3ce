"""Game review: every card decision of a recorded game, scored twice.

For each card a seat played (in the order of the record) the review asks:

- what was possible: the double-dummy value of every legal card, all hands
  open (``engine.dds``), as the mover's side's final card points (null: won
  or lost), and whether the side wins after it;
- what a strong player could know: the evaluation of every legal card from
  the seat's own view (``state.view(seat)``) by PIMC or MCU at the given
  budget, as the side's expected card points and win share.

The chosen card's loss is its distance to the best legal card in both.  A
mark sums it up (thresholds below, documented in ``docs/review.md``):

``??`` blunder
    from the seat's view the chosen card wins ``BLUNDER_WIN_DROP`` less
    often than the best card, or turns a game won in expectation (win share
    of the best card at least 50 %) into one lost in expectation with a drop
    of ``TURN_WIN_DROP``, or costs ``BLUNDER_POINTS`` expected card points;
    or it turns a won game into a lost one double-dummy and the seat's view
    saw it coming (its win share drops by ``CONFIRM_WIN_DROP`` or more).
``?`` mistake
    a win-share drop of ``MISTAKE_WIN_DROP`` or ``MISTAKE_POINTS`` expected
    card points.
``!`` the only card
    double-dummy, the chosen card is the only legal card after which the
    side still wins (the others all lose).

A card lost double-dummy that the seat could not see (the own view saw no
real drop) gets no mark: the review shows it as ``won→lost`` in the
double-dummy column only.

Each decision's search is seeded from (seed, record ID, move number), so a
decision's result does not depend on the others, the order they run in, the
number of threads or worker processes: same seed and budget, same review.
Forced cards (one legal card) are listed but not searched.

The contract decisions (the pass that ends a seat's bidding and the
declarer's last bid or hold; taking the skat or playing hand; the discard
with the declaration) are reviewed by the search bidder
(``engine.players.bidding``) from the seat's own view: the expected
Seeger-Fabian score of the chosen option against the best one it found, marked
``?`` from ``CONTRACT_MISTAKE`` and ``??`` from ``CONTRACT_BLUNDER`` points.
A choice the bidder does not consider (a schneider announcement, an ouvert
suit game) is listed with the options but not judged.

A Ramsch (docs/house-rules.md) has no declarer and no sides: each card is
valued by the solver's paranoid Ramsch search (the mover against both others)
as the card points the mover ends with, lower being better, and marked by the
card points it gives away against the best card (``RAMSCH_MISTAKE_POINTS``,
``RAMSCH_BLUNDER_POINTS``).  The own-view search (PIMC/MCU) of a Ramsch is not
available to the review: those columns stay empty and the marks rest on the
double-dummy values alone.  The skat round (push, pick-up, Grand Hand) and with
Ramsch on the bidding are listed as not reviewed: the search bidder values a
pass as a game thrown in, which these rules do not have.

A Kontra or Re is judged as a card is (``CallReview``): the double-dummy outcome
of the game from the call on against the call, and the caller's side's win
share over the worlds the computer decides a call on.  A call the cards go
against is marked ``?`` when the caller's view was below the call's threshold
too, ``??`` when it was ``TURN_WIN_DROP`` further below.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .cards import Card, CardSet, cards_of
from .game import GameState, Phase, Play, Re, describe
from .limits import DEFAULT_SIMULATIONS, Limit
from .rules import SEAT_NAMES, SEAT_TITLES, GameType
from .workers import run_tasks

REVIEW_PLAYERS = ("pimc", "mcu", "mcts")

BLUNDER_WIN_DROP = 0.40
TURN_WIN_DROP = 0.25
BLUNDER_POINTS = 30.0
CONFIRM_WIN_DROP = 0.10
MISTAKE_WIN_DROP = 0.15
MISTAKE_POINTS = 12.0
CONTRACT_MISTAKE = 25.0
CONTRACT_BLUNDER = 60.0
REVIEW_BIDDER = {"anchored": False, "risk": 0.0}
"""The judge of contract decisions: the search's best expected score alone, no bar
(not the playing bidder's caution, which anchors on the heuristic)."""
"""Expected Seeger-Fabian points a contract choice loses against the bidder's best option."""
RAMSCH_MISTAKE_POINTS = 10
RAMSCH_BLUNDER_POINTS = 20
"""Ramsch: card points the chosen card gives the mover double-dummy (paranoid) over the best card."""
GOOD_WIN_DROP = 0.05
GOOD_POINTS = 5.0
"""A choice counts as accurate when it loses less than both of these against the best card."""

BLUNDER, MISTAKE, ONLY_CARD = "??", "?", "!"

FORMAT_VERSION = 3


@dataclass(frozen=True)
class CardValue:
    """One legal card of a decision, for the mover's side."""

    card: str
    """ISS notation (e.g. ``CJ``)."""
    dd_points: int | None
    """Double-dummy: the side's final card points under best play after this card (None in null)."""
    dd_won: bool
    """Double-dummy: the side wins after this card."""
    view_points: float | None = None
    """Own view: the side's expected final card points (None in null, or when not searched)."""
    view_win: float | None = None
    """Own view: the share of sampled worlds the side wins."""


@dataclass(frozen=True)
class DecisionReview:
    move: int
    """Index of the move in the record (0-based)."""
    trick: int
    position: int
    """The card's place in the trick, 1..3."""
    seat: int
    declarer_side: bool
    chosen: str
    cards: tuple[CardValue, ...]
    forced: bool
    dd_loss_points: int | None
    dd_turned: bool
    """The best card wins double-dummy, the chosen one loses."""
    view_loss_points: float | None
    view_loss_win: float | None
    mark: str
    declarer_dd_after: float
    """1 if the declarer wins double-dummy after the chosen card, else 0."""
    declarer_view_after: float | None
    """The declarer's winning chance after the chosen card, from the mover's view (None: forced card)."""
    worlds: int = 0
    ramsch: bool = False
    """A Ramsch card: ``dd_points`` are the mover's own card points, paranoid (lower is better)."""

    @property
    def chosen_value(self) -> CardValue:
        return next(c for c in self.cards if c.card == self.chosen)

    def to_dict(self) -> dict:
        out = asdict(self)
        out["cards"] = [asdict(c) for c in self.cards]
        return out

    @classmethod
    def from_dict(cls, data: dict) -> DecisionReview:
        data = dict(data)
        data["cards"] = tuple(CardValue(**c) for c in data["cards"])
        return cls(**data)


@dataclass(frozen=True)
class ContractOption:
    name: str
    """'pass', 'skat' (take it), a game as ``game_name`` gives it ('grand hand', 'clubs')."""
    expected: float
    """The seat's expected Seeger-Fabian score (difference to the other two) by the search bidder."""
    discard: str = ""
    """ISS cards put away with this game (discard decisions)."""


@dataclass(frozen=True)
class ContractReview:
    move: int
    phase: str
    """'bidding', 'skat' (take it or play hand) or 'discard' (with the declaration)."""
    seat: int
    chosen: str
    """The option chosen, as ``ContractOption.name`` (with ' · ' and the discard after a discard)."""
    stake: int
    """The bid at stake."""
    options: tuple[ContractOption, ...]
    chosen_index: int | None
    """Where the chosen option is among ``options`` (None: the bidder did not consider it)."""
    loss: float | None
    mark: str
    worlds: int = 0

    def to_dict(self) -> dict:
        out = asdict(self)
        out["options"] = [asdict(o) for o in self.options]
        return out

    @classmethod
    def from_dict(cls, data: dict) -> ContractReview:
        data = dict(data)
        data["options"] = tuple(ContractOption(**o) for o in data["options"])
        return cls(**data)


@dataclass(frozen=True)
class CallReview:
    """A Kontra or Re, judged as a card is: the doubled game's double-dummy outcome against
    the call, and the caller's side's win share from the caller's own view."""

    move: int
    seat: int
    call: str
    """'Kontra' or 'Re'."""
    side_wins_dd: bool
    """Double-dummy, all hands open, the caller's side wins the game from the call on."""
    view_win: float | None
    """The caller's side's win share over the caller's own worlds (those a call is decided on)."""
    threshold: float
    """The share from which the computer makes this call (``engine.players.calls``)."""
    mark: str
    worlds: int = 0

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> CallReview:
        return cls(**data)


def call_mark(side_wins_dd: bool, view_win: float | None, threshold: float) -> str:
    """A call the double-dummy outcome goes against is marked when the caller's own view did
    not support it either (below the call's threshold; ?? a further ``TURN_WIN_DROP`` below);
    a call that was sound from the seat's view and lost to the lie of the cards is not."""
    if side_wins_dd or view_win is None or view_win >= threshold - 1e-9:
        return ""
    return BLUNDER if view_win < threshold - TURN_WIN_DROP else MISTAKE


@dataclass(frozen=True)
class SeatSummary:
    seat: int
    name: str
    decisions: int
    """Cards played (forced ones included)."""
    choices: int
    """Cards played with more than one legal card."""
    accurate: int
    mistakes: int
    blunders: int
    only_cards: int
    dd_turned: int
    mean_loss_points: float | None
    mean_loss_win: float | None
    accuracy: float | None
    """Percent of choices that lose less than GOOD_POINTS and GOOD_WIN_DROP against the best card (own view)."""
    contract_decisions: int = 0
    contract_loss: float | None = None
    """Expected Seeger-Fabian points lost in the contract decisions the bidder could judge, summed."""


@dataclass
class GameReview:
    record_id: str
    players: tuple[str, str, str]
    game: str
    declarer: int | None
    player: str
    limit: dict
    seed: int
    decisions: list[DecisionReview] = field(default_factory=list)
    declarer_dd_start: float | None = None
    """1 if the declarer wins double-dummy at the opening lead, else 0 (None: no card play)."""
    contracts: list[ContractReview] = field(default_factory=list)
    record_hash: str = ""
    """``record_fingerprint`` of the record reviewed: a cached review of a record since changed is not used."""
    ramsch: bool = False
    """A Ramsch: the cards are valued by the paranoid search as the mover's own card points (lower is better)."""
    not_reviewed: list[str] = field(default_factory=list)
    """Decisions listed but not reviewed (a Ramsch's skat round), as text: 'Bob: push'."""
    calls: list[CallReview] = field(default_factory=list)
    """The Kontra and Re said in the game (house rule)."""

    def summaries(self) -> list[SeatSummary]:
        return [summarize_seat(seat, self.players[seat], [d for d in self.decisions if d.seat == seat],
                               [c for c in self.contracts if c.seat == seat],
                               [c for c in self.calls if c.seat == seat])
                for seat in range(3)]

    def marked(self) -> list[DecisionReview | ContractReview | CallReview]:
        """Every decision marked ? or ?? (contract, call and card), in the order of the moves."""
        return sorted((d for d in [*self.contracts, *self.calls, *self.decisions] if d.mark in (BLUNDER, MISTAKE)),
                      key=lambda d: d.move)

    def call_at(self, move: int) -> CallReview | None:
        return next((c for c in self.calls if c.move == move), None)

    def next_mark(self, after_move: int) -> DecisionReview | ContractReview | CallReview | None:
        """The first marked mistake or blunder at a move after ``after_move`` (None if none)."""
        return next((d for d in self.marked() if d.move > after_move), None)

    def contract_at(self, move: int) -> ContractReview | None:
        return next((c for c in self.contracts if c.move == move), None)

    def decision_at(self, move: int) -> DecisionReview | None:
        for d in self.decisions:
            if d.move == move:
                return d
        return None

    def header_dict(self) -> dict:
        return {"type": "game", "id": self.record_id, "players": list(self.players), "game": self.game,
                "declarer": self.declarer, "player": self.player, "limit": self.limit, "seed": self.seed,
                "declarer_dd_start": self.declarer_dd_start, "record_hash": self.record_hash,
                "ramsch": self.ramsch, "not_reviewed": self.not_reviewed, "version": FORMAT_VERSION}

    def json_lines(self) -> list[str]:
        """One line for the game, one per decision, one summary line."""
        lines = [json.dumps(self.header_dict())]
        for c in self.contracts:
            lines.append(json.dumps({"type": "contract", "id": self.record_id, **c.to_dict()}))
        for c in self.calls:
            lines.append(json.dumps({"type": "call", "id": self.record_id, **c.to_dict()}))
        for d in self.decisions:
            lines.append(json.dumps({"type": "decision", "id": self.record_id, **d.to_dict()}))
        lines.append(json.dumps({"type": "summary", "id": self.record_id,
                                 "seats": [asdict(s) for s in self.summaries()]}))
        return lines

    @classmethod
    def from_json_lines(cls, lines: Iterable[str]) -> GameReview:
        review: GameReview | None = None
        for line in lines:
            data = json.loads(line)
            kind = data.pop("type")
            if kind == "game":
                if data.get("version") != FORMAT_VERSION:
                    raise ValueError(f"review format {data.get('version')} is not {FORMAT_VERSION}")
                review = cls(data["id"], tuple(data["players"]), data["game"], data["declarer"], data["player"],
                             data["limit"], data["seed"], declarer_dd_start=data["declarer_dd_start"],
                             record_hash=data.get("record_hash", ""), ramsch=data.get("ramsch", False),
                             not_reviewed=list(data.get("not_reviewed", [])))
            elif kind in ("decision", "contract", "call"):
                if review is None:
                    raise ValueError(f"a {kind} line before its game line")
                data.pop("id")
                if kind == "decision":
                    review.decisions.append(DecisionReview.from_dict(data))
                elif kind == "contract":
                    review.contracts.append(ContractReview.from_dict(data))
                else:
                    review.calls.append(CallReview.from_dict(data))
        if review is None:
            raise ValueError("no game line")
        return review


def summarize_seat(seat: int, name: str, decisions: list[DecisionReview],
                   contracts: list[ContractReview] = (), calls: list[CallReview] = ()) -> SeatSummary:
    choices = [d for d in decisions if not d.forced]
    judged = [c.loss for c in contracts if c.loss is not None]
    searched = [d for d in choices if d.view_loss_win is not None]
    point_losses = [d.view_loss_points for d in searched if d.view_loss_points is not None]
    accurate = sum(1 for d in searched if _accurate(d))
    return SeatSummary(
        seat=seat, name=name, decisions=len(decisions), choices=len(choices), accurate=accurate,
        mistakes=sum(d.mark == MISTAKE for d in [*decisions, *contracts, *calls]),
        blunders=sum(d.mark == BLUNDER for d in [*decisions, *contracts, *calls]),
        only_cards=sum(d.mark == ONLY_CARD for d in decisions), dd_turned=sum(d.dd_turned for d in decisions),
        mean_loss_points=round(sum(point_losses) / len(point_losses), 2) if point_losses else None,
        mean_loss_win=round(sum(d.view_loss_win for d in searched) / len(searched), 4) if searched else None,
        accuracy=round(100.0 * accurate / len(searched), 1) if searched else None,
        contract_decisions=len(contracts), contract_loss=round(sum(judged), 1) if judged else None,
    )


def _accurate(d: DecisionReview) -> bool:
    return (d.view_loss_win or 0.0) < GOOD_WIN_DROP and (d.view_loss_points or 0.0) < GOOD_POINTS


def mark_for(cards: tuple[CardValue, ...], chosen: str, forced: bool) -> tuple[str, bool]:
    """The mark of a decision and whether the chosen card turns a double-dummy win into a loss."""
    if forced:
        return "", False
    mine = next(c for c in cards if c.card == chosen)
    dd_turned = any(c.dd_won for c in cards) and not mine.dd_won
    if mine.view_win is None:  # no own-view search: double-dummy alone does not judge a player
        return "", dd_turned
    best_win = max(c.view_win for c in cards)
    win_drop = best_win - mine.view_win + 1e-9  # shares are sums of 1/worlds: no rounding below a threshold
    point_drop = 0.0
    if mine.view_points is not None:
        point_drop = max(c.view_points for c in cards) - mine.view_points + 1e-9
    turned_in_expectation = best_win >= 0.5 > mine.view_win and win_drop >= TURN_WIN_DROP
    if (win_drop >= BLUNDER_WIN_DROP or turned_in_expectation or point_drop >= BLUNDER_POINTS
            or (dd_turned and win_drop >= CONFIRM_WIN_DROP)):
        return BLUNDER, dd_turned
    if win_drop >= MISTAKE_WIN_DROP or point_drop >= MISTAKE_POINTS:
        return MISTAKE, dd_turned
    if mine.dd_won and sum(c.dd_won for c in cards) == 1:
        return ONLY_CARD, dd_turned
    return "", dd_turned


# ---------------------------------------------------------------- computing


def record_fingerprint(record) -> str:
    """A short hash of the record's deal and moves (the ISS text of its MV field)."""
    text = " ".join(f"{actor} {action}" for actor, action in record.tokens)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def decision_seed(seed: int, record_id: str, move: int) -> int:
    digest = hashlib.sha256(f"{seed}:{record_id}:{move}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def double_dummy_values(state: GameState) -> dict[Card, tuple[int | None, bool]]:
    """Per legal card of the seat to move: (the side's final card points or None in null, the side wins)."""
    from .dds.solver import solve
    from .positions import solver_position

    seat = state.to_move
    declarer_side = seat == state.declarer
    result = solve(solver_position(state))
    out = {}
    for card, value in result.per_card.items():
        if state.declaration.game == GameType.NULL:
            declarer_wins = value == 1
            points = None
        else:
            declarer_wins = value >= state.declaration.points_needed
            points = value if declarer_side else 120 - value
        out[Card(card)] = (points, declarer_wins == declarer_side)
    return out


def review_decision(state: GameState, move_index: int, chosen: Card, player_kind: str, limit: Limit, seed: int,
                    record_id: str, threads: int = 1) -> DecisionReview:
    """The review of the card ``chosen`` by the seat to move in the full state ``state``."""
    from .players.registry import make_player

    seat = state.to_move
    declarer_side = seat == state.declarer
    null_game = state.declaration.game == GameType.NULL
    legal = tuple(cards_of(state.legal_cards()))
    dd = double_dummy_values(state)
    forced = len(legal) == 1
    view_stats = {}
    worlds = 0
    if not forced:
        player = make_player(f"{player_kind}:threads={threads}", decision_seed(seed, record_id, move_index))
        analysis = player.choose_card(state.view(seat), limit, None, None).analysis
        worlds = analysis.simulations
        view_stats = {s.card: s for s in analysis.cards}
    values = []
    for card in legal:
        points, won = dd[card]
        stats = view_stats.get(card)
        values.append(CardValue(
            str(card), points, won,
            None if stats is None or null_game else round(stats.mean, 2),
            None if stats is None else round(stats.win_share, 4),
        ))
    values = tuple(values)
    mine = next(v for v in values if v.card == str(chosen))
    mark, dd_turned = mark_for(values, str(chosen), forced)
    dd_loss = None
    if not null_game:
        dd_loss = max(v.dd_points for v in values) - mine.dd_points
    view_loss_points = view_loss_win = None
    if mine.view_win is not None:
        view_loss_win = round(max(v.view_win for v in values) - mine.view_win, 4)
        if mine.view_points is not None:
            view_loss_points = round(max(v.view_points for v in values) - mine.view_points, 2)
    declarer_view = None
    if mine.view_win is not None:
        declarer_view = mine.view_win if declarer_side else round(1.0 - mine.view_win, 4)
    return DecisionReview(
        move=move_index, trick=len(state.tricks) + 1, position=len(state.trick) + 1, seat=seat,
        declarer_side=declarer_side, chosen=str(chosen), cards=values, forced=forced,
        dd_loss_points=dd_loss, dd_turned=dd_turned, view_loss_points=view_loss_points,
        view_loss_win=view_loss_win, mark=mark,
        declarer_dd_after=float(mine.dd_won == declarer_side), declarer_view_after=declarer_view, worlds=worlds,
    )


def ramsch_mark(loss: int, forced: bool) -> str:
    if forced:
        return ""
    if loss >= RAMSCH_BLUNDER_POINTS:
        return BLUNDER
    return MISTAKE if loss >= RAMSCH_MISTAKE_POINTS else ""


def review_ramsch_decision(state: GameState, move_index: int, chosen: Card) -> DecisionReview:
    """The review of the card ``chosen`` in a Ramsch: each legal card's value is the card points
    the mover ends with, searched paranoid (``engine.positions.ramsch_solve``); no own view."""
    from .positions import ramsch_solve

    legal = tuple(cards_of(state.legal_cards()))
    per_card = ramsch_solve(state).per_card
    values = tuple(CardValue(str(card), per_card[card], False) for card in legal)
    mine = next(v for v in values if v.card == str(chosen))
    forced = len(legal) == 1
    loss = mine.dd_points - min(v.dd_points for v in values)
    return DecisionReview(
        move=move_index, trick=len(state.tricks) + 1, position=len(state.trick) + 1, seat=state.to_move,
        declarer_side=False, chosen=str(chosen), cards=values, forced=forced, dd_loss_points=loss,
        dd_turned=False, view_loss_points=None, view_loss_win=None, mark=ramsch_mark(loss, forced),
        declarer_dd_after=0.0, declarer_view_after=None, ramsch=True,
    )


def unreviewed_moves(record) -> list[str]:
    """The house-rule decisions the review lists but does not judge, a line each: a Ramsch's
    skat round ('Bob: takes the skat', worded as at the table)."""
    positions = record.positions()
    names = tuple(record.players)
    return [f"{names[seat] or SEAT_NAMES[seat]}: {describe(move, skat_round=True)}"
            for index, (seat, move) in enumerate(record.moves)
            if positions[index].phase in (Phase.RAMSCH_SKAT, Phase.RAMSCH_DISCARD)]


def contract_mark(loss: float | None) -> str:
    if loss is None:
        return ""
    if loss >= CONTRACT_BLUNDER - 1e-9:
        return BLUNDER
    return MISTAKE if loss >= CONTRACT_MISTAKE - 1e-9 else ""


def _judged(move: int, phase: str, seat: int, chosen: str, stake: int, options: list[ContractOption],
            chosen_index: int | None, worlds: int) -> ContractReview:
    loss = None
    if chosen_index is not None:
        loss = round(max(o.expected for o in options) - options[chosen_index].expected, 2)
    return ContractReview(move, phase, seat, chosen, stake, tuple(options), chosen_index, loss,
                          contract_mark(loss), worlds)


def review_contracts(record, worlds: int, seed: int) -> list[ContractReview]:
    """The bids, holds and passes, the skat-or-hand choice and the discard with the declaration,
    each valued by the search bidder from the seat's own view (``worlds`` sampled worlds)."""
    from .game import Bid, Declare, Discard, Hold, Pass, PickUp
    from .players.bidding import PASS_WORTH, SearchBidder, game_name

    positions = record.positions()
    moves = record.moves
    # With Ramsch on, passing leads to a Ramsch, not a game thrown in as the bidder values it
    review_bidding = not record.rules.ramsch
    # Of the bidding only what decided it: each pass, and the declarer's last bid or hold
    # (the steps in between are the same decision again at a lower stake).
    declarer = next((p.declarer for p in positions if p.phase != Phase.BIDDING and p.declarer is not None), None)
    last_commitment = max((i for i, (seat, move) in enumerate(moves)
                           if seat == declarer and isinstance(move, (Bid, Hold))
                           and positions[i].phase == Phase.BIDDING), default=None)
    out = []
    for index, (seat, move) in enumerate(moves):
        state = positions[index]
        if state.phase == Phase.BIDDING and not review_bidding:
            continue
        if state.phase == Phase.BIDDING and (isinstance(move, Pass) or index == last_commitment):
            if isinstance(move, Bid):
                stake = move.value
            elif isinstance(move, Hold) or state.awaiting_listener:
                stake = state.bid
            else:
                stake = state.next_bid()
            if stake is None:
                continue
            bidder = SearchBidder(worlds, decision_seed(seed, record.id, f"bidding-{seat}"), **REVIEW_BIDDER)
            evaluation = bidder.value_hand(state.view(seat), worlds)
            expected, hand_game = evaluation.expected(stake)
            play = "bid: " + ("skat" if hand_game is None else game_name(hand_game))
            options = [ContractOption("pass", PASS_WORTH), ContractOption(play, round(expected, 2))]
            chosen = 0 if isinstance(move, Pass) else 1
            out.append(_judged(index, "bidding", seat, options[chosen].name, stake, options, chosen,
                               evaluation.simulations))
        elif state.phase == Phase.SKAT and isinstance(move, (PickUp, Declare)):
            bidder = SearchBidder(worlds, decision_seed(seed, record.id, index), **REVIEW_BIDDER)
            bidder.choose(state.view(seat), worlds)
            analysis = bidder.last_analysis
            options = [ContractOption(c.game, round(c.expected, 2)) for c in analysis.candidates]
            name = "skat" if isinstance(move, PickUp) else game_name(move.declaration)
            names = [o.name for o in options]
            out.append(_judged(index, "skat", seat, name, state.bid, options,
                               names.index(name) if name in names else None, analysis.simulations))
        elif state.phase == Phase.DISCARD and isinstance(move, Discard) and move.cards is not None:
            declared = next((m for _, m in moves[index + 1:] if isinstance(m, Declare)), None)
            if declared is None:
                continue
            bidder = SearchBidder(worlds, decision_seed(seed, record.id, index), **REVIEW_BIDDER)
            analysis = bidder.analyze_discard(state.view(seat), declared.declaration, move.cards, worlds)
            if analysis is None:
                continue  # no declaration the rules allow at this bid: nothing to compare
            options = [ContractOption(c.game, round(c.expected, 2), str(CardSet(c.discard or 0)))
                       for c in analysis.candidates]
            discard = str(CardSet(move.cards))
            name = game_name(declared.declaration)
            keys = [(o.name, o.discard) for o in options]
            chosen = keys.index((name, discard)) if (name, discard) in keys else None
            out.append(_judged(index, "discard", seat, f"{name} · {discard}", state.bid, options, chosen,
                               analysis.simulations))
    return out


def review_calls(record, player_kind: str, limit: Limit, seed: int, threads: int = 1) -> list[CallReview]:
    """Each Kontra and Re of ``record``: the double-dummy outcome from the call on, and the
    caller's side's win share over the worlds the computer decides a call on."""
    from .game import Kontra
    from .players.calls import RE_WIN_SHARE
    from .players.registry import make_player

    positions = record.positions()
    out = []
    for index, (seat, move) in enumerate(record.moves):
        if not isinstance(move, (Kontra, Re)):
            continue
        state = positions[index]  # before the call: the same cards, and the seat to move is the caller
        side_wins_dd = any(won for _, won in double_dummy_values(state).values())
        player = make_player(f"{player_kind}:threads={threads}", decision_seed(seed, record.id, index))
        analysis = player.choose_card(state.view(seat), limit, None, None, value_single_card=True,
                                      read_bidding=True).analysis
        stats = analysis.stats_for(analysis.chosen) if analysis.chosen is not None else None
        view_win = None if stats is None or stats.simulations == 0 else round(stats.win_share, 4)
        is_kontra = isinstance(move, Kontra)
        threshold = player.kontra_win_share if is_kontra else RE_WIN_SHARE
        out.append(CallReview(index, seat, "Kontra" if is_kontra else "Re", side_wins_dd, view_win, threshold,
                              call_mark(side_wins_dd, view_win, threshold), analysis.simulations))
    return out


def card_decisions(record) -> list[tuple[int, GameState, Card]]:
    """(move index, full state before the card, the card played) for every card of the record."""
    positions = record.positions()
    return [(index, positions[index], move.card) for index, (_, move) in enumerate(record.moves)
            if isinstance(move, Play)]


def describe_game(record) -> tuple[str, int | None]:
    """The declared game (e.g. 'Grand hand') and the declarer, from the record's moves."""
    state = record.replay()
    if state.is_ramsch:
        return "Ramsch", None
    if state.declaration is None:
        return ("passed in" if state.phase == Phase.PASSED else "not declared"), None
    return state.declaration.describe(), state.declarer


class ReviewStopped(RuntimeError):
    """``stop`` was set before the review of a record was complete (nothing of it is kept)."""


def review_record(record, player_kind: str = "pimc", limit: Limit | None = None, seed: int = 1,
                  threads: int = 1, on_decision: Callable[[int, int], None] | None = None,
                  stop=None) -> GameReview:
    """The review of every card decision of ``record``; ``on_decision(done, total)`` after each.
    Setting ``stop`` (a ``threading.Event``) raises ``ReviewStopped`` after the decision in progress."""
    if player_kind not in REVIEW_PLAYERS:
        raise ValueError(f"the review player must be one of {', '.join(REVIEW_PLAYERS)}, not {player_kind!r}")
    limit = limit or Limit(simulations=DEFAULT_SIMULATIONS)
    players = tuple(record.players) if len(tuple(record.players)) == 3 else SEAT_TITLES
    game, declarer = describe_game(record)
    review = GameReview(record.id, players, game, declarer, player_kind,
                        {"time": limit.time, "simulations": limit.simulations}, seed,
                        record_hash=record_fingerprint(record), ramsch=game == "Ramsch")
    decisions = card_decisions(record)
    review.not_reviewed = unreviewed_moves(record)
    if record.rules.ramsch:
        review.not_reviewed.insert(0, "the bidding (with Ramsch on, passing is not a game thrown in)")
    for done, (index, state, card) in enumerate(decisions, 1):
        if stop is not None and stop.is_set():
            raise ReviewStopped(f"the review of record {record.id} was stopped")
        if review.ramsch:
            review.decisions.append(review_ramsch_decision(state, index, card))
        else:
            review.decisions.append(review_decision(state, index, card, player_kind, limit, seed, record.id,
                                                    threads))
        if on_decision:
            on_decision(done, len(decisions))
    review.contracts = review_contracts(record, limit.simulations or DEFAULT_SIMULATIONS, seed)
    review.calls = review_calls(record, player_kind, limit, seed, threads)
    if review.decisions and not review.ramsch:
        first = review.decisions[0]
        review.declarer_dd_start = float(any(c.dd_won for c in first.cards) == first.declarer_side)
    return review


# ---------------------------------------------------------------- cache beside the record


def cache_path(record_file: str | Path) -> Path:
    """Where the reviews of a record file are kept: ``FILE.review.jsonl`` beside it."""
    path = Path(record_file)
    return path.with_name(path.name + ".review.jsonl")


def load_cached(record_file: str | Path) -> dict[str, GameReview]:
    """Reviews stored beside a record file, by record ID (empty if none or unreadable)."""
    path = cache_path(record_file)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return {}
    groups: dict[str, list[str]] = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            record_id = json.loads(line).get("id")
        except (ValueError, AttributeError):
            return {}  # a damaged cache is recomputed, never half-used
        groups.setdefault(str(record_id), []).append(line)
    out = {}
    for record_id, lines in groups.items():
        try:
            out[record_id] = GameReview.from_json_lines(lines)
        except (ValueError, KeyError, TypeError):
            continue
    return out


def store_cached(record_file: str | Path, reviews: Iterable[GameReview]) -> Path:
    """Add or replace these reviews in the cache beside the record file (written atomically)."""
    import os
    import tempfile

    existing = load_cached(record_file)
    for review in reviews:
        existing[review.record_id] = review
    path = cache_path(record_file)
    text = "".join(line + "\n" for review in existing.values() for line in review.json_lines())
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


# ---------------------------------------------------------------- many records


def _review_task(record_text: str, player_kind: str, time_budget: float | None, simulations: int | None,
                 seed: int, threads: int) -> GameReview:
    """One record, reviewed in a worker process (or a Dask worker): pure and seeded."""
    from .record import parse_record

    return review_record(parse_record(record_text), player_kind, Limit(time=time_budget, simulations=simulations),
                         seed, threads)


def review_records(records: list, player_kind: str = "pimc", limit: Limit | None = None, seed: int = 1,
                   workers: int = 1, scheduler: str | None = None,
                   on_progress: Callable[[float, int], None] | None = None,
                   on_review: Callable[[int, GameReview], None] | None = None,
                   on_error: Callable[[object, Exception], None] | None = None) -> list[GameReview]:
    """Reviews of ``records`` in their order.  One record uses ``workers`` threads in its searches;
    several are shared out to ``workers`` processes (one record each) or a Dask cluster.
    ``on_progress(records_done, total)`` may report fractions of a record; ``on_review(index, review)``
    gets each review as it is finished (in any order).  A record whose review fails is left out and
    handed to ``on_error(record, exception)`` (raised again without it); the others go on."""
    limit = limit or Limit(simulations=DEFAULT_SIMULATIONS)
    if player_kind not in REVIEW_PLAYERS:
        raise ValueError(f"the review player must be one of {', '.join(REVIEW_PLAYERS)}, not {player_kind!r}")
    total = len(records)
    done: dict[int, GameReview] = {}

    failed: set[int] = set()

    def finished(index: int, review: GameReview | Exception) -> None:
        if isinstance(review, Exception):
            if on_error is None:
                raise review
            failed.add(index)
            on_error(records[index], review)
        else:
            done[index] = review
            if on_review:
                on_review(index, review)
        if on_progress:
            on_progress(len(done) + len(failed), total)

    if scheduler or (workers > 1 and total > 1):
        from .record import format_record

        tasks = [(format_record(record), player_kind, limit.time, limit.simulations, seed, 1) for record in records]
        run_tasks(_review_task, tasks, finished, workers, scheduler, errors_as_results=True)
    else:
        for index, record in enumerate(records):
            def partial(cards_done: int, cards_total: int) -> None:
                if on_progress:
                    on_progress(len(done) + len(failed) + cards_done / max(1, cards_total), total)
            try:
                review = review_record(record, player_kind, limit, seed, max(1, workers), partial)
            except Exception as exc:  # one bad record must not cost the others their review
                review = exc
            finished(index, review)
    return [done[i] for i in sorted(done)]
