"""engine.tools.fit_discard: the discards it reads from records and the habits it fits."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import numpy as np
import pytest

from engine.cards import JACKS, CardSet, cards_of
from engine.policy import hand_eval
from engine.record import read_records
from engine.rules import GameType
from engine.tools import fit_discard

SAMPLES = Path(__file__).resolve().parent.parent / "data" / "iss-samples.sgf"


def test_examples_are_the_declarers_twelve_cards_and_their_discard():
    found = fit_discard.examples(SAMPLES)
    records, _ = read_records(SAMPLES)
    taken = [r.replay() for r in records]
    taken = [s for s in taken if s.declaration and s.skat_taken and s.declaration.game != GameType.NULL]
    assert len(found) == len(taken) > 0
    for example, state in zip(found, taken):
        assert example.cards == state.deal.hands[state.declarer] | state.deal.skat
        assert example.discard == state.discard and example.discard & ~example.cards == 0
        assert example.discard.bit_count() == 2 and example.game == state.declaration.game
        assert example.hands == tuple(state.deal.hands)


def _planted_examples(n: int, seed: int) -> list[fit_discard.Example]:
    """Clubs games whose declarer puts away the pair of the best strength, except that it
    never keeps a ten guarded by one small card (shape 0101) when it can help it."""
    rng = random.Random(seed)
    deck = [c for c in range(32) if not (1 << c) & JACKS]
    out = []
    for _ in range(n):
        left_out = rng.choice(list(cards_of(JACKS)))
        twelve = sum(1 << c for c in rng.sample(deck, 9)) | (JACKS & ~(1 << left_out))
        side = [c for c in cards_of(twelve) if not (1 << c) & fit_discard.trumps_of(GameType.CLUBS)]
        pairs = [(1 << a) | (1 << b) for a, b in itertools.combinations(side, 2)]

        def planted(pair: int) -> float:
            kept = twelve & ~pair
            guarded_tens = sum(hand_eval.side_shape(hand_eval._suit_ranks(kept, s)) == (0, 1, 0, 1) for s in range(3))
            return hand_eval.after_discard_strength(kept, GameType.CLUBS, 0, pair) - 3.0 * guarded_tens
        out.append(fit_discard.Example(twelve, GameType.CLUBS, 0, max(pairs, key=planted), (0, 0, 0)))
    return out


def test_fit_finds_a_planted_habit():
    built = [fit_discard.features(e) for e in _planted_examples(250, seed=4)]
    x = np.array([b[0] for b in built])
    chosen = np.array([b[1] for b in built])
    w = fit_discard.fit(x, chosen)
    habits = fit_discard.habits(w)
    shapes = habits["shapes"]
    assert shapes["0000"] == 0
    # the planted shape is the least liked of the shapes the examples met
    seen = {"".join(map(str, fit_discard.SHAPES[i])) for i in range(32) if x[:, :, i].any()}
    assert "0101" in seen
    assert shapes["0101"] < min(v for k, v in shapes.items() if k in seen and k != "0101")
    # and the fit explains the choices better than the strength alone
    alone = fit_discard.fit(x[:, :, -1:], chosen)
    assert fit_discard.log_loss(x, chosen, w) < fit_discard.log_loss(x[:, :, -1:], chosen, alone)
    assert fit_discard.top_agreement(x, chosen, w) > fit_discard.top_agreement(x[:, :, -1:], chosen, alone)


def test_habits_need_a_positive_strength_weight():
    with pytest.raises(ValueError, match="too few examples"):
        fit_discard.habits(np.zeros(len(fit_discard.SHAPES) + 3))



def _dealt(twelve: str, seat: int, skat: str, game: GameType, discard: str, reverse: bool = False
           ) -> fit_discard.Example:
    """An example whose other two hands are the rest of the deck, dealt in card order (or
    in reverse order)."""
    mine, skat_mask = CardSet.from_str(twelve).mask, CardSet.from_str(skat).mask
    rest = [c for c in range(32) if not (1 << c) & mine][::-1 if reverse else 1]
    hands = [0, 0, 0]
    hands[seat] = mine & ~skat_mask
    hands[(seat + 1) % 3] = sum(1 << c for c in rest[:10])
    hands[(seat + 2) % 3] = sum(1 << c for c in rest[10:])
    return fit_discard.Example(mine, game, seat, CardSet.from_str(discard).mask, tuple(hands))


def test_judge_plays_each_changed_discard_double_dummy_against_the_strengths():
    twelve = "D7.D8.DJ.H7.H8.HJ.SJ.C8.C9.CQ.CK.CA"  # the habits put away D7 D8, the strength D7 H7
    changed = [_dealt(twelve, 2, "D8.H8", GameType.CLUBS, "H7.H8", reverse) for reverse in (False, True)]
    unchanged = _dealt("CJ.SJ.HJ.CA.CT.C9.C8.C7.HA.H7.ST.D8", 1, "ST.D8", GameType.CLUBS, "ST.D8")
    assert (hand_eval.best_discard(unchanged.cards, GameType.CLUBS, 1, habits=False)[0]
            == hand_eval.best_discard(unchanged.cards, GameType.CLUBS, 1)[0])
    count, judged = fit_discard.judge([changed[0], unchanged, changed[1]])
    assert count == 2 and set(judged) == {"habits", "own"}
    plain, habit, own = (CardSet.from_str(d).mask for d in ("D7.H7", "D7.D8", "H7.H8"))
    for name, discard in (("habits", habit), ("own", own)):
        points = [fit_discard.double_dummy_points(e, discard) - fit_discard.double_dummy_points(e, plain)
                  for e in changed]
        assert judged[name][0] == pytest.approx(sum(points) / 2)
    # the skat's points count for the declarer: ♣K away is 4 points before a card is played
    assert fit_discard.double_dummy_points(_dealt(twelve, 2, "D8.H8", GameType.CLUBS, "H7.H8"),
                                           CardSet.from_str("C9.CK").mask) >= 4
