"""The deal several engine tests play through, and a state after moves in ISS notation."""

from engine.cards import CardSet
from engine.game import Deal, GameState


def cs(text):
    return CardSet.from_str(text).mask


# forehand: all jacks and clubs; middlehand: spades and hearts; rearhand: the rest
DEAL = Deal(
    (
        cs("CJ.SJ.HJ.DJ.CA.CT.CK.CQ.C9.C8"),
        cs("SA.ST.SK.SQ.S9.S8.S7.HA.HT.HK"),
        cs("HQ.H9.H8.H7.DA.DT.DK.DQ.D9.D8"),
    ),
    cs("C7.D7"),
)


def after_iss(*tokens, state=None):
    """``state`` (a new game of ``DEAL`` unless given) after the moves written ``tokens``."""
    state = GameState.new(DEAL) if state is None else state
    for text in tokens:
        state.push(state.parse_iss(text))
    return state
