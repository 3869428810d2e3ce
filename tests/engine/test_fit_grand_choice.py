"""engine.tools.fit_grand_choice: the choices it reads from records and the habit it fits."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from engine.cards import JACKS
from engine.policy import hand_eval
from engine.record import read_records
from engine.rules import GameType
from engine.tools import fit_discard, fit_grand_choice

SAMPLES = Path(__file__).resolve().parent.parent / "data" / "iss-samples.sgf"


def test_choices_are_the_games_taken_with_the_skat_where_a_grand_and_a_suit_game_reach_the_bid():
    found = fit_discard.examples(SAMPLES)
    records, _ = read_records(SAMPLES)
    states = [r.replay() for r in records]
    assert [e.bid for e in found] == [s.bid for s in states if s.declaration and s.skat_taken
                                      and s.declaration.game != GameType.NULL]
    chosen = fit_grand_choice.choices(found)
    assert 0 < len(chosen) <= len(found)
    for example in found:
        games = {o.declaration.game for o in hand_eval.declaration_options(example.cards, example.seat)
                 if hand_eval.reaches(o, example.bid)}
        assert (example in chosen) == (GameType.GRAND in games and bool(games & set(hand_eval.SUIT_GAMES)))


def _planted(n: int, seed: int) -> list[fit_discard.Example]:
    """Twelve random cards; the declarer plays a grand with three jacks or more, or with two
    and three aces, otherwise clubs."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        twelve = sum(1 << c for c in rng.sample(range(32), 12))
        jacks, aces = (twelve & JACKS).bit_count(), hand_eval._aces(twelve)
        game = GameType.GRAND if jacks >= 3 or (jacks == 2 and aces >= 3) else GameType.CLUBS
        out.append(fit_discard.Example(twelve, game, rng.randrange(3), 0, (0, 0, 0)))
    return out


def test_fit_finds_a_planted_choice():
    x, y = fit_grand_choice.design(_planted(3000, seed=5))
    assert 0.05 < y.mean() < 0.5
    w = fit_grand_choice.fit(x, y)
    names = hand_eval.GRAND_HABIT_FEATURES
    weight = dict(zip(names, w))
    assert weight["three jacks"] > weight["two jacks"] > weight["one jack"]
    assert weight["aces"] > 0
    held_x, held_y = fit_grand_choice.design(_planted(1000, seed=6))
    assert np.mean((held_x @ w > 0) == held_y) > 0.97
    assert fit_grand_choice.log_loss(held_x, held_y, w) < fit_grand_choice.log_loss(held_x, held_y, 0 * w)


def test_the_stored_weights_are_the_features_named_and_reload(tmp_path, monkeypatch, capsys):
    assert set(hand_eval.GRAND_HABITS["weights"]) == set(hand_eval.GRAND_HABIT_FEATURES)
    stored = tmp_path / "grand_habits.json"
    monkeypatch.setattr(hand_eval, "GRAND_HABITS_PATH", stored)
    monkeypatch.setattr(fit_grand_choice, "choices", lambda found: _planted(400, seed=7))
    fit_grand_choice.main([str(SAMPLES), "--write"])
    out = capsys.readouterr().out
    assert "held-out fifth" in out and "wrote" in out
    import json
    written = json.loads(stored.read_text())
    assert list(written["weights"]) == list(hand_eval.GRAND_HABIT_FEATURES) and written["examples"] == 400


def test_an_unreadable_record_file_is_refused(tmp_path, capsys):
    bad = tmp_path / "bad.sgf"
    bad.write_text("(;GM[Skat]MV[w nonsense]R[d:0 win v:1])\n")
    with pytest.raises(SystemExit):
        fit_grand_choice.main([str(bad)])
    assert "bad.sgf" in capsys.readouterr().err
