"""Everything that touches a model: loading, head extraction, the paper's Algorithms 1-5, figures."""
