"""The heuristic player: scores every legal option with a transparent, cheap evaluation driven by persona weights.

Each option gets a value in Wisdom units: Wisdom now, the expected Wisdom of what it gains (resources, potions, track
steps, citizens, ritual rows, spells), minus the cost of suspicion and of hunter risk; card choices add the expected
matching bonus (others' hands are public, the Septima's right marker is known) and progress toward the seat's own
Book of Divination goals. It reads only the ``PlayerView`` and never simulates the engine.

Modules: ``tables`` (static per-content lookups), ``valuation`` (the value model and the player's state),
``cards`` (card choice), the decision handlers by family (``movement``, ``brewing``, ``witches``, ``spells``,
``modules``) and ``policy`` (HeuristicPolicy: per-game setup and the dispatch by decision kind). The classes form one
chain of single inheritance, Valuation <- CardChoice <- MovementHandlers <- BrewingHandlers <- WitchHandlers <-
SpellHandlers <- ModuleHandlers <- HeuristicPolicy: each handler family only adds methods, and mypyc (see
``_build/targets.py``) compiles single inheritance only.
"""

from septima_sim.players.heuristic.policy import HeuristicPolicy, UnknownDecisionError

__all__ = ["HeuristicPolicy", "UnknownDecisionError"]
