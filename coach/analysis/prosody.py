"""Pitch and volume: per-frame tracks and their variety.

Pitch uses YIN (librosa.yin's figures, worked out in numpy) at a 10 ms hop: about 0.003 s of
compute per second of audio on the 2-core development machine, against 0.08 s for pYIN
(``make bench-pitch``). YIN has
no voicing decision of its own, so a frame counts as voiced only if webrtcvad hears speech,
it is loud enough and its zero-crossing rate is low (periodic sound). YIN also picks a
harmonic or subharmonic now and then (on a 92 Hz voice, frames at 400-500 Hz), so
:func:`clean_pitch` folds pieces of track far from the running median back by a whole
multiple, drops pieces too short to be a vowel and smooths what is left.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

import numpy as np

from coach import SAMPLE_RATE
from coach.errors import OptionsError
from coach.transcript import Word

HOP_S = 0.01
"""Hop of every per-frame track, in seconds (10 ms)."""
PIECE_S = 30.0
"""Longest stretch measured at once, seconds (bounds memory)."""


@dataclass(frozen=True)
class ProsodyOptions:
    """Pitch and volume thresholds."""

    fmin_hz: float = 65.0
    """Lowest pitch searched, Hz (below a low male voice)."""
    fmax_hz: float = 450.0
    """Highest pitch searched, Hz (above a high female voice in speech)."""
    monotone_st: float = 2.0
    """Pitch spread (standard deviation, semitones) below which speech sounds monotone.
    Hincks (2005, "Measures and perceptions of liveliness in student oral presentation
    speech") found speakers with a pitch variation quotient under about 0.11 judged
    monotonous; 0.11 of the mean is about 1.9 semitones."""
    quiet_db: float = 35.0
    """Frames more than this many dB below the clip's loud speech (95th percentile) are
    not used for pitch."""
    max_zcr: float = 0.25
    """Zero-crossing rate (crossings per sample) above which a frame is noise-like."""
    jump_st: float = 4.0
    """A frame whose pitch is this many semitones off its neighbours' median is dropped
    (the check used before octave correction, kept for ``octave_fix=False``)."""
    octave_fix: bool = True
    """Correct octave errors (see :func:`clean_pitch`); False keeps the raw YIN track with
    only the neighbour check of ``jump_st`` (coach before issue 8, for comparison)."""
    reference_s: float = 2.0
    """Width of the running median that octave errors are judged against, seconds: long
    enough that a run of wrong frames cannot pull it away, short enough to follow
    intonation (a phrase lasts about 2 s)."""
    octave_st: float = 10.0
    """A piece of track more than this many semitones from the running median is an
    octave error. YIN's errors are whole multiples (12 semitones or more, 19 to 28 for
    the 300-500 Hz picks on a 90 Hz voice); a lively speaker's excursions reach about 10
    (chosen on ../shared/eval with ``make bench-pitch``: 8 to 11 all do about as well)."""
    step_st: float = 6.0
    """A step this large (semitones) between neighbouring frames starts a new piece. The
    voice moves at most about 1.2 semitones per 10 ms (Xu and Sun 2002, "Maximum speed of
    pitch change and how it may relate to speech"), so such a step is a tracking error."""
    smooth_frames: int = 5
    """Frames of the median smoother over voiced frames (5 frames: 50 ms)."""
    min_voiced_s: float = 0.05
    """Pieces of voiced track shorter than this are dropped, seconds: a vowel lasts at
    least about 50 ms, so a shorter piece is a glitch in a pause or a consonant."""
    trail_off_db: float = 6.0
    """A sentence trails off if its last word is this many dB quieter than the sentence
    (6 dB is half the sound pressure, a clearly audible drop)."""
    min_sentence_words: int = 4
    """Sentences shorter than this are not judged for trailing off."""

    def __post_init__(self) -> None:
        if not (self.octave_st > 0 and self.step_st > 0 and self.reference_s > 0):
            raise OptionsError(
                "pitch correction needs octave_st > 0, step_st > 0 (semitones) and "
                f"reference_s > 0 (seconds), got {self.octave_st}, {self.step_st} and "
                f"{self.reference_s}"
            )
        if self.smooth_frames < 1 or self.min_voiced_s < 0:
            raise OptionsError(
                "pitch smoothing needs smooth_frames >= 1 and min_voiced_s >= 0, got "
                f"{self.smooth_frames} and {self.min_voiced_s}"
            )


@dataclass
class Tracks:
    """Per-frame measurements of a clip at a 10 ms hop (frame i starts at i * 10 ms)."""

    f0_hz: np.ndarray
    """Pitch in Hz per frame, NaN where unvoiced; float32."""
    rms_db: np.ndarray
    """Loudness per frame in dB re full scale; float32."""
    voiced: np.ndarray
    """webrtcvad voice activity per 30 ms frame; bool."""
    vad_frame_s: float = 0.03
    """Frame length of ``voiced`` in seconds."""
    envelope: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), np.float32))
    """Waveform envelope: (min, max) sample per 10 ms frame, for drawing; float32."""

    @staticmethod
    def concat(parts: list[Tracks]) -> Tracks:
        """Join tracks of consecutive chunks."""
        if not parts:
            return Tracks(np.zeros(0, np.float32), np.zeros(0, np.float32), np.zeros(0, bool))
        return Tracks(
            np.concatenate([p.f0_hz for p in parts]),
            np.concatenate([p.rms_db for p in parts]),
            np.concatenate([p.voiced for p in parts]),
            parts[0].vad_frame_s,
            np.concatenate([p.envelope for p in parts]),
        )


def _windows(y: np.ndarray, frame_length: int, hop: int) -> np.ndarray:
    """Frames of ``y`` as rows (a view), one every ``hop`` samples."""
    return np.lib.stride_tricks.sliding_window_view(y, frame_length)[::hop]


def _rms(y: np.ndarray, *, frame_length: int, hop: int) -> np.ndarray:
    """Root-mean-square level of centred, zero-padded frames (as ``librosa.feature.rms``)."""
    x = _windows(np.pad(y, frame_length // 2), frame_length, hop)
    return np.sqrt(np.mean(np.square(x, dtype=np.float32), axis=-1, dtype=np.float32))


def _zcr(y: np.ndarray, *, frame_length: int, hop: int) -> np.ndarray:
    """Zero-crossing rate of centred, edge-padded frames (as
    ``librosa.feature.zero_crossing_rate``: |y| <= 1e-10 counts as 0, and 0 as positive)."""
    yp = np.pad(y, frame_length // 2, mode="edge")
    sign = np.signbit(np.where(np.abs(yp) <= 1e-10, 0, yp))
    change = np.zeros(yp.size, bool)
    change[1:] = sign[1:] != sign[:-1]
    x = _windows(change, frame_length, hop).copy()
    x[:, 0] = False  # a frame's first sample has no neighbour inside it
    return x.mean(axis=-1)


def _yin(
    y: np.ndarray, *, fmin: float, fmax: float, sr: int, frame_length: int, hop: int,
    only: np.ndarray | None = None, trough_threshold: float = 0.1,
) -> np.ndarray:  # fmt: skip
    """YIN pitch (Hz) of centred, zero-padded frames: the figures of ``librosa.yin``
    (de Cheveigne and Kawahara 2002), for the frames flagged in ``only`` (NaN elsewhere).

    Plain numpy and scipy.fft: importing librosa and compiling its numba helpers took
    longer than the pitch of a 10-minute talk (``make bench-speed``).
    """
    import scipy.fft

    fr = _windows(np.pad(y, frame_length // 2), frame_length, hop)
    f0 = np.full(fr.shape[0], np.nan)
    idx = np.arange(fr.shape[0]) if only is None else np.flatnonzero(only[: fr.shape[0]])
    min_p = int(np.floor(sr / fmax))
    max_p = min(int(np.ceil(sr / fmin)), frame_length - 1)
    n_fft = scipy.fft.next_fast_len(2 * frame_length - 1, real=True)
    lags = np.arange(1, max_p + 1).reshape(-1, 1)
    for s in range(0, idx.size, 2048):
        x = fr[idx[s : s + 2048]].T  # (frame_length, frames)
        spec = scipy.fft.rfft(x, n=n_fft, axis=0)
        acf = scipy.fft.irfft(spec.real**2 + spec.imag**2, n=n_fft, axis=0)[: max_p + 1]
        # difference function d(k) = 2 (acf(0) - acf(k)) - sum_{m<k} y(m)^2, the energy
        # sum of lag 0 taken as 0 (as librosa has it)
        d = np.cumsum(np.square(x), axis=0)
        d[0] = 0
        d[1 : max_p + 1] = 2 * (acf[0:1] - acf[1 : max_p + 1]) - d[:max_p]
        mean = np.cumsum(d[1 : max_p + 1], axis=0) / lags
        den = mean[min_p - 1 : max_p]
        cmnd = d[min_p : max_p + 1] / (den + np.finfo(den.dtype).tiny)
        a = cmnd[2:] + cmnd[:-2] - 2 * cmnd[1:-1]
        b = (cmnd[2:] - cmnd[:-2]) / 2
        shift = np.zeros_like(cmnd)
        with np.errstate(divide="ignore", invalid="ignore"):
            shift[1:-1] = np.where(np.abs(b) >= np.abs(a), 0, -b / a)
        trough = np.zeros(cmnd.shape, bool)
        trough[1:-1] = (cmnd[1:-1] < cmnd[:-2]) & (cmnd[1:-1] <= cmnd[2:])
        trough[0] = cmnd[0] < cmnd[1]
        trough[-1] = cmnd[-1] < cmnd[-2]
        below = trough & (cmnd < trough_threshold)
        period = np.argmax(below, axis=0)
        none = ~below.any(axis=0)
        period[none] = np.argmin(cmnd, axis=0)[none]
        shifted = min_p + period + np.take_along_axis(shift, period[None, :], axis=0)[0]
        f0[idx[s : s + 2048]] = sr / shifted
    return f0


def frame_tracks(
    samples: np.ndarray, voiced: np.ndarray, *, vad_frame_s: float = 0.03,
    options: ProsodyOptions = ProsodyOptions(), ref_db: float | None = None,
) -> Tracks:  # fmt: skip
    """Measure pitch, loudness and the waveform envelope per 10 ms frame.

    Args:
        samples: float32 mono 16 kHz audio; its length should be a multiple of 480 samples
            (30 ms) so chunks join without drift.
        voiced: webrtcvad flags for the same audio.
        vad_frame_s: frame length of ``voiced`` (s).
        options: thresholds.
        ref_db: loud-speech level (dB) for the quiet-frame cut; measured here if None.

    Returns:
        Tracks with ``len(samples) // 160`` frames.
    """
    hop = int(SAMPLE_RATE * HOP_S)
    n = samples.size // hop
    if n == 0:
        return Tracks(np.zeros(0, np.float32), np.zeros(0, np.float32), voiced, vad_frame_s)
    y = samples[: n * hop]
    frames = y.reshape(n, hop)
    envelope = np.stack([frames.min(axis=1), frames.max(axis=1)], axis=1).astype(np.float32)
    # voice activity at 10 ms
    per = max(1, int(round(vad_frame_s / HOP_S)))
    vad10 = np.repeat(voiced, per)[:n]
    if vad10.size < n:
        vad10 = np.concatenate([vad10, np.zeros(n - vad10.size, bool)])
    # YIN holds ~10 float arrays of 1024 x frames, so long audio is measured in pieces of
    # PIECE_S to keep memory flat. Pitch is worked out only where webrtcvad hears speech
    # (it is dropped everywhere else below).
    rms_parts, zcr_parts, f0_parts = [], [], []
    piece = int(PIECE_S / HOP_S) * hop
    for i in range(0, y.size, piece):
        yp = y[i : i + piece]
        m = yp.size // hop
        rms_parts.append(_rms(yp, frame_length=400, hop=hop)[:m])
        zcr_parts.append(_zcr(yp, frame_length=400, hop=hop)[:m])
        if yp.size >= 1024:
            f0_parts.append(_yin(
                yp, fmin=options.fmin_hz, fmax=options.fmax_hz, sr=SAMPLE_RATE,
                frame_length=1024, hop=hop, only=vad10[i // hop : i // hop + m],
            )[:m].astype(np.float32))  # fmt: skip
        else:
            f0_parts.append(np.full(m, np.nan, np.float32))
    rms_db = (20 * np.log10(np.maximum(np.concatenate(rms_parts), 1e-5))).astype(np.float32)
    zcr = np.concatenate(zcr_parts)
    f0 = np.concatenate(f0_parts)
    if ref_db is None:
        speech = rms_db[vad10]
        ref_db = float(np.percentile(speech, 95)) if speech.size else float(rms_db.max())
    ok = vad10 & (rms_db > ref_db - options.quiet_db) & (zcr < options.max_zcr)
    f0 = np.where(ok, f0, np.nan).astype(np.float32)
    f0 = (
        clean_pitch(f0, options=options) if options.octave_fix else _drop_jumps(f0, options.jump_st)
    )
    return Tracks(f0, rms_db, voiced.astype(bool), vad_frame_s, envelope)


_MULTIPLES = np.array([1 / 2, 2.0, 3.0, 4.0, 5.0])
"""Ratios of YIN's wrong picks to the true pitch: a subharmonic (1/2) or a harmonic."""


def clean_pitch(f0: np.ndarray, *, options: ProsodyOptions = ProsodyOptions()) -> np.ndarray:
    """Correct octave errors in a pitch track, drop stray voiced frames and smooth it.

    The track is cut into pieces: runs of voiced frames with no step of
    ``options.step_st`` or more between neighbours (YIN's octave errors start and end
    with such a step; a voice does not move that fast). A piece shorter than
    ``options.min_voiced_s`` is dropped. A piece whose frames lie, by their median, more
    than ``options.octave_st`` semitones from the running median of the voiced frames
    (over ``options.reference_s``) is divided by the whole multiple (1/2, 2, 3, 4 or 5)
    that brings it nearest, or dropped if none brings it within ``octave_st``. Last, the
    voiced frames are median-smoothed over ``options.smooth_frames``.

    Args:
        f0: pitch per 10 ms frame, Hz, NaN where unvoiced; shape (frames,).
        options: thresholds.

    Returns:
        The corrected track, float32, same shape, NaN where unvoiced.
    """
    f0 = np.asarray(f0, dtype=np.float64)
    voiced = f0 > 0  # False for NaN
    min_frames = max(1, int(round(options.min_voiced_s / HOP_S)))
    if voiced.sum() < min_frames:
        return np.full(f0.shape, np.nan, np.float32)
    st = np.where(voiced, 12 * np.log2(np.where(voiced, f0, 1.0) / 100.0), np.nan)
    prev = np.concatenate([[np.nan], st[:-1]])
    starts = voiced & ~(np.abs(st - prev) < options.step_st)  # NaN compares False
    ref = _running_median(st, half=int(options.reference_s / HOP_S / 2))
    piece = np.where(voiced, np.cumsum(starts), 0)  # 1, 2, ... per piece; 0 unvoiced
    sizes = np.bincount(piece)
    st[voiced & (sizes[piece] < min_frames)] = np.nan
    shifts = -12 * np.log2(_MULTIPLES)
    # only pieces with a frame far from the median can be far by their median
    for k in np.unique(piece[np.abs(st - ref) > options.octave_st]):
        frames = piece == k
        off = float(np.median(st[frames] - ref[frames]))
        if abs(off) > options.octave_st:
            best = int(np.argmin(np.abs(off + shifts)))
            ok = abs(off + shifts[best]) <= options.octave_st
            st[frames] = st[frames] + shifts[best] if ok else np.nan
    st = _smooth(st, options.smooth_frames)
    return (100.0 * 2 ** (st / 12)).astype(np.float32)


def _nanmedian_rows(windows: np.ndarray) -> np.ndarray:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN rows give NaN
        return np.nanmedian(windows, axis=1)


def _running_median(st: np.ndarray, *, half: int, step: int = 10) -> np.ndarray:
    """Median of the voiced values within ``half`` frames of each frame.

    Measured every ``step`` frames and interpolated between, so memory stays at
    ``frames / step * (2 * half + 1)`` values. Stretches with fewer than 10 voiced frames
    in reach take the value of the nearest stretch that has them.
    """
    n = st.size
    centers = np.arange(0, n, step)
    padded = np.pad(st, half, constant_values=np.nan)
    windows = np.lib.stride_tricks.sliding_window_view(padded, 2 * half + 1)[centers]
    med = _nanmedian_rows(windows)
    med[np.sum(~np.isnan(windows), axis=1) < 10] = np.nan
    ok = ~np.isnan(med)
    if not ok.any():
        return np.full(n, np.nanmedian(st))
    return np.interp(np.arange(n), centers[ok], med[ok])


def _smooth(st: np.ndarray, width: int) -> np.ndarray:
    """Median over ``width`` frames, voiced frames only; unvoiced frames stay NaN."""
    if width <= 1:
        return st
    half = width // 2
    windows = np.lib.stride_tricks.sliding_window_view(
        np.pad(st, half, constant_values=np.nan), 2 * half + 1
    )
    return np.where(np.isnan(st), np.nan, _nanmedian_rows(windows))


def _drop_jumps(f0: np.ndarray, jump_st: float, width: int = 7) -> np.ndarray:
    """NaN out frames far from the median of their voiced neighbours (octave errors)."""
    if f0.size < 3:
        return f0
    st = 12 * np.log2(f0 / 100.0)
    pad = width // 2
    padded = np.pad(st, pad, constant_values=np.nan)
    windows = np.lib.stride_tricks.sliding_window_view(padded, width)
    with np.errstate(all="ignore"):
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            med = np.nanmedian(windows, axis=1)
            counts = np.sum(~np.isnan(windows), axis=1)
    bad = (np.abs(st - med) > jump_st) | (counts < 3)
    out = f0.copy()
    out[bad] = np.nan
    return out


@dataclass
class PitchStats:
    """Pitch variety of a clip."""

    median_hz: float = 0.0
    """Median pitch over voiced frames, Hz."""
    spread_st: float = 0.0
    """Standard deviation of pitch in semitones (re the median): the variety figure."""
    range_st: float = 0.0
    """5th to 95th percentile range of pitch, semitones."""
    monotone: bool = False
    """Spread below the monotone threshold."""
    monotone_threshold_st: float = 2.0
    """Threshold used, semitones."""
    voiced_s: float = 0.0
    """Seconds of voiced frames the figures rest on."""

    def to_dict(self) -> dict:
        return asdict(self)


def pitch_stats(tracks: Tracks, options: ProsodyOptions = ProsodyOptions()) -> PitchStats:
    """Pitch variety over voiced frames (needs at least 1 s of voice to judge monotony)."""
    f0 = tracks.f0_hz[~np.isnan(tracks.f0_hz)]
    stats = PitchStats(monotone_threshold_st=options.monotone_st)
    if f0.size < 20:
        return stats
    med = float(np.median(f0))
    st = 12 * np.log2(f0 / med)
    stats.median_hz = round(med, 1)
    stats.spread_st = round(float(np.std(st)), 2)
    lo, hi = np.percentile(st, [5, 95])
    stats.range_st = round(float(hi - lo), 2)
    stats.voiced_s = round(f0.size * HOP_S, 2)
    stats.monotone = stats.voiced_s >= 1.0 and stats.spread_st < options.monotone_st
    return stats


@dataclass(frozen=True)
class TrailOff:
    """A sentence whose end drops in volume."""

    start_s: float
    """Start of the sentence's last word, seconds."""
    end_s: float
    """End of the sentence, seconds."""
    drop_db: float
    """How much quieter the last word is than the sentence, dB."""


@dataclass
class EnergyStats:
    """Volume variety of a clip."""

    mean_db: float = 0.0
    """Mean loudness of voiced frames, dB re full scale."""
    spread_db: float = 0.0
    """Standard deviation of loudness over voiced frames, dB: the variety figure."""
    range_db: float = 0.0
    """10th to 90th percentile range of voiced loudness, dB."""
    sentences: int = 0
    """Sentences judged for trailing off."""
    trail_offs: list[TrailOff] = field(default_factory=list)
    """Sentences whose last word drops by the trail-off threshold or more."""
    trail_off_threshold_db: float = 6.0
    """Threshold used, dB."""

    def to_dict(self) -> dict:
        d = asdict(self)
        d["trail_off_count"] = len(self.trail_offs)
        return d


def _frames(tracks_len: int, a: float, b: float) -> slice:
    return slice(max(0, int(a / HOP_S)), min(tracks_len, int(np.ceil(b / HOP_S))))


def energy_stats(
    tracks: Tracks, words: list[Word], options: ProsodyOptions = ProsodyOptions()
) -> EnergyStats:
    """Volume variety over voiced frames and trailing off at sentence ends.

    Args:
        tracks: per-frame tracks of the clip.
        words: lexical words in time order (punctuation marks sentence ends).
        options: thresholds.
    """
    stats = EnergyStats(trail_off_threshold_db=options.trail_off_db)
    n = tracks.rms_db.size
    per = max(1, int(round(tracks.vad_frame_s / HOP_S)))
    vad10 = np.repeat(tracks.voiced, per)[:n]
    db = tracks.rms_db[: vad10.size][vad10]
    if db.size < 20:
        return stats
    loud = db[db > np.percentile(db, 95) - options.quiet_db]
    stats.mean_db = round(float(loud.mean()), 1)
    stats.spread_db = round(float(loud.std()), 2)
    lo, hi = np.percentile(loud, [10, 90])
    stats.range_db = round(float(hi - lo), 2)
    sentence: list[Word] = []
    for w in words:
        sentence.append(w)
        if w.ends_sentence or w is words[-1]:
            if len(sentence) >= options.min_sentence_words:
                stats.sentences += 1
                body = tracks.rms_db[_frames(n, sentence[0].start_s, sentence[-2].end_s)]
                last = tracks.rms_db[_frames(n, sentence[-1].start_s, sentence[-1].end_s)]
                if body.size and last.size:
                    # loudness of a word = its loud frames (the vowel), not its edges
                    body_db = float(np.percentile(body, 75))
                    last_db = float(np.percentile(last, 75))
                    drop = body_db - last_db
                    if drop >= options.trail_off_db:
                        stats.trail_offs.append(
                            TrailOff(sentence[-1].start_s, sentence[-1].end_s, round(drop, 1))
                        )
            sentence = []
    return stats
