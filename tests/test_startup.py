"""Start-up stays lazy (issue #19): the modules of `septima-sim run` import neither numpy, scipy nor joblib (game seeds
in plain arithmetic, versions from package metadata, joblib only for more than one job, the end-of-run table with
polars alone), and `septima_sim.analysis` imports a submodule's names only when they are used."""

from __future__ import annotations

import subprocess
import sys

import pytest

import septima_sim.analysis as analysis

RUN_PATH = (
    "import sys, septima_sim.cli, septima_sim.rundir, septima_sim.runner, septima_sim.analysis.run_summary; "
    "print(sorted(m for m in ('numpy', 'scipy', 'joblib') if m in sys.modules))"
)


def test_the_run_command_s_modules_import_neither_numpy_scipy_nor_joblib() -> None:
    out = subprocess.run([sys.executable, "-c", RUN_PATH], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout


def test_every_name_the_analysis_package_exports_resolves() -> None:
    assert sorted(analysis._MODULE_OF) == sorted(analysis.__all__)
    for name in analysis.__all__:
        value = getattr(analysis, name)
        assert getattr(value, "__name__", name) == name


def test_an_unknown_analysis_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_function"):
        getattr(analysis, "no_such_function")  # noqa: B009


def test_a_game_of_built_in_players_imports_no_numpy() -> None:
    """The trust check lists the learned players among the built-ins; their model (numpy) loads only when one plays."""
    code = (
        "import sys; from septima_sim.engine import GameConfig, play_game; from septima_sim.content import "
        "load_content; from septima_sim.players import make_policy; play_game(GameConfig(2, 'full'), load_content(), "
        "[make_policy('balanced'), make_policy('random')], 1); print('numpy' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False", out.stdout
