"""The arithmetic ground floor: validated inputs, the ``xp`` backends (float64, mpmath, arb balls, duals, torch)
and the ball forms of numpy and scipy. It imports no other module of the project but ``theorems.errors``;
``maths``, ``strategies``, ``figures``, ``empirical`` and the engine build on it (``docs/architecture.md``).

>>> from theorems.arithmetic.precision import F64
>>> float(F64.sqrt(4.0))
2.0
"""
