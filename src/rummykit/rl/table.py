"""The decision process every environment wrapper drives: a game played by action id.

A *table* turns a catalog game's engine into a sequence of decisions by integer action
id: who acts, which ids are legal, what a step does and what it pays. The PettingZoo,
Gymnasium and OpenSpiel wrappers only talk to an :class:`EpisodeTable`'s public methods
and to the game's observation encoder (:mod:`rummykit.rl.encoding`).

:class:`EpisodeTable` writes the stepping once for every game: an episode is one deal
(a hand, a round) or a whole game from :meth:`rummykit.catalog.Variant.new_game`;
rules, presets and seat counts come from the catalog; a step resolves an id to an
engine action (or advances the game's own multi-id macro), plays the moves the table
makes by itself, pays rewards when a deal or the game is scored, and refuses an id
outside the mask without changing anything. A game's subclass
(:class:`~rummykit.rl.gin_table.GinTable`, :class:`~rummykit.rl.rami_table.RamiTable`)
supplies only its id encoding: the legal ids and the action of each, its macros, and
what a finished deal pays.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, Literal, Protocol, TypeVar

from rummykit.catalog import Variant, get_variant
from rummykit.core import Event, IllegalActionError, InvalidActionError

__all__ = [
    "DealEngine",
    "Episode",
    "EpisodeTable",
    "GameEngine",
    "RewardKind",
    "illegal_action_error",
]

Episode = Literal["hand", "match"]
"""Gin's episodes: ``hand``, one hand; ``match``, a match to the target with every bonus."""
RewardKind = Literal["points", "win"]
"""Gin's rewards: ``points`` (zero-sum); ``win``, +1 / -1 / 0 at the end of the episode."""


def illegal_action_error(
    action_id: object, seat: int, legal: Sequence[int], names: Sequence[str]
) -> IllegalActionError:
    """The error for an id outside the mask, listing the legal ids by name."""
    shown = ", ".join(f"{i} ({name})" for i, name in zip(legal, names, strict=True))
    return IllegalActionError(
        f"action {action_id!r} is not legal for seat {seat} now; legal ids: {shown or 'none'}",
        code="action_not_legal",
        seat=seat,
    )


class DealEngine(Protocol):
    """What a table needs of one deal's engine (``GinHand``, ``RamiRound``)."""

    @property
    def current_player(self) -> int: ...

    @property
    def phase(self) -> str:
        """The decision phase; ``over`` once the deal is scored (``is_over``)."""
        ...

    @property
    def result(self) -> Any: ...

    def legal_actions(self) -> Sequence[Any]: ...

    def apply(self, action: Any) -> list[Event]: ...

    def observation(self, seat: int) -> Any: ...

    def clone(self) -> Any: ...


class GameEngine(Protocol):
    """What a table needs of a whole game (``GinMatch``, ``RamiGame``)."""

    @property
    def results(self) -> Sequence[Any]: ...

    @property
    def result(self) -> Any: ...

    def apply(self, action: Any) -> list[Event]: ...

    def observation(self, seat: int) -> Any: ...

    def clone(self) -> Any: ...


ActionT = TypeVar("ActionT")
DealT = TypeVar("DealT", bound=DealEngine)
GameT = TypeVar("GameT", bound=GameEngine)
RulesT = TypeVar("RulesT")
EpisodeT = TypeVar("EpisodeT", bound=str)
RewardT = TypeVar("RewardT", bound=str)


def _as_id(action_id: object) -> int:
    """An id as a plain int (numpy integers too); -1, never legal, for anything else."""
    if type(action_id) is int:
        return action_id
    if isinstance(action_id, bool):
        return -1
    try:
        return operator.index(action_id)  # type: ignore[arg-type]
    except TypeError:
        return -1


class EpisodeTable(Generic[ActionT, DealT, GameT, RulesT, EpisodeT, RewardT]):
    """One episode of a catalog game (a deal, or the whole game) driven by action ids.

    Args:
        rules: the game's rules, a mapping of options, a preset name, or ``None`` (the
            catalog's default rules).
        players: seats 0 to ``players - 1`` (``None``: the catalog's default number).
        episode: :attr:`deal_episode` (one deal; the default) or :attr:`game_episode`
            (the whole game, :meth:`~rummykit.catalog.Variant.new_game`).
        reward: :attr:`score_reward` (the default: what each deal pays,
            :meth:`_deal_rewards`, plus any end-of-game adjustment, :meth:`_game_bonus`)
            or ``win`` (+1 to each winner and -1 to every other seat at the end of the
            episode; 0 to all when every seat wins).
        dealer: the dealer of the deal (the first dealer of a game); ``None`` draws it
            from the episode seed.

    A subclass names its game, action count and id names in the class attributes,
    its rules, episode and reward types in the type parameters, and implements
    :meth:`_new_deal`, :meth:`_current_deal`, :meth:`_choices` and
    :meth:`_deal_rewards`; the other hooks have defaults. The episode and reward words
    are the catalog's (:attr:`~rummykit.catalog.Variant.hand_word`,
    :attr:`~rummykit.catalog.Variant.game_word`,
    :attr:`~rummykit.catalog.Variant.points_label`).
    """

    game_name: ClassVar[str]
    """The catalog name of the game (:func:`rummykit.catalog.get_variant`)."""
    num_actions: ClassVar[int]
    deal_episode: str
    """The ``episode`` value for one deal (``hand``, ``round``); also names ``info``'s
    ``last_...`` entry."""
    game_episode: str
    """The ``episode`` value for a whole game (``game``, ``match``); also names
    ``info``'s final result."""
    score_reward: str
    """The ``reward`` value that pays the score (``points``, ``penalty``; the other is
    ``win``)."""
    zero_sum: ClassVar[bool] = False
    """Whether the score reward of every step adds up to zero over the seats."""
    automatic_phase: ClassVar[str | None] = None
    """A phase of the deal in which the table plays the engine's first legal action
    itself, without an id (gin: ``layoff``, where that is the defender's optimal show)."""
    multi_id_macros: ClassVar[bool] = False
    """Whether an id macro may take several ids (gin's knock): its first ids then stand
    for no engine action on their own (:meth:`action_for`)."""

    current_player: int
    """The seat to act (kept up to date after every step: the wrappers read it a lot)."""
    is_over: bool
    """True once the deal (deal episodes) or the whole game is over."""
    version: int
    """Changes whenever the state changes (the wrappers' cache key)."""

    def __init__(
        self,
        rules: RulesT | Mapping[str, Any] | str | None = None,
        *,
        players: int | None = None,
        episode: EpisodeT | None = None,
        reward: RewardT | None = None,
        dealer: int | None = None,
    ) -> None:
        variant = get_variant(self.game_name)
        self.deal_episode = variant.hand_word
        self.game_episode = variant.game_word
        self.score_reward = variant.points_label
        episode_: str = self.deal_episode if episode is None else episode
        reward_: str = self.score_reward if reward is None else reward
        if episode_ not in (self.deal_episode, self.game_episode):
            raise ValueError(
                f"episode must be {self.deal_episode!r} or {self.game_episode!r}, not {episode_!r}"
            )
        if reward_ not in (self.score_reward, "win"):
            raise ValueError(f"reward must be {self.score_reward!r} or 'win', not {reward_!r}")
        players = variant.default_players if players is None else players
        variant.check_players(players)
        if dealer is not None and (
            isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players
        ):
            raise ValueError(f"dealer must be a seat 0-{players - 1} or None, not {dealer!r}")
        self.variant: Variant = variant
        self.rules: RulesT = (
            variant.preset(rules) if isinstance(rules, str) else variant.make_rules(rules)
        )
        self.num_seats = players
        self.episode = episode_
        self.reward = reward_
        self.dealer = dealer
        self._game: GameT | None = None
        self._deal: DealT | None = None
        self._legal: list[int] = []
        self._actions: list[ActionT | None] = []
        """The engine action of each legal id (``None``: an id macro, :meth:`_macro`)."""
        self._observations: dict[int, Any] = {}
        # Read at every step: an instance attribute is found faster than a class one.
        self._automatic_phase = self.automatic_phase
        self.current_player = 0
        self.is_over = False
        self.version = 0
        self.last_result: dict[str, Any] | None = None
        """The last finished deal's result (JSON form), for ``info``."""
        self._prepare()

    # -- what a game supplies ----------------------------------------------------------

    def _prepare(self) -> None:
        """Derive what the game needs from :attr:`rules` and :attr:`num_seats`, once
        ``__init__`` has checked them (raise to refuse a combination)."""

    def action_string(self, action_id: int) -> str:
        """A readable name of an action id (the encoding module's)."""
        raise NotImplementedError

    def _new_deal(self, seed: int | None, dealer: int, deck: Sequence[int] | None) -> DealT:
        """One deal from ``seed`` (or an explicit card order), for deal episodes."""
        raise NotImplementedError

    def _current_deal(self, game: GameT) -> DealT:
        """The deal in progress (or the last one) of a whole game."""
        raise NotImplementedError

    def _choices(self) -> tuple[list[int], list[ActionT | None]]:
        """The ascending legal ids of the seat to act and the engine action of each
        (``None`` for an id :meth:`_macro` handles); called after every change of a
        live episode, with :attr:`current_player` already up to date."""
        raise NotImplementedError

    def _deal_rewards(self, result: Any) -> Sequence[float]:
        """What a finished deal pays each seat under the score reward."""
        raise NotImplementedError

    def _macro(self, action_id: int) -> ActionT | None:
        """A legal id whose action is ``None``: the engine action it stands for now, or
        ``None`` after taking one step of a multi-id macro (nothing reaches the engine)."""
        raise NotImplementedError

    def _in_macro(self) -> bool:
        """True while a multi-id macro is half done (engine actions are refused)."""
        return False

    def _update(self, events: Sequence[Event] | None) -> None:
        """Keep the game's own state in step: ``None`` after a reset, the engine's new
        events after a move, an empty sequence after a macro step."""

    def _game_bonus(self, game: GameT) -> Sequence[float] | None:
        """What the end of a whole game adds to the score reward (bonuses), if anything."""
        return None

    def _win_rewards(self) -> list[float]:
        """The ``win`` reward at the end of the episode, from the final result's winners."""
        final = self._game.result if self._game is not None else self.deal.result
        winners = final.winners
        seats = self.num_seats
        if len(winners) < seats:
            return [1.0 if seat in winners else -1.0 for seat in range(seats)]
        return [0.0] * seats

    def _game_info(self, game: GameT) -> dict[str, Any]:
        """Facts about a whole game in progress for ``info`` (running totals)."""
        return {}

    def _clone_into(self, other: Any) -> None:
        """Copy the game's own mutable state into a clone (a shallow copy so far)."""

    @classmethod
    def pack(cls, rules: Any, players: int) -> list[int]:
        """Every card id of one deal, for dealing by explicit chance (OpenSpiel): the
        order they are drawn in is the ``deck`` of :meth:`reset`."""
        raise NotImplementedError

    @classmethod
    def deal_bound(cls, rules: Any) -> float:
        """A bound of what one deal pays a seat under the score reward (OpenSpiel's
        utilities)."""
        raise NotImplementedError

    def macro_text(self, seat: int) -> str:
        """The multi-id macro ``seat`` has half done, as text (empty when none)."""
        return ""

    def seat_text(self, lines: list[str], *, legal: bool) -> str:
        """A game's ``describe`` text (``render``, OpenSpiel's strings): its ``lines`` of
        what a seat sees, then the legal ids by name when ``legal`` (the seat acts), then
        the finished deal's result (:meth:`_result_text`)."""
        if legal:
            names = [f"{i} {self.action_string(i)}" for i in self._legal]
            lines.append("legal: " + ", ".join(names))
        if self.is_over and self.last_result is not None:
            lines.append(f"{self.deal_episode} over{self._result_text(self.last_result)}")
        return "\n".join(lines)

    def _result_text(self, result: dict[str, Any]) -> str:
        """The words after "hand over" in :meth:`seat_text`, from a deal's JSON result."""
        raise NotImplementedError

    # -- resampling (rummykit.rl.resample) -------------------------------------------

    def hidden_classes(self, seat: int) -> list[set[int]]:
        """The cards whose place ``seat`` does not know, by the shuffle that hid them:
        first the cards hidden since the deal (relabelled in the dealt deck), then, for
        a game that refills its stock, the cards of each refilled stock."""
        raise NotImplementedError

    def redeal(self, deck: Sequence[int]) -> DealT:
        """The current deal dealt again from another card order (no action played)."""
        return self._new_deal(None, self.deal.dealer, deck)  # type: ignore[attr-defined]

    def refill_count(self, deal: DealT) -> int:
        """How many times ``deal`` has refilled its stock (0 for games that never do)."""
        return 0

    def relabel_stock(self, deal: DealT, relabel: dict[int, int]) -> None:
        """Rename cards of ``deal``'s stock (a refilled stock being resampled)."""
        raise NotImplementedError

    def adopt_deal(self, deal: DealT, seat: int) -> None:
        """Continue from ``deal``, the current deal resampled for ``seat`` (same seats,
        same actions played): the game's own state is rebuilt from it."""
        self._deal = deal
        self._observations = {}
        self._update(None)
        self.current_player = deal.current_player
        if not self.is_over:
            self._legal, self._actions = self._choices()

    # -- state ---------------------------------------------------------------------------

    @property
    def deal(self) -> DealT:
        """The current (or last) deal."""
        if self._deal is None:
            raise RuntimeError("call reset() before using the table")
        return self._deal

    @property
    def game(self) -> GameT | None:
        """The whole game in game episodes."""
        return self._game

    def reset(self, seed: int | None = None, *, deck: Sequence[int] | None = None) -> None:
        """Deal a new episode from ``seed`` (or, for a deal, an explicit card order)."""
        rng = random.Random(seed) if seed is not None else None
        if self.episode == self.game_episode:
            if deck is not None:
                raise ValueError(
                    f"an explicit deck deals a single {self.deal_episode}, "
                    f"not a {self.game_episode}"
                )
            game: GameT = self.variant.new_game(
                self.rules, players=self.num_seats, seed=seed, first_dealer=self.dealer
            )
            self._game, self._deal = game, self._current_deal(game)
        else:
            dealer = self.dealer
            if dealer is None:
                dealer = (rng or random.Random()).randrange(self.num_seats)
            deal_seed = rng.getrandbits(63) if rng is not None else None
            self._game = None
            self._deal = self._new_deal(deal_seed, dealer, deck)
        self.last_result = None
        self._advance(None, None)

    def legal_ids(self) -> list[int]:
        """Ascending legal ids of the seat to act (empty once the episode is over)."""
        return self._legal

    def observation(self, seat: int) -> Any:
        """The engine's ``observation(seat)`` now (of the whole game in game episodes,
        which adds its totals); cached until the state changes."""
        cached = self._observations.get(seat)
        if cached is None:
            state: Any = self._game or self._deal
            if state is None:
                raise RuntimeError("call reset() before using the table")
            cached = self._observations[seat] = state.observation(seat)
        return cached

    def info(self, seat: int) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if self.last_result is not None:
            data[f"last_{self.deal_episode}"] = self.last_result
        game = self._game
        if game is not None:
            data.update(self._game_info(game))
            if game.result is not None:
                data[self.game_episode] = game.result.to_json()
        return data

    def clone(self) -> Any:
        """An independent copy (the engine's cheap ``clone``, not a deep copy)."""
        other = type(self).__new__(type(self))
        other.__dict__.update(self.__dict__)
        if self._game is not None:
            other._game = self._game.clone()
            other._deal = other._current_deal(other._game)
        elif self._deal is not None:
            other._deal = self._deal.clone()
        other._legal = list(self._legal)
        other._actions = list(self._actions)
        other._observations = {}
        self._clone_into(other)
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        return self.clone()

    # -- stepping --------------------------------------------------------------------------

    def step(self, action_id: int) -> list[float]:
        """Apply one id for the seat to act; each seat's reward for this step."""
        key = action_id if type(action_id) is int else _as_id(action_id)
        try:
            index = self._legal.index(key)
        except ValueError:
            raise self._illegal(action_id) from None
        action = self._actions[index]
        if action is None:
            action = self._macro(key)
            if action is None:
                return self._advance(None)
        return self._advance(action)

    def apply_action(self, action: ActionT) -> list[float]:
        """Apply an engine action for the seat to act, bypassing the ids (bots).

        Raises :class:`~rummykit.core.IllegalActionError` (state unchanged) when the
        engine rejects it or an id macro is half done.
        """
        if self._in_macro():
            raise self._illegal(str(action))
        return self._advance(action)

    def action_for(self, action_id: int) -> ActionT:
        """The engine action a legal id stands for now (``IllegalActionError`` if none;
        ``InvalidActionError`` for an id that starts a multi-id macro)."""
        index = self._legal_index(action_id)
        action = self._actions[index]
        if action is None:
            if self.multi_id_macros:
                raise InvalidActionError(f"id {action_id!r} starts a macro, not one action")
            action = self._macro(self._legal[index])
            assert action is not None, "a single-id macro stands for one action"
        return action

    def _legal_index(self, action_id: object) -> int:
        """Where a legal id stands in :meth:`legal_ids` (``IllegalActionError`` if it is
        not legal)."""
        try:
            return self._legal.index(_as_id(action_id))
        except ValueError:
            raise self._illegal(action_id) from None

    def _illegal(self, action_id: object) -> IllegalActionError:
        legal = self._legal
        names = [self.action_string(i) for i in legal]
        return illegal_action_error(action_id, self.current_player, legal, names)

    def _advance(self, action: ActionT | None, events: Sequence[Event] | None = ()) -> list[float]:
        """Play an engine ``action`` (with the table's own moves after it), or, for
        ``None``, take in a change the engine did not make (``events``: ``None`` for a
        new state, ``()`` for a macro step); then a new version, who acts, whether it is
        over and the legal ids. Returns what this pays each seat. One function, because
        it runs at every step."""
        finished: Sequence[Any] = ()
        game = self._game
        if action is not None:
            deal: Any = self._deal
            automatic = self._automatic_phase  # ``None`` matches no phase
            if game is None:
                moved = deal.apply(action)
                while deal.phase == automatic:
                    moved.extend(deal.apply(deal.legal_actions()[0]))
                if deal.result is not None:
                    finished = (deal.result,)
            else:
                before = len(game.results)
                moved = game.apply(action)
                while deal.phase == automatic:
                    moved.extend(game.apply(deal.legal_actions()[0]))
                self._deal = self._current_deal(game)
                finished = game.results[before:]
            events = moved
        self.version += 1
        if self._observations:
            self._observations.clear()
        self._update(events)
        deal = self._deal
        self.current_player = deal.current_player
        # ``phase`` rather than the ``is_over`` property: this runs at every step.
        self.is_over = over = deal.phase == "over" if game is None else game.result is not None
        rewards = [0.0] * self.num_seats
        if finished:
            self.last_result = finished[-1].to_json()
            if self.reward != "win":
                for result in finished:
                    for seat, value in enumerate(self._deal_rewards(result)):
                        rewards[seat] += value
        if not over:
            self._legal, self._actions = self._choices()
            return rewards
        self._legal, self._actions = [], []
        if self.reward == "win":
            return self._win_rewards()
        bonus = None if game is None else self._game_bonus(game)
        if bonus is not None:
            for seat, value in enumerate(bonus):
                rewards[seat] += value
        return rewards
