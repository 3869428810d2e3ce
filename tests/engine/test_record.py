import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cards import Card
from engine.game import Deal, GameState, Phase, Play
from engine.players import RandomPlayer
from engine.record import (
    GameRecord, RecordError, format_record, parse_record, parse_result_field, read_records, summary,
)
from engine.series import play_game

DATA = Path(__file__).parent.parent / "data"
SAMPLES = DATA / "iss-samples.sgf"


def sample_lines():
    return [line.strip() for line in SAMPLES.read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("line", sample_lines(), ids=lambda l: l.split("ID[")[1].split("]")[0])
def test_server_records_replay_to_the_servers_results(line):
    record = parse_record(line)
    ours = summary(record)
    server = parse_result_field(record.result_field)
    if "passed" in server:
        assert ours["passed"]
        return
    if server["d"] == "-1":  # abandoned during bidding: the server scores a penalty, no game
        assert ours["declarer"] is None and ours["abandoned"] == "left"
        return
    assert ours["declarer"] == int(server["d"])
    assert ours["won"] == ("win" in server)
    assert ours["value"] == int(server["v"])
    assert ours["matadors"] == int(server["m"])
    assert ours["overbid"] == ("overbid" in server)
    assert ours["declarer_points"] == int(server["p"])
    assert ours["declarer_tricks"] == int(server["t"])


@pytest.mark.parametrize("line", sample_lines())
def test_server_records_write_back_identical(line):
    assert format_record(parse_record(line)) == line


def test_declaration_and_discard_may_come_as_one_move_or_two():
    split = parse_record(sample_lines()[4])  # "2 D 2 D9.DQ"
    joined = parse_record(sample_lines()[0])  # "2 D.ST.H8"
    for record in (split, joined):
        kinds = [type(m).__name__ for _, m in record.moves]
        assert kinds[kinds.index("PickUp") + 1: kinds.index("PickUp") + 3] == ["Discard", "Declare"]


def test_hidden_card_and_a_player_leaving_are_tolerated():
    record = parse_record(sample_lines()[9])
    assert any("hidden card" in note for note in record.notes)
    assert summary(record)["end"] == "left"


def test_a_malformed_record_names_line_and_field_and_the_others_still_load():
    lines = sample_lines()[:3]
    bad_card = lines[1].replace(" 0 DK ", " 0 DX ")
    bad_deal = lines[2].replace("MV[w HJ.HA", "MV[w HJ.HJ")
    records, errors = read_records([lines[0], bad_card, "", "garbage", bad_deal, lines[2]])
    assert [r.id for r in records] == ["541932", "727"]
    assert [e.line for e in errors] == [2, 4, 5]
    assert "MV move" in errors[0].field and "DX" in str(errors[0]) and "not a card" in str(errors[0])
    assert "expected a record" in str(errors[1])
    assert errors[2].field == "MV move 1" and "32 different cards" in str(errors[2])


def test_an_illegal_move_in_a_record_is_reported_with_the_engine_reason():
    line = sample_lines()[0].replace("0 SA 1 S7", "0 SA 1 CA")  # middlehand holds spades
    with pytest.raises(RecordError) as info:
        parse_record(line, 7)
    assert info.value.line == 7 and "does not follow" in str(info.value)


def test_our_own_games_write_and_read_back_identical():
    rng = random.Random(5)
    for game in range(40):
        state = play_game(Deal.shuffled(rng), [RandomPlayer(game * 3 + i) for i in range(3)])
        record = GameRecord.from_state(state, id=str(game), players=("a", "b", "c"))
        text = format_record(record)
        again = parse_record(text)
        assert format_record(again) == text
        assert again.moves == record.moves
        assert summary(again) == summary(record)
        if state.result() is not None:
            assert summary(again)["value"] == state.result().value


def test_positions_step_through_every_move():
    record = parse_record(sample_lines()[1])
    positions = record.positions()
    assert len(positions) == len(record.moves) + 1
    assert positions[0].phase == Phase.BIDDING and positions[-1].is_over
    first_card = next(i for i, (_, m) in enumerate(record.moves) if isinstance(m, Play))
    assert positions[first_card].phase == Phase.PLAY and not positions[first_card].tricks
    assert positions[first_card + 1].trick == (Card.DK,)


def test_replay_json_command_prints_results_and_fails_on_bad_records(tmp_path):
    path = tmp_path / "games.sgf"
    lines = sample_lines()
    path.write_text("\n".join(lines[:2] + ["(;GM[Skat]ID[9] ;)"] + lines[2:3]) + "\n")
    proc = subprocess.run(
        [sys.executable, "-m", "skat_tui.cli", "replay", str(path), "--json"], capture_output=True, text=True,
    )
    assert proc.returncode == 1
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [o["id"] for o in out] == ["541932", "684159", "727"]
    assert out[0] == {
        "id": "541932", "passed": False, "declarer": 2, "game": "diamonds", "hand": False, "ouvert": False,
        "schneider_announced": False, "schwarz_announced": False, "matadors": -2, "declarer_points": 59,
        "declarer_tricks": 4, "won": False, "overbid": False, "value": -54, "seeger_fabian": [40, 40, -104],
    }
    assert "line 3" in proc.stderr and "field MV" in proc.stderr
