"""The attention mathematics: normalisers, Jacobians and the quantities each result bounds."""
