"""Rami's rule options (the Rami rules, section 8 and the values of sections 1-6), the
named presets, and the hand-value table the scoring reads.

Every option is declared once on its :class:`RamiRules` field with its range or choices
and a line of help (:mod:`rummykit.options`); the command line, the server's lobby and
the validation all read it from there.

>>> RamiRules(opening_threshold=40).opening_threshold
40
>>> preset("rami51-house").unopened_rule
('flat', 100)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from rummykit.cards import CARD_IDS, FACES, JOKER_FACE, MAX_COPIES, DeckSpec
from rummykit.core import RulesBase
from rummykit.errors import InvalidOptionError, UnknownVariantError
from rummykit.options import option, option_of, options_of

__all__ = ["MAX_PLAYERS", "MIN_PLAYERS", "PRESETS", "RamiRules", "parse_option", "preset"]

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 6


def _amount(text: str, prefix: str) -> int | None:
    """The number after ``prefix`` (``flat:100`` -> 100), or ``None`` when there is none."""
    try:
        return int(text[len(prefix) :])
    except ValueError:
        return None


def _rule_and_amount(text: str, word: str) -> tuple[str, int]:
    """An option that is a rule's name or ``word:N``, as (name, N); N is 0 for a name."""
    prefix = word + ":"
    if text.startswith(prefix):
        return word, int(text[len(prefix) :])
    return text, 0


def _unopened_complaint(value: Any) -> str | None:
    if value in ("count", "double_count"):
        return None
    if isinstance(value, str) and value.startswith("flat:"):
        amount = _amount(value, "flat:")
        if amount is None:
            return "flat:N needs a number, e.g. flat:100"
        return "a flat penalty cannot be negative" if amount < 0 else None
    return "unknown penalty rule"


def _rami_sec_complaint(value: Any) -> str | None:
    if value in ("double", "off"):
        return None
    if isinstance(value, str) and value.startswith("bonus:"):
        return None if _amount(value, "bonus:") is not None else "bonus:N needs a number"
    return "unknown rami sec rule"


@dataclass(frozen=True, slots=True, kw_only=True)
class RamiRules(RulesBase):
    """Every option of the Rami rules (section 8 and the values of sections 1-6).

    The defaults are the reference rules of Rami 51. Options are validated when the
    object is built; :data:`PRESETS` holds the named variants.
    """

    variant = "rami"

    opening_threshold: int = option(
        51, low=0, high=1000, help="table value an opening must reach: 51 (Rami 51) or 40"
    )
    decks: int | Literal["auto"] = option(
        "auto", low=1, high=3, help="standard decks; auto: 2 for 2-4 players, 3 for 5-6"
    )
    jokers: int | Literal["per_deck"] = option(
        4, low=0, high=MAX_COPIES - 1, help="jokers in the pack; per_deck: one per deck"
    )
    hand_size: int = option(13, low=3, high=20, help="cards dealt to each player")
    mandatory_final_discard: bool = option(
        False, help="the last card must be discarded; plays that empty the hand are illegal"
    )
    discard_must_be_melded: bool = option(
        False, help="taking the discard is one action with the play that lays that card"
    )
    discard_from_second_round: bool = option(
        False, help="nobody takes the discard in their own first turn"
    )
    opening_requires_pure_run: bool = option(
        False, help="an opening includes a run without a joker"
    )
    play_after_open_same_turn: bool = option(
        True, help="false: after opening, the player ends the play phase at once"
    )
    joker_hand_value: int = option(20, low=0, high=1000, help="penalty of a joker left in hand")
    ace_hand_value: int = option(11, low=0, high=1000, help="penalty of an ace left in hand")
    unopened_penalty: str = option(
        "count",
        check=_unopened_complaint,
        shown="count, flat:N or double_count",
        help="score of a player who never opened: count, flat:N (e.g. flat:100), double_count",
    )
    rami_sec: str = option(
        "double",
        check=_rami_sec_complaint,
        shown="double, bonus:N or off",
        help="going out in one turn: double the others, bonus:N for the winner, or off",
    )
    rami_sec_exempt_opening: bool = option(
        False, help="an opening below the threshold is legal when it goes out that turn"
    )
    end_joker_shifts: bool = option(
        False, help="the real card an end joker stands for shifts it to the other end"
    )
    winner_bonus: int = option(
        0, low=-1000, high=1000, help="the score of the player who goes out (some use -10)"
    )
    one_card_must_draw_stock: bool = option(
        False, help="a player holding a single card must draw from the stock"
    )
    max_reshuffles: int = option(
        2, low=0, high=100, help="stock refills from the discard pile; one more blocks the round"
    )
    max_turns: int = option(
        300, low=1, high=100_000, help="the round is blocked after this many player-turns"
    )
    blocked_winner_scores_zero: bool = option(
        True, help="false: in a blocked round the lowest hand scores its hand too"
    )
    end_mode: Literal["limit", "rounds", "elimination"] = option(
        "limit", help="the game ends at a total (limit), after rounds, or by elimination"
    )
    limit: int = option(
        500, low=1, high=1_000_000, help="limit: the game ends at it; elimination: out at it"
    )
    rounds: int = option(10, low=1, high=10_000, help="rounds: how many rounds the game lasts")
    dealer_rotation: Literal["left"] = option("left", help="the deal passes to the left")

    # -- derived -------------------------------------------------------------------------

    def deck_spec(self, players: int) -> DeckSpec:
        """The pack for ``players`` (section 1): 108 / 160, or 106 / 159 (house)."""
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise InvalidOptionError(
                f"rami is played by {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players}",
                option="players",
            )
        decks = self.decks if self.decks != "auto" else (2 if players <= 4 else 3)
        jokers = decks if self.jokers == "per_deck" else self.jokers
        return DeckSpec(decks=decks, jokers=jokers)

    @property
    def unopened_rule(self) -> tuple[str, int]:
        """(``count`` | ``flat`` | ``double_count``, flat amount)."""
        return _rule_and_amount(self.unopened_penalty, "flat")

    @property
    def rami_sec_rule(self) -> tuple[str, int]:
        """(``double`` | ``bonus`` | ``off``, bonus amount)."""
        return _rule_and_amount(self.rami_sec, "bonus")

    def hand_values(self) -> tuple[int, ...]:
        """Penalty of a card left in hand, indexed by card id (section 2, hand column);
        every id has an entry, a declared joker's too, so hot loops index it directly."""
        return _hand_value_table(self.joker_hand_value, self.ace_hand_value)


_VALUE_TABLES: dict[tuple[int, int], tuple[int, ...]] = {}


def _hand_value_table(joker_value: int, ace_value: int) -> tuple[int, ...]:
    key = (joker_value, ace_value)
    table = _VALUE_TABLES.get(key)
    if table is None:
        by_face = []
        for face in range(max(FACES) + 1):
            if face == JOKER_FACE:
                by_face.append(joker_value)
            elif face > JOKER_FACE:
                by_face.append(0)
            else:
                rank = face % 13 + 1
                by_face.append(ace_value if rank == 1 else min(rank, 10))
        table = _VALUE_TABLES[key] = tuple(by_face[FACES[card]] for card in range(CARD_IDS))
    return table


def parse_option(text: str) -> tuple[str, Any]:
    """A command-line option ``NAME=VALUE`` as a typed, checked rami option.

    Booleans take true/false (yes/no, on/off, 1/0); numbers are integers; ``decks`` also
    takes ``auto`` and ``jokers`` ``per_deck``; the scoring options keep their text.

    >>> parse_option("unopened_penalty=flat:100"), parse_option("jokers=per_deck")
    (('unopened_penalty', 'flat:100'), ('jokers', 'per_deck'))
    >>> parse_option("max-turns=200"), parse_option("end_joker_shifts=false")
    (('max_turns', 200), ('end_joker_shifts', False))
    """
    name, sep, raw = text.partition("=")
    known = [declared.name for declared in options_of(RamiRules)]
    if not sep or name.strip().replace("-", "_") not in known:
        raise InvalidOptionError(
            f"a rami option is NAME=VALUE with NAME one of: {', '.join(sorted(known))}",
            option=name.strip() or None,
        )
    declared = option_of(RamiRules, name)
    return declared.name, declared.parse(raw)


PRESETS: Final[Mapping[str, RamiRules]] = {
    "rami51": RamiRules(),
    "rami40": RamiRules(opening_threshold=40),
    "rami51-house": RamiRules(jokers="per_deck", unopened_penalty="flat:100"),
    "rami40-house": RamiRules(opening_threshold=40, jokers="per_deck", unopened_penalty="flat:100"),
}
"""The named variants: reference rules, and the house rules of sections 1 and 5 (one
joker per deck, a flat 100 for a player who never opened)."""


def preset(name: str) -> RamiRules:
    """The rules of a named variant (``rami51``, ``rami40``, ``rami51-house``, ...)."""
    try:
        return PRESETS[name]
    except KeyError:
        raise UnknownVariantError(
            f"unknown rami preset {name!r}; choose one of {', '.join(PRESETS)}"
        ) from None
