"""The one error path of the command line: every failure becomes one line on stderr and an exit code.

Exit codes: 0 ok, 1 ``check`` found a balance shift (only that), 2 bad input (a usage error of the CLI framework, a
config, content pack, run directory or baseline that cannot be used, a disk that is full or not writable, a plugin
persona that fails in ``play``), 3 some games raised, 70 an unexpected crash (rerun with ``--debug`` for the
traceback), 130 SIGINT, 143 SIGTERM (with an "interrupted" line saying how to continue).

Library warnings (joblib, optuna, matplotlib...) are not shown; ``--debug`` shows them.
"""

from __future__ import annotations

import errno
import sys
import traceback
import warnings
from collections.abc import Callable

import typer

BAD_INPUT = 2
INTERNAL_ERROR = 70
"""Exit code of an unexpected crash (EX_SOFTWARE), distinct from check's 1 = balance shift."""

_FILE_ERRNOS = frozenset(
    {
        errno.ENOSPC,
        errno.EDQUOT,
        errno.EACCES,
        errno.EPERM,
        errno.EROFS,
        errno.ENOENT,
        errno.ENOTDIR,
        errno.EISDIR,
        errno.EEXIST,
        errno.ENAMETOOLONG,
        errno.ELOOP,
        errno.EFBIG,
        errno.EMFILE,
    }
)
"""OSError numbers that describe the user's files or disk (bad input), not a bug."""


class UserError(ValueError):
    """Bad input found by the CLI itself: reported as one line, exit code 2."""


def parse_choices(
    option: str, what: str, text: str, allowed: tuple[str, ...], error: type[ValueError] = UserError
) -> list[str]:
    """A comma-separated option value (``--kinds witch,animal``) -> the names in the order given, each once;
    ``error`` naming an unknown one and the allowed ones."""
    names = [x.strip() for x in text.split(",") if x.strip()]
    if not names:
        raise error(f"{option}: give at least one of {', '.join(allowed)}")
    unknown = [x for x in names if x not in allowed]
    if unknown:
        raise error(f"{option}: unknown {what} {unknown[0]!r} (allowed: {', '.join(allowed)})")
    return list(dict.fromkeys(names))


def one_line(text: str) -> str:
    """A message on one line: line breaks become spaces, other control characters are shown escaped."""
    chars = (c if c.isprintable() else " " if c in "\n\r\t" else repr(c)[1:-1] for c in text)
    return " ".join("".join(chars).split())


_USER_ERRORS: tuple[tuple[str, str], ...] = (
    ("septima_sim.content", "ContentError"),
    ("septima_sim.engine.config", "ConfigError"),  # also when importing the engine failed (SEPTIMA_MODULES)
    ("septima_sim.experiment", "ExperimentError"),
    ("septima_sim.players", "PersonaError"),
    ("septima_sim.players", "UnknownPolicyError"),
    ("septima_sim.players", "UnknownDecisionError"),  # a rules module's decision kind the heuristic cannot answer
    ("septima_sim.regression", "RegressionInputError"),
    ("septima_sim.analysis", "RunDataError"),
    ("septima_sim.runner", "RunError"),
    ("septima_sim.cluster", "ClusterError"),
    ("septima_sim.store", "RunDirError"),
    ("septima_sim.run_lock", "RunLocked"),
    ("septima_sim.safe_path", "UnsafePath"),
    ("septima_sim.ablate", "AblateError"),
    ("septima_sim.tune", "TuneError"),
    ("septima_sim.ladder", "LadderError"),
    ("septima_sim.plugin_guard", "PluginError"),  # a plugin persona's fault in `play` (batch commands: exit 3)
)
"""(module, exception) pairs that mean bad input."""


def _user_errors() -> tuple[type[BaseException], ...]:
    """Every exception type that means bad input, among the modules loaded (one that was never imported cannot have
    raised, and importing it just to check would cost a second of start-up)."""
    found: list[type[BaseException]] = [UserError]
    for module, name in _USER_ERRORS:
        kind = getattr(sys.modules.get(module), name, None)
        if kind is not None:
            found.append(kind)
    return tuple(found)


def _framework_error(exc: BaseException) -> bool:
    """A usage error of typer (or of click, for a typer that still uses it): the framework's own exception types,
    recognised by what every version has in common, so no package the project does not declare is imported."""
    typer_error = getattr(typer, "TyperException", None)
    if typer_error is not None and isinstance(exc, typer_error):
        return True
    return any(cls.__name__ == "ClickException" for cls in type(exc).__mro__) and hasattr(exc, "format_message")


def _usage_line(exc: BaseException) -> str:
    message = one_line(exc.format_message())  # type: ignore[attr-defined]
    ctx = getattr(exc, "ctx", None)
    path = getattr(ctx, "command_path", None)
    return f"error: {message} (see: {path} --help)" if path else f"error: {message}"


def _classify(exc: BaseException) -> tuple[int, str]:
    """The exit code and the one line for an exception that ended a command."""
    if _framework_error(exc):
        return BAD_INPUT, _usage_line(exc)
    if isinstance(exc, _user_errors()):
        return BAD_INPUT, f"error: {one_line(str(exc))}"
    if isinstance(exc, OSError) and exc.errno in _FILE_ERRNOS:
        where = f"{exc.filename}: " if exc.filename else ""
        return BAD_INPUT, f"error: {one_line(where + (exc.strerror or str(exc)))}"
    detail = one_line(f"{type(exc).__name__}: {exc}")
    return INTERNAL_ERROR, f"error: internal error {detail} (run again with --debug for the traceback)"


def run_main(call: Callable[[], object], argv: list[str]) -> int:
    """Run the CLI (``call`` is the typer app in non-standalone mode) and return the process exit code."""
    from septima_sim.stopping import Interrupted, Terminated, exit_code, received_exit_code, sigterm_stops

    debug = "--debug" in argv
    try:
        # SIGTERM unwinds like Ctrl-C: locks released, partial files removed, exit 143
        with sigterm_stops(), warnings.catch_warnings():
            if not debug:
                warnings.simplefilter("ignore")  # library warnings are not the user's business (one line per error)
            code = call()
    except typer.Exit as exc:
        return exc.exit_code
    except Interrupted as exc:  # a command stopped after saving its work: its line says how to continue
        print(one_line(str(exc)), file=sys.stderr)
        return exc.exit_code
    except (typer.Abort, KeyboardInterrupt) as exc:
        print("interrupted", file=sys.stderr)
        return exit_code(exc) if isinstance(exc, Terminated) else received_exit_code()
    except Exception as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":  # bare `septima-sim` or `septima-sim run --help`-like
            exc.show()  # type: ignore[attr-defined]
            return BAD_INPUT
        code, line = _classify(exc)
        if debug:
            traceback.print_exc()
        print(line, file=sys.stderr)
        return code
    if code == 130:  # the framework turned a KeyboardInterrupt (or SIGTERM's Terminated) into exit code 130
        print("interrupted", file=sys.stderr)
        return received_exit_code()
    return code if isinstance(code, int) else 0
