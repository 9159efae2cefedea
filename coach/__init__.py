"""coach: an offline, voice-first public-speaking and interview coach."""

__version__ = "0.1.0"

SAMPLE_RATE = 16000
"""The one internal sample rate between stages, in Hz (mono)."""
