"""Players: each decides every move of a game from its seat's view."""

from .base import Decision, Player, RandomPlayer

__all__ = ["Decision", "Player", "RandomPlayer"]
