"""Mail with a column of labels (the receipt, the scores, an internal failure) starts every value
in the same display column in each reader's language: a Han character or a full-width colon
takes two columns of a monospaced font, so labels padded by their count of characters left the
Chinese values out of line (issue 28)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.mail import EmailMessage
from django.utils import translation

from bakeoff import services
from bakeoff.models import Bakeoff, Corpus, ReaderSettings
from notifications.columns import align, display_width
from tests.factories import WORKED_RUN, make_site, track
from tests.hints import OnCommit

LANGUAGES = ("en", "zh-hans", "zh-hant")
RECEIPT = (
    "Site:",
    "Track:",
    "Phase:",
    "Run number:",
    "File:",
    "Checksum:",
    "Received at:",
    "Deadline:",
)
SCORES = ("Recall (R)", "Precision (P)", "F", "OOV rate", "OOV recall", "IV recall")


def value_columns(body: str, labels: list[str], *, wide: bool) -> list[int]:
    """For each label, the display column where its value begins on the line it starts."""
    columns = []
    for label in labels:
        lines = [line for line in body.splitlines() if line.startswith(label + " ")]
        assert len(lines) == 1, (label, body)
        value = lines[0][len(label) :]
        gap = len(value) - len(value.lstrip(" "))
        assert gap >= 2, lines[0]
        columns.append(display_width(label, wide_ambiguous=wide) + gap)
    return columns


def test_the_display_width_counts_wide_characters_twice() -> None:
    assert display_width("Site:") == 5
    assert display_width("参赛单位：") == 10  # four Han characters and a full-width colon
    assert display_width("·") == 1 and display_width("·", wide_ambiguous=True) == 2
    assert display_width("e\u0301") == 1  # a combining accent takes no column


def test_the_labels_are_padded_to_the_widest_in_display_columns() -> None:
    with translation.override("zh-hans"):
        text = align("参赛单位：\tS01\nF\t0.815\n\nplain line")
    assert text == "参赛单位：  S01\nF           0.815\n\nplain line"


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_receipt_and_the_scores_line_their_values_up_in_every_language(
    bakeoff: Bakeoff,
    corpus: Corpus,
    participant: User,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
    language: str,
) -> None:
    participant.email = "pat@example.org"
    participant.save()
    ReaderSettings.objects.update_or_create(user=participant, defaults={"language": language})
    with on_commit():
        make_site(bakeoff, participant, [track(corpus)])
    mailoutbox.clear()
    with on_commit():
        services.submit_run(participant, track(corpus), WORKED_RUN.encode(), original_name="r.txt")
    with translation.override(language):
        receipt_labels = [translation.gettext(label) for label in RECEIPT]
        score_labels = ["F"] + [translation.gettext(label) for label in SCORES if label != "F"]
    if language != "en":  # the labels are the reader's, some of them wide
        assert all(display_width(label) > len(label) for label in receipt_labels)
    receipt, scores = (str(message.body) for message in mailoutbox)
    wide = language != "en"
    assert len(set(value_columns(receipt, receipt_labels, wide=wide))) == 1, receipt
    assert len(set(value_columns(scores, score_labels, wide=wide))) == 1, scores
    # the counts under the figures, in the parentheses of the reader's script
    assert ("（找到" if wide else "(11 of 14 gold words found") in scores
