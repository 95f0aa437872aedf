"""The vocabulary of bucket schemes (docs/measures/buckets.md#bucket-schemes): the attributes a
scheme cuts, a bucket (``Bound``), the buckets of one attribute (``AttributeScheme``) and of a
track (``BucketScheme``), the names results are signed with, and the default scheme's cut.

It imports nothing else of ``scoring.fine``, so that the attributes, the ``interpreteval`` scheme
and the bucket analyses all import it in one direction (no import circle:
tests/test_import_graph.py).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ..core.text import UTF8, sha256_bytes

if TYPE_CHECKING:
    from .attributes import WordValues

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

#: Every attribute, in the order of the analyses (docs/measures/buckets.md#attributes).
ATTRIBUTES = ("wLen", "sLen", "oDen", "wFre", "cFre", "wCon", "cCon")
_INF = math.inf
SCHEME_NAME = "rethinkcws-default/1"
INTERPRETEVAL_SCHEME_NAME = "interpreteval/1"
#: The scheme prepare_track's ``scheme`` chooses -> the name its results are signed with.
SCHEME_NAMES = {"default": SCHEME_NAME, "interpreteval": INTERPRETEVAL_SCHEME_NAME}


@dataclass(frozen=True)
class Bound:
    """One bucket: an interval of attribute values."""

    low: float
    high: float
    low_closed: bool
    high_closed: bool

    @property
    def label(self) -> str:
        if self.low == self.high:
            return f"{{{_number(self.low)}}}"
        opening = "[" if self.low_closed else "("
        closing = "]" if self.high_closed else ")"
        return f"{opening}{_number(self.low)}, {_number(self.high)}{closing}"

    def contains(self, value: float) -> bool:
        above = value >= self.low if self.low_closed else value > self.low
        below = value <= self.high if self.high_closed else value < self.high
        return above and below

    def to_dict(self) -> dict[str, Any]:
        return {
            "low": _json_number(self.low),
            "high": _json_number(self.high),
            "low_closed": self.low_closed,
            "high_closed": self.high_closed,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Bound:
        """The bound ``to_dict`` gave (an infinite end is stored as "inf" or "-inf").

        >>> Bound.from_dict(Bound(4, math.inf, True, False).to_dict()).label
        '[4, inf)'
        """
        return cls(
            low=_from_json_number(data["low"]),
            high=_from_json_number(data["high"]),
            low_closed=bool(data["low_closed"]),
            high_closed=bool(data["high_closed"]),
        )


def _number(value: float) -> str:
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.6g}"


def _json_number(value: float) -> float | str:
    return _number(value) if math.isinf(value) else value


def _from_json_number(value: float | str) -> float:
    """The inverse of _json_number; an int stays an int, so that the scheme's checksum does."""
    return float(value) if isinstance(value, str) else value


@dataclass(frozen=True)
class AttributeScheme:
    """The buckets of one attribute, in increasing order of value. ``unit`` says what the buckets
    hold: words, or (for an attribute a scheme computes per character) characters."""

    attribute: str
    bounds: tuple[Bound, ...]
    unit: str = "word"

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(f"{self.attribute} {bound.label}" for bound in self.bounds)

    def assign(self, values: npt.ArrayLike) -> IntArray:
        """The bucket of every value; a value outside every bucket goes to the nearest one."""
        array = np.asarray(values, np.float64)
        bucket = np.full(array.shape, len(self.bounds) - 1, np.int64)
        for position in range(len(self.bounds) - 2, -1, -1):
            bound = self.bounds[position]
            inside = array <= bound.high if bound.high_closed else array < bound.high
            bucket[inside] = position
        return bucket

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "attribute": self.attribute,
            "buckets": [
                {"label": label, **bound.to_dict()}
                for label, bound in zip(self.labels, self.bounds, strict=True)
            ],
        }
        if self.unit != "word":  # so that the default scheme's checksum is what it was
            data["unit"] = self.unit
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AttributeScheme:
        bounds = tuple(Bound.from_dict(b) for b in data["buckets"])
        return cls(data["attribute"], bounds, unit=data.get("unit", "word"))


@dataclass(frozen=True)
class BucketScheme:
    """The buckets of every attribute of a track; its checksum is part of every result's
    signature."""

    attributes: tuple[AttributeScheme, ...]
    name: str = SCHEME_NAME

    def __getitem__(self, attribute: str) -> AttributeScheme:
        for scheme in self.attributes:
            if scheme.attribute == attribute:
                return scheme
        raise KeyError(attribute)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(scheme.attribute for scheme in self.attributes)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "attributes": [s.to_dict() for s in self.attributes]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BucketScheme:
        """The scheme ``to_dict`` gave, with the same checksum.

        >>> scheme = BucketScheme((AttributeScheme("wLen", (Bound(1, 1, True, True),)),))
        >>> BucketScheme.from_dict(scheme.to_dict()).checksum == scheme.checksum
        True
        """
        attributes = tuple(AttributeScheme.from_dict(s) for s in data["attributes"])
        return cls(attributes, name=data["name"])

    @property
    def checksum(self) -> str:
        canonical = json.dumps(self.to_dict(), sort_keys=True, ensure_ascii=False)
        return sha256_bytes(canonical.encode(UTF8))

    @classmethod
    def from_gold(cls, values: WordValues) -> BucketScheme:
        """The default scheme (docs/measures/buckets.md) for the attributes given, cut at the gold
        values."""
        schemes = []
        for name in ATTRIBUTES:
            if name in values.values:
                schemes.append(AttributeScheme(name, default_bounds(name, values.values[name])))
        return cls(tuple(schemes))


def default_bounds(attribute: str, gold_values: FloatArray) -> tuple[Bound, ...]:
    if attribute == "wLen":
        return (
            Bound(1, 1, True, True),
            Bound(2, 2, True, True),
            Bound(3, 3, True, True),
            Bound(4, _INF, True, False),
        )
    if attribute in ("wCon", "cCon"):
        return (
            Bound(0, 0, True, True),
            Bound(0, 0.5, False, True),
            Bound(0.5, 1, False, False),
            Bound(1, 1, True, True),
        )
    if attribute in ("wFre", "cFre", "oDen"):
        positive = np.sort(gold_values[gold_values > 0])
        zero = Bound(0, 0, True, True)
        if not positive.size:
            return (zero, Bound(0, _INF, False, False))
        return (zero, *_quantile_bounds(positive, 3, low=0.0, low_closed=False))
    if attribute == "sLen":
        ordered = np.sort(gold_values)
        if not ordered.size:
            return (Bound(0, _INF, True, False),)
        return _quantile_bounds(ordered, 4, low=float(ordered[0]), low_closed=True)
    raise ValueError(f"unknown attribute {attribute!r}")


def _quantile_bounds(
    ordered: FloatArray, parts: int, *, low: float, low_closed: bool
) -> tuple[Bound, ...]:
    """``parts`` buckets of about equal size over sorted values, closed on the right."""
    n = ordered.size
    cuts = [float(ordered[math.ceil(n * k / parts) - 1]) for k in range(1, parts)]
    highs = sorted({*cuts, float(ordered[-1])})
    bounds = []
    for high in highs:
        bounds.append(Bound(low, high, low_closed, True))
        low, low_closed = high, False
    return tuple(bounds)
