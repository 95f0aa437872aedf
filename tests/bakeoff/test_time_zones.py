"""Instants: entered in the bakeoff's zone (DST included), stored in UTC, shown in both."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import User
from django.db.models import F

from bakeoff.errors import DeadlinePassed
from bakeoff.forms import BakeoffForm
from bakeoff.models import Bakeoff, Site, Track
from bakeoff.services.instants import stamp
from bakeoff.services.submissions import check_can_submit
from bakeoff.templatetags.bakeoff_tags import fig, in_zones

TIMES = {
    "registration_opens": "2026-02-01T09:00",
    "registration_closes": "2026-03-01T09:00",
    "training_released": "2026-02-01T09:00",
    "test_released": "2026-03-06T12:00",
}


def form(zone: str, deadline: str) -> BakeoffForm:
    return BakeoffForm(
        {"name": "N", "slug": "n", "time_zone": zone, **TIMES, "submission_deadline": deadline}
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("deadline", "utc_hour"),
    [
        ("2026-03-07T12:00", 17),  # EST, UTC−5
        ("2026-03-08T12:00", 16),  # EDT, UTC−4: daylight saving started at 02:00 that day
    ],
)
def test_the_deadline_is_read_in_the_bakeoffs_zone(deadline: str, utc_hour: int) -> None:
    f = form("America/New_York", deadline)
    assert f.is_valid(), f.errors
    assert f.cleaned_data["submission_deadline"].astimezone(UTC).hour == utc_hour


@pytest.mark.django_db
def test_it_refuses_an_unknown_time_zone() -> None:
    f = form("Mars/Olympus", "2026-03-08T12:00")
    assert not f.is_valid()
    assert "time_zone" in f.errors


def test_instants_are_shown_in_the_zone_and_in_utc() -> None:
    bakeoff = Bakeoff(time_zone="Asia/Shanghai")
    shown = in_zones(datetime(2005, 7, 27, 12, 0, tzinfo=UTC), bakeoff)
    assert "2005-07-27 20:00 CST (Asia/Shanghai)" in shown
    assert "2005-07-27 12:00 UTC" in shown


def test_figures_show_three_decimals_or_dashes() -> None:
    assert fig(0.54545) == "0.545"
    assert fig(None) == "--"


@pytest.mark.parametrize(
    ("zone", "expected"),
    [
        ("UTC", "2026-03-03 12:00:00 UTC"),
        ("Asia/Shanghai", "2026-03-03 12:00:00 UTC (20:00:00 CST, Asia/Shanghai)"),
        # the local date differs from UTC's: it is written out
        ("America/New_York", "2026-03-03 12:00:00 UTC (07:00:00 EST, America/New_York)"),
        (
            "Pacific/Kiritimati",
            "2026-03-03 12:00:00 UTC (2026-03-04 02:00:00 +14, Pacific/Kiritimati)",
        ),
    ],
)
def test_a_message_states_an_instant_in_utc_and_in_the_bakeoffs_zone(
    zone: str, expected: str
) -> None:
    assert stamp(datetime(2026, 3, 3, 12, tzinfo=UTC), Bakeoff(time_zone=zone)) == expected


@pytest.mark.django_db
def test_a_late_run_is_told_the_deadline_in_the_bakeoffs_zone_too(
    participant: User, site: Site, closed: Track, bakeoff: Bakeoff
) -> None:
    deadline = datetime(2026, 3, 3, 12, tzinfo=UTC)
    shift = deadline - bakeoff.submission_deadline  # the whole timetable, so it stays in order
    instants = ("registration_opens", "registration_closes", "training_released", "test_released")
    Bakeoff.objects.filter(pk=bakeoff.pk).update(
        time_zone="Asia/Shanghai",
        grace_minutes=0,
        submission_deadline=deadline,
        opened_at=F("opened_at") + shift,
        **{name: F(name) + shift for name in instants},
    )
    closed.refresh_from_db()
    with pytest.raises(DeadlinePassed) as refused:
        check_can_submit(participant, closed, datetime(2026, 3, 3, 12, 0, 5, tzinfo=UTC))
    assert refused.value.detail == (
        "The submission deadline was 2026-03-03 12:00:00 UTC (20:00:00 CST, Asia/Shanghai); "
        "this run arrived at 2026-03-03 12:00:05 UTC (20:00:05 CST, Asia/Shanghai)."
    )
