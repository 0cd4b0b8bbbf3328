"""A game of Rami: rounds until the end condition, penalties added up (low wins).

The Rami rules, sections 1, 5 and 6: the dealer passes to the left after every round, the
player left of the dealer starts, each round's penalties are added to the totals, and
the game ends by ``end_mode``:

* ``limit`` (default): after a round, if any total is at or above ``limit`` (500), the
  game ends and the lowest total wins (ties share the win);
* ``rounds``: after ``rounds`` rounds, the lowest total wins;
* ``elimination``: a player whose total reaches ``limit`` is out; the last player left
  wins (if everyone left is out in the same round, the lowest of them wins).

The dealing, records, replay and cloning are the platform's
(:class:`~rummykit.match.Match`); Rami's words stay as aliases of its vocabulary:
``round`` is the current hand, ``round_number`` the hand number, ``finished_rounds``
the finished hands and ``totals`` the running penalties (``scores``).

>>> game = RamiGame(players=3, seed=5)
>>> game.round_number, game.totals, game.hand is game.round
(1, (0, 0, 0), True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from rummykit.core import Event
from rummykit.games.rami.actions import RamiAction
from rummykit.games.rami.observation import RamiObservation
from rummykit.games.rami.round import RamiRound, new_round
from rummykit.games.rami.rules import RamiRules
from rummykit.games.rami.tokens import parse_card_token
from rummykit.i18n import N_, Translator
from rummykit.match import Match, SheetRow

__all__ = ["RamiGame", "RamiGameResult", "game_winners"]

# Why a round was blocked, as the score sheet notes it.
_BLOCKED = {"stock": N_("blocked (stock)"), "turns": N_("blocked (turns)")}


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
    ``None`` (the Rami rules, section 6). ``eliminated`` lists seats already out.

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


_StoredRound = tuple[list[Any], int | None]
"""A round as an unseeded game's record keeps it: the deck and the refill seed."""


class RamiGame(Match[RamiRound, RamiGameResult]):
    """Rounds of Rami between ``players`` seats until the game ends.

    The next round is dealt automatically when one ends; finished rounds stay readable
    in :attr:`results` and :attr:`finished_rounds`. Each round's shuffle comes from the
    game seed, so (rules, seed, actions) replays the whole game; without a seed every
    round is shuffled from a secure source and the record keeps the decks.
    """

    record_kind: ClassVar[str] = "rami-game"
    rules_type: ClassVar[type[Any]] = RamiRules
    _over_rule: ClassVar[str | None] = "rami-6.1"

    rules: RamiRules
    eliminated: list[int]
    """Seats out of the game (``elimination``), in the order they went out."""
    _totals: list[int]

    def __init__(
        self,
        rules: RamiRules | None = None,
        players: int = 4,
        seed: int | None = None,
        *,
        first_dealer: int | None = None,
    ) -> None:
        rules = rules or RamiRules()
        rules.deck_spec(players)  # validates the player count
        super().__init__(rules, players=players, seed=seed, first_dealer=first_dealer)

    def _start(self) -> None:
        self._totals = [0] * self.players
        self.eliminated = []

    def _new_hand(self, dealer: int, seed: int | None, stored: _StoredRound | None) -> RamiRound:
        active = [seat for seat in range(self.players) if seat not in self.eliminated]
        if stored is not None:
            deck, refill_seed = stored
            return new_round(
                self.rules,
                self.players,
                dealer=dealer,
                deck=deck,
                refill_seed=refill_seed,
                active=active,
            )
        return new_round(self.rules, self.players, seed, dealer=dealer, active=active)

    def _parse_action(self, data: Mapping[str, Any]) -> RamiAction:
        return RamiAction.from_json(data)

    def _clone_state(self, other: RamiGame) -> None:
        other._totals = self._totals.copy()
        other.eliminated = self.eliminated.copy()

    # -- Rami's words -------------------------------------------------------------------

    @property
    def round(self) -> RamiRound:
        """The current round (the last one once the game is over): :attr:`hand`."""
        return self.hand

    @property
    def round_number(self) -> int:
        """1 for the first round, and so on (the current or last round)."""
        return self.hand_number

    @property
    def finished_rounds(self) -> list[RamiRound]:
        """The rounds played to their end, oldest first: :attr:`finished_hands`."""
        return self.finished_hands

    @property
    def totals(self) -> tuple[int, ...]:
        """Cumulative penalties per seat."""
        return tuple(self._totals)

    @property
    def scores(self) -> tuple[int, ...]:
        """Cumulative penalties per seat (the platform's word for :attr:`totals`)."""
        return tuple(self._totals)

    def observation(self, seat: int) -> RamiObservation:
        """The current round's observation for ``seat``, with the game totals."""
        return self.round.observation(seat, scores=self.totals, round_number=self.round_number)

    # -- the end of a round ---------------------------------------------------------------

    def _settle(self, finished: RamiRound) -> list[Event]:
        result = finished.result
        assert result is not None
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
        self._next_hand(dealer)
        events.append(
            Event(
                "new_round",
                dealer,
                detail={"round": self.round_number, "totals": list(self._totals)},
            )
        )
        return events

    # -- score sheet and records -----------------------------------------------------

    hand_word = N_("round")

    def _hand_rows(self, tr: Translator) -> list[SheetRow]:
        rows = []
        running = [0] * self.players
        for number, result in enumerate(self.results, start=1):
            cells = []
            for seat in range(self.players):
                running[seat] += result.penalties[seat]
                mark = "*" if seat in result.winners else " "
                cells.append(f"{result.penalties[seat]:+d}{mark}{running[seat]:>3}")
            note = "" if result.outcome == "out" else tr.gettext(_BLOCKED[result.blocked_reason])
            if result.rami_sec:
                note = tr.gettext("rami sec")
            rows.append(SheetRow(str(number), cells, note))
        return rows

    def _store_hands(self, hands: Sequence[RamiRound], record: dict[str, Any]) -> None:
        record["decks"] = [rnd.to_record()["deck"] for rnd in hands]
        record["refill_seeds"] = [rnd.refill_seed for rnd in hands]

    @classmethod
    def _stored_hands(cls, record: Mapping[str, Any]) -> list[_StoredRound]:
        decks = [[parse_card_token(t) for t in deck.split()] for deck in record.get("decks", ())]
        refill_seeds = list(record.get("refill_seeds", ()))
        return [
            (deck, refill_seeds[index] if index < len(refill_seeds) else None)
            for index, deck in enumerate(decks)
        ]

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> RamiGame:
        """Rebuild a game from :meth:`to_record` by replaying every action."""
        game: RamiGame = super().from_record(record)
        return game
