"""Bundles (docs/bundles.md): a bakeoff's definition as one manifest, ``bundle.json``, and the
files it names. ``load_bundle`` makes a draft bakeoff of one through the services; ``bundle_of``
writes a bakeoff's definition as one; ``clone_bakeoff`` does both for the next edition."""

from .dump import bundle_of, clone_bakeoff, manifest_bytes, shifted, write_bundle, zip_of
from .errors import BundleError
from .load import load_bundle
from .manifest import FORMAT, VERSION, check_manifest
from .source import MANIFEST, BundleSource, MemoryBundle, open_bundle, zip_bundle

__all__ = [
    "FORMAT",
    "MANIFEST",
    "VERSION",
    "BundleError",
    "BundleSource",
    "MemoryBundle",
    "bundle_of",
    "check_manifest",
    "clone_bakeoff",
    "load_bundle",
    "manifest_bytes",
    "open_bundle",
    "shifted",
    "write_bundle",
    "zip_bundle",
    "zip_of",
]
