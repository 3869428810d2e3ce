"""How the table names the house rules: in the header, in notices and in the settings."""

from __future__ import annotations

from dataclasses import fields

from engine.house_rules import PUB, HouseRules

SHORT_NAMES = {
    "ramsch": "Ramsch",
    "schieben": "Schieben",
    "grand_hand_escape": "Grand Hand",
    "kontra": "Kontra",
    "bock": "Bock",
    "ramsch_round_after_bock": "Ramsch rounds",
}
"""A word for each switch: the header has room for little."""


def rules_on(rules: HouseRules) -> list[str]:
    """The short names of the house rules that are on."""
    return [SHORT_NAMES[f.name] for f in fields(rules) if getattr(rules, f.name)]


def rules_label(rules: HouseRules) -> str:
    """The rules for a sentence: 'the International Skat Order', 'pub rules (Ramsch, …)'."""
    if rules.is_isko:
        return "the International Skat Order"
    kind = "pub rules" if rules == PUB else "house rules"
    return f"{kind} ({', '.join(rules_on(rules))})"


def rules_tag(rules: HouseRules) -> str:
    """The header's note of the rules: nothing for the International Skat Order (the
    default), else 'Pub rules' or the house rules that are on."""
    if rules.is_isko:
        return ""
    if rules == PUB:
        return "Pub rules"
    return "Rules: " + ", ".join(rules_on(rules))
