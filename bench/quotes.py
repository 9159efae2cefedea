"""How faithfully the audience quotes the talk: every "You said ..." lead-in of the
grounded questions is compared with the talk as written (which coach never sees: it
hears Piper's speech of it through the recogniser). A quote is faithful when all of its
words, pronouns aside, occur in the same order in one stretch of the written talk.

    python bench/quotes.py [--splits sealed3 sealed4] [--below 0.5 ...]

Writes ``bench/results/quotes.json``: per threshold on the recogniser's word probability
(``none`` quotes every word), the questions asked, the share with a quote, and the share
of quotes that are faithful.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from questions import (  # noqa: E402
    DESCRIBED,
    PERSONAS,
    disputed_by,
    heard_folder,
    talk_files,
    talk_text,
)
from results import write_results  # noqa: E402

from coach.analysis.asking import unsure_words  # noqa: E402
from coach.analysis.claims import spoken_numbers  # noqa: E402
from coach.audience import Audience, AudienceOptions  # noqa: E402

_PRONOUNS = frozenset(
    "i we you me us my our your mine ours yours i'm we're you're i've we've you've i'd "
    "we'd you'd i'll we'll you'll myself ourselves yourself yourselves am are is was were".split()
)


_GLUE = frozenset("a an the and".split())
"""Left out too: "a hundred and sixty" is said back as "one hundred sixty"."""


def tokens(text: str) -> list[str]:
    """Lower-case words, numbers in words, hyphens as spaces, pronouns and forms of "be"
    left out (the audience turns "I" into "you")."""
    text = spoken_numbers(text).lower().replace("’", "'").replace("-", " ")
    text = re.sub(r"\b(?:a|one) (hundred|thousand|million)\b", r"\1", text)
    words = (re.sub(r"[^\w']", "", w) for w in text.split())
    words = (re.sub(r"our$", "or", w) if len(w) > 5 else w for w in words)  # labour, labor
    return [w for w in words if w and w not in _PRONOUNS and w not in _GLUE]


def faithful(quote: str, source: list[str]) -> bool:
    """Whether every word of ``quote`` occurs, in order, in one stretch of ``source``
    no more than two words longer than the quote."""
    q = tokens(quote)
    if not q:
        return True
    matcher = difflib.SequenceMatcher(a=q, b=source, autojunk=False)
    blocks = [b for b in matcher.get_matching_blocks() if b.size]
    if sum(b.size for b in blocks) < len(q):
        return False
    return blocks[-1].b + blocks[-1].size - blocks[0].b <= len(q) + 2


def measure(
    splits: tuple[str, ...], below: float | None, per_persona: int, ear: str = "tiny.en",
    checked_by: str | None = None, needs: tuple[str, ...] = (),
) -> dict:  # fmt: skip
    """Quote fidelity of the grounded questions asked of the talks heard by ``ear``;
    ``checked_by``: words another recogniser wrote otherwise are not quoted; ``needs``:
    only talks every one of these recognisers heard (so rows compare the same talks)."""
    asked = quoted = good = talks = asked_talks = 0
    bad: list[str] = []
    for split in splits:
        for path in talk_files(split):
            folder = heard_folder(ear)
            words_file = folder / f"{path.stem}.words.json"
            if not (folder / f"{path.stem}.txt").exists():
                continue
            if not all((heard_folder(e) / f"{path.stem}.txt").exists() for e in needs):
                continue
            if below is not None and not all(
                (heard_folder(e) / f"{path.stem}.words.json").exists() for e in needs or (ear,)
            ):
                continue  # no word probabilities kept for this talk
            talks += 1
            heard = (folder / f"{path.stem}.txt").read_text().strip()
            pairs = json.loads(words_file.read_text()) if below is not None else []
            unsure = [] if below is None else unsure_words(pairs, below=below)
            if checked_by is not None:
                mine = [t for t, _p in pairs] if pairs else heard.split()
                unsure += disputed_by(path.stem, mine, checked_by)
                their_words = heard_folder(checked_by) / f"{path.stem}.words.json"
                if below is not None and their_words.exists():  # what either was unsure of
                    unsure += unsure_words(json.loads(their_words.read_text()), below=below)
            source = tokens(talk_text(path))
            asked_before = asked
            for persona in PERSONAS:
                p_opt = DESCRIBED if persona == "described" else persona
                # the stance said after the quote changes nothing quoted
                options = AudienceOptions(persona=p_opt, wording="grounded", stance=False)
                audience = Audience(None, heard, options, unsure=unsure)
                for q in audience.questions(per_persona):
                    asked += 1
                    m = re.match(r"You said (.*?)\.$", q.lead_in or "")
                    if not m:
                        continue
                    quoted += 1
                    if faithful(m.group(1), source):
                        good += 1
                    else:
                        bad.append(f"{path.stem}: {m.group(1)}")
            asked_talks += asked > asked_before
    return {
        "below": below,
        "ear": ear,
        "checked_by": checked_by,
        "talks": talks,
        "talks_asked": asked_talks,
        "questions": asked,
        "quoted": quoted,
        "faithful": good,
        "faithful_share": round(good / quoted, 3) if quoted else None,
        "unfaithful_examples": sorted(set(bad))[:40],
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--splits", nargs="+", default=["sealed3", "sealed4"])
    ap.add_argument("--below", nargs="+", default=["none", "0.4", "0.5", "0.6"])
    ap.add_argument("--per-persona", type=int, default=2)
    ap.add_argument("--ear", default="tiny.en", help="the recogniser the talks were heard with")
    ap.add_argument("--name", default="quotes", help="results file bench/results/NAME.json")
    ap.add_argument(
        "--ears", action="store_true",
        help="compare, on the talks heard by both tiny.en and base: tiny.en's words, base's, "
        "and base's where tiny.en heard the same (coach rehearse --audience-asr base)",
    )  # fmt: skip
    args = ap.parse_args()
    configs = (
        [("tiny.en", None), ("base", None), ("base", "tiny.en")]
        if args.ears
        else [(args.ear, None)]
    )  # fmt: skip
    needs = ("tiny.en", "base") if args.ears else ()
    rows = []
    for b in args.below:
        below = None if b == "none" else float(b)
        for ear, checked_by in configs:
            row = measure(tuple(args.splits), below, args.per_persona, ear, checked_by, needs)
            rows.append(row)
            checked = f" checked by {checked_by}" if checked_by else ""
            print(f"{ear}{checked}, below {b:>4}: {row['talks_asked']}/{row['talks']} talks "
                  f"asked, {row['questions']} questions, {row['quoted']} quoted, "
                  f"{row['faithful']} faithful ({row['faithful_share']})", flush=True)  # fmt: skip
    write_results(args.name, {"splits": args.splits, "ear": args.ear, "ears": args.ears,
                              "rows": rows})  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
