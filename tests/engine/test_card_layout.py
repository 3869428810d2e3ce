"""The numba cores' shared card layout: its tables and rules pinned to engine.rules,
and the guard that keeps numba's cache from serving code built from other sources."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

from engine import card_layout as layout
from engine.cards import CARD_POINTS, FULL_DECK, points_of
from engine.rules import CLASS_OF, STRENGTH, TRUMP_CLASS, GameType, legal_cards, trick_winner

ROOT = Path(__file__).resolve().parents[2]


def random_hand(rng: random.Random, size: int) -> int:
    return sum(1 << c for c in rng.sample(range(32), size))


def test_legal_cards_match_engine_rules_on_random_positions():
    rng = random.Random(1)
    for _ in range(3000):
        game = GameType(rng.randrange(6))
        hand = random_hand(rng, rng.randint(1, 10))
        led = rng.choice([None] + list(range(32)))
        expected = legal_cards(hand, game, led)
        assert layout.legal_cards_std(hand, int(game), -1 if led is None else led) == expected


def test_trick_winner_matches_engine_rules_on_random_tricks():
    rng = random.Random(2)
    for _ in range(3000):
        game = GameType(rng.randrange(6))
        cards = rng.sample(range(32), 3)
        assert layout.trick_winner_std(int(game), *cards) == trick_winner(game, cards)


def test_beats_card_by_card_gives_the_engines_trick_winner():
    """The heuristic core finds a trick's winner so far with ``beats``, one card after the other."""
    rng = random.Random(4)
    for _ in range(3000):
        game = GameType(rng.randrange(6))
        cards = rng.sample(range(32), 3)
        best = 0
        for i in (1, 2):
            if layout.beats_std(int(game), cards[i], cards[best]):
                best = i
        assert best == trick_winner(game, cards)
        assert best == layout.trick_winner_std(int(game), *cards)


def test_points_match_card_points_on_random_masks():
    rng = random.Random(3)
    for _ in range(1000):
        game = rng.randrange(6)
        mask = rng.getrandbits(32)
        assert layout.points_std(game, mask) == points_of(mask)
    assert layout.points_std(0, FULL_DECK) == 120


def test_internal_layout_round_trips_every_card():
    for game in range(6):
        for card in range(32):
            assert layout.to_standard_mask(game, layout.to_internal_mask(game, 1 << card)) == 1 << card


def test_tables_follow_the_engines_classes_strengths_and_points():
    for game in range(6):
        for card in range(32):
            i = layout.TO_INTERNAL[game, card]
            cls = CLASS_OF[game][card]
            assert layout.POINTS[game, i] == CARD_POINTS[card]
            assert layout.CARD_CLASS[game, i] == cls
            same = [other for other in range(32) if CLASS_OF[game][other] == cls]
            assert layout.to_standard_mask(game, layout.SAME_CLASS[game, i]) == sum(1 << c for c in same)
            stronger = sum(1 << c for c in same if STRENGTH[game][c] > STRENGTH[game][card])
            weaker = sum(1 << c for c in same if STRENGTH[game][c] < STRENGTH[game][card])
            assert layout.to_standard_mask(game, layout.ABOVE[game, i]) == stronger
            assert layout.to_standard_mask(game, layout.BELOW[game, i]) == weaker
            # trumps on top: every trump is above every plain card
            if cls == TRUMP_CLASS:
                assert i >= 32 - bin(int(layout.TRUMP_MASK[game])).count("1")
        for level, value in enumerate(layout.POINT_LEVELS):
            worth = sum(1 << c for c in range(32) if CARD_POINTS[c] == value)
            assert layout.to_standard_mask(game, layout.LEVEL_MASK[game, level]) == worth


def test_every_file_with_cached_numba_code_is_a_core_source():
    """A file left out would keep serving code compiled from the other cores' old sources."""
    engine = ROOT / "engine"
    cached = {str(path.relative_to(engine)) for path in engine.rglob("*.py") if "cache=True" in path.read_text()}
    assert cached <= set(layout.CORE_SOURCES)


def test_a_changed_core_source_drops_the_cores_cached_code(tmp_path):
    """A cached solver function holds the code of functions from other files, which numba
    does not check: when any core source changes, importing the layout drops every core's
    cached code (and only then)."""
    copy = tmp_path / "engine"
    shutil.copytree(ROOT / "engine", copy, ignore=shutil.ignore_patterns("*.nbi", "*.nbc", "*.sha256"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}

    def run(code: str) -> str:
        out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                             timeout=600)
        assert out.returncode == 0, out.stderr
        return out.stdout.strip()

    def cached() -> list[Path]:
        return sorted((copy / "__pycache__").glob("card_layout.*.nb[ic]"))

    assert run("from engine import card_layout as L; print(L.to_standard_mask(0, L.to_internal_mask(0, 3)))") == "3"
    assert cached(), "the call cached its code"
    assert run("from engine import card_layout as L; print(L.drop_stale_caches())") == "0"
    assert cached(), "unchanged sources keep the cache"
    moves = copy / "dds" / "moves.py"
    moves.write_text(moves.read_text() + "\n# changed\n")
    run("import engine.card_layout")
    assert not cached(), "a changed source in another folder drops the layout's cache too"
    assert run("from engine import card_layout as L; print(L.drop_stale_caches())") == "0"
