"""Cards and decks, with the two-character codes of the rule book (`TH`, `QS`, `JK`).

A card is a small immutable value with a text round-trip: ``Card.parse("TH")`` and
``str(card) == "TH"``.  Two-deck games hold identical twins; a code never says which deck.
Games that need speed may work with the codes (plain ``str``) directly; every deck
builder below returns codes in a fixed, documented order (suits C, D, H, S; ranks A..K),
which is the order the deal-number shuffle starts from.
"""

from __future__ import annotations

from dataclasses import dataclass

from spillebord.core.errors import NotationError

RANKS = "A23456789TJQK"
SUITS = "CDHS"
JOKER = "JK"

RANK_NAMES_DA = {
    "A": "es", "2": "to", "3": "tre", "4": "fire", "5": "fem", "6": "seks", "7": "syv",
    "8": "otte", "9": "ni", "T": "ti", "J": "knægt", "Q": "dame", "K": "konge",
}
SUIT_NAMES_DA = {"C": "klør", "D": "ruder", "H": "hjerter", "S": "spar"}
RANK_NAMES_EN = {
    "A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six",
    "7": "seven", "8": "eight", "9": "nine", "T": "ten", "J": "jack", "Q": "queen",
    "K": "king",
}
SUIT_NAMES_EN = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """A playing card: rank 1 (ace) … 13 (king) and a suit letter, or the joker (rank 0)."""

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if self.rank == 0:
            if self.suit != "":
                raise NotationError("a joker has no suit")
        elif not (1 <= self.rank <= 13) or self.suit not in SUITS or len(self.suit) != 1:
            raise NotationError(f"no such card: rank {self.rank}, suit {self.suit!r}")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse a two-character code such as ``TH`` or ``JK``."""
        code = text.strip()
        if code == JOKER:
            return cls(0, "")
        if len(code) != 2 or code[0] not in RANKS or code[1] not in SUITS:
            raise NotationError(
                f"{text!r} is not a card: use rank A23456789TJQK then suit CDHS, or JK"
            )
        return cls(RANKS.index(code[0]) + 1, code[1])

    @property
    def is_joker(self) -> bool:
        return self.rank == 0

    @property
    def code(self) -> str:
        return JOKER if self.rank == 0 else RANKS[self.rank - 1] + self.suit

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    def name(self, lang: str = "da") -> str:
        """The spoken name, e.g. ``hjerter otte`` (Danish) or ``eight of hearts``."""
        if self.is_joker:
            return "joker"
        r = RANKS[self.rank - 1]
        if lang == "da":
            return f"{SUIT_NAMES_DA[self.suit]} {RANK_NAMES_DA[r]}"
        return f"{RANK_NAMES_EN[r]} of {SUIT_NAMES_EN[self.suit]}"


def parse_card(text: str) -> str:
    """Validate a card code and return it normalised (the code itself)."""
    return Card.parse(text).code


def is_card_code(text: str) -> bool:
    return text == JOKER or (len(text) == 2 and text[0] in RANKS and text[1] in SUITS)


def rank_of(code: str) -> int:
    """1 (ace) … 13 (king); 0 for the joker."""
    return 0 if code == JOKER else RANKS.index(code[0]) + 1


def one_deck() -> list[str]:
    """The 52 cards, suits C D H S, ranks A … K within each suit."""
    return [r + s for s in SUITS for r in RANKS]


def two_decks() -> list[str]:
    """104 cards: two full decks, the first deck then the second."""
    return one_deck() + one_deck()


def piquet_deck() -> list[str]:
    """The 32-card piquet deck 7 8 9 T J Q K A of each suit."""
    return [r + s for s in SUITS for r in "789TJQKA"]


def stripped_deck() -> list[str]:
    """The piquet-style stripped deck without aces: the 28 cards 7 … K (posthus)."""
    return [r + s for s in SUITS for r in "789TJQK"]


def kugler_deck() -> list[str]:
    """The 134 cards of Kugler og Jokere: two decks, one extra A 7 8 J Q K of each suit
    and 6 jokers."""
    extra = [r + s for s in SUITS for r in "A78JQK"]
    return two_decks() + extra + [JOKER] * 6
