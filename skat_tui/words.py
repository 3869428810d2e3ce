"""The human seat is "You" and is spoken to in the second person: "You play ♦J",
"Your view", "You have the most card points", not "You plays", "You's view"."""

from __future__ import annotations

TABLE_NAMES = ("You", "West", "East")
"""Names by table place (fixed for a series, while the seats rotate with the dealer): you
sit south, West plays after you, then East."""
HUMAN_PLACE = 0
"""The human's place at the table."""
OPPONENT_NAMES = TABLE_NAMES[1:]

YOU = TABLE_NAMES[HUMAN_PLACE]
IRREGULAR = {"has": "have", "is": "are", "was": "were", "goes": "go", "does": "do"}


def verb(name: str, third_person: str) -> str:
    """``third_person`` ("plays", "loses", "passes") as ``name``'s verb: "play" for "You"."""
    if name != YOU:
        return third_person
    if third_person in IRREGULAR:
        return IRREGULAR[third_person]
    if third_person.endswith(("sses", "shes", "ches", "xes")):
        return third_person[:-2]
    return third_person[:-1] if third_person.endswith("s") else third_person


def sentence(name: str, phrase: str) -> str:
    """``name`` and ``phrase``, its first word a verb in the third person: "You play ♦J", "West plays ♦J"."""
    first, _, rest = phrase.partition(" ")
    return " ".join(filter(None, (name, verb(name, first), rest)))


def possessive(name: str) -> str:
    """ "Your", "West's"."""
    return "Your" if name == YOU else f"{name}'s"


def objective(name: str, pronoun: str = "") -> str:
    """``name`` as an object, "you" for "You"; with ``pronoun`` ("them"), the pronoun for anyone else."""
    if name == YOU:
        return "you"
    return pronoun or name
