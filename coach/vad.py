"""Voice activity from webrtcvad: per-frame flags and merged speech regions.

Pure functions over int16 PCM at 16 kHz; no devices, no wall clock.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from coach import SAMPLE_RATE
from coach.errors import OptionsError


@dataclass(frozen=True)
class VadOptions:
    """Timing and sensitivity of voice activity detection."""

    aggressiveness: int = 2
    """webrtcvad mode 0 (least aggressive about filtering out non-speech) to 3 (most)."""
    frame_ms: int = 30
    """Frame length in ms; webrtcvad accepts 10, 20 or 30."""
    merge_gap_s: float = 0.3
    """Voiced runs closer than this (s) merge into one speech region."""
    min_region_s: float = 0.09
    """Speech regions shorter than this (s) are dropped as clicks."""
    pad_s: float = 0.2
    """Each region is widened by this much (s) on both sides when cut out for the ASR."""
    neural: bool = True
    """Measure from Silero VAD's voice (the model faster-whisper ships) instead of
    webrtcvad's: pauses, the pace's voiced edges, where fillers go, which frames have a
    pitch. webrtcvad misses quiet, hoarse or breathy speech, which then shows as pauses
    the speaker never made, and in steady noise it hears speech everywhere, so no pause
    shows at all (``make bench-pauses``). The recogniser's regions and the live
    endpointing stay webrtcvad's."""
    neural_threshold: float = 0.6
    """Silero's speech probability at which speech starts; it goes on down to 0.15 less
    (faster-whisper's hysteresis). Chosen on the pause bench's dev clips (0.5, 0.6, 0.7
    tried)."""

    def __post_init__(self) -> None:
        if self.aggressiveness not in (0, 1, 2, 3):
            raise OptionsError(
                f"VAD aggressiveness must be 0, 1, 2 or 3, not {self.aggressiveness}"
            )
        if self.frame_ms not in (10, 20, 30):
            raise OptionsError(f"VAD frame_ms must be 10, 20 or 30, not {self.frame_ms}")
        if not 0.15 < self.neural_threshold < 1:
            raise OptionsError(
                f"neural_threshold must be between 0.15 and 1, not {self.neural_threshold}"
            )


def voiced_flags(
    pcm: np.ndarray, *, options: VadOptions = VadOptions(), sample_rate_hz: int = SAMPLE_RATE
) -> np.ndarray:
    """Classify each frame of int16 PCM as speech or not.

    Args:
        pcm: int16 mono samples, shape ``(n,)``.
        options: VAD options (frame length and aggressiveness).
        sample_rate_hz: 8000, 16000, 32000 or 48000 Hz.

    Returns:
        bool array of shape ``(n // frame_len,)``; frame ``i`` covers
        ``[i * frame_ms, (i + 1) * frame_ms)`` ms. A trailing partial frame is dropped.
    """
    import webrtcvad

    if pcm.dtype != np.int16:
        raise OptionsError(f"voiced_flags needs int16 PCM, got {pcm.dtype}")
    vad = webrtcvad.Vad(options.aggressiveness)
    n = sample_rate_hz * options.frame_ms // 1000
    count = pcm.size // n
    frames = pcm[: count * n].reshape(count, n)
    return np.fromiter(
        (vad.is_speech(f.tobytes(), sample_rate_hz) for f in frames), dtype=bool, count=count
    )


NEURAL_FRAME_S = 0.032
"""Silero VAD's window: 512 samples at 16 kHz."""


def speech_probability(samples: np.ndarray) -> np.ndarray:
    """Silero VAD's speech probability per 32 ms window of float32 16 kHz audio (the model
    ships inside faster-whisper; one thread, about 0.3 % of real time). A trailing partial
    window is dropped."""
    from faster_whisper.vad import get_vad_model

    n = samples.size // 512 * 512
    if n == 0:
        return np.zeros(0, np.float32)
    # a copy: the model writes zeros into the array it is given (its last window's
    # context), which would change the audio the recogniser reads in the other thread
    window = np.array(samples[:n], dtype=np.float32, copy=True)
    return np.asarray(get_vad_model()(window), np.float32).reshape(-1)


def hysteresis(prob: np.ndarray, threshold: float, *, fall: float = 0.15) -> np.ndarray:
    """Speech flags from probabilities: on at ``threshold``, off below ``threshold - fall``.

    >>> hysteresis(np.array([0.2, 0.6, 0.4, 0.3, 0.7]), 0.5).tolist()
    [False, True, True, False, True]
    """
    out = np.zeros(prob.size, dtype=bool)
    on = False
    for i, p in enumerate(prob):
        on = p >= threshold or (on and p >= threshold - fall)
        out[i] = on
    return out


def resample_flags(
    flags: np.ndarray, *, frame_s: float, to_frame_s: float, count: int
) -> np.ndarray:
    """Bool flags per ``frame_s`` frame -> ``count`` flags per ``to_frame_s`` frame, each
    taken at the new frame's centre (False past the end); pure."""
    centre = (np.arange(count) + 0.5) * to_frame_s
    idx = (centre / frame_s).astype(int)
    out = np.zeros(count, dtype=bool)
    inside = idx < flags.size
    out[inside] = flags[idx[inside]]
    return out


def voice_flags(samples: np.ndarray, flags: np.ndarray, *, options: VadOptions) -> np.ndarray:
    """The voice track the measures use, one flag per webrtcvad frame: webrtcvad's own
    ``flags`` for ``samples`` (float32, 16 kHz), or Silero's speech when
    ``options.neural`` (see :attr:`VadOptions.neural`)."""
    if not options.neural:
        return flags
    speech = hysteresis(speech_probability(samples), options.neural_threshold)
    frame_s = options.frame_ms / 1000
    out = resample_flags(speech, frame_s=NEURAL_FRAME_S, to_frame_s=frame_s, count=flags.size)
    # frames past Silero's last whole window (the end of a live block) keep webrtcvad's
    tail = int(speech.size * NEURAL_FRAME_S / frame_s - 0.5) + 1
    out[tail:] = flags[tail:]
    return out


def true_runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """Runs of True in a bool array as ``(start, end)`` index pairs, ``end`` exclusive.

    >>> true_runs(np.array([False, True, True, False, True]))
    [(1, 3), (4, 5)]
    """
    padded = np.concatenate([[False], mask.astype(bool), [False]])
    edges = np.flatnonzero(np.diff(padded.astype(np.int8)))
    return [(int(a), int(b)) for a, b in zip(edges[::2], edges[1::2], strict=True)]


def flags_to_regions(
    flags: np.ndarray, *, options: VadOptions = VadOptions(), offset_s: float = 0.0
) -> list[tuple[float, float]]:
    """Turn per-frame speech flags into merged speech regions.

    Args:
        flags: bool per frame, as from :func:`voiced_flags`.
        options: frame length, merge gap and minimum region length.
        offset_s: time of frame 0 in seconds, added to every region.

    Returns:
        Sorted, non-overlapping ``(start_s, end_s)`` regions in seconds.
    """
    frame_s = options.frame_ms / 1000
    regions: list[list[float]] = []
    for start, end in true_runs(flags):
        a, b = start * frame_s, end * frame_s
        if regions and a - regions[-1][1] < options.merge_gap_s:
            regions[-1][1] = b
        else:
            regions.append([a, b])
    return [
        (round(float(a) + offset_s, 3), round(float(b) + offset_s, 3))
        for a, b in regions
        if b - a >= options.min_region_s
    ]


def speech_regions(
    samples: np.ndarray, *, options: VadOptions = VadOptions(), offset_s: float = 0.0
) -> tuple[np.ndarray, list[tuple[float, float]]]:
    """Voice activity of float32 16 kHz samples: (per-frame flags, merged regions in s)."""
    from coach.audio import to_int16

    flags = voiced_flags(to_int16(samples), options=options)
    return flags, flags_to_regions(flags, options=options, offset_s=offset_s)


def snap_to_voice(words: list, voiced: np.ndarray, *, frame_s: float) -> list:
    """Pull each word's edges in to the voice it covers.

    Whisper often starts a word early or stretches it over the silence that follows; a
    word edge that lies in a stretch webrtcvad calls silent is moved to the nearest
    voiced frame inside the word. A word with no voiced frame at all is left as it is.

    Args:
        words: :class:`coach.transcript.Word` list.
        voiced: bool voice activity per frame.
        frame_s: frame length in seconds.

    Returns:
        New list of words with adjusted ``start_s``/``end_s``.
    """
    from dataclasses import replace

    out = []
    n = voiced.size
    for w in words:
        i0 = max(0, int(w.start_s / frame_s))
        i1 = min(n, int(np.ceil(w.end_s / frame_s)))
        seg = voiced[i0:i1]
        if seg.size == 0 or not seg.any() or seg.all():
            out.append(w)
            continue
        first = i0 + int(np.argmax(seg))
        last = i0 + seg.size - int(np.argmax(seg[::-1]))
        start = max(w.start_s, first * frame_s) if not voiced[i0] else w.start_s
        end = min(w.end_s, last * frame_s) if not voiced[i1 - 1] else w.end_s
        out.append(replace(w, start_s=round(start, 3), end_s=round(max(start, end), 3)))
    return out
