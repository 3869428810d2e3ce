"""The comparison of the heuristic's cards with a recorded player's (engine.tools.card_agreement)."""

from __future__ import annotations

from pathlib import Path

from engine.cards import Card
from engine.game import Play
from engine.record import parse_record
from engine.rules import GameType
from engine.tools import card_agreement

SAMPLES = Path(__file__).parent.parent / "data" / "iss-samples.sgf"


def test_cards_are_named_by_trump_and_worth():
    assert card_agreement.card_kind(Card.HJ, GameType.CLUBS) == "Jl"
    assert card_agreement.card_kind(Card.CT, GameType.CLUBS) == "TX"
    assert card_agreement.card_kind(Card.SQ, GameType.CLUBS) == "sh"
    assert card_agreement.card_kind(Card.SA, GameType.GRAND) == "sA"
    assert card_agreement.card_kind(Card.C7, GameType.GRAND) == "sl"


def test_two_plain_side_cards_of_a_suit_count_as_one_but_a_trump_or_points_do_not():
    assert card_agreement.alike(Card.S7, Card.S9, GameType.CLUBS)
    assert not card_agreement.alike(Card.C7, Card.C9, GameType.CLUBS)
    assert not card_agreement.alike(Card.S7, Card.SQ, GameType.CLUBS)
    assert not card_agreement.alike(Card.S7, Card.H7, GameType.CLUBS)


def test_every_declarer_decision_with_a_choice_is_counted_once():
    lines = [line.strip() for line in SAMPLES.read_text().splitlines() if line.strip()][:20]
    totals, differences = card_agreement.compare(lines, "declarer", 20)
    expected = 0
    for line in lines:
        record = parse_record(line)
        final = record.replay()
        if final.declaration is None or final.declaration.game == GameType.NULL:
            continue
        positions = record.positions()
        expected += sum(1 for i, (_, move) in enumerate(record.moves)
                        if isinstance(move, Play) and positions[i].to_move == final.declarer
                        and bin(positions[i].legal_cards()).count("1") > 1)
    assert expected > 0
    assert sum(totals.values()) == expected
    by_situation = {}
    for (where, _, _), n in differences.items():
        by_situation[where] = by_situation.get(where, 0) + n
    assert all(by_situation.get(where, 0) <= n for where, n in totals.items())
    assert set(by_situation) <= set(totals)
    assert sum(differences.values()) > 0  # people and the heuristic do not play alike
