"""Eager numeric argument checks with messages that name the argument, the value and what it must be.

Every public quantity function, figure script and strategy checks its arguments here, at entry,
before any expensive step. What a quantity function accepts, decided once:

- **numbers**: real (not complex, not ``bool``), finite; a temperature must also be *normal*
  (at least ``2.2e-308``: ``1/T`` of a subnormal ``T`` overflows); counts are integers ``>= 1``.
- **arrays**: real, finite float arrays of the stated shape. Object arrays (the high-precision
  backends: mpmath numbers, python-flint balls) are passed through unchecked where a function
  computes in them, so that validation never changes a high-precision result.
- **attention weights** (:func:`check_weights`): on the simplex within :data:`SIMPLEX_TOLERANCE` —
  finite, every entry ``>= −tol`` and every row (over its valid keys) summing to 1 within ``tol``,
  with ``tol = max(SIMPLEX_TOLERANCE, L·eps)`` for the input's floating type. Callers that
  deliberately pass weights of another mass opt out with ``allow_unnormalised=True`` (entries must
  still be finite and ``>= −tol``).
- **work**: a request that would enumerate or allocate more than a stated limit is refused with
  its size and a way out (:func:`check_work`).
- **files and paths**: checked before computing, by :mod:`theorems.arithmetic.files`.
- **masks** (:func:`check_mask`): boolean, broadcastable to the weights or logits.

A bad value raises :class:`~theorems.errors.InvalidArgument` (also a ``ValueError``, and Hypothesis's own
``InvalidArgument``, which strategies raise), a wrong type :class:`~theorems.errors.InvalidArgumentType` (also a
``TypeError``); both are :class:`~theorems.errors.TheoremsError` (``docs/errors.md``).

>>> check_temperature(0.0)
Traceback (most recent call last):
    ...
theorems.errors.InvalidArgument: temperature=0.0 must be a finite number > 0
>>> check_weights([2.0, -1.0, 0.5])
Traceback (most recent call last):
    ...
theorems.errors.InvalidArgument: alpha must be attention weights (entries >= 0 within 1e-06): entry [1] is -1.0; pass the softmax weights, not the logits
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from theorems.arithmetic.tensors import is_torch
from theorems.errors import InvalidArgument, InvalidArgumentType

SIMPLEX_TOLERANCE = 1e-6
"""Least tolerance of :func:`check_weights` on each entry (``>= −tol``) and on each row sum (``|Σα − 1| <= tol``)."""
SMALLEST_TEMPERATURE = float(np.finfo(float).tiny)
"""The least normal float64, ``2.2e-308``: a temperature below it is subnormal and ``1/T`` overflows."""
MAX_ENTRIES = 1 << 28
"""Largest float64 work array a request may need (2 GiB); more is refused with the size and a way out."""


def _shown(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _real(value, name: str) -> float:
    """``float(value)`` for a real number; a clear error for a bool, a complex, a string, None."""
    if isinstance(value, (bool, np.bool_)) or isinstance(value, (str, bytes)) or value is None:
        raise InvalidArgumentType(f"{name}={_shown(value)} must be a real number, not {type(value).__name__}")
    if isinstance(value, numbers.Complex) and not isinstance(value, numbers.Real):
        raise InvalidArgumentType(f"{name}={_shown(value)} must be a real number, not complex")
    shape = getattr(value, "shape", None)
    if shape is not None and len(shape) > 0:  # float() of a one-entry array would pass for a number
        raise InvalidArgumentType(f"{name}={_shown(value)} must be a real number, not an array of shape {tuple(shape)}")
    if isinstance(value, np.ndarray):
        value = value[()]
    try:
        return float(value)
    except (TypeError, ValueError):
        raise InvalidArgumentType(f"{name}={_shown(value)} must be a real number, not {type(value).__name__}") from None


def check_number(value, *, name: str, min_value=None, max_value=None, exclude_min: bool = False,
                 exclude_max: bool = False, allow_infinity: bool = False):
    """A real number in ``[min_value, max_value]`` (open ends with ``exclude_*``); returned unchanged.

    >>> check_number(0.5, name="level", min_value=0, max_value=1, exclude_min=True, exclude_max=True)
    0.5
    """
    number = _real(value, name)
    finite = math.isfinite(number) or (allow_infinity and number == math.inf)
    low_ok = min_value is None or (number > min_value if exclude_min else number >= min_value)
    high_ok = max_value is None or (number < max_value if exclude_max else number <= max_value)
    if not (finite and low_ok and high_ok):
        if min_value is not None and max_value is None and min_value == 0:
            want = f"{'>' if exclude_min else '>='} 0"
            raise InvalidArgument(f"{name}={_shown(value)} must be a finite number {want}"
                             + (" (or inf)" if allow_infinity else ""))
        low = "(" if exclude_min or min_value is None else "["
        high = ")" if exclude_max or max_value is None else "]"
        span = f"{low}{'-inf' if min_value is None else min_value}, {'inf' if max_value is None else max_value}{high}"
        raise InvalidArgument(f"{name}={_shown(value)} must be a {'number' if allow_infinity else 'finite number'} in {span}")
    return value


def check_positive(value, *, name: str, strict: bool = True):
    """A finite real number ``> 0`` (``>= 0`` unless ``strict``); returned unchanged (mpmath numbers stay)."""
    return check_number(value, name=name, min_value=0, exclude_min=strict)


def check_temperature(temperature, *, name: str = "temperature"):
    """A finite, normal number ``> 0`` (a subnormal ``T`` makes ``1/T`` overflow)."""
    check_positive(temperature, name=name)
    if _real(temperature, name) < SMALLEST_TEMPERATURE:
        raise InvalidArgument(f"{name}={_shown(temperature)} must be a finite number > 0 and normal "
                         f"(at least {SMALLEST_TEMPERATURE:.3g}; 1/{name} overflows below it)")
    return temperature


def check_integer(value, *, name: str, min_value: int | None = 1, max_value: int | None = None,
                  hint: str = "") -> int:
    """An integer (numpy integers included, ``bool`` excluded) in ``[min_value, max_value]``; ``hint``
    (appended to the message) says what to do instead.

    >>> check_integer(0, name="iterations")
    Traceback (most recent call last):
        ...
    theorems.errors.InvalidArgument: iterations=0 must be an integer >= 1
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise InvalidArgumentType(f"{name}={_shown(value)} must be an integer, not {type(value).__name__}{hint}")
    if min_value is not None and value < min_value or max_value is not None and value > max_value:
        if max_value is None:
            raise InvalidArgument(f"{name}={value!r} must be an integer >= {min_value}{hint}")
        raise InvalidArgument(f"{name}={value!r} must be an integer in {min_value}..{max_value}{hint}")
    return int(value)


def check_seed(seed, *, name: str = "seed") -> int:
    """A non-negative integer seed (numpy's generators refuse negative ones)."""
    return check_integer(seed, name=name, min_value=0)


def check_choice(value, *, name: str, choices) -> str:
    if not isinstance(value, str) or value not in choices:
        raise InvalidArgument(f"{name}={_shown(value)} must be one of {tuple(choices)}")
    return value


def check_choices(values, *, name: str, choices) -> tuple[str, ...]:
    """A non-empty tuple (or list, set) of names, each one of ``choices``."""
    if isinstance(values, str) or not isinstance(values, (tuple, list, set, frozenset)) or not values \
            or not set(values) <= set(choices):
        raise InvalidArgument(f"{name}={_shown(values)} must be a non-empty tuple of names from {tuple(choices)}")
    return tuple(values)


def check_callable(value, *, name: str):
    if not callable(value):
        raise InvalidArgumentType(f"{name}={_shown(value)} must be callable, not {type(value).__name__}")
    return value


def check_array(value, *, name: str, ndim: int | None = None, min_ndim: int = 1, min_length: int = 1,
                allow_object: bool = False, allow_infinity: bool = False) -> np.ndarray:
    """A finite, real float64 array with at least ``min_length`` entries on its last axis.

    With ``allow_object``, a numpy object array (mpmath or python-flint numbers) is returned as it
    is, its shape checked and its values not: the high-precision backends compute in it.
    """
    if isinstance(value, np.ndarray) and value.dtype == object and allow_object:
        array = value
    else:
        if isinstance(value, (str, bytes, bool, np.bool_)) or value is None or \
                isinstance(value, np.ndarray) and value.dtype == bool:
            raise InvalidArgumentType(f"{name} must be an array of real numbers, got {type(value).__name__}: {_shown(value)}")
        try:
            if np.iscomplexobj(value):
                raise InvalidArgumentType(f"{name} must be real, got a complex array (the imaginary part would be dropped)")
            raw = np.asarray(value)
            # strings, bytes, dates and booleans would be converted to numbers without a word
            if raw.dtype.kind not in "iufO" or raw.dtype == object and any(
                    isinstance(v, (str, bytes, bool, np.bool_)) or v is None for v in raw.flat):
                raise InvalidArgumentType(f"{name} must be an array of real numbers, got dtype {raw.dtype}: {_shown(value)}")
            array = raw.astype(float, copy=False)
        except (TypeError, ValueError) as error:
            if str(error).startswith(name):
                raise
            raise InvalidArgumentType(f"{name} must be an array of real numbers, got {type(value).__name__}: "
                            f"{str(error).split('. ')[0]}") from None
        bad = ~np.isfinite(array) if not allow_infinity else np.isnan(array) | (array == -np.inf)
        if np.any(bad):
            where = np.argwhere(bad)[0].tolist()
            raise InvalidArgument(f"{name} must be finite; entry {where} is {float(array[tuple(where)])!r}")
    if ndim is not None and array.ndim != ndim:
        raise InvalidArgument(f"{name} must have {ndim} dimension(s), got shape {array.shape}")
    if array.ndim < min_ndim:
        raise InvalidArgument(f"{name} must have at least {min_ndim} dimension(s), got shape {array.shape}")
    if array.ndim and array.shape[-1] < min_length:
        raise InvalidArgument(f"{name} must have at least {min_length} entries on its last axis, got shape {array.shape}")
    return array


def check_logits(logits, *, name: str = "logits", allow_object: bool = True) -> np.ndarray:
    """Finite real logits ``[..., L]`` with ``L >= 1`` (object arrays of the high-precision backends pass)."""
    return check_array(logits, name=name, allow_object=allow_object)


def float_resolution(value) -> float:
    """Machine epsilon of a numpy array's or torch tensor's floating type (float64's for anything else):
    float32 weights sum to 1 less exactly than float64 ones.

    >>> float_resolution(np.zeros(2, dtype=np.float32))
    1.1920928955078125e-07
    """
    dtype = getattr(value, "dtype", None)
    if is_torch(value):
        import torch
        return float(torch.finfo(dtype).eps) if dtype.is_floating_point else float(np.finfo(float).eps)
    try:
        dtype = np.dtype(dtype) if dtype is not None else np.dtype(float)
        return float(np.finfo(dtype).eps) if dtype.kind == "f" else float(np.finfo(float).eps)
    except TypeError:
        return float(np.finfo(float).eps)


def check_weights(alpha, *, name: str = "alpha", valid=None, allow_unnormalised: bool = False,
                  resolution: float | None = None, opt_out: bool = True) -> np.ndarray:
    """Attention weights ``[..., L]`` on the simplex, as a float64 array (object arrays checked in float view).

    Entries must be finite and ``>= −tol``, and every row must sum to 1 within ``tol`` over its
    valid keys (``valid [..., L]``, True = key present; masked entries are ignored), with
    ``tol = max(SIMPLEX_TOLERANCE, L·eps)`` for the input's floating type. ``allow_unnormalised``
    waives the row sum (weights of another total mass on purpose). ``resolution`` is the epsilon of
    the caller's original floating type when ``alpha`` was already converted to float64. ``opt_out``:
    whether the caller has that keyword (the message points to it only then).

    >>> check_weights([0.5, 0.5]).tolist()
    [0.5, 0.5]
    >>> check_weights([5.0, 3.0, 2.0])
    Traceback (most recent call last):
        ...
    theorems.errors.InvalidArgument: alpha must be attention weights summing to 1 (within 1e-06) over each row's valid keys: it sums to 10.0; pass allow_unnormalised=True for weights of another mass on purpose
    """
    eps = float_resolution(alpha) if resolution is None else resolution
    if is_torch(alpha):
        alpha = alpha.detach().to(device="cpu").double().numpy()
    array = check_array(alpha, name=name)  # [..., L] float64 (an object array is converted: a float view)
    length = array.shape[-1]
    tol = max(SIMPLEX_TOLERANCE, length * eps)
    keys = np.ones(array.shape, dtype=bool) if valid is None else np.broadcast_to(valid, array.shape)
    low = np.where(keys, array, 0.0) < -tol
    if np.any(low):
        where = np.argwhere(low)[0].tolist()
        raise InvalidArgument(f"{name} must be attention weights (entries >= 0 within {tol:g}): entry {where} is "
                         f"{float(array[tuple(where)])!r}; pass the softmax weights, not the logits")
    if not allow_unnormalised:
        sums = np.sum(np.where(keys, array, 0.0), axis=-1)  # [...]
        off = np.abs(sums - 1) > tol
        if np.any(off):
            where = np.argwhere(off)[0].tolist() if off.ndim else []
            which = f"row {where} sums" if off.ndim else "it sums"
            raise InvalidArgument(f"{name} must be attention weights summing to 1 (within {tol:g}) over each row's valid "
                             f"keys: {which} to {float(sums[tuple(where)])!r}"
                             + ("; pass allow_unnormalised=True for weights of another mass on purpose" if opt_out
                                else "; normalise the weights (this formula uses Σα = 1)"))
    return array


def check_top_n(n, length: int, *, name: str = "n") -> int:
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, numbers.Integral):
        raise InvalidArgumentType(f"{name}={_shown(n)} must be an integer")
    if not 1 <= n <= length:
        raise InvalidArgument(f"{name}={n!r} must lie in 1..L with L={length}")
    return int(n)


def check_work(entries, *, what: str, limit: int = MAX_ENTRIES, way_out: str) -> None:
    """Refuse, before allocating, a request whose work array would hold more than ``limit`` entries.

    >>> check_work(10**12, what="x [rows, L, d]", way_out="lower --rows")
    Traceback (most recent call last):
        ...
    theorems.errors.InvalidArgument: x [rows, L, d] would need 1000000000000 entries, more than the limit 268435456; lower --rows
    """
    if entries > limit:
        raise InvalidArgument(f"{what} would need {entries} entries, more than the limit {limit}; {way_out}")


def check_parameter(value, *, name: str, batch_shape: tuple[int, ...], strict: bool = True,
                    allow_infinity: bool = False) -> np.ndarray:
    """A real scalar or array broadcastable to ``batch_shape``, ``> 0`` (``>= 0`` unless ``strict``),
    finite (``+inf`` too with ``allow_infinity``); returned broadcast, as float64.

    >>> check_parameter(float("inf"), name="M", batch_shape=())
    Traceback (most recent call last):
        ...
    theorems.errors.InvalidArgument: M=inf must be finite and > 0
    """
    if is_torch(value):
        value = value.detach().to(device="cpu").double().numpy()
    if isinstance(value, (bool, np.bool_, str, bytes)) or value is None:
        raise InvalidArgumentType(f"{name}={_shown(value)} must be a real number or array, not {type(value).__name__}")
    if np.iscomplexobj(value):
        raise InvalidArgumentType(f"{name}={_shown(value)} must be real, not complex")
    try:
        array = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise InvalidArgumentType(f"{name}={_shown(value)} must be a real number or array, not {type(value).__name__}") from None
    want = "> 0" if strict else ">= 0"
    finite = np.isfinite(array) | ((array == np.inf) if allow_infinity else False)
    if not np.all(finite & ((array > 0) if strict else (array >= 0))):
        raise InvalidArgument(f"{name}={_shown(value)} must be {'finite and ' if not allow_infinity else ''}{want}"
                         + (" (+inf allowed)" if allow_infinity else ""))
    try:
        return np.broadcast_to(array, batch_shape)
    except ValueError:
        raise InvalidArgument(f"{name} of shape {array.shape} does not broadcast to the batch shape {batch_shape}") from None


def check_temperatures(values, *, name: str = "temperatures", allow_scalar: bool = True) -> np.ndarray:
    """Finite, normal, positive temperatures: a scalar or an array (a grid ``[n_T]``), as float64.

    >>> check_temperatures([0.1, 1.0]).tolist()
    [0.1, 1.0]
    """
    if is_torch(values):
        values = values.detach().to(device="cpu").double().numpy()
    grid = check_array(values, name=name, min_ndim=0 if allow_scalar else 1)
    bad = ~(grid >= SMALLEST_TEMPERATURE)
    if np.any(bad):
        where = np.argwhere(bad)[0].tolist() if grid.ndim else []
        raise InvalidArgument(f"{name} must be finite, normal numbers > 0 (at least {SMALLEST_TEMPERATURE:.3g}); entry "
                         f"{where} is {float(grid[tuple(where)])!r}")
    return grid


def check_scale(logits: np.ndarray, temperature: float) -> None:
    """``logits / temperature`` must stay finite in float64 (``temperature`` the least of a grid).

    >>> check_scale(np.array([1e10]), 1e-300)
    Traceback (most recent call last):
        ...
    theorems.errors.InvalidArgument: logits / temperature overflows float64 (temperature=1e-300, largest |logit| 10000000000.0); use a larger temperature
    """
    largest = float(np.max(np.abs(logits))) if logits.size else 0.0
    with np.errstate(over="ignore"):
        if not np.isfinite(largest / temperature):
            raise InvalidArgument(f"logits / temperature overflows float64 (temperature={temperature!r}, largest |logit| "
                             f"{largest!r}); use a larger temperature")


def check_generator(rng, *, name: str = "rng") -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise InvalidArgumentType(f"{name}={_shown(rng)} must be a numpy Generator (np.random.default_rng(seed)), "
                        f"not {type(rng).__name__}")
    return rng


def check_shape(shape, *, name: str = "shape") -> tuple[int, ...]:
    """A non-empty tuple of integers ``>= 1``."""
    if isinstance(shape, numbers.Integral) and not isinstance(shape, (bool, np.bool_)):
        shape = (shape,)
    if not isinstance(shape, (tuple, list)) or not shape:
        raise InvalidArgumentType(f"{name}={_shown(shape)} must be a non-empty tuple of positive integers")
    for size in shape:
        check_integer(size, name=f"every entry of {name}={_shown(shape)}")
    return tuple(int(size) for size in shape)


def check_mask(mask, shape: tuple[int, ...], *, name: str = "mask", of: str = "alpha",
               every_row: bool = False) -> np.ndarray:
    """The boolean ``[..., L]`` of valid keys (True = key present), numpy or torch, broadcast to ``shape``
    (``None``: every key valid); with ``every_row``, each row must keep at least one valid key.

    >>> check_mask([True, False], (2, 2)).tolist()
    [[True, False], [True, False]]
    """
    if mask is None:
        return np.ones(shape, dtype=bool)
    if is_torch(mask):
        mask = mask.detach().cpu().numpy()
    valid = np.asarray(mask)
    if valid.dtype != bool:
        raise InvalidArgumentType(f"{name} must be boolean (True = key present), got dtype {valid.dtype}")
    try:
        valid = np.broadcast_to(valid, shape)
    except ValueError:
        raise InvalidArgument(f"{name} of shape {valid.shape} does not broadcast to {of}'s shape {shape}") from None
    if every_row and valid.size and not np.all(valid.any(axis=-1)):
        raise InvalidArgument(f"{name} must leave at least one valid key in every row")
    return valid
