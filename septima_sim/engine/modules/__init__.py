"""Rules modules: the expansions and the solo opponent as ``Module`` objects behind one interface.

``MODULES`` (name -> ``ModuleSpec``) lists every module in hook order; ``GameConfig.modules`` names the enabled ones.
A new module is one file here (a ``Module`` subclass and its ``SPEC``), its content file, and one
``register_module`` call (see docs/extending.md). Modules outside the package are registered from the environment:
``SEPTIMA_MODULES="pkg.mod:SPEC,other:SPEC"`` (importable from ``PYTHONPATH``; worker processes inherit both).
"""

import importlib
import os

from septima_sim.engine.config import ConfigError
from septima_sim.engine.modules import omens, shapeshifting, widow
from septima_sim.engine.modules.base import HOOKS, BoundHooks, Module
from septima_sim.engine.modules.spec import (
    MODULES,
    Column,
    Component,
    ModuleSpec,
    flag_columns,
    register_module,
    toggled,
    unregister_module,
)

PLUGINS_ENV = "SEPTIMA_MODULES"
"""Environment variable naming the module specs to register: ``module:ATTRIBUTE`` (``SPEC`` if left out), joined
by commas."""


def register_plugins(value: str) -> list[str]:
    """Register the ``ModuleSpec`` objects that `value` names (the ``SEPTIMA_MODULES`` form); returns their names.
    A name that cannot be imported or is not a ModuleSpec is a ConfigError (bad input)."""
    names = []
    for ref in filter(None, (part.strip() for part in value.split(","))):
        module_name, _, attribute = ref.partition(":")
        try:
            spec = getattr(importlib.import_module(module_name), attribute or "SPEC")
        except (ImportError, AttributeError, ValueError) as exc:
            raise ConfigError(f"{PLUGINS_ENV}: cannot load {ref!r}: {exc}") from None
        if not isinstance(spec, ModuleSpec):
            raise ConfigError(f"{PLUGINS_ENV}: {ref!r} is not a ModuleSpec")
        try:
            register_module(spec)
        except ValueError as exc:
            raise ConfigError(f"{PLUGINS_ENV}: {exc}") from None
        names.append(spec.name)
    return names


for _spec in (shapeshifting.SPEC, widow.SPEC, omens.SPEC):
    register_module(_spec)
register_plugins(os.environ.get(PLUGINS_ENV, ""))

__all__ = [
    "HOOKS",
    "MODULES",
    "PLUGINS_ENV",
    "BoundHooks",
    "Column",
    "Component",
    "Module",
    "ModuleSpec",
    "flag_columns",
    "register_module",
    "register_plugins",
    "toggled",
    "unregister_module",
]
