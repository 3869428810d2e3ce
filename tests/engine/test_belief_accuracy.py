"""The belief-accuracy tool: self-play and recorded games measured alike."""

import json
import random

from engine.game import Deal, GameState
from engine.players.heuristic import HeuristicPlayer
from engine.record import GameRecord, format_record
from engine.tools import belief_accuracy


def self_play_record(seed):
    """The game ``belief_accuracy.game_losses(seed, ...)`` plays, as a record."""
    rng = random.Random(seed)
    state = GameState.new(Deal.shuffled(rng.getrandbits(62)))
    players = [HeuristicPlayer(rng.getrandbits(62)) for _ in range(3)]
    while not state.is_over:
        state.push(players[state.to_move].choose(state.view(state.to_move)).move)
    return GameRecord.from_state(state, id=str(seed))


def test_a_recorded_game_gives_the_losses_of_the_same_game_played_out():
    seed = next(s for s in range(1, 40) if self_play_record(s).replay().declarer is not None)
    text = format_record(self_play_record(seed))
    played = belief_accuracy.game_losses(seed, 1000, (1, 2, 3))
    recorded = belief_accuracy.record_losses(text, seed, 1000, (1, 2, 3))
    assert played.keys() == recorded.keys() and played
    assert all(abs(played[k][0] - recorded[k][0]) < 1e-9 and played[k][1] == recorded[k][1] for k in played)


def test_records_are_measured_from_a_file(tmp_path, capsys):
    records = [self_play_record(s) for s in range(1, 6)]
    path = tmp_path / "games.sgf"
    path.write_text("".join(format_record(r) + "\n" for r in records))
    assert belief_accuracy.main(["--records", str(path), "--games", "2", "--tricks", "1", "--pool", "1000",
                                 "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {line["sampler"] for line in lines} == {"simple", "informed", "inference"}
    assert all(line["trick"] == 1 and line["log_loss"] > 0 and line["hidden_cards"] > 0 for line in lines)
