"""Does the first question begun before the talk's last words still hold once they are heard?

When a live talk ends, coach begins its best prepared question at once (its quote is said
while the recogniser works on the last utterance) and checks the question itself against
the whole talk before saying it (:meth:`coach.audience.Audience.take_early`). This bench
replays that on every heard bench talk (``bench/data/talks/heard/sealed*.txt``, tiny.en's
transcripts of talks written by helpers that never saw the code), for each built-in
persona, with grounded wording and no model:

- candidates are prepared sentence by sentence as in a session (the sentence still being
  said left out), and the question to begin is chosen from them;
- then the whole talk is heard, and the question begun is checked as the session checks it.

It reports how often a question could begin early, how often it held, and how often the
session had to change its question sentence after the quote (another question about the
same quote, or the plain request for more). A talk that puts something forward begins
with its question about the proposal as a whole, whose stance ("I'm wary of this.") is said
meanwhile: those outcomes are counted apart ("whole held", ...). No reviewer is involved:
this measures the timing trick's cost in changed questions, not their quality.

Run: ``.venv/bin/python bench/early_question.py``; figures go to
``bench/results/early_question.json``.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from results import write_results  # noqa: E402

from coach.analysis.asking import unsure_words  # noqa: E402
from coach.analysis.claims import talk_sentences  # noqa: E402
from coach.audience import PERSONAS, Audience, AudienceOptions  # noqa: E402

HEARD = ROOT / "bench" / "data" / "talks" / "heard"


def replay(heard: str, unsure: list[tuple[str, str, str]], persona: str) -> str:
    """One talk heard live by one persona: "none" (no question to begin), "held" (the
    question begun is asked as prepared), "changed" (another question after its quote)
    or "plain" (the plain request for more after its quote)."""
    audience = Audience(None, "", AudienceOptions(persona=persona))
    sentences = talk_sentences(heard)
    for i in range(2, len(sentences) + 1):
        audience.prepare(" ".join(sentences[:i]), limit=7, unsure=unsure)
    begun = audience.take_early()
    if begun is None:
        return "none"
    audience.update(heard, unsure=unsure)
    asked = audience.next_question(optional=True)
    assert asked is not None and asked.lead_in == begun.lead_in
    # a question about the proposal as a whole begins with the persona's stance alone
    whole = "" if begun.lead_in.startswith("You said ") else "whole "
    if asked.text == begun.text:
        return whole + "held"
    # the plain request for more ("Could you say a little more about that?"): no frame
    return whole + ("plain" if asked.source == "fallback" else "changed")


def main() -> int:
    outcomes: Counter[str] = Counter()
    changed: list[dict[str, str]] = []
    talks = sorted(HEARD.glob("sealed*.txt"))
    for path in talks:
        heard = path.read_text(encoding="utf-8").strip()
        words = HEARD / f"{path.stem}.words.json"
        unsure = (
            unsure_words([(t, p) for t, p in json.loads(words.read_text())])
            if words.exists()
            else []
        )
        for persona in PERSONAS:
            outcome = replay(heard, unsure, persona)
            outcomes[outcome] += 1
            if outcome.endswith(("changed", "plain")):
                changed.append({"talk": path.stem, "persona": persona, "outcome": outcome})
    begun = sum(n for k, n in outcomes.items() if k != "none")
    whole_begun = sum(n for k, n in outcomes.items() if k.startswith("whole "))
    figures = {
        "talks": len(talks),
        "personas": list(PERSONAS),
        "replays": sum(outcomes.values()),
        "outcomes": dict(outcomes),
        "begun_early": begun,
        "held_share": (
            round((outcomes["held"] + outcomes["whole held"]) / begun, 3) if begun else None
        ),
        "whole_begun_early": whole_begun,
        "whole_held_share": (
            round(outcomes["whole held"] / whole_begun, 3) if whole_begun else None
        ),
        "changed_after_quote": changed,
    }
    print(json.dumps(figures, indent=2))
    print(f"figures written to {write_results('early_question', figures).relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
