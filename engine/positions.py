"""Positions of recorded or live games as double-dummy solver input."""

from __future__ import annotations

from .game import GameState, Phase


def solver_position(state: GameState):
    """The solver's Position for a full state in the play phase (all hands known)."""
    from .dds.solver import Position

    if state.phase != Phase.PLAY or state.perspective is not None:
        raise ValueError("the solver needs the full state of a game in play")
    if state.is_ramsch:
        raise ValueError("a Ramsch has no declarer: it is searched paranoid (ramsch_solve), not as a declared game")
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
    return _first_position(record, lambda state: len(state.tricks) == trick - 1 and not state.trick,
                           f"the start of trick {trick}")


def state_before_card(record, trick: int, card: int = 1) -> GameState:
    """The state of a record before card ``card`` (1..3) of trick ``trick`` (1..10)."""
    if not 1 <= trick <= 10 or not 1 <= card <= 3:
        raise ValueError("trick must be 1..10 and card 1..3")
    return _first_position(record, lambda state: len(state.tricks) == trick - 1 and len(state.trick) == card - 1,
                           f"card {card} of trick {trick}")


def _first_position(record, reached, what: str) -> GameState:
    """The record's first state in play for which ``reached`` holds."""
    for state in record.positions():
        if state.phase == Phase.PLAY and reached(state):
            return state
    raise ValueError(f"the game does not reach {what}")


def ramsch_solve(state: GameState):
    """A Ramsch position searched paranoid (``engine.dds.solver.solve_ramsch``) for the seat
    to move: the card points it ends with (the skat with the last trick) when both others
    play to give it as many as they can, overall and after each legal card; lower is better."""
    from .cards import points_of
    from .dds.solver import solve_ramsch

    if state.phase != Phase.PLAY or state.perspective is not None or not state.is_ramsch:
        raise ValueError("the Ramsch search needs the full state of a Ramsch in play")
    return solve_ramsch(tuple(state.hands), tuple(int(c) for c in state.trick), state.leader,
                        state.points[state.to_move], points_of(state.skat))
