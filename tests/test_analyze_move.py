"""`skat analyze --move N`: every decision of a record, not only the card play."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.game import Bid, Declare, Discard, Hold, Pass, PickUp, Play
from engine.record import read_records
from skat_tui import cli

SAMPLES = Path(__file__).parent / "data" / "iss-samples.sgf"
RECORD = "684159"
SEARCH = "mcu:simulations=20,bidding=search"
REPLAY_GAMES = {"clubs", "spades", "hearts", "diamonds", "grand", "null"}


def record_moves():
    records, _ = read_records(SAMPLES)
    return next(r for r in records if r.id == RECORD).moves


def analyze(capsys, *args) -> tuple[int, str]:
    code = cli.main(["analyze", str(SAMPLES), "--id", RECORD, *args])
    return code, capsys.readouterr().out


def analyze_json(capsys, *args) -> dict:
    code, out = analyze(capsys, *args, "--json")
    assert code == 0
    return json.loads(out)


def first_move(kinds) -> int:
    return next(i for i, (_, move) in enumerate(record_moves()) if isinstance(move, kinds))


def test_every_decision_before_the_card_play_is_reached_and_lists_its_candidates(capsys):
    phases = {}
    for number, kinds in ((0, (Bid, Hold, Pass)), (first_move((PickUp, Declare)), (PickUp, Declare)),
                          (first_move(Discard), Discard)):
        out = analyze_json(capsys, "--move", str(number), "--player", SEARCH, "--seed", "2")
        assert out["move"] == number and isinstance(record_moves()[number][1], kinds)
        phases[out["phase"]] = out
        assert out["player"] == SEARCH and out["simulations"] == 20
        for candidate in out["candidates"]:
            assert candidate["take_skat"] or candidate["game"] in REPLAY_GAMES
            assert candidate["simulations"] == 20 and sum(candidate["histogram"]) == 20
        assert sum(c["chosen"] for c in out["candidates"]) <= 1
    assert set(phases) == {"bidding", "skat", "discard"}
    assert "bid_limit" in phases["bidding"]
    discard = phases["discard"]
    chosen = next(c for c in discard["candidates"] if c["chosen"])
    assert discard["decision"] == ".".join(chosen["discard"])  # the move in ISS notation
    assert discard["plan"]["game"] == chosen["game"]


def test_the_declaration_is_reached_after_the_discard(capsys):
    after_discard = first_move(Discard) + 1
    assert isinstance(record_moves()[after_discard][1], Declare)
    out = analyze_json(capsys, "--move", str(after_discard), "--player", SEARCH)
    assert out["phase"] == "declare"
    assert len({tuple(c["discard"]) for c in out["candidates"]}) == 1  # the discard is made
    assert sum(c["chosen"] for c in out["candidates"]) == 1


def test_a_card_by_move_number_is_the_same_analysis_as_by_trick_and_card(capsys):
    number = first_move(Play) + 4  # the second card of trick 2
    by_move = analyze_json(capsys, "--move", str(number), "--simulations", "20")
    by_card = analyze_json(capsys, "--trick", "2", "--card", "2", "--simulations", "20")
    assert by_move.pop("move") == number
    assert by_move == by_card


def test_the_analysis_of_a_bid_repeats_under_a_seed_and_prints_a_table(capsys):
    first = analyze_json(capsys, "--move", "1", "--player", SEARCH, "--seed", "5")
    assert first == analyze_json(capsys, "--move", "1", "--player", SEARCH, "--seed", "5")
    code, text = analyze(capsys, "--move", "1", "--player", SEARCH, "--seed", "5")
    assert code == 0
    assert f"Record {RECORD} · move 1: bidding" in text and "20 worlds" in text
    assert "take the skat" in text and "Grand hand" in text


def test_the_heuristic_bidding_shows_its_estimates(capsys):
    out = analyze_json(capsys, "--move", "0", "--player", "pimc")
    assert out["player"] == "pimc" and out["simulations"] == 0 and "win chance" in out["note"]


def test_a_move_outside_the_record_or_with_trick_is_refused(capsys):
    assert cli.main(["analyze", str(SAMPLES), "--id", RECORD, "--move", "999"]) == 2
    assert f"record {RECORD} has {len(record_moves())} moves after the deal" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        cli.main(["analyze", str(SAMPLES), "--id", RECORD, "--move", "3", "--trick", "2"])
    assert stop.value.code == 2
    assert "--move names the position on its own" in capsys.readouterr().err


def test_the_help_documents_the_move_count(capsys):
    with pytest.raises(SystemExit):
        cli.main(["analyze", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--move N" in text and "counting from 0 every move after the deal" in text
    assert "bidding=search" in text
