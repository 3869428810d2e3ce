"""How much the search bidder loses by valuing only the heuristic's best few discards.

On seeded deals the heuristic bids; where the declarer takes the skat, every one
of the 66 discards of the two games that come out best with the heuristic's own
discard is valued (solver or playout valuation, as the bidder does).  For each K
the best of the heuristic's first K (``hand_eval.ranked_discards``) is chosen on
one sample of worlds and scored on another; the tool prints how often that
choice scores at least as well as the best of all 66, and the mean expected
score it loses (negative: the narrower choice did better).

    python3 -m engine.tools.discard_pruning --deals 40 --worlds 40 --valuation solver
"""

from __future__ import annotations

import argparse
import random

import numpy as np

from ..game import Deal, GameState, Phase
from ..policy import hand_eval
from ..players.bidding import SearchBidder, _outcomes, _score, _with_hand
from ..players.registry import make_player, parse_spec
from ..series import play_game
from ..worlds.sampling import WorldSampler

KS = (1, 2, 4, 8, 12, 20, 66)


def discard_positions(deals: int, seed: int) -> list[GameState]:
    """The declarer's view after taking the skat, from heuristic bidding on seeded deals."""
    views = []
    for number in range(deals):
        players = [make_player(parse_spec("heuristic"), number * 3 + s) for s in range(3)]
        state = play_game(Deal.shuffled(seed * 1_000_003 + number), players,
                          until=lambda state: state.phase == Phase.DISCARD)
        if state.phase == Phase.DISCARD:
            views.append(state.view(state.declarer))
    return views


def losses(view: GameState, worlds: int, valuation: str, seed: int) -> dict[int, float]:
    """Per K: what choosing among the first K discards loses against choosing among all 66.

    The choice is made on one sample of worlds and scored on a second, independent
    one, so the maximum over many noisy estimates does not flatter the wider search."""
    bidder = SearchBidder(worlds, seed, valuation=valuation)
    seat, cards = view.declarer, view.hands[view.declarer]
    rng = random.Random(seed)
    sampler = WorldSampler(view, True)
    samples = [[sampler.sample(rng) for _ in range(worlds)] for _ in range(2)]

    def expected(decl, discard, sample):
        hands = [_with_hand(w.hands, seat, cards & ~discard) for w in sample]
        rows = bidder._value(decl, seat, hands, [discard] * worlds, True, rng.getrandbits(62))
        return _outcomes(decl, [_score(decl, seat, cards, r) for r in rows]).expected(view.bid, valuation)

    options = [o for o in hand_eval.declaration_options(cards, seat) if view.declaration_problem(o.declaration) is None]
    firsts = sorted(((expected(o.declaration, o.discard, samples[0]), o) for o in options), key=lambda p: -p[0])
    chosen = []  # (rank in the game's list, value on the choosing sample, value on the scoring sample)
    for _, option in firsts[:2]:
        ranked = hand_eval.ranked_discards(cards, option.declaration.game, seat)
        ranked = [option.discard] + [d for d in ranked if d != option.discard]
        for rank, d in enumerate(ranked):
            chosen.append((rank, expected(option.declaration, d, samples[0]),
                           expected(option.declaration, d, samples[1])))
    best_all = max(chosen, key=lambda c: c[1])[2]
    return {k: best_all - max((c for c in chosen if c[0] < k), key=lambda c: c[1])[2] for k in KS}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worlds", type=int, default=40)
    parser.add_argument("--valuation", default="solver")
    args = parser.parse_args(argv)
    views = discard_positions(args.deals, args.seed)
    rows = []
    for i, view in enumerate(views):
        rows.append(losses(view, args.worlds, args.valuation, args.seed * 7919 + i))
        print(f"decision {i + 1}: " + ", ".join(f"K={k} {loss:+.1f}" for k, loss in rows[-1].items()), flush=True)
    print(f"{len(rows)} discard decisions, {args.worlds} worlds, valuation {args.valuation}")
    print("| first K discards | scores as well as all 66 | mean loss | largest loss |")
    print("|---:|---:|---:|---:|")
    for k in KS:
        lost = np.array([r[k] for r in rows])
        print(f"| {k} | {np.mean(lost <= 1e-9):.0%} | {lost.mean():.2f} | {lost.max():.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
