"""Pure analysis functions: transcript words and per-frame tracks in, dataclasses out.

Nothing in this package loads a model, opens a device or reads the clock. Thresholds live
in one options dataclass per stage, each with its source.
"""
