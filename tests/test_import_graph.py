"""No import circle anywhere in the project: every module imports only modules that do not import
it back, directly or through others.

A circle works only while every reference goes through the module (``from . import tasks``, then
``tasks.x`` at call time) or an import is deferred into a function, and breaks on the first
``from x import y`` moved to the top. The graph is read by grimp (import-linter's reader) from the
source, imports inside functions included; imports under ``if TYPE_CHECKING`` are left out: they
never run, so they cannot make one module's loading wait for another's.
"""

from __future__ import annotations

import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = (
    "scoring",
    "bakeoff",
    "leaderboard",
    "analysis",
    "psychometric",
    "notifications",
    "config",
)


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative).

    >>> circles({"a": {"b"}, "b": {"a", "c"}, "c": set()})
    [['a', 'b']]
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_circle_finder_finds_a_circle_through_three_modules() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"d"}}
    assert circles(edges) == [["a", "b", "c"]]


def test_no_module_of_the_project_imports_itself_through_others() -> None:
    sys.path.insert(0, str(ROOT))
    try:
        graph = grimp.build_graph(*PACKAGES, exclude_type_checking_imports=True, cache_dir=None)
    finally:
        sys.path.remove(str(ROOT))
    edges = {module: graph.find_modules_directly_imported_by(module) for module in graph.modules}
    found = circles(edges)
    assert not found, "modules that import each other:\n" + "\n".join(map(", ".join, found))
