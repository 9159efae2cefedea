"""End-of-utterance detection: cut a stream of frames into utterances as it arrives.

A small state machine in the manner of pipecat's VAD analyzer, driven by one webrtcvad
decision per frame::

    QUIET --speech--> STARTING --start_s of speech--> SPEAKING --silence--> STOPPING
      ^                  |                               ^                     |
      +----silence-------+                               +------speech---------+
      ^                                                                        |
      +------------------------- hangover_s of silence ------------------------+

A pause shorter than ``hangover_s`` inside a sentence returns STOPPING to SPEAKING, so it
does not split the utterance. Everything is timed by the frames' own ``start_s``, so a
recording gives the same utterances whether it is replayed in real time or at full speed.
Memory stays bounded: a ring buffer of ``pre_roll_s`` while quiet, and an utterance's
frames only while it is open (at most ``max_utterance_s`` plus the pre-roll).
"""

from __future__ import annotations

import enum
import logging
import math
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np

from coach import SAMPLE_RATE
from coach.errors import OptionsError
from coach.stream import AudioFrame
from coach.vad import VadOptions

logger = logging.getLogger(__name__)

DEFAULT_VAD_OPTIONS = VadOptions()
"""The VAD options used when none are given (30 ms frames, aggressiveness 2)."""

_EPS = 1e-6
"""Tolerance (s) when comparing times built from sample counts against options."""


@dataclass(frozen=True)
class EndpointOptions:
    """Timing of utterance start and end detection, in seconds."""

    start_s: float = 0.09
    """Continuous speech needed to open an utterance: three 30 ms webrtcvad frames, so a
    click does not open one (pipecat's start_secs is 0.2 s for its neural VAD; the pre-roll
    keeps the onset either way)."""
    hangover_s: float = 0.8
    """Silence that closes an utterance. Voice assistants end a turn after 0.5-1.0 s of
    silence; pipecat's VAD stop_secs defaults to 0.8 s. Sentence gaps (about 0.4 s) and
    short hesitations stay inside one utterance."""
    pre_roll_s: float = 0.3
    """Audio kept before the detected start, so a soft onset the VAD missed is not cut."""
    tail_s: float = 0.2
    """Audio kept after the end of speech (at most ``hangover_s``), for the ASR's sake."""
    min_utterance_s: float = 0.25
    """Utterances with less speech than this (start to end of speech) are dropped as
    noise (a cough, a door slam): shorter than a one-word answer."""
    max_utterance_s: float = 30.0
    """An utterance this long is cut (Whisper's window is 30 s): at the quietest unvoiced
    frame of its second half if there is one, otherwise at the limit itself."""

    def __post_init__(self) -> None:
        for name in (
            "start_s",
            "hangover_s",
            "pre_roll_s",
            "tail_s",
            "min_utterance_s",
            "max_utterance_s",
        ):
            value = getattr(self, name)
            if not (isinstance(value, int | float) and math.isfinite(value) and value >= 0):
                raise OptionsError(
                    f"endpoint {name} must be a number of seconds >= 0, not {value!r}"
                )
        if self.hangover_s <= 0:
            raise OptionsError(f"endpoint hangover_s must be > 0 s, not {self.hangover_s}")
        if self.tail_s > self.hangover_s:
            raise OptionsError(
                f"endpoint tail_s ({self.tail_s} s) must not exceed hangover_s "
                f"({self.hangover_s} s): the tail is taken from the hangover's silence"
            )
        if self.max_utterance_s <= max(self.min_utterance_s, self.start_s):
            raise OptionsError(
                f"endpoint max_utterance_s ({self.max_utterance_s} s) must exceed "
                "min_utterance_s and start_s; the default is 30 s"
            )


class EndpointState(enum.Enum):
    """Where the endpointer is between utterances."""

    QUIET = "quiet"
    """No speech; frames go to the pre-roll ring buffer."""
    STARTING = "starting"
    """Speech began but has not lasted ``start_s`` yet."""
    SPEAKING = "speaking"
    """Inside an utterance, the last frame was speech."""
    STOPPING = "stopping"
    """Inside an utterance, silence has lasted less than ``hangover_s`` so far."""


@dataclass(eq=False)
class Utterance:
    """One utterance cut from the stream, with its audio."""

    start_s: float
    """Start of speech (first voiced frame) in seconds since the stream began."""
    end_s: float
    """End of the utterance in seconds, excluding the hangover: the end of speech, or for a
    forced cut the cut point (the end of the quiet frame cut at, or the limit)."""
    samples: np.ndarray
    """int16 16 kHz mono audio from ``samples_start_s`` (pre-roll before ``start_s``) to
    at most ``speech_end_s + tail_s``."""
    samples_start_s: float
    """Time of ``samples[0]`` in seconds since the stream began (map ASR times with it)."""
    speech_end_s: float
    """End of the last voiced frame in seconds (equals ``end_s`` unless ``forced``)."""
    decided_s: float
    """End of the frame at which the end was decided, in seconds: about ``speech_end_s +
    hangover_s`` normally, the limit for a forced cut, the stream's end for a flush."""
    forced: bool = False
    """Cut because it reached ``max_utterance_s``, not by a pause."""

    @property
    def duration_s(self) -> float:
        """``end_s - start_s`` in seconds."""
        return self.end_s - self.start_s

    @property
    def samples_end_s(self) -> float:
        """Time just after the last sample, in seconds since the stream began."""
        return self.samples_start_s + self.samples.size / SAMPLE_RATE

    def float32(self) -> np.ndarray:
        """The audio as float32 in [-1, 1), shape ``(n,)``, as Whisper wants it."""
        return self.samples.astype(np.float32) / 32768.0


_Slot = tuple[AudioFrame, bool]
"""A frame and whether the VAD called it speech."""


def _rms(samples: np.ndarray) -> float:
    return float(np.sqrt(np.mean(np.square(samples, dtype=np.float64)))) if samples.size else 0.0


class Endpointer:
    """Decides, frame by frame, where utterances start and end.

    Feed it every frame of the stream in order with the VAD's decision; it returns the
    utterances that close on that frame (usually none, sometimes one, rarely two). Call
    :meth:`flush` at the end of the stream to close an open utterance.
    """

    def __init__(
        self,
        options: EndpointOptions = EndpointOptions(),
        vad_options: VadOptions = DEFAULT_VAD_OPTIONS,
    ) -> None:
        """Create an endpointer in the QUIET state.

        Args:
            options: Start, hangover, pre-roll, tail and length limits (s).
            vad_options: Only ``frame_ms`` is used: every pushed frame must be that long.
        """
        self.options = options
        """Timing options."""
        self.vad_options = vad_options
        """VAD options (for the frame length)."""
        self._frame_n = SAMPLE_RATE * vad_options.frame_ms // 1000
        frame_s = vad_options.frame_ms / 1000
        self._ring: deque[_Slot] = deque(maxlen=math.ceil(options.pre_roll_s / frame_s - _EPS))
        self._starting: list[AudioFrame] = []
        self._frames: list[_Slot] = []
        self._start_s = 0.0
        self._speech_end_s = 0.0
        self._state = EndpointState.QUIET

    @property
    def state(self) -> EndpointState:
        """The current state."""
        return self._state

    @property
    def buffered_s(self) -> float:
        """Audio held in memory right now, in seconds (pre-roll plus any open utterance)."""
        n = len(self._ring) + len(self._starting) + len(self._frames)
        return n * self._frame_n / SAMPLE_RATE

    def push(self, frame: AudioFrame, is_speech: bool) -> list[Utterance]:
        """Advance the state machine by one frame.

        Args:
            frame: The next frame of the stream (``vad_options.frame_ms`` long).
            is_speech: The VAD's decision for this frame.

        Returns:
            Utterances that closed on this frame, in order (usually empty).

        Raises:
            OptionsError: the frame's length does not match ``vad_options.frame_ms``.
        """
        if frame.samples.size != self._frame_n:
            raise OptionsError(
                f"frame of {frame.samples.size} samples but VadOptions.frame_ms is "
                f"{self.vad_options.frame_ms} ({self._frame_n} samples at 16 kHz): give the "
                "frame source the same frame_ms"
            )
        out: list[Utterance] = []
        opts = self.options
        state = self._state
        if state is EndpointState.QUIET:
            if is_speech:
                self._starting = [frame]
                self._state = EndpointState.STARTING
                self._maybe_open()
            else:
                self._ring.append((frame, False))
        elif state is EndpointState.STARTING:
            if is_speech:
                self._starting.append(frame)
                self._maybe_open()
            else:
                self._ring.extend((f, True) for f in self._starting)
                self._ring.append((frame, False))
                self._starting = []
                self._state = EndpointState.QUIET
        else:
            self._frames.append((frame, is_speech))
            if is_speech:
                self._speech_end_s = frame.end_s
                self._state = EndpointState.SPEAKING
            else:
                self._state = EndpointState.STOPPING
                if frame.end_s - self._speech_end_s >= opts.hangover_s - _EPS:
                    out.extend(self._close(decided_s=frame.end_s))
        if (
            self._state in (EndpointState.SPEAKING, EndpointState.STOPPING)
            and frame.end_s - self._start_s >= opts.max_utterance_s - _EPS
        ):
            out.extend(self._force_cut(frame))
        return out

    def flush(self) -> list[Utterance]:
        """End of stream: close an open utterance and reset to QUIET.

        Returns:
            The open utterance, if there was one with enough speech; speech still in
            STARTING (shorter than ``start_s``) is dropped.
        """
        out: list[Utterance] = []
        if self._state in (EndpointState.SPEAKING, EndpointState.STOPPING):
            decided = self._frames[-1][0].end_s if self._frames else self._speech_end_s
            out = self._close(decided_s=decided)
        self._ring.clear()
        self._starting = []
        self._frames = []
        self._state = EndpointState.QUIET
        return out

    # -- internals ---------------------------------------------------------------------

    def _maybe_open(self) -> None:
        first, last = self._starting[0], self._starting[-1]
        if last.end_s - first.start_s < self.options.start_s - _EPS:
            return
        self._frames = list(self._ring) + [(f, True) for f in self._starting]
        self._ring.clear()
        self._starting = []
        self._start_s = first.start_s
        self._speech_end_s = last.end_s
        self._state = EndpointState.SPEAKING

    def _close(self, *, decided_s: float) -> list[Utterance]:
        """Close the open utterance at its end of speech; QUIET afterwards."""
        opts = self.options
        frames = self._frames
        out: list[Utterance] = []
        hi = self._speech_end_s + opts.tail_s
        if frames:
            hi = min(hi, frames[-1][0].end_s)
        if self._speech_end_s - self._start_s >= opts.min_utterance_s - _EPS:
            out.append(
                self._build(
                    frames,
                    start_s=self._start_s,
                    end_s=self._speech_end_s,
                    speech_end_s=self._speech_end_s,
                    decided_s=decided_s,
                    hi=hi,
                    forced=False,
                )
            )
            self._ring.extend(s for s in frames if s[0].start_s >= hi - _EPS)
        else:
            logger.debug(
                "dropped %.2f s of speech at %.2f s (shorter than min_utterance_s)",
                self._speech_end_s - self._start_s,
                self._start_s,
            )
            self._ring.extend(frames)
        self._frames = []
        self._state = EndpointState.QUIET
        return out

    def _force_cut(self, frame: AudioFrame) -> list[Utterance]:
        """Cut an utterance that reached max_utterance_s; keep the rest open."""
        opts = self.options
        frames = self._frames
        window_s = self._start_s + opts.max_utterance_s / 2
        quiet = [
            i
            for i, (f, voiced) in enumerate(frames)
            if not voiced and f.start_s >= window_s - _EPS and f.start_s >= self._start_s
        ]
        if quiet:
            levels = [_rms(frames[i][0].samples) for i in quiet]
            lowest = min(levels)
            cut = max(i for i, r in zip(quiet, levels, strict=True) if r <= lowest + 1e-9)
        else:
            cut = len(frames) - 1
        cut_s = frames[cut][0].end_s
        head, rest = frames[: cut + 1], frames[cut + 1 :]
        voiced_ends = [f.end_s for f, v in head if v and f.start_s >= self._start_s - _EPS]
        speech_end = voiced_ends[-1] if voiced_ends else self._start_s
        utterance = self._build(
            head,
            start_s=self._start_s,
            end_s=cut_s,
            speech_end_s=speech_end,
            decided_s=frame.end_s,
            hi=min(cut_s, speech_end + opts.tail_s),
            forced=True,
        )
        logger.info(
            "utterance reached %.1f s: cut at %.2f s%s",
            opts.max_utterance_s,
            cut_s,
            "" if quiet else " (no pause to cut at)",
        )
        voiced_rest = [f for f, v in rest if v]
        if voiced_rest:
            self._frames = rest
            self._start_s = voiced_rest[0].start_s
            self._speech_end_s = voiced_rest[-1].end_s
            self._state = EndpointState.SPEAKING if rest[-1][1] else EndpointState.STOPPING
        elif not quiet:
            # cut in the middle of speech: the next utterance starts right at the cut
            self._frames = []
            self._start_s = self._speech_end_s = cut_s
            self._state = EndpointState.SPEAKING
        else:
            self._ring.extend(rest)
            self._frames = []
            self._state = EndpointState.QUIET
        return [utterance]

    def _build(
        self,
        frames: list[_Slot],
        *,
        start_s: float,
        end_s: float,
        speech_end_s: float,
        decided_s: float,
        hi: float,
        forced: bool,
    ) -> Utterance:
        """Assemble the utterance's audio from ``start_s - pre_roll_s`` to ``hi``."""
        lo = start_s - self.options.pre_roll_s
        chosen = [f for f, _ in frames if f.end_s > lo + _EPS and f.start_s < hi - _EPS]
        if not chosen:
            return Utterance(
                start_s, end_s, np.zeros(0, np.int16), start_s, speech_end_s, decided_s, forced
            )
        base = chosen[0].start_s
        total = round((chosen[-1].end_s - base) * SAMPLE_RATE)
        buf = np.zeros(total, np.int16)
        for f in chosen:  # placed by time, so a gap in the stream stays a gap (zeros)
            at = round((f.start_s - base) * SAMPLE_RATE)
            buf[at : at + f.samples.size] = f.samples[: max(0, total - at)]
        a = max(0, round((lo - base) * SAMPLE_RATE))
        b = min(total, round((hi - base) * SAMPLE_RATE))
        return Utterance(
            start_s=start_s,
            end_s=end_s,
            samples=buf[a:b].copy(),
            samples_start_s=base + a / SAMPLE_RATE,
            speech_end_s=speech_end_s,
            decided_s=decided_s,
            forced=forced,
        )


def utterances(
    frames: Iterable[AudioFrame],
    *,
    options: EndpointOptions = EndpointOptions(),
    vad_options: VadOptions = DEFAULT_VAD_OPTIONS,
) -> Iterator[Utterance]:
    """Cut a stream of frames into utterances with webrtcvad and an :class:`Endpointer`.

    Utterances come out as soon as their end is decided (``hangover_s`` after the end of
    speech), so a live consumer can transcribe one while the speaker goes on.

    Args:
        frames: 16 kHz mono int16 frames of ``vad_options.frame_ms`` (a microphone,
            :func:`coach.stream.file_frames` or :func:`coach.stream.array_frames`).
        options: Endpointing times (s).
        vad_options: webrtcvad aggressiveness and frame length.

    Yields:
        Utterances in stream order; the open one is flushed at the end of the stream.

    Raises:
        OptionsError: a frame's length does not match ``vad_options.frame_ms``.
        Any error of the frame source (e.g. :class:`coach.stream.DeviceError`) is passed
        on after the utterance open at that moment has been yielded, so the talk up to
        the failure is kept.
    """
    import webrtcvad

    vad = webrtcvad.Vad(vad_options.aggressiveness)
    endpointer = Endpointer(options, vad_options)
    frame_n = SAMPLE_RATE * vad_options.frame_ms // 1000
    try:
        for frame in frames:
            if frame.samples.size != frame_n or frame.samples.dtype != np.int16:
                raise OptionsError(
                    f"frames must be int16 with {frame_n} samples ({vad_options.frame_ms} ms "
                    f"at 16 kHz), got {frame.samples.dtype} x {frame.samples.size}: give the "
                    "frame source the same frame_ms as VadOptions"
                )
            speech = vad.is_speech(frame.samples.tobytes(), SAMPLE_RATE)
            yield from endpointer.push(frame, speech)
    except Exception:
        yield from endpointer.flush()
        raise
    yield from endpointer.flush()
