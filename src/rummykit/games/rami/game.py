"""A game of Rami: rounds until the end condition, penalties added up (low wins).

rules/rami.md sections 1, 5 and 6: the dealer passes to the left after every round, the
player left of the dealer starts, each round's penalties are added to the totals, and
the game ends by ``end_mode``:

* ``limit`` (default): after a round, if any total is at or above ``limit`` (500), the
  game ends and the lowest total wins (ties share the win);
* ``rounds``: after ``rounds`` rounds, the lowest total wins;
* ``elimination``: a player whose total reaches ``limit`` is out; the last player left
  wins (if everyone left is out in the same round, the lowest of them wins).

>>> game = RamiGame(players=3, seed=5)
>>> game.round_number, game.totals
(1, (0, 0, 0))
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rummykit.cards import make_rng
from rummykit.core import Event, IllegalActionError
from rummykit.games.rami.round import (
    RamiAction,
    RamiObservation,
    RamiRound,
    RamiRoundResult,
    RamiRules,
    new_round,
    parse_card_token,
)

__all__ = ["RamiGame", "RamiGameResult", "game_winners"]


@dataclass(frozen=True, slots=True)
class RamiGameResult:
    """Final totals of a game (penalties; low is good) and who won."""

    totals: tuple[int, ...]
    winners: tuple[int, ...]
    """The seat(s) with the lowest total, or the last player left (elimination)."""
    rounds: int
    eliminated: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "totals": list(self.totals),
            "winners": list(self.winners),
            "rounds": self.rounds,
            "eliminated": list(self.eliminated),
        }


def game_winners(
    rules: RamiRules, totals: Sequence[int], rounds: int, eliminated: Sequence[int] = ()
) -> tuple[int, ...] | None:
    """The winners if the game is over after ``rounds`` rounds with these totals, else
    ``None`` (rules/rami.md section 6). ``eliminated`` lists seats already out.

    >>> game_winners(RamiRules(), [180, 510, 240], 7)
    (0,)
    >>> game_winners(RamiRules(), [180, 490, 240], 7) is None
    True
    """
    seats = range(len(totals))
    if rules.end_mode == "elimination":
        standing = [s for s in seats if s not in eliminated and totals[s] < rules.limit]
        if len(standing) > 1:
            return None
        if len(standing) == 1:
            return (standing[0],)
        last = [s for s in seats if s not in eliminated] or list(seats)
        low = min(totals[s] for s in last)
        return tuple(s for s in last if totals[s] == low)
    if rules.end_mode == "rounds":
        if rounds < rules.rounds:
            return None
    elif max(totals) < rules.limit:
        return None
    low = min(totals)
    return tuple(s for s in seats if totals[s] == low)


class RamiGame:
    """Rounds of Rami between ``players`` seats until the game ends.

    The next round is dealt automatically when one ends; finished rounds stay readable
    in :attr:`results` and :attr:`finished_rounds`. Each round's shuffle comes from the
    game seed, so (rules, seed, actions) replays the whole game; without a seed every
    round is shuffled from a secure source and the record keeps the decks.
    """

    def __init__(
        self,
        rules: RamiRules | None = None,
        players: int = 4,
        seed: int | None = None,
        *,
        first_dealer: int | None = None,
    ) -> None:
        self.rules = rules or RamiRules()
        self.rules.deck_spec(players)  # validates the player count
        self.players = players
        self.seed = seed
        self._rng: random.Random | None = make_rng(seed) if seed is not None else None
        # Drawn even when the caller names the dealer, so replays consume the same numbers.
        drawn = (self._rng or make_rng(None)).randrange(players)
        if first_dealer is None:
            first_dealer = drawn
        if not 0 <= first_dealer < players:
            raise ValueError(f"first_dealer must be a seat 0-{players - 1}, not {first_dealer!r}")
        self.first_dealer = first_dealer
        self._totals = [0] * players
        self.eliminated: list[int] = []
        self.results: list[RamiRoundResult] = []
        self.finished_rounds: list[RamiRound] = []
        self.result: RamiGameResult | None = None
        self.round = self._deal(first_dealer, None, None)

    def _deal(self, dealer: int, deck: Sequence[int] | None, refill_seed: int | None) -> RamiRound:
        active = [seat for seat in range(self.players) if seat not in self.eliminated]
        if deck is not None:
            return new_round(
                self.rules,
                self.players,
                dealer=dealer,
                deck=deck,
                refill_seed=refill_seed,
                active=active,
            )
        seed = self._rng.getrandbits(63) if self._rng is not None else None
        return new_round(self.rules, self.players, seed, dealer=dealer, active=active)

    # -- state ------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """True once the end condition of section 6 is met."""
        return self.result is not None

    @property
    def current_player(self) -> int:
        """The seat to act in the current round."""
        return self.round.current_player

    @property
    def round_number(self) -> int:
        """1 for the first round, and so on (the current or last round)."""
        return len(self.results) + (0 if self.is_over else 1)

    @property
    def totals(self) -> tuple[int, ...]:
        """Cumulative penalties per seat."""
        return tuple(self._totals)

    @property
    def scores(self) -> tuple[int, ...]:
        """Cumulative penalties per seat: :attr:`totals`."""
        return self.totals

    @property
    def hand_number(self) -> int:
        """The round number."""
        return self.round_number

    def legal_actions(self) -> list[RamiAction]:
        """Legal finite actions in the current round (none when the game is over)."""
        return [] if self.is_over else self.round.legal_actions()

    def check(self, action: RamiAction) -> None:
        """Raise :class:`IllegalActionError` if ``action`` is illegal now."""
        if self.is_over:
            raise IllegalActionError(
                f"the game is over; {action} is not possible", code="game_over"
            )
        self.round.check(action)

    def observation(self, seat: int) -> RamiObservation:
        """The current round's observation for ``seat``, with the game totals."""
        return self.round.observation(seat, scores=self.totals, round_number=self.round_number)

    # -- play ---------------------------------------------------------------------------

    def apply(self, action: RamiAction) -> list[Event]:
        """Apply an action to the current round; deal the next round or end the game."""
        if self.is_over:
            raise IllegalActionError(
                f"the game is over; {action} is not possible", code="game_over"
            )
        events = self.round.apply(action)
        if self.round.is_over:
            events.extend(self._round_finished(None, None))
        return events

    def _round_finished(self, deck: Sequence[int] | None, refill_seed: int | None) -> list[Event]:
        finished = self.round
        result = finished.result
        assert result is not None
        self.results.append(result)
        self.finished_rounds.append(finished)
        for seat, penalty in enumerate(result.penalties):
            self._totals[seat] += penalty
        events: list[Event] = []
        if self.rules.end_mode == "elimination":
            out = [
                seat
                for seat in finished.active
                if self._totals[seat] >= self.rules.limit and seat not in self.eliminated
            ]
            standing = [s for s in finished.active if s not in out]
            winners = game_winners(self.rules, self._totals, len(self.results), self.eliminated)
            if len(standing) >= 2:
                self.eliminated.extend(out)
                for seat in out:
                    events.append(Event("eliminated", seat, detail={"total": self._totals[seat]}))
            elif winners is not None:
                self.eliminated.extend(s for s in out if s not in winners)
        else:
            winners = game_winners(self.rules, self._totals, len(self.results))
        if winners is not None:
            self.result = RamiGameResult(
                totals=self.totals,
                winners=winners,
                rounds=len(self.results),
                eliminated=tuple(self.eliminated),
            )
            events.append(Event("game_over", winners[0], detail=self.result.to_json()))
            return events
        dealer = finished.next_seat[finished.dealer]
        while dealer in self.eliminated:
            dealer = (dealer + 1) % self.players
        self.round = self._deal(dealer, deck, refill_seed)
        events.append(
            Event(
                "new_round",
                dealer,
                detail={"round": self.round_number, "totals": list(self._totals)},
            )
        )
        return events

    def clone(self) -> RamiGame:
        """An independent copy (the finished rounds are shared; they never change)."""
        other = RamiGame.__new__(RamiGame)
        other.rules = self.rules
        other.players = self.players
        other.seed = self.seed
        other._rng = None
        if self._rng is not None:
            other._rng = random.Random()
            other._rng.setstate(self._rng.getstate())
        other.first_dealer = self.first_dealer
        other._totals = self._totals.copy()
        other.eliminated = self.eliminated.copy()
        other.results = self.results.copy()
        other.finished_rounds = self.finished_rounds.copy()
        other.result = self.result
        other.round = self.round.clone()
        return other

    # -- score sheet and records -----------------------------------------------------

    def score_sheet(self) -> str:
        """One line per round (penalties and running totals), then the winner(s)."""
        seats = range(self.players)
        lines = ["round  " + " ".join(f"{'seat ' + str(s):>9}" for s in seats)]
        running = [0] * self.players
        for number, result in enumerate(self.results, start=1):
            cells = []
            for seat in seats:
                running[seat] += result.penalties[seat]
                mark = "*" if seat in result.winners else " "
                cells.append(f"{result.penalties[seat]:>+5}{mark}{running[seat]:>3}")
            note = "" if result.outcome == "out" else f"  blocked ({result.blocked_reason})"
            if result.rami_sec:
                note = "  rami sec"
            lines.append(f"{number:>5}  " + " ".join(f"{c:>9}" for c in cells) + note)
        final = self.result
        if final is not None:
            lines.append("total  " + " ".join(f"{t:>9}" for t in final.totals))
            names = ", ".join(f"seat {s}" for s in final.winners)
            lines.append(f"winner: {names}" if len(final.winners) == 1 else f"winners: {names}")
        return "\n".join(lines)

    def to_record(self) -> dict[str, Any]:
        """JSON-ready record that replays the game (rules, seed, dealer, actions)."""
        rounds = [*self.finished_rounds] + ([] if self.is_over else [self.round])
        record: dict[str, Any] = {
            "variant": "rami-game",
            "rules": self.rules.to_dict(),
            "players": self.players,
            "seed": self.seed,
            "first_dealer": self.first_dealer,
            "actions": [action.to_json() for rnd in rounds for action in rnd.actions],
        }
        if self.seed is None:
            record["decks"] = [rnd.to_record()["deck"] for rnd in rounds]
            record["refill_seeds"] = [rnd.refill_seed for rnd in rounds]
        return record

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> RamiGame:
        """Rebuild a game from :meth:`to_record` by replaying every action."""
        if record.get("variant") != "rami-game":
            raise ValueError(f"not a rami game record: variant {record.get('variant')!r}")
        rules = RamiRules.from_dict(record.get("rules", {}))
        decks = [[parse_card_token(t) for t in deck.split()] for deck in record.get("decks", ())]
        refill_seeds = list(record.get("refill_seeds", ()))
        seed = record.get("seed")
        if seed is None and not decks:
            raise ValueError("a game record without a seed must list its decks")
        game = cls.__new__(cls)
        game.rules = rules
        game.players = int(record["players"])
        game.seed = seed
        game._rng = make_rng(seed) if seed is not None else None
        game.first_dealer = int(record.get("first_dealer", 0))
        if game._rng is not None:
            game._rng.randrange(game.players)  # the first-dealer draw
        game._totals = [0] * game.players
        game.eliminated = []
        game.results = []
        game.finished_rounds = []
        game.result = None
        game.round = game._deal(
            game.first_dealer,
            decks[0] if decks else None,
            refill_seeds[0] if refill_seeds else None,
        )
        for data in record.get("actions", ()):
            if game.is_over:
                raise ValueError("the record has actions after the end of the game")
            game.round.apply(RamiAction.from_json(data))
            if game.round.is_over:
                index = len(game.results) + 1
                game._round_finished(
                    decks[index] if index < len(decks) else None,
                    refill_seeds[index] if index < len(refill_seeds) else None,
                )
        return game
