"""A real SMTP server for the production path: aiosmtpd, started as a process on 127.0.0.1, that
keeps every message it receives in a Maildir the tests read."""

from __future__ import annotations

import mailbox
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from email.header import decode_header, make_header
from email.message import Message
from pathlib import Path

import pytest

from .stack import free_port, listens, start_process, stop, wait_until_ready


@dataclass
class SMTPServer:
    host: str
    port: int
    maildir: Path

    @property
    def url(self) -> str:
        return f"smtp://{self.host}:{self.port}"

    def messages(self) -> list[Message]:
        box = mailbox.Maildir(self.maildir, create=False)
        return sorted(box, key=lambda m: m.get("Date", ""))

    def to(self, address: str) -> list[Message]:
        return [m for m in self.messages() if address in str(m.get("To", ""))]

    def wait_for(self, address: str, subject: str, timeout: float = 60) -> Message:
        """The first message to ``address`` whose subject contains ``subject``, once delivered."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for message in self.to(address):
                if subject in header(message, "Subject"):
                    return message
            time.sleep(0.2)
        seen = [(m.get("To"), header(m, "Subject")) for m in self.messages()]
        raise AssertionError(f"no mail {subject!r} to {address} in {timeout} s; delivered: {seen}")


def header(message: Message, name: str) -> str:
    """A header decoded (RFC 2047 words: subjects with Chinese names)."""
    return str(make_header(decode_header(str(message.get(name, ""))))).strip()


def text_of(message: Message) -> str:
    """The plain-text part of a delivered message, decoded."""
    for part in message.walk():
        if part.get_content_type() == "text/plain":
            payload = part.get_payload(decode=True)
            assert isinstance(payload, bytes)
            return payload.decode(part.get_content_charset() or "utf-8")
    raise AssertionError("the message has no plain-text part")


@pytest.fixture(scope="session")
def smtp_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SMTPServer]:
    maildir = tmp_path_factory.mktemp("smtp") / "Maildir"
    mailbox.Maildir(maildir, create=True)
    server = SMTPServer("127.0.0.1", free_port(), maildir)
    log = maildir.parent / "aiosmtpd.log"
    process = start_process(
        [
            sys.executable,
            "-m",
            "aiosmtpd",
            "-n",
            "-u",  # SMTPUTF8: names and subjects in Chinese
            "-l",
            f"{server.host}:{server.port}",
            "-c",
            "aiosmtpd.handlers.Mailbox",
            str(maildir),
        ],
        log,
    )
    try:
        wait_until_ready(process, log, lambda: listens(server.port), timeout=30)
        yield server
    finally:
        stop(process, timeout=10)
