"""Silent pauses against a forced alignment, in clean and degraded recordings (issue 8).

Why: webrtcvad misses quiet, hoarse or breathy speech, and every stretch it misses shows
as a pause the speaker never made (pause precision 0.43 and 0.26 on the hoarse 'external'
clips). The pause truth of ``../shared/eval`` and the external clips is held out, so
this bench brings its own development set:

- **Speech:** the Debian package ``festvox-ru`` 0.5+dfsg-6 (``DEB``): 620 real recordings
  of one male speaker reading prose (a unit-selection voice database, BSD-like licence,
  (c) 2005 Nickolay V. Shmyrev), each with its phone alignment (Festival ``.lab``, pauses
  labelled ``pau``). Fetched with ``apt-get download`` into the cache folder and checked
  by sha256; nothing is copied into the repository.
- **Truth:** a pause is a run of ``pau`` labels of at least 0.25 s between the first and
  the last phone (coach's own floor, ``PauseOptions.min_pause_s``).
- **Split (fixed before any figure was seen):** the clips sorted by name, the 1st, 3rd,
  5th... are ``dev`` (thresholds may be chosen on them), the 2nd, 4th... ``held_out``
  (only reported).
- **Conditions:** ``studio`` (as recorded); ``laptop``: speech 30 dB quieter and pink
  noise 15 dB under the speech (a far, quiet laptop microphone); ``noisy``: pink noise
  5 dB under the speech at the recorded level. The noise is seeded per clip.
- **Systems:** the voice track from webrtcvad (``VadOptions(neural=False)``, coach
  before this bench) and from Silero VAD (``neural=True``). Both go through
  coach's own ``pauses()`` with its loudness edges; the span is the aligned first and
  last phone, so only the voice track differs.

Scored per condition and split: pauses found / true, precision, recall and F1 (a found
pause is a hit when it overlaps a true one, as ``bench/accuracy.py`` scores them), and
the mean edge error of the hits.

Run: ``.venv/bin/python bench/pauses.py`` (``make bench-pauses``); figures go to
``bench/results/pauses.json``.
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from accuracy import pause_agreement  # noqa: E402
from external import cache_dir  # noqa: E402
from results import write_results  # noqa: E402

DEB = ("festvox-ru", "0.5+dfsg-6",
       "21ef3f0f2978ecf2e2eddb367cb0ff4a72572196d28dc69feb84f4177af5e6c4")  # fmt: skip
VOICE = "usr/share/festival/voices/russian/msu_ru_nsh_clunits"
MIN_PAUSE_S = 0.25
CONDITIONS = ("studio", "laptop", "noisy")


def fetch() -> Path:
    """The unpacked package (downloaded with apt-get once, its sha256 checked)."""
    name, version, sha = DEB
    root = cache_dir() / f"{name}_{version}"
    if (root / VOICE / "lab").is_dir():
        return root
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["apt-get", "download", f"{name}={version}"], cwd=tmp, check=True)
        deb = next(Path(tmp).glob("*.deb"))
        got = hashlib.sha256(deb.read_bytes()).hexdigest()
        if got != sha:
            raise SystemExit(f"{deb.name}: sha256 {got}, expected {sha}")
        root.mkdir(parents=True, exist_ok=True)
        subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True)
    return root


def read_lab(path: Path) -> list[tuple[float, float, str]]:
    """Festival label file -> (start s, end s, label) per segment."""
    out, prev, header = [], 0.0, True
    for line in path.read_text(encoding="latin-1").splitlines():
        if header:
            header = line.strip() != "#"
            continue
        parts = line.split()
        if len(parts) >= 3:
            end = float(parts[0])
            out.append((prev, end, parts[2]))
            prev = end
    return out


def truth(segments: list[tuple[float, float, str]]) -> tuple[float, float, list]:
    """(first phone start, last phone end, pauses of at least MIN_PAUSE_S between them)."""
    speech = [i for i, s in enumerate(segments) if s[2] not in ("pau", "sil")]
    a, b = speech[0], speech[-1]
    runs: list[list[float]] = []
    for start, end, label in segments[a : b + 1]:
        if label in ("pau", "sil"):
            if runs and abs(runs[-1][1] - start) < 1e-6:
                runs[-1][1] = end
            else:
                runs.append([start, end])
    pauses = [(s, e) for s, e in runs if e - s >= MIN_PAUSE_S - 1e-9]
    return segments[a][0], segments[b][1], pauses


def pink(n: int, rng: np.random.Generator) -> np.ndarray:
    """Pink (1/f) noise of unit RMS."""
    spec = np.fft.rfft(rng.standard_normal(n))
    f = np.arange(spec.size, dtype=np.float64)
    f[0] = 1.0
    x = np.fft.irfft(spec / np.sqrt(f), n)
    return x / (np.sqrt(np.mean(x**2)) or 1.0)


def degrade(x: np.ndarray, condition: str, seed: int) -> np.ndarray:
    """The recording as heard in ``condition`` (float32, clipped to [-1, 1])."""
    if condition == "studio":
        return x
    rng = np.random.default_rng(seed)
    loud = x[np.abs(x) > 0.01 * np.abs(x).max()]
    speech_rms = float(np.sqrt(np.mean(loud**2))) if loud.size else 0.01
    gain, snr_db = (10 ** (-30 / 20), 15.0) if condition == "laptop" else (1.0, 5.0)
    y = x * gain + pink(x.size, rng) * speech_rms * gain * 10 ** (-snr_db / 20)
    return np.clip(y, -1, 1).astype(np.float32)


def measure(x: np.ndarray, span: tuple[float, float], neural: bool) -> list[tuple[float, float]]:
    """coach's pauses for 16 kHz float32 audio, the voice track with or without Silero."""
    from coach import audio
    from coach.analysis import prosody
    from coach.analysis.pauses import pauses
    from coach.transcript import Word
    from coach.vad import VadOptions, voice_flags, voiced_flags

    opts = replace(VadOptions(), neural=neural)
    flags = voiced_flags(audio.to_int16(x), options=opts)
    voice = voice_flags(x, flags, options=opts)
    tracks = prosody.frame_tracks(x, voice, vad_frame_s=opts.frame_ms / 1000)
    words = [Word("a", span[0], span[0] + 0.05), Word("b", span[1] - 0.05, span[1])]
    found = pauses(words, tracks.voiced, frame_s=opts.frame_ms / 1000, rms_db=tracks.rms_db)
    return [(p.start_s, p.end_s) for p in found.items]


def score(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Pooled figures: a found pause that overlaps a true one is a hit."""
    found = sum(r["found"] for r in rows)
    true = sum(r["truth"] for r in rows)
    hits = sum(r["hits"] for r in rows)
    caught = sum(r["caught"] for r in rows)
    p = hits / found if found else 1.0
    r = caught / true if true else 1.0
    errs = [r["edge_error_s"] for r in rows if r["hits"]]
    return {"clips": len(rows), "truth": true, "found": found, "precision": round(p, 3),
            "recall": round(r, 3), "f1": round(2 * p * r / (p + r) if p + r else 0.0, 3),
            "edge_error_s": round(float(np.mean(errs)), 3) if errs else None}  # fmt: skip


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=0, help="only the first N clips of each split")
    ap.add_argument("--no-write", action="store_true", help="do not write bench/results")
    args = ap.parse_args()
    import soundfile as sf

    root = fetch() / VOICE
    labs = sorted((root / "lab").glob("ru_*.lab"))
    splits = {"dev": labs[0::2], "held_out": labs[1::2]}
    if args.limit:
        splits = {k: v[: args.limit] for k, v in splits.items()}
    figures: dict[str, Any] = {"source": {"deb": DEB[0], "version": DEB[1], "sha256": DEB[2]},
                               "min_pause_s": MIN_PAUSE_S, "systems": {}}  # fmt: skip
    seconds = {"webrtcvad": 0.0, "silero": 0.0}
    for system, neural in (("webrtcvad", False), ("silero", True)):
        out: dict[str, Any] = {}
        for split, files in splits.items():
            for condition in CONDITIONS:
                rows = []
                for i, lab in enumerate(files):
                    x, sr = sf.read(root / "wav" / f"{lab.stem}.wav", dtype="float32")
                    assert sr == 16000, (lab.stem, sr)
                    start, end, true = truth(read_lab(lab))
                    y = degrade(x, condition, seed=i)
                    t0 = time.perf_counter()
                    found = measure(y, (start, end), neural)
                    seconds[system] += time.perf_counter() - t0
                    p, r, err = pause_agreement(true, found)
                    rows.append({"clip": lab.stem, "truth": len(true), "found": len(found),
                                 "hits": round(p * len(found)), "caught": round(r * len(true)),
                                 "edge_error_s": err})  # fmt: skip
                out[f"{split}/{condition}"] = score(rows)
                s = out[f"{split}/{condition}"]
                print(f"{system:20s} {split:8s} {condition:7s} found {s['found']:4d} of "
                      f"{s['truth']:4d}  P {s['precision']:.3f} R {s['recall']:.3f} "
                      f"F1 {s['f1']:.3f}", flush=True)  # fmt: skip
        figures["systems"][system] = out
    figures["seconds"] = {k: round(v, 1) for k, v in seconds.items()}
    if not args.no_write:
        print("figures written to", write_results("pauses", figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
