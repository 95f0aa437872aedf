"""Domain errors: each carries a message for people and the HTTP status an API answers with."""

from __future__ import annotations

from typing import Any

import scoring


class Refused(Exception):
    """An action the rules refuse; ``detail`` says why, in words a participant can act on."""

    status_code = 400

    def __init__(self, detail: str, **fields: Any) -> None:
        super().__init__(detail)
        self.detail = detail
        self.fields = fields

    def to_dict(self) -> dict[str, Any]:
        return {"detail": self.detail, **self.fields}


class NotAllowed(Refused):
    status_code = 403


class NotReleased(Refused):
    status_code = 403


class DeadlinePassed(Refused):
    status_code = 403


class NotRegistered(Refused):
    status_code = 403


class RegistrationRefused(Refused):
    status_code = 400


class RunLimitReached(Refused):
    status_code = 409


class UploadTooLarge(Refused):
    status_code = 413


class InvalidFile(Refused):
    """A file that does not decode or does not match the text it must segment."""

    status_code = 400

    @classmethod
    def from_scoring_error(cls, error: scoring.ScoringError, what: str = "") -> InvalidFile:
        prefix = f"{what}: " if what else ""
        if isinstance(error, scoring.RunValidationError):
            fields = error.to_dict()
            fields.pop("detail", None)
            return cls(prefix + str(error), **fields)
        if isinstance(error, scoring.EncodingError):
            return cls(
                prefix + str(error),
                line=error.line,
                byte_offset=error.byte_offset,
                encoding=error.encoding,
            )
        return cls(prefix + str(error))
