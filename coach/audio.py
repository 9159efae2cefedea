"""Audio input at the edges: decode any file to 16 kHz mono float32, in blocks.

Decoding streams through PyAV (FFmpeg), so an hour-long file is never held decoded in
several copies: :func:`iter_blocks` yields fixed-size blocks as they are decoded and
resampled. Everything downstream sees one format: 16 kHz mono float32 in [-1, 1].
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from coach import SAMPLE_RATE
from coach.errors import AudioError

logger = logging.getLogger(__name__)

AUDIO_EXTENSIONS = (".wav", ".flac", ".mp3", ".m4a", ".ogg", ".opus", ".aac", ".webm", ".mp4")
"""File name endings picked up when a folder is scored."""


@dataclass(frozen=True)
class AudioInfo:
    """What a file holds, read from its header without decoding it."""

    path: Path
    """The file."""
    duration_s: float | None
    """Duration in seconds as the container states it (None if it does not say)."""
    sample_rate_hz: int
    """The file's own sample rate in Hz."""
    channels: int
    """The file's own channel count."""
    codec: str
    """Codec name as FFmpeg calls it (pcm_s16le, flac, mp3, aac, vorbis...)."""


def _check_file(path: Path) -> None:
    if not path.exists():
        raise AudioError(f"{path}: no such file")
    if path.is_dir():
        raise AudioError(f"{path}: is a folder, not an audio file")
    if not os.access(path, os.R_OK):
        raise AudioError(f"{path}: not readable (check its permissions)")
    if path.stat().st_size == 0:
        raise AudioError(f"{path}: empty file (0 bytes)")


def is_url(source: str | os.PathLike[str]) -> bool:
    """True for a URL FFmpeg opens itself ("http://...", "https://..."); a plain path or a
    ``file://`` URI is False."""
    head, sep, _ = str(source).partition("://")
    return bool(sep) and head.isalpha() and len(head) > 1 and head.lower() != "file"


def _source(path: str | os.PathLike[str]) -> Path | str:
    """A path as a Path; a URL as it is; a ``file://`` URI as its path."""
    text = str(path)
    if text.startswith("file://"):
        from urllib.parse import unquote, urlparse

        return Path(unquote(urlparse(text).path))
    return text if is_url(text) else Path(path)


def _open(path: Path | str):  # type: ignore[no-untyped-def]
    import av

    if isinstance(path, Path):
        _check_file(path)
    try:
        container = av.open(str(path), metadata_errors="ignore")
    except (av.error.FFmpegError, UnicodeDecodeError, OSError) as exc:
        raise AudioError(f"{path}: not a readable audio file ({_reason(exc)})") from exc
    if not container.streams.audio:
        container.close()
        raise AudioError(f"{path}: contains no audio stream")
    return container


def _reason(exc: Exception) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    # PyAV messages look like "[Errno 1094995529] Invalid data found when processing input: 'x'"
    if "]" in text and text.startswith("[Errno"):
        text = text.split("]", 1)[1].strip()
    return text.split(":")[0].strip() or type(exc).__name__


def probe(path: str | os.PathLike[str]) -> AudioInfo:
    """Read a file's header: duration, rate, channels, codec.

    Raises:
        AudioError: the file is missing, empty or not audio.
    """
    path = Path(path)
    container = _open(path)
    try:
        stream = container.streams.audio[0]
        duration = None
        if stream.duration is not None and stream.time_base is not None:
            duration = float(stream.duration * stream.time_base)
        elif container.duration is not None:
            duration = container.duration / 1_000_000
        return AudioInfo(
            path=path,
            duration_s=duration,
            sample_rate_hz=int(stream.codec_context.sample_rate or 0),
            channels=int(stream.codec_context.channels or 0),
            codec=stream.codec_context.name,
        )
    finally:
        container.close()


def iter_blocks(
    path: str | os.PathLike[str], *, block_s: float = 30.0, sample_rate_hz: int = SAMPLE_RATE
) -> Iterator[np.ndarray]:
    """Decode a file to mono float32 at ``sample_rate_hz``, yielding blocks as they come.

    Args:
        path: Any file FFmpeg reads (wav, flac, mp3, m4a, ogg...), any rate, mono or stereo
            (channels are averaged); or a URL FFmpeg opens (http, https) or a file:// URI.
        block_s: Length of each yielded block in seconds (the last one may be shorter).
        sample_rate_hz: Output sample rate in Hz.

    Yields:
        float32 arrays of shape ``(n,)`` in [-1, 1].

    Raises:
        AudioError: missing, empty, not audio, or the stream breaks off in a way FFmpeg
            cannot recover from. A file truncated mid-stream yields what could be decoded.
    """
    import av

    path = _source(path)
    block_n = max(1, int(block_s * sample_rate_hz))
    container = _open(path)
    pending: list[np.ndarray] = []
    pending_n = 0
    decoded_any = False
    try:
        stream = container.streams.audio[0]
        # Resample in the file's own channel layout and average the channels here: FFmpeg's
        # own downmix adds channels at -3 dB each, which pushes loud stereo past full scale.
        channels = max(1, stream.codec_context.channels or 1)
        layout = stream.codec_context.layout.name if channels <= 8 else "mono"
        resampler = av.AudioResampler(format="fltp", layout=layout, rate=sample_rate_hz)
        try:
            for frame in container.decode(stream):
                frame.pts = None  # let the resampler follow the samples, not broken stamps
                for out in resampler.resample(frame):
                    arr = _mono(out.to_ndarray())
                    pending.append(arr)
                    pending_n += arr.size
                    decoded_any = True
                while pending_n >= block_n:
                    joined = np.concatenate(pending)
                    yield joined[:block_n].astype(np.float32, copy=False)
                    rest = joined[block_n:]
                    pending, pending_n = ([rest] if rest.size else []), rest.size
        except av.error.FFmpegError as exc:
            if not decoded_any:
                raise AudioError(f"{path}: cannot decode audio ({_reason(exc)})") from exc
            logger.warning("%s: stream breaks off (%s); using what was decoded", path, _reason(exc))
        for out in resampler.resample(None):
            arr = _mono(out.to_ndarray())
            pending.append(arr)
            pending_n += arr.size
    finally:
        container.close()
    if pending_n:
        yield np.concatenate(pending).astype(np.float32, copy=False)


def _mono(planar: np.ndarray) -> np.ndarray:
    """(channels, n) planar float to (n,) by averaging the channels."""
    if planar.ndim == 1:
        return planar
    if planar.shape[0] == 1:
        return planar[0]
    return planar.mean(axis=0)


def load(path: str | os.PathLike[str], *, sample_rate_hz: int = SAMPLE_RATE) -> np.ndarray:
    """Decode a whole file to one mono float32 array (for short clips and tests)."""
    blocks = list(iter_blocks(path, sample_rate_hz=sample_rate_hz))
    if not blocks:
        return np.zeros(0, dtype=np.float32)
    return np.concatenate(blocks)


def to_int16(samples: np.ndarray) -> np.ndarray:
    """float32 in [-1, 1] to int16 PCM (clipped), as webrtcvad and wav files want."""
    return (np.clip(samples, -1.0, 1.0) * 32767.0).astype(np.int16)


def write_wav(path: str | os.PathLike[str], samples: np.ndarray, sample_rate_hz: int) -> None:
    """Write mono samples (float32 or int16) to a 16-bit PCM wav file."""
    import soundfile as sf

    data = samples if samples.dtype == np.int16 else to_int16(samples)
    sf.write(str(path), data, sample_rate_hz, subtype="PCM_16")


def find_audio_files(inputs: list[str | os.PathLike[str]]) -> list[Path]:
    """Expand files and folders (recursively) into a sorted list of audio files.

    Files named explicitly are kept whatever their ending, so a bad one is reported rather
    than silently skipped; folders contribute files whose ending is in AUDIO_EXTENSIONS.
    """
    out: list[Path] = []
    for item in inputs:
        p = Path(item)
        if p.is_dir():
            found = sorted(
                f for f in p.rglob("*") if f.is_file() and f.suffix.lower() in AUDIO_EXTENSIONS
            )
            out.extend(found)
        else:
            out.append(p)
    return out
