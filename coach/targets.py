"""The targets coach judges speech against, written once, each with its source.

The per-stage options dataclasses (:class:`coach.analysis.pace.PaceOptions`,
:class:`coach.analysis.tips.TipOptions`, :class:`coach.history.Targets`) take their
defaults from here, and so do the live nudge, the tips, the progress report and the
interview's practice advice; ``--pace-band`` overrides the pace band everywhere.
"""

from __future__ import annotations

PACE_BAND_WPM: tuple[float, float] = (100.0, 165.0)
"""Recommended pace, words per minute: PowerPoint Speaker Coach's 100-165 wpm (Microsoft
support, "Rehearse your slide show with Speaker Coach")."""

FILLERS_PER_MIN: float = 3.0
"""Fillers per minute above which fillers are worth working on: about one every 20 s, where
listeners start to notice them (coach's heuristic)."""

STAR_COVERAGE: float = 0.75
"""Least STAR coverage of a behavioural answer, 0..1: three of the four parts (situation,
task, action, result; coach's heuristic)."""
