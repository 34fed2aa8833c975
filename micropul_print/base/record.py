"""``@record``: a data class whose methods are made without compiling source per class.

``dataclasses.dataclass`` writes each class's ``__init__``, ``__repr__``, ``__eq__``,
``__hash__`` and (frozen) ``__setattr__``/``__delattr__`` as source text and compiles
them: about 1 ms a class, and the tile path defines some forty of them before it draws
anything (issue 26: a third of what the tile unit spent above the import floor). A
record gets the same methods as closures over its field names, made in microseconds;
creating an instance costs a little more than a compiled ``__init__`` would, which the
few thousand records a build makes do not notice.

A record is still a data class to the rest of Python: ``dataclasses.fields``,
``replace``, ``asdict`` and ``is_dataclass`` work on it, ``dataclasses.field(...)``
declares its fields' defaults, factories and flags, and type checkers read it as one
(``typing.dataclass_transform``). What it supports is what this code base uses:
``frozen`` (the default), ``eq``, ``order``, ``ClassVar`` annotations, inheritance
from other records, ``__post_init__``; not ``InitVar``, ``kw_only``, slots. Equality,
ordering and hashing compare the same tuples a dataclass compares, so sets and sorted
lists of records come out as before.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from operator import attrgetter, ge, gt, le, lt
from operator import eq as equal
from typing import Any, ClassVar, TypeVar, dataclass_transform, overload

_T = TypeVar("_T")
_MISSING: Any = dataclasses.MISSING
# dataclasses.fields() keeps the fields marked as plain fields (not ClassVar/InitVar)
_PLAIN_FIELD: Any = dataclasses._FIELD  # type: ignore[attr-defined]


@overload
def record(cls: type[_T], /) -> type[_T]: ...


@overload
def record(*, frozen: bool = True, eq: bool = True,
           order: bool = False) -> Callable[[type[_T]], type[_T]]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field,))
def record(cls: type[_T] | None = None, /, *, frozen: bool = True, eq: bool = True,
           order: bool = False) -> type[_T] | Callable[[type[_T]], type[_T]]:
    """Make ``cls`` a data class (frozen unless ``frozen=False``), as
    ``dataclasses.dataclass(frozen=..., eq=..., order=...)`` would."""

    def make(cls: type[_T]) -> type[_T]:
        return _make_record(cls, frozen=frozen, eq=eq, order=order)

    return make if cls is None else make(cls)


def _is_class_variable(annotation: object) -> bool:
    if isinstance(annotation, str):  # from __future__ import annotations
        head = annotation.split("[", 1)[0].strip()
        if head in ("InitVar", "dataclasses.InitVar"):
            raise TypeError("a record has no InitVar fields")
        return head in ("ClassVar", "typing.ClassVar")
    return annotation is ClassVar or getattr(annotation, "__origin__", None) is ClassVar


def _own_fields(cls: type) -> dict[str, dataclasses.Field[Any]]:
    """The fields ``cls`` declares itself, with the class attributes dataclass leaves."""
    fields: dict[str, dataclasses.Field[Any]] = {}
    for name, annotation in inspect.get_annotations(cls).items():
        if _is_class_variable(annotation):
            continue
        default = cls.__dict__.get(name, _MISSING)
        if isinstance(default, dataclasses.Field):
            field = default
            if field.default is _MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, field.default)
        else:
            if isinstance(default, list | dict | set):
                raise ValueError(f"mutable default {type(default)} for field {name} is not "
                                 "allowed: use default_factory")
            field = dataclasses.field(default=default)
        field.name = name
        field.type = annotation
        field._field_type = _PLAIN_FIELD  # type: ignore[attr-defined]
        fields[name] = field
    return fields


def _values_getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """A function giving an instance's values of ``names`` as a tuple (always a tuple:
    a dataclass hashes and orders tuples, even of one field)."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        (name,) = names
        return lambda self: (getattr(self, name),)
    return lambda self: ()


def _make_record(cls: type[_T], *, frozen: bool, eq: bool, order: bool) -> type[_T]:
    made: Any = cls  # the methods' types are the decorator's promise (dataclass_transform)
    fields: dict[str, dataclasses.Field[Any]] = {}
    for base in cls.__mro__[-1:0:-1]:
        fields.update(base.__dict__.get("__dataclass_fields__", {}))
    fields.update(_own_fields(cls))
    made.__dataclass_fields__ = fields
    own = cls.__dict__
    init_fields = [f for f in fields.values() if f.init]
    # (setattr: mypy refuses any assignment to __match_args__, even through Any)
    setattr(cls, "__match_args__", tuple(f.name for f in init_fields))  # noqa: B010
    if "__init__" not in own:
        made.__init__ = _init(cls, init_fields, fields, hasattr(cls, "__post_init__"))
    if "__repr__" not in own:
        made.__repr__ = _repr(tuple(f.name for f in fields.values() if f.repr))
    values = _values_getter(tuple(f.name for f in fields.values() if f.compare))
    if eq and "__eq__" not in own:
        made.__eq__ = _comparison(values, equal)
    if order:
        for name, compare in (("__lt__", lt), ("__le__", le), ("__gt__", gt), ("__ge__", ge)):
            if name in own:
                raise TypeError(f"cannot overwrite attribute {name} in class {cls.__name__}")
            setattr(cls, name, _comparison(values, compare))
    # Hashing as dataclass decides it (unsafe_hash=False): an explicit __hash__ stays.
    explicit_hash = own.get("__hash__", _MISSING) not in (_MISSING, None)
    if eq and not explicit_hash:
        if frozen:
            hashed = _values_getter(tuple(f.name for f in fields.values()
                                          if (f.compare if f.hash is None else f.hash)))
            made.__hash__ = lambda self: hash(hashed(self))
        else:
            made.__hash__ = None
    if frozen:
        _freeze(cls, frozenset(fields))
    return cls


def _init(cls: type, init_fields: list[dataclasses.Field[Any]],
          fields: dict[str, dataclasses.Field[Any]], post_init: bool) -> Callable[..., None]:
    names = tuple(f.name for f in init_fields)
    count = len(names)
    # Each parameter and what it falls back to when it is not given.
    fallbacks: tuple[tuple[str, Any, Any], ...] = tuple(
        (f.name, f.default, f.default_factory) for f in init_fields)
    seen_default = False
    for name, default, factory in fallbacks:
        if default is not _MISSING or factory is not _MISSING:
            seen_default = True
        elif seen_default:
            raise TypeError(f"non-default argument {name!r} follows default argument")
    # Fields left out of __init__ that a factory fills (a plain default stays on the class).
    produced: tuple[tuple[str, Any], ...] = tuple(
        (f.name, f.default_factory) for f in fields.values()
        if not f.init and f.default_factory is not _MISSING)
    qualname = cls.__qualname__

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        given = len(args)
        if given > count:
            raise TypeError(f"{qualname}.__init__() takes {count + 1} positional arguments "
                            f"but {given + 1} were given")
        # Straight into the instance's dict, as object.__setattr__ would put them (no
        # record has slots, nor a descriptor named like a field): frozen or not.
        state = self.__dict__
        state.update(zip(names, args, strict=False))  # args: the first few
        for name, default, factory in fallbacks[given:]:
            if name in kwargs:
                state[name] = kwargs.pop(name)
            elif default is not _MISSING:
                state[name] = default
            elif factory is not _MISSING:
                state[name] = factory()
            else:
                raise TypeError(f"{qualname}.__init__() missing required argument: {name!r}")
        if kwargs:
            name = next(iter(kwargs))
            problem = "got multiple values for argument" if name in names else \
                "got an unexpected keyword argument"
            raise TypeError(f"{qualname}.__init__() {problem} {name!r}")
        for name, factory in produced:
            state[name] = factory()
        if post_init:
            self.__post_init__()

    __init__.__qualname__ = f"{qualname}.__init__"
    return __init__


def _repr(names: tuple[str, ...]) -> Callable[[Any], str]:
    def __repr__(self: Any) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{type(self).__qualname__}({inner})"

    return __repr__


def _comparison(values: Callable[[Any], tuple[Any, ...]],
                compare: Callable[[tuple[Any, ...], tuple[Any, ...]], bool],
                ) -> Callable[[Any, object], Any]:
    def method(self: Any, other: object) -> Any:
        if other.__class__ is self.__class__:
            return compare(values(self), values(other))
        return NotImplemented

    return method


def _freeze(cls: Any, names: frozenset[str]) -> None:
    for name in ("__setattr__", "__delattr__"):
        if name in cls.__dict__:
            raise TypeError(f"cannot overwrite attribute {name} in class {cls.__name__}")

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    cls.__setattr__ = __setattr__
    cls.__delattr__ = __delattr__
