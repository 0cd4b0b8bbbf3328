"""A toy game for the terminal loop's tests: two seats add 1 or 2 to a count in turn;
whoever brings it to 5 or more takes the hand; the game is two hands."""

from __future__ import annotations

import copy
from collections.abc import Sequence

from rummykit.errors import IllegalActionError, InvalidActionError, RummykitError

HANDS = 2


class Toy:
    """The whole game, as the loop needs it."""

    def __init__(self) -> None:
        self.results: list[int] = []
        self.count = 0
        self.current_player = 0

    @property
    def is_over(self) -> bool:
        return len(self.results) == HANDS

    def observation(self, seat: int) -> tuple[int, int]:
        return seat, self.count

    def legal_actions(self) -> list[int]:
        return [] if self.is_over else [1, 2]

    def apply(self, action: int) -> None:
        if action not in (1, 2):
            raise IllegalActionError(
                f"seat {self.current_player} cannot add {action}", code="too_much"
            )
        self.count += action
        if self.count >= 5:
            self.results.append(self.current_player)
            self.count = 0
        self.current_player = 1 - self.current_player

    def clone(self) -> Toy:
        return copy.deepcopy(self)

    def score_sheet(self, language: str = "en") -> str:
        return "\n".join(f"hand {n}: seat {w}" for n, w in enumerate(self.results, start=1))


class ToyScreen:
    """The toy's screen: ``add N``, ``both`` (two actions, the second refused), ``look``."""

    seat = 0
    noun = "game"
    help = (
        "Commands:\n  add 1|2    add to the count\n  both       add 1, then 9\n"
        "  look       the count"
    )

    def __init__(self, game: Toy) -> None:
        self.game = game

    def name(self, seat: int) -> str:
        return "You" if seat == 0 else f"Bot {seat}"

    def title(self) -> str:
        return "Toy to 5."

    def hand_header(self) -> str:
        return f"=== Hand {len(self.game.results) + 1} ==="

    def table(self, observation: tuple[int, int]) -> list[str]:
        return [f"Count: {observation[1]}"]

    def choices(self, observation: tuple[int, int], legal: Sequence[int]) -> list[str]:
        return ["add"] if legal else []

    def parse(self, line: str, observation: tuple[int, int]) -> list[int] | str:
        words = line.split()
        if words[0] == "add" and len(words) == 2 and words[1].isdigit():
            return [int(words[1])]
        if words[0] == "both":
            return [1, 9]
        if words[0] == "look":
            return f"  the count is {observation[1]}"
        raise InvalidActionError(f"unknown command {words[0]!r}")

    def refusal(self, error: RummykitError) -> str:
        return f"{error} ({error.code})"

    def hint(self, observation: tuple[int, int]) -> str:
        return "  add 2"

    def describe(self, seat: int, action: int, observation: tuple[int, int]) -> list[str]:
        return [f"{self.name(seat)} adds {action}."]

    def reveal(self, result: int) -> list[str]:
        return [f"{self.name(result)} {'take' if result == 0 else 'takes'} the hand."]

    def winners(self) -> tuple[int, ...]:
        won = [self.game.results.count(seat) for seat in (0, 1)]
        return tuple(seat for seat in (0, 1) if won[seat] == max(won))


class AddsOne:
    """A bot that always adds 1."""

    name = "adds-one"

    def act(self, observation: tuple[int, int], legal_actions: Sequence[int]) -> int:
        return 1
