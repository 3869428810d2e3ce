"""Players: each decides every move of a game from its seat's view."""

from .base import Decision, Player, RandomPlayer
from .heuristic import HeuristicPlayer

__all__ = ["Decision", "HeuristicPlayer", "Player", "RandomPlayer"]
