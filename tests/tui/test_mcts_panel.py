"""A tree search's analysis in the debug panel's words: the tree's size beside the worlds,
in the full and in the fair (live) view."""

from engine.analysis import Analysis, CardAccumulator
from engine.cards import Card
from engine.limits import Limit
from skat_tui.analysis_table import describe_analysis, fair_analysis


def _analysis(**tree) -> Analysis:
    card = Card.from_str("CA")
    acc = CardAccumulator(card)
    acc.add(70, True, 70.0)
    return Analysis("mcts:time=2", 1, (card,), (acc.stats(),), card, 1, 0.5, Limit(time=2), final=True,
                    note="the most visited card; ISMCTS, c=0.7, heuristic play-outs", **tree)


def test_the_heading_gives_the_trees_nodes_and_depth():
    line = describe_analysis(_analysis(tree_nodes=12345, tree_depth=9), "West")
    assert "1 worlds" in line and "tree 12,345 nodes, 9 deep" in line
    assert "tree" not in describe_analysis(_analysis(), "West").split("·")[1]  # other players: no tree words


def test_the_fair_view_keeps_the_tree_and_drops_the_note():
    fair = fair_analysis(_analysis(tree_nodes=500, tree_depth=4), played=False, own_cards=0)
    assert fair.note == "" and (fair.tree_nodes, fair.tree_depth) == (500, 4)
    assert "tree 500 nodes, 4 deep" in describe_analysis(fair, "West")
