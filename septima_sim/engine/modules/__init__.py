"""Rules modules: the expansions and the solo opponent as ``Module`` objects behind one interface.

``MODULES`` (name -> ``ModuleSpec``) lists every module in hook order; ``GameConfig.modules`` names the enabled ones.
A new module is one file here (a ``Module`` subclass and its ``SPEC``), its content file, and one
``register_module`` call (see docs/extending.md). Modules outside the package are registered from installed
packages' entry points (group ``septima_sim.modules``, like players') and from the environment:
``SEPTIMA_MODULES="pkg.mod:SPEC,other:SPEC"`` (importable from ``PYTHONPATH``; worker processes inherit both).
"""

import importlib
import os
from collections.abc import Callable
from functools import partial
from importlib.metadata import entry_points

from septima_sim.engine.config import ConfigError
from septima_sim.engine.modules import omens, shapeshifting, widow
from septima_sim.engine.modules.base import HOOKS, BoundHooks, Module
from septima_sim.engine.modules.spec import (
    MODULES,
    Axis,
    Column,
    Component,
    ModuleSpec,
    flag_columns,
    owned_axes,
    register_module,
    toggled,
    unregister_module,
)

PLUGINS_ENV = "SEPTIMA_MODULES"
"""Environment variable naming the module specs to register: ``module:ATTRIBUTE`` (``SPEC`` if left out), joined
by commas."""


ENTRY_POINT_GROUP = "septima_sim.modules"
"""Installed packages register modules under this entry-point group: ``name = "package.module:SPEC"``."""


def _register(where: str, ref: str, load: Callable[[], object]) -> str:
    """Register the ``ModuleSpec`` that ``load`` returns; returns its name. A spec that cannot be loaded, is not a
    ModuleSpec or clashes with a registered one is a ConfigError naming ``where`` and ``ref`` (bad input)."""
    try:
        spec = load()
    except (ImportError, AttributeError, ValueError) as exc:
        raise ConfigError(f"{where}: cannot load {ref!r}: {exc}") from None
    if not isinstance(spec, ModuleSpec):
        raise ConfigError(f"{where}: {ref!r} is not a ModuleSpec")
    try:
        register_module(spec)
    except ValueError as exc:
        raise ConfigError(f"{where}: {exc}") from None
    return spec.name


def _attribute(module: str, name: str) -> object:
    return getattr(importlib.import_module(module), name)


def register_plugins(value: str) -> list[str]:
    """Register the ``ModuleSpec`` objects that `value` names (the ``SEPTIMA_MODULES`` form); returns their names.
    A name that cannot be imported or is not a ModuleSpec is a ConfigError (bad input)."""
    names = []
    for ref in filter(None, (part.strip() for part in value.split(","))):
        module_name, _, attribute = ref.partition(":")
        names.append(_register(PLUGINS_ENV, ref, partial(_attribute, module_name, attribute or "SPEC")))
    return names


def register_installed() -> list[str]:
    """Register the modules installed packages declare under ``ENTRY_POINT_GROUP``; returns their names."""
    where = f"entry point group {ENTRY_POINT_GROUP}"
    return [_register(where, f"{ep.name} = {ep.value}", ep.load) for ep in entry_points(group=ENTRY_POINT_GROUP)]


for _spec in (shapeshifting.SPEC, widow.SPEC, omens.SPEC):
    register_module(_spec)
register_installed()
register_plugins(os.environ.get(PLUGINS_ENV, ""))

__all__ = [
    "ENTRY_POINT_GROUP",
    "HOOKS",
    "MODULES",
    "PLUGINS_ENV",
    "Axis",
    "BoundHooks",
    "Column",
    "Component",
    "Module",
    "ModuleSpec",
    "flag_columns",
    "owned_axes",
    "register_installed",
    "register_module",
    "register_plugins",
    "toggled",
    "unregister_module",
]
