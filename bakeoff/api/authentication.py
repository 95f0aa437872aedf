"""Token authentication with a limit on failures: a client address that sends more bad tokens
than BAKEOFF_RATE_LIMITS["token_failures"] allows is answered 429 (JSON, with Retry-After) for
every bad token until its sliding window lets go. A good token is always accepted: one script
guessing behind a lab's NAT must not lock the whole lab out at a deadline."""

from __future__ import annotations

from typing import Any

from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed, Throttled
from rest_framework.request import Request

from .. import ratelimit

TOO_MANY = "Too many failed token authentications from your address."


class LimitedTokenAuthentication(TokenAuthentication):
    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        if request.META.get("HTTP_AUTHORIZATION", "").split(" ")[0].lower() != "token":
            return None
        key = "token-failures:" + ratelimit.client_address(request)
        limit = ratelimit.limit_of("token_failures")
        try:
            return super().authenticate(request)
        except AuthenticationFailed:
            wait = ratelimit.hit(key, limit)
            if wait is not None:
                raise Throttled(wait, detail=TOO_MANY) from None
            raise
