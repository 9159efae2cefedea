"""The drills' prompts: a data file in the package (``coach/drills/data/prompts.toml``)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from coach.errors import OptionsError


@dataclass(frozen=True)
class DrillPrompts:
    """What a drill tells the person before they speak."""

    drill: str
    """The drill's name."""
    instructions: str
    """How to do the drill, one paragraph."""
    prompts: tuple[str, ...]
    """Topics to talk on, used in turn."""

    def pick(self, runs_before: int) -> tuple[int, str]:
        """The prompt for a drill run after ``runs_before`` earlier runs: each run takes
        the next one, round the list. Returns ``(index from 1, prompt)``."""
        i = runs_before % len(self.prompts)
        return i + 1, self.prompts[i]

    def get(self, number: int) -> str:
        """Prompt ``number`` (from 1).

        Raises:
            OptionsError: no such prompt.
        """
        if not 1 <= number <= len(self.prompts):
            raise OptionsError(
                f"the {self.drill} drill has prompts 1 to {len(self.prompts)}, not {number}"
            )
        return self.prompts[number - 1]


def prompts_file() -> Path:
    """The shipped prompts file."""
    return Path(str(resources.files("coach.drills") / "data" / "prompts.toml"))


@cache
def load_prompts(path: Path | None = None) -> dict[str, DrillPrompts]:
    """Every drill's prompts, read once per process.

    Raises:
        OptionsError: the file is missing or malformed (says which drill and key).
    """
    path = path or prompts_file()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise OptionsError(
            f"{path}: cannot read the drill prompts ({exc}); reinstall coach"
        ) from exc
    out = {}
    for drill, table in data.items():
        instructions = table.get("instructions") if isinstance(table, dict) else None
        prompts = table.get("prompts") if isinstance(table, dict) else None
        if (
            not isinstance(instructions, str)
            or not isinstance(prompts, list)
            or not prompts
            or not all(isinstance(p, str) and p.strip() for p in prompts)
        ):
            raise OptionsError(
                f"{path}: [{drill}] needs an 'instructions' string and a non-empty 'prompts' "
                "list of strings"
            )
        out[drill] = DrillPrompts(drill, instructions.strip(), tuple(p.strip() for p in prompts))
    return out


def prompts_for(drill: str) -> DrillPrompts:
    """One drill's prompts.

    Raises:
        OptionsError: the file has no prompts for it.
    """
    found = load_prompts()
    if drill not in found:
        raise OptionsError(f"no prompts for the {drill} drill in {prompts_file()}; reinstall coach")
    return found[drill]
