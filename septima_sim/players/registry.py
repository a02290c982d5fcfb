"""Name -> policy factory, and the named lineups of ``content/lineups.toml``: how configs refer to players."""

from __future__ import annotations

import importlib
import re
import tomllib
from collections.abc import Callable
from functools import partial
from importlib.metadata import entry_points
from pathlib import Path
from typing import cast

from septima_sim.engine.decisions import Policy
from septima_sim.players.greedy import GreedyPolicy
from septima_sim.players.heuristic import HeuristicPolicy
from septima_sim.players.ismcts import IsmctsPolicy, load_params
from septima_sim.players.lineup import Lineup
from septima_sim.players.random_policy import RandomPolicy
from septima_sim.players.search import SearchPolicy
from septima_sim.players.weights import Weights, load_personas
from septima_sim.plugin_guard import PluginError, PluginPolicy, decision_timeout

LINEUPS_FILE = Path(__file__).parent.parent / "content" / "lineups.toml"
SEARCH_BUDGET = 200
"""Simulations per card choice of ``search`` without a budget (``search:N`` sets N)."""
SEARCH_FALLBACK = "balanced"
"""The persona a search player delegates every non-card decision to, and that plays its simulations."""
SEARCH_HORIZON = 0
"""Search simulations stop at the end of the current season and score it as if the game ended there."""

ISMCTS_BUDGET = "100"
"""Iterations per decision of ``ismcts`` without a budget (``ismcts:N`` sets N, ``ismcts:Nms`` milliseconds)."""

POLICIES: dict[str, Callable[[], Policy]] = {"random": RandomPolicy}
"""Built-in persona names and their factories (heuristic personas register here too)."""

ENTRY_POINT_GROUP = "septima_sim.policies"
"""Installed packages register personas under this entry-point group: ``name = "package.module:Class"``."""
PLUGIN_PREFIX = "py:"
"""``py:module:Class`` names a Policy class importable from ``PYTHONPATH`` (see docs/extending.md)."""
PLUGIN_NAME = re.compile(r"^py:[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*:[A-Za-z_][A-Za-z0-9_]*$")
"""A plugin persona: ``py:`` + a dotted module path + ``:`` + a class name (identifiers only)."""


PERSONA_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
"""Persona names: lowercase letters, digits, ``-`` and ``_`` (they reach tables, reports and replay commands)."""


class UnknownPolicyError(ValueError):
    """A persona name that no factory is registered for (or that is not a valid name)."""


def register_personas(personas: dict[str, Weights]) -> None:
    """Register heuristic personas (e.g. from a user's TOML file, see ``weights.load_personas``) by name; a name
    outside ``PERSONA_NAME`` raises UnknownPolicyError."""
    bad = [name for name in personas if not PERSONA_NAME.match(name)]
    if bad:
        raise UnknownPolicyError(
            f"persona name {bad[0]!r} is not allowed (lowercase letters, digits, - and _, starting with a letter or "
            "digit, at most 64 characters)"
        )
    for name, weights in personas.items():
        POLICIES[name] = _persona(name, weights)


def _persona(name: str, weights: Weights) -> Callable[[], Policy]:
    """The factory of one heuristic persona."""
    return lambda: HeuristicPolicy(name, weights)


BUILTIN = load_personas()
register_personas(BUILTIN)
balanced_heuristic = partial(HeuristicPolicy, SEARCH_FALLBACK, BUILTIN[SEARCH_FALLBACK])
"""The built-in balanced heuristic: greedy's evaluation, ismcts's prior, and the rollout player of both."""
POLICIES["greedy"] = lambda: GreedyPolicy(balanced_heuristic(), balanced_heuristic)


def _learned(name: str = "learned") -> Policy:
    """``learned`` (greedy's look-ahead at the card choices the distilled chooser is not sure of, scored by the value
    model, ``players/learned.py``) or ``vsearch:N`` (search with the same model at the leaves: N/2 look-aheads per card
    choice shared by sequential halving over the heuristic's plausible cards, N * 0.16 at the draft, every spell taken
    and every close call)."""
    from septima_sim.learn.model import ModelError
    from septima_sim.players.learned import CONFIDENT, LearnedPolicy, default_chooser, default_model

    budget = 0
    if name != "learned":
        digits = name.partition(":")[2] or str(VSEARCH_BUDGET)
        if not (digits.isascii() and digits.isdigit()) or not 1 <= int(digits) <= 1_000_000:
            raise UnknownPolicyError(f"bad vsearch budget in {name!r}: use vsearch:N with N >= 1 look-aheads")
        budget = int(digits)
    try:
        model = default_model()
        chooser = None if budget else default_chooser()  # learned: no copy at the choices the chooser is sure of
    except ModelError as exc:
        raise UnknownPolicyError(f"persona {name!r}: {exc}") from None
    return LearnedPolicy(model, balanced_heuristic(), balanced_heuristic, budget, chooser, CONFIDENT)


POLICIES["learned"] = _learned


def _learned_fast() -> Policy:
    """``learned-fast``: learned with its look-ahead distilled into a card chooser (no copy of the game)."""
    from septima_sim.learn.model import ModelError
    from septima_sim.players.learned import LearnedPolicy, default_chooser, default_model

    try:
        model, chooser = default_model(), default_chooser()
    except ModelError as exc:
        raise UnknownPolicyError(f"persona 'learned-fast': {exc}") from None
    return LearnedPolicy(model, balanced_heuristic(), balanced_heuristic, chooser=chooser)


POLICIES["learned-fast"] = _learned_fast
VSEARCH_BUDGET = 50
"""Look-aheads per card choice of ``vsearch`` without a budget (``vsearch:N`` sets N)."""


def _ismcts(name: str) -> Policy:
    """``ismcts``, ``ismcts:N`` (iterations per decision) or ``ismcts:Nms`` (milliseconds per decision)."""
    budget = name.partition(":")[2] or ISMCTS_BUDGET
    ms = budget.endswith("ms")
    digits = budget[:-2] if ms else budget
    if not (digits.isascii() and digits.isdigit()) or not 1 <= int(digits) <= 1_000_000:
        raise UnknownPolicyError(
            f"bad ismcts budget in {name!r}: use ismcts:N (iterations) or ismcts:Nms (milliseconds), N >= 1"
        )
    n = int(digits)
    label = f"ismcts:{n}ms" if ms else f"ismcts:{n}"
    return IsmctsPolicy(label, 0 if ms else n, n if ms else 0, load_params(), balanced_heuristic)


def _installed() -> dict[str, object]:
    """Personas that installed packages register under the ``septima_sim.policies`` entry-point group (names that
    are not valid persona names are ignored)."""
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP) if PERSONA_NAME.match(ep.name)}


def policy_names() -> list[str]:
    """Every persona name a config or lineup may use (plus ``search:N``, ``ismcts:N``/``ismcts:Nms``, ``vsearch:N``
    and ``py:module:Class``)."""
    return sorted({*POLICIES, *_installed(), "search", "ismcts", "vsearch"})


def _instantiate(cls: object, name: str) -> Policy:
    """An instance of a plugin Policy class, checked against the Policy protocol; its ``name`` defaults to ``name``."""
    if not callable(cls):
        raise UnknownPolicyError(f"persona {name!r} does not name a class")
    try:
        policy = cls()
    except Exception as exc:  # a plugin's constructor is user code: report it as bad input
        raise UnknownPolicyError(f"persona {name!r} could not be created: {type(exc).__name__}: {exc}") from None
    missing = [m for m in ("reset", "choose") if not callable(getattr(policy, m, None))]
    if missing:
        raise UnknownPolicyError(f"persona {name!r} is not a Policy: it has no {' or '.join(missing)} method")
    own = getattr(policy, "name", None)
    if not isinstance(own, str) or not PERSONA_NAME.match(own):  # a plugin's own name must be a safe persona name
        policy.name = name
    return cast(Policy, policy)


def _unknown(name: str) -> UnknownPolicyError:
    return UnknownPolicyError(f"unknown persona {name!r} (known: {', '.join(policy_names())}, or py:module:Class)")


def _check_plugin_name(name: str) -> None:
    if not PLUGIN_NAME.match(name):
        raise UnknownPolicyError(f"bad plugin persona {name!r}: use py:module:Class (Python identifiers)")


def _plugin_class(name: str) -> object:
    """The class named ``py:module:Class`` (module importable from ``PYTHONPATH``)."""
    _check_plugin_name(name)
    module_name, _, class_name = name[len(PLUGIN_PREFIX) :].partition(":")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # ImportError, or an error raised while importing user code
        raise UnknownPolicyError(f"plugin persona {name!r}: cannot import {module_name!r} ({exc})") from None
    cls = getattr(module, class_name, None)
    if cls is None:
        raise UnknownPolicyError(f"plugin persona {name!r}: module {module_name!r} has no {class_name!r}")
    return cls


def plugin_instance(name: str) -> Policy:
    """A bare instance of the plugin persona ``name`` (``py:module:Class`` or an installed entry point), created in
    the calling process: the plugin's process (``players/isolated_child.py``), or this one when plugins play
    in-process. UnknownPolicyError if it cannot be imported or created, or is not a Policy."""
    if name.startswith(PLUGIN_PREFIX):
        return _instantiate(_plugin_class(name), name)
    installed = _installed().get(name)
    if installed is None:
        raise _unknown(name)
    try:
        cls = installed.load()  # type: ignore[attr-defined]
    except Exception as exc:
        raise UnknownPolicyError(f"installed persona {name!r} failed to load: {exc}") from None
    return _instantiate(cls, name)


def _plugin_policy(name: str) -> Policy:
    """A plugin persona as the engine plays it: in a process of its own (``players/isolated.py``), or, with
    ``SEPTIMA_PLUGINS_IN_PROCESS=1`` (unsafe: the plugin can reach the live game), in this process. Either way behind
    ``plugin_guard``: its faults and slow decisions are named as the plugin's."""
    from septima_sim.players.isolated import IsolatedPolicy, in_process

    try:
        timeout = decision_timeout()
    except PluginError as exc:  # a bad SEPTIMA_DECISION_TIMEOUT: bad input, reported before any game
        raise UnknownPolicyError(str(exc)) from None
    if in_process():
        return PluginPolicy(plugin_instance(name), name, timeout)
    return IsolatedPolicy(name, timeout)


def make_policy(name: str) -> Policy:
    """A fresh policy for the persona ``name``; raises UnknownPolicyError listing the known names."""
    if name == "search" or name.startswith("search:"):
        budget = name.partition(":")[2] or str(SEARCH_BUDGET)
        if not (budget.isascii() and budget.isdigit()) or int(budget) < 1:
            raise UnknownPolicyError(f"bad search budget in {name!r}: use search:N with N >= 1 simulations")
        return SearchPolicy(
            int(budget), make_policy(SEARCH_FALLBACK), partial(make_policy, SEARCH_FALLBACK), SEARCH_HORIZON
        )
    if name == "ismcts" or name.startswith("ismcts:"):
        return _ismcts(name)
    if name == "vsearch" or name.startswith("vsearch:"):
        return _learned(name)
    if name.startswith(PLUGIN_PREFIX):
        _check_plugin_name(name)
        return _plugin_policy(name)
    factory = POLICIES.get(name)
    if factory is not None:
        return factory()
    if name in _installed():
        return _plugin_policy(name)
    raise _unknown(name)


def builtin_lineups() -> dict[str, Lineup]:
    """The named lineups shipped in ``content/lineups.toml``: a list (one persona per seat) or ``{ pool = [...] }``."""
    with LINEUPS_FILE.open("rb") as f:
        return {name: Lineup.parse(value) for name, value in tomllib.load(f).items()}
