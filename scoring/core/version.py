"""The library's version: written here only (pyproject.toml reads it), named in every signature."""

__version__ = "1.0.0"
