"""Drills: a few minutes at the mic (or from ``--input``) on one skill, scored and recorded.

* ``pauses``: talk on a prompt and replace every filler with a silent pause; scored as the
  share of hesitation moments that were pauses of 0.3-1.5 s.
* ``pace``: hold a pace band with a live needle; scored as the share of 10 s windows in it.
* ``opening``: the first 60 s of a talk or an interview opener, scored on pace, fillers,
  pauses and volume.
* ``again``: the sentences of your last rehearsal with the most flagged moments are played
  back one by one; you say each again, and the two deliveries are compared figure by figure
  (:mod:`coach.drills.again`).

Scoring is pure (:mod:`coach.drills.scoring`, from a :class:`coach.report.ClipReport`);
the prompts are data (:mod:`coach.drills.prompts`); :mod:`coach.drills.run` records a drill
through the same :class:`coach.live.recorder.TalkRecorder` as ``coach rehearse``.
"""

from __future__ import annotations

PROMPT_DRILLS: tuple[str, ...] = ("pauses", "pace", "opening")
"""The drills talked on a prompt (:mod:`coach.drills.prompts`)."""
DRILLS: tuple[str, ...] = (*PROMPT_DRILLS, "again")
"""The drills, as named on the command line."""
