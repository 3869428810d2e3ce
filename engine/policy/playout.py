"""Python-facing playouts with the heuristic card play (for MCU and benchmarks).

A playout finishes a game from some position with three heuristic players,
each deciding only from its own hand in that world and the public
information: the cards played, the current trick, who declared, the voids
each seat has shown, the game type, the skat for the declarer who took it,
and the declarer's hand in an ouvert game.

Points: positions carry the card points taken in tricks so far; the skat of
the world (untouched, or the discard) is added to the declarer, as the
engine does, so a finished suit or grand playout always splits 120 points.
Null playouts stop as soon as the declarer takes a trick.

``playout`` runs one world; ``playout_worlds`` and ``playout_cards`` run many
in one numba call that releases the GIL, so several threads can share the
work.  ``PublicPosition.from_view`` reads a position from a seat's view.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ..cards import Mask, mask_of
from ..game import GameState, Phase
from ..rules import GameType, void_classes
from . import heuristic_core, playout_core as core


class PlayoutResult(NamedTuple):
    declarer_points: int
    """Card points of the declarer at the end, the skat included."""
    defender_points: int
    declarer_tricks: int
    defender_tricks: int


@dataclass(frozen=True)
class PublicPosition:
    """What everybody knows about a position in the play phase."""

    game: GameType
    declarer: int
    trick: tuple[int, ...]
    """Cards of the current trick, in play order."""
    leader: int
    """Seat that led the current trick (to lead, if it is empty)."""
    declarer_points: int
    """Card points the declarer took in tricks so far (the skat not included)."""
    defender_points: int
    declarer_tricks: int
    defender_tricks: int
    played: Mask
    """All cards played, the current trick included."""
    voids: tuple[int, int, int]
    ouvert: bool = False

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % 3

    @classmethod
    def from_view(cls, view: GameState) -> PublicPosition:
        if view.phase != Phase.PLAY or view.declaration is None:
            raise ValueError("a playout position needs a game in the play phase")
        game = view.declaration.game
        decl = view.declarer
        declarer_tricks = view.trick_counts[decl]
        return cls(
            game=game,
            declarer=decl,
            trick=tuple(int(c) for c in view.trick),
            leader=view.leader,
            declarer_points=view.points[decl],
            defender_points=sum(view.points) - view.points[decl],
            declarer_tricks=declarer_tricks,
            defender_tricks=sum(view.trick_counts) - declarer_tricks,
            played=view.played,
            voids=void_classes(game, view.tricks, view.trick, view.leader),
            ouvert=bool(view.declaration.ouvert),
        )


def _trick_array(trick: tuple[int, ...]) -> np.ndarray:
    arr = np.zeros(3, np.int64)
    for i, card in enumerate(trick):
        arr[i] = card
    return arr


def _seed(seed: int | None) -> int:
    return random.getrandbits(62) if seed is None else seed


def playout(
    game: GameType | int,
    declarer: int,
    hands: tuple[Mask, Mask, Mask],
    trick_cards: tuple[int, ...] = (),
    leader: int = 0,
    declarer_points: int = 0,
    defender_points: int = 0,
    declarer_tricks: int = 0,
    defender_tricks: int | None = None,
    played_mask: Mask = 0,
    voids: tuple[int, int, int] = (0, 0, 0),
    skat: Mask = 0,
    skat_known: bool = True,
    ouvert: bool = False,
    seed: int | None = None,
) -> PlayoutResult:
    """Finish one game with heuristic players from the given position.

    ``hands``: the cards each seat still holds in this world; ``skat``: the
    skat in this world (the discard if it was taken), known to the declarer
    when ``skat_known``; ``declarer_points``/``defender_points``: points
    taken in tricks so far; ``defender_tricks`` defaults to the completed
    tricks minus the declarer's.
    """
    game = GameType(game)
    played_mask |= mask_of(trick_cards)
    if defender_tricks is None:
        completed = (played_mask.bit_count() - len(trick_cards)) // 3
        defender_tricks = completed - declarer_tricks
    rng = heuristic_core.seed_state(_seed(seed))
    out = core.playout_std(
        int(game), declarer, hands[0], hands[1], hands[2], skat, skat_known, _trick_array(trick_cards),
        len(trick_cards), leader, declarer_points, defender_points, declarer_tricks, defender_tricks,
        played_mask, voids[0], voids[1], voids[2], ouvert, rng,
    )
    return PlayoutResult(int(out[0]), int(out[1]), int(out[2]), int(out[3]))


def _world_arrays(worlds, skats) -> tuple[np.ndarray, np.ndarray]:
    hands = np.ascontiguousarray(np.asarray(worlds, dtype=np.int64).reshape(-1, 3))
    skat_arr = np.ascontiguousarray(np.asarray(skats, dtype=np.int64).reshape(-1))
    if skat_arr.shape[0] != hands.shape[0]:
        raise ValueError("one skat per world is needed")
    return hands, skat_arr


def playout_worlds(
    position: PublicPosition,
    worlds,
    skats,
    skat_known: bool,
    repeats: int = 1,
    seed: int | None = None,
) -> np.ndarray:
    """Playouts of many worlds from ``position`` in one call (GIL released).

    ``worlds``: (W, 3) hands; ``skats``: (W,) skat per world.  Returns int64
    (W, repeats, 4): declarer points, defender points, declarer tricks,
    defender tricks.
    """
    hands, skat_arr = _world_arrays(worlds, skats)
    p = position
    return core.playout_batch(
        int(p.game), p.declarer, hands, skat_arr, skat_known, _trick_array(p.trick), len(p.trick), p.leader,
        p.declarer_points, p.defender_points, p.declarer_tricks, p.defender_tricks, p.played,
        np.array(p.voids, np.int64), p.ouvert, repeats, _seed(seed),
    )


def playout_cards(
    position: PublicPosition,
    worlds,
    skats,
    skat_known: bool,
    cards: Mask,
    repeats: int = 1,
    seed: int | None = None,
) -> np.ndarray:
    """For every card of ``cards`` and every world: the seat to move plays the
    card, then heuristic players finish the game (GIL released).

    Returns int64 (C, W, repeats, 4), cards in index order; rows of a card
    that is not legal in a world are -1.
    """
    hands, skat_arr = _world_arrays(worlds, skats)
    p = position
    return core.playout_cards_batch(
        int(p.game), p.declarer, hands, skat_arr, skat_known, _trick_array(p.trick), len(p.trick), p.leader,
        p.declarer_points, p.defender_points, p.declarer_tricks, p.defender_tricks, p.played,
        np.array(p.voids, np.int64), p.ouvert, cards, repeats, _seed(seed),
    )


# ---------------------------------------------------------------- benchmarks

BENCH_GAMES = np.array([0, 1, 2, 3, 4, 5], np.int64)
"""Game types the playout benchmark and the speed calibration cycle through: the four suits, grand, null."""
