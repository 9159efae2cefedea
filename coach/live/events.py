"""What a session tells the person as it goes: the terminal (coach.render.live), or nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from coach.live.recorder import LiveStatus
from coach.report import ClipReport


class Events(Protocol):
    """What the session tells the person as it goes (the terminal, or nothing in tests)."""

    def phase(self, name: str, status: Callable[[], LiveStatus] | None, prompt: str = "") -> None:
        """A phase starts ("talk", "answer 1"...); ``status`` gives live figures."""
        ...

    def say(self, who: str, text: str) -> None:
        """A line of the conversation ("audience", "you", "coach")."""
        ...

    def note(self, text: str) -> None:
        """A one-line note (warnings, what happens next)."""
        ...

    def talk_report(self, report: ClipReport, script: Any) -> None:
        """The talk's report is ready."""
        ...

    def end_phase(self) -> None:
        """The current phase is over (stop the live display)."""
        ...


class QuietEvents:
    """Events that go nowhere (tests, benchmarks); lines are kept in ``lines``."""

    def __init__(self) -> None:
        self.lines: list[tuple[str, str]] = []

    def phase(self, name: str, status: Callable[[], LiveStatus] | None, prompt: str = "") -> None:
        self.lines.append(("phase", name))

    def say(self, who: str, text: str) -> None:
        self.lines.append((who, text))

    def note(self, text: str) -> None:
        self.lines.append(("note", text))

    def talk_report(self, report: ClipReport, script: Any) -> None:
        self.lines.append(("report", report.file))

    def end_phase(self) -> None:
        pass
