"""septima-sim: headless simulator and balance analyser for the board game Septima."""

__version__ = "0.1.0"
