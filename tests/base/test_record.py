"""@record behaves as dataclasses.dataclass for what the code base uses, and stays a
data class to dataclasses' own functions."""

from __future__ import annotations

import dataclasses
import pickle
import re
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pytest

from micropul_print.base.record import record


@record
class Point:
    x: float
    y: float
    label: str = ""
    tags: tuple[str, ...] = field(default_factory=tuple)
    kind: ClassVar[str] = "a point"


@dataclass(frozen=True)
class PointDataclass:
    x: float
    y: float
    label: str = ""
    tags: tuple[str, ...] = field(default_factory=tuple)
    kind: ClassVar[str] = "a point"


@record(order=True)
class Ranked:
    rank: int
    name: str
    note: str = field(default="", compare=False)


@record(frozen=False)
class Mutable:
    items: list[int] = field(default_factory=list)
    count: int = 0


@record(eq=False)
class Base:
    where: str
    kind: ClassVar[str] = "a base"


@record(eq=False)
class Derived(Base):
    value: int
    index: dict[str, int] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.index[self.where] = self.value


def test_a_record_is_built_stored_and_shown_as_a_dataclass_is() -> None:
    for made in (Point(1.0, 2.0), Point(1.0, y=2.0, label="a"), Point(x=1.0, y=2.0, tags=("t",))):
        twin = PointDataclass(made.x, made.y, made.label, made.tags)
        assert repr(made) == repr(twin).replace("PointDataclass", "Point")
        assert hash(made) == hash(twin)
    assert Point(1.0, 2.0) == Point(1.0, 2.0, "")
    assert Point(1.0, 2.0) != Point(1.0, 3.0)
    assert Point(1.0, 2.0) != PointDataclass(1.0, 2.0)  # type: ignore[comparison-overlap]
    assert Point.kind == "a point" and Point.__match_args__ == ("x", "y", "label", "tags")
    assert Point(1.0, 2.0).tags == () and "tags" not in Point.__dict__
    assert Point.label == ""  # a plain default stays on the class, as dataclass leaves it


def test_dataclasses_functions_work_on_records() -> None:
    point = Point(1.0, 2.0, "a")
    assert dataclasses.is_dataclass(point)
    assert [f.name for f in dataclasses.fields(point)] == ["x", "y", "label", "tags"]
    assert dataclasses.replace(point, y=5.0) == Point(1.0, 5.0, "a")
    assert dataclasses.asdict(point) == {"x": 1.0, "y": 2.0, "label": "a", "tags": ()}
    assert pickle.loads(pickle.dumps(point)) == point


def test_a_frozen_record_refuses_changes() -> None:
    point = Point(1.0, 2.0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        point.x = 3.0  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del point.y


def test_order_compares_the_compared_fields_as_dataclass_does() -> None:
    ranked = [Ranked(2, "b"), Ranked(1, "z", note="x"), Ranked(2, "a", note="y")]
    assert sorted(ranked) == [Ranked(1, "z"), Ranked(2, "a"), Ranked(2, "b")]
    assert Ranked(1, "a", note="x") == Ranked(1, "a", note="y")
    assert hash(Ranked(1, "a")) == hash((1, "a"))


def test_a_mutable_record_can_change_and_has_no_hash() -> None:
    first, second = Mutable(), Mutable()
    first.items.append(1)
    first.count = 2
    assert second.items == [] and first == Mutable([1], 2)
    assert Mutable.__hash__ is None


def test_inheritance_post_init_and_identity_equality() -> None:
    node = Derived("here", 3)
    assert node.index == {"here": 3}
    assert [f.name for f in dataclasses.fields(node)] == ["where", "value", "index"]
    assert repr(node) == "Derived(where='here', value=3)"
    assert node != Derived("here", 3) and node == node
    assert hash(node) == object.__hash__(node)  # eq=False: identity, as dataclass leaves it
    assert Derived.kind == "a base"


@pytest.mark.parametrize(("args", "kwargs", "message"), [
    ((1.0,), {}, "Point.__init__() missing required argument: 'y'"),
    ((1.0, 2.0, "a", (), 5), {}, "takes 5 positional arguments but 6 were given"),
    ((1.0, 2.0), {"x": 3.0}, "got multiple values for argument 'x'"),
    ((1.0, 2.0), {"z": 3.0}, "got an unexpected keyword argument 'z'"),
])
def test_wrong_arguments_are_refused(args: tuple[Any, ...], kwargs: dict[str, Any],
                                     message: str) -> None:
    with pytest.raises(TypeError, match=re.escape(message)):
        Point(*args, **kwargs)


def test_a_non_default_field_after_a_default_one_is_refused() -> None:
    with pytest.raises(TypeError, match="non-default argument 'y' follows default argument"):
        @record
        class Wrong:
            x: int = 0
            y: int  # type: ignore[misc]
