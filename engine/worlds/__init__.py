"""The world model: where the cards a seat cannot see may lie, and how likely each world is.

``sampling`` draws worlds consistent with a view (exactly uniform over the
constraint classes), ``inference`` weighs them by the other seats' bidding,
declaration and card play under the heuristic's policy (``hand_tables`` batches
the hand evaluation, ``inference_core`` is its numba part).  The package builds on
the core and on ``engine.policy``; the players (``engine.players``) use it.
"""
