"""Cards, their notation, and decks for every rummy variant.

A card is a small integer (a :class:`Card`, which *is* an ``int``) so that hands can be
bitmasks or count vectors and solvers never touch per-card objects. The integer keeps
three things apart:

* the **face**: rank and suit, ``0..51`` suit-major in the order spades, clubs, diamonds,
  hearts with the ace low (the same order as OpenSpiel's gin encoding), or ``52`` for a
  joker;
* the **copy**: which physical deck (or which joker) the card comes from, since Rami and
  Carousel play with two or three decks;
* for a joker on the table, the **declared** face it stands for.

>>> cards = parse_cards("AS 2s TD 10H JK JK=5S")
>>> format_cards(cards)
'AS 2S TD TH JK JK=5S'
>>> cards[0].rank, cards[0].suit
(1, 'S')
>>> cards[5].is_joker, str(cards[5].declared)
(True, '5S')
>>> int(parse_card("AS")), int(parse_card("KH"))
(0, 51)
"""

from __future__ import annotations

import functools
import random
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from rummykit.errors import InvalidCardError, InvalidOptionError

__all__ = [
    "CARD_IDS",
    "FACES",
    "JOKER_FACE",
    "PHYSICAL_IDS",
    "RANKS",
    "SUITS",
    "Card",
    "DeckSpec",
    "build_deck",
    "card_value_gin",
    "copy_of",
    "face_of",
    "format_card",
    "format_cards",
    "is_joker_id",
    "make_rng",
    "natural_card",
    "ordered_deck",
    "parse_card",
    "parse_cards",
    "physical_card",
    "physical_of",
    "shuffled_deck",
]

SUITS: Final = "SCDH"
"""Suit letters in id order: spades, clubs, diamonds, hearts."""
RANKS: Final = "A23456789TJQK"
"""Rank letters in id order, ace low; rank number = index + 1."""
JOKER_FACE: Final = 52
"""The face id shared by every joker."""

_FACE_BITS: Final = 6
_COPY_BITS: Final = 3
_FACE_MASK: Final = (1 << _FACE_BITS) - 1
_COPY_MASK: Final = (1 << _COPY_BITS) - 1
_DECLARED_SHIFT: Final = _FACE_BITS + _COPY_BITS
MAX_COPIES: Final = 1 << _COPY_BITS
"""Physical copies of one face that ids can tell apart (decks, or jokers)."""

_RANK_WORDS: Final = {
    "A": 1,
    "1": 1,
    "T": 10,
    "10": 10,
    "J": 11,
    "Q": 12,
    "K": 13,
    **{str(n): n for n in range(2, 10)},
}


def face_of(card: int) -> int:
    """The face id (``0..52``) of a card id, dropping copy and declaration."""
    return card & _FACE_MASK


def copy_of(card: int) -> int:
    """Which deck (or which joker) a card id's physical card is."""
    return (card >> _FACE_BITS) & _COPY_MASK


def physical_of(card: int) -> int:
    """A card id without its joker declaration (the object in a player's hand)."""
    return card & (PHYSICAL_IDS - 1)


def is_joker_id(card: int) -> bool:
    """True for a joker's id, declared or not."""
    return card & _FACE_MASK == JOKER_FACE


PHYSICAL_IDS: Final = 1 << _DECLARED_SHIFT
"""Physical card ids (face and copy, no joker declaration) are below this."""
CARD_IDS: Final = 1 << (_DECLARED_SHIFT + _FACE_BITS)
"""Every card id, declared jokers included, is below this."""
FACES: Final[tuple[int, ...]] = tuple(card & _FACE_MASK for card in range(CARD_IDS))
"""The face of every card id: hot loops index ``FACES[card]`` (as fast as masking,
without knowing the encoding) where :func:`face_of` would cost a call."""


def physical_card(face: int, copy: int) -> Card:
    """The physical card of ``face`` (``0..52``) from deck (or joker) ``copy``.

    >>> str(physical_card(51, 2)), copy_of(physical_card(51, 2))
    ('KH', 2)
    """
    if not 0 <= face <= JOKER_FACE or not 0 <= copy < MAX_COPIES:
        raise InvalidCardError(f"no physical card of face {face} and copy {copy}")
    return Card(face + (copy << _FACE_BITS))


def natural_card(rank: int, suit: str | int, copy: int = 0) -> Card:
    """The card of ``rank`` (1-13) and ``suit`` (letter or index) from deck ``copy``."""
    if isinstance(suit, str):
        # ``SUITS.index("")`` is 0 (so is "SC"): only a single suit letter names a suit.
        suit_index = SUITS.find(suit.upper()) if len(suit) == 1 else -1
    else:
        suit_index = suit
    if not 1 <= rank <= 13 or not 0 <= suit_index < 4:
        raise InvalidCardError(f"no such card: rank {rank}, suit {suit!r}")
    if not 0 <= copy < MAX_COPIES:
        raise InvalidCardError(f"copy {copy} out of range 0..{MAX_COPIES - 1}")
    return Card(suit_index * 13 + rank - 1 + (copy << _FACE_BITS))


class Card(int):
    """One physical card, optionally a joker with a declared face.

    Equal to its integer id, so a ``Card`` can be used wherever an id is expected.
    ``str()`` gives the notation (``"TD"``, ``"JK"``, ``"JK=5S"``); the copy is not part
    of the notation, since players never see which deck a card came from.
    """

    __slots__ = ()

    @property
    def face(self) -> int:
        """Face id: ``suit * 13 + rank - 1``, or :data:`JOKER_FACE`."""
        return int(self) & _FACE_MASK

    @property
    def copy(self) -> int:
        """Which deck (or which joker) this physical card is."""
        return (int(self) >> _FACE_BITS) & _COPY_MASK

    @property
    def is_joker(self) -> bool:
        """True for a joker, declared or not."""
        return self.face == JOKER_FACE

    @property
    def declared(self) -> Card | None:
        """For a declared joker, the natural card (copy 0) it stands for."""
        code = int(self) >> _DECLARED_SHIFT
        return Card(code - 1) if code else None

    @property
    def physical(self) -> Card:
        """This card without its declaration (the object in a player's hand)."""
        return Card(int(self) & ((1 << _DECLARED_SHIFT) - 1))

    @property
    def rank(self) -> int:
        """Rank 1 (ace) to 13 (king); for a joker, its declared rank or 0."""
        face = self.face
        if face == JOKER_FACE:
            declared = self.declared
            return declared.rank if declared is not None else 0
        return face % 13 + 1

    @property
    def suit(self) -> str | None:
        """Suit letter; for a joker, its declared suit or ``None``."""
        face = self.face
        if face == JOKER_FACE:
            declared = self.declared
            return declared.suit if declared is not None else None
        return SUITS[face // 13]

    def declare(self, face: int) -> Card:
        """This joker standing for ``face`` (a natural face id or card)."""
        if not self.is_joker:
            raise InvalidCardError(f"only a joker can be declared, not {self}")
        face = face_of(face)
        if face >= JOKER_FACE:
            raise InvalidCardError("a joker must be declared as a natural card")
        return Card((int(self) & ((1 << _DECLARED_SHIFT) - 1)) | ((face + 1) << _DECLARED_SHIFT))

    def __str__(self) -> str:
        return format_card(self)

    def __repr__(self) -> str:
        return f"Card({format_card(self)!r})"


def format_card(card: int) -> str:
    """Notation of one card: ``"AS"``, ``"TD"``, ``"JK"``, ``"JK=5S"``."""
    face = card & _FACE_MASK
    if face == JOKER_FACE:
        code = card >> _DECLARED_SHIFT
        return "JK" if not code else "JK=" + format_card(code - 1)
    if face > JOKER_FACE:
        raise InvalidCardError(f"not a card id: {card}")
    return RANKS[face % 13] + SUITS[face // 13]


def format_cards(cards: Iterable[int]) -> str:
    """Space-separated notation, the inverse of :func:`parse_cards`."""
    return " ".join(format_card(card) for card in cards)


def _parse_natural(token: str) -> int | None:
    token = token.upper()
    if len(token) < 2:
        return None
    rank = _RANK_WORDS.get(token[:-1])
    suit = SUITS.find(token[-1])
    if rank is None or suit < 0:
        return None
    return suit * 13 + rank - 1


def parse_card(token: str) -> Card:
    """Parse one card token (case-insensitive; ``T`` or ``10``; ``JK``; ``JK=5S``)."""
    cards = parse_cards(token)
    if len(cards) != 1:
        raise InvalidCardError(
            f"expected one card, got {len(cards)} in {token!r}",
            code="one_card_expected",
            token=token,
            numbers={"count": len(cards)},
        )
    return cards[0]


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse card notation into cards, in order.

    ``text`` is a whitespace- or comma-separated string, or an iterable of tokens.
    Jokers are numbered in order of appearance (copy 0, 1, ...) so that two ``JK``
    tokens are two different physical jokers; natural cards are copy 0.

    Raises:
        ValueError: naming the bad token and its position (1-based).
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    cards: list[Card] = []
    jokers = 0
    for position, token in enumerate(tokens, start=1):
        upper = token.strip().upper()
        if upper in ("JK", "JO", "JOKER") or upper.startswith(("JK=", "JO=")):
            declared: int | None = None
            if "=" in upper:
                declared = _parse_natural(upper.split("=", 1)[1])
                if declared is None:
                    raise InvalidCardError(
                        f"bad card token {token!r} at position {position}: "
                        "a joker is declared as a natural card, e.g. JK=5S",
                        code="bad_joker_declaration",
                        token=token,
                        position=position,
                    )
            if jokers >= MAX_COPIES:
                raise InvalidCardError(
                    f"bad card token {token!r} at position {position}: "
                    f"too many jokers (at most {MAX_COPIES})",
                    code="too_many_jokers",
                    token=token,
                    position=position,
                    numbers={"most": MAX_COPIES},
                )
            card = Card(JOKER_FACE | (jokers << _FACE_BITS))
            jokers += 1
            cards.append(card.declare(declared) if declared is not None else card)
            continue
        face = _parse_natural(upper)
        if face is None:
            raise InvalidCardError(
                f"bad card token {token!r} at position {position}: "
                "expected rank A 2-9 T/10 J Q K then suit S H D C, or JK",
                code="bad_card_token",
                token=token,
                position=position,
            )
        cards.append(Card(face))
    return cards


def card_value_gin(card: int) -> int:
    """Deadwood value in Gin: ace 1, pips, courts 10 (whatever deck the card is from)."""
    return min(face_of(card) % 13 + 1, 10)


@dataclass(frozen=True, slots=True, kw_only=True)
class DeckSpec:
    """How many standard decks and jokers make up the pack.

    >>> len(build_deck(DeckSpec(decks=2, jokers=4)))
    108
    """

    decks: int = 1
    jokers: int = 0

    def __post_init__(self) -> None:
        if not 1 <= self.decks <= 3:
            raise InvalidOptionError(f"decks must be 1-3, got {self.decks}")
        if not 0 <= self.jokers < MAX_COPIES:
            raise InvalidOptionError(f"jokers must be 0-{MAX_COPIES - 1}, got {self.jokers}")

    @property
    def size(self) -> int:
        """Number of cards in the pack."""
        return 52 * self.decks + self.jokers


def build_deck(spec: DeckSpec) -> list[Card]:
    """Every card of the pack in a fixed order (deck by deck, then the jokers)."""
    return list(_pack(spec))


@functools.cache
def _pack(spec: DeckSpec) -> tuple[Card, ...]:
    # One set of card objects per pack, shared by every deal: a card is immutable, and
    # fewer objects are fewer for the garbage collector to walk.
    deck = [Card(face + (copy << _FACE_BITS)) for copy in range(spec.decks) for face in range(52)]
    deck.extend(Card(JOKER_FACE + (copy << _FACE_BITS)) for copy in range(spec.jokers))
    return tuple(deck)


def make_rng(seed: int | random.Random | None) -> random.Random:
    """An RNG from an explicit seed or RNG; with ``None`` a cryptographically seeded one.

    Engine code never uses the global ``random`` module state.
    """
    if isinstance(seed, random.Random):
        return seed
    if seed is None:
        return random.Random(secrets.randbits(128))
    return random.Random(seed)


def shuffled_deck(spec: DeckSpec, seed: int | random.Random | None = None) -> list[Card]:
    """The pack shuffled by ``seed`` (int or RNG); unseeded shuffles use ``secrets``."""
    deck = build_deck(spec)
    if seed is None:
        secrets.SystemRandom().shuffle(deck)
    else:
        make_rng(seed).shuffle(deck)
    return deck


def ordered_deck(order: Sequence[int], spec: DeckSpec) -> list[Card]:
    """Validate an explicit card order (for tests, replays and puzzles) against ``spec``.

    Every card of the pack must appear exactly once. A joker's declaration is dropped
    (the pack holds physical cards); any other id outside the pack is rejected.
    """
    expected = sorted(build_deck(spec))
    given = sorted(_physical_id(int(card)) for card in order)
    if given != expected:
        expected_set = set(expected)
        missing = sorted(expected_set - set(given))
        extra = sorted(
            card for card in set(given) if given.count(card) > 1 or card not in expected_set
        )
        raise InvalidCardError(
            "explicit card order is not a complete pack"
            + (f"; missing {format_cards(missing[:5])}" if missing else "")
            + (f"; duplicated or foreign {_describe_ids(extra[:5])}" if extra else "")
        )
    return [Card(_physical_id(int(card))) for card in order]


def _physical_id(card: int) -> int:
    """A joker without its declaration; every other id unchanged."""
    if card >= 0 and card & _FACE_MASK == JOKER_FACE:
        return card & ((1 << _DECLARED_SHIFT) - 1)
    return card


def _describe_ids(cards: Iterable[int]) -> str:
    """Notation of ids for an error message, with the raw id beside any copy-0 face."""
    words = []
    for card in cards:
        if 0 <= card <= JOKER_FACE:
            words.append(format_card(card))
            continue
        try:
            words.append(f"{format_card(card)} (id {card})" if card >= 0 else f"id {card}")
        except ValueError:
            words.append(f"id {card}")
    return " ".join(words)
