"""What every command of the command line shares: reading input, and failing in one line.

A command reads a game record with ``read_record`` (never more than the record size limit
plus one byte, so ``/dev/zero`` or an endless pipe cannot exhaust memory or time), writes
with ``write_line``, and reports anything it refuses by raising ``ValueError`` (or
``CommandError``). ``run_command`` turns every failure into one bounded, printable line on
standard error and an exit status, never a traceback.
"""

from __future__ import annotations

import argparse
import math
import os
import signal
import stat
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NoReturn

from .days import check_hands, machine_today
from .game import GameState
from .interrupts import INTERRUPTED, handle_interrupts, progress_open, stop_handling_interrupts
from .messages import LANGUAGES
from .record import MAX_RECORD_BYTES, RecordError, parse_record

# An error line is cut to this many characters, as the worker protocol cuts its messages.
MAX_ERROR_CHARS = 300
# The longest line a person may type in answer to a prompt.
MAX_TYPED_CHARS = 1000

# Exit statuses. A closed pipe follows the shell's signal convention (128 + N), as an
# interrupt does (INTERRUPTED, from interrupts).
BAD_INPUT = 2
FAILED = 1
BROKEN_PIPE = 128 + signal.SIGPIPE


class CommandError(ValueError):
    """A command that cannot do what was asked; its message becomes the error line."""

    status = BAD_INPUT


class OutputError(CommandError):
    """Standard output cannot be written (a full disk, a closed descriptor)."""

    status = FAILED


class ArgumentParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are raised, to be reported as one line."""

    def error(self, message: str) -> NoReturn:
        raise CommandError(f"{message}; see {self.prog} --help")

    def print_help(self, file: Any = None) -> None:
        # argparse would swallow a failed write: a full disk must not pass for success.
        if file is None:
            write_text(self.format_help())
        else:
            file.write(self.format_help())


def choice(kind: str, options: Sequence[str]) -> Callable[[str], str]:
    """An argparse ``type`` accepting one of ``options``; the refusal lists them all."""

    def check(text: str) -> str:
        if text not in options:
            raise argparse.ArgumentTypeError(
                f"unknown {kind} {text!r} ({kind}s: {', '.join(options)})"
            )
        return text

    return check


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """An argparse ``type`` accepting a whole number from ``low`` to ``high``, checked
    before any work starts; the refusal names the range."""

    def check(text: str) -> int:
        digits = text.strip().lstrip("+-")
        value = int(text) if digits.isascii() and digits.isdigit() and len(text) <= 30 else None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"{one_line(repr(text), 40)} is not a whole number from {low:,} to {high:,}")
        return value

    return check


def seconds(high: float) -> Callable[[str], float]:
    """An argparse ``type`` accepting a number of seconds above 0 and at most ``high``."""

    def check(text: str) -> float:
        try:
            value = float(text) if len(text) <= 30 else math.nan
        except ValueError:
            value = math.nan
        if not 0 < value <= high:  # also refuses nan
            raise argparse.ArgumentTypeError(
                f"{one_line(repr(text), 40)} is not a number of seconds above 0 and at most "
                f"{high:g}")
        return value

    return check


def add_lang(parser: argparse.ArgumentParser) -> None:
    """The ``--lang`` option of a command that talks to people: the language of its words."""
    parser.add_argument(
        "--lang", type=choice("language", LANGUAGES), default="en", metavar="LANG",
        help=f"the language of what it says: {', '.join(LANGUAGES)} (default: %(default)s)",
    )


def one_line(message: str, limit: int = MAX_ERROR_CHARS) -> str:
    """The message as one printable line of at most ``limit`` characters.

    Control characters (a newline in a file name, say) and undecodable bytes are escaped.
    A long message loses its middle, where a quoted input is, and keeps the reason at its end.
    """
    printable = "".join(
        c if c.isprintable() else c.encode("unicode_escape", "backslashreplace").decode("ascii")
        for c in message
    )
    if len(printable) <= limit:
        return printable
    tail = limit // 3
    return printable[: limit - tail - 1] + "…" + printable[-tail:]


def read_limited(path: str, limit: int, what: str = "the input") -> bytes:
    """The bytes of a file, or of standard input for ``-``; more than ``limit`` is refused.

    Reads at most ``limit + 1`` bytes, so an endless source costs no more than a full one.
    """
    try:
        if path == "-":
            if sys.stdin is None:
                raise CommandError("cannot read standard input: it is closed")
            data = sys.stdin.buffer.read(limit + 1)
            size = _file_size(sys.stdin.buffer)
        else:
            with open(path, "rb") as handle:
                data = handle.read(limit + 1)
                size = _file_size(handle)
    except OSError as exc:
        name = "standard input" if path == "-" else path
        raise CommandError(f"cannot read {name}: {exc.strerror or exc}") from None
    if len(data) > limit:
        amount = f"{size} bytes" if size is not None else f"more than {limit} bytes"
        raise CommandError(f"{what} is {amount}; the limit is {limit}")
    return data


def _file_size(handle: Any) -> int | None:
    # A regular file knows its size; a pipe or a device such as /dev/zero does not.
    try:
        info = os.fstat(handle.fileno())
    except (OSError, ValueError):
        return None
    return info.st_size if stat.S_ISREG(info.st_mode) else None


def read_record(path: str) -> GameState:
    """Read and check a game record from a file, or standard input for ``-``; a game holding
    a hand of a later day's deal is refused (``days.check_hands``: ``NotDealtYet``)."""
    try:
        data = read_limited(path, MAX_RECORD_BYTES, "game record")
    except CommandError as exc:
        raise RecordError(str(exc)) from None
    state = parse_record(data)
    check_hands(state.deck, machine_today())
    return state


def write_line(text: str = "") -> None:
    """Print a line of the command's output; a failed write raises ``OutputError``."""
    write_text(text + "\n")


def write_text(text: str) -> None:
    """Write text to standard output at once; a closed pipe raises ``BrokenPipeError``."""
    if sys.stdout is None:
        raise OutputError("cannot write the output: standard output is closed")
    with _output_errors():
        sys.stdout.write(text)
        sys.stdout.flush()


@contextmanager
def _output_errors() -> Iterator[None]:
    try:
        yield
    except BrokenPipeError:
        raise  # not an error: the reader has gone
    except OSError as exc:
        raise OutputError(f"cannot write the output: {exc.strerror or exc}") from None


def read_line(prompt: str) -> str:
    """A line typed on standard input, after the prompt; ``EOFError`` at the end of input.

    A line longer than ``MAX_TYPED_CHARS`` is refused: no person types that, and reading
    it whole (from ``/dev/zero``, say) could fill the memory.
    """
    write_text(prompt)
    if sys.stdin is None:
        raise CommandError("cannot read standard input: it is closed")
    line = sys.stdin.readline(MAX_TYPED_CHARS + 2)
    if not line:
        raise EOFError
    line = line.removesuffix("\n")
    if len(line) > MAX_TYPED_CHARS:
        raise CommandError(f"a typed line is longer than {MAX_TYPED_CHARS} characters")
    return line


def show_progress(text: str, finished: bool) -> None:
    """Draw ``text`` over the progress line on standard error; a finished one ends the line.
    Ctrl+C meanwhile says its line below it, not at its end."""
    if sys.stderr is None:
        return
    progress_open[:] = [True]  # before the write: a Ctrl+C during it starts a line of its own
    sys.stderr.write("\r" + text + ("\n" if finished else ""))
    sys.stderr.flush()
    if finished:
        progress_open[:] = []


def progress_bar(done: int, total: int) -> None:
    """A progress bar of boards on standard error (``match``)."""
    filled = 30 * done // total
    show_progress(f"[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} boards", done == total)


def print_error(message: str) -> None:
    """Write ``error: message`` as one bounded line on standard error, if it can be written."""
    if sys.stderr is None:
        return
    try:
        sys.stderr.write(one_line(f"error: {message}") + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass  # nowhere left to say it; the exit status still tells


def run_command(command: Callable[[], int]) -> int:
    """Run a command; return its status, or report its failure in one line and return that."""
    try:
        with _exit_on_interrupt():
            try:
                status = command()
            except SystemExit as exc:  # --help prints, then exits
                status = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
            if sys.stdout is not None:
                with _output_errors():
                    sys.stdout.flush()
    except BrokenPipeError:
        # The reader has gone (``| head``): stop quietly, as a process killed by SIGPIPE does.
        return _drop_output(BROKEN_PIPE)
    except KeyboardInterrupt:
        print_error("interrupted")
        return INTERRUPTED
    except OutputError as exc:
        print_error(str(exc))
        return _drop_output(exc.status)
    except (CommandError, ValueError) as exc:
        print_error(str(exc))
        return exc.status if isinstance(exc, CommandError) else BAD_INPUT
    except RecursionError:
        print_error("the input is nested too deeply")
        return BAD_INPUT
    except MemoryError:
        print_error("out of memory")
        return FAILED
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        print_error(f"{where}{exc.strerror or exc}")
        return FAILED
    except Exception as exc:  # a bug: still one line, naming it, rather than a traceback
        print_error(f"internal error: {type(exc).__name__}: {exc}")
        return FAILED
    return status


def _drop_output(status: int) -> int:
    # Python flushes stdout again at exit and would print "Exception ignored": point the
    # descriptor at /dev/null first, as the docs on SIGPIPE recommend.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (AttributeError, OSError, ValueError):
        pass  # stdout is not a real file (a test's capture, or already closed)
    return status


@contextmanager
def _exit_on_interrupt() -> Iterator[None]:
    """Ctrl+C ends the command at once: one line from it, and nothing from its workers.

    Ctrl+C reaches every process of the command, including the worker processes of
    ``match --jobs``, which are forked with this handler. Unwinding a process pool after an
    interrupt races with the pool's own threads (and may wait for a board to finish), so
    the command exits straight away; its output so far is already written line by line.
    """
    if not handle_interrupts():
        yield
        return
    try:
        yield
    finally:
        stop_handling_interrupts()
