"""The process a plugin persona plays in (started by ``players/isolated.py``): it holds the plugin, a copy of its
random stream and, at each decision, the pickled copies of the ``Decision`` and the ``SealedView`` it was sent,
never the game (one process per plugin and thread of the parent, holding an instance per policy of the parent).
Whatever the plugin finds there, with ``gc.get_referrers``, ``gc.get_objects`` or by walking
``sys._getframe``, is this process's copies.

Requests (parent to child) are pickles: the parent is trusted. Replies (child to parent) are a tag byte and text,
never a pickle: the parent does not run anything the plugin sends. The plugin's calls run behind
``plugin_guard.PluginPolicy`` (its exceptions and bad answers become the one line naming the plugin); the time limit is
the parent's (it stops waiting and kills this process). The child exits when the parent closes the pipe, and when
the parent dies even while the plugin is busy (a watchdog thread sees the parent process change).
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
import threading
import time
import traceback
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from septima_sim.plugin_guard import PluginPolicy

NAMED = b"n"
"""Reply to ``new``: the plugin was created; the text is its name."""
REFUSED = b"u"
"""Reply to ``new``: the plugin cannot be created; the text is the one-line reason."""
READY = b"r"
"""Reply to ``reset``: reset returned."""
ANSWER = b"a"
"""Reply to ``choose``: the text is the option index (checked by the guard)."""
FAULT = b"f"
"""Reply to ``reset`` or ``choose``: the plugin's fault; the text is the one line, a NUL, then its traceback."""
WATCH_SECONDS = 0.25
"""How often the watchdog thread checks that the parent process is still alive."""


def _orphaned(parent: int) -> None:
    """Exit as soon as the parent is gone (the plugin may be busy and never read the closed pipe)."""
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os._exit(1)


def _flush() -> None:
    """The plugin's output reaches the user's terminal (or the parent's captured streams) before the answer."""
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()


def _fault(exc: BaseException) -> bytes:
    detail = "".join(traceback.format_exception(exc.__cause__ or exc))
    return FAULT + f"{exc}\0{detail}".encode(errors="replace")


_CONTENT: list[object] = [None]
"""The content pack of the last view received (the parent sends a pack once: ``known_content`` stands for it)."""


def known_content() -> object:
    """Unpickling a view whose content pack this process already holds (``isolated.IsolatedPolicy``)."""
    return _CONTENT[0]


def _handle(request: tuple[object, ...], plugins: dict[object, PluginPolicy]) -> bytes:
    """One ``reset`` or ``choose`` request of the plugin instance ``request[1]``: the reply to send."""
    from septima_sim.plugin_guard import PluginError

    plugin = plugins.get(request[1])
    if plugin is None:
        return FAULT + b"was not created in its process\0"
    try:
        if request[0] == "reset":
            plugin.reset(request[2], request[3])  # type: ignore[arg-type]
            return READY
        decision, view = request[2], request[3]
        _CONTENT[0] = view.content  # type: ignore[attr-defined]
        return ANSWER + str(plugin.choose(decision, view)).encode()  # type: ignore[arg-type]
    except PluginError as exc:
        return _fault(exc)


def serve(conn: Connection) -> None:
    """Answer requests until the parent closes the pipe. Each policy of the parent has an instance of the plugin
    here, by handle: ``("new", handle, entry, dropped)`` creates one (and forgets the handles of collected
    policies), ``("reset", handle, seat, rng)`` and ``("choose", handle, decision, view)`` call it."""
    from septima_sim.players.registry import UnknownPolicyError, plugin_instance
    from septima_sim.plugin_guard import PluginPolicy

    plugins: dict[object, PluginPolicy] = {}
    while True:
        try:
            request = pickle.loads(conn.recv_bytes())
        except (EOFError, OSError):
            return
        if request[0] == "new":
            for handle in request[3]:
                plugins.pop(handle, None)
            try:
                plugin = plugins[request[1]] = PluginPolicy(plugin_instance(request[2]), request[2], timeout=0.0)
                reply = NAMED + plugin.name.encode()
            except UnknownPolicyError as exc:
                reply = REFUSED + str(exc).encode(errors="replace")
        else:
            reply = _handle(request, plugins)
        _flush()
        conn.send_bytes(reply)


def main() -> None:
    """``python -m septima_sim.players.isolated_child FD``: FD is this end of the parent's socket pair."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's: it stops the run and closes this process
    threading.Thread(target=_orphaned, args=(os.getppid(),), daemon=True).start()
    conn = Connection(int(sys.argv[1]))
    try:
        sys.path[:] = pickle.loads(conn.recv_bytes())  # the parent's import path: the plugin imports as it would there
    except (EOFError, OSError):
        return
    serve(conn)


if __name__ == "__main__":  # run under its own name: requests refer to ``known_content`` of that module
    from septima_sim.players.isolated_child import main as main_of_the_module

    main_of_the_module()
