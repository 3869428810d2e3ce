"""Positions of recorded or live games as double-dummy solver input."""

from __future__ import annotations

from .game import GameState, Phase


def solver_position(state: GameState):
    """The solver's Position for a full state in the play phase (all hands known)."""
    from .dds.solver import Position

    if state.phase != Phase.PLAY or state.perspective is not None:
        raise ValueError("the solver needs the full state of a game in play")
    d = state.declarer
    declarer_points = state.declarer_points
    defender_points = sum(state.points) - state.points[d]
    return Position(
        game=state.declaration.game,
        declarer=d,
        hands=(state.hands[0], state.hands[1], state.hands[2]),
        trick=tuple(int(c) for c in state.trick),
        leader=state.leader,
        declarer_points=declarer_points,
        declarer_tricks=state.trick_counts[d],
        defender_points=defender_points,
    )


def state_at_trick(record, trick: int) -> GameState:
    """The state of a record at the start of trick ``trick`` (1 = before the opening lead)."""
    state = GameState.new(record.deal)
    for _, move in record.moves:
        if state.phase == Phase.PLAY and len(state.tricks) == trick - 1 and not state.trick:
            break
        state.push(move)
    if not (state.phase == Phase.PLAY and len(state.tricks) == trick - 1 and not state.trick):
        raise ValueError(f"the game does not reach the start of trick {trick}")
    return state


def state_before_card(record, trick: int, card: int = 1) -> GameState:
    """The state of a record before card ``card`` (1..3) of trick ``trick`` (1..10)."""
    if not 1 <= trick <= 10 or not 1 <= card <= 3:
        raise ValueError("trick must be 1..10 and card 1..3")
    state = GameState.new(record.deal)

    def reached() -> bool:
        return state.phase == Phase.PLAY and len(state.tricks) == trick - 1 and len(state.trick) == card - 1

    for _, move in record.moves:
        if reached():
            return state
        state.push(move)
    if reached():
        return state
    raise ValueError(f"the game does not reach card {card} of trick {trick}")
