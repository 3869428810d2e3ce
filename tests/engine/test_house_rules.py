import pytest

from engine.house_rules import ISKO, PUB, HouseRules


def test_isko_is_the_default_and_has_no_house_rule():
    assert HouseRules() == ISKO
    assert ISKO.is_isko and ISKO.name == "isko"
    assert ISKO.describe() == "International Skat Order"


def test_pub_turns_on_ramsch_kontra_and_bock():
    assert PUB.ramsch and PUB.schieben and PUB.kontra and PUB.bock
    assert not PUB.is_isko and PUB.name == "pub"
    assert HouseRules.named(" PUB ") == PUB
    assert "Kontra and Re" in PUB.describe()


def test_single_switches_and_their_dependencies():
    only_kontra = ISKO.with_switches(kontra=True, bock=None)
    assert only_kontra.kontra and not only_kontra.bock and only_kontra.name == "custom"
    with pytest.raises(ValueError, match="Schieben needs Ramsch"):
        ISKO.with_switches(schieben=True)
    with pytest.raises(ValueError, match="no house rule named kontr"):
        ISKO.with_switches(kontr=True)
    with pytest.raises(ValueError, match="on or off"):
        HouseRules(kontra="yes")


def test_rules_round_trip_through_a_dict_and_bad_names_are_refused():
    assert HouseRules.from_dict(PUB.to_dict()) == PUB
    with pytest.raises(ValueError, match="unknown rules 'club'"):
        HouseRules.named("club")
    with pytest.raises(ValueError, match="mapping"):
        HouseRules.from_dict(["ramsch"])
