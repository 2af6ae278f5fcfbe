"""The application layer: the adapters over the core, above everything they use.

- :mod:`~theorems.app.cli`: ``python -m theorems`` (``list``, ``check``, ``ledger``, ``proofs``, ``verify-proof``);
- :mod:`~theorems.app.ledger`: ``docs/verdicts.md`` and the README table, from the catalogue's verdicts and proofs;
- :mod:`~theorems.app.plugin`: the pytest plugin (``pytest11`` entry point) that collects a module's statements;
- :mod:`~theorems.app.profiles`: the Hypothesis settings profiles of the suite;
- :mod:`~theorems.app.verify`: ``theorems.verify_proof(path)``, the certificate's statement found in the catalogue.

The benchmarks (``benchmarks/`` at the repository's root) are outside the importable packages.
"""
