"""Writing files so that a crash or Ctrl-C never leaves half of one."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from coach.errors import CoachError


def write_text_atomic(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file and a rename, so readers
    see the old file or the new one, never a part; the folder is created if missing.

    Returns:
        The path written.

    Raises:
        CoachError: the file or its folder cannot be written (one line, with the reason).
    """
    target = Path(path).expanduser()
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    except OSError as exc:
        raise CoachError(f"{target}: cannot write ({exc.strerror}); choose another path") from exc
    try:
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; a report is an ordinary file
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise CoachError(f"{target}: cannot write ({exc.strerror}); choose another path") from exc
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target
