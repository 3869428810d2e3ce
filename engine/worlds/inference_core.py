"""The card-play evidence of inference, in numba: for every candidate world and
every card another seat played, whether the heuristic card play
(``heuristic_core.choose_card_std``, its one entry point for a decision)
picks that card in that world.

The public part of each past decision (the trick so far, the cards played,
the voids shown) is the same in every world and comes in as arrays; what
differs per world is the seat's hand then (its cards now plus the cards it
played since), the skat the declarer knows (its discard, in the world's skat
place) and the declarer's open hand in an ouvert game.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..policy.heuristic_core import choose_card_std, seed_state


@njit(cache=True, nogil=True)
def heuristic_matches(g, decl, seats, cards, tricks, counts, leaders, played, voids, later, decl_later,
                      knows_skat, ouvert, world_hands, world_skats, seed):
    """(worlds, plays) uint8: 1 where the heuristic plays ``cards[k]`` in the world.

    Per play k: ``seats[k]`` played ``cards[k]`` into ``tricks[k]`` (``counts[k]``
    cards before it, led by ``leaders[k]``), after the cards ``played[k]``, with
    the voids ``voids[k]`` shown; ``later[k]``: the cards that seat played from k
    on (k included); ``decl_later[k]``: the declarer's, for its open hand;
    ``knows_skat[k]``: the seat is a declarer who took the skat."""
    worlds = world_hands.shape[0]
    plays = seats.shape[0]
    out = np.zeros((worlds, plays), np.uint8)
    rng = seed_state(seed)
    for w in range(worlds):
        for k in range(plays):
            seat = seats[k]
            hand = world_hands[w, seat] | later[k]
            skat_known = world_skats[w] if knows_skat[k] else 0
            decl_open = (world_hands[w, decl] | decl_later[k]) if ouvert and seat != decl else 0
            choice = choose_card_std(g, decl, seat, hand, tricks[k], counts[k], leaders[k], played[k], voids[k],
                                     skat_known, decl_open, rng)
            if choice == cards[k]:
                out[w, k] = 1
    return out


# ------------------------------------------------ a declarer who took the skat

PAIRS = 66
"""The ways two of the declarer's twelve cards were the skat it picked up."""
TIE_BREAK = 1e-7
"""Discard score a pair loses per pair before it (the heuristic's first best pair wins a tie)."""


@njit(cache=True, nogil=True, inline="always")
def _chance(centre, scale, score):
    z = (score - centre) / scale
    if z <= -30.0:
        return 0.0
    if z >= 30.0:
        return 1.0
    return 1.0 / (1.0 + np.exp(-z))


@njit(cache=True, nogil=True)
def _hand_terms(hand, forehand, tables, side, suit_score, suit_count, jack_cards, strengths):
    """``hand_tables.strengths`` of one hand into ``strengths`` (6,); returns its null skat score."""
    grand_score, grand_count, danger, less_one, less_two = tables[0], tables[1], tables[2], tables[3], tables[4]
    # tables (5, 256): rows grand score and trump count by jack nibble, null danger, and the
    # least danger left after putting away one or two cards of a suit
    nibble = 0
    for i in range(4):
        nibble |= ((hand >> jack_cards[i]) & 1) << i
    b0 = (hand >> 0) & 0xFF
    b1 = (hand >> 8) & 0xFF
    b2 = (hand >> 16) & 0xFF
    b3 = (hand >> 24) & 0xFF
    bytes_ = (b0, b1, b2, b3)
    for g in range(4):
        score = suit_score[nibble, bytes_[g]]
        count = suit_count[nibble, bytes_[g]]
        for s in range(4):
            if s != g:
                score += side[0, count, bytes_[s], 0]
        strengths[g] = score + forehand[0]
    count = int(grand_count[nibble])
    score = grand_score[nibble]
    for s in range(4):
        score += side[1, count, bytes_[s], 0]
    strengths[4] = score + forehand[1]
    d0, d1, d2, d3 = danger[b0], danger[b1], danger[b2], danger[b3]
    dangers = (d0, d1, d2, d3)
    total = d0 + d1 + d2 + d3
    strengths[5] = -total
    best = np.inf
    for s in range(4):
        best = min(best, total - dangers[s] + less_two[bytes_[s]])
        for u in range(s + 1, 4):
            best = min(best, total - dangers[s] - dangers[u] + less_one[bytes_[s]] + less_one[bytes_[u]])
    return -best


@njit(cache=True, nogil=True, inline="always")
def _put_away_terms(ten, nibble, a, b, game, side, suit_count, jacks):
    """What the side suits of a suit game gain or lose in strength when cards ``a`` and ``b``
    were put away rather than never held (``hand_eval._side_value``'s ``put_away``);
    ``nibble``: the jacks of ``ten``."""
    if game >= 4:
        return 0.0
    count = suit_count[nibble, (ten >> (8 * game)) & 0xFF]
    out = 0.0
    for s in range(4):
        if s == game:
            continue
        k = 0
        if a >> 3 == s and not (jacks >> a) & 1:
            k += 1
        if b >> 3 == s and not (jacks >> b) & 1:
            k += 1
        if k:
            byte = (ten >> (8 * s)) & 0xFF
            out += side[0, count, byte, k] - side[0, count, byte, 0]
    return out


@njit(cache=True, nogil=True, inline="always")
def _grand_after_terms(ten, nibble, params):
    """``hand_eval.grand_after_terms`` of ``ten`` (``nibble``: its jacks, the club jack first)."""
    aces = 0
    for s in range(4):
        aces += (ten >> (8 * s + 7)) & 1
    return params[18] * (_popcount(nibble) - 2) + params[19] * aces + params[20] * (nibble & 1)


@njit(cache=True, nogil=True, inline="always")
def _discard_habit(ten, a, b, game, trumps, params, card_points):
    """``hand_eval.discard_habit`` of keeping ``ten`` with ``a`` and ``b`` put away (the habits
    from params[21:], ``hand_tables._habit_params``); ``trumps``: the game's trumps, jacks too."""
    if game >= 4:
        return 0.0
    base = 21
    out = 0.0
    for s in range(4):
        if s == game:
            continue
        ranks = (ten >> (8 * s)) & 0xFF & ~(1 << 4)  # rank bits, the jack left out
        ace, ten_held, king = (ranks >> 7) & 1, (ranks >> 3) & 1, (ranks >> 6) & 1
        other = min(_popcount(ranks) - ace - ten_held - king, 3)
        out += params[base + 16 * ace + 8 * ten_held + 4 * king + other]
    put_away = (1 << a) | (1 << b)
    return (out + params[base + 32] * (card_points[a] + card_points[b])
            + params[base + 33] * _popcount(put_away & trumps))


@njit(cache=True, nogil=True)
def _world_buffers(jack_cards, game):
    """The per-world scratch of ``_judge_world``, and the jacks and trumps as masks."""
    jacks = 0
    for i in range(4):
        jacks |= 1 << jack_cards[i]
    trumps = jacks
    if game < 4:
        trumps |= 0xFF << (8 * game)
    return np.zeros(6), np.zeros(12, np.int64), np.zeros(7), np.zeros(7), np.zeros(7), np.zeros(7), jacks, trumps


@njit(cache=True, nogil=True, inline="always")
def _cards_in(hand, cards):
    """The cards of ``hand`` into ``cards``, lowest first (the order of the pairs)."""
    k = 0
    for c in range(32):
        if (hand >> c) & 1:
            cards[k] = c
            k += 1


@njit(cache=True, nogil=True, inline="always")
def _judge_world(hand12, discard, forehand, steps, bid, game, side, suit_score, suit_count, tables, params,
                 base_values, null_values, suit_matadors, grand_matadors, jack_cards, card_points,
                 margins, utilities, allowed, discard_scores, discard_allowed, strengths, cards, skat_chance,
                 skat_value, hand_chance, hand_value, jacks, trumps):
    """``declarer_mixture`` of one world: its rows of margins (66, S), utilities and allowed
    (66, 8), discard scores and allowed (66,) filled in; returns the index of ``discard``."""
    n_steps = steps.shape[0]
    grand_caution, null_caution, ouvert_danger = params[12], params[13], params[14]
    bid_chance, hand_chance_needed, point_weight = params[15], params[16], params[17]
    chosen = 0
    _cards_in(hand12, cards)
    # the discard rule: no trump while two other cards exist, no jack while two non-jacks do
    candidates = hand12
    if game != 5:
        others = hand12 & ~trumps
        non_jacks = hand12 & ~jacks
        if _popcount(others) >= 2:
            candidates = others
        elif _popcount(non_jacks) >= 2:
            candidates = non_jacks
    p = 0
    for i in range(12):
        for j in range(i + 1, 12):
            a, b = cards[i], cards[j]
            pair = (1 << a) | (1 << b)
            ten = hand12 & ~pair
            if pair == discard:
                chosen = p
            null_skat = _hand_terms(ten, forehand, tables, side, suit_score, suit_count, jack_cards, strengths)
            nibble = 0
            for q in range(4):
                nibble |= ((ten >> jack_cards[q]) & 1) << q
            # the discard: the score hand_eval.best_discard chooses by (strength and habits)
            discard_allowed[p] = (candidates & pair) == pair
            if game == 5:
                discard_scores[p] = strengths[5] + ((a & 7) + (b & 7)) * 0.001
            else:
                discard_scores[p] = (strengths[game] + point_weight * (card_points[a] + card_points[b])
                                     + _put_away_terms(ten, nibble, a, b, game, side, suit_count, jacks))
                if game == 4:
                    discard_scores[p] += _grand_after_terms(ten, nibble, params)
                discard_scores[p] += _discard_habit(ten, a, b, game, trumps, params, card_points)
            # equal scores are frequent (a seven or an eight away: the same strength); the heuristic
            # keeps the first pair in this order, so the later ones lose a hair (far below any real
            # difference, which is at least a thousandth)
            discard_scores[p] -= TIE_BREAK * p
            # the bidding: skat and hand options of the ten cards it held
            for g in range(5):
                fam = 0 if g < 4 else 1
                score = strengths[g] - (grand_caution if g == 4 else 0.0)
                skat_chance[g] = _chance(params[2 * fam], params[2 * fam + 1], score)
                hand_chance[g] = _chance(params[6 + 2 * fam], params[7 + 2 * fam], score)
                matadors = suit_matadors[nibble, (ten >> (8 * g)) & 0xFF] if g < 4 else grand_matadors[nibble]
                skat_value[g] = base_values[g] * (matadors + 1)
                hand_value[g] = base_values[g] * (matadors + 2)
            plain = _chance(params[4], params[5], null_skat - null_caution)
            skat_chance[5] = plain
            skat_chance[6] = plain * 0.3 if null_skat < -ouvert_danger else plain
            plain = _chance(params[10], params[11], strengths[5] - null_caution)
            hand_chance[5] = plain
            hand_chance[6] = plain * 0.3 if strengths[5] < -ouvert_danger else plain
            skat_value[5], skat_value[6] = null_values[0], null_values[1]
            hand_value[5], hand_value[6] = null_values[2], null_values[3]
            for s in range(n_steps):
                best = -1.0
                for g in range(7):
                    if skat_value[g] >= steps[s]:
                        best = max(best, skat_chance[g] - bid_chance)
                    if hand_value[g] >= steps[s]:
                        best = max(best, hand_chance[g] - hand_chance_needed)
                margins[p, s] = best
            # hand or skat: the hand games worth the bid against the best skat game worth it
            pick_up = -np.inf
            for g in range(7):
                v = hand_value[g]
                c = hand_chance[g]
                utilities[p, g] = c * (v + 50.0) - (1.0 - c) * (2.0 * v + 130.0)
                allowed[p, g] = v >= bid
                if skat_value[g] >= bid:
                    v = skat_value[g]
                    c = skat_chance[g]
                    pick_up = max(pick_up, c * (v + 50.0) - (1.0 - c) * (2.0 * v + 130.0))
            if pick_up > -np.inf:
                utilities[p, 7] = pick_up
                allowed[p, 7] = True
            else:
                utilities[p, 7] = 0.0
                allowed[p, 7] = False
            p += 1
    return chosen


@njit(cache=True, nogil=True)
def declarer_mixture(twelve, discards, forehand, steps, bid, game, side, suit_score, suit_count, tables, params,
                     base_values, null_values, suit_matadors, grand_matadors, jack_cards, card_points):
    """What a declarer who took the skat said with each of the 66 ten-card hands it may have bid with.

    ``twelve`` (n,): its twelve cards in each world, ``discards`` (n,): the two it put away.
    For every world and every pair of the twelve as the original skat (pairs in the order
    of the cards' indices, i < j):
    margins (n, 66, S): per bid step (``steps``, the values it answered) the best win chance
    minus its threshold over the games worth at least the value, with the skat or hand
    (as ``inference._bid_margins`` of ``hand_tables.skat_options`` / ``hand_options``);
    utilities (n, 66, 8) and allowed: the hand games' expected scores and taking the skat
    (the best skat game worth ``bid``), the choice it made being the last column;
    and for the discard, given the twelve: scores (n, 66) of putting each pair away for
    ``game`` (``hand_eval.best_discard``'s score), allowed (n, 66) by its rule, and the
    index of the pair put away (n,).

    ``params``: curve centre and scale for suit, grand, null with the skat, then hand;
    grand caution, null caution, null ouvert danger, bid chance, hand chance, discard
    point weight, the grand after terms' jack, ace and club jack weights;
    ``suit_matadors``, ``grand_matadors``: ``hand_tables.matador_tables``."""
    n = twelve.shape[0]
    # every entry is written (large arrays: no time spent zeroing them first)
    margins = np.empty((n, PAIRS, steps.shape[0]))
    utilities = np.empty((n, PAIRS, 8))
    allowed = np.empty((n, PAIRS, 8), np.bool_)
    discard_scores = np.empty((n, PAIRS))
    discard_allowed = np.empty((n, PAIRS), np.bool_)
    chosen = np.zeros(n, np.int64)
    strengths, cards, skat_chance, skat_value, hand_chance, hand_value, jacks, trumps = _world_buffers(jack_cards,
                                                                                                       game)
    for w in range(n):
        chosen[w] = _judge_world(twelve[w], discards[w], forehand, steps, bid, game, side, suit_score, suit_count,
                                 tables, params, base_values, null_values, suit_matadors, grand_matadors,
                                 jack_cards, card_points, margins[w], utilities[w], allowed[w], discard_scores[w],
                                 discard_allowed[w], strengths, cards, skat_chance, skat_value, hand_chance,
                                 hand_value, jacks, trumps)
    return margins, utilities, allowed, discard_scores, discard_allowed, chosen


@njit(cache=True, nogil=True)
def pair_masks(twelve):
    """(n, 66): the pairs of each world's twelve cards as masks, in ``declarer_mixture``'s order."""
    n = twelve.shape[0]
    out = np.empty((n, PAIRS), np.int64)
    cards = np.zeros(12, np.int64)
    for w in range(n):
        _cards_in(twelve[w], cards)
        p = 0
        for i in range(12):
            for j in range(i + 1, 12):
                out[w, p] = (1 << cards[i]) | (1 << cards[j])
                p += 1
    return out


@njit(cache=True, nogil=True)
def _popcount(x):
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@njit(cache=True, nogil=True, inline="always")
def _world_log_likelihood(margins, went_on, utilities, allowed, bid_temperature, game_temperature, eps, terms):
    """``mixture_log_likelihood`` of one world: margins (66, S), went_on (S,), utilities and
    allowed (66, 8); ``terms`` (66,) scratch."""
    pairs, n_steps = margins.shape
    columns = utilities.shape[1]
    # the fitted model is sharp: most sigmoids and softmax terms are saturated, and their
    # values are these constants (exp(-40) is far below the uniform share ε)
    on_sure, off_sure = np.log(1 - eps / 2), np.log(eps / 2)
    floor = eps / columns
    # the choice's log-likelihood when the softmax gives the choice nothing or everything
    # (most pairs of a sharp model): the same expression, computed once
    never, always = np.log(floor + (1 - eps) * 0.0), np.log(floor + (1 - eps) * 1.0)
    for p in range(pairs):
        ll = 0.0
        for s in range(n_steps):
            if went_on[s] < 0:
                continue
            x = margins[p, s] / bid_temperature
            if x >= 40.0:
                ll += on_sure if went_on[s] == 1 else off_sure
            elif x <= -40.0:
                ll += off_sure if went_on[s] == 1 else on_sure
            else:
                go_on = eps / 2 + (1 - eps) / (1.0 + np.exp(-x))
                ll += np.log(go_on if went_on[s] == 1 else 1.0 - go_on)
        top = -np.inf
        for c in range(columns):
            if allowed[p, c]:
                top = max(top, utilities[p, c] / game_temperature)
        soft = 0.0
        if allowed[p, columns - 1]:
            picked = utilities[p, columns - 1] / game_temperature - top
            if picked > -40.0:
                total = 0.0
                for c in range(columns):
                    if allowed[p, c]:
                        x = utilities[p, c] / game_temperature - top
                        if x == 0.0:
                            total += 1.0  # exp(0): the best column
                        elif x > -40.0:
                            total += np.exp(x)
                soft = (1.0 if picked == 0.0 else np.exp(picked)) / total
        if soft == 0.0:
            terms[p] = ll + never
        elif soft == 1.0:
            terms[p] = ll + always
        else:
            terms[p] = ll + np.log(floor + (1 - eps) * soft)
    top = terms.max()
    acc = 0.0
    for p in range(pairs):
        x = terms[p] - top
        if x == 0.0:
            acc += 1.0  # exp(0)
        elif x > -40.0:
            acc += np.exp(x)
    return top + np.log(acc / pairs)


@njit(cache=True, nogil=True)
def mixture_log_likelihood(margins, went_on, utilities, allowed, bid_temperature, game_temperature, eps):
    """(n,): log of the mean over the 66 original skats of the likelihood of the bids
    (``went_on`` (n, S): 1 went on, 0 passed, -1 no step) and of taking the skat (the
    last column of ``utilities``) under the soft heuristic (``inference.PolicyModel``)."""
    n = margins.shape[0]
    out = np.empty(n)
    terms = np.empty(margins.shape[1])
    for w in range(n):
        out[w] = _world_log_likelihood(margins[w], went_on[w], utilities[w], allowed[w], bid_temperature,
                                       game_temperature, eps, terms)
    return out


@njit(cache=True, nogil=True)
def drawn_declarer(twelve, discards, forehand, steps, bid, game, side, suit_score, suit_count, tables, params,
                   base_values, null_values, suit_matadors, grand_matadors, jack_cards, card_points,
                   went_on, bid_temperature, game_temperature, eps):
    """``declarer_mixture``'s discard scores, allowed and chosen, and the log-likelihood of the
    mixture under one model (``mixture_log_likelihood``, ``went_on`` (S,)), world by world:
    the (n, 66, ·) arrays of the mixture are never stored."""
    n = twelve.shape[0]
    margins = np.empty((PAIRS, steps.shape[0]))
    utilities = np.empty((PAIRS, 8))
    allowed = np.empty((PAIRS, 8), np.bool_)
    discard_scores = np.empty((n, PAIRS))
    discard_allowed = np.empty((n, PAIRS), np.bool_)
    chosen = np.zeros(n, np.int64)
    out = np.empty(n)
    terms = np.empty(PAIRS)
    strengths, cards, skat_chance, skat_value, hand_chance, hand_value, jacks, trumps = _world_buffers(jack_cards,
                                                                                                       game)
    for w in range(n):
        chosen[w] = _judge_world(twelve[w], discards[w], forehand, steps, bid, game, side, suit_score, suit_count,
                                 tables, params, base_values, null_values, suit_matadors, grand_matadors,
                                 jack_cards, card_points, margins, utilities, allowed, discard_scores[w],
                                 discard_allowed[w], strengths, cards, skat_chance, skat_value, hand_chance,
                                 hand_value, jacks, trumps)
        out[w] = _world_log_likelihood(margins, went_on, utilities, allowed, bid_temperature, game_temperature, eps,
                                       terms)
    return discard_scores, discard_allowed, chosen, out

# ------------------------------------------------ the pool's worlds


@njit(cache=True, nogil=True)
def deal_ranked(order, bounds, cards):
    """(count, places) masks: per world, ``cards[order[w, r]]`` (the card of rank r) goes to the
    first place whose bound ``bounds[w, place]`` (cumulative counts) is above r
    (``sampling.WorldSampler.sample_arrays``)."""
    count, size = order.shape
    places = bounds.shape[1]
    out = np.zeros((count, places), np.int64)
    for w in range(count):
        place = 0
        for r in range(size):
            while place < places - 1 and r >= bounds[w, place]:
                place += 1
            out[w, place] |= np.int64(1) << cards[order[w, r]]
    return out
