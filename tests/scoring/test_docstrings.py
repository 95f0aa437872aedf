"""The examples in the library's docstrings run, and say what the library does."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import pytest

import scoring


def _modules() -> list[str]:
    names = ["scoring"]
    for info in pkgutil.walk_packages(scoring.__path__, "scoring."):
        if info.name.rsplit(".", 1)[-1] != "__main__":  # running it would run the command line
            names.append(info.name)
    return names


MODULES = _modules()
FLAGS = doctest.ELLIPSIS


def _examples(module: ModuleType) -> list[doctest.DocTest]:
    return [t for t in doctest.DocTestFinder().find(module) if t.examples]


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_of_a_module_pass(name: str) -> None:
    module = importlib.import_module(name)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    for test in _examples(module):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} failed"


def test_every_layer_has_examples_and_there_are_many() -> None:
    counts = {
        name: sum(len(t.examples) for t in _examples(importlib.import_module(name)))
        for name in MODULES
    }
    assert sum(counts.values()) >= 80
    for layer in ("scoring.core.", "scoring.fine.", "scoring.psychometric.", "scoring.frames"):
        assert sum(n for name, n in counts.items() if name.startswith(layer)) > 0, layer
