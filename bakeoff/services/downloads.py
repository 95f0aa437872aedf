"""The data files of a corpus a participant downloads, and the gates before each, for the
corpus page and the API alike: released (``access.check_can_download``), to a site registered
for one of its tracks, and after a member of the site accepted the corpus's data agreement
(``agreements.needs_agreement``). Organisers fetch the newest gold, the others the gold the
published results were scored against."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal, TypeGuard

from django.db.models.fields.files import FieldFile
from django.http import Http404
from django.utils.translation import gettext_lazy as _

from .. import access
from ..access import DataKind, User
from ..errors import interpolate
from ..models import Corpus, DevelopmentSet
from .agreements import LicenceNotAccepted, needs_agreement

# Every file a participant may download, by the name the API's addresses give it, with the
# name of the file downloaded (``bakeoff-corpus-NAME.utf8``).
FileKind = Literal[
    "training_text", "training_words", "test_text", "gold", "development_text", "development_gold"
]
FILES: dict[FileKind, str] = {
    "training_text": "training",
    "training_words": "training-words",
    "test_text": "test",
    "gold": "gold",
    "development_text": "development-text",
    "development_gold": "development-gold",
}


def is_file_kind(kind: str) -> TypeGuard[FileKind]:
    return kind in FILES


@dataclass(frozen=True)
class DataFile:
    kind: FileKind
    name: str
    field: FieldFile
    checksum: str  # "sha256:<hex>" of the stored bytes


def released_as(kind: FileKind) -> DataKind:
    """The release a file comes with: a development set with the training data."""
    match kind:
        case "development_text" | "development_gold":
            return "training_text"
        case _:
            return kind


def stored_file(user: User, corpus: Corpus, kind: FileKind) -> DataFile | None:
    """The stored file of ``kind`` (None when the corpus has none); no gate checked."""
    field: FieldFile | None
    if kind == "gold":
        organiser = access.is_organiser(user, corpus.bakeoff)
        gold = corpus.current_gold() if organiser else corpus.released_gold()
        field, checksum = (gold.file, gold.checksum) if gold is not None else (None, "")
    elif kind in ("development_text", "development_gold"):
        dev = DevelopmentSet.objects.filter(corpus=corpus).first()
        if dev is None:
            return None
        text = kind == "development_text"
        field = dev.text if text else dev.gold
        checksum = dev.text_checksum if text else dev.gold_checksum
    else:
        field = getattr(corpus, kind)
        checksum = getattr(corpus, f"{kind}_checksum")
    if not field:
        return None
    name = f"{corpus.bakeoff.slug}-{corpus.abbreviation.lower()}-{FILES[kind]}.utf8"
    return DataFile(kind, name, field, checksum)


def check_can_fetch(user: User, corpus: Corpus, kind: FileKind, now: datetime) -> DataFile:
    """The file ``user`` may download now, or a refusal: not released, not registered, or the
    data agreement not accepted yet (``licence_not_accepted``); 404 for a file the corpus lacks."""
    access.check_can_download(user, corpus, released_as(kind), now)
    if needs_agreement(user, corpus):
        raise LicenceNotAccepted(
            interpolate(
                _(
                    "A member of your site must accept the data agreement of %(corpus)s before "
                    "downloading its files."
                ),
                corpus=corpus.abbreviation,
            ),
            corpus=corpus.abbreviation,
        )
    found = stored_file(user, corpus, kind)
    if found is None:
        raise Http404("No such file.")
    return found
