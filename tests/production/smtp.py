"""A real SMTP server for the production path: aiosmtpd, started as a process on 127.0.0.1, that
keeps every message it receives in a Maildir the tests read."""

from __future__ import annotations

import mailbox
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from email.header import decode_header, make_header
from email.message import Message
from pathlib import Path

import pytest


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


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="session")
def smtp_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SMTPServer]:
    maildir = tmp_path_factory.mktemp("smtp") / "Maildir"
    mailbox.Maildir(maildir, create=True)
    server = SMTPServer("127.0.0.1", _free_port(), maildir)
    log = maildir.parent / "aiosmtpd.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
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
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"aiosmtpd exited:\n{log.read_text(errors='replace')}")
            try:
                with socket.create_connection((server.host, server.port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("aiosmtpd did not listen in 30 s") from None
                time.sleep(0.2)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
