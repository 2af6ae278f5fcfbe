"""The one test of "is this a torch tensor", without importing torch.

Inputs may be numpy arrays or torch tensors; the statements and the engine must not need torch (a light core
install, and torch is slow to load), so the test looks torch up among the modules already imported: a tensor can
exist only if someone imported torch.

>>> import numpy as np
>>> is_torch(np.zeros(2)), is_torch([1.0]), is_torch(None)
(False, False, False)
"""

from __future__ import annotations

import sys
from typing import Any


def is_torch(value: Any) -> bool:
    """Whether ``value`` is a torch tensor (of any subclass: a ``Parameter`` too), never importing torch.

    >>> import torch
    >>> is_torch(torch.zeros(2)), is_torch(torch.nn.Parameter(torch.zeros(1))), is_torch(torch.float32)
    (True, True, False)
    """
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(value, torch.Tensor)
