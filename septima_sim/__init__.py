"""septima-sim: headless simulator and balance analyser for the board game Septima."""

from __future__ import annotations

from typing import Any

from septima_sim._build import native as _native

__version__ = "0.1.0"

__all__ = ["__version__", "build_info", "load"]

# Compiled (mypyc) or pure Python is decided here, before any other submodule is imported (see _build/native.py).
_BUILD = _native.decide()
_native.install(_BUILD)


def build_info() -> _native.BuildInfo:
    """What this process runs: the mypyc-compiled modules or pure Python (``str()`` of it says which, and why)."""
    return _BUILD


def __getattr__(name: str) -> Any:
    """``septima_sim.load`` (the run reader) is imported on first use, so the engine never pulls in polars."""
    if name == "load":
        from septima_sim.store import load

        return load
    raise AttributeError(f"module 'septima_sim' has no attribute {name!r}")
