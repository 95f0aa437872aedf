from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from ..errors import Refused, interpolate


class BundleError(Refused):
    """A bundle refused, naming the path and key at fault (``corpora[1].gold``) and why."""

    code = "bad_bundle"

    def __init__(self, path: str, problem: StrOrPromise) -> None:
        super().__init__(
            interpolate(_("%(path)s: %(problem)s"), path=path, problem=problem), path=path
        )
        self.path = path
        self.problem = problem
