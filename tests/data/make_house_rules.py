"""Writes tests/data/house-rules.sgf: games under the pub house rules (docs/house-rules.md),
played by the engine with seeded random players, for the tests of the record tools.

    PYTHONPATH=. python3 tests/data/make_house_rules.py

The skat round of each Ramsch follows a script (so that pushes, pick-ups and the
Grand Hand escape all occur); the discards and the card play are the random player's,
and so is every move of the declared game with Kontra and Re.
"""

from __future__ import annotations

import random
from pathlib import Path

from engine.game import Deal, GameState, Pass, Phase
from engine.house_rules import PUB
from engine.players.base import RandomPlayer
from engine.record import GameRecord, format_record
from engine.series import finish_game

GAMES = (
    # (record ID, deal seed, the skat round's choices in turn)
    ("hr-jungfrau", 2, ("push", "s", "push")),  # two pushes, a pick-up, rearhand takes no trick
    ("hr-pushes", 0, ("push", "s", "push")),  # two pushes, forehand loses 63 × 4
    ("hr-pickups", 2, ("s", "s", "s")),  # every seat picks the skat up: no doubling
    ("hr-grand-hand", 2, ("push", "GH")),  # middlehand escapes with a Grand Hand after a push
    ("hr-kontra-re", 3, None),  # bid and declared (clubs hand), rearhand says Kontra, the declarer Re
)
PLAYERS = ("Ann", "Bob", "Cid")


def play(seed: int, skat_round: tuple[str, ...] | None) -> GameState:
    """A game of deal ``seed``: all pass and the skat round as scripted, or (None) every move random."""
    state = GameState.new(Deal.shuffled(seed), rules=PUB)
    if skat_round is not None:
        state.push_many([Pass(), Pass(), Pass()])
    rng = random.Random(seed)
    choices = list(skat_round or ())
    while state.phase in (Phase.RAMSCH_SKAT, Phase.RAMSCH_DISCARD):
        if state.phase == Phase.RAMSCH_DISCARD:
            state.push(rng.choice(state.legal_moves()))
        else:
            state.push(state.parse_iss(choices.pop(0)))
    return finish_game(state, [RandomPlayer(seed * 3 + seat) for seat in range(3)])


def main() -> None:
    lines = [format_record(GameRecord.from_state(play(seed, skat_round), id=record_id, players=PLAYERS))
             for record_id, seed, skat_round in GAMES]
    Path(__file__).with_name("house-rules.sgf").write_text("".join(line + "\n" for line in lines), encoding="utf-8")


if __name__ == "__main__":
    main()
