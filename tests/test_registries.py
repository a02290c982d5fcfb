"""Content-keyed registries instead of string dispatch in the rules code (#14).

The rules code (``septima_sim/engine``) looks content ids up in registries built once (effects, Widow markers, crowd
picks, Practical uses, statistics, comparisons) or per content pack (triggered abilities, passive modifiers, potion
groups); it never branches on a content name. A scan of its syntax tree keeps it that way, the registries must agree
with the names a content pack may use, and the per-pack tables must answer what a walk over the abilities would.
"""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

import pytest

from septima_sim.content import Content
from septima_sim.content.model import PASSIVE_KINDS, STATS, WIDOW_EFFECTS, Effect
from septima_sim.content.schema.potions import USES
from septima_sim.engine import crowd_picks, effects, passives, stats
from septima_sim.engine.abilities import abilities
from septima_sim.engine.effects import trigger
from septima_sim.engine.modules.widow import MARKER_EFFECTS
from septima_sim.engine.potion_uses import POTION_USES
from tests.helpers import make_game

ENGINE = Path(__file__).resolve().parents[1] / "septima_sim" / "engine"

CONTENT_NAME_FIELDS = frozenset({"passive", "trigger", "use", "arg", "ability"})
"""Fields holding a content name: comparing one (with anything) is a lookup by name that belongs in a table."""

ALLOWED: dict[tuple[str, str], str] = {
    ("config.py", "self.mode not in ('full', 'basic')"): "the game mode of a config, checked once",
    ("config.py", "self.mode == 'full'"): "the game mode of a config",
    ("config.py", "self.mode != 'full'"): "the game mode of a config",
    ("config.py", "'shapeshifting' in names"): "the legacy GameConfig flags of the two expansions",
    ("config.py", "'omens' in names"): "the legacy GameConfig flags of the two expansions",
    ("game.py", "kind == 'action'"): "an output event's kind, not content",
    ("view.py", "g.s.step == 'select'"): "the search replay stops at the game's selection step (flow, not content)",
    ("crowd_picks.py", "g.s.step != 'crowd'"): "the trial phase's crowd picks (flow, not content): Empowering's limit",
    ("modules/shapeshifting.py", "record['kind'] == 'action'"): "an output event's kind, not content",
    ("modules/widow.py", "'shapeshifting' in g.config.modules"): "S9: the solo rule that reads whether a module is on",
    ("passives.py", "e.kind == 'passive'"): "building the per-pack table",
    ("tables.py", "pot.kind == 'remedy'"): "building the per-pack table",
    ("tables.py", "pot.kind == 'practical'"): "building the per-pack table",
    ("spells.py", "s.kind == 'scoring'"): "a spell's category (two values), a filter, not dispatch",
    ("spells.py", "s.kind == 'regular'"): "a spell's category (two values), a filter, not dispatch",
    ("scoring.py", "s.kind == 'scoring'"): "a spell's category (two values), a filter, not dispatch",
    ("ritual.py", "s.kind == 'regular'"): "a spell's category (two values), a filter, not dispatch",
    ("ritual.py", "s.requires in ('', played)"): "a spell's requirement against the action played",
    ("stats.py", "pot.kind == 'practical'"): "a potion's category (two values), a filter, not dispatch",
    ("modules/omens.py", "v.side == 'bright'"): "the observation field of the Omen half in force (two sides)",
    ("modules/omens.py", "v.side == 'dark'"): "the observation field of the Omen half in force (two sides)",
    ("modules/omens.py", "value == 'sweep'"): "the omen_deck axis' named values (an experiment setting, not content)",
    ("modules/omens.py", "value == 'random'"): "the omen_deck axis' named values (an experiment setting, not content)",
}
"""String comparisons the rules code may keep, with the reason (anything else fails the scan)."""


def _is_str(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_is_str(e) for e in node.elts)
    return False


def _names_content(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr in CONTENT_NAME_FIELDS


def string_comparisons(source: str) -> list[str]:
    """Every comparison in `source` against a string literal or of a content-name field, unparsed."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(_is_str(x) or _names_content(x) for x in operands):
                found.append(ast.unparse(node))
    return found


def dispatch_chains(source: str) -> list[str]:
    """If/elif chains that pick a branch by comparing one expression with two or more string literals."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.If):
            continue
        subjects = []
        branch: ast.stmt | None = node
        while isinstance(branch, ast.If):
            test = branch.test
            if isinstance(test, ast.Compare) and any(_is_str(c) for c in test.comparators):
                subjects.append(ast.unparse(test.left))
            branch = branch.orelse[0] if len(branch.orelse) == 1 else None
        if any(subjects.count(s) >= 2 for s in subjects):
            found.append(f"line {node.lineno}: if/elif on {subjects[0]}")
    return found


def _engine_sources() -> dict[str, str]:
    return {str(f.relative_to(ENGINE)): f.read_text() for f in sorted(ENGINE.rglob("*.py"))}


def test_the_scanner_finds_string_dispatch() -> None:
    sample = 'if e.kind == "chase":\n    a()\nelif e.kind == "take_patient":\n    b()\n'
    sample += "if ab.passive == name:\n    c()\n"
    assert dispatch_chains(sample) == ["line 1: if/elif on e.kind"]
    assert "ab.passive == name" in string_comparisons(sample)


def test_no_string_dispatch_in_the_rules_code() -> None:
    chains = {f: dispatch_chains(src) for f, src in _engine_sources().items()}
    assert {f: c for f, c in chains.items() if c} == {}
    comparisons = {(f, c) for f, src in _engine_sources().items() for c in string_comparisons(src)}
    # A reading switch (rules.toml [readings], #13) names one of a reading's documented values: a switch, not dispatch.
    switches = {(f, c) for f, c in comparisons if c.startswith("g.rules.readings.")}
    assert switches, "the reading switches are no longer compared here: drop this exemption"
    assert sorted(comparisons - set(ALLOWED) - switches) == []


def test_registries_cover_the_names_content_may_use() -> None:
    assert set(MARKER_EFFECTS) == WIDOW_EFFECTS
    assert set(POTION_USES) | {"ritual-oil"} == set(USES)
    assert set(stats.PLAYER_STATS) | set(stats.GAME_STATS) | {"wisdom_lead"} == STATS
    assert crowd_picks.PICKS == ("potion", "ingredient", "move", "suspicion", "ready_spell")  # decision indices


@pytest.mark.parametrize("full", [True, False])
def test_passive_and_trigger_tables_answer_what_the_abilities_in_force_say(
    content: Content, full: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every pair of witches (plus a mirrored one) on many vertices, buildings on the board: the per-pack tables give
    the sums and limits a walk over ``abilities`` gives, and a trigger runs the effects the walk finds, in order."""
    g = make_game(content, players=2, mode="full" if full else "basic", isolate=False)
    ran: list[Effect] = []
    monkeypatch.setattr(effects, "_EFFECTS", {kind: lambda g, p, e: ran.append(e) for kind in effects._EFFECTS})
    p = g.s.players[0]
    n_witches = len(content.witches)
    checked = 0
    for coven in itertools.combinations(range(n_witches), 2):
        p.coven = list(coven)
        p.mirror = (coven[1] + 1) % n_witches
        for vertex in range(0, len(g.board.neighbours), 7):
            p.vertex = vertex
            in_force = abilities(g, p)
            for name in PASSIVE_KINDS:
                held = [ab for ab in in_force if ab.passive == name]
                assert passives.passive(g, p, name) == sum(ab.amount for ab in held)
                assert passives.passive_limit(g, p, name, 99) == min([99, *(ab.amount for ab in held)])
                assert passives.passive_limit(g, p, name, 99, True) == min([99, *(ab.amount2 for ab in held)])
            for when in {ab.trigger for ab in in_force} | {"play:collect"}:
                ran.clear()
                trigger(g, p, when)
                assert ran == [e for ab in in_force if ab.trigger == when for e in ab.effects]
            checked += 1
    assert checked > 100 and g.s.buildings
