"""A plugin persona in a process of its own (issue 27): the registry plays every plugin (``py:module:Class`` and
installed entry points) through ``IsolatedPolicy``, which sends its child (``players/isolated_child.py``) each
``reset`` (seat and random stream) and each ``(decision, sealed view)``, pickled over a socket pair, and reads back
an option index. The child never holds the live game: ``gc.get_referrers`` and frame walking there find only copies.

- Start: a fresh interpreter (``subprocess``: fork + exec, safe under threads and Dask workers; no ``fork`` of a
  process holding games). One child per plugin (name and import path) and thread of this process holds an instance
  of the plugin for each of its policies, so later games reuse it; it is closed at exit, and exits by itself if this
  process dies (``isolated_child``).
- Reproducible: the child's plugin draws from an exact copy of the seat's random stream (the engine gives that stream
  to the policy only), so an honest plugin plays the same games as in-process.
- The time limit is ``Connection.poll(timeout)`` here, on any thread: a late child is killed (a fresh one starts for
  the next game) and the game fails with the one line naming the plugin, as does a child that dies.
- ``SEPTIMA_PLUGINS_IN_PROCESS=1`` plays plugins in this process instead (faster to debug, unsafe: the plugin can
  reach the live game).
"""

from __future__ import annotations

import atexit
import copyreg
import io
import itertools
import os
import pickle
import signal
import socket
import subprocess
import sys
import threading
import weakref
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any

from septima_sim.content.model import Content
from septima_sim.engine.view import SealedView
from septima_sim.players import isolated_child as child_protocol
from septima_sim.players.registry import PERSONA_NAME, UnknownPolicyError
from septima_sim.plugin_guard import PluginError, late, plugin_fault

if TYPE_CHECKING:
    import random

    from septima_sim.engine.decisions import Decision
    from septima_sim.engine.view import PlayerView

IN_PROCESS_ENV = "SEPTIMA_PLUGINS_IN_PROCESS"
"""``1``: plugins play in this process (unsafe: they can reach the live game through gc or the call stack)."""
MAX_REPLY = 1 << 20
"""The longest reply read from a child (a fault's traceback included): a longer one is a crash."""
START_SECONDS = 30.0
"""Added to the limit for a plugin's creation: the child's interpreter starts and imports the package first."""
CLOSE_SECONDS = 2.0
"""How long a child closed at exit may take to leave before it is killed."""


def in_process() -> bool:
    """Whether ``SEPTIMA_PLUGINS_IN_PROCESS=1`` is set."""
    return os.environ.get(IN_PROCESS_ENV, "").strip() == "1"


class _Child:
    """One plugin process and this process's end of its socket pair. ``content`` is the content pack it holds (sent
    once, not with every view); ``dropped`` the handles of collected policies, forgotten in the child at
    the next ``new``; ``lock`` keeps one request and its reply together (a policy may play on several threads)."""

    __slots__ = ("__weakref__", "conn", "content", "dropped", "lock", "owner", "proc")

    def __init__(self) -> None:
        ours, theirs = socket.socketpair()
        with theirs:
            fd = theirs.fileno()
            command = [sys.executable, "-m", "septima_sim.players.isolated_child", str(fd)]
            self.proc = subprocess.Popen(command, pass_fds=(fd,))
        self.conn = Connection(ours.detach())
        self.owner = os.getpid()
        self.content: object = None
        self.dropped: list[int] = []
        self.lock = threading.Lock()
        self.conn.send_bytes(pickle.dumps(list(sys.path), protocol=pickle.HIGHEST_PROTOCOL))
        _LIVE.add(self)

    def ask(self, message: bytes, timeout: float) -> bytes | None:
        """Send a request; its reply, None when it does not come within ``timeout`` seconds (0 = wait for it), b""
        when the child is gone."""
        try:
            self.conn.send_bytes(message)
            if not self.conn.poll(timeout if timeout > 0 else None):
                return None
            return self.conn.recv_bytes(MAX_REPLY)
        except (EOFError, OSError):
            return b""

    def usable(self) -> bool:
        return self.owner == os.getpid() and not self.conn.closed and self.proc.poll() is None

    def kill(self, grace: float = 0.0) -> int:
        """Kill the child (after ``grace`` seconds to exit by itself); its exit code (negative: the signal that
        ended it)."""
        self.conn.close()
        _LIVE.discard(self)
        try:
            return self.proc.wait(grace)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()

    def close(self) -> None:
        """Let the child leave (it sees the pipe close), killed if it does not."""
        self.conn.close()
        try:
            self.proc.wait(CLOSE_SECONDS)
        except subprocess.TimeoutExpired:
            self.kill()

    def __del__(self) -> None:  # no policy holds it and its thread is gone: the child sees the pipe close and exits
        conn = getattr(self, "conn", None)  # unset if the process could not be started
        if conn is not None:
            conn.close()


_LIVE: weakref.WeakSet[_Child] = weakref.WeakSet()
"""Every child of this process, closed at exit."""
_LOCAL = threading.local()
"""Per thread: plugin (name, import path) -> the child its new policies are created in."""
_HANDLES = itertools.count()


def _child_for(key: tuple[str, tuple[str, ...]]) -> _Child:
    """This thread's child for a plugin, started if there is none or the last one was killed."""
    children: dict[tuple[str, tuple[str, ...]], _Child] = _LOCAL.__dict__.setdefault("children", {})
    child = children.get(key)
    if child is None or not child.usable():
        child = children[key] = _Child()
    return child


def _forget(handle: int, slot: list[_Child | None]) -> None:
    """A policy was collected: its instance in the child is dropped at the child's next ``new``."""
    child = slot[0]
    if child is not None:
        child.dropped.append(handle)


@atexit.register
def _close_all() -> None:
    """Every child sees its pipe close at once, then each gets ``CLOSE_SECONDS`` to leave."""
    children = [child for child in list(_LIVE) if child.owner == os.getpid()]
    for child in children:
        child.conn.close()
    for child in children:
        child.close()


def _ended(code: int) -> str:
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with code {code}"


def _known_content(content: object) -> tuple[Callable[[], object], tuple[()]]:
    return (child_protocol.known_content, ())


_KNOWN_CONTENT: dict[type, Callable[[Any], Any]] = {**copyreg.dispatch_table, Content: _known_content}
"""How a request pickles a content pack the child already holds: as a reference to the child's copy."""


def _request(*message: object) -> bytes:
    return pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)


class IsolatedPolicy:
    """A plugin persona playing in a process of its own; ``name`` is the plugin's own (what the games record),
    ``entry`` the persona name that names it in errors."""

    def __init__(self, entry: str, timeout: float) -> None:
        self.entry = entry
        self.timeout = timeout
        self._key = (entry, tuple(sys.path))
        self._handle = next(_HANDLES)
        self._slot: list[_Child | None] = [None]
        weakref.finalize(self, _forget, self._handle, self._slot)
        try:
            self.name = self._create()
        except PluginError as exc:  # its constructor crashed or hung its process
            raise UnknownPolicyError(str(exc)) from None

    def _create(self) -> str:
        """Create the plugin in this thread's child; the plugin's name."""
        child = self._slot[0] = _child_for(self._key)
        dropped, child.dropped = child.dropped, []
        limit = self.timeout + START_SECONDS if self.timeout > 0 else 0.0
        reply = self._ask(child, _request("new", self._handle, self.entry, dropped), "its creation", limit)
        text = reply[1:].decode(errors="replace")
        if reply[:1] == child_protocol.REFUSED:
            raise UnknownPolicyError(text)
        if reply[:1] != child_protocol.NAMED or not (text == self.entry or PERSONA_NAME.match(text)):
            raise self._unreadable(child, reply, "its creation")
        return text

    def _child(self) -> _Child:
        """The child holding the plugin; if that one was killed (a late or crashed call), the plugin is created
        again in a fresh one."""
        child = self._slot[0]
        if child is None or not child.usable():
            self._create()
            child = self._slot[0]
            assert child is not None
        return child

    def _ask(self, child: _Child, message: bytes, call: str, limit: float | None = None) -> bytes:
        """One request and its reply within ``limit`` seconds (default: the decision limit); a late or dead child is
        killed, a fault raised as the plugin's PluginError."""
        limit = self.timeout if limit is None else limit
        try:
            with child.lock:
                reply = child.ask(message, limit)
        except BaseException:  # interrupted while the child works: its reply would come out of turn
            self._drop(child)
            raise
        if reply is None:
            self._drop(child)
            raise late(self.entry, limit, call)
        if not reply:  # the pipe closed: the child is exiting (or was killed)
            code = self._drop(child, CLOSE_SECONDS)
            raise plugin_fault(self.entry, f"crashed in {call}: its process {_ended(code)}")
        if reply[:1] == child_protocol.FAULT:
            line, _, detail = reply[1:].decode(errors="replace").partition("\0")
            fault = PluginError(line)
            if detail:
                fault.add_note(f"in the plugin's process:\n{detail}")
            raise fault
        return reply

    def _drop(self, child: _Child, grace: float = 0.0) -> int:
        self._slot[0] = None
        return child.kill(grace)

    def _unreadable(self, child: _Child, reply: bytes, call: str) -> PluginError:
        self._drop(child)
        return plugin_fault(self.entry, f"sent an unreadable reply in {call}: {reply[:60]!r}")

    def reset(self, seat: int, rng: random.Random) -> None:
        for stream in (sys.stdout, sys.stderr):  # what this process printed comes before what the plugin prints
            if stream is not None:
                stream.flush()
        child = self._child()
        reply = self._ask(child, _request("reset", self._handle, seat, rng), "reset")
        if reply != child_protocol.READY:
            raise self._unreadable(child, reply, "reset")

    def choose(self, decision: Decision, view: PlayerView) -> int:
        if type(view) is not SealedView:
            raise TypeError(f"plugin persona {self.entry!r} plays with a SealedView, got {type(view).__name__}")
        child = self._child()
        buffer = io.BytesIO()
        pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
        if view.content is child.content:  # the child has this pack: it stands in for it (about 20 kB)
            pickler.dispatch_table = _KNOWN_CONTENT
        pickler.dump(("choose", self._handle, decision, view))
        message = buffer.getvalue()
        child.content = view.content
        call = f"choose ({decision.kind} decision)"
        reply = self._ask(child, message, call)
        text = reply[1:]
        if reply[:1] != child_protocol.ANSWER or not (text.isdigit() and len(text) < 10):
            raise self._unreadable(child, reply, call)
        index = int(text)
        if index >= len(decision.options):  # the guard in the child checked it: only a tampered child gets here
            raise self._unreadable(child, reply, call)
        return index
