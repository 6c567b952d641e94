"""Ctrl+C on the command line: one line on standard error and status 130, at any moment.

Imports nothing of the engine, so that the entry point can install the handler before
anything slow is imported (see ``__main__``); ``cli_io`` uses it around every command.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing is not imported: see below
if TYPE_CHECKING:
    import signal as _signal
    from types import FrameType
else:
    # The C module under ``signal`` (the same functions, typed as those of ``signal``):
    # ``signal`` and ``typing`` import ``enum`` and more, which take longer than the rest
    # of the way to this handler. ``os`` and ``sys`` are imported already at start-up.
    import _signal

# An interrupt follows the shell's signal convention (128 + N).
INTERRUPTED = 128 + _signal.SIGINT

# The process that runs the command, once its Ctrl+C handler is installed.
_command_pid: list[int] = []
# Whether a progress line is drawn on standard error and not yet ended (see cli_io).
progress_open: list[bool] = []


def _on_interrupt(signum: int, frame: FrameType | None) -> None:
    if os.getpid() not in _command_pid:
        os._exit(INTERRUPTED)  # a worker: the command itself says what happened
    # Straight to the descriptor: the signal may come in the middle of a write to
    # sys.stderr (a progress bar), whose buffer refuses a second writer.
    try:  # noqa: SIM105 (contextlib is not imported yet)
        os.write(2, b"\nerror: interrupted\n" if progress_open else b"error: interrupted\n")
    except OSError:
        pass  # nowhere to say it; the status still tells
    processes = sys.modules.get("multiprocessing")
    if processes is not None:
        # A worker that was about to wait for a lock when the signal came would wait
        # for ever (CPython checks signals only after the wait): end them all.
        for worker in processes.active_children():
            worker.kill()
    os._exit(INTERRUPTED)


def handle_interrupts() -> bool:
    """Make Ctrl+C end this process at once with one line and status 130; whether it does.

    Left alone when someone else decided what SIGINT does (a test runner, nohup), or when
    called outside the main thread. The entry point calls it before its imports.
    """
    current = _signal.getsignal(_signal.SIGINT)
    if current is _on_interrupt and os.getpid() in _command_pid:
        return True
    if current is not _signal.default_int_handler:
        return False
    # The command's process is named first: a Ctrl+C that comes as the handler is set is
    # handled at once, and would otherwise be taken for a worker's (status 130, nothing said).
    _command_pid[:] = [os.getpid()]
    try:
        _signal.signal(_signal.SIGINT, _on_interrupt)
    except ValueError:  # not the main thread
        _command_pid.clear()
        return False
    return True


def stop_handling_interrupts() -> None:
    """Give Ctrl+C back to Python (a ``KeyboardInterrupt``), as before ``handle_interrupts``."""
    _signal.signal(_signal.SIGINT, _signal.default_int_handler)
    _command_pid.clear()
