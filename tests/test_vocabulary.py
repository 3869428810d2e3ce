"""One word for one thing across the engine and the table."""


def test_one_word_for_the_worlds_a_move_values_and_the_old_key_still_reads():
    from engine.players.registry import make_player, parse_spec
    from skat_tui.settings import OpponentSettings

    assert parse_spec("mcu:worlds=50,eval=wins").params == {"simulations": "50", "eval": "wins"}
    assert make_player("pimc:worlds=7", 1).limit.simulations == 7
    assert OpponentSettings.from_spec("mcu:worlds=50").simulations == 50


def test_the_solver_answers_in_cards():
    from engine.cards import Card
    from engine.dds import Position, solve
    from engine.rules import GameType

    result = solve(Position(game=GameType.GRAND, declarer=0, hands=(1 << 31, 1 << 30, 1 << 29), leader=0))
    assert result.best_card is Card(31) and all(type(card) is Card for card in result.per_card)


def test_a_finished_game_is_scored_and_an_outcome_in_search_is_evaluated():
    """Three senses, three words: the rules *score* a finished game (``score_game``), a search
    *evaluates* a simulated outcome (``Evaluation``), the bidder *values* a hand over its worlds."""
    import engine.scoring as scoring
    from engine.evaluation import Evaluation
    from engine.players.bidding import SearchBidder

    assert hasattr(scoring, "score_game") and not hasattr(scoring, "evaluate")
    assert Evaluation("wins").kind == "wins"
    assert hasattr(SearchBidder, "value_hand") and not hasattr(SearchBidder, "evaluate_hand")


def test_a_table_place_is_no_position():
    """A *seat* is forehand, middlehand or rearhand in one game; a *place* is a chair at the table
    for a whole series (You, West, East); a *position* is a state of a game."""
    from skat_tui import words
    from skat_tui.persistence import TableSession

    assert words.TABLE_NAMES[words.HUMAN_PLACE] == words.YOU
    assert hasattr(TableSession, "dealer_place") and not hasattr(TableSession, "dealer_position")
