"""Skat engine: rules, records, players and search, with no user interface.

The names a program needs are here::

    import engine

    state = engine.GameState.new(engine.Deal.shuffled(7))
    state.push(engine.Bid(18))
    players = [engine.make_player("mcu:simulations=100", seed=i) for i in range(3)]
    finished = engine.play_game(engine.Deal.shuffled(8), players)

The modules own one concern each: ``cards`` (cards and card sets), ``rules``
(game types, legal cards, trick winner, bid ladder), ``scoring``, ``game``
(the state machine and its moves), ``record`` (ISS records), ``limits``
(budgets), ``policy`` (the heuristic's card play, hand evaluation and
play-outs), ``worlds`` (sampling and inference: the world model), ``players``
(the players and their registry), ``evaluation``, ``analysis``, ``series``
(whole games), ``service`` (a decision in a worker thread), ``tournament``,
``dds`` (the double-dummy solver) and ``card_layout`` (the internal card layout
of the numba cores).  Each imports only from the layers below it
(``docs/architecture.md``).  Benchmarks, fitting and the core's warm-up are
tooling in ``engine.tools``.
"""

from . import service
from .analysis import Analysis, CardStats
from .cards import Card, CardSet, Mask, Rank, Suit, cards_of, mask_of, points_of
from .evaluation import Evaluation
from .game import (
    Bid,
    Deal,
    Declare,
    Discard,
    GameState,
    Hold,
    IllegalMoveError,
    Kontra,
    Leave,
    Move,
    Outcome,
    Pass,
    Phase,
    PickUp,
    Play,
    Re,
    Resign,
    ShowCards,
    Trick,
)
from .limits import Limit
from .players.base import Decision, Player
from .players.registry import PLAYER_KINDS, PlayerSpec, make_player, parse_spec
from .record import GameRecord, RecordError, format_record, parse_record, read_records, write_records
from .replay import ReplayNavigator
from .rules import GameType
from .scoring import Declaration, GameEnd, GameResult
from .series import Series, play_game
from .service import MoveSearch, analyze, play, play_sync

__version__ = "0.1.0"

__all__ = [
    "PLAYER_KINDS",
    "Analysis",
    "Bid",
    "Card",
    "CardSet",
    "CardStats",
    "Deal",
    "Decision",
    "Declaration",
    "Declare",
    "Discard",
    "Evaluation",
    "GameEnd",
    "GameRecord",
    "GameResult",
    "GameState",
    "GameType",
    "Hold",
    "IllegalMoveError",
    "Kontra",
    "Leave",
    "Limit",
    "Mask",
    "Move",
    "MoveSearch",
    "Outcome",
    "Pass",
    "Phase",
    "PickUp",
    "Play",
    "Player",
    "PlayerSpec",
    "Rank",
    "Re",
    "RecordError",
    "ReplayNavigator",
    "Resign",
    "Series",
    "ShowCards",
    "Suit",
    "Trick",
    "analyze",
    "cards_of",
    "format_record",
    "make_player",
    "mask_of",
    "parse_record",
    "parse_spec",
    "play",
    "play_game",
    "play_sync",
    "points_of",
    "read_records",
    "service",
    "write_records",
]
