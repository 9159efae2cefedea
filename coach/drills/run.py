"""Running a drill: record it through the recorder ``coach rehearse`` uses, score it, keep it.

The recording phase takes frames from a :class:`coach.live.inputs.VoiceInput` (the
microphone, or a file played as the virtual mic) into a
:class:`coach.live.recorder.TalkRecorder`, with the live figures on screen; the scoring is
the pure :mod:`coach.drills.scoring`; the result goes to the drill's folder
(``talk.wav``, ``report.json``) and to the history.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from coach.asr import Transcriber
from coach.drills import scoring
from coach.errors import CoachError
from coach.live.inputs import VoiceInput
from coach.live.recorder import LiveOptions, LiveStatus, TalkRecorder
from coach.report import ClipReport
from coach.stream import DeviceError

logger = logging.getLogger(__name__)

OPENING_S = 60.0
"""The opening drill listens this long after the first word, seconds (issue 10)."""


class NoSpeechError(CoachError):
    """The drill heard no speech: nothing to score."""


@dataclass
class DrillOptions:
    """How one drill run records and what it is judged against."""

    drill: str
    """"pauses", "pace" or "opening"."""
    live: LiveOptions = field(default_factory=LiveOptions)
    """Live capture and analysis options (the pace band is ``live.score.pace.band_wpm``)."""
    length_s: float = 120.0
    """The drill stops after this much audio, seconds (the opening: 60 s after the first
    word, at most)."""
    end_silence_s: float | None = 10.0
    """At a microphone, the drill ends after this much silence once speech was heard."""
    band_source: str = ""
    """Where the pace band came from, in words (the pace drill)."""


@dataclass
class DrillResult:
    """What one drill run produced."""

    drill: str
    """The drill's name."""
    prompt: str
    """The prompt talked on."""
    folder: Path
    """The drill's folder."""
    report: ClipReport
    """The recording's report (the same as `coach score` gives)."""
    score: Any
    """:class:`coach.drills.scoring.PausesScore`, ``PaceScore`` or ``OpeningScore``."""
    standing: scoring.Standing
    """The score against the earlier runs of the drill."""
    ended_by: str = ""
    """What ended the recording ("end of input", "Enter", "120 s"...)."""
    band_source: str = ""
    """Where the pace band came from (pace and opening)."""
    started: str = ""
    """Local start time, ISO 8601."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (the drill's report.json)."""
        return {
            "schema": 1,
            "kind": "drill",
            "drill": self.drill,
            "prompt": self.prompt,
            "started": self.started,
            "ended_by": self.ended_by,
            "band_source": self.band_source,
            "score": self.score.to_dict(),
            "standing": self.standing.to_dict(),
            "talk": self.report.to_dict(),
        }


def score_report(drill: str, report: ClipReport, *, band_wpm: tuple[float, float]) -> Any:
    """The score of ``drill`` on a report (pure)."""
    if drill == "pauses":
        return scoring.score_pauses(report)
    if drill == "pace":
        return scoring.score_pace(report, band_wpm=band_wpm)
    if drill == "opening":
        return scoring.score_opening(report, band_wpm=band_wpm)
    raise CoachError(f"unknown drill {drill!r}")


def record(
    voice: VoiceInput,
    transcriber: Transcriber,
    options: DrillOptions,
    *,
    wav_path: Path,
    stop: threading.Event,
    show: Callable[[Callable[[], LiveStatus] | None], Callable[[], None]] | None = None,
) -> tuple[ClipReport, str]:
    """Record one drill: frames until the input ends, ``stop`` is set (Enter), Ctrl-C, the
    drill's length, or (at a microphone) ``end_silence_s`` of silence.

    Args:
        voice: the microphone or the virtual mic.
        transcriber: the live recogniser.
        options: the drill's options.
        wav_path: where the recording is written as it comes.
        stop: set to end the drill now.
        show: starts the live display from a status function and returns what stops it
            (None: no display).

    Returns:
        The recording's report and what ended it.
    """
    recorder = TalkRecorder(transcriber, options.live, wav_path=wav_path)
    status = recorder.status
    if options.drill == "pace":
        band = options.live.score.pace.band_wpm

        def status() -> LiveStatus:  # the nudge line becomes the needle
            s = recorder.status()
            return dataclasses.replace(s, nudge=scoring.pace_needle(s.recent_wpm, band))

    hide = show(status) if show is not None else (lambda: None)
    ended_by = "end of input"
    first_speech_s: float | None = None
    try:
        for frame in voice.talk(stop):
            recorder.feed(frame)
            if first_speech_s is None and recorder.had_speech:
                first_speech_s = frame.start_s
            if options.drill == "opening" and first_speech_s is not None:
                if frame.end_s >= first_speech_s + OPENING_S:
                    ended_by = f"{OPENING_S:g} s after the first word"
                    break
            if frame.end_s >= options.length_s:
                ended_by = f"{options.length_s:g} s"
                break
            if (
                voice.live_device
                and options.end_silence_s is not None
                and recorder.had_speech
                and recorder.silence_s >= options.end_silence_s
            ):
                ended_by = f"{options.end_silence_s:g} s of silence"
                break
        if stop.is_set():
            ended_by = "Enter"
    except KeyboardInterrupt:
        ended_by = "Ctrl-C"
    except DeviceError as exc:
        ended_by = f"the microphone was lost ({exc})"
    except BaseException:
        hide()
        recorder.close()
        raise
    hide()
    report = recorder.finish(file=str(wav_path))
    return report, ended_by


def run_drill(
    voice: VoiceInput,
    transcriber: Transcriber,
    options: DrillOptions,
    *,
    folder: Any,
    prompt: str,
    previous: Sequence[float | None] = (),
    stop: threading.Event | None = None,
    show: Callable[[Callable[[], LiveStatus] | None], Callable[[], None]] | None = None,
) -> DrillResult:
    """Record, score and save one drill (not the history: the caller records it).

    Args:
        voice, transcriber, options, show: as :func:`record`.
        folder: a :class:`coach.live.folder.SessionFolder`.
        prompt: the prompt talked on.
        previous: the earlier scores of this drill, oldest first.
        stop: set to end the recording now (Enter).

    Raises:
        NoSpeechError: no speech was heard (the recording is kept in the folder).
    """
    started = dt.datetime.now().isoformat(timespec="seconds")
    report, ended_by = record(
        voice, transcriber, options, wav_path=folder.file("talk.wav"),
        stop=stop or threading.Event(), show=show,
    )  # fmt: skip
    if not report.ok or report.word_count == 0:
        raise NoSpeechError(
            f"no speech was heard in the drill ({report.error or 'no words'}); check the "
            "microphone level, or the --input recording"
        )
    band = options.live.score.pace.band_wpm
    score = score_report(options.drill, report, band_wpm=band)
    result = DrillResult(
        drill=options.drill, prompt=prompt, folder=folder.path, report=report, score=score,
        standing=scoring.standing(score.score, previous), ended_by=ended_by,
        band_source=options.band_source, started=started,
    )  # fmt: skip
    folder.write_json("report.json", result.to_dict())
    folder.write_text("transcript.md", f"# {options.drill} drill\n\n{report.transcript}\n")
    return result


def drill_record(result: DrillResult):  # type: ignore[no-untyped-def]
    """The history's record of a drill run."""
    from coach.history import DrillRecord

    r = result.report
    spoke = r.ok and r.word_count > 0
    return DrillRecord(
        started=result.started,
        drill=result.drill,
        prompt=result.prompt,
        folder=str(result.folder),
        score=result.score.score,
        duration_s=round(r.duration_s, 2) if r.duration_s > 0 else None,
        wpm=r.pace.wpm if spoke else None,
        fillers_per_min=r.fillers.per_minute if spoke else None,
        extra={
            "score": result.score.to_dict(),
            "ended_by": result.ended_by,
            "band_source": result.band_source,
        },  # fmt: skip
    )


def _clock(t: float) -> str:
    return f"{int(t // 60)}:{int(t % 60):02d}"


def result_lines(result: DrillResult) -> list[str]:
    """The drill's result as plain lines: the score, the figures behind it, and how it
    compares with the earlier runs (pure)."""
    s = result.score
    lines: list[str] = []
    if isinstance(s, scoring.PausesScore):
        lo, hi = s.pause_range_s
        if s.score is None:
            lines.append("Score: - (no filler and no pause to judge)")
        else:
            lines.append(
                f"Score: {s.score:.0%} of the moments you hesitated were silent pauses of "
                f"{lo:g}-{hi:g} s ({s.pauses_in_range} of {s.moments})"
            )
        at = ", ".join(_clock(t) for t in s.filler_times_s[:8])
        more = ", ..." if len(s.filler_times_s) > 8 else ""
        lines.append(f"Fillers left in: {s.fillers}" + (f" (at {at}{more})" if at else ""))
        lines.append(f"Pauses over {hi:g} s: {s.pauses_too_long}")
        if s.pauses_beside_fillers:
            lines.append(f"Pauses next to a filler (not counted): {s.pauses_beside_fillers}")
    elif isinstance(s, scoring.PaceScore):
        lo, hi = s.band_wpm
        n = len(s.windows)
        if s.score is None:
            lines.append("Score: - (under 5 s of speech to judge)")
        else:
            lines.append(
                f"Score: {s.score:.0%} of the 10 s windows inside {lo:g}-{hi:g} wpm "
                f"({s.windows_in_band} of {n})"
            )
        if result.band_source:
            lines.append(f"Band: {result.band_source}")
        marks = [
            f"{_clock(w.start_s)} {w.wpm:.0f}"
            + ("" if w.in_band else " fast" if w.wpm > hi else " slow")
            for w in s.windows
        ]
        if marks:
            lines.append("Windows (wpm): " + ", ".join(marks))
        lines.append(f"Pace over the drill: {s.wpm:.0f} wpm")
    elif isinstance(s, scoring.OpeningScore):
        judged = [c for c in s.checks if c.passed is not None]
        if s.score is None:
            lines.append("Score: - (too little speech to judge)")
        else:
            passed = sum(1 for c in judged if c.passed)
            lines.append(
                f"Score: {s.score:.0%} of the first minute's checks on target "
                f"({passed} of {len(judged)})"
            )
        for c in s.checks:
            mark = "-" if c.passed is None else "ok" if c.passed else "off"
            lines.append(f"  [{mark}] {c.message}")
    lines.append(f"Against your earlier runs: {result.standing.line(s.score)}")
    return lines
