"""The small error hierarchy of coach.

Every message says what went wrong and what to do about it; the CLI prints it as one line
on stderr and exits non-zero.
"""

from __future__ import annotations


class CoachError(Exception):
    """Base class of every error coach reports to the user."""

    exit_code: int = 1


class AudioError(CoachError):
    """An input file is missing, unreadable, not audio, truncated or empty."""

    exit_code = 2


class ModelError(CoachError):
    """A model is missing, corrupt or cannot be loaded."""

    exit_code = 3


class ModelFetchError(ModelError):
    """Fetching or verifying a default model failed."""


class OptionsError(CoachError):
    """An option has a value outside its allowed range."""

    exit_code = 2


def one_line(exc: BaseException) -> str:
    """An error as one line for the user: a :class:`CoachError`'s message as it is, anything
    else as its type and the first line of its message ("RuntimeError: out of memory")."""
    if isinstance(exc, CoachError):
        return str(exc)
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text.splitlines()[0]}" if text else type(exc).__name__
