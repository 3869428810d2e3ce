"""--rules and the single switches become one HouseRules (the table and the tournament share this)."""

import argparse

import pytest

from engine.house_rules import (
    ISKO, PUB, SWITCH_FLAGS, HouseRules, add_rules_arguments, rules_from_arguments, rules_from_options,
)


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_rules_arguments(parser)
    return parser.parse_args(argv)


def test_no_flag_keeps_the_base_rules_and_a_preset_replaces_them():
    assert rules_from_arguments(parse()) == ISKO
    assert rules_from_arguments(parse(), base=PUB) == PUB
    assert rules_from_arguments(parse("--rules", "pub")) == PUB
    assert rules_from_arguments(parse("--rules", "ISKO"), base=PUB) == ISKO


def test_single_switches_change_the_preset_or_the_base():
    assert rules_from_arguments(parse("--kontra")) == HouseRules(kontra=True)
    assert rules_from_arguments(parse("--rules", "pub", "--no-kontra")) == PUB.with_switches(kontra=False)
    assert rules_from_arguments(parse("--schieben"), base=HouseRules(ramsch=True)) == \
        HouseRules(ramsch=True, schieben=True)
    every = parse(*SWITCH_FLAGS.values())
    assert rules_from_arguments(every) == HouseRules(**{name: True for name in SWITCH_FLAGS})


def test_turning_a_rule_off_takes_the_rules_that_need_it_along():
    no_ramsch = rules_from_arguments(parse("--rules", "pub", "--no-ramsch"))
    assert not (no_ramsch.ramsch or no_ramsch.schieben or no_ramsch.grand_hand_escape)
    assert no_ramsch.kontra and no_ramsch.bock
    rounds = HouseRules(ramsch=True, bock=True, ramsch_round_after_bock=True)
    assert not rules_from_arguments(parse("--no-bock"), base=rounds).ramsch_round_after_bock


@pytest.mark.parametrize("argv, message", [
    (("--schieben",), "--schieben needs Ramsch: add --ramsch"),
    (("--grand-hand-escape", "--bock"), "--grand-hand-escape needs Ramsch: add --ramsch"),
    (("--rules", "pub", "--no-ramsch", "--schieben"), "--schieben needs Ramsch, but --no-ramsch turns it off"),
    (("--ramsch", "--ramsch-rounds"), "--ramsch-rounds needs Bock rounds: add --bock"),
    (("--bock", "--ramsch-rounds"), "--ramsch-rounds needs Ramsch: add --ramsch"),
])
def test_a_switch_without_the_rule_it_needs_is_refused_naming_the_flags(argv, message):
    with pytest.raises(ValueError, match=message):
        rules_from_arguments(parse(*argv))


def test_an_unknown_preset_is_a_usage_error_and_an_unknown_switch_an_error(capsys):
    with pytest.raises(SystemExit):
        parse("--rules", "club")
    assert "invalid choice: 'club'" in capsys.readouterr().err
    with pytest.raises(ValueError, match="no house rule named kontr"):
        rules_from_options(None, {"kontr": True})
