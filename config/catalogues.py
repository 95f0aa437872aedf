"""The translation catalogues (locale/<language>/LC_MESSAGES/django.po), checked and counted.

    python -m config.catalogues check    fail on an untranslated or fuzzy entry of either Chinese,
                                         a translation whose placeholders differ, a plural
                                         entry without the header's number of forms, or ASCII
                                         punctuation touching Chinese (make lint)
    python -m config.catalogues count    the translated entries of each catalogue
    python -m config.catalogues compile  build the .mo files older than their .po

The .po format is read here (msgctxt, msgid, msgid_plural, msgstr[n], flags). The .mo files are
built with gettext's ``msgfmt --check`` where it is installed, else with polib (a pure-Python
package of requirements.txt), so that ``make demo`` needs nothing but python3 on a fresh machine.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

LOCALE = Path(__file__).resolve().parent.parent / "locale"
CHINESE = ("zh_Hans", "zh_Hant")
PLACEHOLDER = re.compile(r"%\((\w+)\)[sdfr]|%[sdfr]|\{(\w*)\}")
PLURAL_FORMS = re.compile(r"Plural-Forms:\s*nplurals\s*=\s*(\d+)")


@dataclass
class Entry:
    msgid: str = ""
    msgid_plural: str = ""
    msgctxt: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    line: int = 0
    obsolete: bool = False

    @property
    def translated(self) -> bool:
        return bool(self.msgstr) and all(self.msgstr.values())


def read(path: Path) -> list[Entry]:
    entries: list[Entry] = []
    entry = Entry()
    target: tuple[str, int] | None = None

    def finish() -> None:
        nonlocal entry, target
        if entry.msgid or entry.msgstr:
            entries.append(entry)
        entry, target = Entry(), None

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line:
            finish()
            continue
        if line.startswith("#~"):
            entry.obsolete = True
            continue
        if line.startswith("#,"):
            if entry.msgid or entry.msgstr:
                finish()
            entry.flags.update(flag.strip() for flag in line[2:].split(","))
            continue
        if line.startswith("#"):
            continue
        keyword, _, rest = line.partition(" ")
        if keyword.startswith('"'):
            rest, keyword = line, ""
        text = ast.literal_eval(rest) if rest.startswith('"') else ""
        if keyword == "msgctxt":
            if entry.msgid or entry.msgstr:
                finish()
            entry.msgctxt, target = text, ("msgctxt", 0)
            entry.line = entry.line or number
        elif keyword == "msgid":
            if entry.msgstr:
                finish()
            entry.msgid, target = text, ("msgid", 0)
            entry.line = entry.line or number
        elif keyword == "msgid_plural":
            entry.msgid_plural, target = text, ("msgid_plural", 0)
        elif keyword.startswith("msgstr"):
            index = int(keyword[7:-1]) if keyword.startswith("msgstr[") else 0
            entry.msgstr[index], target = text, ("msgstr", index)
        elif keyword == "" and target is not None:
            kind, index = target
            if kind == "msgstr":
                entry.msgstr[index] += text
            elif kind == "msgctxt":
                entry.msgctxt = (entry.msgctxt or "") + text
            else:
                setattr(entry, kind, getattr(entry, kind) + text)
    finish()
    return [e for e in entries if e.msgid and not e.obsolete]


def placeholders(text: str) -> set[str]:
    return {match.group(0) for match in PLACEHOLDER.finditer(text)}


def plural_forms(path: Path) -> int | None:
    """The number of plural forms the catalogue's header gives (1 for Chinese), or None."""
    match = PLURAL_FORMS.search(path.read_text(encoding="utf-8"))
    return int(match.group(1)) if match else None


# Han characters (not the full-width punctuation beside them).
_HAN = "\u3400-\u9fff"
# What a Chinese sentence writes in full width: an ASCII comma, semicolon, colon, question or
# exclamation mark or parenthesis touching a Han character ("北京大学, 中国", "(每天最多 5 组)"),
# or a full stop after one ("…组."). Placeholders, tags and template variables are left out
# first: what they hold (a formula, a URL) is not the sentence's punctuation.
_ASCII_PUNCTUATION = re.compile(
    rf"[{_HAN}]\s*[,;:?!()]|[,;:?!(]\s*[{_HAN}]|\)[{_HAN}]|[{_HAN}]\.(?:\s|$)"
)
_NOT_PROSE = re.compile(r"<[^>]*>|%\(\w+\)[sdfr]|%[sdfr]|\{\{[^}]*\}\}|\{\w*\}")


def ascii_punctuation(text: str) -> str | None:
    """The first ASCII punctuation mark of ``text`` that a Chinese sentence writes in full
    width, with what touches it; None when there is none.

    >>> ascii_punctuation("北京大学, 中国"), ascii_punctuation("（每天最多 5 组）。")
    ('学,', None)
    """
    found = _ASCII_PUNCTUATION.search(_NOT_PROSE.sub(" ", text))
    return found.group(0) if found else None


def problems(path: Path) -> list[str]:
    found = []
    forms = plural_forms(path)
    for entry in read(path):
        where = f"{path}:{entry.line}"
        if "fuzzy" in entry.flags:
            found.append(f"{where}: fuzzy: {entry.msgid!r}")
        elif not entry.translated:
            found.append(f"{where}: untranslated: {entry.msgid!r}")
        elif (
            entry.msgid_plural and forms is not None and sorted(entry.msgstr) != list(range(forms))
        ):
            found.append(f"{where}: {len(entry.msgstr)} plural forms, not {forms}: {entry.msgid!r}")
        elif "python-format" in entry.flags or "python-brace-format" in entry.flags:
            wanted = placeholders(entry.msgid) | placeholders(entry.msgid_plural)
            # A form may leave the count out ("one run") when other forms say it; a single form
            # (Chinese) is what every count reads, so it names all that the plural names.
            if not entry.msgid_plural:
                kept = placeholders(entry.msgid)
            elif forms == 1:
                kept = placeholders(entry.msgid_plural)
            else:
                kept = set()
            for translation in entry.msgstr.values():
                if placeholders(translation) - wanted or kept - placeholders(translation):
                    found.append(f"{where}: placeholders differ: {entry.msgid!r}")
                    break
        if path.parent.parent.name in CHINESE and entry.translated:
            for translation in entry.msgstr.values():
                mark = ascii_punctuation(translation)
                if mark is not None:
                    found.append(
                        f"{where}: ASCII punctuation in Chinese ({mark!r}): {entry.msgid!r}"
                    )
                    break
    return found


def catalogues() -> list[Path]:
    return [LOCALE / language / "LC_MESSAGES" / "django.po" for language in CHINESE]


def check() -> int:
    failures: list[str] = []
    for path in catalogues():
        if not path.exists():
            failures.append(f"{path}: missing")
            continue
        failures += problems(path)
        msgfmt = shutil.which("msgfmt")
        if msgfmt:
            done = subprocess.run(
                [msgfmt, "--check", "-o", "/dev/null", str(path)],
                capture_output=True,
                text=True,
                check=False,
            )
            if done.returncode:
                failures.append(f"{path}: msgfmt --check: {done.stderr.strip()}")
    for failure in failures:
        print(failure, file=sys.stderr)
    if not failures:
        counted = ", ".join(f"{p.parent.parent.name} {count(p)}" for p in catalogues())
        print(f"catalogues: every entry translated ({counted})")
    return 1 if failures else 0


def count(path: Path) -> int:
    return sum(1 for entry in read(path) if entry.translated and "fuzzy" not in entry.flags)


def compile_stale() -> list[Path]:
    """Builds each .mo file older than its .po (what ``manage.py compilemessages`` does, without
    walking the tree and without needing gettext); ``make messages`` and the tests call it, so
    that a fresh clone needs no step before pytest."""
    built = []
    for path in catalogues():
        compiled = path.with_suffix(".mo")
        if path.exists() and (
            not compiled.exists() or compiled.stat().st_mtime < path.stat().st_mtime
        ):
            build(path, compiled)
            built.append(compiled)
    return built


def build(po: Path, mo: Path) -> None:
    msgfmt = shutil.which("msgfmt")
    if msgfmt is not None:
        subprocess.run([msgfmt, "--check", "-o", str(mo), str(po)], check=True)
        return
    import polib  # only without gettext: the platform never imports it

    polib.pofile(str(po)).save_as_mofile(str(mo))


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "check":
        return check()
    if command == "count":
        for path in catalogues():
            print(f"{path.parent.parent.name}: {count(path)} translated of {len(read(path))}")
        return 0
    if command == "compile":
        for built in compile_stale():
            print(f"built {built}")
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
