"""Every refusal of an engine names its rule by a stable id, and cites it in one wording.

Statically: every rule id written in a game's sources is in ``ids.json`` and belongs to
that game, and every ``IllegalActionError`` raised with a literal ``code`` carries a rule
exactly when ``codes.json`` maps that code to one. No source cites a rules file by path.
Dynamically: seeded games are probed with actions that are mostly illegal, and every
refusal is checked (known id of the game, the citation once at the end of the message).
"""

from __future__ import annotations

import ast
import json
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from rummykit.cards import JOKER_FACE, Card
from rummykit.errors import IllegalActionError, cite_rule, rule_citation
from rummykit.games.carousel import CarouselAction, CarouselGame, CarouselHand, CarouselRules
from rummykit.games.carousel.hand import new_hand as new_carousel_hand
from rummykit.games.carousel.layout import check_layout, resolve_layout
from rummykit.games.carousel.simple_bots import CarouselRandomBot
from rummykit.games.gin import GinAction, GinHand, GinMatch, GinRules, new_hand
from rummykit.games.rami import RamiAction, RamiGame, RamiRound, RamiRules, new_round
from rummykit.games.rami.heuristic_bot import RamiRandomBot

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "rummykit"
RULES = SRC / "rules"
GAMES = ("gin", "rami", "carousel")
RULE_ID = re.compile(r"^(gin|rami|carousel)-[1-9][0-9]*\.[1-9][0-9]*$")
RAISES = ("IllegalActionError", "CombinationError", "IllegalLayoutError")
PROBED = 0.3
"""The share of decisions at which the seeded games are probed (for speed)."""


def _ids() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RULES / "ids.json").read_text(encoding="utf-8"))
    return data["rules"]


def _codes() -> dict[str, dict[str, str | None]]:
    data: dict[str, Any] = json.loads((RULES / "codes.json").read_text(encoding="utf-8"))
    return data["codes"]


def _sources(game: str) -> list[Path]:
    return sorted((SRC / "games" / game).rglob("*.py"))


def _calls(tree: ast.AST) -> Iterator[tuple[ast.Call, dict[str, ast.expr]]]:
    """Every call of a refusal class, with its keyword arguments."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name in RAISES:
                yield node, {k.arg: k.value for k in node.keywords if k.arg}


def _literal_rules(value: ast.expr) -> list[str | None] | None:
    """The rule ids a ``rule=`` argument can take when written literally (both branches
    of a conditional), or ``None`` when it is computed elsewhere."""
    if isinstance(value, ast.Constant) and (value.value is None or isinstance(value.value, str)):
        return [value.value]
    if isinstance(value, ast.IfExp):
        body, orelse = _literal_rules(value.body), _literal_rules(value.orelse)
        return None if body is None or orelse is None else body + orelse
    return None


# -- the wording -------------------------------------------------------------------------


def test_one_wording_for_every_game() -> None:
    assert rule_citation("gin-3.2") == "Gin rules §3.2"
    assert rule_citation("rami-4.10") == "Rami rules §4.10"
    assert rule_citation("carousel-5.3") == "Carousel rules §5.3"
    assert cite_rule("no", "rami-4.1") == "no (Rami rules §4.1)"
    assert cite_rule("no", None) == "no"
    error = IllegalActionError("seat 1 cannot draw", code="x", seat=1, rule="gin-3.4")
    assert str(error) == "seat 1 cannot draw (Gin rules §3.4)" and error.rule == "gin-3.4"


# -- the sources -------------------------------------------------------------------------


def test_no_source_cites_a_rules_file_by_path() -> None:
    cited = re.compile(r"(?<![\w/])rules/(gin|rami|carousel)\.md|\bSPEC\b")
    for path in sorted(SRC.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            assert not cited.search(line), f"{path.relative_to(ROOT)}:{number}: {line.strip()}"


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_id_in_the_sources_is_known(game: str) -> None:
    ids = _ids()
    found = 0
    for path in [*_sources(game), SRC / "match.py", SRC / "errors.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if RULE_ID.match(node.value) and node.value.startswith(f"{game}-"):
                    found += 1
                if RULE_ID.match(node.value) and path.parent.name == game:
                    assert node.value in ids, f"{path.name}: unknown rule id {node.value}"
                    assert node.value.startswith(f"{game}-"), f"{path.name}: {node.value}"
    assert found >= 10


@pytest.mark.parametrize("game", GAMES)
def test_a_refusal_carries_a_rule_exactly_when_its_code_has_one(game: str) -> None:
    codes = _codes()[game]
    checked = 0
    for path in _sources(game):
        for call, keywords in _calls(ast.parse(path.read_text(encoding="utf-8"))):
            code = keywords.get("code")
            if not isinstance(code, ast.Constant):
                continue  # passed through from another refusal
            where = f"{path.name}:{call.lineno} ({code.value})"
            rule = keywords.get("rule")
            rules = [None] if rule is None else _literal_rules(rule)
            if rules is None:
                # A parameter (the phase's rule of a wrong-phase refusal): the ids its
                # callers pass are checked above, the refusals themselves below.
                assert isinstance(rule, ast.Name | ast.Attribute), f"{where}: rule= unclear"
                continue
            if codes[code.value] is None:
                assert rules == [None], f"{where}: no rule applies to this code"
            else:
                assert None not in rules, f"{where}: the refusal names no rule"
            checked += 1
    assert checked >= 15


# -- refusals as they happen -------------------------------------------------------------


def _check_refusal(game: str, error: IllegalActionError) -> None:
    ids, codes = _ids(), _codes()[game]
    message = str(error)
    assert error.code in codes, message
    assert "rules/" not in message and "section" not in message, message
    if codes[error.code] is None:
        assert error.rule is None, message
        assert "§" not in message, message
        return
    assert error.rule in ids and error.rule.startswith(f"{game}-"), message
    assert message.endswith(f" ({rule_citation(error.rule)})"), message
    assert message.count("§") == 1, message


def _probe(
    check: Callable[[Any], None], actions: list[Any], found: list[IllegalActionError]
) -> None:
    for action in actions:
        try:
            check(action)
        except IllegalActionError as error:
            found.append(error)


def _gin_probes(hand: GinHand, rng: random.Random) -> list[GinAction]:
    """Actions of every kind, most of them illegal now."""
    own = hand.hand_cards(hand.current_player)
    other = hand.hand_cards(1 - hand.current_player)
    picks = rng.sample(own, 3)
    return [
        GinAction.take_upcard(),
        GinAction.pass_(),
        GinAction.draw_stock(),
        GinAction.draw_discard(),
        GinAction.big_gin(),
        GinAction.discard(other[0]),
        *(GinAction.discard(card) for card in picks),
        *(GinAction.knock(card) for card in picks),
        GinAction.knock(picks[0], [picks]),
        GinAction.knock(picks[0], [own[:3], own[2:5]]),
        GinAction.lay_off(layoffs=[(picks[0], 0)]),
        GinAction.lay_off(layoffs=[(picks[1], 9)]),
        GinAction.lay_off(layoffs=[(other[0], 0)]),
    ]


def _gin_refusals() -> list[IllegalActionError]:
    found: list[IllegalActionError] = []
    rule_sets = [
        GinRules(),
        GinRules(first_turn_after_double_pass="stock_only", knocker_arrangement="explicit"),
        GinRules(big_gin_bonus=0, big_gin_from_discard=False, auto_layoff=False),
        GinRules(auto_layoff=False, chained_layoffs=False),
    ]
    for seed in range(24):
        rules = rule_sets[seed % len(rule_sets)]
        hand = new_hand(rules, seed=seed, dealer=seed % 2)
        rng = random.Random(seed)
        while not hand.is_over:
            if hand.phase == "layoff" or rng.random() < PROBED:
                _probe(hand.check, _gin_probes(hand, rng), found)
            legal = hand.legal_actions()
            # Knock whenever possible in half the games, so that showdowns are probed too.
            knocks = [a for a in legal if a.kind in ("knock", "big_gin")]
            hand.apply(knocks[0] if knocks and seed % 2 else rng.choice(legal))
        _probe(hand.check, [GinAction.pass_()], found)
    match = GinMatch(GinRules(target=1), seed=1)
    rng = random.Random(1)
    while not match.is_over:
        legal = match.legal_actions()
        match.apply(next((a for a in legal if a.kind == "knock"), rng.choice(legal)))
    _probe(match.check, [GinAction.pass_()], found)
    return found


def _rami_probes(rnd: RamiRound, rng: random.Random) -> list[RamiAction]:
    """Actions of every kind, most of them illegal now."""
    hand = list(rnd.hands[rnd.current_player])
    picks = rng.sample(hand, min(3, len(hand)))
    targets = range(len(rnd.table) + 1)
    actions = [
        RamiAction.draw_stock(),
        RamiAction.take_discard(),
        RamiAction.end_play(),
        RamiAction.open([picks]),
        RamiAction.meld(picks),
        RamiAction.take_discard(RamiAction.meld(picks)),
        *(RamiAction.discard(card) for card in picks),
        *(RamiAction.layoff(card, target) for card in picks[:2] for target in targets),
        *(RamiAction.swap_joker(card, target) for card in picks[:2] for target in targets),
        *(RamiAction.swap_joker(picks[0], target, joker_target=0) for target in targets),
    ]
    if rnd.taken_card is not None:
        actions.append(RamiAction.discard(rnd.taken_card))
    return actions


def _rami_refusals() -> list[IllegalActionError]:
    found: list[IllegalActionError] = []
    rule_sets = [
        RamiRules(),
        RamiRules(end_joker_shifts=True, rami_sec_exempt_opening=True),
        RamiRules(discard_must_be_melded=True, opening_requires_pure_run=True),
        RamiRules(discard_from_second_round=True, play_after_open_same_turn=False),
        RamiRules(mandatory_final_discard=True, one_card_must_draw_stock=True),
    ]
    for seed in range(20):
        rules = rule_sets[seed % len(rule_sets)]
        rnd = new_round(rules, 2 + seed % 3, seed=seed)
        bots = [RamiRandomBot(seed * 7 + seat) for seat in range(rnd.players)]
        rng = random.Random(seed)
        while not rnd.is_over:
            seat = rnd.current_player
            if rng.random() < PROBED:
                _probe(rnd.check, _rami_probes(rnd, rng), found)
            rnd.apply(bots[seat].act(rnd.observation(seat), rnd.legal_actions()))
        _probe(rnd.check, [RamiAction.draw_stock()], found)
    game = RamiGame(RamiRules(end_mode="rounds", rounds=1), 2, seed=1)
    bots = [RamiRandomBot(seat) for seat in range(2)]
    while not game.is_over:
        seat = game.current_player
        game.apply(bots[seat].act(game.observation(seat), game.legal_actions()))
    _probe(game.check, [RamiAction.draw_stock()], found)
    return found


def _carousel_layouts(hand: CarouselHand, rng: random.Random) -> list[list[list[Card]]]:
    """Whole new tables, most of them illegal: they drop a table card, add nothing, add
    a meld of random hand cards, name a card nobody holds, or lay an undeclared joker."""
    table = [list(meld) for meld in hand.table]
    own = hand.hand_cards(hand.current_player)
    held = {card.face for card in own}
    stranger = next(Card(face) for face in range(JOKER_FACE) if face not in held)
    picks = rng.sample(own, min(3, len(own)))
    layouts = [
        [*table, picks],
        [*table, [own[0], own[0], own[0]]],
        [*table, [stranger, stranger, stranger]],
        [*table, [Card(JOKER_FACE), *picks[:2]]],
        table,
    ]
    if table:
        layouts.append([table[0][1:], *table[1:], picks])
    return layouts


def _probe_layouts(
    hand: CarouselHand, layouts: list[list[list[Card]]], found: list[IllegalActionError]
) -> None:
    """The layout rule's own refusals (the engine reports them as ``illegal_layout``)."""
    seat = hand.current_player
    own = hand.hand_cards(seat)
    for layout in layouts:
        try:
            new_table = resolve_layout(hand.table, own, layout, seat)
            check_layout(
                hand.table,
                new_table,
                own,
                rules=hand.rules.meld_rules,
                decks=hand.decks,
                joker_copy_limit=hand.rules.joker_copy_limit,
            )
        except IllegalActionError as error:
            found.append(error)


def _carousel_refusals() -> list[IllegalActionError]:
    found: list[IllegalActionError] = []
    rule_sets = [CarouselRules(), CarouselRules(meld_after_last_draw=True, knock_limit=0)]
    for seed in range(12):
        rules = rule_sets[seed % len(rule_sets)]
        hand = new_carousel_hand(rules, players=2 + seed % 3, seed=seed)
        bots = [CarouselRandomBot(seed * 7 + seat, rules=rules) for seat in range(hand.players)]
        rng = random.Random(seed)
        while not hand.is_over:
            seat = hand.current_player
            if rng.random() < PROBED:
                layouts = _carousel_layouts(hand, rng)
                moves = [CarouselAction.draw(), CarouselAction.end_turn(), CarouselAction.knock()]
                _probe(hand.check, [*moves, *map(CarouselAction.meld, layouts)], found)
                _probe_layouts(hand, layouts, found)
            hand.apply(bots[seat].act(hand.observation(seat), hand.legal_actions()))
        _probe(hand.check, [CarouselAction.draw()], found)
    game = CarouselGame(CarouselRules(target=1), players=2, seed=1)
    bots = [CarouselRandomBot(seat) for seat in range(2)]
    while not game.is_over:
        seat = game.current_player
        game.apply(bots[seat].act(game.observation(seat), game.legal_actions()))
    _probe(game.check, [CarouselAction.draw()], found)
    return found


REFUSALS: dict[str, Callable[[], list[IllegalActionError]]] = {
    "gin": _gin_refusals,
    "rami": _rami_refusals,
    "carousel": _carousel_refusals,
}


@pytest.mark.parametrize("game", GAMES)
def test_refusals_cite_a_known_rule_of_their_game(game: str) -> None:
    found = REFUSALS[game]()
    for error in found:
        _check_refusal(game, error)
    codes = {error.code for error in found}
    # The probes reach most refusals of the engine, not only the common ones.
    assert len(codes) >= 0.6 * len(_codes()[game]), sorted(codes)
