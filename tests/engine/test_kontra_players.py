"""The computer's Kontra and Re: decided from the worlds of the first card (MCU, PIMC) or by
counting (heuristic); every kind of player finishes games with the house rule on."""

import re

import pytest

from engine.cards import Card
from engine.game import Deal, GameState, Kontra, Play, Re
from engine.house_rules import ISKO
from engine.players.calls import heuristic_call
from engine.players.registry import make_player
from engine.rules import FOREHAND, MIDDLEHAND
from engine.series import play_game

from example_deal import DEAL, after_iss

KONTRA_RULES = ISKO.with_switches(kontra=True)
SEARCHERS = ["mcu:simulations=16", "pimc:simulations=8", "mcts:simulations=16"]


def hopeless_grand():
    """Middlehand plays grand hand without a jack; forehand, to lead, holds all four and the clubs."""
    return after_iss("18", "p", "p", "GH", state=GameState.new(DEAL, KONTRA_RULES))


def sure_clubs(declaration="CH"):
    """Forehand plays clubs hand holding every trump; middlehand is to follow his jack."""
    state = after_iss("p", "p", "18", declaration, state=GameState.new(DEAL, KONTRA_RULES))
    state.push(Play(Card.CJ))
    return state


@pytest.mark.parametrize("spec", SEARCHERS)
def test_a_clearly_winning_defender_says_kontra_and_plays_the_card_of_the_same_worlds(spec):
    state = hopeless_grand()
    player = make_player(spec, seed=3)
    player.new_game(FOREHAND)
    decision = player.choose(state.view(FOREHAND))
    assert decision.move == Kontra()
    note = decision.analysis.note
    assert note.startswith("Kontra: the defenders win 100% of")
    assert f"threshold {player.kontra_win_share:.0%}" in note
    state.push(decision.move)
    card = player.choose(state.view(FOREHAND))
    assert card.move == Play(decision.analysis.chosen) and card.analysis is decision.analysis


@pytest.mark.parametrize("spec", SEARCHERS)
def test_a_clearly_losing_defender_does_not_say_kontra(spec):
    state = sure_clubs("CO")  # ouvert: the defenders see that the declarer holds every trump
    player = make_player(spec, seed=3)
    player.new_game(MIDDLEHAND)
    decision = player.choose(state.view(MIDDLEHAND))
    assert isinstance(decision.move, Play)
    assert decision.analysis.note.startswith("no Kontra: the defenders win 0% of")


@pytest.mark.parametrize("spec", SEARCHERS)
def test_the_declarer_answers_re_when_he_wins_and_not_when_he_loses(spec):
    winning = sure_clubs()
    winning.push_many([Kontra(), Play(Card.S7), Play(Card.H7)])
    player = make_player(spec, seed=4)
    player.new_game(FOREHAND)  # he holds every trump
    decision = player.choose(winning.view(FOREHAND))
    assert decision.move == Re() and decision.analysis.note.startswith("Re: the declarer wins 100%")

    losing = hopeless_grand()  # forehand said Kontra and led a jack; the declarer holds none
    losing.push_many([Kontra(), Play(Card.CJ)])
    player = make_player(spec, seed=4)
    player.new_game(MIDDLEHAND)
    decision = player.choose(losing.view(MIDDLEHAND))
    assert isinstance(decision.move, Play)
    share = re.match(r"no Re: the declarer wins (\d+)% of \d+ worlds", decision.analysis.note)
    assert share and int(share.group(1)) < 20


@pytest.mark.parametrize("spec", ["mcu:simulations=64", "pimc:simulations=32", "mcts:simulations=64"])
def test_a_call_is_judged_on_worlds_that_read_the_bidding(spec):
    """The cause of the searchers' Kontra on nearly every defence: uniform worlds deal the
    declarer a random hand, and a random hand loses a declared game.  Forehand holds all
    four jacks and six clubs and plays clubs hand; middlehand, with no trump, is to follow.
    Over uniform worlds the defenders win most games; over worlds where the declarer holds
    a hand he would declare clubs hand with, few: no Kontra."""
    state = sure_clubs()
    player = make_player(spec, seed=3)
    player.new_game(MIDDLEHAND)
    view = state.view(MIDDLEHAND)
    uniform = player.choose_card(view, player.limit, None, None, value_single_card=True)
    assert uniform.analysis.stats_for(uniform.analysis.chosen).win_share >= 0.5
    decision = player.choose(view)
    assert isinstance(decision.move, Play)
    share = re.match(r"no Kontra: the defenders win (\d+)% of", decision.analysis.note)
    assert share and int(share.group(1)) < 40


def test_calls_off_never_calls_and_plays_the_card_the_caller_plays():
    """calls=off differs from the calling player in the call alone: the same worlds, the same card."""
    state = hopeless_grand()
    for spec in ["heuristic", "mcu:simulations=8", "pimc:simulations=4", "mcts:simulations=8"]:
        quiet, caller = make_player(f"{spec},calls=off" if ":" in spec else f"{spec}:calls=off", seed=3), \
            make_player(spec, seed=3)
        quiet.new_game(FOREHAND)
        caller.new_game(FOREHAND)
        decision = quiet.choose(state.view(FOREHAND))
        assert isinstance(decision.move, Play), spec
        assert caller.choose(state.view(FOREHAND)).move == Kontra()
        after = state.copy()
        after.push(Kontra())
        assert caller.choose(after.view(FOREHAND)).move == decision.move, spec
    with pytest.raises(ValueError, match="calls must be on or off"):
        make_player("mcu:calls=maybe")


def test_the_heuristic_counts_jacks_and_strong_cards():
    player = make_player("heuristic", seed=1)
    assert player.choose(hopeless_grand().view(FOREHAND)).move == Kontra()
    assert isinstance(player.choose(sure_clubs("CO").view(MIDDLEHAND)).move, Play)
    winning = sure_clubs()
    winning.push_many([Kontra(), Play(Card.S7), Play(Card.H7)])
    decision = player.choose(winning.view(FOREHAND))
    assert decision.move == Re() and decision.analysis.note == "Re: 3 jacks + 9 trumps = 12 (needs 9)"


def test_the_heuristic_never_doubles_a_null_game():
    state = after_iss("p", "p", "18", "NH", state=GameState.new(DEAL, KONTRA_RULES))
    state.push(state.legal_moves()[0])
    assert heuristic_call(state.view(MIDDLEHAND), Kontra()) == (False, "no Kontra on a null game")


def test_without_the_rule_the_players_never_call():
    state = after_iss("18", "p", "p", "GH")
    for spec in ["heuristic", *SEARCHERS]:
        assert isinstance(make_player(spec, seed=3).choose(state.view(FOREHAND)).move, Play)


@pytest.mark.parametrize("specs", [["random", "random", "random"], ["heuristic", "mcu:simulations=6", "pimc:simulations=4"],
                                   ["mcts:simulations=50", "mcts:simulations=20", "heuristic"]])
def test_every_kind_of_player_finishes_games_with_kontra_and_re(specs):
    for number in range(4 if specs[0] == "random" else 2):
        players = [make_player(spec, seed=number * 3 + i) for i, spec in enumerate(specs)]
        state = play_game(Deal.shuffled(100 + number), players, rules=KONTRA_RULES)
        assert state.is_over and (state.result() is not None or state.outcome().passed_in)


def test_pimc_waits_for_a_larger_share_than_mcu_before_kontra():
    """PIMC's double-dummy worlds flatter the defenders: its Kontra needs PIMC_KONTRA_WIN_SHARE."""
    from engine.analysis import Analysis, CardStats
    from engine.players.calls import KONTRA_WIN_SHARE, PIMC_KONTRA_WIN_SHARE, decide_from_worlds

    share = (KONTRA_WIN_SHARE + PIMC_KONTRA_WIN_SHARE) / 2
    stats = CardStats(Card.SA, 100, 60.0, 10.0, 60.0, share, (0,) * 13)
    analysis = Analysis("x", MIDDLEHAND, (Card.SA,), (stats,), Card.SA, 100, 0.1, None)
    assert make_player("mcu").kontra_win_share == KONTRA_WIN_SHARE
    assert make_player("pimc").kontra_win_share == PIMC_KONTRA_WIN_SHARE > KONTRA_WIN_SHARE
    assert decide_from_worlds(Kontra(), analysis, make_player("mcu").kontra_win_share)[0]
    say, note = decide_from_worlds(Kontra(), analysis, make_player("pimc").kontra_win_share)
    assert not say and note.startswith("no Kontra: the defenders win 57% of 100 worlds")
