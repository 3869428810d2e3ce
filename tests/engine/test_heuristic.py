"""The heuristic player: one hand-made position per rule (the expected card
or decision, the reason in the test name), and seeded series."""

from __future__ import annotations

import numpy as np
import pytest

from engine.cards import FULL_DECK, Card, CardSet, cards_of
from engine.game import Bid, Deal, Declare, Discard, GameState, Hold, Pass, Phase, PickUp
from engine.policy import hand_eval
from engine.policy import heuristic_core as core
from engine.players.heuristic import HeuristicPlayer
from engine.rules import GameType
from engine.scoring import Declaration
from engine.tools.selfplay import check_terms, reliability, run_series
from engine.series import play_game

C, S, H, D, G, N = GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS, GameType.GRAND, GameType.NULL


def cards(text: str) -> int:
    return CardSet.from_str(text).mask


def choice(game, declarer, seat, hand, trick="", leader=None, played="", voids=(0, 0, 0), skat="", shown="",
           seed=0) -> Card:
    """The policy's card for ``seat`` holding ``hand`` with ``trick`` on the table."""
    trick_cards = [Card.from_str(t) for t in trick.split(".") if t]
    if leader is None:
        leader = (seat - len(trick_cards)) % 3
    trick_arr = np.zeros(3, np.int64)
    for i, card in enumerate(trick_cards):
        trick_arr[i] = card
    played_mask = cards(played) | cards(trick)
    card = core.choose_card_std(
        int(game), declarer, seat, cards(hand), trick_arr, len(trick_cards), leader, played_mask,
        np.array(voids, np.int64), cards(skat), cards(shown), core.seed_state(seed),
    )
    return Card(int(card))


# ---------------------------------------------------------------- declarer, suit and grand


def test_declarer_leads_the_master_jack_to_draw_trumps():
    assert choice(G, 0, 0, "CJ.SJ.HA.HT.H9.SA.ST.DA.D7.C8") == Card.CJ


def test_declarer_with_trump_majority_and_two_jacks_drives_out_higher_trumps_with_the_higher_jack():
    # a low trump would let a defender take it with the trump ace or ten, and his partner smear
    assert choice(C, 0, 0, "HJ.DJ.CA.CT.CK.C9.C8.SA.HA.D7") == Card.HJ


def test_declarer_with_trump_majority_keeps_a_lone_jack_and_drives_with_a_cheap_trump():
    assert choice(C, 0, 0, "DJ.CA.CT.CK.C9.C8.C7.SA.HA.D7") == Card.C7


def test_declarer_keeps_a_single_trump_that_cannot_win_and_cashes_a_side_master_first():
    # the club jack is the defenders' last trump: leading the heart jack into it would only
    # hand them the lead (and the diamond ten to a defender's discard later)
    played = "SJ.DJ.CA.CT.CK.CQ.C9.C8.C7.DA.D7.SA.ST.SK.SQ.S9.S8.S7"
    assert choice(C, 0, 0, "HJ.DT.DQ.DK", played=played) == Card.DT


def test_declarer_cashes_a_side_ace_once_the_defenders_have_no_trumps():
    assert choice(G, 0, 0, "CJ.SA.ST.S9.H7.H8.D7", played="SJ.HJ.DJ.C7.C8.C9.D8.D9.DT") == Card.SA


def test_declarer_last_banks_a_ten_the_ace_could_still_catch():
    assert choice(C, 2, 2, "HT.HQ.S7.S8.D9", trick="H7.H9") == Card.HT


def test_declarer_last_wins_with_the_weakest_winning_card():
    assert choice(C, 2, 2, "HA.HK.H8.S7.D9", trick="H7.H9") == Card.HK


def test_declarer_last_ruffs_with_the_trump_worth_most_but_not_a_jack():
    # nobody plays after him: the ruff is safe, so it banks the trump ace as well
    assert choice(S, 2, 2, "SJ.S7.SA.D8.C9", trick="HA.HT", voids=(0, 0, 0b0010)) == Card.SA
    assert choice(S, 2, 2, "SJ.HJ.S7.D8.C9", trick="HA.HT", voids=(0, 0, 0b0010)) == Card.S7


def test_declarer_second_ruffs_a_worthless_lead_when_the_defender_behind_must_follow():
    # discarding would let the defender behind smear on his partner's trick
    assert choice(S, 1, 1, "SJ.S8.SK.DA.C9", trick="H7", voids=(0, 0b0010, 0)) == Card.SK



def test_declarer_void_and_trick_worthless_throws_the_cheapest_side_card():
    assert choice(S, 2, 2, "SJ.S8.SA.DA.C9", trick="H7.H8") == Card.C9


def test_declarer_last_ruffs_a_worthless_trick_low_rather_than_throw_a_ten():
    assert choice(S, 2, 2, "S7.S8.HT.DA", trick="C7.C8") == Card.S7


def test_declarer_second_ruffs_low_rather_than_throw_a_ten_where_the_defender_behind_may_over_ruff():
    # the defender behind showed no spades: a ruff may be over-ruffed, but a discard gives ten for sure
    assert choice(H, 1, 1, "H7.HK.CA.DT", trick="S7", voids=(0, 0b0100, 0b0100)) == Card.H7


# ---------------------------------------------------------------- defenders, suit and grand


def test_defender_last_smears_the_ten_on_the_partners_winning_trick():
    assert choice(G, 1, 0, "ST.S8.H7.HK.D9", trick="S7.SA", leader=1) == Card.ST


def test_defender_last_takes_the_declarers_trick_with_the_cheapest_winner():
    # the partner (middlehand) led, the declarer (rearhand) is on top
    assert choice(G, 2, 0, "SA.SK.H7.HK.D9", trick="S7.SQ", leader=1) == Card.SK


def test_defender_last_smears_the_ace_rather_than_overtake_the_partner():
    assert choice(G, 1, 0, "SA.SK.H7.HK.D9", trick="S7.SQ", leader=1) == Card.SA


def test_defender_with_nothing_to_win_keeps_points_and_plays_low():
    assert choice(G, 1, 0, "S8.ST.H7.HK.D9", trick="SA.S7", leader=1) == Card.S8


def test_defender_leads_an_ace_while_the_declarer_must_follow():
    assert choice(C, 1, 0, "DA.D8.D7.H9.H8.S9.S8.S7.HK.C7") == Card.DA


def test_defender_does_not_lead_away_from_an_unguarded_ten():
    assert choice(C, 1, 0, "HT.H8.S8.S7.C7.C8.DJ.D7.D8.D9") not in (Card.HT, Card.H8)


XSKAT_DEFENDER_HABITS = {
    # after the partner's ace the ten is master: kept, it wins a trick of its own later
    "follows low under the partner's master and keeps the next master":
        (dict(game=G, declarer=2, seat=1, hand="HT.H7.S8.D9.C7", trick="HA", leader=0), Card.H7),
    "void, smears on the partner's master while the declarer must follow":
        (dict(game=G, declarer=2, seat=1, hand="ST.S7.D9.C7", trick="HA", leader=0), Card.ST),
    "under the declarer's jack keeps its own jack and gives a plain trump":
        (dict(game=C, declarer=0, seat=1, hand="DJ.CQ.S7.H8.DA", trick="HJ", leader=0), Card.CQ),
    "under the declarer's jack gives its jack rather than a trump ten":
        (dict(game=C, declarer=0, seat=1, hand="DJ.CT.S7.H8.DA", trick="HJ", leader=0), Card.DJ),
    # the spade ace and ten are gone: the king wins, and the declarer holds spades as far as is known
    "leads a master king while the declarer must follow":
        (dict(game=C, declarer=1, seat=0, hand="SK.S7.H8.H9.D8", played="SA.ST.D7"), Card.SK),
}


@pytest.mark.parametrize("position, card", XSKAT_DEFENDER_HABITS.values(), ids=XSKAT_DEFENDER_HABITS)
def test_defender_habits_taken_from_xskat(position, card):
    assert choice(**position) == card


def test_defender_second_beats_the_declarers_lead_with_a_master_card():
    assert choice(G, 0, 1, "SA.S7.H8.D9.C7", trick="SK", leader=0) == Card.SA


def test_defender_leads_the_suit_the_partner_can_ruff():
    # partner (seat 2) showed void in hearts; the declarer did not
    assert choice(S, 1, 0, "H7.H8.DK.DQ.C8.C9", voids=(0, 0, 0b0010)) == Card.H7


# ---------------------------------------------------------------- null


def test_null_declarer_leads_a_low_card_the_defenders_can_beat():
    assert choice(N, 0, 0, "D7.HA.HK.SK") == Card.D7


def test_null_declarer_ducks_with_the_highest_card_under_the_trick():
    assert choice(N, 2, 2, "H7.HT.HK.S8", trick="H9.HJ") == Card.HT


def test_null_declarer_void_throws_an_exposed_high_card_not_the_covering_seven():
    assert choice(N, 1, 1, "H7.H9.HJ.S7.SK", trick="C7", leader=0) == Card.SK


def test_null_declarer_second_goes_over_as_little_as_possible():
    # every heart is above the lead: give the last player room to overtake
    assert choice(N, 1, 1, "HT.HA.S7", trick="H8", leader=0) == Card.HT


def test_null_defender_stays_under_the_declarers_card_with_its_highest_lower_card():
    assert choice(N, 0, 1, "H7.H9.HJ.S8", trick="HT", leader=0) == Card.H9


def test_null_defender_plays_high_when_the_declarer_is_already_safe_under_the_partner():
    assert choice(N, 0, 2, "H7.HK.S8", trick="H9.HT", leader=0) == Card.HK


def test_null_defender_last_stays_under_the_declarer():
    assert choice(N, 0, 2, "H7.HK.S8", trick="HT.H9", leader=0) == Card.H7


def test_null_defender_leads_the_lowest_card_of_a_suit_the_declarer_holds():
    assert choice(N, 1, 0, "D7.D9.HK.HA.SQ", voids=(0, 0b0001, 0)) != Card.D7  # declarer void in diamonds
    assert choice(N, 1, 0, "D7.D9.HK.HA.SQ") == Card.D7


def test_null_ouvert_defender_leads_under_the_declarers_lowest_card_of_a_suit():
    shown = "H8.H9.S7.S8.D7.D8.C7.C8.CT.CK"
    assert choice(N, 1, 0, "H7.SQ.SA.DQ", shown=shown) == Card.H7


def test_null_defender_void_throws_its_highest_card():
    assert choice(N, 1, 2, "SA.S7.D8", trick="H7.H8", leader=0) == Card.SA


# ---------------------------------------------------------------- bidding, skat, declaration


def test_bids_far_with_four_jacks_and_long_side_suits():
    assert hand_eval.bid_limit(cards("CJ.SJ.HJ.DJ.CA.CT.SA.ST.HA.D7"), 1) >= 120


def test_passes_a_hand_without_jacks_aces_or_null_shape():
    assert hand_eval.bid_limit(cards("DK.D8.HK.H9.SQ.S8.CK.C9.HT.DQ"), 1) == 0


def test_values_after_skat_count_the_skats_that_hold_a_missing_top_trump():
    # hearts "without 6" (no jack, no heart ace or ten): worth 70 only if the skat holds
    # none of those six cards, C(16, 2) of the C(22, 2) skats
    hand = cards("DA.DQ.D9.D7.HK.HQ.H8.H7.SA.S8")
    values = hand_eval.values_after_skat(hand, GameType.HEARTS)
    assert values[0] == (70, 120 / 231)
    assert values[-1] == (20, 1.0)  # the club jack in the skat: "with 1"
    shares = [share for _, share in values]
    assert shares == sorted(shares) and len({value for value, _ in values}) == len(values)
    # "with" a run of top trumps: the skat cannot lower the value
    assert hand_eval.values_after_skat(cards("CJ.SJ.HA.HT.H8.H7.SA.C9.CK.D8"), GameType.HEARTS) == ((30, 1.0),)


def test_bids_a_game_without_top_trumps_only_as_far_as_the_skat_is_unlikely_to_spoil_it():
    hand = cards("DA.DQ.D9.D7.HK.HQ.H8.H7.SA.S8")
    hearts = next(o for o in hand_eval.skat_options(hand, 0) if o.declaration == Declaration(GameType.HEARTS))
    assert hearts.chance >= hand_eval.BID_CHANCE and hearts.value == 70
    limit = hand_eval.bid_limit(hand, 0)
    assert limit < hearts.value
    kept = dict(hand_eval.values_after_skat(hand, GameType.HEARTS))[limit]
    assert hearts.chance * kept >= hand_eval.BID_CHANCE


def test_bids_null_with_a_hand_no_suit_of_which_can_be_caught():
    hand = cards("D7.D9.DJ.H7.H9.S7.S9.SJ.C7.C8")
    assert hand_eval.null_danger(hand) == 0
    assert hand_eval.bid_limit(hand, 2) >= 23


def test_plays_hand_with_a_hand_that_needs_no_skat():
    option = hand_eval.hand_decision(cards("CJ.SJ.HJ.DJ.CA.CT.CK.CQ.SA.HA"), 0, 18)
    assert option is not None and option.declaration.hand


def test_takes_the_skat_with_an_average_game():
    assert hand_eval.hand_decision(cards("CJ.HJ.HA.HT.H8.H7.SA.C9.CK.D8"), 1, 18) is None


def _best_game(twelve: int, seat: int) -> GameType:
    options = [o for o in hand_eval.declaration_options(twelve, seat) if not o.declaration.ouvert]
    return max(options, key=lambda o: o.expected).declaration.game


def test_chooses_the_longer_trumps_over_a_suit_that_makes_a_long_side_ace_ten():
    # hearts keeps the diamond ace-ten-king as a side suit with four trumps;
    # diamonds has six trumps (XSkat won this deal as diamonds, we lost it as hearts)
    assert _best_game(cards("D8.DT.DK.HT.HJ.HQ.C7.CJ.CQ.CA.DA.HK"), 1) == D


def test_a_long_side_ace_ten_is_worth_less_and_putting_its_low_cards_away_does_not_help():
    ace_ten, with_two_more = (hand_eval._suit_ranks(cards(text), int(H)) for text in ("HA.HT", "HA.HT.H9.H8"))
    assert hand_eval._side_value(with_two_more, 5, False) < hand_eval._side_value(ace_ten, 5, False)
    # the defenders hold as few hearts whether the nine and eight are ours or in the skat
    assert hand_eval._side_value(ace_ten, 5, False, 2) == hand_eval._side_value(with_two_more, 5, False)


def test_more_trumps_make_a_suit_game_stronger_beyond_the_cards_themselves():
    side = "SA.ST.DA.HA"
    five, six = cards("CJ.CA.CT.C9.C8." + side + ".D7"), cards("CJ.CA.CT.C9.C8.C7." + side)
    # the seven of trumps in place of a side seven: its own weight, and the length
    assert hand_eval.strength(six, C, 1) - hand_eval.strength(five, C, 1) > 0.65 + hand_eval.SUIT_TRUMP_LENGTH_WEIGHT


def test_the_strength_weighs_its_checked_terms_about_right_where_the_game_is_chosen():
    # what a unit of each term is still worth, fitted on play-outs of every suit game and grand
    # (``python3 -m engine.tools.selfplay --check-terms``); before the terms were weighed:
    # suit trumps +0.26 after the discard, side ace-ten -0.41; grand jacks +1.85, aces +1.00.
    # A grand's strength before the skat still under-weighs them (left so: weighing them there
    # lost in our own tournament), so only the grand after the discard is held to it.
    checked = check_terms(1500, 11)
    assert {key for key in checked if key[0] == "grand"} == {("grand", s) for s in ("after", "skat", "hand")}
    for (family, situation), terms in checked.items():
        if family == "suit" or situation == "after":
            for name, value in terms.items():
                assert abs(value) < 0.3, (family, situation, name, value)


def test_three_jacks_and_two_aces_kept_make_a_grand_rather_than_spades():
    # XSkat's deal c000:44, forehand: XSkat and now we play grand and win it (146 points on the
    # list); without the grand's after terms the heuristic played spades (94)
    twelve = cards("CA.CK.CJ.C8.SJ.S8.S7.DA.DQ.D8.SQ.HJ")
    assert hand_eval.choose_best(list(hand_eval.declaration_options(twelve, 0)), 18).declaration.game == GameType.GRAND
    hand_eval.declaration_options.cache_clear()
    with pytest.MonkeyPatch.context() as patch:
        for name in ("GRAND_AFTER_JACK_WEIGHT", "GRAND_AFTER_ACE_WEIGHT", "GRAND_AFTER_CLUB_JACK_WEIGHT"):
            patch.setattr(hand_eval, name, 0.0)
        patch.setitem(hand_eval.CURVES, ("grand", "after"), hand_eval.Curve(6.00, 1.00))
        before = hand_eval.choose_best(list(hand_eval.declaration_options(twelve, 0)), 18)
    hand_eval.declaration_options.cache_clear()
    assert before.declaration.game == GameType.SPADES


def test_the_grand_after_terms_count_jacks_aces_and_the_club_jack():
    three_jacks_two_aces = cards("CJ.SJ.HJ.CA.DA.C8.S7.S8.D8.DQ")
    two_jacks_no_club_jack = cards("SJ.HJ.CA.DA.C8.S7.S8.D8.DQ.D9")
    assert hand_eval.grand_after_terms(three_jacks_two_aces) == pytest.approx(
        hand_eval.GRAND_AFTER_JACK_WEIGHT + 2 * hand_eval.GRAND_AFTER_ACE_WEIGHT + hand_eval.GRAND_AFTER_CLUB_JACK_WEIGHT)
    assert hand_eval.grand_after_terms(two_jacks_no_club_jack) == pytest.approx(2 * hand_eval.GRAND_AFTER_ACE_WEIGHT)
    # the terms judge the kept cards after the discard, never the hand before the skat
    assert hand_eval.strength(three_jacks_two_aces, GameType.GRAND, 1) == hand_eval.grand_strength(three_jacks_two_aces, 1)
    kept = hand_eval.kept_options(three_jacks_two_aces, cards("H7.H8"), 1)
    grand = next(o for o in kept if o.declaration.game == GameType.GRAND)
    score = hand_eval.after_discard_strength(three_jacks_two_aces, GameType.GRAND, 1, cards("H7.H8"))
    assert grand.chance == pytest.approx(hand_eval.trump_game_chance(GameType.GRAND, "after", score))


def test_the_reliability_table_puts_each_game_in_the_bin_of_its_chance():
    for family, bins in reliability(200, 2).items():
        assert family in ("suit", "grand") and bins
        for start, games, chance, won in bins:
            assert games > 0 and start <= chance < start + 0.1 and 0 <= won <= 1


def test_discard_banks_a_lone_ten_and_makes_a_void():
    discard, _ = hand_eval.best_discard(cards("CJ.SJ.HJ.CA.CT.C9.C8.C7.HA.H7.ST.D8"), C, 1)
    assert discard == cards("ST.D8")


def test_discard_habit_makes_a_void_the_strength_does_not():
    # XSkat's choice in its own records (chunk 5, rearhand, clubs): ♦7 ♦8 away leaves diamonds
    # void; the strength alone throws ♦7 ♥7 and keeps two short suits
    twelve = cards("D7.D8.DJ.H7.H8.HJ.SJ.C8.C9.CQ.CK.CA")
    assert hand_eval.best_discard(twelve, C, 2, habits=False)[0] == cards("D7.H7")
    discard, score = hand_eval.best_discard(twelve, C, 2)
    assert discard == cards("D7.D8")
    # the game is judged by the best strength of ten cards kept, as the win chances were fitted
    plain = cards("D7.H7")
    assert score == pytest.approx(hand_eval.after_discard_strength(twelve & ~plain, C, 2, plain))


def test_discard_habit_does_not_void_a_ten_where_the_strength_voids_a_suit_without_one():
    # the habits alone would put ♣10 ♣Q away (clubs void, ten banked); the strength voids
    # diamonds, which never held a ten, and that stays
    twelve = cards("D7.DQ.H7.H8.HJ.HA.S8.S9.ST.SJ.CT.CQ")
    assert hand_eval.ranked_discards(twelve, S, 1)[0] == cards("CT.CQ")
    assert hand_eval.best_discard(twelve, S, 1)[0] == cards("D7.DQ")


def test_discard_habits_value_every_shape_and_the_void_at_zero():
    shapes = hand_eval.DISCARD_HABITS["shapes"]
    assert len(shapes) == 32 and shapes["0000"] == 0
    # a ten guarded by one small card, without its ace, is what the strength overvalues most
    assert min(shapes, key=shapes.get) == "0101"


def test_grands_keep_the_discard_of_the_best_strength():
    # habits fitted to XSkat's grands would put away ♥10 ♠10 here
    twelve = cards("CJ.SJ.HJ.CA.CT.HT.H8.ST.S9.DK.D8.D7")
    assert hand_eval.best_discard(twelve, G, 0)[0] == cards("D7.DK")


def test_grand_habit_declares_the_grand_xskat_plays_where_the_expected_scores_choose_clubs():
    # XSkat's own hand (chunk 0, deal 41, forehand): it declared the grand and won it
    twelve = cards("DT.DJ.DA.H7.HA.S9.ST.SJ.C7.C8.CQ.CA")
    options = list(hand_eval.declaration_options(twelve, 0))
    assert hand_eval.choose_best(options, 18).declaration.game == C
    assert hand_eval.prefers_grand(twelve, 0)
    assert hand_eval.choose_best(options, 18, twelve, 0).declaration.game == G
    # in middlehand the same cards are a little short of it (XSkat leads less often there)
    assert hand_eval.choose_best(options, 18, twelve, 1).declaration.game == C


def test_grand_habit_keeps_a_long_suit_with_two_jacks_and_one_ace():
    twelve = cards("D9.DT.S7.S8.S9.ST.SJ.SQ.SA.C9.CJ.CK")
    assert not hand_eval.prefers_grand(twelve, 0)
    assert hand_eval.choose_best(list(hand_eval.declaration_options(twelve, 0)), 18, twelve, 0).declaration.game == S


def test_grand_habit_only_adds_grands_worth_the_bid():
    twelve = cards("D9.DT.S7.S8.S9.ST.SJ.SQ.SA.C9.CJ.CK")  # the habit does not prefer the grand
    options = list(hand_eval.declaration_options(twelve, 0))
    for bid in (18, 33, 35, 48):
        assert hand_eval.choose_best(options, bid, twelve, 0) == hand_eval.choose_best(options, bid)
    # where it prefers the grand, a grand below the bid is no choice
    twelve = cards("DT.DJ.DA.H7.HA.S9.ST.SJ.C7.C8.CQ.CA")  # grand without 1, played 2: 48
    options = list(hand_eval.declaration_options(twelve, 0))
    assert hand_eval.choose_best(options, 50, twelve, 0) == hand_eval.choose_best(options, 50)


def test_grand_habit_weighs_jacks_and_aces_up():
    weights = hand_eval.GRAND_HABITS["weights"]
    assert set(weights) == set(hand_eval.GRAND_HABIT_FEATURES)
    jacks = [0.0] + [weights[f"{n} jack" + ("s" if n != "one" else "")] for n in ("one", "two", "three", "four")]
    assert jacks == sorted(jacks) and weights["aces"] > 0 and weights["club jack"] > 0
    assert hand_eval.grand_habit(cards("CJ.SJ.HJ.DJ.CA.SA.HA.DA.CT.ST.HT.DT"), 0) > 0
    assert hand_eval.grand_habit(cards("C7.C8.C9.CQ.CK.CA.S7.S8.H7.H8.D7.D8"), 0) < 0


def test_declarer_plans_and_declares_the_habits_grand():
    twelve = "DT.DJ.DA.H7.HA.S9.ST.SJ.C7.C8.CQ.CA"
    forehand = cards(twelve) & ~cards("C7.C8")
    rest = [c for c in cards_of(FULL_DECK & ~cards(twelve))]
    deal = Deal((forehand, sum(1 << c for c in rest[:10]), sum(1 << c for c in rest[10:])), cards("C7.C8"))
    state = GameState.new(deal)
    player = HeuristicPlayer(seed=1)
    while state.phase == Phase.BIDDING:
        state.push(Pass() if state.to_move != 0 else player.choose(state.view(0)).move)
    assert state.declarer == 0
    notes = []
    while state.phase != Phase.PLAY:
        decision = player.choose(state.view(0))
        notes.append(decision.analysis.note if decision.analysis else "")
        state.push(decision.move)
    assert state.declaration.game == G
    # the discard and the declaration say why the grand beat clubs' better expected score
    assert sum("XSkat's habit prefers a grand" in note for note in notes) == 2


def test_discard_never_puts_away_jacks_or_trumps():
    twelve = cards("CJ.SJ.HJ.DJ.HA.HT.HK.H9.H8.H7.SA.DA")
    for game in (H, G):
        discard, _ = hand_eval.best_discard(twelve, game, 0)
        assert not discard & cards("CJ.SJ.HJ.DJ")
    discard, _ = hand_eval.best_discard(twelve, H, 0)
    assert discard == cards("SA.DA")


def test_null_discard_puts_away_the_most_exposed_cards():
    discard, _ = hand_eval.best_discard(cards("D7.D9.DJ.H7.H9.S7.S9.SJ.C7.C8.CA.HA"), N, 0)
    assert discard == cards("CA.HA")


def test_declaration_avoids_an_overbid_when_another_game_reaches_the_bid():
    # with ♣J ♠J: clubs "with 2" is worth 36, grand "with 2" 72; at a bid of
    # 40 the clubs game would be overbid, so grand is the only fitting game
    options = hand_eval.kept_options(cards("CJ.SJ.CA.CT.CK.C9.C8.SA.HA.DA"), cards("D7.D8"), 1)
    best = hand_eval.choose_best(options, 40)
    assert best.value >= 40 and best.declaration.game == G


def test_declaration_prefers_the_surer_game_at_a_low_bid():
    options = hand_eval.kept_options(cards("CJ.CA.CT.CK.C9.C8.C7.SA.H7.H8"), cards("D7.D8"), 1)
    assert hand_eval.choose_best(options, 18).declaration.game == C


# ---------------------------------------------------------------- the player over whole games


def deal_with(forehand: str, middlehand: str) -> Deal:
    """Forehand and middlehand as given; rearhand and the skat get the rest."""
    rest = list(cards_of(FULL_DECK & ~cards(forehand) & ~cards(middlehand)))
    return Deal((cards(forehand), cards(middlehand), sum(1 << c for c in rest[:10])), sum(1 << c for c in rest[10:]))


def test_bidding_moves_follow_the_limit():
    player = HeuristicPlayer(seed=1)
    deal = deal_with("DK.D8.HK.H9.SQ.S8.CK.C9.HT.DQ", "CJ.SJ.HJ.DJ.CA.CT.SA.ST.HA.D7")
    state = GameState.new(deal)
    assert isinstance(player.choose(state.view(1)).move, Bid)  # middlehand bids
    state.push(player.choose(state.view(1)).move)
    assert player.choose(state.view(0)).move == Pass()  # forehand's junk passes
    state.push(Pass())
    for _ in range(3):
        state.push(Pass() if state.to_move == 2 else player.choose(state.view(state.to_move)).move)
        if state.phase != Phase.BIDDING:
            break
    assert state.declarer == 1


def test_listener_holds_up_to_its_limit():
    player = HeuristicPlayer(seed=1)
    deal = deal_with("CJ.SJ.HJ.DJ.CA.CT.SA.ST.HA.D7", "DK.D8.HK.H9.SQ.S8.CK.C9.HT.DQ")
    state = GameState.new(deal)
    state.push(Bid(30))
    assert player.choose(state.view(0)).move == Hold()


def test_declarer_picks_up_discards_legally_and_declares():
    player = HeuristicPlayer(seed=1)
    deal = deal_with("DK.D8.HK.H9.SQ.S8.CK.C9.HT.DQ", "CJ.HJ.HA.HQ.H8.H7.SA.C8.SK.D7")
    state = GameState.new(deal)
    state.push_many([Bid(18), Pass(), Pass()])
    move = player.choose(state.view(1)).move
    assert isinstance(move, PickUp)
    state.push(move)
    move = player.choose(state.view(1)).move
    assert isinstance(move, Discard)
    state.push(move)
    move = player.choose(state.view(1)).move
    assert isinstance(move, Declare)
    state.push(move)
    assert state.phase == Phase.PLAY


def test_same_seed_plays_the_same_games():
    deals = [Deal.shuffled(s) for s in range(8)]
    first = [play_game(d, [HeuristicPlayer(seed=3)] * 3).moves for d in deals]
    second = [play_game(d, [HeuristicPlayer(seed=3)] * 3).moves for d in deals]
    assert first == second


def test_never_declares_an_overbid_game_when_a_legal_game_reaches_the_bid():
    players = [HeuristicPlayer(seed=s) for s in range(3)]
    for seed in range(150):
        deal = Deal.shuffled(seed)
        state = play_game(deal, players)
        result = state.result()
        if result is None or not result.overbid:
            continue
        cards_held = deal.hands[result.declarer] | deal.skat
        for game in GameType:
            decl = Declaration(game, hand=result.declaration.hand)
            assert hand_eval.game_value(decl, cards_held) < result.bid


def test_short_seeded_series_beats_two_random_players():
    stats = run_series(60, seed=7, opponents="random")
    heuristic, random_player = stats.types["heuristic"], stats.types["random"]
    assert heuristic.seeger_fabian_per_player > random_player.seeger_fabian_per_player + 50
    assert heuristic.won > heuristic.lost


def test_short_seeded_self_play_bids_and_wins_most_games():
    stats = run_series(60, seed=8)
    assert stats.passed <= 6
    assert stats.won >= 0.65 * stats.declared


@pytest.mark.slow
def test_series_against_random_players_300_deals_every_seat_arrangement():
    stats = run_series(300, seed=1, opponents="random")
    assert stats.types["heuristic"].seeger_fabian_per_player > stats.types["random"].seeger_fabian_per_player + 100


@pytest.mark.slow
def test_self_play_1000_deals_bids_and_wins_like_xskat_roughly():
    stats = run_series(1000, seed=1)
    assert stats.passed / stats.games < 0.04
    assert stats.won / stats.declared > 0.74
    assert 0.2 < stats.game_types[int(G)] / stats.declared < 0.45


def test_bidding_note_says_why_it_stops_below_the_games_value():
    hand = "DA.DQ.D9.D7.HK.HQ.H8.H7.SA.S8"
    state = GameState.new(deal_with(hand, "C7.C8.C9.CQ.S7.S9.SQ.SK.DK.D8"))
    state.push(Pass())  # middlehand and rearhand pass: forehand may open
    state.push(Pass())
    analysis = HeuristicPlayer(seed=1).bidding_analysis(state.view(0))
    assert analysis.bid_limit == hand_eval.bid_limit(cards(hand), 0) < 70
    assert "worth 70" in analysis.note and "top trump it lacks" in analysis.note
    assert analysis.chosen.declaration == Declaration(GameType.HEARTS)


def test_bidding_note_reads_the_players_own_bid_chance():
    # a hand whose best game wins 30-45 %: a bolder player (bid_chance 0.3) bids it and the
    # analysis says so; the default player passes
    for seed in range(500):
        state = GameState.new(Deal.shuffled(seed))
        state.push(Pass())
        state.push(Pass())
        bold, default = HeuristicPlayer(seed=1), HeuristicPlayer(seed=1)
        bold.bid_chance = 0.3
        hand = state.hands[0]
        if default.bid_limit(hand, 0) == 0 and bold.bid_limit(hand, 0) > 0:
            break
    else:
        raise AssertionError("no hand between the two thresholds")
    bold_analysis, default_analysis = bold.bidding_analysis(state.view(0)), default.bidding_analysis(state.view(0))
    assert "at least 30%" in bold_analysis.note and bold_analysis.chosen is not None
    assert bold_analysis.bid_limit == bold.bid_limit(hand, 0)
    assert "at least 45%" in default_analysis.note and "passes" in default_analysis.note
