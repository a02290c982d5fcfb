"""Where experiment.py finds the Omen sweep until it reads ``engine.modules``: the Omens module lives in
``engine/modules/omens.py`` (this re-export goes once the consumers are rewired)."""

from septima_sim.engine.modules.omens import omen_sweep_sequences

__all__ = ["omen_sweep_sequences"]
