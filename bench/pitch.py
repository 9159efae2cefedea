"""Pitch tracks of coach against a pYIN reference on real speech (../shared/eval).

For every clip, librosa.pyin (fmin 65 Hz, fmax 500 Hz, 64 ms frames at a 10 ms hop, its
own voicing decision, near-silent frames unvoiced) gives the reference track. The old
coach track (YIN with the neighbour-jump check, ``ProsodyOptions(octave_fix=False)``) and
the new one (YIN with octave correction, :func:`coach.analysis.prosody.clean_pitch`) are
compared with it:

- gross pitch error (GPE): share of frames voiced in both where the track is more than
  20 % off the reference;
- octave jumps per minute: steps of 9 semitones or more between voiced frames at most
  30 ms apart (a voice does not move that far that fast);
- voicing: share of the reference's voiced frames the track keeps, and share of the
  track's voiced frames the reference calls unvoiced;
- median, spread and range errors in semitones against the same figures of the reference
  (:func:`coach.analysis.prosody.pitch_stats` on both).

Then the cost of the pitch stage on 60 s of speech: coach's frame tracks, old and new, and
pYIN at coach's settings. Figures go to bench/results/pitch.json.

Run: ``.venv/bin/python bench/pitch.py`` (or ``make bench-pitch``).
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
from results import load_truth, write_results

from coach import SAMPLE_RATE, audio
from coach.analysis import prosody
from coach.vad import VadOptions, voiced_flags

REF_FMIN, REF_FMAX = 65.0, 500.0
"""Reference search range, Hz."""
JUMP_ST = 9.0
"""A step this large (semitones) between near voiced frames counts as an octave jump."""
JUMP_GAP = 3
"""Largest frame distance between two voiced frames whose step is checked."""
REF_FLOOR_DB = -55.0
"""Frames quieter than this (dB re full scale) are unvoiced in the reference."""
REF_RANGE_DB = 35.0
"""Frames more than this below the clip's loud level (dB) are unvoiced in the reference."""
GPE_TOL = 0.2
"""Relative deviation above which a frame is a gross pitch error."""
TRACKS = {"old": prosody.ProsodyOptions(octave_fix=False), "new": prosody.ProsodyOptions()}


def reference(samples: np.ndarray, rms_db: np.ndarray) -> np.ndarray:
    """pYIN track (Hz, NaN where unvoiced), frame i centred at i * hop.

    pYIN calls near-silent frames voiced at about 490 Hz (the MFA clips' silences, at -70
    to -90 dB), so a frame also needs some sound to count: at least ``REF_FLOOR_DB`` and
    within ``REF_RANGE_DB`` of the clip's loud frames (95th percentile).
    """
    import librosa

    f0, flag, _ = librosa.pyin(
        samples, fmin=REF_FMIN, fmax=REF_FMAX, sr=SAMPLE_RATE, frame_length=1024,
        hop_length=int(SAMPLE_RATE * prosody.HOP_S), center=True,
    )  # fmt: skip
    n = min(f0.size, rms_db.size)
    loud = rms_db[:n] > max(REF_FLOOR_DB, float(np.percentile(rms_db, 95)) - REF_RANGE_DB)
    return np.where(flag[:n] & loud, f0[:n], np.nan)


def octave_jumps(f0: np.ndarray) -> int:
    """Steps of ``JUMP_ST`` or more between voiced frames at most ``JUMP_GAP`` apart."""
    idx = np.flatnonzero(~np.isnan(f0))
    if idx.size < 2:
        return 0
    near = np.diff(idx) <= JUMP_GAP
    step = np.abs(12 * np.log2(f0[idx[1:]] / f0[idx[:-1]]))
    return int(np.sum(near & (step >= JUMP_ST)))


def stats_of(f0: np.ndarray) -> prosody.PitchStats:
    empty = np.zeros(f0.size, np.float32)
    tracks = prosody.Tracks(f0.astype(np.float32), empty, np.zeros(0, bool))
    return prosody.pitch_stats(tracks)


def compare(track: np.ndarray, ref: np.ndarray) -> dict[str, Any]:
    """Frame counts and figure errors of one track against the reference."""
    n = min(track.size, ref.size)
    t, r = track[:n], ref[:n]
    tv, rv = ~np.isnan(t), ~np.isnan(r)
    both = tv & rv
    gross = int(np.sum(np.abs(t[both] / r[both] - 1) > GPE_TOL))
    st, sr = stats_of(t), stats_of(r)
    out: dict[str, Any] = {
        "frames_both": int(both.sum()),
        "gross": gross,
        "gpe": round(gross / both.sum(), 4) if both.any() else None,
        "jumps": octave_jumps(t),
        "ref_voiced_kept": round(float(both.sum() / rv.sum()), 3) if rv.any() else None,
        "false_voiced": round(float((tv & ~rv).sum() / tv.sum()), 3) if tv.any() else None,
        "median_hz": st.median_hz,
        "spread_st": st.spread_st,
        "range_st": st.range_st,
    }
    if st.median_hz and sr.median_hz:
        out["median_err_st"] = round(12 * float(np.log2(st.median_hz / sr.median_hz)), 2)
        out["spread_err_st"] = round(st.spread_st - sr.spread_st, 2)
        out["range_err_st"] = round(st.range_st - sr.range_st, 2)
    return out


def load(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """16 kHz mono samples (a whole number of 30 ms frames) and their webrtcvad flags."""
    y = audio.load(path)
    y = y[: y.size // 480 * 480]
    return y, voiced_flags(audio.to_int16(y), options=VadOptions())


def timings(clips: list[Path], seconds: float = 60.0, repeats: int = 3) -> dict[str, float]:
    """Best-of-``repeats`` seconds for the pitch stage on ``seconds`` of the clips' speech."""
    import librosa

    y = np.concatenate([load(p)[0] for p in clips])
    y = np.tile(y, int(np.ceil(seconds * SAMPLE_RATE / y.size)))[: int(seconds * SAMPLE_RATE)]
    y = y[: y.size // 480 * 480]
    flags = voiced_flags(audio.to_int16(y), options=VadOptions())
    prosody.frame_tracks(y[: SAMPLE_RATE * 3], flags[:100])  # warm up librosa
    out: dict[str, float] = {"audio_s": round(y.size / SAMPLE_RATE, 1)}
    for name, opts in TRACKS.items():
        best = np.inf
        for _ in range(repeats):
            t0 = time.perf_counter()
            tr = prosody.frame_tracks(y, flags, options=opts)
            best = min(best, time.perf_counter() - t0)
        out[f"frame_tracks_{name}_s"] = round(best, 3)
    raw = prosody.frame_tracks(y, flags, options=replace(TRACKS["old"], jump_st=99.0)).f0_hz
    best = np.inf
    for _ in range(repeats):
        t0 = time.perf_counter()
        tr = prosody.clean_pitch(raw)
        best = min(best, time.perf_counter() - t0)
    out["clean_pitch_s"] = round(best, 4)
    del tr
    t0 = time.perf_counter()
    for i in range(0, y.size, int(prosody.PIECE_S * SAMPLE_RATE)):
        librosa.pyin(
            y[i : i + int(prosody.PIECE_S * SAMPLE_RATE)], fmin=65.0, fmax=450.0,
            sr=SAMPLE_RATE, frame_length=1024, hop_length=160,
        )  # fmt: skip
    out["pyin_s"] = round(time.perf_counter() - t0, 3)
    return out


def pooled(rows: list[dict[str, Any]], name: str, minutes: float) -> dict[str, Any]:
    """Figures of one track over all clips."""
    cs = [r[name] for r in rows]
    both = sum(c["frames_both"] for c in cs)
    errs = [c for c in cs if "median_err_st" in c]

    def mae(key: str) -> float:
        return round(float(np.mean([abs(c[key]) for c in errs])), 2)

    return {
        "gpe": round(sum(c["gross"] for c in cs) / both, 4) if both else None,
        "octave_jumps_per_min": round(sum(c["jumps"] for c in cs) / minutes, 2),
        "ref_voiced_kept": round(float(np.mean([c["ref_voiced_kept"] or 0 for c in cs])), 3),
        "false_voiced": round(float(np.mean([c["false_voiced"] or 0 for c in cs])), 3),
        "median_abs_err_st": mae("median_err_st"),
        "spread_abs_err_st": mae("spread_err_st"),
        "range_abs_err_st": mae("range_err_st"),
        "clips_with_figures": len(errs),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--eval", type=Path, default=Path("../shared/eval"))
    ap.add_argument("--detail", action="store_true", help="print every clip")
    args = ap.parse_args()
    truth = load_truth(args.eval)
    if truth is None:
        return 2
    warnings.simplefilter("ignore", UserWarning)  # PySoundFile/audioread notes from librosa
    rows: list[dict[str, Any]] = []
    total_s = 0.0
    for name in truth:
        path = args.eval / "clips" / name
        y, flags = load(path)
        total_s += y.size / SAMPLE_RATE
        tracks = {k: prosody.frame_tracks(y, flags, options=o) for k, o in TRACKS.items()}
        ref = reference(y, tracks["old"].rms_db)
        row: dict[str, Any] = {"clip": name, "duration_s": round(y.size / SAMPLE_RATE, 2)}
        rs = stats_of(ref)
        row["ref"] = {"median_hz": rs.median_hz, "spread_st": rs.spread_st,
                      "range_st": rs.range_st, "jumps": octave_jumps(ref)}  # fmt: skip
        for track, tr in tracks.items():
            row[track] = compare(tr.f0_hz, ref)
        rows.append(row)
    minutes = total_s / 60
    figures: dict[str, Any] = {
        "reference": f"librosa.pyin fmin {REF_FMIN:g} Hz, fmax {REF_FMAX:g} Hz, 1024-sample "
        "frames, 10 ms hop, pYIN voicing; frames below -55 dBFS or 35 dB under the clip's "
        "95th-percentile level unvoiced",
        "clips": len(rows),
        "audio_s": round(total_s, 1),
        "gpe_tolerance": GPE_TOL,
        "octave_jump_st": JUMP_ST,
        "reference_octave_jumps_per_min": round(sum(r["ref"]["jumps"] for r in rows) / minutes, 2),
        **{name: pooled(rows, name, minutes) for name in TRACKS},
    }
    figures["timing_60s"] = timings([args.eval / "clips" / n for n in truth])
    figures["per_clip"] = rows
    path = write_results("pitch", figures)

    print(f"\nPitch on {len(rows)} clips of {args.eval} ({total_s:.0f} s), against pYIN\n")
    print(f"{'':34s}{'old':>10s}{'new':>10s}")
    labels = [
        ("gross pitch error", "gpe", "{:.1%}"),
        ("octave jumps / min", "octave_jumps_per_min", "{:.1f}"),
        ("ref voiced frames kept", "ref_voiced_kept", "{:.1%}"),
        ("voiced where ref is not", "false_voiced", "{:.1%}"),
        ("median |error| (st)", "median_abs_err_st", "{:.2f}"),
        ("spread |error| (st)", "spread_abs_err_st", "{:.2f}"),
        ("range |error| (st)", "range_abs_err_st", "{:.2f}"),
    ]
    for label, key, fmt in labels:
        print(f"{label:34s}" + "".join(f"{fmt.format(figures[t][key]):>10s}" for t in TRACKS))
    print(
        f"{'(reference octave jumps / min)':34s}{figures['reference_octave_jumps_per_min']:>10.1f}"
    )
    t = figures["timing_60s"]
    print(f"\npitch stage on {t['audio_s']:.0f} s of speech: frame tracks old "
          f"{t['frame_tracks_old_s']:.3f} s, new {t['frame_tracks_new_s']:.3f} s "
          f"(clean_pitch {t['clean_pitch_s']:.4f} s); pYIN {t['pyin_s']:.2f} s")  # fmt: skip
    if args.detail:
        print(f"\n{'clip':34s}{'ref Hz':>8s}{'spread':>8s}{'range':>7s}   old/new: "
              "GPE, jumps, spread err, range err")  # fmt: skip
        for r in rows:
            o, n = r["old"], r["new"]

            def cell(c: dict[str, Any]) -> str:
                gpe = f"{c['gpe']:.0%}" if c["gpe"] is not None else "-"
                return (f"{gpe:>5s} {c['jumps']:3d} {c.get('spread_err_st', 0):+6.2f} "
                        f"{c.get('range_err_st', 0):+6.2f}")  # fmt: skip

            ref = r["ref"]
            print(f"{r['clip']:34s}{ref['median_hz']:8.1f}{ref['spread_st']:8.2f}"
                  f"{ref['range_st']:7.2f}   {cell(o)} | {cell(n)}")  # fmt: skip
    print(f"\nwrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
