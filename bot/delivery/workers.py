"""CPU work off the event loop: a small pool of worker processes, started on first use.

Drawing boards and searching for the computer's move are CPU work; in a thread
they would compete with the event loop for the GIL, so they run in worker
processes ("spawn": fresh interpreters, never forks of the bot's threads and
sockets).  ``processes=0`` runs the work in a thread instead (tests, tiny
machines).  If a worker dies, a new process takes its place and the call is tried once more.

No orphans: a worker never outlives the bot.  On Linux the kernel kills it when its parent dies
(``PR_SET_PDEATHSIG``); everywhere, a watcher thread in the worker ends it within
:data:`WATCH_SECONDS` of its parent's death (SIGKILL included).  Workers ignore SIGINT: a Ctrl-C in a
terminal reaches the whole process group, and it is the bot that stops its workers, after the work in
flight (:meth:`WorkerPool.stop`).

The bot talks to each worker over a socket pair the event loop itself watches (``add_reader``): a call is
pickled and written from the loop, and its answer read there when it arrives, length-prefixed frames both ways.
There is no executor thread in between: :class:`concurrent.futures.ProcessPoolExecutor` hands every call to a
feeder thread and every answer back through a manager thread, and on a busy machine each of those hand-offs
costs the event loop a thread switch (the GIL).  A worker whose socket closes has died: its calls fail with
:class:`WorkerDied`, and the pool starts a new process and tries once more.

Urgent work jumps the queue: a call made with ``urgent=True`` (a replay step button someone is waiting
for) runs in a process of its own, started on the first such call, so it never waits behind the backlog
of turn boards; ordinary calls are handed to their processes at most ``processes + 1`` at a time (the
rest wait on the event loop, in order).  Background work (``background=True``: a game's review) runs in
another process of its own, started on the first such call at the lowest CPU priority (``nice`` 19): it
never takes a place in the queue, and the operating system gives it only the time the live work leaves (on Linux
it is in the idle scheduling class as well, so live work waking up takes its core at once).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import ctypes
import logging
import multiprocessing
import multiprocessing.connection
import multiprocessing.process
import os
import pickle
import signal
import socket
import struct
import sys
import threading
import time
import traceback
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")
WATCH_SECONDS = 1.0  # how often a worker checks that its parent is alive
PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
BACKGROUND_NICENESS = 19  # the background process's CPU priority: the lowest
HEADER = struct.Struct("!Q")  # each frame: its length, then a pickle (a call, or its answer)
READ_SIZE = 256 * 1024  # bytes read from a worker's socket at a time (a board is 30-60 KB)


def _die_with(parent: int) -> None:
    """End this worker process when ``parent`` (the bot) dies, however it dies."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - no prctl: the watcher below still works
            pass
    if os.getppid() != parent:  # the bot died before the worker got this far
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="tabula-parent-watch", daemon=True).start()


def _start_worker(parent: int, initializer: Callable[[], None] | None, niceness: int = 0) -> None:
    """Set up a new worker process: die with the bot, leave Ctrl-C to the bot, yield the CPU by ``niceness``,
    then warm up."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if niceness and hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(niceness)
    if niceness >= BACKGROUND_NICENESS and hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_IDLE"):
        # Linux's idle class on top: the process runs only on a core nothing else wants, and a live game's work
        # waking up takes the core from it at once (a niced process keeps a core for a scheduler slice first).
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    _die_with(parent)
    if initializer is not None:
        initializer()


class WorkerDied(BrokenProcessPool):
    """The worker process running a call died (its socket closed) before answering."""


class RemoteTraceback(Exception):
    """The traceback of an error raised in a worker, as text (the error's ``__cause__``)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def _receive(connection: socket.socket, size: int) -> bytes | None:
    """Read exactly ``size`` bytes (``None`` once the bot's end is closed)."""
    parts = []
    while size:
        part = connection.recv(min(size, READ_SIZE))
        if not part:
            return None
        parts.append(part)
        size -= len(part)
    return b"".join(parts)


def _answer(call: bytes) -> bytes:
    """Run one pickled call; return its pickled answer: ``(True, value)`` or ``(False, error, traceback)``."""
    try:
        function, args = pickle.loads(call)
        return pickle.dumps((True, function(*args)), pickle.HIGHEST_PROTOCOL)
    except BaseException as error:  # everything goes back to the caller, as ProcessPoolExecutor does
        told = "".join(traceback.format_exception(error))
        try:
            return pickle.dumps((False, error, told), pickle.HIGHEST_PROTOCOL)
        except Exception:  # an error that does not pickle: its type and words
            return pickle.dumps((False, RuntimeError(f"{type(error).__name__}: {error}"), told))


def _serve(connection: socket.socket, parent: int, initializer: Callable[[], None] | None, niceness: int) -> None:
    """A worker process's life: set up, then answer calls one at a time until the bot closes its end."""
    _start_worker(parent, initializer, niceness)
    with connection:
        while True:
            header = _receive(connection, HEADER.size)
            call = _receive(connection, HEADER.unpack(header)[0]) if header is not None else None
            if call is None:
                return  # the bot stopped us (or died): nothing is waiting for an answer
            answer = _answer(call)
            try:
                connection.sendall(HEADER.pack(len(answer)) + answer)
            except OSError:
                return


class _Worker:
    """One worker process and the bot's end of its socket, watched by the event loop.

    Calls are answered in the order they were written; ``answers`` holds their futures in that order (a
    caller that gave up leaves its future cancelled there, and the answer is read and dropped).
    """

    def __init__(self, process: multiprocessing.process.BaseProcess, connection: socket.socket) -> None:
        self.process = process
        self.connection = connection
        self.loop = asyncio.get_running_loop()
        self.answers: collections.deque[asyncio.Future[Any]] = collections.deque()
        self.closed = False
        self._buffer = bytearray(READ_SIZE)  # what was read and not yet settled: buffer[start:end]
        self._start = self._end = 0
        self._unsent = bytearray()
        connection.setblocking(False)
        self.loop.add_reader(connection.fileno(), self._readable)

    def call(self, function: Callable[..., T], args: tuple[Any, ...]) -> asyncio.Future[T]:
        """Write one call; return the future of its answer."""
        frame = pickle.dumps((function, args), pickle.HIGHEST_PROTOCOL)
        future: asyncio.Future[T] = self.loop.create_future()
        if self.closed:
            future.set_exception(WorkerDied(f"worker {self.process.pid} is gone"))
            return future
        self.answers.append(future)
        self._write(HEADER.pack(len(frame)) + frame)
        return future

    def _write(self, data: bytes) -> None:
        if self._unsent:  # earlier bytes are still waiting for room: keep the order
            self._unsent += data
            return
        try:
            sent = self.connection.send(data)
        except BlockingIOError:
            sent = 0
        except OSError:
            self._gone()
            return
        if sent < len(data):
            self._unsent += data[sent:]
            self.loop.add_writer(self.connection.fileno(), self._writable)

    def _writable(self) -> None:
        try:
            sent = self.connection.send(self._unsent)
        except BlockingIOError:
            return
        except OSError:
            self._gone()
            return
        del self._unsent[:sent]
        if not self._unsent:
            self.loop.remove_writer(self.connection.fileno())

    def _readable(self) -> None:
        """Read what arrived (usually a whole answer at once) and settle every complete frame in it."""
        buffer = self._buffer
        if self._end == len(buffer):  # no room left: move the unread part to the front, or grow
            unread = self._end - self._start
            if self._start:
                buffer[:unread] = buffer[self._start : self._end]
            else:
                buffer.extend(bytes(len(buffer)))
            self._start, self._end = 0, unread
        try:
            got = self.connection.recv_into(memoryview(buffer)[self._end :])
        except BlockingIOError:
            return
        except OSError:
            got = 0
        if not got:
            self._gone()
            return
        self._end += got
        while self._end - self._start >= HEADER.size:
            size = HEADER.unpack_from(buffer, self._start)[0]
            begin = self._start + HEADER.size
            if self._end - begin < size:
                if begin + size > len(buffer):  # a frame bigger than the room after it: make room now
                    unread = self._end - self._start
                    buffer[:unread] = buffer[self._start : self._end]
                    if HEADER.size + size > len(buffer):
                        buffer.extend(bytes(HEADER.size + size - len(buffer)))
                    self._start, self._end = 0, unread
                return
            with memoryview(buffer) as view:
                frame = view[begin : begin + size]
                try:
                    self._settle(self.answers.popleft(), frame)
                finally:
                    frame.release()
            self._start = begin + size
        if self._start == self._end:
            self._start = self._end = 0

    @staticmethod
    def _settle(future: asyncio.Future[Any], frame: memoryview) -> None:
        if future.done():
            return  # its caller gave up waiting
        try:
            answer = pickle.loads(frame)
        except Exception as unreadable:
            future.set_exception(unreadable)
            return
        if answer[0]:
            future.set_result(answer[1])
            return
        raised = answer[1]
        raised.__cause__ = RemoteTraceback(answer[2])
        future.set_exception(raised)

    def _gone(self) -> None:
        """The socket closed: the process ended (or was stopped); its unanswered calls fail."""
        self.close()  # (the process is reaped by the next start, or by stop(): no thread of ours races for it)
        while self.answers:
            future = self.answers.popleft()
            if not future.done():
                future.set_exception(WorkerDied(f"worker {self.process.pid} died"))

    def close(self) -> None:
        """Stop watching the socket and close it: the worker ends after the call in hand (loop thread only)."""
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(Exception):
            self.loop.remove_reader(self.connection.fileno())
            self.loop.remove_writer(self.connection.fileno())
        self.connection.close()

    def hang_up(self) -> None:
        """Tell the worker to stop after the call in hand: shut our sending side (safe from any thread)."""
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_WR)


class _Group:
    """The processes of one kind of work (ordinary, urgent or background), started as calls need them."""

    def __init__(self, size: int, niceness: int = 0) -> None:
        self.size = size
        self.niceness = niceness
        self.workers: list[_Worker] = []

    def live(self) -> list[_Worker]:
        self.workers = [worker for worker in self.workers if not worker.closed]
        return self.workers


class WorkerPool:
    """Run picklable functions in ``processes`` worker processes (or a thread when 0)."""

    def __init__(self, name: str, processes: int, initializer: Callable[[], None] | None = None) -> None:
        self.name = name
        self.processes = processes
        self._initializer = initializer
        self._pool = _Group(processes)
        self._urgent = _Group(1)  # one process of its own for urgent work, on first use
        self._background = _Group(1, BACKGROUND_NICENESS)  # one niced process for background work, on first use
        self._stopped = False
        self._retired: list[_Worker] = []  # closed, and perhaps still finishing their call: stop() waits for them
        self.waiting = 0  # calls submitted and not yet answered (the metrics' queue depth)
        self.handed = 0  # ordinary calls handed to the processes and not yet answered
        self._queued: collections.deque[asyncio.Future[None]] = collections.deque()  # ordinary calls waiting

    def _start(self, group: _Group) -> _Worker:
        """Start one worker process of ``group``, connected by a socket pair."""
        context = multiprocessing.get_context("spawn")
        ours, theirs = socket.socketpair()
        process = context.Process(
            target=_serve,
            args=(theirs, os.getpid(), self._initializer, group.niceness),
            name=f"tabula-{self.name}",
            daemon=True,
        )
        try:
            process.start()
        finally:
            theirs.close()  # the worker holds its own copy: ours closing is how it learns we stopped
        worker = _Worker(process, ours)
        group.workers.append(worker)
        return worker

    def _worker(self, urgent: bool = False, background: bool = False) -> _Worker:
        """The process to hand a call to: an idle one, else a new one while there is room, else the least busy."""
        group = self._background if background else self._urgent if urgent else self._pool
        live = group.live()
        idle = next((worker for worker in live if not worker.answers), None)
        if idle is not None:
            return idle
        if len(live) < group.size:
            return self._start(group)
        return min(live, key=lambda worker: len(worker.answers))

    def _all(self) -> list[_Worker]:
        return [*self._pool.workers, *self._urgent.workers, *self._background.workers, *self._retired]

    def pids(self) -> list[int]:
        """The worker processes running now (none before the first call)."""
        running = [w.process for w in self._all() if not w.closed or w in self._retired]
        return sorted(p.pid for p in running if p.pid is not None and p.exitcode is None)

    def running_processes(self) -> list[multiprocessing.process.BaseProcess]:
        """Every worker process started and not yet known to be gone (stopped ones included until reaped)."""
        return [worker.process for worker in self._all()]

    async def run(self, function: Callable[..., T], *args: Any, urgent: bool = False, background: bool = False) -> T:
        """Return ``function(*args)``, computed in a worker; ``urgent`` work passes the ordinary calls waiting,
        ``background`` work runs in a process of its own at the lowest CPU priority, beside the others."""
        self.waiting += 1
        try:
            if self.processes <= 0:
                return await self._run(function, *args)
            if background:
                return await self._run(function, *args, background=True)
            if urgent:
                return await self._run(function, *args, urgent=True)
            await self._turn()
            try:
                return await self._run(function, *args)
            finally:
                self._release()
        finally:
            self.waiting -= 1

    async def _turn(self) -> None:
        """Wait until fewer than ``processes + 1`` ordinary calls are in the processes' hands."""
        if self.handed <= self.processes and not self._queued:
            self.handed += 1
            return
        ticket = asyncio.get_running_loop().create_future()
        self._queued.append(ticket)
        try:
            await ticket  # the slot is counted for us by whoever woke us
        except BaseException:
            if ticket.done() and not ticket.cancelled():
                self._release()  # woken and cancelled at once: pass the slot on
            else:
                with contextlib.suppress(ValueError):
                    self._queued.remove(ticket)
            raise

    def _release(self) -> None:
        """An ordinary call is answered: hand its slot to the next one waiting."""
        while self._queued:
            ticket = self._queued.popleft()
            if not ticket.done():
                ticket.set_result(None)  # the slot passes on: ``handed`` stays
                return
        self.handed -= 1

    async def _run(self, function: Callable[..., T], *args: Any, urgent: bool = False, background: bool = False) -> T:
        if self.processes <= 0:
            return await asyncio.to_thread(function, *args)
        if self._stopped:
            raise WorkerDied(f"the {self.name} workers were stopped")
        try:
            return await self._worker(urgent, background).call(function, args)
        except WorkerDied:
            if self._stopped:
                raise
            log.warning("a %s worker died; starting a new one and trying again", self.name)
            return await self._worker(urgent, background).call(function, args)

    def close(self) -> None:
        """Stop the workers (work in progress is abandoned); call from the event loop's thread."""
        for group in (self._pool, self._urgent, self._background):
            for worker in group.live():
                worker.close()  # the process ends once its call in hand is done
                while worker.answers:
                    worker.answers.popleft().cancel()
                self._retired.append(worker)
            group.workers = []

    def stop(self, timeout: float = 2.0) -> None:
        """Stop the workers and wait until they are gone: they are told to stop, then killed after ``timeout``.

        Called when the bot stops, after the work in flight was finished or given up; from any thread (the
        bot calls it in a thread, so the event loop never waits): it only shuts the sockets' sending side and
        waits for the processes, leaving the sockets to the event loop, which sees them close.
        """
        self._stopped = True
        workers = self._all()
        for worker in workers:
            worker.hang_up()
        processes = [worker.process for worker in workers if worker.process.pid is not None]
        deadline = time.monotonic() + timeout
        running = {process.sentinel: process for process in processes}
        while running and time.monotonic() < deadline:
            for sentinel in multiprocessing.connection.wait(list(running), max(0.0, deadline - time.monotonic())):
                running.pop(sentinel)  # type: ignore[call-overload, arg-type, unused-ignore]
        for process in running.values():
            process.kill()  # cannot be ignored: wait for it to end (a loaded machine may take seconds)
        if running:
            multiprocessing.connection.wait(list(running), 5.0)
        for process in processes:
            with contextlib.suppress(OSError, ValueError, AssertionError):
                # Reap it, so no zombie is left: with a timeout, join waits on the sentinel and then blocks in
                # waitpid (with 0 it would not, and an exiting process can close its sentinel before it is reapable).
                process.join(1.0)
