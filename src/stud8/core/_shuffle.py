"""The Fisher-Yates shuffle of :meth:`stud8.core.cards.Deck.shuffled`, in two forms:
written out in full for the interpreter, as loops for the compiled build (mypyc, see
setup.py), each the faster where it runs. Both make the very same swaps."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

_T = TypeVar("_T")


def _chunks() -> tuple[tuple[int, int, int], ...]:
    """The swaps grouped so that each group's digits come from one chunk of ``x`` that
    fits a machine word (a few big-number divisions instead of 51): (the product of
    the group's radices, its first i, its last i)."""
    out = []
    i = 51
    while i > 0:
        product = 1
        k = i
        while k > 0 and product * (k + 1) < 2**30:
            product *= k + 1
            k -= 1
        out.append((product, i, k + 1))
        i = k
    return tuple(out)


_CHUNKS = _chunks()


def _unrolled_fisher_yates() -> Callable[[int, list[_T]], None]:
    """``fisher_yates(x, order)``: for i from 51 down to 1, swap ``order[i]`` with
    ``order[j]``, j the next digit of ``x`` in radix i + 1 (``x, j = divmod(x, i + 1)``),
    the digits taken chunk by chunk (:data:`_CHUNKS`). Written out in full (no loop):
    three times faster in the interpreter.
    """
    lines = ["def fisher_yates(x, o):"]
    for product, top, bottom in _CHUNKS:
        lines.append(f"    x, r = divmod(x, {product})")
        for k in range(top, bottom - 1, -1):
            lines.append(f"    j = r % {k + 1}; r //= {k + 1}; o[{k}], o[j] = o[j], o[{k}]")
    scope: dict[str, Callable[[int, list[_T]], None]] = {}
    exec("\n".join(lines), scope)
    return scope["fisher_yates"]


def _looped_fisher_yates(x: int, o: list[_T]) -> None:
    """The swaps of the unrolled function, as loops."""
    for product, top, bottom in _CHUNKS:
        x, r = divmod(x, product)
        for i in range(top, bottom - 1, -1):
            j = r % (i + 1)
            r //= i + 1
            o[i], o[j] = o[j], o[i]


# Compiled, a function has no Python code object.
COMPILED = not hasattr(_looped_fisher_yates, "__code__")
fisher_yates: Callable[[int, list[_T]], None] = (
    _looped_fisher_yates if COMPILED else _unrolled_fisher_yates()
)
