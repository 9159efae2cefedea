"""The live terminal display: figures from a status, and the conversation printed plainly
when stdout is not a terminal."""

from __future__ import annotations

import io

from rich.console import Console

from coach.live.recorder import LiveStatus
from coach.render.live import TerminalEvents, status_text


def status(**kw: object) -> LiveStatus:
    base = dict(elapsed_s=83.0, words=190, recent_wpm=182.0, fillers=4, last_filler="um",
                last_long_pause=(61.2, 63.5), silence_s=0.0, speaking=True, pending_s=0.0,
                nudge="slow down: 182 wpm (aim 100-165)")  # fmt: skip
    base.update(kw)
    return LiveStatus(**base)  # type: ignore[arg-type]


def test_status_text_shows_every_figure_and_the_nudge() -> None:
    text = status_text(status(), hint="Enter or Ctrl-C ends the talk").plain
    assert "speaking" in text and "1:23 elapsed" in text
    assert "pace 182 wpm" in text and "fillers 4 (last: um)" in text
    assert "last long pause 1:01 (2.3 s)" in text
    assert "slow down: 182 wpm" in text and text.endswith("Enter or Ctrl-C ends the talk")


def test_status_text_before_enough_words() -> None:
    quiet = status(recent_wpm=None, fillers=0, last_filler=None, nudge=None,
                   last_long_pause=None, speaking=False, pending_s=3.0)  # fmt: skip
    text = status_text(quiet).plain
    assert "listening" in text and "pace - wpm" in text and "fillers 0" in text
    assert "long pause" not in text and "transcribing 3 s behind" in text


def test_events_without_a_terminal_print_the_conversation() -> None:
    out = io.StringIO()
    events = TerminalEvents(Console(file=out, width=100, color_system=None), live=False)
    events.phase("talk", lambda: status())
    events.say("audience", "Why did 23 builds break?")
    events.say("you", "Missing tests.")
    events.note("talk ended (Enter)")
    events.end_phase()
    text = out.getvalue()
    assert "talk: listening" in text
    assert "audience: Why did 23 builds break?" in text and "you: Missing tests." in text
    assert "talk ended (Enter)" in text
