"""The heuristic's policy: what the players, the world model and the benchmarks share.

``heuristic_core`` is the heuristic card play in numba (and the Ramsch policy),
``playout_core`` the numba loop that finishes a game with it (one loop for a
game with a declarer and for a Ramsch), ``hand_eval`` the heuristic's hand
evaluation (bidding limit, hand or skat, discard, declaration), ``playout`` the
play-out batches that finish worlds with that card play.  The package imports only the core (cards, rules, scoring, game):
the world model (``engine.worlds``) and the players (``engine.players``) build on it.
"""
