"""What the forms share: the validators of one-line and free text."""

from __future__ import annotations

from ..models import validate_single_line
from ..validators import validate_text

ONE_LINE = [validate_single_line]
# Free text (descriptions, reasons, statements, notes): what the services check too.
FREE_TEXT = [validate_text]
