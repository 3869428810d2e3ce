"""Move generation and ordering for the solver's search (internal layout).

``gen_moves`` lists the legal moves of the player to move, one per class of
equivalent cards, best first: in a trick whose taker is settled a run of
neighbouring cards is one move (the most points into a trick the own side
takes, the fewest into one it loses); otherwise a card next to a lower one of
the same points in the same hand is the same move.  ``follow_settled``,
``sure_lead`` and ``ruff_hands`` answer "who takes this trick?" for that
and for the endgame's ordering.
"""

from __future__ import annotations

from numba import njit

from engine.card_layout import NULL_GAME, POINTS, RAMSCH_GAME, SAME_CLASS, TRUMP_MASK, high_index, low_index, seat

from .context import (
    FLAG_NO_EQUIV, FLAG_NO_KILLER, FLAG_NO_ORDER, KILLER_SCORE, KILLER_SCORE_DECLARER, MAX_MOVES,
    PARTNER_LEAD_BONUS,
)


@njit(cache=True, nogil=True, inline="always")
def follow_settled(decl, p, c, win_card, win_seat, eligible, nxt, next_elig):
    """(settled, mine, beats) for player p playing the second card of a trick with
    card c: is the side that takes this trick already settled, is it p's side, and
    does c beat the trick's best card so far?  Settled and mine are the same for
    all of p's cards that are neighbours of c among the cards in play (suit and
    grand).

    Settled when the last player is on the side of the trick's best card or cannot
    beat it (``next_elig``: the next player's legal cards that can win the trick).
    The last card of a trick always settles it (``gen_moves``' shortcut); on lead,
    ``sure_lead`` decides.
    """
    beats = (eligible >> c) & 1 and c > win_card
    top_seat = p if beats else win_seat
    fixed = (nxt == decl) == (top_seat == decl)
    if not fixed:
        top = c if beats else win_card
        fixed = (next_elig & ~((2 << top) - 1)) == 0
    return fixed, (top_seat == decl) == (p == decl), beats


@njit(cache=True, nogil=True, inline="always")
def sure_lead(g, c, cls, opp, ruff_a, ruff_b):
    """Does card c, led by p, surely win the trick for p's side (then the same for
    p's cards that are neighbours of c among the cards in play)?  No opponent
    (``opp``: their cards) holds a higher card of its class and, for a plain
    card, none is void in its suit with a trump left (``ruff_a`` / ``ruff_b``:
    the hands of p's opponents that hold trumps, all bits set for the others;
    see ``ruff_hands``)."""
    if opp & cls & ~((2 << c) - 1):
        return False
    if (cls & TRUMP_MASK[g]) == 0 and ((ruff_a & cls) == 0 or (ruff_b & cls) == 0):
        return False
    return True


@njit(cache=True, nogil=True, inline="always")
def ruff_hands(g, decl, p, h0, h1, h2):
    """For ``sure_lead``: the hands of p's opponents (the declarer's two, or the
    declarer for a defender) that hold a trump; all bits set in place of the
    others (never void in a suit)."""
    trump = TRUMP_MASK[g]
    ruff_a = -1
    ruff_b = -1
    for s in range(3):
        if s != p and (p == decl or s == decl):
            hs = h0 if s == 0 else (h1 if s == 1 else h2)
            if (hs & trump) != 0:
                if ruff_a == -1:
                    ruff_a = hs
                else:
                    ruff_b = hs
    return ruff_a, ruff_b


@njit(cache=True, nogil=True, inline="always")
def _insert_move(mv, d, count, c, score):
    """Insert move c with its score into mv[d] (moves 0..count-1 sorted by descending
    score; a new move goes after those with an equal score)."""
    j = count
    while j > 0 and mv[d, MAX_MOVES + j - 1] < score:
        mv[d, j] = mv[d, j - 1]
        mv[d, MAX_MOVES + j] = mv[d, MAX_MOVES + j - 1]
        j -= 1
    mv[d, j] = c
    mv[d, MAX_MOVES + j] = score


@njit(cache=True, nogil=True, inline="always")
def _run_choice(g, in_play, hand, cls, c, mine):
    """For a settled trick: of my run of cards c, c+1, ... (neighbours among the cards
    in play), the one to play: the most points into a trick my side takes, the
    fewest into one it loses (the lowest such card)."""
    best = c
    nxt_card = c
    while True:
        higher = in_play & cls & ~((2 << nxt_card) - 1)
        if higher == 0:
            break
        nxt_card = low_index(higher)
        if not (hand >> nxt_card) & 1:
            break
        if (POINTS[g, nxt_card] > POINTS[g, best]) if mine else (POINTS[g, nxt_card] < POINTS[g, best]):
            best = nxt_card
    return best


@njit(cache=True, nogil=True, inline="always")
def _representative(g, in_play, hand, cls, c, settled, mine):
    """The card that stands for c and its equivalent cards in my hand, or -1 when that
    card is another one's to stand for (c is not the lowest of its run, or has the points
    of its lower neighbour in my hand).  In a trick whose taker is ``settled`` it is the
    card of the run that ``_run_choice`` picks (``mine``: my side takes the trick)."""
    lower = in_play & cls & ((1 << c) - 1)
    if settled:
        if lower and (hand >> high_index(lower)) & 1:
            return -1  # not the lowest of its run: the run was handled there
        return _run_choice(g, in_play, hand, cls, c, mine)
    if lower:
        b = high_index(lower)
        if (hand >> b) & 1 and POINTS[g, b] == POINTS[g, c]:
            return -1  # same outcome as the lower neighbour in my hand
    return c


@njit(cache=True, nogil=True, inline="always")
def _following(g, lead, n, hand, in_play, t0, t1):
    """For a player following to a trick of n >= 1 cards t0, t1 led by ``lead``: (the led
    class, the cards in play with the trick's, his legal cards, the cards that may win the
    trick, the trick's best card so far and its seat)."""
    led_cls = SAME_CLASS[g, t0]
    in_play |= 1 << t0
    if n >= 2:
        in_play |= 1 << t1
    follow = hand & led_cls
    legal = follow if follow else hand
    eligible = led_cls | TRUMP_MASK[g]
    win_card = t0
    win_seat = lead
    if n == 2 and (eligible >> t1) & 1 and t1 > win_card:
        win_card = t1
        win_seat = seat(lead + 1)
    return led_cls, in_play, legal, eligible, win_card, win_seat


# Without the runtime's reference counting: a call that passes ``mv`` would otherwise
# increment and decrement its count with atomic instructions at every expanded node
# (3 % of the PIMC exact-per-card profile; paired time -3 %).  Neither function allocates.
@njit(cache=True, nogil=True, _nrt=False)
def gen_moves(g, decl, d, lead, n, h0, h1, h2, t0, t1, killer, mv, tt_move, flags):
    """Fill mv[d] with the legal, non-equivalent moves of the player to move, best first
    (trick led by ``lead``, n cards t0, t1 on the table; ``killer``: the killer lead at depth d)."""
    if g == NULL_GAME:
        return _gen_moves_null(g, decl, d, lead, n, h0, h1, h2, t0, t1, mv, tt_move, flags)
    p = seat(lead + n)
    hand = h0 if p == 0 else (h1 if p == 1 else h2)
    trump = TRUMP_MASK[g]
    in_play = h0 | h1 | h2
    p_is_decl = p == decl
    no_equiv = (flags & FLAG_NO_EQUIV) != 0
    no_order = (flags & FLAG_NO_ORDER) != 0
    # In Ramsch the points of a trick help the side that does not take it (the value is
    # the searching player's opponents' points): "mine" below turns into its opposite.
    ramsch = g == RAMSCH_GAME
    count = 0

    # Whoever takes this trick, the card kept goes to whoever takes a later one, so
    # when the side that takes it is settled my side does at least as well by
    # putting the most points into a trick it takes and the fewest into one it
    # loses: one card per run of neighbours in my hand (``_run_choice``).  Else a
    # card with the points of its lower neighbour in my hand is the same move.
    if n == 0:
        hd = h0 if decl == 0 else (h1 if decl == 1 else h2)
        # Hands of my opponents (for "sure winner" on lead).
        opp = 0
        for s in range(3):
            if s != p and (p_is_decl or s == decl):
                opp |= h0 if s == 0 else (h1 if s == 1 else h2)
        ruff_a, ruff_b = ruff_hands(g, decl, p, h0, h1, h2)
        partner_hand = in_play & ~hand & ~hd
        killer_card = killer if (flags & FLAG_NO_KILLER) == 0 else -2
        m = hand
        while m:
            c = low_index(m)
            m &= m - 1
            cls = SAME_CLASS[g, c]
            fixed = sure_lead(g, c, cls, opp, ruff_a, ruff_b)
            if not no_equiv:
                c = _representative(g, in_play, hand, cls, c, fixed, not ramsch)
                if c < 0:
                    continue
            pts = POINTS[g, c]
            score = 0
            if not no_order:
                if fixed and not ramsch:  # a sure winner
                    score = 1000 + 16 * pts + (c & 3)
                else:
                    score = -16 * pts - (c - low_index(cls))
                    if p_is_decl and (cls & trump) != 0:  # declarer: draw trumps
                        score = 500 + c
                    elif not p_is_decl and (cls & trump) == 0:
                        # Defenders: lead a suit the partner can take (a card above
                        # all of the declarer's in it, or a ruff) before other low cards.
                        decl_suit = hd & cls
                        partner_suit = partner_hand & cls
                        if decl_suit != 0 and ((partner_suit != 0 and high_index(partner_suit) > high_index(decl_suit))
                                               or (partner_suit == 0 and (partner_hand & trump) != 0)):
                            score += PARTNER_LEAD_BONUS
                if c == killer_card:
                    # Killer lead: the lead that refuted a sibling at this depth often
                    # refutes this position too.  The declarer's goes before his sure
                    # winners (cashing them first is often the wrong plan).
                    score = max(score, KILLER_SCORE_DECLARER if p_is_decl else KILLER_SCORE)
                if c == tt_move:
                    score = 1_000_000
            _insert_move(mv, d, count, c, score)
            count += 1
        return count

    led_cls, in_play, legal, eligible, win_card, win_seat = _following(g, lead, n, hand, in_play, t0, t1)
    if n == 2:
        # Last to play: every card settles the trick (the general loop below gives the
        # same moves in the same order; this is its shortcut for the commonest node).
        ours_now = (win_seat == decl) == p_is_decl  # my side takes the trick unless I beat it
        m = legal
        while m:
            c = low_index(m)
            m &= m - 1
            cls = SAME_CLASS[g, c]
            mine = (ours_now or ((eligible >> c) & 1 and c > win_card)) != ramsch
            if not no_equiv:
                c = _representative(g, in_play, hand, cls, c, True, mine)
                if c < 0:
                    continue
            score = 0
            if not no_order:
                pts = POINTS[g, c]
                score = (1000 + 16 * pts if mine else -16 * pts) - (c - low_index(cls))
                if c == tt_move:
                    score = 1_000_000
            _insert_move(mv, d, count, c, score)
            count += 1
        return count
    # Second card of the trick (the last card took the shortcut above).
    nxt = seat(p + 1)  # the player after me, who plays last
    nxt_hand = h0 if nxt == 0 else (h1 if nxt == 1 else h2)
    follow_next = nxt_hand & led_cls
    next_elig = (follow_next if follow_next else nxt_hand) & eligible
    m = legal
    while m:
        c = low_index(m)
        m &= m - 1
        cls = SAME_CLASS[g, c]
        fixed, mine, beats = follow_settled(decl, p, c, win_card, win_seat, eligible, nxt, next_elig)
        mine = mine != ramsch
        if not no_equiv:
            c = _representative(g, in_play, hand, cls, c, fixed, mine)
            if c < 0:
                continue
            beats = (eligible >> c) & 1 and c > win_card
        pts = POINTS[g, c]
        score = 0
        if not no_order:
            # My side surely takes the trick if that is settled, and also (for the
            # ordering) when it is not settled only because my partner, playing
            # last, can beat the opponents' best card: then my points go into it.
            if fixed == mine:
                score = 1000 + 16 * pts - (c - low_index(cls))
            elif beats:
                # Beating for now forces the last player to spend a high card.
                score = 500 - 16 * pts - (c - low_index(cls))
            else:
                score = -16 * pts - (c - low_index(cls))
            if c == tt_move:
                score = 1_000_000
        _insert_move(mv, d, count, c, score)
        count += 1
    return count


@njit(cache=True, nogil=True, _nrt=False)
def _gen_moves_null(g, decl, d, lead, n, h0, h1, h2, t0, t1, mv, tt_move, flags):
    """``gen_moves`` for null: no settled runs (any card may take the trick), a card
    next to a lower one in my hand is the same move."""
    p = seat(lead + n)
    hand = h0 if p == 0 else (h1 if p == 1 else h2)
    in_play = h0 | h1 | h2
    p_is_decl = p == decl
    no_equiv = (flags & FLAG_NO_EQUIV) != 0
    no_order = (flags & FLAG_NO_ORDER) != 0
    decl_hand = h0 if decl == 0 else (h1 if decl == 1 else h2)
    eligible = 0
    win_card = -1
    win_seat = -1
    if n == 0:
        legal = hand
    else:
        _, in_play, legal, eligible, win_card, win_seat = _following(g, lead, n, hand, in_play, t0, t1)
    count = 0
    m = legal
    while m:
        c = low_index(m)
        m &= m - 1
        cls = SAME_CLASS[g, c]
        if not no_equiv:
            lower = in_play & cls & ((1 << c) - 1)
            if lower and (hand >> high_index(lower)) & 1:
                continue  # same outcome as the lower neighbour in my hand
        score = 0
        if not no_order:
            rank = c & 7  # null layout: suit * 8 + rank
            if n == 0:
                # Lead low cards: the declarer wants cards others must overtake.
                score = -rank
                if not p_is_decl:
                    # Defenders: lead under the declarer's cards of that suit, so
                    # that he must go over.
                    decl_suit = decl_hand & cls
                    if decl_suit:
                        score += 100 if low_index(decl_suit) > c else 50
            else:
                beats = (eligible >> c) & 1 and c > win_card
                if p_is_decl:
                    # Duck with the highest card that stays under; if forced, go low.
                    score = 100 + rank if not beats else -rank
                elif win_seat == decl:
                    # Keep the declarer's card on top; shed high cards while doing so.
                    score = 100 + rank if not beats else -100 - rank
                else:
                    score = -rank
            if c == tt_move:
                score = 1_000_000
        _insert_move(mv, d, count, c, score)
        count += 1
    return count

