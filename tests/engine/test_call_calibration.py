"""The calibration of a searcher's Kontra share reads the share its call was decided on."""

from engine.tools.call_calibration import defences, report


def test_each_defence_gives_the_share_of_its_call_and_the_outcome():
    found = defences("mcu:simulations=4", 2, 5)
    assert found and all(0.0 <= share <= 1.0 and isinstance(won, bool) and family in ("suit", "grand", "null")
                         for share, won, family in found)
    lines = report(found)
    assert lines[0] == f"{len(found)} defences"
    assert sum(int(line.split(":")[1].split()[0]) for line in lines if line.startswith("share")) == len(found)


def test_the_report_counts_the_doubles_of_each_threshold():
    lines = report([(0.9, True, "suit"), (0.6, False, "grand"), (0.2, False, "suit")])
    assert "Kontra from 50%: 2 of 3 defences (67%), defenders won 50%" in lines
    assert "Kontra from 65%: 1 of 3 defences (33%), defenders won 100%" in lines


def test_the_heuristic_is_counted_by_its_jacks_and_strong_cards_in_every_defence():
    found = defences("heuristic", 6, 2)
    assert found and all(float(figure).is_integer() and 0 <= figure <= 15 for figure, _, _ in found)
    lines = report(found, counts=True)
    assert any(line.startswith("suit, Kontra from 4:") for line in lines)
