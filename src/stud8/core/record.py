"""Frozen records that cost little to make: the engine's events.

A hand makes about sixty event records; as frozen slotted dataclasses each cost
about half a microsecond to build, a fifth of a whole hand's time. A
:func:`record` class is a tuple underneath (immutable for free, built by one
``tuple.__new__``) that behaves as a frozen dataclass would:

- fields by name (``event.seat``), positional and keyword construction with
  defaults, ``__match_args__`` for ``match``;
- equality and hashing by type *and* values (``Checked(3) != Folded(3)``, unlike
  two plain tuples);
- a ``repr`` you can paste back: ``CardDealt(seat=1, card=Card.parse('As'), ...)``;
- ``dataclasses.fields``, ``replace``, ``asdict`` and ``is_dataclass`` work on it
  (its ``__dataclass_fields__`` come from an equivalent dataclass), and it pickles.

>>> from typing import ClassVar
>>> @record
... class Pair(Record):
...     left: int
...     right: int = 0
...     kind: ClassVar[str] = "pair"
>>> p = Pair(1, right=2)
>>> p, p.left, p.kind, p == Pair(1, 2), p == (1, 2)
(Pair(left=1, right=2), 1, 'pair', True, False)
>>> import dataclasses
>>> dataclasses.replace(p, right=5)
Pair(left=1, right=5)
>>> p.left = 3
Traceback (most recent call last):
...
dataclasses.FrozenInstanceError: a Pair record cannot be changed
"""

from __future__ import annotations

import dataclasses
from operator import itemgetter
from typing import Any, ClassVar, TypeVar, dataclass_transform, get_origin

_T = TypeVar("_T")
_tuple_new = tuple.__new__
_tuple_eq = tuple.__eq__
_tuple_ne = tuple.__ne__


class Record(tuple[Any, ...]):
    """Base of the :func:`record` classes."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]] = {}

    # Equal only to a record of the same type with the same values.
    def __eq__(self, other: object) -> bool:
        return self.__class__ is other.__class__ and _tuple_eq(self, other)

    def __ne__(self, other: object) -> bool:
        return self.__class__ is not other.__class__ or _tuple_ne(self, other)

    __hash__ = tuple.__hash__

    def __repr__(self) -> str:
        values = ", ".join(f"{n}={v!r}" for n, v in zip(self._fields, self, strict=True))
        return f"{self.__class__.__name__}({values})"

    def __getnewargs__(self) -> tuple[Any, ...]:
        return tuple(self)


@dataclass_transform(frozen_default=True)
def record(cls: type[_T]) -> type[_T]:
    """Make ``cls`` (a subclass of :class:`Record` whose annotations are its
    fields, as in a dataclass) a frozen record class."""
    if not issubclass(cls, Record):
        raise TypeError(f"{cls.__name__} must subclass Record")
    # Let dataclasses read the class: the fields, their order and defaults.
    # (no methods generated: only the fields are wanted, and it keeps imports quick)
    shadow: type[Any] = dataclasses.dataclass(init=False, repr=False, eq=False)(
        type(cls.__name__, (), {"__annotations__": dict(cls.__annotations__), **_defaults(cls)})
    )
    found = dataclasses.fields(shadow)
    names = tuple(f.name for f in found)
    namespace = {k: v for k, v in cls.__dict__.items() if k not in ("__dict__", "__weakref__")}
    for name in names:
        namespace.pop(name, None)
    params = []
    scope: dict[str, Any] = {"_tuple_new": _tuple_new}
    for f in found:
        if f.default is not dataclasses.MISSING:
            scope[f"_d_{f.name}"] = f.default
            params.append(f"{f.name}=_d_{f.name}")
        else:
            params.append(f.name)
    values = "".join(f"{n}, " for n in names)
    exec(
        f"def __new__(cls, {', '.join(params)}):\n    return _tuple_new(cls, ({values}))",
        scope,
    )
    new = scope["__new__"]
    new.__qualname__ = f"{cls.__qualname__}.__new__"
    namespace.update(
        __slots__=(),
        __new__=new,
        _fields=names,
        __match_args__=names,
        __dataclass_fields__=shadow.__dataclass_fields__,
    )
    for i, name in enumerate(names):
        namespace[name] = property(itemgetter(i), _refuse, _refuse, doc=f"The {name} field.")
    made: type[_T] = type(cls.__name__, cls.__bases__, namespace)
    made.__qualname__ = cls.__qualname__
    return made


def _refuse(self: Record, *value: object) -> None:
    raise dataclasses.FrozenInstanceError(f"a {type(self).__name__} record cannot be changed")


def _defaults(cls: type) -> dict[str, Any]:
    return {
        name: cls.__dict__[name]
        for name, annotation in cls.__annotations__.items()
        if name in cls.__dict__ and not _is_class_var(annotation)
    }


def _is_class_var(annotation: object) -> bool:
    if isinstance(annotation, str):
        return annotation.startswith(("ClassVar", "typing.ClassVar"))
    return annotation is ClassVar or get_origin(annotation) is ClassVar


def fast_init(cls: type[_T]) -> type[_T]:
    """Give a frozen slotted dataclass a faster ``__init__``.

    The engine makes dozens of records a hand; the generated ``__init__`` of a
    frozen dataclass goes through ``object.__setattr__`` for every field. This
    one writes the slots through their descriptors, which is about twice as fast
    and just as frozen afterwards (assignment still raises).
    """
    names = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
    params: list[str] = []
    keyword_only: list[str] = []
    namespace: dict[str, Any] = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        if f.default is not dataclasses.MISSING:
            namespace[f"_d_{f.name}"] = f.default
            param = f"{f.name}=_d_{f.name}"
        else:
            param = f.name
        (keyword_only if f.kw_only else params).append(param)
        namespace[f"_set_{f.name}"] = getattr(cls, f.name).__set__
    if keyword_only:
        params += ["*", *keyword_only]
    body = "".join(f"\n    _set_{n}(self, {n})" for n in names) or "\n    pass"
    exec(f"def __init__(self, {', '.join(params)}):{body}", namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[method-assign]
    return cls
