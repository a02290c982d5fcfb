"""Rules modules: the expansions and the solo opponent as ``Module`` objects behind one interface.

``MODULES`` (name -> ``ModuleSpec``) lists every module in hook order; ``GameConfig.modules`` names the enabled ones.
A new module is one file here (a ``Module`` subclass and its ``SPEC``), its content file, and one
``register_module`` call (see docs/extending.md).
"""

from septima_sim.engine.modules import omens, shapeshifting, widow
from septima_sim.engine.modules.base import HOOKS, BoundHooks, Module
from septima_sim.engine.modules.spec import MODULES, Column, ModuleSpec, register_module, unregister_module

for _spec in (shapeshifting.SPEC, widow.SPEC, omens.SPEC):
    register_module(_spec)

__all__ = [
    "HOOKS",
    "MODULES",
    "BoundHooks",
    "Column",
    "Module",
    "ModuleSpec",
    "register_module",
    "unregister_module",
]
