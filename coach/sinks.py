"""Where speech goes: a speaker, a wav file, or the console as text.

Every sink takes :class:`~coach.tts.SpeechChunk` values one at a time and returns, from an
injectable clock, the time the chunk's first sample went out, so the latency from a
finished question to the first audible word can be measured (and tested with a fake
clock). Use :func:`open_sink` to pick one: a wav file when ``--speak-to`` is given, else
the speaker, else (no output device) the question text on the console, announced once.
"""

from __future__ import annotations

import collections
import logging
import os
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any

import numpy as np

from coach import SAMPLE_RATE
from coach.errors import AudioError
from coach.stream import DeviceError, load_sounddevice, resolve_device
from coach.tts import SpeechChunk

logger = logging.getLogger(__name__)

Clock = Callable[[], float]
"""A function returning the current time in seconds (time.monotonic by default)."""

NO_DEVICE_HINT = "use --speak-to FILE.wav, questions are shown as text"
"""What to do when there is no speaker; ends every NoOutputDevice message."""


OUTPUT_LATENCY_S = 0.2
"""Audio buffered ahead in the speaker's stream, seconds: room for the Python callback
to be late on a busy machine (at PortAudio's default, 35 ms on ALSA, a one-question
rehearsal through PulseAudio on two overloaded cores ran dry over a dozen times; at
0.2 s, once). Heard as that much delay before a question, which the times
:meth:`SpeakerSink.play` returns include."""


class NoOutputDevice(DeviceError):
    """No audio output: sounddevice/PortAudio is missing or there is no output device."""


class AudioSink:
    """Base of the sinks: ``play`` chunks in order, then ``close`` (or use ``with``)."""

    def __init__(self, *, clock: Clock = time.monotonic) -> None:
        self._clock = clock
        self.closed = False

    def play(self, chunk: SpeechChunk) -> float:
        """Send one chunk out; return the clock time its first sample went out (seconds)."""
        raise NotImplementedError

    def drain(self) -> None:
        """Wait until everything played so far has been heard (a no-op for files and text)."""

    def close(self) -> None:
        """Finish: wait for queued audio, release the device or file. Safe to call twice."""
        self.closed = True

    def __enter__(self) -> AudioSink:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _check_open(self) -> None:
        if self.closed:
            raise AudioError(f"{type(self).__name__} is closed: open a new sink to play speech")


def _resample_int16(samples: np.ndarray, from_hz: int, to_hz: int) -> np.ndarray:
    """int16 mono at ``from_hz`` to int16 mono at ``to_hz`` (soxr, high quality)."""
    if from_hz == to_hz or samples.size == 0:
        return samples
    import soxr

    out = soxr.resample(samples.astype(np.float32) / 32768.0, from_hz, to_hz, quality="HQ")
    return (np.clip(out, -1.0, 1.0) * 32767.0).astype(np.int16)


class WavSink(AudioSink):
    """Appends every chunk to one 16-bit mono wav file, flushed after each chunk.

    The file's rate is ``sample_rate_hz`` if given, else the first chunk's rate; chunks at
    another rate are resampled to it. The header is rewritten at every flush, so a crash
    leaves a readable file holding every chunk played so far.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        sample_rate_hz: int | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        """Prepare the file (created at once if ``sample_rate_hz`` is given).

        Raises:
            AudioError: the folder does not exist or is not writable.
        """
        super().__init__(clock=clock)
        self.path = Path(path)
        self.sample_rate_hz = sample_rate_hz
        self.segments: list[tuple[str, float, float]] = []
        """``(text, start_s, end_s)`` of each chunk within the file, in seconds."""
        self._busy_until = 0.0
        self._file: Any = None
        self._frames = 0
        parent = self.path.parent if str(self.path.parent) else Path(".")
        if not parent.is_dir():
            raise AudioError(f"{self.path}: folder {parent} does not exist (create it first)")
        if self.path.is_dir():
            raise AudioError(f"{self.path}: is a folder; give a file name such as speech.wav")
        if not os.access(parent, os.W_OK):
            raise AudioError(f"{self.path}: folder {parent} is not writable")
        if sample_rate_hz is not None:
            self._open(sample_rate_hz)

    def _open(self, rate: int) -> None:
        import soundfile as sf

        try:
            self._file = sf.SoundFile(
                str(self.path), "w", samplerate=rate, channels=1, subtype="PCM_16", format="WAV"
            )
        except (sf.LibsndfileError, OSError) as exc:
            raise AudioError(f"{self.path}: cannot write the wav file ({exc})") from exc
        self.sample_rate_hz = rate

    @property
    def duration_s(self) -> float:
        """Length of what has been written so far, in seconds."""
        return self._frames / self.sample_rate_hz if self.sample_rate_hz else 0.0

    def play(self, chunk: SpeechChunk) -> float:
        """Append the chunk; return the clock time at which it would be heard.

        The file stands for a speaker: a chunk written while the one before would still be
        playing is heard when that one ends, so the time returned is the later of the
        write and the end of the audio written before it (as a speaker's would be).
        """
        self._check_open()
        if self._file is None:
            self._open(chunk.sample_rate_hz)
        assert self.sample_rate_hz is not None
        t = max(self._clock(), self._busy_until)
        self._busy_until = t + chunk.duration_s
        samples = _resample_int16(chunk.samples, chunk.sample_rate_hz, self.sample_rate_hz)
        start = self._frames
        try:
            self._file.write(samples)
            self._file.flush()
        except (RuntimeError, OSError) as exc:  # libsndfile: a full disk, a vanished folder
            raise AudioError(f"{self.path}: cannot write the speech ({_first_line(exc)})") from exc
        self._frames += samples.size
        rate = self.sample_rate_hz
        self.segments.append((chunk.text, start / rate, self._frames / rate))
        return t

    def drain(self) -> None:
        """Sleep until what was written would have been heard, as a speaker's drain does
        (a session paced in real time calls it before listening to an answer, so a
        recorded answer starts after the question, as a person's would)."""
        wait = self._busy_until - self._clock()
        if 0 < wait < 3600:
            time.sleep(wait)

    def close(self) -> None:
        """Close the file (an empty wav at 16 kHz if nothing was played)."""
        if self.closed:
            return
        if self._file is None:
            self._open(SAMPLE_RATE)
        self._file.close()
        super().close()


class SpeakerSink(AudioSink):
    """Plays chunks through the sound card with sounddevice, from a queue.

    The output stream is fed by a PortAudio callback that takes audio from a queue and
    plays silence when the queue is empty, so the device does not run dry between
    questions (with blocking writes, ALSA printed "underrun occurred" on the terminal
    after every one), and ``play`` returns at once, so the next sentence is synthesised
    while this one plays. With one blocking
    write per chunk, the write returned only as the chunk finished, and each sentence
    after the first was heard after a gap as long as its synthesis (0.4 s in
    tests/test_devices.py, on PulseAudio). ``drain`` and ``close`` wait for the queue to
    play. Chunks at another rate than the stream's (opened at the first chunk's) are
    resampled.
    """

    def __init__(
        self,
        device: int | str | None = None,
        *,
        sample_rate_hz: int | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        """Find the output device (and open the stream if ``sample_rate_hz`` is given).

        Args:
            device: None for the default output; a device index (int or digits) or part
                of a device name, as ``--device`` takes them
                (:func:`coach.stream.resolve_device`).
            sample_rate_hz: Rate to open the stream at now; else at the first chunk.
            clock: Time source for the return value of :meth:`play`.

        Raises:
            NoOutputDevice: sounddevice or PortAudio is missing, or there is no such
                output device.
        """
        super().__init__(clock=clock)
        try:
            sd = load_sounddevice()
        except DeviceError as exc:
            cause = exc.__cause__ or exc
            raise NoOutputDevice(
                f"no audio output device (sounddevice/PortAudio unavailable: "
                f"{_first_line(cause)}): {NO_DEVICE_HINT}"
            ) from exc
        self._sd = sd
        try:  # an index (also as digits) or part of a name, as --device takes them
            self.device = resolve_device(device, "output")
        except DeviceError as exc:
            raise NoOutputDevice(f"{_first_line(exc)}: {NO_DEVICE_HINT}") from exc
        try:
            info = sd.query_devices(self.device, kind="output")
        except (ValueError, sd.PortAudioError) as exc:
            raise NoOutputDevice(
                f"no audio output device ({_first_line(exc)}): {NO_DEVICE_HINT}"
            ) from exc
        if not info or int(info.get("max_output_channels", 0)) < 1:
            raise NoOutputDevice(f"no audio output device: {NO_DEVICE_HINT}")
        self.device_name = str(info.get("name", device))
        self._stream: Any = None
        self._rate: int | None = None
        self._busy_until = float("-inf")
        self._queue: collections.deque[np.ndarray] = collections.deque()
        """int16 blocks waiting to be played (appended by play, taken by the callback)."""
        self._offset = 0
        """Samples of the queue's first block already played (callback thread only)."""
        self._failure: str | None = None
        """Why the stream stopped on its own (the device went away), else None."""
        if sample_rate_hz is not None:
            self._open(sample_rate_hz)

    def _open(self, rate: int) -> None:
        sd = self._sd
        try:
            stream = sd.OutputStream(
                samplerate=rate, channels=1, dtype="int16", device=self.device,
                latency=OUTPUT_LATENCY_S, callback=self._fill, finished_callback=self._finished,
            )  # fmt: skip
            stream.start()
        except (ValueError, sd.PortAudioError) as exc:
            raise NoOutputDevice(
                f"no audio output device: cannot open {self.device_name} at {rate} Hz "
                f"({_first_line(exc)}): {NO_DEVICE_HINT}"
            ) from exc
        self._stream = stream
        self._rate = rate

    # -- PortAudio thread ----------------------------------------------------------------

    def _fill(self, outdata: np.ndarray, frames: int, time_info: Any, status: Any) -> None:
        """PortAudio callback: the next ``frames`` samples from the queue, then silence."""
        done = 0
        while done < frames and self._queue:
            block = self._queue[0]
            take = min(frames - done, block.size - self._offset)
            outdata[done : done + take, 0] = block[self._offset : self._offset + take]
            done += take
            self._offset += take
            if self._offset >= block.size:
                self._queue.popleft()
                self._offset = 0
        if done < frames:
            outdata[done:] = 0

    def _finished(self) -> None:
        """PortAudio's finished callback: the stream stopped (closed, or the device gone)."""
        if not self.closed:
            self._failure = "the output stream stopped (device disconnected?)"

    # -- caller --------------------------------------------------------------------------

    def play(self, chunk: SpeechChunk) -> float:
        """Queue the chunk and return at once.

        Returns:
            Estimated clock time when the chunk's first sample reaches the speaker, in
            seconds: now plus the stream's output latency, or the end of the audio still
            queued before it, whichever is later.

        Raises:
            AudioError: the device failed while playing.
        """
        self._check_open()
        if self._failure is not None:
            raise AudioError(f"audio output failed on {self.device_name}: {self._failure}")
        if self._stream is None:
            self._open(chunk.sample_rate_hz)
        assert self._rate is not None
        samples = _resample_int16(chunk.samples, chunk.sample_rate_hz, self._rate)
        t = self._clock()
        latency = float(getattr(self._stream, "latency", 0.0) or 0.0)
        first_out = max(t + latency, self._busy_until)
        self._busy_until = first_out + samples.size / self._rate
        if samples.size:
            self._queue.append(np.ascontiguousarray(samples, dtype=np.int16))
        return first_out

    def drain(self) -> None:
        """Sleep until the audio queued so far has played (so the mic does not hear it):
        the estimate :meth:`play` gave, then as long as the device still has some queued
        (a device that started late), at most 2 s more."""
        wait = self._busy_until - self._clock()
        if 0 < wait < 3600:
            time.sleep(wait)
        deadline = time.monotonic() + 2.0
        while self._queue and self._failure is None and self._stream is not None:
            if time.monotonic() > deadline:
                logger.warning("%s is playing slower than expected", self.device_name)
                return
            time.sleep(0.01)

    def close(self) -> None:
        """Wait until the queued audio has played, then release the device."""
        if self.closed:
            return
        if self._stream is not None:
            self.drain()
            latency = float(getattr(self._stream, "latency", 0.0) or 0.0)
            if 0 < latency < 5:
                time.sleep(latency)  # the last block is still in the device's buffer
            self.closed = True  # the finished callback is not a failure now
            try:
                self._stream.stop()
                self._stream.close()
            except self._sd.PortAudioError as exc:
                logger.warning("closing the audio output: %s", exc)
            self._stream = None
        super().close()


class TextSink(AudioSink):
    """No sound: prints each chunk's text once, for machines with no output device."""

    def __init__(
        self, console_print: Callable[[str], Any] = print, *, clock: Clock = time.monotonic
    ) -> None:
        super().__init__(clock=clock)
        self._print = console_print
        self.lines: list[str] = []
        """The texts printed so far."""

    def play(self, chunk: SpeechChunk) -> float:
        """Print the chunk's text; return the clock time it was printed."""
        self._check_open()
        t = self._clock()
        self._print(chunk.text)
        self.lines.append(chunk.text)
        return t


class TeeSink(AudioSink):
    """Plays every chunk on a main sink and copies it to others (the session's wav).

    ``play`` returns the main sink's time; a copy that fails is logged once and dropped,
    so a full disk never stops the conversation.
    """

    def __init__(self, main: AudioSink, *copies: AudioSink) -> None:
        super().__init__(clock=main._clock)
        self.main = main
        self.copies = list(copies)

    def play(self, chunk: SpeechChunk) -> float:
        """Play on the main sink, then copy."""
        self._check_open()
        t = self.main.play(chunk)
        for copy in list(self.copies):
            try:
                copy.play(chunk)
            except AudioError as exc:
                logger.warning("stopped copying speech to %s: %s", type(copy).__name__, exc)
                self.copies.remove(copy)
        return t

    def drain(self) -> None:
        """Drain the main sink."""
        self.main.drain()

    def close(self) -> None:
        """Close every sink (each one, even after one fails; the first failure is raised)."""
        if self.closed:
            return
        failure: AudioError | None = None
        for sink in [self.main, *self.copies]:
            try:
                sink.close()
            except AudioError as exc:
                failure = failure or exc
        super().close()
        if failure is not None:
            raise failure


def open_sink(
    speak_to: str | os.PathLike[str] | None,
    device: int | str | None = None,
    *,
    on_fallback: Callable[[str], Any] | None = None,
    sample_rate_hz: int | None = None,
    console_print: Callable[[str], Any] = print,
    clock: Clock = time.monotonic,
) -> AudioSink:
    """Pick where speech goes.

    Args:
        speak_to: A wav file to write the speech to, or None to use the speaker.
        device: Output device for the speaker (index or name); None for the default.
        on_fallback: Told once, with the reason, when there is no output device and the
            text is printed instead; None logs it as a warning.
        sample_rate_hz: The voice's rate, to open the file or stream at once (optional).
        console_print: Where a :class:`TextSink` prints.
        clock: Time source for every sink's ``play`` return value.

    Returns:
        A :class:`WavSink` if ``speak_to`` is given, else a :class:`SpeakerSink`, else (no
        device) a :class:`TextSink`.

    Raises:
        AudioError: ``speak_to`` cannot be written.
    """
    if speak_to is not None:
        return WavSink(speak_to, sample_rate_hz=sample_rate_hz, clock=clock)
    try:
        return SpeakerSink(device, sample_rate_hz=sample_rate_hz, clock=clock)
    except NoOutputDevice as exc:
        (on_fallback or logger.warning)(str(exc))
        return TextSink(console_print, clock=clock)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
