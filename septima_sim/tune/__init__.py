"""``septima-sim tune``: search content values (dotted ``[overrides]`` paths) with optuna until the designer's balance
targets are met, confirm the best candidates on fresh seeds, and write a patch and a report (docs/tune.md)."""

from septima_sim.tune.run import Result, TuneInterrupted, execute, prepare, reopen
from septima_sim.tune.schema import MAX_TRIALS, GamesRaised, TuneError

__all__ = ["MAX_TRIALS", "GamesRaised", "Result", "TuneError", "TuneInterrupted", "execute", "prepare", "reopen"]
