"""The library's layers and its public names: what importing a part of it costs and pulls in."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import scoring

HEAVY = ("scipy", "pandas", "ahocorasick", "pycrfsuite")


def _modules_after(code: str) -> set[str]:
    """The modules a fresh interpreter has loaded after running ``code``."""
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport json, sys; print(json.dumps(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(scoring.__file__).parent.parent,
    ).stdout
    return set(json.loads(out.splitlines()[-1]))


def _top(modules: set[str]) -> set[str]:
    return {name.split(".")[0] for name in modules}


def test_every_public_name_resolves_to_what_its_module_defines() -> None:
    for name in scoring.__all__:
        value = getattr(scoring, name)
        if name != "__version__":
            module = __import__(f"scoring.{scoring._EXPORTS[name]}", fromlist=[name])
            assert value is getattr(module, name), name
    assert set(scoring.__all__) == {"__version__", *scoring._EXPORTS}
    assert set(dir(scoring)) >= set(scoring.__all__)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        scoring.nope  # noqa: B018


def test_the_type_checking_imports_list_the_same_names_as_the_lazy_table() -> None:
    tree = ast.parse(Path(scoring.__file__).read_text("utf-8"))
    (block,) = [n for n in tree.body if isinstance(n, ast.If)]  # if TYPE_CHECKING:
    imported = {
        alias.name: (node.module or "")
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert imported == scoring._EXPORTS


def test_importing_scoring_loads_nothing_heavy() -> None:
    loaded = _modules_after("import scoring")
    assert not _top(loaded) & {"numpy", *HEAVY}


def test_the_core_imports_no_other_layer_and_nothing_heavy() -> None:
    loaded = _modules_after(
        "import pkgutil, importlib, scoring.core\n"
        "for m in pkgutil.iter_modules(scoring.core.__path__):\n"
        "    importlib.import_module('scoring.core.' + m.name)"
    )
    assert not {m for m in loaded if m.startswith(("scoring.fine", "scoring.psychometric"))}
    assert not {m for m in loaded if m.startswith("scoring.cli")}
    assert not _top(loaded) & set(HEAVY)


@pytest.mark.parametrize(("layer", "other"), [("fine", "psychometric"), ("psychometric", "fine")])
def test_the_fine_and_psychometric_layers_use_only_the_core(layer: str, other: str) -> None:
    loaded = _modules_after(
        f"import pkgutil, importlib, scoring.{layer}\n"
        f"for m in pkgutil.iter_modules(scoring.{layer}.__path__):\n"
        f"    importlib.import_module('scoring.{layer}.' + m.name)"
    )
    assert not {m for m in loaded if m.startswith((f"scoring.{other}", "scoring.cli"))}
    assert not _top(loaded) & set(HEAVY)


def test_the_frames_load_no_pandas_until_a_table_is_made() -> None:
    loaded = _modules_after("import scoring.frames")
    assert "pandas" not in _top(loaded)


def test_the_command_line_loads_only_the_core_until_a_command_needs_more() -> None:
    loaded = _modules_after("import scoring.cli; scoring.cli._parser()")
    assert not {
        m for m in loaded if m.startswith("scoring.fine.") and m != "scoring.fine.bootstrap"
    }
    assert not _top(loaded) & set(HEAVY)


def test_the_version_is_written_once_and_shown_by_the_command_line_and_signatures() -> None:
    import tomllib

    from scoring.core.version import __version__

    root = Path(scoring.__file__).parent.parent
    project = tomllib.loads((root / "pyproject.toml").read_text("utf-8"))
    assert "version" not in project["project"]
    assert "version" in project["project"]["dynamic"]
    attr = project["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    assert attr == "scoring.core.version.__version__"
    shown = subprocess.run(
        [sys.executable, "-m", "scoring", "--version"], capture_output=True, text=True, cwd=root
    ).stdout
    assert shown.split()[-1] == __version__ == scoring.__version__
    assert scoring.Signature(__version__, "g", "d").to_dict()["scorer_version"] == __version__


def test_the_extras_pull_the_optional_libraries_and_the_base_install_does_not() -> None:
    import tomllib

    root = Path(scoring.__file__).parent.parent
    project = tomllib.loads((root / "pyproject.toml").read_text("utf-8"))["project"]
    base = " ".join(project["dependencies"])
    assert "crfsuite" not in base and "pandas" not in base
    assert any(
        d.startswith("python-crfsuite") for d in project["optional-dependencies"]["committee"]
    )
    assert any(d.startswith("pandas") for d in project["optional-dependencies"]["frames"])
