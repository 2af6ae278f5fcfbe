"""The paper's results as statements, one sub-package per result, and its proofs as derivations."""
