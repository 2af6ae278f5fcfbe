"""Benchmarks of the suite, run from the repository's root (``python -m benchmarks.<name>``): outside the importable
core (not installed with the packages), free to use every part of it.

- ``proof_bench``: boxes and seconds per proof on the catalogue's domains; ``--write`` regenerates the table in
  ``docs/proofs.md``.
"""
