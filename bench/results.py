"""Every bench writes its figures to ``bench/results/NAME.json``: date, commit, machine and
figures, so each published figure can be traced to the run that produced it and re-run."""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
import subprocess
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"


def commit() -> str:
    """The checked-out commit, "+changes" when the tracked files differ from it."""
    root = Path(__file__).resolve().parent.parent
    try:
        sha = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, check=True,
                             capture_output=True, text=True).stdout.strip()  # fmt: skip
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=root, capture_output=True, text=True).stdout.strip()  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return sha + ("+changes" if dirty else "")


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    mem_gb = None
    try:
        pages = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        mem_gb = round(pages / 2**30, 1)
    except (ValueError, OSError, AttributeError):
        pass
    return {"cpus": os.cpu_count(), "memory_gb": mem_gb, "platform": platform.platform(),
            "python": platform.python_version(), "processor": platform.machine(),
            "cpu_model": _cpu_model(), "packages": packages()}  # fmt: skip


_PACKAGES = ("faster-whisper", "ctranslate2", "numpy", "onnxruntime", "llama_cpp_python",
             "piper-tts", "webrtcvad-wheels", "librosa", "spacy")  # fmt: skip
"""Packages whose versions change the figures (tiny.en's words depend on CTranslate2's and
numpy's arithmetic, and so on the CPU as well: see the README's *Speed*)."""


def packages() -> dict[str, str | None]:
    """Installed versions of the packages the figures depend on (None: not installed)."""
    from importlib import metadata

    out: dict[str, str | None] = {}
    for name in _PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def _cpu_model() -> str | None:
    """The CPU's model name from /proc/cpuinfo (None elsewhere)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def write_results(name: str, figures: dict[str, Any]) -> Path:
    """Write ``bench/results/NAME.json`` and return its path."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.json"
    doc = {
        "bench": name,
        "date": dt.datetime.now().isoformat(timespec="seconds"),
        "commit": commit(),
        "machine": machine(),
        "figures": figures,
    }
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    return path


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far, MB."""
    import resource

    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def load_truth(eval_dir: Path) -> dict[str, Any] | None:
    """``truth.json`` of the shared eval set, or None after saying on stderr how to point
    at it."""
    import sys

    path = eval_dir / "truth.json"
    if not path.is_file():
        print(f"bench: no {path}; pass --eval DIR", file=sys.stderr)
        return None
    return json.loads(path.read_text())
