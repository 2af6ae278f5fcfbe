"""Where the forward pass runs: the one place that resolves ``--device`` and moves tensors.

``cpu`` is the default and the tested path. ``cuda`` (or ``cuda:1``) runs the model's forward pass on
the GPU; the heads come back to the CPU in float32 and every quantity is then computed in float64
as on a CPU run, so both devices give the same results to the forward pass's float32 rounding.
Asking for CUDA where torch sees none is an error before any work.

>>> resolve("cpu")
device(type='cpu')
>>> resolve("tpu")
Traceback (most recent call last):
    ...
theorems.errors.InvalidArgument: --device='tpu' must be 'cpu', 'cuda' or 'cuda:<index>'
"""

from __future__ import annotations

import torch

from theorems.errors import InvalidArgument

DEVICES = ("cpu", "cuda")


def resolve(name: str | torch.device = "cpu") -> torch.device:
    """``name`` as a ``torch.device``, checked: a clear error if CUDA is asked for and absent."""
    try:
        device = torch.device(name)
    except (RuntimeError, TypeError):
        raise InvalidArgument(f"--device={name!r} must be 'cpu', 'cuda' or 'cuda:<index>'") from None
    if device.type not in DEVICES:
        raise InvalidArgument(f"--device={name!r} must be 'cpu', 'cuda' or 'cuda:<index>'")
    if device.type == "cuda":
        if not torch.cuda.is_available():
            raise InvalidArgument(f"--device={name!r}: torch {torch.__version__} sees no CUDA device on this machine "
                             "(use --device cpu)")
        if device.index is not None and device.index >= torch.cuda.device_count():
            raise InvalidArgument(f"--device={name!r}: only {torch.cuda.device_count()} CUDA device(s) here")
    return device


def place(value, device: torch.device):
    """A module or tensor on ``device`` (a no-op on its own device)."""
    return value.to(device)


def synchronize(device: torch.device) -> None:
    """Wait for the device's queued work (for honest timings of a CUDA forward pass)."""
    if device.type == "cuda":
        torch.cuda.synchronize(device)
