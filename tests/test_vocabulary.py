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
