"""The live terminal display of a rehearsal: figures refreshed about once a second while
the person speaks, and the conversation printed line by line.

:func:`status_text` is pure (a :class:`coach.live.recorder.LiveStatus` to lines of text), so the
display is tested without a terminal; :class:`TerminalEvents` puts it on screen with
``rich.live.Live`` when stdout is a terminal, and prints only the conversation otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.text import Text

from coach.live.recorder import LiveStatus
from coach.render.common import clock
from coach.report import ClipReport


def status_text(status: LiveStatus, *, hint: str = "") -> Text:
    """The live figures as text: speaking or not, elapsed, pace, fillers, last long pause,
    then the nudge (if any) and the hint."""
    text = Text()
    text.append("● speaking" if status.speaking else "○ listening",
                style="bold green" if status.speaking else "dim")  # fmt: skip
    text.append(f"   {clock(status.elapsed_s)} elapsed")
    pace = f"{status.recent_wpm:.0f} wpm" if status.recent_wpm is not None else "- wpm"
    text.append(f"   pace {pace}")
    last = f" (last: {status.last_filler})" if status.last_filler else ""
    text.append(f"   fillers {status.fillers}{last}")
    if status.last_long_pause is not None:
        a, b = status.last_long_pause
        text.append(f"   last long pause {clock(a)} ({b - a:.1f} s)")
    if status.pending_s >= 2:
        text.append(f"   transcribing {status.pending_s:.0f} s behind", style="dim")
    if status.nudge:
        text.append("\n" + status.nudge, style="bold yellow")
    if hint:
        text.append("\n" + hint, style="dim")
    return text


class TerminalEvents:
    """Session events on a rich console (see :class:`coach.live.events.Events`)."""

    def __init__(self, console: Console | None = None, *, live: bool | None = None) -> None:
        self.console = console or Console()
        self.live = self.console.is_terminal if live is None else live
        self._live: Any = None

    def phase(self, name: str, status: Callable[[], LiveStatus] | None, prompt: str = "") -> None:
        self.end_phase()
        hint = ("Enter or Ctrl-C ends the talk" if name == "talk"
                else "pause to finish your answer; Enter ends it now")  # fmt: skip
        if not self.live or status is None:
            self.console.print(f"[bold]{name}[/bold]: listening", highlight=False)
            return
        from rich.live import Live

        def render() -> Panel:
            return Panel(status_text(status(), hint=hint), title=name, title_align="left")

        self._live = Live(get_renderable=lambda: Group(render()), console=self.console,
                          refresh_per_second=1, transient=True)  # fmt: skip
        self._live.start()

    def end_phase(self) -> None:
        if self._live is not None:
            self._live.stop()
            self._live = None

    def say(self, who: str, text: str) -> None:
        style = {"audience": "bold cyan", "you": "bold"}.get(who, "bold")
        self.console.print(Text.assemble((f"{who}: ", style), text), highlight=False)

    def note(self, text: str) -> None:
        self.console.print(Text(text, style="dim"), highlight=False)

    def talk_report(self, report: ClipReport, script: Any) -> None:
        from coach.render.session import print_script
        from coach.render.text import print_reports

        self.end_phase()
        print_reports([report], self.console)
        if script is not None:
            print_script(script, self.console)
