"""septima-sim: headless simulator and balance analyser for the board game Septima."""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

__all__ = ["__version__", "load"]


def __getattr__(name: str) -> Any:
    """``septima_sim.load`` (the run reader) is imported on first use, so the engine never pulls in polars."""
    if name == "load":
        from septima_sim.store import load

        return load
    raise AttributeError(f"module 'septima_sim' has no attribute {name!r}")
