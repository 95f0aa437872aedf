"""Instants: entered in the bakeoff's zone (DST included), stored in UTC, shown in both; the zone
chosen from a menu of every known zone, the usual ones first."""

from __future__ import annotations

import doctest
import inspect
import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from django import forms
from django.contrib.auth.models import User
from django.db.models import F
from django.utils import translation

from bakeoff.errors import DeadlinePassed
from bakeoff.forms import BakeoffForm, ReaderSettingsForm
from bakeoff.models import Bakeoff, Site, Track
from bakeoff.services.instants import stamp
from bakeoff.services.phases import check_can_submit
from bakeoff.templatetags.bakeoff_tags import fig, in_zones
from bakeoff.zone_menu import USUAL_ZONES, zone_menu
from bakeoff.zones import known_zones
from tests.hints import ClientFor

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
    assert f.errors["time_zone"] == [UNKNOWN_ZONE]


UNKNOWN_ZONE = "'Mars/Olympus' is not a time zone name (for example Asia/Shanghai)."
JANUARY, JULY = datetime(2026, 1, 15, tzinfo=UTC), datetime(2026, 7, 15, tzinfo=UTC)


def chosen(field_html: str) -> list[str]:
    return re.findall(r'<option value="([^"]*)" selected>', field_html)


def test_the_zone_menu_has_the_usual_zones_first_then_every_known_zone_once() -> None:
    (usual_label, usual), *groups = zone_menu(JANUARY)
    assert str(usual_label) == "Usual zones"
    assert [name for name, _ in usual] == list(USUAL_ZONES)
    rest = [name for _, options in groups for name, _ in options]
    assert sorted(rest) == sorted(known_zones())


def test_the_zone_menu_groups_zones_by_region() -> None:
    groups = {str(label): [name for name, _ in options] for label, options in zone_menu(JANUARY)}
    assert "Asia/Shanghai" in groups["Asia"] and "Europe/Paris" in groups["Europe"]
    assert all(name.startswith("America/") for name in groups["Americas"])
    # what is not a region's city: offsets, UTC, and the older names some bakeoffs may have saved
    assert {"Etc/GMT-8", "UTC", "PRC", "US/Eastern"} <= set(groups["Other names"])


@pytest.mark.parametrize(
    ("now", "label"),
    [
        (JANUARY, "America/New_York (UTC−05:00)"),
        (JULY, "America/New_York (UTC−04:00)"),  # daylight saving time
        (JULY, "Asia/Kolkata (UTC+05:30)"),
        (JULY, "Europe/London (UTC+01:00)"),
        (JANUARY, "Europe/London (UTC+00:00)"),
        (JANUARY, "Etc/GMT-8 (UTC+08:00)"),  # the sign of these names is the reverse of ISO's
        (JANUARY, "UTC"),
    ],
)
def test_a_zone_is_named_with_its_offset_on_the_day(now: datetime, label: str) -> None:
    assert label in [shown for _, options in zone_menu(now) for _, shown in options]


def test_the_offsets_example_holds() -> None:
    assert doctest.testmod(inspect.getmodule(zone_menu)).failed == 0


@pytest.mark.parametrize("zone", ["Asia/Taipei", "Europe/Paris", "PRC"])
def test_the_bakeoff_form_shows_its_zone_chosen_in_the_menu(zone: str) -> None:
    shown = str(BakeoffForm(instance=Bakeoff(time_zone=zone))["time_zone"])
    assert shown.startswith("<select") and "maxlength" not in shown
    assert chosen(shown) == [zone]


@pytest.mark.parametrize(
    "field",
    [
        lambda: BakeoffForm(instance=Bakeoff(time_zone="Asia/Taipei"))["time_zone"],
        lambda: ReaderSettingsForm()["time_zone"],
        lambda: ReaderSettingsForm(initial={"time_zone": "Asia/Hong_Kong"})["time_zone"],
        lambda: ReaderSettingsForm({"language": "", "time_zone": "Mars/Olympus"})["time_zone"],
    ],
)
def test_the_zone_menu_is_the_markup_djangos_templates_make(field: Callable[[], Any]) -> None:
    """The menu writes its own markup (600 option templates took half a second a page): the
    same elements, attributes and texts as Django's select templates, but for the spaces."""
    bound = field()
    widget = bound.field.widget
    attrs = bound.build_widget_attrs({"id": bound.auto_id, **widget.attrs})
    with translation.override("zh-hans"):  # the group labels, escaped and translated
        ours = widget.render(bound.html_name, bound.value(), attrs)
        djangos = forms.Select.render(widget, bound.html_name, bound.value(), attrs)
    assert re.sub(r">\s+<", "><", ours) == re.sub(r">\s+<", "><", djangos)
    assert "亚洲" in ours and ours.count("<option") > 400
    assert widget.use_required_attribute(None) == forms.Select.use_required_attribute(widget, None)


def test_the_readers_zone_is_the_browsers_until_they_choose_one() -> None:
    shown = str(ReaderSettingsForm()["time_zone"])
    assert chosen(shown) == [""]
    assert chosen(
        str(ReaderSettingsForm(initial={"time_zone": "Asia/Hong_Kong"})["time_zone"])
    ) == ["Asia/Hong_Kong"]


def test_the_reader_settings_refuse_an_unknown_zone_by_name() -> None:
    form = ReaderSettingsForm({"language": "", "time_zone": "Mars/Olympus"})
    assert not form.is_valid()
    assert form.errors["time_zone"] == [UNKNOWN_ZONE]


@pytest.mark.parametrize(
    ("language", "usual", "asia"),
    [("zh-hans", "常用时区", "亚洲"), ("zh-hant", "常用時區", "亞洲")],
)
def test_the_new_bakeoff_page_offers_the_zone_menu_in_chinese(
    client_for: ClientFor, organiser: User, language: str, usual: str, asia: str
) -> None:
    page = client_for(organiser).get("/bakeoffs/new/", headers={"accept-language": language})
    shown = page.content.decode()
    assert f'<optgroup label="{usual}">' in shown and f'<optgroup label="{asia}">' in shown
    assert chosen(shown) == ["UTC"]  # the default of a new bakeoff


def test_instants_are_shown_in_the_zone_and_in_utc() -> None:
    bakeoff = Bakeoff(time_zone="Asia/Shanghai")
    shown = in_zones(datetime(2005, 7, 27, 12, 0, tzinfo=UTC), bakeoff)
    assert "2005-07-27 20:00 CST (Asia/Shanghai)" in shown
    assert "2005-07-27 12:00 UTC" in shown


def test_an_instant_ends_with_its_last_zone_not_a_space() -> None:
    # what follows it (a full stop, a colon) comes right after "UTC"
    shown = in_zones(datetime(2005, 7, 27, 12, 0, tzinfo=UTC), Bakeoff(time_zone="Asia/Shanghai"))
    assert shown.endswith("12:00 UTC</span></span>")
    assert in_zones(datetime(2005, 7, 27, 12, 0, tzinfo=UTC), Bakeoff(time_zone="UTC")).endswith(
        "12:00 UTC</span>"
    )


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
