"""The paper's empirical claims under every reading of its setup (``python -m empirical readings``).

- :mod:`empirical.readings.grid`: the open choices (axes), each reading's name, what it computes, its source;
- :mod:`empirical.readings.derive`: the heads of one forward pass as a reading sees them;
- :mod:`empirical.readings.claims`: the claims, their figures and reproduction criteria;
- :mod:`empirical.readings.sensitivity`: Alg. 5's ``g`` under ``perturb=`` and ``eps=``;
- :mod:`empirical.readings.runner`: the run (one extraction per length, shared by every reading) and its files;
- :mod:`empirical.readings.table`: ``readings.md``.
"""
