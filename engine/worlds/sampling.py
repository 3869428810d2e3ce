"""Worlds consistent with what one seat knows.

A world gives every card the viewer cannot see a place: one of the other two
hands, or the skat while the viewer has not seen it.  The simple sampler
shuffles the unknown cards into the unknown places; the informed sampler also
respects what the play proved (a seat that did not follow a suit or trump holds
none of it) and draws *exactly uniformly* among all worlds that fit:

1. every unknown card gets the set of places that may hold it; cards with the
   same set form a constraint class (at most 7 classes for 3 places);
2. a split says how many cards of each class go to each place; the worlds of a
   split number the product, over classes, of the multinomial coefficients;
3. draw a split with probability proportional to its world count, then deal
   each class's cards into its places by a uniform shuffle.

Splits are enumerated once per decision, so each draw costs a few shuffles.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
from dataclasses import dataclass

from ..cards import FULL_DECK, Mask, cards_of
from ..game import GameState, Phase
from ..rules import void_cards, void_classes

SKAT_PLACE = 3
"""Place index of the skat; places 0..2 are the seats' hands."""


@dataclass(frozen=True)
class World:
    """Every seat's remaining hand and the skat (two cards, or the discard)."""

    hands: tuple[Mask, Mask, Mask]
    skat: Mask


class InconsistentView(ValueError):
    """No world fits what the view says (a bug upstream, or a corrupt record)."""


def shown_voids(state: GameState) -> tuple[Mask, Mask, Mask]:
    """Per seat, the cards it cannot hold because it failed to follow a class."""
    game = state.game  # (grand's trick rules in a Ramsch)
    if game is None:
        return (0, 0, 0)
    v0, v1, v2 = void_classes(game, state.tricks, state.trick, state.leader)
    return (void_cards(game, v0), void_cards(game, v1), void_cards(game, v2))


class WorldSampler:
    """Draws worlds for ``view`` (a seat's view; a full state works too and
    then has only one world)."""

    def __init__(self, view: GameState, informed: bool = True) -> None:
        seat = view.perspective if view.perspective is not None else view.to_move
        self.view = view
        self.seat = seat
        self.informed = informed
        known = view.hands[0] | view.hands[1] | view.hands[2] | view.played
        if view.skat_known:
            known |= view.skat if not view.skat_taken else 0
            known |= view.discard
        self.fixed_hands = tuple(view.hands)
        self.fixed_skat = view.discard if view.skat_taken else (view.skat if view.skat_known else 0)
        # places that still need cards, and how many
        need = [view.hand_sizes[s] - view.hands[s].bit_count() for s in range(3)]
        skat_unknown = not _skat_known_to(view)
        # while the declarer holds 12 cards there is no skat to place
        skat_size = 0 if ((view.skat_taken and view.phase == Phase.DISCARD)
                          or view.phase == Phase.RAMSCH_DISCARD) else 2
        need.append(skat_size if skat_unknown else 0)
        self.need = tuple(need)
        self.unknown: Mask = FULL_DECK & ~known
        if skat_unknown:
            self.fixed_skat = 0
        if self.unknown.bit_count() != sum(need):
            raise InconsistentView(f"{self.unknown.bit_count()} unknown cards for {sum(need)} unknown places")
        voids = shown_voids(view) if informed else (0, 0, 0)
        places = [p for p in range(4) if need[p] > 0]
        self.places = places
        # constraint classes: cards grouped by the set of places that may hold them
        groups: dict[tuple[int, ...], list[int]] = {}
        for card in cards_of(self.unknown):
            allowed = tuple(p for p in places if p == SKAT_PLACE or not (voids[p] >> card & 1))
            if not allowed:
                raise InconsistentView(f"card {card} fits no place")
            groups.setdefault(allowed, []).append(int(card))
        self.classes = list(groups.items())
        self._splits, self._cumulative = self._enumerate_splits()
        if not self._splits:
            raise InconsistentView("no world fits the shown voids and hand sizes")

    @property
    def world_count(self) -> int:
        """How many distinct worlds fit the constraints."""
        return self._cumulative[-1] if self._cumulative else 0

    def _enumerate_splits(self) -> tuple[list[tuple[tuple[int, ...], ...]], list[int]]:
        """Every way to give each class's cards to its places that fills every
        place exactly, with the number of worlds it stands for."""
        splits: list[tuple[tuple[int, ...], ...]] = []
        cumulative: list[int] = []
        total = 0
        room = {p: self.need[p] for p in self.places}

        def per_class(index: int, chosen: list[tuple[int, ...]], weight: int) -> None:
            nonlocal total
            if index == len(self.classes):
                if all(v == 0 for v in room.values()):
                    splits.append(tuple(chosen))
                    total += weight
                    cumulative.append(total)
                return
            allowed, cards = self.classes[index]
            for counts in _compositions(len(cards), [room[p] for p in allowed]):
                for p, c in zip(allowed, counts):
                    room[p] -= c
                if self._still_fillable(index + 1, room):
                    w = _multinomial(len(cards), counts)
                    chosen.append(counts)
                    per_class(index + 1, chosen, weight * w)
                    chosen.pop()
                for p, c in zip(allowed, counts):
                    room[p] += c

        per_class(0, [], 1)
        return splits, cumulative

    def _still_fillable(self, next_index: int, room: dict[int, int]) -> bool:
        # each place's remaining room must be coverable by the classes still to come
        for p, r in room.items():
            if r and r > sum(len(cards) for allowed, cards in self.classes[next_index:] if p in allowed):
                return False
        return True

    def marginals(self) -> "np.ndarray":
        """(32, 4): the exact probability of each place (seats 0-2, skat) for every
        unknown card, over the worlds this sampler draws from (zero rows for known cards).
        Within a split a class's cards are shuffled uniformly into its places, so a card
        goes to each place in proportion to the place's count."""
        import numpy as np

        places = np.zeros((32, 4))
        previous = 0
        total = self._cumulative[-1]
        for split, cumulative in zip(self._splits, self._cumulative):
            share = (cumulative - previous) / total
            previous = cumulative
            for (allowed, cards), counts in zip(self.classes, split):
                for place, n in zip(allowed, counts):
                    places[cards, place] += share * n / len(cards)
        return places

    def sample_arrays(self, count: int, generator: "np.random.Generator") -> tuple["np.ndarray", "np.ndarray"]:
        """``count`` worlds at once, drawn as ``sample`` draws one (a split by its world
        count, then each class dealt by a uniform shuffle), with numpy: (hands (count, 3),
        skats (count,)) as int64 masks."""
        import numpy as np

        from .inference_core import deal_ranked

        shares = np.diff(np.array([0, *self._cumulative], dtype=float))
        chosen = generator.choice(len(self._splits), size=count, p=shares / shares.sum())
        hands = np.tile(np.array(self.fixed_hands, np.int64), (count, 1))
        skats = np.full(count, self.fixed_skat, np.int64)
        for index, (allowed, cards) in enumerate(self.classes):
            counts = np.array([split[index] for split in self._splits], np.int64)[chosen]  # (count, places)
            bounds = np.cumsum(counts, axis=1)
            # a uniform shuffle: the cards in the order of random keys; the first ``bounds[0]``
            # go to the first place, and so on
            order = generator.random((count, len(cards))).argsort(axis=1)
            masks = deal_ranked(order, bounds, np.array(cards, np.int64))
            for position, place in enumerate(allowed):
                mask = masks[:, position]
                if place == SKAT_PLACE:
                    skats |= mask
                else:
                    hands[:, place] |= mask
        return hands, skats

    def sample(self, rng: random.Random) -> World:
        """One world, uniformly among all that fit (informed) or among all
        deals of the unknown cards to the unknown places (simple)."""
        index = bisect.bisect_right(self._cumulative, rng.randrange(self._cumulative[-1]))
        split = self._splits[index]
        hands = list(self.fixed_hands)
        skat = self.fixed_skat
        for (allowed, cards), counts in zip(self.classes, split):
            pool = cards[:]
            rng.shuffle(pool)
            start = 0
            for place, n in zip(allowed, counts):
                mask = 0
                for card in pool[start:start + n]:
                    mask |= 1 << card
                start += n
                if place == SKAT_PLACE:
                    skat |= mask
                else:
                    hands[place] |= mask
        return World((hands[0], hands[1], hands[2]), skat)


def _skat_known_to(view: GameState) -> bool:
    if view.perspective is None:
        return True
    if view.ramsch:
        # Ramsch (and a Grand Hand that escaped it, after Schieben perhaps): the seat that
        # put the skat back knows it until someone picks it up.  The
        # cards a seat put back and another then picked up are not tracked: they count as
        # unknown (a world may put them anywhere unseen), a small loss of knowledge.
        return view.skat_known
    return view.skat_taken and view.declarer == view.perspective


def _compositions(total: int, caps: list[int]):
    """Ways to write ``total`` as an ordered sum of len(caps) parts within caps."""
    if len(caps) == 1:
        if total <= caps[0]:
            yield (total,)
        return
    for first in range(min(total, caps[0]), -1, -1):
        for rest in _compositions(total - first, caps[1:]):
            yield (first,) + rest


def _multinomial(n: int, parts: tuple[int, ...]) -> int:
    result = 1
    for part in parts:
        result *= math.comb(n, part)
        n -= part
    return result


def enumerate_worlds(view: GameState, informed: bool = True) -> list[World]:
    """Every world that fits (for tests on small positions)."""
    sampler = WorldSampler(view, informed)
    worlds = []
    cards = list(cards_of(sampler.unknown))
    places = [p for p in sampler.places for _ in range(sampler.need[p])]
    seen = set()
    for perm in itertools.permutations(range(len(cards))):
        hands = list(sampler.fixed_hands)
        skat = sampler.fixed_skat
        for card_index, slot in zip(perm, range(len(places))):
            place = places[slot]
            card = cards[card_index]
            if place == SKAT_PLACE:
                skat |= 1 << card
            else:
                hands[place] |= 1 << card
        world = World((hands[0], hands[1], hands[2]), skat)
        if world in seen:
            continue
        seen.add(world)
        if not informed or _fits(world, view):
            worlds.append(world)
    return worlds


def _fits(world: World, view: GameState) -> bool:
    voids = shown_voids(view)
    return all(not (world.hands[s] & voids[s]) for s in range(3))


__all__ = ["World", "WorldSampler", "InconsistentView", "shown_voids", "enumerate_worlds"]
