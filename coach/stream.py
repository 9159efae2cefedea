"""Audio sources as streams of timed frames: an array, a file as a virtual mic, a microphone.

Every source is an iterator of :class:`AudioFrame`: 16 kHz mono int16 samples with the
frame's start time in seconds since the stream began. Times come from sample counts, never
from the wall clock, so a recording replayed through :func:`file_frames` gives the same
frames (and the same downstream results) as the array it holds, however fast it is played.

``sounddevice`` (and the PortAudio library under it) is optional: it is imported only when a
device is opened or listed, and its absence is reported as a :class:`DeviceError` that says
what to install or to use ``--input FILE`` instead.
"""

from __future__ import annotations

import logging
import math
import os
import queue
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Literal

import numpy as np

from coach import SAMPLE_RATE
from coach.audio import iter_blocks, probe, to_int16
from coach.errors import AudioError, OptionsError

logger = logging.getLogger(__name__)

DEFAULT_FRAME_MS = 30
"""Frame length in ms shared with the VAD (webrtcvad accepts 10, 20 or 30 ms)."""

_DECODE_BLOCK_FRAMES = 32
"""File decoding block, in frames (32 x 30 ms = 0.96 s): small enough to start at once."""

NO_INPUT_DEVICE = "no audio input device: connect a microphone or use --input FILE (virtual mic)"
"""Message of the error raised when there is no microphone to open."""


class DeviceError(AudioError):
    """An audio device is missing, vanished mid-stream, or sounddevice/PortAudio is absent."""


@dataclass(frozen=True, eq=False)
class AudioFrame:
    """One frame of 16 kHz mono int16 audio and where it sits in its stream."""

    samples: np.ndarray
    """int16 samples, shape ``(n,)``, at :data:`coach.SAMPLE_RATE` Hz."""
    start_s: float
    """Time of the first sample in seconds since the stream began (from sample counts)."""

    @property
    def duration_s(self) -> float:
        """Length of the frame in seconds."""
        return self.samples.size / SAMPLE_RATE

    @property
    def end_s(self) -> float:
        """Time just after the last sample, in seconds since the stream began."""
        return self.start_s + self.duration_s

    def float32(self) -> np.ndarray:
        """The samples as float32 in [-1, 1), shape ``(n,)`` (int16 / 32768)."""
        return self.samples.astype(np.float32) / 32768.0


def _frame_len(frame_ms: int) -> int:
    """Samples per frame at 16 kHz; raises OptionsError for a non-positive length."""
    if not isinstance(frame_ms, int) or isinstance(frame_ms, bool) or frame_ms <= 0:
        raise OptionsError(f"frame_ms must be a positive whole number of ms, not {frame_ms!r}")
    return SAMPLE_RATE * frame_ms // 1000


def _as_int16(samples: np.ndarray) -> np.ndarray:
    samples = np.asarray(samples)
    if samples.ndim != 1:
        raise OptionsError(f"audio must be mono, shape (n,), not {samples.shape}")
    if samples.dtype == np.int16:
        return samples
    if np.issubdtype(samples.dtype, np.floating):
        return to_int16(samples)
    raise OptionsError(f"audio must be float32 in [-1, 1] or int16, not {samples.dtype}")


def array_frames(
    samples: np.ndarray, *, frame_ms: int = DEFAULT_FRAME_MS, start_s: float = 0.0
) -> Iterator[AudioFrame]:
    """Cut an array of 16 kHz mono audio into frames.

    Args:
        samples: float32 in [-1, 1] (converted with :func:`coach.audio.to_int16`) or int16,
            shape ``(n,)``, at 16 kHz.
        frame_ms: Frame length in ms (10, 20 or 30 if the frames go to webrtcvad).
        start_s: Time of ``samples[0]`` in seconds; frame ``k`` starts at
            ``start_s + k * frame_ms / 1000``.

    Yields:
        Frames of exactly ``frame_ms``; the last partial frame is zero-padded to full length.

    Raises:
        OptionsError: bad ``frame_ms``, or audio that is not 1-D float or int16.
    """
    frame_n = _frame_len(frame_ms)
    pcm = _as_int16(samples)
    for pos in range(0, pcm.size, frame_n):
        chunk = pcm[pos : pos + frame_n]
        if chunk.size < frame_n:
            chunk = np.concatenate([chunk, np.zeros(frame_n - chunk.size, np.int16)])
        yield AudioFrame(chunk, start_s + pos / SAMPLE_RATE)


def file_frames(
    path: str | os.PathLike[str],
    *,
    frame_ms: int = DEFAULT_FRAME_MS,
    realtime: bool = True,
    speed: float = 1.0,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    then_silence_s: float = 0.0,
) -> Iterator[AudioFrame]:
    """Play a recording as a virtual microphone: decode it as it goes and yield its frames.

    The file is decoded in blocks of about a second with :func:`coach.audio.iter_blocks`,
    never whole. Frame times come from sample counts, so they are exact multiples of the
    frame length whatever the pacing.

    When ``realtime`` is true, frames are released like a microphone's: frame ``k`` (ending
    at ``(k + 1) * frame_ms``) is yielded no earlier than ``t0 + (k + 1) * frame_s / speed``
    by ``clock``, where ``t0`` is the clock when the first frame is asked for. Pacing is
    against that absolute schedule, so it does not drift; a consumer that falls behind gets
    the frames it missed at once, like a microphone's buffer.

    The file is checked (exists, is audio) when this is called, before the first frame.

    Args:
        path: Any file FFmpeg reads (wav, flac, mp3, m4a, ogg...), any rate or channels.
        frame_ms: Frame length in ms (10, 20 or 30 for webrtcvad).
        realtime: Pace the frames in real time (the virtual mic); False yields them as fast
            as they decode (``--fast``).
        speed: Playback speed factor (> 0) when ``realtime``: 2.0 plays twice as fast.
        clock: Monotonic clock in seconds (injectable for tests).
        sleep: Sleep function taking seconds (injectable for tests).
        then_silence_s: After the recording, go on with this many seconds of digital
            silence (paced the same way), as a microphone would after the person stops:
            lets a listener decide the end of a turn from the silence, not from the end
            of the file. ``math.inf`` never stops.

    Returns:
        An iterator of frames; the last partial frame is zero-padded.

    Raises:
        AudioError: the file is missing, empty or not audio (raised by this call).
        OptionsError: bad ``frame_ms`` or ``speed``.
    """
    frame_n = _frame_len(frame_ms)
    if not (speed > 0 and math.isfinite(speed)):
        raise OptionsError(f"speed must be a positive number (1.0 = real time), not {speed!r}")
    if not then_silence_s >= 0:
        raise OptionsError(f"then_silence_s must be >= 0 s, not {then_silence_s!r}")
    probe(path)  # fail now, not at the first frame, on a missing or non-audio file
    return _file_frames(path, frame_n, realtime, speed, clock, sleep, then_silence_s)


def _file_frames(
    path: str | os.PathLike[str],
    frame_n: int,
    realtime: bool,
    speed: float,
    clock: Callable[[], float],
    sleep: Callable[[float], None],
    then_silence_s: float = 0.0,
) -> Iterator[AudioFrame]:
    block_s = frame_n * _DECODE_BLOCK_FRAMES / SAMPLE_RATE
    frame_s = frame_n / SAMPLE_RATE
    pending = np.zeros(0, np.int16)
    index = 0
    t0: float | None = None

    def paced(samples: np.ndarray) -> AudioFrame:
        nonlocal index, t0
        frame = AudioFrame(samples, index * frame_n / SAMPLE_RATE)
        if realtime:
            if t0 is None:
                t0 = clock()
            delay = t0 + (index + 1) * frame_s / speed - clock()
            if delay > 0:
                sleep(delay)
        index += 1
        return frame

    for block in iter_blocks(path, block_s=block_s):
        pcm = to_int16(block)
        pending = np.concatenate([pending, pcm]) if pending.size else pcm
        usable = pending.size - pending.size % frame_n
        for pos in range(0, usable, frame_n):
            yield paced(pending[pos : pos + frame_n].copy())
        pending = pending[usable:]
    if pending.size:
        yield paced(np.concatenate([pending, np.zeros(frame_n - pending.size, np.int16)]))
    silent = 0
    while silent * frame_s < then_silence_s - 1e-9:
        yield paced(np.zeros(frame_n, np.int16))
        silent += 1


# --- devices -------------------------------------------------------------------------------


def load_sounddevice() -> ModuleType:
    """Import sounddevice, or fail with what to install (monkeypatched in tests)."""
    try:
        import sounddevice
    except (ImportError, OSError) as exc:  # OSError: the PortAudio library is missing
        raise DeviceError(
            f"sounddevice/PortAudio not available ({exc}): apt-get install libportaudio2 and "
            "pip install sounddevice, or use --input FILE"
        ) from exc
    return sounddevice


@dataclass(frozen=True)
class DeviceInfo:
    """One audio device as PortAudio lists it."""

    index: int
    """PortAudio device index (what ``--device N`` takes)."""
    name: str
    """Device name (``--device`` also takes a case-insensitive part of it)."""
    max_input_channels: int
    """Input channels; 0 for a device that cannot record."""
    max_output_channels: int
    """Output channels; 0 for a device that cannot play."""
    default_samplerate: float
    """The device's default sample rate in Hz."""
    is_default_input: bool
    """Whether this is the system's default input device."""
    is_default_output: bool
    """Whether this is the system's default output device."""


def _defaults(sd: ModuleType) -> tuple[int | None, int | None]:
    """(default input index, default output index); None where there is none."""
    out: list[int | None] = []
    try:
        pair = sd.default.device
        values = [pair[0], pair[1]]
    except Exception:  # a broken PortAudio setup: treat as no defaults
        values = [None, None]
    for value in values:
        try:
            idx = int(value)
        except (TypeError, ValueError):
            idx = -1
        out.append(idx if idx >= 0 else None)
    return out[0], out[1]


def list_devices() -> list[DeviceInfo]:
    """List the audio devices PortAudio sees.

    Returns:
        One :class:`DeviceInfo` per device, in PortAudio index order.

    Raises:
        DeviceError: sounddevice or PortAudio is not installed, or listing failed.
    """
    sd = load_sounddevice()
    try:
        raw = list(sd.query_devices())
    except Exception as exc:  # PortAudioError and friends
        raise DeviceError(
            f"cannot list audio devices ({exc}): check the sound system, or use --input FILE"
        ) from exc
    default_in, default_out = _defaults(sd)
    return [
        DeviceInfo(
            index=int(d.get("index", i)),
            name=str(d["name"]),
            max_input_channels=int(d.get("max_input_channels", 0)),
            max_output_channels=int(d.get("max_output_channels", 0)),
            default_samplerate=float(d.get("default_samplerate", 0.0)),
            is_default_input=int(d.get("index", i)) == default_in,
            is_default_output=int(d.get("index", i)) == default_out,
        )
        for i, d in enumerate(raw)
    ]


def _channels(device: DeviceInfo, kind: str) -> int:
    return device.max_input_channels if kind == "input" else device.max_output_channels


def resolve_device(
    spec: str | int | None, kind: Literal["input", "output"] = "input"
) -> int | None:
    """Turn a ``--device`` value into a PortAudio device index.

    Args:
        spec: None for the system default; a device index (int or digits); or part of a
            device name, matched case-insensitively. An exact name match wins; otherwise the
            first device (lowest index) whose name contains ``spec`` is taken.
        kind: ``"input"`` (a device that records) or ``"output"`` (one that plays); devices
            without channels of that kind are not candidates.

    Returns:
        The device index, or None for the system default.

    Raises:
        DeviceError: no such device (the message lists the available ones), or
            sounddevice/PortAudio is not installed.
        OptionsError: ``kind`` is not ``"input"`` or ``"output"``.
    """
    if kind not in ("input", "output"):
        raise OptionsError(f"device kind must be 'input' or 'output', not {kind!r}")
    if spec is None or (isinstance(spec, str) and not spec.strip()):
        return None
    devices = [d for d in list_devices() if _channels(d, kind) > 0]
    names = ", ".join(f"{d.index}: {d.name}" for d in devices) or "none"
    if isinstance(spec, str) and spec.strip().isdigit():
        spec = int(spec.strip())
    if isinstance(spec, int):
        for d in devices:
            if d.index == spec:
                return d.index
        raise DeviceError(f"no {kind} device with index {spec}; {kind} devices: {names}")
    wanted = spec.strip().lower()
    exact = [d for d in devices if d.name.lower() == wanted]
    found = exact or [d for d in devices if wanted in d.name.lower()]
    if not found:
        raise DeviceError(f"no {kind} device matches {spec!r}; {kind} devices: {names}")
    if len(found) > 1:
        logger.info(
            "%r matches %d %s devices; using %d: %s",
            spec,
            len(found),
            kind,
            found[0].index,
            found[0].name,
        )
    return found[0].index


@dataclass(frozen=True, eq=False)
class _Block:
    """One callback's worth of audio, stamped with its position in the stream."""

    start: int
    """Index of the first sample since the stream began."""
    samples: np.ndarray
    """int16 mono copy of the callback's buffer."""
    overflow: bool
    """PortAudio flagged an input overflow (samples were lost before this block)."""


_CLOSED = object()
"""Queue marker: the stream finished (closed, or the device went away)."""


class Microphone:
    """A microphone as a stream of frames, over a ``sounddevice.InputStream``.

    Use it as a context manager; the stream records 16 kHz mono int16 with one frame per
    PortAudio callback, and the callback only copies the buffer into a queue (it never
    blocks). :meth:`frames` reads that queue::

        with Microphone(device="usb", frame_ms=30) as mic:
            for frame in mic.frames(stop):
                ...

    Frame times come from a running count of captured samples, so they follow the audio,
    not the wall clock. The wall clock is used only as a watchdog for a silent device.
    """

    def __init__(
        self,
        device: str | int | None = None,
        *,
        frame_ms: int = DEFAULT_FRAME_MS,
        timeout_s: float = 2.0,
        max_overflows: int = 5,
        max_backlog_s: float = 30.0,
    ) -> None:
        """Set up (but do not open) a microphone.

        Args:
            device: None for the default input, a device index, or part of a device name
                (see :func:`resolve_device`).
            frame_ms: Frame length in ms (10, 20 or 30 for webrtcvad).
            timeout_s: A device that delivers nothing for this long (s) counts as gone.
            max_overflows: This many input overflows in a row raise :class:`DeviceError`
                (one now and then only loses a few ms and is logged).
            max_backlog_s: At most this much audio (s) waits in the queue for a slow
                consumer; beyond it new blocks are dropped (and the gap shows in the
                frame times).

        Raises:
            OptionsError: a non-positive ``frame_ms``, ``timeout_s``, ``max_overflows`` or
                ``max_backlog_s``.
        """
        self.frame_n = _frame_len(frame_ms)
        """Samples per frame."""
        if not timeout_s > 0:
            raise OptionsError(f"timeout_s must be > 0 s, not {timeout_s!r}")
        if max_overflows < 1:
            raise OptionsError(f"max_overflows must be at least 1, not {max_overflows!r}")
        if not max_backlog_s > 0:
            raise OptionsError(f"max_backlog_s must be > 0 s, not {max_backlog_s!r}")
        self.device = device
        """The device as asked for."""
        self.frame_ms = frame_ms
        """Frame length in ms."""
        self.timeout_s = timeout_s
        """Watchdog: seconds without audio before the device counts as gone."""
        self.max_overflows = max_overflows
        """Consecutive overflowing blocks tolerated."""
        self.device_name = "default input"
        """Name of the opened device (for messages)."""
        self.dropped_blocks = 0
        """Blocks dropped because the consumer fell more than ``max_backlog_s`` behind."""
        self._max_blocks = max(1, int(max_backlog_s * SAMPLE_RATE / self.frame_n))
        self._queue: queue.Queue[Any] = queue.Queue(maxsize=self._max_blocks)
        self._stream: Any = None
        self._captured = 0
        self._closed = threading.Event()

    # -- lifecycle ---------------------------------------------------------------------

    def __enter__(self) -> Microphone:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def open(self) -> None:
        """Open and start the input stream.

        Raises:
            DeviceError: sounddevice/PortAudio missing, no input device, no device matching
                ``device``, or PortAudio refused to open it.
        """
        sd = load_sounddevice()
        index = resolve_device(self.device, "input")
        devices = list_devices()
        target = index
        if index is None:
            default_in, _ = _defaults(sd)
            inputs = [d for d in devices if d.max_input_channels > 0]
            if not inputs:
                raise DeviceError(NO_INPUT_DEVICE)
            if default_in is None:  # no system default: take the first device that records
                index = inputs[0].index
            target = default_in if index is None else index
        chosen = next((d for d in devices if d.index == target), None)
        if chosen is not None:
            self.device_name = chosen.name
        self._captured = 0
        self._closed.clear()
        self._queue = queue.Queue(maxsize=self._max_blocks)
        stream = None
        try:
            stream = sd.InputStream(
                samplerate=SAMPLE_RATE,
                channels=1,
                dtype="int16",
                blocksize=self.frame_n,
                device=index,
                callback=self._callback,
                finished_callback=self._finished,
            )
            stream.start()
        except Exception as exc:  # sd.PortAudioError, ValueError for bad settings
            if stream is not None:
                try:
                    stream.close()
                except Exception as close_exc:
                    logger.debug("closing the failed input stream failed: %s", close_exc)
            raise DeviceError(
                f"cannot open input device {self.device_name!r} at 16 kHz mono ({exc}): "
                "check it is connected and not in use, pick another with --device, or use "
                "--input FILE"
            ) from exc
        self._stream = stream
        logger.info("recording from %s (%d ms frames)", self.device_name, self.frame_ms)

    def close(self) -> None:
        """Stop and close the stream (safe to call twice)."""
        stream, self._stream = self._stream, None
        if stream is None:
            return
        try:
            stream.stop()
        except Exception as exc:  # closing a vanished device may fail too
            logger.debug("stopping the input stream failed: %s", exc)
        try:
            stream.close()
        except Exception as exc:
            logger.debug("closing the input stream failed: %s", exc)

    # -- PortAudio thread ----------------------------------------------------------------

    def _callback(self, indata: np.ndarray, frames: int, time_info: Any, status: Any) -> None:
        """PortAudio callback: copy the buffer (PortAudio reuses it) and queue it."""
        mono = indata[:, 0] if indata.ndim == 2 else indata
        block = _Block(
            self._captured,
            np.array(mono, dtype=np.int16, copy=True),
            bool(getattr(status, "input_overflow", False)),
        )
        self._captured += block.samples.size
        try:
            self._queue.put_nowait(block)
        except queue.Full:
            self.dropped_blocks += 1

    def _finished(self) -> None:
        """PortAudio's finished callback: the stream stopped (closed, or device gone)."""
        self._closed.set()
        try:
            self._queue.put_nowait(_CLOSED)
        except queue.Full:
            pass  # frames() also checks the event once the queue drains

    # -- consumer ------------------------------------------------------------------------

    def frames(self, stop: threading.Event | None = None) -> Iterator[AudioFrame]:
        """Yield frames as the microphone delivers them, until ``stop`` is set.

        Frames already yielded stay valid when this raises: the generator hands each frame
        over as it comes, so a caller that collects them (or feeds them to an
        :class:`coach.endpoint.Endpointer`) keeps everything before the failure and can
        catch :class:`DeviceError` to finish with what it has (``coach.endpoint.utterances``
        flushes the open utterance before passing the error on).

        Args:
            stop: Set it (from any thread) to end the stream cleanly; audio still queued
                is discarded. None records until the device fails.

        Yields:
            Frames of ``frame_ms``, ``start_s`` counted from the first captured sample.
            Blocks dropped by PortAudio overflow are not counted (times then run a little
            behind the wall clock); blocks dropped for a slow consumer leave a gap.

        Raises:
            DeviceError: nothing arrived for ``timeout_s`` (device unplugged or muted at the
                driver level), the stream finished on its own (device vanished), or
                ``max_overflows`` overflowing blocks came in a row.
            RuntimeError: the microphone is not open (use it in a ``with`` block).
        """
        if self._stream is None:
            raise RuntimeError("Microphone is not open: use `with Microphone() as mic:`")
        poll_s = min(0.05, self.timeout_s)
        pending = np.zeros(0, np.int16)
        pending_start: int | None = None
        overflows = 0
        last = time.monotonic()
        while stop is None or not stop.is_set():
            try:
                item = self._queue.get(timeout=poll_s)
            except queue.Empty:
                if self._closed.is_set():
                    raise self._vanished() from None
                stream = self._stream
                if stream is not None and not getattr(stream, "active", True):
                    raise self._vanished() from None
                if time.monotonic() - last >= self.timeout_s:
                    raise DeviceError(
                        f"no audio from {self.device_name!r} for {self.timeout_s:g} s: check "
                        "the microphone is connected, unmuted and not used by another "
                        "program, or use --input FILE"
                    ) from None
                continue
            if item is _CLOSED:
                raise self._vanished()
            last = time.monotonic()
            if item.overflow:
                overflows += 1
                logger.warning("audio input overflow on %s: samples lost", self.device_name)
                if overflows >= self.max_overflows:
                    raise DeviceError(
                        f"audio input from {self.device_name!r} keeps overflowing "
                        f"({overflows} blocks in a row): the machine is too busy to keep "
                        "up; close other programs, or use --input FILE"
                    )
            else:
                overflows = 0
            if pending_start is None or item.start != pending_start + pending.size:
                if pending.size:
                    logger.warning("dropped %d samples at a gap in the input", pending.size)
                pending, pending_start = item.samples, item.start
            else:
                pending = np.concatenate([pending, item.samples])
            usable = pending.size - pending.size % self.frame_n
            for pos in range(0, usable, self.frame_n):
                start = pending_start + pos
                yield AudioFrame(pending[pos : pos + self.frame_n], start / SAMPLE_RATE)
            pending = pending[usable:]
            pending_start += usable

    def discard_pending(self) -> int:
        """Drop the audio queued but not yet read (what the mic heard while coach spoke).

        Returns:
            Blocks dropped.
        """
        dropped = 0
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                return dropped
            if item is _CLOSED:
                self._queue.put_nowait(item)
                return dropped
            dropped += 1

    def _vanished(self) -> DeviceError:
        return DeviceError(
            f"the input stream from {self.device_name!r} stopped (device disconnected?): "
            "reconnect it and start again, or use --input FILE"
        )
