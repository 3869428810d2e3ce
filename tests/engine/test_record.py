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


# ---- faults found by fuzzing: nothing accepted that the server would not write, nothing lost ------------


def test_a_declaration_given_twice_is_refused():
    line = sample_lines()[4]
    assert " 2 D 2 D9.DQ " in line
    for twice in (" 2 D 2 D 2 D9.DQ ", " 2 D 2 G.D9.DQ "):
        with pytest.raises(RecordError, match="declared twice") as info:
            parse_record(line.replace(" 2 D 2 D9.DQ ", twice), 4)
        assert info.value.line == 4 and "MV move" in info.value.field


def test_a_hidden_card_is_read_only_where_the_server_writes_it_and_is_reported():
    line = sample_lines()[9]
    assert " 0 ?? w LE.1 " in line
    assert summary(parse_record(line))["notes"] == [
        "MV move 9 (0 ??): a hidden card, skipped (the player to move did not play it)"]
    not_to_move = line.replace(" 0 ?? w LE.1 ", " 1 ?? w LE.1 ")
    in_bidding = line.replace(" 1 18 0 p ", " 1 ?? 1 18 0 p ")
    play_goes_on = line.replace(" 0 ?? w LE.1 ", " 0 ?? 1 CA w LE.1 ")
    for bad in (not_to_move, in_bidding):
        with pytest.raises(RecordError, match="player to move during play"):
            parse_record(bad)
    with pytest.raises(RecordError, match="only a player leaving"):
        parse_record(play_goes_on)


def test_a_byte_order_mark_does_not_spoil_the_first_record(tmp_path):
    path = tmp_path / "bom.sgf"
    path.write_bytes(b"\xef\xbb\xbf" + "\n".join(sample_lines()[:2]).encode() + b"\n")
    records, errors = read_records(path)
    assert errors == [] and [r.id for r in records] == ["541932", "684159"]
    records, errors = read_records(["\ufeff" + sample_lines()[0]])
    assert errors == [] and len(records) == 1


@pytest.mark.parametrize("block", [None, 7], ids=["whole", "small-blocks"])
@pytest.mark.parametrize("end", [b"\n", b"\r\n", b"\r"], ids=["unix", "windows", "old-mac"])
def test_lf_crlf_and_a_lone_cr_each_end_a_line_and_errors_keep_their_line(tmp_path, monkeypatch, end, block):
    import engine.record

    if block is not None:  # a \r\n split between two reads is still one line end
        monkeypatch.setattr(engine.record, "_READ_BLOCK", block)
    lines = sample_lines()[:3]
    bad_byte = lines[1].replace("P0[", "P0[\xff").encode("latin-1")
    path = tmp_path / "ends.sgf"
    path.write_bytes(end.join([lines[0].encode(), b"", bad_byte, lines[2].encode()]) + end)
    records, errors = read_records(path)
    assert [r.id for r in records] == ["541932", "727"]
    assert [(e.line, "not UTF-8 text: byte 0xff" in str(e)) for e in errors] == [(3, True)]


def test_an_absurdly_long_line_is_refused_unread_naming_its_line_and_the_rest_loads(tmp_path):
    path = tmp_path / "long.sgf"
    lines = sample_lines()[:2]
    with open(path, "wb") as handle:
        handle.write(lines[0].encode() + b"\n")
        handle.write(b"(;GM[Skat]MV[w " + b"CJ." * 400_000 + b"]R[] ;)\n")  # 1.2 MB
        handle.write(lines[1].encode() + b"\n")
    records, errors = read_records(path)
    assert [r.id for r in records] == ["541932", "684159"]
    assert len(errors) == 1 and errors[0].line == 2 and "a record has a few hundred" in str(errors[0])
    assert len(str(errors[0])) < 200


def test_an_error_quotes_at_most_sixty_characters_of_the_record():
    line = sample_lines()[0].replace(" 0 SA ", " 0 " + "X" * 5000 + " ")
    with pytest.raises(RecordError) as info:
        parse_record(line, 1)
    message = str(info.value)
    assert "X" * 60 + "…" in message and "X" * 61 not in message and len(message) < 400


@pytest.mark.parametrize("where", ["P0[", " 0 SA ", "ID["])
def test_a_record_with_control_characters_is_refused_and_the_error_escapes_them(where):
    line = sample_lines()[0].replace(where, where + "\x1b[2J\x07\x9b", 1)
    with pytest.raises(RecordError, match="a control character at column") as info:
        parse_record(line, 3)
    message = str(info.value)
    assert info.value.line == 3 and "\\x1b[2J\\x07\\x9b" in message
    assert not any(ch in message for ch in "\x1b\x07\x9b")


def test_an_engine_message_quoting_the_record_is_escaped_too():
    error = RecordError("not a card: '\x1b[31mCJ' and " + "Z" * 100, 2, "MV move 9 (0 \x1b[31mCJ)", "\x07")
    message = str(error)
    assert "\x1b" not in message and "\x07" not in message and "\\x1b[31mCJ" in message
    assert "Z" * 60 + "…" in message and "Z" * 61 not in message


def test_a_property_given_twice_is_refused_naming_line_and_field():
    line = sample_lines()[0]
    with pytest.raises(RecordError, match="ID.* given twice") as info:
        parse_record(line.replace("ID[541932]", "ID[541932]ID[1]"), 6)
    assert info.value.line == 6 and info.value.field == "ID"
    mv = line[line.index("MV["):line.index("]R[") + 1]
    with pytest.raises(RecordError, match="given twice") as info:
        parse_record(line.replace("R[", mv + "R[", 1), 2)
    assert info.value.field == "MV"


def test_a_result_the_moves_do_not_reach_is_reported_and_the_declared_game_kept():
    line = sample_lines()[0]  # rearhand declares diamonds: R[d:2 loss v:-54 ... p:59]
    short = line[:line.index(" 0 SJ ")] + " ]" + line[line.index("]R[") + 1:]  # 4 cards played
    out = summary(parse_record(short))
    assert out["game"] == "diamonds" and out["declarer"] == 2 and out["hand"] is False
    assert out["value"] == 0 and out["abandoned"] == "unfinished"
    assert out["result_mismatch"] == (
        "the record's result says declarer 2 lost -54 with 59 card points, but the moves end at trick 2 after 4 cards")
    assert "result_mismatch" not in summary(parse_record(line))


def test_a_result_that_disagrees_with_a_finished_game_is_reported():
    line = sample_lines()[0].replace("R[d:2 loss v:-54", "R[d:2 win v:54")
    assert summary(parse_record(line))["result_mismatch"] == (
        "the record's result says declarer 2 won 54 with 59 card points, but the moves give declarer 2 lost -54")


def test_replay_json_warns_about_a_result_mismatch_and_reports_bad_bytes_by_line(tmp_path):
    path = tmp_path / "games.sgf"
    lines = sample_lines()
    short = lines[0][:lines[0].index(" 1 D9 ")] + " ]" + lines[0][lines[0].index("]R[") + 1:]
    bad_byte = lines[1].replace("P0[", "P0[\xff").encode("latin-1")
    path.write_bytes(b"\n".join([short.encode(), bad_byte, lines[2].encode()]) + b"\n")
    proc = subprocess.run(
        [sys.executable, "-m", "skat_tui.cli", "replay", str(path), "--json"], capture_output=True, text=True,
    )
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [o["id"] for o in out] == ["541932", "727"] and out[0]["game"] == "diamonds"
    assert "line 1, record 541932: the record's result says declarer 2 lost" in proc.stderr
    assert "warning" in proc.stderr and "line 2: not UTF-8 text: byte 0xff" in proc.stderr
    assert proc.returncode == 1  # for the line that could not be read
