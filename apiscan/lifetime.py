"""Process lifetime: signals, child processes that die with their parent, and output that is
either complete or absent.

Every subcommand runs under :func:`run_guarded`: SIGINT exits 130 and SIGTERM 143, each with
one line on stderr and no traceback; a report that cannot be written (full disk, closed pipe)
exits 2 with one line. Worker processes call :func:`die_with_parent` so that killing the main
process (even with SIGKILL) never leaves them running. Reports are written with
:func:`write_output`: to a temporary file renamed into place, so a failed write leaves no
empty or partial report behind.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import stat
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

#: Exit codes of the conventional shells: 128 + the signal's number.
EXIT_SIGINT = 130
EXIT_SIGTERM = 143
EXIT_FATAL = 2

_PR_SET_PDEATHSIG = 1


class Terminated(BaseException):
    """Raised in the main thread by SIGTERM (a BaseException, like KeyboardInterrupt, so
    that ``except Exception`` clean-up code does not swallow it)."""


class OutputError(Exception):
    """The report could not be written; the message is the one line to print."""


def _on_sigterm(signum: int, frame: object) -> None:
    raise Terminated


def _quiet_pool_teardown(args: threading.ExceptHookArgs) -> None:
    """Thread errors go to Python's default hook, except one: when a signal interrupts a
    scan, CPython 3.11's ProcessPoolExecutor management thread may try to set an exception
    on a future the interrupted main thread already cancelled and dies with
    ``InvalidStateError`` (fixed in later CPython releases). That traceback says nothing
    about the user's run and would break the one-line promise, so it is dropped."""
    from concurrent.futures import InvalidStateError

    if isinstance(args.exc_value, InvalidStateError):
        return
    threading.__excepthook__(args)


def run_guarded(name: str, body: Callable[[], int]) -> int:
    """Run a subcommand: SIGTERM/SIGINT → 143/130 with one line, a failed write → 2."""
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, _on_sigterm)
    threading.excepthook = _quiet_pool_teardown
    stdout, stderr = sys.stdout, sys.stderr
    if stderr is None:  # started with stderr closed (2>&-): warnings go nowhere
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 (stays open until exit)
    sys.stdout = _GuardedStdout(stdout if stdout is not None else _Closed())  # type: ignore[assignment]
    try:
        code = body()
        write_output("", None)  # flush: a full or closed stdout is reported here, once
        return code
    except KeyboardInterrupt:
        _say(f"{name}: interrupted")
        return EXIT_SIGINT
    except Terminated:
        _say(f"{name}: terminated")
        return EXIT_SIGTERM
    except OutputError as exc:
        _say(f"{name}: error: {exc}")
        return EXIT_FATAL
    except BrokenPipeError:
        _silence_stdout()
        _say(f"{name}: error: cannot write the report to standard output: the reader is gone")
        return EXIT_FATAL
    finally:
        sys.stdout, sys.stderr = stdout, stderr
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


class _GuardedStdout:
    """stdout whose write errors (full disk, closed pipe: raised by whichever write fills
    the buffer) become :class:`OutputError`, reported as one line by :func:`run_guarded`."""

    def __init__(self, stream: object) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)  # type: ignore[attr-defined,no-any-return]
        except OSError as exc:
            raise _stdout_error(exc) from exc

    def flush(self) -> None:
        try:
            self._stream.flush()  # type: ignore[attr-defined]
        except OSError as exc:
            raise _stdout_error(exc) from exc

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)


class _Closed:
    """Standard output when the process was started with it closed (``>&-``): Python then
    has no ``sys.stdout`` at all. Writing to it is the same fault as writing to a closed
    pipe, reported as one line (exit 2)."""

    def write(self, text: str) -> int:
        if not text:
            return 0
        raise OSError(errno.EBADF, "standard output is closed")

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


def _stdout_error(exc: OSError) -> OutputError:
    _silence_stdout()
    if isinstance(exc, BrokenPipeError):
        return OutputError("cannot write the report to standard output: the reader is gone")
    return OutputError(f"cannot write the report to standard output: {exc.strerror or exc}")


def exit_now(code: int) -> None:
    """End the program after a signal: flush what was said, kill any child process still
    running, and exit without running exit hooks (``concurrent.futures`` joins its pools'
    threads there, which may wait on workers a signal interrupted)."""
    import multiprocessing

    for child in multiprocessing.active_children():
        with contextlib.suppress(OSError):
            child.kill()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)


def finish(code: int) -> None:
    """End the program once its report is written: flush the output and exit without the
    interpreter's teardown (freeing every object of a scan one by one: a quarter of a second
    after a medium repository's report). Only when no child process is left, whose exit
    hooks would join it, and no thread Python would wait for; else return and let Python exit
    as usual. Only for the command line's entry point: a library caller keeps its
    interpreter."""
    # multiprocessing is imported by whatever starts a child: not imported, none was started
    multiprocessing = sys.modules.get("multiprocessing")
    if (multiprocessing is not None and multiprocessing.active_children()) or any(
        t.is_alive() and not t.daemon and t is not threading.main_thread()
        for t in threading.enumerate()
    ):
        return  # a child or a thread Python's exit would wait for
    for stream in (sys.stdout, sys.stderr):
        if stream is None:  # started with the descriptor closed
            continue
        try:
            stream.flush()
        except (OSError, ValueError):
            return  # let Python's own exit report what it cannot write
    os._exit(code)


def _say(line: str) -> None:
    with contextlib.suppress(OSError, ValueError):
        print(line, file=sys.stderr, flush=True)


def _silence_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's final flush of what could not be
    written raises nothing more (Python would print "Exception ignored ...")."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def write_output(text: str, output: str | os.PathLike[str] | None) -> None:
    """Write a whole report to ``output`` (a path) or to stdout (``None``).

    A file is written next to its destination under a temporary name and renamed over it,
    so readers never see a partial report and a failure leaves no empty file. Stdout is
    flushed here, so a full disk or a closed pipe is reported now, as one line
    (:class:`OutputError`), and not as a traceback at interpreter exit.
    """
    if output is None:
        try:
            sys.stdout.write(text)
            sys.stdout.flush()
        except OSError as exc:
            raise _stdout_error(exc) from exc
        return
    target = Path(output)
    try:
        mode = os.stat(target).st_mode  # follows a symlink to what it names
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise OutputError(f"cannot write {output}: {exc.strerror or exc}") from exc
    if mode is not None and not stat.S_ISREG(mode):
        # a device, FIFO or directory (``-o /dev/null``, ``-o /dev/stdout``, a named pipe):
        # renaming over it would replace /dev/null itself with a regular file
        _write_in_place(text, target)
        return
    if target.is_symlink():
        target = Path(os.path.realpath(target))  # replace the file, keep the link
    import tempfile  # only a report written to a file needs it (~6 ms to import)

    tmp: str | None = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if target.exists():
            with contextlib.suppress(OSError):
                os.chmod(tmp, target.stat().st_mode & 0o7777)
        else:
            with contextlib.suppress(OSError):
                os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, target)
        tmp = None
    except OSError as exc:
        raise OutputError(f"cannot write {output}: {exc.strerror or exc}") from exc
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _write_in_place(text: str, target: Path) -> None:
    try:
        with open(target, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
    except OSError as exc:
        raise OutputError(f"cannot write {target}: {exc.strerror or exc}") from exc


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


@contextlib.contextmanager
def signals_deferred() -> Iterator[None]:
    """Hold SIGINT/SIGTERM while worker processes are being forked: an exception raised
    half-way through a pool's start-up leaves a pool that can be neither used nor shut down
    (its ``with`` block then waits forever). The signal is delivered when the block ends,
    where the caller can stop the workers."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def die_with_parent(parent: int | None = None) -> None:
    """Make this (child) process end when its parent does, even if the parent is killed
    with SIGKILL: Linux's PR_SET_PDEATHSIG where available, else a watchdog thread that
    polls the parent's pid. Also leaves SIGINT to the parent (a Ctrl-C reaches the whole
    process group; the parent stops the workers) and restores SIGTERM's default.

    ``parent`` is the parent's pid as the parent saw it (``os.getpid()`` passed as an
    initializer argument): a parent that died before this runs is then noticed too."""
    if parent is None:
        parent = os.getppid()
    with contextlib.suppress(ValueError, OSError):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)  # see signals_deferred
    if sys.platform.startswith("linux") and _pdeathsig():
        if os.getppid() != parent:  # the parent died before the request took effect
            os._exit(1)
        return
    thread = threading.Thread(target=_watch, args=(parent,), name="apiscan-watchdog", daemon=True)
    thread.start()


def _pdeathsig() -> bool:
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch(parent: int) -> None:
    import time

    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)
