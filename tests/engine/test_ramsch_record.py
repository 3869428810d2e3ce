"""Ramsch games in records and in ``skat replay --json`` (docs/house-rules.md, "Records")."""

import json
import random

import pytest

from engine.game import Deal, GameState, Pass
from engine.house_rules import ISKO, PUB, HouseRules
from engine.players.base import RandomPlayer
from engine.record import GameRecord, RecordError, format_record, parse_record, summary
from engine.scoring import RamschResult
from engine.series import finish_game
from test_ramsch import ESCAPE, RAMSCH, SCHIEBEN, TAKES_ALL, cards, passed_in, play_out


def random_game(seed: int, rules: HouseRules, all_pass: bool) -> GameState:
    state = GameState.new(Deal.shuffled(seed), rules=rules)
    if all_pass:
        state.push_many([Pass(), Pass(), Pass()])
    return finish_game(state, [RandomPlayer(seed * 3 + seat) for seat in range(3)])


@pytest.mark.parametrize("rules", [RAMSCH, SCHIEBEN, ESCAPE, PUB], ids=lambda r: r.describe())
def test_random_ramsch_games_round_trip_through_records(rules):
    for seed in range(30):
        state = random_game(seed, rules, all_pass=True)
        record = GameRecord.from_state(state, id=str(seed), players=("a", "b", "c"))
        text = format_record(record)
        again = parse_record(text)
        assert format_record(again) == text
        assert again.rules == rules and again.moves == record.moves
        replayed = again.replay()
        assert replayed.result() == state.result() and replayed.moves == state.moves
        assert summary(again).get("result_mismatch") is None


def test_a_ramsch_record_reads_as_documented():
    state = passed_in(TAKES_ALL, PUB)
    for text in ("push", "s", "CK.SK", "push"):
        state.push(state.parse_iss(text))
    play_out(state)
    record = GameRecord.from_state(state, id="7")
    text = format_record(record)
    assert "HR[ramsch,schieben,grand_hand_escape,kontra,bock]" in text
    assert "MV[w " in text and " 1 p 2 p 0 p 0 push 1 s w D7.D8 1 SK.CK 2 push 0 DJ " in text
    assert "R[ramsch pts:120/0/0 tr:10/0/0 l:- v:480/0/0 dm:0 push:2]" in text
    line = summary(parse_record(text))
    assert line["game"] == "ramsch" and line["declarer"] is None
    assert (line["points"], line["tricks"], line["losers"], line["durchmarsch"], line["values"], line["pushes"]) == \
        ([120, 0, 0], [10, 0, 0], [], 0, [480, 0, 0], 2)
    assert line["rules"] == PUB.to_dict()
    json.dumps(line)


def test_a_ramsch_record_with_a_loser_and_a_wrong_stated_result():
    state = random_game(3, RAMSCH, all_pass=True)
    result = state.result()
    assert isinstance(result, RamschResult) and result.losers
    record = GameRecord.from_state(state, id="3")
    line = summary(parse_record(format_record(record)))
    assert line["losers"] == list(result.losers) and line["values"] == list(result.values)
    assert line["seeger_fabian"] == list(result.values) and line["points"] == list(result.points)
    wrong = format_record(record).replace(f"v:{'/'.join(map(str, result.values))}", "v:0/0/0")
    assert "scored 0/0/0" in summary(parse_record(wrong))["result_mismatch"]


def test_records_without_house_rules_are_unchanged_and_bad_rules_are_refused():
    state = random_game(4, ISKO, all_pass=False)
    text = format_record(GameRecord.from_state(state, id="4"))
    assert "HR[" not in text and parse_record(text).rules == ISKO
    passed = GameState.new(Deal.shuffled(1))
    passed.push_many([Pass(), Pass(), Pass()])
    assert "R[passed]" in format_record(GameRecord.from_state(passed))
    bad = text.replace("ID[4]", "ID[4]HR[ramsch,kontr]")
    with pytest.raises(RecordError, match="field HR: unknown house rules 'ramsch,kontr'"):
        parse_record(bad)


def test_a_pick_up_showing_another_skat_is_refused():
    state = passed_in(TAKES_ALL, SCHIEBEN)
    for text in ("s", "CT.ST"):
        state.push(state.parse_iss(text))
    text = format_record(GameRecord.from_state(state))
    assert " 0 s w D7.D8 0 ST.CT " in text
    with pytest.raises(RecordError, match="the pick-up took"):
        parse_record(text.replace("w D7.D8", "w D8.D9"))
    assert cards("CT.ST") == parse_record(text).replay().skat


def test_skat_replay_json_reports_a_ramsch(tmp_path, capsys):
    from skat_tui import cli

    state = random_game(3, SCHIEBEN, all_pass=True)
    result = state.result()
    assert isinstance(result, RamschResult)
    path = tmp_path / "ramsch.sgf"
    path.write_text(format_record(GameRecord.from_state(state, id="r3")) + "\n")
    assert cli.main(["replay", str(path), "--json"]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["game"] == "ramsch" and line["declarer"] is None and line["id"] == "r3"
    assert line["points"] == list(result.points) and line["losers"] == list(result.losers)
    assert line["values"] == list(result.values) and line["pushes"] == result.pushes
