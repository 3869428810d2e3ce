"""Plain-Python double-dummy reference: exhaustive minimax over engine.rules.

No pruning and no cleverness: every legal card is tried at every turn, using
``engine.rules.legal_cards`` and ``engine.rules.trick_winner``.  The only aid is
a memo keyed on the complete state (hands, cards on the table, leader), which
cannot change a result because the future of a state depends on nothing else.
It is the yardstick the numba solver is tested against, so it stays slow and
simple.

Also here: seeded random positions (deals played on at random), used by the
tests, the bench and the stored table; and ``--make-table``, which writes
``tests/data/dds_reference_table.json``::

    python -m engine.dds.reference --make-table
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

from engine.cards import CARD_POINTS, cards_of
from engine.rules import GameType, legal_cards, trick_winner
from engine.scoring import ALL_POINTS, OUT_OF_SCHNEIDER, SCHNEIDER_POINTS, WIN_POINTS

TABLE_PATH = Path(__file__).resolve().parents[2] / "tests" / "data" / "dds_reference_table.json"


def _future(game: GameType, declarer: int, hands: tuple[int, int, int], trick: tuple[int, ...], leader: int,
            memo: dict) -> int:
    """Suit/grand: card points the declarer still takes (cards in hands and on the table).
    Null: 1 if the declarer takes no further trick, else 0."""
    key = (hands, trick, leader)
    if key in memo:
        return memo[key]
    is_null = game == GameType.NULL
    if not any(hands) and not trick:
        return 1 if is_null else 0
    to_move = (leader + len(trick)) % 3
    led = trick[0] if trick else None
    results = []
    for card in cards_of(legal_cards(hands[to_move], game, led)):
        new_hands = list(hands)
        new_hands[to_move] &= ~(1 << card)
        new_trick = trick + (card,)
        if len(new_trick) < 3:
            results.append(_future(game, declarer, tuple(new_hands), new_trick, leader, memo))
            continue
        winner = (leader + trick_winner(game, new_trick)) % 3
        if is_null:
            result = 0 if winner == declarer else _future(game, declarer, tuple(new_hands), (), winner, memo)
        else:
            taken = sum(CARD_POINTS[c] for c in new_trick) if winner == declarer else 0
            result = taken + _future(game, declarer, tuple(new_hands), (), winner, memo)
        results.append(result)
    value = max(results) if to_move == declarer else min(results)
    memo[key] = value
    return value


def reference_per_card(pos) -> dict[int, int]:
    """Value (as ``engine.dds.solver.solve``) after each legal card of the player to move."""
    game, declarer = GameType(pos.game), pos.declarer
    is_null = game == GameType.NULL
    to_move = (pos.leader + len(pos.trick)) % 3
    led = pos.trick[0] if pos.trick else None
    memo: dict = {}
    values = {}
    for card in cards_of(legal_cards(pos.hands[to_move], game, led)):
        hands = list(pos.hands)
        hands[to_move] &= ~(1 << card)
        trick = tuple(pos.trick) + (card,)
        if is_null and pos.declarer_tricks > 0:
            values[int(card)] = 0
            continue
        if len(trick) < 3:
            future = _future(game, declarer, tuple(hands), trick, pos.leader, memo)
        else:
            winner = (pos.leader + trick_winner(game, trick)) % 3
            if is_null:
                future = 0 if winner == declarer else _future(game, declarer, tuple(hands), (), winner, memo)
            else:
                taken = sum(CARD_POINTS[c] for c in trick) if winner == declarer else 0
                future = taken + _future(game, declarer, tuple(hands), (), winner, memo)
        values[int(card)] = future if is_null else pos.declarer_points + future
    return values


def reference_value(pos) -> int:
    """Exact value: suit/grand the declarer's final card points, null 1 (win) / 0 (loss)."""
    game = GameType(pos.game)
    if game == GameType.NULL and pos.declarer_tricks > 0:
        return 0
    future = _future(game, pos.declarer, tuple(pos.hands), tuple(pos.trick), pos.leader, {})
    return future if game == GameType.NULL else pos.declarer_points + future


def reference_threshold(pos, threshold: int) -> int:
    if GameType(pos.game) == GameType.NULL:
        return reference_value(pos)
    return int(reference_value(pos) >= threshold)


# ---------------------------------------------------------------- Ramsch, paranoid


def _ramsch_own_future(player: int, hands: tuple[int, int, int], trick: tuple[int, ...], leader: int,
                       skat_points: int, memo: dict) -> int:
    """Ramsch (grand's trick rules), paranoid: the card points ``player`` still takes
    (the skat's with the last trick) when he minimises them and both others maximise them."""
    key = (hands, trick, leader)
    if key in memo:
        return memo[key]
    if not any(hands) and not trick:
        return skat_points if leader == player else 0
    to_move = (leader + len(trick)) % 3
    led = trick[0] if trick else None
    results = []
    for card in cards_of(legal_cards(hands[to_move], GameType.GRAND, led)):
        new_hands = list(hands)
        new_hands[to_move] &= ~(1 << card)
        new_trick = trick + (card,)
        if len(new_trick) < 3:
            results.append(_ramsch_own_future(player, tuple(new_hands), new_trick, leader, skat_points, memo))
            continue
        winner = (leader + trick_winner(GameType.GRAND, new_trick)) % 3
        taken = sum(CARD_POINTS[c] for c in new_trick) if winner == player else 0
        results.append(taken + _ramsch_own_future(player, tuple(new_hands), (), winner, skat_points, memo))
    value = min(results) if to_move == player else max(results)
    memo[key] = value
    return value


def ramsch_reference_per_card(hands: tuple[int, int, int], trick: tuple[int, ...], leader: int,
                              skat_points: int) -> dict[int, int]:
    """For the player to move in Ramsch: the card points he still takes after each legal
    card, searched paranoid (he minimises them, both others maximise them)."""
    player = (leader + len(trick)) % 3
    memo: dict = {}
    values = {}
    for card in cards_of(legal_cards(hands[player], GameType.GRAND, trick[0] if trick else None)):
        new_hands = list(hands)
        new_hands[player] &= ~(1 << card)
        new_trick = tuple(trick) + (card,)
        if len(new_trick) < 3:
            values[int(card)] = _ramsch_own_future(player, tuple(new_hands), new_trick, leader, skat_points, memo)
            continue
        winner = (leader + trick_winner(GameType.GRAND, new_trick)) % 3
        taken = sum(CARD_POINTS[c] for c in new_trick) if winner == player else 0
        values[int(card)] = taken + _ramsch_own_future(player, tuple(new_hands), (), winner, skat_points, memo)
    return values


# ---------------------------------------------------------------- seeded random positions


def deal(rng: random.Random) -> tuple[tuple[int, int, int], int]:
    """Three 10-card hands and the 2-card skat as masks."""
    cards = list(range(32))
    rng.shuffle(cards)
    masks = [sum(1 << c for c in cards[i * 10:(i + 1) * 10]) for i in range(3)]
    return (masks[0], masks[1], masks[2]), sum(1 << c for c in cards[30:])


def random_position(rng: random.Random, game: GameType, cards_played: int, declarer: int | None = None):
    """A random deal of ``game`` played on by random legal cards for ``cards_played`` cards.

    The skat counts for the declarer in suit and grand games.  Null positions
    stop early if the declarer took a trick (so they stay undecided).
    """
    from engine.dds.solver import Position

    hands, skat = deal(rng)
    if declarer is None:
        declarer = rng.randrange(3)
    return play_random(rng, Position(game=GameType(game), declarer=declarer, hands=hands,
                                     declarer_points=0 if game == GameType.NULL else _points(skat)), cards_played)


def worlds_of_one_decision(pos, rng: random.Random, count: int) -> list:
    """Positions that differ from ``pos`` only in how the two other seats' cards are split
    (and, suit/grand, in 0-11 more declarer points): the worlds a player to move samples."""
    from dataclasses import replace

    from engine.rules import GameType

    me = pos.to_move
    others = [s for s in range(3) if s != me]
    pool = [c for s in others for c in range(32) if pos.hands[s] >> c & 1]
    size = pos.hands[others[0]].bit_count()
    worlds = []
    for _ in range(count):
        rng.shuffle(pool)
        hands = list(pos.hands)
        hands[others[0]] = sum(1 << c for c in pool[:size])
        hands[others[1]] = sum(1 << c for c in pool[size:])
        points = 0 if pos.game == GameType.NULL else pos.declarer_points + rng.randrange(0, 12)
        worlds.append(replace(pos, hands=tuple(hands), declarer_points=points))
    return worlds


def play_random(rng: random.Random, pos, cards_played: int):
    """``pos`` after up to ``cards_played`` random legal cards (null: never a declarer trick)."""
    from engine.dds.solver import Position

    game = GameType(pos.game)
    hands = list(pos.hands)
    trick = list(pos.trick)
    leader = pos.leader
    dp, dt, fp = pos.declarer_points, pos.declarer_tricks, pos.defender_points
    for _ in range(cards_played):
        to_move = (leader + len(trick)) % 3
        if not hands[to_move]:
            break
        legal = list(cards_of(legal_cards(hands[to_move], game, trick[0] if trick else None)))
        rng.shuffle(legal)
        chosen = None
        for card in legal:
            if len(trick) == 2 and game == GameType.NULL:
                winner = (leader + trick_winner(game, trick + [card])) % 3
                if winner == pos.declarer:
                    continue
            chosen = card
            break
        if chosen is None:
            break
        hands[to_move] &= ~(1 << chosen)
        trick.append(int(chosen))
        if len(trick) == 3:
            winner = (leader + trick_winner(game, trick)) % 3
            pts = sum(CARD_POINTS[c] for c in trick)
            if winner == pos.declarer:
                dp += pts
                dt += 1
            else:
                fp += pts
            trick, leader = [], winner
    return Position(game=game, declarer=pos.declarer, hands=(hands[0], hands[1], hands[2]), trick=tuple(trick),
                    leader=leader, declarer_points=dp, declarer_tricks=dt, defender_points=fp)


def _points(mask: int) -> int:
    return sum(CARD_POINTS[c] for c in cards_of(mask))


def position_to_json(pos) -> dict:
    return {"game": int(pos.game), "declarer": pos.declarer, "hands": list(pos.hands), "trick": list(pos.trick),
            "leader": pos.leader, "declarer_points": pos.declarer_points, "declarer_tricks": pos.declarer_tricks,
            "defender_points": pos.defender_points}


def position_from_json(data: dict):
    from engine.dds.solver import Position

    return Position(game=GameType(data["game"]), declarer=data["declarer"], hands=tuple(data["hands"]),
                    trick=tuple(data["trick"]), leader=data["leader"], declarer_points=data["declarer_points"],
                    declarer_tricks=data["declarer_tricks"], defender_points=data["defender_points"])


def make_table(path: Path = TABLE_PATH, seed: int = 20240611) -> list[dict]:
    """Reference values of seeded positions: 5 and 6 tricks left in every game type
    (some mid-trick), and null games with 7 tricks left."""
    rng = random.Random(seed)
    entries = []
    plan = []
    for game in GameType:
        # 6 tricks left (on lead and after one card), 5 left (0, 1 and 2 cards on the table)
        for cards_played in (12, 13, 15, 16, 17):
            plan.append((game, cards_played))
    plan += [(GameType.NULL, 9)] * 2  # 7 tricks left (a whole null game takes minutes here)
    for game, cards_played in plan:
        pos = random_position(rng, game, cards_played)
        start = time.perf_counter()
        value = reference_value(pos)
        per_card = reference_per_card(pos)
        entries.append({"position": position_to_json(pos), "value": value,
                        "per_card": {str(c): v for c, v in per_card.items()},
                        "thresholds": {str(t): reference_threshold(pos, t) for t in (OUT_OF_SCHNEIDER, WIN_POINTS, SCHNEIDER_POINTS, ALL_POINTS)}})
        print(f"{game.name:8} played={cards_played:2} value={value:3} ({time.perf_counter() - start:.1f} s)",
              file=sys.stderr)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"seed": seed, "generator": "python -m engine.dds.reference --make-table",
                                "entries": entries}, indent=1) + "\n")
    return entries


if __name__ == "__main__":
    if "--make-table" in sys.argv[1:]:
        make_table()
    else:
        print(__doc__)
