# django-tables2 3.0 ships no types: this is the part of it the platform uses (leaderboard.tables
# and leaderboard.views), typed from its source. Extend it when another part is used.
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, TypeVar

from django.http import HttpRequest
from django_stubs_ext import StrOrPromise

_T = TypeVar("_T", bound=Table)

class Column:
    def __init__(
        self,
        verbose_name: StrOrPromise | None = None,
        accessor: str | None = None,
        default: object = None,
        visible: bool = True,
        orderable: bool | None = None,
        attrs: dict[str, dict[str, str]] | None = None,
        order_by: str | Sequence[str] | None = None,
        empty_values: Sequence[object] | None = None,
        localize: bool | None = None,
        footer: object = None,
        exclude_from_export: bool = False,
        linkify: bool = False,
        initial_sort_descending: bool = False,
    ) -> None: ...
    def render(self, value: Any) -> object: ...

class BoundColumn:
    name: str
    @property
    def attrs(self) -> dict[str, dict[str, str]]: ...

class BoundColumns:
    def __iter__(self) -> Iterator[BoundColumn]: ...
    def __len__(self) -> int: ...

class BoundRow:
    @property
    def record(self) -> Any: ...  # an item of the table's data, whatever it was given

class BoundRows:
    def __iter__(self) -> Iterator[BoundRow]: ...
    def __len__(self) -> int: ...

class TableData:
    def __len__(self) -> int: ...

class Table:
    columns: BoundColumns
    data: TableData
    rows: BoundRows
    empty_text: StrOrPromise | None
    def __init__(
        self,
        data: Sequence[object],
        order_by: str | Sequence[str] | None = None,
        orderable: bool | None = None,
        empty_text: StrOrPromise | None = None,
        exclude: Sequence[str] | None = None,
        attrs: dict[str, str] | None = None,
        row_attrs: dict[str, str] | None = None,
        pinned_row_attrs: dict[str, str] | None = None,
        sequence: Sequence[str] | None = None,
        prefix: str | None = None,
        order_by_field: str | None = None,
        page_field: str | None = None,
        per_page_field: str | None = None,
        template_name: str | None = None,
        default: object = None,
        request: HttpRequest | None = None,
        show_header: bool | None = None,
        show_footer: bool = True,
        extra_columns: Sequence[tuple[str, Column]] | None = None,
    ) -> None: ...

class RequestConfig:
    def __init__(
        self, request: HttpRequest, paginate: bool | Mapping[str, object] = True
    ) -> None: ...
    def configure(self, table: _T) -> _T: ...
