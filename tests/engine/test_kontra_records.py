"""Kontra and Re in records (the documented extension of the ISS format) and in ``skat replay --json``."""

import json
import random
import subprocess
import sys

import pytest

from engine.cards import Card
from engine.game import Deal, GameState, Kontra, Play, Re
from engine.house_rules import ISKO
from engine.players import RandomPlayer
from engine.record import GameRecord, RecordError, format_record, parse_record, parse_result_field, summary
from engine.rules import MIDDLEHAND
from engine.series import play_game

from example_deal import DEAL, after_iss

KONTRA_RULES = ISKO.with_switches(kontra=True)


def kontra_and_re_game():
    state = after_iss("p", "p", "18", "CH", state=GameState.new(DEAL, KONTRA_RULES))
    state.push_many([Play(Card.CJ), Kontra(), Play(Card.S7), Play(Card.H7), Re()])
    while not state.is_over:
        state.push(state.legal_moves()[0])
    return state


def test_a_kontra_game_is_written_with_its_rules_and_calls_and_reads_back():
    record = GameRecord.from_state(kontra_and_re_game(), id="7")
    text = format_record(record)
    assert "HR[kontra]" in text
    assert " 0 CJ 1 KO 1 S7 2 H7 0 RK 0 " in text
    result = parse_result_field(record.result_field)
    assert (result["v"], result["ko"], result["rk"]) == ("720", "1", "1")
    again = parse_record(text)
    assert again.rules == KONTRA_RULES
    assert again.moves == record.moves and format_record(again) == text
    assert again.result() == record.result()


def test_replay_json_reports_kontra_and_re(tmp_path):
    path = tmp_path / "kontra.sgf"
    path.write_text(format_record(GameRecord.from_state(kontra_and_re_game(), id="7")) + "\n")
    proc = subprocess.run([sys.executable, "-m", "skat_tui.cli", "replay", str(path), "--json"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert (out["kontra"], out["re"], out["value"], out["won"]) == (MIDDLEHAND, 0, 720, True)


def test_a_kontra_without_re_and_an_isko_game_in_json():
    state = after_iss("p", "p", "18", "CH", state=GameState.new(DEAL, KONTRA_RULES))
    state.push_many([Play(Card.CJ), Play(Card.S7), Kontra()])
    out = summary(GameRecord.from_state(state))
    assert (out["kontra"], out["re"]) == (2, None)
    isko = summary(GameRecord.from_state(after_iss("p", "p", "18", "CH")))
    assert "kontra" not in isko and "re" not in isko


def test_a_kontra_in_a_record_without_the_rule_is_refused_with_the_reason():
    text = format_record(GameRecord.from_state(kontra_and_re_game(), id="7")).replace("HR[kontra]", "")
    with pytest.raises(RecordError, match="only possible with the house rule"):
        parse_record(text, 3)


def test_an_unknown_house_rule_is_refused_naming_the_field():
    text = format_record(GameRecord.from_state(kontra_and_re_game(), id="7")).replace("HR[kontra]", "HR[kontra,bier]")
    with pytest.raises(RecordError, match="unknown house rules 'kontra,bier': no house rule named bier") as info:
        parse_record(text, 3)
    assert info.value.field == "HR"


def test_random_games_with_kontra_write_and_read_back_identical():
    rng = random.Random(11)
    calls = set()
    for game in range(60):
        state = play_game(Deal.shuffled(rng), [RandomPlayer(game * 3 + i) for i in range(3)], rules=KONTRA_RULES)
        record = GameRecord.from_state(state, id=str(game), players=("a", "b", "c"))
        calls |= {type(m) for _, m in state.moves if isinstance(m, (Kontra, Re))}
        text = format_record(record)
        again = parse_record(text)
        assert format_record(again) == text and again.moves == record.moves
        assert summary(again) == summary(record)
        if state.result() is not None:
            assert summary(again)["value"] == state.result().value
    assert calls == {Kontra, Re}
