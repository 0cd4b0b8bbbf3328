"""Stronger Rami bots: look-ahead over the next draw, card tracking, risk-aware play.

Everything is computed from the bot's own observation (its hand, the table, the discard
pile, the cards others are known to hold, the counts):

* **Unseen cards**: the pack minus the bot's hand, the table, the discard pile and the
  cards other seats took from the pile and still hold. Each face is weighted by how many
  of its copies are still unseen, so a dead face (every copy visible) counts for nothing.
* **Opening look-ahead** (not opened): a candidate 13-card hand is worth its chance of
  opening after the next draw, ``P(can_open(h + x))`` over the unseen cards ``x``, found
  with the exact solver :func:`~rummykit.games.rami.opening.can_open` (``hard`` and
  ``expert`` average it with the chance that the next two draws open it, on pairs
  sampled from the unseen cards with the bot's RNG, and with the chance that the next
  three draws do, on sampled triples). Discards trade that chance against the penalty
  the hand would cost if the round ended now.
* **After opening** (``hard``, ``expert``) the discard keeps cards by *live* partners:
  a partner counts more the more unseen natural cards would complete the pair, and the
  card's penalty weighs more the more danger there is (a going-out look-ahead over the
  next draw, :meth:`RamiExpertBot._out_value`, measured worse and is off at every
  level); ``hard`` and ``expert`` lay their jokers at once, since a joker left in hand
  costs 20 points when another seat goes out.
* **Danger**: the chance that the round ends before the bot's next turn, estimated from
  the other seats' hand sizes and whether they opened. The more danger, the more the
  bot values a light hand over progress (it sheds high cards when an opponent is about
  to go out).
* **Draws**: the discard pile's top is taken when it opens now, when it is laid at once
  after opening, or when holding it gives a better chance to open next turn than two
  stock draws give (this one and the next).
* **Feeding**: a discard the next player could lay off, or that joins the cards they
  took from the pile, is charged a cost.
* **Rami sec** (``expert``, only when the rules reward it): a hand that could open now
  but could also lay *everything* in one go after a likely next draw (or the next two
  draws, discounted for the longer wait) waits a turn, when the table is calm, since
  going out in one go doubles every other seat's penalty.

Levels ``easy`` < ``medium`` < ``hard`` < ``expert`` are parameters of one class
(:mod:`rummykit.games.rami.expert_levels` says what each turns on). Measured strength:
docs/strong-bots-rami.md.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from rummykit.cards import FACES, JOKER_FACE, MAX_COPIES, make_rng, physical_card
from rummykit.errors import UnknownBotError
from rummykit.games.rami.actions import RamiAction
from rummykit.games.rami.candidates import combination_faces
from rummykit.games.rami.expert_levels import LEVEL_PARAMS, LEVELS, Level, LevelParams
from rummykit.games.rami.heuristic_bot import (
    PhaseBot,
    RamiHeuristicBot,
    _meld_ok,
    _partners,
    _without,
    bundled_takes,
    cheapest_discard,
    next_player_wants,
)
from rummykit.games.rami.layoffs import (
    hand_left_playable,
    layoff_chain,
    layoff_moves,
    legal_moves,
)
from rummykit.games.rami.observation import RamiObservation
from rummykit.games.rami.opening import best_melds, best_opening, can_open
from rummykit.games.rami.rules import RamiRules
from rummykit.games.rami.table import Combination, combination_from_cards

__all__ = ["LEVELS", "Level", "LevelParams", "RamiExpertBot", "make_rami_expert"]

_HYPOTHETICAL: Final = tuple(
    int(physical_card(face, MAX_COPIES - 1)) for face in range(JOKER_FACE + 1)
)
"""Per face, an imagined drawn card: no real card has the last copy, so it never
collides with a card of the hand (the solvers only look at faces)."""


class RamiExpertBot(PhaseBot):
    """Rami bot with levels ``easy`` < ``medium`` < ``hard`` < ``expert`` (module doc)."""

    def __init__(
        self,
        *,
        seed: int | random.Random | None = None,
        rules: RamiRules | None = None,
        players: int = 4,
        level: Level = "expert",
        params: LevelParams | None = None,
    ) -> None:
        if level not in LEVEL_PARAMS:
            raise UnknownBotError(
                f"unknown rami level {level!r}; choose one of {', '.join(LEVELS)}"
            )
        self.level: Level = level
        self.name: str = level
        self.params = params or LEVEL_PARAMS[level]
        self.rules = rules
        self.players = players
        self.rng = make_rng(seed)
        # The heuristic supplies the play-phase moves the look-ahead does not change and
        # the fallback orderings; it holds no state between calls.
        self._heuristic = RamiHeuristicBot(rules)
        self._open_cache: dict[tuple[int, ...], bool] = {}
        self._out_cache: dict[tuple[int, ...], tuple[int, ...]] = {}
        self._down_cache: dict[tuple[int, ...], bool] = {}
        self._sec_discard: int | None = None
        """The discard planned this turn when holding back an opening for a rami sec."""

    # -- entry point --------------------------------------------------------------------

    def act(self, observation: RamiObservation, legal_actions: Sequence[RamiAction]) -> RamiAction:
        """Choose an action from the seat's observation alone."""
        if len(self._open_cache) > 50_000:
            self._open_cache.clear()
        self._out_cache.clear()  # its entries hold for one table only
        if len(self._down_cache) > 50_000:
            self._down_cache.clear()
        return super().act(observation, legal_actions)

    # -- what the seat knows ------------------------------------------------------------

    def _unseen(self, obs: RamiObservation) -> list[int]:
        """Unseen copies per face (index 52: jokers): the pack minus everything visible
        to this seat and the cards others are known to hold."""
        spec = obs.rules.deck_spec(len(obs.active))
        counts = [spec.decks] * 52 + [spec.jokers]
        visible: list[int] = [*obs.hand, *obs.discard_pile]
        for combo in obs.table:
            visible.extend(combo.physical_cards())
        for seat, known in enumerate(obs.known_cards):
            if seat != obs.seat:
                visible.extend(known)
        for card in visible:
            face = FACES[card]
            if counts[face] > 0:
                counts[face] -= 1
        return counts

    def _danger(self, obs: RamiObservation) -> float:
        """Estimated chance that another seat goes out before this seat plays again."""
        calm = 1.0
        for seat in obs.active:
            if seat == obs.seat:
                continue
            size = obs.hand_sizes[seat]
            if obs.opened[seat]:
                chance = {1: 0.45, 2: 0.3, 3: 0.2, 4: 0.12}.get(size, 0.06)
            else:
                chance = 0.02  # an unopened seat goes out only by a rami sec
            calm *= 1.0 - chance
        return 1.0 - calm

    # -- look-ahead values --------------------------------------------------------------

    def _can_open(self, cards: Sequence[int], rules: RamiRules) -> bool:
        key = tuple(sorted(FACES[c] for c in cards))
        hit = self._open_cache.get(key)
        if hit is None:
            hit = can_open(cards, rules)
            self._open_cache[key] = hit
        return hit

    def _open_chance(self, hand: Sequence[int], rules: RamiRules, unseen: Sequence[int]) -> float:
        """Chance that the next stock draw lets ``hand`` open (1 if it already can)."""
        if self._can_open(hand, rules):
            return 1.0
        total = sum(unseen)
        if not total:
            return 0.0
        faces = {FACES[c] for c in hand}
        hits = 0
        for face in _relevant_faces(faces):
            copies = unseen[face]
            if copies and self._can_open([*hand, _HYPOTHETICAL[face]], rules):
                hits += copies
        return hits / total

    def _draw_pairs(self, unseen: Sequence[int]) -> list[tuple[int, int]]:
        """Pairs of future draws sampled from the unseen cards (the bot's own RNG); one
        list per decision so that every candidate is judged on the same draws."""
        pool = [face for face, copies in enumerate(unseen) for _ in range(copies)]
        if len(pool) < 2 or not self.params.samples:
            return []
        pairs = []
        for _ in range(self.params.samples):
            first, second = self.rng.sample(pool, 2)
            pairs.append((_HYPOTHETICAL[first], _HYPOTHETICAL[second]))
        return pairs

    def _draw_triples(self, unseen: Sequence[int]) -> list[tuple[int, int, int]]:
        """Triples of future draws sampled like :meth:`_draw_pairs`."""
        pool = [face for face, copies in enumerate(unseen) for _ in range(copies)]
        if len(pool) < 3 or not self.params.triples:
            return []
        triples = []
        for _ in range(self.params.triples):
            a, b, c = self.rng.sample(pool, 3)
            triples.append((_HYPOTHETICAL[a], _HYPOTHETICAL[b], _HYPOTHETICAL[c]))
        return triples

    def _open_value(
        self,
        hand: Sequence[int],
        rules: RamiRules,
        unseen: Sequence[int],
        pairs: Sequence[tuple[int, int]],
        triples: Sequence[tuple[int, int, int]] = (),
    ) -> float:
        """Opening prospects of an unopened hand: the exact chance that the next draw
        opens it, averaged with the sampled chance that the next two draws do (and,
        with ``triples``, the next three)."""
        one = self._open_chance(hand, rules, unseen)
        if not pairs or one >= 1.0:
            return one
        hits = sum(1 for x, y in pairs if self._can_open([*hand, x, y], rules))
        two = 0.5 * one + 0.5 * hits / len(pairs)
        if not triples:
            return two
        hits3 = sum(1 for x, y, z in triples if self._can_open([*hand, x, y, z], rules))
        w = self.params.triple_weight
        return (1.0 - w) * two + w * hits3 / len(triples)

    def _lay_all(
        self, hand: Sequence[int], table: Sequence[Combination], rules: RamiRules
    ) -> tuple[int, ...]:
        """An opened hand at the start of its play: the penalties (ascending) of what it
        keeps after laying its best new combinations and then every lay-off it can."""
        key = tuple(sorted(FACES[c] for c in hand))
        hit = self._out_cache.get(key)
        if hit is not None:
            return hit
        values = rules.hand_values()
        left = list(hand)
        built = list(table)
        melds = best_melds(left, rules)
        if melds is not None and melds.combos:
            left = list(melds.cards_left)
            shifts = rules.end_joker_shifts
            built.extend(combination_from_cards(c, -1, shifts=shifts) for c in melds.combos)
        for move in layoff_chain(left, built, shifts=rules.end_joker_shifts, keep_jokers=False):
            assert move.card is not None
            left.remove(move.card)
        result = tuple(sorted(values[c] for c in left))
        self._out_cache[key] = result
        return result

    def _out_value(
        self,
        hand: Sequence[int],
        table: Sequence[Combination],
        rules: RamiRules,
        unseen: Sequence[int],
    ) -> tuple[float, float]:
        """For an opened hand after its discard: (chance to go out next turn, expected
        penalty kept after next turn's plays and discard), the draw over the unseen
        cards. Cached per decision: the table is fixed while the bot decides."""
        total = sum(unseen)
        if not total or not hand:
            return (1.0 if not hand else 0.0, 0.0)
        accepts = 0
        for combo in table:
            accepts |= combo.accepts
            if combo.shift_face >= 0:
                accepts |= 1 << combo.shift_face
        faces = {FACES[c] for c in hand}
        relevant = set(_relevant_faces(faces))
        for face in range(JOKER_FACE):
            if accepts >> face & 1:
                relevant.add(face)
        out = 0.0
        kept = 0.0
        other = total
        for face in relevant:
            copies = unseen[face]
            if not copies:
                continue
            other -= copies
            left = self._lay_all([*hand, _HYPOTHETICAL[face]], table, rules)
            if len(left) <= 1:
                out += copies
            else:
                kept += copies * (sum(left) - left[-1])
        if other > 0:
            # A draw that joins nothing is discarded (or a heavier card is): the hand
            # goes out only if it lays everything it holds already.
            left = self._lay_all(hand, table, rules)
            if not left:
                out += other
            else:
                kept += other * sum(left)
        return out / total, kept / total

    # -- draw ---------------------------------------------------------------------------

    def _draw(self, obs: RamiObservation, legal: Sequence[RamiAction]) -> RamiAction:
        rules = obs.rules
        if rules.discard_must_be_melded:
            bundled = bundled_takes(obs)
            return bundled[0] if bundled else legal[0]
        top = obs.upcard
        take = RamiAction.take_discard()
        if top is None or take not in legal:
            return legal[0]
        if FACES[top] == JOKER_FACE:
            return take
        hand = list(obs.hand)
        if obs.opened[obs.seat]:
            if layoff_moves([top], obs.table):
                return take
            melds = best_melds([*hand, top], rules, taken=top, use_jokers=False)
            if melds is not None and any(top in combo for combo in melds.combos):
                return take
            return legal[0]
        if not self.params.lookahead_draw:
            return self._heuristic.act(obs, legal)
        if FACES[top] not in _relevant_faces({FACES[c] for c in hand}):
            return legal[0]  # it joins nothing: it cannot bring the opening closer
        with_top = [*hand, top]
        if can_open(with_top, rules, taken=top):
            if not self._can_open(hand, rules):
                return take
            # Opening either way: take the card only when the opening uses it and it
            # leaves less in hand than opening without it.
            now = best_opening(hand, rules)
            better = best_opening(with_top, rules, taken=top)
            if (
                now is not None
                and better is not None
                and top not in better.cards_left
                and better.penalty_left <= now.penalty_left
            ):
                return take
            return legal[0]
        unseen = self._unseen(obs)
        stock_chance = self._open_chance(hand, rules, unseen)
        # Holding the top card: the best chance to open next turn over the discards.
        best = 0.0
        for card in sorted(set(hand)):
            rest = list(with_top)
            rest.remove(card)
            best = max(best, self._open_chance(rest, rules, unseen))
        # The stock gives this draw's chance and (about) the same chance next turn.
        if best > stock_chance * (2.0 - stock_chance) + self.params.take_margin:
            return take
        return legal[0]

    # -- play ---------------------------------------------------------------------------

    def _play(self, obs: RamiObservation, legal: Sequence[RamiAction]) -> RamiAction:
        rules = obs.rules
        if obs.opened[obs.seat] or not legal:
            if self.params.lay_jokers and legal:
                return self._play_opened(obs, legal)
            return self._heuristic.act(obs, legal)
        hand = list(obs.hand)
        taken = obs.taken_card
        opening = best_opening(hand, rules, taken=taken)
        if opening is None:
            return legal[0]
        plain = None
        if len(opening.cards_left) > 1:  # never give up going out for a joker
            plain = best_opening(hand, rules, taken=taken, use_jokers=False)
        if plain is not None:
            # A joker kept in hand costs its penalty if the round ends, but joins any
            # later combination: keep it when that costs little more than it is worth.
            jokers = sum(1 for c in plain.cards_left if FACES[c] == JOKER_FACE)
            if plain.penalty_left - rules.joker_hand_value * jokers <= opening.penalty_left + 5:
                opening = plain
        if (
            self.params.rami_sec
            and rules.rami_sec_rule[0] != "off"
            # One new card and two discards (now and next turn) can rescue only a few
            # cards the best opening leaves: with more, no rami sec is in reach.
            and 1 < len(opening.cards_left) <= self.params.sec_max_left
            and self._hold_for_rami_sec(obs, hand, opening.penalty_left)
        ):
            return legal[0]
        return opening.action()

    def _play_opened(self, obs: RamiObservation, legal: Sequence[RamiAction]) -> RamiAction:
        """After opening: lay every combination (jokers included), then joker swaps and
        every lay-off (jokers too), leaving as little in hand as the rules allow."""
        rules = obs.rules
        if obs.opened_this_turn and not rules.play_after_open_same_turn:
            return legal[0]
        hand = list(obs.hand)
        taken = obs.taken_card
        table = obs.table
        melds = best_melds(hand, rules, taken=taken)
        if melds is not None:
            for combo in melds.combos:
                if _meld_ok(combo, hand, table, rules, taken, obs.seat):
                    return RamiAction.meld(combo)
        # Swaps and lay-offs: the heuristic's order, with the jokers laid off as well
        # (the heuristic keeps them while two natural cards remain).
        moves = legal_moves(hand, table, rules, taken=taken)
        swaps = [
            m
            for m in moves
            if m.kind == "swap_joker" and (m.joker_target is not None or m.joker_cards is not None)
        ]
        if swaps:
            swaps.sort(key=lambda m: m.joker_cards is None)
            return swaps[0]
        for move in moves:
            if move.kind == "layoff" and hand_left_playable(
                _without(hand, move.card), table, rules, taken
            ):
                return move
        return legal[0]

    def _hold_for_rami_sec(self, obs: RamiObservation, hand: Sequence[int], left: int) -> bool:
        """Wait a turn instead of opening when the next draw may let the whole hand go
        down at once (a rami sec doubles every other seat's penalty, or earns the bonus)
        and that gain beats the risk of holding the whole hand if the round ends first.

        The gain is the chance of laying everything next turn (best discard now, exact
        over the unseen draws) times what the rami sec is worth: the others' expected
        penalties (about 7 points a card for an unopened hand, 6 for an opened one). The
        cost is the danger times the penalty the opening would have shed, plus the
        ``sec_margin`` for the lay-offs and progress an opening now would bring."""
        rules = obs.rules
        kind, bonus = rules.rami_sec_rule
        danger = self._danger(obs)
        if kind == "double":
            worth = sum(
                obs.hand_sizes[seat] * self.params.sec_worth * (6 / 7 if obs.opened[seat] else 1.0)
                for seat in obs.active
                if seat != obs.seat
            )
        else:
            worth = float(max(0, -bonus))
        values = rules.hand_values()
        cost = danger * (sum(values[c] for c in hand) - left) + self.params.sec_margin
        if worth <= cost:
            return False  # no chance of a rami sec could pay for holding
        unseen = self._unseen(obs)
        total = sum(unseen)
        if not total:
            return False
        best = 0.0
        best_card: int | None = None
        pairs = self._draw_pairs(unseen) if self.params.sec_two else []
        for card in sorted(set(hand), key=lambda c: -values[c]):
            if card == obs.taken_card:
                continue
            rest = list(hand)
            rest.remove(card)
            hits = 0
            for face in _relevant_faces({FACES[c] for c in rest}):
                copies = unseen[face]
                if copies and self._goes_down([*rest, _HYPOTHETICAL[face]], rules):
                    hits += copies
            chance = hits / total
            if pairs:
                # Two turns: rest + both draws may keep two cards out of its
                # combinations (one is discarded in between, the other at the end);
                # holding two turns costs about twice the danger, hence the discount.
                two = sum(1 for x, y in pairs if self._goes_down([*rest, x, y], rules, 2))
                chance = max(chance, two / len(pairs) / (2.0 - danger))
            if chance > best:
                best, best_card = chance, card
        if best_card is not None and best * worth > cost:
            self._sec_discard = best_card
            return True
        return False

    def _goes_down(self, cards: Sequence[int], rules: RamiRules, slack: int = 1) -> bool:
        """Whether an unopened hand can lay all its cards but at most ``slack`` in one go,
        as an opening: worth the threshold unless ``rami_sec_exempt_opening`` waives it."""
        key = (slack, *sorted(FACES[c] for c in cards))
        hit = self._down_cache.get(key)
        if hit is None:
            # Cheap necessary test first: at most ``slack`` cards may lie outside every
            # combination the hand can form (the solver's search is far dearer).
            useful = combination_faces(cards, rules)
            dead = 0
            for face in key[1:]:
                if not useful >> (4 * face) & 15:
                    dead += 1
            if dead > slack:
                hit = False
            else:
                full = best_melds(cards, rules)
                hit = (
                    full is not None
                    and len(full.cards_left) <= slack
                    and (rules.rami_sec_exempt_opening or full.value >= rules.opening_threshold)
                )
            self._down_cache[key] = hit
        return hit

    # -- discard ------------------------------------------------------------------------

    def _discard(self, obs: RamiObservation, legal: Sequence[RamiAction]) -> RamiAction:
        params = self.params
        planned, self._sec_discard = self._sec_discard, None
        if planned is not None and RamiAction.discard(planned) in legal:
            return RamiAction.discard(planned)
        if params.blunder and self.rng.random() < params.blunder:
            options = [a for a in legal if a.card is not None and FACES[a.card] != JOKER_FACE]
            if options:
                return self.rng.choice(options)
        opened = obs.opened[obs.seat]
        if opened and params.live_discard and len(legal) > 1:
            return self._opened_discard(obs, legal)
        width = params.opened_candidates if opened else params.candidates
        if width <= 0 or len(legal) == 1:
            return self._heuristic.act(obs, legal)
        rules = obs.rules
        hand = list(obs.hand)
        values = rules.hand_values()
        unseen = self._unseen(obs)
        danger = self._danger(obs)
        risk = min(1.0, params.base_risk + params.danger_scale * danger)
        order = self._candidates(obs, legal)
        pairs = [] if opened else self._draw_pairs(unseen)
        triples = [] if opened else self._draw_triples(unseen)
        feeds, wanted = next_player_wants(obs)
        best: RamiAction | None = None
        best_score = 0.0
        seen_faces: set[int] = set()
        for action in order[:width]:
            card = action.card
            assert card is not None
            face = FACES[card]
            if face in seen_faces:
                continue
            seen_faces.add(face)
            rest = list(hand)
            rest.remove(card)
            pen = sum(values[c] for c in rest)
            if opened:
                chance, kept = self._out_value(rest, obs.table, rules, unseen)
                score = risk * pen + (1.0 - risk) * kept - params.out_weight * chance
            else:
                chance = self._open_value(rest, rules, unseen, pairs, triples)
                score = risk * pen - params.open_weight * (1.0 - danger) * chance
            if params.feed_cost and face != JOKER_FACE:
                if feeds >> face & 1:
                    score += params.feed_cost
                if wanted and _partners(face, wanted):
                    score += params.feed_cost / 2
            if best is None or score < best_score - 1e-9:
                best, best_score = action, score
        assert best is not None
        return best

    def _opened_discard(self, obs: RamiObservation, legal: Sequence[RamiAction]) -> RamiAction:
        """After opening: keep the cards with live partners, shed penalty (more so when
        another seat may go out), and do not feed the next player."""
        params = self.params
        rules = obs.rules
        values = rules.hand_values()
        unseen = self._unseen(obs)
        danger = self._danger(obs)
        faces = [FACES[c] for c in obs.hand]
        feeds, wanted = next_player_wants(obs)

        def cost(card: int, face: int) -> float:
            keep = 0.0
            for other in faces:
                if other in (face, JOKER_FACE):
                    continue
                outs = _completions(face, other, unseen)
                if outs >= 0:
                    keep += params.live_base + params.live_per * min(outs, 4)
            score = keep - values[card] * (1.0 + params.danger_value * danger)
            if feeds >> face & 1:
                score += params.opened_feed
            if wanted and _partners(face, wanted):
                score += 12
            return score

        return cheapest_discard(legal, cost)

    def _candidates(self, obs: RamiObservation, legal: Sequence[RamiAction]) -> list[RamiAction]:
        """Discards ordered by the heuristic's cost (its first choice first); jokers last."""
        first = self._heuristic.act(obs, legal)
        rest = [a for a in legal if a != first]
        values = obs.rules.hand_values()
        faces = [FACES[c] for c in obs.hand]

        def cost(action: RamiAction) -> tuple[int, int]:
            card = action.card
            assert card is not None
            face = FACES[card]
            if face == JOKER_FACE:
                return (1, 0)
            return (0, 8 * _partners(face, faces) - values[card])

        rest.sort(key=cost)
        return [first, *rest]


def _relevant_faces(faces: set[int]) -> list[int]:
    """Faces a drawn card must have to join a combination with ``faces``: the same rank
    in another suit, or the same suit within two ranks (ace next to the king too), and
    the joker. Any other draw cannot change whether the hand opens."""
    relevant: set[int] = {JOKER_FACE}
    for face in faces:
        if face == JOKER_FACE:
            continue
        suit, rank = divmod(face, 13)
        for other_suit in range(4):
            relevant.add(other_suit * 13 + rank)
        # Positions 1-14 (ace low and high): neighbours within two, mapped back to ranks.
        for position in (rank + 1, 14) if rank == 0 else (rank + 1,):
            for step in (-2, -1, 1, 2):
                other = position + step
                if 1 <= other <= 14:
                    relevant.add(suit * 13 + (other - 1) % 13)
    return sorted(relevant)


def _positions(rank: int) -> tuple[int, ...]:
    return (1, 14) if rank == 0 else (rank + 1,)


def _completions(face: int, other: int, unseen: Sequence[int]) -> int:
    """Unseen natural cards that make a combination of ``face`` and ``other``; -1 when
    the two are not partners (same rank in another suit, or same suit within two)."""
    suit, rank = divmod(face, 13)
    other_suit, other_rank = divmod(other, 13)
    if rank == other_rank:
        if suit == other_suit:
            return -1
        return sum(unseen[s * 13 + rank] for s in range(4) if s not in (suit, other_suit))
    if suit != other_suit:
        return -1
    best = -1
    for p in _positions(rank):
        for q in _positions(other_rank):
            gap = abs(p - q)
            needed: tuple[int, ...]
            if gap == 1:
                needed = (min(p, q) - 1, max(p, q) + 1)
            elif gap == 2:
                needed = ((p + q) // 2,)
            else:
                continue
            outs = sum(unseen[suit * 13 + (n - 1) % 13] for n in needed if 1 <= n <= 14)
            best = max(best, outs)
    return best


def make_rami_expert(
    *, seed: int, rules: RamiRules | None = None, players: int = 4, level: Level = "expert"
) -> RamiExpertBot:
    """Factory for the tournament registry."""
    return RamiExpertBot(seed=seed, rules=rules, players=players, level=level)
