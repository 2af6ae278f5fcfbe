"""Profiles are loaded here, once; ``--hypothesis-profile`` (Hypothesis's pytest plugin) overrides."""

from theorems import profiles

profiles.load()
