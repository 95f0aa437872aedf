"""The time zones the platform knows: the system's tz database, read once per process."""

from __future__ import annotations

import functools
import zoneinfo

# Listing them walks the tzdata folder (some 16 ms): every browser sends the zone cookie with every
# request, and every bakeoff saved is checked against them.
known_zones = functools.cache(zoneinfo.available_timezones)
